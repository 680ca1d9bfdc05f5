import { describe, expect, it } from 'vitest';
import { inverseSpringForce, penaltyContactForce, penaltySpringForce, penaltyStiffness, ResponseInputError } from './index';
import type { RigidBodyInput } from './index';
import { sphereInertia, v3 } from './fixtures';

// Spring response of Moore & Wilhelms §3.1: K_recede = ε K_approach.

describe('penalty stiffness', () => {
  it('uses K_approach while approaching and ε·K_approach while receding', () => {
    expect(penaltyStiffness(-0.1, 1000, 0.25)).toBe(1000);
    expect(penaltyStiffness(0.1, 1000, 0.25)).toBe(250);
    expect(penaltyStiffness(0.1, 1000, 1)).toBe(1000);
    expect(penaltyStiffness(0.1, 1000, 0)).toBe(0);
  });
  it('linear and K/d laws', () => {
    expect(penaltySpringForce(0.01, -1, 1000, 0.5)).toBeCloseTo(10, 12);
    expect(penaltySpringForce(0.01, 1, 1000, 0.5)).toBeCloseTo(5, 12);
    expect(penaltySpringForce(-0.01, -1, 1000, 0.5)).toBe(0);
    expect(inverseSpringForce(0.02, -1, 4, 0.5, 1e-4)).toBeCloseTo(200, 10);
    expect(inverseSpringForce(0, -1, 4, 0.5, 1e-4)).toBeCloseTo(4e4, 6);
    expect(inverseSpringForce(0.02, 1, 4, 0.5, 1e-4)).toBeCloseTo(100, 10);
  });
  it('rejects bad parameters', () => {
    expect(() => penaltyStiffness(0, -1, 0.5)).toThrow(ResponseInputError);
    expect(() => penaltyStiffness(0, 1, 2)).toThrow(/restitution must be in \[0, 1\]/);
    expect(() => inverseSpringForce(1, 0, 1, 0.5, 0)).toThrow(/minSeparation/);
  });
});

describe('a mass bouncing on the spring keeps ε of its energy', () => {
  for (const eps of [0, 0.25, 0.5, 1])
    it(`ε=${eps}: exit speed = √ε · entry speed (the spring returns ε of the stored energy)`, () => {
      // 1-D: mass m hits a spring floor at x = 0 with speed v0 (no gravity); symplectic Euler, small steps
      const m = 2, K = 5e4, v0 = 3;
      let x = 0, v = -v0;
      const dt = 1e-6;
      for (let i = 0; i < 2_000_000; i++) {
        const depth = -x;
        const f = penaltySpringForce(depth, v, K, eps);
        v += (f / m) * dt;
        x += v * dt;
        if (x > 0 && v >= 0) break;
        if (eps === 0 && depth > 0 && v >= 0 && f === 0) break; // stuck at the bottom: no rebound
      }
      const expected = Math.sqrt(eps) * v0;
      expect(Math.abs(Math.max(v, 0) - expected), `exit speed ${v} vs √ε·v0 = ${expected}`).toBeLessThan(2e-3 * v0);
    });
});

describe('penaltyContactForce', () => {
  const ball: RigidBodyInput = { massKg: 1, inertia: sphereInertia(1, 0.1), centerOfMass: v3(0, 0.09, 0), linearVelocity: v3(0, -2, 0), angularVelocity: v3(0, 0, 0), restitution: 0.5 };
  it('pushes A along the normal with K_approach while approaching, ε·K when receding', () => {
    const out = v3(0, 0, 0);
    const f = penaltyContactForce([ball], { bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 2, 0) }, 0.01, 1e4, out);
    expect(f).toBeCloseTo(100, 10);
    expect(out).toEqual({ x: 0, y: 100, z: 0 });
    const f2 = penaltyContactForce([{ ...ball, linearVelocity: v3(0, 2, 0) }], { bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 1, 0) }, 0.01, 1e4, out);
    expect(f2).toBeCloseTo(50, 10);
  });
  it('uses the velocity of the contact point, spin included', () => {
    const out = v3(0, 0, 0);
    // centre at rest; spinning about z so the contact point (0.1 to the right) moves up: receding
    const spun = { ...ball, centerOfMass: v3(-0.1, 0, 0), linearVelocity: v3(0, 0, 0), angularVelocity: v3(0, 0, 5) };
    expect(penaltyContactForce([spun], { bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 1, 0) }, 0.01, 1e4, out)).toBeCloseTo(50, 10);
  });
  it('names a zero normal', () => {
    expect(() => penaltyContactForce([ball], { id: 'floor', bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 0, 0) }, 0.01, 1e4, v3(0, 0, 0))).toThrow(/contact "floor" normal has zero length/);
  });
});
