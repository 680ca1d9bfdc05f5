import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from './index';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './index';
import { makeSimIsland } from './fixtures';
import { solutionDifference } from './testkit';

// The contact-space passes keep the factors of their Schur complements while the
// tree factorization stands, and a later pass with the same rows takes them (and
// the answer, when its right-hand side is the same too). Reference: the same
// solver with the cache switched off, which factors every pass. Bit for bit.

const jointsOnly = (b: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(b, j, []);

function expectSame(label: string, nb: number, nc: number, nj: number, a: ImpulseSolution, b: ImpulseSolution) {
  expect(solutionDifference(nb, nc, nj, a, b), label).toBeNull();
}

describe('pass factor cache of the contact-space solve', () => {
  it('gives bit-identical answers to factoring every pass (seed 9400, 240 islands, Coulomb / rough / frictionless, three models, schur and auto groups)', () => {
    const withCache = new ImpulseSolver(), without = new ImpulseSolver();
    without.reusePassFactors = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    for (let k = 0; k < 240; k++) {
      const friction = [0.3, 0.8, Infinity, 0][k % 4], eps = [0, 0.3, 0.6][k % 3];
      const isl = makeSimIsland(9400 + k, friction, eps, jointsOnly);
      const options: SolveOptions = { restitution: (['paper', 'poisson', 'normalOnly'] as const)[k % 3], contactGroups: k % 2 ? 'schur' : 'auto' };
      withCache.solve(isl.bodies, isl.joints, isl.contacts, options, a);
      without.solve(isl.bodies, isl.joints, isl.contacts, options, b);
      expectSame(`island ${k}`, isl.bodies.length, isl.contacts.length, isl.joints.length, a, b);
    }
    // (the comparison means something only when factors were actually taken from the cache)
    expect(withCache.passCacheStats.factorsReused, 'factorizations taken from the cache over the 240 islands').toBeGreaterThan(20);
    expect(without.passCacheStats.lookups, 'no lookups when switched off').toBe(0);
  });

  it('gives bit-identical answers on the recorded simulator calls (sim bench scene), one solver for all as the simulator has', () => {
    interface Call { index: number | string; bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[]; options: SolveOptions }
    const calls: Call[] = JSON.parse(readFileSync(new URL('./repro/sim-bench-solves.json', import.meta.url), 'utf8')).calls;
    const withCache = new ImpulseSolver(), without = new ImpulseSolver();
    without.reusePassFactors = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    for (const c of calls) {
      withCache.solve(c.bodies, c.joints, c.contacts, c.options, a);
      without.solve(c.bodies, c.joints, c.contacts, c.options, b);
      expectSame(`recorded call ${c.index}`, c.bodies.length, c.contacts.length, c.joints.length, a, b);
    }
    expect(withCache.passCacheStats.factorsReused, 'factorizations taken from the cache on the recorded calls').toBeGreaterThan(0);
  });
});
