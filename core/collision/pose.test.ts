import { describe, expect, it } from 'vitest';
import { createEmptyDocument } from '../document';
import { chainCharacter, icosphereMesh } from '../document/fixtures';
import type { Character, SkinnedMesh, Track } from '../document/types';
import { SceneEvaluator } from '../anim';
import { Rig, computeSkinMatrices, skinPositions } from '../skeleton';
import { CollisionScene } from './scene';
import { mulberry32 } from './testutil';

/**
 * A chain character of three meshes: `body` weights slots 0–2 only, `twin`
 * has the same skin (equal joints and inverse bind matrices in arrays of its
 * own) and weights slot 3 too, `offset` has the same joints but one inverse
 * bind matrix moved by 1e-3: it must not share the others' skin matrices.
 */
function threeMeshChain(id: string, x: number, r: () => number): Character {
  const ch = chainCharacter(id);
  ch.transform.translation = [x, 0, 0];
  const base = ch.meshes[0];
  const mesh = (name: string, cx: number, slots: number[]): SkinnedMesh => {
    const ball = icosphereMesh(0.2, 2);
    const nv = ball.positions.length / 3;
    for (let v = 0; v < nv; v++) { ball.positions[v * 3] += cx; ball.positions[v * 3 + 1] = ball.positions[v * 3 + 1] * 3 + 0.75; }
    const joints = new Uint16Array(nv * 4), weights = new Float32Array(nv * 4);
    for (let v = 0; v < nv; v++) {
      const a = slots[Math.floor(r() * slots.length)], b = slots[Math.floor(r() * slots.length)], w = Math.round(r() * 8) / 8;
      joints.set([a, b, 0, 0], v * 4);
      weights.set(a === b ? [1, 0, 0, 0] : [w, 1 - w, 0, 0], v * 4);
    }
    return { ...base, name, positions: ball.positions, indices: ball.indices, joints, weights, skinJoints: base.skinJoints.slice(), inverseBindMatrices: base.inverseBindMatrices.slice() };
  };
  const offset = mesh('offset', 0.1, [0, 1, 2, 3]);
  offset.inverseBindMatrices[2 * 16 + 13] += 1e-3;
  ch.meshes = [mesh('body', 0, [0, 1, 2]), mesh('twin', -0.1, [1, 2, 3]), offset];
  return ch;
}

function swayTracks(r: () => number, id: string, frames: number): Track[] {
  const times = Array.from({ length: frames + 1 }, (_, f) => f / 10);
  const tracks: Track[] = [];
  for (let j = 0; j < 4; j++) {
    const amp = 0.8 * r(), ph = 6 * r(), values: number[] = [];
    for (const t of times) { const a = amp * Math.sin(3 * t + ph); values.push(Math.sin(a / 2), 0, 0, Math.cos(a / 2)); }
    tracks.push({ target: { kind: 'joint', character: id, joint: j }, path: 'rotation', interpolation: 'linear', times, values });
  }
  return tracks;
}

describe('skin matrices shared by meshes bound to the same skin', () => {
  for (const seed of [41, 42, 43]) {
    it(`seed ${seed}: every weighted slot's skin matrix (both samples) and every skinned vertex equal computeSkinMatrices and skinPositions per mesh bit for bit; only meshes with bit-equal joints and inverse bind matrices share`, () => {
      const r = mulberry32(seed);
      const frames = 8;
      const doc = createEmptyDocument('pose');
      doc.characters.push(threeMeshChain('a', 0, r));
      doc.clips = [{ id: 'c', name: 'c', frameRate: 10, startFrame: 0, endFrame: frames, tracks: swayTracks(r, 'a', frames) }];
      doc.activeClip = 'c';
      const scene = new CollisionScene(doc, 'c');
      const o = scene.objects[0];
      expect(o.skinMats[1], 'twin shares body\'s skin matrices').toBe(o.skinMats[0]);
      expect(o.skinMats[2], 'offset (one inverse bind matrix moved) has its own').not.toBe(o.skinMats[0]);
      const ev = new SceneEvaluator(doc, 'c');
      const ch = doc.characters[0], rig = new Rig(ch);
      const refMats = ch.meshes.map((m) => new Float64Array(16 * m.skinJoints.length));
      const prevMats = ch.meshes.map((m) => new Float64Array(16 * m.skinJoints.length));
      for (let step = 0; step <= frames; step++) {
        const f = step === 0 ? 0 : Math.floor(r() * (frames + 1)); // sequential and jumps
        for (let mi = 0; mi < ch.meshes.length; mi++) prevMats[mi].set(refMats[mi]);
        ev.characterLocalPose(0, f / 10, rig.local);
        rig.computeWorld();
        for (let mi = 0; mi < ch.meshes.length; mi++) computeSkinMatrices(ch.meshes[mi], rig.world, refMats[mi]);
        scene.pose(f / 10, step > 0);
        scene.skinAll();
        for (let mi = 0; mi < ch.meshes.length; mi++) {
          const m = ch.meshes[mi];
          const weighted = new Set<number>();
          for (let k = 0; k < m.weights.length; k++) if (m.weights[k] !== 0) weighted.add(m.joints[k]);
          for (const s of weighted) {
            for (let e = 0; e < 16; e++) {
              expect(Object.is(o.skinMats[mi][s * 16 + e], refMats[mi][s * 16 + e]), `mesh ${m.name} slot ${s} entry ${e} at frame ${f}`).toBe(true);
              if (step > 0) expect(Object.is(o.prevSkinMats[mi][s * 16 + e], prevMats[mi][s * 16 + e]), `previous sample: mesh ${m.name} slot ${s} entry ${e}`).toBe(true);
            }
          }
          const ref = skinPositions(m, refMats[mi], new Float64Array(m.positions.length));
          const off = o.meshOffsets[mi] * 3;
          for (let k = 0; k < ref.length; k++) {
            if (!Object.is(o.positions[off + k], ref[k])) expect(o.positions[off + k], `mesh ${m.name} coordinate ${k} at frame ${f}`).toBe(ref[k]);
          }
        }
      }
    });
  }
});
