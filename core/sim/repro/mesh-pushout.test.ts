import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImpulseDocument } from '../../document/types';
import { importGltf } from '../../io/importGltf';
import { SceneEvaluator } from '../../anim/evaluate';
import { SimWorld } from '../world';
import { STATE_STRIDE } from '../rigid';
import { boxPropAt, linearTranslation, lowestVertexY, sceneDoc } from '../testkit';
import { depthInProp } from './penetration';

/**
 * Repro: a dynamic body's vertex already inside a keyframed prop mesh was
 * only kept from going deeper (the joint corrections' one-sided limits, the
 * resting contacts), never taken out: the continuous detection culls the
 * back faces it is behind, and no position correction looked at meshes
 * (only the ground had its projection). A box prop or a ragdoll lying 3 mm
 * into a keyframed slab stayed there. The laws: the depth (winding-number
 * brute force) is below 0.1 mm within 0.25 s and stays so, by position
 * corrections only: in a step the mechanical energy never grows by more than
 * taking the depth out may raise it (the total weight times the depth at the
 * start of the step) plus a tolerance (1 mJ for the box; for the ragdoll the
 * 0.25 J of repro/ragdoll-rest), and no step exhausts its sub-step budget.
 *
 * Status: fails before the fix: after 0.25 s the box is 28.3 mm (static
 * slab) / 24.9 mm (moving) deep (its vertices behind faces the detection
 * culls, it sinks), the ragdoll 3.4 mm.
 */

const SLAB_TOP = 0.3;
const SINK_M = 1e-4;
const OUT_BY_STEP = 60; // 0.25 s at 240 Hz
const STEPS = 120;

function energies(w: SimWorld): { kinetic: number; total: number } {
  const B = w.bodies, st = B.state, g = -B.gravity[1];
  let k = 0, p = 0;
  for (let i = 0; i < B.count; i++) {
    k += B.kineticEnergy(st, i);
    p += (g * st[STATE_STRIDE * i + 1]) / B.invMass[i];
  }
  return { kinetic: k, total: k + p };
}

function slabDoc(speedMps: number, frames = 120): ImpulseDocument {
  const c = SLAB_TOP - 0.05;
  const slab = boxPropAt('slab', [1.5, 0.05, 1.5], [0, c, 0], { mode: 'keyframed' });
  return sceneDoc([slab], { frames, fps: 30, tracks: [linearTranslation('slab', 0, [0, c, 0], 10, [10 * speedMps, c, 0])] });
}

interface Run { depthAtOutM: number; depthAfterM: number; startDepthM: number; worstExcessJ: number; worstAt: number; exhausted: number }

/** Runs STEPS steps; worstExcessJ: the largest energy gain in a step beyond total weight × depth at the start of that step. */
function run(doc: ImpulseDocument, dynamic: string[]): Run {
  const w = new SimWorld(doc, { dynamic, startTimeSec: 0 });
  const ev = new SceneEvaluator(doc);
  const B = w.bodies;
  let weightN = 0;
  for (let i = 0; i < B.count; i++) weightN += -B.gravity[1] / B.invMass[i];
  const startDepthM = depthInProp(w, doc, ev, 0);
  let prev = energies(w).total, depth = startDepthM, worstExcessJ = -Infinity, worstAt = 0, depthAtOutM = 0, depthAfterM = 0;
  for (let s = 1; s <= STEPS; s++) {
    w.step();
    const e = energies(w).total;
    if (e - prev - weightN * depth > worstExcessJ) {
      worstExcessJ = e - prev - weightN * depth;
      worstAt = w.timeSec;
    }
    prev = e;
    depth = depthInProp(w, doc, ev, 0);
    if (s === OUT_BY_STEP) depthAtOutM = depth;
    else if (s > OUT_BY_STEP) depthAfterM = Math.max(depthAfterM, depth);
  }
  return { depthAtOutM, depthAfterM, startDepthM, worstExcessJ, worstAt, exhausted: w.stats.budgetExceeded };
}

function expectLaws(r: Run, toleranceJ: number): void {
  expect(r.startDepthM, 'depth into the slab at the start (m)').toBeGreaterThan(2e-3);
  expect(r.depthAtOutM, `depth into the slab after ${OUT_BY_STEP} steps (m)`).toBeLessThan(SINK_M);
  expect(r.depthAfterM, `deepest into the slab after that (m)`).toBeLessThan(SINK_M);
  expect(r.worstExcessJ, `largest energy gain in one step beyond weight × depth (J), at ${r.worstAt.toFixed(4)} s`).toBeLessThan(toleranceJ);
  expect(r.exhausted, 'steps whose sub-step budget ran out').toBe(0);
}

describe('repro: a vertex inside a keyframed mesh is never pushed out', () => {
  for (const speed of [0, 0.05]) {
    it(`a 2 kg box prop 3 mm into a keyframed slab ${speed ? `moving at ${speed} m/s` : 'with static keys'}: out (< ${SINK_M} m) within ${OUT_BY_STEP} steps and stays out, energy gain per step < weight × depth + 1 mJ`, () => {
      const doc = slabDoc(speed);
      doc.props.push(boxPropAt('box', [0.1, 0.08, 0.12], [0.05, SLAB_TOP + 0.08 - 3e-3, -0.03], { mode: 'dynamic', massKg: 2, friction: 0.6 }));
      expectLaws(run(doc, ['box']), 1e-3);
    });
  }

  it(`the mannequin lying on its back 3 mm into a keyframed slab: out (< ${SINK_M} m) within ${OUT_BY_STEP} steps and stays out, energy gain per step < weight × depth + 0.25 J`, async () => {
    const url = new URL('../../../assets/characters/mannequin.glb', import.meta.url);
    const base = (await importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb')).characters[0];
    const make = (y: number): ImpulseDocument => {
      const doc = slabDoc(0);
      const s = Math.SQRT1_2;
      doc.characters = [{ ...base, id: 'ragdoll', name: 'ragdoll', mode: 'dynamic', transform: { translation: [0, y, 0.9], rotation: [-s, 0, 0, s], scale: base.transform.scale } }];
      return doc;
    };
    const probe = new SimWorld(make(0), { dynamic: ['ragdoll'], startTimeSec: 0 });
    const low = lowestVertexY(probe);
    expectLaws(run(make(SLAB_TOP - 3e-3 - low), ['ragdoll']), 0.25);
  }, 60_000);
});
