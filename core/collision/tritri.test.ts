import { describe, expect, it } from 'vitest';
import { orient3d } from './predicates';
import { lastTriTriPlanes, triTriIntersect, triTriOverlap } from './tritri';
import { closestPointOnTriangle } from './query';
import { mulberry32 } from './testutil';

/** Doubles to BigInts with one common power-of-two scale (exact). */
function scaled(vals: number[]): bigint[] {
  const bits = (x: number) => { let k = 0; let y = x; while (!Number.isInteger(y)) { y *= 2; k++; } return k; };
  const mant = (x: number) => { let y = x; while (!Number.isInteger(y)) y *= 2; return BigInt(y); };
  const K = Math.max(...vals.map(bits));
  return vals.map((x) => mant(x) << BigInt(K - bits(x)));
}
type V = [bigint, bigint, bigint];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/**
 * Exact reference, a different algorithm: the separating axis theorem over
 * both normals, the 9 edge-pair cross products and the 6 in-plane edge normals,
 * in BigInt arithmetic. Closed triangles meet iff no axis separates them strictly.
 */
function satReference(p: number[], q: number[]): boolean {
  const s = scaled([...p, ...q]);
  const P: V[] = [0, 1, 2].map((i) => [s[i * 3], s[i * 3 + 1], s[i * 3 + 2]] as V);
  const Q: V[] = [0, 1, 2].map((i) => [s[9 + i * 3], s[10 + i * 3], s[11 + i * 3]] as V);
  const eP = [sub(P[1], P[0]), sub(P[2], P[1]), sub(P[0], P[2])];
  const eQ = [sub(Q[1], Q[0]), sub(Q[2], Q[1]), sub(Q[0], Q[2])];
  const nP = cross(eP[0], eP[1]), nQ = cross(eQ[0], eQ[1]);
  const axes: V[] = [nP, nQ];
  for (const a of eP) for (const b of eQ) axes.push(cross(a, b));
  for (const a of eP) axes.push(cross(nP, a));
  for (const b of eQ) axes.push(cross(nQ, b));
  for (const ax of axes) {
    if (ax[0] === 0n && ax[1] === 0n && ax[2] === 0n) continue;
    const pp = P.map((v) => dot(v, ax)), qq = Q.map((v) => dot(v, ax));
    const pmin = pp.reduce((a, b) => (b < a ? b : a)), pmax = pp.reduce((a, b) => (b > a ? b : a));
    const qmin = qq.reduce((a, b) => (b < a ? b : a)), qmax = qq.reduce((a, b) => (b > a ? b : a));
    if (pmax < qmin || qmax < pmin) return false;
  }
  return true;
}

function degenerate(t: number[]): boolean {
  const z = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  // zero-area iff orient3d of the triangle with each axis-offset point is zero
  for (let k = 0; k < 3; k++) {
    const d = t.slice(0, 3); d[k] += 1;
    if (orient3d(t, 0, t, 3, t, 6, d, 0) !== 0) return false;
  }
  void z;
  return true;
}

/** Distance from point x to closed triangle t, by brute sampling of barycentrics is too slow: use projection. */
function distToTri(x: number[], t: number[]): number {
  let best = Infinity;
  const N = 60;
  for (let i = 0; i <= N; i++) for (let j = 0; i + j <= N; j++) {
    const u = i / N, v = j / N, w = 1 - u - v;
    const px = w * t[0] + u * t[3] + v * t[6], py = w * t[1] + u * t[4] + v * t[7], pz = w * t[2] + u * t[5] + v * t[8];
    best = Math.min(best, Math.hypot(px - x[0], py - x[1], pz - x[2]));
  }
  return best;
}

function check(p: number[], q: number[], label: string): boolean {
  const ref = satReference(p, q);
  expect(triTriOverlap(p, 0, q, 0), `${label}: overlap must equal the exact SAT reference for ${JSON.stringify([p, q])}`).toBe(ref);
  expect(triTriOverlap(q, 0, p, 0), `${label}: symmetric`).toBe(ref);
  return ref;
}

describe('triangle–triangle intersection against an exact SAT reference', () => {
  it('seed 1: random float triangles', () => {
    const r = mulberry32(1);
    let hits = 0;
    for (let i = 0; i < 4000; i++) {
      const p = Array.from({ length: 9 }, () => r() * 2 - 1), q = Array.from({ length: 9 }, () => r() * 2 - 1);
      if (check(p, q, 'float')) hits++;
    }
    expect(hits, 'a fair share of intersecting pairs').toBeGreaterThan(200);
  });
  it('seed 2: small-integer triangles (many coplanar, touching, shared vertices and edges)', () => {
    const r = mulberry32(2);
    let hits = 0, coplanar = 0, n = 0;
    while (n < 6000) {
      const p = Array.from({ length: 9 }, () => Math.floor(r() * 4)), q = Array.from({ length: 9 }, () => Math.floor(r() * 4));
      if (degenerate(p) || degenerate(q)) continue;
      n++;
      if (check(p, q, 'int')) hits++;
      if ([0, 1, 2].every((i) => orient3d(p, 0, p, 3, p, 6, q, i * 3) === 0)) coplanar++;
    }
    expect(hits, 'intersecting cases').toBeGreaterThan(500);
    expect(coplanar, 'coplanar cases').toBeGreaterThan(20);
  });
  it('seed 3: coplanar triangles in a tilted plane and touching configurations built exactly', () => {
    const r = mulberry32(3);
    let hits = 0;
    for (let i = 0; i < 3000; i++) {
      // points a + s·e1 + t·e2 with small integer s, t: exactly coplanar, tilted
      const e1 = [1, 2, 3], e2 = [-2, 1, 1], a = [0.5, 0.25, -1];
      const pt = () => { const s = Math.floor(r() * 5), t = Math.floor(r() * 5); return [a[0] + s * e1[0] + t * e2[0], a[1] + s * e1[1] + t * e2[1], a[2] + s * e1[2] + t * e2[2]]; };
      const p = [...pt(), ...pt(), ...pt()], q = [...pt(), ...pt(), ...pt()];
      if (degenerate(p) || degenerate(q)) continue;
      if (check(p, q, 'coplanar')) hits++;
    }
    expect(hits, 'coplanar overlaps').toBeGreaterThan(300);
    // a vertex exactly on the other triangle's interior, edge on edge, vertex on vertex
    expect(check([0, 0, 0, 2, 0, 0, 0, 2, 0], [0.5, 0.5, 0, 1, 1, 1, 0, 1, 1], 'vertex on face')).toBe(true);
    expect(check([0, 0, 0, 2, 0, 0, 0, 2, 0], [0.5, 0.5, 1e-300, 1, 1, 1, 0, 1, 1], 'vertex just above face')).toBe(false);
    expect(check([0, 0, 0, 2, 0, 0, 0, 2, 0], [2, 0, 0, 3, 0, 1, 3, 1, 0], 'vertex on vertex')).toBe(true);
    expect(check([0, 0, 0, 2, 0, 0, 0, 2, 0], [1, 0, 0, 1, -1, 1, 1, -1, -1], 'vertex on edge')).toBe(true);
    expect(check([0, 0, 0, 2, 0, 0, 0, 2, 0], [1, -(2 ** -60), 0, 1, -1, 1, 1, -1, -1], 'vertex 2^-60 off the edge')).toBe(false);
  });
  it('seed 4: the intersection segment lies on both triangles', () => {
    const r = mulberry32(4);
    const out = new Float64Array(6);
    let checked = 0;
    for (let i = 0; i < 1500; i++) {
      const p = Array.from({ length: 9 }, () => r() * 2 - 1), q = Array.from({ length: 9 }, () => r() * 2 - 1);
      if (!triTriIntersect(p, 0, q, 0, out, 0)) continue;
      checked++;
      for (const e of [0, 3]) {
        const x = [out[e], out[e + 1], out[e + 2]];
        expect(distToTri(x, p), 'segment end on P').toBeLessThan(0.05);
        expect(distToTri(x, q), 'segment end on Q').toBeLessThan(0.05);
      }
      // the midpoint is on both too (the intersection is convex)
      const m = [0.5 * (out[0] + out[3]), 0.5 * (out[1] + out[4]), 0.5 * (out[2] + out[5])];
      expect(distToTri(m, p) + distToTri(m, q), 'segment midpoint on both').toBeLessThan(0.1);
    }
    expect(checked).toBeGreaterThan(50);
  });
  it('seed 5: in general position the segment equals the reference (every edge crossing the other triangle, farthest pair) to 1e-9', () => {
    const r = mulberry32(5);
    const out = new Float64Array(6);
    let checked = 0;
    // where segment a→b crosses triangle T (float), or null
    const crossing = (a: number[], b: number[], T: number[]): number[] | null => {
      const u = [T[3] - T[0], T[4] - T[1], T[5] - T[2]], v = [T[6] - T[0], T[7] - T[1], T[8] - T[2]];
      const n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const da = n[0] * (a[0] - T[0]) + n[1] * (a[1] - T[1]) + n[2] * (a[2] - T[2]);
      const db = n[0] * (b[0] - T[0]) + n[1] * (b[1] - T[1]) + n[2] * (b[2] - T[2]);
      if (da * db > 0 || da === db) return null;
      const t = da / (da - db), x = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])];
      return exactDist(x, T) < 1e-12 ? x : null;
    };
    const cp = new Float64Array(3);
    const exactDist = (x: number[], T: number[]) => {
      closestPointOnTriangle(x[0], x[1], x[2], T, 0, 3, 6, cp);
      return Math.hypot(cp[0] - x[0], cp[1] - x[1], cp[2] - x[2]);
    };
    for (let i = 0; i < 3000; i++) {
      const p = Array.from({ length: 9 }, () => r() * 2 - 1), q = Array.from({ length: 9 }, () => r() * 2 - 1);
      if (!triTriIntersect(p, 0, q, 0, out, 0)) continue;
      const pts: number[][] = [];
      for (const [A, B] of [[p, q], [q, p]]) for (let e = 0; e < 3; e++) {
        const x = crossing(A.slice(e * 3, e * 3 + 3), A.slice(((e + 1) % 3) * 3, ((e + 1) % 3) * 3 + 3), B);
        if (x) pts.push(x);
      }
      if (pts.length < 2) continue;
      let best = -1;
      for (const x of pts) for (const y of pts) best = Math.max(best, Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]));
      checked++;
      const len = Math.hypot(out[0] - out[3], out[1] - out[4], out[2] - out[5]);
      expect(Math.abs(len - best), `pair ${i}: segment length ${len} vs reference ${best}`).toBeLessThan(1e-9);
      for (const e of [0, 3]) {
        const x = [out[e], out[e + 1], out[e + 2]];
        expect(exactDist(x, p) + exactDist(x, q), `pair ${i}: segment end on both triangles`).toBeLessThan(1e-9);
      }
    }
    expect(checked, 'crossing pairs were compared').toBeGreaterThan(100);
  });
});

/**
 * Möller's interval segment computed from the triangles alone (each normal
 * and each vertex's determinant taken anew, the exact sides from orient3d):
 * the reference for the segment that reuses the overlap test's planes.
 * Null where rounding leaves the overlap empty.
 */
function intervalSegmentAnew(P: number[], po: number, Q: number[], qo: number): number[] | null {
  const normal = (T: number[], o: number) => {
    const ax = T[o + 3] - T[o], ay = T[o + 4] - T[o + 1], az = T[o + 5] - T[o + 2];
    const bx = T[o + 6] - T[o], by = T[o + 7] - T[o + 1], bz = T[o + 8] - T[o + 2];
    return [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx];
  };
  const pn = normal(P, po), qn = normal(Q, qo);
  const iv: number[] = [];
  for (const [T, to, O, oo, n] of [[P, po, Q, qo, qn], [Q, qo, P, po, pn]] as [number[], number, number[], number, number[]][]) {
    const side = [0, 1, 2].map((i) => orient3d(O, oo, O, oo + 3, O, oo + 6, T, to + i * 3));
    const lone = side[0] === side[1] ? 2 : side[0] === side[2] ? 1 : 0;
    const a = to + lone * 3;
    const det = (v: number) => n[0] * (T[v] - O[oo]) + n[1] * (T[v + 1] - O[oo + 1]) + n[2] * (T[v + 2] - O[oo + 2]);
    const da = det(a);
    for (let k = 1; k <= 2; k++) {
      const b = to + ((lone + k) % 3) * 3;
      const den = da - det(b);
      const t = den === 0 ? 0.5 : Math.min(1, Math.max(0, da / den));
      iv.push(T[a] + t * (T[b] - T[a]), T[a + 1] + t * (T[b + 1] - T[a + 1]), T[a + 2] + t * (T[b + 2] - T[a + 2]));
    }
  }
  const l = [pn[1] * qn[2] - pn[2] * qn[1], pn[2] * qn[0] - pn[0] * qn[2], pn[0] * qn[1] - pn[1] * qn[0]];
  const s = [0, 3, 6, 9].map((o) => iv[o] * l[0] + iv[o + 1] * l[1] + iv[o + 2] * l[2]);
  const pLo = s[0] <= s[1] ? 0 : 3, pHi = s[0] <= s[1] ? 3 : 0, qLo = s[2] <= s[3] ? 6 : 9, qHi = s[2] <= s[3] ? 9 : 6;
  const pmin = Math.min(s[0], s[1]), pmax = Math.max(s[0], s[1]), qmin = Math.min(s[2], s[3]), qmax = Math.max(s[2], s[3]);
  if (pmin > qmax || qmin > pmax) return null;
  const lo = pmin >= qmin ? pLo : qLo, hi = pmax <= qmax ? pHi : qHi;
  return [iv[lo], iv[lo + 1], iv[lo + 2], iv[hi], iv[hi + 1], iv[hi + 2]];
}

describe('intersection segment from the overlap test\'s planes', () => {
  it('seed 6: in general position, the same bits as Möller\'s intervals taken anew (at offsets too; other pairs tested in between)', () => {
    const r = mulberry32(6);
    const out = new Float64Array(8);
    let compared = 0;
    for (let i = 0; i < 4000; i++) {
      // at offsets into longer arrays, scaled and shifted like mesh coordinates
      const po = Math.floor(r() * 4) * 3, qo = Math.floor(r() * 4) * 3, sc = 10 ** Math.floor(r() * 5 - 2), sh = r() * 4 - 2;
      const P = Array.from({ length: 21 }, () => sh + sc * (r() * 2 - 1)), Q = Array.from({ length: 21 }, () => sh + sc * (r() * 2 - 1));
      const p = P.slice(po, po + 9), q = Q.slice(qo, qo + 9);
      // a pair tested in between must not leave its planes behind for the next
      if (i % 2 === 1) triTriOverlap(Q, 0, P, 3);
      const hit = triTriIntersect(P, po, Q, qo, out, 1);
      expect(hit, `pair ${i}: decision equals the exact reference`).toBe(satReference(p, q));
      if (!hit) continue;
      const sides = [...[0, 1, 2].map((k) => orient3d(q, 0, q, 3, q, 6, p, k * 3)), ...[0, 1, 2].map((k) => orient3d(p, 0, p, 3, p, 6, q, k * 3))];
      if (sides.some((x) => x === 0)) continue; // not general position: edge by edge
      const ref = intervalSegmentAnew(P, po, Q, qo);
      if (ref === null) continue;
      compared++;
      expect(Array.from(out.subarray(1, 7)), `pair ${i}: segment bit for bit`).toEqual(ref);
    }
    expect(compared, 'crossing pairs in general position were compared').toBeGreaterThan(300);
  });
});

describe('the planes of the last test (lastTriTriPlanes, read by the scene for contact normals)', () => {
  it('seed 7: after every pair that meets, each triangle\'s (v1 − v0) × (v2 − v0) and the other\'s vertex determinants, bit for bit (at offsets; other pairs tested in between)', () => {
    const r = mulberry32(7);
    const out = new Float64Array(6);
    const cross = (T: number[], o: number): number[] => {
      const ux = T[o + 3] - T[o], uy = T[o + 4] - T[o + 1], uz = T[o + 5] - T[o + 2], vx = T[o + 6] - T[o], vy = T[o + 7] - T[o + 1], vz = T[o + 8] - T[o + 2];
      return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
    };
    const dets = (T: number[], o: number, n: number[], X: number[], xo: number): number[] =>
      [0, 1, 2].map((k) => (X[xo + k * 3] - T[o]) * n[0] + (X[xo + k * 3 + 1] - T[o + 1]) * n[1] + (X[xo + k * 3 + 2] - T[o + 2]) * n[2]);
    let met = 0;
    for (let i = 0; i < 3000; i++) {
      const po = Math.floor(r() * 3) * 3, qo = Math.floor(r() * 3) * 3, sh = r() * 2 - 1;
      const P = Array.from({ length: 18 }, () => sh + r() * 2 - 1), Q = Array.from({ length: 18 }, () => sh + r() * 2 - 1);
      if (i % 3 === 1) triTriOverlap(Q, 3, P, 0);
      if (!triTriIntersect(P, po, Q, qo, out, 0)) continue;
      met++;
      const { q, p } = lastTriTriPlanes();
      const qn = cross(Q, qo), pn = cross(P, po);
      expect(Array.from(q), `pair ${i}: Q's normal, then P's vertices against Q's plane`).toEqual([...qn, ...dets(Q, qo, qn, P, po)]);
      expect(Array.from(p), `pair ${i}: P's normal, then Q's vertices against P's plane`).toEqual([...pn, ...dets(P, po, pn, Q, qo)]);
    }
    expect(met, 'pairs that meet were checked').toBeGreaterThan(300);
  });
});
