import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SimWorld } from '../world';
import { parseDocument } from '../../document/parse';

/**
 * Repro: the mannequin as a ragdoll, collapsing from its walk pose onto the
 * ground. With joint limits corrected at position level, a lifted part whose
 * joints were closed again in the next drift, and a limb held by two ground
 * points that rolled about their line, were pushed into the ground again at
 * once: impact events at the same instant, step after step, until the
 * sub-step budget ran out (686 events, 41 exhausted steps in 1.25 s).
 * Again with Coulomb's sliding friction in the solver (1 exhausted step, 34
 * events): the right forearm's vertex on the keyframed table was hit at the
 * start of the sub-step (τ = 0, 0.027 m/s over the sub-step) while its
 * contact separated at the velocity level (+0.14 m/s), so the impact solve
 * had nothing to act on and the same event repeated. Now an impact event
 * without an approaching contact leaves its hits to the resting contacts for
 * the step, and held mesh pairs join the solve when its answer makes them
 * approach (SimWorld.addMeshContactsAfterSolve): 16 events, none exhausted.
 */
describe('repro: ragdoll on the ground, impacts repeated at one instant', () => {
  it('the walking mannequin collapses with few impact events and no exhausted step', () => {
    const doc = parseDocument(readFileSync(new URL('../../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));
    const w = new SimWorld(doc, { dynamic: ['Mannequin'], startTimeSec: 0.3, clipId: 'clip_walk' });
    let lowest = Infinity;
    for (let i = 0; i < 300; i++) w.step();
    for (let b = 0; b < w.bodies.count; b++) {
      const v = w.bodyVertices(b);
      for (let q = 1; q < v.length; q += 3) lowest = Math.min(lowest, v[q]);
    }
    expect(w.stats.budgetExceeded, 'steps whose sub-step budget ran out').toBe(0);
    expect(w.stats.impactEvents, 'impact events in 1.25 s').toBeLessThan(60);
    expect(lowest, 'no part below the ground (m)').toBeGreaterThan(doc.groundY! - 1e-3);
  });
});
