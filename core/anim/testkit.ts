/**
 * Helpers shared by the anim and skeleton tests: a seeded random generator,
 * random tracks, and high-order finite differences. Not part of the public API.
 */
import type { Interpolation, Track, TrackPath, TrackTarget } from '../document/types';
import { hypot4 } from '../math/libm';

export { mulberry32 as rng } from '../math/random';

export function randomUnitQuat(r: () => number, out: number[] = [0, 0, 0, 0], o = 0): number[] {
  // Marsaglia-style: normalise a random 4-vector (rejecting tiny ones).
  for (;;) {
    const x = r() * 2 - 1, y = r() * 2 - 1, z = r() * 2 - 1, w = r() * 2 - 1;
    const l = hypot4(x, y, z, w);
    if (l < 0.1 || l > 1) continue;
    out[o] = x / l;
    out[o + 1] = y / l;
    out[o + 2] = z / l;
    out[o + 3] = w / l;
    return out;
  }
}

export interface RandomTrackOptions {
  keys?: number;
  target?: TrackTarget;
  /** Probability that a rotation key is close to the previous one (tests small-angle paths). */
  nearProb?: number;
}

/**
 * A random track: key spacing 0.05..0.45 s starting near 0, values in
 * [-2, 2] (scale in [0.3, 2]), rotation keys random with random sign flips
 * (so shortest-arc handling is exercised), cubic tangents random.
 */
export function randomTrack(r: () => number, path: TrackPath, interpolation: Interpolation, opts: RandomTrackOptions = {}): Track {
  const n = opts.keys ?? 2 + Math.floor(r() * 10);
  const times: number[] = [];
  let t = r() * 0.2;
  for (let k = 0; k < n; k++) {
    times.push(t);
    t += 0.05 + r() * 0.4;
  }
  const stride = path === 'rotation' ? 4 : 3;
  const keyValue = (prev: number[] | null): number[] => {
    if (path === 'rotation') {
      let q: number[];
      if (prev && r() < (opts.nearProb ?? 0.15)) {
        q = prev.map((c) => c + (r() - 0.5) * 1e-7);
        const l = hypot4(q[0], q[1], q[2], q[3]);
        q = q.map((c) => c / l);
      } else q = randomUnitQuat(r);
      if (interpolation === 'cubic') {
        // glTF cubic rotation splines have no shortest-arc handling: animators'
        // keys sit in one hemisphere (a sign flip would pass through zero).
        if (prev && q[0] * prev[0] + q[1] * prev[1] + q[2] * prev[2] + q[3] * prev[3] < 0) q = q.map((c) => -c);
      } else if (r() < 0.5) q = q.map((c) => -c);
      return q;
    }
    if (path === 'scale') return [0.3 + r() * 1.7, 0.3 + r() * 1.7, 0.3 + r() * 1.7];
    return [r() * 4 - 2, r() * 4 - 2, r() * 4 - 2];
  };
  const values: number[] = [];
  let prev: number[] | null = null;
  for (let k = 0; k < n; k++) {
    const v = keyValue(prev);
    prev = v;
    if (interpolation === 'cubic') {
      const tan = () => {
        const a: number[] = [];
        for (let c = 0; c < stride; c++) a.push((r() - 0.5) * 2);
        return a;
      };
      values.push(...tan(), ...v, ...tan());
    } else values.push(...v);
  }
  return { target: opts.target ?? { kind: 'prop', prop: 'p' }, path, interpolation, times, values };
}

/** 8th-order central difference of the vector function f at t (step h). */
export function centralDiff8(f: (t: number, out: Float64Array) => void, t: number, h: number, dim: number): Float64Array {
  const c = [1 / 280, -4 / 105, 1 / 5, -4 / 5, 0, 4 / 5, -1 / 5, 4 / 105, -1 / 280];
  const acc = new Float64Array(dim);
  const tmp = new Float64Array(dim);
  for (let k = -4; k <= 4; k++) {
    if (k === 0) continue;
    f(t + k * h, tmp);
    for (let d = 0; d < dim; d++) acc[d] += c[k + 4] * tmp[d];
  }
  for (let d = 0; d < dim; d++) acc[d] /= h;
  return acc;
}

/** 6th-order one-sided forward difference (right-hand derivative) of f at t. */
export function forwardDiff6(f: (t: number, out: Float64Array) => void, t: number, h: number, dim: number): Float64Array {
  const c = [-49 / 20, 6, -15 / 2, 20 / 3, -15 / 4, 6 / 5, -1 / 6];
  const acc = new Float64Array(dim);
  const tmp = new Float64Array(dim);
  for (let k = 0; k < 7; k++) {
    f(t + k * h, tmp);
    for (let d = 0; d < dim; d++) acc[d] += c[k] * tmp[d];
  }
  for (let d = 0; d < dim; d++) acc[d] /= h;
  return acc;
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
