/**
 * Our import + evaluation + skinning against three.js's own glTF pipeline
 * (GLTFLoader → AnimationMixer → SkinnedMesh.getVertexPosition), the reference
 * users trust, on the generated mannequin (67 joints, Armature scaled 0.01,
 * five overlapping skinned meshes, CUBICSPLINE / LINEAR / STEP clips).
 * Every vertex of every mesh must agree to 1e-5 of the character's height at
 * every frame (and every half frame) of every clip.
 */
import { readFileSync } from 'node:fs';
import { AnimationMixer, LoopOnce, Vector3, type Object3D, type SkinnedMesh as ThreeSkinnedMesh } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import { SceneEvaluator, frameToTime } from '../anim';
import { DOCUMENT_VERSION, type ImpulseDocument } from '../document/types';
import { Rig, computeSkinMatrices, skinPositions } from '../skeleton';
import { importGltf } from './importGltf';

const GLB = new URL('../../assets/characters/mannequin.glb', import.meta.url);

function loadThree(bytes: Uint8Array): Promise<GLTF> {
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(ab, '', resolve, reject));
}

function skinnedMeshes(root: Object3D): ThreeSkinnedMesh[] {
  const out: ThreeSkinnedMesh[] = [];
  root.traverse((o) => {
    if ((o as ThreeSkinnedMesh).isSkinnedMesh) out.push(o as ThreeSkinnedMesh);
  });
  return out;
}

describe('skinning matches three.js SkinnedMesh on the mannequin', async () => {
  const bytes = new Uint8Array(readFileSync(GLB));
  const ours = await importGltf(bytes, 'mannequin.glb');
  const character = ours.characters[0];
  const doc: ImpulseDocument = {
    version: DOCUMENT_VERSION,
    name: 'skinning-vs-three',
    gravity: [0, -9.81, 0],
    groundY: 0,
    characters: ours.characters,
    props: ours.props,
    clips: ours.clips,
    activeClip: ours.clips[0].id,
    check: { ignore: [], groupNames: ['default'] },
  };
  let minY = Infinity, maxY = -Infinity;
  for (const m of character.meshes)
    for (let i = 1; i < m.positions.length; i += 3) {
      minY = Math.min(minY, m.positions[i]);
      maxY = Math.max(maxY, m.positions[i]);
    }
  const height = maxY - minY;
  const tolerance = 1e-5 * height;

  it('imports one 67-joint character ~1.8 m tall with five meshes and the walk and swing clips', () => {
    expect(ours.characters.length).toBe(1);
    expect(character.skeleton.joints.length).toBe(67);
    expect(character.meshes.length).toBe(5);
    expect(height).toBeGreaterThan(1.75);
    expect(height).toBeLessThan(1.85);
    expect(ours.clips.map((c) => c.name).sort()).toEqual(['swing', 'walk']);
  });

  for (const clipName of ['walk', 'swing']) {
    it(`${clipName}: every vertex at every frame and half frame within 1e-5 × height of three.js`, async () => {
      const gltf = await loadThree(bytes);
      const threeMeshes = skinnedMeshes(gltf.scene);
      expect(threeMeshes.length, 'three.js sees five skinned meshes').toBe(character.meshes.length);
      // Pair meshes by vertex count (the generated meshes' counts are distinct) and check bind positions agree.
      const pairs = character.meshes.map((m) => {
        const n = m.positions.length / 3;
        const t = threeMeshes.filter((x) => x.geometry.getAttribute('position').count === n);
        expect(t.length, `exactly one three.js mesh with ${n} vertices for "${m.name}"`).toBe(1);
        const pos = t[0].geometry.getAttribute('position');
        for (let v = 0; v < n; v++) expect(pos.getX(v)).toBe(m.positions[3 * v]);
        return { ours: m, three: t[0] };
      });

      const clip = ours.clips.find((c) => c.name === clipName)!;
      const threeClip = gltf.animations.find((a) => a.name === clipName)!;
      expect(threeClip, `three.js clip ${clipName}`).toBeTruthy();
      const mixer = new AnimationMixer(gltf.scene);
      const action = mixer.clipAction(threeClip);
      action.setLoop(LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();

      const evaluator = new SceneEvaluator(doc, clip.id);
      const rig = new Rig(character);
      const pose = new Float64Array(10 * rig.jointCount);
      const skinMats = pairs.map((p) => new Float64Array(16 * p.ours.skinJoints.length));
      const skinned = pairs.map((p) => new Float64Array(p.ours.positions.length));
      const v3 = new Vector3();

      let worst = 0;
      let worstAt = '';
      let compared = 0;
      let maxMotion = 0;
      for (let half = 2 * clip.startFrame; half <= 2 * clip.endFrame; half++) {
        const timeSec = Math.min(frameToTime(clip, half / 2), threeClip.duration);
        mixer.setTime(timeSec);
        gltf.scene.updateMatrixWorld(true);

        evaluator.characterLocalPose(0, timeSec, pose);
        rig.local.set(pose);
        rig.computeWorld();
        pairs.forEach((p, k) => {
          computeSkinMatrices(p.ours, rig.world, skinMats[k]);
          skinPositions(p.ours, skinMats[k], skinned[k]);
          p.three.skeleton.update();
          const n = p.ours.positions.length / 3;
          for (let v = 0; v < n; v++) {
            p.three.getVertexPosition(v, v3).applyMatrix4(p.three.matrixWorld);
            const d = Math.max(Math.abs(v3.x - skinned[k][3 * v]), Math.abs(v3.y - skinned[k][3 * v + 1]), Math.abs(v3.z - skinned[k][3 * v + 2]));
            if (!(d <= worst)) {
              worst = d;
              worstAt = `mesh "${p.ours.name}" vertex ${v} at frame ${half / 2} (t=${timeSec}s): three (${v3.x}, ${v3.y}, ${v3.z}) ours (${skinned[k][3 * v]}, ${skinned[k][3 * v + 1]}, ${skinned[k][3 * v + 2]})`;
            }
            compared++;
            maxMotion = Math.max(maxMotion, Math.abs(skinned[k][3 * v] - p.ours.positions[3 * v]), Math.abs(skinned[k][3 * v + 2] - p.ours.positions[3 * v + 2]));
          }
        });
      }
      expect(compared).toBeGreaterThan(1000);
      expect(worst, `largest difference ${worst} m (tolerance ${tolerance} m) at ${worstAt}`).toBeLessThanOrEqual(tolerance);
      // The clip must actually move the mesh far from the bind pose, or agreement would mean nothing.
      expect(maxMotion, 'largest vertex displacement from the bind pose').toBeGreaterThan(0.2 * height);
      console.info(`${clipName}: ${compared} vertex samples, worst difference ${worst.toExponential(2)} m, largest motion ${maxMotion.toFixed(3)} m`);
    });
  }
});
