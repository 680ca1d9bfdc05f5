import type { Vec3Like } from '../math';
import { mat3Invert } from '../math';
import { ResponseInputError } from './types';
import type { RigidBodyInput } from './types';
import { hypot3 } from '../math/libm';

/*
 * Baraff's single-unknown frictionless impulse (Kamat's survey, section 3;
 * lecture notes "Impulse at collision point"): J = j n with
 *
 *        −(1 + ε) (ṗ_A − ṗ_B)·n
 *   j = ───────────────────────────────────────────────────────────────
 *        1/m_A + 1/m_B + n·[(I_A⁻¹(r_A × n)) × r_A + (I_B⁻¹(r_B × n)) × r_B]
 *
 * with r = p − c and ṗ = v + ω × r. It is an independent formula from the
 * matrix solver and serves as its cross-check for two free bodies. A keyframed
 * body (or `null` for the fixed world) contributes no mass terms.
 */

const _inv = new Float64Array(9);

function invMassTerms(body: RigidBodyInput, p: Vec3Like, n: Vec3Like, what: string): number {
  if (!(body.massKg > 0)) throw new ResponseInputError(`${what}: massKg must be > 0 (got ${body.massKg})`);
  if (!mat3Invert(_inv, 0, body.inertia, 0)) throw new ResponseInputError(`${what}: inertia tensor is singular`);
  const rx = p.x - body.centerOfMass.x, ry = p.y - body.centerOfMass.y, rz = p.z - body.centerOfMass.z;
  // a = r × n ; b = I⁻¹ a ; c = b × r ; return 1/m + c·n
  const ax = ry * n.z - rz * n.y, ay = rz * n.x - rx * n.z, az = rx * n.y - ry * n.x;
  const bx = _inv[0] * ax + _inv[3] * ay + _inv[6] * az;
  const by = _inv[1] * ax + _inv[4] * ay + _inv[7] * az;
  const bz = _inv[2] * ax + _inv[5] * ay + _inv[8] * az;
  const cx = by * rz - bz * ry, cy = bz * rx - bx * rz, cz = bx * ry - by * rx;
  return 1 / body.massKg + cx * n.x + cy * n.y + cz * n.z;
}

function pointVelocityAlong(body: RigidBodyInput | null, p: Vec3Like, n: Vec3Like): number {
  if (!body) return 0;
  const rx = p.x - body.centerOfMass.x, ry = p.y - body.centerOfMass.y, rz = p.z - body.centerOfMass.z;
  const w = body.angularVelocity, v = body.linearVelocity;
  const px = v.x + (w.y * rz - w.z * ry), py = v.y + (w.z * rx - w.x * rz), pz = v.z + (w.x * ry - w.y * rx);
  return px * n.x + py * n.y + pz * n.z;
}

/**
 * The scalar j of Baraff's frictionless impulse J = j·n on body A (B gets −J).
 * `normal` must be a unit vector pointing from B towards A. Meaningful for an
 * approaching contact ((ṗ_A − ṗ_B)·n < 0, then j > 0).
 */
export function baraffImpulse(a: RigidBodyInput, b: RigidBodyInput | null, point: Vec3Like, normal: Vec3Like, restitution: number): number {
  const ln = hypot3(normal.x, normal.y, normal.z);
  if (!(Math.abs(ln - 1) < 1e-9)) throw new ResponseInputError(`baraffImpulse: normal must be a unit vector (length ${ln})`);
  const vrel = pointVelocityAlong(a, point, normal) - pointVelocityAlong(b, point, normal);
  let denom = 0;
  if (!a.keyframed) denom += invMassTerms(a, point, normal, 'baraffImpulse body A');
  if (b && !b.keyframed) denom += invMassTerms(b, point, normal, 'baraffImpulse body B');
  if (!(denom > 0)) throw new ResponseInputError('baraffImpulse: both bodies have infinite mass');
  return (-(1 + restitution) * vrel) / denom;
}

/** Velocities after applying the impulse j·n at `point`: A gets +j·n, B gets −j·n. Keyframed/world sides are copied unchanged. */
export interface BaraffOutput {
  linearA: Vec3Like;
  angularA: Vec3Like;
  linearB: Vec3Like;
  angularB: Vec3Like;
}

function applyTo(body: RigidBodyInput, p: Vec3Like, jx: number, jy: number, jz: number, lin: Vec3Like, ang: Vec3Like): void {
  lin.x = body.linearVelocity.x;
  lin.y = body.linearVelocity.y;
  lin.z = body.linearVelocity.z;
  ang.x = body.angularVelocity.x;
  ang.y = body.angularVelocity.y;
  ang.z = body.angularVelocity.z;
  if (body.keyframed) return;
  mat3Invert(_inv, 0, body.inertia, 0);
  const rx = p.x - body.centerOfMass.x, ry = p.y - body.centerOfMass.y, rz = p.z - body.centerOfMass.z;
  const m = body.massKg;
  lin.x += jx / m;
  lin.y += jy / m;
  lin.z += jz / m;
  const tx = ry * jz - rz * jy, ty = rz * jx - rx * jz, tz = rx * jy - ry * jx;
  ang.x += _inv[0] * tx + _inv[3] * ty + _inv[6] * tz;
  ang.y += _inv[1] * tx + _inv[4] * ty + _inv[7] * tz;
  ang.z += _inv[2] * tx + _inv[5] * ty + _inv[8] * tz;
}

/** Applies Baraff's impulse (computed with `baraffImpulse`) and returns j. B = null is the fixed world. */
export function baraffResponse(
  a: RigidBodyInput,
  b: RigidBodyInput | null,
  point: Vec3Like,
  normal: Vec3Like,
  restitution: number,
  out: BaraffOutput,
): number {
  const j = baraffImpulse(a, b, point, normal, restitution);
  applyTo(a, point, j * normal.x, j * normal.y, j * normal.z, out.linearA, out.angularA);
  if (b) applyTo(b, point, -j * normal.x, -j * normal.y, -j * normal.z, out.linearB, out.angularB);
  else {
    out.linearB.x = out.linearB.y = out.linearB.z = 0;
    out.angularB.x = out.angularB.y = out.angularB.z = 0;
  }
  return j;
}
