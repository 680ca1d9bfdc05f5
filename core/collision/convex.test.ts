import { describe, expect, it } from 'vitest';
import { boxMesh, icosphereMesh } from '../document/fixtures';
import { convexFromMesh, convexPolyhedraIntersect, isConvexMesh } from './convex';
import { TriangleBVH } from './bvh';
import { pointInMesh } from './query';
import { mulberry32, uvSphere } from './testutil';
import { triTriOverlap } from './tritri';

function place(src: Float32Array, r: () => number, spread: number): Float64Array {
  const ax = [r() - 0.5, r() - 0.5, r() - 0.5], l = Math.hypot(ax[0], ax[1], ax[2]), ang = r() * 6;
  const [x, y, z] = ax.map((a) => a / l), s = Math.sin(ang), c = Math.cos(ang), C = 1 - c;
  const R = [c + x * x * C, x * y * C - z * s, x * z * C + y * s, y * x * C + z * s, c + y * y * C, y * z * C - x * s, z * x * C - y * s, z * y * C + x * s, c + z * z * C];
  const t = [(r() - 0.5) * spread, (r() - 0.5) * spread, (r() - 0.5) * spread];
  const out = new Float64Array(src.length);
  for (let i = 0; i < src.length; i += 3) for (let k = 0; k < 3; k++) out[i + k] = R[k * 3] * src[i] + R[k * 3 + 1] * src[i + 1] + R[k * 3 + 2] * src[i + 2] + t[k];
  return out;
}

/** Reference: solids meet iff a triangle pair meets or one contains a vertex of the other. */
function bruteSolids(pa: Float64Array, ia: Uint32Array, pb: Float64Array, ib: Uint32Array): boolean {
  const P = new Float64Array(9), Q = new Float64Array(9);
  for (let a = 0; a < ia.length / 3; a++) for (let b = 0; b < ib.length / 3; b++) {
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) { P[j * 3 + k] = pa[ia[a * 3 + j] * 3 + k]; Q[j * 3 + k] = pb[ib[b * 3 + j] * 3 + k]; }
    if (triTriOverlap(P, 0, Q, 0)) return true;
  }
  return pointInMesh(TriangleBVH.build(pb, ib), pb, pa, 0) === 1 || pointInMesh(TriangleBVH.build(pa, ia), pa, pb, 0) === 1;
}

describe('Moore & Wilhelms convex polyhedra test', () => {
  it('seed 21: agrees with triangle tests + containment on random boxes and spheres', () => {
    const r = mulberry32(21);
    const box = boxMesh(0.3, 0.2, 0.1), ball = icosphereMesh(0.25, 1);
    let hits = 0, contained = 0;
    for (let i = 0; i < 400; i++) {
      const ma = i % 2 ? box : ball, mb = i % 3 ? ball : box;
      const pa = place(ma.positions, r, 0.8), pb = place(mb.positions, r, 0.8);
      const ref = bruteSolids(pa, ma.indices, pb, mb.indices);
      const got = convexPolyhedraIntersect(convexFromMesh(pa, ma.indices), convexFromMesh(pb, mb.indices));
      expect(got, `case ${i}`).toBe(ref);
      if (ref) hits++;
    }
    // a small box inside a big one: no surface crossing, still intersecting
    const big = boxMesh(1, 1, 1), small = boxMesh(0.1, 0.1, 0.1);
    const pb = Float64Array.from(big.positions), ps = Float64Array.from(small.positions);
    if (convexPolyhedraIntersect(convexFromMesh(pb, big.indices), convexFromMesh(ps, small.indices))) contained++;
    expect(contained, 'containment counts as intersection').toBe(1);
    expect(hits).toBeGreaterThan(40);
    expect(hits).toBeLessThan(360);
  });
  it('recognises convex and non-convex meshes', () => {
    const b = boxMesh(0.3, 0.2, 0.1);
    expect(isConvexMesh(b.positions, b.indices)).toBe(true);
    const bumpy = uvSphere(16, 10, 0, 0, 0, 1, mulberry32(3), 0.5);
    expect(isConvexMesh(bumpy.positions, bumpy.indices)).toBe(false);
  });
});
