import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImpulseSolution, ImpulseSolver } from '../index';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from '../index';
import { dot, kineticEnergy, len, pointVelocity, relativeVelocity } from '../fixtures';

// Real solver calls of the simulator on the sim bench scene (ragdoll, props,
// keyframed characters), recorded by `recordSimSolves()` in
// core/bench/response.bench.ts. Kept: calls whose contact-state loop reused a
// Schur row by a wrong cache slot (a wrap-around bug while the row reuse was
// written: answers differed from rebuilding), the call with the most linear
// solves, the calls whose energy guard scaled the friction down, and the
// costliest call of the bat-and-ball sample (one ball, ten keyframed contacts).

interface Call {
  index: number | string;
  bodies: RigidBodyInput[];
  joints: JointInput[];
  contacts: ContactInput[];
  options: SolveOptions;
}
const calls: Call[] = JSON.parse(readFileSync(new URL('./sim-bench-solves.json', import.meta.url), 'utf8')).calls;

function expectLaws(label: string, bodies: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], sol: ImpulseSolution) {
  let vs = 0;
  for (const b of bodies) vs = Math.max(vs, len(b.linearVelocity) + len(b.angularVelocity));
  let rmax = 0;
  for (let i = 0; i < 3 * contacts.length; i++) rmax = Math.max(rmax, Math.abs(sol.contactImpulse[i]));
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i], n = c.normal;
    const I = { x: sol.contactImpulse[3 * i], y: sol.contactImpulse[3 * i + 1], z: sol.contactImpulse[3 * i + 2] };
    const rn = dot(I, n), rt = Math.hypot(I.x - rn * n.x, I.y - rn * n.y, I.z - rn * n.z);
    const gA = bodies[c.bodyA].friction ?? 0, gB = c.bodyB >= 0 ? (bodies[c.bodyB].friction ?? 0) : 0;
    const gamma = c.friction ?? Math.max(gA, gB);
    expect(dot(relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point), n) / vs, `${label}, contact ${i}: does not approach`).toBeGreaterThanOrEqual(-1e-9);
    expect(rn, `${label}, contact ${i}: pushes`).toBeGreaterThanOrEqual(-1e-9 * rmax);
    expect(rt, `${label}, contact ${i}: inside the cone`).toBeLessThanOrEqual(gamma * Math.max(rn, 0) * (1 + 1e-9) + 1e-10 * rmax);
  }
  for (let j = 0; j < joints.length; j++) expect(len(relativeVelocity(bodies, sol, joints[j].bodyA, joints[j].bodyB, joints[j].point)) / vs, `${label}, joint ${j} holds`).toBeLessThan(1e-9);
  // energy: never more than before plus the work the keyframed bodies' motion puts into the dynamic
  // ones (a swung bat adds energy by law; with keyframed bodies at rest, plain E⁺ ≤ E⁻)
  let work = 0;
  const kfWork = (a: number, b: number, imp: ArrayLike<number>, o: number, p: { x: number; y: number; z: number }) => {
    const aKf = a >= 0 && !!bodies[a].keyframed, bKf = b >= 0 && !!bodies[b].keyframed;
    const aDyn = a >= 0 && !aKf, bDyn = b >= 0 && !bKf;
    if (!((aKf && bDyn) || (bKf && aDyn))) return;
    const v = pointVelocity(bodies, null, aKf ? a : b, p), sg = aKf ? -1 : 1;
    work += sg * (imp[o] * v.x + imp[o + 1] * v.y + imp[o + 2] * v.z);
  };
  contacts.forEach((c, k) => kfWork(c.bodyA, c.bodyB, sol.contactImpulse, 3 * k, c.point));
  joints.forEach((j, k) => kfWork(j.bodyA, j.bodyB, sol.jointImpulse, 3 * k, j.point));
  const e0 = kineticEnergy(bodies, null);
  const put = Math.max(work, 0);
  expect(kineticEnergy(bodies, sol) - put, `${label}: energy after ≤ before + work put in by the keyframed bodies (${work})`).toBeLessThanOrEqual(e0 * (1 + 1e-12) + 1e-12 * put);
  // momentum of every dynamic body changes by the impulses it receives; keyframed bodies keep their velocities
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    if (b.keyframed) {
      expect([sol.linearVelocity[3 * i], sol.linearVelocity[3 * i + 1], sol.linearVelocity[3 * i + 2]], `${label}: keyframed body ${i} untouched`).toEqual([b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z]);
      continue;
    }
    const p = [0, 0, 0], L = [0, 0, 0];
    const add = (imp: ArrayLike<number>, o: number, sg: number, pt: { x: number; y: number; z: number }) => {
      const ix = sg * imp[o], iy = sg * imp[o + 1], iz = sg * imp[o + 2];
      const rx = pt.x - b.centerOfMass.x, ry = pt.y - b.centerOfMass.y, rz = pt.z - b.centerOfMass.z;
      p[0] += ix; p[1] += iy; p[2] += iz;
      L[0] += ry * iz - rz * iy; L[1] += rz * ix - rx * iz; L[2] += rx * iy - ry * ix;
    };
    contacts.forEach((c, k) => {
      if (c.bodyA === i) add(sol.contactImpulse, 3 * k, 1, c.point);
      if (c.bodyB === i) add(sol.contactImpulse, 3 * k, -1, c.point);
    });
    joints.forEach((j, k) => {
      if (j.bodyA === i) add(sol.jointImpulse, 3 * k, 1, j.point);
      if (j.bodyB === i) add(sol.jointImpulse, 3 * k, -1, j.point);
    });
    const v0 = b.linearVelocity, w0 = b.angularVelocity, Iw = b.inertia, m = b.massKg;
    const dv = [sol.linearVelocity[3 * i] - v0.x, sol.linearVelocity[3 * i + 1] - v0.y, sol.linearVelocity[3 * i + 2] - v0.z];
    const dw = [sol.angularVelocity[3 * i] - w0.x, sol.angularVelocity[3 * i + 1] - w0.y, sol.angularVelocity[3 * i + 2] - w0.z];
    const pScale = m * vs + rmax, LScale = (Iw[0] + Iw[4] + Iw[8]) * vs + rmax;
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(m * dv[k] - p[k]) / pScale, `${label}: body ${i} linear momentum (axis ${k})`).toBeLessThan(1e-9);
      const Idw = Iw[k] * dw[0] + Iw[3 + k] * dw[1] + Iw[6 + k] * dw[2];
      expect(Math.abs(Idw - L[k]) / LScale, `${label}: body ${i} angular momentum (axis ${k})`).toBeLessThan(1e-9);
    }
  }
}

describe('recorded simulator solves (sim bench scene)', () => {
  it(`keep every law and match the solve that rebuilds every Schur row bit for bit (${calls.length} calls)`, () => {
    for (const c of calls) {
      const a = new ImpulseSolver(), b = new ImpulseSolver();
      b.reuseSchurRows = false;
      const sa = a.solve(c.bodies, c.joints, c.contacts, c.options);
      const sb = b.solve(c.bodies, c.joints, c.contacts, c.options);
      const label = `recorded call ${c.index} (${c.bodies.length} bodies, ${c.joints.length} joints, ${c.contacts.length} contacts)`;
      expect(Array.from(sa.linearVelocity), `${label}: linear velocities as rebuilt`).toEqual(Array.from(sb.linearVelocity));
      expect(Array.from(sa.angularVelocity), `${label}: angular velocities as rebuilt`).toEqual(Array.from(sb.angularVelocity));
      expect(Array.from(sa.contactImpulse), `${label}: contact impulses as rebuilt`).toEqual(Array.from(sb.contactImpulse));
      expectLaws(label, c.bodies, c.joints, c.contacts, sa);
    }
  });
});
