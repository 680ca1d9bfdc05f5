import type { Vec3Like } from '../math';

/**
 * Input of the analytic impulse solver (Moore & Wilhelms 1988, section 3.2).
 * Everything is expressed in ONE world frame: centre of mass, inertia tensor
 * about the centre of mass, velocities, contact points and normals, joint points
 * and axes. Bodies, joints and contacts refer to each other by array index;
 * `-1` stands for the fixed world (infinite mass, zero velocity).
 */
export interface RigidBodyInput {
  /** Used in error messages only. */
  id?: string;
  /** Mass of a dynamic body, kg, finite and > 0. Ignored for keyframed bodies. */
  massKg: number;
  /**
   * Inertia tensor about the centre of mass in the world frame, 9 numbers,
   * column-major (as `massProperties` returns it), symmetric positive definite.
   * Ignored for keyframed bodies.
   */
  inertia: ArrayLike<number>;
  centerOfMass: Vec3Like;
  /** Velocity of the centre of mass, m/s. */
  linearVelocity: Vec3Like;
  /** Angular velocity, rad/s, world frame. */
  angularVelocity: Vec3Like;
  /**
   * Keyframed (non-dynamic) body: its velocities are fixed and it acts with
   * infinite mass (section 3.3). The velocity of its material point at a
   * contact is `linearVelocity + angularVelocity × (point − centerOfMass)`;
   * callers take both from the exact derivative of the body's curves.
   */
  keyframed?: boolean;
  /** Surface restitution ε in [0, 1] (default 0). A contact uses the lower of its two bodies' values. */
  restitution?: number;
  /** Surface friction coefficient γ ≥ 0, `Infinity` = perfectly rough (default 0). A contact uses the larger of its two bodies' values. */
  friction?: number;
}

/**
 * Joints of articulated bodies. Every joint has ONE world point where the two
 * bodies are attached (for sliding joints: the current position of body B's
 * attachment point, which lies on body A's line / plane).
 *
 * - `ball` (the paper's "revolute" joint, 3 rotational degrees of freedom;
 *   `revolute` is accepted as a synonym): the point's velocity seen from A and
 *   from B is the same.
 * - `linearSlide`: B's point may slide along `axis` (a direction fixed in A);
 *   the velocities match across the axis; the impulse is perpendicular to it.
 * - `planarSlide`: B's point may slide in the plane through `point` with
 *   normal `normal` (fixed in A); the velocities match along the normal; the
 *   impulse is along the normal.
 */
export type JointInput =
  | { kind: 'ball' | 'revolute'; id?: string; bodyA: number; bodyB: number; point: Vec3Like }
  | { kind: 'linearSlide'; id?: string; bodyA: number; bodyB: number; point: Vec3Like; axis: Vec3Like }
  | { kind: 'planarSlide'; id?: string; bodyA: number; bodyB: number; point: Vec3Like; normal: Vec3Like };

/**
 * A contact point. `normal` points from body B towards body A: the impulse on
 * A has a non-negative component along it, B receives the opposite impulse
 * (the paper's R "directed from object 2 to object 1" with A = 1, B = 2).
 * A and B approach at the point when (v_A(p) − v_B(p))·normal < 0.
 */
export interface ContactInput {
  id?: string;
  bodyA: number;
  /** Index of body B, or -1 for the fixed world. */
  bodyB: number;
  point: Vec3Like;
  normal: Vec3Like;
  /** Overrides min(ε_A, ε_B) for this contact. */
  restitution?: number;
  /** Overrides max(γ_A, γ_B) for this contact (`Infinity` = perfectly rough). */
  friction?: number;
}

/** Friction model for all contacts; `coulomb` uses each contact's γ. */
export type FrictionModel = 'coulomb' | 'frictionless' | 'rough';

/**
 * How restitution acts.
 * - `poisson`: the paper's R_actual = (1 + ε) R, per contact (Poisson's
 *   hypothesis): a compression phase solved with ε = 0 gives each contact
 *   its impulse R; then ε·R is applied at every contact and the system is
 *   solved once more with ε = 0 from there (joints hold again; a contact
 *   that the others' restitution would drive together gets the push that
 *   stops it, never a pull). Always has an answer; no contact ends
 *   approaching. Kinetic energy never increases (free bodies, ε ≤ 1): when
 *   different ε (or friction in the restitution phase) would add some, the
 *   restitution impulses are scaled down (`ImpulseSolution.restitutionScale`).
 * - `paper` (default): Newton's per-contact rule v⁺ = −ε v⁻ (the whole
 *   relative velocity at a sticking point, the normal part at frictionless
 *   and sliding ones), which with one ε for all contacts (and joints holding
 *   before) IS the paper's (1 + ε) scaling, in one pass; kept whenever its
 *   equations have a solution, no contact ends approaching and, with
 *   different ε, no energy is added. Otherwise the `poisson` answer. So the
 *   two differ only with different ε on coupled contacts (Newton asks each
 *   contact for −ε v⁻·n; Poisson gives each its (1 + ε) R, and a contact
 *   may end above or below −ε v⁻·n: a rod landing flat on two supports
 *   with ε = 1 and 0 leaves with its ε = 1 end rising at 3/2 v, not v), and
 *   when Newton would drive a contact that separated before into approach.
 * - `normalOnly`: Newton's rule with the tangential relative velocity of a
 *   sticking point ending at zero (the normal part at −ε times the
 *   approach). With ε > 0 this can add energy for strongly coupled bodies (a
 *   known property of Newton restitution with friction).
 * With `unilateral: false` all use Newton's equalities (the paper's linear
 * system, every contact an equality).
 */
export type RestitutionModel = 'paper' | 'normalOnly' | 'poisson';

export interface SolveOptions {
  friction?: FrictionModel;
  restitution?: RestitutionModel;
  /**
   * Contacts may only push (default true). A sticking contact whose impulse
   * leaves the cone slides (the paper's rule); one that cannot push while
   * sticking or sliding loses its friction; frictionless ones that would pull
   * are separating and are removed (all at once), and a removed one that
   * would then approach comes back, so that separated contacts neither pull
   * nor interpenetrate. A contact that keeps coming back and leaving again
   * (possible only while some contacts slide: their impulses are off their
   * condition directions) makes the sliding contacts lose their friction,
   * after which it is solved again; so no contact ends approaching, with or
   * without friction. After each change the system is solved again. With
   * `false` every contact is an equality (the paper's formulation: only the
   * stick → slide switch is made).
   */
  unilateral?: boolean;
  /** `sparse` (default, ~linear in body count for trees) or `dense` (the full 9n system by Gaussian elimination; a reference). */
  linearSolver?: 'sparse' | 'dense';
  /**
   * Sparse solver only; how contacts of a body against the world or a
   * keyframed body (a "contact group": the ground under a ragdoll part, four
   * corners under a box) enter the system. Same laws either way; only the
   * split of the impulse among redundant contacts and joints differs.
   * - `schur`: every contact row joins the dense Schur complement of the
   *   secondary rows (dependent rows of a group compressed to a basis of
   *   their row space); the split is the least-norm one over all contacts.
   * - `eliminate`: each such body is eliminated with its group first (its
   *   velocity is then fixed up to the directions the group leaves free) and
   *   its joints join the Schur complement instead; fast when many contacts
   *   pin many bodies (a ragdoll lying on the ground). The split is the
   *   least-norm one over the joints and the remaining contacts; a group
   *   takes its body's remaining impulse with the least-norm split.
   * - `auto` (default): `eliminate` when it gives the smaller Schur complement.
   */
  contactGroups?: 'auto' | 'schur' | 'eliminate';
  /**
   * Start from the previous solve of this `ImpulseSolver` (default false).
   * For an island solved again and again (one solve per sub-step while a
   * ragdoll rests): pass the same bodies, joints and contacts in the same
   * order (velocities and positions may change). The contacts that ended
   * separated last time start separated (one that approaches comes back as
   * a fresh contact would start), which saves the linear solves of finding
   * them again. Ignored when the body, joint or contact counts differ from
   * the previous call. The same laws hold either way and frictionless
   * velocities are the same (they are unique); with friction and redundant
   * contacts several answers can satisfy every law, and the one found may
   * differ from a cold solve's.
   */
  warmStart?: boolean;
  /**
   * Friction at sliding contacts without restitution. 'paper': the paper's
   * rule (the sliding impulse keeps the direction of the sticking impulse),
   * which with several contacts can leave a sliding contact whose friction
   * pushes along its slip. 'coulomb': such answers are solved again so that
   * every sliding contact's friction opposes its slip and stays in its cone
   * (`ImpulseSolver` frictionLaw; the paper's answer is kept wherever it has
   * no such contact). Default: the solver's `slidingFriction` ('paper').
   */
  slidingFriction?: 'paper' | 'coulomb';
}

/** Final state of a contact after the solve. */
export const ContactState = {
  /**
   * Impulse along the normal: γ = 0, or (unilateral solves) a contact whose
   * friction cannot act with a pushing impulse — a perfectly rough contact
   * whose sticking impulse would pull, or a sliding one whose impulse on the
   * cone would pull (a Painlevé-type case).
   */
  Frictionless: 0,
  /** Sticking (or perfectly rough): full 3-D impulse inside the friction cone. */
  Stick: 1,
  /** Sliding: impulse on the cone surface, γ·R·k = |R − k(R·k)|. */
  Slide: 2,
  /** Removed because it would have to pull (unilateral), impulse zero. */
  Separated: 3,
  /** Both sides keyframed or world: no dynamic body, impulse zero. */
  Static: 4,
} as const;
export type ContactStateValue = (typeof ContactState)[keyof typeof ContactState];

export const CONTACT_STATE_NAMES = ['frictionless', 'stick', 'slide', 'separated', 'static'] as const;

/** Bad solver input. The message names the body, joint or contact. */
export class ResponseInputError extends Error {
  override name = 'ResponseInputError';
}
