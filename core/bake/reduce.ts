/**
 * Key reduction: turn a densely sampled channel into a few glTF keys that
 * stay within a tolerance of it.
 *
 * A channel is either a vector (translation, scale: 3 numbers, error is the
 * Euclidean distance) or a rotation (unit quaternion, error is the rotation
 * angle between the two orientations in radians).
 *
 * Curves use glTF sampler semantics exactly (what engines and three.js play):
 * `STEP` holds, `LINEAR` lerps vectors and slerps rotations along the shortest
 * arc, `CUBICSPLINE` is the Hermite spline with (in-tangent, value,
 * out-tangent) per key, tangents in units per second scaled by the key
 * interval, normalised for rotations. Times outside the keys clamp.
 *
 * A channel that holds one value within tolerance (a clenched finger, a prop
 * at rest) becomes a single key: glTF holds a sampler's only key for the
 * whole clip. When that value is the node's rest value, the channel is
 * marked 'rest' so the exporter can leave it out entirely.
 *
 * Fitting is Douglas–Peucker on the dense samples: start with the first and
 * last sample as keys, find the sample farthest from the curve, split there,
 * repeat until every sample is within tolerance. Key values are the exact
 * samples; cubic tangents are the exact derivatives of the signal at the key
 * (one-sided at kinks), so smooth motion needs few keys.
 */

import { slerpFlat } from '../math/quat';
import { keyFollows } from './time32';
import { acos, asin, hypot4, sin } from '../math/libm';

export type ChannelKind = 'vector' | 'rotation';
export type GltfInterpolation = 'STEP' | 'LINEAR' | 'CUBICSPLINE';

/** Keys as a glTF animation sampler holds them (times in seconds). */
export interface KeyCurve {
  interpolation: GltfInterpolation;
  times: Float64Array;
  /** `dims` numbers per key, or for CUBICSPLINE 3·dims: in-tangent, value, out-tangent. */
  values: Float64Array;
}

/**
 * A channel sampled densely: at every frame, at sub-frame points between
 * them and at the key times of the source curve (where it may have kinks).
 */
export interface DenseSignal {
  kind: ChannelKind;
  /** Sample times in seconds, strictly increasing. */
  times: Float64Array;
  /** dims numbers per sample (3 or 4). */
  values: Float64Array;
  /** Derivative just before each sample (units per second), dims per sample. Optional. */
  slopeIn?: Float64Array;
  /** Derivative just after each sample. Optional; with slopeIn, enables cubic fitting with exact tangents. */
  slopeOut?: Float64Array;
  /**
   * 1 where a sample is a preferred key position (a frame or a source key
   * time). Splits go to the preferred sample nearest the worst error; other
   * samples become keys only when no preferred one is left in a segment.
   * Default: every sample is preferred.
   */
  preferred?: Uint8Array;
}

export interface ReduceResult {
  curve: KeyCurve;
  /** Largest error at the dense samples (metres/scale units or radians). */
  maxError: number;
  /**
   * Which fit won: the source keys, a linear fit, a cubic fit, one key (the
   * channel holds one value: 'constant'), or one key holding the node's rest
   * value ('rest': the exporter can leave the channel out and let the node's
   * own transform hold it).
   */
  method: 'original' | 'linear' | 'cubic' | 'constant' | 'rest';
}

/** Fits aim this far inside the tolerance so that points between samples stay inside it too. */
export const FIT_MARGIN = 0.9;

export function dimsOf(kind: ChannelKind): number {
  return kind === 'rotation' ? 4 : 3;
}

const _a = new Float64Array(4);
const _b = new Float64Array(4);

/** Error between value a (at ao) and b (at bo): distance for vectors, rotation angle for quaternions. */
export function valueError(kind: ChannelKind, a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  if (kind === 'vector') {
    const dx = a[ao] - b[bo], dy = a[ao + 1] - b[bo + 1], dz = a[ao + 2] - b[bo + 2];
    return Math.sqrt(dx * dx + dy * dy + dz * dz);
  }
  // Angle between orientations: the 4D angle θ between ±q satisfies chord = 2 sin(θ/2);
  // the rotation angle is 2θ. Accurate for small angles, unlike acos(dot).
  const la = Math.sqrt(a[ao] * a[ao] + a[ao + 1] * a[ao + 1] + a[ao + 2] * a[ao + 2] + a[ao + 3] * a[ao + 3]);
  const lb = Math.sqrt(b[bo] * b[bo] + b[bo + 1] * b[bo + 1] + b[bo + 2] * b[bo + 2] + b[bo + 3] * b[bo + 3]);
  const dot = a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3];
  const s = dot < 0 ? -1 / lb : 1 / lb;
  const ia = 1 / la;
  const cx = a[ao] * ia - b[bo] * s, cy = a[ao + 1] * ia - b[bo + 1] * s;
  const cz = a[ao + 2] * ia - b[bo + 2] * s, cw = a[ao + 3] * ia - b[bo + 3] * s;
  const chord = Math.sqrt(cx * cx + cy * cy + cz * cz + cw * cw);
  return 4 * asin(Math.min(1, chord / 2));
}

/**
 * Slerp (shortest arc) or lerp between keys, glTF LINEAR. Writes dims numbers.
 */
function interpolateLinear(
  kind: ChannelKind,
  out: Float64Array,
  v: ArrayLike<number>,
  ao: number,
  bo: number,
  u: number,
): void {
  if (kind === 'vector') {
    out[0] = v[ao] + (v[bo] - v[ao]) * u;
    out[1] = v[ao + 1] + (v[bo + 1] - v[ao + 1]) * u;
    out[2] = v[ao + 2] + (v[bo + 2] - v[ao + 2]) * u;
    return;
  }
  slerpFlat(out, 0, v, ao, v, bo, u);
}

/** glTF CUBICSPLINE between value p0 (out-tangent m0) and p1 (in-tangent m1), dt = key interval. */
function interpolateHermite(
  dims: number,
  out: Float64Array,
  p: ArrayLike<number>,
  p0: number,
  m0: number,
  p1: number,
  m1: number,
  dt: number,
  u: number,
): void {
  const u2 = u * u, u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1;
  const h10 = (u3 - 2 * u2 + u) * dt;
  const h01 = -2 * u3 + 3 * u2;
  const h11 = (u3 - u2) * dt;
  for (let c = 0; c < dims; c++) out[c] = h00 * p[p0 + c] + h10 * p[m0 + c] + h01 * p[p1 + c] + h11 * p[m1 + c];
  if (dims === 4) {
    const l = hypot4(out[0], out[1], out[2], out[3]);
    if (l > 0) {
      out[0] /= l;
      out[1] /= l;
      out[2] /= l;
      out[3] /= l;
    }
  }
}

/**
 * Samples a key curve at `timeSec` (glTF semantics), writing dims numbers
 * into `out` at `oo`. `hint` (an index into the keys) speeds up sequential
 * sampling; the returned index is the next hint.
 */
export function evaluateCurve(
  curve: KeyCurve,
  kind: ChannelKind,
  timeSec: number,
  out: { [i: number]: number },
  oo = 0,
  hint = 0,
): number {
  const dims = dimsOf(kind);
  const times = curve.times;
  const n = times.length;
  const cubic = curve.interpolation === 'CUBICSPLINE';
  const stride = cubic ? 3 * dims : dims;
  const vo = cubic ? dims : 0;
  const vals = curve.values;
  if (timeSec <= times[0] || n === 1) {
    for (let c = 0; c < dims; c++) out[oo + c] = vals[vo + c];
    return 0;
  }
  if (timeSec >= times[n - 1]) {
    for (let c = 0; c < dims; c++) out[oo + c] = vals[(n - 1) * stride + vo + c];
    return n - 1;
  }
  let i = hint < n - 1 && hint >= 0 && times[hint] <= timeSec ? hint : 0;
  while (times[i + 1] <= timeSec) i++;
  const t0 = times[i], t1 = times[i + 1];
  const dt = t1 - t0;
  const u = (timeSec - t0) / dt;
  if (curve.interpolation === 'STEP') {
    for (let c = 0; c < dims; c++) out[oo + c] = vals[i * stride + c];
  } else if (cubic) {
    interpolateHermite(dims, _a, vals, i * stride + dims, i * stride + 2 * dims, (i + 1) * stride + dims, (i + 1) * stride, dt, u);
    for (let c = 0; c < dims; c++) out[oo + c] = _a[c];
  } else {
    interpolateLinear(kind, _a, vals, i * stride, (i + 1) * stride, u);
    for (let c = 0; c < dims; c++) out[oo + c] = _a[c];
  }
  return i;
}

/**
 * Largest error of `curve` against the dense samples of `signal` (Infinity
 * if one is NaN). With `limit`, stops at the first sample whose error
 * exceeds it and returns that error (some number above `limit`, for a
 * caller that only accepts errors up to it).
 */
export function curveError(curve: KeyCurve, signal: DenseSignal, limit = Infinity): number {
  const dims = dimsOf(signal.kind);
  const n = signal.times.length;
  let worst = 0;
  let hint = 0;
  for (let i = 0; i < n; i++) {
    hint = evaluateCurve(curve, signal.kind, signal.times[i], _b, 0, hint);
    const e = valueError(signal.kind, _b, 0, signal.values, i * dims);
    if (e > worst || e !== e) {
      worst = e !== e ? Infinity : e;
      if (worst > limit) return worst;
    }
  }
  return worst;
}

/**
 * Copy of a rotation signal with unit quaternions, each in the hemisphere of
 * its predecessor (slopes flipped with it), so component-wise Hermite
 * interpolation between neighbours never takes the long way round.
 */
function alignHemispheres(signal: DenseSignal): DenseSignal {
  if (signal.kind !== 'rotation') return signal;
  const n = signal.times.length;
  const values = Float64Array.from(signal.values);
  const slopeIn = signal.slopeIn ? Float64Array.from(signal.slopeIn) : undefined;
  const slopeOut = signal.slopeOut ? Float64Array.from(signal.slopeOut) : undefined;
  for (let i = 0; i < n; i++) {
    const o = 4 * i;
    const l = Math.sqrt(values[o] * values[o] + values[o + 1] * values[o + 1] + values[o + 2] * values[o + 2] + values[o + 3] * values[o + 3]);
    if (l > 0 && l !== 1) for (let c = 0; c < 4; c++) values[o + c] /= l;
  }
  for (let i = 1; i < n; i++) {
    const o = 4 * i, p = o - 4;
    const d = values[o] * values[p] + values[o + 1] * values[p + 1] + values[o + 2] * values[p + 2] + values[o + 3] * values[p + 3];
    if (d < 0) {
      for (let c = 0; c < 4; c++) {
        values[o + c] = -values[o + c];
        if (slopeIn) slopeIn[o + c] = -slopeIn[o + c];
        if (slopeOut) slopeOut[o + c] = -slopeOut[o + c];
      }
    }
  }
  return { ...signal, values, slopeIn, slopeOut };
}

/**
 * Finite-difference slopes when the signal has no exact derivatives:
 * one-sided differences to each neighbour (exact for piecewise-linear input).
 */
function differenceSlopes(signal: DenseSignal): { slopeIn: Float64Array; slopeOut: Float64Array } {
  const dims = dimsOf(signal.kind);
  const n = signal.times.length;
  const t = signal.times, v = signal.values;
  const slopeIn = new Float64Array(n * dims);
  const slopeOut = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < dims; c++) {
      const back = i > 0 ? (v[i * dims + c] - v[(i - 1) * dims + c]) / (t[i] - t[i - 1]) : NaN;
      const fwd = i < n - 1 ? (v[(i + 1) * dims + c] - v[i * dims + c]) / (t[i + 1] - t[i]) : NaN;
      const central = Number.isNaN(back) ? fwd : Number.isNaN(fwd) ? back : 0.5 * (back + fwd);
      slopeIn[i * dims + c] = Number.isNaN(central) ? 0 : central;
      slopeOut[i * dims + c] = Number.isNaN(central) ? 0 : central;
    }
  }
  return { slopeIn, slopeOut };
}

/** Worst error of a segment, written by the worst* helpers (value in the cheap form). */
const _worst = new Float64Array(1);

/** Worst sample strictly inside (a, b) against the lerp of the end samples: returns its index, squared distance in _worst. */
function worstLerp(t: Float64Array, v: Float64Array, a: number, b: number): number {
  const ta = t[a], inv = 1 / (t[b] - ta);
  const ax = v[3 * a], ay = v[3 * a + 1], az = v[3 * a + 2];
  const dx = v[3 * b] - ax, dy = v[3 * b + 1] - ay, dz = v[3 * b + 2] - az;
  let worst = -1, at = -1;
  for (let i = a + 1; i < b; i++) {
    const u = (t[i] - ta) * inv;
    const ex = ax + dx * u - v[3 * i], ey = ay + dy * u - v[3 * i + 1], ez = az + dz * u - v[3 * i + 2];
    const e = ex * ex + ey * ey + ez * ez;
    if (!(e <= worst)) {
      worst = e !== e ? Infinity : e;
      at = i;
    }
  }
  _worst[0] = worst;
  return at;
}

/** Same for slerp of unit quaternions; error 1 - |q·q'|. */
function worstSlerp(t: Float64Array, v: Float64Array, a: number, b: number): number {
  const ta = t[a], inv = 1 / (t[b] - ta);
  const ax = v[4 * a], ay = v[4 * a + 1], az = v[4 * a + 2], aw = v[4 * a + 3];
  let bx = v[4 * b], by = v[4 * b + 1], bz = v[4 * b + 2], bw = v[4 * b + 3];
  let cos = ax * bx + ay * by + az * bz + aw * bw;
  if (cos < 0) {
    cos = -cos;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  const nearlyEqual = cos > 1 - 1e-9;
  const theta = nearlyEqual ? 0 : acos(Math.min(1, cos));
  const invSin = nearlyEqual ? 0 : 1 / sin(theta);
  let worst = -1, at = -1;
  for (let i = a + 1; i < b; i++) {
    const u = (t[i] - ta) * inv;
    let s0: number, s1: number;
    if (nearlyEqual) {
      s0 = 1 - u;
      s1 = u;
    } else {
      s0 = sin((1 - u) * theta) * invSin;
      s1 = sin(u * theta) * invSin;
    }
    const x = s0 * ax + s1 * bx, y = s0 * ay + s1 * by, z = s0 * az + s1 * bz, w = s0 * aw + s1 * bw;
    const o = 4 * i;
    const d = (x * v[o] + y * v[o + 1] + z * v[o + 2] + w * v[o + 3]) / Math.sqrt(x * x + y * y + z * z + w * w);
    const e = 1 - Math.abs(d);
    if (!(e <= worst)) {
      worst = e !== e ? Infinity : e;
      at = i;
    }
  }
  _worst[0] = worst;
  return at;
}

/**
 * Same for a glTF Hermite segment; `p` packs [values | slopeIn | slopeOut]
 * (n samples each). Error: squared distance, or 1 - |q·q'| after normalising.
 */
function worstHermite(dims: number, p: Float64Array, t: Float64Array, v: Float64Array, n: number, a: number, b: number): number {
  const ta = t[a], dt = t[b] - ta, inv = 1 / dt;
  const p0 = a * dims, m0 = (2 * n + a) * dims, p1 = b * dims, m1 = (n + b) * dims;
  let worst = -1, at = -1;
  for (let i = a + 1; i < b; i++) {
    const u = (t[i] - ta) * inv;
    const u2 = u * u, u3 = u2 * u;
    const h00 = 2 * u3 - 3 * u2 + 1;
    const h10 = (u3 - 2 * u2 + u) * dt;
    const h01 = -2 * u3 + 3 * u2;
    const h11 = (u3 - u2) * dt;
    const o = i * dims;
    let e: number;
    if (dims === 3) {
      const ex = h00 * p[p0] + h10 * p[m0] + h01 * p[p1] + h11 * p[m1] - v[o];
      const ey = h00 * p[p0 + 1] + h10 * p[m0 + 1] + h01 * p[p1 + 1] + h11 * p[m1 + 1] - v[o + 1];
      const ez = h00 * p[p0 + 2] + h10 * p[m0 + 2] + h01 * p[p1 + 2] + h11 * p[m1 + 2] - v[o + 2];
      e = ex * ex + ey * ey + ez * ez;
    } else {
      const x = h00 * p[p0] + h10 * p[m0] + h01 * p[p1] + h11 * p[m1];
      const y = h00 * p[p0 + 1] + h10 * p[m0 + 1] + h01 * p[p1 + 1] + h11 * p[m1 + 1];
      const z = h00 * p[p0 + 2] + h10 * p[m0 + 2] + h01 * p[p1 + 2] + h11 * p[m1 + 2];
      const w = h00 * p[p0 + 3] + h10 * p[m0 + 3] + h01 * p[p1 + 3] + h11 * p[m1 + 3];
      const l = Math.sqrt(x * x + y * y + z * z + w * w);
      e = l > 0 ? 1 - Math.abs((x * v[o] + y * v[o + 1] + z * v[o + 2] + w * v[o + 3]) / l) : Infinity;
    }
    if (!(e <= worst)) {
      worst = e !== e ? Infinity : e;
      at = i;
    }
  }
  _worst[0] = worst;
  return at;
}

/**
 * Douglas–Peucker fit. `cubic` uses Hermite segments with the signal's
 * slopes as tangents; otherwise linear (slerp) segments.
 */
function fitDouglasPeucker(signal: DenseSignal, tolerance: number, cubic: boolean): KeyCurve {
  const kind = signal.kind;
  const dims = dimsOf(kind);
  const n = signal.times.length;
  const t = signal.times;
  const v = signal.values;
  const preferred = signal.preferred;
  let slopeIn = signal.slopeIn, slopeOut = signal.slopeOut;
  if (cubic && (!slopeIn || !slopeOut)) ({ slopeIn, slopeOut } = differenceSlopes(signal));
  const isKey = new Uint8Array(n);
  isKey[0] = 1;
  isKey[n - 1] = 1;
  if (n > 1) {
    // Hermite segments read value and slopes of both keys from one flat array:
    // [values | slopeIn | slopeOut], offsets below.
    const packed = cubic ? new Float64Array(3 * n * dims) : v;
    if (cubic) {
      packed.set(v, 0);
      packed.set(slopeIn!, n * dims);
      packed.set(slopeOut!, 2 * n * dims);
    }
    // Errors are compared in a cheap monotone form: squared distance for
    // vectors, 1 - |q·q'| for unit quaternions (= 2 sin²(angle / 4)).
    const threshold = kind === 'vector' ? tolerance * tolerance : 2 * sin(tolerance / 4) ** 2;
    const stack: number[] = [0, n - 1];
    while (stack.length > 0) {
      const b = stack.pop()!;
      const a = stack.pop()!;
      if (b - a < 2) continue;
      const worstAt = cubic
        ? worstHermite(dims, packed, t, v, n, a, b)
        : kind === 'vector'
          ? worstLerp(t, v, a, b)
          : worstSlerp(t, v, a, b);
      const worst = _worst[0];
      if (worst <= threshold) continue;
      let split = worstAt;
      if (preferred && !preferred[split]) {
        // Nearest preferred sample strictly inside (a, b), if any.
        let best = -1;
        for (let d = 1; d < b - a; d++) {
          if (split - d > a && preferred[split - d]) {
            best = split - d;
            break;
          }
          if (split + d < b && preferred[split + d]) {
            best = split + d;
            break;
          }
        }
        if (best >= 0) split = best;
      }
      isKey[split] = 1;
      stack.push(a, split, split, b);
    }
  }
  let count = 0;
  for (let i = 0; i < n; i++) count += isKey[i];
  const times = new Float64Array(count);
  const values = new Float64Array(count * dims * (cubic ? 3 : 1));
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (!isKey[i]) continue;
    times[k] = t[i];
    if (cubic) {
      const o = k * 3 * dims;
      for (let c = 0; c < dims; c++) {
        values[o + c] = slopeIn![i * dims + c];
        values[o + dims + c] = v[i * dims + c];
        values[o + 2 * dims + c] = slopeOut![i * dims + c];
      }
    } else {
      for (let c = 0; c < dims; c++) values[k * dims + c] = v[i * dims + c];
    }
    k++;
  }
  return { interpolation: cubic ? 'CUBICSPLINE' : 'LINEAR', times, values };
}

/** Bytes a curve takes in a .glb (float32 times and values). */
export function curveBytes(curve: KeyCurve): number {
  return 4 * (curve.times.length + curve.values.length);
}

/**
 * Rounds times and values to float32, as they will be stored. Keys whose
 * times round to one float32 (or closer than MIN_KEY_INTERVAL_SEC) are merged (the first key's in-tangent, the
 * last key's value and out-tangent), so stored times strictly increase as
 * glTF requires. The bake hands in float32 times already (its samples are
 * float32 times, see bake.ts), where this changes no time.
 */
export function toFloat32Curve(curve: KeyCurve): KeyCurve {
  const t32 = Float32Array.from(curve.times);
  const v = Float64Array.from(Float32Array.from(curve.values));
  const n = t32.length;
  const stride = n > 0 ? v.length / n : 0;
  const dims = curve.interpolation === 'CUBICSPLINE' ? stride / 3 : 0;
  let m = 0;
  for (let k = 0; k < n; k++) {
    if (m > 0 && !keyFollows(t32[m - 1], t32[k])) {
      for (let c = dims; c < stride; c++) v[(m - 1) * stride + c] = v[k * stride + c];
      continue;
    }
    t32[m] = t32[k];
    if (m !== k) for (let c = 0; c < stride; c++) v[m * stride + c] = v[k * stride + c];
    m++;
  }
  return {
    interpolation: curve.interpolation,
    times: Float64Array.from(t32.subarray(0, m)),
    values: m === n ? v : v.slice(0, m * stride),
  };
}

export interface ReduceOptions {
  /** Largest allowed error: metres / scale units for vectors, radians for rotations. */
  tolerance: number;
  /** The channel's own keys (already limited to the signal's time range), kept when they hold. */
  original?: KeyCurve;
  /**
   * The node's rest value (dims numbers). A signal within tolerance of it
   * everywhere reduces to one key of it, method 'rest'.
   */
  rest?: ArrayLike<number>;
  /** Which fits to try (default both). */
  linear?: boolean;
  cubic?: boolean;
  /**
   * Extra samples of the same signal, e.g. midway between the dense samples,
   * that every candidate must also match: fits are only guaranteed at the
   * samples they were fitted to, and a fast curve can still bulge between
   * them (or a jump hide between two of them).
   */
  check?: { times: Float64Array; values: Float64Array };
}

/**
 * Reduces a dense signal to the smallest (in bytes) of: the rest value or a
 * single constant key (when the signal holds one value within tolerance), the
 * original keys (when they reproduce the signal within tolerance), a linear
 * fit and a cubic fit. Among curves of equal size the rest value wins, then
 * the original keys, so an animator's curve survives export untouched
 * whenever it can. Every candidate is checked with its values rounded to
 * float32, as they will be stored.
 */
export function reduceSignal(signal: DenseSignal, options: ReduceOptions): ReduceResult {
  const tol = options.tolerance;
  if (!(tol >= 0)) throw new RangeError(`reduceSignal: tolerance must be >= 0, got ${tol}`);
  if (signal.times.length === 0) throw new RangeError('reduceSignal: signal has no samples');
  const aligned = alignHemispheres(signal);
  let best: ReduceResult | undefined;
  const consider = (curve: KeyCurve, method: ReduceResult['method']) => {
    const stored = toFloat32Curve(curve);
    // a candidate is refused at its first sample beyond the tolerance (its error is kept only if it holds)
    let err = curveError(stored, signal, tol);
    if (options.check && err <= tol) err = Math.max(err, curveError(stored, { kind: signal.kind, times: options.check.times, values: options.check.values }, tol));
    if (!(err <= tol)) return;
    if (!best || curveBytes(stored) < curveBytes(best.curve) || (method === 'original' && curveBytes(stored) === curveBytes(best.curve)))
      best = { curve: stored, maxError: err, method };
  };
  const dims = dimsOf(signal.kind);
  const oneKey = (src: ArrayLike<number>, so: number): KeyCurve => {
    const values = new Float64Array(dims);
    for (let c = 0; c < dims; c++) values[c] = src[so + c];
    return { interpolation: 'LINEAR', times: Float64Array.of(signal.times[0]), values };
  };
  if (options.rest) consider(oneKey(options.rest, 0), 'rest');
  if (!best) consider(oneKey(signal.values, 0), 'constant');
  if (best) return best;
  if (options.original) consider(options.original, 'original');
  if (options.linear !== false) consider(fitDouglasPeucker(aligned, tol * FIT_MARGIN, false), 'linear');
  if (options.cubic !== false && signal.times.length > 2) consider(fitDouglasPeucker(aligned, tol * FIT_MARGIN, true), 'cubic');
  if (!best) {
    // No candidate held everywhere (float32 rounding near the tolerance, or a
    // curve too fast for the sampling): keep every sample as a linear key, the
    // closest we can store, and report its error.
    const curve = toFloat32Curve(fitDouglasPeucker(aligned, 0, false));
    let err = curveError(curve, signal);
    if (options.check) err = Math.max(err, curveError(curve, { kind: signal.kind, times: options.check.times, values: options.check.values }));
    best = { curve, maxError: err, method: 'linear' };
  }
  return best;
}

/** One LINEAR key per sample (every-frame mode when the samples are the frames). */
export function keysAtEverySample(signal: DenseSignal): KeyCurve {
  return toFloat32Curve({ interpolation: 'LINEAR', times: Float64Array.from(signal.times), values: Float64Array.from(signal.values) });
}
