import { describe, expect, it } from 'vitest';
import { TriangleBVH } from './bvh';
import { forEachLeafNodePair, forEachLeafNodePairSwept, pointInParts, pointInPartsLazy } from './query';
import { mulberry32, uvSphere, windingNumber } from './testutil';

/**
 * The lazy inside test (rays only refit and search the parts whose box they
 * meet) against the plain one over trees all refit, on an object of three
 * overlapping bumpy closed shells, each split into two parts, moved after
 * the trees were built (so a part the ray needs but that was not made
 * current gives a wrong answer).
 */
describe('pointInPartsLazy', () => {
  for (const seed of [3, 4]) {
    it(`seed ${seed}: same answer as pointInParts over refit trees on seeded points, refitting only the parts a ray meets; a missed refit is caught`, () => {
      const r = mulberry32(seed);
      const spheres = [uvSphere(24, 12, 0, 0, 0, 1, r, 0.3), uvSphere(20, 10, 0.9, 0.3, 0, 0.7, r, 0.3), uvSphere(16, 8, -0.5, 1.1, 0.4, 0.6, r, 0.3)];
      const nv = spheres.reduce((n, s) => n + s.positions.length / 3, 0), nt = spheres.reduce((n, s) => n + s.indices.length / 3, 0);
      const rest = new Float64Array(nv * 3), indices = new Uint32Array(nt * 3), triShell = new Int32Array(nt);
      const parts: number[][] = [];
      let vo = 0, to = 0;
      spheres.forEach((s, si) => {
        rest.set(s.positions, vo * 3);
        const n = s.indices.length / 3, halves: number[][] = [[], []];
        for (let t = 0; t < n; t++) {
          for (let k = 0; k < 3; k++) indices[(to + t) * 3 + k] = s.indices[t * 3 + k] + vo;
          triShell[to + t] = si;
          halves[t < n / 2 ? 0 : 1].push(to + t);
        }
        parts.push(...halves);
        vo += s.positions.length / 3; to += n;
      });
      // moved (rotated about z, stretched, shifted) after the trees were built over the rest positions
      const P = new Float64Array(rest.length), c = Math.cos(0.7), sn = Math.sin(0.7);
      for (let v = 0; v < nv; v++) {
        const x = rest[v * 3], y = rest[v * 3 + 1], z = rest[v * 3 + 2];
        P[v * 3] = 1.2 * (c * x - sn * y) + 0.4; P[v * 3 + 1] = sn * x + c * y - 0.3; P[v * 3 + 2] = z * 0.9 + 0.2;
      }
      const lazy = parts.map((t) => TriangleBVH.build(rest, indices, Uint32Array.from(t)));
      const stale = parts.map((t) => TriangleBVH.build(rest, indices, Uint32Array.from(t)));
      const current = parts.map((t) => TriangleBVH.build(P, indices, Uint32Array.from(t)));
      // each part's box at P, from its vertices
      const boxes = new Float64Array(parts.length * 6), offsets = Int32Array.from(parts, (_, i) => i * 6);
      parts.forEach((tris, i) => {
        const b = boxes.subarray(i * 6, i * 6 + 6);
        b.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
        for (const t of tris) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) {
          const x = P[indices[t * 3 + j] * 3 + k];
          if (x < b[k]) b[k] = x; if (x > b[3 + k]) b[3 + k] = x;
        }
      });
      const refit = new Uint8Array(parts.length);
      let ensures = 0;
      const ensure = (i: number) => { ensures++; if (!refit[i]) { refit[i] = 1; lazy[i].refit(P); } };
      const shellClosed = [true, true, true];
      const q = new Float64Array(3);
      let inside = 0, wrongWhenStale = 0;
      const N = 1500;
      for (let i = 0; i < N; i++) {
        refit.fill(0);
        for (const b of lazy) b.refit(rest); // stale again: only what this query makes current is current
        q[0] = -1.2 + 3.4 * r(); q[1] = -1.6 + 3.6 * r(); q[2] = -1.1 + 2.4 * r();
        const want = pointInParts(current, P, triShell, shellClosed, q);
        const got = pointInPartsLazy(lazy, boxes, offsets, ensure, P, triShell, shellClosed, q);
        expect(got, `point ${i} (${q[0]}, ${q[1]}, ${q[2]})`).toBe(want);
        if (want === 1) inside++;
        // by the winding numbers too (no point lands on the surface here)
        const w = spheres.some((_, si) => {
          const idx = indices.filter((_, k) => triShell[Math.floor(k / 3)] === si);
          return Math.abs(windingNumber({ positions: P, indices: idx }, q[0], q[1], q[2])) > 0.5;
        });
        if (i < 200) expect(want, `point ${i}: winding number says ${w ? 'inside' : 'outside'}`).toBe(w ? 1 : 0);
        if (pointInPartsLazy(stale, boxes, offsets, () => {}, P, triShell, shellClosed, q) !== want) wrongWhenStale++;
      }
      expect(inside, 'points inside and outside').toBeGreaterThan(N / 10);
      expect(inside, 'points inside and outside').toBeLessThan(N * 0.9);
      expect(ensures, 'parts a ray passes by are not made current').toBeLessThan(N * parts.length * 0.8);
      expect(wrongWhenStale, 'without making the met parts current the answers go wrong').toBeGreaterThan(N / 20);
    });
  }
});

/**
 * The swept traversal with node windows against the plain traversal of the
 * same trees (boxes over the step): the pairs it visits are the plain pairs,
 * in the same order, less pairs whose leaves cannot come within the reach at
 * any time. Reference per plain leaf pair: the boxes of its leaves' vertices
 * at the two samples (in double), interpolated linearly; per axis and side
 * the gap is linear in t, and the least over t of the largest of those six
 * gaps (the upper envelope of lines: its minimum is at t = 0, t = 1 or where
 * two lines cross, all tried) is at most the reach for every pair that can
 * touch (or cross at the sample).
 */
describe('forEachLeafNodePairSwept', () => {
  for (const seed of [5, 6, 7]) {
    it(`seed ${seed}: visits the plain traversal's leaf pairs in order, skipping only pairs whose interpolated leaf boxes stay farther apart than the reach; pairs touching at some time, or at the sample, are kept`, () => {
      const r = mulberry32(seed);
      const A = uvSphere(28, 14, 0, 0, 0, 0.5, r, 0.25), B = uvSphere(24, 12, 0, 0, 0, 0.45, r, 0.25);
      // A moves toward B during the step (turning and stretching), B shears a little: apart at t = 0, overlapping at t = 1
      const move = (src: Float64Array, dx: number, turn: number, stretch: number): [Float64Array, Float64Array] => {
        const P0 = new Float64Array(src.length), P1 = new Float64Array(src.length);
        const c = Math.cos(turn), s = Math.sin(turn);
        for (let v = 0; v < src.length / 3; v++) {
          const x = src[v * 3], y = src[v * 3 + 1], z = src[v * 3 + 2];
          P0[v * 3] = x + dx; P0[v * 3 + 1] = y; P0[v * 3 + 2] = z;
          P1[v * 3] = (c * x - s * y) * stretch + dx * (0.2 + 0.3 * r()) ; P1[v * 3 + 1] = s * x + c * y + 0.05 * z; P1[v * 3 + 2] = z * (1 + 0.1 * r());
        }
        return [P0, P1];
      };
      const [A0, A1] = move(A.positions as Float64Array, -1.3, 0.4 * r(), 1.1);
      const [B0, B1] = move(B.positions as Float64Array, 0.3, 0.2 * r(), 1);
      const ta = TriangleBVH.build(A1, A.indices, undefined, 4), tb = TriangleBVH.build(B1, B.indices, undefined, 4);
      ta.keepSampleBoxes(); tb.keepSampleBoxes();
      ta.refitLazy(A1, A0, 32); tb.refitLazy(B1, B0, 32);
      let scale = 0;
      for (const P of [A0, A1, B0, B1]) for (const x of P) scale = Math.max(scale, Math.abs(x));
      const reach = 1e-8 * scale;
      const plain: number[] = [], swept: number[] = [];
      forEachLeafNodePair(ta, tb, (x, y) => { plain.push(x * 65536 + y); });
      forEachLeafNodePairSwept(ta, tb, reach, (x, y) => { swept.push(x * 65536 + y); });
      // the leaves' vertex boxes at both samples, in double
      const leafBoxes = (t: TriangleBVH, I: Uint32Array, P: Float64Array, node: number): number[] => {
        const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
        for (let i = t.leafStart(node); i < t.leafStart(node) + t.leafCount(node); i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) {
          const x = P[I[t.order[i] * 3 + j] * 3 + k];
          b[k] = Math.min(b[k], x); b[3 + k] = Math.max(b[3 + k], x);
        }
        return b;
      };
      const envelopeMin = (x: number, y: number): number => {
        const a0 = leafBoxes(ta, A.indices, A0, x), a1 = leafBoxes(ta, A.indices, A1, x), b0 = leafBoxes(tb, B.indices, B0, y), b1 = leafBoxes(tb, B.indices, B1, y);
        // lines g(t) = g0 + t (g1 − g0): per axis, B above A and A above B
        const lines: [number, number][] = [];
        for (let k = 0; k < 3; k++) {
          lines.push([b0[k] - a0[3 + k], b1[k] - a1[3 + k]]);
          lines.push([a0[k] - b0[3 + k], a1[k] - b1[3 + k]]);
        }
        const at = (t: number) => Math.max(...lines.map(([g0, g1]) => g0 + t * (g1 - g0)));
        let m = Math.min(at(0), at(1));
        for (let i = 0; i < lines.length; i++) for (let j = i + 1; j < lines.length; j++) {
          const d = lines[i][1] - lines[i][0] - (lines[j][1] - lines[j][0]);
          if (d === 0) continue;
          const t = (lines[j][0] - lines[i][0]) / d;
          if (t > 0 && t < 1) m = Math.min(m, at(t));
        }
        return m;
      };
      // same order: the swept pairs are a subsequence of the plain ones
      let k = 0;
      for (const q of swept) { while (k < plain.length && plain[k] !== q) k++; expect(k < plain.length, `swept pair ${q} in the plain traversal, in order`).toBe(true); k++; }
      const kept = new Set(swept);
      let skipped = 0, touching = 0, atSample = 0;
      for (const q of plain) {
        const x = Math.floor(q / 65536), y = q % 65536, m = envelopeMin(x, y);
        if (m <= reach) touching++;
        const s1a = leafBoxes(ta, A.indices, A1, x), s1b = leafBoxes(tb, B.indices, B1, y);
        const meetAtSample = [0, 1, 2].every((c) => s1a[c] <= s1b[3 + c] && s1b[c] <= s1a[3 + c]);
        if (meetAtSample) { atSample++; expect(kept.has(q), `pair ${x}/${y} meets at the sample: kept`).toBe(true); }
        if (kept.has(q)) continue;
        skipped++;
        expect(m > reach, `skipped pair ${x}/${y}: its interpolated leaf boxes stay apart (least largest gap ${m} > reach ${reach})`).toBe(true);
      }
      expect(touching, 'plain pairs whose leaves can touch').toBeGreaterThan(50);
      expect(atSample, 'plain pairs whose leaves meet at the sample').toBeGreaterThan(20);
      expect(skipped, 'plain pairs skipped').toBeGreaterThan(plain.length / 10);
    });
  }
});

describe('forEachLeafNodePair', () => {
  /** Depth-first reference: a node pair is entered when its boxes meet; children as the traversal pops them. */
  function reference(a: TriangleBVH, b: TriangleBVH, out: number[]): void {
    const meet = (na: number, nb: number) => {
      const pa = na * 8, pb = nb * 8, fa = a.f32, fb = b.f32;
      return !(fa[pa] > fb[pb + 3] || fb[pb] > fa[pa + 3] || fa[pa + 1] > fb[pb + 4] || fb[pb + 1] > fa[pa + 4] || fa[pa + 2] > fb[pb + 5] || fb[pb + 2] > fa[pa + 5]);
    };
    const visit = (na: number, nb: number): void => {
      if (!meet(na, nb)) return;
      const leafA = (a.u32[na * 8 + 7] & 0x80000000) !== 0, leafB = (b.u32[nb * 8 + 7] & 0x80000000) !== 0;
      if (leafA && leafB) { out.push(na, nb); return; }
      const la = na + 1, ra = a.u32[na * 8 + 6], lb = nb + 1, rb = b.u32[nb * 8 + 6];
      if (!leafA && !leafB) { visit(la, lb); visit(la, rb); visit(ra, lb); visit(ra, rb); }
      else if (!leafA) { visit(la, nb); visit(ra, nb); }
      else { visit(na, lb); visit(na, rb); }
    };
    visit(0, 0);
  }

  for (const seed of [31, 32, 33]) {
    it(`seed ${seed}: visits exactly the leaf pairs whose ancestors' boxes all meet, in depth-first order (box tests without branches)`, () => {
      const r = mulberry32(seed);
      const A = uvSphere(40, 24, 0, 0, 0, 1, r, 0.3), B = uvSphere(36, 20, 0.8, 0.3, 0.1, 0.8, r, 0.3);
      // coordinates snapped to a grid: boxes that touch exactly (ties of the box tests)
      for (const m of [A, B]) for (let i = 0; i < m.positions.length; i++) m.positions[i] = Math.round(m.positions[i] * 16) / 16;
      const a = TriangleBVH.build(A.positions, A.indices, undefined, 4, 'sah'), b = TriangleBVH.build(B.positions, B.indices, undefined, 4, 'sah');
      const got: number[] = [], want: number[] = [];
      forEachLeafNodePair(a, b, (na, nb) => { got.push(na, nb); });
      reference(a, b, want);
      expect(want.length, 'the spheres overlap in many leaf pairs').toBeGreaterThan(200);
      expect(got, 'the same leaf pairs in the same order').toEqual(want);
      // stopping early: the visit that answers true ends the traversal
      const stop: number[] = [];
      forEachLeafNodePair(a, b, (na, nb) => { stop.push(na, nb); return stop.length === 20; });
      expect(stop, 'the first ten pairs').toEqual(want.slice(0, 20));
    });
  }
});
