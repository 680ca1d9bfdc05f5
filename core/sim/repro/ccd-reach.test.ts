import { describe, expect, it } from 'vitest';
import { edgeEdgeReach, vertexTriangleReach } from '../world';
import { pointTriangleDistanceSq, segmentSegmentClosest } from '../geometry';
import { ccdQueryFlat } from '../../collision/ccd';
import { mulberry32 } from '../../document/fixtures';

// Repro: a ball carried by the bat in the sample project. The CCD distance filter bounded the
// approach by the SUM of the features' displacements, so every pair near the moving bat was
// queried (4 M queries per clip), and queries that ran out of their box budget reported
// conservative contacts that were none (919 impact events). The bound is now the features'
// RELATIVE displacement. Law: a pair the bound rules out never touches (exact CCD).

const _st = new Float64Array(2);
const _out = new Float64Array(3);

/** Random feature pair moving together (common translation) with a small relative motion; every third one driven through each other. */
function randomPair(rand: () => number, k: number, vertexTriangle: boolean): { P0: Float64Array; P1: Float64Array; co: Float64Array } {
  const P0 = new Float64Array(12), P1 = new Float64Array(12);
  const T = [0, 1, 2].map(() => (rand() - 0.5) * 0.6); // common motion up to 0.3 m per axis
  for (let i = 0; i < 12; i++) P0[i] = (rand() - 0.5) * 0.2;
  if (vertexTriangle) {
    // triangle a, b, c in a plane near z = 0; vertex p above or below
    for (let v = 1; v < 4; v++) P0[3 * v + 2] = (rand() - 0.5) * 0.01;
    P0[2] = (rand() < 0.5 ? -1 : 1) * (0.002 + 0.02 * rand());
  }
  const small = 0.01 * rand();
  for (let i = 0; i < 12; i++) P1[i] = P0[i] + T[i % 3] + (rand() - 0.5) * small;
  if (k % 3 === 0) {
    if (vertexTriangle) {
      // p moves to the triangle's centroid plane and beyond (through the triangle)
      for (let c = 0; c < 2; c++) P0[c] = (P0[3 + c] + P0[6 + c] + P0[9 + c]) / 3;
      for (let c = 0; c < 3; c++) P1[c] = P0[c] + T[c];
      P1[2] = -P0[2] + T[2] + (P1[5] + P1[8] + P1[11]) / 3 - T[2] - (P0[5] + P0[8] + P0[11]) / 3;
    } else {
      // edge b swept across edge a: the midpoints swap sides along a's normal direction
      const mx = (P0[0] + P0[3]) / 2, my = (P0[1] + P0[4]) / 2;
      P0[6] = mx - 0.05; P0[7] = my; P0[8] = 0.02;
      P0[9] = mx + 0.05; P0[10] = my; P0[11] = 0.02;
      P0[2] = P0[5] = 0;
      P0[0] = mx; P0[1] = my - 0.05; P0[3] = mx; P0[4] = my + 0.05;
      for (let i = 0; i < 12; i++) P1[i] = P0[i] + T[i % 3];
      P1[8] -= 0.04;
      P1[11] -= 0.04;
    }
  }
  const co = new Float64Array(24);
  co.set(P0, 0);
  co.set(P1, 12);
  return { P0, P1, co };
}

describe('CCD reach bound (relative displacement)', () => {
  for (const vertexTriangle of [true, false]) {
    it(`seed 29: ${vertexTriangle ? 'a vertex–triangle' : 'an edge–edge'} pair the bound rules out never touches; bodies moving together are ruled out where the sum of displacements was not`, () => {
      const rand = mulberry32(29);
      let ruledOut = 0, ruledOutOnlyNow = 0, touching = 0;
      for (let k = 0; k < 3000; k++) {
        const { P0, P1, co } = randomPair(rand, k, vertexTriangle);
        const rel = vertexTriangle ? vertexTriangleReach(P0, P1, 0, 3, 6, 9) : edgeEdgeReach(P0, P1, 0, 3, 6, 9);
        const d0 = vertexTriangle ? pointTriangleDistanceSq(P0, 0, 3, 6, 9) : segmentSegmentClosest(P0, 0, 3, P0, 6, 9, _st);
        const d1 = vertexTriangle ? pointTriangleDistanceSq(P1, 0, 3, 6, 9) : segmentSegmentClosest(P1, 0, 3, P1, 6, 9, _st);
        const hit = ccdQueryFlat(vertexTriangle, co, 0, _out, 0, 0, 100_000);
        if (hit) touching++;
        if (d0 > rel * rel || d1 > rel * rel) {
          ruledOut++;
          expect(hit, `case ${k}: ruled out by the bound (reach ${rel}, distances ${Math.sqrt(d0)}, ${Math.sqrt(d1)}) but the exact CCD finds a contact at t = ${_out[0]}`).toBe(false);
          const disp = (o: number) => Math.hypot(P1[o] - P0[o], P1[o + 1] - P0[o + 1], P1[o + 2] - P0[o + 2]);
          const sum = vertexTriangle ? disp(0) + Math.max(disp(3), disp(6), disp(9)) : Math.max(disp(0), disp(3)) + Math.max(disp(6), disp(9));
          if (!(d0 > sum * sum || d1 > sum * sum)) ruledOutOnlyNow++;
        }
      }
      expect(touching, 'pairs driven through each other touch').toBeGreaterThan(500);
      expect(ruledOut, 'pairs ruled out').toBeGreaterThan(1000);
      expect(ruledOutOnlyNow, 'pairs moving together ruled out only by the relative bound').toBeGreaterThan(500);
    });
  }
});
