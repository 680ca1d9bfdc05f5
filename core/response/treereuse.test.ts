import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from './index';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './index';
import { makeSimIsland } from './fixtures';
import { solutionDifference } from './testkit';

// A tree factorization whose inputs equal those of one of the last two is copied, and the
// contact-space matrix A built on the same factors keeps the entries of unchanged basis rows
// (`reuseTreeFactors`). Reference: the same solver with the reuse switched off, which factors
// and builds A every time. Bit for bit, also when the contacts come in another order (an entry
// is taken only where it was summed in the same order).

const jointsOnly = (b: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(b, j, []);

/** The solves the simulator makes of one island: fewer contacts, all (its solve again with contacts added), all reversed, less friction. */
function variants(contacts: ContactInput[]): ContactInput[][] {
  const n = contacts.length, k = Math.max(1, n >> 2);
  return [contacts.slice(0, n - k), contacts, [...contacts].reverse(), contacts.map((c) => ({ ...c, friction: 0.25 }))];
}

function compare(label: string, bodies: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], options: SolveOptions, on: ImpulseSolver, off: ImpulseSolver, a: ImpulseSolution, b: ImpulseSolution) {
  on.solve(bodies, joints, contacts, options, a);
  off.solve(bodies, joints, contacts, options, b);
  expect(solutionDifference(bodies.length, contacts.length, joints.length, a, b), label).toBeNull();
}

describe('tree factorization and contact-space matrix kept across solves of the same bodies', () => {
  it('gives bit-identical answers to factoring every time (seed 9700, 60 islands × 4 contact sets, three models, schur and auto groups)', () => {
    const on = new ImpulseSolver(), off = new ImpulseSolver();
    off.reuseTreeFactors = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    for (let k = 0; k < 60; k++) {
      const friction = [0.3, 0.8, Infinity, 0][k % 4], eps = [0, 0.3, 0.6][k % 3];
      const isl = makeSimIsland(9700 + k, friction, eps, jointsOnly);
      const options: SolveOptions = { restitution: (['paper', 'poisson', 'normalOnly'] as const)[k % 3], contactGroups: k % 2 ? 'schur' : 'auto' };
      variants(isl.contacts).forEach((cs, v) => compare(`island ${k}, contact set ${v}`, isl.bodies, isl.joints, cs, options, on, off, a, b));
    }
    // (the comparison means something only when factors and entries were actually taken)
    expect(on.treeFactorStats.reused, 'tree factorizations copied').toBeGreaterThan(60);
    expect(on.contactSpaceStats.entriesReused, 'entries of A kept').toBeGreaterThan(10000);
    expect(off.treeFactorStats.reused, 'none when switched off').toBe(0);
    expect(off.contactSpaceStats.entriesReused, 'none when switched off').toBe(0);
  });

  it('gives bit-identical answers on the recorded simulator calls (sim bench scene), each solved again with its contacts reversed', () => {
    interface Call { index: number | string; bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[]; options: SolveOptions }
    const calls: Call[] = JSON.parse(readFileSync(new URL('./repro/sim-bench-solves.json', import.meta.url), 'utf8')).calls;
    const on = new ImpulseSolver(), off = new ImpulseSolver();
    off.reuseTreeFactors = false;
    const a = new ImpulseSolution(), b = new ImpulseSolution();
    for (const c of calls)
      variants(c.contacts).forEach((cs, v) => compare(`recorded call ${c.index}, contact set ${v}`, c.bodies, c.joints, cs, c.options, on, off, a, b));
    expect(on.contactSpaceStats.entriesReused, 'entries of A kept on the recorded calls').toBeGreaterThan(1000);
  });
});
