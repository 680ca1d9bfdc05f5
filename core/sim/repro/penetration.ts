/**
 * Brute-force penetration measures for the simulator's law tests (not part
 * of the public API): how deep the dynamic bodies' vertices are inside a
 * keyframed prop's closed mesh, decided by the generalized winding number
 * and measured by the distance to the nearest triangle.
 */
import type { ImpulseDocument } from '../../document/types';
import type { SceneEvaluator } from '../../anim/evaluate';
import type { SimWorld } from '../world';
import { atan2, hypot3 } from '../../math/libm';

/** Generalized winding number of point p about a closed triangle mesh (world vertices X): ~1 inside (also where closed parts overlap: ≥ 1), 0 outside. */
export function winding(X: Float64Array, T: ArrayLike<number>, px: number, py: number, pz: number): number {
  let w = 0;
  for (let t = 0; t < T.length; t += 3) {
    const a = 3 * T[t], b = 3 * T[t + 1], c = 3 * T[t + 2];
    const ax = X[a] - px, ay = X[a + 1] - py, az = X[a + 2] - pz;
    const bx = X[b] - px, by = X[b + 1] - py, bz = X[b + 2] - pz;
    const cx = X[c] - px, cy = X[c + 1] - py, cz = X[c + 2] - pz;
    const la = hypot3(ax, ay, az), lb = hypot3(bx, by, bz), lc = hypot3(cx, cy, cz);
    const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
    const den = la * lb * lc + (ax * bx + ay * by + az * bz) * lc + (bx * cx + by * cy + bz * cz) * la + (cx * ax + cy * ay + cz * az) * lb;
    w += 2 * atan2(det, den);
  }
  return w / (4 * Math.PI);
}

/** Point–triangle distance² (brute force: the plane foot if inside the triangle, else the nearest edge point). */
export function pointTriangleDist2(px: number, py: number, pz: number, X: Float64Array, a: number, b: number, c: number): number {
  const ux = X[b] - X[a], uy = X[b + 1] - X[a + 1], uz = X[b + 2] - X[a + 2];
  const vx = X[c] - X[a], vy = X[c + 1] - X[a + 1], vz = X[c + 2] - X[a + 2];
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const nl = hypot3(nx, ny, nz);
  nx /= nl;
  ny /= nl;
  nz /= nl;
  const d = (px - X[a]) * nx + (py - X[a + 1]) * ny + (pz - X[a + 2]) * nz;
  const qx = px - d * nx, qy = py - d * ny, qz = pz - d * nz;
  const inside = (i: number, j: number): boolean => {
    const ex = X[j] - X[i], ey = X[j + 1] - X[i + 1], ez = X[j + 2] - X[i + 2];
    const fx = qx - X[i], fy = qy - X[i + 1], fz = qz - X[i + 2];
    return (ey * fz - ez * fy) * nx + (ez * fx - ex * fz) * ny + (ex * fy - ey * fx) * nz >= 0;
  };
  if (inside(a, b) && inside(b, c) && inside(c, a)) return d * d;
  let best = Infinity;
  for (const [i, j] of [[a, b], [b, c], [c, a]]) {
    const ex = X[j] - X[i], ey = X[j + 1] - X[i + 1], ez = X[j + 2] - X[i + 2];
    let s = ((px - X[i]) * ex + (py - X[i + 1]) * ey + (pz - X[i + 2]) * ez) / (ex * ex + ey * ey + ez * ez);
    s = Math.max(0, Math.min(1, s));
    best = Math.min(best, (px - X[i] - s * ex) ** 2 + (py - X[i + 1] - s * ey) ** 2 + (pz - X[i + 2] - s * ez) ** 2);
  }
  return best;
}

/** World vertices of keyframed prop `pi` at `timeSec`. */
export function propWorldVertices(doc: ImpulseDocument, ev: SceneEvaluator, pi: number, timeSec: number): Float64Array {
  const M = new Float64Array(16);
  ev.propWorldMatrix(pi, timeSec, M);
  const L = doc.props[pi].mesh.positions, n = L.length / 3, X = new Float64Array(3 * n);
  for (let v = 0; v < n; v++)
    for (let c = 0; c < 3; c++) X[3 * v + c] = M[c] * L[3 * v] + M[4 + c] * L[3 * v + 1] + M[8 + c] * L[3 * v + 2] + M[12 + c];
  return X;
}

/** Depth (m) of every vertex of every dynamic body inside keyframed prop `pi` at the world's time (0 outside), in body then vertex order. */
export function depthsInProp(w: SimWorld, doc: ImpulseDocument, ev: SceneEvaluator, pi: number): Float64Array {
  const X = propWorldVertices(doc, ev, pi, w.timeSec), T = doc.props[pi].mesh.indices;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < X.length; i += 3)
    for (let c = 0; c < 3; c++) {
      lo[c] = Math.min(lo[c], X[i + c]);
      hi[c] = Math.max(hi[c], X[i + c]);
    }
  const all: number[] = [];
  for (let b = 0; b < w.bodies.count; b++) {
    const V = w.bodyVertices(b);
    for (let q = 0; q < V.length; q += 3) {
      const px = V[q], py = V[q + 1], pz = V[q + 2];
      let depth = 0;
      if (px >= lo[0] && px <= hi[0] && py >= lo[1] && py <= hi[1] && pz >= lo[2] && pz <= hi[2] && winding(X, T, px, py, pz) >= 0.5) {
        let d2 = Infinity;
        for (let t = 0; t < T.length; t += 3) d2 = Math.min(d2, pointTriangleDist2(px, py, pz, X, 3 * T[t], 3 * T[t + 1], 3 * T[t + 2]));
        depth = Math.sqrt(d2);
      }
      all.push(depth);
    }
  }
  return Float64Array.from(all);
}

/** Deepest dynamic vertex inside keyframed prop `pi` at the world's time (m; 0 when none is inside). */
export function depthInProp(w: SimWorld, doc: ImpulseDocument, ev: SceneEvaluator, pi: number): number {
  let deepest = 0;
  for (const d of depthsInProp(w, doc, ev, pi)) deepest = Math.max(deepest, d);
  return deepest;
}
