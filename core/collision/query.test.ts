import { describe, expect, it } from 'vitest';
import { TriangleBVH } from './bvh';
import { pointInParts, pointInPartsLazy } from './query';
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
