import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from './index';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './index';
import { makeSimIsland } from './fixtures';
import { solutionDifference } from './testkit';

// The low-rank Schur solve of islands whose touched bodies are all eliminated
// (a ragdoll lying on the ground) forms M = C₁ᵀC₂ (K×K); with every impulse
// along its condition direction C₂ = C₁, and M is summed as a symmetric
// product (lower triangle over the nonzeros of the pivoted Cholesky factor,
// mirrored). Reference: the same solver forming the full product. Bit for bit.

function expectSame(label: string, nb: number, nc: number, nj: number, a: ImpulseSolution, b: ImpulseSolution) {
  expect(solutionDifference(nb, nc, nj, a, b), label).toBeNull();
}

interface Call { index: number | string; bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[]; options: SolveOptions }
const load = (name: string): Call[] => JSON.parse(readFileSync(new URL(`./repro/${name}`, import.meta.url), 'utf8'), (_k, v) => (v === 1e308 ? Infinity : v)).calls;

describe('symmetric product M = C₁ᵀC₁ of the low-rank Schur solve', () => {
  it('gives bit-identical answers to the full product on the recorded simulator calls (sim bench scene; paper and Coulomb sliding friction)', () => {
    const fast = new ImpulseSolver(), full = new ImpulseSolver();
    full.symmetricLowRankProduct = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    for (const [file, sliding] of [['sim-bench-solves.json', 'paper'], ['ragdoll-slide-calls.json', 'coulomb']] as const) {
      fast.slidingFriction = full.slidingFriction = sliding;
      for (const c of load(file)) {
        fast.solve(c.bodies, c.joints, c.contacts, c.options, a);
        full.solve(c.bodies, c.joints, c.contacts, c.options, b);
        expectSame(`${file} call ${c.index}`, c.bodies.length, c.contacts.length, c.joints.length, a, b);
      }
    }
    // (the comparison means something only when the symmetric product was formed)
    expect(fast.lowRankStats.symmetric, 'low-rank solves with the symmetric product on the recorded calls').toBeGreaterThan(5);
    expect(full.lowRankStats.symmetric, 'none when switched off').toBe(0);
  });

  it('gives bit-identical answers on seeded islands (seed 9600, 160 islands, Coulomb / rough / frictionless, eliminated groups)', () => {
    const jointsOnly = (bd: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(bd, j, []);
    const fast = new ImpulseSolver(), full = new ImpulseSolver();
    full.symmetricLowRankProduct = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    for (let k = 0; k < 160; k++) {
      const friction = [0.3, 0.8, Infinity, 0][k % 4], eps = [0, 0.3][k % 2];
      const isl = makeSimIsland(9600 + k, friction, eps, jointsOnly);
      const options: SolveOptions = { contactGroups: k % 3 === 0 ? 'eliminate' : 'auto' };
      fast.solve(isl.bodies, isl.joints, isl.contacts, options, a);
      full.solve(isl.bodies, isl.joints, isl.contacts, options, b);
      expectSame(`island ${k}`, isl.bodies.length, isl.contacts.length, isl.joints.length, a, b);
    }
    expect(fast.lowRankStats.symmetric, 'low-rank solves with the symmetric product on the seeded islands').toBeGreaterThan(0);
  });
});
