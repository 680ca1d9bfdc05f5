/**
 * Column-major 3x3 matrices stored flat: element (row r, column c) at
 * `offset + c * 3 + r`. Used for inertia tensors and rotations.
 */
export type Mat3Out = { [i: number]: number };

export function mat3Identity(out: Mat3Out, oo = 0): void {
  for (let i = 0; i < 9; i++) out[oo + i] = i % 4 === 0 ? 1 : 0;
}

/** out = a * b. */
export function mat3Multiply(out: Mat3Out, oo: number, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): void {
  const r = new Array<number>(9);
  for (let c = 0; c < 3; c++)
    for (let rr = 0; rr < 3; rr++)
      r[c * 3 + rr] = a[ao + rr] * b[bo + c * 3] + a[ao + 3 + rr] * b[bo + c * 3 + 1] + a[ao + 6 + rr] * b[bo + c * 3 + 2];
  for (let i = 0; i < 9; i++) out[oo + i] = r[i];
}

export function mat3Transpose(out: Mat3Out, oo: number, m: ArrayLike<number>, mo: number): void {
  const m01 = m[mo + 3], m02 = m[mo + 6], m12 = m[mo + 7];
  out[oo] = m[mo];
  out[oo + 4] = m[mo + 4];
  out[oo + 8] = m[mo + 8];
  out[oo + 3] = m[mo + 1];
  out[oo + 6] = m[mo + 2];
  out[oo + 7] = m[mo + 5];
  out[oo + 1] = m01;
  out[oo + 2] = m02;
  out[oo + 5] = m12;
}

export function mat3Determinant(m: ArrayLike<number>, mo = 0): number {
  return (
    m[mo] * (m[mo + 4] * m[mo + 8] - m[mo + 7] * m[mo + 5]) -
    m[mo + 3] * (m[mo + 1] * m[mo + 8] - m[mo + 7] * m[mo + 2]) +
    m[mo + 6] * (m[mo + 1] * m[mo + 5] - m[mo + 4] * m[mo + 2])
  );
}

/** Inverse; returns false when singular (out untouched). */
export function mat3Invert(out: Mat3Out, oo: number, m: ArrayLike<number>, mo: number): boolean {
  const a = m[mo], b = m[mo + 3], c = m[mo + 6];
  const d = m[mo + 1], e = m[mo + 4], f = m[mo + 7];
  const g = m[mo + 2], h = m[mo + 5], i = m[mo + 8];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (det === 0 || !Number.isFinite(det)) return false;
  const s = 1 / det;
  const r = [A * s, B * s, C * s, -(b * i - c * h) * s, (a * i - c * g) * s, -(a * h - b * g) * s, (b * f - c * e) * s, -(a * f - c * d) * s, (a * e - b * d) * s];
  // r is row-major of inverse; store column-major
  out[oo] = r[0];
  out[oo + 3] = r[3];
  out[oo + 6] = r[6];
  out[oo + 1] = r[1];
  out[oo + 4] = r[4];
  out[oo + 7] = r[7];
  out[oo + 2] = r[2];
  out[oo + 5] = r[5];
  out[oo + 8] = r[8];
  return true;
}

/** Rotation matrix of the unit quaternion q (x, y, z, w). */
export function mat3FromQuat(out: Mat3Out, oo: number, q: ArrayLike<number>, qo: number): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  out[oo] = 1 - (yy + zz);
  out[oo + 1] = xy + wz;
  out[oo + 2] = xz - wy;
  out[oo + 3] = xy - wz;
  out[oo + 4] = 1 - (xx + zz);
  out[oo + 5] = yz + wx;
  out[oo + 6] = xz + wy;
  out[oo + 7] = yz - wx;
  out[oo + 8] = 1 - (xx + yy);
}

/** out = M v for v = (x, y, z). */
export function mat3MulVec(out: Mat3Out, oo: number, m: ArrayLike<number>, mo: number, x: number, y: number, z: number): void {
  out[oo] = m[mo] * x + m[mo + 3] * y + m[mo + 6] * z;
  out[oo + 1] = m[mo + 1] * x + m[mo + 4] * y + m[mo + 7] * z;
  out[oo + 2] = m[mo + 2] * x + m[mo + 5] * y + m[mo + 8] * z;
}
