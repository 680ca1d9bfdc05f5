import type { Vec3Like } from '../math';
import { ResponseInputError } from './types';
import type { ContactInput, RigidBodyInput } from './types';
import { hypot3 } from '../math/libm';

/*
 * Spring (penalty) response for resting contact, Moore & Wilhelms 1988,
 * section 3.1: a stiff spring between the two contact points, with one
 * constant while the bodies approach and K_recede = ε K_approach while they
 * recede. With ε = 1 the spring is conservative; with ε = 0 it only pushes
 * while approaching. Note the energy the linear spring gives back is ε times
 * the energy it stored, so a pure spring bounce leaves with √ε times the
 * approach speed (tested in penalty.test.ts).
 */

/** Spring constant for the current normal relative velocity (negative = approaching). */
export function penaltyStiffness(normalVelocity: number, kApproach: number, restitution: number): number {
  if (!(kApproach >= 0) || !Number.isFinite(kApproach)) throw new ResponseInputError(`penalty: kApproach must be finite and ≥ 0 (got ${kApproach})`);
  if (!(restitution >= 0 && restitution <= 1)) throw new ResponseInputError(`penalty: restitution must be in [0, 1] (got ${restitution})`);
  return normalVelocity < 0 ? kApproach : restitution * kApproach;
}

/** Linear spring: force magnitude K·depth pushing the bodies apart (depth = interpenetration ≥ 0). */
export function penaltySpringForce(depth: number, normalVelocity: number, kApproach: number, restitution: number): number {
  if (!(depth > 0)) return 0;
  return penaltyStiffness(normalVelocity, kApproach, restitution) * depth;
}

/**
 * The paper's K/d law: force K / separation, growing without bound as the
 * separation d goes to `minSeparation` (the force is clamped there).
 */
export function inverseSpringForce(separation: number, normalVelocity: number, kApproach: number, restitution: number, minSeparation: number): number {
  if (!(minSeparation > 0)) throw new ResponseInputError(`penalty: minSeparation must be > 0 (got ${minSeparation})`);
  return penaltyStiffness(normalVelocity, kApproach, restitution) / Math.max(separation, minSeparation);
}

function pointVelocity(b: RigidBodyInput, p: Vec3Like, nx: number, ny: number, nz: number): number {
  const rx = p.x - b.centerOfMass.x, ry = p.y - b.centerOfMass.y, rz = p.z - b.centerOfMass.z;
  const w = b.angularVelocity, v = b.linearVelocity;
  return (v.x + w.y * rz - w.z * ry) * nx + (v.y + w.z * rx - w.x * rz) * ny + (v.z + w.x * ry - w.y * rx) * nz;
}

/**
 * Force on body A of a contact (B receives the opposite, both at the contact
 * point) from a linear penalty spring of the given interpenetration depth. The
 * restitution is the contact's or the lower of the two bodies' values. Writes
 * the force vector to `out` and returns its magnitude.
 */
export function penaltyContactForce(
  bodies: readonly RigidBodyInput[],
  contact: ContactInput,
  depth: number,
  kApproach: number,
  out: Vec3Like,
): number {
  const a = bodies[contact.bodyA];
  if (!a) throw new ResponseInputError(`penaltyContactForce: bodyA ${contact.bodyA} is missing`);
  const b = contact.bodyB >= 0 ? bodies[contact.bodyB] : null;
  if (contact.bodyB >= 0 && !b) throw new ResponseInputError(`penaltyContactForce: bodyB ${contact.bodyB} is missing`);
  const n = contact.normal;
  const l = hypot3(n.x, n.y, n.z);
  if (!(l > 1e-12)) throw new ResponseInputError(`penaltyContactForce: contact${contact.id ? ` "${contact.id}"` : ''} normal has zero length`);
  const nx = n.x / l, ny = n.y / l, nz = n.z / l;
  const vn = pointVelocity(a, contact.point, nx, ny, nz) - (b ? pointVelocity(b, contact.point, nx, ny, nz) : 0);
  const eps = contact.restitution ?? Math.min(a.restitution ?? 0, b ? (b.restitution ?? 0) : (a.restitution ?? 0));
  const f = penaltySpringForce(depth, vn, kApproach, eps);
  out.x = f * nx;
  out.y = f * ny;
  out.z = f * nz;
  return f;
}
