import type { Vec3Like } from '../math';
import type { ContactInput, JointInput, RigidBodyInput } from './types';
import type { ImpulseSolution } from './solver';

/*
 * Helpers shared by the response tests and the benchmark: a seeded random
 * generator, random rigid bodies, articulated chains, and the physical
 * quantities the tests check (momentum, kinetic energy, point velocities).
 */

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
    const l = Math.hypot(v.x, v.y, v.z);
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
  const l = Math.hypot(qx, qy, qz, qw);
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
 * A chain of `n` rod-like links along x joined by ball joints, every link with
 * a random velocity consistent with the joints (the chain is first given
 * random velocities, which the joint rows of the solve then make consistent).
 */
export function makeChain(n: number, rand: () => number, linkLength = 0.3): { bodies: RigidBodyInput[]; joints: JointInput[] } {
  const bodies: RigidBodyInput[] = [];
  const joints: JointInput[] = [];
  for (let i = 0; i < n; i++) {
    const m = 0.5 + rand();
    const c = v3((i + 0.5) * linkLength, 0.05 * Math.sin(i), 0.05 * Math.cos(i * 0.7));
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
    if (i > 0) joints.push({ kind: 'ball', id: `j${i}`, bodyA: i - 1, bodyB: i, point: v3(i * linkLength, 0.025 * (Math.sin(i) + Math.sin(i - 1)), 0) });
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
    scale += m * Math.hypot(v.x, v.y, v.z) * (1 + Math.hypot(c.x, c.y, c.z)) + Math.hypot(Iw[0], Iw[1], Iw[2]);
  }
  return { linear: L, angular: A, scale };
}

export function dot(a: Vec3Like, b: Vec3Like): number {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
export function len(a: Vec3Like): number {
  return Math.hypot(a.x, a.y, a.z);
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
