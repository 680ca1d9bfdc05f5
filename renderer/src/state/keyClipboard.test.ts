import { beforeEach, describe, expect, it } from 'vitest';
import type { Character, Clip, ImpulseDocument, Interpolation, Track, TrackPath, TrackTarget } from '../../../core/document/types';
import { serializeDocument } from '../../../core/document/serialize';
import { TrackSampler } from '../../../core/anim';
import { docWithBall } from '../test/fixtures';
import { mulberry32, randomUnitQuat } from '../test/random';
import * as H from './history';
import { copyKeys, describeKeys, pasteKeys, pasteRange, targetExists } from './keyClipboard';
import { findTrack, keyFramesOf, keyValue, pathStride, setKey } from './keys';

const BALL: TrackTarget = { kind: 'prop', prop: 'ball' };
const ARM: TrackTarget = { kind: 'joint', character: 'rig', joint: 1 };

function rig(): Character {
  const rest = { translation: [0, 1, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], scale: [1, 1, 1] as [number, number, number] };
  return {
    id: 'rig',
    name: 'Rig',
    transform: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    skeleton: { joints: [0, 1, 2].map((j) => ({ name: `bone${j}`, parent: j - 1, rest })) },
    meshes: [],
    materials: [],
    collision: { enabled: true, groups: 1, mask: 1, selfCollision: false, adjacentHops: 2 },
    mode: 'keyframed',
  };
}

/** The ball (translation + rotation) and bone 1 of a rig keyed on frames 0..24 every 3 frames with seeded values; a second empty clip. */
function animatedDoc(seed: number, interpolation: Interpolation, fpsB = 30): ImpulseDocument {
  const d = docWithBall();
  d.characters.push(rig());
  const rnd = mulberry32(seed);
  const a: Clip = { id: 'clip_a', name: 'a', frameRate: 30, startFrame: 0, endFrame: 60, tracks: [] };
  const b: Clip = { id: 'clip_b', name: 'b', frameRate: fpsB, startFrame: 0, endFrame: 90, tracks: [] };
  for (let f = 0; f <= 24; f += 3) {
    setKey(a, BALL, 'translation', f, [rnd() - 0.5, rnd(), rnd() - 0.5], interpolation);
    setKey(a, BALL, 'rotation', f, randomUnitQuat(rnd), interpolation);
    setKey(a, ARM, 'rotation', f, randomUnitQuat(rnd), interpolation);
  }
  d.clips = [a, b];
  d.activeClip = 'clip_a';
  return d;
}

const sel = (target: TrackTarget, frames: number[]) => frames.map((frame) => ({ target, frame }));
const clipOf = (d: ImpulseDocument, id: string) => d.clips.find((c) => c.id === id)!;

function sample(track: Track, timeSec: number): number[] {
  const out = new Array<number>(pathStride(track.path)).fill(0);
  new TrackSampler(track).valueAt(timeSec, out as unknown as Float64Array);
  return out;
}

/** Same value; quaternions q and -q are the same rotation. */
function expectSameValue(path: TrackPath, got: number[], want: number[], label: string) {
  let sign = 1;
  if (path === 'rotation' && got.reduce((s, x, i) => s + x * want[i], 0) < 0) sign = -1;
  got.forEach((x, i) => expect(sign * x, `${label} [${i}]`).toBeCloseTo(want[i], 9));
}

describe('copyKeys', () => {
  it('copies every path of the selected targets on the selected frames, offsets from the first frame', () => {
    const d = animatedDoc(1, 'linear');
    const a = clipOf(d, 'clip_a');
    const cb = copyKeys(a, [...sel(BALL, [6, 9, 15]), ...sel(ARM, [9])])!;
    expect(cb.baseFrame).toBe(6);
    expect(cb.keyCount, '3 ball frames × 2 paths + 1 arm key').toBe(7);
    expect(cb.channels.map((c) => `${c.target.kind}.${c.path}:${c.keys.map((k) => k.offsetFrames)}`).sort()).toEqual([
      'joint.rotation:3',
      'prop.rotation:0,3,9',
      'prop.translation:0,3,9',
    ]);
    expect(describeKeys(cb.keyCount, cb.channels.length)).toBe('7 keys on 3 channels');
    expect(describeKeys(1, 1)).toBe('1 key on 1 channel');
  });

  it('a key picked on a curve copies only the track that curve draws; a diamond on the same frame copies every path', () => {
    const d = animatedDoc(4, 'cubic');
    const a = clipOf(d, 'clip_a');
    const picked = [{ target: BALL, frame: 6, channel: 'ty' }, { target: BALL, frame: 12, channel: 'rz' }, { target: BALL, frame: 12, channel: 'tx' }];
    const cb = copyKeys(a, picked)!;
    expect(cb.channels.map((c) => `${c.path}:${c.keys.map((k) => k.offsetFrames)}`).sort()).toEqual(['rotation:6', 'translation:0,6']);
    expect(cb.keyCount, 'the two curves of one track on frame 12 are one key').toBe(3);
    const tr = findTrack(a, BALL, 'translation')!;
    expect(cb.channels.find((c) => c.path === 'translation')!.keys[1].value).toEqual(keyValue(tr, 4));
    const mixed = copyKeys(a, [...picked, { target: BALL, frame: 6 }])!;
    expect(mixed.channels.map((c) => `${c.path}:${c.keys.map((k) => k.offsetFrames)}`).sort()).toEqual(['rotation:0,6', 'translation:0,6']);
  });

  it('returns null when no selected frame holds a key', () => {
    const d = animatedDoc(2, 'linear');
    expect(copyKeys(clipOf(d, 'clip_a'), sel(BALL, [4, 5]))).toBeNull();
    expect(copyKeys(clipOf(d, 'clip_a'), [])).toBeNull();
  });
});

describe('pasteKeys', () => {
  for (const interpolation of ['linear', 'cubic', 'step'] as Interpolation[]) {
    it(`keeps relative timing: the pasted curve is the copied one shifted (${interpolation}, seed 3)`, () => {
      const d = animatedDoc(3, interpolation);
      const a = clipOf(d, 'clip_a');
      const frames = [6, 9, 12, 15];
      const cb = copyKeys(a, [...sel(BALL, frames), ...sel(ARM, frames)])!;
      const b = clipOf(d, 'clip_b');
      const r = pasteKeys(d, b, cb, 40);
      expect(r.pasted).toBe(12);
      expect(r.channels).toBe(3);
      expect(r.createdTracks, 'clip b had no tracks').toBe(3);
      expect(keyFramesOf(b, BALL)).toEqual([40, 43, 46, 49]);
      expect(keyFramesOf(b, ARM)).toEqual([40, 43, 46, 49]);
      for (const src of a.tracks) {
        const dst = findTrack(b, src.target, src.path)!;
        expect(dst.interpolation, 'the new track takes the copied interpolation').toBe(interpolation);
        // Over the pasted span (all of it pasted, nothing else in b) the curve is the source curve 34 frames later.
        for (let f = 6; f <= 15; f += 0.25) expectSameValue(src.path, sample(dst, (f + 34) / 30), sample(src, f / 30), `${src.path} at source frame ${f}`);
      }
      expect(r.selection.length, 'the pasted keys become the key selection (4 frames × 2 targets)').toBe(8);
    });
  }

  it('into a clip at another frame rate: same frame spacing, cubic tangents rescaled so the curve keeps its shape (seed 4)', () => {
    const d = animatedDoc(4, 'cubic', 24);
    const a = clipOf(d, 'clip_a');
    const cb = copyKeys(a, sel(BALL, [3, 6, 9, 12]))!;
    const b = clipOf(d, 'clip_b');
    pasteKeys(d, b, cb, 20);
    expect(keyFramesOf(b, BALL), 'frames 3..12 land on 20..29 at 24 fps').toEqual([20, 23, 26, 29]);
    for (const src of a.tracks.filter((t) => t.target.kind === 'prop')) {
      const dst = findTrack(b, BALL, src.path)!;
      for (let f = 3; f <= 12; f += 0.5) expectSameValue(src.path, sample(dst, (f + 17) / 24), sample(src, f / 30), `${src.path} at source frame ${f}`);
    }
  });

  it('replaces keys at the same frames and keeps the others', () => {
    const d = animatedDoc(5, 'linear');
    const a = clipOf(d, 'clip_a');
    const cb = copyKeys(a, sel(BALL, [0, 3]))!;
    const want0 = keyValue(findTrack(a, BALL, 'translation')!, 0);
    const want3 = keyValue(findTrack(a, BALL, 'translation')!, 1);
    const kept = keyValue(findTrack(a, BALL, 'translation')!, 4);
    const r = pasteKeys(d, a, cb, 9);
    expect(r.createdTracks).toBe(0);
    const t = findTrack(a, BALL, 'translation')!;
    expect(keyFramesOf(a, BALL), 'no new frames: 9 and 12 were keyed').toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24]);
    expect(t.times.length).toBe(9);
    expect(keyValue(t, 3), 'frame 9 now holds frame 0').toEqual(want0);
    expect(keyValue(t, 4), 'frame 12 now holds frame 3').toEqual(want3);
    expect(keyValue(t, 4)).not.toEqual(kept);
    expect(keyValue(t, 0), 'frame 0 unchanged').toEqual(want0);
  });

  it('creates the track when the channel has none, and skips channels whose object is gone', () => {
    const d = animatedDoc(6, 'linear');
    const a = clipOf(d, 'clip_a');
    const cb = copyKeys(a, sel(ARM, [3, 6]))!;
    cb.channels.push({ ...cb.channels[0], target: { kind: 'prop', prop: 'gone' } });
    // Bone 2 has no track: paste bone 1's keys onto it.
    cb.channels[0] = { ...cb.channels[0], target: { kind: 'joint', character: 'rig', joint: 2 } };
    const r = pasteKeys(d, a, cb, 30);
    expect(r.createdTracks).toBe(1);
    expect(r.skipped).toBe(2);
    expect(findTrack(a, { kind: 'joint', character: 'rig', joint: 2 }, 'rotation')!.times.map((t) => Math.round(t * 30))).toEqual([30, 33]);
    expect(a.tracks.some((t) => t.target.kind === 'prop' && t.target.prop === 'gone')).toBe(false);
    expect(targetExists(d, { kind: 'joint', character: 'rig', joint: 3 })).toBe(false);
    expect(targetExists(d, BALL)).toBe(true);
  });

  it('keeps the offset of a key between frames (an accepted impact)', () => {
    const d = animatedDoc(7, 'linear');
    const a = clipOf(d, 'clip_a');
    setKey(a, BALL, 'translation', 10.46, [1, 2, 3]);
    const cb = copyKeys(a, sel(BALL, [9, 10]))!;
    expect(cb.channels.find((c) => c.path === 'translation')!.keys.map((k) => k.offsetFrames)[1]).toBeCloseTo(1.46, 9);
    pasteKeys(d, clipOf(d, 'clip_b'), cb, 40);
    const t = findTrack(clipOf(d, 'clip_b'), BALL, 'translation')!;
    expect(t.times.map((x) => x * 30)[1]).toBeCloseTo(41.46, 9);
    expect(pasteRange(cb, 40).first).toBe(40);
    expect(pasteRange(cb, 40).last).toBeCloseTo(41.46, 9);
  });

  it('pasteRange: first and last frame the keys land on', () => {
    const d = animatedDoc(8, 'linear');
    const cb = copyKeys(clipOf(d, 'clip_a'), sel(BALL, [3, 12, 21]))!;
    expect(pasteRange(cb, 50)).toEqual({ first: 50, last: 68 });
  });
});

describe('paste as an undo step', () => {
  let h: H.HistoryState<ImpulseDocument>;
  beforeEach(() => {
    h = H.createHistory(animatedDoc(9, 'cubic'));
  });

  it('is one history entry, and undo gives back the document byte for byte (same clip and another clip)', () => {
    const before = serializeDocument(h.doc);
    const cb = copyKeys(clipOf(h.doc, 'clip_a'), [...sel(BALL, [0, 6, 12]), ...sel(ARM, [3, 6])])!;
    for (const [clipId, at] of [['clip_a', 4], ['clip_b', 50]] as const) {
      const after = H.edit(h, 'Paste keys', (draft) => {
        const d = draft as ImpulseDocument;
        pasteKeys(d, clipOf(d, clipId), cb, at);
      });
      expect(after.past.length, 'one undo step').toBe(1);
      expect(serializeDocument(after.doc)).not.toBe(before);
      const undone = H.undo(after);
      expect(serializeDocument(undone.doc), `undo of the paste into ${clipId}`).toBe(before);
      expect(serializeDocument(H.redo(undone).doc), 'redo gives the pasted document').toBe(serializeDocument(after.doc));
    }
  });
});
