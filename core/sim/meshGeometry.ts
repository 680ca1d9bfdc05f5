/**
 * Flat geometry over vertex arrays for the simulated world (SimWorld): signed
 * plane distances and volumes, same-side tests and displacement bounds that
 * let continuous detection skip pairs, ground contact patch reduction,
 * placing a dynamic collider's vertices, and the turn bound of the ragdoll
 * position corrections.
 */
import type { Collider } from './collider';
import { atan, cos, hypot3, sin, tan } from '../math/libm';

function signedPlane(X: Float64Array, p: number, a: number, b: number, c: number): number {
  const ax = X[a], ay = X[a + 1], az = X[a + 2];
  const ux = X[b] - ax, uy = X[b + 1] - ay, uz = X[b + 2] - az;
  const vx = X[c] - ax, vy = X[c + 1] - ay, vz = X[c + 2] - az;
  return (X[p] - ax) * (uy * vz - uz * vy) + (X[p + 1] - ay) * (uz * vx - ux * vz) + (X[p + 2] - az) * (ux * vy - uy * vx);
}

/** Four directions 90° apart at a generic angle (no ties on axis-aligned or 45° patches). */
const PATCH_DIRS = [0, 1, 2, 3].flatMap((k) => [cos(0.3 + (k * Math.PI) / 2), sin(0.3 + (k * Math.PI) / 2)]);

/** Keeps the vertices of a ground contact patch that are extreme along 4 directions in the ground plane (in place; returns the count). */
export function reduceGroundPatch(P: Float64Array, vOff: number, cand: Uint32Array, n: number): number {
  const keep = _keep;
  let m = 0;
  for (let d = 0; d < 4; d++) {
    const dx = PATCH_DIRS[2 * d], dz = PATCH_DIRS[2 * d + 1];
    let best = -1, bestV = -Infinity;
    for (let k = 0; k < n; k++) {
      const o = 3 * (vOff + cand[k]);
      const s = P[o] * dx + P[o + 2] * dz;
      if (s > bestV) {
        bestV = s;
        best = cand[k];
      }
    }
    let dup = false;
    for (let j = 0; j < m; j++) if (keep[j] === best) dup = true;
    if (!dup) keep[m++] = best;
  }
  for (let j = 0; j < m; j++) cand[j] = keep[j];
  return m;
}
const _keep = new Uint32Array(8);

/** Keeps the two candidates farthest apart in the ground plane (x, z) in cand[0..1]; returns the new count. */
export function reduceGroundLine(P: Float64Array, vOff: number, cand: Uint32Array, n: number): number {
  let bi = 0, bj = 1, best = -1;
  for (let i = 0; i < n; i++) {
    const oi = 3 * (vOff + cand[i]);
    for (let j = i + 1; j < n; j++) {
      const oj = 3 * (vOff + cand[j]);
      const dx = P[oi] - P[oj], dz = P[oi + 2] - P[oj + 2];
      const d2 = dx * dx + dz * dz;
      if (d2 > best) {
        best = d2;
        bi = i;
        bj = j;
      }
    }
  }
  const a = cand[bi], b = cand[bj];
  cand[0] = a;
  cand[1] = b;
  return 2;
}

/** Six times the signed volume enclosed by a triangle mesh (positive when wound outward). */
export function signedVolume(X: ArrayLike<number>, T: ArrayLike<number>): number {
  let v = 0;
  for (let t = 0; t < T.length; t += 3) {
    const a = 3 * T[t], b = 3 * T[t + 1], c = 3 * T[t + 2];
    v += X[a] * (X[b + 1] * X[c + 2] - X[b + 2] * X[c + 1]) - X[a + 1] * (X[b] * X[c + 2] - X[b + 2] * X[c]) + X[a + 2] * (X[b] * X[c + 1] - X[b + 1] * X[c]);
  }
  return v;
}

export function signedPlaneNormalized(X: Float64Array, p: number, a: number, b: number, c: number): number {
  const ax = X[a], ay = X[a + 1], az = X[a + 2];
  const ux = X[b] - ax, uy = X[b + 1] - ay, uz = X[b + 2] - az;
  const vx = X[c] - ax, vy = X[c + 1] - ay, vz = X[c + 2] - az;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 0)) return 0;
  return ((X[p] - ax) * nx + (X[p + 1] - ay) * ny + (X[p + 2] - az) * nz) / l;
}

export function sameSideVT(P0: Float64Array, P1: Float64Array, p: number, a: number, b: number, c: number): boolean {
  const s0 = signedPlane(P0, p, a, b, c), s1 = signedPlane(P1, p, a, b, c);
  return (s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0);
}

export function sameSideEE(P0: Float64Array, P1: Float64Array, a0: number, a1: number, b0: number, b1: number): boolean {
  // (a0 − b0) · ((a1 − a0) × (b1 − b0)) is the signed volume of the tetrahedron: same sign at both ends
  const s = (X: Float64Array) => {
    const ex = X[a1] - X[a0], ey = X[a1 + 1] - X[a0 + 1], ez = X[a1 + 2] - X[a0 + 2];
    const fx = X[b1] - X[b0], fy = X[b1 + 1] - X[b0 + 1], fz = X[b1 + 2] - X[b0 + 2];
    return (X[a0] - X[b0]) * (ey * fz - ez * fy) + (X[a0 + 1] - X[b0 + 1]) * (ez * fx - ex * fz) + (X[a0 + 2] - X[b0 + 2]) * (ex * fy - ey * fx);
  };
  const s0 = s(P0), s1 = s(P1);
  return (s0 > 0 && s1 > 0) || (s0 < 0 && s1 < 0);
}

/** Length of the displacement of the point at offset o between A and B. */
export function disp(A: Float64Array, B: Float64Array, o: number): number {
  const dx = B[o] - A[o], dy = B[o + 1] - A[o + 1], dz = B[o + 2] - A[o + 2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/** World positions of a dynamic collider's vertices for the pose (x, y, z, qx, qy, qz, qw) at pose[s]. */
export function placeVertices(C: Collider, pose: Float64Array, s: number, out: Float64Array): void {
  const qx = pose[s + 3], qy = pose[s + 4], qz = pose[s + 5], qw = pose[s + 6];
  const x0 = pose[s], y0 = pose[s + 1], z0 = pose[s + 2];
  const L = C.local;
  for (let v = 0, o = 3 * C.vOff; v < C.nv; v++, o += 3) {
    const vx = L[3 * v], vy = L[3 * v + 1], vz = L[3 * v + 2];
    const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
    out[o] = x0 + vx + qw * tx + qy * tz - qz * ty;
    out[o + 1] = y0 + vy + qw * ty + qz * tx - qx * tz;
    out[o + 2] = z0 + vz + qw * tz + qx * ty - qy * tx;
  }
}

/**
 * Bound on how much the distance between vertex p and triangle (a, b, c)
 * can shrink while all four move linearly from A to B: the point moves
 * against any triangle point by a convex combination of its moves against
 * the corners (plus 1e-9 m). If the distance at either end exceeds it, they
 * never touch.
 */
export function vertexTriangleReach(A: Float64Array, B: Float64Array, p: number, a: number, b: number, c: number): number {
  return Math.max(relDisp(A, B, p, a), relDisp(A, B, p, b), relDisp(A, B, p, c)) + 1e-9;
}

/** The same for edges (a0, a1) and (b0, b1): the closest points move against each other by a convex combination of the endpoints' relative moves. */
export function edgeEdgeReach(A: Float64Array, B: Float64Array, a0: number, a1: number, b0: number, b1: number): number {
  return Math.max(relDisp(A, B, a0, b0), relDisp(A, B, a0, b1), relDisp(A, B, a1, b0), relDisp(A, B, a1, b1)) + 1e-9;
}

/** Length of the displacement of point a relative to point b between A and B. */
function relDisp(A: Float64Array, B: Float64Array, a: number, b: number): number {
  const dx = B[a] - A[a] - B[b] + A[b], dy = B[a + 1] - A[a + 1] - B[b + 1] + A[b + 1], dz = B[a + 2] - A[a + 2] - B[b + 2] + A[b + 2];
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

export function lerp(co: Float64Array, i: number, t: number): number {
  return co[i] + t * (co[12 + i] - co[i]);
}

/**
 * Largest fraction s ≤ 1 of a turn by angleRad (|angleRad| < π) such that
 * c + a sin φ + b (1 − cos φ) ≥ 0 for every φ from 0 to s · angleRad
 * (c ≥ 0: a clearance; a, b: the first and second order changes of a turned
 * point's distance to a plane). With u = tan(|φ|/2) the condition is
 * Q(u) = (c + 2b) u² + 2σa u + c ≥ 0 (σ the turn's sign): its first positive
 * root, if below tan(|angleRad|/2), bounds the turn.
 */
export function turnFraction(c: number, a: number, b: number, angleRad: number): number {
  const A = c + 2 * b, B = angleRad < 0 ? -2 * a : 2 * a, abs = Math.abs(angleRad);
  let u = Infinity;
  if (!(c > 0)) {
    // on the plane (or behind it): any move into it is refused
    if (B < 0 || (B === 0 && A < 0)) return 0;
    if (A < 0) u = -B / A;
  } else if (A === 0) {
    if (B < 0) u = -c / B;
  } else {
    const disc = B * B - 4 * A * c;
    if (disc >= 0) {
      // both roots without cancellation
      const q = -0.5 * (B + (B >= 0 ? Math.sqrt(disc) : -Math.sqrt(disc)));
      const r1 = q / A, r2 = q !== 0 ? c / q : Infinity;
      if (r1 > 0 && r1 < u) u = r1;
      if (r2 > 0 && r2 < u) u = r2;
    }
  }
  if (u === Infinity || (abs < Math.PI && u >= tan(0.5 * abs))) return 1;
  const s = (2 * atan(u)) / abs;
  return s < 1 ? s : 1;
}

/** Whether u lies on the inner side of edge a→b of a triangle with normal n (with a 1e-9 m margin). */
export function inTri(ux: number, uy: number, uz: number, ax: number, ay: number, az: number, bx: number, by: number, bz: number, nx: number, ny: number, nz: number): boolean {
  const ex = bx - ax, ey = by - ay, ez = bz - az, wx = ux - ax, wy = uy - ay, wz = uz - az;
  const cx = ey * wz - ez * wy, cy = ez * wx - ex * wz, cz = ex * wy - ey * wx;
  return nx * cx + ny * cy + nz * cz >= -1e-9 * hypot3(ex, ey, ez);
}
