/**
 * Principal axes of a symmetric 3x3 tensor by cyclic Jacobi rotations.
 * Used to put a rigid body's inertia in diagonal form, so the body frame of the
 * simulator is its principal frame (the symplectic splitting integrator needs it).
 */
import { quatFromRotationMatrix } from '../math/mat4';
import { hypot4 } from '../math/libm';

export interface PrincipalAxes {
  /** Principal moments (eigenvalues), ascending. */
  moments: [number, number, number];
  /** Rotation taking principal-frame vectors to the tensor's frame, as a quaternion (x, y, z, w). */
  rotation: [number, number, number, number];
}

/**
 * Diagonalises the symmetric column-major tensor `m`. Throws when it is not
 * symmetric positive definite (a body's inertia must be), naming `what`.
 */
export function principalAxes(m: ArrayLike<number>, what = 'inertia tensor'): PrincipalAxes {
  for (let i = 0; i < 9; i++)
    if (!Number.isFinite(m[i])) throw new Error(`${what}: element ${i} is not a finite number (${m[i]})`);
  const scale = Math.max(Math.abs(m[0]), Math.abs(m[4]), Math.abs(m[8]), 1e-300);
  if (Math.abs(m[1] - m[3]) > 1e-9 * scale || Math.abs(m[2] - m[6]) > 1e-9 * scale || Math.abs(m[5] - m[7]) > 1e-9 * scale)
    throw new Error(`${what}: not symmetric`);
  // a: working copy (row-major symmetric), v: accumulated rotation (columns are eigenvectors)
  const a = [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 64; sweep++) {
    const off = Math.abs(a[1]) + Math.abs(a[2]) + Math.abs(a[5]);
    if (off <= 1e-15 * scale) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[p * 3 + q];
      if (apq === 0) continue;
      const app = a[p * 3 + p],
        aqq = a[q * 3 + q];
      const theta = (aqq - app) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1),
        s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k * 3 + p],
          akq = a[k * 3 + q];
        a[k * 3 + p] = c * akp - s * akq;
        a[k * 3 + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p * 3 + k],
          aqk = a[q * 3 + k];
        a[p * 3 + k] = c * apk - s * aqk;
        a[q * 3 + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k * 3 + p],
          vkq = v[k * 3 + q];
        v[k * 3 + p] = c * vkp - s * vkq;
        v[k * 3 + q] = s * vkp + c * vkq;
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[i * 4] - a[j * 4]);
  const moments = order.map((i) => a[i * 4]) as [number, number, number];
  if (!(moments[0] > 0)) throw new Error(`${what}: not positive definite (smallest principal moment ${moments[0]})`);
  // columns of R = eigenvectors in ascending order; make it a proper rotation
  const col = (i: number) => [v[0 * 3 + i], v[1 * 3 + i], v[2 * 3 + i]];
  const c0 = col(order[0]),
    c1 = col(order[1]);
  const c2 = [c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2], c0[0] * c1[1] - c0[1] * c1[0]];
  const q = [0, 0, 0, 1];
  quatFromRotationMatrix(q, 0, c0[0], c1[0], c2[0], c0[1], c1[1], c2[1], c0[2], c1[2], c2[2]);
  const l = hypot4(q[0], q[1], q[2], q[3]);
  return { moments, rotation: [q[0] / l, q[1] / l, q[2] / l, q[3] / l] };
}
