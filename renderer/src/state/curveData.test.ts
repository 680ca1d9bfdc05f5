import { describe, expect, it } from 'vitest';
import { produce } from 'immer';
import type { Clip, Interpolation, Track, TrackPath, Transform } from '../../../core/document/types';
import { TrackSampler } from '../../../core/anim/track';
import { randomTrack, rng } from '../../../core/anim/testkit';
import {
  CURVE_CHANNELS,
  applyTimeDrag,
  applyValueDrag,
  curveSampleTimes,
  deleteCurveKeys,
  curveSpan,
  curveValue,
  eulerXYZ,
  keyTangents,
  normalizeCurves,
  quatFromEulerDeg,
  setKeyTangentSlope,
  tangentsBroken,
  sampleTargetCurves,
  targetKeyTimes,
  type CurveKeyRef,
  type ValueDragKey,
} from './curveData';
import { deleteKeys, moveKeys } from './keys';
import { slopeFromHandle } from '../panels/curveView';

const PROP = { kind: 'prop', prop: 'p' } as const;
const REST: Transform = { translation: [0.5, 1, -2], rotation: [0, 0, 0, 1], scale: [1, 2, 3] };
const FPS = 30;

/** A random track with keys on whole frames (the dope sheet's keys). */
function frameTrack(r: () => number, path: TrackPath, interpolation: Interpolation, keys?: number): Track {
  const t = randomTrack(r, path, interpolation, { keys, target: PROP });
  t.times = t.times.map((x) => Math.round(x * FPS) / FPS);
  return t;
}

function clipOf(tracks: Track[]): Clip {
  return { id: 'c', name: 'c', frameRate: FPS, startFrame: 0, endFrame: 60, tracks };
}

function sample(clip: Clip, pxStepSec = 1 / 240) {
  const [lo, hi] = curveSpan(clip, PROP);
  return sampleTargetCurves(clip, PROP, REST, curveSampleTimes(lo, hi, pxStepSec, targetKeyTimes(clip, PROP)));
}

/** |dot| of two unit quaternions: 1 for the same rotation (q or -q). */
const sameRot = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);

describe('curve samples', () => {
  for (const interpolation of ['step', 'linear', 'cubic'] as const) {
    it(`seed 11: translation and scale curves equal TrackSampler.valueAt at every sample time (${interpolation}), unkeyed channels their rest value`, () => {
      const r = rng(11);
      for (let trial = 0; trial < 20; trial++) {
        const tr = frameTrack(r, 'translation', interpolation);
        const sc = frameTrack(r, 'scale', interpolation);
        const clip = clipOf(trial % 2 ? [tr, sc] : [tr]);
        const curves = sample(clip);
        const n = curves.times.length;
        const st = new TrackSampler(tr), ss = new TrackSampler(sc);
        const out = new Float64Array(3);
        for (let i = 0; i < n; i++) {
          st.valueAt(curves.times[i], out);
          for (let c = 0; c < 3; c++) expect(curveValue(curves, (['tx', 'ty', 'tz'] as const)[c], i), `translation ${c} at t=${curves.times[i]}`).toBe(out[c]);
          if (trial % 2) {
            ss.valueAt(curves.times[i], out);
            for (let c = 0; c < 3; c++) expect(curveValue(curves, (['sx', 'sy', 'sz'] as const)[c], i)).toBe(out[c]);
          } else for (let c = 0; c < 3; c++) expect(curveValue(curves, (['sx', 'sy', 'sz'] as const)[c], i), 'unkeyed scale: rest').toBe(REST.scale[c]);
          // Unkeyed rotation: the rest rotation (identity) is 0°.
          expect(Math.abs(curveValue(curves, 'rx', i)) + Math.abs(curveValue(curves, 'ry', i)) + Math.abs(curveValue(curves, 'rz', i))).toBe(0);
        }
        // Every key is drawn on its curve at its exact time.
        expect(curves.keys.translation.map((k) => curves.times[k.sample]), 'key points at the key times').toEqual(tr.times);
        expect(curves.keyed.scale).toBe(trial % 2 === 1);
        if (trial % 2 === 0) expect(curves.keys.scale, 'an unkeyed channel has no points').toEqual([]);
      }
    });
  }

  it('sample times are increasing, cover the span, hold every key time exactly and at least 8 samples per key interval', () => {
    const keys = [0.1, 0.1 + 1 / FPS, 0.9, 1.7];
    const t = curveSampleTimes(0, 2, 0.05, keys);
    expect(t[0]).toBe(0);
    expect(t[t.length - 1]).toBe(2);
    for (let i = 1; i < t.length; i++) expect(t[i], `times[${i}] > times[${i - 1}]`).toBeGreaterThan(t[i - 1]);
    for (const k of keys) expect(Array.from(t)).toContain(k);
    const inFirst = Array.from(t).filter((x) => x > keys[0] && x < keys[1]).length;
    expect(inFirst, 'samples strictly inside the 1-frame interval').toBeGreaterThanOrEqual(7);
  });
});

describe('Euler curves of rotations', () => {
  for (const seed of [3, 4, 5]) {
    for (const interpolation of ['linear', 'cubic'] as const) {
      it(`seed ${seed}: ${interpolation} rotation curves are continuous (no 360° jump, no flip) and every sample's angles give back the sampled rotation (q or -q)`, () => {
        const r = rng(seed);
        let naiveJumps = 0;
        for (let trial = 0; trial < 8; trial++) {
          const tr = frameTrack(r, 'rotation', interpolation, 6 + Math.floor(r() * 6));
          const clip = clipOf([tr]);
          const curves = sample(clip, 1 / 2000);
          const sampler = new TrackSampler(tr);
          const q = new Float64Array(4), qe = [0, 0, 0, 0], naive = new Float64Array(3), naivePrev = new Float64Array(3);
          const n = curves.times.length;
          let worst = 0;
          for (let i = 0; i < n; i++) {
            sampler.valueAt(curves.times[i], q);
            const deg = [curveValue(curves, 'rx', i), curveValue(curves, 'ry', i), curveValue(curves, 'rz', i)];
            quatFromEulerDeg(deg, qe);
            expect(sameRot(q, qe), `t=${curves.times[i]}: angles ${deg} are the sampled rotation`).toBeGreaterThan(1 - 1e-9);
            eulerXYZ(q, 0, null, naive);
            if (i > 0) {
              for (let c = 0; c < 3; c++) {
                const step = Math.abs(curveValue(curves, CURVE_CHANNELS[3 + c].id, i) - curveValue(curves, CURVE_CHANNELS[3 + c].id, i - 1));
                worst = Math.max(worst, step);
                if (Math.abs(naive[c] - naivePrev[c]) > 1.5 * Math.PI) naiveJumps++;
              }
            }
            naivePrev.set(naive);
          }
          // Sampled 2000 times a second, a rotation of at most 180° per key interval (0.05 s and more) moves
          // a few degrees per sample, more only close to gimbal lock (Y = ±90°), never a wrap or a flip.
          expect(worst, `largest step of an angle between samples (trial ${trial})`).toBeLessThan(45);
        }
        // The law above is not vacuous: the angles straight from the quaternions (±180° each) do jump.
        if (interpolation === 'linear') expect(naiveJumps, 'wraps of the per-sample Euler angles the curves unwrap').toBeGreaterThan(0);
      });
    }
  }

  it('a spin of two turns about Z keyed every 90° reads 0 → 720° rising, not a saw-tooth', () => {
    const times: number[] = [], values: number[] = [];
    for (let k = 0; k <= 8; k++) {
      times.push(k / FPS * 3);
      values.push(...quatFromEulerDeg([0, 0, 90 * k]));
    }
    const clip = clipOf([{ target: PROP, path: 'rotation', interpolation: 'linear', times, values }]);
    const curves = sample(clip);
    const keysDeg = curves.keys.rotation.map((k) => curveValue(curves, 'rz', k.sample));
    keysDeg.forEach((d, k) => expect(d, `key ${k}`).toBeCloseTo(90 * k, 9));
    for (let i = 1; i < curves.times.length; i++) expect(curveValue(curves, 'rz', i)).toBeGreaterThanOrEqual(curveValue(curves, 'rz', i - 1) - 1e-9);
  });
});

describe('curve edits', () => {
  it('seed 21: a value drag changes only the picked component of the picked keys (tangents and everything else kept)', () => {
    const r = rng(21);
    for (let trial = 0; trial < 20; trial++) {
      const interpolation = (['step', 'linear', 'cubic'] as const)[trial % 3];
      const tr = frameTrack(r, 'translation', interpolation, 5);
      const ro = frameTrack(r, 'rotation', interpolation === 'cubic' ? 'cubic' : 'linear', 5);
      const sc = frameTrack(r, 'scale', interpolation, 5);
      const other = { ...frameTrack(r, 'translation', 'linear', 4), target: { kind: 'prop', prop: 'q' } as const };
      const clip = clipOf([tr, ro, sc, other]);
      const k1 = Math.floor(r() * 5), k2 = (k1 + 1 + Math.floor(r() * 4)) % 5;
      const comp = Math.floor(r() * 3);
      const channel = (['tx', 'ty', 'tz'] as const)[comp];
      const picked: ValueDragKey[] = [k1, k2].map((k) => {
        const frame = Math.round(tr.times[k] * FPS);
        const o = (interpolation === 'cubic' ? 3 * k + 1 : k) * 3;
        return { ref: { target: PROP, channel, frame }, start: tr.values[o + comp] };
      });
      const delta = (r() - 0.5) * 3;
      const after = produce(clip, (d) => applyValueDrag(d, picked, delta));
      // Expected: exactly those numbers changed.
      const want = structuredClone(clip);
      for (const k of [k1, k2]) want.tracks[0].values[(interpolation === 'cubic' ? 3 * k + 1 : k) * 3 + comp] += delta;
      expect(after.tracks[0].values.length).toBe(want.tracks[0].values.length);
      after.tracks[0].values.forEach((v, i) => expect(v, `translation values[${i}]`).toBeCloseTo(want.tracks[0].values[i], 12));
      expect(after.tracks[0].times).toEqual(clip.tracks[0].times);
      for (let t = 1; t < 4; t++) expect(after.tracks[t], `track ${t} untouched`).toBe(clip.tracks[t]);
    }
  });

  it('seed 22: a rotation drag changes that Euler angle only: the key reads back with the other two kept, other keys untouched', () => {
    const r = rng(22);
    for (let trial = 0; trial < 20; trial++) {
      const ro = frameTrack(r, 'rotation', trial % 2 ? 'cubic' : 'linear', 5);
      const tr = frameTrack(r, 'translation', 'linear', 5);
      const clip = clipOf([ro, tr]);
      const curves = sample(clip);
      const k = Math.floor(r() * 5);
      const key = curves.keys.rotation[k];
      const deg: [number, number, number] = [curveValue(curves, 'rx', key.sample), curveValue(curves, 'ry', key.sample), curveValue(curves, 'rz', key.sample)];
      const comp = Math.floor(r() * 3);
      const channel = (['rx', 'ry', 'rz'] as const)[comp];
      const delta = (r() - 0.5) * 40;
      const after = produce(clip, (d) => applyValueDrag(d, [{ ref: { target: PROP, channel, frame: key.frame }, start: deg[comp], startEuler: deg }], delta));
      const g = ro.interpolation === 'cubic' ? 3 : 1, o = (ro.interpolation === 'cubic' ? 3 * k + 1 : k) * 4;
      const wantDeg = [...deg];
      wantDeg[comp] += delta;
      const qNew = after.tracks[0].values.slice(o, o + 4);
      expect(sameRot(qNew, quatFromEulerDeg(wantDeg)), 'the key is the rotation of the changed angles').toBeGreaterThan(1 - 1e-12);
      const oldQ = ro.values.slice(o, o + 4);
      expect(qNew[0] * oldQ[0] + qNew[1] * oldQ[1] + qNew[2] * oldQ[2] + qNew[3] * oldQ[3], 'kept in its hemisphere').toBeGreaterThanOrEqual(-1e-12);
      // Read back on the curves: the changed angle moved by delta, the other two stayed (small drags stay on the same branch).
      const c2 = sample(after);
      const s2 = c2.keys.rotation[k].sample;
      for (let c = 0; c < 3; c++) expect(curveValue(c2, CURVE_CHANNELS[3 + c].id, s2), `angle ${c}`).toBeCloseTo(wantDeg[c], 6);
      for (let i = 0; i < ro.values.length; i++) if (i < o || i >= o + 4) expect(after.tracks[0].values[i], `rotation values[${i}]`).toBe(ro.values[i]);
      expect(g).toBeGreaterThan(0);
      expect(after.tracks[1]).toBe(clip.tracks[1]);
    }
  });

  it('seed 23: a time drag moves the picked track keys by moveKeys rules (whole frames, a landing key wins) and leaves other paths alone', () => {
    const r = rng(23);
    for (let trial = 0; trial < 30; trial++) {
      const tr = frameTrack(r, 'translation', (['step', 'linear', 'cubic'] as const)[trial % 3], 6);
      const ro = frameTrack(r, 'rotation', 'linear', 6);
      ro.times = [...tr.times]; // keys on the same frames: the rotation keys must stay
      const clip = clipOf([tr, ro]);
      const frames = tr.times.map((t) => Math.round(t * FPS));
      const picked = frames.filter(() => r() < 0.4);
      if (!picked.length) picked.push(frames[0]);
      const delta = Math.round((r() - 0.5) * 16);
      const refs: CurveKeyRef[] = picked.map((frame) => ({ target: PROP, channel: r() < 0.5 ? 'tx' : 'tz', frame }));
      const after = produce(clip, (d) => applyTimeDrag(d, refs, delta));
      // Reference: moveKeys on a clip holding only the translation track.
      const ref = produce(clipOf([tr]), (d) => moveKeys(d, PROP, picked, delta));
      expect(after.tracks[0].times).toEqual(ref.tracks[0].times);
      expect(after.tracks[0].values).toEqual(ref.tracks[0].values);
      for (const t of after.tracks[0].times) expect(Math.abs(t * FPS - Math.round(t * FPS)), 'on a whole frame').toBeLessThan(1e-9);
      for (let i = 1; i < after.tracks[0].times.length; i++) expect(after.tracks[0].times[i], 'no two keys on one time').toBeGreaterThan(after.tracks[0].times[i - 1]);
      expect(after.tracks[1], 'the rotation track on the same frames is untouched').toBe(clip.tracks[1]);
    }
  });

  it('seed 24: Delete of keys picked on curves removes those tracks\' keys only; a dope sheet key (no channel) every path\'s', () => {
    const r = rng(24);
    for (let trial = 0; trial < 20; trial++) {
      const tr = frameTrack(r, 'translation', 'linear', 5);
      const ro = { ...frameTrack(r, 'rotation', 'linear', 5), times: [...tr.times] };
      const clip = clipOf([tr, ro]);
      const frames = tr.times.map((t) => Math.round(t * FPS));
      const f1 = frames[Math.floor(r() * 5)], f2 = frames[Math.floor(r() * 5)];
      const after = produce(clip, (d) => void deleteCurveKeys(d, [{ target: PROP, channel: 'ty', frame: f1 }], [{ target: PROP, frame: f2 }]));
      // Reference: the translation key on f1 and f2, the rotation key on f2.
      const ref = produce(clip, (d) => {
        deleteKeys(d, PROP, [f2]);
        const t = d.tracks.find((x) => x.path === 'translation');
        if (t && f1 !== f2) {
          const i = t.times.findIndex((x) => Math.round(x * FPS) === f1);
          t.times.splice(i, 1);
          t.values.splice(3 * i, 3);
        }
      });
      expect(after.tracks).toEqual(ref.tracks);
      expect(after.tracks.find((t) => t.path === 'rotation')!.times.map((t) => Math.round(t * FPS)), 'rotation keeps f1').toContain(f1 === f2 ? frames.find((f) => f !== f2) : f1);
    }
  });
});

describe('tangent handles', () => {
  const view = (r: () => number) => ({ originFrame: r() * 10 - 5, pxPerFrame: 1 + r() * 30, topValue: r() * 4 - 2, pxPerUnit: Math.exp(r() * 6 - 1) });

  /** A random cubic track of `path` with keys on whole frames at `fps` (at least three keys, distinct frames). */
  function cubicTrack(r: () => number, path: 'translation' | 'scale', fps: number): Track {
    for (;;) {
      const t = randomTrack(r, path, 'cubic', { keys: 3 + Math.floor(r() * 6), target: PROP });
      t.times = t.times.map((x) => Math.round(x * fps) / fps);
      if (new Set(t.times).size === t.times.length) return t;
    }
  }

  it('seed 41: a handle dragged to a screen point sets the slope that makes the curve’s derivative at the key (TrackSampler) the handle’s slope in the graph; aligned sets in = out, broken one side only, no other number changes', () => {
    const r = rng(41);
    const EPS = 1e-10;
    const d = new Float64Array(3);
    for (let trial = 0; trial < 300; trial++) {
      const fps = [24, 25, 30, 60][trial % 4];
      const path = trial % 3 === 0 ? 'scale' : 'translation';
      const track = cubicTrack(r, path, fps);
      const other = randomTrack(r, 'rotation', 'cubic', { target: PROP });
      const clip: Clip = { id: 'c', name: 'c', frameRate: fps, startFrame: 0, endFrame: 100, tracks: [other, track] };
      const v = view(r);
      const side = r() < 0.5 ? -1 : 1;
      // Out handles on keys with a segment after, in handles on keys with one before (there the curve has that slope).
      const i = side > 0 ? Math.floor(r() * (track.times.length - 1)) : 1 + Math.floor(r() * (track.times.length - 1));
      const component = Math.floor(r() * 3) as 0 | 1 | 2;
      const channel = CURVE_CHANNELS.find((c) => c.path === path && c.component === component)!.id;
      const ref: CurveKeyRef = { target: PROP, channel, frame: Math.round(track.times[i] * fps) };
      const aligned = r() < 0.5;
      // The dot dropped 3..120 px out on its side, 150 px above to 150 px below the key.
      const dx = side * (3 + r() * 117), dy = (r() - 0.5) * 300;
      const slope = slopeFromHandle(v, fps, dx, dy, side);
      const before = keyTangents(clip, ref);
      expect(before).toMatchObject({ kind: 'handles', hasIn: i > 0, hasOut: i < track.times.length - 1 });
      const next = produce(clip, (c) => void expect(setKeyTangentSlope(c, ref, side < 0 ? 'in' : 'out', slope, aligned)).toBe(true));

      // The curve's derivative at the key, per frame, is the handle's rise over its run in the graph's units.
      const perFrame = -dy / v.pxPerUnit / (dx / v.pxPerFrame);
      const s = new TrackSampler(next.tracks[1]);
      const t = track.times[i];
      const sides: number[] = [side];
      if (aligned) {
        if (side > 0 && i > 0) sides.push(-1);
        if (side < 0 && i < track.times.length - 1) sides.push(1);
      }
      for (const sd of sides) {
        s.derivativeAt(sd > 0 ? t : t - EPS, d);
        expect(Math.abs(d[component] / fps - perFrame), `trial ${trial}: slope ${sd > 0 ? 'after' : 'before'} the key`).toBeLessThan(1e-6 * Math.max(1, Math.abs(perFrame)));
      }
      const after = keyTangents(next, ref);
      if (after.kind !== 'handles' || before.kind !== 'handles') throw new Error('handles expected');
      if (aligned) expect([after.inSlope, after.outSlope]).toEqual([slope, slope]);
      else if (side > 0) expect([after.inSlope, after.outSlope]).toEqual([before.inSlope, slope]);
      else expect([after.inSlope, after.outSlope]).toEqual([slope, before.outSlope]);

      // Nothing else changed: the other track, the times, every other number of this track.
      expect(next.tracks[0]).toEqual(other);
      expect(next.tracks[1].times).toEqual(track.times);
      const inAt = 9 * i + component, outAt = 9 * i + 6 + component;
      const changed = next.tracks[1].values.map((x, j) => (x !== track.values[j] ? j : -1)).filter((j) => j >= 0);
      const allowed = aligned ? [inAt, outAt] : [side < 0 ? inAt : outAt];
      for (const j of changed) expect(allowed, `value ${j} changed`).toContain(j);
    }
  });

  it('no handles on rotation keys (quaternion tangents), on linear or step keys, or where there is no key; those edits change nothing', () => {
    const r = rng(43);
    const rot = randomTrack(r, 'rotation', 'cubic', { target: PROP, keys: 3 });
    rot.times = [0, 10 / FPS, 20 / FPS];
    const lin = frameTrack(r, 'translation', 'linear', 3);
    lin.times = [0, 10 / FPS, 20 / FPS];
    const clip = clipOf([rot, lin]);
    expect(keyTangents(clip, { target: PROP, channel: 'rx', frame: 10 })).toEqual({ kind: 'none', reason: 'rotation' });
    expect(keyTangents(clip, { target: PROP, channel: 'ty', frame: 10 })).toEqual({ kind: 'none', reason: 'not-cubic' });
    expect(keyTangents(clip, { target: PROP, channel: 'sy', frame: 10 })).toEqual({ kind: 'none', reason: 'no-key' });
    expect(keyTangents(clip, { target: PROP, channel: 'ty', frame: 11 })).toEqual({ kind: 'none', reason: 'no-key' });
    const next = produce(clip, (c) => {
      expect(setKeyTangentSlope(c, { target: PROP, channel: 'rx', frame: 10 }, 'out', 1, true)).toBe(false);
      expect(setKeyTangentSlope(c, { target: PROP, channel: 'ty', frame: 10 }, 'out', 1, true)).toBe(false);
      expect(setKeyTangentSlope(c, { target: PROP, channel: 'ty', frame: 11 }, 'in', 1, false)).toBe(false);
    });
    expect(next).toBe(clip);
  });
});

describe('normalized view', () => {
  it('seed 51: every curve’s lowest and highest sample in the clip’s range are drawn at −1 and +1 (all in between), a flat curve at 0; a drag of d shown units moves a key by d × its curve’s scale', () => {
    const r = rng(51);
    for (let trial = 0; trial < 30; trial++) {
      const interpolation = (['linear', 'cubic', 'step'] as const)[trial % 3];
      const clip = clipOf([frameTrack(r, 'translation', interpolation), frameTrack(r, 'rotation', interpolation)]);
      clip.startFrame = Math.floor(r() * 10);
      clip.endFrame = clip.startFrame + 10 + Math.floor(r() * 40);
      const curves = sample(clip);
      const norm = normalizeCurves(curves, FPS, clip.startFrame, clip.endFrame);
      const n = curves.times.length;
      CURVE_CHANNELS.forEach((ch, c) => {
        let lo = Infinity, hi = -Infinity, inRange = 0;
        for (let i = 0; i < n; i++) {
          const f = curves.times[i] * FPS;
          if (f < clip.startFrame - 1e-9 || f > clip.endFrame + 1e-9) continue;
          inRange++;
          const shown = (curves.values[c * n + i] - norm.offset[c]) / norm.scale[c];
          lo = Math.min(lo, shown);
          hi = Math.max(hi, shown);
        }
        expect(inRange).toBeGreaterThan(0);
        if (ch.path === 'scale') {
          // unkeyed: flat at its rest value, drawn at 0
          expect(norm.scale[c], `${ch.id} flat: scale 1`).toBe(1);
          expect(lo).toBe(0);
          expect(hi).toBe(0);
          return;
        }
        if (hi - lo === 0) return; // a step curve may hold one value over a short range
        expect(lo, `${ch.id} trial ${trial}: lowest at −1`).toBeCloseTo(-1, 12);
        expect(hi, `${ch.id} trial ${trial}: highest at +1`).toBeCloseTo(1, 12);
      });
      // a value drag in the normalized view: the key moves by delta × scale in its own units
      const tr = clip.tracks[0];
      const i = Math.floor(r() * tr.times.length);
      const frame = Math.round(tr.times[i] * FPS);
      const key = curves.keys.translation.find((k) => k.frame === frame)!;
      const c = CURVE_CHANNELS.findIndex((x) => x.id === 'ty');
      const start = curveValue(curves, 'ty', key.sample);
      const delta = r() - 0.5;
      const after = produce(clip, (d) => applyValueDrag(d, [{ ref: { target: PROP, channel: 'ty', frame }, start, scale: norm.scale[c] }], delta));
      const base = interpolation === 'cubic' ? (3 * i + 1) * 3 : 3 * i;
      expect(after.tracks[0].values[base + 1]).toBeCloseTo(start + delta * norm.scale[c], 12);
      expect(Array.from(after.tracks[0].values).filter((_, k) => k !== base + 1)).toEqual(Array.from(tr.values).filter((_, k) => k !== base + 1));
    }
  });
});

describe('broken tangents', () => {
  it('are read from the slopes: a Shift drag (one side) breaks a smooth key, an aligned drag or the Auto / Flat presets join it; first and last keys are never broken', () => {
    const r = rng(61);
    for (let trial = 0; trial < 20; trial++) {
      const clip = clipOf([frameTrack(r, 'translation', 'cubic', 5)]);
      const tr = clip.tracks[0];
      const frames = tr.times.map((t) => Math.round(t * FPS));
      const mid: CurveKeyRef = { target: PROP, channel: 'ty', frame: frames[2] };
      setKeyTangentSlope(clip, mid, 'out', 0.5, true);
      expect(tangentsBroken(keyTangents(clip, mid)), 'aligned: in = out').toBe(false);
      setKeyTangentSlope(clip, mid, 'in', -1 - r(), false);
      expect(tangentsBroken(keyTangents(clip, mid)), 'one side set: broken').toBe(true);
      setKeyTangentSlope(clip, mid, 'out', 2, true);
      expect(tangentsBroken(keyTangents(clip, mid))).toBe(false);
      const first: CurveKeyRef = { ...mid, frame: frames[0] }, last: CurveKeyRef = { ...mid, frame: frames[frames.length - 1] };
      setKeyTangentSlope(clip, first, 'in', 7, false);
      setKeyTangentSlope(clip, last, 'out', -7, false);
      expect(tangentsBroken(keyTangents(clip, first)), 'the first key has no in-handle').toBe(false);
      expect(tangentsBroken(keyTangents(clip, last)), 'the last key has no out-handle').toBe(false);
    }
    expect(tangentsBroken({ kind: 'none', reason: 'rotation' })).toBe(false);
  });
});
