import { Bone, BufferAttribute, BufferGeometry, Matrix3, Matrix4, MeshBasicMaterial, Skeleton, SkinnedMesh as ThreeSkinnedMesh, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import type { Character, ImpulseDocument, SkinnedMesh, Track } from '../document/types';
import { SceneEvaluator } from '../anim/evaluate';
import { centralDiff8, maxAbs, maxAbsDiff, randomTrack, randomUnitQuat, rng } from '../anim/testkit';
import { Rig } from './rig';
import { computeSkinMatrices, dominantJointPerTriangle, dominantJointPerVertex, skinPositions, skinVelocities } from './skinning';
import { randomCharacter, randomSkinnedMesh } from './testkit';

/** Slow per-vertex reference: Σ w · (world[joint] · IBM) · v with three.js math. */
function slowSkin(mesh: SkinnedMesh, world: Float64Array, v: number): { p: Vector3; n: Vector3 } {
  const p = new Vector3();
  const blended = new Matrix4().set(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  for (let i = 0; i < 4; i++) {
    const w = mesh.weights[v * 4 + i];
    if (w === 0) continue;
    const slot = mesh.joints[v * 4 + i];
    const J = new Matrix4().fromArray(Array.from(world.subarray(mesh.skinJoints[slot] * 16, mesh.skinJoints[slot] * 16 + 16)));
    const B = new Matrix4().fromArray(Array.from(mesh.inverseBindMatrices.subarray(slot * 16, slot * 16 + 16)));
    const M = J.multiply(B);
    p.add(new Vector3().fromArray(mesh.positions, v * 3).applyMatrix4(M).multiplyScalar(w));
    for (let k = 0; k < 16; k++) blended.elements[k] += w * M.elements[k];
  }
  const n = new Vector3().fromArray(mesh.normals!, v * 3).applyMatrix3(new Matrix3().getNormalMatrix(blended)).normalize();
  return { p, n };
}

function posedRig(r: () => number, character: Character): Rig {
  const rig = new Rig(character);
  for (let j = 0; j < rig.jointCount; j++) {
    const q = randomUnitQuat(r);
    rig.local.set([r() - 0.5, r() - 0.5, r() - 0.5, ...q, 0.6 + r() * 0.8, 0.6 + r() * 0.8, 0.6 + r() * 0.8], j * 10);
  }
  return rig.computeWorld();
}

describe('linear blend skinning vs slow references', () => {
  for (const seed of [1, 2, 3]) {
    it(`skinPositions and normals match a slow per-vertex reference on a random character (seed ${seed})`, () => {
      const r = rng(seed);
      const character = randomCharacter(r, 20);
      const mesh = randomSkinnedMesh(r, character, 500);
      const rig = posedRig(r, character);
      const S = new Float64Array(mesh.skinJoints.length * 16);
      computeSkinMatrices(mesh, rig.world, S);
      for (let k = 0; k < mesh.skinJoints.length; k++) {
        const ref = new Matrix4()
          .fromArray(Array.from(rig.world.subarray(mesh.skinJoints[k] * 16, mesh.skinJoints[k] * 16 + 16)))
          .multiply(new Matrix4().fromArray(Array.from(mesh.inverseBindMatrices.subarray(k * 16, k * 16 + 16))));
        expect(maxAbsDiff(S.subarray(k * 16, k * 16 + 16), ref.elements), `skin matrix ${k}`).toBeLessThan(1e-12 * (1 + maxAbs(ref.elements)));
      }
      const out = new Float64Array(mesh.positions.length);
      const outN = new Float64Array(mesh.positions.length);
      skinPositions(mesh, S, out, outN);
      const out32 = new Float32Array(mesh.positions.length);
      skinPositions(mesh, S, out32);
      for (let v = 0; v < 500; v++) {
        const { p, n } = slowSkin(mesh, rig.world, v);
        expect(maxAbsDiff(out.subarray(v * 3, v * 3 + 3), p.toArray()), `vertex ${v}`).toBeLessThan(1e-12 * (1 + p.length()));
        expect(maxAbsDiff(out32.subarray(v * 3, v * 3 + 3), p.toArray()), `vertex ${v} (float32 out)`).toBeLessThan(1e-6 * (1 + p.length()));
        expect(maxAbsDiff(outN.subarray(v * 3, v * 3 + 3), n.toArray()), `normal ${v}`).toBeLessThan(1e-9);
      }
    });
  }

  it('the rest pose with inverse binds = inverse rest world returns the bind positions (seed 4)', () => {
    const r = rng(4);
    const character = randomCharacter(r, 15);
    const mesh = randomSkinnedMesh(r, character, 300);
    const rig = new Rig(character);
    const S = computeSkinMatrices(mesh, rig.world, new Float64Array(mesh.skinJoints.length * 16));
    const out = new Float64Array(mesh.positions.length);
    const outN = new Float64Array(mesh.positions.length);
    skinPositions(mesh, S, out, outN);
    // Inverse binds are stored as float32, hence the tolerance.
    expect(maxAbsDiff(out, mesh.positions), 'bind pose reproduces bind positions').toBeLessThan(1e-5);
    expect(maxAbsDiff(outN, mesh.normals!), 'and bind normals').toBeLessThan(1e-4);
  });

  it('matches three.js SkinnedMesh (applyBoneTransform, glTF-style bind) on a posed random skeleton (seed 5)', () => {
    const r = rng(5);
    const character = randomCharacter(r, 18);
    const mesh = randomSkinnedMesh(r, character, 400);
    const rig = posedRig(r, character);
    // three.js: bones as an Object3D tree under a root carrying the character transform.
    const bones = character.skeleton.joints.map(() => new Bone());
    const root = new Bone();
    const t = character.transform;
    root.position.set(...t.translation);
    root.quaternion.set(...t.rotation);
    root.scale.set(...t.scale);
    character.skeleton.joints.forEach((jt, j) => {
      bones[j].position.fromArray(rig.local, j * 10);
      bones[j].quaternion.fromArray(rig.local, j * 10 + 3);
      bones[j].scale.fromArray(rig.local, j * 10 + 7);
      (jt.parent >= 0 ? bones[jt.parent] : root).add(bones[j]);
    });
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(mesh.positions, 3));
    geometry.setAttribute('skinIndex', new BufferAttribute(mesh.joints, 4));
    geometry.setAttribute('skinWeight', new BufferAttribute(mesh.weights, 4));
    const skinned = new ThreeSkinnedMesh(geometry, new MeshBasicMaterial());
    // As GLTFLoader does: bind with an identity bind matrix. three.js then also
    // applies the skinned mesh's own matrixWorld, which glTF says to ignore; the
    // two agree for skinned meshes at the scene root with identity transform
    // (glTF best practice), which is the case here.
    skinned.updateMatrixWorld(true);
    const skinBones = Array.from(mesh.skinJoints, (j) => bones[j]);
    const inverses = Array.from(mesh.skinJoints, (_, k) => new Matrix4().fromArray(Array.from(mesh.inverseBindMatrices.subarray(k * 16, k * 16 + 16))));
    skinned.bind(new Skeleton(skinBones, inverses), new Matrix4());
    root.updateMatrixWorld(true);
    skinned.skeleton.update();

    const S = computeSkinMatrices(mesh, rig.world, new Float64Array(mesh.skinJoints.length * 16));
    const out = skinPositions(mesh, S, new Float64Array(mesh.positions.length));
    const v = new Vector3();
    for (let i = 0; i < 400; i++) {
      // getVertexPosition gives mesh-local coordinates; the world position is matrixWorld · that.
      skinned.getVertexPosition(i, v).applyMatrix4(skinned.matrixWorld);
      expect(maxAbsDiff(out.subarray(i * 3, i * 3 + 3), v.toArray()), `vertex ${i} vs three.js`).toBeLessThan(1e-10 * (1 + v.length()));
    }
  });
});

describe('skinVelocities', () => {
  it('are the time derivatives of skinned positions over an animated clip (seed 11)', () => {
    const r = rng(11);
    const character = randomCharacter(r, 16);
    const mesh = randomSkinnedMesh(r, character, 200);
    const times = [0, 0.25, 0.5, 0.9];
    const tracks: Track[] = [];
    for (let j = 0; j < 16; j++)
      for (const path of ['translation', 'rotation', 'scale'] as const) {
        const tr = randomTrack(r, path, (['linear', 'cubic'] as const)[j % 2], { keys: 4, target: { kind: 'joint', character: character.id, joint: j } });
        tr.times = times.slice();
        tracks.push(tr);
      }
    const doc: ImpulseDocument = {
      version: 2,
      name: 't',
      gravity: [0, -9.81, 0],
      groundY: null,
      characters: [character],
      props: [],
      clips: [{ id: 'c', name: 'c', frameRate: 30, startFrame: 0, endFrame: 27, tracks }],
      activeClip: 'c',
      check: { ignore: [], groupNames: [] },
    };
    const ev = new SceneEvaluator(doc);
    const rig = new Rig(character), fdRig = new Rig(character);
    const localDot = new Float64Array(16 * 10);
    const S = new Float64Array(mesh.skinJoints.length * 16), Sd = new Float64Array(S.length), fS = new Float64Array(S.length);
    const vel = new Float64Array(mesh.positions.length);
    const f = (t: number, out: Float64Array) => {
      ev.characterLocalPose(0, t, fdRig.local);
      fdRig.computeWorld();
      computeSkinMatrices(mesh, fdRig.world, fS);
      skinPositions(mesh, fS, out);
    };
    for (const t of [0.1, 0.33, 0.41, 0.7, 0.85]) {
      ev.characterLocalPose(0, t, rig.local);
      ev.characterLocalPoseDerivative(0, t, localDot);
      rig.computeWorldDerivative(localDot);
      computeSkinMatrices(mesh, rig.worldDot, Sd);
      skinVelocities(mesh, Sd, vel);
      const fd = centralDiff8(f, t, 2.5e-4, mesh.positions.length);
      for (let v = 0; v < 200; v++) {
        const ref = fd.subarray(v * 3, v * 3 + 3);
        expect(maxAbsDiff(vel.subarray(v * 3, v * 3 + 3), ref), `vertex ${v} velocity at t=${t}`).toBeLessThan(1e-7 * (1 + maxAbs(ref)));
      }
    }
  });
});

describe('dominant joints', () => {
  it('per vertex and per triangle match brute force (seed 21)', () => {
    const r = rng(21);
    const character = randomCharacter(r, 12);
    const mesh = randomSkinnedMesh(r, character, 300);
    const perVertex = dominantJointPerVertex(mesh);
    for (let v = 0; v < 300; v++) {
      const ws = [0, 1, 2, 3].map((i) => mesh.weights[v * 4 + i]);
      const best = ws.indexOf(Math.max(...ws));
      expect(perVertex[v], `vertex ${v}`).toBe(mesh.skinJoints[mesh.joints[v * 4 + best]]);
    }
    const perTri = dominantJointPerTriangle(mesh);
    for (let t = 0; t < mesh.indices.length / 3; t++) {
      const sums = new Map<number, number>();
      for (let c = 0; c < 3; c++) {
        const v = mesh.indices[t * 3 + c];
        for (let i = 0; i < 4; i++) {
          const w = mesh.weights[v * 4 + i];
          if (w > 0) {
            const j = mesh.skinJoints[mesh.joints[v * 4 + i]];
            sums.set(j, (sums.get(j) ?? 0) + w);
          }
        }
      }
      const max = Math.max(...sums.values());
      expect(sums.get(perTri[t]), `triangle ${t}`).toBeCloseTo(max, 6);
    }
  });
});

describe('skinning rejects inconsistent buffers', () => {
  it('names the mesh and the problem', () => {
    const r = rng(31);
    const character = randomCharacter(r, 5);
    const mesh = randomSkinnedMesh(r, character, 10);
    const rig = new Rig(character);
    expect(() => computeSkinMatrices(mesh, rig.world, new Float64Array(3))).toThrow(/skin matrices buffer has 3 numbers, mesh "body" needs/);
    const S = computeSkinMatrices(mesh, rig.world, new Float64Array(mesh.skinJoints.length * 16));
    expect(() => skinPositions(mesh, S, new Float32Array(5))).toThrow(/positions buffer has 5 numbers, mesh "body" needs 30/);
    const bad = { ...mesh, skinJoints: Int32Array.from([...mesh.skinJoints.slice(0, -1), 9]) };
    expect(() => computeSkinMatrices(bad, rig.world, new Float64Array(bad.skinJoints.length * 16))).toThrow(/skinJoints\[\d+\] = 9 is not a joint/);
    expect(() => skinPositions({ ...mesh, normals: undefined }, S, new Float32Array(30), new Float32Array(30))).toThrow(/has no normals/);
  });
});
