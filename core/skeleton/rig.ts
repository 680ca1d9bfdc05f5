/**
 * A character's skeleton as flat arrays: local poses in, world matrices (and
 * their exact time derivatives) out.
 *
 * Joints are in parent-first order (parent < index), so forward kinematics is
 * one pass: W_j = W_parent · L_j, with W_parent = the character's placement
 * matrix for roots. The derivative pass applies the product rule,
 * Ẇ_j = Ẇ_parent · L_j + W_parent · L̇_j, with L̇ exact from (ṫ, q̇, ṡ).
 */
import type { Character } from '../document/types';
import { mat4Compose, mat4Multiply } from '../math/mat4';
import type { Vec3Like } from '../math/vec3';
import { mat4ComposeDerivative } from '../anim/compose';
// TRS: numbers per local transform (translation xyz, rotation xyzw, scale xyz), the anim module's layout.
import { TRS_STRIDE as TRS, writeTransform } from '../anim/evaluate';

export class SkeletonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SkeletonError';
  }
}

export class Rig {
  readonly jointCount: number;
  /** Parent joint index per joint, -1 for roots; parent < index. */
  readonly parents: Int32Array;
  /** Local pose, 10 numbers per joint: t xyz, q xyzw, s xyz. Write it, then call computeWorld(). */
  readonly local: Float64Array;
  /** Local matrices from the last computeWorld()/computeWorldDerivative(), 16 per joint. */
  readonly localMatrix: Float64Array;
  /** Joint world matrices (column-major, include the character's transform), 16 per joint. */
  readonly world: Float64Array;
  /** d/dt of `world`, filled by computeWorldDerivative(), 16 per joint. */
  readonly worldDot: Float64Array;
  /** The character's placement matrix (applied above every root). */
  readonly rootMatrix: Float64Array;
  /** Rest pose, 10 numbers per joint. */
  readonly rest: Float64Array;

  private readonly _localDotMatrix = new Float64Array(16);
  private readonly _tmp = new Float64Array(16);

  constructor(character: Pick<Character, 'id' | 'transform' | 'skeleton'>) {
    const joints = character.skeleton.joints;
    const n = joints.length;
    this.jointCount = n;
    this.parents = new Int32Array(n);
    for (let j = 0; j < n; j++) {
      const p = joints[j].parent;
      if (!Number.isInteger(p) || p < -1 || p >= j)
        throw new SkeletonError(
          `character "${character.id}" skeleton.joints[${j}].parent: index ${p} ${p >= j && p < n ? 'does not come before its child' : 'out of range'}`,
        );
      this.parents[j] = p;
    }
    this.rest = new Float64Array(n * TRS);
    for (let j = 0; j < n; j++) writeTransform(this.rest, j * TRS, joints[j].rest);
    this.local = new Float64Array(n * TRS);
    this.localMatrix = new Float64Array(n * 16);
    this.world = new Float64Array(n * 16);
    this.worldDot = new Float64Array(n * 16);
    this.rootMatrix = new Float64Array(16);
    const t = character.transform;
    mat4Compose(this.rootMatrix, 0, t.translation, 0, t.rotation, 0, t.scale, 0);
    this.setRestPose();
    this.computeWorld();
  }

  /** Copies the rest pose into `local` (call computeWorld() afterwards). */
  setRestPose(): this {
    this.local.set(this.rest);
    return this;
  }

  /** Forward kinematics: fills `localMatrix` and `world` from `local`. */
  computeWorld(): this {
    const { parents, local, localMatrix, world, rootMatrix } = this;
    for (let j = 0; j < this.jointCount; j++) {
      const p = parents[j];
      if (p < 0) composeTimes(world, localMatrix, j, rootMatrix, 0, local);
      else composeTimes(world, localMatrix, j, world, p * 16, local);
    }
    return this;
  }

  /**
   * computeWorld for the joints of `order` only (parent-first and closed
   * under parents, as `jointsWithAncestors` makes it): the same numbers for
   * them; the other joints' matrices are left as they were. For a caller
   * that reads only some joints (a skin's weighted joints) every step.
   * `world` (16 numbers per joint, the parents' matrices read from it) is
   * the rig's own unless the caller keeps the matrices in a buffer of its
   * own (then the rig's `world` is not written).
   */
  computeWorldOf(order: Int32Array, world: Float64Array = this.world): this {
    const { parents, local, localMatrix, rootMatrix } = this;
    if (world.length < 16 * this.jointCount) throw new RangeError(`world has ${world.length} numbers, expected ${16 * this.jointCount}`);
    for (let q = 0; q < order.length; q++) {
      const j = order[q], p = parents[j];
      if (p < 0) composeTimes(world, localMatrix, j, rootMatrix, 0, local);
      else composeTimes(world, localMatrix, j, world, p * 16, local);
    }
    return this;
  }

  /**
   * Fills `worldDot` = d/dt `world` given `localDot` (10 numbers per joint:
   * ṫ, q̇, ṡ, as `SceneEvaluator.characterLocalPoseDerivative` writes them)
   * for the pose in `local`. Recomputes `world` in the same pass, so it
   * never uses a stale pose.
   */
  computeWorldDerivative(localDot: ArrayLike<number>): this {
    if (localDot.length < this.jointCount * TRS)
      throw new RangeError(`localDot has ${localDot.length} numbers, expected ${this.jointCount * TRS}`);
    const { parents, local, localMatrix, world, worldDot, rootMatrix } = this;
    const Ld = this._localDotMatrix;
    const tmp = this._tmp;
    for (let j = 0; j < this.jointCount; j++) {
      const lo = j * TRS;
      const mo = j * 16;
      mat4Compose(localMatrix, mo, local, lo, local, lo + 3, local, lo + 7);
      mat4ComposeDerivative(Ld, 0, local, lo, localDot, lo);
      const p = parents[j];
      if (p < 0) {
        mat4Multiply(world, mo, rootMatrix, 0, localMatrix, mo);
        mat4Multiply(worldDot, mo, rootMatrix, 0, Ld, 0);
      } else {
        const po = p * 16;
        mat4Multiply(world, mo, world, po, localMatrix, mo);
        mat4Multiply(tmp, 0, worldDot, po, localMatrix, mo);
        mat4Multiply(worldDot, mo, world, po, Ld, 0);
        for (let k = 0; k < 16; k++) worldDot[mo + k] += tmp[k];
      }
    }
    return this;
  }

  /** World position of joint j's origin. */
  jointWorldPosition(j: number, out: Vec3Like): Vec3Like {
    const o = j * 16;
    out.x = this.world[o + 12];
    out.y = this.world[o + 13];
    out.z = this.world[o + 14];
    return out;
  }

  /** World position of a point given in joint j's local frame. */
  jointWorldPoint(j: number, localPoint: Vec3Like, out: Vec3Like): Vec3Like {
    return transformPoint(this.world, j * 16, localPoint, out);
  }

  /** World velocity of a point fixed in joint j's local frame (needs computeWorldDerivative). */
  pointVelocity(j: number, localPoint: Vec3Like, out: Vec3Like): Vec3Like {
    return transformPoint(this.worldDot, j * 16, localPoint, out);
  }

  /** World velocity of joint j's origin (needs computeWorldDerivative). */
  jointLinearVelocity(j: number, out: Vec3Like): Vec3Like {
    const o = j * 16;
    out.x = this.worldDot[o + 12];
    out.y = this.worldDot[o + 13];
    out.z = this.worldDot[o + 14];
    return out;
  }

  /**
   * World angular velocity of joint j (rad/s; needs computeWorldDerivative):
   * the axial vector of the spin tensor, the antisymmetric part of Ȧ·A⁻¹ for
   * the upper 3x3 A of the world matrix. Exact for rotation with uniform
   * scale; with non-uniform scale it is the rotation rate of the frame's
   * material (the continuum-mechanics definition).
   */
  jointAngularVelocity(j: number, out: Vec3Like): Vec3Like {
    return angularVelocityFromMatrix(this.world, j * 16, this.worldDot, j * 16, out);
  }
}

function transformPoint(m: ArrayLike<number>, o: number, p: Vec3Like, out: Vec3Like): Vec3Like {
  const x = p.x, y = p.y, z = p.z;
  out.x = m[o] * x + m[o + 4] * y + m[o + 8] * z + m[o + 12];
  out.y = m[o + 1] * x + m[o + 5] * y + m[o + 9] * z + m[o + 13];
  out.z = m[o + 2] * x + m[o + 6] * y + m[o + 10] * z + m[o + 14];
  return out;
}

/**
 * Angular velocity (axial vector of skew(Ȧ A⁻¹)) from a 4x4 matrix and its
 * time derivative, both column-major. For A = R·s (rotation, uniform scale)
 * this is exactly ω with Ṙ Rᵀ = [ω]×.
 */
export function angularVelocityFromMatrix(m: ArrayLike<number>, mo: number, md: ArrayLike<number>, mdo: number, out: Vec3Like): Vec3Like {
  const a = m[mo], b = m[mo + 4], c = m[mo + 8];
  const d = m[mo + 1], e = m[mo + 5], f = m[mo + 9];
  const g = m[mo + 2], h = m[mo + 6], i = m[mo + 10];
  // Inverse by cofactors (row-major names a..i = A[r][c]).
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (det === 0 || !Number.isFinite(det)) throw new RangeError(`angular velocity of a singular (zero-scale) frame is undefined: matrix at offset ${mo} (joint ${mo / 16} of a rig) has determinant ${det}`);
  const s = 1 / det;
  const i00 = A * s, i01 = -(b * i - c * h) * s, i02 = (b * f - c * e) * s;
  const i10 = B * s, i11 = (a * i - c * g) * s, i12 = -(a * f - c * d) * s;
  const i20 = C * s, i21 = -(a * h - b * g) * s, i22 = (a * e - b * d) * s;
  // Ȧ rows
  const p00 = md[mdo], p01 = md[mdo + 4], p02 = md[mdo + 8];
  const p10 = md[mdo + 1], p11 = md[mdo + 5], p12 = md[mdo + 9];
  const p20 = md[mdo + 2], p21 = md[mdo + 6], p22 = md[mdo + 10];
  // L = Ȧ A⁻¹; only the off-diagonal entries are needed.
  const L21 = p20 * i01 + p21 * i11 + p22 * i21;
  const L12 = p10 * i02 + p11 * i12 + p12 * i22;
  const L02 = p00 * i02 + p01 * i12 + p02 * i22;
  const L20 = p20 * i00 + p21 * i10 + p22 * i20;
  const L10 = p10 * i00 + p11 * i10 + p12 * i20;
  const L01 = p00 * i01 + p01 * i11 + p02 * i21;
  out.x = 0.5 * (L21 - L12);
  out.y = 0.5 * (L02 - L20);
  out.z = 0.5 * (L10 - L01);
  return out;
}

/**
 * Number of bones between joints a and b along the skeleton tree (0 for the
 * same joint), or -1 when they are in different trees.
 */
export function skeletonHops(parents: ArrayLike<number>, a: number, b: number): number {
  let da = 0, db = 0;
  for (let x = a; parents[x] >= 0; x = parents[x]) da++;
  for (let x = b; parents[x] >= 0; x = parents[x]) db++;
  let hops = 0;
  while (da > db) {
    a = parents[a];
    da--;
    hops++;
  }
  while (db > da) {
    b = parents[b];
    db--;
    hops++;
  }
  while (a !== b) {
    a = parents[a];
    b = parents[b];
    hops += 2;
    if (a < 0 || b < 0) return -1;
  }
  return hops;
}

/**
 * The joints of `joints` and all their ancestors in ascending order (parents
 * before their children): an `order` for `Rig.computeWorldOf`.
 */
export function jointsWithAncestors(parents: ArrayLike<number>, joints: ArrayLike<number>): Int32Array {
  const on = new Uint8Array(parents.length);
  for (let k = 0; k < joints.length; k++) for (let j = joints[k]; j >= 0 && !on[j]; j = parents[j]) on[j] = 1;
  const order: number[] = [];
  for (let j = 0; j < on.length; j++) if (on[j]) order.push(j);
  return Int32Array.from(order);
}

/**
 * One joint of `computeWorld`: L_j = mat4Compose(local_j) into `localMatrix`
 * and W_j = A · L_j (A at `ao`: the parent's world matrix or the root
 * matrix) into `world`, with mat4Compose's and mat4Multiply's arithmetic
 * term for term (the same numbers), on Float64Arrays only and without
 * reading back the local matrix.
 */
function composeTimes(world: Float64Array, localMatrix: Float64Array, j: number, a: Float64Array, ao: number, local: Float64Array): void {
  const lo = j * TRS, mo = j * 16;
  const x = local[lo + 3], y = local[lo + 4], z = local[lo + 5], w = local[lo + 6];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2;
  const yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  const sx = local[lo + 7], sy = local[lo + 8], sz = local[lo + 9];
  const b00 = (1 - (yy + zz)) * sx, b01 = (xy + wz) * sx, b02 = (xz - wy) * sx;
  const b10 = (xy - wz) * sy, b11 = (1 - (xx + zz)) * sy, b12 = (yz + wx) * sy;
  const b20 = (xz + wy) * sz, b21 = (yz - wx) * sz, b22 = (1 - (xx + yy)) * sz;
  const b30 = local[lo], b31 = local[lo + 1], b32 = local[lo + 2];
  const L = localMatrix;
  L[mo] = b00;
  L[mo + 1] = b01;
  L[mo + 2] = b02;
  L[mo + 3] = 0;
  L[mo + 4] = b10;
  L[mo + 5] = b11;
  L[mo + 6] = b12;
  L[mo + 7] = 0;
  L[mo + 8] = b20;
  L[mo + 9] = b21;
  L[mo + 10] = b22;
  L[mo + 11] = 0;
  L[mo + 12] = b30;
  L[mo + 13] = b31;
  L[mo + 14] = b32;
  L[mo + 15] = 1;
  const a00 = a[ao], a10 = a[ao + 1], a20 = a[ao + 2], a30 = a[ao + 3];
  const a01 = a[ao + 4], a11 = a[ao + 5], a21 = a[ao + 6], a31 = a[ao + 7];
  const a02 = a[ao + 8], a12 = a[ao + 9], a22 = a[ao + 10], a32 = a[ao + 11];
  const a03 = a[ao + 12], a13 = a[ao + 13], a23 = a[ao + 14], a33 = a[ao + 15];
  const W = world;
  W[mo] = a00 * b00 + a01 * b01 + a02 * b02 + a03 * 0;
  W[mo + 1] = a10 * b00 + a11 * b01 + a12 * b02 + a13 * 0;
  W[mo + 2] = a20 * b00 + a21 * b01 + a22 * b02 + a23 * 0;
  W[mo + 3] = a30 * b00 + a31 * b01 + a32 * b02 + a33 * 0;
  W[mo + 4] = a00 * b10 + a01 * b11 + a02 * b12 + a03 * 0;
  W[mo + 5] = a10 * b10 + a11 * b11 + a12 * b12 + a13 * 0;
  W[mo + 6] = a20 * b10 + a21 * b11 + a22 * b12 + a23 * 0;
  W[mo + 7] = a30 * b10 + a31 * b11 + a32 * b12 + a33 * 0;
  W[mo + 8] = a00 * b20 + a01 * b21 + a02 * b22 + a03 * 0;
  W[mo + 9] = a10 * b20 + a11 * b21 + a12 * b22 + a13 * 0;
  W[mo + 10] = a20 * b20 + a21 * b21 + a22 * b22 + a23 * 0;
  W[mo + 11] = a30 * b20 + a31 * b21 + a32 * b22 + a33 * 0;
  W[mo + 12] = a00 * b30 + a01 * b31 + a02 * b32 + a03 * 1;
  W[mo + 13] = a10 * b30 + a11 * b31 + a12 * b32 + a13 * 1;
  W[mo + 14] = a20 * b30 + a21 * b31 + a22 * b32 + a23 * 1;
  W[mo + 15] = a30 * b30 + a31 * b31 + a32 * b32 + a33 * 1;
}
