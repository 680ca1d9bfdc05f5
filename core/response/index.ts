/**
 * core/response — analytic impact response (Moore & Wilhelms 1988, §3).
 *
 * - `solveImpulses(bodies, joints, contacts, options?, out?)` / `new ImpulseSolver().solve(...)`:
 *   post-impact linear and angular velocity of every body, the impulse of
 *   every contact and joint (`ImpulseSolution`). Bodies: mass, world inertia
 *   about the COM, COM, velocities; `keyframed: true` = infinite mass, fixed
 *   velocity (§3.3). Joints: `ball` (the paper's "revolute"), `linearSlide`,
 *   `planarSlide`; trees, loops, self-collision. Contacts: point, normal from B
 *   to A, restitution ε = min, friction γ = max (or per contact);
 *   frictionless / perfectly rough / Coulomb (stick, cone check, slide with
 *   α, β). Sparse: linear time in the number of bodies for trees.
 * - `new RestingContactSolver().solve(bodies, joints, contacts, { warmImpulses }?, out?)`: resting
 *   contact (no impacts): contact impulses by projected block Gauss–Seidel, joints exact, the same
 *   `ImpulseSolution`; `stats` says whether it reached its tolerance (see pgs.ts, README.md).
 * - `new SequentialImpulseSolver().solve(bodies, joints, contacts, { warmImpulses, warmJointImpulses }?, out?)`:
 *   resting contact by sequential impulses (contact rows by Gauss–Seidel, the joints of a spanning forest
 *   projected exactly after every sweep by a block-tree factorization, joint limits with their joint,
 *   warm-started; the simulator's default for the sub-step solves of ragdolls); see si.ts, README.md.
 * - `baraffImpulse`, `baraffResponse`: the single-unknown frictionless impulse (cross-check).
 * - `penaltyStiffness`, `penaltySpringForce`, `inverseSpringForce`, `penaltyContactForce`:
 *   the spring response with K_recede = ε K_approach (§3.1).
 * Bad input throws `ResponseInputError` naming the body, joint or contact.
 */
export { ImpulseSolver, ImpulseSolution, solveImpulses } from './solver';
export { RestingContactSolver } from './pgs';
export { SequentialImpulseSolver } from './si';
export type { SequentialSolveOptions, SequentialStats } from './si';
export type { RestingSolveOptions, RestingStats } from './pgs';
export { baraffImpulse, baraffResponse } from './baraff';
export type { BaraffOutput } from './baraff';
export { penaltyStiffness, penaltySpringForce, inverseSpringForce, penaltyContactForce } from './penalty';
export { ContactState, CONTACT_STATE_NAMES, ResponseInputError } from './types';
export type {
  RigidBodyInput,
  JointInput,
  ContactInput,
  SolveOptions,
  FrictionModel,
  RestitutionModel,
  ContactStateValue,
} from './types';
