import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ContactInput, RigidBodyInput } from '../../response/types';
import { SimWorld } from '../world';
import { lowestVertexY, mechanicalEnergy, ragdollWalkDoc } from '../testkit';

/**
 * The ragdoll's touch-downs in the sequential-impulse sub-step solves (restingSolver
 * 'si-restitution'): a contact bounces (ε > 0, Poisson's phase in the sweeps) only where its
 * rebound ε × approach is faster than the restitution threshold (0.1 m/s); a slower one, a hop of
 * under half a millimetre, is a resting contact. Before, every approach above the threshold
 * bounced, and Poisson's phase, as many sweeps again, ran in a third of the bench's solves.
 * Checked on every call of the mannequin's drop from its walk pose: the rule, read from the
 * solver's inputs (approach = −n · (v_A − v_B) at the point), is used both ways, and the drop keeps
 * repro ragdoll-rest's laws (energy gain per step, sinking).
 */
describe('rebounds slower than the restitution threshold are resting contacts in the sweeps', () => {
  it('the mannequin dropped at 0.5 s: ε > 0 only where ε × approach > 0.1 m/s; energy and sinking laws hold', async () => {
    const doc = await ragdollWalkDoc(new Uint8Array(readFileSync(new URL('../../../assets/characters/mannequin.glb', import.meta.url))));
    const eps = 0.2; // the ragdoll's default ε (buildRagdoll), given explicitly
    const w = new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0.5, ragdoll: { restitution: eps } });
    const thr = 0.1;
    let bounced = 0, heldBack = 0, wrong = 0;
    const solver = w.sequentialSolver, solve = solver.solve.bind(solver);
    const pointVelocity = (b: RigidBodyInput | undefined, p: ContactInput['point'], out: number[]) => {
      if (!b) return out.fill(0);
      const c = b.centerOfMass, v = b.linearVelocity, om = b.angularVelocity;
      const rx = p.x - c.x, ry = p.y - c.y, rz = p.z - c.z;
      out[0] = v.x + om.y * rz - om.z * ry;
      out[1] = v.y + om.z * rx - om.x * rz;
      out[2] = v.z + om.x * ry - om.y * rx;
      return out;
    };
    const va = [0, 0, 0], vb = [0, 0, 0];
    solver.solve = (bodies, joints, contacts, options, out) => {
      for (const ct of contacts) {
        pointVelocity(bodies[ct.bodyA], ct.point, va);
        // the scene has nothing keyframed: a keyframed B is the ground's stand-in for a speculative
        // contact (moving to close the gap exactly), so the approach is against the still ground
        const b = ct.bodyB >= 0 && !bodies[ct.bodyB].keyframed ? bodies[ct.bodyB] : undefined;
        pointVelocity(b, ct.point, vb);
        const n = ct.normal, approach = -(n.x * (va[0] - vb[0]) + n.y * (va[1] - vb[1]) + n.z * (va[2] - vb[2]));
        const e = ct.restitution ?? 0;
        if (e > 0) {
          bounced++;
          if (!(e * approach > thr * (1 - 1e-9))) wrong++;
        } else if (approach > thr * 1.01 && eps * approach < thr * 0.99) heldBack++;
      }
      return solve(bodies, joints, contacts, options, out);
    };
    const energy = (): number => mechanicalEnergy(w);
    let prev = energy(), worstGain = -Infinity, touched = false, lowY = Infinity;
    const start = w.timeSec;
    while (w.timeSec < start + 2 - 1e-9) {
      w.step();
      const e = energy();
      if (touched) worstGain = Math.max(worstGain, e - prev);
      prev = e;
      const low = lowestVertexY(w);
      if (low < doc.groundY! + 0.01) touched = true;
      lowY = Math.min(lowY, low);
    }
    expect(wrong, 'contacts given ε > 0 whose rebound ε × approach is below the threshold').toBe(0);
    expect(bounced, 'touch-downs that bounce (the rule is used)').toBeGreaterThan(0);
    expect(heldBack, 'approaches above the threshold whose rebound is below it, solved as resting contacts').toBeGreaterThan(0);
    expect(worstGain, 'largest energy gain in one step after the first contact (J)').toBeLessThan(0.25);
    expect(lowY, 'lowest vertex (m) relative to the ground').toBeGreaterThan(doc.groundY! - 2e-5);
  }, 120_000);
});
