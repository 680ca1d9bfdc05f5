import { describe, expect, it } from 'vitest';
import { ImpulseSolver, solveImpulses } from './index';
import type { ContactInput, ImpulseSolution, JointInput, RigidBodyInput, SolveOptions } from './index';
import {
  approachingContact,
  dot,
  kineticEnergy,
  len,
  makeChain,
  momentum,
  randomBody,
  randomUnit,
  randomVec,
  relativeVelocity,
  seededRandom,
  sphereInertia,
  v3,
} from './fixtures';

// Articulated bodies (Moore & Wilhelms §3.2.2–3.2.4, §3.3): trees, loops,
// sliding joints, self-collision, keyframed anchors. Laws checked: the two
// sides of every joint move together at the joint (only the free directions
// of sliding joints may differ), momentum is conserved for free linkages,
// energy does not increase, and the sparse solve equals the dense 9n system.

const solver = new ImpulseSolver();
const dense = new ImpulseSolver();

/** Velocities made consistent with the joints (a joints-only solve), as they are for a real linkage before an impact. */
function consistent(bodies: RigidBodyInput[], joints: JointInput[]): RigidBodyInput[] {
  const s = solver.solve(bodies, joints, []);
  return bodies.map((b, i) =>
    b.keyframed
      ? b
      : {
          ...b,
          linearVelocity: v3(s.linearVelocity[3 * i], s.linearVelocity[3 * i + 1], s.linearVelocity[3 * i + 2]),
          angularVelocity: v3(s.angularVelocity[3 * i], s.angularVelocity[3 * i + 1], s.angularVelocity[3 * i + 2]),
        },
  );
}

function velocityScale(bodies: RigidBodyInput[]): number {
  let s = 0;
  for (const b of bodies) s = Math.max(s, len(b.linearVelocity) + len(b.angularVelocity) * (1 + len(b.centerOfMass)));
  return s;
}

/** Max violation of the joint velocity conditions after the solve, and checks the impulse directions of sliding joints. */
function jointViolation(bodies: RigidBodyInput[], joints: JointInput[], sol: ImpulseSolution): number {
  let worst = 0;
  for (let j = 0; j < joints.length; j++) {
    const jt = joints[j];
    const rv = relativeVelocity(bodies, sol, jt.bodyA, jt.bodyB, jt.point);
    const R = v3(sol.jointImpulse[3 * j], sol.jointImpulse[3 * j + 1], sol.jointImpulse[3 * j + 2]);
    if (jt.kind === 'ball' || jt.kind === 'revolute') worst = Math.max(worst, len(rv));
    else if (jt.kind === 'linearSlide') {
      const a = jt.axis, l = len(a), ax = v3(a.x / l, a.y / l, a.z / l);
      const along = dot(rv, ax);
      worst = Math.max(worst, len(v3(rv.x - along * ax.x, rv.y - along * ax.y, rv.z - along * ax.z)));
      expect(Math.abs(dot(R, ax)), `joint ${j}: linear slide impulse ⊥ axis`).toBeLessThanOrEqual(1e-12 * (1 + len(R)));
    } else if (jt.kind === 'planarSlide') {
      const a = jt.normal, l = len(a), nn = v3(a.x / l, a.y / l, a.z / l);
      worst = Math.max(worst, Math.abs(dot(rv, nn)));
      const rn = dot(R, nn);
      expect(len(v3(R.x - rn * nn.x, R.y - rn * nn.y, R.z - rn * nn.z)), `joint ${j}: planar slide impulse ∥ normal`).toBeLessThanOrEqual(1e-12 * (1 + len(R)));
    }
  }
  return worst;
}

function expectMomentumConserved(bodies: RigidBodyInput[], sol: ImpulseSolution) {
  const a = momentum(bodies, null), b = momentum(bodies, sol);
  const scale = Math.max(a.scale, b.scale);
  expect(len(v3(a.linear.x - b.linear.x, a.linear.y - b.linear.y, a.linear.z - b.linear.z)) / scale, 'linear momentum').toBeLessThan(1e-9);
  expect(len(v3(a.angular.x - b.angular.x, a.angular.y - b.angular.y, a.angular.z - b.angular.z)) / scale, 'angular momentum about the origin').toBeLessThan(1e-9);
}

function expectSameSolution(a: ImpulseSolution, b: ImpulseSolution, tol: number) {
  let scale = 1e-300;
  for (let k = 0; k < a.linearVelocity.length; k++) scale = Math.max(scale, Math.abs(b.linearVelocity[k]), Math.abs(b.angularVelocity[k]));
  for (let k = 0; k < a.linearVelocity.length; k++) {
    expect(Math.abs(a.linearVelocity[k] - b.linearVelocity[k]) / scale, `linear velocity component ${k}`).toBeLessThan(tol);
    expect(Math.abs(a.angularVelocity[k] - b.angularVelocity[k]) / scale, `angular velocity component ${k}`).toBeLessThan(tol);
  }
  let iscale = 1e-300;
  for (let k = 0; k < a.jointImpulse.length; k++) iscale = Math.max(iscale, Math.abs(b.jointImpulse[k]));
  for (let k = 0; k < a.contactImpulse.length; k++) iscale = Math.max(iscale, Math.abs(b.contactImpulse[k]));
  for (let k = 0; k < a.jointImpulse.length; k++) expect(Math.abs(a.jointImpulse[k] - b.jointImpulse[k]) / iscale, `joint impulse ${k}`).toBeLessThan(tol);
  for (let k = 0; k < a.contactImpulse.length; k++) expect(Math.abs(a.contactImpulse[k] - b.contactImpulse[k]) / iscale, `contact impulse ${k}`).toBeLessThan(tol);
  for (let c = 0; c < a.contactCount; c++) expect(a.contactStateName(c)).toBe(b.contactStateName(c));
}

/** A random tree of n bodies; joint kinds mixed; optional extra loop-closing joints. */
function randomLinkage(rand: () => number, n: number, opts: { slides?: boolean; loops?: number } = {}) {
  const bodies: RigidBodyInput[] = [];
  const joints: JointInput[] = [];
  for (let i = 0; i < n; i++) {
    const b = randomBody(rand, i === 0 ? v3(0, 0, 0) : undefined);
    b.restitution = 0.5;
    b.friction = 0.5;
    b.id = `b${i}`;
    bodies.push(b);
  }
  const joint = (a: number, b: number, id: string): JointInput => {
    const ca = bodies[a].centerOfMass, cb = bodies[b].centerOfMass;
    const t = 0.3 + 0.4 * rand();
    const point = v3(ca.x + t * (cb.x - ca.x) + 0.1 * rand(), ca.y + t * (cb.y - ca.y), ca.z + t * (cb.z - ca.z) - 0.1 * rand());
    const u = rand();
    if (opts.slides && u < 0.25) return { kind: 'linearSlide', id, bodyA: a, bodyB: b, point, axis: randomUnit(rand) };
    if (opts.slides && u < 0.45) return { kind: 'planarSlide', id, bodyA: a, bodyB: b, point, normal: randomUnit(rand) };
    return { kind: u < 0.7 ? 'ball' : 'revolute', id, bodyA: a, bodyB: b, point };
  };
  for (let i = 1; i < n; i++) {
    const parent = Math.floor(rand() * i);
    joints.push(rand() < 0.5 ? joint(parent, i, `j${i}`) : joint(i, parent, `j${i}`));
  }
  for (let l = 0; l < (opts.loops ?? 0); l++) {
    const a = Math.floor(rand() * n);
    let b = Math.floor(rand() * n);
    if (b === a) b = (a + 1) % n;
    // a second joint between the same pair is a hinge with one redundant row: tested on its own below
    if (joints.some((j) => (j.bodyA === a && j.bodyB === b) || (j.bodyA === b && j.bodyB === a))) continue;
    joints.push(joint(a, b, `loop${l}`));
  }
  return { bodies, joints };
}

describe('random trees: sparse solve equals the dense 9n system, joints hold, momentum conserved', () => {
  for (let seed = 1; seed <= 30; seed++)
    it(`seed ${seed}`, () => {
      const rand = seededRandom(seed * 31);
      const n = 2 + Math.floor(rand() * 24);
      const link = randomLinkage(rand, n, { slides: seed % 2 === 0 });
      const bodies = consistent(link.bodies, link.joints);
      const contacts: ContactInput[] = [];
      const nc = 1 + (seed % 3);
      for (let c = 0; c < nc; c++) {
        const a = Math.floor(rand() * n);
        // another link of the same linkage (self-collision) or the world. Links joined directly
        // are avoided here: a sticking contact next to their joint makes the impulses
        // non-unique (velocities stay unique), so a comparison with the dense solve is moot.
        // Two sticking contacts between the same pair are redundant the same way.
        const b = c === 0 || n < 2 ? -1 : (a + 1 + Math.floor(rand() * (n - 1))) % n;
        const pairUsed = (x: number, y: number) =>
          link.joints.some((j) => (j.bodyA === x && j.bodyB === y) || (j.bodyA === y && j.bodyB === x)) ||
          contacts.some((k) => (k.bodyA === x && k.bodyB === y) || (k.bodyA === y && k.bodyB === x));
        if (pairUsed(a, b)) continue;
        contacts.push(approachingContact(bodies, a, b, rand, { restitution: 0.4 }));
      }
      const opts: SolveOptions = { friction: (['frictionless', 'rough', 'coulomb'] as const)[seed % 3] };
      const s = solver.solve(bodies, link.joints, contacts, opts);
      const d = dense.solve(bodies, link.joints, contacts, { ...opts, linearSolver: 'dense' });
      expectSameSolution(s, d, 1e-8);
      expect(jointViolation(bodies, link.joints, s) / velocityScale(bodies), 'joint velocity mismatch / velocity scale').toBeLessThan(1e-9);
      if (contacts.every((c) => c.bodyB >= 0)) expectMomentumConserved(bodies, s);
      expect(kineticEnergy(bodies, s)).toBeLessThanOrEqual(kineticEnergy(bodies, null) * (1 + 1e-9));
    });
});

describe('free linkages with self-collision: momentum and energy', () => {
  for (let seed = 40; seed < 60; seed++)
    it(`seed ${seed}: contact between two links of one linkage`, () => {
      const rand = seededRandom(seed);
      const n = 3 + Math.floor(rand() * 12);
      const link = randomLinkage(rand, n, { slides: seed % 2 === 1 });
      const bodies = consistent(link.bodies, link.joints);
      const a = 0, b = n - 1;
      const eps = seed % 4 === 0 ? 1 : 0.3;
      const c = approachingContact(bodies, a, b, rand, { restitution: eps });
      const sol = solver.solve(bodies, link.joints, [c], { friction: seed % 4 === 0 ? 'frictionless' : 'coulomb' });
      expectMomentumConserved(bodies, sol);
      const e0 = kineticEnergy(bodies, null), e1 = kineticEnergy(bodies, sol);
      expect(e1).toBeLessThanOrEqual(e0 * (1 + 1e-9));
      if (eps === 1) expect(Math.abs(e1 - e0) / e0, 'ε = 1 frictionless linkage keeps its energy').toBeLessThan(1e-9);
      expect(jointViolation(bodies, link.joints, sol) / velocityScale(bodies)).toBeLessThan(1e-9);
      const vb = relativeVelocity(bodies, null, a, b, c.point), va = relativeVelocity(bodies, sol, a, b, c.point);
      if (sol.contactStateName(0) !== 'separated') {
        const l = len(c.normal);
        const nn = v3(c.normal.x / l, c.normal.y / l, c.normal.z / l);
        expect(Math.abs(dot(va, nn) + eps * dot(vb, nn)) / len(vb)).toBeLessThan(1e-9);
      }
    });
});

describe('linkages with loops (extra joints, §3.2.3)', () => {
  for (let seed = 70; seed < 90; seed++)
    it(`seed ${seed}: loop joints hold, sparse = dense`, () => {
      const rand = seededRandom(seed);
      const n = 3 + Math.floor(rand() * 10);
      const link = randomLinkage(rand, n, { loops: 1 + (seed % 3), slides: seed % 2 === 0 });
      const bodies = consistent(link.bodies, link.joints);
      expect(jointViolation(bodies, link.joints, solver.solve(bodies, link.joints, [])) / velocityScale(bodies)).toBeLessThan(1e-9);
      const c = approachingContact(bodies, Math.floor(rand() * n), -1, rand, { restitution: 0.7 });
      const s = solver.solve(bodies, link.joints, [c], { friction: 'frictionless' });
      expect(jointViolation(bodies, link.joints, s) / velocityScale(bodies)).toBeLessThan(1e-9);
      expect(kineticEnergy(bodies, s)).toBeLessThanOrEqual(kineticEnergy(bodies, null) * (1 + 1e-9));
      const d = dense.solve(bodies, link.joints, [c], { friction: 'frictionless', linearSolver: 'dense' });
      // loops can make joint rows redundant; velocities are unique even when impulses are not
      let scale = 0;
      for (let k = 0; k < 3 * n; k++) scale = Math.max(scale, Math.abs(d.linearVelocity[k]), Math.abs(d.angularVelocity[k]));
      for (let k = 0; k < 3 * n; k++) {
        expect(Math.abs(s.linearVelocity[k] - d.linearVelocity[k]) / scale).toBeLessThan(1e-8);
        expect(Math.abs(s.angularVelocity[k] - d.angularVelocity[k]) / scale).toBeLessThan(1e-8);
      }
    });

  it('a ring of 8 links closed by its last joint, struck: every joint of the ring holds (seed 95)', () => {
    const rand = seededRandom(95);
    const bodies: RigidBodyInput[] = [];
    const joints: JointInput[] = [];
    const N = 8, R = 1;
    for (let i = 0; i < N; i++) {
      const a = ((i + 0.5) / N) * 2 * Math.PI;
      bodies.push({ massKg: 1, inertia: sphereInertia(1, 0.2), centerOfMass: v3(R * Math.cos(a), R * Math.sin(a), 0), linearVelocity: randomVec(rand, 1), angularVelocity: randomVec(rand, 1) });
    }
    for (let i = 0; i < N; i++) {
      const a = ((i + 1) / N) * 2 * Math.PI;
      joints.push({ kind: 'ball', bodyA: i, bodyB: (i + 1) % N, point: v3(R * Math.cos(a), R * Math.sin(a), 0) });
    }
    const b = consistent(bodies, joints);
    const c = approachingContact(b, 3, -1, rand, { restitution: 0.5 });
    const sol = solver.solve(b, joints, [c]);
    expect(jointViolation(b, joints, sol)).toBeLessThan(1e-12);
  });
});

/** A rope of n links hanging in a circular arc between two end points (not straight, so no joint row is redundant). */
function sagChain(n: number, rand: () => number) {
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const t = -1 + (2 * i) / n; // −1 .. 1
    pts.push(v3(Math.sin(t), -Math.cos(t) * 0.8, 0.05 * Math.sin(3 * t)));
  }
  const bodies: RigidBodyInput[] = [];
  const joints: JointInput[] = [];
  for (let i = 0; i < n; i++) {
    const m = 0.5 + rand();
    bodies.push({
      id: `rope${i}`,
      massKg: m,
      inertia: sphereInertia(m, 0.05 + 0.05 * rand()),
      centerOfMass: v3((pts[i].x + pts[i + 1].x) / 2, (pts[i].y + pts[i + 1].y) / 2, (pts[i].z + pts[i + 1].z) / 2),
      linearVelocity: randomVec(rand, 1),
      angularVelocity: randomVec(rand, 1),
      restitution: 0.6,
      friction: 0.3,
    });
    if (i > 0) joints.push({ kind: 'ball', id: `knot${i}`, bodyA: i - 1, bodyB: i, point: pts[i] });
  }
  return { bodies, joints, ends: [pts[0], pts[n]] };
}

describe('two ball joints between the same pair (a hinge, §3.2.3)', () => {
  for (let seed = 140; seed < 150; seed++)
    it(`seed ${seed}: both joints hold, the pair only turns about the hinge line`, () => {
      const rand = seededRandom(seed);
      const bodies = [randomBody(rand, v3(0, 0, 0)), randomBody(rand, v3(1, 0.2, 0)), randomBody(rand, v3(2, 0, 0.3))];
      const p = v3(0.5, 0.1, 0), q = v3(0.6, 0.5, -0.3);
      const joints: JointInput[] = [
        { kind: 'ball', bodyA: 0, bodyB: 1, point: p },
        { kind: 'ball', bodyA: 1, bodyB: 0, point: q },
        { kind: 'linearSlide', bodyA: 1, bodyB: 2, point: v3(1.5, 0.1, 0.1), axis: v3(1, 0, 0) },
      ];
      const b = consistent(bodies, joints);
      const c = approachingContact(b, 2, -1, rand, { restitution: 0.5 });
      const sol = solver.solve(b, joints, [c], { friction: 'rough' });
      expect(jointViolation(b, joints, sol) / velocityScale(b)).toBeLessThan(1e-9);
      // relative angular velocity ∥ hinge line p→q
      const w = v3(sol.angularVelocity[0] - sol.angularVelocity[3], sol.angularVelocity[1] - sol.angularVelocity[4], sol.angularVelocity[2] - sol.angularVelocity[5]);
      const h = v3(q.x - p.x, q.y - p.y, q.z - p.z), hl = len(h);
      const along = dot(w, h) / hl;
      expect(len(v3(w.x - (along * h.x) / hl, w.y - (along * h.y) / hl, w.z - (along * h.z) / hl)) / velocityScale(b)).toBeLessThan(1e-9);
      expect(kineticEnergy(b, sol)).toBeLessThanOrEqual(kineticEnergy(b, null) * (1 + 1e-9));
      expectMomentumConserved(b, solver.solve(b, joints, [approachingContact(b, 2, 0, rand, { restitution: 0.5 })]));
    });
});

describe('keyframed bodies in linkages (§3.3)', () => {
  for (let seed = 100; seed < 115; seed++)
    it(`seed ${seed}: a chain hung between two keyframed bodies, struck: keyframed unchanged, anchors move with them`, () => {
      const rand = seededRandom(seed);
      const n = 3 + Math.floor(rand() * 20);
      const { bodies, joints, ends } = sagChain(n, rand);
      const handA: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(ends[0].x - 0.1, ends[0].y, 0), linearVelocity: randomVec(rand, 1), angularVelocity: randomVec(rand, 2) };
      const handB: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(ends[1].x + 0.1, ends[1].y, 0), linearVelocity: randomVec(rand, 1), angularVelocity: randomVec(rand, 2) };
      bodies.push(handA, handB);
      joints.push({ kind: 'ball', id: 'gripA', bodyA: n, bodyB: 0, point: ends[0] });
      joints.push({ kind: seed % 2 ? 'ball' : 'planarSlide', id: 'gripB', bodyA: n - 1, bodyB: n + 1, point: ends[1], normal: v3(0, 1, 0) } as JointInput);
      const b = consistent(bodies, joints);
      const k = 1 + Math.floor(rand() * (n - 1)); // not link 0, which hand A grips (that would make the impulses non-unique)
      const contacts = [approachingContact(b, k, n, rand, { restitution: 0.6, friction: 0.3 })]; // struck by hand A
      const sol = solver.solve(b, joints, contacts);
      for (const h of [n, n + 1]) {
        expect([sol.linearVelocity[3 * h], sol.linearVelocity[3 * h + 1], sol.linearVelocity[3 * h + 2]]).toEqual([b[h].linearVelocity.x, b[h].linearVelocity.y, b[h].linearVelocity.z]);
        expect([sol.angularVelocity[3 * h], sol.angularVelocity[3 * h + 1], sol.angularVelocity[3 * h + 2]]).toEqual([b[h].angularVelocity.x, b[h].angularVelocity.y, b[h].angularVelocity.z]);
      }
      expect(jointViolation(b, joints, sol) / velocityScale(b)).toBeLessThan(1e-9);
      const d = dense.solve(b, joints, contacts, { linearSolver: 'dense' });
      expectSameSolution(sol, d, 1e-8);
    });
});

describe('closed form: pendulum hinged to the world', () => {
  for (const eps of [0, 0.5, 1])
    it(`rod pivoted at one end, struck at the other by a sphere, ε=${eps}: effective mass m/3`, () => {
      const m = 3, L = 2, ms = 0.7, u = 2;
      const I = (m * L * L) / 12;
      const bodies: RigidBodyInput[] = [
        { massKg: m, inertia: [1e-3 * I, 0, 0, 0, I, 0, 0, 0, I], centerOfMass: v3(L / 2, 0, 0), linearVelocity: v3(0, 0, 0), angularVelocity: v3(0, 0, 0), restitution: 1 },
        { massKg: ms, inertia: sphereInertia(ms, 0.1), centerOfMass: v3(L, 0.1, 0), linearVelocity: v3(0, -u, 0), angularVelocity: v3(0, 0, 0), restitution: eps },
      ];
      const joints: JointInput[] = [{ kind: 'ball', bodyA: 0, bodyB: -1, point: v3(0, 0, 0) }];
      const sol = solveImpulses(bodies, joints, [{ bodyA: 0, bodyB: 1, point: v3(L, 0, 0), normal: v3(0, -1, 0) }]);
      const j = ((1 + eps) * u) / (1 / ms + 3 / m);
      expect(Math.abs(sol.contactImpulse[1] + j)).toBeLessThan(1e-12);
      expect(Math.abs(sol.angularVelocity[2] + (j * L) / ((m * L * L) / 3))).toBeLessThan(1e-12);
      // pivot impulse: the rod's momentum change minus the contact impulse
      expect(Math.abs(sol.jointImpulse[1] - (m * sol.linearVelocity[1] + j))).toBeLessThan(1e-12);
    });
});

describe("the paper's (1 + ε) scaling holds for linkages too", () => {
  for (let seed = 120; seed < 130; seed++)
    it(`seed ${seed}: contact and joint impulses with ε are (1 + ε) × those with ε = 0`, () => {
      const rand = seededRandom(seed);
      const n = 2 + Math.floor(rand() * 15);
      const link = randomLinkage(rand, n, { slides: true });
      const bodies = consistent(link.bodies, link.joints);
      const c0 = approachingContact(bodies, n - 1, -1, seededRandom(seed + 1), { restitution: 0 });
      const eps = 0.2 + 0.8 * rand();
      for (const friction of ['frictionless', 'rough'] as const) {
        const s0 = solver.solve(bodies, link.joints, [c0], { friction, unilateral: false });
        const r0c = Array.from(s0.contactImpulse), r0j = Array.from(s0.jointImpulse);
        const s1 = solver.solve(bodies, link.joints, [{ ...c0, restitution: eps }], { friction, unilateral: false });
        const scale = Math.max(...r0c.map(Math.abs), ...r0j.map(Math.abs));
        for (let k = 0; k < 3; k++) expect(Math.abs(s1.contactImpulse[k] - (1 + eps) * r0c[k]) / scale).toBeLessThan(1e-9);
        for (let k = 0; k < r0j.length; k++) expect(Math.abs(s1.jointImpulse[k] - (1 + eps) * r0j[k]) / scale).toBeLessThan(1e-9);
      }
    });
});

describe('long chains', () => {
  for (const n of [60, 120])
    it(`${n}-link chain struck mid-way (seed ${n}): sparse = dense, joints hold`, () => {
      const rand = seededRandom(n);
      const { bodies, joints } = makeChain(n, rand);
      const b = consistent(bodies, joints);
      const contacts = [approachingContact(b, n >> 1, -1, rand, { restitution: 0.5 }), approachingContact(b, n - 1, 0, rand, { restitution: 0.5 })];
      const s = solver.solve(b, joints, contacts);
      const d = dense.solve(b, joints, contacts, { linearSolver: 'dense' });
      expectSameSolution(s, d, 1e-8);
      expect(jointViolation(b, joints, s) / velocityScale(b)).toBeLessThan(1e-9);
    });
});

describe('closed form: bead on a rail (linear slide to the world) struck obliquely by a keyframed bat', () => {
  for (const theta of [0.3, 1.0])
    it(`θ = ${theta}: v_x = (1 + ε)·u / cos θ, the rail takes the rest`, () => {
      const m = 0.8, r = 0.05, u = 2, eps = 0.4;
      const n = v3(Math.cos(theta), Math.sin(theta), 0);
      const bead: RigidBodyInput = { massKg: m, inertia: sphereInertia(m, r), centerOfMass: v3(0, 0, 0), linearVelocity: v3(0, 0, 0), angularVelocity: v3(0, 0, 0), restitution: eps };
      const bat: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(-r * n.x - 0.2, -r * n.y, 0), linearVelocity: v3(u * n.x, u * n.y, 0), angularVelocity: v3(0, 0, 0), restitution: 1 };
      const joints: JointInput[] = [{ kind: 'linearSlide', id: 'rail', bodyA: -1, bodyB: 0, point: v3(0, 0, 0), axis: v3(1, 0, 0) }];
      const sol = solveImpulses([bead, bat], joints, [{ bodyA: 0, bodyB: 1, point: v3(-r * n.x, -r * n.y, 0), normal: n }], { friction: 'frictionless' });
      const vx = ((1 + eps) * u) / Math.cos(theta);
      expect(Math.abs(sol.linearVelocity[0] - vx)).toBeLessThan(1e-12);
      expect(Math.abs(sol.linearVelocity[1])).toBeLessThan(1e-12);
      const j = (m * (1 + eps) * u) / Math.cos(theta) ** 2;
      expect(Math.abs(sol.contactImpulse[0] - j * n.x)).toBeLessThan(1e-12 * j);
      // the rail (body A = world) receives the bead's y-impulse: impulse on the world from the bead = +j sinθ ŷ
      expect(Math.abs(sol.jointImpulse[1] - j * Math.sin(theta))).toBeLessThan(1e-12 * j);
      expect(Math.abs(sol.jointImpulse[0])).toBeLessThan(1e-12 * j);
    });

  it('a joint between two keyframed bodies has no effect and no impulse', () => {
    const kf: RigidBodyInput = { keyframed: true, massKg: 0, inertia: [], centerOfMass: v3(0, 0, 0), linearVelocity: v3(1, 0, 0), angularVelocity: v3(0, 0, 0) };
    const free: RigidBodyInput = { massKg: 1, inertia: sphereInertia(1, 0.1), centerOfMass: v3(1, 0, 0), linearVelocity: v3(-1, 0, 0), angularVelocity: v3(0, 0, 0) };
    const sol = solveImpulses([kf, { ...kf, centerOfMass: v3(0.5, 0, 0) }, free], [{ kind: 'ball', bodyA: 0, bodyB: 1, point: v3(0.2, 0, 0) }], []);
    expect(Array.from(sol.jointImpulse)).toEqual([0, 0, 0]);
    expect(sol.linearVelocity[6]).toBe(-1);
  });
});
