import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImpulseDocument } from '../../document/types';
import { importGltf } from '../../io/importGltf';
import { SceneEvaluator } from '../../anim/evaluate';
import { SimWorld } from '../world';
import { boxPropAt, linearTranslation, lowestVertexY, mechanicalEnergy, sceneDoc } from '../testkit';
import { depthInProp } from './penetration';
import { bend } from './bend';

/**
 * Repro: the cone and twist limit corrections (after every step, rotations of
 * a joint's two parts about the joint point, split by inverse inertia) did
 * not look at keyframed meshes, unlike the joint anchor corrections: a
 * mannequin lying on its back on a static keyframed slab, one limb bent
 * 0.4 rad past its cone (or twist) limit, had the parent part turned into
 * the slab in the first steps, and nothing takes a vertex out of a mesh once
 * it is behind a face (the continuous detection culls back faces). The laws,
 * from a start with no vertex in the slab: no vertex goes into the slab by
 * more than 0.1 mm (winding-number brute force), no step exhausts its
 * sub-step budget, and the mechanical energy never grows by more than
 * 0.25 J in a step (as for the ragdoll on the ground).
 *
 * Status: holds. Before the fix: depth 11.0 mm (knee, cone), 5.5 mm (neck,
 * cone), 11.9 mm and 1 exhausted step (hip, cone), 4.1 mm (spine, cone),
 * 5.5 mm (hip, twist); with the position limit corrections switched off
 * every case stayed under 0.01 mm. Three causes (core/sim/world.ts):
 * - the limit turns ignored the slab: now both turns are scaled together so
 *   that no part vertex near the ground or a closed keyframed prop face
 *   crosses it (turnScale; the knee, hip and spine cases);
 * - the anchor corrections' face limits were lost when their buffer grew
 *   (zeros: no limit), so the neighbour joints a limit turn pulled apart
 *   were closed through the slab (the neck case);
 * - a vertex the corrections left exactly on a face (a rounding error
 *   behind it) fell through unseen: its swept box missed the face's flat box
 *   and, slow and "on one side", it was not queried; the corrections now stop
 *   vertices 10 µm in front of a face (the hip twist case).
 */

const SLAB_TOP = 0.3;
const SINK_M = 1e-4;
const STEP_GAIN_J = 0.25;
const STEPS = 30;
/** Default ragdoll limits (RagdollOptions): cone 1.2 rad, twist 0.8 rad. */
const CONE = 1.2, TWIST = 0.8;

let mannequin: Awaited<ReturnType<typeof importGltf>>['characters'][number] | null = null;
async function loadMannequin() {
  if (!mannequin) {
    const url = new URL('../../../assets/characters/mannequin.glb', import.meta.url);
    mannequin = (await importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb')).characters[0];
  }
  return mannequin;
}

/** The mannequin (rest pose) lying on its back, lowest vertex `gap` above a static keyframed 3 m × 10 cm × 3 m slab. */
async function lyingOnSlab(gap: number): Promise<{ doc: ImpulseDocument; w: SimWorld }> {
  const base = await loadMannequin();
  const make = (y: number) => {
    const slab = boxPropAt('slab', [1.5, 0.05, 1.5], [0, SLAB_TOP - 0.05, 0], { mode: 'keyframed' });
    const doc = sceneDoc([slab], { frames: 60, fps: 30, tracks: [linearTranslation('slab', 0, [0, SLAB_TOP - 0.05, 0], 2, [0, SLAB_TOP - 0.05, 0])] });
    const s = Math.SQRT1_2;
    doc.characters = [{ ...base, id: 'ragdoll', name: 'ragdoll', mode: 'dynamic', transform: { translation: [0, y, 0.9], rotation: [-s, 0, 0, s], scale: base.transform.scale } }];
    return { doc, w: new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0 }) };
  };
  const probe = make(0).w;
  const low = lowestVertexY(probe);
  return make(SLAB_TOP + gap - low);
}

const CASES: { joint: string; mode: 'cone' | 'twist'; angleRad: number }[] = [
  { joint: 'LeftLeg', mode: 'cone', angleRad: CONE + 0.4 },
  { joint: 'Head', mode: 'cone', angleRad: CONE + 0.4 },
  { joint: 'LeftUpLeg', mode: 'cone', angleRad: CONE + 0.4 },
  { joint: 'Spine1', mode: 'cone', angleRad: CONE + 0.4 },
  { joint: 'LeftUpLeg', mode: 'twist', angleRad: TWIST + 0.4 },
];

describe('repro: joint limit corrections turn ragdoll parts into keyframed meshes', () => {
  for (const c of CASES) {
    it(`mannequin lying on a keyframed slab, ${c.joint} turned ${c.angleRad.toFixed(1)} rad (${c.mode} limit + 0.4 rad): over ${STEPS} steps no vertex > ${SINK_M} m into the slab, no exhausted step, energy gain per step < ${STEP_GAIN_J} J`, async () => {
      const { doc, w } = await lyingOnSlab(1e-3);
      bend(w, c.joint, c.mode, c.angleRad);
      const ev = new SceneEvaluator(doc);
      expect(depthInProp(w, doc, ev, 0), 'depth into the slab at the start (m)').toBe(0);
      let prev = mechanicalEnergy(w), worstGain = -Infinity, deepest = 0, deepestAt = 0;
      for (let s = 0; s < STEPS; s++) {
        w.step();
        const e = mechanicalEnergy(w);
        worstGain = Math.max(worstGain, e - prev);
        prev = e;
        const d = depthInProp(w, doc, ev, 0);
        if (d > deepest) {
          deepest = d;
          deepestAt = w.timeSec;
        }
      }
      expect(deepest, `deepest vertex in the slab (m), at ${deepestAt.toFixed(4)} s`).toBeLessThan(SINK_M);
      expect(w.stats.budgetExceeded, 'steps whose sub-step budget ran out').toBe(0);
      expect(worstGain, 'largest energy gain in one step (J)').toBeLessThan(STEP_GAIN_J);
    }, 60_000);
  }
});
