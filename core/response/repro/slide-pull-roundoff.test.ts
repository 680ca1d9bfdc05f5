import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from '../index';
import type { ContactInput, JointInput, RigidBodyInput } from '../index';

// A ragdoll settling with 3 of its 4 corner contacts per part (the warm-start
// test's island, seed 801, the input of its 16th sub-step). A sliding
// contact ended with a pulling normal impulse of −2.2e-10 (inside the
// −1e-9·scale round-off allowance of the Painlevé check), so its friction
// γ|λ| = 1.1e-10 lay outside the cone by 3.6e-10 of the largest impulse.
// The allowance is now 1e-10·scale / max(1, γ): a larger pull drops the
// friction, a smaller one leaves friction of round-off size.

const { bodies, joints, contacts }: { bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[] } = JSON.parse(
  readFileSync(new URL('./slide-pull-roundoff.json', import.meta.url), 'utf8'),
);

describe('repro: a sliding contact with a round-off pull', () => {
  for (const contactSpace of [true, false])
    it(`keeps every impulse in its cone (γ = 0.5; contact space ${contactSpace ? 'on' : 'off'})`, () => {
      const s = new ImpulseSolver();
      s.contactSpace = contactSpace;
      const out = s.solve(bodies, joints, contacts, {}, new ImpulseSolution());
      let rmax = 0;
      for (let i = 0; i < contacts.length; i++) rmax = Math.max(rmax, Math.abs(out.contactImpulse[3 * i + 1]));
      for (let i = 0; i < contacts.length; i++) {
        const rn = out.contactImpulse[3 * i + 1], rt = Math.hypot(out.contactImpulse[3 * i], out.contactImpulse[3 * i + 2]); // normals +y
        expect(rn, `contact ${i} pushes`).toBeGreaterThanOrEqual(-1e-9 * rmax);
        expect(rt, `contact ${i} inside the cone`).toBeLessThanOrEqual(0.5 * Math.max(rn, 0) * (1 + 1e-9) + 1e-10 * rmax);
      }
    });
});
