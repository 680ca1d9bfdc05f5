import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from './index';
import type { JointInput, RigidBodyInput, SolveOptions } from './index';
import { makeSimIsland } from './fixtures';

// The path-based Schur build keeps the rows of the previous pass of the
// contact-state loop that did not change (same G, J, bodies; same tree
// factorization). Reference: the same solver with the reuse switched off,
// which rebuilds every row every pass. The answers must be bit-identical.

const jointsOnly = (b: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(b, j, []);

const island = (seed: number, friction: number, eps: number) => makeSimIsland(seed, friction, eps, jointsOnly);

describe('Schur row reuse across contact-state passes', () => {
  it('gives bit-identical answers to rebuilding every row (seed 9100, 200 islands, Coulomb / rough / frictionless, three models, schur and auto groups)', () => {
    const withReuse = new ImpulseSolver(), without = new ImpulseSolver();
    without.reuseSchurRows = false;
    // (the compressed tree-built Schur complement every pass, where the reuse lives)
    withReuse.contactSpace = false;
    without.contactSpace = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    let compared = 0;
    for (let k = 0; k < 200; k++) {
      const friction = [0.3, 0.8, Infinity, 0][k % 4], eps = [0, 0.3, 0.6][k % 3];
      const isl = island(9100 + k, friction, eps);
      const options: SolveOptions = { restitution: (['paper', 'poisson', 'normalOnly'] as const)[k % 3], contactGroups: k % 2 ? 'schur' : 'auto' };
      withReuse.solve(isl.bodies, isl.joints, isl.contacts, options, a);
      without.solve(isl.bodies, isl.joints, isl.contacts, options, b);
      for (let i = 0; i < 3 * isl.bodies.length; i++) {
        expect(a.linearVelocity[i], `island ${k}: linear velocity ${i}`).toBe(b.linearVelocity[i]);
        expect(a.angularVelocity[i], `island ${k}: angular velocity ${i}`).toBe(b.angularVelocity[i]);
      }
      for (let i = 0; i < 3 * isl.contacts.length; i++) expect(a.contactImpulse[i], `island ${k}: contact impulse ${i}`).toBe(b.contactImpulse[i]);
      for (let i = 0; i < isl.contacts.length; i++) expect(a.contactState[i], `island ${k}: contact state ${i}`).toBe(b.contactState[i]);
      compared++;
    }
    expect(compared).toBe(200);
    // (the comparison means something only when rows were actually reused)
    expect(withReuse.schurCacheStats.rowsReused, 'rows reused over the 200 islands').toBeGreaterThan(100);
    expect(without.schurCacheStats.rowsReused, 'no reuse when switched off').toBe(0);
  });
});
