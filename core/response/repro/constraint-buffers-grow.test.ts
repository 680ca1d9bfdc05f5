import { describe, expect, it } from 'vitest';
import { ImpulseSolver } from '../index';
import { relativeVelocity, sphereInertia, v3 } from '../fixtures';

// Bug: the per-constraint buffers were grown once for the joints and again for
// the contacts, and growing replaced the arrays, so a fresh solver lost its
// joints' body indices whenever a contact was added (joints silently turned
// into joints of body 0 with itself; the sparse result broke the joints).
describe('repro: constraint buffers grow without losing the joints', () => {
  it('a fresh solver, one ball joint and one contact: the joint holds', () => {
    const bodies = [0, 1].map((i) => ({
      massKg: 1 + i,
      inertia: sphereInertia(1 + i, 0.3),
      centerOfMass: v3(i * 0.6, 0, 0),
      linearVelocity: v3(0.2 * i, -1, 0.1),
      angularVelocity: v3(0, 0.5 * i, 1),
    }));
    const joints = [{ kind: 'ball' as const, bodyA: 0, bodyB: 1, point: v3(0.3, 0.05, 0) }];
    const sol = new ImpulseSolver().solve(bodies, joints, [{ bodyA: 1, bodyB: -1, point: v3(0.8, -0.2, 0), normal: v3(0, 1, 0) }], { friction: 'frictionless' });
    const rv = relativeVelocity(bodies, sol, 0, 1, joints[0].point);
    expect(Math.hypot(rv.x, rv.y, rv.z), 'joint point velocity mismatch').toBeLessThan(1e-12);
    expect(sol.contactImpulse[1]).toBeGreaterThan(0);
  });
});
