/** Structural 3-vector: three.js `Vector3` and rapier vectors satisfy it. */
export interface Vec3Like {
  x: number;
  y: number;
  z: number;
}

/**
 * Mutable 3-vector in the style of three.js `Vector3`: methods change `this` and
 * return it; two-input forms have their own names (`addVectors`).
 */
export class Vec3 implements Vec3Like {
  constructor(
    public x = 0,
    public y = 0,
    public z = 0,
  ) {}

  set(x: number, y: number, z: number): this {
    this.x = x;
    this.y = y;
    this.z = z;
    return this;
  }
  copy(v: Vec3Like): this {
    this.x = v.x;
    this.y = v.y;
    this.z = v.z;
    return this;
  }
  clone(): Vec3 {
    return new Vec3(this.x, this.y, this.z);
  }
  fromArray(a: ArrayLike<number>, offset = 0): this {
    this.x = a[offset];
    this.y = a[offset + 1];
    this.z = a[offset + 2];
    return this;
  }
  toArray(out: { [i: number]: number }, offset = 0): typeof out {
    out[offset] = this.x;
    out[offset + 1] = this.y;
    out[offset + 2] = this.z;
    return out;
  }
  add(v: Vec3Like): this {
    this.x += v.x;
    this.y += v.y;
    this.z += v.z;
    return this;
  }
  addVectors(a: Vec3Like, b: Vec3Like): this {
    this.x = a.x + b.x;
    this.y = a.y + b.y;
    this.z = a.z + b.z;
    return this;
  }
  addScaledVector(v: Vec3Like, s: number): this {
    this.x += v.x * s;
    this.y += v.y * s;
    this.z += v.z * s;
    return this;
  }
  sub(v: Vec3Like): this {
    this.x -= v.x;
    this.y -= v.y;
    this.z -= v.z;
    return this;
  }
  subVectors(a: Vec3Like, b: Vec3Like): this {
    this.x = a.x - b.x;
    this.y = a.y - b.y;
    this.z = a.z - b.z;
    return this;
  }
  multiplyScalar(s: number): this {
    this.x *= s;
    this.y *= s;
    this.z *= s;
    return this;
  }
  negate(): this {
    this.x = -this.x;
    this.y = -this.y;
    this.z = -this.z;
    return this;
  }
  dot(v: Vec3Like): number {
    return this.x * v.x + this.y * v.y + this.z * v.z;
  }
  cross(v: Vec3Like): this {
    return this.crossVectors(this, v);
  }
  crossVectors(a: Vec3Like, b: Vec3Like): this {
    const ax = a.x,
      ay = a.y,
      az = a.z,
      bx = b.x,
      by = b.y,
      bz = b.z;
    this.x = ay * bz - az * by;
    this.y = az * bx - ax * bz;
    this.z = ax * by - ay * bx;
    return this;
  }
  lengthSq(): number {
    return this.x * this.x + this.y * this.y + this.z * this.z;
  }
  length(): number {
    return Math.sqrt(this.lengthSq());
  }
  distanceToSquared(v: Vec3Like): number {
    const dx = this.x - v.x,
      dy = this.y - v.y,
      dz = this.z - v.z;
    return dx * dx + dy * dy + dz * dz;
  }
  distanceTo(v: Vec3Like): number {
    return Math.sqrt(this.distanceToSquared(v));
  }
  normalize(): this {
    const l = this.length();
    return l > 0 ? this.multiplyScalar(1 / l) : this;
  }
  lerpVectors(a: Vec3Like, b: Vec3Like, t: number): this {
    this.x = a.x + (b.x - a.x) * t;
    this.y = a.y + (b.y - a.y) * t;
    this.z = a.z + (b.z - a.z) * t;
    return this;
  }
  /** Rotates by the unit quaternion `q`. */
  applyQuat(q: QuatLike): this {
    const vx = this.x,
      vy = this.y,
      vz = this.z;
    const qx = q.x,
      qy = q.y,
      qz = q.z,
      qw = q.w;
    const tx = 2 * (qy * vz - qz * vy);
    const ty = 2 * (qz * vx - qx * vz);
    const tz = 2 * (qx * vy - qy * vx);
    this.x = vx + qw * tx + qy * tz - qz * ty;
    this.y = vy + qw * ty + qz * tx - qx * tz;
    this.z = vz + qw * tz + qx * ty - qy * tx;
    return this;
  }
  /** Multiplies by the column-major 3x3 matrix `m` (at `offset`). */
  applyMat3(m: ArrayLike<number>, offset = 0): this {
    const x = this.x,
      y = this.y,
      z = this.z;
    this.x = m[offset] * x + m[offset + 3] * y + m[offset + 6] * z;
    this.y = m[offset + 1] * x + m[offset + 4] * y + m[offset + 7] * z;
    this.z = m[offset + 2] * x + m[offset + 5] * y + m[offset + 8] * z;
    return this;
  }
  /** Transforms as a point by the column-major 4x4 matrix `m` (affine). */
  applyMat4(m: ArrayLike<number>, offset = 0): this {
    const x = this.x,
      y = this.y,
      z = this.z;
    this.x = m[offset] * x + m[offset + 4] * y + m[offset + 8] * z + m[offset + 12];
    this.y = m[offset + 1] * x + m[offset + 5] * y + m[offset + 9] * z + m[offset + 13];
    this.z = m[offset + 2] * x + m[offset + 6] * y + m[offset + 10] * z + m[offset + 14];
    return this;
  }
}

/** Structural quaternion (x, y, z, w). */
export interface QuatLike {
  x: number;
  y: number;
  z: number;
  w: number;
}
