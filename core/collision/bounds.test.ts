import { describe, expect, it } from 'vitest';
import { FEATURE_EDGE_EDGE, FEATURE_VERTEX_TRIANGLE, MOTION_BOX, advanceFeature, earliestPossibleContact, windowAlong, motionBoxInto, touchWindow, touchWindowNormals } from './backtrack';
import { ccdQueryFlat } from './ccd';
import { mulberry32 } from './testutil';

/**
 * The time bounds that order and cut the continuous search (backtrack.ts):
 * `touchWindow` for a triangle pair (the window of the moving intervals)
 * and `earliestPossibleContact` for one feature must never start after a
 * contact the exact CCD finds, or a first contact could be skipped. Checked
 * against the CCD itself over the whole step on seeded moving triangle pairs:
 * general motion near contact, and pure translations that close an
 * axis-aligned gap vertex on vertex (where the bound is tight, so a bound
 * that is even slightly late is caught: the check is run on deliberately
 * wrong bounds too, and must fail for them).
 */

// six vertices: triangle a = 0, 1, 2; triangle b = 3, 4, 5
const IA = new Uint32Array([0, 1, 2]), IB = new Uint32Array([3, 4, 5]);

interface Case { P0: Float64Array; P1: Float64Array }

function rv(r: () => number, s: number): [number, number, number] { return [(r() - 0.5) * s, (r() - 0.5) * s, (r() - 0.5) * s]; }

function makeCases(seed: number, n: number): Case[] {
  const r = mulberry32(seed);
  const cases: Case[] = [];
  for (let c = 0; c < n; c++) {
    const P0 = new Float64Array(18), P1 = new Float64Array(18);
    if (c % 2 === 0) {
      // general: b near a, every vertex moving on its own (rotation, deformation)
      const off = rv(r, 0.6), base = rv(r, 4);
      for (let v = 0; v < 6; v++) {
        const p = rv(r, 1), d = rv(r, 1.2);
        for (let k = 0; k < 3; k++) {
          P0[v * 3 + k] = base[k] + p[k] + (v >= 3 ? off[k] : 0);
          P1[v * 3 + k] = P0[v * 3 + k] + d[k];
        }
      }
    } else {
      // tight: b's lowest vertex on axis `ax` faces a's highest across a gap g,
      // b translates straight toward a by more than g (vertex meets vertex)
      const ax = c % 3, g = 0.01 + 0.3 * r(), speed = g * (1.05 + 2 * r());
      const base = rv(r, 4);
      for (let v = 0; v < 3; v++) { const p = rv(r, 1); for (let k = 0; k < 3; k++) P0[v * 3 + k] = base[k] + p[k]; }
      let top = 0;
      for (let v = 1; v < 3; v++) if (P0[v * 3 + ax] > P0[top * 3 + ax]) top = v;
      for (let k = 0; k < 3; k++) P0[9 + k] = P0[top * 3 + k] + (k === ax ? g : 0);
      for (let v = 4; v < 6; v++) {
        const p = rv(r, 1);
        for (let k = 0; k < 3; k++) P0[v * 3 + k] = P0[9 + k] + (k === ax ? 0.05 + Math.abs(p[k]) : p[k]);
      }
      for (let v = 0; v < 6; v++) for (let k = 0; k < 3; k++) P1[v * 3 + k] = P0[v * 3 + k] - (v >= 3 && k === ax ? speed : 0);
    }
    cases.push({ P0, P1 });
  }
  return cases;
}

/**
 * Face-on: b's nearest vertex above the middle of a (a triangle in general
 * position, not axis-aligned) across a gap g along a's normal, b translating
 * straight down that normal by more than g (vertex meets face): here the
 * window along the feature's normal is the tight one, the axes' are not.
 */
function makeFaceOnCases(seed: number, n: number): Case[] {
  const r = mulberry32(seed);
  const cases: Case[] = [];
  for (let c = 0; c < n; c++) {
    const P0 = new Float64Array(18), P1 = new Float64Array(18);
    const base = rv(r, 4);
    for (let v = 0; v < 3; v++) { const p = rv(r, 1); for (let k = 0; k < 3; k++) P0[v * 3 + k] = base[k] + p[k]; }
    const ux = P0[3] - P0[0], uy = P0[4] - P0[1], uz = P0[5] - P0[2], vx = P0[6] - P0[0], vy = P0[7] - P0[1], vz = P0[8] - P0[2];
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.hypot(nx, ny, nz);
    nx /= l; ny /= l; nz /= l;
    const g = 0.01 + 0.3 * r(), speed = g * (1.05 + 2 * r());
    // a point inside a (barycentric weights well inside), g above it
    const w1 = 0.2 + 0.3 * r(), w2 = 0.2 + 0.3 * r() * (1 - w1), w0 = 1 - w1 - w2;
    const n3 = [nx, ny, nz];
    for (let k = 0; k < 3; k++) P0[9 + k] = w0 * P0[k] + w1 * P0[3 + k] + w2 * P0[6 + k] + g * n3[k];
    for (let v = 4; v < 6; v++) {
      const p = rv(r, 1);
      for (let k = 0; k < 3; k++) P0[v * 3 + k] = P0[9 + k] + p[k] + (0.3 + Math.abs(p[0])) * n3[k];
    }
    for (let v = 0; v < 6; v++) for (let k = 0; k < 3; k++) P1[v * 3 + k] = P0[v * 3 + k] - (v >= 3 ? speed * n3[k] : 0);
    cases.push({ P0, P1 });
  }
  return cases;
}

/** The 15 features of a case (6 vertex–triangle, 9 edge–edge) as 24-number rows, in the scene's order. */
function features(cs: Case, coords: Float64Array, kinds: Uint8Array): number {
  let n = 0;
  const put = (o: number, v: number) => { for (let k = 0; k < 3; k++) { coords[o + k] = cs.P0[v * 3 + k]; coords[o + 12 + k] = cs.P1[v * 3 + k]; } };
  for (let pass = 0; pass < 2; pass++) {
    const tv = pass === 0 ? IA : IB, tt = pass === 0 ? IB : IA;
    for (let v = 0; v < 3; v++) {
      put(n * 24, tv[v]);
      for (let j = 0; j < 3; j++) put(n * 24 + 3 + j * 3, tt[j]);
      kinds[n++] = FEATURE_VERTEX_TRIANGLE;
    }
  }
  for (let ea = 0; ea < 3; ea++) for (let eb = 0; eb < 3; eb++) {
    put(n * 24, IA[ea]); put(n * 24 + 3, IA[(ea + 1) % 3]); put(n * 24 + 6, IB[eb]); put(n * 24 + 9, IB[(eb + 1) % 3]);
    kinds[n++] = FEATURE_EDGE_EDGE;
  }
  return n;
}

type PairBound = (cs: Case) => number;
type FeatureBound = (coords: Float64Array, f: number, kind: number) => number;

/** Cases where a bound starts after a contact the exact CCD finds (pair: over its features; feature: its own). */
function violations(cases: Case[], pairBound: PairBound, featureBound: FeatureBound): { pair: number; feature: number; contacts: number; positive: number } {
  const coords = new Float64Array(15 * 24), kinds = new Uint8Array(15), tuv = new Float64Array(3);
  let pair = 0, feature = 0, contacts = 0, positive = 0;
  for (const cs of cases) {
    const n = features(cs, coords, kinds);
    let first = Infinity;
    for (let f = 0; f < n; f++) {
      if (!ccdQueryFlat(kinds[f] === FEATURE_VERTEX_TRIANGLE, coords, f * 24, tuv, 0)) continue;
      const t = tuv[0];
      if (featureBound(coords, f, kinds[f]) > t) feature++;
      if (t < first) first = t;
    }
    if (first === Infinity) continue;
    contacts++;
    const lb = pairBound(cs);
    if (lb > 0) positive++;
    if (lb > first) pair++;
  }
  return { pair, feature, contacts, positive };
}

const pairBound: PairBound = (cs) => touchWindow(cs.P0, cs.P1, IA, 0, cs.P0, cs.P1, IB, 0);
const _mA = new Float64Array(MOTION_BOX), _mB = new Float64Array(MOTION_BOX);
/** The pair window narrowed along both triangles' normals at the start (the key and cut of the scene's candidate pairs). */
const pairNormalBound: PairBound = (cs) => {
  motionBoxInto(cs.P0, cs.P1, IA, 0, _mA, 0);
  motionBoxInto(cs.P0, cs.P1, IB, 0, _mB, 0);
  return touchWindowNormals(_mA, 0, _mB, 0, cs.P0, cs.P1, IA, 0, cs.P0, cs.P1, IB, 0);
};

describe('continuous-search time bounds never start after an exact CCD contact', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: triangle-pair window and feature bound are at or before every CCD contact; bounds 1% later are caught`, () => {
      const cases = makeCases(seed, 600);
      const ok = violations(cases, pairBound, earliestPossibleContact);
      console.log(`bounds seed ${seed}: ${ok.contacts} pairs with a CCD contact, ${ok.positive} with a positive pair bound`);
      expect(ok.contacts, 'enough pairs touch during the step').toBeGreaterThan(200);
      expect(ok.positive, 'enough pairs have a positive bound (the cut is exercised)').toBeGreaterThan(100);
      expect(ok.pair, 'triangle pairs whose window starts after their first CCD contact').toBe(0);
      expect(ok.feature, 'features whose bound lies after their CCD contact').toBe(0);
      const withNormals = violations(cases, pairNormalBound, earliestPossibleContact);
      expect(withNormals.pair, 'triangle pairs whose window along the normals starts after their first CCD contact').toBe(0);
      expect(violations(cases, (cs) => pairNormalBound(cs) * 1.01, earliestPossibleContact).pair, 'a window along the normals 1% late is caught').toBeGreaterThan(0);
      // the same check must fail for wrong bounds
      const late = violations(cases, (cs) => pairBound(cs) * 1.01, (c, f, k) => earliestPossibleContact(c, f, k) * 1.01);
      expect(late.pair, 'a pair bound 1% late is caught').toBeGreaterThan(0);
      expect(late.feature, 'a feature bound 1% late is caught').toBeGreaterThan(0);
    });
  }
  for (const seed of [4, 5]) {
    it(`seed ${seed}: face-on (vertex straight down onto a triangle in general position): the feature bound is at or before every CCD contact; 1% later is caught`, () => {
      const cases = makeFaceOnCases(seed, 300);
      const ok = violations(cases, pairBound, earliestPossibleContact);
      expect(ok.contacts, 'every face-on pair touches during the step').toBe(300);
      expect(ok.pair, 'triangle pairs whose window starts after their first CCD contact').toBe(0);
      expect(ok.feature, 'features whose bound lies after their CCD contact').toBe(0);
      const late = violations(cases, pairBound, (c, f, k) => earliestPossibleContact(c, f, k) * 1.01);
      expect(late.feature, 'a feature bound 1% late is caught (the normal window is tight here)').toBeGreaterThan(100);
      // the pair window along the triangles' normals is tight here too (the axes' is not)
      expect(violations(cases, pairNormalBound, earliestPossibleContact).pair, 'triangle pairs whose window along the normals starts after their first CCD contact').toBe(0);
      const lateNormals = violations(cases, (cs) => pairNormalBound(cs) * 1.01, earliestPossibleContact);
      expect(lateNormals.pair, 'a pair window along the normals 1% late is caught').toBeGreaterThan(100);
      expect(violations(cases, (cs) => pairBound(cs) * 1.01, earliestPossibleContact).pair, 'the axes\' window alone is not tight face-on').toBeLessThan(lateNormals.pair);
    });
  }
});

/** Conservative advancement from the start of the step, run to its end (the scene stops at the earliest contact found). */
const advanced: FeatureBound = (c, f, k) => advanceFeature(c, f, k, 0, 1, 64);

describe('conservative advancement (advanceFeature) never passes an exact CCD contact', () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: general and tight (vertex-on-vertex translation) cases; 1% later is caught`, () => {
      const cases = makeCases(seed, 600);
      const ok = violations(cases, pairBound, advanced);
      expect(ok.contacts, 'enough pairs touch during the step').toBeGreaterThan(200);
      expect(ok.feature, 'features advanced past their CCD contact').toBe(0);
      expect(violations(cases, pairBound, (c, f, k) => advanced(c, f, k) * 1.01).feature, 'an advancement 1% late is caught').toBeGreaterThan(50);
    });
  }
  for (const seed of [14, 15]) {
    it(`seed ${seed}: face-on (vertex straight down onto a triangle); 1% later is caught`, () => {
      const cases = makeFaceOnCases(seed, 300);
      const ok = violations(cases, pairBound, advanced);
      expect(ok.contacts, 'every face-on pair touches during the step').toBe(300);
      expect(ok.feature, 'features advanced past their CCD contact').toBe(0);
      expect(violations(cases, pairBound, (c, f, k) => advanced(c, f, k) * 1.01).feature, 'an advancement 1% late is caught').toBeGreaterThan(100);
    });
  }
  it('seed 16: nearly parallel edges closing (the closest points ill-conditioned) and rotating edges are never advanced past a contact', () => {
    // Nearly parallel edges can exhaust the CCD's work budget, which then
    // answers "contact" at its earliest open box (conservative): such an
    // answer, with the edges still far apart at its time, is not a contact the
    // advancement must respect (the scene's bounds may cut it, as they cut
    // any feature that cannot come within the CCD's reach). Genuine contacts:
    // the edges within 1e-7 of each other at the reported time.
    const r = mulberry32(16);
    const c = new Float64Array(24), tuv = new Float64Array(3), P = new Float64Array(12);
    let genuine = 0, budget = 0, bad = 0, advancedSome = 0;
    for (let n = 0; n < 800; n++) {
      const base = rv(r, 4), dir = rv(r, 1), side = rv(r, 1);
      const l = Math.hypot(...dir);
      for (let k = 0; k < 3; k++) dir[k] /= l;
      // side ⟂ dir, unit
      const dd = side[0] * dir[0] + side[1] * dir[1] + side[2] * dir[2];
      for (let k = 0; k < 3; k++) side[k] -= dd * dir[k];
      const ls = Math.hypot(...side);
      for (let k = 0; k < 3; k++) side[k] /= ls;
      const g = 0.001 + 0.2 * r(), angle = n % 3 === 0 ? 0 : 10 ** (-9 + 6 * r()), len = 0.05 + r(), shift = (r() - 0.3) * len;
      const speed = g * (0.5 + 1.5 * r()), twist = n % 2 === 0 ? 0 : 0.3 * (r() - 0.5);
      for (let k = 0; k < 3; k++) {
        // edge a along dir; edge b across the gap g along side, tilted by `angle`, sliding by `shift`
        c[k] = base[k]; c[3 + k] = base[k] + len * dir[k];
        c[6 + k] = base[k] + g * side[k] + shift * dir[k];
        c[9 + k] = c[6 + k] + len * (dir[k] + angle * side[k]);
        // end: a fixed, b moved toward a (and its far end twisted)
        c[12 + k] = c[k]; c[15 + k] = c[3 + k];
        c[18 + k] = c[6 + k] - speed * side[k];
        c[21 + k] = c[9 + k] - speed * side[k] + twist * len * side[k];
      }
      const a = advanceFeature(c, 0, FEATURE_EDGE_EDGE, 0, 1, 64);
      if (a > 0) advancedSome++;
      if (!ccdQueryFlat(false, c, 0, tuv, 0)) continue;
      const t = tuv[0];
      for (let i = 0; i < 12; i++) P[i] = c[i] + t * (c[12 + i] - c[i]);
      if (segmentDistance(P) > 1e-7) { budget++; continue; }
      genuine++;
      if (a > t) bad++;
    }
    console.log(`advancement, nearly parallel edges: ${genuine} genuine CCD contacts, ${budget} answered from an exhausted budget`);
    expect(genuine, 'enough edge pairs touch').toBeGreaterThan(100);
    expect(advancedSome, 'the advancement moves most queries').toBeGreaterThan(600);
    expect(bad, 'edge pairs advanced past a genuine CCD contact').toBe(0);
  });
});

/** Distance between segments P[0..2]–P[3..5] and P[6..8]–P[9..11], by nested ternary searches (slow, obvious). */
function segmentDistance(P: Float64Array): number {
  const at = (s: number, t: number) => {
    let d2 = 0;
    for (let k = 0; k < 3; k++) { const x = P[k] + s * (P[3 + k] - P[k]) - P[6 + k] - t * (P[9 + k] - P[6 + k]); d2 += x * x; }
    return d2;
  };
  // for fixed s the squared distance is convex in t (and the minimum over t convex in s): nested ternary searches
  const best = (s: number) => {
    let lo = 0, hi = 1;
    for (let i = 0; i < 200; i++) { const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3; if (at(s, m1) < at(s, m2)) hi = m2; else lo = m1; }
    return at(s, 0.5 * (lo + hi));
  };
  let lo = 0, hi = 1;
  for (let i = 0; i < 200; i++) { const m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3; if (best(m1) < best(m2)) hi = m2; else lo = m1; }
  return Math.sqrt(best(0.5 * (lo + hi)));
}

/**
 * `windowAlong` for a triangle pair: the moving intervals of the two
 * triangles' vertices along a direction (the scene takes each leaf's summed
 * normal; here each triangle's own normal, or a random direction).
 */
function alongBound(cs: Case, dir: 'a' | 'b' | 'random', r: () => number): number {
  let nx: number, ny: number, nz: number;
  if (dir === 'random') { nx = r() - 0.5; ny = r() - 0.5; nz = r() - 0.5; } else {
    const o = dir === 'a' ? 0 : 9, P = cs.P0;
    const ux = P[o + 3] - P[o], uy = P[o + 4] - P[o + 1], uz = P[o + 5] - P[o + 2], vx = P[o + 6] - P[o], vy = P[o + 7] - P[o + 1], vz = P[o + 8] - P[o + 2];
    nx = uy * vz - uz * vy; ny = uz * vx - ux * vz; nz = ux * vy - uy * vx;
  }
  const ext = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];
  let scale = 0;
  for (let v = 0; v < 6; v++) {
    const x = cs.P0[v * 3] * nx + cs.P0[v * 3 + 1] * ny + cs.P0[v * 3 + 2] * nz;
    const d = (cs.P1[v * 3] - cs.P0[v * 3]) * nx + (cs.P1[v * 3 + 1] - cs.P0[v * 3 + 1]) * ny + (cs.P1[v * 3 + 2] - cs.P0[v * 3 + 2]) * nz;
    const o = v < 3 ? 0 : 4;
    ext[o] = Math.min(ext[o], x); ext[o + 1] = Math.max(ext[o + 1], x); ext[o + 2] = Math.min(ext[o + 2], d); ext[o + 3] = Math.max(ext[o + 3], d);
    for (let k = 0; k < 3; k++) scale = Math.max(scale, Math.abs(cs.P0[v * 3 + k]), Math.abs(cs.P1[v * 3 + k]));
  }
  return windowAlong(ext[0], ext[1], ext[2], ext[3], ext[4], ext[5], ext[6], ext[7], scale, Math.sqrt(nx * nx + ny * ny + nz * nz));
}

describe('the window along a direction (windowAlong, the leaf pairs\' normal windows) never starts after an exact CCD contact', () => {
  for (const seed of [21, 22]) {
    it(`seed ${seed}: along either triangle's normal and along random directions, general and tight cases`, () => {
      const r = mulberry32(seed);
      const cases = makeCases(seed, 600);
      for (const dir of ['a', 'b', 'random'] as const) {
        const ok = violations(cases, (cs) => alongBound(cs, dir, r), earliestPossibleContact);
        expect(ok.contacts, 'enough pairs touch during the step').toBeGreaterThan(200);
        expect(ok.pair, `pairs whose window along ${dir} starts after their first CCD contact`).toBe(0);
      }
    });
  }
  it('seed 23: face-on, along the triangle approached: 1% later is caught', () => {
    const r = mulberry32(23);
    const cases = makeFaceOnCases(23, 300);
    expect(violations(cases, (cs) => alongBound(cs, 'a', r), earliestPossibleContact).pair, 'pairs whose window along the normal starts after their first CCD contact').toBe(0);
    expect(violations(cases, (cs) => alongBound(cs, 'a', r) * 1.01, earliestPossibleContact).pair, 'a window along the normal 1% late is caught').toBeGreaterThan(100);
  });
});
