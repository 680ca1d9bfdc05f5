import { describe, expect, it } from 'vitest';
import type { Clip, Interpolation, TrackPath, TrackTarget } from '../../../core/document/types';
import { mulberry32 } from '../test/random';
import {
  allKeyFrames,
  deleteKeys,
  findTrack,
  keyFramesOf,
  keyValue,
  moveKeys,
  nextKeyFrame,
  pathStride,
  previousKeyFrame,
  setInterpolation,
  setKey,
} from './keys';

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
});
