/**
 * Exact geometric predicates on doubles: a floating-point evaluation with a
 * static error bound (Shewchuk's orient3d/orient2d bounds), and an exact
 * BigInt evaluation when the float answer is too close to call. Every double
 * is a dyadic rational, so scaling all inputs by a common power of two makes
 * them integers and the determinant exact.
 */

import { pow } from '../math/libm';

const EPS = 2 ** -53; // unit roundoff
const O3_BOUND = (7 + 56 * EPS) * EPS;
const O2_BOUND = (3 + 16 * EPS) * EPS;

const _ex = new Float64Array(12);

/** Number of binary fraction digits of a finite double (0 for integers). */
function fractionBits(x: number): number {
  if (Number.isInteger(x)) return 0;
  let k = 0;
  let y = x;
  while (!Number.isInteger(y)) {
    y *= 2;
    k++;
  }
  return k;
}

function toScaledBigInts(vals: Float64Array, n: number): bigint[] {
  let K = 0;
  for (let i = 0; i < n; i++) {
    const k = fractionBits(vals[i]);
    if (k > K) K = k;
  }
  const out: bigint[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const k = fractionBits(vals[i]);
    out[i] = BigInt(vals[i] * pow(2, k)) << BigInt(K - k);
  }
  return out;
}

function orient3dExact(): number {
  const v = toScaledBigInts(_ex, 12);
  const ax = v[3] - v[0], ay = v[4] - v[1], az = v[5] - v[2];
  const bx = v[6] - v[0], by = v[7] - v[1], bz = v[8] - v[2];
  const cx = v[9] - v[0], cy = v[10] - v[1], cz = v[11] - v[2];
  const d = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}

/**
 * Sign of det[b − a, c − a, d − a] (positive when d lies on the side of the
 * plane abc that (b − a) × (c − a) points to). Points are read from flat arrays.
 */
export function orient3d(
  A: ArrayLike<number>, ao: number, B: ArrayLike<number>, bo: number,
  C: ArrayLike<number>, co: number, D: ArrayLike<number>, dof: number,
): number {
  const ax = B[bo] - A[ao], ay = B[bo + 1] - A[ao + 1], az = B[bo + 2] - A[ao + 2];
  const bx = C[co] - A[ao], by = C[co + 1] - A[ao + 1], bz = C[co + 2] - A[ao + 2];
  const cx = D[dof] - A[ao], cy = D[dof + 1] - A[ao + 1], cz = D[dof + 2] - A[ao + 2];
  const m1 = by * cz - bz * cy, m2 = bx * cz - bz * cx, m3 = bx * cy - by * cx;
  const det = ax * m1 - ay * m2 + az * m3;
  const perm =
    Math.abs(ax) * (Math.abs(by * cz) + Math.abs(bz * cy)) +
    Math.abs(ay) * (Math.abs(bx * cz) + Math.abs(bz * cx)) +
    Math.abs(az) * (Math.abs(bx * cy) + Math.abs(by * cx));
  // The differences themselves round; bound that by widening the static bound.
  const bound = (O3_BOUND + 8 * EPS) * perm;
  if (det > bound) return 1;
  if (-det > bound) return -1;
  if (perm === 0 && det === 0 && isExactDiffs(A, ao, B, bo, C, co, D, dof)) return 0;
  _ex[0] = A[ao]; _ex[1] = A[ao + 1]; _ex[2] = A[ao + 2];
  _ex[3] = B[bo]; _ex[4] = B[bo + 1]; _ex[5] = B[bo + 2];
  _ex[6] = C[co]; _ex[7] = C[co + 1]; _ex[8] = C[co + 2];
  _ex[9] = D[dof]; _ex[10] = D[dof + 1]; _ex[11] = D[dof + 2];
  return orient3dExact();
}

function isExactDiffs(
  A: ArrayLike<number>, ao: number, B: ArrayLike<number>, bo: number,
  C: ArrayLike<number>, co: number, D: ArrayLike<number>, dof: number,
): boolean {
  // All-equal points: the permanent is 0 only if the differences are 0 or the
  // products vanish; be exact whenever any difference is nonzero.
  for (let k = 0; k < 3; k++) {
    if (B[bo + k] !== A[ao + k] || C[co + k] !== A[ao + k] || D[dof + k] !== A[ao + k]) return false;
  }
  return true;
}

/** Sign of the 2D orientation of (a, b, c), given as x, y pairs. */
export function orient2d(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const l = (bx - ax) * (cy - ay), r = (by - ay) * (cx - ax);
  const det = l - r;
  const bound = (O2_BOUND + 4 * EPS) * (Math.abs(l) + Math.abs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  if (l === 0 && r === 0 && bx - ax === 0 && by - ay === 0) return 0;
  _ex[0] = ax; _ex[1] = ay; _ex[2] = bx; _ex[3] = by; _ex[4] = cx; _ex[5] = cy;
  const v = toScaledBigInts(_ex, 6);
  const d = (v[2] - v[0]) * (v[5] - v[1]) - (v[3] - v[1]) * (v[4] - v[0]);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}
