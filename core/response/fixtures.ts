import type { Vec3Like } from '../math';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './types';
import type { ImpulseSolution } from './solver';

/*
 * Helpers shared by the response tests and the benchmark: a seeded random
 * generator, random rigid bodies, articulated chains, and the physical
 * quantities the tests check (momentum, kinetic energy, point velocities).
 */

import { mulberry32 } from '../math/random';
import { cos, hypot2, hypot3, hypot4, sin } from '../math/libm';
export { mulberry32 as seededRandom } from '../math/random';

export function v3(x: number, y: number, z: number): Vec3Like {
  return { x, y, z };
}

export function randomVec(rand: () => number, scale: number): Vec3Like {
  return v3((2 * rand() - 1) * scale, (2 * rand() - 1) * scale, (2 * rand() - 1) * scale);
}

export function randomUnit(rand: () => number): Vec3Like {
  for (;;) {
    const v = randomVec(rand, 1);
    const l = hypot3(v.x, v.y, v.z);
    if (l > 0.1 && l <= 1) return v3(v.x / l, v.y / l, v.z / l);
  }
}

/** Column-major inertia R·diag(a, b, c)·Rᵀ with a random rotation and principal moments satisfying the triangle inequality. */
export function randomInertia(rand: () => number, massKg: number, size: number): number[] {
  const sx = size * (0.3 + rand()), sy = size * (0.3 + rand()), sz = size * (0.3 + rand());
  // box moments
  const d = [(massKg * (sy * sy + sz * sz)) / 12, (massKg * (sx * sx + sz * sz)) / 12, (massKg * (sx * sx + sy * sy)) / 12];
  // random rotation from a random unit quaternion
  let qx = 2 * rand() - 1, qy = 2 * rand() - 1, qz = 2 * rand() - 1, qw = 2 * rand() - 1;
  const l = hypot4(qx, qy, qz, qw);
  qx /= l;
  qy /= l;
  qz /= l;
  qw /= l;
  const R = [
    1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qz * qw), 2 * (qx * qz - qy * qw),
    2 * (qx * qy - qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qx * qw),
    2 * (qx * qz + qy * qw), 2 * (qy * qz - qx * qw), 1 - 2 * (qx * qx + qy * qy),
  ]; // column-major
  const I = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += R[k * 3 + r] * d[k] * R[k * 3 + c];
      I[c * 3 + r] = s;
    }
  // exact symmetry
  I[3] = I[1];
  I[6] = I[2];
  I[7] = I[5];
  return I;
}

export function randomBody(rand: () => number, at?: Vec3Like): RigidBodyInput {
  const m = 0.2 + 5 * rand();
  return {
    massKg: m,
    inertia: randomInertia(rand, m, 0.5 + rand()),
    centerOfMass: at ?? randomVec(rand, 2),
    linearVelocity: randomVec(rand, 3),
    angularVelocity: randomVec(rand, 3),
  };
}

export function sphereInertia(massKg: number, radius: number): number[] {
  const i = 0.4 * massKg * radius * radius;
  return [i, 0, 0, 0, i, 0, 0, 0, i];
}

/**
 * A 6-body chain (makeChain) on the ground under a keyframed body (index 6) sliding over it: per
 * body, seeded, a ground contact, a contact against the keyframed body above, and with `pinched`
 * one with the keyframed body below as well.
 */
export function chainUnderKeyframed(rand: () => number, pinched: boolean): { bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[] } {
  const { bodies, joints } = makeChain(6, rand);
  bodies.push({ massKg: 1, inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1], centerOfMass: v3(0.9, 0.3, 0), linearVelocity: v3(0.4, 0, 0.1), angularVelocity: v3(0, 0.3, 0), keyframed: true, friction: 0.5 });
  const contacts: ContactInput[] = [];
  for (let i = 0; i < 6; i++) {
    const c = bodies[i].centerOfMass;
    if (rand() < 0.6) contacts.push({ bodyA: i, bodyB: -1, point: v3(c.x + 0.05 * (rand() - 0.5), c.y - 0.05, c.z), normal: v3(0.1 * (rand() - 0.5), 1, 0.1 * (rand() - 0.5)), friction: 0.5 });
    if (rand() < 0.4) contacts.push({ bodyA: i, bodyB: 6, point: v3(c.x, c.y + 0.05, c.z), normal: v3(0, -1, 0), friction: 0.5 });
    if (pinched && rand() < 0.3) contacts.push({ bodyA: 6, bodyB: i, point: v3(c.x, c.y - 0.05, c.z + 0.02), normal: v3(0, 1, 0), friction: 0.5 });
  }
  return { bodies, joints, contacts };
}

/**
 * A chain of `n` rod-like links along x joined by ball joints, every link with
 * a random velocity consistent with the joints (the chain is first given
 * random velocities, which the joint rows of the solve then make consistent).
 */
export function makeChain(n: number, rand: () => number, linkLength = 0.3): { bodies: RigidBodyInput[]; joints: JointInput[] } {
  const bodies: RigidBodyInput[] = [];
  const joints: JointInput[] = [];
  for (let i = 0; i < n; i++) {
    const m = 0.5 + rand();
    const c = v3((i + 0.5) * linkLength, 0.05 * sin(i), 0.05 * cos(i * 0.7));
    bodies.push({
      id: `link${i}`,
      massKg: m,
      inertia: randomInertia(rand, m, linkLength),
      centerOfMass: c,
      linearVelocity: randomVec(rand, 1),
      angularVelocity: randomVec(rand, 1),
      restitution: 0.5,
      friction: 0.4,
    });
    if (i > 0) joints.push({ kind: 'ball', id: `j${i}`, bodyA: i - 1, bodyB: i, point: v3(i * linkLength, 0.025 * (sin(i) + sin(i - 1)), 0) });
  }
  return { bodies, joints };
}

/** Velocity of the material point p of body `i` after the solve (or before, with `sol` = null). */
export function pointVelocity(bodies: readonly RigidBodyInput[], sol: ImpulseSolution | null, i: number, p: Vec3Like): Vec3Like {
  if (i < 0) return v3(0, 0, 0);
  const b = bodies[i];
  const v = sol ? v3(sol.linearVelocity[3 * i], sol.linearVelocity[3 * i + 1], sol.linearVelocity[3 * i + 2]) : b.linearVelocity;
  const w = sol ? v3(sol.angularVelocity[3 * i], sol.angularVelocity[3 * i + 1], sol.angularVelocity[3 * i + 2]) : b.angularVelocity;
  const rx = p.x - b.centerOfMass.x, ry = p.y - b.centerOfMass.y, rz = p.z - b.centerOfMass.z;
  return v3(v.x + w.y * rz - w.z * ry, v.y + w.z * rx - w.x * rz, v.z + w.x * ry - w.y * rx);
}

/** Relative velocity v_A(p) − v_B(p) of a contact or joint point. */
export function relativeVelocity(bodies: readonly RigidBodyInput[], sol: ImpulseSolution | null, a: number, b: number, p: Vec3Like): Vec3Like {
  const va = pointVelocity(bodies, sol, a, p), vb = pointVelocity(bodies, sol, b, p);
  return v3(va.x - vb.x, va.y - vb.y, va.z - vb.z);
}

function velOf(bodies: readonly RigidBodyInput[], sol: ImpulseSolution | null, i: number): [Vec3Like, Vec3Like] {
  const b = bodies[i];
  if (!sol) return [b.linearVelocity, b.angularVelocity];
  return [
    v3(sol.linearVelocity[3 * i], sol.linearVelocity[3 * i + 1], sol.linearVelocity[3 * i + 2]),
    v3(sol.angularVelocity[3 * i], sol.angularVelocity[3 * i + 1], sol.angularVelocity[3 * i + 2]),
  ];
}

/** Kinetic energy of the dynamic bodies. */
export function kineticEnergy(bodies: readonly RigidBodyInput[], sol: ImpulseSolution | null): number {
  let e = 0;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    if (b.keyframed) continue;
    const [v, w] = velOf(bodies, sol, i);
    const I = b.inertia;
    const Iw = [I[0] * w.x + I[3] * w.y + I[6] * w.z, I[1] * w.x + I[4] * w.y + I[7] * w.z, I[2] * w.x + I[5] * w.y + I[8] * w.z];
    e += 0.5 * b.massKg * (v.x * v.x + v.y * v.y + v.z * v.z) + 0.5 * (w.x * Iw[0] + w.y * Iw[1] + w.z * Iw[2]);
  }
  return e;
}

/** Total linear momentum and angular momentum about the world origin of the dynamic bodies. */
export function momentum(bodies: readonly RigidBodyInput[], sol: ImpulseSolution | null): { linear: Vec3Like; angular: Vec3Like; scale: number } {
  const L = v3(0, 0, 0), A = v3(0, 0, 0);
  let scale = 0;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    if (b.keyframed) continue;
    const [v, w] = velOf(bodies, sol, i);
    const m = b.massKg, I = b.inertia, c = b.centerOfMass;
    L.x += m * v.x;
    L.y += m * v.y;
    L.z += m * v.z;
    const Iw = [I[0] * w.x + I[3] * w.y + I[6] * w.z, I[1] * w.x + I[4] * w.y + I[7] * w.z, I[2] * w.x + I[5] * w.y + I[8] * w.z];
    A.x += Iw[0] + m * (c.y * v.z - c.z * v.y);
    A.y += Iw[1] + m * (c.z * v.x - c.x * v.z);
    A.z += Iw[2] + m * (c.x * v.y - c.y * v.x);
    scale += m * hypot3(v.x, v.y, v.z) * (1 + hypot3(c.x, c.y, c.z)) + hypot3(Iw[0], Iw[1], Iw[2]);
  }
  return { linear: L, angular: A, scale };
}

/**
 * How far a solve breaks momentum: the dynamic bodies' change of linear and
 * angular momentum (about the origin) minus the impulses of the world and the
 * keyframed bodies (contacts and joints, with their moments), each relative
 * to the island's momentum scale. Both are round-off for a lawful solve.
 */
export function externalMomentumResidual(
  bodies: readonly RigidBodyInput[],
  joints: readonly JointInput[],
  contacts: readonly ContactInput[],
  sol: ImpulseSolution,
): { linear: number; angular: number } {
  const L = v3(0, 0, 0), A = v3(0, 0, 0);
  let mScale = 0;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    if (b.keyframed) continue;
    const c = b.centerOfMass, m = b.massKg, I = b.inertia;
    for (const [sg, v, w] of [
      [1, v3(sol.linearVelocity[3 * i], sol.linearVelocity[3 * i + 1], sol.linearVelocity[3 * i + 2]), v3(sol.angularVelocity[3 * i], sol.angularVelocity[3 * i + 1], sol.angularVelocity[3 * i + 2])],
      [-1, b.linearVelocity, b.angularVelocity],
    ] as const) {
      L.x += sg * m * v.x;
      L.y += sg * m * v.y;
      L.z += sg * m * v.z;
      const Iw = v3(I[0] * w.x + I[3] * w.y + I[6] * w.z, I[1] * w.x + I[4] * w.y + I[7] * w.z, I[2] * w.x + I[5] * w.y + I[8] * w.z);
      A.x += sg * (Iw.x + m * (c.y * v.z - c.z * v.y));
      A.y += sg * (Iw.y + m * (c.z * v.x - c.x * v.z));
      A.z += sg * (Iw.z + m * (c.x * v.y - c.y * v.x));
      mScale = Math.max(mScale, m * len(v), len(Iw));
    }
  }
  const external = (k: number) => k < 0 || !!bodies[k].keyframed;
  const add = (p: Vec3Like, R: Vec3Like, sg: number) => {
    L.x -= sg * R.x;
    L.y -= sg * R.y;
    L.z -= sg * R.z;
    A.x -= sg * (p.y * R.z - p.z * R.y);
    A.y -= sg * (p.z * R.x - p.x * R.z);
    A.z -= sg * (p.x * R.y - p.y * R.x);
  };
  for (let c = 0; c < contacts.length; c++) {
    const ct = contacts[c], R = v3(sol.contactImpulse[3 * c], sol.contactImpulse[3 * c + 1], sol.contactImpulse[3 * c + 2]);
    if (external(ct.bodyB) && !external(ct.bodyA)) add(ct.point, R, 1);
    else if (external(ct.bodyA) && !external(ct.bodyB)) add(ct.point, R, -1);
  }
  for (let j = 0; j < joints.length; j++) {
    const jt = joints[j], R = v3(sol.jointImpulse[3 * j], sol.jointImpulse[3 * j + 1], sol.jointImpulse[3 * j + 2]);
    if (external(jt.bodyB) && !external(jt.bodyA)) add(jt.point, R, 1);
    else if (external(jt.bodyA) && !external(jt.bodyB)) add(jt.point, R, -1);
  }
  const ms = Math.max(mScale, 1e-300) * (1 + Math.max(...bodies.map((b) => len(b.centerOfMass))));
  return { linear: len(L) / ms, angular: len(A) / ms };
}

export function dot(a: Vec3Like, b: Vec3Like): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
export function len(a: Vec3Like): number {
  return hypot3(a.x, a.y, a.z);
}

/** A random contact between bodies a and b (b = -1: world) whose normal makes them approach. */
export function approachingContact(bodies: readonly RigidBodyInput[], a: number, b: number, rand: () => number, extra: Partial<ContactInput> = {}): ContactInput {
  const ca = bodies[a].centerOfMass;
  const point = v3(ca.x + (2 * rand() - 1) * 0.6, ca.y + (2 * rand() - 1) * 0.6, ca.z + (2 * rand() - 1) * 0.6);
  let n = randomUnit(rand);
  const vr = relativeVelocity(bodies, null, a, b, point);
  if (dot(vr, n) > 0) n = v3(-n.x, -n.y, -n.z);
  return { bodyA: a, bodyB: b, point, normal: n, ...extra };
}

/**
 * A 20-part ragdoll (pelvis, 3 spine parts, neck, head, two arms of clavicle,
 * upper arm, forearm, hand, two legs of thigh, shin, foot; 19 ball joints)
 * lying flat on the ground plane y = 0, every part a box whose bottom face
 * rests on the plane. `contactsPerPart` = 2 puts contacts at the two ends of
 * the bottom face's centre line (collinear, as for a limb), 4 at its four
 * corners (coplanar, redundant). Velocities: falling onto the plane at about
 * `approachMps` with a random tangential drift (up to `driftMps`) and spin (up
 * to `spinRadPerSec` about each axis), made consistent with
 * the joints by a joints-only solve (as for a real linkage before an impact).
 */
export function makeLyingRagdoll(
  rand: () => number,
  contactsPerPart: 2 | 4,
  opts: { restitution?: number; friction?: number; approachMps?: number; driftMps?: number; spinRadPerSec?: number; solveJoints: (b: RigidBodyInput[], j: JointInput[]) => ImpulseSolution },
): { bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[] } {
  // part: parent, start point (x, z) of its axis, end point, half width, half height
  const P: Array<[string, number, number, number, number, number, number, number]> = [
    ['pelvis', -1, 0, -0.1, 0, 0.1, 0.16, 0.1],
    ['spine1', 0, 0, 0.1, 0, 0.25, 0.14, 0.09],
    ['spine2', 1, 0, 0.25, 0, 0.4, 0.15, 0.09],
    ['chest', 2, 0, 0.4, 0, 0.6, 0.18, 0.1],
    ['neck', 3, 0, 0.6, 0, 0.7, 0.05, 0.05],
    ['head', 4, 0, 0.7, 0, 0.92, 0.09, 0.1],
    ['clavicleL', 3, 0.03, 0.56, 0.18, 0.58, 0.04, 0.04],
    ['upperArmL', 6, 0.18, 0.58, 0.45, 0.58, 0.05, 0.05],
    ['forearmL', 7, 0.45, 0.58, 0.7, 0.58, 0.04, 0.04],
    ['handL', 8, 0.7, 0.58, 0.85, 0.58, 0.045, 0.02],
    ['clavicleR', 3, -0.03, 0.56, -0.18, 0.58, 0.04, 0.04],
    ['upperArmR', 10, -0.18, 0.58, -0.45, 0.58, 0.05, 0.05],
    ['forearmR', 11, -0.45, 0.58, -0.7, 0.58, 0.04, 0.04],
    ['handR', 12, -0.7, 0.58, -0.85, 0.58, 0.045, 0.02],
    ['thighL', 0, 0.1, -0.1, 0.12, -0.55, 0.07, 0.07],
    ['shinL', 14, 0.12, -0.55, 0.13, -0.98, 0.055, 0.055],
    ['footL', 15, 0.13, -0.98, 0.14, -1.2, 0.045, 0.04],
    ['thighR', 0, -0.1, -0.1, -0.12, -0.55, 0.07, 0.07],
    ['shinR', 17, -0.12, -0.55, -0.13, -0.98, 0.055, 0.055],
    ['footR', 18, -0.13, -0.98, -0.14, -1.2, 0.045, 0.04],
  ];
  const bodies: RigidBodyInput[] = [];
  const joints: JointInput[] = [];
  const contacts: ContactInput[] = [];
  const eps = opts.restitution ?? 0, gamma = opts.friction ?? 0.5, vIn = opts.approachMps ?? 0.5, drift = opts.driftMps ?? 0.3, spin = opts.spinRadPerSec ?? 0.5;
  const bottoms: Array<{ ax: number; az: number; bx: number; bz: number; w: number }> = [];
  for (const [id, parent, x0, z0, x1, z1, hw, hh] of P) {
    const L = hypot2(x1 - x0, z1 - z0), ux = (x1 - x0) / L, uz = (z1 - z0) / L;
    // box with axis (ux, 0, uz), width direction (−uz, 0, ux), height y; principal moments rotated about y
    const m = 1000 * (2 * hw) * (2 * hh) * L;
    const Ia = (m * (4 * hw * hw + 4 * hh * hh)) / 12, Iw = (m * (L * L + 4 * hh * hh)) / 12, Iy = (m * (L * L + 4 * hw * hw)) / 12;
    // I = Ia·u uᵀ + Iw·w wᵀ + Iy·ŷŷᵀ with u = (ux, 0, uz), w = (−uz, 0, ux)
    const Ixx = Ia * ux * ux + Iw * uz * uz, Izz = Ia * uz * uz + Iw * ux * ux, Ixz = (Ia - Iw) * ux * uz;
    bodies.push({
      id,
      massKg: m,
      inertia: [Ixx, 0, Ixz, 0, Iy, 0, Ixz, 0, Izz],
      centerOfMass: v3((x0 + x1) / 2, hh, (z0 + z1) / 2),
      linearVelocity: v3(drift * (2 * rand() - 1), -vIn * (0.8 + 0.4 * rand()), drift * (2 * rand() - 1)),
      angularVelocity: v3(spin * (2 * rand() - 1), spin * (2 * rand() - 1), spin * (2 * rand() - 1)),
      restitution: eps,
      friction: gamma,
    });
    bottoms.push({ ax: x0, az: z0, bx: x1, bz: z1, w: hw });
    if (parent >= 0) {
      const pp = bodies[parent].centerOfMass;
      joints.push({ kind: 'ball', id: `${P[parent][0]}-${id}`, bodyA: parent, bodyB: bodies.length - 1, point: v3(x0, 0.5 * (hh + pp.y), z0) });
    }
  }
  const s = opts.solveJoints(bodies, joints);
  for (let i = 0; i < bodies.length; i++) {
    bodies[i].linearVelocity = v3(s.linearVelocity[3 * i], s.linearVelocity[3 * i + 1], s.linearVelocity[3 * i + 2]);
    bodies[i].angularVelocity = v3(s.angularVelocity[3 * i], s.angularVelocity[3 * i + 1], s.angularVelocity[3 * i + 2]);
  }
  for (let i = 0; i < bodies.length; i++) {
    const { ax, az, bx, bz, w } = bottoms[i];
    const L = hypot2(bx - ax, bz - az), wx = (-(bz - az) / L) * w, wz = ((bx - ax) / L) * w;
    const pts = contactsPerPart === 2 ? [v3(ax, 0, az), v3(bx, 0, bz)] : [v3(ax + wx, 0, az + wz), v3(ax - wx, 0, az - wz), v3(bx + wx, 0, bz + wz), v3(bx - wx, 0, bz - wz)];
    for (const p of pts) contacts.push({ id: `${bodies[i].id}:${contacts.length}`, bodyA: i, bodyB: -1, point: p, normal: v3(0, 1, 0) });
  }
  return { bodies, joints, contacts };
}

/** A box (half extents hx, hy, hz) resting on y = 0, four bottom corners in contact, landing at `vy` with a small tilt rate. */
export function makeBoxOnPlane(hx: number, hy: number, hz: number, vy: number, restitution: number, friction: number): { bodies: RigidBodyInput[]; contacts: ContactInput[] } {
  const m = 1000 * 8 * hx * hy * hz;
  const bodies: RigidBodyInput[] = [
    {
      id: 'box',
      massKg: m,
      inertia: [(m * (hy * hy + hz * hz)) / 3, 0, 0, 0, (m * (hx * hx + hz * hz)) / 3, 0, 0, 0, (m * (hx * hx + hy * hy)) / 3],
      centerOfMass: v3(0, hy, 0),
      linearVelocity: v3(0.4, vy, -0.2),
      angularVelocity: v3(0.3, 0.2, -0.25),
      restitution,
      friction,
    },
  ];
  const contacts: ContactInput[] = [];
  for (const sx of [-1, 1]) for (const sz of [-1, 1]) contacts.push({ bodyA: 0, bodyB: -1, point: v3(sx * hx, 0, sz * hz), normal: v3(0, 1, 0) });
  return { bodies, contacts };
}

/** A ragdoll with some ground contacts, a few free props and contacts between parts and props (the simulator's island); `solveJoints` brings the lying ragdoll's joints to rest first. */
export function makeSimIsland(seed: number, friction: number, eps: number, solveJoints: (b: RigidBodyInput[], j: JointInput[]) => ImpulseSolution): { bodies: RigidBodyInput[]; joints: JointInput[]; contacts: ContactInput[] } {
  const rand = mulberry32(seed);
  const r = makeLyingRagdoll(rand, 2, { restitution: eps, friction, approachMps: 0.4, driftMps: 0.3, spinRadPerSec: 0.5, solveJoints });
  const bodies = r.bodies;
  const contacts: ContactInput[] = r.contacts.filter(() => rand() < 0.6);
  const nProps = 2 + Math.floor(rand() * 4);
  for (let k = 0; k < nProps; k++) {
    const part = Math.floor(rand() * 20);
    const b = randomBody(rand, bodies[part].centerOfMass);
    b.restitution = rand() < 0.5 ? eps : 0.5 * eps;
    b.friction = friction;
    bodies.push(b);
    const n = 1 + Math.floor(rand() * 3);
    for (let c = 0; c < n; c++) contacts.push(approachingContact(bodies, bodies.length - 1, rand() < 0.8 ? part : -1, rand));
  }
  // part against part (self-contact)
  for (let k = 0; k < 3; k++) {
    const a = Math.floor(rand() * 20), b = Math.floor(rand() * 20);
    if (a !== b) contacts.push(approachingContact(bodies, a, b, rand));
  }
  return { bodies, joints: r.joints, contacts };
}

/** An island of `oneBodyIsland`: one dynamic body (index 0), its contacts, the options and sliding rule. */
export type OneBodyIsland = { bodies: RigidBodyInput[]; contacts: ContactInput[]; opts: SolveOptions; sliding: 'coulomb' | 'paper'; movingFixed: boolean };

/** Column-major rotation matrix of a random unit quaternion. */
export function randomRotation(rand: () => number): number[] {
  const u = randomUnit(rand), a = Math.PI * rand();
  const s = sin(a), qw = cos(a), qx = u.x * s, qy = u.y * s, qz = u.z * s;
  return [
    1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qz * qw), 2 * (qx * qz - qy * qw),
    2 * (qx * qy - qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qx * qw),
    2 * (qx * qz + qy * qw), 2 * (qy * qz - qx * qw), 1 - 2 * (qx * qx + qy * qy),
  ];
}

/**
 * Seeded random island of one dynamic body and no joints (onebody.test.ts): a box (a face's
 * corners, edge midpoints, some points on other faces, or points nearly on one edge) or a ball (points on its sphere) on 1–8
 * contacts against the world or a keyframed body (at rest or moving); γ 0, finite or ∞ (per
 * contact in some), ε none, one for all or per contact; the body resting, sliding, approaching,
 * separating or tumbling; some with Poisson restitution, frictionless or rough friction, the
 * paper's sliding rule.
 */
export function oneBodyIsland(seed: number): OneBodyIsland {
  const rand = mulberry32(seed * 104729 + 17);
  const ball = seed % 4 === 3;
  const m = 0.2 + 5 * rand();
  const c = randomVec(rand, 2);
  const contacts: ContactInput[] = [];
  const n = 1 + Math.floor(8 * rand());
  let inertia: number[];
  const movingFixed = seed % 5 === 1;
  const fixed = seed % 3 === 0 || movingFixed ? 1 : -1;
  // restitution: none, one for all, or per contact (Poisson's phases)
  const epsMode = seed % 6;
  const eps0 = epsMode === 0 || epsMode === 3 ? 0 : epsMode === 5 ? 1 : rand();
  const epsOf = () => (epsMode === 4 ? (rand() < 0.5 ? 0 : rand()) : eps0);
  const g = seed % 7 === 0 ? Infinity : seed % 11 === 0 ? 0 : [0.1, 0.3, 0.6, 1.2][seed % 4] * (0.5 + rand());
  const gammaOf = () => (seed % 13 === 0 ? [0, 0.4, Infinity][Math.floor(3 * rand())] : g);
  if (ball) {
    const r = 0.05 + 0.5 * rand();
    inertia = sphereInertia(m, r);
    for (let k = 0; k < n; k++) {
      // points on the sphere, normal from the point to the centre (B towards A)
      const u = randomUnit(rand);
      contacts.push({ bodyA: 0, bodyB: fixed, point: v3(c.x - r * u.x, c.y - r * u.y, c.z - r * u.z), normal: u, restitution: epsOf(), friction: gammaOf() });
    }
  } else {
    const hx = 0.05 + 0.5 * rand(), hy = 0.05 + 0.5 * rand(), hz = 0.05 + 0.5 * rand();
    const R = randomRotation(rand);
    const d = [(m * (hy * hy + hz * hz)) / 3, (m * (hx * hx + hz * hz)) / 3, (m * (hx * hx + hy * hy)) / 3];
    inertia = new Array<number>(9).fill(0);
    for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) for (let k = 0; k < 3; k++) inertia[q * 3 + r] += R[k * 3 + r] * d[k] * R[k * 3 + q];
    inertia[3] = inertia[1];
    inertia[6] = inertia[2];
    inertia[7] = inertia[5];
    const world = (x: number, y: number, z: number) => v3(c.x + R[0] * x + R[3] * y + R[6] * z, c.y + R[1] * x + R[4] * y + R[7] * z, c.z + R[2] * x + R[5] * y + R[8] * z);
    // the face −y on the fixed side: its corners first (a box resting on four corners), then
    // edge midpoints and points inside the face; some islands add contacts on other faces
    const up = v3(R[3], R[4], R[5]);
    const face: Array<[number, number]> = [[-1, -1], [1, -1], [1, 1], [-1, 1], [0, -1], [1, 0], [0, 1], [-1, 0]];
    for (let k = 0; k < n; k++) {
      if (seed % 8 === 5 && k >= 2) {
        const u = randomUnit(rand);
        contacts.push({ bodyA: 0, bodyB: fixed, point: world(u.x * hx, u.y * hy, u.z * hz), normal: randomUnit(rand), restitution: epsOf(), friction: gammaOf() });
        continue;
      }
      if (seed % 12 === 10) {
        // nearly on one line (an edge, points 1e-5 of the box off it): a group whose rank is not
        // certain from the bounds (the eigen-decomposition decides)
        contacts.push({ bodyA: 0, bodyB: fixed, point: world(hx * (2 * rand() - 1), -hy, hz * (1 + 1e-5 * (2 * rand() - 1))), normal: up, restitution: epsOf(), friction: gammaOf() });
        continue;
      }
      const [fx, fz] = face[k];
      contacts.push({ bodyA: 0, bodyB: fixed, point: world(fx * hx, -hy, fz * hz), normal: up, restitution: epsOf(), friction: gammaOf() });
    }
  }
  // velocity: resting (round-off), sliding along the support, approaching, separating, or random
  const kind = seed % 5;
  const n0 = contacts[0].normal;
  const t = randomUnit(rand);
  const tn = dot(t, n0);
  const tan = v3(t.x - tn * n0.x, t.y - tn * n0.y, t.z - tn * n0.z);
  const speed = 0.01 + 3 * rand();
  const lv =
    kind === 0 ? v3(1e-9 * rand(), -1e-3 * rand(), 0) :
    kind === 1 ? v3(speed * tan.x - 0.2 * n0.x, speed * tan.y - 0.2 * n0.y, speed * tan.z - 0.2 * n0.z) :
    kind === 2 ? v3(-speed * n0.x, -speed * n0.y, -speed * n0.z) :
    kind === 3 ? v3(speed * n0.x + 0.3 * tan.x, speed * n0.y + 0.3 * tan.y, speed * n0.z + 0.3 * tan.z) :
    randomVec(rand, 3);
  const av = kind === 0 ? v3(0, 0, 0) : randomVec(rand, kind === 4 ? 3 : 1);
  const bodies: RigidBodyInput[] = [{ massKg: m, inertia, centerOfMass: c, linearVelocity: lv, angularVelocity: av }];
  if (fixed === 1)
    bodies.push({
      massKg: 1,
      inertia: randomInertia(rand, 1, 1),
      centerOfMass: randomVec(rand, 2),
      linearVelocity: movingFixed ? randomVec(rand, 1) : v3(0, 0, 0),
      angularVelocity: movingFixed ? randomVec(rand, 1) : v3(0, 0, 0),
      keyframed: true,
    });
  const opts: SolveOptions = seed % 9 === 4 ? { restitution: 'poisson' } : seed % 10 === 7 ? { friction: 'frictionless' } : seed % 17 === 2 ? { friction: 'rough' } : {};
  return { bodies, contacts, opts, sliding: seed % 19 === 6 ? 'paper' : 'coulomb', movingFixed };
}
