import RAPIER from '@dimforge/rapier3d-compat';
import { beforeAll, describe, expect, it } from 'vitest';
import { solveImpulses } from './index';
import type { ContactInput, RigidBodyInput, SolveOptions } from './index';
import { v3 } from './fixtures';

// Side by side with Rapier (run in node): the same pre-impact state goes to
// our analytic solver and to one Rapier step with gravity off, many solver
// iterations and the Min/Max combine rules of the paper (ε = min, γ = max).
// Rapier works in 32-bit floats and solves contacts iteratively, so we state
// a tolerance: linear velocities agree within 0.1% of the impact speed and
// angular velocities within 1% of it per metre (observed: ≤ 1e-4 m/s and
// ≤ 1e-3 rad/s at 3–4 m/s). Our solver itself is exact to ~1e-12.

type Quat = { x: number; y: number; z: number; w: number };

function rotate(q: Quat, p: { x: number; y: number; z: number }) {
  // v' = q v q*
  const { x, y, z, w } = q;
  const ix = w * p.x + y * p.z - z * p.y, iy = w * p.y + z * p.x - x * p.z, iz = w * p.z + x * p.y - y * p.x, iw = -x * p.x - y * p.y - z * p.z;
  return v3(ix * w + iw * -x + iy * -z - iz * -y, iy * w + iw * -y + iz * -x - ix * -z, iz * w + iw * -z + ix * -y - iy * -x);
}

/** World inertia R·diag(principal)·Rᵀ, column-major. */
function worldInertia(q: Quat, principal: { x: number; y: number; z: number }): number[] {
  const cols = [rotate(q, v3(1, 0, 0)), rotate(q, v3(0, 1, 0)), rotate(q, v3(0, 0, 1))];
  const d = [principal.x, principal.y, principal.z];
  const I = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += (cols[k] as unknown as Record<string, number>)['xyz'[r]] * d[k] * (cols[k] as unknown as Record<string, number>)['xyz'[c]];
      I[c * 3 + r] = s;
    }
  I[3] = I[1];
  I[6] = I[2];
  I[7] = I[5];
  return I;
}

interface Impact {
  before: { v: RAPIER.Vector; w: RAPIER.Vector; t: RAPIER.Vector; q: Quat };
  after: { v: RAPIER.Vector; w: RAPIER.Vector };
  mass: number;
  principal: RAPIER.Vector;
  points: Array<{ x: number; y: number; z: number }>;
}

/** Drops a body onto a fixed slab (top face at y = 0) and returns the state around the step with the impact. */
function rapierImpact(shape: RAPIER.ColliderDesc, rotation: Quat, start: { x: number; y: number; z: number }, linvel: { x: number; y: number; z: number }, angvel: { x: number; y: number; z: number }): Impact {
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  world.timestep = 1 / 240;
  world.numSolverIterations = 60;
  const ground = world.createRigidBody(RAPIER.RigidBodyDesc.fixed().setTranslation(0, -0.5, 0));
  world.createCollider(
    RAPIER.ColliderDesc.cuboid(5, 0.5, 5).setRestitution(1).setFriction(0).setRestitutionCombineRule(RAPIER.CoefficientCombineRule.Min).setFrictionCombineRule(RAPIER.CoefficientCombineRule.Max),
    ground,
  );
  const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(start.x, start.y, start.z).setRotation(rotation).setLinvel(linvel.x, linvel.y, linvel.z).setAngvel(angvel));
  world.createCollider(shape.setRestitutionCombineRule(RAPIER.CoefficientCombineRule.Min).setFrictionCombineRule(RAPIER.CoefficientCombineRule.Max), body);
  for (let i = 0; i < 2000; i++) {
    const v0 = body.linvel(), w0 = body.angvel(), t0 = body.translation(), q0 = body.rotation();
    world.step();
    const v1 = body.linvel();
    if (Math.abs(v1.y - v0.y) > 1e-6) {
      const points: Impact['points'] = [];
      world.contactPair(body.collider(0), ground.collider(0), (manifold) => {
        for (let k = 0; k < manifold.numSolverContacts(); k++) points.push(manifold.solverContactPoint(k));
      });
      const out = { before: { v: v0, w: w0, t: t0, q: q0 }, after: { v: v1, w: body.angvel() }, mass: body.mass(), principal: body.principalInertia(), points };
      world.free();
      return out;
    }
  }
  throw new Error('no impact within 2000 steps');
}

function ours(imp: Impact, restitution: number, friction: number, contactPoints: Array<{ x: number; y: number; z: number }>, opts: SolveOptions) {
  const b = imp.before;
  const body: RigidBodyInput = {
    massKg: imp.mass,
    inertia: worldInertia(b.q, imp.principal),
    centerOfMass: v3(b.t.x, b.t.y, b.t.z),
    linearVelocity: v3(b.v.x, b.v.y, b.v.z),
    angularVelocity: v3(b.w.x, b.w.y, b.w.z),
    restitution,
    friction,
  };
  const ground: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(0, -0.5, 0), linearVelocity: v3(0, 0, 0), angularVelocity: v3(0, 0, 0), restitution: 1, friction: 0 };
  const contacts: ContactInput[] = contactPoints.map((p) => ({ bodyA: 0, bodyB: 1, point: p, normal: v3(0, 1, 0) }));
  return solveImpulses([body, ground], [], contacts, opts);
}

function expectClose(sol: ReturnType<typeof solveImpulses>, imp: Impact, tol: number) {
  const a = imp.after;
  const got = [sol.linearVelocity[0], sol.linearVelocity[1], sol.linearVelocity[2]];
  const want = [a.v.x, a.v.y, a.v.z];
  for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k]), `v[${k}]: ours ${got[k]}, rapier ${want[k]}`).toBeLessThan(tol);
  const gw = [sol.angularVelocity[0], sol.angularVelocity[1], sol.angularVelocity[2]];
  const ww = [a.w.x, a.w.y, a.w.z];
  for (let k = 0; k < 3; k++) expect(Math.abs(gw[k] - ww[k]), `ω[${k}]: ours ${gw[k]}, rapier ${ww[k]}`).toBeLessThan(tol * 10); // ω ~ v / (lever ~0.1 m)
}

beforeAll(async () => {
  // the wasm-bindgen loader wants an options object (its typings say no argument; without one it warns)
  await (RAPIER.init as unknown as (opts: object) => Promise<void>)({});
});

describe('side by side with Rapier', () => {
  for (const eps of [0.3, 0.8])
    it(`ball dropped on a plane, ε = ${eps}, frictionless: post-impact velocity within 0.1% of the impact speed`, () => {
      const r = 0.1;
      const imp = rapierImpact(RAPIER.ColliderDesc.ball(r).setDensity(500).setRestitution(eps).setFriction(0), { x: 0, y: 0, z: 0, w: 1 }, v3(0, 0.6, 0), v3(1, -4, 0.5), v3(0, 0, 0));
      const t = imp.before.t;
      const sol = ours(imp, eps, 0, [v3(t.x, t.y - r, t.z)], {});
      expect(sol.linearVelocity[1]).toBeCloseTo(-eps * imp.before.v.y, 10); // our law exactly
      expectClose(sol, imp, 1e-3 * 4);
    });

  it('ball dropped on a plane with friction (γ = 0.3, ε = 0.6): sticks and rolls away, as in Rapier (our `normalOnly` restitution)', () => {
    const r = 0.1, eps = 0.6;
    const imp = rapierImpact(RAPIER.ColliderDesc.ball(r).setDensity(500).setRestitution(eps).setFriction(0.3), { x: 0, y: 0, z: 0, w: 1 }, v3(0, 0.6, 0), v3(1, -4, 0), v3(0, 0, 0));
    const t = imp.before.t;
    const sol = ours(imp, eps, 0.3, [v3(t.x, t.y - r, t.z)], { restitution: 'normalOnly' });
    expect(sol.contactStateName(0)).toBe('stick');
    expect(sol.linearVelocity[0]).toBeCloseTo((5 / 7) * imp.before.v.x, 6);
    expectClose(sol, imp, 1e-3 * 4);
  });

  for (const eps of [0, 0.5])
    it(`box landing on an edge, ε = ${eps}, frictionless: both edge contacts in one system, within 0.1% of the impact speed`, () => {
      const angle = 0.5;
      const q = { x: 0, y: 0, z: Math.sin(angle / 2), w: Math.cos(angle / 2) };
      const hx = 0.2, hy = 0.1, hz = 0.15;
      const imp = rapierImpact(RAPIER.ColliderDesc.cuboid(hx, hy, hz).setDensity(100).setRestitution(eps).setFriction(0), q, v3(0, 0.5, 0), v3(0.5, -3, 0), v3(0, 0, 1));
      expect(imp.points.length, 'Rapier sees the edge as two contact points').toBe(2);
      // the lowest edge of our own box at the pre-impact pose: its two end corners
      const b = imp.before;
      let low = v3(0, Infinity, 0);
      for (const sx of [-1, 1])
        for (const sy of [-1, 1]) {
          const p = rotate(b.q, v3(sx * hx, sy * hy, 0));
          if (p.y < low.y) low = p;
        }
      const corners = [v3(b.t.x + low.x, b.t.y + low.y, b.t.z - hz), v3(b.t.x + low.x, b.t.y + low.y, b.t.z + hz)];
      for (const p of imp.points) expect(Math.min(...corners.map((c) => Math.hypot(c.x - p.x, c.z - p.z)))).toBeLessThan(1e-3);
      const sol = ours(imp, eps, 0, corners, {});
      expectClose(sol, imp, 1e-3 * 3);
      // our law: each edge end separates at −ε times its approach
      for (const c of corners) {
        const r = v3(c.x - b.t.x, c.y - b.t.y, c.z - b.t.z);
        const before = b.v.y + (b.w.z * r.x - b.w.x * r.z);
        const after = sol.linearVelocity[1] + (sol.angularVelocity[2] * r.x - sol.angularVelocity[0] * r.z);
        expect(after).toBeCloseTo(-eps * before, 9);
      }
    });
});
