import { describe, expect, it } from 'vitest';
import type { Clip, Interpolation, TrackPath, TrackTarget } from '../../../core/document/types';
import { mulberry32 } from '../test/random';
import {
  allKeyFrames,
  deleteKeys,
  findTrack,
  keyDrawFrames,
  keyFramesOf,
  keyValue,
  moveKeys,
  nextKeyFrame,
  pathStride,
  previousKeyFrame,
  setInterpolation,
  setKey,
  setKeyTangents,
} from './keys';
import { TrackSampler } from '../../../core/anim';

const emptyClip = (frameRate = 24): Clip => ({ id: 'c', name: 'clip', frameRate, startFrame: 0, endFrame: 48, tracks: [] });

type Model = Map<TrackPath, Map<number, number[]>>;

function checkAgainstModel(clip: Clip, target: TrackTarget, model: Model, interpolation: Interpolation, label: string) {
  for (const path of ['translation', 'rotation', 'scale'] as TrackPath[]) {
    const keys = model.get(path);
    const track = findTrack(clip, target, path);
    if (!keys || keys.size === 0) {
      expect(track, `${label}: ${path} track should be gone`).toBeUndefined();
      continue;
    }
    expect(track, `${label}: ${path} track exists`).toBeDefined();
    const t = track!;
    const frames = [...keys.keys()].sort((a, b) => a - b);
    expect(t.times.map((x) => Math.round(x * clip.frameRate)), `${label}: ${path} frames`).toEqual(frames);
    for (let i = 1; i < t.times.length; i++) expect(t.times[i], `${label}: times strictly increase`).toBeGreaterThan(t.times[i - 1]);
    for (const x of t.times) expect(x * clip.frameRate, `${label}: keys sit on whole frames`).toBeCloseTo(Math.round(x * clip.frameRate), 9);
    const group = pathStride(path) * (t.interpolation === 'cubic' ? 3 : 1);
    expect(t.values.length, `${label}: ${path} value count`).toBe(t.times.length * group);
    expect(t.interpolation).toBe(interpolation);
    frames.forEach((f, i) => {
      const want = keys.get(f)!;
      const got = keyValue(t, i);
      // Quaternions may be stored with either sign (same rotation).
      const sign = path === 'rotation' && got[0] * want[0] + got[1] * want[1] + got[2] * want[2] + got[3] * want[3] < 0 ? -1 : 1;
      got.forEach((x, k) => expect(sign * x, `${label}: ${path} value at frame ${f}[${k}]`).toBeCloseTo(want[k], 12));
    });
  }
}

describe('keyframe editing', () => {
  for (const interpolation of ['linear', 'step', 'cubic'] as Interpolation[]) {
    it(`set/delete/move keys agree with a map of frame to value (${interpolation}, seed 2024)`, () => {
      const rand = mulberry32(2024);
      const clip = emptyClip();
      const target: TrackTarget = { kind: 'joint', character: 'ch', joint: 3 };
      const other: TrackTarget = { kind: 'prop', prop: 'ball' };
      const model: Model = new Map();
      for (let n = 0; n < 400; n++) {
        const r = rand();
        const path = (['translation', 'rotation', 'scale'] as TrackPath[])[Math.floor(rand() * 3)];
        if (r < 0.5) {
          const frame = Math.floor(rand() * 40);
          const v = Array.from({ length: pathStride(path) }, () => rand() * 2 - 1);
          setKey(clip, target, path, frame, v, interpolation);
          setKey(clip, other, path, frame, v, interpolation);
          if (!model.has(path)) model.set(path, new Map());
          model.get(path)!.set(frame, v);
        } else if (r < 0.7) {
          const frames = keyFramesOf(clip, target).filter(() => rand() < 0.3);
          deleteKeys(clip, target, frames);
          for (const keys of model.values()) for (const f of frames) keys.delete(f);
        } else {
          const frames = keyFramesOf(clip, target).filter(() => rand() < 0.4);
          const delta = Math.floor(rand() * 11) - 5;
          moveKeys(clip, target, frames, delta);
          const moving = new Set(frames);
          for (const [p, keys] of model) {
            const next = new Map<number, number[]>();
            for (const [f, v] of keys) if (!moving.has(f)) next.set(f, v);
            for (const [f, v] of keys) if (moving.has(f)) next.set(f + delta, v);
            model.set(p, next);
          }
        }
        checkAgainstModel(clip, target, model, interpolation, `step ${n}`);
      }
      // The other target's tracks were never moved or deleted by edits of `target`.
      for (const t of clip.tracks) if (t.target.kind === 'prop') expect(t.times.length).toBeGreaterThan(0);
    });
  }

  it('setKey on an existing frame replaces the value and keeps one key', () => {
    const clip = emptyClip(30);
    const target: TrackTarget = { kind: 'prop', prop: 'p' };
    setKey(clip, target, 'translation', 10, [1, 2, 3]);
    setKey(clip, target, 'translation', 10, [4, 5, 6]);
    const t = findTrack(clip, target, 'translation')!;
    expect(t.times).toEqual([10 / 30]);
    expect(t.values).toEqual([4, 5, 6]);
    expect(() => setKey(clip, target, 'rotation', 0, [0, 0, 1])).toThrow(/expected 4 numbers/);
  });

  // Keys between frames, as an accepted suggestion leaves them (the sample ball's translation after
  // suggesting frames 26-34: impacts at 29.542, 30.759, 30.773, 31.842, 31.858).
  const SUB_FRAMES = [26, 29.542, 30, 30.759, 30.773, 31.842, 31.858, 32, 33, 34];
  function subFrameTrack(): Clip {
    const clip = emptyClip(30);
    clip.tracks.push({
      target: { kind: 'prop', prop: 'ball' },
      path: 'translation',
      interpolation: 'linear',
      times: SUB_FRAMES.map((f) => f / 30),
      values: SUB_FRAMES.flatMap((f, i) => [f, i, -f]),
    });
    return clip;
  }
  const ball: TrackTarget = { kind: 'prop', prop: 'ball' };
  const strictlyIncreasing = (times: number[]) => times.every((x, i) => i === 0 || x > times[i - 1]);

  it('setKey on a frame beside a key between frames keeps that key and its time (times stay strictly increasing)', () => {
    const clip = subFrameTrack();
    const t = findTrack(clip, ball, 'translation')!;
    setKey(clip, ball, 'translation', 30, [7, 7, 7]);
    expect(strictlyIncreasing(t.times), `times strictly increase: ${t.times.map((x) => x * 30)}`).toBe(true);
    expect(t.times.length, 'the key on frame 30 was replaced, none added').toBe(SUB_FRAMES.length);
    expect(t.times[1], 'the impact key at 29.542 kept its time').toBe(29.542 / 30);
    expect(keyValue(t, 1), 'and its value').toEqual([29.542, 1, -29.542]);
    expect(keyValue(t, 2), 'frame 30 holds the new value').toEqual([7, 7, 7]);
    // Frame 31 has only keys between frames (30.759, 30.773): a key goes beside them, exactly on 31.
    setKey(clip, ball, 'translation', 31, [8, 8, 8]);
    expect(strictlyIncreasing(t.times), `times strictly increase: ${t.times.map((x) => x * 30)}`).toBe(true);
    expect(t.times.map((x) => +(x * 30).toFixed(6))).toEqual([26, 29.542, 30, 30.759, 30.773, 31, 31.842, 31.858, 32, 33, 34]);
    expect(keyValue(t, 5)).toEqual([8, 8, 8]);
  });

  it('moving keys changes only the moved keys: keys between frames keep their offsets, unmoved keys their exact times', () => {
    // Move frame 33 by +2 (onto 35, free): every other key is bit-identical.
    let clip = subFrameTrack();
    moveKeys(clip, ball, [33], 2);
    let t = findTrack(clip, ball, 'translation')!;
    expect(t.times.map((x) => +(x * 30).toFixed(6)), 'no key dropped or snapped').toEqual([26, 29.542, 30, 30.759, 30.773, 31.842, 31.858, 32, 34, 35]);
    SUB_FRAMES.forEach((f, i) => {
      if (f === 33) return;
      const j = t.times.indexOf(f / 30);
      expect(j, `frame ${f} kept its exact time`).toBeGreaterThanOrEqual(0);
      expect(keyValue(t, j), `frame ${f} kept its value`).toEqual([f, i, -f]);
    });
    // Frame 31 holds two keys between frames: both move by 2 and keep their offsets.
    clip = subFrameTrack();
    moveKeys(clip, ball, [31], 2);
    t = findTrack(clip, ball, 'translation')!;
    expect(t.times.map((x) => +(x * 30).toFixed(6))).toEqual([26, 29.542, 30, 31.842, 31.858, 32, 32.759, 32.773, 33, 34]);
    expect(strictlyIncreasing(t.times)).toBe(true);
    // Frame 32 (31.842, 31.858 and 32) onto 33: the key on 32 replaces the one on 33, the others move beside it.
    clip = subFrameTrack();
    moveKeys(clip, ball, [32], 1);
    t = findTrack(clip, ball, 'translation')!;
    expect(t.times.map((x) => +(x * 30).toFixed(6))).toEqual([26, 29.542, 30, 30.759, 30.773, 32.842, 32.858, 33, 34]);
    expect(keyValue(t, 7), 'the moved key won on frame 33').toEqual([32, 7, -32]);
    expect(t.values.length).toBe(t.times.length * 3);
  });

  it('rotation keys are stored in the hemisphere of the previous key', () => {
    const clip = emptyClip();
    const target: TrackTarget = { kind: 'prop', prop: 'p' };
    setKey(clip, target, 'rotation', 0, [0, 0, 0, 1]);
    setKey(clip, target, 'rotation', 5, [0, 0, -0.1, -0.995]);
    const t = findTrack(clip, target, 'rotation')!;
    expect(t.values[7], 'w of the second key flipped positive').toBeGreaterThan(0);
  });

  it('interpolation changes keep the key values; cubic tangents are the Catmull-Rom slopes', () => {
    const clip = emptyClip(10);
    const target: TrackTarget = { kind: 'prop', prop: 'p' };
    setKey(clip, target, 'translation', 0, [0, 0, 0]);
    setKey(clip, target, 'translation', 10, [1, 2, 0]);
    setKey(clip, target, 'translation', 20, [3, 2, 0]);
    setInterpolation(clip, target, 'cubic');
    const t = findTrack(clip, target, 'translation')!;
    expect(t.values.length).toBe(27);
    expect(keyValue(t, 1)).toEqual([1, 2, 0]);
    // Middle key: (v2 - v0) / (t2 - t0) = (3, 2, 0) / 2 s.
    expect(t.values.slice(9, 12)).toEqual([1.5, 1, 0]);
    expect(t.values.slice(15, 18)).toEqual([1.5, 1, 0]);
    setInterpolation(clip, target, 'step');
    expect(t.values).toEqual([0, 0, 0, 1, 2, 0, 3, 2, 0]);
    expect(t.interpolation).toBe('step');
  });

  it('previous and next key skip to the neighbouring key frames', () => {
    const clip = emptyClip();
    setKey(clip, { kind: 'prop', prop: 'a' }, 'translation', 4, [0, 0, 0]);
    setKey(clip, { kind: 'prop', prop: 'b' }, 'translation', 12, [0, 0, 0]);
    setKey(clip, { kind: 'prop', prop: 'b' }, 'rotation', 12, [0, 0, 0, 1]);
    const frames = allKeyFrames(clip);
    expect(frames).toEqual([4, 12]);
    expect(nextKeyFrame(frames, 0)).toBe(4);
    expect(nextKeyFrame(frames, 4)).toBe(12);
    expect(nextKeyFrame(frames, 12)).toBeUndefined();
    expect(previousKeyFrame(frames, 12)).toBe(4);
    expect(previousKeyFrame(frames, 4)).toBeUndefined();
  });

  describe('key tangents', () => {
    const target: TrackTarget = { kind: 'prop', prop: 'p' };
    /** A clip with one channel of `keys` random keys at random distinct frames (seeded). */
    function randomChannel(seed: number, path: TrackPath, interpolation: Interpolation, keys = 7): Clip {
      const r = mulberry32(seed);
      const clip = emptyClip(24);
      const frames = new Set<number>();
      while (frames.size < keys) frames.add(Math.floor(r() * 48));
      for (const f of [...frames].sort((a, b) => a - b)) {
        const v = path === 'rotation' ? [r() - 0.5, r() - 0.5, r() - 0.5, 1] : [4 * r() - 2, 4 * r() - 2, 4 * r() - 2];
        if (path === 'rotation') { const l = Math.hypot(...v); for (let k = 0; k < 4; k++) v[k] /= l; }
        setKey(clip, target, path, f, v, interpolation);
      }
      return clip;
    }
    const sample = (clip: Clip, path: TrackPath, time: number) => new TrackSampler(structuredClone(findTrack(clip, target, path)!)).valueAt(time, [] as number[]);
    const slope = (clip: Clip, path: TrackPath, time: number) => new TrackSampler(structuredClone(findTrack(clip, target, path)!)).derivativeAt(time, [] as number[]);
    const times = (n: number) => Array.from({ length: n + 1 }, (_, i) => (48 * i) / n / 24);

    it('linear tangents on a linear channel make it cubic without changing the curve (translation, scale; seeded)', () => {
      for (let seed = 1; seed <= 20; seed++) {
        for (const path of ['translation', 'scale'] as TrackPath[]) {
          const before = randomChannel(seed, path, 'linear');
          const after = structuredClone(before);
          const frames = keyFramesOf(after, target);
          expect(setKeyTangents(after, target, [frames[2]], 'linear')).toBe(1);
          expect(findTrack(after, target, path)!.interpolation).toBe('cubic');
          for (const t of times(480)) {
            const a = sample(before, path, t), b = sample(after, path, t);
            for (let k = 0; k < 3; k++) expect(Math.abs(a[k] - b[k]), `seed ${seed} ${path} at ${t} s`).toBeLessThan(1e-12);
          }
        }
      }
    });

    it('a linear rotation channel made cubic keeps its keys and its segment midpoints (normalised lerp meets slerp there)', () => {
      for (let seed = 1; seed <= 20; seed++) {
        const before = randomChannel(seed, 'rotation', 'linear');
        const after = structuredClone(before);
        const frames = keyFramesOf(after, target);
        setKeyTangents(after, target, [frames[0]], 'linear');
        const tr = findTrack(before, target, 'rotation')!;
        const at = [...tr.times, ...tr.times.slice(1).map((t, i) => 0.5 * (t + tr.times[i]))];
        for (const t of at) {
          const a = sample(before, 'rotation', t), b = sample(after, 'rotation', t);
          const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
          expect(1 - dot, `seed ${seed} at ${t} s`).toBeLessThan(1e-12);
        }
      }
    });

    it('flat tangents stop the channel at the chosen keys, keep every key value and leave segments away from them unchanged', () => {
      for (let seed = 1; seed <= 20; seed++) {
        for (const path of ['translation', 'rotation'] as TrackPath[]) {
          const before = randomChannel(seed, path, 'cubic');
          const after = structuredClone(before);
          const frames = keyFramesOf(after, target);
          const chosen = frames[3];
          expect(setKeyTangents(after, target, [chosen], 'flat')).toBe(1);
          const tr = findTrack(after, target, path)!;
          const i = tr.times.findIndex((t) => Math.round(t * 24) === chosen);
          for (const side of [-1e-12, 0, 1e-12]) for (const d of slope(after, path, tr.times[i] + side)) expect(Math.abs(d), `seed ${seed} ${path}`).toBeLessThan(1e-6);
          for (let k = 0; k < tr.times.length; k++) expect(keyValue(tr, k)).toEqual(keyValue(findTrack(before, target, path)!, k));
          // segments that do not touch the chosen key are the same curve
          for (const t of times(480)) {
            if (t >= tr.times[i - 1] && t <= tr.times[i + 1]) continue;
            const a = sample(before, path, t), b = sample(after, path, t);
            for (let k = 0; k < a.length; k++) expect(a[k]).toBe(b[k]);
          }
        }
      }
    });

    it('unify joins broken keys: the curve is smooth through the key with the mean of the two old slopes; key values, other keys and already smooth keys unchanged (seeded)', () => {
      for (let seed = 1; seed <= 20; seed++) {
        for (const path of ['translation', 'rotation', 'scale'] as TrackPath[]) {
          const before = randomChannel(seed, path, 'cubic');
          const tr0 = findTrack(before, target, path)!;
          const n = pathStride(path), count = tr0.times.length;
          // break every key: random in and out slopes
          const r = mulberry32(1000 + seed);
          for (let i = 0; i < count; i++) for (let k = 0; k < n; k++) {
            tr0.values[3 * i * n + k] = 6 * r() - 3;
            tr0.values[(3 * i + 2) * n + k] = 6 * r() - 3;
          }
          const frames = keyFramesOf(before, target);
          const chosen = [0, 3, count - 1];
          const after = structuredClone(before);
          expect(setKeyTangents(after, target, chosen.map((i) => frames[i]), 'unify')).toBe(3);
          const tr = findTrack(after, target, path)!;
          for (let i = 0; i < count; i++) {
            expect(keyValue(tr, i), `seed ${seed} ${path}: key ${i}'s value`).toEqual(keyValue(tr0, i));
            for (let k = 0; k < n; k++) {
              const inOld = tr0.values[3 * i * n + k], outOld = tr0.values[(3 * i + 2) * n + k];
              const inNew = tr.values[3 * i * n + k], outNew = tr.values[(3 * i + 2) * n + k];
              if (!chosen.includes(i)) {
                expect([inNew, outNew], `seed ${seed} ${path}: key ${i} not chosen`).toEqual([inOld, outOld]);
                continue;
              }
              expect(inNew, `seed ${seed} ${path}: key ${i} joined`).toBe(outNew);
              // end keys keep the side that shapes their segment; a middle key turns by the least: the mean
              const want = i === 0 ? outOld : i === count - 1 ? inOld : 0.5 * (inOld + outOld);
              expect(Math.abs(outNew - want)).toBeLessThan(1e-15 * Math.max(1, Math.abs(want)));
            }
          }
          // the middle key: the curve's slope just before and just after it agree (C¹), in the sampler's units
          const t3 = tr.times[3];
          const dl = slope(after, path, t3 - 1e-12), dr = slope(after, path, t3 + 1e-12);
          for (let k = 0; k < n; k++) expect(Math.abs(dl[k] - dr[k]), `seed ${seed} ${path}: C¹ at key 3`).toBeLessThan(1e-5 * Math.max(1, Math.abs(dr[k])));
          // the end keys' segments are the same curve (their outer tangents shape nothing)
          for (const t of times(480)) {
            if (t > tr.times[0] && t < tr.times[count - 1]) continue;
            const a = sample(before, path, t), b = sample(after, path, t);
            for (let k = 0; k < a.length; k++) expect(a[k]).toBe(b[k]);
          }
          // a smooth key does not change
          const again = structuredClone(after);
          setKeyTangents(again, target, chosen.map((i) => frames[i]), 'unify');
          expect(findTrack(again, target, path)!.values).toEqual(tr.values);
        }
      }
    });

    it('auto tangents are the Catmull-Rom slopes; a stepped channel becomes cubic with them', () => {
      const clip = emptyClip(10);
      setKey(clip, target, 'translation', 0, [0, 0, 0], 'step');
      setKey(clip, target, 'translation', 10, [1, 2, 0], 'step');
      setKey(clip, target, 'translation', 20, [3, 2, 0], 'step');
      setKeyTangents(clip, target, [10], 'flat');
      const t = findTrack(clip, target, 'translation')!;
      expect(t.interpolation).toBe('cubic');
      expect(t.values.slice(9, 12)).toEqual([0, 0, 0]);
      expect(t.values.slice(15, 18)).toEqual([0, 0, 0]);
      setKeyTangents(clip, target, [10], 'auto');
      expect(t.values.slice(9, 12)).toEqual([1.5, 1, 0]);
      expect(t.values.slice(15, 18)).toEqual([1.5, 1, 0]);
      // end keys: linear tangents are the one segment's slope on both sides
      setKeyTangents(clip, target, [0, 20], 'linear');
      expect(t.values.slice(0, 3)).toEqual([1, 2, 0]);
      expect(t.values.slice(6, 9)).toEqual([1, 2, 0]);
      expect(t.values.slice(18, 21)).toEqual([2, 0, 0]);
      expect(t.values.slice(24, 27)).toEqual([2, 0, 0]);
      expect(setKeyTangents(clip, target, [5], 'flat'), 'no key on frame 5').toBe(0);
    });
  });
});

describe('keyDrawFrames', () => {
  const bat: TrackTarget = { kind: 'prop', prop: 'bat' };
  const ball: TrackTarget = { kind: 'prop', prop: 'ball' };
  const track = (target: TrackTarget, path: TrackPath, framesAt30: number[]) => ({
    target,
    path,
    interpolation: 'linear' as Interpolation,
    times: framesAt30.map((f) => f / 30),
    values: framesAt30.flatMap(() => (path === 'rotation' ? [0, 0, 0, 1] : [0, 0, 0])),
  });
  const clip: Clip = { ...emptyClip(30), tracks: [track(bat, 'translation', [0, 9.6, 20]), track(bat, 'rotation', [0, 9.6]), track(ball, 'translation', [10, 14.25])] };

  it('draws a key between frames at its exact frame, keyed by the frame it rounds to', () => {
    const m = keyDrawFrames(clip, [bat]);
    expect([...m.keys()].sort((a, b) => a - b), 'picked on the rounded frames keyFramesOf gives').toEqual(keyFramesOf(clip, bat));
    expect(m.get(10), 'the key at 9.6 (both channels) is drawn at 9.6, not on 10').toBeCloseTo(9.6, 9);
    expect(m.get(0)).toBe(0);
    expect(m.get(20)).toBeCloseTo(20, 9);
  });

  it('draws the whole frame where keys of one row round to it from different times', () => {
    const m = keyDrawFrames(clip, [bat, ball]);
    expect(m.get(10), 'ball on 10 and bat on 9.6 share the summary diamond on 10').toBe(10);
    expect(m.get(14)).toBeCloseTo(14.25, 9);
  });
});
