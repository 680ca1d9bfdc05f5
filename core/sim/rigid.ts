/**
 * Rigid-body state and its time integration (the lecture notes in the seeds,
 * "Rigid-body Motion ODE": d/dt [x, q, P, L] = [v, ½ ω q, F, τ]).
 *
 * Bodies live in struct-of-arrays typed arrays. The body frame of every body
 * is its principal frame, so the inertia is three moments; `principalAxes`
 * converts a general tensor and its frame. Forces are gravity at the centre of
 * mass plus optional accumulated external forces and torques.
 */
import { principalAxes } from './principal';
import { hypot4, pow, sinCos } from '../math/libm';

/** x (3), q (4), P (3), L (3). */
export const STATE_STRIDE = 13;

export type Integrator = 'euler' | 'midpoint' | 'rk4' | 'symplectic';

export interface RigidBodyInit {
  name: string;
  massKg: number;
  /** Inertia tensor about the centre of mass in the body's local frame (column-major 9). */
  inertiaLocal: ArrayLike<number>;
  /** World position of the centre of mass. */
  position: [number, number, number];
  /** World orientation of the body's local frame (x, y, z, w). */
  orientation: [number, number, number, number];
  linearVelocity?: [number, number, number];
  angularVelocity?: [number, number, number];
}

export class RigidBodySet {
  readonly count: number;
  readonly names: string[];
  readonly massKg: Float64Array;
  readonly invMass: Float64Array;
  /** Principal moments per body (3 each). */
  readonly moments: Float64Array;
  /** Rotation from principal frame to the body's local (mesh) frame, 4 per body. */
  readonly principalToLocal: Float64Array;
  /** State vector, STATE_STRIDE numbers per body; q is the PRINCIPAL frame's orientation. */
  state: Float64Array;
  /** Extra force and torque per body (world), 6 each, cleared by the caller. */
  readonly externalWrench: Float64Array;
  gravity: [number, number, number] = [0, -9.81, 0];

  constructor(bodies: RigidBodyInit[]) {
    const n = bodies.length;
    this.count = n;
    this.names = bodies.map((b) => b.name);
    this.massKg = new Float64Array(n);
    this.invMass = new Float64Array(n);
    this.moments = new Float64Array(3 * n);
    this.principalToLocal = new Float64Array(4 * n);
    this.state = new Float64Array(STATE_STRIDE * n);
    this.externalWrench = new Float64Array(6 * n);
    bodies.forEach((b, i) => {
      if (!(b.massKg > 0) || !Number.isFinite(b.massKg))
        throw new Error(`body '${b.name}': mass must be a positive finite number of kilograms (got ${b.massKg})`);
      const pa = principalAxes(b.inertiaLocal, `body '${b.name}': inertia tensor`);
      this.massKg[i] = b.massKg;
      this.invMass[i] = 1 / b.massKg;
      this.moments.set(pa.moments, 3 * i);
      this.principalToLocal.set(pa.rotation, 4 * i);
      const s = STATE_STRIDE * i;
      this.state.set(b.position, s);
      // principal orientation = local orientation * principalToLocal
      quatMul(this.state, s + 3, b.orientation, 0, pa.rotation, 0);
      normalizeQuat(this.state, s + 3);
      const v = b.linearVelocity ?? [0, 0, 0];
      for (let k = 0; k < 3; k++) this.state[s + 7 + k] = v[k] * b.massKg;
      const w = b.angularVelocity ?? [0, 0, 0];
      const L = new Float64Array(3);
      this.inertiaWorldTimes(this.state, i, w[0], w[1], w[2], L);
      this.state.set(L, s + 10);
      for (const x of [...b.position, ...b.orientation, ...v, ...w])
        if (!Number.isFinite(x)) throw new Error(`body '${b.name}': initial state has a non-finite number`);
    });
  }

  /** out = I_world(q) · (wx, wy, wz) for body i in state `st`. */
  inertiaWorldTimes(st: ArrayLike<number>, i: number, wx: number, wy: number, wz: number, out: number[] | Float64Array, oo = 0): void {
    const s = STATE_STRIDE * i;
    const m = this.moments;
    if (st instanceof Float64Array && out instanceof Float64Array) {
      // the per-step callers: Float64Array-only copies of the same arithmetic
      rotateInvF64(_t, st, s + 3, wx, wy, wz);
      rotateF64(out, oo, st, s + 3, _t[0] * m[3 * i], _t[1] * m[3 * i + 1], _t[2] * m[3 * i + 2]);
      return;
    }
    // to principal frame: R^T w
    rotateInv(_t, st, s + 3, wx, wy, wz);
    rotate(out, oo, st, s + 3, _t[0] * m[3 * i], _t[1] * m[3 * i + 1], _t[2] * m[3 * i + 2]);
  }

  /** out = ω = I_world⁻¹ L for body i in state `st`. */
  angularVelocity(st: ArrayLike<number>, i: number, out: number[] | Float64Array, oo = 0): void {
    const s = STATE_STRIDE * i;
    const m = this.moments;
    if (st instanceof Float64Array && out instanceof Float64Array) {
      rotateInvF64(_t, st, s + 3, st[s + 10], st[s + 11], st[s + 12]);
      rotateF64(out, oo, st, s + 3, _t[0] / m[3 * i], _t[1] / m[3 * i + 1], _t[2] / m[3 * i + 2]);
      return;
    }
    rotateInv(_t, st, s + 3, st[s + 10], st[s + 11], st[s + 12]);
    rotate(out, oo, st, s + 3, _t[0] / m[3 * i], _t[1] / m[3 * i + 1], _t[2] / m[3 * i + 2]);
  }

  linearVelocity(st: ArrayLike<number>, i: number, out: number[] | Float64Array, oo = 0): void {
    const s = STATE_STRIDE * i,
      im = this.invMass[i];
    out[oo] = st[s + 7] * im;
    out[oo + 1] = st[s + 8] * im;
    out[oo + 2] = st[s + 9] * im;
  }

  /** Orientation of the body's local (mesh) frame: q_principal · principalToLocal⁻¹. */
  localOrientation(st: ArrayLike<number>, i: number, out: number[] | Float64Array, oo = 0): void {
    const p = this.principalToLocal;
    _q[0] = -p[4 * i];
    _q[1] = -p[4 * i + 1];
    _q[2] = -p[4 * i + 2];
    _q[3] = p[4 * i + 3];
    if (st instanceof Float64Array && out instanceof Float64Array) quatMulF64(out, oo, st, STATE_STRIDE * i + 3, _q, 0);
    else quatMul(out, oo, st, STATE_STRIDE * i + 3, _q, 0);
  }

  /** Kinetic energy (translational + rotational) of body i, joules. */
  kineticEnergy(st: ArrayLike<number>, i: number): number {
    const s = STATE_STRIDE * i;
    const P2 = st[s + 7] ** 2 + st[s + 8] ** 2 + st[s + 9] ** 2;
    rotateInv(_t, st, s + 3, st[s + 10], st[s + 11], st[s + 12]);
    const m = this.moments;
    return 0.5 * P2 * this.invMass[i] + 0.5 * (_t[0] ** 2 / m[3 * i] + _t[1] ** 2 / m[3 * i + 1] + _t[2] ** 2 / m[3 * i + 2]);
  }

  /** dy/dt of the whole state (the rigid-body ODE). */
  derivative(st: ArrayLike<number>, out: Float64Array): void {
    const g = this.gravity,
      wr = this.externalWrench;
    for (let i = 0; i < this.count; i++) {
      const s = STATE_STRIDE * i,
        im = this.invMass[i],
        m = this.massKg[i];
      out[s] = st[s + 7] * im;
      out[s + 1] = st[s + 8] * im;
      out[s + 2] = st[s + 9] * im;
      this.angularVelocity(st, i, _w);
      // q̇ = ½ ω ⊗ q (ω as a pure quaternion)
      const qx = st[s + 3],
        qy = st[s + 4],
        qz = st[s + 5],
        qw = st[s + 6];
      const wx = _w[0],
        wy = _w[1],
        wz = _w[2];
      out[s + 3] = 0.5 * (wx * qw + wy * qz - wz * qy);
      out[s + 4] = 0.5 * (wy * qw + wz * qx - wx * qz);
      out[s + 5] = 0.5 * (wz * qw + wx * qy - wy * qx);
      out[s + 6] = 0.5 * (-wx * qx - wy * qy - wz * qz);
      out[s + 7] = m * g[0] + wr[6 * i];
      out[s + 8] = m * g[1] + wr[6 * i + 1];
      out[s + 9] = m * g[2] + wr[6 * i + 2];
      out[s + 10] = wr[6 * i + 3];
      out[s + 11] = wr[6 * i + 4];
      out[s + 12] = wr[6 * i + 5];
    }
  }

  /** Advances `state` by `h` seconds with the chosen integrator. */
  step(h: number, method: Integrator): void {
    this.stepState(this.state, h, method);
  }

  /** Advances the state vector `st` in place by `h` seconds. */
  stepState(st: Float64Array, h: number, method: Integrator): void {
    const n = st.length;
    const w = this.scratch(n);
    switch (method) {
      case 'euler':
        this.derivative(st, w.k1);
        for (let j = 0; j < n; j++) st[j] += h * w.k1[j];
        break;
      case 'midpoint':
        this.derivative(st, w.k1);
        for (let j = 0; j < n; j++) w.y[j] = st[j] + 0.5 * h * w.k1[j];
        this.derivative(w.y, w.k2);
        for (let j = 0; j < n; j++) st[j] += h * w.k2[j];
        break;
      case 'rk4':
        this.derivative(st, w.k1);
        for (let j = 0; j < n; j++) w.y[j] = st[j] + 0.5 * h * w.k1[j];
        this.derivative(w.y, w.k2);
        for (let j = 0; j < n; j++) w.y[j] = st[j] + 0.5 * h * w.k2[j];
        this.derivative(w.y, w.k3);
        for (let j = 0; j < n; j++) w.y[j] = st[j] + h * w.k3[j];
        this.derivative(w.y, w.k4);
        for (let j = 0; j < n; j++) st[j] += (h / 6) * (w.k1[j] + 2 * w.k2[j] + 2 * w.k3[j] + w.k4[j]);
        break;
      case 'symplectic':
        this.stepSymplectic(st, h);
        break;
    }
    for (let i = 0; i < this.count; i++) normalizeQuat(st, STATE_STRIDE * i + 3);
  }

  /**
   * Störmer–Verlet (kick, drift, kick) for translation, exact for constant
   * forces, and for rotation the symmetric splitting of the free rigid body
   * into rotations about the principal axes (each exactly solvable; the
   * composition is symplectic, keeps |L| exactly and the energy without drift).
   */
  private stepSymplectic(st: Float64Array, h: number): void {
    for (let i = 0; i < this.count; i++) {
      this.kickBody(st, i, 0.5 * h);
      this.driftBody(st, i, h);
      this.kickBody(st, i, 0.5 * h);
    }
  }

  /** Momentum kick of body i: P += (m g + F) h, L += τ h (half of a Störmer–Verlet step uses h/2). */
  kickBody(st: Float64Array, i: number, h: number): void {
    const g = this.gravity,
      wr = this.externalWrench,
      s = STATE_STRIDE * i,
      m = this.massKg[i];
    for (let k = 0; k < 3; k++) st[s + 7 + k] += h * (m * g[k] + wr[6 * i + k]);
    for (let k = 0; k < 3; k++) st[s + 10 + k] += h * wr[6 * i + 3 + k];
  }

  /**
   * Force-free drift of body i for h seconds: x += v h, and the orientation
   * advanced by the symmetric splitting of the free rigid body into exact
   * turns about the principal axes (L fixed in the world).
   */
  driftBody(st: Float64Array, i: number, h: number): void {
    const s = STATE_STRIDE * i,
      im = this.invMass[i];
    for (let k = 0; k < 3; k++) st[s + k] += h * st[s + 7 + k] * im;
    this.rotateAbout(st, i, 0, h / 2);
    this.rotateAbout(st, i, 1, h / 2);
    this.rotateAbout(st, i, 2, h);
    this.rotateAbout(st, i, 1, h / 2);
    this.rotateAbout(st, i, 0, h / 2);
  }

  /** Exact flow of H_axis = L_axis² / (2 I_axis) for time tau: a turn about the principal axis. */
  private rotateAbout(st: Float64Array, i: number, axis: 0 | 1 | 2, tau: number): void {
    const s = STATE_STRIDE * i;
    // The axis component of rotateInvF64(_t, st, s + 3, L): the same expression, the others not made.
    const qx = -st[s + 3], qy = -st[s + 4], qz = -st[s + 5], qw = st[s + 6];
    const vx = st[s + 10], vy = st[s + 11], vz = st[s + 12];
    const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
    const la = axis === 0 ? vx + qw * tx + qy * tz - qz * ty : axis === 1 ? vy + qw * ty + qz * tx - qx * tz : vz + qw * tz + qx * ty - qy * tx;
    const angle = (la / this.moments[3 * i + axis]) * tau;
    sinCos(angle / 2, _sc, 0);
    turnAboutAxis(st, s + 3, axis, _sc[0], _sc[1]);
  }

  /**
   * Adaptive step doubling (the seeds' "adaptive Euler" generalised): from
   * `st`, compare one step of h with two of h/2; accept when the position and
   * orientation difference is under `tol`, else halve. Returns the step taken
   * and a suggested next step.
   */
  stepAdaptive(st: Float64Array, h: number, method: Integrator, tol: number, minStep = 1e-7): { taken: number; next: number } {
    const n = st.length;
    const full = new Float64Array(n),
      half = new Float64Array(n);
    for (;;) {
      full.set(st);
      this.stepState(full, h, method);
      half.set(st);
      this.stepState(half, h / 2, method);
      this.stepState(half, h / 2, method);
      let err = 0;
      for (let i = 0; i < this.count; i++) {
        const s = STATE_STRIDE * i;
        for (let k = 0; k < 7; k++) err = Math.max(err, Math.abs(full[s + k] - half[s + k]));
      }
      if (err <= tol || h <= minStep) {
        st.set(half);
        const order = method === 'rk4' ? 4 : method === 'euler' ? 1 : 2;
        const grow = err === 0 ? 2 : Math.min(2, Math.max(0.5, 0.9 * pow(tol / err, 1 / (order + 1))));
        return { taken: h, next: h * grow };
      }
      h /= 2;
    }
  }

  private _scratch: { k1: Float64Array; k2: Float64Array; k3: Float64Array; k4: Float64Array; y: Float64Array } | null = null;
  private scratch(n: number) {
    if (!this._scratch || this._scratch.y.length !== n)
      this._scratch = { k1: new Float64Array(n), k2: new Float64Array(n), k3: new Float64Array(n), k4: new Float64Array(n), y: new Float64Array(n) };
    return this._scratch;
  }
}

const _t = new Float64Array(3);
const _w = new Float64Array(3);
const _q = Float64Array.of(0, 0, 0, 1);
const _sc = new Float64Array(2);

/**
 * q ← q ⊗ (sn e_axis, c) in place: the same numbers as `quatMulF64(q, o, q, o, [sn e_axis, c], 0)`.
 * Each component of that product is two products plus two of a finite component times 0 (±0):
 * adding or subtracting ±0 leaves a nonzero sum as it is, so the two products' sum is the
 * answer when it is nonzero and q finite; otherwise (a zero sum, whose sign the ±0 terms
 * decide, or a non-finite q) the full product is taken.
 */
export function turnAboutAxis(q: Float64Array, o: number, axis: 0 | 1 | 2, sn: number, c: number): void {
  const ax = q[o], ay = q[o + 1], az = q[o + 2], aw = q[o + 3];
  let x: number, y: number, z: number, w: number;
  if (axis === 0) {
    x = ax * c + aw * sn;
    y = ay * c + az * sn;
    z = az * c - ay * sn;
    w = aw * c - ax * sn;
  } else if (axis === 1) {
    x = ax * c - az * sn;
    y = ay * c + aw * sn;
    z = az * c + ax * sn;
    w = aw * c - ay * sn;
  } else {
    x = ax * c + ay * sn;
    y = ay * c - ax * sn;
    z = az * c + aw * sn;
    w = aw * c - az * sn;
  }
  if (x !== 0 && y !== 0 && z !== 0 && w !== 0 && Math.abs(ax) + Math.abs(ay) + Math.abs(az) + Math.abs(aw) < Infinity) {
    q[o] = x;
    q[o + 1] = y;
    q[o + 2] = z;
    q[o + 3] = w;
    return;
  }
  _q[0] = axis === 0 ? sn : 0;
  _q[1] = axis === 1 ? sn : 0;
  _q[2] = axis === 2 ? sn : 0;
  _q[3] = c;
  quatMulF64(q, o, q, o, _q, 0);
}

/** out = q ⊗ r (flat). Safe when out aliases q or r. */
export function quatMul(out: { [i: number]: number }, oo: number, q: ArrayLike<number>, qo: number, r: ArrayLike<number>, ro: number): void {
  const ax = q[qo], ay = q[qo + 1], az = q[qo + 2], aw = q[qo + 3];
  const bx = r[ro], by = r[ro + 1], bz = r[ro + 2], bw = r[ro + 3];
  out[oo] = ax * bw + aw * bx + ay * bz - az * by;
  out[oo + 1] = ay * bw + aw * by + az * bx - ax * bz;
  out[oo + 2] = az * bw + aw * bz + ax * by - ay * bx;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** `quatMul` on Float64Arrays only (the per-step callers): the same numbers, one element kind at every call. */
export function quatMulF64(out: Float64Array, oo: number, q: Float64Array, qo: number, r: Float64Array, ro: number): void {
  const ax = q[qo], ay = q[qo + 1], az = q[qo + 2], aw = q[qo + 3];
  const bx = r[ro], by = r[ro + 1], bz = r[ro + 2], bw = r[ro + 3];
  out[oo] = ax * bw + aw * bx + ay * bz - az * by;
  out[oo + 1] = ay * bw + aw * by + az * bx - ax * bz;
  out[oo + 2] = az * bw + aw * bz + ax * by - ay * bx;
  out[oo + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

export function normalizeQuat(a: { [i: number]: number }, o: number): void {
  const l = hypot4(a[o], a[o + 1], a[o + 2], a[o + 3]);
  a[o] /= l;
  a[o + 1] /= l;
  a[o + 2] /= l;
  a[o + 3] /= l;
}

/** out = R(q) v. */
export function rotate(out: { [i: number]: number }, oo: number, q: ArrayLike<number>, qo: number, vx: number, vy: number, vz: number): void {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out[oo] = vx + qw * tx + qy * tz - qz * ty;
  out[oo + 1] = vy + qw * ty + qz * tx - qx * tz;
  out[oo + 2] = vz + qw * tz + qx * ty - qy * tx;
}

/** `rotate` on Float64Arrays only (the per-step callers): the same numbers, one element kind at every call. */
export function rotateF64(out: Float64Array, oo: number, q: Float64Array, qo: number, vx: number, vy: number, vz: number): void {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out[oo] = vx + qw * tx + qy * tz - qz * ty;
  out[oo + 1] = vy + qw * ty + qz * tx - qx * tz;
  out[oo + 2] = vz + qw * tz + qx * ty - qy * tx;
}

/** `rotateInv` on Float64Arrays only: the same numbers. */
export function rotateInvF64(out: Float64Array, q: Float64Array, qo: number, vx: number, vy: number, vz: number): void {
  const qx = -q[qo], qy = -q[qo + 1], qz = -q[qo + 2], qw = q[qo + 3];
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + qy * tz - qz * ty;
  out[1] = vy + qw * ty + qz * tx - qx * tz;
  out[2] = vz + qw * tz + qx * ty - qy * tx;
}

/** out = R(q)ᵀ v. */
export function rotateInv(out: { [i: number]: number }, q: ArrayLike<number>, qo: number, vx: number, vy: number, vz: number): void {
  const qx = -q[qo], qy = -q[qo + 1], qz = -q[qo + 2], qw = q[qo + 3];
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + qy * tz - qz * ty;
  out[1] = vy + qw * ty + qz * tx - qx * tz;
  out[2] = vz + qw * tz + qx * ty - qy * tx;
}
