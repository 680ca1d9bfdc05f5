/**
 * Test helpers for the response solver (imported by tests only).
 */
import type { ImpulseSolution } from './solution';

/**
 * The first place where two solutions of the same island (nb bodies, nc
 * contacts, nj joints) differ in a single bit, or null when they are the same
 * bit for bit (velocities, contact and joint impulses, contact states, linear
 * solves, friction and restitution scales). `Object.is` tells −0 from 0 and
 * takes NaN as equal to NaN.
 */
export function solutionDifference(nb: number, nc: number, nj: number, a: ImpulseSolution, b: ImpulseSolution): string | null {
  for (let i = 0; i < 3 * nb; i++) {
    if (!Object.is(a.linearVelocity[i], b.linearVelocity[i])) return `linear velocity ${i} (${a.linearVelocity[i]} vs ${b.linearVelocity[i]})`;
    if (!Object.is(a.angularVelocity[i], b.angularVelocity[i])) return `angular velocity ${i} (${a.angularVelocity[i]} vs ${b.angularVelocity[i]})`;
  }
  for (let i = 0; i < 3 * nc; i++) if (!Object.is(a.contactImpulse[i], b.contactImpulse[i])) return `contact impulse ${i} (${a.contactImpulse[i]} vs ${b.contactImpulse[i]})`;
  for (let i = 0; i < 3 * nj; i++) if (!Object.is(a.jointImpulse[i], b.jointImpulse[i])) return `joint impulse ${i} (${a.jointImpulse[i]} vs ${b.jointImpulse[i]})`;
  for (let i = 0; i < nc; i++) if (a.contactState[i] !== b.contactState[i]) return `contact state ${i} (${a.contactState[i]} vs ${b.contactState[i]})`;
  if (a.iterations !== b.iterations) return `linear solves (${a.iterations} vs ${b.iterations})`;
  if (!Object.is(a.frictionScale, b.frictionScale) || !Object.is(a.restitutionScale, b.restitutionScale))
    return `friction / restitution scales (${a.frictionScale}, ${a.restitutionScale} vs ${b.frictionScale}, ${b.restitutionScale})`;
  return null;
}
