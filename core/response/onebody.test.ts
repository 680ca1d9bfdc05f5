import { describe, expect, it } from 'vitest';
import { ContactState, ImpulseSolution, ImpulseSolver } from './index';
import { dot, externalMomentumResidual, kineticEnergy, oneBodyIsland, relativeVelocity, v3 } from './fixtures';

// The one-body pass (onebody.ts) against the general pass on islands of one dynamic body and no
// joints: seeded random boxes and balls on 1–8 contacts against the world or a keyframed body,
// random γ (0, finite, ∞) and ε (one for all, or per contact: Poisson's phases), velocities that
// rest, slide, approach and separate. The two must find the same contact states and the same
// answer to round-off; the one-body answer keeps the laws (momentum against the fixed side,
// no energy gain when that side does not move, pushing impulses inside their cones, no contact
// left approaching, complementarity).

const general = new ImpulseSolver();
general.oneBodyPass = false;
const oneBody = new ImpulseSolver();
const a = new ImpulseSolution(), b = new ImpulseSolution(), p = new ImpulseSolution();

describe('one dynamic body against fixed bodies: the one-body pass against the general pass (seeded random)', () => {
  for (let seed = 1; seed <= 240; seed++) {
    it(`seed ${seed}: same states, same answer to 1e-9, momentum, energy, cones, complementarity`, () => {
      const { bodies, contacts, opts, sliding, movingFixed } = oneBodyIsland(seed);
      general.slidingFriction = oneBody.slidingFriction = sliding;
      general.solve(bodies, [], contacts, opts, a);
      oneBody.solve(bodies, [], contacts, opts, b);
      const nc = contacts.length;
      // the general path's own sensitivity to round-off: the same island with the mass changed
      // by ±2e-16 (one ulp); a difference within 1,000 times that is round-off, however large
      let sensV = 0, sensI = 0, statesStable = true;
      for (const f of [1 + 2.220446049250313e-16, 1 - 1.1102230246251565e-16]) {
        const bodiesP = bodies.map((x, i) => (i === 0 ? { ...x, massKg: x.massKg * f } : x));
        general.solve(bodiesP, [], contacts, opts, p);
        for (let k = 0; k < 3; k++) sensV = Math.max(sensV, Math.abs(p.linearVelocity[k] - a.linearVelocity[k]), Math.abs(p.angularVelocity[k] - a.angularVelocity[k]));
        for (let k = 0; k < 3 * nc; k++) sensI = Math.max(sensI, Math.abs(p.contactImpulse[k] - a.contactImpulse[k]));
        for (let c = 0; c < nc; c++) if (p.contactState[c] !== a.contactState[c]) statesStable = false;
      }
      if (statesStable) {
        expect([...b.contactState.subarray(0, nc)], 'contact states').toEqual([...a.contactState.subarray(0, nc)]);
        expect(b.iterations, 'linear solves').toBe(a.iterations);
      }
      let vScale = 0, iScale = 0, dv = 0, di = 0;
      const u = bodies[0];
      for (const w of [u.linearVelocity, u.angularVelocity]) vScale = Math.max(vScale, Math.abs(w.x), Math.abs(w.y), Math.abs(w.z));
      for (let k = 0; k < 3; k++) {
        vScale = Math.max(vScale, Math.abs(a.linearVelocity[k]), Math.abs(a.angularVelocity[k]));
        dv = Math.max(dv, Math.abs(a.linearVelocity[k] - b.linearVelocity[k]), Math.abs(a.angularVelocity[k] - b.angularVelocity[k]));
      }
      for (let k = 0; k < 3 * nc; k++) {
        iScale = Math.max(iScale, Math.abs(a.contactImpulse[k]));
        di = Math.max(di, Math.abs(a.contactImpulse[k] - b.contactImpulse[k]));
      }
      if (statesStable) {
        expect(dv, 'velocities: one-body − general').toBeLessThanOrEqual(Math.max(1e-9 * vScale, 1e3 * sensV));
        expect(di, 'impulses: one-body − general').toBeLessThanOrEqual(Math.max(1e-9 * iScale, 1e3 * sensI) + 1e-300);
      }
      if (statesStable) {
        expect(Math.abs(b.frictionScale - a.frictionScale), 'friction scale').toBeLessThan(1e-9);
        expect(Math.abs(b.restitutionScale - a.restitutionScale), 'restitution scale').toBeLessThan(1e-9);
      }

      // laws of the one-body answer
      const mr = externalMomentumResidual(bodies, [], contacts, b);
      expect(mr.linear, 'linear momentum change = impulses of the fixed side').toBeLessThan(1e-9);
      expect(mr.angular, 'angular momentum change = their moments').toBeLessThan(1e-9);
      if (!movingFixed) expect(kineticEnergy(bodies, b), 'no energy gained').toBeLessThanOrEqual(kineticEnergy(bodies, null) * (1 + 1e-9) + 1e-300);
      for (let c = 0; c < nc; c++) {
        const ct = contacts[c], n = ct.normal, st = b.contactState[c];
        const R = v3(b.contactImpulse[3 * c], b.contactImpulse[3 * c + 1], b.contactImpulse[3 * c + 2]);
        const rn = dot(R, n), rt = Math.hypot(R.x - rn * n.x, R.y - rn * n.y, R.z - rn * n.z);
        const vn = dot(relativeVelocity(bodies, b, 0, ct.bodyB, ct.point), n);
        expect(rn, `contact ${c}: the impulse pushes`).toBeGreaterThanOrEqual(-1e-9 * iScale);
        expect(vn, `contact ${c}: not approaching after`).toBeGreaterThanOrEqual(-1e-8 * vScale);
        const gamma = opts.friction === 'frictionless' ? 0 : opts.friction === 'rough' ? Infinity : (ct.friction ?? 0);
        if (gamma !== Infinity) expect(rt, `contact ${c}: inside its cone`).toBeLessThanOrEqual(gamma * Math.max(rn, 0) * (1 + 1e-8) + 1e-9 * iScale);
        if (st === ContactState.Separated) expect(Math.hypot(R.x, R.y, R.z), `contact ${c}: separated, no impulse`).toBe(0);
        // complementarity without restitution (with it, Poisson's phases may lift a contact that
        // pushed in the compression phase): a contact that pushes does not separate
        if (contacts.every((k) => (k.restitution ?? 0) === 0)) expect(Math.abs(rn * vn), `contact ${c}: λₙ·v⁺ₙ = 0`).toBeLessThanOrEqual(1e-8 * (iScale * vScale + 1e-300));
      }
    });
  }
});
