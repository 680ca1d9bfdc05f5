/**
 * Moore & Wilhelms 1988, section 2.2: interpenetration of two convex
 * polyhedra as a 3D analogue of Cyrus–Beck clipping. Representative points of
 * B are tested against A, then the roles swap: (1) a vertex of B on the inner
 * side of every face plane of A is inside A; (2) each edge of B is clipped
 * against A's face planes (the parameter where it enters and leaves each
 * half-space); a non-empty remainder is a piece of the edge inside A. Two
 * convex polyhedra meet iff one of the four tests finds a point.
 *
 * Used as a fast path for convex props: when it says the closed solids are
 * apart, no triangle pair can cross. `tolerance` (scene units) widens every
 * half-space, so "apart" is never claimed for touching or nearly touching
 * solids (a conservative rejection test).
 */

import { hypot3 } from '../math/libm';
export interface ConvexPolyhedron {
  /** World positions, xyz per vertex. */
  positions: Float64Array;
  /** Face planes, 4 numbers each: outward unit normal n and offset d; inside is n·x ≤ d. */
  planes: Float64Array;
  /** Edges as vertex index pairs. */
  edges: Uint32Array;
}

/** Builds planes and unique edges from a closed, outward-wound triangle mesh. */
export function convexFromMesh(positions: Float64Array, indices: ArrayLike<number>): ConvexPolyhedron {
  const planes = new Float64Array((indices.length / 3) * 4);
  const seen = new Set<number>();
  const edges: number[] = [];
  const n = positions.length / 3;
  for (let t = 0; t < indices.length / 3; t++) {
    const a = indices[t * 3] * 3, b = indices[t * 3 + 1] * 3, c = indices[t * 3 + 2] * 3;
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = hypot3(nx, ny, nz) || 1;
    nx /= l; ny /= l; nz /= l;
    planes[t * 4] = nx; planes[t * 4 + 1] = ny; planes[t * 4 + 2] = nz;
    planes[t * 4 + 3] = nx * positions[a] + ny * positions[a + 1] + nz * positions[a + 2];
    for (let e = 0; e < 3; e++) {
      const i = indices[t * 3 + e], j = indices[t * 3 + ((e + 1) % 3)];
      const key = i < j ? i * n + j : j * n + i;
      if (!seen.has(key)) { seen.add(key); edges.push(i, j); }
    }
  }
  return { positions, planes, edges: Uint32Array.from(edges) };
}

/** Updates the planes of `p` after its positions moved (same topology as `indices`). */
export function updateConvexPlanes(p: ConvexPolyhedron, indices: ArrayLike<number>): void {
  const P = p.positions, pl = p.planes;
  for (let t = 0; t < indices.length / 3; t++) {
    const a = indices[t * 3] * 3, b = indices[t * 3 + 1] * 3, c = indices[t * 3 + 2] * 3;
    const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
    const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = hypot3(nx, ny, nz) || 1;
    nx /= l; ny /= l; nz /= l;
    pl[t * 4] = nx; pl[t * 4 + 1] = ny; pl[t * 4 + 2] = nz;
    pl[t * 4 + 3] = nx * P[a] + ny * P[a + 1] + nz * P[a + 2];
  }
}

/** Whether a closed outward-wound mesh is convex: every vertex on the inner side of every face plane (within `tolerance`). */
export function isConvexMesh(positions: ArrayLike<number>, indices: ArrayLike<number>, tolerance = 1e-9): boolean {
  const p = convexFromMesh(Float64Array.from(positions), indices);
  const nv = positions.length / 3;
  for (let f = 0; f < p.planes.length / 4; f++) {
    for (let v = 0; v < nv; v++) {
      const d = p.planes[f * 4] * positions[v * 3] + p.planes[f * 4 + 1] * positions[v * 3 + 1] + p.planes[f * 4 + 2] * positions[v * 3 + 2] - p.planes[f * 4 + 3];
      if (d > tolerance) return false;
    }
  }
  return true;
}

function pointsOfBInA(A: ConvexPolyhedron, B: ConvexPolyhedron, tol: number, out: Float64Array | null): boolean {
  const pl = A.planes, nf = pl.length / 4, P = B.positions;
  // step 1: vertices of B inside A
  for (let v = 0; v < P.length; v += 3) {
    let inside = true;
    for (let f = 0; f < nf; f++) {
      if (pl[f * 4] * P[v] + pl[f * 4 + 1] * P[v + 1] + pl[f * 4 + 2] * P[v + 2] - pl[f * 4 + 3] > tol) { inside = false; break; }
    }
    if (inside) {
      if (out) { out[0] = P[v]; out[1] = P[v + 1]; out[2] = P[v + 2]; }
      return true;
    }
  }
  // step 2: edges of B clipped by A's face planes (Cyrus–Beck)
  const E = B.edges;
  for (let e = 0; e < E.length; e += 2) {
    const i = E[e] * 3, j = E[e + 1] * 3;
    let tIn = 0, tOut = 1;
    for (let f = 0; f < nf && tIn <= tOut; f++) {
      const di = pl[f * 4] * P[i] + pl[f * 4 + 1] * P[i + 1] + pl[f * 4 + 2] * P[i + 2] - pl[f * 4 + 3] - tol;
      const dj = pl[f * 4] * P[j] + pl[f * 4 + 1] * P[j + 1] + pl[f * 4 + 2] * P[j + 2] - pl[f * 4 + 3] - tol;
      if (di > 0 && dj > 0) { tIn = 2; break; }
      if (di > 0) { const t = di / (di - dj); if (t > tIn) tIn = t; } else if (dj > 0) { const t = di / (di - dj); if (t < tOut) tOut = t; }
    }
    if (tIn <= tOut) {
      if (out) for (let k = 0; k < 3; k++) out[k] = P[i + k] + tIn * (P[j + k] - P[i + k]);
      return true;
    }
  }
  return false;
}

/**
 * Whether two convex polyhedra (closed solids) share a point, within
 * `tolerance`. Writes a point of the intersection into `out` when given.
 */
export function convexPolyhedraIntersect(A: ConvexPolyhedron, B: ConvexPolyhedron, tolerance = 0, out: Float64Array | null = null): boolean {
  return pointsOfBInA(A, B, tolerance, out) || pointsOfBInA(B, A, tolerance, out);
}
