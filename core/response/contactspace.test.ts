import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from './index';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './index';
import { approachingContact, dot, kineticEnergy, len, makeChain, makeSimIsland, relativeVelocity, seededRandom, v3 } from './fixtures';

// The contact-space solve (`ImpulseSolver.contactSpace`, default): each
// contact-state pass without eliminated bodies gathers its Schur complement
// from A = B K⁻¹ Bᵀ over the basis rows (n, t₁, t₂ of every contact), built
// once per tree factorization, and solves it least-norm over the
// uncompressed rows. References: the compressed, tree-built Schur complement
// of every pass (`contactSpace = false`, the solver before), and the dense
// Gaussian elimination of the whole system (`linearSolver: 'dense'`).

const jointsOnly = (b: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(b, j, []);

const island = (seed: number, friction: number, eps: number) => makeSimIsland(seed, friction, eps, jointsOnly);

function gammaOf(bodies: readonly RigidBodyInput[], c: ContactInput): number {
  const gA = bodies[c.bodyA].friction ?? 0, gB = c.bodyB >= 0 ? (bodies[c.bodyB].friction ?? 0) : 0;
  return c.friction ?? Math.max(gA, gB);
}

/** Laws of a unilateral solve with every body dynamic: contacts push, stay in their cones, do not approach; joints hold; energy does not rise. */
function expectLaws(label: string, bodies: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], sol: ImpulseSolution, friction: 'coulomb' | 'rough' | 'frictionless') {
  let vs = 0;
  for (const b of bodies) vs = Math.max(vs, len(b.linearVelocity) + len(b.angularVelocity));
  let rmax = 0;
  for (let i = 0; i < 3 * contacts.length; i++) rmax = Math.max(rmax, Math.abs(sol.contactImpulse[i]));
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i], n = c.normal;
    const I = v3(sol.contactImpulse[3 * i], sol.contactImpulse[3 * i + 1], sol.contactImpulse[3 * i + 2]);
    const rn = dot(I, n), rt = Math.hypot(I.x - rn * n.x, I.y - rn * n.y, I.z - rn * n.z);
    expect(dot(relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point), n) / vs, `${label}, contact ${i}: does not approach`).toBeGreaterThanOrEqual(-1e-9);
    expect(rn, `${label}, contact ${i}: pushes`).toBeGreaterThanOrEqual(-1e-9 * rmax);
    if (friction === 'coulomb') expect(rt, `${label}, contact ${i}: inside the cone`).toBeLessThanOrEqual(gammaOf(bodies, c) * Math.max(rn, 0) * (1 + 1e-9) + 1e-10 * rmax);
    if (friction === 'frictionless') expect(rt, `${label}, contact ${i}: no friction`).toBeLessThanOrEqual(1e-9 * rmax);
  }
  for (let j = 0; j < joints.length; j++) expect(len(relativeVelocity(bodies, sol, joints[j].bodyA, joints[j].bodyB, joints[j].point)) / vs, `${label}, joint ${j} holds`).toBeLessThan(1e-9);
  const e0 = kineticEnergy(bodies, null);
  expect(kineticEnergy(bodies, sol), `${label}: energy after ≤ before`).toBeLessThanOrEqual(e0 * (1 + 1e-12) + 1e-15);
}

function maxVelocityDiff(a: ImpulseSolution, b: ImpulseSolution, n: number): number {
  let d = 0;
  for (let i = 0; i < 3 * n; i++) d = Math.max(d, Math.abs(a.linearVelocity[i] - b.linearVelocity[i]), Math.abs(a.angularVelocity[i] - b.angularVelocity[i]));
  return d;
}

describe('contact-space solve of the contact-state passes', () => {
  it('matches the compressed tree-built Schur solve on seeded islands and keeps every law (seed 7300, 160 islands, Coulomb / rough / frictionless, three models, schur and auto groups)', () => {
    const cs = new ImpulseSolver(), ref = new ImpulseSolver();
    ref.contactSpace = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    let same = 0;
    for (let k = 0; k < 160; k++) {
      const friction = [0.3, 0.8, Infinity, 0][k % 4], eps = [0, 0.3, 0.6][k % 3];
      const isl = island(7300 + k, friction, eps);
      const options: SolveOptions = { restitution: (['paper', 'poisson', 'normalOnly'] as const)[k % 3], contactGroups: k % 2 ? 'schur' : 'auto' };
      const laws = cs.frictionLawStats.solves + ref.frictionLawStats.solves;
      cs.solve(isl.bodies, isl.joints, isl.contacts, options, a);
      ref.solve(isl.bodies, isl.joints, isl.contacts, options, b);
      // (where the friction was solved again by Coulomb's law — the paper's sliding rule left a
      // sliding contact's friction pushing along its slip — both answers come from that same
      // solve (in contact space either way), started from answers that differ by round-off; its
      // split of the friction among redundant sticking contacts follows its iteration, not a
      // least-norm rule. Those islands are checked for the laws only, above.)
      const lawSolved = cs.frictionLawStats.solves + ref.frictionLawStats.solves > laws;
      const model = friction === 0 ? 'frictionless' : friction === Infinity ? 'rough' : 'coulomb';
      // (normalOnly with ε > 0 may add energy by design: its laws are those of the other models minus that one)
      if (options.restitution !== 'normalOnly' || eps === 0) expectLaws(`island ${k}`, isl.bodies, isl.joints, isl.contacts, a, model);
      let states = true;
      for (let c = 0; c < isl.contacts.length; c++) if (a.contactState[c] !== b.contactState[c]) states = false;
      if (!states) continue;
      same++;
      if (lawSolved) continue;
      let vs = 0, rmax = 0;
      for (const bd of isl.bodies) vs = Math.max(vs, len(bd.linearVelocity) + len(bd.angularVelocity));
      for (let i = 0; i < 3 * isl.contacts.length; i++) rmax = Math.max(rmax, Math.abs(b.contactImpulse[i]));
      expect(maxVelocityDiff(a, b, isl.bodies.length) / vs, `island ${k}: velocities as the compressed solve's`).toBeLessThan(1e-7);
      // the same least-norm split of the impulse among redundant contacts
      for (let i = 0; i < 3 * isl.contacts.length; i++) expect(Math.abs(a.contactImpulse[i] - b.contactImpulse[i]) / rmax, `island ${k}: contact impulse ${i}`).toBeLessThan(1e-6);
    }
    // (least-squares compromises of contradicting passes may take another path; most islands must not)
    expect(same, 'islands ending in the same contact states as the compressed solve').toBeGreaterThan(150);
    expect(cs.contactSpaceStats.passes, 'passes solved in contact space').toBeGreaterThan(300);
    expect(ref.contactSpaceStats.passes, 'none when switched off').toBe(0);
  });

  it('agrees with the dense Gaussian elimination on chains with contacts at several links (seeds 1–40, 2–30 links, frictionless, rough and Coulomb)', () => {
    const s = new ImpulseSolver();
    const a = new ImpulseSolution(), d = new ImpulseSolution();
    for (let seed = 1; seed <= 40; seed++) {
      const rand = seededRandom(seed);
      const n = 2 + Math.floor(rand() * 29);
      const { bodies, joints } = makeChain(n, rand);
      const contacts: ContactInput[] = [];
      const nC = 1 + Math.floor(rand() * Math.min(4, n));
      for (let k = 0; k < nC; k++) {
        const body = Math.floor((k * n) / nC + rand() * (n / nC));
        contacts.push(approachingContact(bodies, body, -1, rand, { restitution: 0.5 * rand(), friction: [0, Infinity, 0.6][seed % 3] }));
      }
      // equalities (the paper's system): one answer, which both must find
      const options: SolveOptions = { unilateral: false };
      s.solve(bodies, joints, contacts, options, a);
      s.solve(bodies, joints, contacts, { ...options, linearSolver: 'dense' }, d);
      let vs = 0;
      for (const b of bodies) vs = Math.max(vs, len(b.linearVelocity) + len(b.angularVelocity));
      expect(maxVelocityDiff(a, d, n) / vs, `seed ${seed} (${n} links, ${nC} contacts): velocities as the dense solve's`).toBeLessThan(1e-9);
      for (let i = 0; i < contacts.length; i++) expect(a.contactState[i], `seed ${seed}: contact ${i} state`).toBe(d.contactState[i]);
    }
  });

  it('gives the compressed solve\u2019s answers on the recorded simulator calls (repro fixture)', () => {
    interface Call { index: number | string; bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[]; options: SolveOptions }
    const calls: Call[] = JSON.parse(readFileSync(new URL('./repro/sim-bench-solves.json', import.meta.url), 'utf8')).calls;
    const cs = new ImpulseSolver(), ref = new ImpulseSolver();
    ref.contactSpace = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    let compared = 0;
    for (const c of calls) {
      const ls0 = cs.contactSpaceStats.leastSquares;
      cs.solve(c.bodies, c.joints, c.contacts, c.options, a);
      ref.solve(c.bodies, c.joints, c.contacts, c.options, b);
      // (a pass whose rows contradict each other gets another least-squares compromise, from which
      // the contact states may take another path to an answer with the same laws: checked in
      // sim-bench-solves.test.ts)
      if (cs.contactSpaceStats.leastSquares !== ls0) continue;
      compared++;
      for (let i = 0; i < c.contacts.length; i++) expect(a.contactState[i], `call ${c.index}: contact ${i} state`).toBe(b.contactState[i]);
      let vs = 0;
      for (const bd of c.bodies) vs = Math.max(vs, len(bd.linearVelocity) + len(bd.angularVelocity));
      expect(maxVelocityDiff(a, b, c.bodies.length) / vs, `call ${c.index}: velocities`).toBeLessThan(1e-7);
    }
    expect(compared, 'recorded calls compared').toBeGreaterThanOrEqual(2);
    expect(cs.contactSpaceStats.passes, 'passes solved in contact space').toBeGreaterThan(calls.length);
  });
});
