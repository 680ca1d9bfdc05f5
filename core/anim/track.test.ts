import { Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import type { Interpolation, Track, TrackPath } from '../document/types';
import { mat3FromQuat } from '../math';
import { centralDiff8, forwardDiff6, maxAbs, maxAbsDiff, randomTrack, randomUnitQuat, rng } from './testkit';
import { TrackError, TrackSampler, angularVelocityFromQuat, slerpUnit } from './track';

const PATHS: TrackPath[] = ['translation', 'rotation', 'scale'];
const INTERPS: Interpolation[] = ['step', 'linear', 'cubic'];

/**
 * Slow obvious reference: linear search for the interval, lerp, three.js
 * slerp, cubic via the Bezier form of the Hermite segment (de Casteljau),
 * normalised for rotations.
 */
function referenceValue(track: Track, t: number): number[] {
  const s = track.path === 'rotation' ? 4 : 3;
  const n = track.times.length;
  const cubic = track.interpolation === 'cubic';
  const key = (k: number): number[] => {
    const o = cubic ? (3 * k + 1) * s : k * s;
    const v = track.values.slice(o, o + s);
    if (s === 4) {
      const l = Math.hypot(v[0], v[1], v[2], v[3]);
      return v.map((c) => c / l);
    }
    return v;
  };
  if (t <= track.times[0]) return key(0);
  if (t >= track.times[n - 1]) return key(n - 1);
  let i = 0;
  while (!(track.times[i] <= t && t < track.times[i + 1])) i++;
  if (track.interpolation === 'step') return key(i);
  const dt = track.times[i + 1] - track.times[i];
  const u = (t - track.times[i]) / dt;
  if (track.interpolation === 'linear') {
    const a = key(i), b = key(i + 1);
    if (s === 3) return a.map((c, d) => c * (1 - u) + b[d] * u);
    const q = new Quaternion().fromArray(a).slerp(new Quaternion().fromArray(b), u);
    return q.toArray();
  }
  const v0 = track.values.slice((3 * i + 1) * s, (3 * i + 2) * s);
  const b0 = track.values.slice((3 * i + 2) * s, (3 * i + 3) * s);
  const a1 = track.values.slice((3 * i + 3) * s, (3 * i + 4) * s);
  const v1 = track.values.slice((3 * i + 4) * s, (3 * i + 5) * s);
  const P = [v0, v0.map((c, d) => c + (b0[d] * dt) / 3), v1.map((c, d) => c - (a1[d] * dt) / 3), v1];
  const lerp = (a: number[], b: number[]) => a.map((c, d) => c + (b[d] - c) * u);
  const q1 = [lerp(P[0], P[1]), lerp(P[1], P[2]), lerp(P[2], P[3])];
  const q2 = [lerp(q1[0], q1[1]), lerp(q1[1], q1[2])];
  const p = lerp(q2[0], q2[1]);
  if (s === 4) {
    const l = Math.hypot(p[0], p[1], p[2], p[3]);
    return p.map((c) => c / l);
  }
  return p;
}

/** Random time inside the key range at least `margin` from every key. */
function timeAwayFromKeys(r: () => number, times: number[], margin: number): number {
  for (;;) {
    const t = times[0] + r() * (times[times.length - 1] - times[0]);
    if (times.every((k) => Math.abs(k - t) > margin)) return t;
  }
}

describe('TrackSampler values vs a slow reference', () => {
  for (const path of PATHS)
    for (const interp of INTERPS) {
      const seed = 100 + PATHS.indexOf(path) * 10 + INTERPS.indexOf(interp);
      it(`${path}/${interp} matches linear-search + three.js slerp + de Casteljau reference in random order (seed ${seed})`, () => {
        const r = rng(seed);
        for (let trial = 0; trial < 20; trial++) {
          const track = randomTrack(r, path, interp);
          const sampler = new TrackSampler(track);
          const out = new Float64Array(4);
          const t0 = track.times[0], t1 = track.times[track.times.length - 1];
          for (let k = 0; k < 60; k++) {
            // Random order, including outside the range and exactly on keys.
            const t = k % 7 === 0 ? track.times[Math.floor(r() * track.times.length)] : t0 - 0.3 + r() * (t1 - t0 + 0.6);
            sampler.valueAt(t, out);
            const ref = referenceValue(track, t);
            const got = Array.from(out.subarray(0, ref.length));
            if (path === 'rotation') {
              // q and -q are one rotation; the curve itself must still agree up to sign.
              const dot = got.reduce((acc, c, d) => acc + c * ref[d], 0);
              const signed = ref.map((c) => c * Math.sign(dot || 1));
              expect(maxAbsDiff(got, signed), `rotation at t=${t}`).toBeLessThan(1e-12);
              expect(Math.abs(Math.hypot(...got) - 1), 'unit quaternion').toBeLessThan(1e-12);
            } else expect(maxAbsDiff(got, ref), `${path} at t=${t}`).toBeLessThan(1e-12);
          }
        }
      });
    }

  it('cubic passes through its keys and linear/step hit keys exactly (seed 7)', () => {
    const r = rng(7);
    for (const interp of INTERPS)
      for (const path of PATHS) {
        const track = randomTrack(r, path, interp, { keys: 6 });
        const sampler = new TrackSampler(track);
        const out = new Float64Array(4);
        const s = path === 'rotation' ? 4 : 3;
        for (let k = 0; k < 6; k++) {
          sampler.valueAt(track.times[k], out);
          const o = interp === 'cubic' ? (3 * k + 1) * s : k * s;
          const v = track.values.slice(o, o + s);
          const l = s === 4 ? Math.hypot(...v) : 1;
          expect(maxAbsDiff(out.subarray(0, s), v.map((c) => c / l)), `${path}/${interp} key ${k}`).toBeLessThan(1e-14);
        }
      }
  });

  it('step holds the key value until the next key', () => {
    const track: Track = { target: { kind: 'prop', prop: 'p' }, path: 'translation', interpolation: 'step', times: [0, 1, 2], values: [0, 0, 0, 1, 2, 3, 4, 5, 6] };
    const s = new TrackSampler(track);
    const out = [0, 0, 0];
    expect(s.valueAt(0.999999, out)).toEqual([0, 0, 0]);
    expect(s.valueAt(1, out)).toEqual([1, 2, 3]);
    expect(s.valueAt(1.5, out)).toEqual([1, 2, 3]);
    expect(s.valueAt(7, out)).toEqual([4, 5, 6]);
    expect(s.valueAt(-7, out)).toEqual([0, 0, 0]);
  });

  it('writes at the given offset and leaves the rest of the buffer alone', () => {
    const track: Track = { target: { kind: 'prop', prop: 'p' }, path: 'translation', interpolation: 'linear', times: [0, 2], values: [0, 0, 0, 2, 4, 6] };
    const buf = new Float64Array(8).fill(-1);
    new TrackSampler(track).valueAt(1, buf, 3);
    expect(Array.from(buf)).toEqual([-1, -1, -1, 1, 2, 3, -1, -1]);
  });
});

describe('slerp vs brute force', () => {
  /** Rotation matrix path at constant angular velocity: R0 · exp(u · log(R0ᵀ R1)). */
  function matrixSlerp(q0: number[], q1: number[], u: number): Float64Array {
    const R0 = new Float64Array(9), R1 = new Float64Array(9);
    mat3FromQuat(R0, 0, q0, 0);
    mat3FromQuat(R1, 0, q1, 0);
    // D = R0ᵀ R1
    const D = new Float64Array(9);
    for (let c = 0; c < 3; c++) for (let rr = 0; rr < 3; rr++) for (let k = 0; k < 3; k++) D[c * 3 + rr] += R0[rr * 3 + k] * R1[c * 3 + k];
    const angle = Math.acos(Math.max(-1, Math.min(1, (D[0] + D[4] + D[8] - 1) / 2)));
    let ax = D[5] - D[7], ay = D[6] - D[2], az = D[1] - D[3];
    const l = Math.hypot(ax, ay, az);
    ax /= l;
    ay /= l;
    az /= l;
    // Rodrigues
    const th = u * angle, c = Math.cos(th), s = Math.sin(th), C = 1 - c;
    const E = [c + ax * ax * C, ay * ax * C + az * s, az * ax * C - ay * s, ax * ay * C - az * s, c + ay * ay * C, az * ay * C + ax * s, ax * az * C + ay * s, ay * az * C - ax * s, c + az * az * C];
    const out = new Float64Array(9);
    for (let cc = 0; cc < 3; cc++) for (let rr = 0; rr < 3; rr++) for (let k = 0; k < 3; k++) out[cc * 3 + rr] += R0[k * 3 + rr] * E[cc * 3 + k];
    return out;
  }

  it('linear rotation is the constant-angular-velocity shortest arc between keys (seed 31)', () => {
    const r = rng(31);
    const out = new Float64Array(4), dq = new Float64Array(4), w = new Float64Array(3), R = new Float64Array(9);
    for (let trial = 0; trial < 300; trial++) {
      const q0 = randomUnitQuat(r), q1 = randomUnitQuat(r);
      if (r() < 0.5) for (let c = 0; c < 4; c++) q1[c] = -q1[c];
      const dt = 0.1 + r();
      const s = new TrackSampler({ target: { kind: 'prop', prop: 'p' }, path: 'rotation', interpolation: 'linear', times: [0, dt], values: [...q0, ...q1] });
      const R0 = new Float64Array(9), R1 = new Float64Array(9);
      mat3FromQuat(R0, 0, q0, 0);
      mat3FromQuat(R1, 0, q1, 0);
      let tr = 0;
      for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) tr += R0[c * 3 + k] * R1[c * 3 + k];
      const angle = Math.acos(Math.max(-1, Math.min(1, (tr - 1) / 2)));
      const omegas: number[][] = [];
      for (let k = 0; k < 5; k++) {
        const u = r();
        s.valueAt(u * dt, out);
        mat3FromQuat(R, 0, out, 0);
        expect(maxAbsDiff(R, matrixSlerp(q0, q1, u)), `rotation matrix at u=${u}`).toBeLessThan(1e-9);
        // Continuous quaternion path: stays in q0's hemisphere.
        expect(out[0] * q0[0] + out[1] * q0[1] + out[2] * q0[2] + out[3] * q0[3]).toBeGreaterThanOrEqual(-1e-12);
        s.derivativeAt(u * dt, dq);
        angularVelocityFromQuat(out, 0, dq, 0, w, 0);
        expect(Math.hypot(w[0], w[1], w[2]), 'angular speed = shortest angle / Δt').toBeCloseTo(angle / dt, 9);
        omegas.push(Array.from(w));
      }
      for (const o of omegas) expect(maxAbsDiff(o, omegas[0]), 'ω constant along a slerp').toBeLessThan(1e-9);
    }
  });
});

describe('TrackSampler.derivativeAt is the exact derivative', () => {
  for (const path of PATHS)
    for (const interp of INTERPS) {
      const seed = 200 + PATHS.indexOf(path) * 10 + INTERPS.indexOf(interp);
      it(`${path}/${interp} matches 8th-order central differences at random times (seed ${seed})`, () => {
        const r = rng(seed);
        const h = 2.5e-4;
        const d = new Float64Array(4);
        for (let trial = 0; trial < 25; trial++) {
          const track = randomTrack(r, path, interp);
          const sampler = new TrackSampler(track);
          const fdSampler = new TrackSampler(track);
          const dim = sampler.stride;
          const f = (t: number, o: Float64Array) => fdSampler.valueAt(t, o);
          for (let k = 0; k < 40; k++) {
            const t = timeAwayFromKeys(r, track.times, 5 * h);
            sampler.derivativeAt(t, d);
            const fd = centralDiff8(f, t, h, dim);
            expect(maxAbsDiff(d.subarray(0, dim), fd), `${path}/${interp} d/dt at t=${t}: got ${Array.from(d.subarray(0, dim))}, fd ${Array.from(fd)}`).toBeLessThan(1e-8 * (1 + maxAbs(fd)));
            if (interp === 'step') expect(maxAbs(d.subarray(0, dim))).toBe(0);
          }
        }
      });
    }

  for (const path of PATHS)
    for (const interp of ['linear', 'cubic'] as Interpolation[]) {
      const seed = 300 + PATHS.indexOf(path) * 10 + INTERPS.indexOf(interp);
      it(`${path}/${interp} gives the right-hand derivative at keys and 0 outside (seed ${seed})`, () => {
        const r = rng(seed);
        const h = 1e-4;
        const d = new Float64Array(4);
        for (let trial = 0; trial < 20; trial++) {
          const track = randomTrack(r, path, interp);
          const sampler = new TrackSampler(track);
          const fdSampler = new TrackSampler(track);
          const dim = sampler.stride;
          const f = (t: number, o: Float64Array) => fdSampler.valueAt(t, o);
          const n = track.times.length;
          for (let k = 0; k < n - 1; k++) {
            sampler.derivativeAt(track.times[k], d);
            const fd = forwardDiff6(f, track.times[k], h, dim);
            expect(maxAbsDiff(d.subarray(0, dim), fd), `right-hand derivative at key ${k}`).toBeLessThan(1e-6 * (1 + maxAbs(fd)));
          }
          for (const t of [track.times[n - 1], track.times[n - 1] + 0.5, track.times[0] - 1e-9, track.times[0] - 3]) {
            sampler.derivativeAt(t, d);
            expect(maxAbs(d.subarray(0, dim)), `derivative 0 at clamped time ${t}`).toBe(0);
          }
        }
      });
    }

  it('single-key tracks are constant with zero derivative', () => {
    const s = new TrackSampler({ target: { kind: 'prop', prop: 'p' }, path: 'rotation', interpolation: 'cubic', times: [0.5], values: [1, 1, 1, 1, 0, 0, 0, 2, 5, 5, 5, 5] });
    const out = new Float64Array(4);
    expect(Array.from(s.valueAt(3, out))).toEqual([0, 0, 0, 1]);
    expect(Array.from(s.derivativeAt(0.5, out))).toEqual([0, 0, 0, 0]);
  });
});

describe('angularVelocityFromQuat', () => {
  it('equals the spin of the rotation matrix, skew(Ṙ Rᵀ), by finite differences (seed 41)', () => {
    const r = rng(41);
    const q = new Float64Array(4), dq = new Float64Array(4), w = new Float64Array(3), R = new Float64Array(9);
    for (let trial = 0; trial < 20; trial++) {
      const track = randomTrack(r, 'rotation', trial % 2 ? 'cubic' : 'linear');
      const s = new TrackSampler(track);
      const fs = new TrackSampler(track);
      const rot = (t: number, o: Float64Array) => {
        fs.valueAt(t, q);
        mat3FromQuat(o, 0, q, 0);
      };
      for (let k = 0; k < 10; k++) {
        const t = timeAwayFromKeys(r, track.times, 2e-3);
        const Rd = centralDiff8(rot, t, 2.5e-4, 9);
        s.valueAt(t, q);
        mat3FromQuat(R, 0, q, 0);
        // W = Ṙ Rᵀ, ω = (W21, W02, W10)
        const W = (row: number, col: number) => {
          let acc = 0;
          for (let k2 = 0; k2 < 3; k2++) acc += Rd[k2 * 3 + row] * R[k2 * 3 + col];
          return acc;
        };
        s.derivativeAt(t, dq);
        angularVelocityFromQuat(q, 0, dq, 0, w, 0);
        const ref = [W(2, 1), W(0, 2), W(1, 0)];
        expect(maxAbsDiff(w, ref), `ω at t=${t}`).toBeLessThan(1e-7 * (1 + maxAbs(ref)));
        expect(Math.abs(W(1, 2) + W(2, 1)), 'Ṙ Rᵀ is skew').toBeLessThan(1e-7);
      }
    }
  });
});

describe('sequential sampling is O(1)', () => {
  it('playback forward and backward needs no interval search; jumps are counted (seed 51)', () => {
    const r = rng(51);
    for (const interp of INTERPS) {
      const track = randomTrack(r, 'rotation', interp, { keys: 300 });
      const s = new TrackSampler(track);
      const out = new Float64Array(4);
      const t0 = track.times[0], t1 = track.times[299];
      const steps = 20000;
      for (let k = 0; k <= steps; k++) {
        s.valueAt(t0 + ((t1 - t0) * k) / steps, out);
        s.derivativeAt(t0 + ((t1 - t0) * k) / steps, out);
      }
      expect(s.intervalSearches, `${interp}: forward playback over 300 keys`).toBe(0);
      for (let k = steps; k >= 0; k--) s.valueAt(t0 + ((t1 - t0) * k) / steps, out);
      expect(s.intervalSearches, `${interp}: backward playback`).toBe(0);
      // Random access does search (the counter is live), and stays correct (checked above).
      for (let k = 0; k < 100; k++) s.valueAt(t0 + r() * (t1 - t0), out);
      expect(s.intervalSearches).toBeGreaterThan(50);
    }
  });

  it('random access costs O(log n) key comparisons via galloping search (seed 52)', () => {
    const r = rng(52);
    const track = randomTrack(r, 'translation', 'linear', { keys: 4096 });
    const s = new TrackSampler(track);
    const out = new Float64Array(3);
    let reads = 0;
    const times = track.times;
    // Count reads of the times array through a proxy on the sampler's copy.
    const counted = new Proxy(s.times, {
      get(target, prop) {
        if (typeof prop === 'string' && /^\d+$/.test(prop)) reads++;
        const v = Reflect.get(target, prop);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    (s as unknown as { times: Float64Array }).times = counted;
    const jumps = 200;
    for (let k = 0; k < jumps; k++) s.valueAt(times[0] + r() * (times[4095] - times[0]), out);
    expect(reads / jumps, 'average key reads per random sample').toBeLessThan(4 * Math.log2(4096));
  });
});

describe('TrackSampler rejects bad tracks, naming them', () => {
  const base: Track = { target: { kind: 'joint', character: 'hero', joint: 12 }, path: 'translation', interpolation: 'linear', times: [0, 1], values: [0, 0, 0, 1, 1, 1] };
  it('non-increasing times', () => {
    expect(() => new TrackSampler({ ...base, times: [0, 0] })).toThrow(/translation track of joint 12 of character "hero": times\[1\] = 0 is not greater than times\[0\] = 0/);
  });
  it('wrong value count', () => {
    expect(() => new TrackSampler({ ...base, interpolation: 'cubic' })).toThrow(TrackError);
    expect(() => new TrackSampler({ ...base, values: [0, 0, 0, 1, 1] })).toThrow(/values has 5 numbers, expected 6/);
  });
  it('NaN values and zero rotations', () => {
    expect(() => new TrackSampler({ ...base, values: [0, 0, 0, 1, NaN, 1] })).toThrow(/values\[4\] is NaN/);
    expect(() => new TrackSampler({ ...base, path: 'rotation', values: [0, 0, 0, 1, 0, 0, 0, 0] })).toThrow(/rotation key 1 is a zero quaternion/);
  });
  it('no keys, NaN sample time', () => {
    expect(() => new TrackSampler({ ...base, times: [], values: [] })).toThrow(/has no keys/);
    expect(() => new TrackSampler(base).valueAt(NaN, [0, 0, 0])).toThrow(/time NaN/);
  });
});

describe('sequential sampling keeps per-interval numbers without changing a bit', () => {
  /** Sample times that play forward, scrub backward, jump, and leave the key range on both sides. */
  function playTimes(r: () => number, times: number[]): number[] {
    const t0 = times[0], t1 = times[times.length - 1], span = t1 - t0;
    const out: number[] = [];
    let t = t0 - 0.1 * span;
    for (let k = 0; k < 400; k++) {
      const m = k % 100;
      if (m < 60) t += span / 50; // forward, steps smaller than an interval
      else if (m < 80) t -= span / 37; // scrubbing back
      else if (m < 90) t = t0 + (1.4 * r() - 0.2) * span; // jumps, some outside the keys
      else t = times[Math.floor(r() * times.length)]; // on a key
      out.push(t);
    }
    return out;
  }

  for (const seed of [61, 62, 63]) {
    it(`linear rotation: valueAt equals slerpUnit on the interval's keys, sampled in play order (seed ${seed})`, () => {
      const r = rng(seed);
      const track = randomTrack(r, 'rotation', 'linear', { keys: 3 + Math.floor(r() * 10), nearProb: 0.3 });
      const s = new TrackSampler(track);
      const got = new Float64Array(4), want = new Float64Array(4);
      const n = s.keyCount, T = s.times;
      for (const t of playTimes(r, track.times)) {
        s.valueAt(t, got);
        // brute force: the interval by linear search, slerpUnit from scratch (clamped outside)
        if (!(t > T[0])) want.set(s.values.subarray(0, 4));
        else if (t >= T[n - 1]) want.set(s.values.subarray(4 * (n - 1), 4 * n));
        else {
          let i = 0;
          while (!(T[i] <= t && t < T[i + 1])) i++;
          slerpUnit(want, 0, s.values, 4 * i, s.values, 4 * i + 4, (t - T[i]) / (T[i + 1] - T[i]), null, 0, 0);
        }
        for (let c = 0; c < 4; c++) expect(Object.is(got[c], want[c]), `component ${c} at t=${t}: ${got[c]} vs ${want[c]}`).toBe(true);
      }
    });
  }

  for (const seed of [64, 65])
    for (const path of PATHS)
      for (const interp of INTERPS)
        it(`${path}/${interp}: a sampler played in any order gives a fresh sampler's numbers; heldKey names the key written as it is (seed ${seed})`, () => {
          const r = rng(seed);
          const track = randomTrack(r, path, interp, { keys: 1 + Math.floor(r() * 8) });
          const s = new TrackSampler(track);
          const got = new Float64Array(4), want = new Float64Array(4);
          const n = track.times.length;
          for (const t of playTimes(r, track.times)) {
            s.valueAt(t, got);
            new TrackSampler(track).valueAt(t, want);
            expect(Array.from(got), `at t=${t}`).toEqual(Array.from(want));
            // brute force: the key held (clamped, a step, one key), else -1
            let held = -1;
            if (n === 1 || t <= track.times[0]) held = 0;
            else if (t >= track.times[n - 1]) held = n - 1;
            else if (interp === 'step') {
              held = 0;
              while (track.times[held + 1] <= t) held++;
            }
            expect(s.heldKey, `held key at t=${t}`).toBe(held);
          }
        });
});
