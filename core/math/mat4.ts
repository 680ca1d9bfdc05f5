/**
 * Column-major 4x4 matrices stored flat (glTF and three.js layout):
 * element (row r, column c) is at `offset + c * 4 + r`.
 * Every function writes into `out` at `oo`; `out` may alias an input.
 */
import { hypot3 } from './libm';
export type Mat4Out = { [i: number]: number };

export function mat4Identity(out: Mat4Out, oo = 0): void {
  for (let i = 0; i < 16; i++) out[oo + i] = i % 5 === 0 ? 1 : 0;
}

/** Translation * Rotation(quaternion) * Scale, as glTF node TRS. */
export function mat4Compose(
  out: Mat4Out,
  oo: number,
  t: ArrayLike<number>,
  to: number,
  q: ArrayLike<number>,
  qo: number,
  s: ArrayLike<number>,
  so: number,
): void {
  const x = q[qo],
    y = q[qo + 1],
    z = q[qo + 2],
    w = q[qo + 3];
  const x2 = x + x,
    y2 = y + y,
    z2 = z + z;
  const xx = x * x2,
    xy = x * y2,
    xz = x * z2;
  const yy = y * y2,
    yz = y * z2,
    zz = z * z2;
  const wx = w * x2,
    wy = w * y2,
    wz = w * z2;
  const sx = s[so],
    sy = s[so + 1],
    sz = s[so + 2];
  out[oo] = (1 - (yy + zz)) * sx;
  out[oo + 1] = (xy + wz) * sx;
  out[oo + 2] = (xz - wy) * sx;
  out[oo + 3] = 0;
  out[oo + 4] = (xy - wz) * sy;
  out[oo + 5] = (1 - (xx + zz)) * sy;
  out[oo + 6] = (yz + wx) * sy;
  out[oo + 7] = 0;
  out[oo + 8] = (xz + wy) * sz;
  out[oo + 9] = (yz - wx) * sz;
  out[oo + 10] = (1 - (xx + yy)) * sz;
  out[oo + 11] = 0;
  out[oo + 12] = t[to];
  out[oo + 13] = t[to + 1];
  out[oo + 14] = t[to + 2];
  out[oo + 15] = 1;
}

/** out = a * b. */
export function mat4Multiply(
  out: Mat4Out,
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): void {
  const a00 = a[ao], a10 = a[ao + 1], a20 = a[ao + 2], a30 = a[ao + 3];
  const a01 = a[ao + 4], a11 = a[ao + 5], a21 = a[ao + 6], a31 = a[ao + 7];
  const a02 = a[ao + 8], a12 = a[ao + 9], a22 = a[ao + 10], a32 = a[ao + 11];
  const a03 = a[ao + 12], a13 = a[ao + 13], a23 = a[ao + 14], a33 = a[ao + 15];
  for (let c = 0; c < 4; c++) {
    const b0 = b[bo + c * 4], b1 = b[bo + c * 4 + 1], b2 = b[bo + c * 4 + 2], b3 = b[bo + c * 4 + 3];
    out[oo + c * 4] = a00 * b0 + a01 * b1 + a02 * b2 + a03 * b3;
    out[oo + c * 4 + 1] = a10 * b0 + a11 * b1 + a12 * b2 + a13 * b3;
    out[oo + c * 4 + 2] = a20 * b0 + a21 * b1 + a22 * b2 + a23 * b3;
    out[oo + c * 4 + 3] = a30 * b0 + a31 * b1 + a32 * b2 + a33 * b3;
  }
}

/** General inverse. Returns false (and writes identity) when `m` is singular. */
export function mat4Invert(out: Mat4Out, oo: number, m: ArrayLike<number>, mo: number): boolean {
  const n11 = m[mo], n21 = m[mo + 1], n31 = m[mo + 2], n41 = m[mo + 3];
  const n12 = m[mo + 4], n22 = m[mo + 5], n32 = m[mo + 6], n42 = m[mo + 7];
  const n13 = m[mo + 8], n23 = m[mo + 9], n33 = m[mo + 10], n43 = m[mo + 11];
  const n14 = m[mo + 12], n24 = m[mo + 13], n34 = m[mo + 14], n44 = m[mo + 15];
  const t11 = n23 * n34 * n42 - n24 * n33 * n42 + n24 * n32 * n43 - n22 * n34 * n43 - n23 * n32 * n44 + n22 * n33 * n44;
  const t12 = n14 * n33 * n42 - n13 * n34 * n42 - n14 * n32 * n43 + n12 * n34 * n43 + n13 * n32 * n44 - n12 * n33 * n44;
  const t13 = n13 * n24 * n42 - n14 * n23 * n42 + n14 * n22 * n43 - n12 * n24 * n43 - n13 * n22 * n44 + n12 * n23 * n44;
  const t14 = n14 * n23 * n32 - n13 * n24 * n32 - n14 * n22 * n33 + n12 * n24 * n33 + n13 * n22 * n34 - n12 * n23 * n34;
  const det = n11 * t11 + n21 * t12 + n31 * t13 + n41 * t14;
  if (det === 0 || !Number.isFinite(det)) {
    mat4Identity(out, oo);
    return false;
  }
  const d = 1 / det;
  const r = [
    t11 * d,
    (n24 * n33 * n41 - n23 * n34 * n41 - n24 * n31 * n43 + n21 * n34 * n43 + n23 * n31 * n44 - n21 * n33 * n44) * d,
    (n22 * n34 * n41 - n24 * n32 * n41 + n24 * n31 * n42 - n21 * n34 * n42 - n22 * n31 * n44 + n21 * n32 * n44) * d,
    (n23 * n32 * n41 - n22 * n33 * n41 - n23 * n31 * n42 + n21 * n33 * n42 + n22 * n31 * n43 - n21 * n32 * n43) * d,
    t12 * d,
    (n13 * n34 * n41 - n14 * n33 * n41 + n14 * n31 * n43 - n11 * n34 * n43 - n13 * n31 * n44 + n11 * n33 * n44) * d,
    (n14 * n32 * n41 - n12 * n34 * n41 - n14 * n31 * n42 + n11 * n34 * n42 + n12 * n31 * n44 - n11 * n32 * n44) * d,
    (n12 * n33 * n41 - n13 * n32 * n41 + n13 * n31 * n42 - n11 * n33 * n42 - n12 * n31 * n43 + n11 * n32 * n43) * d,
    t13 * d,
    (n14 * n23 * n41 - n13 * n24 * n41 - n14 * n21 * n43 + n11 * n24 * n43 + n13 * n21 * n44 - n11 * n23 * n44) * d,
    (n12 * n24 * n41 - n14 * n22 * n41 + n14 * n21 * n42 - n11 * n24 * n42 - n12 * n21 * n44 + n11 * n22 * n44) * d,
    (n13 * n22 * n41 - n12 * n23 * n41 - n13 * n21 * n42 + n11 * n23 * n42 + n12 * n21 * n43 - n11 * n22 * n43) * d,
    t14 * d,
    (n13 * n24 * n31 - n14 * n23 * n31 + n14 * n21 * n33 - n11 * n24 * n33 - n13 * n21 * n34 + n11 * n23 * n34) * d,
    (n14 * n22 * n31 - n12 * n24 * n31 - n14 * n21 * n32 + n11 * n24 * n32 + n12 * n21 * n34 - n11 * n22 * n34) * d,
    (n12 * n23 * n31 - n13 * n22 * n31 + n13 * n21 * n32 - n11 * n23 * n32 - n12 * n21 * n33 + n11 * n22 * n33) * d,
  ];
  for (let i = 0; i < 16; i++) out[oo + i] = r[i];
  return true;
}

/** Transforms the point (x, y, z) by affine `m`, writing 3 numbers at `oo`. */
export function mat4TransformPoint(
  out: Mat4Out,
  oo: number,
  m: ArrayLike<number>,
  mo: number,
  x: number,
  y: number,
  z: number,
): void {
  out[oo] = m[mo] * x + m[mo + 4] * y + m[mo + 8] * z + m[mo + 12];
  out[oo + 1] = m[mo + 1] * x + m[mo + 5] * y + m[mo + 9] * z + m[mo + 13];
  out[oo + 2] = m[mo + 2] * x + m[mo + 6] * y + m[mo + 10] * z + m[mo + 14];
}

/**
 * Splits an affine matrix into translation, rotation quaternion and scale
 * (three.js `Matrix4.decompose`); writes 3 + 4 + 3 numbers.
 */
export function mat4Decompose(
  m: ArrayLike<number>,
  mo: number,
  t: Mat4Out,
  to: number,
  q: Mat4Out,
  qo: number,
  s: Mat4Out,
  so: number,
): void {
  let sx = hypot3(m[mo], m[mo + 1], m[mo + 2]);
  const sy = hypot3(m[mo + 4], m[mo + 5], m[mo + 6]);
  const sz = hypot3(m[mo + 8], m[mo + 9], m[mo + 10]);
  const det =
    m[mo] * (m[mo + 5] * m[mo + 10] - m[mo + 9] * m[mo + 6]) -
    m[mo + 4] * (m[mo + 1] * m[mo + 10] - m[mo + 9] * m[mo + 2]) +
    m[mo + 8] * (m[mo + 1] * m[mo + 6] - m[mo + 5] * m[mo + 2]);
  if (det < 0) sx = -sx;
  t[to] = m[mo + 12];
  t[to + 1] = m[mo + 13];
  t[to + 2] = m[mo + 14];
  const r00 = m[mo] / sx, r10 = m[mo + 1] / sx, r20 = m[mo + 2] / sx;
  const r01 = m[mo + 4] / sy, r11 = m[mo + 5] / sy, r21 = m[mo + 6] / sy;
  const r02 = m[mo + 8] / sz, r12 = m[mo + 9] / sz, r22 = m[mo + 10] / sz;
  quatFromRotationMatrix(q, qo, r00, r01, r02, r10, r11, r12, r20, r21, r22);
  s[so] = sx;
  s[so + 1] = sy;
  s[so + 2] = sz;
}

/** Quaternion from a pure rotation matrix given by rows (three.js algorithm). */
export function quatFromRotationMatrix(
  q: Mat4Out,
  qo: number,
  m11: number, m12: number, m13: number,
  m21: number, m22: number, m23: number,
  m31: number, m32: number, m33: number,
): void {
  const trace = m11 + m22 + m33;
  let x: number, y: number, z: number, w: number;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1.0);
    w = 0.25 / s;
    x = (m32 - m23) * s;
    y = (m13 - m31) * s;
    z = (m21 - m12) * s;
  } else if (m11 > m22 && m11 > m33) {
    const s = 2.0 * Math.sqrt(1.0 + m11 - m22 - m33);
    w = (m32 - m23) / s;
    x = 0.25 * s;
    y = (m12 + m21) / s;
    z = (m13 + m31) / s;
  } else if (m22 > m33) {
    const s = 2.0 * Math.sqrt(1.0 + m22 - m11 - m33);
    w = (m13 - m31) / s;
    x = (m12 + m21) / s;
    y = 0.25 * s;
    z = (m23 + m32) / s;
  } else {
    const s = 2.0 * Math.sqrt(1.0 + m33 - m11 - m22);
    w = (m21 - m12) / s;
    x = (m13 + m31) / s;
    y = (m23 + m32) / s;
    z = 0.25 * s;
  }
  q[qo] = x;
  q[qo + 1] = y;
  q[qo + 2] = z;
  q[qo + 3] = w;
}
