/**
 * Migrations of saved documents, oldest first. Each step takes the raw JSON
 * of version `from` (already JSON.parse'd, not yet validated) and returns the
 * raw JSON of version `to`. Steps check the fields they move and throw a
 * `DocumentError` naming the field in the OLD layout; everything else is left
 * to the schema of the newest version.
 *
 * Version history:
 * - v1: props had flat `mass` (kg), `dynamic` (boolean), `restitution` and
 *   `friction` instead of `physics: {...}`; characters had no `collision`
 *   and no `mode`; the document had no `check` settings, `gravity` or
 *   `groundY`. (v1 files exist from the first prototype.)
 * - v2: the current layout (`types.ts`).
 */
import { defaultCharacterCollision, defaultCheckSettings, DEFAULT_GRAVITY } from './defaults';
import { DocumentError, describeValue } from './errors';
import { DOCUMENT_VERSION } from './types';

export type RawObject = Record<string, unknown>;

export interface Migration {
  from: number;
  to: number;
  /** What changed, for messages and the changelog. */
  description: string;
  /** Returns the migrated document (may modify and return `raw`). */
  migrate(raw: RawObject): RawObject;
}

function isObject(v: unknown): v is RawObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function arrayField(raw: RawObject, key: string, path: string): unknown[] {
  const v = raw[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new DocumentError(path, `expected an array, got ${describeValue(v)}`);
  return v;
}

function migrateV1toV2(raw: RawObject): RawObject {
  const props = arrayField(raw, 'props', 'props').map((p, i) => {
    const path = `props[${i}]`;
    if (!isObject(p)) throw new DocumentError(path, `expected an object, got ${describeValue(p)}`);
    const { mass, dynamic, restitution, friction, ...rest } = p;
    if (typeof mass !== 'number') throw new DocumentError(`${path}.mass`, `expected a number (v1 prop mass in kg), got ${describeValue(mass)}`);
    if (typeof dynamic !== 'boolean') throw new DocumentError(`${path}.dynamic`, `expected true or false (v1 prop), got ${describeValue(dynamic)}`);
    if (typeof restitution !== 'number') throw new DocumentError(`${path}.restitution`, `expected a number (v1 prop), got ${describeValue(restitution)}`);
    if (typeof friction !== 'number') throw new DocumentError(`${path}.friction`, `expected a number (v1 prop), got ${describeValue(friction)}`);
    return { ...rest, physics: { mode: dynamic ? 'dynamic' : 'keyframed', massKg: mass, restitution, friction } };
  });
  const characters = arrayField(raw, 'characters', 'characters').map((c, i) => {
    if (!isObject(c)) throw new DocumentError(`characters[${i}]`, `expected an object, got ${describeValue(c)}`);
    return { ...c, collision: defaultCharacterCollision(), mode: 'keyframed' };
  });
  return {
    ...raw,
    version: 2,
    // v1 had no gravity setting and no ground: keep it ground-less, add standard gravity.
    gravity: [...DEFAULT_GRAVITY],
    groundY: null,
    characters,
    props,
    check: defaultCheckSettings(),
  };
}

export const MIGRATIONS: readonly Migration[] = [
  {
    from: 1,
    to: 2,
    description: 'props get a physics block; characters get collision settings and a control mode; documents get check settings, gravity and groundY',
    migrate: migrateV1toV2,
  },
];

export const OLDEST_SUPPORTED_VERSION = MIGRATIONS.length > 0 ? MIGRATIONS[0].from : DOCUMENT_VERSION;

/**
 * Brings a raw (JSON.parse'd) document to DOCUMENT_VERSION. Throws a
 * DocumentError for a missing or unknown version, or a file from a newer
 * Impulse.
 */
export function migrateDocument(raw: unknown, migrations: readonly Migration[] = MIGRATIONS, latest = DOCUMENT_VERSION): RawObject {
  if (!isObject(raw)) throw new DocumentError('', `a document is a JSON object, got ${describeValue(raw)}`);
  const version = raw.version;
  if (typeof version !== 'number' || !Number.isInteger(version))
    throw new DocumentError('version', `expected an integer document version, got ${describeValue(version)}`);
  if (version > latest)
    throw new DocumentError('version', `this file was written by a newer Impulse (document version ${version}; this Impulse reads versions up to ${latest}). Update Impulse to open it.`);
  const oldest = migrations.length > 0 ? Math.min(...migrations.map((m) => m.from)) : latest;
  if (version < oldest) throw new DocumentError('version', `document version ${version} is older than any version this Impulse can read (oldest ${oldest})`);
  let doc: RawObject = raw;
  let v = version;
  while (v < latest) {
    const step = migrations.find((m) => m.from === v);
    if (!step) throw new DocumentError('version', `no migration from document version ${v} (towards ${latest})`);
    if (!(step.to > step.from)) throw new Error(`migration ${step.from} -> ${step.to} does not move forward`);
    doc = step.migrate(doc);
    if (doc.version !== step.to) throw new Error(`migration ${step.from} -> ${step.to} produced version ${String(doc.version)}`);
    v = step.to;
  }
  return doc;
}
