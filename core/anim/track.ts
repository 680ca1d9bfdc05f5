/**
 * Sampling of one animated channel (a `Track`) at any time, and the exact
 * time derivative of the sampled curve.
 *
 * Follows glTF sampler semantics: `step` holds a key's value until the next
 * key, `linear` lerps translation/scale and slerps rotation (shortest arc),
 * `cubic` is the glTF CUBICSPLINE Hermite spline (tangents in units per
 * second, scaled by the key interval), normalised for rotations. Outside the
 * key range the curve is clamped to the first/last key.
 *
 * Like three.js `Interpolant`, a sampler remembers the interval it used last,
 * so sequential sampling (playback, baking, sub-stepping) finds the interval
 * in O(1); only jumps fall back to a galloping search. Every method writes
 * into a buffer the caller owns; nothing is allocated per sample.
 */
import type { Interpolation, Track, TrackPath } from '../document/types';
import { atan2, cos, hypot4, sin } from '../math/libm';

/** Anything indexable that can be written: `Float64Array`, `Float32Array`, `number[]`. */
export type FlatOut = { [i: number]: number };

/** A track that cannot be sampled (bad layout, non-increasing times, NaN). */
export class TrackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrackError';
  }
}

/** Human-readable name of a track's target, for error messages. */
export function describeTrack(track: Track): string {
  const t = track.target;
  const who = t.kind === 'joint' ? `joint ${t.joint} of character "${t.character}"` : `prop "${t.prop}"`;
  return `${track.path} track of ${who}`;
}

export class TrackSampler {
  readonly path: TrackPath;
  readonly interpolation: Interpolation;
  /** Numbers per value: 3 (translation, scale) or 4 (rotation). */
  readonly stride: number;
  readonly keyCount: number;
  /** Key times in seconds, strictly increasing. */
  readonly times: Float64Array;
  /**
   * Key values; for `cubic` three groups per key (in-tangent, value,
   * out-tangent). Rotation keys of `step`/`linear` tracks are normalised.
   */
  readonly values: Float64Array;
  readonly startTimeSec: number;
  readonly endTimeSec: number;
  /**
   * How many times the remembered interval (or its neighbour) did not hold
   * the sampled time and a search was needed. Sequential sampling keeps this
   * at (nearly) zero; tests use it to check O(1) playback.
   */
  intervalSearches = 0;
  /** Names the track in error messages. */
  readonly label: string;
  /**
   * The key whose value the last `valueAt` wrote as it is (before the first
   * key, after the last, on a step, a one-key track), -1 when it
   * interpolated (or before any call). Two calls that held the same key
   * wrote the same numbers.
   */
  heldKey = -1;

  /** Index i of the last interval [times[i], times[i+1]) used. */
  private _i = 0;
  /**
   * Linear rotation tracks: slerpUnit's numbers that depend on the interval
   * alone (key a, r = a* ⊗ b', sin θ, θ) for interval `_slerpAt` (-1 none),
   * so sequential sampling computes them once per interval.
   */
  private _slerpAt = -1;
  private readonly _slerp = new Float64Array(9);

  constructor(track: Track, label = describeTrack(track)) {
    this.label = label;
    this.path = track.path;
    this.interpolation = track.interpolation;
    if (track.path !== 'translation' && track.path !== 'rotation' && track.path !== 'scale')
      throw new TrackError(`${label}: unknown path "${String(track.path)}"`);
    if (track.interpolation !== 'step' && track.interpolation !== 'linear' && track.interpolation !== 'cubic')
      throw new TrackError(`${label}: unknown interpolation "${String(track.interpolation)}"`);
    const stride = track.path === 'rotation' ? 4 : 3;
    this.stride = stride;
    const n = track.times.length;
    if (n === 0) throw new TrackError(`${label}: has no keys`);
    this.keyCount = n;
    const groups = track.interpolation === 'cubic' ? 3 : 1;
    const expected = n * stride * groups;
    if (track.values.length !== expected)
      throw new TrackError(
        `${label}: values has ${track.values.length} numbers, expected ${expected} (${n} keys × ${groups > 1 ? '3 groups × ' : ''}${stride})`,
      );
    const times = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const tk = track.times[k];
      if (!Number.isFinite(tk)) throw new TrackError(`${label}: times[${k}] is ${tk}`);
      if (k > 0 && !(tk > times[k - 1]))
        throw new TrackError(`${label}: times[${k}] = ${tk} is not greater than times[${k - 1}] = ${times[k - 1]}`);
      times[k] = tk;
    }
    const values = new Float64Array(expected);
    for (let i = 0; i < expected; i++) {
      const v = track.values[i];
      if (!Number.isFinite(v)) throw new TrackError(`${label}: values[${i}] is ${v}`);
      values[i] = v;
    }
    if (stride === 4) {
      // glTF requires unit rotation keys; tolerate rounding, refuse zero.
      for (let k = 0; k < n; k++) {
        const o = groups === 3 ? (3 * k + 1) * 4 : 4 * k;
        const l = hypot4(values[o], values[o + 1], values[o + 2], values[o + 3]);
        if (!(l > 1e-12)) throw new TrackError(`${label}: rotation key ${k} is a zero quaternion`);
        if (groups === 1) {
          values[o] /= l;
          values[o + 1] /= l;
          values[o + 2] /= l;
          values[o + 3] /= l;
        }
      }
    }
    this.times = times;
    this.values = values;
    this.startTimeSec = times[0];
    this.endTimeSec = times[n - 1];
  }

  /**
   * Index i with times[i] <= t < times[i+1], for t strictly inside the key
   * range. Checks the remembered interval and its neighbours first.
   */
  private _interval(t: number): number {
    const times = this.times;
    let i = this._i;
    if (t >= times[i]) {
      if (t < times[i + 1]) return i;
      if (t < times[i + 2]) return (this._i = i + 1);
      // Gallop forward from i + 1.
      this.intervalSearches++;
      let lo = i + 1;
      let step = 2;
      let hi = lo + step;
      const last = this.keyCount - 1;
      while (hi < last && t >= times[hi]) {
        lo = hi;
        step *= 2;
        hi = lo + step;
      }
      if (hi > last) hi = last;
      i = this._bisect(t, lo, hi);
    } else {
      if (i > 0 && t >= times[i - 1]) return (this._i = i - 1);
      this.intervalSearches++;
      let hi = i;
      let step = 2;
      let lo = hi - step;
      while (lo > 0 && t < times[lo]) {
        hi = lo;
        step *= 2;
        lo = hi - step;
      }
      if (lo < 0) lo = 0;
      i = this._bisect(t, lo, hi);
    }
    return (this._i = i);
  }

  /** Largest i in [lo, hi) with times[i] <= t, given times[lo] <= t < times[hi]. */
  private _bisect(t: number, lo: number, hi: number): number {
    const times = this.times;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (t < times[mid]) hi = mid;
      else lo = mid;
    }
    return lo;
  }

  /** Writes the key value k (the middle group for cubic) into out. */
  private _key(k: number, out: FlatOut, oo: number): void {
    const s = this.stride;
    const o = this.interpolation === 'cubic' ? (3 * k + 1) * s : k * s;
    const v = this.values;
    if (s === 4 && this.interpolation === 'cubic') {
      const l = Math.sqrt(v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2] + v[o + 3] * v[o + 3]);
      out[oo] = v[o] / l;
      out[oo + 1] = v[o + 1] / l;
      out[oo + 2] = v[o + 2] / l;
      out[oo + 3] = v[o + 3] / l;
      return;
    }
    for (let c = 0; c < s; c++) out[oo + c] = v[o + c];
  }

  /** Samples the curve at `timeSec` (clamped to the key range) into out[offset..]. */
  valueAt<T extends FlatOut>(timeSec: number, out: T, offset = 0): T {
    const times = this.times;
    const n = this.keyCount;
    if (timeSec !== timeSec) throw new TrackError(`${this.label}: sampled at time NaN`);
    if (n === 1 || !(timeSec > times[0])) {
      this.heldKey = 0;
      this._key(0, out, offset);
      return out;
    }
    if (timeSec >= times[n - 1]) {
      this.heldKey = n - 1;
      this._key(n - 1, out, offset);
      return out;
    }
    const i = this._interval(timeSec);
    if (this.interpolation === 'step') {
      this.heldKey = i;
      this._key(i, out, offset);
      return out;
    }
    this.heldKey = -1;
    const t0 = times[i];
    const dt = times[i + 1] - t0;
    const u = (timeSec - t0) / dt;
    const v = this.values;
    const s = this.stride;
    if (this.interpolation === 'linear') {
      const a = i * s;
      const b = a + s;
      if (s === 4) this._slerpCached(i, u, out, offset);
      else for (let c = 0; c < 3; c++) out[offset + c] = v[a + c] + (v[b + c] - v[a + c]) * u;
      return out;
    }
    // Cubic Hermite (glTF Appendix C).
    const u2 = u * u;
    const u3 = u2 * u;
    const h00 = 2 * u3 - 3 * u2 + 1;
    const h10 = (u3 - 2 * u2 + u) * dt;
    const h01 = -2 * u3 + 3 * u2;
    const h11 = (u3 - u2) * dt;
    const vk = (3 * i + 1) * s; // value k
    const bk = vk + s; // out-tangent k
    const ak1 = (3 * i + 3) * s; // in-tangent k+1
    const vk1 = ak1 + s; // value k+1
    if (s === 3) {
      for (let c = 0; c < 3; c++) out[offset + c] = h00 * v[vk + c] + h10 * v[bk + c] + h01 * v[vk1 + c] + h11 * v[ak1 + c];
      return out;
    }
    const px = h00 * v[vk] + h10 * v[bk] + h01 * v[vk1] + h11 * v[ak1];
    const py = h00 * v[vk + 1] + h10 * v[bk + 1] + h01 * v[vk1 + 1] + h11 * v[ak1 + 1];
    const pz = h00 * v[vk + 2] + h10 * v[bk + 2] + h01 * v[vk1 + 2] + h11 * v[ak1 + 2];
    const pw = h00 * v[vk + 3] + h10 * v[bk + 3] + h01 * v[vk1 + 3] + h11 * v[ak1 + 3];
    const l = Math.sqrt(px * px + py * py + pz * pz + pw * pw);
    if (!(l > 0)) throw new TrackError(`${this.label}: cubic rotation spline passes through zero at t=${timeSec}s (keys ${i}..${i + 1})`);
    out[offset] = px / l;
    out[offset + 1] = py / l;
    out[offset + 2] = pz / l;
    out[offset + 3] = pw / l;
    return out;
  }

  /**
   * slerpUnit(out, offset, keys i and i + 1, u) without its derivative, its
   * per-interval numbers kept from the last call in the same interval: the
   * same expressions on the same numbers, so the same result.
   */
  private _slerpCached(i: number, u: number, out: FlatOut, oo: number): void {
    const c = this._slerp;
    if (this._slerpAt !== i) {
      slerpInterval(this.values, 4 * i, this.values, 4 * i + 4, c);
      this._slerpAt = i;
    }
    slerpAt(c, u, out, oo, null, 0, 0);
  }

  /**
   * Exact time derivative of the curve at `timeSec` (units per second; for
   * rotations dq/dt, 4 numbers). At a key the right-hand derivative is
   * returned; outside the key range (and at the last key) it is 0.
   */
  derivativeAt<T extends FlatOut>(timeSec: number, out: T, offset = 0): T {
    const times = this.times;
    const n = this.keyCount;
    const s = this.stride;
    if (timeSec !== timeSec) throw new TrackError(`${this.label}: differentiated at time NaN`);
    if (n === 1 || this.interpolation === 'step' || timeSec < times[0] || timeSec >= times[n - 1]) {
      for (let c = 0; c < s; c++) out[offset + c] = 0;
      return out;
    }
    const i = timeSec === times[0] ? (this._i = 0) : this._interval(timeSec);
    const t0 = times[i];
    const dt = times[i + 1] - t0;
    const u = (timeSec - t0) / dt;
    const v = this.values;
    if (this.interpolation === 'linear') {
      const a = i * s;
      const b = a + s;
      if (s === 4) slerpUnit(_q, 0, v, a, v, b, u, out, offset, 1 / dt);
      else for (let c = 0; c < 3; c++) out[offset + c] = (v[b + c] - v[a + c]) / dt;
      return out;
    }
    // d/dt of the Hermite basis: d/du divided by dt (tangent terms carry dt).
    const u2 = u * u;
    const u3 = u2 * u;
    const inv = 1 / dt;
    const d00 = (6 * u2 - 6 * u) * inv;
    const d10 = 3 * u2 - 4 * u + 1;
    const d01 = (-6 * u2 + 6 * u) * inv;
    const d11 = 3 * u2 - 2 * u;
    const vk = (3 * i + 1) * s;
    const bk = vk + s;
    const ak1 = (3 * i + 3) * s;
    const vk1 = ak1 + s;
    if (s === 3) {
      for (let c = 0; c < 3; c++) out[offset + c] = d00 * v[vk + c] + d10 * v[bk + c] + d01 * v[vk1 + c] + d11 * v[ak1 + c];
      return out;
    }
    const h00 = 2 * u3 - 3 * u2 + 1;
    const h10 = (u3 - 2 * u2 + u) * dt;
    const h01 = -2 * u3 + 3 * u2;
    const h11 = (u3 - u2) * dt;
    const px = h00 * v[vk] + h10 * v[bk] + h01 * v[vk1] + h11 * v[ak1];
    const py = h00 * v[vk + 1] + h10 * v[bk + 1] + h01 * v[vk1 + 1] + h11 * v[ak1 + 1];
    const pz = h00 * v[vk + 2] + h10 * v[bk + 2] + h01 * v[vk1 + 2] + h11 * v[ak1 + 2];
    const pw = h00 * v[vk + 3] + h10 * v[bk + 3] + h01 * v[vk1 + 3] + h11 * v[ak1 + 3];
    const dx = d00 * v[vk] + d10 * v[bk] + d01 * v[vk1] + d11 * v[ak1];
    const dy = d00 * v[vk + 1] + d10 * v[bk + 1] + d01 * v[vk1 + 1] + d11 * v[ak1 + 1];
    const dz = d00 * v[vk + 2] + d10 * v[bk + 2] + d01 * v[vk1 + 2] + d11 * v[ak1 + 2];
    const dw = d00 * v[vk + 3] + d10 * v[bk + 3] + d01 * v[vk1 + 3] + d11 * v[ak1 + 3];
    const l = Math.sqrt(px * px + py * py + pz * pz + pw * pw);
    if (!(l > 0)) throw new TrackError(`${this.label}: cubic rotation spline passes through zero at t=${timeSec}s (keys ${i}..${i + 1})`);
    // d/dt (p/|p|) = (ṗ − q (q·ṗ)) / |p| with q = p/|p|.
    const qx = px / l, qy = py / l, qz = pz / l, qw = pw / l;
    const qd = qx * dx + qy * dy + qz * dz + qw * dw;
    out[offset] = (dx - qx * qd) / l;
    out[offset + 1] = (dy - qy * qd) / l;
    out[offset + 2] = (dz - qz * qd) / l;
    out[offset + 3] = (dw - qw * qd) / l;
    return out;
  }
}

const _q = new Float64Array(4);

/**
 * Shortest-arc slerp of unit quaternions a and b at parameter u, written as
 * q(u) = a (a⁻¹ b')^u with b' = ±b (the sign giving a·b' >= 0). When `dOut`
 * is given, also writes dq/dt = q(u) · log(a⁻¹ b') · dudt there.
 */
export function slerpUnit(
  out: FlatOut,
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
  u: number,
  dOut: FlatOut | null,
  doo: number,
  dudt: number,
): void {
  slerpInterval(a, ao, b, bo, _slerpC);
  slerpAt(_slerpC, u, out, oo, dOut, doo, dudt);
}

const _slerpC = new Float64Array(9);

/**
 * slerpUnit's numbers that depend on the keys alone, into c: a (4), r = a* ⊗ b'
 * without its w (3), sin θ = |vec r| and θ.
 */
function slerpInterval(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, c: Float64Array): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  let bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  // r = a* ⊗ b' (a is unit).
  const rx = aw * bx - ax * bw - ay * bz + az * by;
  const ry = aw * by - ay * bw - az * bx + ax * bz;
  const rz = aw * bz - az * bw - ax * by + ay * bx;
  const rw = aw * bw + ax * bx + ay * by + az * bz;
  const sinTheta = Math.sqrt(rx * rx + ry * ry + rz * rz);
  c[0] = ax;
  c[1] = ay;
  c[2] = az;
  c[3] = aw;
  c[4] = rx;
  c[5] = ry;
  c[6] = rz;
  c[7] = sinTheta;
  c[8] = atan2(sinTheta, rw); // in [0, π/2] since rw >= 0
}

/** q(u) = a ⊗ r^u from slerpInterval's numbers c; with dOut, also dq/dt = q ⊗ log r · dudt. */
function slerpAt(c: Float64Array, u: number, out: FlatOut, oo: number, dOut: FlatOut | null, doo: number, dudt: number): void {
  const ax = c[0], ay = c[1], az = c[2], aw = c[3], rx = c[4], ry = c[5], rz = c[6], sinTheta = c[7], theta = c[8];
  // r^u = (r̂ sin(uθ), cos(uθ)); k = sin(uθ)/sinθ → u as θ → 0.
  const k = sinTheta > 1e-12 ? sin(u * theta) / sinTheta : u;
  const ex = rx * k, ey = ry * k, ez = rz * k;
  const ew = cos(u * theta);
  // q = a ⊗ r^u
  const qx = aw * ex + ax * ew + ay * ez - az * ey;
  const qy = aw * ey + ay * ew + az * ex - ax * ez;
  const qz = aw * ez + az * ew + ax * ey - ay * ex;
  const qw = aw * ew - ax * ex - ay * ey - az * ez;
  out[oo] = qx;
  out[oo + 1] = qy;
  out[oo + 2] = qz;
  out[oo + 3] = qw;
  if (dOut === null) return;
  // log r = (r̂ θ, 0); dq/dt = q ⊗ log r · du/dt.
  const m = (sinTheta > 1e-12 ? theta / sinTheta : 1) * dudt;
  const lx = rx * m, ly = ry * m, lz = rz * m;
  dOut[doo] = qw * lx + qy * lz - qz * ly;
  dOut[doo + 1] = qw * ly + qz * lx - qx * lz;
  dOut[doo + 2] = qw * lz + qx * ly - qy * lx;
  dOut[doo + 3] = -qx * lx - qy * ly - qz * lz;
}

/**
 * World angular velocity of a rotating body from its orientation q and dq/dt:
 * ω = 2·vec(q̇ ⊗ q⁻¹). Writes 3 numbers at out[oo].
 */
export function angularVelocityFromQuat(
  q: ArrayLike<number>,
  qo: number,
  dq: ArrayLike<number>,
  dqo: number,
  out: FlatOut,
  oo: number,
): void {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const n2 = x * x + y * y + z * z + w * w;
  // q⁻¹ = q* / |q|²
  const ix = -x / n2, iy = -y / n2, iz = -z / n2, iw = w / n2;
  const ax = dq[dqo], ay = dq[dqo + 1], az = dq[dqo + 2], aw = dq[dqo + 3];
  out[oo] = 2 * (ax * iw + aw * ix + ay * iz - az * iy);
  out[oo + 1] = 2 * (ay * iw + aw * iy + az * ix - ax * iz);
  out[oo + 2] = 2 * (az * iw + aw * iz + ax * iy - ay * ix);
}
