import type { QuatLike, Vec3Like } from './vec3';
import { acos, cos as libmCos, hypot4, sin as libmSin } from './libm';

/** Mutable unit quaternion in the style of three.js `Quaternion` (x, y, z, w). */
export class Quat implements QuatLike {
  constructor(
    public x = 0,
    public y = 0,
    public z = 0,
    public w = 1,
  ) {}

  set(x: number, y: number, z: number, w: number): this {
    this.x = x;
    this.y = y;
    this.z = z;
    this.w = w;
    return this;
  }
  copy(q: QuatLike): this {
    return this.set(q.x, q.y, q.z, q.w);
  }
  clone(): Quat {
    return new Quat(this.x, this.y, this.z, this.w);
  }
  identity(): this {
    return this.set(0, 0, 0, 1);
  }
  fromArray(a: ArrayLike<number>, offset = 0): this {
    return this.set(a[offset], a[offset + 1], a[offset + 2], a[offset + 3]);
  }
  toArray(out: { [i: number]: number }, offset = 0): typeof out {
    out[offset] = this.x;
    out[offset + 1] = this.y;
    out[offset + 2] = this.z;
    out[offset + 3] = this.w;
    return out;
  }
  setFromAxisAngle(axis: Vec3Like, angleRad: number): this {
    const h = angleRad / 2,
      s = libmSin(h);
    return this.set(axis.x * s, axis.y * s, axis.z * s, libmCos(h));
  }
  length(): number {
    return hypot4(this.x, this.y, this.z, this.w);
  }
  normalize(): this {
    const l = this.length();
    if (l === 0) return this.identity();
    const s = 1 / l;
    return this.set(this.x * s, this.y * s, this.z * s, this.w * s);
  }
  /** Inverse of a unit quaternion. */
  conjugate(): this {
    this.x = -this.x;
    this.y = -this.y;
    this.z = -this.z;
    return this;
  }
  dot(q: QuatLike): number {
    return this.x * q.x + this.y * q.y + this.z * q.z + this.w * q.w;
  }
  multiply(q: QuatLike): this {
    return this.multiplyQuaternions(this, q);
  }
  premultiply(q: QuatLike): this {
    return this.multiplyQuaternions(q, this);
  }
  multiplyQuaternions(a: QuatLike, b: QuatLike): this {
    const ax = a.x,
      ay = a.y,
      az = a.z,
      aw = a.w,
      bx = b.x,
      by = b.y,
      bz = b.z,
      bw = b.w;
    this.x = ax * bw + aw * bx + ay * bz - az * by;
    this.y = ay * bw + aw * by + az * bx - ax * bz;
    this.z = az * bw + aw * bz + ax * by - ay * bx;
    this.w = aw * bw - ax * bx - ay * by - az * bz;
    return this;
  }
  slerp(q: QuatLike, t: number): this {
    const out = [0, 0, 0, 0];
    slerpFlat(out, 0, [this.x, this.y, this.z, this.w], 0, [q.x, q.y, q.z, q.w], 0, t);
    return this.fromArray(out);
  }
}

/**
 * Shortest-arc spherical interpolation between unit quaternions stored flat,
 * written into `out` at `oo` (three.js `Quaternion.slerpFlat`).
 */
export function slerpFlat(
  out: { [i: number]: number },
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  t: number,
): void {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  let bx = b[bo],
    by = b[bo + 1],
    bz = b[bo + 2],
    bw = b[bo + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  let s0: number, s1: number;
  if (cos > 1 - 1e-9) {
    s0 = 1 - t;
    s1 = t;
  } else {
    const theta = acos(Math.min(1, cos));
    const sin = libmSin(theta);
    s0 = libmSin((1 - t) * theta) / sin;
    s1 = libmSin(t * theta) / sin;
  }
  let x = s0 * ax + s1 * bx,
    y = s0 * ay + s1 * by,
    z = s0 * az + s1 * bz,
    w = s0 * aw + s1 * bw;
  const l = hypot4(x, y, z, w);
  x /= l;
  y /= l;
  z /= l;
  w /= l;
  out[oo] = x;
  out[oo + 1] = y;
  out[oo + 2] = z;
  out[oo + 3] = w;
}

/** out = a * b for flat quaternions. `out` may alias either input. */
export function multiplyQuatFlat(
  out: { [i: number]: number },
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): void {
  const ax = a[ao],
    ay = a[ao + 1],
    az = a[ao + 2],
    aw = a[ao + 3];
  const bx = b[bo],
    by = b[bo + 1],
    bz = b[bo + 2],
    bw = b[bo + 3];
  out[oo] = ax * bw + aw * bx + ay * bz - az * by;
  out[oo + 1] = ay * bw + aw * by + az * bx - ax * bz;
  out[oo + 2] = az * bw + aw * bz + ax * by - ay * bx;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}
