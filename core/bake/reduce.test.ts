import { describe, expect, it } from 'vitest';
import {
  type ChannelKind,
  type DenseSignal,
  type KeyCurve,
  curveError,
  dimsOf,
  evaluateCurve,
  keysAtEverySample,
  reduceSignal,
  valueError,
} from './reduce';
import { mulberry32 } from '../math/random';
import { multiplyQuatFlat } from '../math/quat';

type Fn = (t: number, out: Float64Array) => void;

/** Smooth random vector signal: sum of sines (metres), amplitudes and frequencies of body motion. */
function randomVectorFn(r: () => number): Fn {
  const terms: number[] = [];
  for (let k = 0; k < 9; k++) terms.push(0.02 + r() * 0.2, 0.1 + r() * 0.8, r() * 6.28);
  return (t, out) => {
    for (let c = 0; c < 3; c++) {
      out[c] = 0;
      for (let j = 0; j < 3; j++) {
        const o = (c * 3 + j) * 3;
        out[c] += terms[o] * Math.sin(2 * Math.PI * terms[o + 1] * t + terms[o + 2]);
      }
    }
  };
}

/** Smooth random rotation: product of three rotations about random axes with oscillating angles. */
function randomRotationFn(r: () => number): Fn {
  const axes: number[] = [];
  for (let k = 0; k < 3; k++) {
    const z = r() * 2 - 1, phi = r() * 2 * Math.PI, s = Math.sqrt(1 - z * z);
    axes.push(s * Math.cos(phi), s * Math.sin(phi), z, 0.2 + r() * 0.6, 0.1 + r() * 0.8, r() * 6.28);
  }
  return (t, out) => {
    let x = 0, y = 0, z = 0, w = 1;
    for (let k = 0; k < 3; k++) {
      const o = k * 6;
      const angle = axes[o + 3] * Math.sin(2 * Math.PI * axes[o + 4] * t + axes[o + 5]);
      const s = Math.sin(angle / 2);
      const bx = axes[o] * s, by = axes[o + 1] * s, bz = axes[o + 2] * s, bw = Math.cos(angle / 2);
      const nx = x * bw + w * bx + y * bz - z * by;
      const ny = y * bw + w * by + z * bx - x * bz;
      const nz = z * bw + w * bz + x * by - y * bx;
      const nw = w * bw - x * bx - y * by - z * bz;
      x = nx; y = ny; z = nz; w = nw;
    }
    // Random overall sign: the reducer must not care which of ±q it gets.
    const sgn = Math.sin(37 * t) > 0 ? 1 : -1;
    out[0] = sgn * x; out[1] = sgn * y; out[2] = sgn * z; out[3] = sgn * w;
  };
}

/** Piecewise-linear random vector with kinks at non-frame times (a linear track). */
function randomKinkedCurve(r: () => number, durationSec: number): KeyCurve {
  const times = [0];
  while (times[times.length - 1] < durationSec) times.push(times[times.length - 1] + 0.05 + r() * 0.4);
  const values: number[] = [];
  for (let i = 0; i < times.length; i++) values.push(r() - 0.5, r() - 0.5, r() - 0.5);
  return { interpolation: 'LINEAR', times: Float64Array.from(times), values: Float64Array.from(values) };
}

const FPS = 30;
const SUB = 3;

/** Frames, sub-frame points and extra (key) times over [0, durationSec], with exact-ish slopes. */
function sampleDense(kind: ChannelKind, f: Fn, durationSec: number, extraTimes: number[] = []): DenseSignal {
  const dims = dimsOf(kind);
  const frames = Math.round(durationSec * FPS);
  const anchors = new Set<number>();
  for (let k = 0; k <= frames; k++) anchors.add(k / FPS);
  for (const t of extraTimes) if (t > 0 && t < frames / FPS) anchors.add(t);
  const sorted = [...anchors].sort((a, b) => a - b);
  const times: number[] = [];
  const preferred: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    times.push(sorted[i]);
    preferred.push(1);
    if (i + 1 < sorted.length)
      for (let s = 1; s <= SUB; s++) {
        times.push(sorted[i] + ((sorted[i + 1] - sorted[i]) * s) / (SUB + 1));
        preferred.push(0);
      }
  }
  const n = times.length;
  const values = new Float64Array(n * dims);
  const slopeIn = new Float64Array(n * dims);
  const slopeOut = new Float64Array(n * dims);
  const tmp = new Float64Array(4), a = new Float64Array(4), b = new Float64Array(4);
  const h = 1e-6;
  for (let i = 0; i < n; i++) {
    f(times[i], tmp);
    for (let c = 0; c < dims; c++) values[i * dims + c] = tmp[c];
    // One-sided differences: exact slopes of piecewise-linear signals, O(h) for smooth ones.
    f(times[i] - h, a);
    f(times[i] + h, b);
    for (let c = 0; c < dims; c++) {
      // Rotations: keep the derivative in the sample's hemisphere.
      const sa = kind === 'rotation' && a[0] * tmp[0] + a[1] * tmp[1] + a[2] * tmp[2] + a[3] * tmp[3] < 0 ? -1 : 1;
      const sb = kind === 'rotation' && b[0] * tmp[0] + b[1] * tmp[1] + b[2] * tmp[2] + b[3] * tmp[3] < 0 ? -1 : 1;
      slopeIn[i * dims + c] = (tmp[c] - sa * a[c]) / h;
      slopeOut[i * dims + c] = (sb * b[c] - tmp[c]) / h;
    }
  }
  return {
    kind,
    times: Float64Array.from(times),
    values,
    slopeIn,
    slopeOut,
    preferred: Uint8Array.from(preferred),
  };
}

/** Largest error of the curve against the true signal at every frame and at `perFrame` random sub-frame times. */
function trueError(curve: KeyCurve, kind: ChannelKind, f: Fn, durationSec: number, r: () => number, perFrame = 16): { atFrames: number; between: number } {
  const truth = new Float64Array(4), got = new Float64Array(4);
  let atFrames = 0, between = 0;
  const frames = Math.round(durationSec * FPS);
  for (let k = 0; k <= frames; k++) {
    f(k / FPS, truth);
    evaluateCurve(curve, kind, k / FPS, got);
    atFrames = Math.max(atFrames, valueError(kind, got, 0, truth, 0));
    if (k === frames) break;
    for (let j = 0; j < perFrame; j++) {
      const t = (k + r()) / FPS;
      f(t, truth);
      evaluateCurve(curve, kind, t, got);
      between = Math.max(between, valueError(kind, got, 0, truth, 0));
    }
  }
  return { atFrames, between };
}

describe('reduceSignal', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`smooth random translation stays within 5e-4 m at frames and between them (seed ${seed})`, () => {
      const r = mulberry32(seed);
      const f = randomVectorFn(r);
      const duration = 4;
      const tol = 5e-4;
      const signal = sampleDense('vector', f, duration);
      const res = reduceSignal(signal, { tolerance: tol });
      const err = trueError(res.curve, 'vector', f, duration, r);
      const frames = duration * FPS + 1;
      console.log(`translation seed ${seed}: ${frames} frames -> ${res.curve.times.length} keys (${res.method}), max error frames ${err.atFrames.toExponential(2)} between ${err.between.toExponential(2)}`);
      expect(err.atFrames, 'error at frames within tolerance').toBeLessThanOrEqual(tol);
      expect(err.between, 'error between frames within tolerance').toBeLessThanOrEqual(tol);
      expect(res.curve.times.length, 'sparse: under half as many keys as frames').toBeLessThan(frames / 2);
    });

    it(`smooth random rotation stays within 1e-3 rad at frames and between them (seed ${seed})`, () => {
      const r = mulberry32(100 + seed);
      const f = randomRotationFn(r);
      const duration = 4;
      const tol = 1e-3;
      const signal = sampleDense('rotation', f, duration);
      const res = reduceSignal(signal, { tolerance: tol });
      const err = trueError(res.curve, 'rotation', f, duration, r);
      const frames = duration * FPS + 1;
      console.log(`rotation seed ${seed}: ${frames} frames -> ${res.curve.times.length} keys (${res.method}), max error frames ${err.atFrames.toExponential(2)} between ${err.between.toExponential(2)}`);
      expect(err.atFrames).toBeLessThanOrEqual(tol);
      expect(err.between).toBeLessThanOrEqual(tol);
      expect(res.curve.times.length, 'sparse: under half as many keys as frames').toBeLessThan(frames / 2);
    });

    it(`rotation fit without exact slopes (finite differences) still holds the tolerance (seed ${seed})`, () => {
      const r = mulberry32(200 + seed);
      const f = randomRotationFn(r);
      const duration = 3;
      const tol = 2e-3;
      const signal = sampleDense('rotation', f, duration);
      const res = reduceSignal({ ...signal, slopeIn: undefined, slopeOut: undefined }, { tolerance: tol });
      const err = trueError(res.curve, 'rotation', f, duration, r);
      console.log(`rotation (no slopes) seed ${seed}: ${duration * FPS + 1} frames -> ${res.curve.times.length} keys (${res.method})`);
      expect(Math.max(err.atFrames, err.between)).toBeLessThanOrEqual(tol);
    });

    it(`piecewise-linear track with kinks between frames: original keys kept, exact everywhere (seed ${seed})`, () => {
      const r = mulberry32(300 + seed);
      const duration = 3;
      const track = randomKinkedCurve(r, duration + 0.5);
      const f: Fn = (t, out) => void evaluateCurve(track, 'vector', t, out);
      const inRange = Array.from(track.times).filter((t) => t > 0 && t < duration);
      const signal = sampleDense('vector', f, duration, inRange);
      // The original keys limited to [0, duration]: the inner keys plus exact end keys.
      const times = [0, ...inRange, duration];
      const values: number[] = [];
      const tmp = new Float64Array(3);
      for (const t of times) {
        f(t, tmp);
        values.push(tmp[0], tmp[1], tmp[2]);
      }
      const original: KeyCurve = { interpolation: 'LINEAR', times: Float64Array.from(times), values: Float64Array.from(values) };
      const tol = 1e-4;
      const res = reduceSignal(signal, { tolerance: tol, original });
      const err = trueError(res.curve, 'vector', f, duration, r);
      console.log(`kinked seed ${seed}: ${times.length} original keys -> ${res.curve.times.length} keys (${res.method})`);
      expect(res.method, 'the source keys are the smallest exact curve').toBe('original');
      expect(Math.max(err.atFrames, err.between)).toBeLessThanOrEqual(tol);
    });
  }

  it('piecewise-linear signal without original keys: linear fit puts keys at the kinks (seed 7)', () => {
    const r = mulberry32(7);
    const duration = 3;
    const track = randomKinkedCurve(r, duration + 0.5);
    const f: Fn = (t, out) => void evaluateCurve(track, 'vector', t, out);
    const inRange = Array.from(track.times).filter((t) => t > 0 && t < duration);
    const signal = sampleDense('vector', f, duration, inRange);
    const res = reduceSignal(signal, { tolerance: 1e-5 });
    const err = trueError(res.curve, 'vector', f, duration, r);
    expect(res.curve.times.length, 'one key per kink plus the two ends').toBe(inRange.length + 2);
    expect(Math.max(err.atFrames, err.between)).toBeLessThanOrEqual(1e-5);
  });

  it('a constant channel reduces to one key ("constant"), or to the rest value ("rest") when it is within tolerance of it', () => {
    const q = [0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)];
    const f: Fn = (_t, out) => out.set(q);
    const signal = sampleDense('rotation', f, 2);
    const res = reduceSignal(signal, { tolerance: 1e-6 });
    expect(res.curve.times.length).toBe(1);
    expect(res.method).toBe('constant');
    // The same signal against a rest value 5e-7 rad away (about z): rest wins within 1e-6.
    const a = 5e-7;
    const rest = [0, 0, 0, 0];
    multiplyQuatFlat(rest, 0, q, 0, [0, 0, Math.sin(a / 2), Math.cos(a / 2)], 0);
    expect(valueError('rotation', rest, 0, q, 0)).toBeCloseTo(a, 9);
    const atRest = reduceSignal(signal, { tolerance: 1e-6, rest });
    expect(atRest.method).toBe('rest');
    expect(Array.from(atRest.curve.values)).toEqual(rest.map(Math.fround));
    // ...but not within 1e-7.
    expect(reduceSignal(signal, { tolerance: 1e-7, rest }).method).toBe('constant');
  });

  it('a channel that moves by more than the tolerance never becomes one key (seeded, 20 signals)', () => {
    const r = mulberry32(23);
    for (let i = 0; i < 20; i++) {
      const amp = 1e-3 * (1 + r());
      const f: Fn = (t, out) => {
        out[0] = 0.3 + amp * Math.sin(3 * t);
        out[1] = 0.1;
        out[2] = -0.2;
      };
      const res = reduceSignal(sampleDense('vector', f, 2), { tolerance: amp / 3, rest: [0.3, 0.1, -0.2] });
      expect(res.curve.times.length).toBeGreaterThan(1);
      expect(res.maxError).toBeLessThanOrEqual(amp / 3);
    }
  });

  it('every-sample keys reproduce the frames exactly (up to float32)', () => {
    const r = mulberry32(11);
    const f = randomRotationFn(r);
    const frames = sampleDense('rotation', f, 2);
    const onlyFrames: DenseSignal = { kind: 'rotation', times: new Float64Array(61), values: new Float64Array(61 * 4) };
    for (let k = 0; k <= 60; k++) {
      onlyFrames.times[k] = k / FPS;
      f(k / FPS, onlyFrames.values.subarray(k * 4, k * 4 + 4));
    }
    const curve = keysAtEverySample(onlyFrames);
    expect(curve.times.length).toBe(61);
    const err = trueError(curve, 'rotation', f, 2, r, 0);
    expect(err.atFrames).toBeLessThan(1e-6);
    expect(frames.times.length).toBeGreaterThan(61);
  });

  it('evaluateCurve follows glTF CUBICSPLINE: Hermite with tangents scaled by the key interval', () => {
    // p(t) = t^3 on [0, 2]: values 0 and 8, derivatives 0 and 12 (units per second).
    const curve: KeyCurve = {
      interpolation: 'CUBICSPLINE',
      times: Float64Array.of(0, 2),
      values: Float64Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0, 8, 0, 0, 12, 0, 0),
    };
    const out = new Float64Array(3);
    for (const t of [0.3, 0.9, 1.5, 1.99]) {
      evaluateCurve(curve, 'vector', t, out);
      expect(out[0]).toBeCloseTo(t ** 3, 12);
    }
  });
});

describe('curveError with a limit', () => {
  it('gives the full error when it is within the limit, and a number above the limit exactly when the full error is (seed 71)', () => {
    const r = mulberry32(71);
    let above = 0, within = 0;
    for (let i = 0; i < 24; i++) {
      const kind: ChannelKind = i % 2 === 0 ? 'vector' : 'rotation';
      const signal = sampleDense(kind, kind === 'vector' ? randomVectorFn(r) : randomRotationFn(r), 2);
      // candidates of every kind: fits at several tolerances, one key, every sample
      const curves = [1e-2, 1e-3, 1e-4].map((tol) => reduceSignal(signal, { tolerance: tol }).curve);
      curves.push({ interpolation: 'LINEAR', times: Float64Array.of(signal.times[0]), values: signal.values.slice(0, dimsOf(kind)) }, keysAtEverySample(signal));
      for (const curve of curves) {
        const full = curveError(curve, signal);
        for (const limit of [0, full * 0.5, full, full * 2, 1e-3 * r(), Infinity]) {
          const e = curveError(curve, signal, limit);
          if (full <= limit) {
            within++;
            expect(e, `within the limit ${limit}: the full error`).toBe(full);
          } else {
            above++;
            expect(e, `full error ${full} above the limit ${limit}`).toBeGreaterThan(limit);
            expect(e, 'at most the full error').toBeLessThanOrEqual(full);
          }
        }
      }
    }
    expect(above, 'cases above the limit').toBeGreaterThan(20);
    expect(within, 'cases within the limit').toBeGreaterThan(20);
  });
});
