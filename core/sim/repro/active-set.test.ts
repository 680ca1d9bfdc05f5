import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImpulseDocument } from '../../document/types';
import { SimWorld } from '../world';
import { lowestVertexY, mechanicalEnergy, ragdollWalkDoc } from '../testkit';

/**
 * The active set of the ragdoll ground contacts (world.ts solveContacts): after a solve, band
 * vertices the solved velocities carry below the ground join the contacts and the island is solved
 * again. Its likely members are now speculative contacts of the first solve
 * (addGroundCandidatesBeforeSolve), so most sub-steps need one sequential-impulse call, not two.
 * Checked against the same world without them (the method made a no-op), the mannequin dropped as a
 * ragdoll from its walk pose at 0.5 s, for 3.5 s: both keep the laws of repro ragdoll-rest (after
 * the first contact the mechanical energy grows by less than 0.25 J in any step; no vertex below
 * the ground by 2e-5 m), and the speculative contacts take fewer solver calls and fewer active-set
 * additions (measured: 561 calls and 49 additions with them, 874 and 482 without).
 */
const ragdollAlone = (): Promise<ImpulseDocument> => ragdollWalkDoc(new Uint8Array(readFileSync(new URL('../../../assets/characters/mannequin.glb', import.meta.url))));

const STEP_GAIN_J = 0.25;
const SINK_M = 2e-5;
const RUN_SEC = 3.5;

describe('active set: the likely ground vertices as speculative contacts of the first solve', () => {
  it('the ragdoll drop at 0.5 s: energy and sinking laws with and without them, fewer solver calls with them', async () => {
    const doc = await ragdollAlone();
    const run = (pre: boolean) => {
      const w = new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0.5 });
      if (!pre) (w as unknown as { addGroundCandidatesBeforeSolve: () => void }).addGroundCandidatesBeforeSolve = () => {};
      const energy = (): number => mechanicalEnergy(w);
      const start = w.timeSec;
      let prev = energy(), worstGain = -Infinity, touched = false, lowY = Infinity;
      while (w.timeSec < start + RUN_SEC - 1e-9) {
        w.step();
        const e = energy();
        if (touched) worstGain = Math.max(worstGain, e - prev);
        prev = e;
        const low = lowestVertexY(w);
        if (!touched) touched = low < doc.groundY! + 0.01;
        lowY = Math.min(lowY, low);
      }
      return { touched, worstGain, lowY, solves: w.stats.restingSolves, added: w.stats.activeSetContacts };
    };
    const withPre = run(true), without = run(false);
    for (const [name, r] of [['with', withPre], ['without', without]] as const) {
      expect(r.touched, `${name}: the ragdoll reached the ground`).toBe(true);
      expect(r.worstGain, `${name}: largest energy gain in one step after the first contact (J)`).toBeLessThan(STEP_GAIN_J);
      expect(r.lowY, `${name}: lowest vertex (m) relative to the ground`).toBeGreaterThan(doc.groundY! - SINK_M);
    }
    // the speculative contacts were exercised: the first solves had most of what the rounds added
    expect(withPre.added, 'active-set contacts added after a solve').toBeLessThan(without.added / 2);
    expect(withPre.solves, 'sequential-impulse calls').toBeLessThan(without.solves);
  }, 180_000);
});
