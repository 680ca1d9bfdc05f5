import { describe, expect, it } from 'vitest';
import type { ImpulseDocument, Interpolation, Track, TrackPath } from '../document/types';
import { chainCharacter, boxProp, ballProp } from '../document/fixtures';
import { createEmptyDocument } from '../document/defaults';
import { randomTrack, rng } from '../anim/testkit';
import { SceneEvaluator, TRS_STRIDE } from '../anim';
import { BakeError, bakeClip, bakeDocument, pruneStaticChannels, withClipLength, type BakedClip, type Tolerances } from './bake';
import { evaluateCurve, valueError } from './reduce';
import { float32Up } from './time32';

const PATHS: TrackPath[] = ['translation', 'rotation', 'scale'];
const INTERPS: Interpolation[] = ['step', 'linear', 'cubic'];
const OFFSET = { translation: 0, rotation: 3, scale: 7 } as const;

/** Random document: a 4-joint chain and two props with random tracks of every interpolation; the clip cuts into the tracks. */
function randomDocument(seed: number): ImpulseDocument {
  const r = rng(seed);
  const doc = createEmptyDocument(`random ${seed}`);
  doc.characters = [chainCharacter('hero')];
  doc.props = [boxProp('crate'), ballProp('ball')];
  const tracks: Track[] = [];
  const targets = [
    ...doc.characters[0].skeleton.joints.map((_, j) => ({ kind: 'joint' as const, character: 'hero', joint: j })),
    { kind: 'prop' as const, prop: 'crate' },
    { kind: 'prop' as const, prop: 'ball' },
  ];
  for (const target of targets)
    for (const path of PATHS) {
      if (r() < 0.3) continue; // some channels untracked
      const interp = INTERPS[Math.floor(r() * 3)];
      tracks.push(randomTrack(r, path, interp, { target, keys: 2 + Math.floor(r() * 8) }));
    }
  const frameRate = r() < 0.5 ? 24 : 30;
  const startFrame = Math.floor(r() * 6);
  doc.clips = [{ id: 'c', name: 'Random', frameRate, startFrame, endFrame: startFrame + 20 + Math.floor(r() * 40), tracks }];
  doc.activeClip = 'c';
  return doc;
}

/** Largest error of the baked keys against our evaluation, at frames and at `sub` random times between frames. */
function bakedError(doc: ImpulseDocument, baked: BakedClip, sub: number, seed: number, atKeys = false): Record<TrackPath, number> {
  const r = rng(seed);
  const ev = new SceneEvaluator(doc, baked.id);
  const err: Record<TrackPath, number> = { translation: 0, rotation: 0, scale: 0 };
  const want = new Float64Array(TRS_STRIDE * 8);
  const got = new Float64Array(4);
  const frames = baked.endFrame - baked.startFrame;
  for (let f = 0; f <= frames; f++) {
    const taus = [f / baked.frameRate];
    if (f < frames) for (let s = 0; s < sub; s++) taus.push((f + r()) / baked.frameRate);
    for (const tau of taus) {
      for (const ch of baked.channels) {
        const t = baked.startTimeSec + tau;
        let o: number;
        if (ch.target.kind === 'joint') {
          ev.characterLocalPose(ch.target.character, t, want);
          o = ch.target.joint * TRS_STRIDE + OFFSET[ch.path];
        } else {
          ev.propTransform(ch.target.prop, t, want);
          o = OFFSET[ch.path];
        }
        const kind = ch.path === 'rotation' ? 'rotation' : 'vector';
        if (atKeys) {
          // Every-frame mode: the stored key of this frame (times are float32, a
          // curve with a jump would otherwise be probed just beside its key).
          const n = kind === 'rotation' ? 4 : 3;
          for (let c = 0; c < n; c++) got[c] = ch.curve.values[f * n + c];
        } else evaluateCurve(ch.curve, kind, tau, got);
        let e = valueError(kind, got, 0, want, o);
        // float32 storage of the value itself
        if (kind === 'vector') e -= 4e-7 * Math.hypot(want[o], want[o + 1], want[o + 2]);
        err[ch.path] = Math.max(err[ch.path], e);
      }
    }
  }
  return err;
}

const TOL: Tolerances = { translation: 1e-4, rotationRad: 1e-4, scale: 1e-4 };
const SLACK = 2e-6;

describe('bakeClip', () => {
  for (let seed = 1; seed <= 8; seed++) {
    it(`sparse keys stay within tolerance of our curves at frames and between them (random document, seed ${seed})`, () => {
      const doc = randomDocument(seed);
      const baked = bakeClip(doc, 'c', { tolerance: TOL });
      const err = bakedError(doc, baked, 8, seed);
      const methods: Record<string, number> = {};
      for (const ch of baked.channels) methods[ch.method] = (methods[ch.method] ?? 0) + 1;
      const frames = baked.endFrame - baked.startFrame + 1;
      console.log(`seed ${seed}: ${frames} frames, ${baked.channels.length} channels, ${baked.channels.reduce((n, c) => n + c.curve.times.length, 0)} keys ${JSON.stringify(methods)}; max error t ${err.translation.toExponential(1)} r ${err.rotation.toExponential(1)} s ${err.scale.toExponential(1)}`);
      expect(err.translation).toBeLessThanOrEqual(TOL.translation + SLACK);
      expect(err.rotation).toBeLessThanOrEqual(TOL.rotationRad + SLACK);
      expect(err.scale).toBeLessThanOrEqual(TOL.scale + SLACK);
      for (const ch of baked.channels) {
        expect(ch.curve.times[0], 'keys start at the clip start').toBe(0);
        // One key holds for the whole clip (a channel with one value); others end at the clip end.
        if (ch.curve.times.length > 1) expect(ch.curve.times[ch.curve.times.length - 1]).toBeCloseTo(baked.durationSec, 6);
        else expect(['static', 'rest', 'constant']).toContain(ch.method);
      }
    });

    it(`every-frame keys: one per frame, equal to our curves at the frames (seed ${seed})`, () => {
      const doc = randomDocument(seed);
      const baked = bakeClip(doc, 'c', { mode: 'every-frame' });
      const frames = baked.endFrame - baked.startFrame + 1;
      for (const ch of baked.channels) expect(ch.curve.times.length).toBe(frames);
      const err = bakedError(doc, baked, 0, seed, true);
      expect(Math.max(err.translation, err.rotation, err.scale)).toBeLessThanOrEqual(SLACK);
    });
  }

  it('keeps an animator’s keys (original method) when they hold, for every interpolation', () => {
    const doc = randomDocument(3);
    const clip = doc.clips[0];
    // Make the clip cover every key of every track: nothing needs cutting.
    clip.startFrame = 0;
    clip.endFrame = Math.ceil(Math.max(...clip.tracks.map((t) => t.times[t.times.length - 1])) * clip.frameRate) + 1;
    const baked = bakeClip(doc, 'c', { tolerance: TOL });
    const animated = baked.channels.filter((c) => c.method !== 'static');
    const original = animated.filter((c) => c.method === 'original');
    expect(original.length, 'most channels keep their own keys').toBeGreaterThan(animated.length / 2);
    expect(new Set(original.map((c) => c.curve.interpolation))).toEqual(new Set(['STEP', 'LINEAR', 'CUBICSPLINE']));
  });

  it('untracked channels are static; pruneStaticChannels drops the ones no clip animates', () => {
    const doc = randomDocument(5);
    const second = structuredClone(doc.clips[0]);
    second.id = 'd';
    second.name = 'Only ball';
    second.tracks = second.tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'ball');
    doc.clips.push(second);
    const clips = bakeDocument(doc);
    const pruned = pruneStaticChannels(clips);
    const animatedInFirst = clips[0].channels.filter((c) => c.method !== 'static').length;
    expect(pruned[0].channels.length).toBe(animatedInFirst);
    // The second clip keeps (static) channels that the first clip animates, so its pose is reset.
    expect(pruned[1].channels.length).toBe(animatedInFirst);
    expect(pruned[1].channels.some((c) => c.method === 'static')).toBe(true);
  });

  it('a tracked channel that holds the rest value is "rest" (pruned like untracked ones); one holding another value is one "constant" key', () => {
    const doc = randomDocument(9);
    const clip = doc.clips[0];
    const joints = doc.characters[0].skeleton.joints;
    const atRest = structuredClone(joints[1].rest.rotation);
    const held = [0, Math.sin(0.3), 0, Math.cos(0.3)];
    clip.tracks = clip.tracks.filter((t) => !(t.target.kind === 'joint' && (t.target.joint === 1 || t.target.joint === 2) && t.path === 'rotation'));
    const keys = [0, 0.5, 1, 2];
    // Rest value with wiggles far below the tolerance (2e-5 rad against 1e-4).
    clip.tracks.push({
      target: { kind: 'joint', character: 'hero', joint: 1 },
      path: 'rotation',
      interpolation: 'linear',
      times: keys,
      values: keys.flatMap((_, k) => {
        const a = k % 2 ? 1e-5 : -1e-5;
        const [x, y, z, w] = atRest;
        // rest · rotation about x by a
        const s = Math.sin(a / 2), c = Math.cos(a / 2);
        return [w * s + x * c, y * c + z * s, z * c - y * s, w * c - x * s];
      }),
    });
    clip.tracks.push({ target: { kind: 'joint', character: 'hero', joint: 2 }, path: 'rotation', interpolation: 'cubic', times: keys, values: keys.flatMap(() => [0, 0, 0, 0, ...held, 0, 0, 0, 0]) });
    const baked = bakeClip(doc, 'c', { tolerance: TOL });
    const rot = (j: number) => baked.channels.find((c) => c.target.kind === 'joint' && c.target.joint === j && c.path === 'rotation')!;
    expect(rot(1).method).toBe('rest');
    expect(rot(1).curve.times.length).toBe(1);
    expect(rot(1).maxError).toBeLessThanOrEqual(TOL.rotationRad);
    expect(rot(2).method).toBe('constant');
    expect(Array.from(rot(2).curve.values)).toEqual(held.map(Math.fround));
    const err = bakedError(doc, baked, 4, 9);
    expect(err.rotation, 'one-key channels hold within tolerance over the whole clip').toBeLessThanOrEqual(TOL.rotationRad + SLACK);
    const pruned = pruneStaticChannels([baked])[0];
    expect(pruned.channels.includes(rot(1)), 'a rest channel is left to the node transform').toBe(false);
    expect(pruned.channels.includes(rot(2)), 'a constant channel that is not the rest value stays').toBe(true);
    // A second clip that moves joint 1: the first clip must then keep its rest key.
    const second = structuredClone(clip);
    second.id = 'moving';
    second.name = 'Moving';
    second.tracks = second.tracks.filter((t) => !(t.target.kind === 'joint' && t.target.joint === 1 && t.path === 'rotation'));
    second.tracks.push({ target: { kind: 'joint', character: 'hero', joint: 1 }, path: 'rotation', interpolation: 'linear', times: [0, 2], values: [0, 0, 0, 1, 0, 0, Math.sin(0.5), Math.cos(0.5)] });
    doc.clips.push(second);
    const both = pruneStaticChannels(bakeDocument(doc, { tolerance: TOL }));
    const kept = both[0].channels.find((c) => c.target.kind === 'joint' && c.target.joint === 1 && c.path === 'rotation');
    expect(kept?.method).toBe('rest');
  });

  it('withClipLength: a clip of one-key channels gets a key at its end so engines see its length', () => {
    const doc = randomDocument(4);
    doc.clips[0].tracks = [];
    const baked = bakeClip(doc, 'c');
    expect(baked.channels.every((c) => c.curve.times.length === 1)).toBe(true);
    const sized = withClipLength(baked);
    const ends = sized.channels.map((c) => c.curve.times[c.curve.times.length - 1]);
    expect(Math.max(...ends), 'the clip end as the float32 at or above it (glTF stores float32 times)').toBe(float32Up(baked.durationSec));
    const first = sized.channels[0];
    const dims = first.path === 'rotation' ? 4 : 3;
    expect(Array.from(first.curve.values.subarray(dims)), 'the added key repeats the value').toEqual(Array.from(first.curve.values.subarray(0, dims)));
    const moving = bakeClip(randomDocument(4), 'c');
    expect(withClipLength(moving), 'a clip with a full-length channel is returned as is').toBe(moving);
  });

  it('names what is wrong: unknown clip, bad frame range, negative tolerance', () => {
    const doc = randomDocument(1);
    expect(() => bakeClip(doc, 'nope')).toThrow(BakeError);
    expect(() => bakeClip(doc, 'nope')).toThrow(/clip "nope" not found \(document has "c"\)/);
    doc.clips[0].endFrame = doc.clips[0].startFrame - 1;
    expect(() => bakeClip(doc, 'c')).toThrow(/frame range/);
    expect(() => bakeClip(randomDocument(1), 'c', { tolerance: { translation: -1 } })).toThrow(/tolerance translation must be >= 0/);
  });
});
