import { describe, expect, it } from 'vitest';
import { ContactState, solveImpulses } from './index';
import type { RigidBodyInput } from './index';
import { sphereInertia, v3 } from './fixtures';

// Closed-form collisions worked out by hand (Moore & Wilhelms 1988 §3.2.1 and
// textbook mechanics); the solver must reproduce them.

function sphere(m: number, r: number, c: [number, number, number], v: [number, number, number], w: [number, number, number] = [0, 0, 0], extra: Partial<RigidBodyInput> = {}): RigidBodyInput {
  return { massKg: m, inertia: sphereInertia(m, r), centerOfMass: v3(...c), linearVelocity: v3(...v), angularVelocity: v3(...w), ...extra };
}

function rod(m: number, L: number, c: [number, number, number], v: [number, number, number], extra: Partial<RigidBodyInput> = {}): RigidBodyInput {
  // thin rod along x: I = diag(~0, mL²/12, mL²/12); a tiny axial moment keeps it positive definite
  const i = (m * L * L) / 12;
  return { massKg: m, inertia: [1e-3 * i, 0, 0, 0, i, 0, 0, 0, i], centerOfMass: v3(...c), linearVelocity: v3(...v), angularVelocity: v3(0, 0, 0), ...extra };
}

const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b), `expected ${b}, got ${a}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

describe('head-on spheres', () => {
  for (const eps of [0, 0.3, 1]) {
    it(`m1=1.5, m2=4, u1=3, u2=-1, ε=${eps}: 1-D collision formula`, () => {
      const m1 = 1.5, m2 = 4, u1 = 3, u2 = -1, r = 0.5;
      const bodies = [sphere(m1, r, [0, 0, 0], [u1, 0, 0], [0, 0, 0], { restitution: eps }), sphere(m2, r, [2 * r, 0, 0], [u2, 0, 0], [0, 0, 0], { restitution: 1 })];
      // A = sphere 2 (to the right), normal from B (sphere 1) to A: +x
      const sol = solveImpulses(bodies, [], [{ bodyA: 1, bodyB: 0, point: v3(r, 0, 0), normal: v3(1, 0, 0) }]);
      const v1 = (m1 * u1 + m2 * u2 + m2 * eps * (u2 - u1)) / (m1 + m2);
      const v2 = (m1 * u1 + m2 * u2 + m1 * eps * (u1 - u2)) / (m1 + m2);
      close(sol.linearVelocity[0], v1);
      close(sol.linearVelocity[3], v2);
      for (let k = 0; k < 6; k++) expect(Math.abs(sol.angularVelocity[k])).toBeLessThan(1e-14);
      close(sol.contactImpulse[0], m2 * (v2 - u2));
      expect(sol.getContactState(0)).toBe(ContactState.Frictionless); // both γ = 0
    });
  }
});

describe('oblique spheres', () => {
  it('equal masses, elastic, one at rest: the normal components exchange, the tangential stay, paths at right angles', () => {
    const r = 0.5, u = [2, 1.2, -0.4] as [number, number, number];
    // B at origin moving; A at rest, touching along direction n
    const n = [0.6, 0.8, 0];
    const bodies = [sphere(2, r, [0, 0, 0], u, [0, 0, 0], { restitution: 1 }), sphere(2, r, [2 * r * n[0], 2 * r * n[1], 0], [0, 0, 0], [0, 0, 0], { restitution: 1 })];
    const sol = solveImpulses(bodies, [], [{ bodyA: 1, bodyB: 0, point: v3(r * n[0], r * n[1], 0), normal: v3(n[0], n[1], n[2]) }]);
    const un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
    for (let k = 0; k < 3; k++) {
      close(sol.linearVelocity[k], u[k] - un * n[k]);
      close(sol.linearVelocity[3 + k], un * n[k]);
    }
    const dotAB = sol.linearVelocity[0] * sol.linearVelocity[3] + sol.linearVelocity[1] * sol.linearVelocity[4] + sol.linearVelocity[2] * sol.linearVelocity[5];
    expect(Math.abs(dotAB)).toBeLessThan(1e-12);
  });

  it('unequal masses, ε = 0.6, both moving: 1-D formula along the line of centres, tangential unchanged', () => {
    const r1 = 0.3, r2 = 0.7, m1 = 1, m2 = 3, eps = 0.6;
    const n = [0, 0.6, 0.8];
    const c2: [number, number, number] = [(r1 + r2) * n[0], (r1 + r2) * n[1], (r1 + r2) * n[2]];
    const u1: [number, number, number] = [0.5, 2, 1], u2: [number, number, number] = [-1, 0.5, -1.5];
    const bodies = [sphere(m1, r1, [0, 0, 0], u1, [0, 0, 0], { restitution: 0.9 }), sphere(m2, r2, c2, u2, [0, 0, 0], { restitution: eps })];
    const sol = solveImpulses(bodies, [], [{ bodyA: 1, bodyB: 0, point: v3(r1 * n[0], r1 * n[1], r1 * n[2]), normal: v3(n[0], n[1], n[2]) }]);
    const a1 = u1[0] * n[0] + u1[1] * n[1] + u1[2] * n[2], a2 = u2[0] * n[0] + u2[1] * n[1] + u2[2] * n[2];
    const b1 = (m1 * a1 + m2 * a2 + m2 * eps * (a2 - a1)) / (m1 + m2); // ε = min(0.9, 0.6)
    const b2 = (m1 * a1 + m2 * a2 + m1 * eps * (a1 - a2)) / (m1 + m2);
    for (let k = 0; k < 3; k++) {
      close(sol.linearVelocity[k], u1[k] + (b1 - a1) * n[k]);
      close(sol.linearVelocity[3 + k], u2[k] + (b2 - a2) * n[k]);
    }
  });
});

describe('free rod struck at one end', () => {
  for (const eps of [0, 0.5, 1]) {
    it(`by a sphere moving perpendicular to the rod, ε=${eps}: effective rod mass m/4 at its end`, () => {
      const m = 2, L = 1.2, ms = 0.5, u = 3;
      // rod along x centred at the origin; sphere hits its +x end moving in −y
      const bodies = [rod(m, L, [0, 0, 0], [0, 0, 0], { restitution: 1 }), sphere(ms, 0.1, [L / 2, 0.1, 0], [0, -u, 0], [0, 0, 0], { restitution: eps })];
      const sol = solveImpulses(bodies, [], [{ bodyA: 0, bodyB: 1, point: v3(L / 2, 0, 0), normal: v3(0, -1, 0) }]);
      // impulse on the rod along −y: j = (1+ε) u / (1/ms + 1/m + (L/2)²/(mL²/12)) = (1+ε) u / (1/ms + 4/m)
      const j = ((1 + eps) * u) / (1 / ms + 4 / m);
      close(sol.contactImpulse[1], -j, 1e-9);
      close(sol.linearVelocity[1], -j / m, 1e-9);
      close(sol.angularVelocity[2], (-j * (L / 2)) / ((m * L * L) / 12), 1e-9); // ω_z = (r × J)_z / I
      close(sol.linearVelocity[4], -u + j / ms, 1e-9);
      // the rod's far end moves opposite the struck end for a free rod: v_end(−L/2) = v − ω·L/2 > 0 along y… check sign: v_far = −j/m + 3j/m = 2j/m
      const vFar = sol.linearVelocity[1] + sol.angularVelocity[2] * (-L / 2) * 1; // v + ω × r, r = (−L/2, 0, 0): (ω × r)_y = ω_z·r_x
      close(vFar, (2 * j) / m, 1e-9);
    });
  }

  it('by an infinitely massive (keyframed) bat: j = (1+ε)·u·m/4', () => {
    const m = 2, L = 1.2, u = 3, eps = 0.4;
    const bat: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(L / 2, 0.5, 0), linearVelocity: v3(0, -u, 0), angularVelocity: v3(0, 0, 0), restitution: 0.8 };
    const bodies = [rod(m, L, [0, 0, 0], [0, 0, 0], { restitution: eps }), bat];
    const sol = solveImpulses(bodies, [], [{ bodyA: 0, bodyB: 1, point: v3(L / 2, 0, 0), normal: v3(0, -1, 0) }]);
    const j = ((1 + eps) * u * m) / 4;
    close(sol.contactImpulse[1], -j, 1e-9);
    close(sol.linearVelocity[1], -j / m, 1e-9);
    close(sol.angularVelocity[2], (-j * L) / 2 / ((m * L * L) / 12), 1e-9);
  });
});

describe('ball struck by an infinitely massive bat', () => {
  for (const eps of [0, 0.55, 1]) {
    it(`ε=${eps}: ball velocity += (1 + ε)·((bat − ball)·n)·n, bat unchanged`, () => {
      const r = 0.037, m = 0.145;
      const ball = sphere(m, r, [0, 0, 0], [-30, 2, 1], [10, -5, 3], { restitution: eps });
      // bat: keyframed, translating and swinging about a pivot; its velocity at the point is v + ω × (p − c)
      const bat: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(-0.5, 0.2, 0.1), linearVelocity: v3(12, 1, -2), angularVelocity: v3(0, 0, 40), restitution: 1, friction: 0 };
      const n = v3(1, 0.1, 0.05);
      const ln = Math.hypot(n.x, n.y, n.z);
      const nu = v3(n.x / ln, n.y / ln, n.z / ln);
      const p = v3(-r * nu.x, -r * nu.y, -r * nu.z);
      const sol = solveImpulses([ball, bat], [], [{ bodyA: 0, bodyB: 1, point: p, normal: n }]);
      const rb = v3(p.x - bat.centerOfMass.x, p.y - bat.centerOfMass.y, p.z - bat.centerOfMass.z);
      const w = bat.angularVelocity;
      const vb = v3(bat.linearVelocity.x + w.y * rb.z - w.z * rb.y, bat.linearVelocity.y + w.z * rb.x - w.x * rb.z, bat.linearVelocity.z + w.x * rb.y - w.y * rb.x);
      // ball is a sphere hit through its centre: the ball's point velocity along n equals its centre's
      const rel = (vb.x - ball.linearVelocity.x) * nu.x + (vb.y - ball.linearVelocity.y) * nu.y + (vb.z - ball.linearVelocity.z) * nu.z;
      expect(rel).toBeGreaterThan(0);
      close(sol.linearVelocity[0], ball.linearVelocity.x + (1 + eps) * rel * nu.x, 1e-12);
      close(sol.linearVelocity[1], ball.linearVelocity.y + (1 + eps) * rel * nu.y, 1e-12);
      close(sol.linearVelocity[2], ball.linearVelocity.z + (1 + eps) * rel * nu.z, 1e-12);
      // spin unchanged (impulse through the centre, frictionless)
      close(sol.angularVelocity[0], 10);
      close(sol.angularVelocity[1], -5);
      close(sol.angularVelocity[2], 3);
      // bat exactly unchanged
      expect([sol.linearVelocity[3], sol.linearVelocity[4], sol.linearVelocity[5]]).toEqual([12, 1, -2]);
      expect([sol.angularVelocity[3], sol.angularVelocity[4], sol.angularVelocity[5]]).toEqual([0, 0, 40]);
    });
  }
});

describe('sphere landing on the ground with friction', () => {
  it('perfectly rough, ε = 0, no spin: rolls away at 5/7 of its horizontal speed', () => {
    const m = 1.3, r = 0.2, vx = 4, vy = -3;
    const bodies = [sphere(m, r, [0, r, 0], [vx, vy, 0], [0, 0, 0], { friction: Infinity })];
    const sol = solveImpulses(bodies, [], [{ bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 1, 0) }]);
    expect(sol.contactStateName(0)).toBe('stick');
    close(sol.linearVelocity[0], (5 / 7) * vx);
    close(sol.linearVelocity[1], 0);
    close(sol.angularVelocity[2], -((5 / 7) * vx) / r); // rolling: v + ω × (−r ŷ) = 0
  });

  it('Coulomb γ = 0.1, ε = 0.5: slides; tangential impulse = γ·normal impulse opposing the motion', () => {
    const m = 1.3, r = 0.2, vx = 4, vy = -3, g = 0.1, eps = 0.5;
    const bodies = [sphere(m, r, [0, r, 0], [vx, vy, 0], [0, 0, 0], { friction: g, restitution: eps })];
    const sol = solveImpulses(bodies, [], [{ bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 1, 0), restitution: eps }]);
    expect(sol.contactStateName(0)).toBe('slide');
    const jn = m * (1 + eps) * -vy;
    close(sol.contactImpulse[1], jn);
    close(sol.contactImpulse[0], -g * jn);
    close(sol.linearVelocity[1], -eps * vy);
    close(sol.linearVelocity[0], vx - (g * jn) / m);
    // torque (−r ŷ) × (−g jn x̂) = −r g jn ẑ
    close(sol.angularVelocity[2], (-r * g * jn) / (0.4 * m * r * r));
  });

  it('Coulomb γ = 2 is enough to stick: same as perfectly rough', () => {
    const a = solveImpulses([sphere(1, 0.2, [0, 0.2, 0], [1, -3, 0.5], [0, 2, 0], { friction: 2 })], [], [{ bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 1, 0) }]);
    const b = solveImpulses([sphere(1, 0.2, [0, 0.2, 0], [1, -3, 0.5], [0, 2, 0], { friction: 2 })], [], [{ bodyA: 0, bodyB: -1, point: v3(0, 0, 0), normal: v3(0, 1, 0) }], { friction: 'rough' });
    expect(a.contactStateName(0)).toBe('stick');
    for (let k = 0; k < 3; k++) close(a.linearVelocity[k], b.linearVelocity[k]);
  });
});
