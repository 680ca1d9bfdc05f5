import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from './index';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './index';
import { dot, kineticEnergy, len, makeLyingRagdoll, relativeVelocity, seededRandom, v3 } from './fixtures';

// `warmStart: true`: an island solved once per sub-step starts from the
// previous solve's contact states. Checked: every law at every step of a
// settling ragdoll; frictionless answers (unique velocities) equal the cold
// ones; a warm start with other counts is ignored (bit-identical to cold).

const jointsOnly = (b: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(b, j, []);

/** The ragdoll with 2, 3 (or alternately 2 and 3) of its 4 corner contacts per part, as the simulator's island has. */
function island(seed: number, perPart: 2 | 2.5 | 3, friction = 0.5) {
  const r = makeLyingRagdoll(seededRandom(seed), 4, { restitution: 0, friction, approachMps: 0.3, driftMps: 0.1, spinRadPerSec: 0.3, solveJoints: jointsOnly });
  const contacts = r.contacts.filter((_, i) => {
    const part = i >> 2, q = i & 3;
    const k = perPart === 2 ? 2 : perPart === 3 ? 3 : part % 2 ? 3 : 2;
    return k === 2 ? q === 0 || q === 3 : q !== 3;
  });
  return { bodies: r.bodies, joints: r.joints, contacts };
}

function expectLaws(label: string, bodies: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], sol: ImpulseSolution, gamma: number) {
  let vs = 0;
  for (const b of bodies) vs = Math.max(vs, len(b.linearVelocity) + len(b.angularVelocity));
  let rmax = 0;
  for (let i = 0; i < contacts.length; i++) rmax = Math.max(rmax, Math.abs(sol.contactImpulse[3 * i + 1]));
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i];
    const rn = sol.contactImpulse[3 * i + 1], rt = Math.hypot(sol.contactImpulse[3 * i], sol.contactImpulse[3 * i + 2]); // normals are +y
    expect(dot(relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point), c.normal) / vs, `${label}, contact ${i}: does not approach`).toBeGreaterThanOrEqual(-1e-9);
    expect(rn, `${label}, contact ${i}: pushes`).toBeGreaterThanOrEqual(-1e-9 * rmax);
    expect(rt, `${label}, contact ${i}: inside the cone`).toBeLessThanOrEqual(gamma * Math.max(rn, 0) * (1 + 1e-9) + 1e-10 * rmax); // (a contact with ≈ 0 impulse: round-off)
  }
  for (let j = 0; j < joints.length; j++) expect(len(relativeVelocity(bodies, sol, joints[j].bodyA, joints[j].bodyB, joints[j].point)) / vs, `${label}, joint ${j} holds`).toBeLessThan(1e-9);
  expect(kineticEnergy(bodies, sol), `${label}: energy after ≤ before`).toBeLessThanOrEqual(kineticEnergy(bodies, null) * (1 + 1e-12));
}

/** Runs `steps` sub-steps: each solve's velocities plus one 240 Hz step of gravity are the next input. Calls `check` with both solutions. */
function settle(bodies0: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], opts: SolveOptions, steps: number, check: (k: number, bodies: RigidBodyInput[], cold: ImpulseSolution, warm: ImpulseSolution) => void) {
  const cold = new ImpulseSolver(), warm = new ImpulseSolver();
  const outC = new ImpulseSolution(), outW = new ImpulseSolution();
  const bodies = bodies0.map((b) => ({ ...b }));
  for (let k = 0; k < steps; k++) {
    cold.solve(bodies, joints, contacts, opts, outC);
    warm.solve(bodies, joints, contacts, { ...opts, warmStart: true }, outW);
    check(k, bodies, outC, outW);
    for (let i = 0; i < bodies.length; i++) {
      bodies[i].linearVelocity = v3(outW.linearVelocity[3 * i], outW.linearVelocity[3 * i + 1] - 9.81 / 240, outW.linearVelocity[3 * i + 2]);
      bodies[i].angularVelocity = v3(outW.angularVelocity[3 * i], outW.angularVelocity[3 * i + 1], outW.angularVelocity[3 * i + 2]);
    }
  }
}

describe('warm start: a ragdoll island settling on the ground, one solve per sub-step', () => {
  for (const perPart of [2, 2.5, 3] as const)
    for (let seed = 1; seed <= 3; seed++)
      it(`${perPart} contacts per part, Coulomb, seed ${seed}: every law at every one of 24 steps`, () => {
        const { bodies, joints, contacts } = island(800 + seed, perPart);
        settle(bodies, joints, contacts, {}, 24, (k, b, cold, warm) => {
          expectLaws(`step ${k} (warm)`, b, joints, contacts, warm, 0.5);
          expectLaws(`step ${k} (cold)`, b, joints, contacts, cold, 0.5);
        });
      });
  for (const perPart of [2, 3] as const)
    it(`${perPart} contacts per part, frictionless: the same velocities as cold solves (they are unique) at every step`, () => {
      const { bodies, joints, contacts } = island(850 + perPart, perPart);
      settle(bodies, joints, contacts, { friction: 'frictionless' }, 24, (k, b, cold, warm) => {
        let vs = 0;
        for (const x of b) vs = Math.max(vs, len(x.linearVelocity) + len(x.angularVelocity));
        for (let q = 0; q < cold.linearVelocity.length; q++) {
          expect(Math.abs(cold.linearVelocity[q] - warm.linearVelocity[q]) / vs, `step ${k}: v[${q}]`).toBeLessThan(1e-9);
          expect(Math.abs(cold.angularVelocity[q] - warm.angularVelocity[q]) / vs, `step ${k}: ω[${q}]`).toBeLessThan(1e-9);
        }
      });
    });
  it('ignored when the contact count differs from the previous call: bit-identical to a cold solve', () => {
    const a = island(870, 3), b = island(871, 2);
    const warm = new ImpulseSolver(), cold = new ImpulseSolver();
    warm.solve(a.bodies, a.joints, a.contacts);
    const w = warm.solve(b.bodies, b.joints, b.contacts, { warmStart: true }, new ImpulseSolution());
    const c = cold.solve(b.bodies, b.joints, b.contacts, {}, new ImpulseSolution());
    expect(Array.from(w.linearVelocity)).toEqual(Array.from(c.linearVelocity));
    expect(Array.from(w.contactImpulse)).toEqual(Array.from(c.contactImpulse));
    expect(w.iterations).toBe(c.iterations);
  });
});
