import { Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import type { Character, ImpulseDocument, Interpolation, Prop, Track } from '../document/types';
import { mat3FromQuat } from '../math/mat3';
import { Vec3 } from '../math/vec3';
import { AnimationError, SceneEvaluator, frameToTime, timeToFrame } from './evaluate';
import { centralDiff8, maxAbs, maxAbsDiff, randomTrack, randomUnitQuat, rng } from './testkit';
import { TrackSampler } from './track';

function character(id: string, jointCount: number, r: () => number): Character {
  return {
    id,
    name: id,
    transform: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    skeleton: {
      joints: Array.from({ length: jointCount }, (_, j) => ({
        name: `j${j}`,
        parent: j - 1,
        rest: { translation: [r(), r(), r()], rotation: randomUnitQuat(r) as [number, number, number, number], scale: [1 + r(), 1 + r(), 1 + r()] },
      })),
    },
    meshes: [],
    materials: [],
    collision: { enabled: true, groups: 1, mask: 1, selfCollision: false, adjacentHops: 1 },
    mode: 'keyframed',
  };
}

function prop(id: string, r: () => number): Prop {
  return {
    id,
    name: id,
    transform: { translation: [r(), r(), r()], rotation: randomUnitQuat(r) as [number, number, number, number], scale: [1, 2, 0.5] },
    mesh: { positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2]) },
    material: { name: 'm', baseColor: [1, 1, 1, 1], metallic: 0, roughness: 1 },
    physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 },
    collision: { enabled: true, groups: 1, mask: 1 },
  };
}

function doc(characters: Character[], props: Prop[], tracks: Track[], clipCount = 1): ImpulseDocument {
  return {
    version: 2,
    name: 'test',
    gravity: [0, -9.81, 0],
    groundY: 0,
    characters,
    props,
    clips: Array.from({ length: clipCount }, (_, i) => ({ id: `clip${i}`, name: `Clip ${i}`, frameRate: 24, startFrame: 0, endFrame: 48, tracks: i === 0 ? tracks : [] })),
    activeClip: 'clip0',
    check: { ignore: [], groupNames: [] },
  };
}

describe('SceneEvaluator poses', () => {
  it('joint poses come from their tracks, untracked channels from the rest pose (seed 1)', () => {
    const r = rng(1);
    const hero = character('hero', 6, r);
    const extra = character('extra', 3, r);
    const tracks = [
      randomTrack(r, 'rotation', 'linear', { target: { kind: 'joint', character: 'hero', joint: 2 } }),
      randomTrack(r, 'translation', 'cubic', { target: { kind: 'joint', character: 'hero', joint: 5 } }),
      randomTrack(r, 'scale', 'step', { target: { kind: 'joint', character: 'extra', joint: 0 } }),
    ];
    const ev = new SceneEvaluator(doc([hero, extra], [], tracks));
    expect(ev.clip?.id).toBe('clip0');
    const pose = new Float64Array(60), dpose = new Float64Array(60);
    const v = new Float64Array(4);
    for (const t of [-1, 0.13, 0.5, 0.77, 9]) {
      ev.characterLocalPose(0, t, pose);
      ev.characterLocalPoseDerivative(0, t, dpose);
      for (let j = 0; j < 6; j++) {
        const rest = hero.skeleton.joints[j].rest;
        const expectT = j === 5 ? Array.from(new TrackSampler(tracks[1]).valueAt(t, v).subarray(0, 3)) : rest.translation;
        const expectR = j === 2 ? Array.from(new TrackSampler(tracks[0]).valueAt(t, v)) : rest.rotation;
        expect(Array.from(pose.subarray(j * 10, j * 10 + 3)), `joint ${j} translation`).toEqual(expectT);
        expect(Array.from(pose.subarray(j * 10 + 3, j * 10 + 7)), `joint ${j} rotation`).toEqual(expectR);
        expect(Array.from(pose.subarray(j * 10 + 7, j * 10 + 10)), `joint ${j} scale`).toEqual(rest.scale);
        if (j !== 2 && j !== 5) expect(maxAbs(dpose.subarray(j * 10, j * 10 + 10)), `untracked joint ${j} is still`).toBe(0);
      }
      ev.characterLocalPose(1, t, pose);
      expect(Array.from(pose.subarray(7, 10))).toEqual(Array.from(new TrackSampler(tracks[2]).valueAt(t, v).subarray(0, 3)));
    }
    expect(ev.isJointAnimated(0, 2)).toBe(true);
    expect(ev.isJointAnimated(0, 3)).toBe(false);
  });

  for (const seed of [21, 22]) {
    it(`the tracked-only pose and derivative give characterLocalPose's numbers bit for bit, posed step after step (seed ${seed})`, () => {
      const r = rng(seed);
      const hero = character('hero', 12, r);
      const kinds = ['translation', 'rotation', 'scale'] as const, interps: Interpolation[] = ['linear', 'cubic', 'step'];
      const tracks: Track[] = [];
      for (let j = 0; j < 12; j++)
        for (const path of kinds) if (r() < 0.4) tracks.push(randomTrack(r, path, interps[Math.floor(r() * 3)], { target: { kind: 'joint', character: 'hero', joint: j } }));
      const ev = new SceneEvaluator(doc([hero], [], tracks));
      const full = new Float64Array(120), fullDot = new Float64Array(120);
      const fast = ev.characterLocalPose(0, 0, new Float64Array(120)), fastDot = new Float64Array(120);
      for (let k = 0; k < 200; k++) {
        const t = k % 50 === 49 ? 3 * r() - 1 : -0.2 + k * 0.011; // steps forward, now and then a jump
        ev.characterLocalPose(0, t, full);
        ev.characterLocalPoseDerivative(0, t, fullDot);
        ev.characterLocalPoseTracked(0, t, fast);
        ev.characterLocalPoseDerivativeTracked(0, t, fastDot);
        expect(Array.from(fast), `pose at ${t}`).toEqual(Array.from(full));
        expect(Array.from(fastDot), `derivative at ${t}`).toEqual(Array.from(fullDot));
      }
    });
  }

  for (const seed of [23, 24]) {
    it(`characterLocalPoseTracked with a held record says true exactly when every channel held its recorded key, and then wrote the same numbers (seed ${seed})`, () => {
      const r = rng(seed);
      const hero = character('hero', 10, r);
      const kinds = ['translation', 'rotation', 'scale'] as const, interps: Interpolation[] = ['linear', 'cubic', 'step', 'step'];
      const tracks: Track[] = [];
      for (let j = 0; j < 10; j++)
        for (const path of kinds)
          if (r() < 0.3) tracks.push(randomTrack(r, path, interps[Math.floor(r() * 4)], { keys: 1 + Math.floor(r() * 4), target: { kind: 'joint', character: 'hero', joint: j } }));
      const ev = new SceneEvaluator(doc([hero], [], tracks));
      const channels = ev.trackedChannelCount(0);
      expect(channels, 'tracked channels').toBe(tracks.length);
      const held = new Int32Array(channels).fill(-1);
      const out = ev.characterLocalPose(0, 0, new Float64Array(100)), before = new Float64Array(100);
      let sames = 0;
      for (let k = 0; k < 300; k++) {
        // forward in small steps past the last keys, back, jumps; some times repeat
        const m = k % 100;
        const t = m < 70 ? -0.3 + m * 0.05 : m < 85 ? 3.2 - (m - 70) * 0.2 : 4 * r() - 0.5;
        before.set(out);
        const recorded = Array.from(held);
        const same = ev.characterLocalPoseTracked(0, t, out, held);
        // brute force: every channel's held key (clamped, on a step, a single key) equals its record
        let expectSame = true;
        tracks.forEach((track, c) => {
          const n = track.times.length;
          let key = -1;
          if (n === 1 || t <= track.times[0]) key = 0;
          else if (t >= track.times[n - 1]) key = n - 1;
          else if (track.interpolation === 'step') {
            key = 0;
            while (track.times[key + 1] <= t) key++;
          }
          expect(held[c], `record of channel ${c} at t=${t}`).toBe(key);
          if (key < 0 || recorded[c] !== key) expectSame = false;
        });
        expect(same, `same at t=${t}`).toBe(expectSame);
        if (same) {
          sames++;
          for (let i = 0; i < 100; i++) expect(Object.is(out[i], before[i]), `out[${i}] at t=${t} unchanged`).toBe(true);
        }
      }
      expect(sames, 'some poses held every key').toBeGreaterThan(10);
      expect(ev.characterLocalPoseTracked(0, 0.5, out), 'without a record').toBe(false);
      expect(() => ev.characterLocalPoseTracked(0, 0.5, out, new Int32Array(channels + 1))).toThrow(/held has/);
    });
  }

  it('a document without clips evaluates to rest poses; a named clip is selected', () => {
    const r = rng(2);
    const p = prop('ball', r);
    const ev = new SceneEvaluator(doc([], [p], [], 0));
    expect(ev.clip).toBeNull();
    const out = new Float64Array(10);
    ev.propTransform(0, 1.5, out);
    expect(Array.from(out)).toEqual([...p.transform.translation, ...p.transform.rotation, ...p.transform.scale]);
    const two = doc([], [p], [], 2);
    expect(new SceneEvaluator(two, 'clip1').clip?.id).toBe('clip1');
  });
});

describe('SceneEvaluator prop motion is exact', () => {
  const interps: Interpolation[] = ['linear', 'cubic'];
  for (const interp of interps) {
    const seed = interp === 'linear' ? 11 : 12;
    it(`propWorldMatrix, its derivative and propVelocity agree with three.js and finite differences (${interp}, seed ${seed})`, () => {
      const r = rng(seed);
      const p = prop('bat', r);
      const times = [0, 0.3, 0.55, 1.0, 1.4];
      const tracks = (['translation', 'rotation', 'scale'] as const).map((path) => {
        const tr = randomTrack(r, path, interp, { keys: times.length, target: { kind: 'prop', prop: 'bat' } });
        tr.times = times.slice();
        return tr;
      });
      const ev = new SceneEvaluator(doc([], [prop('other', r), p], tracks));
      const trs = new Float64Array(10), M = new Float64Array(16), Md = new Float64Array(16), R = new Float64Array(9);
      const lin = new Vec3(), ang = new Vec3();
      for (let k = 0; k < 20; k++) {
        let t = 0;
        do t = r() * 1.4;
        while (times.some((tk) => Math.abs(tk - t) < 2e-3));
        ev.propTransform(1, t, trs);
        ev.propWorldMatrix(1, t, M);
        const ref = new Matrix4().compose(new Vector3(trs[0], trs[1], trs[2]), new Quaternion(trs[3], trs[4], trs[5], trs[6]), new Vector3(trs[7], trs[8], trs[9]));
        expect(maxAbsDiff(M, ref.elements), 'world matrix = three.js compose').toBeLessThan(1e-12);
        ev.propWorldMatrixDerivative(1, t, Md);
        const fdM = centralDiff8((tt, out) => ev.propWorldMatrix(1, tt, out), t, 2.5e-4, 16);
        expect(maxAbsDiff(Md, fdM), `Ṁ at t=${t}`).toBeLessThan(1e-7 * (1 + maxAbs(fdM)));
        ev.propVelocity(1, t, lin, ang);
        const fdT = centralDiff8((tt, out) => ev.propTransform(1, tt, out), t, 2.5e-4, 10);
        expect(maxAbsDiff([lin.x, lin.y, lin.z], fdT.subarray(0, 3)), 'origin velocity').toBeLessThan(1e-7 * (1 + maxAbs(fdT)));
        // ω from the spin of the rotation matrix: Ṙ Rᵀ = [ω]×
        const fdR = centralDiff8(
          (tt, out) => {
            ev.propTransform(1, tt, trs);
            mat3FromQuat(out, 0, trs, 3);
          },
          t,
          2.5e-4,
          9,
        );
        ev.propTransform(1, t, trs);
        mat3FromQuat(R, 0, trs, 3);
        const W = (row: number, col: number) => fdR[row] * R[col] + fdR[3 + row] * R[3 + col] + fdR[6 + row] * R[6 + col];
        const w = [W(2, 1), W(0, 2), W(1, 0)];
        expect(maxAbsDiff([ang.x, ang.y, ang.z], w), `ω at t=${t}`).toBeLessThan(1e-7 * (1 + maxAbs(w)));
      }
    });
  }

  it('an unanimated prop has zero velocity', () => {
    const r = rng(13);
    const ev = new SceneEvaluator(doc([], [prop('table', r)], []));
    const lin = new Vec3(1, 1, 1), ang = new Vec3(1, 1, 1);
    ev.propVelocity(0, 0.5, lin, ang);
    expect([lin.x, lin.y, lin.z, ang.x, ang.y, ang.z]).toEqual([0, 0, 0, 0, 0, 0].map(() => expect.closeTo(0, 15)));
    expect(ev.isPropAnimated(0)).toBe(false);
  });
});

describe('SceneEvaluator rejects bad clips, naming the track', () => {
  const r = rng(21);
  const hero = character('hero', 4, r);
  const ball = prop('ball', r);
  const jt = (joint: number, path: 'translation' | 'rotation' = 'rotation'): Track => randomTrack(r, path, 'linear', { target: { kind: 'joint', character: 'hero', joint } });
  it('unknown targets and out-of-range joints', () => {
    expect(() => new SceneEvaluator(doc([hero], [ball], [jt(0), randomTrack(r, 'rotation', 'linear', { target: { kind: 'joint', character: 'villain', joint: 0 } })]))).toThrow(
      /clips\[0\]\.tracks\[1\]\.target\.character: no character with id "villain"/,
    );
    expect(() => new SceneEvaluator(doc([hero], [ball], [jt(4)]))).toThrow(/clips\[0\]\.tracks\[0\]\.target\.joint: index 4 out of range \(character "hero" has 4 joints\)/);
    expect(() => new SceneEvaluator(doc([hero], [ball], [randomTrack(r, 'scale', 'step', { target: { kind: 'prop', prop: 'bat' } })]))).toThrow(/target\.prop: no prop with id "bat"/);
  });
  it('duplicate channels and bad keys', () => {
    expect(() => new SceneEvaluator(doc([hero], [ball], [jt(1), jt(2), jt(1)]))).toThrow(/clips\[0\]\.tracks\[2\]: second rotation track of joint 1 of character "hero" \(first is tracks\[0\]\)/);
    const bad = jt(3, 'translation');
    bad.times[1] = bad.times[0];
    expect(() => new SceneEvaluator(doc([hero], [ball], [bad]))).toThrow(AnimationError);
    expect(() => new SceneEvaluator(doc([hero], [ball], [bad]))).toThrow(/clips\[0\]\.tracks\[0\] \(translation track of joint 3 of character "hero"\): times\[1\]/);
  });
  it('missing clips', () => {
    expect(() => new SceneEvaluator(doc([hero], [ball], []), 'nope')).toThrow(/clip "nope" not found/);
    const d = doc([hero], [ball], []);
    d.activeClip = 'gone';
    expect(() => new SceneEvaluator(d)).toThrow(/activeClip: no clip with id "gone"/);
  });
});

describe('frames and times', () => {
  it('frameToTime and timeToFrame are inverse and use frame / frameRate (seed 31)', () => {
    const r = rng(31);
    for (let k = 0; k < 100; k++) {
      const clip = { frameRate: [24, 25, 30, 60, 29.97][k % 5] };
      const frame = Math.floor(r() * 1000) + (k % 3 === 0 ? r() : 0);
      expect(frameToTime(clip, frame)).toBeCloseTo(frame / clip.frameRate, 14);
      expect(timeToFrame(clip, frameToTime(clip, frame))).toBeCloseTo(frame, 9);
    }
    const ev = new SceneEvaluator(doc([], [], []));
    expect(ev.startTimeSec).toBe(0);
    expect(ev.endTimeSec).toBe(2);
  });
});
