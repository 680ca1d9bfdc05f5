import { describe, expect, it } from 'vitest';
import { DocumentError } from './errors';
import { sampleDocument } from './fixtures';
import { migrateDocument, MIGRATIONS, OLDEST_SUPPORTED_VERSION, type Migration } from './migrations';
import { parseDocument } from './parse';
import { documentToJson } from './serialize';
import { DOCUMENT_VERSION } from './types';
import { documentProblems } from './validate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Raw = any;

/** The sample written the v1 way: flat prop physics, no character collision/mode, no check/gravity/groundY. */
function v1Sample(): Raw {
  const raw: Raw = documentToJson(sampleDocument());
  raw.version = 1;
  delete raw.gravity;
  delete raw.groundY;
  delete raw.check;
  for (const c of raw.characters) {
    delete c.collision;
    delete c.mode;
  }
  raw.props.forEach((p: Raw, i: number) => {
    const { physics } = p;
    delete p.physics;
    p.mass = i === 0 ? 4 : 1.25;
    p.dynamic = physics.mode === 'dynamic';
    p.restitution = physics.restitution;
    p.friction = physics.friction;
  });
  return raw;
}

/** A v1 file as the first prototype wrote it, by hand: plain arrays, one prop, no characters. */
const V1_TEXT = `{
  "version": 1,
  "name": "old",
  "activeClip": "c",
  "characters": [],
  "props": [{
    "id": "p", "name": "Tri",
    "transform": { "translation": [0, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1] },
    "mesh": { "positions": [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], "indices": [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3] },
    "material": { "name": "m", "baseColor": [1, 1, 1, 1], "metallic": 0, "roughness": 1 },
    "collision": { "enabled": false, "groups": 2, "mask": 3 },
    "mass": 2.5, "dynamic": true, "restitution": 0.5, "friction": 0.25
  }],
  "clips": [{ "id": "c", "name": "C", "frameRate": 24, "startFrame": 0, "endFrame": 48, "tracks": [
    { "target": { "kind": "prop", "prop": "p" }, "path": "translation", "interpolation": "linear", "times": [0, 1], "values": [0, 0, 0, 1, 2, 3] }
  ] }]
}`;

describe('migrations', () => {
  it('are an ordered chain ending at DOCUMENT_VERSION', () => {
    expect(OLDEST_SUPPORTED_VERSION).toBe(1);
    for (let i = 0; i < MIGRATIONS.length; i++) {
      expect(MIGRATIONS[i].to).toBeGreaterThan(MIGRATIONS[i].from);
      if (i > 0) expect(MIGRATIONS[i].from, `migration ${i} starts where ${i - 1} ends`).toBe(MIGRATIONS[i - 1].to);
    }
    expect(MIGRATIONS[MIGRATIONS.length - 1].to).toBe(DOCUMENT_VERSION);
  });

  it('load a hand-written v1 file as a valid v2 document', () => {
    const doc = parseDocument(V1_TEXT);
    expect(doc.version).toBe(2);
    expect(documentProblems(doc)).toEqual([]);
    expect(doc.props[0].physics).toEqual({ mode: 'dynamic', massKg: 2.5, restitution: 0.5, friction: 0.25 });
    expect(doc.props[0]).not.toHaveProperty('mass');
    expect(doc.props[0]).not.toHaveProperty('dynamic');
    expect(doc.props[0].collision).toEqual({ enabled: false, groups: 2, mask: 3 });
    expect(doc.gravity).toEqual([0, -9.81, 0]);
    expect(doc.groundY).toBeNull();
    expect(doc.check).toEqual({ ignore: [], groupNames: ['default'] });
    expect(Array.from(doc.props[0].mesh.positions)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(doc.clips[0].tracks[0].values).toEqual([0, 0, 0, 1, 2, 3]);
  });

  it('migrate the v1 sample to the v2 sample (apart from what v1 could not say)', () => {
    const doc = parseDocument(JSON.stringify(v1Sample()));
    const expected = sampleDocument();
    expect(documentProblems(doc)).toEqual([]);
    expect(doc.props.map((p) => p.physics)).toEqual([
      { mode: 'keyframed', massKg: 4, restitution: 0.3, friction: 0.6 },
      { mode: 'dynamic', massKg: 1.25, restitution: 0.8, friction: 0.4 },
    ]);
    expect(doc.characters[0].mode).toBe('keyframed');
    expect(doc.characters[0].collision).toEqual({ enabled: true, groups: 1, mask: 0xffffffff, selfCollision: true, adjacentHops: 1 });
    // Everything v1 already had comes through unchanged.
    expect(doc.clips).toEqual(expected.clips);
    expect(doc.characters[0].skeleton).toEqual(expected.characters[0].skeleton);
    expect(doc.characters[0].meshes).toEqual(expected.characters[0].meshes);
    expect(doc.props.map((p) => p.mesh)).toEqual(expected.props.map((p) => p.mesh));
  });

  it('name the v1 field when a v1 prop is malformed', () => {
    const raw = v1Sample();
    raw.props[1].mass = 'heavy';
    expect(() => parseDocument(JSON.stringify(raw))).toThrow('props[1].mass: expected a number (v1 prop mass in kg), got "heavy"');
    const raw2 = v1Sample();
    delete raw2.props[0].dynamic;
    expect(() => parseDocument(JSON.stringify(raw2))).toThrow('props[0].dynamic: expected true or false (v1 prop), got nothing');
  });

  it('leave v1 values to the v2 checks (a v1 mass of 0 fails as physics.massKg)', () => {
    const raw = v1Sample();
    raw.props[0].mass = 0;
    expect(() => parseDocument(JSON.stringify(raw))).toThrow('props[0].physics.massKg: must be a finite number > 0 (got 0)');
  });

  it('refuse files from a newer Impulse', () => {
    const raw = documentToJson(sampleDocument()) as Raw;
    raw.version = DOCUMENT_VERSION + 5;
    let err: unknown;
    try {
      parseDocument(JSON.stringify(raw));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DocumentError);
    expect((err as DocumentError).path).toBe('version');
    expect((err as Error).message).toMatch(/written by a newer Impulse \(document version 7; this Impulse reads versions up to 2\)/);
  });

  it('run a chain of steps in order and check what each produces', () => {
    const log: string[] = [];
    const chain: Migration[] = [
      { from: 1, to: 2, description: 'a', migrate: (r) => (log.push('1->2'), { ...r, version: 2, a: 1 }) },
      { from: 2, to: 4, description: 'b', migrate: (r) => (log.push('2->4'), { ...r, version: 4, b: (r.a as number) + 1 }) },
      { from: 4, to: 5, description: 'c', migrate: (r) => (log.push('4->5'), { ...r, version: 5, c: (r.b as number) + 1 }) },
    ];
    expect(migrateDocument({ version: 1 }, chain, 5)).toEqual({ version: 5, a: 1, b: 2, c: 3 });
    expect(log).toEqual(['1->2', '2->4', '4->5']);
    log.length = 0;
    expect(migrateDocument({ version: 4, b: 10 }, chain, 5)).toEqual({ version: 5, b: 10, c: 11 });
    expect(log).toEqual(['4->5']);
    expect(() => migrateDocument({ version: 3 }, chain, 5)).toThrow('version: no migration from document version 3 (towards 5)');
    const liar: Migration[] = [{ from: 1, to: 2, description: 'x', migrate: (r) => ({ ...r, version: 3 }) }];
    expect(() => migrateDocument({ version: 1 }, liar, 2)).toThrow('migration 1 -> 2 produced version 3');
  });

  it('leave a current document untouched', () => {
    const raw = documentToJson(sampleDocument());
    expect(migrateDocument(raw)).toBe(raw);
  });
});
