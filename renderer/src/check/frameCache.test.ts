/**
 * Cache invalidation by edited key ranges, checked against the definition:
 * a frame must be rechecked exactly when the pose at it or at the frame
 * before it changed. The reference evaluates both documents at every frame
 * with core's SceneEvaluator (seeded random edits of the tracks' keys).
 */
import { describe, expect, it } from 'vitest';
import { produce } from 'immer';
import { SceneEvaluator } from '../../../core/anim';
import { sampleDocument, mulberry32 } from '../../../core/document/fixtures';
import type { ImpulseDocument, Track } from '../../../core/document/types';
import { FrameCache, changedInterval, dirtyFrames, mergeRanges } from './frameCache';

/** Frames whose pose (any character joint or prop) differs between the documents. */
function changedPoseFrames(a: ImpulseDocument, b: ImpulseDocument, clipId: string): Set<number> {
  const ea = new SceneEvaluator(a, clipId), eb = new SceneEvaluator(b, clipId);
  const clip = b.clips.find((c) => c.id === clipId)!;
  const out = new Set<number>();
  const pa = new Float64Array(10 * 64), pb = new Float64Array(10 * 64);
  for (let f = clip.startFrame; f <= clip.endFrame; f++) {
    const t = f / clip.frameRate;
    let differ = false;
    for (let ci = 0; ci < b.characters.length && !differ; ci++) {
      ea.characterLocalPose(ci, t, pa);
      eb.characterLocalPose(ci, t, pb);
      const n = b.characters[ci].skeleton.joints.length * 10;
      for (let k = 0; k < n; k++) if (Math.abs(pa[k] - pb[k]) > 1e-12) differ = true;
    }
    for (let pi = 0; pi < b.props.length && !differ; pi++) {
      ea.propTransform(pi, t, pa);
      eb.propTransform(pi, t, pb);
      for (let k = 0; k < 10; k++) if (Math.abs(pa[k] - pb[k]) > 1e-12) differ = true;
    }
    if (differ) out.add(f);
  }
  return out;
}

function expand(r: 'all' | [number, number][], start: number, end: number): Set<number> {
  const out = new Set<number>();
  if (r === 'all') for (let f = start; f <= end; f++) out.add(f);
  else for (const [a, b] of r) for (let f = a; f <= b; f++) out.add(f);
  return out;
}

/** A document with dense keys (every 3 frames) on a few channels, so edits have small influence ranges. */
function denseDocument(seed: number): ImpulseDocument {
  const r = mulberry32(seed);
  return produce(sampleDocument(), (d) => {
    const clip = d.clips[0];
    clip.endFrame = 60;
    for (const t of clip.tracks) {
      const stride = (t.path === 'rotation' ? 4 : 3) * (t.interpolation === 'cubic' ? 3 : 1);
      const times: number[] = [];
      const values: number[] = [];
      for (let f = 0; f <= 60; f += 3) {
        times.push(f / 30);
        for (let k = 0; k < stride; k++) values.push(t.path === 'rotation' && k % 4 === 3 ? 1 : (r() - 0.5) * 0.4);
      }
      t.times = times;
      t.values = values;
    }
  });
}

function editKey(doc: ImpulseDocument, r: () => number): ImpulseDocument {
  return produce(doc, (d) => {
    const clip = d.clips[0];
    const t = clip.tracks[Math.floor(r() * clip.tracks.length)] as Track;
    const stride = (t.path === 'rotation' ? 4 : 3) * (t.interpolation === 'cubic' ? 3 : 1);
    const kind = r();
    const i = Math.floor(r() * t.times.length);
    if (kind < 0.6) t.values[i * stride + Math.floor(r() * stride)] += 0.05 + r() * 0.1;
    else if (kind < 0.8 && t.times.length > 2) {
      t.times.splice(i, 1);
      t.values.splice(i * stride, stride);
    } else {
      // Insert a key halfway to the next one.
      if (i + 1 >= t.times.length) return;
      t.times.splice(i + 1, 0, (t.times[i] + t.times[i + 1]) / 2);
      const v: number[] = [];
      for (let k = 0; k < stride; k++) v.push(t.values[i * stride + k] + 0.07);
      t.values.splice((i + 1) * stride, 0, ...v);
    }
  });
}

describe('dirty frames after key edits', () => {
  for (const seed of [11, 12, 13, 14, 15, 16]) {
    it(`covers every frame whose pose or incoming motion changed, and little more (seed ${seed})`, () => {
      const r = mulberry32(seed);
      let doc = denseDocument(seed);
      for (let step = 0; step < 8; step++) {
        const next = editKey(doc, r);
        const dirty = dirtyFrames(doc, next, 'swing');
        const got = expand(dirty, 0, 60);
        const pose = changedPoseFrames(doc, next, 'swing');
        // Required: frames with a new pose, and the frame after each (continuous check of the motion into it).
        const required = new Set<number>();
        for (const f of pose) {
          required.add(f);
          if (f + 1 <= 60) required.add(f + 1);
        }
        for (const f of required) expect(got.has(f), `frame ${f} changed (seed ${seed} step ${step}) but is not rechecked`).toBe(true);
        // Not everything: a single key edit influences at most the two segments around it (7 frames at keys every 3).
        if (dirty !== 'all') expect(got.size, `edit ${step} rechecks ${got.size} frames`).toBeLessThanOrEqual(required.size + 8);
        doc = next;
      }
    });
  }

  it('one key edit in the middle rechecks only the segments next to it', () => {
    const doc = denseDocument(3);
    const next = produce(doc, (d) => {
      const t = d.clips[0].tracks.find((x) => x.target.kind === 'prop' && x.path === 'translation')!;
      t.values[10 * 3] += 0.2; // key 10 at frame 30
    });
    expect(dirtyFrames(doc, next, 'swing')).toEqual([[28, 33]]);
  });

  it('changes that cannot move anything recheck nothing; structural ones recheck everything', () => {
    const doc = sampleDocument();
    expect(dirtyFrames(doc, produce(doc, (d) => void (d.check.ignore = [])), 'swing')).toEqual([]);
    expect(dirtyFrames(doc, produce(doc, (d) => void (d.props[0].physics.restitution = 0.9)), 'swing')).toEqual([]);
    expect(dirtyFrames(doc, produce(doc, (d) => void (d.props[0].transform.translation[0] += 1)), 'swing')).toBe('all');
    expect(dirtyFrames(doc, produce(doc, (d) => void (d.props[0].collision.enabled = false)), 'swing')).toBe('all');
    expect(dirtyFrames(doc, produce(doc, (d) => void (d.characters[0].transform.translation[1] = 2)), 'swing')).toBe('all');
    // A new track (a first key on a channel) moves that channel at every time.
    expect(
      dirtyFrames(
        doc,
        produce(doc, (d) => void d.clips[0].tracks.push({ target: { kind: 'prop', prop: 'crate' }, path: 'scale', interpolation: 'linear', times: [0.5], values: [2, 2, 2] })),
        'swing',
      ),
    ).toBe('all');
    expect(dirtyFrames(doc, produce(doc, (d) => void (d.clips[0].tracks[0].interpolation = 'step')), 'swing')).toBe('all');
  });

  it('changedInterval: first/last key edits open the interval to infinity', () => {
    const base: Track = { target: { kind: 'prop', prop: 'p' }, path: 'translation', interpolation: 'linear', times: [0, 1, 2, 3], values: [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3] };
    const withValue = (i: number): Track => ({ ...base, values: base.values.map((v, k) => (Math.floor(k / 3) === i ? v + 1 : v)) });
    expect(changedInterval(base, base)).toBeNull();
    expect(changedInterval(base, withValue(0))).toEqual([-Infinity, 1]);
    expect(changedInterval(base, withValue(3))).toEqual([2, Infinity]);
    expect(changedInterval(base, withValue(1))).toEqual([0, 2]);
    expect(changedInterval(base, { ...base, times: [0, 1.5, 2, 3] })).toEqual([0, 2]);
  });

  it('mergeRanges joins touching and overlapping ranges', () => {
    expect(mergeRanges([[5, 7], [1, 2], [3, 4], [9, 9], [6, 8], [11, 12]])).toEqual([[1, 9], [11, 12]]);
  });
});

describe('FrameCache', () => {
  it('keeps frames outside the edited keys, drops those inside, and reports what is missing', () => {
    const doc = denseDocument(5);
    const cache = new FrameCache();
    cache.update(doc, 'swing');
    const all = [];
    for (let f = 0; f <= 60; f++) all.push({ frame: f, contacts: [] });
    expect(cache.store(doc, all)).toBe(true);
    expect(cache.missing(0, 60)).toEqual([]);
    const next = produce(doc, (d) => {
      const t = d.clips[0].tracks.find((x) => x.target.kind === 'prop' && x.path === 'translation')!;
      t.values[10 * 3 + 1] -= 0.3;
    });
    expect(cache.update(next, 'swing')).toBe(6);
    expect(cache.missing(0, 60)).toEqual([[28, 33]]);
    // Results computed for the old document are not stored into the new state.
    expect(cache.store(doc, [{ frame: 30, contacts: [] }])).toBe(false);
    expect(cache.has(30)).toBe(false);
    // Undo: back to the first document, only the same frames again.
    expect(cache.update(doc, 'swing')).toBe(0);
    expect(cache.missing(0, 60)).toEqual([[28, 33]]);
    // Another clip: nothing carries over.
    cache.update(doc, 'other');
    expect(cache.size).toBe(0);
  });

  it('drops frames that fall outside a shortened clip', () => {
    const doc = denseDocument(6);
    const cache = new FrameCache();
    cache.update(doc, 'swing');
    cache.store(doc, Array.from({ length: 61 }, (_, f) => ({ frame: f, contacts: [] })));
    const shorter = produce(doc, (d) => void (d.clips[0].endFrame = 40));
    cache.update(shorter, 'swing');
    expect(cache.size).toBe(41);
    expect(cache.missing(0, 40)).toEqual([]);
  });
});
