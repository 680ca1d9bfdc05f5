/**
 * Documents to `.impulse` text: pretty JSON with a fixed key order (the
 * order of `types.ts`), typed arrays as little-endian base64 blocks, numbers
 * in their shortest exact form. `parseDocument(serializeDocument(doc))`
 * gives back the same document, typed arrays bit for bit.
 */
import { dtypeOf, typedArrayToBase64, type BlockArray } from './base64';
import type {
  Character,
  CharacterCollision,
  CheckSettings,
  Clip,
  CollisionSettings,
  IgnoreRule,
  ImpulseDocument,
  Joint,
  Material,
  PartRef,
  Prop,
  SkinnedMesh,
  SourceRef,
  Track,
  TrackTarget,
  Transform,
} from './types';
import { validateDocument } from './validate';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json } | Block;

/** Marker class so the printer keeps blocks on one line. */
class Block {
  constructor(readonly dtype: string, readonly b64: string) {}
}

function block(a: BlockArray): Block {
  return new Block(dtypeOf(a), typedArrayToBase64(a));
}

/** Builds an object in the given key order, leaving out undefined values. */
function obj(entries: [string, Json | undefined][]): { [key: string]: Json } {
  const o: { [key: string]: Json } = {};
  for (const [k, v] of entries) if (v !== undefined) o[k] = v;
  return o;
}

const transform = (t: Transform): Json => obj([['translation', [...t.translation]], ['rotation', [...t.rotation]], ['scale', [...t.scale]]]);
const material = (m: Material): Json =>
  obj([['name', m.name], ['baseColor', [...m.baseColor]], ['metallic', m.metallic], ['roughness', m.roughness]]);
const joint = (j: Joint): Json => obj([['name', j.name], ['parent', j.parent], ['rest', transform(j.rest)]]);
const source = (s: SourceRef | undefined): Json | undefined => (s ? obj([['file', s.file], ['index', s.index], ['name', s.name]]) : undefined);
const collision = (c: CollisionSettings): Json => obj([['enabled', c.enabled], ['groups', c.groups], ['mask', c.mask]]);
const characterCollision = (c: CharacterCollision): Json =>
  obj([['enabled', c.enabled], ['groups', c.groups], ['mask', c.mask], ['selfCollision', c.selfCollision], ['adjacentHops', c.adjacentHops]]);

const skinnedMesh = (m: SkinnedMesh): Json =>
  obj([
    ['name', m.name],
    ['material', m.material],
    ['positions', block(m.positions)],
    ['normals', m.normals ? block(m.normals) : undefined],
    ['indices', block(m.indices)],
    ['joints', block(m.joints)],
    ['weights', block(m.weights)],
    ['skinJoints', block(m.skinJoints)],
    ['inverseBindMatrices', block(m.inverseBindMatrices)],
  ]);

const character = (c: Character): Json =>
  obj([
    ['id', c.id],
    ['name', c.name],
    ['mode', c.mode],
    ['transform', transform(c.transform)],
    ['collision', characterCollision(c.collision)],
    ['source', source(c.source)],
    ['materials', c.materials.map(material)],
    ['skeleton', obj([['joints', c.skeleton.joints.map(joint)]])],
    ['meshes', c.meshes.map(skinnedMesh)],
  ]);

const prop = (p: Prop): Json =>
  obj([
    ['id', p.id],
    ['name', p.name],
    ['transform', transform(p.transform)],
    [
      'physics',
      obj([
        ['mode', p.physics.mode],
        ['massKg', p.physics.massKg],
        ['densityKgPerM3', p.physics.densityKgPerM3],
        ['restitution', p.physics.restitution],
        ['friction', p.physics.friction],
      ]),
    ],
    ['collision', collision(p.collision)],
    ['source', source(p.source)],
    ['material', material(p.material)],
    [
      'mesh',
      obj([
        ['positions', block(p.mesh.positions)],
        ['normals', p.mesh.normals ? block(p.mesh.normals) : undefined],
        ['indices', block(p.mesh.indices)],
      ]),
    ],
  ]);

const target = (t: TrackTarget): Json =>
  t.kind === 'joint' ? obj([['kind', t.kind], ['character', t.character], ['joint', t.joint]]) : obj([['kind', t.kind], ['prop', t.prop]]);

const track = (t: Track): Json =>
  obj([['target', target(t.target)], ['path', t.path], ['interpolation', t.interpolation], ['times', [...t.times]], ['values', [...t.values]]]);

const clip = (c: Clip): Json =>
  obj([['id', c.id], ['name', c.name], ['frameRate', c.frameRate], ['startFrame', c.startFrame], ['endFrame', c.endFrame], ['tracks', c.tracks.map(track)]]);

const partRef = (r: PartRef): Json => obj([['object', r.object], ['joint', r.joint]]);
const ignoreRule = (r: IgnoreRule): Json => obj([['a', partRef(r.a)], ['b', partRef(r.b)], ['note', r.note]]);
const check = (c: CheckSettings): Json => obj([['ignore', c.ignore.map(ignoreRule)], ['groupNames', [...c.groupNames]]]);

/** The on-disk JSON value of a document (blocks as `{ dtype, b64 }` objects). */
export function documentToJson(doc: ImpulseDocument): unknown {
  return JSON.parse(print(toJson(doc), '', ''));
}

function toJson(doc: ImpulseDocument): Json {
  return obj([
    ['version', doc.version],
    ['name', doc.name],
    ['activeClip', doc.activeClip],
    ['gravity', [...doc.gravity]],
    ['groundY', doc.groundY],
    ['check', check(doc.check)],
    ['characters', doc.characters.map(character)],
    ['props', doc.props.map(prop)],
    ['clips', doc.clips.map(clip)],
  ]);
}

const NUMBERS_PER_LINE = 12;

function printNumber(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`cannot write ${x} to JSON`);
  return Object.is(x, -0) ? '-0' : JSON.stringify(x);
}

function print(v: Json, indent: string, step: string): string {
  const nl = step ? '\n' : '';
  const sp = step ? ' ' : '';
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return printNumber(v);
  if (v instanceof Block) return `{${sp}"dtype":${sp}${JSON.stringify(v.dtype)},${sp}"b64":${sp}${JSON.stringify(v.b64)}${sp}}`;
  const inner = indent + step;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every((x) => typeof x === 'number')) {
      const nums = (v as number[]).map(printNumber);
      if (!step || nums.length <= NUMBERS_PER_LINE) return `[${nums.join(`,${sp}`)}]`;
      const lines: string[] = [];
      for (let i = 0; i < nums.length; i += NUMBERS_PER_LINE) lines.push(inner + nums.slice(i, i + NUMBERS_PER_LINE).join(', '));
      return `[\n${lines.join(',\n')}\n${indent}]`;
    }
    if (step && v.every((x) => typeof x === 'string') && v.length <= NUMBERS_PER_LINE) return `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
    return `[${nl}${v.map((x) => inner + print(x, inner, step)).join(`,${nl}`)}${nl}${indent}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{${nl}${keys.map((k) => `${inner}${JSON.stringify(k)}:${sp}${print(v[k], inner, step)}`).join(`,${nl}`)}${nl}${indent}}`;
}

export interface SerializeOptions {
  /** Validate before writing (default true): never write a file that will not load. */
  validate?: boolean;
  /** Indent with two spaces (default true); false writes compact JSON. */
  pretty?: boolean;
}

/** The `.impulse` text of a document. Throws a DocumentError if the document is invalid. */
export function serializeDocument(doc: ImpulseDocument, options: SerializeOptions = {}): string {
  if (options.validate !== false) validateDocument(doc);
  const pretty = options.pretty !== false;
  return print(toJson(doc), '', pretty ? '  ' : '') + (pretty ? '\n' : '');
}
