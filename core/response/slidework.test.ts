import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ContactState, ImpulseSolution, ImpulseSolver } from './index';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './index';
import { dot, len, makeLyingRagdoll, makeSimIsland, relativeVelocity, seededRandom } from './fixtures';

// Coulomb (slidingFriction 'coulomb'): a sliding contact's friction opposes its
// slip, so at the contact it only takes energy out. The paper's sliding rule (the impulse keeps the
// direction of the sticking impulse) could leave a sliding contact whose
// friction pushed along its post-solve slip (J_t · v_t > 0) while the island's
// total energy still fell (the guard of `solve` did not see it; a ragdoll's
// hand kept spinning on the ground). Checked over seeded random islands and
// the simulator's recorded calls: at every sliding contact without restitution
// (ε = 0: resting contacts; with ε > 0 the slip after is not the one friction
// acted on throughout) that stays closed after the solve (v⁺·n ≈ 0; an opening
// one has left off sliding, e.g. when others' restitution lifts it in the
// Poisson phases) J_t · v_t ≤ round-off, and every contact's impulse is inside
// its Coulomb cone. Not checked for work: solves that took the Poisson phases
// (an impact with restitution among the contacts): there a contact's total
// friction is the compression phase's plus the restitution phase's, each
// turned against its own phase's slip, and their sum can still point along
// the slip after (recorded call 69, contact 0); frictionLaw leaves contacts
// with restitution to the paper's rule (the simulator no longer re-solves them).

const jointsOnly = (b: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(b, j, []);

interface Call {
  index: number | string;
  bodies: RigidBodyInput[];
  joints: JointInput[];
  contacts: ContactInput[];
  options: SolveOptions;
}
const calls: Call[] = JSON.parse(readFileSync(new URL('./repro/sim-bench-solves.json', import.meta.url), 'utf8')).calls;
// ragdoll calls of the sim bench scene (frictionRounds 0) where the paper's sliding rule left friction
// pushing along a slip faster than 1 mm/s (recorded with the solver before `frictionLaw`)
const ragdollCalls: Call[] = JSON.parse(readFileSync(new URL('./repro/ragdoll-slide-calls.json', import.meta.url), 'utf8')).calls;

/** Checks the laws; returns the number of sliding contacts at ε = 0 with a slip (those the work law was checked on). */
function expectFrictionLaws(label: string, bodies: RigidBodyInput[], contacts: ContactInput[], sol: ImpulseSolution, work = true): number {
  let vs = 0;
  for (const b of bodies) vs = Math.max(vs, len(b.linearVelocity) + len(b.angularVelocity));
  let rmax = 0;
  for (let i = 0; i < 3 * contacts.length; i++) rmax = Math.max(rmax, Math.abs(sol.contactImpulse[i]));
  let checked = 0;
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i], n = c.normal;
    const a = bodies[c.bodyA], b = c.bodyB >= 0 ? bodies[c.bodyB] : null;
    const gamma = c.friction ?? Math.max(a.friction ?? 0, b ? (b.friction ?? 0) : 0);
    const eps = c.restitution ?? Math.min(a.restitution ?? 0, b ? (b.restitution ?? 0) : (a.restitution ?? 0));
    const I = { x: sol.contactImpulse[3 * i], y: sol.contactImpulse[3 * i + 1], z: sol.contactImpulse[3 * i + 2] };
    const rn = dot(I, n);
    const J = { x: I.x - rn * n.x, y: I.y - rn * n.y, z: I.z - rn * n.z };
    const rt = len(J);
    expect(rt, `${label}, contact ${i}: inside the cone`).toBeLessThanOrEqual(gamma * Math.max(rn, 0) * (1 + 1e-9) + 1e-10 * rmax);
    if (!work || sol.contactState[i] !== ContactState.Slide || eps > 0) continue;
    const v = relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point);
    const vn = dot(v, n);
    const vt = { x: v.x - vn * n.x, y: v.y - vn * n.y, z: v.z - vn * n.z };
    const s = len(vt);
    // (a contact that opens after the solve has left off sliding: its slip after is no longer resisted)
    if (!(s > 1e-9 * vs) || vn > 1e-9 * vs) continue;
    checked++;
    expect(dot(J, vt), `${label}, contact ${i}: sliding friction does no positive work on its slip (|v_t| ${s})`).toBeLessThanOrEqual(1e-8 * rt * s + 1e-12 * rmax * vs);
  }
  return checked;
}

describe('sliding friction opposes its slip (no positive work at a sliding contact) and stays in the cone', () => {
  it("the paper's rule (slidingFriction 'paper', the default) breaks it on the recorded ragdoll calls", () => {
    let broken = 0;
    for (const c of ragdollCalls) {
      const sol = new ImpulseSolver().solve(c.bodies, c.joints, c.contacts, c.options);
      // sliding ε = 0 contacts whose friction does positive work on a slip faster than 1 mm/s
      let pushing = 0;
      for (let i = 0; i < c.contacts.length; i++) {
        const ct = c.contacts[i], n = ct.normal;
        if (sol.contactState[i] !== ContactState.Slide || (ct.restitution ?? 0) > 0) continue;
        const I = { x: sol.contactImpulse[3 * i], y: sol.contactImpulse[3 * i + 1], z: sol.contactImpulse[3 * i + 2] };
        const rn = dot(I, n), J = { x: I.x - rn * n.x, y: I.y - rn * n.y, z: I.z - rn * n.z };
        const v = relativeVelocity(c.bodies, sol, ct.bodyA, ct.bodyB, ct.point), vn = dot(v, n);
        const vt = { x: v.x - vn * n.x, y: v.y - vn * n.y, z: v.z - vn * n.z };
        if (len(vt) > 1e-3 && dot(J, vt) > 1e-6 * len(J) * len(vt)) pushing++;
      }
      if (pushing > 0) broken++;
    }
    expect(broken, 'recorded calls whose paper answer has friction pushing along a slip').toBe(ragdollCalls.length);
  });

  it('seeded simulator-like islands (ragdoll, props, self-contacts), ε = 0, Coulomb γ 0.2–1, three models, cold and warm', () => {
    let checked = 0;
    for (let seed = 12000; seed < 12080; seed++) {
      const gamma = 0.2 + 0.8 * seededRandom(seed)();
      const { bodies, joints, contacts } = makeSimIsland(seed, gamma, 0, jointsOnly);
      for (const restitution of ['paper', 'poisson', 'normalOnly'] as const) {
        const solver = new ImpulseSolver();
        const sol = solver.solve(bodies, joints, contacts, { restitution, slidingFriction: 'coulomb' });
        checked += expectFrictionLaws(`seed ${seed}, ${restitution}`, bodies, contacts, sol);
        const warm = solver.solve(bodies, joints, contacts, { restitution, warmStart: true, slidingFriction: 'coulomb' });
        checked += expectFrictionLaws(`seed ${seed}, ${restitution}, warm`, bodies, contacts, warm);
      }
    }
    expect(checked, 'sliding contacts with a slip checked').toBeGreaterThan(50);
  });

  it('seeded ragdolls landing flat on the ground (4 corner contacts per part), ε = 0', () => {
    let checked = 0;
    for (let seed = 12100; seed < 12140; seed++) {
      const rand = seededRandom(seed);
      const { bodies, joints, contacts } = makeLyingRagdoll(rand, 4, { restitution: 0, friction: 0.2 + 0.6 * rand(), approachMps: 0.3, driftMps: 0.4, spinRadPerSec: 0.8, solveJoints: jointsOnly });
      const sol = new ImpulseSolver().solve(bodies, joints, contacts, { slidingFriction: 'coulomb' });
      checked += expectFrictionLaws(`ragdoll seed ${seed}`, bodies, contacts, sol);
    }
    expect(checked, 'sliding contacts with a slip checked').toBeGreaterThan(20);
  });

  it(`the simulator's recorded calls (repro/sim-bench-solves.json, ${calls.length} calls; repro/ragdoll-slide-calls.json, ${ragdollCalls.length} ragdoll calls)`, () => {
    let checked = 0, poisson = 0;
    for (const c of [...calls, ...ragdollCalls]) {
      const solver = new ImpulseSolver();
      const sol = solver.solve(c.bodies, c.joints, c.contacts, { ...c.options, slidingFriction: 'coulomb' });
      // (the Poisson phases' total is a compression impulse and a restitution-phase impulse, each
      // opposing its own phase's slip; their sum is checked for the cone only)
      const phases = solver.restitutionStats.poissonCalls > 0;
      if (phases) poisson++;
      checked += expectFrictionLaws(`recorded call ${c.index}`, c.bodies, c.contacts, sol, !phases);
    }
    expect(poisson, 'calls that took the Poisson phases').toBeLessThan(calls.length);
    expect(checked, 'sliding contacts with a slip checked').toBeGreaterThan(0);
  });
});
