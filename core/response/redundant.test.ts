import { describe, expect, it } from 'vitest';
import { ContactState, ImpulseSolver } from './index';
import type { ContactInput, ImpulseSolution, JointInput, RigidBodyInput, SolveOptions } from './index';
import { dot, kineticEnergy, len, makeBoxOnPlane, makeLyingRagdoll, randomBody, relativeVelocity, seededRandom, v3 } from './fixtures';

// Large, redundant contact sets: a 20-part ragdoll lying on the ground with
// 2 (collinear) or 4 (coplanar) contacts per part, a box flat on a plane.
// The split of an impulse among redundant contacts is not unique; what is
// checked are laws: velocities and the impulses' total effect, no pulling
// contact, the cone, −ε separation, joints holding, energy, the balance of
// impulse and momentum body by body. The three ways of entering contact
// groups into the system ('schur', 'eliminate', 'auto') must give the same
// velocities whenever the constraint set is fixed (unilateral: false).

const solver = new ImpulseSolver();
const jointsOnly = (b: RigidBodyInput[], j: JointInput[]) => new ImpulseSolver().solve(b, j, []);
const MODES = ['schur', 'eliminate', 'auto'] as const;

function velocityScale(bodies: RigidBodyInput[]): number {
  let s = 0;
  for (const b of bodies) if (!b.keyframed) s = Math.max(s, len(b.linearVelocity) + len(b.angularVelocity));
  return s;
}

function maxVelocityDiff(a: ImpulseSolution, b: ImpulseSolution): number {
  let d = 0;
  for (let k = 0; k < a.linearVelocity.length; k++) d = Math.max(d, Math.abs(a.linearVelocity[k] - b.linearVelocity[k]), Math.abs(a.angularVelocity[k] - b.angularVelocity[k]));
  return d;
}

/**
 * Impulse–momentum balance of every dynamic body: m Δv = Σ impulses on it and
 * I Δω = Σ (p − c) × impulse, with the contact and joint impulses the solver
 * reports. Together with every constraint holding, these are the conditions
 * that determine the velocities uniquely (however the impulse is split among
 * redundant contacts), so they check the solve without a reference solver.
 */
function expectImpulseMomentumBalance(bodies: RigidBodyInput[], contacts: ContactInput[], joints: JointInput[], sol: ImpulseSolution) {
  const n = bodies.length;
  const F = new Float64Array(3 * n), T = new Float64Array(3 * n);
  let iscale = 0;
  const add = (i: number, p: { x: number; y: number; z: number }, R: { x: number; y: number; z: number }, sign: number) => {
    if (i < 0 || bodies[i].keyframed) return;
    const c = bodies[i].centerOfMass, rx = p.x - c.x, ry = p.y - c.y, rz = p.z - c.z;
    F[3 * i] += sign * R.x;
    F[3 * i + 1] += sign * R.y;
    F[3 * i + 2] += sign * R.z;
    T[3 * i] += sign * (ry * R.z - rz * R.y);
    T[3 * i + 1] += sign * (rz * R.x - rx * R.z);
    T[3 * i + 2] += sign * (rx * R.y - ry * R.x);
    iscale = Math.max(iscale, len(R) * (1 + Math.hypot(rx, ry, rz)));
  };
  contacts.forEach((c, i) => {
    const R = v3(sol.contactImpulse[3 * i], sol.contactImpulse[3 * i + 1], sol.contactImpulse[3 * i + 2]);
    add(c.bodyA, c.point, R, 1);
    add(c.bodyB, c.point, R, -1);
  });
  joints.forEach((j, i) => {
    const R = v3(sol.jointImpulse[3 * i], sol.jointImpulse[3 * i + 1], sol.jointImpulse[3 * i + 2]);
    add(j.bodyA, j.point, R, 1);
    add(j.bodyB, j.point, R, -1);
  });
  for (let i = 0; i < n; i++) {
    const b = bodies[i];
    if (b.keyframed) continue;
    const m = b.massKg, I = b.inertia;
    const dv = [sol.linearVelocity[3 * i] - b.linearVelocity.x, sol.linearVelocity[3 * i + 1] - b.linearVelocity.y, sol.linearVelocity[3 * i + 2] - b.linearVelocity.z];
    const dw = [sol.angularVelocity[3 * i] - b.angularVelocity.x, sol.angularVelocity[3 * i + 1] - b.angularVelocity.y, sol.angularVelocity[3 * i + 2] - b.angularVelocity.z];
    for (let k = 0; k < 3; k++) {
      expect(Math.abs(m * dv[k] - F[3 * i + k]) / iscale, `body ${i}: m Δv[${k}] = Σ impulses`).toBeLessThan(1e-9);
      const Idw = I[k] * dw[0] + I[3 + k] * dw[1] + I[6 + k] * dw[2];
      expect(Math.abs(Idw - T[3 * i + k]) / iscale, `body ${i}: I Δω[${k}] = Σ moments`).toBeLessThan(1e-9);
    }
  }
}

/** Every contact law of a unilateral solve. */
function expectContactLaws(bodies: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], sol: ImpulseSolution, opts: SolveOptions) {
  let rmax = 0;
  for (let i = 0; i < contacts.length; i++) rmax = Math.max(rmax, len(v3(sol.contactImpulse[3 * i], sol.contactImpulse[3 * i + 1], sol.contactImpulse[3 * i + 2])));
  const vs = velocityScale(bodies);
  // Poisson restitution (the paper's R_actual = (1 + ε) R per contact) equals Newton's
  // v⁺ = −ε v⁻ at every active contact when every contact approaches before the impact;
  // a contact separating before is not driven together by the others' restitution (Newton
  // would let it approach at −ε v⁻), so then the per-contact equality is not checked.
  const allApproach = contacts.every((c) => dot(relativeVelocity(bodies, null, c.bodyA, c.bodyB, c.point), c.normal) < 0);
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i], l = len(c.normal), n = v3(c.normal.x / l, c.normal.y / l, c.normal.z / l);
    const R = v3(sol.contactImpulse[3 * i], sol.contactImpulse[3 * i + 1], sol.contactImpulse[3 * i + 2]);
    const rn = dot(R, n), rt = len(v3(R.x - rn * n.x, R.y - rn * n.y, R.z - rn * n.z));
    expect(dot(relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point), n) / vs, `contact ${i}: does not approach after`).toBeGreaterThanOrEqual(-1e-9);
    const st = sol.getContactState(i);
    const eps = c.restitution ?? Math.min(bodies[c.bodyA].restitution ?? 0, c.bodyB >= 0 ? (bodies[c.bodyB].restitution ?? 0) : Infinity);
    const gamma = opts.friction === 'frictionless' ? 0 : opts.friction === 'rough' ? Infinity : (c.friction ?? Math.max(bodies[c.bodyA].friction ?? 0, c.bodyB >= 0 ? (bodies[c.bodyB].friction ?? 0) : 0));
    const vb = relativeVelocity(bodies, null, c.bodyA, c.bodyB, c.point), va = relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point);
    if (st === ContactState.Separated) {
      expect(len(R), `contact ${i} separated: no impulse`).toBe(0);
      continue;
    }
    expect(rn, `contact ${i}: pushes`).toBeGreaterThanOrEqual(-1e-9 * rmax);
    if (allApproach) expect(Math.abs(dot(va, n) + eps * dot(vb, n)) / vs, `contact ${i}: v⁺·n = −ε v⁻·n`).toBeLessThan(1e-9);
    if (gamma !== Infinity) expect(rt, `contact ${i}: inside the cone`).toBeLessThanOrEqual(gamma * rn * (1 + 1e-9) + 1e-12 * rmax);
    if (st === ContactState.Slide) expect(Math.abs(rt - gamma * rn), `contact ${i}: sliding on the cone`).toBeLessThanOrEqual(1e-9 * rmax);
    if (allApproach && st === ContactState.Stick && (opts.restitution ?? 'paper') === 'paper')
      expect(len(v3(va.x + eps * vb.x, va.y + eps * vb.y, va.z + eps * vb.z)) / vs, `contact ${i} sticks: v⁺ = −ε v⁻`).toBeLessThan(1e-9);
  }
  for (let j = 0; j < joints.length; j++) expect(len(relativeVelocity(bodies, sol, joints[j].bodyA, joints[j].bodyB, joints[j].point)) / vs, `joint ${j} holds`).toBeLessThan(1e-9);
  expect(kineticEnergy(bodies, sol), 'kinetic energy after ≤ before').toBeLessThanOrEqual(kineticEnergy(bodies, null) * (1 + 1e-12));
  expectImpulseMomentumBalance(bodies, contacts, joints, sol);
}

describe('a ragdoll lying on the ground, 40 or 80 contacts (seeded random)', () => {
  for (const k of [2, 4] as const)
    for (const friction of ['frictionless', 'coulomb', 'rough'] as const)
      for (let seed = 1; seed <= 4; seed++)
        it(`${k * 20} contacts, ${friction}, seed ${seed}: every law, in every contactGroups mode`, () => {
          const eps = [0, 0.3, 0.7, 1][seed - 1];
          const { bodies, joints, contacts } = makeLyingRagdoll(seededRandom(100 * k + seed), k, { restitution: eps, friction: 0.2 + 0.2 * seed, approachMps: 0.2 + 0.3 * seed, solveJoints: jointsOnly });
          for (const contactGroups of MODES) {
            const opts: SolveOptions = { friction, contactGroups };
            const sol = solver.solve(bodies, joints, contacts, opts);
            expectContactLaws(bodies, joints, contacts, sol, opts);
          }
        });
});

/**
 * Every equality of a fixed constraint set holds (unilateral: false): joints,
 * and at every contact v⁺·n = −ε v⁻·n (frictionless, impulse along n) or the
 * whole v⁺ = −ε v⁻ (perfectly rough, the paper's restitution).
 */
function expectEqualitiesHold(bodies: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], sol: ImpulseSolution, friction: 'frictionless' | 'rough') {
  const vs = velocityScale(bodies);
  for (let j = 0; j < joints.length; j++) expect(len(relativeVelocity(bodies, sol, joints[j].bodyA, joints[j].bodyB, joints[j].point)) / vs, `joint ${j} holds`).toBeLessThan(1e-9);
  for (let i = 0; i < contacts.length; i++) {
    const c = contacts[i], n = c.normal;
    const eps = c.restitution ?? Math.min(bodies[c.bodyA].restitution ?? 0, c.bodyB >= 0 ? (bodies[c.bodyB].restitution ?? 0) : Infinity);
    const vb = relativeVelocity(bodies, null, c.bodyA, c.bodyB, c.point), va = relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point);
    const R = v3(sol.contactImpulse[3 * i], sol.contactImpulse[3 * i + 1], sol.contactImpulse[3 * i + 2]);
    if (friction === 'frictionless') {
      expect(Math.abs(dot(va, n) + eps * dot(vb, n)) / vs, `contact ${i}: v⁺·n = −ε v⁻·n`).toBeLessThan(1e-9);
      const rn = dot(R, n);
      expect(len(v3(R.x - rn * n.x, R.y - rn * n.y, R.z - rn * n.z)), `contact ${i}: impulse along n`).toBeLessThanOrEqual(1e-12 * (1 + len(R)));
    } else expect(len(v3(va.x + eps * vb.x, va.y + eps * vb.y, va.z + eps * vb.z)) / vs, `contact ${i}: v⁺ = −ε v⁻`).toBeLessThan(1e-9);
  }
}

describe('fixed constraint sets (unilateral: false): every constraint holds, impulses balance momentum body by body, all modes agree', () => {
  // The dense 9n reference cannot serve here: its elimination is not meant for
  // redundant rows. Constraints + per-body balance determine the velocities.
  for (const k of [2, 4] as const)
    for (const friction of ['frictionless', 'rough'] as const)
      for (let seed = 1; seed <= 3; seed++)
        it(`ragdoll, ${k * 20} contacts, ${friction}, seed ${seed}`, () => {
          const { bodies, joints, contacts } = makeLyingRagdoll(seededRandom(700 + 10 * k + seed), k, { restitution: 0.4, solveJoints: jointsOnly });
          const vs = velocityScale(bodies);
          let first: ImpulseSolution | null = null;
          for (const contactGroups of MODES) {
            const sol = new ImpulseSolver().solve(bodies, joints, contacts, { friction, unilateral: false, contactGroups });
            expectEqualitiesHold(bodies, joints, contacts, sol, friction);
            expectImpulseMomentumBalance(bodies, contacts, joints, sol);
            if (first) expect(maxVelocityDiff(sol, first) / vs, `${contactGroups} vs schur: same velocities`).toBeLessThan(1e-9);
            else first = sol;
          }
        });

  for (let seed = 1; seed <= 8; seed++)
    it(`four free bodies stacked on the ground, 4 corners each (contacts between dynamic bodies too), seed ${seed}`, () => {
      const rand = seededRandom(900 + seed);
      const bodies: RigidBodyInput[] = [];
      const contacts: ContactInput[] = [];
      for (let i = 0; i < 4; i++) {
        const b = randomBody(rand, v3(0.3 * i, 0.2 + 0.4 * i, 0));
        b.restitution = 0.5;
        bodies.push(b);
        const below = i === 0 ? -1 : i - 1;
        for (const [sx, sz] of [[-1, -1], [1, -1], [-1, 1], [1, 1]]) contacts.push({ bodyA: i, bodyB: below, point: v3(0.3 * i + 0.15 * sx, 0.4 * i, 0.1 * sz), normal: v3(0, 1, 0) });
      }
      const vs = velocityScale(bodies);
      for (const friction of ['frictionless', 'rough'] as const) {
        let first: ImpulseSolution | null = null;
        for (const contactGroups of MODES) {
          const sol = new ImpulseSolver().solve(bodies, [], contacts, { friction, unilateral: false, contactGroups });
          expectEqualitiesHold(bodies, [], contacts, sol, friction);
          expectImpulseMomentumBalance(bodies, contacts, [], sol);
          if (first) expect(maxVelocityDiff(sol, first) / vs, `${friction}, ${contactGroups} vs schur: same velocities`).toBeLessThan(1e-9);
          else first = sol;
        }
      }
    });
});

describe('a box landing flat on a plane on its 4 coplanar corners', () => {
  for (const eps of [0, 0.5, 1])
    it(`ε = ${eps}, frictionless, no spin: v⁺ = −ε v⁻ along the normal, tangential velocity kept, total impulse m(1 + ε)|v⁻|`, () => {
      const { bodies, contacts } = makeBoxOnPlane(0.3, 0.1, 0.2, -2, eps, 0);
      bodies[0].angularVelocity = v3(0, 0, 0);
      for (const contactGroups of MODES) {
        const sol = solver.solve(bodies, [], contacts, { friction: 'frictionless', contactGroups });
        const m = bodies[0].massKg;
        expect(sol.linearVelocity[1]).toBeCloseTo(2 * eps, 12);
        expect(sol.linearVelocity[0]).toBeCloseTo(0.4, 12);
        expect(sol.linearVelocity[2]).toBeCloseTo(-0.2, 12);
        for (let k = 0; k < 3; k++) expect(Math.abs(sol.angularVelocity[k])).toBeLessThan(1e-12);
        let total = 0;
        for (let i = 0; i < 4; i++) {
          expect(sol.contactImpulse[3 * i + 1], `corner ${i} pushes`).toBeGreaterThanOrEqual(0);
          total += sol.contactImpulse[3 * i + 1];
        }
        expect(total).toBeCloseTo(m * (1 + eps) * 2, 9);
      }
    });

  for (const eps of [0, 0.4])
    it(`ε = ${eps}, perfectly rough, spinning: all four corners stick, so the whole box ends at −ε times its velocity before`, () => {
      const { bodies, contacts } = makeBoxOnPlane(0.3, 0.1, 0.2, -3, eps, Infinity);
      bodies[0].angularVelocity = v3(0.2, 0.3, -0.1);
      for (const contactGroups of MODES) {
        const sol = solver.solve(bodies, [], contacts, { friction: 'rough', contactGroups });
        const b = bodies[0];
        const before = [b.linearVelocity.x, b.linearVelocity.y, b.linearVelocity.z, b.angularVelocity.x, b.angularVelocity.y, b.angularVelocity.z];
        const after = [...sol.linearVelocity, ...sol.angularVelocity];
        for (let k = 0; k < 6; k++) expect(Math.abs(after[k] + eps * before[k]), `${contactGroups}: component ${k}`).toBeLessThan(1e-12 * 3);
        expectImpulseMomentumBalance(bodies, contacts, [], sol);
      }
    });
});

describe('a ragdoll lying on a keyframed moving platform', () => {
  for (let seed = 1; seed <= 4; seed++)
    it(`seed ${seed}: the platform's velocities are exactly unchanged, contact laws hold`, () => {
      const { bodies, joints, contacts } = makeLyingRagdoll(seededRandom(1300 + seed), seed % 2 ? 2 : 4, { restitution: 0.2, friction: 0.6, solveJoints: jointsOnly });
      const platform: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(0, -0.05, 0), linearVelocity: v3(0.1, 0.3, 0), angularVelocity: v3(0, 0.2, 0) };
      bodies.push(platform);
      const pk = bodies.length - 1;
      const on = contacts.map((c) => ({ ...c, bodyB: pk }));
      const opts: SolveOptions = { friction: 'coulomb' };
      const sol = solver.solve(bodies, joints, on, opts);
      expect([sol.linearVelocity[3 * pk], sol.linearVelocity[3 * pk + 1], sol.linearVelocity[3 * pk + 2]]).toEqual([0.1, 0.3, 0]);
      expect([sol.angularVelocity[3 * pk], sol.angularVelocity[3 * pk + 1], sol.angularVelocity[3 * pk + 2]]).toEqual([0, 0.2, 0]);
      expectContactLaws(bodies, joints, on, sol, opts);
    });
});

// With one ε for all contacts and every contact approaching before, Poisson restitution is
// Newton's: the complementarity problem λ ≥ 0, w = v⁺·n + ε v⁻·n ≥ 0, λ·w = 0. A contact that
// separates before the impact is never driven into approach (v⁺·n ≥ 0 at every contact).
describe('frictionless contacts solve the complementarity problem: a separated contact does not approach', () => {
  const check = (bodies: RigidBodyInput[], joints: JointInput[], contacts: ContactInput[], label: string) => {
    const sol = solver.solve(bodies, joints, contacts, { friction: 'frictionless' });
    const vs = velocityScale(bodies);
    const allApproach = contacts.every((c) => dot(relativeVelocity(bodies, null, c.bodyA, c.bodyB, c.point), c.normal) < 0);
    let separated = 0;
    for (let i = 0; i < contacts.length; i++) {
      const c = contacts[i], l = len(c.normal), n = v3(c.normal.x / l, c.normal.y / l, c.normal.z / l);
      const eps = c.restitution ?? Math.min(bodies[c.bodyA].restitution ?? 0, c.bodyB >= 0 ? (bodies[c.bodyB].restitution ?? 0) : Infinity);
      const vn = dot(relativeVelocity(bodies, sol, c.bodyA, c.bodyB, c.point), n);
      const w = vn + eps * dot(relativeVelocity(bodies, null, c.bodyA, c.bodyB, c.point), n);
      const rn = dot(v3(sol.contactImpulse[3 * i], sol.contactImpulse[3 * i + 1], sol.contactImpulse[3 * i + 2]), n);
      expect(vn / vs, `${label}, contact ${i}: v⁺·n ≥ 0`).toBeGreaterThanOrEqual(-1e-9);
      if (sol.getContactState(i) === ContactState.Separated) {
        separated++;
        expect(w / vs, `${label}, contact ${i} separated: v⁺·n + ε v⁻·n ≥ 0`).toBeGreaterThanOrEqual(-1e-9);
        expect(Math.abs(rn), "separated: no impulse").toBe(0);
      } else {
        if (allApproach) expect(Math.abs(w) / vs, `${label}, contact ${i} active: v⁺·n + ε v⁻·n = 0`).toBeLessThan(1e-9);
        expect(rn, `${label}, contact ${i} pushes`).toBeGreaterThanOrEqual(0);
      }
    }
    return separated;
  };
  it('4 free bodies, 5 random contacts, seeds 3000–3299', () => {
    let separated = 0;
    for (let seed = 3000; seed < 3300; seed++) {
      const rand = seededRandom(seed);
      const bodies = [randomBody(rand), randomBody(rand), randomBody(rand), randomBody(rand)];
      const eps = rand();
      const pairs = [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]];
      const contacts = pairs.map(([a, b]) => {
        const ca = bodies[a].centerOfMass;
        const point = v3(ca.x + 0.6 * (2 * rand() - 1), ca.y + 0.6 * (2 * rand() - 1), ca.z + 0.6 * (2 * rand() - 1));
        let nrm = v3(2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1);
        if (dot(relativeVelocity(bodies, null, a, b, point), nrm) > 0) nrm = v3(-nrm.x, -nrm.y, -nrm.z);
        return { bodyA: a, bodyB: b, point, normal: nrm, restitution: eps };
      });
      separated += check(bodies, [], contacts, `seed ${seed}`);
    }
    expect(separated, 'some contacts do separate in these cases').toBeGreaterThan(50);
  });
  it('ragdolls tumbling onto the ground (spin 3 rad/s), 40 and 80 contacts, seeds 1–20', () => {
    let separated = 0;
    for (const k of [2, 4] as const)
      for (let seed = 1; seed <= 20; seed++) {
        const { bodies, joints, contacts } = makeLyingRagdoll(seededRandom(5000 + 7 * seed + k), k, { restitution: 0.3, approachMps: 0.5, driftMps: 0.5, spinRadPerSec: 3, solveJoints: jointsOnly });
        separated += check(bodies, joints, contacts, `${k * 20} contacts, seed ${seed}`);
      }
    expect(separated, 'some contacts do separate in these cases').toBeGreaterThan(20);
  });
});

/** A random tree of n bodies with ball joints (some extra loop-closing ones), resting over the ground y = 0 with 1–4 contacts each. */
function groundedLinkage(rand: () => number, n: number, loops: number, kfGround: RigidBodyInput | null) {
  const bodies: RigidBodyInput[] = [];
  const joints: JointInput[] = [];
  const contacts: ContactInput[] = [];
  // one ε for all: with different ε on two jointed bodies pinned by their contacts, −ε v⁻ at
  // both and a holding joint contradict each other (no solution satisfies every equation)
  const eps = 0.3 * rand();
  for (let i = 0; i < n; i++) {
    const b = randomBody(rand, v3(0.8 * (2 * rand() - 1) * Math.sqrt(n), 0.15 + 0.1 * rand(), 0.8 * (2 * rand() - 1) * Math.sqrt(n)));
    b.linearVelocity = v3(0.5 * (2 * rand() - 1), -0.3 - rand(), 0.5 * (2 * rand() - 1));
    b.restitution = eps;
    b.friction = 0.2 + rand();
    bodies.push(b);
  }
  const ballJoint = (a: number, b: number): JointInput => {
    const ca = bodies[a].centerOfMass, cb = bodies[b].centerOfMass, t = 0.3 + 0.4 * rand();
    return { kind: 'ball', bodyA: a, bodyB: b, point: v3(ca.x + t * (cb.x - ca.x), ca.y + t * (cb.y - ca.y), ca.z + t * (cb.z - ca.z)) };
  };
  for (let i = 1; i < n; i++) joints.push(ballJoint(Math.floor(rand() * i), i));
  for (let l = 0; l < loops; l++) {
    const a = Math.floor(rand() * n), b = (a + 1 + Math.floor(rand() * (n - 1))) % n;
    if (joints.some((j) => (j.bodyA === a && j.bodyB === b) || (j.bodyA === b && j.bodyB === a))) continue;
    joints.push(ballJoint(a, b));
  }
  const ground = kfGround ? n : -1;
  if (kfGround) bodies.push(kfGround);
  for (let i = 0; i < n; i++) {
    const c = bodies[i].centerOfMass, k = 1 + Math.floor(rand() * 4);
    for (let q = 0; q < k; q++) contacts.push({ bodyA: i, bodyB: ground, point: v3(c.x + 0.3 * (2 * rand() - 1), 0, c.z + 0.3 * (2 * rand() - 1)), normal: v3(0, 1, 0) });
  }
  return { bodies, joints, contacts };
}

describe('random linkages (ball joints, loops) resting on the world or on a keyframed floor with 1–4 contacts per body', () => {
  for (let seed = 1; seed <= 24; seed++)
    it(`seed ${seed}: every law, in every contactGroups mode`, () => {
      const rand = seededRandom(4200 + seed);
      const n = 3 + Math.floor(rand() * 14);
      const floor: RigidBodyInput | null = seed % 3 === 0 ? { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(0, -0.1, 0), linearVelocity: v3(0.2, 0.1, 0), angularVelocity: v3(0, 0.1, 0) } : null;
      const raw = groundedLinkage(rand, n, seed % 4, floor);
      // velocities consistent with the joints, as for a real linkage
      const js = jointsOnly(raw.bodies, raw.joints);
      const bodies = raw.bodies.map((b, i) => (b.keyframed ? b : { ...b, linearVelocity: v3(js.linearVelocity[3 * i], js.linearVelocity[3 * i + 1], js.linearVelocity[3 * i + 2]), angularVelocity: v3(js.angularVelocity[3 * i], js.angularVelocity[3 * i + 1], js.angularVelocity[3 * i + 2]) }));
      const friction = (['coulomb', 'frictionless', 'rough', 'coulomb'] as const)[seed % 4];
      for (const contactGroups of MODES) {
        const opts: SolveOptions = { friction, contactGroups };
        const sol = solver.solve(bodies, raw.joints, raw.contacts, opts);
        expectContactLaws(bodies, raw.joints, raw.contacts, sol, opts);
        if (floor) {
          const f = bodies.length - 1;
          expect([sol.linearVelocity[3 * f], sol.linearVelocity[3 * f + 1], sol.linearVelocity[3 * f + 2]], 'keyframed floor unchanged').toEqual([0.2, 0.1, 0]);
        }
      }
    });
});

// Least squares then decides which equations give way: the contact rows (and
// joints that close loops, which sit beside them in the Schur complement),
// never the joints of the tree. 'eliminate' would let the joints give way, so
// 'auto' falls back to 'schur' when it sees a contradiction.
describe('contradictory equations (different ε on jointed bodies pinned by their contacts): the joints of a tree still hold', () => {
  for (let seed = 1; seed <= 12; seed++)
    it(`seed ${seed}: 'auto' and 'schur' keep every joint exact, contacts push`, () => {
      const rand = seededRandom(4600 + seed);
      const n = 3 + Math.floor(rand() * 10);
      const raw = groundedLinkage(rand, n, 0, null);
      raw.bodies.forEach((b) => (b.restitution = 0.6 * rand()));
      const js = jointsOnly(raw.bodies, raw.joints);
      const bodies = raw.bodies.map((b, i) => ({ ...b, linearVelocity: v3(js.linearVelocity[3 * i], js.linearVelocity[3 * i + 1], js.linearVelocity[3 * i + 2]), angularVelocity: v3(js.angularVelocity[3 * i], js.angularVelocity[3 * i + 1], js.angularVelocity[3 * i + 2]) }));
      const vs = velocityScale(bodies);
      for (const contactGroups of ['auto', 'schur'] as const) {
        const sol = solver.solve(bodies, raw.joints, raw.contacts, { friction: seed % 2 ? 'rough' : 'coulomb', contactGroups });
        for (let j = 0; j < raw.joints.length; j++) expect(len(relativeVelocity(bodies, sol, raw.joints[j].bodyA, raw.joints[j].bodyB, raw.joints[j].point)) / vs, `${contactGroups}: joint ${j} holds`).toBeLessThan(1e-9);
        let rmax = 0;
        for (let i = 0; i < raw.contacts.length; i++) rmax = Math.max(rmax, Math.abs(sol.contactImpulse[3 * i + 1]));
        for (let i = 0; i < raw.contacts.length; i++) expect(sol.contactImpulse[3 * i + 1], `${contactGroups}: contact ${i} pushes`).toBeGreaterThanOrEqual(-1e-9 * rmax);
        expectImpulseMomentumBalance(bodies, raw.contacts, raw.joints, sol);
      }
    });
});
