import { Matrix4, Object3D, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import type { Character, Clip, ImpulseDocument, Interpolation, Track, TrackPath } from '../document/types';
import { SceneEvaluator } from '../anim/evaluate';
import { centralDiff8, maxAbs, maxAbsDiff, randomTrack, rng } from '../anim/testkit';
import { angularVelocityFromQuat } from '../anim/track';
import { mat4Compose, mat4Multiply } from '../math/mat4';
import { Vec3 } from '../math/vec3';
import { Rig, SkeletonError, jointsWithAncestors, skeletonHops } from './rig';
import { randomCharacter } from './testkit';

/** Slow obvious FK: recursion up to the root with three.js Matrix4. */
function slowWorld(character: Character, local: Float64Array, j: number): Matrix4 {
  const L = new Matrix4().compose(
    new Vector3(local[j * 10], local[j * 10 + 1], local[j * 10 + 2]),
    new Quaternion(local[j * 10 + 3], local[j * 10 + 4], local[j * 10 + 5], local[j * 10 + 6]),
    new Vector3(local[j * 10 + 7], local[j * 10 + 8], local[j * 10 + 9]),
  );
  const p = character.skeleton.joints[j].parent;
  if (p >= 0) return slowWorld(character, local, p).multiply(L);
  const t = character.transform;
  const C = new Matrix4().compose(new Vector3(...t.translation), new Quaternion(...t.rotation), new Vector3(...t.scale));
  return C.multiply(L);
}

function docWith(character: Character, tracks: Track[]): ImpulseDocument {
  const clip: Clip = { id: 'c', name: 'clip', frameRate: 30, startFrame: 0, endFrame: 60, tracks };
  return {
    version: 2,
    name: 'test',
    gravity: [0, -9.81, 0],
    groundY: null,
    characters: [character],
    props: [],
    clips: [clip],
    activeClip: 'c',
    check: { ignore: [], groupNames: [] },
  };
}

/** Random tracks on random joints, all sharing the key times `times`. */
function randomJointTracks(r: () => number, character: Character, times: number[], paths: TrackPath[]): Track[] {
  const tracks: Track[] = [];
  const interps: Interpolation[] = ['linear', 'cubic', 'step'];
  character.skeleton.joints.forEach((_, j) => {
    for (const path of paths) {
      if (r() < 0.3) continue;
      const interp = interps[Math.floor(r() * 3)];
      const tr = randomTrack(r, path, interp, { keys: times.length, target: { kind: 'joint', character: character.id, joint: j } });
      tr.times = times.slice();
      tracks.push(tr);
    }
  });
  return tracks;
}

function timeAway(r: () => number, times: number[], margin: number): number {
  for (;;) {
    const t = times[0] + r() * (times[times.length - 1] - times[0]);
    if (times.every((k) => Math.abs(k - t) > margin)) return t;
  }
}

describe('Rig forward kinematics', () => {
  for (const seed of [11, 12]) {
    it(`world and local matrices are mat4Compose and mat4Multiply's numbers bit for bit on a random 50-joint skeleton (seed ${seed})`, () => {
      const r = rng(seed);
      const character = randomCharacter(r, 50);
      const rig = new Rig(character);
      for (let j = 0; j < rig.jointCount; j++) {
        const q = new Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
        rig.local.set([r() - 0.5, r() - 0.5, r() - 0.5, q.x, q.y, q.z, q.w, 0.5 + r(), 0.5 + r(), 0.5 + r()], j * 10);
      }
      rig.computeWorld();
      const L = new Float64Array(16), W = new Float64Array(16 * rig.jointCount);
      for (let j = 0; j < rig.jointCount; j++) {
        mat4Compose(L, 0, rig.local, 10 * j, rig.local, 10 * j + 3, rig.local, 10 * j + 7);
        const p = rig.parents[j];
        mat4Multiply(W, 16 * j, p < 0 ? rig.rootMatrix : W, p < 0 ? 0 : 16 * p, L, 0);
        expect(Array.from(rig.localMatrix.subarray(16 * j, 16 * j + 16)), `joint ${j} local matrix`).toEqual(Array.from(L));
        expect(Array.from(rig.world.subarray(16 * j, 16 * j + 16)), `joint ${j} world matrix`).toEqual(Array.from(W.subarray(16 * j, 16 * j + 16)));
      }
    });
  }

  for (const seed of [13, 14]) {
    it(`computeWorldOf writes computeWorld's numbers for the joints of its order and leaves the others alone (seed ${seed})`, () => {
      const r = rng(seed);
      const character = randomCharacter(r, 40);
      const rig = new Rig(character), full = new Rig(character);
      for (let pass = 0; pass < 4; pass++) {
        const picked: number[] = [];
        for (let j = 0; j < rig.jointCount; j++) if (r() < 0.2) picked.push(j);
        const order = jointsWithAncestors(rig.parents, picked);
        // brute force: the picked joints and every ancestor, ascending
        const want = new Set<number>();
        for (const j of picked) for (let x = j; x >= 0; x = rig.parents[x]) want.add(x);
        expect(Array.from(order), 'order').toEqual([...want].sort((a, b) => a - b));
        for (let j = 0; j < rig.jointCount; j++) {
          const q = new Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
          const pose = [r() - 0.5, r() - 0.5, r() - 0.5, q.x, q.y, q.z, q.w, 0.5 + r(), 0.5 + r(), 0.5 + r()];
          rig.local.set(pose, j * 10);
          full.local.set(pose, j * 10);
        }
        const worldBefore = Float64Array.from(rig.world), localBefore = Float64Array.from(rig.localMatrix);
        rig.computeWorldOf(order);
        full.computeWorld();
        // into a buffer of the caller's: the same numbers there, the rig's own world not written
        const outside = new Rig(character), mine = new Float64Array(16 * rig.jointCount).fill(NaN);
        outside.local.set(rig.local);
        const outsideWorld = Float64Array.from(outside.world);
        outside.computeWorldOf(order, mine);
        expect(Array.from(outside.world), "the rig's own world untouched").toEqual(Array.from(outsideWorld));
        for (let j = 0; j < rig.jointCount; j++) {
          const m = (a: Float64Array) => Array.from(a.subarray(16 * j, 16 * j + 16));
          if (want.has(j)) {
            expect(m(rig.world), `joint ${j} world (pass ${pass})`).toEqual(m(full.world));
            expect(m(mine), `joint ${j} world in the caller's buffer (pass ${pass})`).toEqual(m(full.world));
            expect(m(rig.localMatrix), `joint ${j} local matrix (pass ${pass})`).toEqual(m(full.localMatrix));
          } else {
            expect(m(rig.world), `joint ${j} world untouched (pass ${pass})`).toEqual(m(worldBefore));
            expect(m(mine).every((x) => Number.isNaN(x)), `joint ${j} not written in the caller's buffer (pass ${pass})`).toBe(true);
            expect(m(rig.localMatrix), `joint ${j} local matrix untouched (pass ${pass})`).toEqual(m(localBefore));
          }
        }
      }
    });
  }

  for (const seed of [1, 2, 3]) {
    it(`world matrices match a slow recursive three.js FK on a random 40-joint skeleton (seed ${seed})`, () => {
      const r = rng(seed);
      const character = randomCharacter(r, 40);
      const rig = new Rig(character);
      // Rest pose first, then a random pose.
      for (let pass = 0; pass < 2; pass++) {
        if (pass === 1) {
          for (let j = 0; j < rig.jointCount; j++) {
            const q = new Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
            rig.local.set([r() - 0.5, r() - 0.5, r() - 0.5, q.x, q.y, q.z, q.w, 0.5 + r(), 0.5 + r(), 0.5 + r()], j * 10);
          }
          rig.computeWorld();
        }
        for (let j = 0; j < rig.jointCount; j++) {
          const ref = slowWorld(character, rig.local, j).elements;
          expect(maxAbsDiff(rig.world.subarray(j * 16, j * 16 + 16), ref), `joint ${j} (pass ${pass})`).toBeLessThan(1e-12 * (1 + maxAbs(ref)));
        }
      }
    });
  }

  it('matches a three.js Object3D hierarchy (matrixWorld) (seed 4)', () => {
    const r = rng(4);
    const character = randomCharacter(r, 25);
    const rig = new Rig(character);
    const root = new Object3D();
    const t = character.transform;
    root.position.set(...t.translation);
    root.quaternion.set(...t.rotation);
    root.scale.set(...t.scale);
    const objs = character.skeleton.joints.map((jt) => {
      const o = new Object3D();
      o.position.set(...jt.rest.translation);
      o.quaternion.set(...jt.rest.rotation);
      o.scale.set(...jt.rest.scale);
      return o;
    });
    character.skeleton.joints.forEach((jt, j) => (jt.parent >= 0 ? objs[jt.parent] : root).add(objs[j]));
    root.updateMatrixWorld(true);
    objs.forEach((o, j) => expect(maxAbsDiff(rig.world.subarray(j * 16, j * 16 + 16), o.matrixWorld.elements), `joint ${j}`).toBeLessThan(1e-12));
    const p = new Vec3();
    rig.jointWorldPosition(7, p);
    const ref = objs[7].getWorldPosition(new Vector3());
    expect([p.x, p.y, p.z]).toEqual([ref.x, ref.y, ref.z].map((c) => expect.closeTo(c, 12)));
  });

  it('rejects parents that do not come first, naming the joint', () => {
    const r = rng(5);
    const character = randomCharacter(r, 5);
    character.skeleton.joints[3].parent = 4;
    expect(() => new Rig(character)).toThrow(SkeletonError);
    expect(() => new Rig(character)).toThrow(/skeleton\.joints\[3\]\.parent: index 4 does not come before its child/);
    character.skeleton.joints[3].parent = 70;
    expect(() => new Rig(character)).toThrow(/skeleton\.joints\[3\]\.parent: index 70 out of range/);
  });
});

describe('Rig world derivative', () => {
  for (const seed of [11, 12, 13]) {
    it(`worldDot matches 8th-order finite differences of FK over an animated clip (seed ${seed})`, () => {
      const r = rng(seed);
      const character = randomCharacter(r, 30);
      const times = [0, 0.2, 0.45, 0.6, 0.9, 1.2];
      const ev = new SceneEvaluator(docWith(character, randomJointTracks(r, character, times, ['translation', 'rotation', 'scale'])));
      const rig = new Rig(character);
      const fdRig = new Rig(character);
      const localDot = new Float64Array(rig.jointCount * 10);
      const f = (t: number, out: Float64Array) => {
        ev.characterLocalPose(0, t, fdRig.local);
        fdRig.computeWorld();
        out.set(fdRig.world);
      };
      for (let k = 0; k < 15; k++) {
        const t = timeAway(r, times, 2e-3);
        ev.characterLocalPose(0, t, rig.local);
        ev.characterLocalPoseDerivative(0, t, localDot);
        rig.computeWorldDerivative(localDot);
        const fd = centralDiff8(f, t, 2.5e-4, rig.jointCount * 16);
        for (let j = 0; j < rig.jointCount; j++) {
          const got = rig.worldDot.subarray(j * 16, j * 16 + 16);
          const ref = fd.subarray(j * 16, j * 16 + 16);
          expect(maxAbsDiff(got, ref), `Ẇ of joint ${j} at t=${t}`).toBeLessThan(1e-7 * (1 + maxAbs(ref)));
        }
        // computeWorldDerivative also leaves `world` current.
        f(t, fd);
        expect(maxAbsDiff(rig.world, fd)).toBeLessThan(1e-13);
      }
    });
  }

  it('pointVelocity is d/dt of jointWorldPoint; angular velocity composes like rigid bodies (seed 21)', () => {
    const r = rng(21);
    // Uniform scales and no scale tracks: every joint frame moves rigidly (up to a constant scale).
    const character = randomCharacter(r, 20, { uniformScale: true });
    const times = [0, 0.3, 0.5, 0.8, 1.1];
    const ev = new SceneEvaluator(docWith(character, randomJointTracks(r, character, times, ['translation', 'rotation'])));
    const rig = new Rig(character);
    const fdRig = new Rig(character);
    const localDot = new Float64Array(rig.jointCount * 10);
    const lp = new Vec3(0.3, -0.7, 0.2);
    const v = new Vec3(), wj = new Vec3(), wp = new Vec3(), tmp = new Vec3();
    const wl = new Float64Array(3);
    for (let k = 0; k < 10; k++) {
      const t = timeAway(r, times, 2e-3);
      ev.characterLocalPose(0, t, rig.local);
      ev.characterLocalPoseDerivative(0, t, localDot);
      rig.computeWorldDerivative(localDot);
      for (let j = 0; j < rig.jointCount; j++) {
        const fd = centralDiff8(
          (tt, out) => {
            ev.characterLocalPose(0, tt, fdRig.local);
            fdRig.computeWorld();
            fdRig.jointWorldPoint(j, lp, tmp);
            out[0] = tmp.x;
            out[1] = tmp.y;
            out[2] = tmp.z;
          },
          t,
          2.5e-4,
          3,
        );
        rig.pointVelocity(j, lp, v);
        expect(maxAbsDiff([v.x, v.y, v.z], fd), `point velocity on joint ${j}`).toBeLessThan(1e-7 * (1 + maxAbs(fd)));
        // ω_j = ω_parent + R_parent · ω_local (ω_local from the joint's own q, q̇, in the parent frame).
        rig.jointAngularVelocity(j, wj);
        const p = character.skeleton.joints[j].parent;
        if (p >= 0) rig.jointAngularVelocity(p, wp);
        else wp.set(0, 0, 0);
        angularVelocityFromQuat(rig.local, j * 10 + 3, localDot, j * 10 + 3, wl, 0);
        const parentWorld = p >= 0 ? rig.world.subarray(p * 16, p * 16 + 16) : rig.rootMatrix;
        const m = new Matrix4().fromArray(Array.from(parentWorld));
        // transformDirection rotates and normalises (the parent's uniform scale drops out).
        const wlWorld = new Vector3(wl[0], wl[1], wl[2]).transformDirection(m).multiplyScalar(Math.hypot(wl[0], wl[1], wl[2]));
        const expected = [wp.x + wlWorld.x, wp.y + wlWorld.y, wp.z + wlWorld.z];
        expect(maxAbsDiff([wj.x, wj.y, wj.z], expected), `ω of joint ${j}`).toBeLessThan(1e-9 * (1 + maxAbs(expected)));
      }
    }
  });
});

describe('skeletonHops', () => {
  it('matches a breadth-first search over the undirected tree (seed 31)', () => {
    const r = rng(31);
    const character = randomCharacter(r, 30);
    const parents = character.skeleton.joints.map((j) => j.parent);
    const n = parents.length;
    for (let a = 0; a < n; a++) {
      const dist = new Array<number>(n).fill(-1);
      dist[a] = 0;
      const queue = [a];
      while (queue.length) {
        const x = queue.shift()!;
        const nbrs = parents.flatMap((p, c) => (p === x ? [c] : [])).concat(parents[x] >= 0 ? [parents[x]] : []);
        for (const y of nbrs)
          if (dist[y] < 0) {
            dist[y] = dist[x] + 1;
            queue.push(y);
          }
      }
      for (let b = 0; b < n; b++) expect(skeletonHops(parents, a, b), `hops ${a}→${b}`).toBe(dist[b]);
    }
  });
});
