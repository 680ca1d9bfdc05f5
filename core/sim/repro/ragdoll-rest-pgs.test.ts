import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImpulseDocument, Track } from '../../document/types';
import { importGltf } from '../../io/importGltf';
import { SimWorld } from '../world';
import { STATE_STRIDE } from '../rigid';
import { sceneDoc } from '../testkit';

/**
 * The laws of ragdoll-rest.test.ts (the mannequin dropped from its walk pose onto the ground) with
 * the resting-contact solver for the sub-step solves (WorldOptions.restingSolver 'pgs': projected
 * block Gauss–Seidel over the contacts, joints exact; calls that miss the tolerance are solved again
 * by the analytic solver): energy never grows by more than 0.25 J in a step after the first contact,
 * no vertex sinks more than 2e-5 m, every part asleep within 6.5 s. The same bounds as there.
 */
async function ragdollAlone(): Promise<ImpulseDocument> {
  const url = new URL('../../../assets/characters/mannequin.glb', import.meta.url);
  const imported = await importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb');
  const walk = imported.clips.find((c) => c.name === 'walk')!;
  const doc = sceneDoc([], { frames: 120, fps: 30 });
  const ch = { ...imported.characters[0], id: 'ragdoll', name: 'ragdoll', mode: 'dynamic' as const };
  doc.characters = [ch];
  doc.clips[0].tracks = walk.tracks.map((t): Track => (t.target.kind === 'joint' ? { ...t, target: { ...t.target, character: 'ragdoll' } } : t));
  return doc;
}

const STEP_GAIN_J = 0.25;
const REST_BY_SEC = 6.5;
const SINK_M = 2e-5;

describe("ragdoll dropped on the ground with restingSolver 'pgs'", () => {
  it(`dropped from the walk pose at 0 s: energy never grows by more than ${STEP_GAIN_J} J in a step after the first contact, no vertex below the ground by ${SINK_M} m, asleep by ${REST_BY_SEC} s; the resting solver answers sub-step solves`, async () => {
    const doc = await ragdollAlone();
    const w = new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0, restingSolver: 'pgs' });
    const B = w.bodies, st = B.state, g = -B.gravity[1];
    const energy = (): number => {
      let e = 0;
      for (let i = 0; i < B.count; i++) e += B.kineticEnergy(st, i) + (g * st[STATE_STRIDE * i + 1]) / B.invMass[i];
      return e;
    };
    const lowest = (): number => {
      let low = Infinity;
      for (let b = 0; b < B.count; b++) {
        const v = w.bodyVertices(b);
        for (let q = 1; q < v.length; q += 3) low = Math.min(low, v[q]);
      }
      return low;
    };
    let prev = energy(), worstGain = -Infinity, worstAt = 0, touched = false, lowY = Infinity, asleepAt = -1;
    while (w.timeSec < REST_BY_SEC + 1e-9) {
      w.step();
      const e = energy();
      if (touched && e - prev > worstGain) {
        worstGain = e - prev;
        worstAt = w.timeSec;
      }
      prev = e;
      if (!touched) touched = lowest() < doc.groundY! + 0.01;
      if (w.stats.steps % 6 === 0) lowY = Math.min(lowY, lowest());
      let awake = 0;
      for (let i = 0; i < B.count; i++) awake += w.awake[i];
      if (awake === 0 && asleepAt < 0) asleepAt = w.timeSec;
    }
    expect(touched, 'the ragdoll reached the ground').toBe(true);
    expect(worstGain, `largest energy gain in one step after the first contact (J), at ${worstAt.toFixed(3)} s`).toBeLessThan(STEP_GAIN_J);
    expect(lowY, 'lowest vertex (m) relative to the ground').toBeGreaterThan(doc.groundY! - SINK_M);
    expect(asleepAt, `every part asleep (s after the drop) within ${REST_BY_SEC} s`).toBeGreaterThan(0);
    expect(w.stats.restingSolves, 'sub-step solves given to the resting solver').toBeGreaterThan(100);
    expect(w.stats.restingFallbacks, 'of them solved again by the analytic solver (sweeps missed the tolerance)').toBeLessThan(w.stats.restingSolves);
  }, 180_000);
});
