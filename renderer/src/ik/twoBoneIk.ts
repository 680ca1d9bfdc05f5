/**
 * Analytic two-bone IK with a pole (the hand/foot handles of the posing tools).
 *
 * Positions a (root of the upper bone), b (joint between the bones), c (end);
 * the bone lengths |b-a| and |c-b| are kept exactly. The chain bends in the
 * plane through a, the target and the pole point, towards the pole. Beyond
 * reach the chain straightens towards the target.
 *
 * Flat arrays, no allocation per call (scratch at module level).
 */
import { mat4Decompose, multiplyQuatFlat } from '../../../core/math';

type Out = { [i: number]: number };

export interface TwoBoneIkSolution {
  /** World-space rotation to apply to the upper bone (about a). */
  upperDelta: Float64Array;
  /** World-space rotation to apply to the lower bone (total, about b after the upper rotation). */
  lowerDelta: Float64Array;
  mid: Float64Array;
  end: Float64Array;
  /** False when the target was out of reach (or too close) and the chain was clamped. */
  reached: boolean;
}

export function createIkSolution(): TwoBoneIkSolution {
  return {
    upperDelta: new Float64Array(4),
    lowerDelta: new Float64Array(4),
    mid: new Float64Array(3),
    end: new Float64Array(3),
    reached: false,
  };
}

/** Shortest rotation taking unit vector u to unit vector v (three.js setFromUnitVectors). */
export function quatFromUnitVectors(out: Out, oo: number, ux: number, uy: number, uz: number, vx: number, vy: number, vz: number): void {
  let r = ux * vx + uy * vy + uz * vz + 1;
  let x: number, y: number, z: number;
  if (r < 1e-12) {
    r = 0;
    if (Math.abs(ux) > Math.abs(uz)) {
      x = -uy;
      y = ux;
      z = 0;
    } else {
      x = 0;
      y = -uz;
      z = uy;
    }
  } else {
    x = uy * vz - uz * vy;
    y = uz * vx - ux * vz;
    z = ux * vy - uy * vx;
  }
  const l = Math.hypot(x, y, z, r);
  out[oo] = x / l;
  out[oo + 1] = y / l;
  out[oo + 2] = z / l;
  out[oo + 3] = r / l;
}

/** Rotates (x, y, z) by unit quaternion q, writing 3 numbers. */
export function rotateVec(out: Out, oo: number, q: ArrayLike<number>, qo: number, x: number, y: number, z: number): void {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const tx = 2 * (qy * z - qz * y);
  const ty = 2 * (qz * x - qx * z);
  const tz = 2 * (qx * y - qy * x);
  out[oo] = x + qw * tx + qy * tz - qz * ty;
  out[oo + 1] = y + qw * ty + qz * tx - qx * tz;
  out[oo + 2] = z + qw * tz + qx * ty - qy * tx;
}

const _v = new Float64Array(3);

/**
 * Solves the chain a-b-c for `target`, bending towards `pole`. All inputs are
 * world positions (3 numbers each).
 */
export function solveTwoBoneIk(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  c: ArrayLike<number>,
  target: ArrayLike<number>,
  pole: ArrayLike<number>,
  out: TwoBoneIkSolution,
): TwoBoneIkSolution {
  const abx = b[0] - a[0], aby = b[1] - a[1], abz = b[2] - a[2];
  const bcx = c[0] - b[0], bcy = c[1] - b[1], bcz = c[2] - b[2];
  const l1 = Math.hypot(abx, aby, abz);
  const l2 = Math.hypot(bcx, bcy, bcz);
  let dx = target[0] - a[0], dy = target[1] - a[1], dz = target[2] - a[2];
  let d = Math.hypot(dx, dy, dz);
  if (d < 1e-12) {
    // Target on the root: keep the current reach direction.
    dx = c[0] - a[0];
    dy = c[1] - a[1];
    dz = c[2] - a[2];
    d = Math.hypot(dx, dy, dz) || 1;
    if (d === 1 && dx === 0 && dy === 0 && dz === 0) dx = 1;
  }
  dx /= d;
  dy /= d;
  dz /= d;
  const dist = Math.hypot(target[0] - a[0], target[1] - a[1], target[2] - a[2]);
  const minReach = Math.abs(l1 - l2);
  const maxReach = l1 + l2;
  const dc = Math.min(maxReach, Math.max(minReach, dist));
  out.reached = dist <= maxReach + 1e-12 && dist >= minReach - 1e-12;

  // Bend direction: the pole projected onto the plane normal to the reach.
  let px = pole[0] - a[0], py = pole[1] - a[1], pz = pole[2] - a[2];
  let pd = px * dx + py * dy + pz * dz;
  px -= pd * dx;
  py -= pd * dy;
  pz -= pd * dz;
  let pl = Math.hypot(px, py, pz);
  if (pl < 1e-9 * Math.max(1, l1)) {
    // Pole on the reach line: bend the way the chain bends now.
    px = abx;
    py = aby;
    pz = abz;
    pd = px * dx + py * dy + pz * dz;
    px -= pd * dx;
    py -= pd * dy;
    pz -= pd * dz;
    pl = Math.hypot(px, py, pz);
    if (pl < 1e-12) {
      // Straight chain along the reach: any perpendicular.
      if (Math.abs(dx) < 0.9) {
        px = 0; py = -dz; pz = dy;
      } else {
        px = dz; py = 0; pz = -dx;
      }
      pl = Math.hypot(px, py, pz);
    }
  }
  px /= pl;
  py /= pl;
  pz /= pl;

  const cosA = dc > 0 && l1 > 0 ? Math.min(1, Math.max(-1, (l1 * l1 + dc * dc - l2 * l2) / (2 * l1 * dc))) : 1;
  const sinA = Math.sqrt(Math.max(0, 1 - cosA * cosA));
  const mx = a[0] + l1 * (cosA * dx + sinA * px);
  const my = a[1] + l1 * (cosA * dy + sinA * py);
  const mz = a[2] + l1 * (cosA * dz + sinA * pz);
  const ex = a[0] + dc * dx, ey = a[1] + dc * dy, ez = a[2] + dc * dz;
  out.mid[0] = mx; out.mid[1] = my; out.mid[2] = mz;
  out.end[0] = ex; out.end[1] = ey; out.end[2] = ez;

  const q1 = out.upperDelta;
  if (l1 > 0) {
    const nmx = mx - a[0], nmy = my - a[1], nmz = mz - a[2];
    const nl = Math.hypot(nmx, nmy, nmz);
    quatFromUnitVectors(q1, 0, abx / l1, aby / l1, abz / l1, nmx / nl, nmy / nl, nmz / nl);
  } else {
    q1[0] = 0; q1[1] = 0; q1[2] = 0; q1[3] = 1;
  }
  const q2 = out.lowerDelta;
  if (l2 > 0) {
    rotateVec(_v, 0, q1, 0, bcx, bcy, bcz);
    const ux = _v[0] / l2, uy = _v[1] / l2, uz = _v[2] / l2;
    const wx = (ex - mx) / l2, wy = (ey - my) / l2, wz = (ez - mz) / l2;
    const wl = Math.hypot(wx, wy, wz);
    quatFromUnitVectors(q2, 0, ux, uy, uz, wx / wl, wy / wl, wz / wl);
    multiplyQuatFlat(q2, 0, q2, 0, q1, 0);
  } else {
    q2[0] = q1[0]; q2[1] = q1[1]; q2[2] = q1[2]; q2[3] = q1[3];
  }
  return out;
}

const _t = new Float64Array(3);
const _s = new Float64Array(3);
const _qParent = new Float64Array(4);
const _qUpper = new Float64Array(4);
const _qLower = new Float64Array(4);
const _qEnd = new Float64Array(4);
const _q = new Float64Array(4);
const _a = new Float64Array(3);
const _b = new Float64Array(3);
const _c = new Float64Array(3);
const _sol = createIkSolution();

function conj(out: Out, q: ArrayLike<number>): void {
  out[0] = -q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = q[3];
}

/**
 * IK on a skeleton: given the world matrices (column-major 4x4) of the upper
 * bone's parent (or null for a root), the upper, lower and end joints, writes
 * new LOCAL rotations for upper, lower and end into `outLocal` (3 quaternions,
 * 12 numbers). The end joint keeps its world orientation, as an IK handle does.
 * Assumes uniform scale along the chain (rotations are read from the matrices).
 */
export function twoBoneIkLocalRotations(
  parentWorld: ArrayLike<number> | null,
  upperWorld: ArrayLike<number>,
  lowerWorld: ArrayLike<number>,
  endWorld: ArrayLike<number>,
  target: ArrayLike<number>,
  pole: ArrayLike<number>,
  outLocal: Out,
): boolean {
  if (parentWorld) mat4Decompose(parentWorld, 0, _t, 0, _qParent, 0, _s, 0);
  else {
    _qParent[0] = 0; _qParent[1] = 0; _qParent[2] = 0; _qParent[3] = 1;
  }
  mat4Decompose(upperWorld, 0, _a, 0, _qUpper, 0, _s, 0);
  mat4Decompose(lowerWorld, 0, _b, 0, _qLower, 0, _s, 0);
  mat4Decompose(endWorld, 0, _c, 0, _qEnd, 0, _s, 0);
  const sol = solveTwoBoneIk(_a, _b, _c, target, pole, _sol);
  // New world rotations.
  multiplyQuatFlat(_qUpper, 0, sol.upperDelta, 0, _qUpper, 0);
  multiplyQuatFlat(_qLower, 0, sol.lowerDelta, 0, _qLower, 0);
  // local = inverse(parent world) * world
  conj(_q, _qParent);
  multiplyQuatFlat(outLocal, 0, _q, 0, _qUpper, 0);
  conj(_q, _qUpper);
  multiplyQuatFlat(outLocal, 4, _q, 0, _qLower, 0);
  conj(_q, _qLower);
  multiplyQuatFlat(outLocal, 8, _q, 0, _qEnd, 0);
  for (let i = 0; i < 3; i++) {
    const o = i * 4;
    const l = Math.hypot(outLocal[o], outLocal[o + 1], outLocal[o + 2], outLocal[o + 3]);
    for (let k = 0; k < 4; k++) outLocal[o + k] /= l;
  }
  return sol.reached;
}
