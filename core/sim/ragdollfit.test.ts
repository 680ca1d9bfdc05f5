import { describe, expect, it } from 'vitest';
import { rotateInv } from './rigid';
import { bodyLocal, bodyPoints, frameExtents, meanScatter } from './ragdoll';
import { mulberry32 } from '../document/fixtures';

/**
 * buildRagdoll's per-vertex loops, moved into small functions (so that V8
 * compiles those, not the whole of buildRagdoll): the same numbers, bit for
 * bit, as the loops they replaced (written here as they were), on seeded
 * point clouds of several sizes and spreads.
 */
describe('ragdoll fit helpers', () => {
  for (const [seed, nv, spread] of [[3, 1, 1], [5, 17, 0.01], [11, 400, 0.3], [13, 2000, 2]] as const) {
    it(`seed ${seed}, ${nv} points: the old loops' numbers`, () => {
      const rand = mulberry32(seed);
      const meshVerts = [0, 1, 2].map(() => Float64Array.from({ length: 3 * 700 }, () => spread * (rand() - 0.3)));
      const refs = new Int32Array(2 * nv);
      for (let v = 0; v < nv; v++) {
        refs[2 * v] = Math.floor(3 * rand());
        refs[2 * v + 1] = Math.floor(700 * rand());
      }
      // the old code
      const ptsOld = new Float64Array(3 * nv);
      for (let v = 0; v < nv; v++) {
        const V = meshVerts[refs[2 * v]], o = 3 * refs[2 * v + 1];
        ptsOld[3 * v] = V[o];
        ptsOld[3 * v + 1] = V[o + 1];
        ptsOld[3 * v + 2] = V[o + 2];
      }
      let mx = 0, my = 0, mz = 0;
      for (let v = 0; v < nv; v++) {
        mx += ptsOld[3 * v];
        my += ptsOld[3 * v + 1];
        mz += ptsOld[3 * v + 2];
      }
      mx /= nv;
      my /= nv;
      mz /= nv;
      const cov = [0, 0, 0, 0, 0, 0, 0, 0, 0];
      for (let v = 0; v < nv; v++) {
        const dx = ptsOld[3 * v] - mx, dy = ptsOld[3 * v + 1] - my, dz = ptsOld[3 * v + 2] - mz;
        cov[0] += dx * dx;
        cov[1] += dy * dx;
        cov[2] += dz * dx;
        cov[3] += dx * dy;
        cov[4] += dy * dy;
        cov[5] += dz * dy;
        cov[6] += dx * dz;
        cov[7] += dy * dz;
        cov[8] += dz * dz;
      }
      const a = rand() * 6, ax = [rand() - 0.5, rand() - 0.5, rand() - 0.5], al = Math.hypot(ax[0], ax[1], ax[2]);
      const q: [number, number, number, number] = [(Math.sin(a / 2) * ax[0]) / al, (Math.sin(a / 2) * ax[1]) / al, (Math.sin(a / 2) * ax[2]) / al, Math.cos(a / 2)];
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      const e = new Float64Array(3);
      for (let v = 0; v < nv; v++) {
        rotateInv(e, q, 0, ptsOld[3 * v] - mx, ptsOld[3 * v + 1] - my, ptsOld[3 * v + 2] - mz);
        for (let k = 0; k < 3; k++) {
          if (e[k] < lo[k]) lo[k] = e[k];
          if (e[k] > hi[k]) hi[k] = e[k];
        }
      }
      const com = [mx + 0.01, my - 0.02, mz + 0.03];
      const localOld = new Float64Array(3 * nv);
      for (let v = 0; v < nv; v++) {
        rotateInv(e, q, 0, ptsOld[3 * v] - com[0], ptsOld[3 * v + 1] - com[1], ptsOld[3 * v + 2] - com[2]);
        localOld.set(e, 3 * v);
      }
      // the new functions
      const pts = bodyPoints(refs, meshVerts, nv);
      expect(Array.from(pts)).toEqual(Array.from(ptsOld));
      const fit = new Float64Array(12);
      meanScatter(pts, nv, fit);
      expect(Array.from(fit)).toEqual([mx, my, mz, ...cov]);
      const lo2 = new Float64Array(3), hi2 = new Float64Array(3);
      frameExtents(pts, nv, mx, my, mz, q, lo2, hi2);
      expect(Array.from(lo2)).toEqual(lo);
      expect(Array.from(hi2)).toEqual(hi);
      expect(Array.from(bodyLocal(pts, nv, q, com[0], com[1], com[2]))).toEqual(Array.from(localOld));
    });
  }
});

describe('maxSquaredNorm (the constructor\'s bodySize loop, apart)', () => {
  it('the old loop\'s number, bit for bit, and 0 for no points', async () => {
    const { maxSquaredNorm } = await import('./world');
    const rand = mulberry32(29);
    for (const n of [0, 1, 7, 1000]) {
      const X = Float64Array.from({ length: 3 * n }, () => 3 * (rand() - 0.5));
      let r2 = 0;
      for (let v = 0; v < n; v++) r2 = Math.max(r2, X[3 * v] ** 2 + X[3 * v + 1] ** 2 + X[3 * v + 2] ** 2);
      expect(Object.is(maxSquaredNorm(X, n), r2)).toBe(true);
      // and the largest squared norm within the rounding of the sums
      let m = 0;
      for (let v = 0; v < n; v++) m = Math.max(m, Math.hypot(X[3 * v], X[3 * v + 1], X[3 * v + 2]) ** 2);
      expect(Math.abs(maxSquaredNorm(X, n) - m)).toBeLessThanOrEqual(1e-14 * (m + 1e-300));
    }
  });
});
