import { describe, expect, it } from 'vitest';
import { cloneDocument, createEmptyDocument } from './defaults';
import { mulberry32, sampleDocument } from './fixtures';
import { parseDocument } from './parse';
import { serializeDocument } from './serialize';
import type { ImpulseDocument } from './types';

type AnyTyped = Float32Array | Uint32Array | Uint16Array | Int32Array;

/** Bit patterns of a typed array (floats as their raw 32 bits), for bit-exact comparison. */
function bits(a: AnyTyped): number[] {
  return Array.from(a instanceof Float32Array ? new Uint32Array(a.buffer, a.byteOffset, a.length) : a);
}

/** Walks two values in parallel and lists every difference (typed arrays bit by bit, numbers with Object.is). */
function differences(a: unknown, b: unknown, path = '', out: string[] = []): string[] {
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) out.push(`${path}: ${Object.prototype.toString.call(a)} vs ${Object.prototype.toString.call(b)}`);
    else {
      const x = bits(a as AnyTyped), y = bits(b as AnyTyped);
      if (x.length !== y.length) out.push(`${path}: length ${x.length} vs ${y.length}`);
      else for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) { out.push(`${path}[${i}]: bits ${x[i]} vs ${y[i]}`); break; }
    }
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: length ${a.length} vs ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => (a as Record<string, unknown>)[k] !== undefined || (b as Record<string, unknown>)[k] !== undefined));
    for (const k of keys) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (!Object.is(a, b)) out.push(`${path}: ${String(a)} vs ${String(b)}`);
  return out;
}

/** The sample with seeded random awkward numbers everywhere bits could be lost. */
function awkwardDocument(seed: number): ImpulseDocument {
  const rand = mulberry32(seed);
  const doc = sampleDocument();
  const f32 = new Uint32Array(1);
  const f = new Float32Array(f32.buffer);
  const randomFloat32 = () => {
    // Random finite float32 bit patterns (any exponent but the all-ones one), incl. subnormals and -0.
    do f32[0] = Math.floor(rand() * 0x100000000);
    while (!Number.isFinite(f[0]));
    return f[0];
  };
  const special = [-0, 1.401298464324817e-45, -3.4028234663852886e38, 1.1754942106924411e-38];
  for (const p of doc.props) {
    for (let i = 0; i < p.mesh.positions.length; i++) p.mesh.positions[i] = i < special.length ? special[i] : randomFloat32();
    p.mesh.normals = new Float32Array(p.mesh.positions.length).map(randomFloat32);
  }
  const m = doc.characters[0].meshes[0];
  for (let i = 0; i < m.positions.length; i++) m.positions[i] = randomFloat32();
  for (let i = 0; i < m.inverseBindMatrices.length; i++) m.inverseBindMatrices[i] = randomFloat32();
  // Weights: random but summing to 1 in float32 terms is not needed bit-wise; keep them valid.
  for (let v = 0; v < m.weights.length / 4; v++) {
    const a = Math.fround(rand()), b = Math.fround((1 - a) * rand());
    m.weights.set([a, b, Math.fround(1 - a - b), 0], 4 * v);
  }
  const randomDouble = () => (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20);
  doc.props[0].transform.translation = [0.1 + 0.2, -0, 5e-324];
  doc.props[1].transform.rotation = [randomDouble(), randomDouble(), randomDouble(), 1 / 3];
  doc.props[1].physics.densityKgPerM3 = 1 / 7;
  doc.gravity = [randomDouble(), -9.80665, Number.MIN_VALUE];
  doc.groundY = -1 / 3;
  for (const t of doc.clips[0].tracks) {
    let time = (rand() - 0.5) * 10;
    t.times = t.times.map(() => (time += rand() / 3 + 1e-9));
    t.values = t.values.map((_v, i) => (t.path === 'rotation' && i % 4 === 3 ? 1 : randomDouble()));
  }
  doc.name = 'Ünïcödé "quoted" \\ back\nslash 🎾';
  return doc;
}

describe('serializeDocument / parseDocument round trip', () => {
  it('(the comparison used below sees a one-bit change, a -0 and an extra optional field)', () => {
    const a = sampleDocument();
    const b = sampleDocument();
    const u = new Uint32Array(b.props[0].mesh.positions.buffer);
    u[3] ^= 1;
    expect(differences(a, b)).toEqual([expect.stringMatching(/^\.props\[0\]\.mesh\.positions\[3\]: bits/)]);
    const c = sampleDocument();
    c.props[0].transform.translation[2] = -0;
    expect(differences(a, c)).toHaveLength(1);
    const d = sampleDocument();
    d.props[0].physics.densityKgPerM3 = 1;
    expect(differences(a, d)).toHaveLength(1);
  });

  for (const seed of [1, 2, 3]) {
    it(`is exact (typed arrays bit for bit, doubles, -0, strings), seed ${seed}`, () => {
      const doc = awkwardDocument(seed);
      const text = serializeDocument(doc);
      const back = parseDocument(text);
      expect(differences(doc, back), 'differences after a round trip').toEqual([]);
      expect(serializeDocument(back), 'serialising the loaded document gives the same text').toBe(text);
    });
  }

  it('writes typed arrays as base64 blocks of their own dtype', () => {
    const raw = JSON.parse(serializeDocument(sampleDocument()));
    const m = raw.characters[0].meshes[0];
    expect(Object.keys(m.positions)).toEqual(['dtype', 'b64']);
    expect([m.positions.dtype, m.indices.dtype, m.joints.dtype, m.weights.dtype, m.skinJoints.dtype, m.inverseBindMatrices.dtype]).toEqual(['f32', 'u32', 'u16', 'f32', 'i32', 'f32']);
  });

  it('does not depend on the key order of the objects in memory', () => {
    const doc = sampleDocument();
    // Rebuild every plain object with reversed key insertion order.
    const reverseKeys = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(reverseKeys);
      if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
        const o: Record<string, unknown> = {};
        for (const k of Object.keys(v).reverse()) o[k] = reverseKeys((v as Record<string, unknown>)[k]);
        return o;
      }
      return v;
    };
    const shuffled = reverseKeys(doc) as ImpulseDocument;
    expect(Object.keys(shuffled)[0]).not.toBe(Object.keys(doc)[0]);
    expect(serializeDocument(shuffled)).toBe(serializeDocument(doc));
  });

  it('leaves out optional fields that are not set and keeps those that are', () => {
    const doc = sampleDocument();
    const raw = JSON.parse(serializeDocument(doc));
    expect(raw.props[0].physics).not.toHaveProperty('densityKgPerM3');
    expect(raw.props[1].physics).not.toHaveProperty('massKg');
    expect(raw.props[0]).not.toHaveProperty('source');
    expect(raw.characters[0].source).toEqual({ file: 'hero.glb', index: 0, name: 'Armature' });
    expect(raw.check.ignore[0]).toEqual({ a: { object: 'hero', joint: 3 }, b: { object: 'crate' }, note: 'hand rests on crate' });
  });

  it('refuses to write an invalid document unless told not to validate', () => {
    const doc = sampleDocument();
    doc.clips[0].frameRate = -1;
    expect(() => serializeDocument(doc)).toThrow('clips[0].frameRate: must be a finite number > 0 (got -1)');
    expect(JSON.parse(serializeDocument(doc, { validate: false })).clips[0].frameRate).toBe(-1);
  });

  it('writes compact JSON on request, which loads the same', () => {
    const doc = sampleDocument();
    const compact = serializeDocument(doc, { pretty: false });
    expect(compact).not.toContain('\n');
    expect(differences(parseDocument(compact), doc)).toEqual([]);
  });

  it('round-trips an empty document', () => {
    const doc = createEmptyDocument('Blank');
    expect(differences(parseDocument(serializeDocument(doc)), doc)).toEqual([]);
  });
});

describe('cloneDocument', () => {
  it('copies deeply: typed arrays and tracks of the copy are independent', () => {
    const doc = sampleDocument();
    const copy = cloneDocument(doc);
    expect(differences(copy, doc)).toEqual([]);
    copy.props[0].mesh.positions[0] = 42;
    copy.clips[0].tracks[0].values[0] = 42;
    copy.characters[0].skeleton.joints[1].rest.translation[1] = 42;
    expect(doc.props[0].mesh.positions[0]).not.toBe(42);
    expect(doc.clips[0].tracks[0].values[0]).not.toBe(42);
    expect(doc.characters[0].skeleton.joints[1].rest.translation[1]).toBe(0.5);
  });
});
