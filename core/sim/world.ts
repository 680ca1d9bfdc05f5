/**
 * The simulated world of a suggestion: dynamic rigid bodies (props marked
 * dynamic, ragdoll parts of dynamic characters), keyframed obstacles (props
 * and skinned characters, moved by their curves, infinite mass), the ground
 * plane and gravity.
 *
 * One fixed step of length h (an integer division of the clip's frame
 * interval, ~`stepHz`):
 *
 *  1. The keyframed meshes are posed at the end of the step (their vertices
 *     move linearly in between, which is what continuous detection assumes).
 *  2. Sub-step from the current time to the end of the step, tentatively:
 *     half kick of gravity; resting contacts (pairs already touching) get
 *     impulses with ε = 0 so the drift cannot push into them (Moore &
 *     Wilhelms' impulses, ε → 0 below a velocity threshold, together with the
 *     ragdoll joints); drift (exact translation, symplectic splitting of the
 *     free rotation); half kick.
 *  3. Continuous detection between the start and end vertex positions:
 *     vertex–plane against the ground, vertex–triangle both ways and
 *     edge–edge CCD between every pair of colliders whose swept boxes (per
 *     body part) overlap. Only approaching contacts count.
 *  4. If there is a contact, macro-backtracking (Zachwieja 1992 §4.1), per
 *     island: the islands (bodies linked by joints, resting contacts or the
 *     hits of this pass) with a body in a hit go back to the start of the
 *     sub-step and are re-integrated to the time of first contact; there
 *     every contact found within a small time window, together with the
 *     touching ones and the joints, is solved analytically at once
 *     (core/response; keyframed sides have infinite mass and the exact
 *     velocity of their curves at that time). Then the rest of the step is
 *     simulated the same way. The other islands keep their tentative end of
 *     the step (each island on its own clock): for detection their vertices
 *     move linearly from their start of sub-step to the end, which is what
 *     the detection that cleared them assumed; a later hit that reaches one
 *     takes it back to its own start and re-integrates it to that hit. So
 *     an impact in one island does not sub-step the others.
 *
 * Bodies whose velocity stays tiny for a while go to sleep (frozen) and wake
 * when something hits them. Everything runs in fixed orders without
 * randomness, so the same input gives the same numbers.
 *
 * Cost (where the time goes, and what was done about it: README.md): a
 * character is posed once per step (its rig only) and bounded as a whole
 * from its joint world matrices (charBound); its skin matrices, a mesh's box
 * from them and its `moving` flag are made only when a dynamic body's swept
 * box reaches that bound (skinAt, meshBox, characterMoving), its joint groups
 * only when the mesh's box is reached; each body part (triangles dominated by
 * one joint) is bounded from its joints alone and skinned, per vertex and at
 * both ends of the step, only when a dynamic body's swept box reaches it
 * (skin matrices only for the skin slots the mesh's vertices are weighted
 * to). Dynamic bodies' vertices are placed only when a test reads them
 * (their pose is kept). Dynamic bodies' swept boxes come from their local
 * box and the two orientations. Contacts and joints are solved island by
 * island (bodies connected through contacts or joints); an impact re-solves
 * only the islands it touches, and a resting island whose solver input
 * repeats number for number takes its last answer. Ground scans read only
 * the vertex chunks whose height bound (from the pose) can reach the ground;
 * a body's lowest vertex (lowestY) is searched from its last one, so a new
 * orientation reads only the chunks that can hold a lower vertex. Triangle
 * and edge swept boxes are made only for primitives whose vertices' side
 * masks admit the other part's box (their buffers, for a character mesh,
 * when first tested). Ragdoll cone and twist limits
 * act on velocities (unilateral constraints in the solve) and on positions
 * (after each step, rotations about the joint point).
 *
 * Ragdolls resting on the ground: the continuous detection leaves slow
 * near-ground ragdoll vertices to the contacts of the sub-step, so after each
 * solve every vertex within the speculative band that the solved velocities
 * would carry below the ground joins the contacts (active set; the islands
 * it touches are solved again, and it stays a candidate in the next step).
 * Gaps below a 0.5 mm slop are resting contact (no approach), on the ground
 * and on meshes. Position corrections are energy-neutral or remove
 * penetration only: the joint anchors are pulled together by mass-weighted
 * translations (the pair's centre of mass stays put) scaled down where a part
 * would go into the ground or through a face of a closed keyframed mesh
 * (props, and the skinned meshes of keyframed characters), the
 * limit turns scaled down where a part would go through such a face, and
 * after the step only the penetrating parts are moved out of the ground (a
 * position impulse at the deepest vertex), never the whole ragdoll; a body
 * with a vertex inside such a keyframed mesh is moved out of it the
 * same way (pushOutOfMeshes: positions only). Joint friction (relative angular velocity decaying at
 * ragdoll.jointDampingPerSec) takes out the free spins of limbs between two
 * ball joints, so the ragdoll comes to rest and sleeps. Sliding friction
 * that the solver leaves pushing along its slip (its sliding rule keeps the
 * sticking impulse's direction) is solved again as sticking: friction only
 * ever takes energy out at its contact.
 */
import type { Character, ImpulseDocument, Prop } from '../document/types';
import { propMassProperties } from '../document/massProperties';
import { SceneEvaluator } from '../anim/evaluate';
import { Rig, jointsWithAncestors } from '../skeleton/rig';
import { computeSkinMatrices, dominantJointPerTriangle, skinVertex, skinVertexVelocity } from '../skeleton/skinning';
import { ccdQueryFlat } from '../collision/ccd';
import { ImpulseSolver, ImpulseSolution } from '../response/solver';
import { RestingContactSolver } from '../response/pgs';
import { SequentialImpulseSolver } from '../response/si';
import type { ContactInput, JointInput, RigidBodyInput } from '../response/types';
import { RigidBodySet, STATE_STRIDE, normalizeQuat, quatMul, quatMulF64, rotate, rotateF64, rotateInv, rotateInvF64, type RigidBodyInit } from './rigid';
import { boxesOverlap, pointTriangleDistanceSq, pointTrianglePlane, segmentSegmentClosest, sweptPointBox } from './geometry';
import { buildRagdoll, type Ragdoll, type RagdollOptions } from './ragdoll';
import type { Collider, JointGroup, Part } from './collider';
import { disp, edgeEdgeReach, inTri, lerp, placeVertices, reduceGroundLine, reduceGroundPatch, sameSideEE, sameSideVT, signedPlaneNormalized, signedVolume, turnFraction, vertexTriangleReach } from './meshGeometry';
import { characterTopology, emptyBox, jointBoundedBox, slotsBox, outwardMesh, sameSkin, skinMatricesUsed, slotBounds, triangleTopology, usedSkinSlots } from './characterSkin';
import { chunked, heightTolerance, localBox, lowChunks, lowChunks2, maxNorm, orientedBottomY, orientedBoxInto, sortAscending } from './chunks';
import { acos, atan2, cos, exp, hypot3, sinCos } from '../math/libm';
import { coneSkipCos, twistSkipTan } from './limits';

export { vertexTriangleReach, edgeEdgeReach } from './meshGeometry';
export { slotBounds, jointBoundedBox } from './characterSkin';
export { vertexChunks, chunkLowY } from './chunks';

/** correctLimits' answers: it turned the bodies; both limits held; neither (asleep, or an excess not turned). */
const LIMITS_TURNED = 1, LIMITS_HELD = 0, LIMITS_OTHER = 2;

/**
 * The largest x² + y² + z² of the first nv points of X (0 for none): the
 * constructor's loop for bodySize, apart, so that it runs compiled (inside the
 * constructor, which runs once per suggestion, it ran unoptimized, `**` and
 * all: ~8 % of the setup's samples).
 */
export function maxSquaredNorm(X: Float64Array, nv: number): number {
  let r2 = 0;
  for (let v = 0; v < nv; v++) r2 = Math.max(r2, X[3 * v] ** 2 + X[3 * v + 1] ** 2 + X[3 * v + 2] ** 2);
  return r2;
}

/**
 * `buf` when it holds `n` entries, else a new array of its type with room for
 * max(n, twice its length) that starts with buf's entries (zeros after them):
 * buffers that grow, never shrink, and keep what was written before growing.
 */
function grown<T extends Float64Array | Uint32Array | Uint8Array | Int32Array>(buf: T, n: number): T {
  if (buf.length >= n) return buf;
  const Ctor = buf.constructor as new (length: number) => T;
  const out = new Ctor(Math.max(n, 2 * buf.length));
  out.set(buf);
  return out;
}

/** Per island root: the impulses of its last sequential-impulse solve (the warm start of the next; world.ts sequentialSolve). */
interface SiWarm {
  /** this.stats.solves of the solveContacts call it was solved in, and that call's sub-step length. */
  stamp: number;
  hs: number;
  nc: number;
  nj: number;
  /** Per contact: collider A, collider B, global dynamic body A, B (-1: none). */
  key: Int32Array;
  /** Per contact: point, the velocity of its dynamic side's material point after the solve, impulse (9 numbers). */
  f: Float64Array;
  /** Per joint: global bodies A, B, and its impulse (3 numbers). */
  jkey: Int32Array;
  jp: Float64Array;
}

export class SimulationError extends Error {
  override name = 'SimulationError';
}

export interface WorldOptions {
  /** Names or ids of the props and characters to simulate. */
  dynamic: string[];
  /** Simulation starts here (the dynamic objects take their keyed state and exact velocity at this time). */
  startTimeSec: number;
  clipId?: string;
  /** Approximate step rate; the step is the frame interval divided by round(stepHz / frameRate). Default 240. */
  stepHz?: number;
  /**
   * Approach speeds below this (m/s) use ε = 0: resting contact instead of ever smaller bounces. Default 0.1.
   * In the sequential-impulse sub-step solves ('si-restitution'), so do rebounds below it (ε × approach).
   */
  restitutionThresholdMps?: number;
  /**
   * Ground approaches slower than this (m/s) that would touch within the
   * sub-step are held by a speculative contact at the start of the sub-step
   * (the gap may close exactly, no further) instead of an impact event: one
   * solve instead of a backtrack per vertex. Their restitution is applied as
   * for impacts. Default 0.5.
   */
  speculativeSpeedMps?: number;
  /** Contacts found within this long after the first one are solved together with it. Default 5e-4 s. */
  simultaneousSec?: number;
  /** Pairs closer than this (m) count as touching (resting contact). Default 2e-5. */
  touchDistance?: number;
  /** Velocity (m/s; angular velocity times body size) below which a body may sleep. Default 0.02. */
  sleepSpeedMps?: number;
  /** How long a body must stay that slow before it sleeps. Default 0.3 s. */
  sleepTimeSec?: number;
  /**
   * A resting island (no joints, not an impact) whose solver input is number
   * for number that of its previous solve takes that solve's answer instead
   * of calling the solver again (the same answer: the solver is
   * deterministic). Default true; false only to check exactly that.
   */
  reuseRestingSolves?: boolean;
  /**
   * Solver of the sub-step (resting-contact) solves of islands with joints (a ragdoll on the
   * ground). 'si-restitution' (default): `SequentialImpulseSolver` (core/response/si.ts): the ball
   * joints of a spanning forest held exactly after every sweep (block-tree LDLᵀ, Baraff 1996), each
   * joint limit swept as one block with its joint, the contacts by sequential impulses (Catto's
   * accumulated impulses, clamped per row, friction in the disc γ·λₙ), warm-started per contact
   * identity (colliders, bodies, point carried by its body's velocity) and per joint from the
   * island's last such solve; a capped number of sweeps (12; 64 for an island nearly at rest), no
   * fallback (the joints' drift is corrected at the position level as for every answer); a part
   * touching down on the ground or on another dynamic body faster than the
   * restitution threshold (ε > 0) by Poisson's phases in the sweeps. An island that a keyframed prop
   * or character meets with ε > 0 goes to the analytic `ImpulseSolver`, as impact events always do.
   * 'si': the same for islands whose contacts all have ε = 0 only (the others to the analytic
   * solver). 'exact': the analytic solver for every sub-step solve. 'pgs': `RestingContactSolver`
   * (core/response/pgs.ts), contact impulses by projected block Gauss–Seidel with the joints solved
   * exactly; a solve whose sweeps miss the tolerance is solved again by the analytic solver; two
   * repros fail with it (core/response/README.md, "Resting contact by PGS").
   */
  restingSolver?: 'pgs' | 'exact' | 'si' | 'si-restitution';
  ragdoll?: RagdollOptions;
}

/** One dynamic object of the world (a prop or a ragdoll character). */
export interface SimObject {
  kind: 'prop' | 'character';
  id: string;
  name: string;
  /** Index in doc.props or doc.characters. */
  index: number;
  /** Rigid bodies of this object (one for a prop). */
  bodies: number[];
  ragdoll?: Ragdoll;
}

export interface ImpactRecord {
  timeSec: number;
  frame: number;
  /** Names of the two objects ('ground' for the ground plane). */
  objects: [string, string];
  /** Body parts (joint names) for characters, '' otherwise. */
  parts: [string, string];
  point: [number, number, number];
  /** Unit normal, pointing from the second object towards the first. */
  normal: [number, number, number];
  /** Impulse on the first object, N·s. */
  impulse: [number, number, number];
  /** Velocity of the first object's centre of mass before and after (m/s). */
  preVelocity: [number, number, number];
  postVelocity: [number, number, number];
  /** Approach speed along the normal before the impact (m/s). */
  approachSpeed: number;
}

export interface WorldStats {
  steps: number;
  subSteps: number;
  impactEvents: number;
  solves: number;
  /** Independent groups of touching / jointed bodies solved (a solve splits into islands). */
  islandSolves: number;
  ccdQueries: number;
  /** Steps where the sub-step budget ran out (the rest of the step was taken without further detection). */
  budgetExceeded: number;
  /** Bodies left at their tentative end of the step at an impact of another island (not backtracked with it). */
  bodiesKept: number;
  /**
   * Resting islands whose solver input was number for number that of their
   * previous solve (same contacts, velocities, inertia): that solve's answer
   * was taken instead of calling the solver (not counted in islandSolves).
   */
  islandReuses: number;
  /** Wall time spent in the impulse solver (core/response), ms: for profiling only, never used by the simulation. */
  solverMs: number;
  /** Sub-step solves of islands with joints given to the resting-contact solver (WorldOptions.restingSolver 'pgs' or 'si'). */
  restingSolves: number;
  /** Of restingSolves, those solved again by the analytic solver: the sweeps missed their tolerance, or the answer had a sliding contact. */
  restingFallbacks: number;
  /** Sweeps of the sequential-impulse solves (WorldOptions.restingSolver 'si'), summed. */
  restingSweeps: number;
  /** Sequential-impulse solves whose warm-started answer gained energy and were solved again from zero impulses. */
  restingRestarts: number;
  /** Contacts added after a solve whose velocities would have carried a vertex into the ground (ragdolls) or a held mesh pair into each other (then solved again). */
  activeSetContacts: number;
}

/** A ragdoll joint in the world (anchors and axes in the bodies' principal frames). */
export interface SimJoint {
  bodyA: number;
  bodyB: number;
  rA: Float64Array;
  rB: Float64Array;
  coneAxisA: Float64Array;
  axisB: Float64Array;
  coneLen: number;
  coneLimitRad: number;
  twistLimitRad: number;
  /** Relative rotation q_A⁻¹ q_B (principal frames) at the start: zero twist. */
  qRel0: Float64Array;
  /** Index in SimWorld.joints. */
  index: number;
}

const KIND_DYNAMIC = 0, KIND_PROP = 1, KIND_CHARACTER = 2;

/**
 * A world's own state of a character's joint group: the shared topology and
 * bounds of g, its own boxes and stamps. One object literal (not a spread of
 * g): every group gets the same hidden class, so groupBox and the pair loop
 * read its fields monomorphically (spread copies of the groups had about one
 * hidden class each: 104 for the bench scene's 112 groups).
 */
function jointGroupState(g: JointGroup): JointGroup {
  return {
    verts: g.verts,
    box: new Float64Array(6),
    slots: g.slots,
    slotBox: g.slotBox,
    slotCE: g.slotCE,
    wsMin: g.wsMin,
    wsMax: g.wsMax,
    jbox0: new Float64Array(6),
    jbox1: new Float64Array(6),
    stamp: -1,
    active: 0,
    activeStamp: -1,
  };
}

/** A found contact (CCD hit or touching pair). */
const enum HitKind {
  VertexTriangle = 0,
  EdgeEdge = 1,
  Ground = 2,
}

const MAX_SUBSTEPS = 16;
/** Rounds of ragdoll ground contacts added after a solve (one per part and round, the deepest first). */
const MAX_ACTIVE_SET_ROUNDS = 4;
/** Steps a ground vertex the active set added stays a speculative contact of the first solve while within the band (addGroundCandidatesBeforeSolve). */
const ACTIVE_KEEP_STEPS = 10;
/** Ragdoll vertices closer to the ground than this (m) are in resting contact (they may not approach it at all). */
const RAGDOLL_GROUND_SLOP = 5e-4;
/** How far (m) above the row test's cut a low set reaches when made (gatherTouching, lowSet). */
const LOW_SET_MARGIN = 3e-3;
/** Largest triangle count of a character body-part cluster. */
const CLUSTER_TRIS = 48;
/** Joint limits engage their velocity constraint this close to the limit. */
const LIMIT_MARGIN_RAD = 0.005;
/** CCD settings: image-box tolerance (m) and work budget; both only make the answer more conservative. */
const CCD_TOLERANCE = 0;
const CCD_MAX_BOXES = 20_000;
/**
 * Below this relative displacement per sub-step (m), a vertex–triangle or
 * edge–edge pair that is on the same side of its plane at both ends of the
 * sub-step is not queried: it can only have dipped in and out by less than
 * this, and touching pairs are held by the resting-contact impulses.
 */
const SLOW_REACH = 1e-3;
/**
 * An impact record's pair impulse below this fraction of approach speed ×
 * the pair's lighter dynamic mass is negligible: no record (the approach was
 * stopped by other contacts of the solve). Stopping an approach v at a point
 * of a body of mass m takes at least m_eff·v, with m_eff = 1/(n·K·n) the
 * effective mass at the point (m/4 for a thin rod struck at its end), so 1 %
 * leaves every real impact in, glancing ones included.
 */
const NEGLIGIBLE_IMPACT_FRACTION = 0.01;
/** Numbers per gathered limit face (gatherLimitFaces): corners 0..8, unit normal 9..11, collider 12. */
const LF_STRIDE = 13;

export class SimWorld {
  readonly doc: ImpulseDocument;
  readonly evaluator: SceneEvaluator;
  readonly bodies: RigidBodySet;
  readonly objects: SimObject[] = [];
  readonly impacts: ImpactRecord[] = [];
  readonly stats: WorldStats = { steps: 0, subSteps: 0, impactEvents: 0, solves: 0, islandSolves: 0, islandReuses: 0, ccdQueries: 0, budgetExceeded: 0, bodiesKept: 0, solverMs: 0, activeSetContacts: 0, restingSolves: 0, restingFallbacks: 0, restingSweeps: 0, restingRestarts: 0 };
  /** Fixed step, seconds. */
  readonly stepSec: number;
  readonly frameRate: number;
  timeSec: number;
  readonly startTimeSec: number;
  readonly groundY: number | null;
  /** Awake flag per body. */
  readonly awake: Uint8Array;
  /** Ball joints of the ragdolls. */
  readonly joints: SimJoint[] = [];

  private readonly colliders: Collider[] = [];
  private readonly dynCount: number;
  /** Some keyframed prop or character has a closed, outward-wound mesh (the one-sided limits and the push-out look at those). */
  private readonly meshLimits: boolean;
  /** Within afterStep: the keyframed end-of-step positions are in K0 (characters; props in K1 as well). */
  private swapped = false;
  private readonly P0: Float64Array;
  private readonly P1: Float64Array;
  /** Scratch per vertex: sides of a box its swept interval lies outside of (sideMasks). */
  private readonly vMask: Uint8Array;
  /** Scratch per vertex: the length of its move over the sub-step (dispOf), made in detection pass dispStamp. */
  private readonly vDisp: Float64Array;
  private readonly dispStamp: Int32Array;
  /** Keyframed vertex positions at the start (K0) and end (K1) of the step; character vertices only where kStamp says so. */
  private K0: Float64Array;
  private K1: Float64Array;
  /** Per vertex: the step-time index (steps since start) its K0 / K1 position was skinned for (characters), -1 never. */
  private kStamp0: Int32Array;
  private kStamp1: Int32Array;
  /** Character vertices (global indices) placed in the current step, in order. */
  private kfActive = new Int32Array(64);
  private kfActiveCount = 0;
  /** Current fraction of the step (P0 of keyframed vertices = K0 + f (K1 − K0)). */
  private stepF = 0;
  private readonly saved: Float64Array;
  /**
   * Per-island clocks within a step. `live[i]`: body i advances on the
   * common clock (fraction stepF of the step); 0: its island was not
   * involved in the impact that cut the current sub-step, so it kept its
   * tentative end-of-step state (its start-of-sub-step state stays in
   * `saved`, taken at fraction doneF0[i], the pose its vertices had then in
   * startPose) and its vertices move linearly from there to P1 for detection.
   * `active[i]`: body i takes part in the sub-step being integrated.
   */
  private readonly live: Uint8Array;
  private readonly active: Uint8Array;
  private readonly doneF0: Float64Array;
  private readonly startPose: Float64Array;
  private readonly involved: Uint8Array;
  /**
   * Dynamic vertices are placed lazily: placeDynamic keeps the body's pose
   * (x, q: 7 numbers) for P0 / P1 and the vertices are computed from it when
   * a test first reads them (ensureP0 / ensureP1).
   */
  private readonly pose0: Float64Array;
  private readonly pose1: Float64Array;
  /** 1: P0 to be placed from pose0; 2: to be interpolated (placeDone, weight doneW); 0: placed. */
  private readonly dirty0: Uint8Array;
  private readonly doneW: Float64Array;
  private readonly dirty1: Uint8Array;
  private readonly pairOk: Uint8Array;
  private readonly rigs: Rig[] = [];
  private readonly charPose: Float64Array[] = [];
  private readonly charPoseDot: Float64Array[] = [];
  /** Skin matrices per character and mesh at the start (0) and end (1) of the step, and their time derivatives at kfVelTime. */
  private skinMats0: Float64Array[][] = [];
  private skinMats1: Float64Array[][] = [];
  private readonly skinDots: Float64Array[][] = [];
  /**
   * Per keyframed character and mesh: the first of its meshes with the same
   * skin (skin joints and inverse bind matrices number for number), whose
   * skin matrix buffers it shares (the same products), and for those first
   * meshes the union of the used slots of the meshes sharing them.
   */
  private readonly skinRep: Int32Array[] = [];
  private readonly skinUnion: Int32Array[][] = [];
  /**
   * Skin matrices are made when a test reads them (skinAt): per keyframed
   * character and mesh, the step (time index) skinMats0 / skinMats1 hold
   * (for the first mesh of each shared skin; -1000 never), and the joint
   * world matrices at the start (0) and end (1) of the step they are made
   * from (copies of the rig's: keyframedVertexVelocity re-poses the rig).
   */
  private skinStamp0: Int32Array[] = [];
  private skinStamp1: Int32Array[] = [];
  private charWorld0: Float64Array[] = [];
  private charWorld1: Float64Array[] = [];
  /**
   * Per keyframed character: the box of its whole skin (all meshes) from the
   * joint world matrices alone, at the start (0) and end (1) of the step
   * (charBound): the joints its skin is weighted to (charJoints), per joint
   * the centre and half extent of a joint-space box holding every vertex as
   * that joint's inverse bind matrix places it (charJointCE), and the range
   * of the vertices' weight sums (charWs).
   */
  private charBox0: Float64Array[] = [];
  private charBox1: Float64Array[] = [];
  private readonly charJoints: Int32Array[] = [];
  private readonly charJointCE: Float64Array[] = [];
  private readonly charWs: Float64Array[] = [];
  /**
   * Per keyframed character: the joints whose world matrices are read
   * (charJoints, the skin joints of the used slots, their ancestors),
   * parent-first: the rig composes only these (Rig.computeWorldOf).
   */
  private readonly charOrder: Int32Array[] = [];
  /**
   * Per keyframed character: the time index of the last step over which it
   * held still (every track held the key it held at the step's start pose,
   * and nothing posed the rig in between: the same joint matrices at both
   * ends), -1000 none. Over such a step its skin matrices and joint-bounded
   * boxes at the end are those at the start.
   */
  private readonly charStill: Int32Array;
  /**
   * Per keyframed character: the key each tracked channel held when last
   * sampled into the rig (SceneEvaluator.characterLocalPoseTracked's record),
   * and 1 when the last pose's joint matrices are not to be taken for the
   * next (no pose yet, or keyframedVertexVelocity posed the rig since).
   */
  private readonly charHeld: Int32Array[] = [];
  private readonly charPoseStale: Uint8Array;
  /** swapKeyframed calls since the last poseKeyframed. */
  private swapsSincePose = 0;
  private readonly propDot: Float64Array[] = [];
  private kfVelTime = NaN;
  /** Prop world matrices at the start and end of the step (keyframed props). */
  private readonly propM0: Float64Array[] = [];
  private readonly propM1: Float64Array[] = [];
  /**
   * Box of each keyframed prop's vertices in K1 (6 numbers per collider, set
   * where poseKeyframed writes them; swapKeyframed copies K0 back into K1, the
   * same positions): gatherLimitFaces skips a prop whose box the sphere misses.
   */
  private propK1Box = new Float64Array(0);
  private readonly slowTime: Float64Array;
  private readonly bodySize: Float64Array;
  private readonly opts: Required<Omit<WorldOptions, 'clipId' | 'ragdoll' | 'dynamic' | 'startTimeSec'>>;
  /**
   * Sliding friction by Coulomb's law (against each contact's slip, inside its
   * cone) where the paper's sliding rule would leave it pushing along the
   * slip: a ragdoll's hand lying on the ground kept spinning at 0.15 rad/s
   * for ever, fed by its own friction (repro/ragdoll-rest).
   */
  private readonly solver = Object.assign(new ImpulseSolver(), { slidingFriction: 'coulomb' as const });
  /** Sub-step solves of islands with joints (WorldOptions.restingSolver 'pgs'). */
  private readonly restingSolver = new RestingContactSolver();
  /** Sub-step solves of islands with joints (WorldOptions.restingSolver 'si'). */
  readonly sequentialSolver = new SequentialImpulseSolver();
  /** Whether the current solveContacts call is an impact event (the analytic solver for every island). */
  private solvingImpact = false;
  /** Ragdoll joint friction, s⁻¹ (RagdollOptions.jointDampingPerSec). */
  private readonly jointDamping: number;
  private readonly ignore: { a: string; aj: number; b: string; bj: number }[];

  // hits (flat, grow-only)
  private hitCount = 0;
  private hitKind = new Int32Array(64);
  private hitI = new Int32Array(64 * 4); // colliderA, featA, colliderB, featB
  private hitF = new Float64Array(64 * 7); // t, u, v, nx, ny, nz, approach
  // persistent touching pairs (mesh–mesh), same layout
  /** `held`: within touching distance at the last gathering, so its contact acted on the velocities. */
  private persist: { kind: number; cA: number; fA: number; cB: number; fB: number; n: Float64Array; held: boolean }[] = [];

  // solver input pools
  private readonly bodyInputs: RigidBodyInput[] = [];
  private readonly bodyView: RigidBodyInput[] = [];
  private readonly contactPool: ContactInput[] = [];
  private readonly contactView: ContactInput[] = [];
  private readonly jointPool: JointInput[] = [];
  private readonly jointView: JointInput[] = [];
  /** Per contact: colliders (for reports), -1 for ground. */
  private contactColA = new Int32Array(64);
  private contactColB = new Int32Array(64);
  private contactApproach = new Float64Array(64);

  constructor(doc: ImpulseDocument, options: WorldOptions) {
    this.doc = doc;
    this.evaluator = new SceneEvaluator(doc, options.clipId);
    const clip = this.evaluator.clip;
    this.frameRate = clip ? clip.frameRate : 30;
    const stepHz = options.stepHz ?? 240;
    if (!(stepHz > 0 && Number.isFinite(stepHz))) throw new SimulationError(`stepHz must be a positive number (got ${stepHz})`);
    const perFrame = Math.max(1, Math.round(stepHz / this.frameRate));
    this.stepSec = 1 / (this.frameRate * perFrame);
    this.jointDamping = options.ragdoll?.jointDampingPerSec ?? 4;
    if (!(this.jointDamping >= 0)) throw new SimulationError(`ragdoll.jointDampingPerSec must be a number ≥ 0 (got ${this.jointDamping})`);
    this.opts = {
      stepHz,
      restitutionThresholdMps: options.restitutionThresholdMps ?? 0.1,
      speculativeSpeedMps: options.speculativeSpeedMps ?? 0.5,
      simultaneousSec: options.simultaneousSec ?? 5e-4,
      touchDistance: options.touchDistance ?? 2e-5,
      sleepSpeedMps: options.sleepSpeedMps ?? 0.02,
      sleepTimeSec: options.sleepTimeSec ?? 0.3,
      reuseRestingSolves: options.reuseRestingSolves ?? true,
      restingSolver: options.restingSolver ?? 'si-restitution',
    };
    this.timeSec = options.startTimeSec;
    this.startTimeSec = options.startTimeSec;
    this.groundY = doc.groundY;
    this.ignore = doc.check.ignore.map((r) => ({ a: r.a.object, aj: r.a.joint ?? -1, b: r.b.object, bj: r.b.joint ?? -1 }));

    // ---- which objects are dynamic
    const dynProps = new Set<number>(), dynChars = new Set<number>();
    for (const name of options.dynamic) {
      const pi = doc.props.findIndex((p) => p.id === name || p.name === name);
      const ci = doc.characters.findIndex((c) => c.id === name || c.name === name);
      if (pi < 0 && ci < 0) throw new SimulationError(`dynamic object '${name}': no prop or character has this name or id`);
      if (pi >= 0) dynProps.add(pi);
      else dynChars.add(ci);
    }
    for (let pi = 0; pi < doc.props.length; pi++) if (doc.props[pi].physics.mode === 'dynamic' && options.dynamic.length === 0) dynProps.add(pi);

    // ---- dynamic bodies
    const inits: RigidBodyInit[] = [];
    const geoms: { local: Float64Array; tris: Uint32Array; parts?: undefined }[] = [];
    const t0 = this.timeSec;
    const trs = new Float64Array(10);
    const lin = { x: 0, y: 0, z: 0 }, ang = { x: 0, y: 0, z: 0 };
    const sortedProps = [...dynProps].sort((a, b) => a - b);
    for (const pi of sortedProps) {
      const prop = doc.props[pi];
      const mp = propMassProperties(prop);
      this.propComs[pi] = mp.centerOfMass; // propOrigin's (made once)
      this.evaluator.propTransform(pi, t0, trs);
      this.evaluator.propVelocity(pi, t0, lin, ang);
      const q: [number, number, number, number] = [trs[3], trs[4], trs[5], trs[6]];
      const c = mp.centerOfMass;
      const rc = [0, 0, 0];
      rotate(rc, 0, q, 0, c[0] * (trs[7] / prop.transform.scale[0]), c[1] * (trs[8] / prop.transform.scale[1]), c[2] * (trs[9] / prop.transform.scale[2]));
      const init: RigidBodyInit = {
        name: prop.name,
        massKg: mp.massKg,
        inertiaLocal: mp.inertia,
        position: [trs[0] + rc[0], trs[1] + rc[1], trs[2] + rc[2]],
        orientation: q,
        linearVelocity: [lin.x + ang.y * rc[2] - ang.z * rc[1], lin.y + ang.z * rc[0] - ang.x * rc[2], lin.z + ang.x * rc[1] - ang.y * rc[0]],
        angularVelocity: [ang.x, ang.y, ang.z],
      };
      const bodyIndex = inits.length;
      inits.push(init);
      const pos = prop.mesh.positions;
      const local = new Float64Array(pos.length);
      for (let v = 0; v < pos.length / 3; v++) {
        for (let k = 0; k < 3; k++) local[3 * v + k] = pos[3 * v + k] * trs[7 + k] - c[k] * (trs[7 + k] / prop.transform.scale[k]);
      }
      geoms.push({ local, tris: prop.mesh.indices });
      this.objects.push({ kind: 'prop', id: prop.id, name: prop.name, index: pi, bodies: [bodyIndex] });
    }
    const ragdollGeoms: { local: Float64Array; tris: Uint32Array; joint: number; restitution: number; friction: number }[] = [];
    const sortedChars = [...dynChars].sort((a, b) => a - b);
    for (const ci of sortedChars) {
      const ch = doc.characters[ci];
      const rd = buildRagdoll(ch, ci, this.evaluator, t0, options.ragdoll);
      const first = inits.length;
      const bodies: number[] = [];
      for (let k = 0; k < rd.parts.length; k++) {
        inits.push(rd.parts[k].init);
        bodies.push(first + k);
        ragdollGeoms.push({ local: Float64Array.from(rd.parts[k].local), tris: rd.parts[k].tris, joint: rd.parts[k].joint, restitution: rd.restitution, friction: rd.friction });
      }
      for (const j of rd.joints)
        this.joints.push({
          bodyA: first + j.partA, bodyB: first + j.partB, rA: Float64Array.from(j.rA), rB: Float64Array.from(j.rB),
          coneAxisA: Float64Array.from(j.coneAxisA), axisB: Float64Array.from(j.axisB), coneLen: j.coneLen, coneLimitRad: j.coneLimitRad,
          twistLimitRad: j.twistLimitRad, qRel0: new Float64Array(4), index: this.joints.length,
        });
      this.objects.push({ kind: 'character', id: ch.id, name: ch.name, index: ci, bodies, ragdoll: rd });
    }
    if (inits.length === 0) throw new SimulationError('nothing to simulate: no dynamic prop or character');
    this.bodies = new RigidBodySet(inits);
    this.bodies.gravity = [doc.gravity[0], doc.gravity[1], doc.gravity[2]];
    this.dynCount = inits.length;
    // geometry and joint anchors from the bodies' local frames into their principal frames
    const toPrincipal = (i: number, a: Float64Array) => {
      const q = this.bodies.principalToLocal;
      for (let v = 0; v < a.length / 3; v++) {
        rotateInv(_a, q, 4 * i, a[3 * v], a[3 * v + 1], a[3 * v + 2]);
        a[3 * v] = _a[0];
        a[3 * v + 1] = _a[1];
        a[3 * v + 2] = _a[2];
      }
    };
    geoms.forEach((g, i) => toPrincipal(i, g.local));
    ragdollGeoms.forEach((g, k) => toPrincipal(geoms.length + k, g.local));
    for (const j of this.joints) {
      toPrincipal(j.bodyA, j.rA);
      toPrincipal(j.bodyA, j.coneAxisA);
      toPrincipal(j.bodyB, j.rB);
      toPrincipal(j.bodyB, j.axisB);
      const st = this.bodies.state, sa = STATE_STRIDE * j.bodyA + 3;
      _q4[0] = -st[sa];
      _q4[1] = -st[sa + 1];
      _q4[2] = -st[sa + 2];
      _q4[3] = st[sa + 3];
      quatMul(j.qRel0, 0, _q4, 0, st, STATE_STRIDE * j.bodyB + 3);
    }
    this.limitSkip = new Float64Array(2 * this.joints.length);
    this.engageAt = new Float64Array(2 * this.joints.length);
    for (const j of this.joints) {
      this.limitSkip[2 * j.index] = coneSkipCos(j.coneLimitRad);
      this.limitSkip[2 * j.index + 1] = twistSkipTan(j.twistLimitRad);
      this.engageAt[2 * j.index] = cos(j.coneLimitRad - LIMIT_MARGIN_RAD);
      this.engageAt[2 * j.index + 1] = twistSkipTan(j.twistLimitRad - LIMIT_MARGIN_RAD);
    }
    this.awake = new Uint8Array(this.dynCount).fill(1);
    this.wokeStep = new Int32Array(this.dynCount).fill(-1);
    this.slowTime = new Float64Array(this.dynCount);
    this.charStill = new Int32Array(doc.characters.length).fill(-1000);
    this.charPoseStale = new Uint8Array(doc.characters.length).fill(1);
    this.bodySize = new Float64Array(this.dynCount);

    // ---- colliders: dynamic bodies first (collider index = body index)
    let vOff = 0;
    let objIdx = 0;
    for (let k = 0; k < sortedProps.length; k++) {
      const pi = sortedProps[k];
      const prop = doc.props[pi];
      const g = geoms[k];
      this.colliders.push(this.makeCollider(KIND_DYNAMIC, k, pi, 0, prop.id, prop.name, '', objIdx++, vOff, g.local, g.tris, null, prop.physics.restitution, prop.physics.friction, prop.collision.enabled ? prop.collision.groups : 0, prop.collision.mask));
      vOff += g.local.length / 3;
    }
    {
      let b = sortedProps.length;
      let r = 0;
      for (const ci of sortedChars) {
        const ch = doc.characters[ci];
        const obj = this.objects[objIdx];
        for (let k = 0; k < obj.bodies.length; k++, r++, b++) {
          const g = ragdollGeoms[r];
          const jn = ch.skeleton.joints[g.joint]?.name ?? '';
          this.colliders.push(this.makeCollider(KIND_DYNAMIC, b, ci, 0, ch.id, ch.name, jn, objIdx, vOff, g.local, g.tris, null, g.restitution, g.friction, ch.collision.enabled ? ch.collision.groups : 0, ch.collision.mask));
          this.colliders[this.colliders.length - 1].parts[0].joint = g.joint;
          vOff += g.local.length / 3;
        }
        objIdx++;
      }
    }
    for (let i = 0; i < this.dynCount; i++) this.bodySize[i] = Math.sqrt(maxSquaredNorm(this.colliders[i].local, this.colliders[i].nv));
    // keyframed props
    for (let pi = 0; pi < doc.props.length; pi++) {
      if (dynProps.has(pi)) continue;
      const prop = doc.props[pi];
      if (!prop.collision.enabled) continue;
      const pos = prop.mesh.positions;
      this.colliders.push(this.makeCollider(KIND_PROP, -1, pi, 0, prop.id, prop.name, '', -1, vOff, Float64Array.from(pos), prop.mesh.indices, null, prop.physics.restitution, prop.physics.friction, prop.collision.groups, prop.collision.mask));
      vOff += pos.length / 3;
    }
    // keyframed characters
    for (let ci = 0; ci < doc.characters.length; ci++) {
      if (dynChars.has(ci)) continue;
      const ch = doc.characters[ci];
      if (!ch.collision.enabled) continue;
      const rig = new Rig(ch);
      this.rigs[ci] = rig;
      this.charPose[ci] = new Float64Array(rig.jointCount * 10);
      this.charPoseDot[ci] = new Float64Array(rig.jointCount * 10);
      const repOf = (this.skinRep[ci] = new Int32Array(ch.meshes.length));
      this.skinStamp0[ci] = new Int32Array(ch.meshes.length).fill(-1000);
      this.skinStamp1[ci] = new Int32Array(ch.meshes.length).fill(-1000);
      this.charWorld0[ci] = new Float64Array(16 * rig.jointCount);
      this.charWorld1[ci] = new Float64Array(16 * rig.jointCount);
      this.charBox0[ci] = new Float64Array(6);
      this.charBox1[ci] = new Float64Array(6);
      this.skinMats0[ci] = [];
      this.skinMats1[ci] = [];
      this.skinDots[ci] = [];
      this.skinUnion[ci] = [];
      for (let mi = 0; mi < ch.meshes.length; mi++) {
        const m = ch.meshes[mi];
        let r = 0;
        while (r < mi && !(repOf[r] === r && sameSkin(ch.meshes[r], m))) r++;
        repOf[mi] = r;
        if (r === mi) {
          this.skinMats0[ci].push(new Float64Array(16 * m.skinJoints.length));
          this.skinMats1[ci].push(new Float64Array(16 * m.skinJoints.length));
          this.skinDots[ci].push(new Float64Array(16 * m.skinJoints.length));
          this.skinUnion[ci].push(usedSkinSlots(m));
        } else {
          this.skinMats0[ci].push(this.skinMats0[ci][r]);
          this.skinMats1[ci].push(this.skinMats1[ci][r]);
          this.skinDots[ci].push(this.skinDots[ci][r]);
          this.skinUnion[ci].push(new Int32Array(0));
          const a = this.skinUnion[ci][r], b = usedSkinSlots(m), on = new Uint8Array(m.skinJoints.length);
          for (let k = 0; k < a.length; k++) on[a[k]] = 1;
          for (let k = 0; k < b.length; k++) on[b[k]] = 1;
          const u: number[] = [];
          for (let k = 0; k < on.length; k++) if (on[k]) u.push(k);
          this.skinUnion[ci][r] = Int32Array.from(u);
        }
      }
      for (let mi = 0; mi < ch.meshes.length; mi++) {
        const mesh = ch.meshes[mi];
        // checks the skin's joints once (the steps compute only the slots with weight)
        computeSkinMatrices(mesh, rig.world, this.skinMats0[ci][mi]);
        // the part topology of a mesh is the same in every world: built once per mesh
        let topo = characterTopology.get(mesh);
        if (!topo) {
          const C = this.makeCollider(KIND_CHARACTER, -1, ci, mi, ch.id, ch.name, '', -1, vOff, new Float64Array(0), mesh.indices, dominantJointPerTriangle(mesh), 0.3, 0.5, 0, 0, undefined, mesh.positions);
          for (const p of C.parts) slotBounds(mesh, p);
          // joint groups: the clusters of one joint together
          const groups: JointGroup[] = [];
          for (let k = 0; k < C.parts.length; k++) {
            const p = C.parts[k];
            if (k === 0 || p.joint !== C.parts[k - 1].joint) {
              const vs = new Set<number>();
              for (let m = k; m < C.parts.length && C.parts[m].joint === p.joint; m++) for (const v of C.parts[m].verts) vs.add(v);
              const g: JointGroup = { verts: Uint32Array.from([...vs].sort((a, b) => a - b)), box: new Float64Array(6) };
              slotBounds(mesh, g);
              groups.push(g);
            }
            p.group = groups.length - 1;
          }
          const all = new Uint32Array(mesh.positions.length / 3);
          for (let v = 0; v < all.length; v++) all[v] = v;
          const whole: JointGroup = { verts: all, box: new Float64Array(6) };
          slotBounds(mesh, whole);
          topo = { edges: C.edges, parts: C.parts, groups, whole };
          characterTopology.set(mesh, topo);
        }
        const C = this.makeCollider(KIND_CHARACTER, -1, ci, mi, ch.id, ch.name, '', -1, vOff, new Float64Array(0), mesh.indices, null, 0.3, 0.5, ch.collision.groups, ch.collision.mask, topo);
        C.outward = outwardMesh(mesh);
        C.jointGroups = topo.groups.map(jointGroupState);
        // the parts of a joint group are consecutive: group gi holds parts groupStart[gi] .. groupStart[gi + 1]
        const gs = (C.groupStart = new Int32Array(C.jointGroups.length + 1));
        for (let k = C.parts.length - 1; k >= 0; k--) gs[C.parts[k].group] = k;
        gs[C.jointGroups.length] = C.parts.length;
        C.whole = { ...topo.whole, box: new Float64Array(6), jbox0: new Float64Array(6), jbox1: new Float64Array(6) };
        this.colliders.push(C);
        C.nv = mesh.positions.length / 3;
        vOff += mesh.positions.length / 3;
      }
      this.charBounds(ci, rig.jointCount);
      const read = Array.from(this.charJoints[ci]);
      for (let mi = 0; mi < ch.meshes.length; mi++) {
        const u = this.skinUnion[ci][mi];
        for (let q = 0; q < u.length; q++) read.push(ch.meshes[mi].skinJoints[u[q]]);
      }
      this.charOrder[ci] = jointsWithAncestors(rig.parents, read);
      this.charHeld[ci] = new Int32Array(this.evaluator.trackedChannelCount(ci)).fill(-1);
    }
    this.meshLimits = this.colliders.some((C) => C.kind !== KIND_DYNAMIC && C.outward);
    this.P0 = new Float64Array(3 * vOff);
    this.P1 = new Float64Array(3 * vOff);
    this.vMask = new Uint8Array(vOff);
    this.vDisp = new Float64Array(vOff);
    this.dispStamp = new Int32Array(vOff).fill(-1);
    this.K0 = new Float64Array(3 * vOff);
    this.K1 = new Float64Array(3 * vOff);
    this.propK1Box = new Float64Array(6 * this.colliders.length);
    this.kStamp0 = new Int32Array(vOff).fill(-1);
    this.kStamp1 = new Int32Array(vOff).fill(-1);
    for (let c = this.dynCount; c < this.colliders.length; c++) {
      const C = this.colliders[c];
      if (C.kind !== KIND_PROP) continue;
      this.propM0[c] = new Float64Array(16);
      this.propM1[c] = new Float64Array(16);
      this.propDot[c] = new Float64Array(16);
    }
    this.groundMark = new Int32Array(vOff);
    this.activeKeep = new Int32Array(vOff).fill(-1);
    this.groundHitStep = new Int32Array(vOff).fill(-1);
    this.colGroundHitStep = new Int32Array(this.dynCount).fill(-1);
    this.saved = new Float64Array(this.bodies.state.length);
    this.live = new Uint8Array(this.dynCount).fill(1);
    this.active = new Uint8Array(this.dynCount).fill(1);
    this.doneF0 = new Float64Array(this.dynCount);
    this.involved = new Uint8Array(this.dynCount);
    this.startPose = new Float64Array(7 * this.dynCount);
    this.pose0 = new Float64Array(7 * this.dynCount);
    this.pose1 = new Float64Array(7 * this.dynCount);
    this.dirty0 = new Uint8Array(this.dynCount);
    this.doneW = new Float64Array(this.dynCount);
    this.dirty1 = new Uint8Array(this.dynCount);

    // ---- which collider pairs may collide
    const nc = this.colliders.length;
    this.pairOk = new Uint8Array(nc * nc);
    for (let a = 0; a < nc; a++)
      for (let b = 0; b < nc; b++) {
        const A = this.colliders[a], B = this.colliders[b];
        if (a === b || (A.kind !== KIND_DYNAMIC && B.kind !== KIND_DYNAMIC)) continue;
        if (A.object >= 0 && A.object === B.object) continue; // parts of one ragdoll
        if (!(A.groups & B.mask) || !(B.groups & A.mask)) continue;
        if (this.ignoredObjects(A.objectId, B.objectId)) continue;
        this.pairOk[a * nc + b] = 1;
      }

    // ---- initial keyframed poses
    this.poseKeyframed(this.timeSec, 0);
    this.swapKeyframed();
    for (let i = 0; i < this.dynCount; i++) {
      const s = this.bodies.state;
      const speed = hypot3(s[STATE_STRIDE * i + 7], s[STATE_STRIDE * i + 8], s[STATE_STRIDE * i + 9]);
      if (!Number.isFinite(speed)) throw new SimulationError(`body '${this.bodies.names[i]}': initial velocity is not finite`);
    }
  }

  private makeCollider(
    kind: number, body: number, docIndex: number, mesh: number, objectId: string, objectName: string, partName: string, object: number,
    vOff: number, local: Float64Array, tris: Uint32Array, dominant: Int32Array | null, restitution: number, friction: number, groups: number, mask: number,
    topo?: { edges: Uint32Array; parts: Part[] },
    bindPositions?: ArrayLike<number>,
  ): Collider {
    const ntri = tris.length / 3;
    const tt = topo ? null : triangleTopology(tris);
    const edges = topo ? topo.edges : tt!.edges;
    const parts: Part[] = [];
    if (topo) {
      // shared read-only topology, own boxes and stamps
      for (const p of topo.parts)
        parts.push({ ...p, box: new Float64Array(6), jbox0: new Float64Array(6), jbox1: new Float64Array(6), skinned: -1, jstamp: -1 });
    } else if (!dominant) {
      const all = new Uint32Array(ntri);
      for (let t = 0; t < ntri; t++) all[t] = t;
      const nv = local.length / 3;
      const verts = new Uint32Array(nv);
      for (let v = 0; v < nv; v++) verts[v] = v;
      const edgeIdx = new Uint32Array(edges.length / 2);
      for (let e = 0; e < edgeIdx.length; e++) edgeIdx[e] = e;
      parts.push({ joint: -1, tris: all, verts, vtVerts: verts, edges: edgeIdx, box: new Float64Array(6), skinned: -1, group: -1, jstamp: -1 });
    } else {
      const byJoint = new Map<number, number[]>();
      for (let t = 0; t < ntri; t++) {
        const j = dominant[t];
        let l = byJoint.get(j);
        if (!l) byJoint.set(j, (l = []));
        l.push(t);
      }
      const edgeKey = new Map<number, number>();
      for (let e = 0; e < edges.length / 2; e++) edgeKey.set(edges[2 * e] * 4294967296 + edges[2 * e + 1], e);
      // each joint's skin is split further into compact clusters of at most CLUSTER_TRIS triangles
      // (median splits of the bind-pose centroids): a prop near a limb skins and tests only the
      // clusters it reaches; every vertex and edge is tested by one cluster only
      const X = bindPositions!;
      const vClaimed = new Uint8Array(X.length / 3), eClaimed = new Uint8Array(edges.length / 2);
      const clusters: number[][] = [];
      const split = (tl: number[]) => {
        if (tl.length <= CLUSTER_TRIS) {
          clusters.push(tl);
          return;
        }
        const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
        const cen = (t: number, c: number) => X[3 * tris[3 * t] + c] + X[3 * tris[3 * t + 1] + c] + X[3 * tris[3 * t + 2] + c];
        for (const t of tl)
          for (let c = 0; c < 3; c++) {
            lo[c] = Math.min(lo[c], cen(t, c));
            hi[c] = Math.max(hi[c], cen(t, c));
          }
        const ax = hi[0] - lo[0] >= hi[1] - lo[1] && hi[0] - lo[0] >= hi[2] - lo[2] ? 0 : hi[1] - lo[1] >= hi[2] - lo[2] ? 1 : 2;
        const sorted = [...tl].sort((a, b) => cen(a, ax) - cen(b, ax) || a - b);
        const m = sorted.length >> 1;
        split(sorted.slice(0, m));
        split(sorted.slice(m));
      };
      const jointOf: number[] = [];
      for (const j of [...byJoint.keys()].sort((a, b) => a - b)) {
        const n0 = clusters.length;
        split(byJoint.get(j)!);
        for (let k = n0; k < clusters.length; k++) jointOf.push(j);
      }
      clusters.forEach((tl, ci) => {
        tl.sort((a, b) => a - b);
        const vs = new Set<number>();
        const own: number[] = [];
        const es: number[] = [];
        for (const t of tl) {
          for (let k = 0; k < 3; k++) {
            const a = tris[3 * t + k], b = tris[3 * t + ((k + 1) % 3)];
            vs.add(a);
            if (!vClaimed[a]) {
              vClaimed[a] = 1;
              own.push(a);
            }
            const e = edgeKey.get(Math.min(a, b) * 4294967296 + Math.max(a, b))!;
            if (!eClaimed[e]) {
              eClaimed[e] = 1;
              es.push(e);
            }
          }
        }
        parts.push({
          joint: jointOf[ci],
          tris: Uint32Array.from(tl),
          verts: Uint32Array.from([...vs].sort((a, b) => a - b)),
          vtVerts: Uint32Array.from(own.sort((a, b) => a - b)),
          edges: Uint32Array.from(es.sort((a, b) => a - b)),
          box: new Float64Array(6),
          skinned: -1,
          group: -1,
          jstamp: -1,
        });
      });
    }
    const closed = kind !== KIND_CHARACTER && tt!.closed && signedVolume(local, tris) > 0;
    return {
      index: this.colliders.length, kind, body, docIndex, mesh, objectId, objectName, partName, object, vOff, nv: local.length / 3, tris, edges, parts, local,
      // a character mesh's (large) triangle and edge box buffers are made when a part of it is first tested (primitiveBoxes)
      triBox: kind === KIND_CHARACTER ? _none64 : new Float64Array(6 * ntri), edgeBox: kind === KIND_CHARACTER ? _none64 : new Float64Array(3 * edges.length), restitution,
      triStamp: kind === KIND_CHARACTER ? _none32 : new Int32Array(ntri).fill(-1), edgeStamp: kind === KIND_CHARACTER ? _none32 : new Int32Array(edges.length / 2).fill(-1), friction, groups, mask, box: new Float64Array(6),
      closed,
      outward: closed,
      moving: true,
      lbox: localBox(local),
      jointGroups: [],
      activeParts: [],
      activeUnion: new Float64Array(6),
      activeUnionStamp: -1,
      boxStamp: -1,
      meshBox: new Float64Array(6),
      meshBoxStamp: -1000,
      wholeT0: -1000,
      wholeT1: -1000,
      movingStamp: -1000,
      // set for character meshes after this; every collider has them, and the chunk fields in
      // chunked's order: one hidden class for all colliders (the pair loops read both kinds)
      groupStart: undefined,
      whole: undefined,
      radius: kind === KIND_DYNAMIC ? maxNorm(local) : 0,
      ...(kind === KIND_DYNAMIC ? chunked(local) : { chunkStart: new Int32Array(1), chunkVerts: new Uint32Array(0), chunkSphere: new Float64Array(0), chunkBox: new Float64Array(0), chunkOf: new Int32Array(0), chunkLocal: new Float64Array(0) }),
    };
  }

  private ignoredObjects(a: string, b: string): boolean {
    for (const r of this.ignore) if (r.aj < 0 && r.bj < 0 && ((r.a === a && r.b === b) || (r.a === b && r.b === a))) return true;
    return false;
  }

  /** Whether dynamic collider i and keyframed collider c may collide (groups and masks, the document's ignore rules, for ragdoll parts their joint). */
  private mayCollide(i: number, c: number): boolean {
    if (!this.pairOk[i * this.colliders.length + c]) return false;
    const A = this.colliders[i];
    return !(this.ignore.length && this.ignoredParts(A, A.parts[0].joint, this.colliders[c], -1));
  }

  private ignoredParts(A: Collider, ja: number, B: Collider, jb: number): boolean {
    for (const r of this.ignore) {
      if (r.a === A.objectId && r.b === B.objectId && (r.aj < 0 || r.aj === ja) && (r.bj < 0 || r.bj === jb)) return true;
      if (r.a === B.objectId && r.b === A.objectId && (r.aj < 0 || r.aj === jb) && (r.bj < 0 || r.bj === ja)) return true;
    }
    return false;
  }

  /**
   * Poses the keyframed colliders at `timeSec` as the end of the step (time
   * index `tIdx`): props' vertices into K1, characters' rigs and skin
   * matrices (no skinning: parts are skinned when a test needs them) and
   * their joint-bounded part boxes.
   */
  private poseKeyframed(timeSec: number, tIdx: number): void {
    const out = this.K1;
    const swaps = this.swapsSincePose;
    this.swapsSincePose = 0;
    for (let c = this.dynCount; c < this.colliders.length; c++) {
      const C = this.colliders[c];
      if (C.kind === KIND_PROP) {
        const m = this.propM1[c];
        this.evaluator.propWorldMatrix(C.docIndex, timeSec, m);
        const L = C.local, B = this.propK1Box, bo = 6 * c;
        let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
        for (let v = 0, o = 3 * C.vOff; v < C.nv; v++, o += 3) {
          const x = L[3 * v], y = L[3 * v + 1], z = L[3 * v + 2];
          const wx = (out[o] = m[0] * x + m[4] * y + m[8] * z + m[12]);
          const wy = (out[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13]);
          const wz = (out[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14]);
          if (wx < x0) x0 = wx;
          if (wx > x1) x1 = wx;
          if (wy < y0) y0 = wy;
          if (wy > y1) y1 = wy;
          if (wz < z0) z0 = wz;
          if (wz > z1) z1 = wz;
        }
        B[bo] = x0;
        B[bo + 1] = y0;
        B[bo + 2] = z0;
        B[bo + 3] = x1;
        B[bo + 4] = y1;
        B[bo + 5] = z1;
        const m0 = this.propM0[c];
        let moving = false;
        for (let k = 0; k < 16; k++) if (m0[k] !== m[k]) moving = true;
        C.moving = moving;
      } else if (C.kind === KIND_CHARACTER) {
        const ci = C.docIndex;
        if (C.mesh === 0) {
          // the joints only: skin matrices, the meshes' boxes from them and `moving` are made when
          // a test reads them (skinAt, meshBox, characterMoving); the character's box from the joints
          const rig = this.rigs[ci];
          // rig.local holds the rest pose where untracked (the Rig's own, written by nothing else)
          const same = this.evaluator.characterLocalPoseTracked(ci, timeSec, rig.local, this.charHeld[ci]);
          if (same && !this.charPoseStale[ci] && swaps <= 1) {
            // every track held the key of the last pose, and the rig was not posed since: the joint
            // matrices and box are the last pose's, in charWorld0 / charBox0 after the step's swap
            // (the character holds still over the step), else still in charWorld1 / charBox1
            if (swaps === 1) {
              this.charWorld1[ci].set(this.charWorld0[ci]);
              copyBox(this.charBox0[ci], this.charBox1[ci]);
            }
            this.charStill[ci] = swaps === 1 ? tIdx : -1000;
          } else {
            // only the joints read (charOrder): the skin's and their ancestors, into charWorld1
            rig.computeWorldOf(this.charOrder[ci], this.charWorld1[ci]);
            this.charBound(ci, this.charBox1[ci]);
            this.charStill[ci] = -1000;
          }
          this.charPoseStale[ci] = 0;
        }
        if (C.activeParts.length !== 0) C.activeParts.length = 0; // a new step: no part skinned for it yet (the length setter is a runtime call)
        this.boxVersion++;
      }
    }
    this.kfTimeIndex = tIdx;
  }

  /** Time index of K1 (steps since the start). */
  private kfTimeIndex = 0;
  /** Counter of detection passes (findHits calls). */
  private detectPass = 0;

  /** The persistent (resting) contact on these features, or null. */
  private persisted(kind: number, cA: number, fA: number, cB: number, fB: number): { n: Float64Array; held: boolean } | null {
    const P = this.persist;
    for (let k = 0; k < P.length; k++) {
      const pc = P[k];
      if (pc.kind === kind && pc.cA === cA && pc.fA === fA && pc.cB === cB && pc.fB === fB) return pc;
    }
    return null;
  }

  /** The end of the step becomes the start of the next. */
  private swapKeyframed(): void {
    this.swapsSincePose++;
    let t = this.K0;
    this.K0 = this.K1;
    this.K1 = t;
    const s = this.kStamp0;
    this.kStamp0 = this.kStamp1;
    this.kStamp1 = s;
    const sm = this.skinMats0;
    this.skinMats0 = this.skinMats1;
    this.skinMats1 = sm;
    const ss = this.skinStamp0;
    this.skinStamp0 = this.skinStamp1;
    this.skinStamp1 = ss;
    const cw = this.charWorld0;
    this.charWorld0 = this.charWorld1;
    this.charWorld1 = cw;
    const cb = this.charBox0;
    this.charBox0 = this.charBox1;
    this.charBox1 = cb;
    for (let c = this.dynCount; c < this.colliders.length; c++) {
      const C = this.colliders[c];
      if (C.kind === KIND_PROP) {
        this.propM0[c].set(this.propM1[c]);
        // props are posed whole: K1 must keep the positions for placements before the next pose
        const o = 3 * C.vOff;
        for (let i = o; i < o + 3 * C.nv; i++) this.K1[i] = this.K0[i];
      } else if (C.kind === KIND_CHARACTER) {
        const g = C.whole!;
        t = g.jbox0!;
        g.jbox0 = g.jbox1;
        g.jbox1 = t;
        C.wholeT0 = C.wholeT1;
        C.wholeT1 = -1000;
      }
    }
    this.kfActiveCount = 0;
  }

  /**
   * Skins character vertex v of collider C at the start and end of the step
   * (where not done yet) and places it in P0 / P1 for the current sub-step.
   */
  private activateVertex(C: Collider, v: number): void {
    const g = C.vOff + v;
    const t1 = this.kfTimeIndex;
    if (this.kStamp1[g] === t1) return;
    const mesh = this.doc.characters[C.docIndex].meshes[C.mesh];
    if (this.kStamp0[g] !== t1 - 1) {
      skinVertex(mesh, this.skinAt(C.docIndex, C.mesh, 0), v, this.K0, 3 * g);
      this.kStamp0[g] = t1 - 1;
    }
    skinVertex(mesh, this.skinAt(C.docIndex, C.mesh, 1), v, this.K1, 3 * g);
    this.kStamp1[g] = t1;
    if (this.kfActiveCount >= this.kfActive.length) {
      const a = new Int32Array(2 * this.kfActive.length);
      a.set(this.kfActive);
      this.kfActive = a;
    }
    this.kfActive[this.kfActiveCount++] = g;
    const o = 3 * g, f = this.stepF, K0 = this.K0, K1 = this.K1, P0 = this.P0, P1 = this.P1;
    for (let c = 0; c < 3; c++) {
      P0[o + c] = f === 0 ? K0[o + c] : f === 1 ? K1[o + c] : K0[o + c] + f * (K1[o + c] - K0[o + c]);
      P1[o + c] = K1[o + c];
    }
  }

  /** Skins a character part for this step (see activateVertex) and sets its exact swept box. */
  private activatePart(C: Collider, p: Part): void {
    const vs = p.verts;
    for (let k = 0; k < vs.length; k++) this.activateVertex(C, vs[k]);
    p.skinned = this.kfTimeIndex;
    C.activeParts.push(p);
    const G = C.jointGroups[p.group];
    if (G.activeStamp !== this.kfTimeIndex) {
      G.activeStamp = this.kfTimeIndex;
      G.active = 0;
    }
    G.active!++;
    this.exactPartBox(C, p);
  }

  /** Whether a character part's vertices are skinned for this step. */
  private partActive(p: Part): boolean {
    return p.skinned === this.kfTimeIndex;
  }

  /** World velocity of vertex v of keyframed collider C at `timeSec` (exact derivative of its curves) into _v. */
  private keyframedVertexVelocity(C: Collider, v: number, timeSec: number): void {
    if (this.kfVelTime !== timeSec) {
      for (let c = this.dynCount; c < this.colliders.length; c++) {
        const K = this.colliders[c];
        if (K.kind === KIND_PROP) this.evaluator.propWorldMatrixDerivative(K.docIndex, timeSec, this.propDot[c]);
        else if (K.kind === KIND_CHARACTER) {
          const ci = K.docIndex;
          const rig = this.rigs[ci];
          if (K.mesh === 0) {
            // untracked channels: rest in rig.local, zeros in charPoseDot, as made (written by nothing else)
            this.evaluator.characterLocalPoseTracked(ci, timeSec, rig.local, this.charHeld[ci]);
            this.charPoseStale[ci] = 1;
            this.evaluator.characterLocalPoseDerivativeTracked(ci, timeSec, this.charPoseDot[ci]);
            rig.computeWorldDerivative(this.charPoseDot[ci]);
          }
          const mesh = this.doc.characters[ci].meshes[K.mesh];
          if (this.skinRep[ci][K.mesh] === K.mesh) skinMatricesUsed(mesh, rig.worldDot, this.skinDots[ci][K.mesh], this.skinUnion[ci][K.mesh]);
        }
      }
      this.kfVelTime = timeSec;
    }
    if (C.kind === KIND_PROP) {
      const m = this.propDot[C.index], L = C.local;
      const x = L[3 * v], y = L[3 * v + 1], z = L[3 * v + 2];
      _v[0] = m[0] * x + m[4] * y + m[8] * z + m[12];
      _v[1] = m[1] * x + m[5] * y + m[9] * z + m[13];
      _v[2] = m[2] * x + m[6] * y + m[10] * z + m[14];
    } else {
      const mesh = this.doc.characters[C.docIndex].meshes[C.mesh];
      skinVertexVelocity(mesh, this.skinDots[C.docIndex][C.mesh], v, _v, 0);
    }
  }

  /**
   * World vertex positions of the dynamic colliders of the active bodies for
   * state `st` into P0 or P1: the poses are kept and the vertices computed
   * when first read (ensureP0 / ensureP1).
   */
  private placeDynamic(st: Float64Array, out: Float64Array): void {
    const first = out === this.P0;
    const pose = first ? this.pose0 : this.pose1, dirty = first ? this.dirty0 : this.dirty1;
    for (let c = 0; c < this.dynCount; c++) {
      const C = this.colliders[c];
      if (!this.active[C.body]) continue;
      const s = STATE_STRIDE * C.body;
      for (let k = 0; k < 7; k++) pose[7 * c + k] = st[s + k];
      dirty[c] = 1;
    }
  }

  /** Vertices of dynamic collider c at the start of the sub-step (P0), placed from its kept pose if not yet. */
  private ensureP0(c: number): void {
    const d = this.dirty0[c];
    if (d === 0) return;
    this.dirty0[c] = 0;
    if (d === 1) placeVertices(this.colliders[c], this.pose0, 7 * c, this.P0);
    else {
      // a body already at the end of the step (placeDone): linear from its start of sub-step (the
      // vertices of startPose, as placeVertices makes them) to its end
      const C = this.colliders[c], P0 = this.P0, P1 = this.P1, w = this.doneW[c], q = this.startPose, s = 7 * c;
      this.ensureP1(c);
      const qx = q[s + 3], qy = q[s + 4], qz = q[s + 5], qw = q[s + 6], x0 = q[s], y0 = q[s + 1], z0 = q[s + 2];
      const L = C.local;
      for (let v = 0, o = 3 * C.vOff; v < C.nv; v++, o += 3) {
        const vx = L[3 * v], vy = L[3 * v + 1], vz = L[3 * v + 2];
        const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
        const sx = x0 + vx + qw * tx + qy * tz - qz * ty, sy = y0 + vy + qw * ty + qz * tx - qx * tz, sz = z0 + vz + qw * tz + qx * ty - qy * tx;
        P0[o] = sx + w * (P1[o] - sx);
        P0[o + 1] = sy + w * (P1[o + 1] - sy);
        P0[o + 2] = sz + w * (P1[o + 2] - sz);
      }
    }
  }

  /** Vertices of dynamic collider c at the end of the sub-step (P1). */
  private ensureP1(c: number): void {
    if (this.dirty1[c]) {
      this.dirty1[c] = 0;
      placeVertices(this.colliders[c], this.pose1, 7 * c, this.P1);
    }
  }

  /** Places the keyframed vertices (props, and the character vertices skinned this step) at fraction f of the step. */
  private placeKeyframed(f: number, out: Float64Array): void {
    const K0 = this.K0, K1 = this.K1;
    if (out === this.P0) this.stepF = f;
    for (let c = this.dynCount; c < this.colliders.length; c++) {
      const C = this.colliders[c];
      if (C.kind !== KIND_PROP) continue;
      const a = 3 * C.vOff, b = a + 3 * C.nv;
      if (f === 1) for (let i = a; i < b; i++) out[i] = K1[i];
      else if (f === 0) for (let i = a; i < b; i++) out[i] = K0[i];
      else for (let i = a; i < b; i++) out[i] = K0[i] + f * (K1[i] - K0[i]);
    }
    const act = this.kfActive;
    for (let k = 0; k < this.kfActiveCount; k++) {
      const o = 3 * act[k];
      for (let i = o; i < o + 3; i++) out[i] = f === 1 ? K1[i] : f === 0 ? K0[i] : K0[i] + f * (K1[i] - K0[i]);
    }
  }

  /** Advances the world by one fixed step. */
  step(): void {
    const h = this.stepSec;
    const t0 = this.timeSec;
    const st = this.bodies.state;
    this.poseKeyframed(this.startTimeSec + (this.stats.steps + 1) * h, this.stats.steps + 1);
    this.stepF = 0;
    this.unresolvedCount = 0;
    // character features of the persistent (resting) contacts are read every sub-step
    for (const pc of this.persist) {
      const A = this.colliders[pc.cA], B = this.colliders[pc.cB];
      if (A.kind === KIND_CHARACTER) {
        if (pc.kind === HitKind.VertexTriangle) this.activateVertex(A, pc.fA);
        else for (let k = 0; k < 2; k++) this.activateVertex(A, A.edges[2 * pc.fA + k]);
      }
      if (B.kind === KIND_CHARACTER) {
        if (pc.kind === HitKind.VertexTriangle) for (let k = 0; k < 3; k++) this.activateVertex(B, B.tris[3 * pc.fB + k]);
        else for (let k = 0; k < 2; k++) this.activateVertex(B, B.edges[2 * pc.fB + k]);
      }
    }
    let f = 0;
    let sub = 0;
    const nd = this.dynCount, live = this.live, active = this.active, saved = this.saved;
    for (;;) {
      this.stats.subSteps++;
      const hs = (1 - f) * h;
      this.placeKeyframed(f, this.P0);
      for (let i = 0; i < nd; i++) {
        active[i] = live[i];
        if (live[i]) for (let s = STATE_STRIDE * i, e = s + STATE_STRIDE; s < e; s++) saved[s] = st[s];
      }
      this.subStep(st, hs, t0 + f * h); // places the live bodies' start positions in P0
      this.placeDone(f);
      if (sub >= MAX_SUBSTEPS) {
        this.stats.budgetExceeded++;
        break;
      }
      this.placeDynamic(st, this.P1);
      this.placeKeyframed(1, this.P1);
      const tau = this.findHits(hs);
      if (tau < 0) break;
      const fNew = Math.min(1, f + tau * (1 - f));
      // per-island macro-backtracking: the islands of the bodies in a hit go back to the start of
      // their sub-step and are re-integrated to the time of first contact; the others keep their
      // tentative end of the step (they move linearly there for detection, and are taken back
      // to the start of their sub-step only if a later hit reaches them)
      this.markInvolved();
      for (let i = 0; i < nd; i++) {
        active[i] = 0;
        if (this.involved[i]) {
          for (let s = STATE_STRIDE * i, e = s + STATE_STRIDE; s < e; s++) st[s] = saved[s];
          if (!live[i]) continue; // done earlier: re-integrated from its own start below
          active[i] = 1;
        } else if (live[i]) {
          live[i] = 0;
          this.doneF0[i] = f;
          this.stats.bodiesKept++;
          // its start of sub-step: the pose its P0 is placed from (the vertices are made when read)
          for (let k = 0; k < 7; k++) this.startPose[7 * i + k] = this.pose0[7 * i + k];
        }
      }
      if (tau > 0) this.subStep(st, tau * hs, t0 + f * h);
      // islands taken back from an earlier start, one start time at a time (ascending)
      for (;;) {
        let f0 = Infinity;
        for (let i = 0; i < nd; i++) if (this.involved[i] && !live[i] && this.doneF0[i] < f0) f0 = this.doneF0[i];
        if (f0 === Infinity) break;
        for (let i = 0; i < nd; i++) {
          active[i] = this.involved[i] && !live[i] && this.doneF0[i] === f0 ? 1 : 0;
          if (active[i]) live[i] = 1;
        }
        this.placeKeyframed(f0, this.P0);
        if (fNew > f0) this.subStep(st, (fNew - f0) * h, t0 + f0 * h);
        else this.placeDynamic(st, this.P0);
      }
      f = fNew;
      for (let i = 0; i < nd; i++) active[i] = live[i];
      this.placeKeyframed(f, this.P0);
      this.placeDynamic(st, this.P0);
      this.resolveImpact(t0 + f * h, tau, hs);
      sub++;
      if (f >= 1) break;
    }
    live.fill(1);
    active.fill(1);
    this.timeSec = this.startTimeSec + (this.stats.steps + 1) * h;
    this.swapKeyframed();
    this.swapped = true;
    this.afterStep(h);
    this.swapped = false;
    this.stats.steps++;
  }

  /**
   * One Störmer–Verlet sub-step of length hs for the active bodies: half
   * kick, resting-contact and joint impulses, drift, joint position
   * correction, half kick.
   */
  private subStep(st: Float64Array, hs: number, timeSec: number): void {
    const B = this.bodies, on = this.active;
    for (let i = 0; i < this.dynCount; i++) if (this.awake[i] && on[i]) B.kickBody(st, i, 0.5 * hs);
    this.dampJoints(st, hs);
    this.placeDynamic(st, this.P0);
    this.solveContacts(st, timeSec, hs, false);
    for (let i = 0; i < this.dynCount; i++) if (this.awake[i] && on[i]) B.driftBody(st, i, hs);
    this.correctJoints(st, false);
    for (let i = 0; i < this.dynCount; i++) if (this.awake[i] && on[i]) B.kickBody(st, i, 0.5 * hs);
  }

  /**
   * Joint friction of the ragdolls: the relative angular velocity ωB − ωA of
   * every joint decays by exp(−c·hs) (c = ragdoll.jointDampingPerSec) through
   * equal and opposite angular impulses ∓J, J = (1 − e^{−c·hs}) K⁻¹ (ωB − ωA),
   * K = I_A⁻¹ + I_B⁻¹. Total linear and angular momentum are kept and the
   * kinetic energy can only drop; applied before the solve, like a force, so
   * the joints and contacts of the solve still hold. Without it a limb held by
   * two ball joints (the neck, a foot on its ankle) spins about the line
   * through them for ever and the ragdoll never sleeps.
   */
  private dampJoints(st: Float64Array, hs: number): void {
    const c = this.jointDamping;
    if (c <= 0 || this.joints.length === 0) return;
    const f = 1 - exp(-c * hs);
    const B = this.bodies, on = this.active;
    if (this.dampStamp.length < this.dynCount) {
      this.dampStamp = new Float64Array(this.dynCount);
      this.dampI9 = new Float64Array(9 * this.dynCount);
    }
    const stamp = ++this.dampCall;
    for (const j of this.joints) {
      const a = j.bodyA, b = j.bodyB;
      if (!this.awake[a] || !this.awake[b] || !on[a] || !on[b]) continue;
      B.angularVelocity(st, a, _a);
      B.angularVelocity(st, b, _b);
      const dx = _b[0] - _a[0], dy = _b[1] - _a[1], dz = _b[2] - _a[2];
      if (dx * dx + dy * dy + dz * dz === 0) continue;
      // K = I_A⁻¹ + I_B⁻¹ column by column (each body's columns made once per call: the orientations do not change here)
      const ia = this.dampInvInertia(st, a, stamp), ib = this.dampInvInertia(st, b, stamp), D = this.dampI9;
      for (let k = 0; k < 9; k++) _k9[k] = D[ia + k] + D[ib + k];
      // x = K⁻¹ Δω by Cramer's rule (K symmetric positive definite)
      const k0 = _k9[0], k1 = _k9[1], k2 = _k9[2], k3 = _k9[3], k4 = _k9[4], k5 = _k9[5], k6 = _k9[6], k7 = _k9[7], k8 = _k9[8];
      const c0 = k4 * k8 - k7 * k5, c1 = k7 * k2 - k1 * k8, c2 = k1 * k5 - k4 * k2;
      const det = k0 * c0 + k3 * c1 + k6 * c2;
      if (!(det > 0)) continue;
      const x = (c0 * dx + (k6 * k5 - k3 * k8) * dy + (k3 * k7 - k6 * k4) * dz) / det;
      const y = (c1 * dx + (k0 * k8 - k6 * k2) * dy + (k6 * k1 - k0 * k7) * dz) / det;
      const z = (c2 * dx + (k3 * k2 - k0 * k5) * dy + (k0 * k4 - k3 * k1) * dz) / det;
      const sa = STATE_STRIDE * a + 10, sb = STATE_STRIDE * b + 10;
      st[sa] += f * x;
      st[sa + 1] += f * y;
      st[sa + 2] += f * z;
      st[sb] -= f * x;
      st[sb + 1] -= f * y;
      st[sb + 2] -= f * z;
    }
  }

  /** dampJoints' call count, the call that made each body's I_world⁻¹ columns, and the columns (9 a body). */
  private dampCall = 0;
  private dampStamp = new Float64Array(0);
  private dampI9 = new Float64Array(0);

  /** Offset in dampI9 of body i's I_world⁻¹ columns (invInertiaTimes of the unit axes), made on the first ask of call `stamp`. */
  private dampInvInertia(st: Float64Array, i: number, stamp: number): number {
    const o = 9 * i;
    if (this.dampStamp[i] === stamp) return o;
    this.dampStamp[i] = stamp;
    const D = this.dampI9;
    for (let k = 0; k < 3; k++) {
      this.invInertiaTimes(st, i, k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0, _c);
      D[o + 3 * k] = _c[0];
      D[o + 3 * k + 1] = _c[1];
      D[o + 3 * k + 2] = _c[2];
    }
    return o;
  }

  /** out = I_world⁻¹ · (x, y, z) for body i. */
  private invInertiaTimes(st: Float64Array, i: number, x: number, y: number, z: number, out: Float64Array): void {
    const s = STATE_STRIDE * i + 3, m = this.bodies.moments;
    rotateInvF64(_e, st, s, x, y, z);
    rotateF64(out, 0, st, s, _e[0] / m[3 * i], _e[1] / m[3 * i + 1], _e[2] / m[3 * i + 2]);
  }

  /** Vertices of the bodies already at the end of the step, at fraction f of it (linear from their start of sub-step). */
  private placeDone(f: number): void {
    for (let i = 0; i < this.dynCount; i++) {
      if (this.live[i]) continue;
      const f0 = this.doneF0[i];
      const w = f0 >= 1 ? 1 : (f - f0) / (1 - f0);
      // placed when first read (ensureP0): most kept bodies are not read before the next sub-step
      this.doneW[i] = w;
      this.dirty0[i] = 2;
    }
  }

  /**
   * `involved[i]` for every body in an island (joints, persistent contacts
   * between dynamic bodies, the hits of this detection pass) with a body in
   * a hit of this pass.
   */
  private markInvolved(): void {
    const nd = this.dynCount, inv = this.involved;
    if (this.ufParent.length < nd) this.ensureSolveBuffers(0);
    const P = this.ufParent;
    for (let i = 0; i < nd; i++) {
      P[i] = i;
      inv[i] = 0;
    }
    for (const j of this.joints) this.ufUnion(j.bodyA, j.bodyB);
    for (const pc of this.persist) {
      const a = this.colliders[pc.cA], b = this.colliders[pc.cB];
      if (a.kind === KIND_DYNAMIC && b.kind === KIND_DYNAMIC) this.ufUnion(a.body, b.body);
    }
    const I = this.hitI;
    for (let k = 0; k < this.hitCount; k++) {
      const a = I[4 * k], b = I[4 * k + 2];
      if (a >= 0 && a < nd && b >= 0 && b < nd) this.ufUnion(a, b);
    }
    for (let k = 0; k < this.hitCount; k++) {
      const a = I[4 * k], b = I[4 * k + 2];
      if (a >= 0 && a < nd) inv[this.ufFind(a)] = 1;
      if (b >= 0 && b < nd) inv[this.ufFind(b)] = 1;
    }
    for (let i = 0; i < nd; i++) if (inv[this.ufFind(i)]) inv[i] = 1;
  }

  /**
   * Position-level joint correction, a few Gauss–Seidel sweeps: ball-joint
   * anchors pulled together (mass-weighted translation) after every drift;
   * with `limits` (once per step, after it, like the ground projection, so
   * the jumps are not mistaken for motion by the continuous detection) cone
   * and twist limits restored first by rotating the two bodies about the
   * joint point (the anchors stay together), split by their inverse inertia
   * about the rotation axis, both turns scaled so that no part vertex near a
   * closed keyframed mesh face crosses it (turnScale). Momenta are kept.
   */
  private correctJoints(st: Float64Array, limits: boolean): void {
    const J = this.joints;
    if (J.length === 0) return;
    // limits first (rotations about the joint points), then the anchors, which the limit
    // corrections of neighbouring joints disturb; the last sweep pulls anchors only
    const on = this.active;
    // a limit sweep that turns nothing leaves the orientations, hence the limits, as they are
    // (the anchor corrections only translate): the later limit sweeps would find nothing either
    let turn = limits;
    // a joint whose check found both limits held (no excess: orientations only) finds them held
    // again until a limit turn moves one of its bodies: its later checks are passed over
    // (limitClean: the check's number in limitSeq; limitTurned: a body's last turn's)
    if (limits && this.limitClean.length < J.length) this.limitClean = new Float64Array(J.length);
    if (limits && this.limitTurned.length < this.dynCount) this.limitTurned = new Float64Array(this.dynCount);
    const LC = this.limitClean, LT = this.limitTurned;
    if (limits) LC.fill(-1);
    for (let sweep = 0; sweep < 4; sweep++) {
      let turned = false;
      if (turn && sweep < 3) {
        turn = false;
        for (let k = 0; k < J.length; k++) {
          const jk = J[k];
          if (!on[jk.bodyA]) continue;
          const lc = LC[k];
          if (lc >= 0 && LT[jk.bodyA] < lc && LT[jk.bodyB] < lc) continue;
          const r = this.correctLimits(st, jk);
          if (r === LIMITS_TURNED) {
            turn = true;
            LT[jk.bodyA] = LT[jk.bodyB] = ++this.limitSeq;
            LC[k] = -1;
          } else LC[k] = r === LIMITS_HELD ? ++this.limitSeq : -1;
        }
        turned = turn;
      }
      if (sweep === 0 || turned) {
        this.measureClearance(st);
        // the anchor pulls only translate: the anchors turned by the orientations now serve all
        // their pulls until a limit sweep turns a body again
        for (let k = 0; k < J.length; k++) if (on[J[k].bodyA]) this.turnAnchors(st, J[k]);
      }
      for (let k = 0; k < J.length; k++) if (on[J[k].bodyA]) this.pullAnchors(st, J[k]);
      for (let k = J.length - 1; k >= 0; k--) if (on[J[k].bodyA]) this.pullAnchors(st, J[k]);
    }
  }

  /**
   * Lowest vertex height of dynamic collider c in state st if it is below
   * `limit`; otherwise some height at or above `limit` and at or below the
   * lowest vertex (its box bottom when that is clear of the ground or the limit).
   */
  private lowestY(st: Float64Array, c: number, limit = Infinity): number {
    const C = this.colliders[c];
    // the bottom of the body's oriented box (orientedBoxInto's numbers for that side only)
    const bottom = orientedBottomY(C.lbox, st, STATE_STRIDE * C.body);
    if (bottom > this.groundY! || bottom >= limit) return bottom;
    const s = STATE_STRIDE * C.body;
    const qx = st[s + 3], qy = st[s + 4], qz = st[s + 5], qw = st[s + 6];
    const CL = C.chunkLocal, CV = C.chunkVerts, CS = C.chunkStart, CH = C.chunkSphere;
    const nc = CS.length - 1;
    // second row of the rotation matrix, once (chunkLowY's numbers: the same expression per chunk)
    const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
    const py = st[s + 1];
    const cut = limit - py;
    // the same orientation as at this body's last full answer (only translated since, as the joint
    // anchor corrections do): its lowest vertex is the same. Taken when the scan below would reach
    // its chunk (the chunk's bound below py + min(minY, cut) for any minY at or above that vertex's
    // height): the scan then sets minY to its height, as the only vertex of that height
    // (projectRagdollGround's limit below the ground included: then the answer is at least the limit)
    if (this.lowQ.length < 4 * this.dynCount) {
      this.lowQ = new Float64Array(4 * this.dynCount);
      this.lowM = new Float64Array(this.dynCount);
      this.lowV = new Int32Array(this.dynCount).fill(-1);
    }
    const LQ = this.lowQ, lq = 4 * c, lv = this.lowV[c];
    if (lv >= 0 && Object.is(LQ[lq], qx) && Object.is(LQ[lq + 1], qy) && Object.is(LQ[lq + 2], qz) && Object.is(LQ[lq + 3], qw)) {
      const m = this.lowM[c], o = 4 * C.chunkOf[lv];
      if (py + r10 * CH[o] + r11 * CH[o + 1] + r12 * CH[o + 2] - CH[o + 3] < py + (m < cut ? m : cut)) {
        this.lowVertex = lv;
        const y = st[s + 1] + m;
        return y < limit ? y : Math.max(limit, y);
      }
    }
    const CB = C.chunkBox, a10 = Math.abs(r10), a11 = Math.abs(r11), a12 = Math.abs(r12);
    const tol = 1e-9 * (C.radius + 1e-3);
    // another orientation: the last lowest vertex's height now (the scan's numbers) is at or above
    // the answer, so the scan starts from it and passes over every chunk and vertex the bounds keep
    // above it (as the scan below does for its running minimum). When it ends below the cut with one
    // vertex at the lowest height, that is the answer the scan below gives (the same bounds see
    // every vertex at or below it; the lowest vertex is unique): taken. Else the scan below.
    if (lv >= 0) {
      const L = C.local, ol = 3 * lv;
      const sx = L[ol], sy = L[ol + 1], sz = L[ol + 2];
      const stx = 2 * (qy * sz - qz * sy), stz = 2 * (qx * sy - qy * sx);
      let minY = sy + qw * (2 * (qz * sx - qx * sz)) + qz * stx - qx * stz;
      if (minY < cut) {
        let lowest = lv, ties = 1;
        // the part's low set (gatherTouching's) when it holds every vertex whose row height passes
        // the test below (r1 · v − tol < minY, minY never rising): the same vertices in the same order
        const useSet = this.lowSetCovers(c, r10, r11, r12, minY + tol);
        const SI = this.lowSetI, SK = this.lowSetK, e0 = C.vOff, e1 = useSet ? e0 + this.lowSetN[c] : e0 - 1;
        for (let e = e0, k = useSet ? -1 : 0, kPrev = -1; useSet ? e < e1 : k < nc; useSet ? e++ : k++) {
          let i0 = 0, i1 = 0;
          if (useSet) {
            k = SK[e];
            if (k === kPrev) continue; // its chunk's set vertices were read with the first
            kPrev = k;
          }
          const o = 4 * k;
          if (!(py + r10 * CH[o] + r11 * CH[o + 1] + r12 * CH[o + 2] - CH[o + 3] < py + minY)) continue;
          const b = 6 * k;
          if (r10 * CB[b] + r11 * CB[b + 1] + r12 * CB[b + 2] - (a10 * CB[b + 3] + a11 * CB[b + 4] + a12 * CB[b + 5]) - tol >= minY) continue;
          if (useSet) {
            i0 = e;
            i1 = e + 1;
            while (i1 < e1 && SK[i1] === k) i1++;
          } else {
            i0 = CS[k];
            i1 = CS[k + 1];
          }
          for (let n = i0; n < i1; n++) {
            const i = useSet ? SI[n] : n;
            const vx = CL[3 * i], vy = CL[3 * i + 1], vz = CL[3 * i + 2];
            if (r10 * vx + r11 * vy + r12 * vz - tol >= minY) continue;
            const v = CV[i];
            if (v === lv) continue; // the starting vertex, counted once
            const tx = 2 * (qy * vz - qz * vy), tz = 2 * (qx * vy - qy * vx);
            const y = vy + qw * (2 * (qz * vx - qx * vz)) + qz * tx - qx * tz;
            if (y < minY) {
              minY = y;
              lowest = v;
              ties = 1;
            } else if (y === minY) ties++;
          }
        }
        if (ties === 1) {
          this.lowVertex = lowest;
          LQ[lq] = qx;
          LQ[lq + 1] = qy;
          LQ[lq + 2] = qz;
          LQ[lq + 3] = qw;
          this.lowM[c] = minY;
          this.lowV[c] = lowest;
          const y = st[s + 1] + minY;
          return y < limit ? y : Math.max(limit, y);
        }
      }
    }
    // chunks by the bound of their height: the lowest-bounded first, then only those that can be lower
    const low = this.scratchChunkLow(nc);
    let first = 0;
    for (let k = 0; k < nc; k++) {
      const o = 4 * k;
      low[k] = py + r10 * CH[o] + r11 * CH[o + 1] + r12 * CH[o + 2] - CH[o + 3];
      if (low[k] < low[first]) first = k;
    }
    let minY = Infinity, ties = 0, lowest = -1;
    // a vertex's height from the row (r1 · v, the same polynomial in q and v as the quaternion
    // rotation's, rounded differently by far less than tol) rules out the vertices that cannot be
    // lower than minY; the others get the exact height as before
    for (let kk = -1; kk < nc; kk++) {
      const k = kk < 0 ? first : kk;
      if (kk === first || !(low[k] < py + (minY < cut ? minY : cut))) continue;
      // a chunk whose box keeps every vertex above minY cannot lower it (the sphere may reach lower)
      const b = 6 * k;
      if (r10 * CB[b] + r11 * CB[b + 1] + r12 * CB[b + 2] - (a10 * CB[b + 3] + a11 * CB[b + 4] + a12 * CB[b + 5]) - tol >= minY) continue;
      for (let i = CS[k]; i < CS[k + 1]; i++) {
        const vx = CL[3 * i], vy = CL[3 * i + 1], vz = CL[3 * i + 2];
        if (r10 * vx + r11 * vy + r12 * vz - tol >= minY) continue;
        const tx = 2 * (qy * vz - qz * vy), tz = 2 * (qx * vy - qy * vx);
        const y = vy + qw * (2 * (qz * vx - qx * vz)) + qz * tx - qx * tz;
        if (y < minY) {
          minY = y;
          lowest = CV[i];
          ties = 1;
        } else if (y === minY) ties++;
      }
    }
    if (lowest >= 0) this.lowVertex = lowest;
    // below the cut the scan saw every vertex that could be as low (the others were ruled out as
    // higher): minY is the lowest height of all, kept for this orientation when one vertex has it
    // (an answer above the cut leaves the kept one: it is for its own orientation)
    if (minY < cut && ties === 1) {
      LQ[lq] = qx;
      LQ[lq + 1] = qy;
      LQ[lq + 2] = qz;
      LQ[lq + 3] = qw;
      this.lowM[c] = minY;
      this.lowV[c] = lowest;
    }
    const y = st[s + 1] + minY;
    return y < limit ? y : Math.max(limit, y);
  }

  /** Per dynamic body: the orientation of its last lowestY answer below the cut with one lowest vertex, that height (relative to the centre) and vertex; lowV −1 none. */
  private lowQ = new Float64Array(0);
  private lowM = new Float64Array(0);
  private lowV = new Int32Array(0);

  /** Per dynamic body: height of its lowest vertex above the ground (+∞ far from it), kept by the joint anchor corrections. */
  private clearance = new Float64Array(0);

  /** clearance of the active ragdoll parts (exact within the speculative band of the ground, else some larger height). */
  private measureClearance(st: Float64Array): void {
    if (this.clearance.length < this.dynCount) this.clearance = new Float64Array(this.dynCount).fill(Infinity);
    this.measureMeshLimits(st);
    if (this.groundY === null) return;
    const g = this.groundY, band = 0.05;
    // once per part (a part is in several joints)
    const seen = (this._clearStamp = grown(this._clearStamp, this.dynCount)), stamp = ++this._clearPass;
    for (const j of this.joints) {
      for (let k = 0; k < 2; k++) {
        const i = k === 0 ? j.bodyA : j.bodyB;
        if (seen[i] === stamp || !this.active[i] || !this.colliders[i].groups) continue;
        seen[i] = stamp;
        this.clearance[i] = this.lowestY(st, i, g + band) - g;
      }
    }
  }

  private _clearStamp = new Uint32Array(0);
  private _clearPass = 0;

  /**
   * Keyframed meshes as one-sided limits of the joint anchor corrections
   * (like the ground): per active ragdoll part, the planes of the limiting
   * faces (gatherLimitFaces: closed keyframed props, and the skinned parts of
   * closed keyframed character meshes; end-of-step pose) that one of its vertices lies
   * near (within MESH_BAND in front, MESH_BAND_IN behind, its projection on
   * the face inside the triangle), with that vertex's signed distance.
   * meshOff accumulates the part's translations since, so a limit's distance
   * is s + n · meshOff.
   */
  private meshCons = new Float64Array(64);
  private meshConsStart = new Int32Array(0);
  private meshConsEnd = new Int32Array(0);
  private meshOff = new Float64Array(0);

  private measureMeshLimits(st: Float64Array): void {
    const n = this.dynCount;
    if (this.meshConsStart.length < n) {
      this.meshConsStart = new Int32Array(n);
      this.meshConsEnd = new Int32Array(n);
      this.meshOff = new Float64Array(3 * n);
    }
    this.meshConsStart.fill(0);
    this.meshConsEnd.fill(0);
    this.meshOff.fill(0);
    if (!this.meshLimits) return;
    // no face to limit by (no closed keyframed prop, no skinned part of a closed keyframed
    // character in this step): every part's list stays empty, as the gathering would leave it
    if (!this.limitUnion()) return;
    const band = MESH_BAND, bandIn = MESH_BAND_IN;
    let m = 0;
    for (const j of this.joints) {
      for (let k = 0; k < 2; k++) {
        const i = k === 0 ? j.bodyA : j.bodyB;
        const A = this.colliders[i];
        if (!this.active[i] || !A.groups || this.meshConsEnd[i] > this.meshConsStart[i] || this.meshConsEnd[i] < 0) continue;
        this.meshConsStart[i] = m;
        this.meshConsEnd[i] = -1; // visited
        const s = STATE_STRIDE * i;
        const cx = st[s], cy = st[s + 1], cz = st[s + 2], r = this.bodySize[i] + band;
        const nf = this.gatherLimitFaces(i, cx, cy, cz, r), LF = this._lf;
        if (nf > 0) {
          this.placeTurnVerts(st, i);
          this.placeChunks(st, i);
        }
        const W = this._turnVerts, CW = this._chunkW, CS = A.chunkStart, CV = A.chunkVerts, nch = CS.length - 1;
        // the box of the chunks' spheres (holds every vertex): centre and half extents
        let ux0 = Infinity, uy0 = Infinity, uz0 = Infinity, ux1 = -Infinity, uy1 = -Infinity, uz1 = -Infinity;
        if (nf > 0)
          for (let ch = 0; ch < nch; ch++) {
            const sx = CW[4 * ch], sy = CW[4 * ch + 1], sz = CW[4 * ch + 2], sr = CW[4 * ch + 3];
            if (sx - sr < ux0) ux0 = sx - sr;
            if (sx + sr > ux1) ux1 = sx + sr;
            if (sy - sr < uy0) uy0 = sy - sr;
            if (sy + sr > uy1) uy1 = sy + sr;
            if (sz - sr < uz0) uz0 = sz - sr;
            if (sz + sr > uz1) uz1 = sz + sr;
          }
        const ucx = 0.5 * (ux0 + ux1), ucy = 0.5 * (uy0 + uy1), ucz = 0.5 * (uz0 + uz1);
        const uhx = 0.5 * (ux1 - ux0), uhy = 0.5 * (uy1 - uy0), uhz = 0.5 * (uz1 - uz0);
        for (let f = 0; f < nf; f++) {
          {
            const fo = LF_STRIDE * f;
            const nx = LF[fo + 9], ny = LF[fo + 10], nz = LF[fo + 11];
            if (nx !== nx) continue; // degenerate face
            const ax = LF[fo], ay = LF[fo + 1], az = LF[fo + 2];
            const bx = LF[fo + 3], by = LF[fo + 4], bz = LF[fo + 5];
            const qcx = LF[fo + 6], qcy = LF[fo + 7], qcz = LF[fo + 8];
            const sc = nx * (cx - ax) + ny * (cy - ay) + nz * (cz - az);
            if (sc > r || sc < -r) continue;
            // a vertex within the band whose projection is inside the triangle lies in the triangle's box grown by the band
            const bx0 = Math.min(ax, bx, qcx) - band, bx1 = Math.max(ax, bx, qcx) + band;
            const by0 = Math.min(ay, by, qcy) - band, by1 = Math.max(ay, by, qcy) + band;
            const bz0 = Math.min(az, bz, qcz) - band, bz1 = Math.max(az, bz, qcz) + band;
            // culls that pass over no vertex the loops below would take (each chunk sphere's box lies
            // in the union box): the union box misses the grown face box, or its slab along the
            // normal (padded for rounding) misses [-bandIn, band]
            if (ux1 < bx0 || ux0 > bx1 || uy1 < by0 || uy0 > by1 || uz1 < bz0 || uz0 > bz1) continue;
            const du = nx * (ucx - ax) + ny * (ucy - ay) + nz * (ucz - az);
            const dr = (nx < 0 ? -nx : nx) * uhx + (ny < 0 ? -ny : ny) * uhy + (nz < 0 ? -nz : nz) * uhz;
            const pad = 1e-9 * (1 + (du < 0 ? -du : du) + dr);
            if (du - dr - pad > band || du + dr + pad < -bandIn) continue;
            for (let ch = 0; ch < nch; ch++) {
              const sx = CW[4 * ch], sy = CW[4 * ch + 1], sz = CW[4 * ch + 2], sr = CW[4 * ch + 3];
              if (sx + sr < bx0 || sx - sr > bx1 || sy + sr < by0 || sy - sr > by1 || sz + sr < bz0 || sz - sr > bz1) continue;
              for (let n = CS[ch]; n < CS[ch + 1]; n++) {
              const v = CV[n];
              const px = W[3 * v], py = W[3 * v + 1], pz = W[3 * v + 2];
              if (px < bx0 || px > bx1 || py < by0 || py > by1 || pz < bz0 || pz > bz1) continue;
              const d = nx * (px - ax) + ny * (py - ay) + nz * (pz - az);
              if (d > band || d < -bandIn) continue;
              const ux = px - d * nx, uy = py - d * ny, uz = pz - d * nz;
              if (!inTri(ux, uy, uz, ax, ay, az, bx, by, bz, nx, ny, nz)) continue;
              if (!inTri(ux, uy, uz, bx, by, bz, qcx, qcy, qcz, nx, ny, nz)) continue;
              if (!inTri(ux, uy, uz, qcx, qcy, qcz, ax, ay, az, nx, ny, nz)) continue;
              this.meshCons = grown(this.meshCons, 4 * (m + 1));
              const M = this.meshCons;
              M[4 * m] = nx;
              M[4 * m + 1] = ny;
              M[4 * m + 2] = nz;
              M[4 * m + 3] = d;
              m++;
              }
            }
          }
        }
        this.meshConsEnd[i] = m;
      }
    }
  }

  /**
   * The faces that limit dynamic body i's position corrections whose boxes
   * reach the sphere (c, r), into _lf (LF_STRIDE numbers each: the three
   * corners, the unit normal (NaN when degenerate), the collider): the faces of closed keyframed prop meshes (end-of-step
   * pose) and those of closed, outward-wound keyframed character meshes in
   * the body parts skinned for this step (the detection skins the parts a
   * dynamic body's box reaches; their end-of-step positions are in K1, in K0
   * after the step's swap). Pairs that may not collide (masks, ignore rules)
   * are left out. Returns the count.
   */
  private gatherLimitFaces(i: number, cx: number, cy: number, cz: number, r: number): number {
    if (!this.limitUnion()) return 0;
    const U = this._limitU;
    // a sphere missing the union of the boxes tested below misses each of them
    if (cx + r < U[0] || cx - r > U[3] || cy + r < U[1] || cy - r > U[4] || cz + r < U[2] || cz - r > U[5]) return 0;
    let nf = 0;
    const A = this.colliders[i], ja = A.parts[0].joint;
    for (let c = this.dynCount; c < this.colliders.length; c++) {
      const M = this.colliders[c];
      const character = M.kind === KIND_CHARACTER;
      if (!M.outward) continue;
      if (character) {
        // no part skinned in this step, or the sphere misses all their boxes: no face (the part loop skips them all)
        if (M.activeParts.length === 0) continue;
        const U = this.activeBox(M);
        if (cx + r < U[0] || cx - r > U[3] || cy + r < U[1] || cy - r > U[4] || cz + r < U[2] || cz - r > U[5]) continue;
      } else {
        // every face's box lies in the prop's: a sphere missing it reaches none (the ball's 720 faces were scanned per call)
        const B = this.propK1Box, bo = 6 * c;
        if (cx + r < B[bo] || cx - r > B[bo + 3] || cy + r < B[bo + 1] || cy - r > B[bo + 4] || cz + r < B[bo + 2] || cz - r > B[bo + 5]) continue;
      }
      if (!this.mayCollide(i, c)) continue;
      const K = character && this.swapped ? this.K0 : this.K1, S = this.swapped ? this.kStamp0 : this.kStamp1, ti = this.kfTimeIndex;
      const T = M.tris, o = M.vOff;
      const np = character ? M.activeParts.length : 1;
      for (let q = 0; q < np; q++) {
        let list: Uint32Array | null = null;
        if (character) {
          const p = M.activeParts[q];
          if (!this.partActive(p)) continue;
          // the part's box (swept over the last sub-step, so holding its end-of-step pose) against the sphere's
          const pb = p.box;
          if (cx + r < pb[0] || cx - r > pb[3] || cy + r < pb[1] || cy - r > pb[4] || cz + r < pb[2] || cz - r > pb[5]) continue;
          if (this.ignore.length && this.ignoredParts(A, ja, M, p.joint)) continue;
          list = p.tris;
        }
        const nt = list ? list.length : T.length / 3;
        for (let k = 0; k < nt; k++) {
          const t = 3 * (list ? list[k] : k);
          const va = o + T[t], vb = o + T[t + 1], vc = o + T[t + 2];
          if (character && (S[va] !== ti || S[vb] !== ti || S[vc] !== ti)) continue;
          const ia = 3 * va, ib = 3 * vb, ic = 3 * vc;
          const ax = K[ia], ay = K[ia + 1], az = K[ia + 2];
          const bx = K[ib], by = K[ib + 1], bz = K[ib + 2];
          const ex = K[ic], ey = K[ic + 1], ez = K[ic + 2];
          // sphere against the triangle's box
          if (cx + r < Math.min(ax, bx, ex) || cx - r > Math.max(ax, bx, ex)) continue;
          if (cy + r < Math.min(ay, by, ey) || cy - r > Math.max(ay, by, ey)) continue;
          if (cz + r < Math.min(az, bz, ez) || cz - r > Math.max(az, bz, ez)) continue;
          this._lf = grown(this._lf, LF_STRIDE * (nf + 1));
          const F = this._lf, fo = LF_STRIDE * nf++;
          F[fo] = ax;
          F[fo + 1] = ay;
          F[fo + 2] = az;
          F[fo + 3] = bx;
          F[fo + 4] = by;
          F[fo + 5] = bz;
          F[fo + 6] = ex;
          F[fo + 7] = ey;
          F[fo + 8] = ez;
          // unit normal (NaN for a face too small to have one: every user skips it)
          const e1x = bx - ax, e1y = by - ay, e1z = bz - az, e2x = ex - ax, e2y = ey - ay, e2z = ez - az;
          const mx = e1y * e2z - e1z * e2y, my = e1z * e2x - e1x * e2z, mz = e1x * e2y - e1y * e2x;
          const ml = hypot3(mx, my, mz);
          if (ml > 1e-15) {
            F[fo + 9] = mx / ml;
            F[fo + 10] = my / ml;
            F[fo + 11] = mz / ml;
          } else F[fo + 9] = F[fo + 10] = F[fo + 11] = NaN;
          F[fo + 12] = c;
        }
      }
    }
    return nf;
  }

  private _lf = new Float64Array(64 * LF_STRIDE);

  /**
   * Whether some keyframed collider gives limiting faces (a closed outward prop, or a closed
   * outward character mesh with parts skinned in this step); then _limitU is the union of the boxes
   * gatherLimitFaces tests a sphere against first (the props' end-of-step boxes, the characters'
   * active-part unions), or all space when one of them has a NaN side (which reaches every
   * sphere there). Kept while the step (kfTimeIndex: the props' boxes) and the part boxes
   * (boxVersion: the active-part unions and lists) stay.
   */
  private limitUnion(): boolean {
    if (this._limitUStep !== this.kfTimeIndex || this._limitUVersion !== this.boxVersion) {
      this._limitUStep = this.kfTimeIndex;
      this._limitUVersion = this.boxVersion;
      const U = this._limitU;
      emptyBox(U);
      let source = false, nan = false;
      for (let c = this.dynCount; c < this.colliders.length; c++) {
        const M = this.colliders[c];
        if (!M.outward) continue;
        let B: Float64Array, bo = 0;
        if (M.kind === KIND_CHARACTER) {
          if (M.activeParts.length === 0) continue;
          B = this.activeBox(M);
        } else {
          B = this.propK1Box;
          bo = 6 * c;
        }
        source = true;
        for (let k = 0; k < 3; k++) {
          const lo = B[bo + k], hi = B[bo + 3 + k];
          if (lo !== lo || hi !== hi) nan = true;
          if (lo < U[k]) U[k] = lo;
          if (hi > U[3 + k]) U[3 + k] = hi;
        }
      }
      if (nan) {
        U[0] = U[1] = U[2] = -Infinity;
        U[3] = U[4] = U[5] = Infinity;
      }
      this._limitUSource = source;
    }
    return this._limitUSource;
  }

  private _limitU = new Float64Array(6);
  private _limitUStep = -1;
  private _limitUVersion = -1;
  private _limitUSource = false;

  /** Bumped whenever a part box (exactPartBox) or a character's active part list changes. */
  private boxVersion = 0;

  /** Union of the boxes of character collider M's active parts (kept until a part box or the list changes). */
  private activeBox(M: Collider): Float64Array {
    const U = M.activeUnion;
    if (M.activeUnionStamp !== this.boxVersion) {
      M.activeUnionStamp = this.boxVersion;
      emptyBox(U);
      const act = M.activeParts;
      for (let q = 0; q < act.length; q++) {
        const b = act[q].box;
        for (let c = 0; c < 3; c++) {
          if (b[c] < U[c]) U[c] = b[c];
          if (b[3 + c] > U[3 + c]) U[3 + c] = b[3 + c];
        }
      }
    }
    return U;
  }

  /** Largest fraction (≤ 1) of translation (dx, dy, dz) of body i keeping its vertices near keyframed meshes from crossing their faces. */
  private meshScale(i: number, dx: number, dy: number, dz: number): number {
    const M = this.meshCons, O = this.meshOff;
    let sc = 1;
    for (let k = this.meshConsStart[i]; k < this.meshConsEnd[i]; k++) {
      const nx = M[4 * k], ny = M[4 * k + 1], nz = M[4 * k + 2];
      const dn = nx * dx + ny * dy + nz * dz;
      if (!(dn < 0)) continue;
      const d = Math.max(M[4 * k + 3] + nx * O[3 * i] + ny * O[3 * i + 1] + nz * O[3 * i + 2] - MESH_CLEARANCE, 0);
      if (dn < -d) sc = Math.min(sc, d / -dn);
    }
    return sc;
  }

  /** The vertex of the last lowestY whose height it returned exactly (below its limit). */
  private lowVertex = -1;

  /**
   * Ground projection of a ragdoll (position level, after the joint
   * correction): only the parts that penetrate move, each by a position
   * impulse at its deepest vertex along the ground normal (nonlinear
   * Gauss–Seidel: the part is translated by λ/m and turned by I⁻¹(r × n)λ
   * about its centre of mass, λ = depth / (1/m + (r × n)·I⁻¹(r × n)), so the
   * vertex rises by the depth), then the joint anchors are pulled together
   * again (mass-weighted translations, which keep the pair's centre of mass
   * and so its potential energy); a few rounds, the last one ending with the
   * ground. The potential energy raised is g·Σλ, at most the weight of each
   * moved part times its depth: never the whole ragdoll lifted by the
   * deepest part's depth. Momenta are kept.
   */
  private projectRagdollGround(st: Float64Array, obj: SimObject): void {
    const g = this.groundY!, tol = 1e-5;
    const J = this.joints, im = this.bodies.invMass;
    for (let round = 0; round < 4; round++) {
      let moved = false;
      for (const i of obj.bodies) {
        if (!this.colliders[i].groups || !this.awake[i]) continue;
        // a few position impulses per part: a turn can bring another vertex lowest
        for (let it = 0; it < 3; it++) {
          this.lowVertex = -1;
          const y = this.lowestY(st, i, g - tol);
          if (!(y < g - tol) || this.lowVertex < 0) break;
          const C = this.colliders[i], s = STATE_STRIDE * i, v = this.lowVertex;
          rotateF64(_e, 0, st, s + 3, C.local[3 * v], C.local[3 * v + 1], C.local[3 * v + 2]);
          // r × n for n = +y: (−r_z, 0, r_x)
          const ax = -_e[2], az = _e[0];
          const len = Math.sqrt(ax * ax + az * az);
          const depth = g - y;
          const iI = len > 1e-12 ? this.invInertiaAbout(st, i, ax / len, 0, az / len) : 0;
          const lambda = depth / (im[i] + len * len * iI);
          st[s + 1] += lambda * im[i];
          if (len > 1e-12) this.rotateAbout(st, i, st[s], st[s + 1], st[s + 2], ax / len, 0, az / len, iI * len * lambda);
          moved = true;
        }
      }
      if (!moved) break;
      this.measureClearance(st);
      for (let k = 0; k < J.length; k++) if (obj.bodies.includes(J[k].bodyA)) this.correctAnchor(st, J[k]);
      for (let k = J.length - 1; k >= 0; k--) if (obj.bodies.includes(J[k].bodyA)) this.correctAnchor(st, J[k]);
    }
  }

  private _chunkLow = new Float64Array(64);
  private scratchChunkLow(n: number): Float64Array {
    return (this._chunkLow = grown(this._chunkLow, n));
  }

  private _chunkPass = new Uint8Array(64);
  private scratchChunkPass(n: number): Uint8Array {
    return (this._chunkPass = grown(this._chunkPass, n));
  }

  /**
   * Per joint: the orientations of its two bodies its anchors were last
   * turned by (4 numbers each) and the turned anchors (3 each): the anchor
   * sweeps translate the bodies, so most corrections turn the same anchors by
   * the same orientations again.
   */
  private anchorQ = new Float64Array(0);
  private anchorR = new Float64Array(0);

  /** _a (j === A side) or _b: anchor r of joint k turned by the orientation at st[s + 3..], kept per orientation. */
  private turnedAnchor(out: Float64Array, k: number, side: number, st: Float64Array, s: number, r: Float64Array): void {
    if (this.anchorQ.length < 8 * this.joints.length) {
      this.anchorQ = new Float64Array(8 * this.joints.length).fill(NaN);
      this.anchorR = new Float64Array(6 * this.joints.length);
    }
    const Q = this.anchorQ, R = this.anchorR, q = 8 * k + 4 * side, o = 6 * k + 3 * side;
    if (!(Object.is(Q[q], st[s + 3]) && Object.is(Q[q + 1], st[s + 4]) && Object.is(Q[q + 2], st[s + 5]) && Object.is(Q[q + 3], st[s + 6]))) {
      rotateF64(R, o, st, s + 3, r[0], r[1], r[2]);
      Q[q] = st[s + 3];
      Q[q + 1] = st[s + 4];
      Q[q + 2] = st[s + 5];
      Q[q + 3] = st[s + 6];
    }
    out[0] = R[o];
    out[1] = R[o + 1];
    out[2] = R[o + 2];
  }

  /** Pulls a ball joint's anchors together (mass-weighted translation). */
  private correctAnchor(st: Float64Array, j: SimJoint): boolean {
    this.turnAnchors(st, j);
    return this.pullAnchors(st, j);
  }

  /** Turns joint j's anchors by its bodies' orientations now (into anchorR, where pullAnchors reads them). */
  private turnAnchors(st: Float64Array, j: SimJoint): void {
    this.turnedAnchor(_a, j.index, 0, st, STATE_STRIDE * j.bodyA, j.rA);
    this.turnedAnchor(_b, j.index, 1, st, STATE_STRIDE * j.bodyB, j.rB);
  }

  /** correctAnchor with the anchors turnAnchors made for the bodies' current orientations (the pulls only translate). */
  private pullAnchors(st: Float64Array, j: SimJoint): boolean {
    const im = this.bodies.invMass;
    const sa = STATE_STRIDE * j.bodyA, sb = STATE_STRIDE * j.bodyB;
    const R = this.anchorR, ro = 6 * j.index;
    const ax = R[ro], ay = R[ro + 1], az = R[ro + 2], bx = R[ro + 3], by = R[ro + 4], bz = R[ro + 5];
    const wa = this.awake[j.bodyA] ? im[j.bodyA] : 0, wb = this.awake[j.bodyB] ? im[j.bodyB] : 0;
    const w = wa + wb;
    if (w === 0) return false;
    // keyframed prop meshes: both moves scaled together so that neither part's vertices near a
    // mesh cross its faces (mass-weighted still: the pair's centre of mass stays)
    let sk = 1;
    if (this.meshConsEnd.length > 0 && (this.meshConsEnd[j.bodyA] > this.meshConsStart[j.bodyA] || this.meshConsEnd[j.bodyB] > this.meshConsStart[j.bodyB])) {
      const ex = st[sb] + bx - st[sa] - ax, ey = st[sb + 1] + by - st[sa + 1] - ay, ez = st[sb + 2] + bz - st[sa + 2] - az;
      if (wa > 0) sk = Math.min(sk, this.meshScale(j.bodyA, (wa / w) * ex, (wa / w) * ey, (wa / w) * ez));
      if (wb > 0) sk = Math.min(sk, this.meshScale(j.bodyB, -(wb / w) * ex, -(wb / w) * ey, -(wb / w) * ez));
    }
    // x, y, z in turn (each axis reads only its own coordinates); y also against the ground:
    // both moves scaled down together until the part going down stops at the ground (its lowest
    // vertex); still mass-weighted, so the pair's centre of mass, its potential energy, stays where
    // it was (the rest of the gap waits for later sweeps and steps, never lifting the other part)
    const O = this.meshOff, hasO = O.length > 0, ka = wa / w, kb = wb / w, oa = 3 * j.bodyA, ob = 3 * j.bodyB;
    let e = sk * (st[sb] + bx - st[sa] - ax);
    let da = ka * e, db = -kb * e;
    st[sa] += da;
    st[sb] += db;
    if (hasO) {
      O[oa] += da;
      O[ob] += db;
    }
    e = sk * (st[sb + 1] + by - st[sa + 1] - ay);
    da = ka * e;
    db = -kb * e;
    const clA = this.clearance[j.bodyA], clB = this.clearance[j.bodyB];
    let sc = 1;
    if (da < -Math.max(clA, 0)) sc = Math.min(sc, Math.max(clA, 0) / -da);
    if (db < -Math.max(clB, 0)) sc = Math.min(sc, Math.max(clB, 0) / -db);
    da *= sc;
    db *= sc;
    this.clearance[j.bodyA] = clA + da;
    this.clearance[j.bodyB] = clB + db;
    st[sa + 1] += da;
    st[sb + 1] += db;
    if (hasO) {
      O[oa + 1] += da;
      O[ob + 1] += db;
    }
    e = sk * (st[sb + 2] + bz - st[sa + 2] - az);
    da = ka * e;
    db = -kb * e;
    st[sa + 2] += da;
    st[sb + 2] += db;
    if (hasO) {
      O[oa + 2] += da;
      O[ob + 2] += db;
    }
    return true;
  }

  /** correctJoints' record of the limit checks that found both limits held (see there). */
  private limitClean = new Float64Array(0);
  private limitTurned = new Float64Array(0);
  private limitSeq = 0;

  /**
   * Restores a joint's cone and twist limits by rotating its bodies about the
   * joint point: LIMITS_TURNED when it turned them, LIMITS_HELD when both
   * limits held (from the two orientations alone: checked again with the same
   * orientations, the same answer and nothing turned), else LIMITS_OTHER (both
   * bodies asleep, or an excess not turned: the mesh scale depends on positions).
   */
  private correctLimits(st: Float64Array, j: SimJoint): number {
    if (j.coneLimitRad >= Math.PI && j.twistLimitRad >= Math.PI) return LIMITS_HELD;
    const awakeA = this.awake[j.bodyA] === 1, awakeB = this.awake[j.bodyB] === 1;
    if (!awakeA && !awakeB) return LIMITS_OTHER;
    let turned = false, excess = false;
    const sa = STATE_STRIDE * j.bodyA, sb = STATE_STRIDE * j.bodyB;
    // joint point: midpoint of the two anchors
    this.turnedAnchor(_a, j.index, 0, st, sa, j.rA);
    this.turnedAnchor(_b, j.index, 1, st, sb, j.rB);
    const px = 0.5 * (st[sa] + _a[0] + st[sb] + _b[0]), py = 0.5 * (st[sa + 1] + _a[1] + st[sb + 1] + _b[1]), pz = 0.5 * (st[sa + 2] + _a[2] + st[sb + 2] + _b[2]);
    if (j.coneLimitRad < Math.PI) {
      rotateF64(_c, 0, st, sa + 3, j.coneAxisA[0], j.coneAxisA[1], j.coneAxisA[2]);
      rotateF64(_d, 0, st, sb + 3, j.axisB[0], j.axisB[1], j.axisB[2]);
      const cosA = _c[0] * _d[0] + _c[1] * _d[1] + _c[2] * _d[2];
      // well inside the cone (cosine above the limit's by a margin far beyond acos's rounding): no angle needed
      const angle = cosA > this.limitSkip[2 * j.index] ? 0 : acos(cosA > 1 ? 1 : cosA < -1 ? -1 : cosA);
      if (angle > j.coneLimitRad) {
        excess = true;
        // axis d × c turns the child's axis d towards the parent's c
        let nx = _d[1] * _c[2] - _d[2] * _c[1], ny = _d[2] * _c[0] - _d[0] * _c[2], nz = _d[0] * _c[1] - _d[1] * _c[0];
        const nl = hypot3(nx, ny, nz);
        if (nl > 1e-12) {
          nx /= nl;
          ny /= nl;
          nz /= nl;
          const ia = awakeA ? this.invInertiaAbout(st, j.bodyA, nx, ny, nz) : 0, ib = awakeB ? this.invInertiaAbout(st, j.bodyB, nx, ny, nz) : 0;
          const over = angle - j.coneLimitRad;
          const thB = (over * ib) / (ia + ib), thA = (-over * ia) / (ia + ib);
          // closed keyframed meshes are one-sided limits, as for the anchors: both turns scaled
          // together until a part vertex near a face would cross it
          const f = Math.min(this.turnScale(st, j.bodyB, px, py, pz, nx, ny, nz, thB), this.turnScale(st, j.bodyA, px, py, pz, nx, ny, nz, thA));
          if (f > 0) {
            this.rotateAbout(st, j.bodyB, px, py, pz, nx, ny, nz, f * thB);
            this.rotateAbout(st, j.bodyA, px, py, pz, nx, ny, nz, f * thA);
            turned = true;
          }
        }
      }
    }
    if (j.twistLimitRad < Math.PI) {
      this.twistHalf(st, j);
      // well inside the twist limit (|tan(φ/2)| below the limit's by a margin far beyond atan2's rounding): no angle needed
      const ts = _tw[0], tc = _tw[1];
      const phi = (ts < 0 ? -ts : ts) <= tc * this.limitSkip[2 * j.index + 1] ? 0 : 2 * atan2(ts, tc);
      const lim = j.twistLimitRad;
      if (phi > lim || phi < -lim) {
        excess = true;
        const over = phi > lim ? phi - lim : phi + lim;
        rotateF64(_d, 0, st, sb + 3, j.axisB[0], j.axisB[1], j.axisB[2]);
        const dx = _d[0], dy = _d[1], dz = _d[2];
        const ia = awakeA ? this.invInertiaAbout(st, j.bodyA, dx, dy, dz) : 0, ib = awakeB ? this.invInertiaAbout(st, j.bodyB, dx, dy, dz) : 0;
        const thB = (-over * ib) / (ia + ib), thA = (over * ia) / (ia + ib);
        const f = Math.min(this.turnScale(st, j.bodyB, px, py, pz, dx, dy, dz, thB), this.turnScale(st, j.bodyA, px, py, pz, dx, dy, dz, thA));
        if (f > 0) {
          this.rotateAbout(st, j.bodyB, px, py, pz, dx, dy, dz, f * thB);
          this.rotateAbout(st, j.bodyA, px, py, pz, dx, dy, dz, f * thA);
          turned = true;
        }
      }
    }
    return turned ? LIMITS_TURNED : excess ? LIMITS_OTHER : LIMITS_HELD;
  }

  /**
   * Takes dynamic body i out of the closed keyframed meshes (end-of-step
   * pose) it has a vertex in, by position only, as the ground projection
   * does: a vertex is inside when the nearest point of the mesh is inside a
   * face it lies behind (by at most PUSH_BAND); the deepest one is moved out
   * along that face's normal, to MESH_CLEARANCE in front, by a position
   * impulse at it (the body translated by λ/m and turned by I⁻¹(r × n)λ
   * about its centre of mass, λ = depth / (1/m + (r × n) · I⁻¹ (r × n))), a
   * few times (a turn can bring another vertex deepest). Velocities are
   * untouched: no kinetic energy is added, and the potential energy raised is
   * at most the body's weight times the depth taken out (what the vertex lost
   * going in). Out in one step: capped per step, a body falling inside the
   * mesh (no contact holds it there) outran the push. Whether it moved the body.
   */
  private pushOutOfMeshes(st: Float64Array, i: number): boolean {
    const C = this.colliders[i];
    if (!C.groups) return false;
    const im = this.bodies.invMass[i], s = STATE_STRIDE * i;
    let moved = false;
    for (let it = 0; it < 3; it++) {
      if (!this.deepestInMesh(st, i)) break;
      const depth = _push[0], mx = _push[1], my = _push[2], mz = _push[3];
      const rx = _push[4] - st[s], ry = _push[5] - st[s + 1], rz = _push[6] - st[s + 2];
      // axis r × m
      let ax = ry * mz - rz * my, ay = rz * mx - rx * mz, az = rx * my - ry * mx;
      const len = Math.sqrt(ax * ax + ay * ay + az * az);
      if (len > 1e-12) {
        ax /= len;
        ay /= len;
        az /= len;
      }
      const iI = len > 1e-12 ? this.invInertiaAbout(st, i, ax, ay, az) : 0;
      const lambda = (depth + MESH_CLEARANCE) / (im + len * len * iI);
      st[s] += lambda * im * mx;
      st[s + 1] += lambda * im * my;
      st[s + 2] += lambda * im * mz;
      if (len > 1e-12) this.rotateAbout(st, i, st[s], st[s + 1], st[s + 2], ax, ay, az, iI * len * lambda);
      moved = true;
    }
    return moved;
  }

  /**
   * The deepest vertex of dynamic body i inside a closed keyframed mesh
   * (see pushOutOfMeshes) into _push (depth, face normal, vertex position);
   * whether there is one.
   */
  private deepestInMesh(st: Float64Array, i: number): boolean {
    const C = this.colliders[i], s = STATE_STRIDE * i;
    const cx = st[s], cy = st[s + 1], cz = st[s + 2];
    const rad = this.bodySize[i] + 1e-9;
    let best = 0, placed = false;
    // the faces near the body, and those a face nearer to one of its vertices (≤ PUSH_BAND away) may be
    const nf = this.gatherLimitFaces(i, cx, cy, cz, rad + PUSH_BAND), LF = this._lf;
    for (let fi = 0; fi < nf; fi++) {
      {
        const fo = LF_STRIDE * fi;
        const ax = LF[fo], ay = LF[fo + 1], az = LF[fo + 2];
        const bx = LF[fo + 3], by = LF[fo + 4], bz = LF[fo + 5];
        const ex = LF[fo + 6], ey = LF[fo + 7], ez = LF[fo + 8];
        if (cx + rad < Math.min(ax, bx, ex) || cx - rad > Math.max(ax, bx, ex)) continue;
        if (cy + rad < Math.min(ay, by, ey) || cy - rad > Math.max(ay, by, ey)) continue;
        if (cz + rad < Math.min(az, bz, ez) || cz - rad > Math.max(az, bz, ez)) continue;
        const mx = LF[fo + 9], my = LF[fo + 10], mz = LF[fo + 11];
        if (mx !== mx) continue; // degenerate face
        const sc = mx * (cx - ax) + my * (cy - ay) + mz * (cz - az);
        if (sc > rad || sc < -rad - PUSH_BAND) continue;
        if (!placed) {
          placed = true;
          this.placeTurnVerts(st, i);
        }
        const W = this._turnVerts;
        const gx0 = Math.min(ax, bx, ex) - PUSH_BAND, gx1 = Math.max(ax, bx, ex) + PUSH_BAND;
        const gy0 = Math.min(ay, by, ey) - PUSH_BAND, gy1 = Math.max(ay, by, ey) + PUSH_BAND;
        const gz0 = Math.min(az, bz, ez) - PUSH_BAND, gz1 = Math.max(az, bz, ez) + PUSH_BAND;
        for (let v = 0; v < C.nv; v++) {
          const wx = W[3 * v], wy = W[3 * v + 1], wz = W[3 * v + 2];
          if (wx < gx0 || wx > gx1 || wy < gy0 || wy > gy1 || wz < gz0 || wz > gz1) continue;
          const d = mx * (wx - ax) + my * (wy - ay) + mz * (wz - az);
          if (d >= 0 || d < -PUSH_BAND || -d <= best) continue;
          const ux = wx - d * mx, uy = wy - d * my, uz = wz - d * mz;
          if (!inTri(ux, uy, uz, ax, ay, az, bx, by, bz, mx, my, mz)) continue;
          if (!inTri(ux, uy, uz, bx, by, bz, ex, ey, ez, mx, my, mz)) continue;
          if (!inTri(ux, uy, uz, ex, ey, ez, ax, ay, az, mx, my, mz)) continue;
          // the face must be the nearest part of the mesh (else the vertex may be outside, or
          // nearer another face, through which it is taken out when that face comes)
          if (this.nearerFace(nf, fi, wx, wy, wz, d * d)) continue;
          best = -d;
          _push[0] = best;
          _push[1] = mx;
          _push[2] = my;
          _push[3] = mz;
          _push[4] = wx;
          _push[5] = wy;
          _push[6] = wz;
        }
      }
    }
    return best > 0;
  }

  /** Whether a face of the gathered limit faces (_lf, nf of them) of the same collider as face `skip` is nearer to p than √d2. */
  private nearerFace(nf: number, skip: number, px: number, py: number, pz: number, d2: number): boolean {
    const F = this._lf, X = _tri12, r = Math.sqrt(d2), mc = F[LF_STRIDE * skip + 12];
    X[0] = px;
    X[1] = py;
    X[2] = pz;
    for (let f = 0; f < nf; f++) {
      const fo = LF_STRIDE * f;
      if (f === skip || F[fo + 12] !== mc) continue;
      if (px + r < Math.min(F[fo], F[fo + 3], F[fo + 6]) || px - r > Math.max(F[fo], F[fo + 3], F[fo + 6])) continue;
      if (py + r < Math.min(F[fo + 1], F[fo + 4], F[fo + 7]) || py - r > Math.max(F[fo + 1], F[fo + 4], F[fo + 7])) continue;
      if (pz + r < Math.min(F[fo + 2], F[fo + 5], F[fo + 8]) || pz - r > Math.max(F[fo + 2], F[fo + 5], F[fo + 8])) continue;
      for (let c = 0; c < 9; c++) X[3 + c] = F[fo + c];
      if (pointTriangleDistanceSq(X, 0, 3, 6, 9) < d2 * (1 - 1e-9)) return true;
    }
    return false;
  }

  /**
   * Closed keyframed meshes (gatherLimitFaces) as one-sided limits of a limit correction's
   * turn (as of the anchor corrections' translations): the largest fraction
   * (≤ 1) of a turn of body i by angleRad about the world axis (unit n)
   * through p that takes none of its vertices near a face across it (to
   * MESH_CLEARANCE in front; a vertex already behind goes no deeper). A
   * vertex at r from p, at signed distance d from the plane (normal m) of a
   * face it lies in front of or at most MESH_BAND_IN behind, its projection
   * inside the triangle (end-of-step pose), is turned by φ to distance
   * d + a sin φ + b (1 − cos φ), a = m · (n × r), b = m · (n (n · r) − r);
   * the first φ where that reaches the clearance (a quadratic in tan(φ/2))
   * bounds the fraction. Only vertices the turn can reach (within
   * |angle| · (|c − p| + body radius)) count.
   *
   * The ground is left to the ground projection after the corrections (as
   * before): as a limit of the turns it stalled them on a ragdoll lying on
   * the ground (twist limits left 0.18 rad open, the mannequin of
   * repro/ragdoll-rest never asleep, 0.56 J gained in a step when vertices
   * within the resting slop were let through).
   */
  private turnScale(st: Float64Array, i: number, px: number, py: number, pz: number, nx: number, ny: number, nz: number, angleRad: number): number {
    if (angleRad === 0 || !this.meshLimits) return 1;
    const C = this.colliders[i];
    if (!C.groups) return 1;
    const s = STATE_STRIDE * i;
    const cx = st[s], cy = st[s + 1], cz = st[s + 2];
    const reach = Math.abs(angleRad) * (hypot3(cx - px, cy - py, cz - pz) + this.bodySize[i]) * (1 + 1e-9) + 1e-12;
    let f = 1;
    const bandIn = MESH_BAND_IN, rad = this.bodySize[i] + reach, grow = reach > bandIn ? reach : bandIn;
    let placed = false;
    const nf = this.gatherLimitFaces(i, cx, cy, cz, rad), LF = this._lf;
    for (let fi = 0; fi < nf; fi++) {
      {
        const fo = LF_STRIDE * fi;
        const mx = LF[fo + 9], my = LF[fo + 10], mz = LF[fo + 11];
        if (mx !== mx) continue; // degenerate face
        const ax = LF[fo], ay = LF[fo + 1], az = LF[fo + 2];
        const bx = LF[fo + 3], by = LF[fo + 4], bz = LF[fo + 5];
        const ex = LF[fo + 6], ey = LF[fo + 7], ez = LF[fo + 8];
        const sc = mx * (cx - ax) + my * (cy - ay) + mz * (cz - az);
        if (sc > rad || sc < -rad) continue;
        if (!placed) {
          placed = true;
          this.placeTurnVerts(st, i);
        }
        const W = this._turnVerts;
        const gx0 = Math.min(ax, bx, ex) - grow, gx1 = Math.max(ax, bx, ex) + grow;
        const gy0 = Math.min(ay, by, ey) - grow, gy1 = Math.max(ay, by, ey) + grow;
        const gz0 = Math.min(az, bz, ez) - grow, gz1 = Math.max(az, bz, ez) + grow;
        for (let v = 0; v < C.nv; v++) {
          const wx = W[3 * v], wy = W[3 * v + 1], wz = W[3 * v + 2];
          if (wx < gx0 || wx > gx1 || wy < gy0 || wy > gy1 || wz < gz0 || wz > gz1) continue;
          const d = mx * (wx - ax) + my * (wy - ay) + mz * (wz - az);
          if (d >= reach || d < -bandIn) continue;
          const ux = wx - d * mx, uy = wy - d * my, uz = wz - d * mz;
          if (!inTri(ux, uy, uz, ax, ay, az, bx, by, bz, mx, my, mz)) continue;
          if (!inTri(ux, uy, uz, bx, by, bz, ex, ey, ez, mx, my, mz)) continue;
          if (!inTri(ux, uy, uz, ex, ey, ez, ax, ay, az, mx, my, mz)) continue;
          const rx = wx - px, ry = wy - py, rz = wz - pz;
          const nr = nx * rx + ny * ry + nz * rz;
          const a = mx * (ny * rz - nz * ry) + my * (nz * rx - nx * rz) + mz * (nx * ry - ny * rx);
          const b = mx * (nx * nr - rx) + my * (ny * nr - ry) + mz * (nz * nr - rz);
          const tf = turnFraction(d > MESH_CLEARANCE ? d - MESH_CLEARANCE : 0, a, b, angleRad);
          if (tf < f) f = tf;
          if (f === 0) return 0;
        }
      }
    }
    return f;
  }

  private _turnVerts = new Float64Array(64);

  private _chunkW = new Float64Array(64);

  /** World centres and radii of dynamic body i's vertex chunks (chunkSphere) in state st into _chunkW. */
  private placeChunks(st: Float64Array, i: number): void {
    const C = this.colliders[i], S = C.chunkSphere, nch = C.chunkStart.length - 1, s = STATE_STRIDE * i;
    this._chunkW = grown(this._chunkW, 4 * nch);
    const CW = this._chunkW;
    for (let k = 0; k < nch; k++) {
      rotateF64(_e, 0, st, s + 3, S[4 * k], S[4 * k + 1], S[4 * k + 2]);
      CW[4 * k] = st[s] + _e[0];
      CW[4 * k + 1] = st[s + 1] + _e[1];
      CW[4 * k + 2] = st[s + 2] + _e[2];
      // padded for the rounding of the rotated vertices (as chunkSphere itself)
      CW[4 * k + 3] = S[4 * k + 3] * (1 + 1e-9) + 1e-9;
    }
  }

  /** World positions of dynamic body i's vertices in state st into _turnVerts. */
  private placeTurnVerts(st: Float64Array, i: number): void {
    const C = this.colliders[i], L = C.local, s = STATE_STRIDE * i;
    const cx = st[s], cy = st[s + 1], cz = st[s + 2], qx = st[s + 3], qy = st[s + 4], qz = st[s + 5], qw = st[s + 6];
    this._turnVerts = grown(this._turnVerts, 3 * C.nv);
    const W = this._turnVerts;
    for (let v = 0; v < C.nv; v++) {
      const lx = L[3 * v], ly = L[3 * v + 1], lz = L[3 * v + 2];
      const tx = 2 * (qy * lz - qz * ly), ty = 2 * (qz * lx - qx * lz), tz = 2 * (qx * ly - qy * lx);
      W[3 * v] = cx + lx + qw * tx + qy * tz - qz * ty;
      W[3 * v + 1] = cy + ly + qw * ty + qz * tx - qx * tz;
      W[3 * v + 2] = cz + lz + qw * tz + qx * ty - qy * tx;
    }
  }

  /**
   * Twist of joint j's child about its axis relative to the parent, from the
   * start (swing–twist decomposition of Δ = q_rel0⁻¹ q_A⁻¹ q_B about axisB,
   * B's frame), as sine and cosine of its half angle, cosine ≥ 0 (the twist
   * is 2 atan2(s, c)), into _tw.
   */
  private twistHalf(st: Float64Array, j: SimJoint): void {
    const sa = STATE_STRIDE * j.bodyA + 3;
    _q4[0] = -st[sa];
    _q4[1] = -st[sa + 1];
    _q4[2] = -st[sa + 2];
    _q4[3] = st[sa + 3];
    quatMulF64(_q5, 0, _q4, 0, st, STATE_STRIDE * j.bodyB + 3); // q_rel
    const r = j.qRel0;
    _q4[0] = -r[0];
    _q4[1] = -r[1];
    _q4[2] = -r[2];
    _q4[3] = r[3];
    quatMulF64(_q4, 0, _q4, 0, _q5, 0); // Δ (quatMul reads both inputs before writing)
    let s = _q4[0] * j.axisB[0] + _q4[1] * j.axisB[1] + _q4[2] * j.axisB[2];
    let c = _q4[3];
    if (c < 0) {
      s = -s;
      c = -c;
    }
    _tw[0] = s;
    _tw[1] = c;
  }

  /** Per joint: coneSkipCos and twistSkipTan of its limits (correctLimits skips acos and atan2 for joints well inside). */
  private limitSkip = new Float64Array(0);
  /**
   * Per joint, for the limit constraints of the solve (gatherJoints, engaged
   * LIMIT_MARGIN_RAD inside the limits): the cosine of the cone angle that
   * engages it, and twistSkipTan of the twist that does (the twist's atan2
   * is skipped well inside). Made once: the same numbers as per solve.
   */
  private engageAt = new Float64Array(0);

  /** n · I_world⁻¹ · n of body i (unit n). */
  private invInertiaAbout(st: Float64Array, i: number, nx: number, ny: number, nz: number): number {
    rotateInvF64(_e, st, STATE_STRIDE * i + 3, nx, ny, nz);
    const m = this.bodies.moments;
    return (_e[0] * _e[0]) / m[3 * i] + (_e[1] * _e[1]) / m[3 * i + 1] + (_e[2] * _e[2]) / m[3 * i + 2];
  }

  /** Rotates body i by angleRad about the world axis (unit n) through p; its angular momentum is kept. */
  private rotateAbout(st: Float64Array, i: number, px: number, py: number, pz: number, nx: number, ny: number, nz: number, angleRad: number): void {
    if (angleRad === 0) return;
    const s = STATE_STRIDE * i;
    sinCos(0.5 * angleRad, _sc5, 0);
    const sh = _sc5[0];
    _q5[0] = nx * sh;
    _q5[1] = ny * sh;
    _q5[2] = nz * sh;
    _q5[3] = _sc5[1];
    rotateF64(_e, 0, _q5, 0, st[s] - px, st[s + 1] - py, st[s + 2] - pz);
    st[s] = px + _e[0];
    st[s + 1] = py + _e[1];
    st[s + 2] = pz + _e[2];
    quatMulF64(st, s + 3, _q5, 0, st, s + 3);
    normalizeQuat(st, s + 3);
  }

  // ------------------------------------------------------------ detection

  /**
   * Hits of this step (kind, cA, fA, cB, fB; 5 per hit) whose impact event found no contact
   * approaching at the velocity level (resolveImpact): an impact cannot act on them, and
   * backtracking to them again would repeat the same event until the sub-step budget ran out.
   */
  private unresolved = new Int32Array(40);
  private unresolvedCount = 0;

  /** Adds a hit to the list (false: a hit of `unresolved`, left out). */
  private pushHit(kind: number, cA: number, fA: number, cB: number, fB: number, t: number, u: number, v: number, nx: number, ny: number, nz: number, approach: number): boolean {
    const U = this.unresolved;
    for (let k = 0; k < this.unresolvedCount; k++) {
      const o = 5 * k;
      if (U[o] === kind && U[o + 1] === cA && U[o + 2] === fA && U[o + 3] === cB && U[o + 4] === fB) return false;
    }
    const n = this.hitCount;
    if (n >= this.hitKind.length) {
      const k = new Int32Array(2 * n), I = new Int32Array(8 * n), F = new Float64Array(14 * n);
      k.set(this.hitKind);
      I.set(this.hitI);
      F.set(this.hitF);
      this.hitKind = k;
      this.hitI = I;
      this.hitF = F;
    }
    this.hitKind[n] = kind;
    const I = this.hitI;
    I[4 * n] = cA;
    I[4 * n + 1] = fA;
    I[4 * n + 2] = cB;
    I[4 * n + 3] = fB;
    const F = this.hitF, o = 7 * n;
    F[o] = t;
    F[o + 1] = u;
    F[o + 2] = v;
    F[o + 3] = nx;
    F[o + 4] = ny;
    F[o + 5] = nz;
    F[o + 6] = approach;
    this.hitCount = n + 1;
    return true;
  }

  /**
   * Continuous detection between P0 and P1. Fills the hit list with every
   * approaching contact and returns the earliest time (fraction of the
   * sub-step), or -1.
   */
  private findHits(hs: number): number {
    const st = this.bodies.state;
    this.hitCount = 0;
    this.detectPass++;
    const P0 = this.P0, P1 = this.P1;
    const minApproach = 1e-9;
    let tmin = Infinity;
    const nc = this.colliders.length;
    for (let c = 0; c < nc; c++) this.colliderBox(this.colliders[c]);
    // ground: vertex–plane, exact for linearly moving vertices
    if (this.groundY !== null) {
      const g = this.groundY;
      for (let c = 0; c < this.dynCount; c++) {
        const C = this.colliders[c];
        if (!this.awake[C.body] || !C.groups) continue;
        if (C.box[1] > g) continue; // entirely above the ground over the sub-step
        const touch = this.opts.touchDistance;
        // the end orientation is the one of the part's last lowestY answer (its clearance, measured
        // after the drift; the anchor pulls since only translate): its lowest vertex is known, and
        // when that ends at or above −touch (by far more than the two height formulas' rounding
        // differ: the same polynomial, see heightTolerance) no vertex ends below it (most parts)
        if (this.lowV.length > c && this.lowV[c] >= 0) {
          const q1 = this.pose1, ps = 7 * c, LQ = this.lowQ, lq = 4 * c;
          if (Object.is(LQ[lq], q1[ps + 3]) && Object.is(LQ[lq + 1], q1[ps + 4]) && Object.is(LQ[lq + 2], q1[ps + 5]) && Object.is(LQ[lq + 3], q1[ps + 6]) && q1[ps + 1] + this.lowM[c] - g >= -touch + heightTolerance(C, q1[ps + 1], g)) continue;
        }
        // only vertices that end the sub-step below −touch count: chunks bounded from the end pose
        const pass = this.scratchChunkPass(C.chunkStart.length - 1);
        if (lowChunks(C, this.pose1, 7 * c, g - touch, pass) === 0) continue;
        const specC = C.object >= 0 && this.objects[C.object].kind === 'character' ? Math.max(this.opts.speculativeSpeedMps, 3) : 0;
        // end heights of the low chunks' vertices from the pose (P1 of a dynamic body is always its
        // pose1's placement: the same numbers); the vertices ending below −touch, in vertex order
        const q1 = this.pose1, ps = 7 * c, CL = C.chunkLocal, CS = C.chunkStart, CV = C.chunkVerts;
        const qx = q1[ps + 3], qy = q1[ps + 4], qz = q1[ps + 5], qw = q1[ps + 6], qy0 = q1[ps + 1];
        const low = this.scratchCand(C.nv);
        let nLow = 0;
        // heights from the rotation's second row rule out the vertices surely not below −touch (see lowestY)
        const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
        const cutY = g - touch - qy0 + heightTolerance(C, qy0, g);
        const CB = C.chunkBox, a10 = Math.abs(r10), a11 = Math.abs(r11), a12 = Math.abs(r12);
        for (let k = 0; k + 1 < CS.length; k++) {
          if (!pass[k]) continue;
          const b = 6 * k;
          if (r10 * CB[b] + r11 * CB[b + 1] + r12 * CB[b + 2] - (a10 * CB[b + 3] + a11 * CB[b + 4] + a12 * CB[b + 5]) >= cutY) continue;
          for (let i = CS[k]; i < CS[k + 1]; i++) {
            const lx = CL[3 * i], ly = CL[3 * i + 1], lz = CL[3 * i + 2];
            if (r10 * lx + r11 * ly + r12 * lz >= cutY) continue;
            const v = CV[i];
            const tx = 2 * (qy * lz - qz * ly), ty = 2 * (qz * lx - qx * lz), tz = 2 * (qx * ly - qy * lx);
            if (qy0 + ly + qw * ty + qz * tx - qx * tz - g < -touch) low[nLow++] = v;
          }
        }
        if (nLow === 0) continue;
        sortAscending(low, nLow);
        this.ensureP0(c);
        this.ensureP1(c);
        for (let k = 0; k < nLow; k++) {
          const v = low[k], o = 3 * (C.vOff + v) + 1;
          const y0 = P0[o] - g, y1 = P1[o] - g;
          // ragdoll vertices slow enough for the speculative contacts of this sub-step are theirs
          if (y0 - y1 < specC * hs && y0 < specC * hs) continue;
          if (y1 < -this.opts.touchDistance && y1 < y0 - minApproach) {
            // already touching at the start and not moving into the ground by its velocity: the
            // downward displacement comes from joint corrections (the resting contacts hold the
            // velocity, the projection after the step the position); an impact could not stop it
            if (y0 <= this.opts.touchDistance && this.pointVelocityY(st, C.body, P1[o - 1], P1[o], P1[o + 1]) >= 0) continue;
            const t = y0 <= 0 ? 0 : y0 / (y0 - y1);
            if (this.pushHit(HitKind.Ground, c, v, -1, -1, t, 0, 0, 0, 1, 0, (y0 - y1) / hs) && t < tmin) tmin = t;
          }
        }
      }
    }
    // collider pairs
    const ok = this.pairOk;
    for (let a = 0; a < this.dynCount; a++) {
      const A = this.colliders[a], ab = A.box, aAwake = this.awake[A.body] === 1;
      const ax0 = ab[0], ay0 = ab[1], az0 = ab[2], ax1 = ab[3], ay1 = ab[4], az1 = ab[5];
      // every pair once: dynamic partners after a, then the keyframed colliders
      for (let b = a + 1; b < nc; b++) {
        if (!ok[a * nc + b]) continue;
        const Bc = this.colliders[b], bb = Bc.box;
        if (ax0 > bb[3] || bb[0] > ax1 || ay0 > bb[4] || bb[1] > ay1 || az0 > bb[5] || bb[2] > az1) continue; // boxes apart
        if (Bc.kind === KIND_CHARACTER) {
          // the character's box from its joints holds the mesh's box from its skin: that one next
          const mb = this.meshBox(Bc);
          if (ax0 > mb[3] || mb[0] > ax1 || ay0 > mb[4] || mb[1] > ay1 || az0 > mb[5] || mb[2] > az1) continue;
        }
        if (!aAwake && (Bc.kind === KIND_PROP ? !Bc.moving : Bc.kind === KIND_CHARACTER ? !this.characterMoving(Bc) : !this.awake[Bc.body])) continue;
        this.ensureP0(a);
        this.ensureP1(a);
        if (b < this.dynCount) {
          this.ensureP0(b);
          this.ensureP1(b);
        }
        const character = Bc.kind === KIND_CHARACTER, BP = Bc.parts, GS = Bc.groupStart, nG = character ? Bc.jointGroups.length : 1;
        for (const pa of A.parts) {
          // characters group by group: a group with no part skinned in this step whose box (from
          // the joints) misses pa is passed over whole, as its parts one by one would be
          for (let gi = 0; gi < nG; gi++) {
            let q0 = 0, q1 = BP.length;
            if (character) {
              const G = Bc.jointGroups[gi];
              if (!(G.activeStamp === this.kfTimeIndex && G.active! > 0) && !boxesOverlap(pa.box, 0, this.groupBox(Bc, gi), 0, 0)) continue;
              q0 = GS![gi];
              q1 = GS![gi + 1];
            }
          for (let q = q0; q < q1; q++) {
            const pb = BP[q];
            if (character && !this.partActive(pb)) {
              // bounded from the joints so far: its joint's box, its own box, then skin it for
              // this step and test its exact box
              if (!boxesOverlap(pa.box, 0, this.groupBox(Bc, pb.group), 0, 0)) continue;
              this.clusterBox(Bc, pb);
              if (!boxesOverlap(pa.box, 0, pb.box, 0, 0)) continue;
              this.activatePart(Bc, pb);
            }
            if (!boxesOverlap(pa.box, 0, pb.box, 0, 0)) continue;
            if (this.ignore.length && this.ignoredParts(A, pa.joint, Bc, pb.joint)) continue;
            const t = this.partPair(A, pa, Bc, pb, hs);
            if (t < tmin) tmin = t;
          }
          }
        }
      }
    }
    return tmin === Infinity ? -1 : tmin;
  }

  /** Swept boxes of a collider, of its parts, triangles and edges. */
  private colliderBox(C: Collider): void {
    const character = C.kind === KIND_CHARACTER;
    if (!character) emptyBox(C.box);
    if (C.kind === KIND_DYNAMIC) {
      // the body's local box turned by its start and end orientations (contains both vertex
      // sets, so every straight vertex path between them): O(1) instead of O(vertices)
      const bx = C.parts[0].box;
      emptyBox(bx);
      orientedBoxInto(C.lbox, this.saved, STATE_STRIDE * C.body, bx);
      orientedBoxInto(C.lbox, this.bodies.state, STATE_STRIDE * C.body, bx);
      for (let c = 0; c < 6; c++) C.box[c] = bx[c];
      return;
    }
    if (character) {
      // the whole character bounded from its joints at both ends of the step (once per step); the
      // mesh from its skin when reached (meshBox), joint groups after it (groupBox), clusters after
      // them (clusterBox)
      if (C.boxStamp !== this.kfTimeIndex) {
        C.boxStamp = this.kfTimeIndex;
        const a = this.charBox0[C.docIndex], b = this.charBox1[C.docIndex], bx = C.box;
        for (let c = 0; c < 3; c++) {
          bx[c] = a[c] < b[c] ? a[c] : b[c];
          bx[3 + c] = a[3 + c] > b[3 + c] ? a[3 + c] : b[3 + c];
        }
      }
      const act = C.activeParts;
      for (let k = 0; k < act.length; k++) if (this.partActive(act[k])) this.exactPartBox(C, act[k]);
      return;
    }
    for (const p of C.parts) {
      this.exactPartBox(C, p);
      const bx = p.box;
      for (let c = 0; c < 3; c++) {
        if (bx[c] < C.box[c]) C.box[c] = bx[c];
        if (bx[3 + c] > C.box[3 + c]) C.box[3 + c] = bx[3 + c];
      }
    }
  }

  /** Swept box of a part from its vertices in P0 / P1. */
  private exactPartBox(C: Collider, p: Part): void {
    this.boxVersion++;
    const P0 = this.P0, P1 = this.P1, off = C.vOff, bx = p.box, vs = p.verts;
    emptyBox(bx);
    for (let k = 0; k < vs.length; k++) {
      const o = 3 * (off + vs[k]);
      for (let c = 0; c < 3; c++) {
        const a = P0[o + c], b = P1[o + c];
        const lo = a < b ? a : b, hi = a < b ? b : a;
        if (lo < bx[c]) bx[c] = lo;
        if (hi > bx[3 + c]) bx[3 + c] = hi;
      }
    }
  }

  /**
   * Skin matrices of keyframed character ci's mesh at the start (end 0) or
   * end (1) of the step, made from the joint world matrices when first read
   * in the step (meshes sharing a skin share them: made for the first of
   * them, for all their used slots). Not for use after the step's swap.
   */
  private skinAt(ci: number, mesh: number, end: 0 | 1): Float64Array {
    const r = this.skinRep[ci][mesh];
    const t = end === 1 ? this.kfTimeIndex : this.kfTimeIndex - 1;
    const S = end === 1 ? this.skinStamp1[ci] : this.skinStamp0[ci];
    const M = end === 1 ? this.skinMats1[ci][r] : this.skinMats0[ci][r];
    if (S[r] !== t) {
      S[r] = t;
      const other = end === 1 ? this.skinStamp0[ci] : this.skinStamp1[ci];
      if (this.charStill[ci] === this.kfTimeIndex && other[r] === (end === 1 ? t - 1 : t + 1)) {
        // held still over the step: the other end's matrices are these (the same joint matrices)
        const O = end === 1 ? this.skinMats0[ci][r] : this.skinMats1[ci][r], used = this.skinUnion[ci][r];
        for (let q = 0; q < used.length; q++) for (let k = 16 * used[q], e = k + 16; k < e; k++) M[k] = O[k];
      } else skinMatricesUsed(this.doc.characters[ci].meshes[r], end === 1 ? this.charWorld1[ci] : this.charWorld0[ci], M, this.skinUnion[ci][r]);
    }
    return M;
  }

  /** Character mesh C's swept box over the step from its skin at both ends (its whole mesh bounded by jointBoundedBox; once per step). */
  private meshBox(C: Collider): Float64Array {
    const t1 = this.kfTimeIndex;
    if (C.meshBoxStamp !== t1) {
      C.meshBoxStamp = t1;
      const g = C.whole!;
      if (C.wholeT0 !== t1 - 1) {
        jointBoundedBox(g, this.skinAt(C.docIndex, C.mesh, 0), g.jbox0!);
        C.wholeT0 = t1 - 1;
      }
      if (C.wholeT1 !== t1) {
        // held still over the step (charStill): the end box is the start box (the same skin matrices)
        if (this.charStill[C.docIndex] === t1) copyBox(g.jbox0!, g.jbox1!);
        else jointBoundedBox(g, this.skinAt(C.docIndex, C.mesh, 1), g.jbox1!);
        C.wholeT1 = t1;
      }
      const a = g.jbox0!, b = g.jbox1!, bx = C.meshBox;
      for (let c = 0; c < 3; c++) {
        bx[c] = a[c] < b[c] ? a[c] : b[c];
        bx[3 + c] = a[3 + c] > b[3 + c] ? a[3 + c] : b[3 + c];
      }
    }
    return C.meshBox;
  }

  /** Whether character mesh C moves during the step: a skin matrix of a slot its vertices use differs at its ends (once per step). */
  private characterMoving(C: Collider): boolean {
    if (C.movingStamp !== this.kfTimeIndex) {
      C.movingStamp = this.kfTimeIndex;
      const sm0 = this.skinAt(C.docIndex, C.mesh, 0), sm = this.skinAt(C.docIndex, C.mesh, 1);
      const used = usedSkinSlots(this.doc.characters[C.docIndex].meshes[C.mesh]);
      let moving = false;
      for (let q = 0; q < used.length && !moving; q++)
        for (let k = 16 * used[q], e = k + 16; k < e; k++)
          if (sm0[k] !== sm[k]) {
            moving = true;
            break;
          }
      C.moving = moving;
    }
    return C.moving;
  }

  /**
   * Keyframed character ci's joint-space bounds (charJoints, charJointCE,
   * charWs) from its meshes' per-slot bind boxes (`whole`): slot k's box
   * through its inverse bind matrix (the box of its 8 corners) joins the box
   * of joint skinJoints[k]. A vertex skinned by slot k is placed at
   * W_j · (IBM_k · v): inside W_j times that box.
   */
  private charBounds(ci: number, jointCount: number): void {
    const lo = new Float64Array(3 * jointCount).fill(Infinity), hi = new Float64Array(3 * jointCount).fill(-Infinity);
    let wsLo = Infinity, wsHi = -Infinity;
    const meshes = this.doc.characters[ci].meshes;
    for (const C of this.colliders) {
      if (C.kind !== KIND_CHARACTER || C.docIndex !== ci) continue;
      const mesh = meshes[C.mesh], g = C.whole!, slots = g.slots!, SB = g.slotBox!, M = mesh.inverseBindMatrices;
      if (g.wsMin! < wsLo) wsLo = g.wsMin!;
      if (g.wsMax! > wsHi) wsHi = g.wsMax!;
      for (let q = 0; q < slots.length; q++) {
        const k = slots[q], j = mesh.skinJoints[k], m = 16 * k, b = 6 * q;
        for (let corner = 0; corner < 8; corner++) {
          const x = SB[b + (corner & 1 ? 3 : 0)], y = SB[b + 1 + (corner & 2 ? 3 : 0)], z = SB[b + 2 + (corner & 4 ? 3 : 0)];
          for (let r = 0; r < 3; r++) {
            const u = M[m + r] * x + M[m + 4 + r] * y + M[m + 8 + r] * z + M[m + 12 + r];
            if (u < lo[3 * j + r]) lo[3 * j + r] = u;
            if (u > hi[3 * j + r]) hi[3 * j + r] = u;
          }
        }
      }
    }
    const joints: number[] = [];
    for (let j = 0; j < jointCount; j++) if (lo[3 * j] <= hi[3 * j]) joints.push(j);
    const CE = new Float64Array(6 * joints.length);
    joints.forEach((j, n) => {
      for (let r = 0; r < 3; r++) {
        const c = 0.5 * (lo[3 * j + r] + hi[3 * j + r]), e = 0.5 * (hi[3 * j + r] - lo[3 * j + r]);
        CE[6 * n + r] = c;
        // padded for the rounding of the corners' images (far above it)
        CE[6 * n + 3 + r] = e + 1e-9 * (Math.abs(c) + e) + 1e-12;
      }
    });
    this.charJoints[ci] = Int32Array.from(joints);
    this.charJointCE[ci] = CE;
    this.charWs[ci] = Float64Array.of(wsLo === Infinity ? 1 : wsLo, wsHi === -Infinity ? 1 : wsHi);
  }

  /**
   * Box of keyframed character ci's whole skin from the joint world matrices
   * in charWorld1 (charBounds; weight sums as in jointBoundedBox), into out.
   * It holds every mesh's jointBoundedBox of its whole mesh (the same
   * vertices bounded more loosely: W_j · box(IBM_k · B) ⊇ (W_j IBM_k) · B),
   * padded far beyond the two computations' rounding, so a box it misses
   * misses those too.
   */
  private charBound(ci: number, out: Float64Array): void {
    // no vertex weighted to any joint: the empty box
    if (!slotsBox(this.charJoints[ci], this.charJointCE[ci], this.charWorld1[ci], this.charWs[ci][0], this.charWs[ci][1], 1e-8, 1, 1e-10, out)) emptyBox(out);
  }


  /** Box of character joint group gi over the current step, from the joints at both ends (once per step). */
  private groupBox(C: Collider, gi: number): Float64Array {
    const g = C.jointGroups[gi];
    if (g.stamp !== this.kfTimeIndex) {
      // the start of this step is the end of the last (swapKeyframed: the same skin matrices), so a
      // box made for the last step gives its end box as this one's start box
      if (g.stamp === this.kfTimeIndex - 1) {
        const t = g.jbox0!;
        g.jbox0 = g.jbox1;
        g.jbox1 = t;
      } else jointBoundedBox(g, this.skinAt(C.docIndex, C.mesh, 0), g.jbox0!);
      g.stamp = this.kfTimeIndex;
      if (this.charStill[C.docIndex] === this.kfTimeIndex) copyBox(g.jbox0!, g.jbox1!);
      else jointBoundedBox(g, this.skinAt(C.docIndex, C.mesh, 1), g.jbox1!);
      const a = g.jbox0!, b = g.jbox1!, bx = g.box;
      for (let c = 0; c < 3; c++) {
        bx[c] = a[c] < b[c] ? a[c] : b[c];
        bx[3 + c] = a[3 + c] > b[3 + c] ? a[3 + c] : b[3 + c];
      }
    }
    return g.box;
  }

  /** A character cluster not skinned in this step: its box from the joints at both ends of the step. */
  private clusterBox(C: Collider, p: Part): void {
    if (p.jstamp !== this.kfTimeIndex) {
      // the last step's end box is this one's start box (as in groupBox)
      if (p.jstamp === this.kfTimeIndex - 1) {
        const t = p.jbox0!;
        p.jbox0 = p.jbox1;
        p.jbox1 = t;
      } else jointBoundedBox(p, this.skinAt(C.docIndex, C.mesh, 0), p.jbox0!);
      if (this.charStill[C.docIndex] === this.kfTimeIndex) copyBox(p.jbox0!, p.jbox1!);
      else jointBoundedBox(p, this.skinAt(C.docIndex, C.mesh, 1), p.jbox1!);
      p.jstamp = this.kfTimeIndex;
    }
    const a = p.jbox0!, b = p.jbox1!, bx = p.box;
    for (let c = 0; c < 3; c++) {
      bx[c] = a[c] < b[c] ? a[c] : b[c];
      bx[3 + c] = a[3 + c] > b[3 + c] ? a[3 + c] : b[3 + c];
    }
  }

  /**
   * Per vertex of part p (global index into vMask): which sides of box Q
   * (6 numbers) its swept interval lies strictly outside of, one bit per
   * side (x below, x above, y below, ...). A triangle's or edge's swept box
   * overlaps Q exactly when the AND of its vertices' masks is 0 (the box is
   * the union of its vertices' intervals), so only those primitives need
   * their boxes. Returns the AND of all the masks (a side every vertex lies
   * outside of, 0 if none).
   */
  private sideMasks(C: Collider, p: Part, Q: Float64Array): number {
    const P0 = this.P0, P1 = this.P1, vs = p.verts, M = this.vMask, off = C.vOff;
    const qx0 = Q[0], qy0 = Q[1], qz0 = Q[2], qx1 = Q[3], qy1 = Q[4], qz1 = Q[5];
    let all = 63;
    for (let k = 0; k < vs.length; k++) {
      const g = off + vs[k], o = 3 * g;
      const ax = P0[o], bx = P1[o], ay = P0[o + 1], by = P1[o + 1], az = P0[o + 2], bz = P1[o + 2];
      let m = 0;
      if ((ax > bx ? ax : bx) < qx0) m |= 1;
      if ((ax < bx ? ax : bx) > qx1) m |= 2;
      if ((ay > by ? ay : by) < qy0) m |= 4;
      if ((ay < by ? ay : by) > qy1) m |= 8;
      if ((az > bz ? az : bz) < qz0) m |= 16;
      if ((az < bz ? az : bz) > qz1) m |= 32;
      M[g] = m;
      all &= m;
    }
    return all;
  }

  /** Swept box of triangle t of C (triBox), once per detection pass. */
  private triBoxOf(C: Collider, t: number): void {
    if (C.triStamp[t] === this.detectPass) return;
    C.triStamp[t] = this.detectPass;
    const P0 = this.P0, P1 = this.P1, off = C.vOff, T = C.tris, TB = C.triBox, o = 6 * t;
    const va = 3 * (off + T[3 * t]), vb = 3 * (off + T[3 * t + 1]), vc = 3 * (off + T[3 * t + 2]);
    for (let c = 0; c < 3; c++) {
      const a0 = P0[va + c], a1 = P1[va + c], b0 = P0[vb + c], b1 = P1[vb + c], c0 = P0[vc + c], c1 = P1[vc + c];
      let lo = a0 < a1 ? a0 : a1, hi = a0 < a1 ? a1 : a0;
      if (b0 < lo) lo = b0;
      if (b0 > hi) hi = b0;
      if (b1 < lo) lo = b1;
      if (b1 > hi) hi = b1;
      if (c0 < lo) lo = c0;
      if (c0 > hi) hi = c0;
      if (c1 < lo) lo = c1;
      if (c1 > hi) hi = c1;
      TB[o + c] = lo;
      TB[o + 3 + c] = hi;
    }
  }

  /** Swept box of edge e of C (edgeBox), once per detection pass. */
  private edgeBoxOf(C: Collider, e: number): void {
    if (C.edgeStamp[e] === this.detectPass) return;
    C.edgeStamp[e] = this.detectPass;
    const P0 = this.P0, P1 = this.P1, off = C.vOff, E = C.edges, EB = C.edgeBox, o = 6 * e;
    const va = 3 * (off + E[2 * e]), vb = 3 * (off + E[2 * e + 1]);
    for (let c = 0; c < 3; c++) {
      const a0 = P0[va + c], a1 = P1[va + c], b0 = P0[vb + c], b1 = P1[vb + c];
      let lo = a0 < a1 ? a0 : a1, hi = a0 < a1 ? a1 : a0;
      if (b0 < lo) lo = b0;
      if (b0 > hi) hi = b0;
      if (b1 < lo) lo = b1;
      if (b1 > hi) hi = b1;
      EB[o + c] = lo;
      EB[o + 3 + c] = hi;
    }
  }

  /** Makes collider C's triangle and edge box buffers (characters: when first tested). */
  private primitiveBoxes(C: Collider): void {
    const ntri = C.tris.length / 3;
    C.triBox = new Float64Array(6 * ntri);
    C.edgeBox = new Float64Array(3 * C.edges.length);
    C.triStamp = new Int32Array(ntri).fill(-1);
    C.edgeStamp = new Int32Array(C.edges.length / 2).fill(-1);
  }

  /**
   * Triangles of part p of C whose swept boxes overlap the other part's box, into `list` (their
   * boxes computed); returns how many. Reads p's side masks against that box (partPair makes them).
   */
  private trianglesNear(C: Collider, p: Part, list: Uint32Array): number {
    if (C.triStamp === _none32) this.primitiveBoxes(C);
    const M = this.vMask, T = C.tris, off = C.vOff, tris = p.tris;
    let n = 0;
    for (let m = 0; m < tris.length; m++) {
      const t = tris[m];
      if (M[off + T[3 * t]] & M[off + T[3 * t + 1]] & M[off + T[3 * t + 2]]) continue;
      this.triBoxOf(C, t);
      list[n++] = t;
    }
    return n;
  }

  /**
   * Edges of part p of C whose swept boxes overlap the other part's box (as trianglesNear), into
   * `list`; returns how many. Their boxes are made by edgeBoxes, once both parts have such edges.
   */
  private edgesNear(C: Collider, p: Part, list: Uint32Array): number {
    if (C.triStamp === _none32) this.primitiveBoxes(C);
    const M = this.vMask, E = C.edges, off = C.vOff, edges = p.edges;
    let n = 0;
    for (let m = 0; m < edges.length; m++) {
      const e = edges[m];
      if (M[off + E[2 * e]] & M[off + E[2 * e + 1]]) continue;
      list[n++] = e;
    }
    return n;
  }

  /** The swept boxes of the first n edges of `list` of C (edgeBoxOf). */
  private edgeBoxes(C: Collider, list: Uint32Array, n: number): void {
    for (let m = 0; m < n; m++) this.edgeBoxOf(C, list[m]);
  }

  /** CCD between two parts (vertex–triangle both ways, edge–edge). Returns the earliest approaching hit time or Infinity. */
  private partPair(A: Collider, pa: Part, B: Collider, pb: Part, hs: number): number {
    let tmin = Infinity;
    // each part's side masks against the other's box, once per pair (A and B are different
    // colliders: their vertices' masks sit side by side in vMask); every test below reads them.
    // All of a part's vertices outside one side of the other's box (a dynamic body's box is its
    // oriented box's, looser than its vertices): none of its triangles or edges is near the other
    // part and none of its vertices' boxes meets the other's box, so no test below passes
    if (this.sideMasks(B, pb, pa.box) !== 0) return tmin;
    if (this.sideMasks(A, pa, pb.box) !== 0) return tmin;
    const t1 = this.vertexTriangles(A, pa, B, pb, hs);
    if (t1 < tmin) tmin = t1;
    const t2 = this.vertexTriangles(B, pb, A, pa, hs);
    if (t2 < tmin) tmin = t2;
    const t3 = this.edgeEdges(A, pa, B, pb, hs);
    if (t3 < tmin) tmin = t3;
    return tmin;
  }

  private vertexTriangles(V: Collider, pv: Part, T: Collider, pt: Part, hs: number): number {
    const P0 = this.P0, P1 = this.P1, co = _coords, TI = T.tris;
    let tmin = Infinity;
    // vertices of pv whose swept boxes meet pt's box, in order: a side bit in the vertex's mask
    // (pv's against pt's box) means a side of that box its swept interval lies strictly outside of,
    // where the box test fails (a NaN coordinate sets no bit); none, and no triangle is looked at
    const M = this.vMask, vt = pv.vtVerts, near = (this._near = grown(this._near, vt.length));
    let nv = 0;
    for (let k = 0; k < vt.length; k++) {
      const vi = V.vOff + vt[k];
      if (M[vi] !== 0) continue;
      sweptPointBox(P0, P1, vi, _vb, 0);
      if (boxesOverlap(_vb, 0, pt.box, 0, 0)) near[nv++] = vt[k];
    }
    if (nv === 0) return tmin;
    // triangles of pt near pv
    const list = this.scratchList(pt.tris.length);
    const nt = this.trianglesNear(T, pt, list);
    if (nt === 0) return tmin;
    // read after trianglesNear, which makes a character mesh's box buffers when first tested
    const cull = T.closed, TB = T.triBox;
    for (let k = 0; k < nv; k++) {
      const v = near[k];
      const vi = V.vOff + v;
      sweptPointBox(P0, P1, vi, _vb, 0);
      for (let m = 0; m < nt; m++) {
        const t = list[m];
        if (!boxesOverlap(_vb, 0, TB, 6 * t, 0)) continue;
        const ia = 3 * (T.vOff + TI[3 * t]), ib = 3 * (T.vOff + TI[3 * t + 1]), ic = 3 * (T.vOff + TI[3 * t + 2]);
        const ip = 3 * vi;
        // back-face culling (closed, outward-wound meshes): a vertex behind a face's plane reaches
        // the mesh through another face first
        if (cull && signedPlaneNormalized(P0, ip, ia, ib, ic) < -this.opts.touchDistance) continue;
        // Lipschitz filter: the distance cannot shrink by more than the largest relative displacement
        // (the point moves against any triangle point by a convex combination of its moves against
        // the corners: bodies moving together, a ball carried by a bat, have a small one)
        const reach = this.dispOf(vi) + Math.max(this.dispOf(ia / 3), this.dispOf(ib / 3), this.dispOf(ic / 3));
        const rel = vertexTriangleReach(P0, P1, ip, ia, ib, ic);
        const r2 = rel < reach ? rel * rel : reach * reach;
        if (pointTriangleDistanceSq(P0, ip, ia, ib, ic) > r2 || pointTriangleDistanceSq(P1, ip, ia, ib, ic) > r2) continue;
        // slow pairs that stay on one side of the plane (resting contact) are the touching contacts' business
        if (reach < SLOW_REACH && sameSideVT(P0, P1, ip, ia, ib, ic)) continue;
        for (let c = 0; c < 3; c++) {
          co[c] = P0[ip + c];
          co[3 + c] = P0[ia + c];
          co[6 + c] = P0[ib + c];
          co[9 + c] = P0[ic + c];
          co[12 + c] = P1[ip + c];
          co[15 + c] = P1[ia + c];
          co[18 + c] = P1[ib + c];
          co[21 + c] = P1[ic + c];
        }
        this.stats.ccdQueries++;
        if (!ccdQueryFlat(true, co, 0, _res, 0, CCD_TOLERANCE, CCD_MAX_BOXES)) continue;
        const th = _res[0], u = _res[1], w = _res[2];
        // normal of the triangle at the hit, oriented towards the vertex's side at the start
        let nx = 0, ny = 0, nz = 0;
        {
          const ax = lerp(co, 3, th), ay = lerp(co, 4, th), az = lerp(co, 5, th);
          const ux = lerp(co, 6, th) - ax, uy = lerp(co, 7, th) - ay, uz = lerp(co, 8, th) - az;
          const vx = lerp(co, 9, th) - ax, vy = lerp(co, 10, th) - ay, vz = lerp(co, 11, th) - az;
          nx = uy * vz - uz * vy;
          ny = uz * vx - ux * vz;
          nz = ux * vy - uy * vx;
          const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
          if (!(nl > 1e-30)) continue;
          nx /= nl;
          ny /= nl;
          nz /= nl;
        }
        // relative displacement of the vertex against the triangle point over the sub-step
        let dx = co[12] - co[0], dy = co[13] - co[1], dz = co[14] - co[2];
        const wa = 1 - u - w;
        dx -= wa * (co[15] - co[3]) + u * (co[18] - co[6]) + w * (co[21] - co[9]);
        dy -= wa * (co[16] - co[4]) + u * (co[19] - co[7]) + w * (co[22] - co[10]);
        dz -= wa * (co[17] - co[5]) + u * (co[20] - co[8]) + w * (co[23] - co[11]);
        const sx = co[0] - (wa * co[3] + u * co[6] + w * co[9]);
        const sy = co[1] - (wa * co[4] + u * co[7] + w * co[10]);
        const sz = co[2] - (wa * co[5] + u * co[8] + w * co[11]);
        let side = sx * nx + sy * ny + sz * nz;
        if (Math.abs(side) < 1e-12) side = -(dx * nx + dy * ny + dz * nz);
        // a pair already in resting contact keeps its normal: at touching distance the side is noise
        const pcVT = this.persisted(HitKind.VertexTriangle, V.index, v, T.index, t);
        if (pcVT) side = pcVT.n[0] * nx + pcVT.n[1] * ny + pcVT.n[2] * nz;
        if (side < 0) {
          nx = -nx;
          ny = -ny;
          nz = -nz;
        }
        const dn = dx * nx + dy * ny + dz * nz;
        if (!(dn < -1e-9)) continue;
        // a slow approach of a pair in resting contact is the resting contacts' business (held at
        // the start of every sub-step); backtracking to it would only repeat the same tiny step
        if (pcVT && pcVT.held && -dn / hs < this.opts.restitutionThresholdMps) continue;
        if (this.pushHit(HitKind.VertexTriangle, V.index, v, T.index, t, th, u, w, nx, ny, nz, -dn / hs) && th < tmin) tmin = th;
      }
    }
    return tmin;
  }

  /** disp(P0, P1, 3 g): the length of vertex g's move over the sub-step, once per detection pass. */
  private dispOf(g: number): number {
    if (this.dispStamp[g] !== this.detectPass) {
      this.dispStamp[g] = this.detectPass;
      this.vDisp[g] = disp(this.P0, this.P1, 3 * g);
    }
    return this.vDisp[g];
  }

  /** Scratch of vertexTriangles: the vertices whose swept boxes meet the other part's box. */
  private _near = new Uint32Array(64);

  private _cand = new Uint32Array(64);
  private scratchCand(n: number): Uint32Array {
    return (this._cand = grown(this._cand, n));
  }

  private _listA = new Uint32Array(64);
  private scratchListA(n: number): Uint32Array {
    return (this._listA = grown(this._listA, n));
  }

  private _list = new Uint32Array(64);
  private scratchList(n: number): Uint32Array {
    return (this._list = grown(this._list, n));
  }

  private edgeEdges(A: Collider, pa: Part, B: Collider, pb: Part, hs: number): number {
    const P0 = this.P0, P1 = this.P1, co = _coords, EA = A.edges, EB = B.edges;
    let tmin = Infinity;
    const ca = A.index, cb = B.index;
    // A's near edges first (A is the dynamic body: few edges, where B may be a character cluster)
    const listA = this.scratchListA(pa.edges.length);
    const na = this.edgesNear(A, pa, listA);
    if (na === 0) return tmin;
    const list = this.scratchList(pb.edges.length);
    const nb = this.edgesNear(B, pb, list);
    if (nb === 0) return tmin;
    this.edgeBoxes(B, list, nb);
    this.edgeBoxes(A, listA, na);
    for (let k = 0; k < na; k++) {
      const e = listA[k];
      const i0 = 3 * (A.vOff + EA[2 * e]), i1 = 3 * (A.vOff + EA[2 * e + 1]);
      for (let m = 0; m < nb; m++) {
        const f = list[m];
        if (!boxesOverlap(A.edgeBox, 6 * e, B.edgeBox, 6 * f, 0)) continue;
        const j0 = 3 * (B.vOff + EB[2 * f]), j1 = 3 * (B.vOff + EB[2 * f + 1]);
        const reach = Math.max(this.dispOf(i0 / 3), this.dispOf(i1 / 3)) + Math.max(this.dispOf(j0 / 3), this.dispOf(j1 / 3));
        // the closest points move against each other by a convex combination of the endpoints' relative moves
        const rel = edgeEdgeReach(P0, P1, i0, i1, j0, j1);
        const r2 = rel < reach ? rel * rel : reach * reach;
        if (segmentSegmentClosest(P0, i0, i1, P0, j0, j1, _st) > r2 || segmentSegmentClosest(P1, i0, i1, P1, j0, j1, _st) > r2) continue;
        if (reach < SLOW_REACH && sameSideEE(P0, P1, i0, i1, j0, j1)) continue;
        for (let c = 0; c < 3; c++) {
          co[c] = P0[i0 + c];
          co[3 + c] = P0[i1 + c];
          co[6 + c] = P0[j0 + c];
          co[9 + c] = P0[j1 + c];
          co[12 + c] = P1[i0 + c];
          co[15 + c] = P1[i1 + c];
          co[18 + c] = P1[j0 + c];
          co[21 + c] = P1[j1 + c];
        }
        this.stats.ccdQueries++;
        if (!ccdQueryFlat(false, co, 0, _res, 0, CCD_TOLERANCE, CCD_MAX_BOXES)) continue;
        const th = _res[0], u = _res[1], w = _res[2];
        const ax = lerp(co, 3, th) - lerp(co, 0, th), ay = lerp(co, 4, th) - lerp(co, 1, th), az = lerp(co, 5, th) - lerp(co, 2, th);
        const bx = lerp(co, 9, th) - lerp(co, 6, th), by = lerp(co, 10, th) - lerp(co, 7, th), bz = lerp(co, 11, th) - lerp(co, 8, th);
        let nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
        const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(nl > 1e-9 * Math.sqrt((ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz)))) continue; // parallel: left to vertex–triangle
        nx /= nl;
        ny /= nl;
        nz /= nl;
        // relative displacement of the two contact points
        const dx = (1 - u) * (co[12] - co[0]) + u * (co[15] - co[3]) - (1 - w) * (co[18] - co[6]) - w * (co[21] - co[9]);
        const dy = (1 - u) * (co[13] - co[1]) + u * (co[16] - co[4]) - (1 - w) * (co[19] - co[7]) - w * (co[22] - co[10]);
        const dz = (1 - u) * (co[14] - co[2]) + u * (co[17] - co[5]) - (1 - w) * (co[20] - co[8]) - w * (co[23] - co[11]);
        const sx = (1 - u) * co[0] + u * co[3] - (1 - w) * co[6] - w * co[9];
        const sy = (1 - u) * co[1] + u * co[4] - (1 - w) * co[7] - w * co[10];
        const sz = (1 - u) * co[2] + u * co[5] - (1 - w) * co[8] - w * co[11];
        let side = sx * nx + sy * ny + sz * nz;
        if (Math.abs(side) < 1e-12) side = -(dx * nx + dy * ny + dz * nz);
        // a pair already in resting contact keeps its normal: at touching distance the side is noise
        const pcEE = this.persisted(HitKind.EdgeEdge, ca, e, cb, f);
        if (pcEE) side = pcEE.n[0] * nx + pcEE.n[1] * ny + pcEE.n[2] * nz;
        if (side < 0) {
          nx = -nx;
          ny = -ny;
          nz = -nz;
        }
        const dn = dx * nx + dy * ny + dz * nz;
        if (!(dn < -1e-9)) continue;
        if (pcEE && pcEE.held && -dn / hs < this.opts.restitutionThresholdMps) continue;
        if (this.pushHit(HitKind.EdgeEdge, ca, e, cb, f, th, u, w, nx, ny, nz, -dn / hs) && th < tmin) tmin = th;
      }
    }
    return tmin;
  }

  // ------------------------------------------------------------ response

  private contactCount = 0;

  /**
   * A frictionless, inelastic joint-limit contact (no collider features) from body a to body b; its
   * colliders are −2 and −3 − `limit` (limit: 2 × the joint's index, + 1 for its twist limit), by
   * which sequentialSolve's warm start finds the same limit in the last solve.
   */
  private pushLimitContact(a: number, b: number, px: number, py: number, pz: number, nx: number, ny: number, nz: number, limit: number): void {
    this.pushContact(a, b, px, py, pz, nx, ny, nz, 0, -2, -3 - limit, 0);
  }

  /**
   * Appends a contact from the pool: bodies a and b (-1 the ground), point,
   * normal, friction, the colliders it comes from (-1 the ground, -2 a joint
   * limit) and its approach speed; restitution 0 until solveContacts sets it
   * from the approach.
   */
  private pushContact(a: number, b: number, px: number, py: number, pz: number, nx: number, ny: number, nz: number, friction: number, colA: number, colB: number, approach: number): void {
    const k = this.contactCount;
    const ct = this.nextContact();
    ct.bodyA = a;
    ct.bodyB = b;
    ct.point.x = px;
    ct.point.y = py;
    ct.point.z = pz;
    ct.normal.x = nx;
    ct.normal.y = ny;
    ct.normal.z = nz;
    ct.restitution = 0;
    ct.friction = friction;
    this.contactColA[k] = colA;
    this.contactColB[k] = colB;
    this.contactApproach[k] = approach;
  }

  private nextContact(): ContactInput {
    const k = this.contactCount++;
    if (k >= this.contactPool.length) this.contactPool.push({ bodyA: 0, bodyB: -1, point: { x: 0, y: 0, z: 0 }, normal: { x: 0, y: 1, z: 0 } });
    if (k >= this.contactColA.length) {
      const a = new Int32Array(2 * k), b = new Int32Array(2 * k), c = new Float64Array(2 * k);
      a.set(this.contactColA);
      b.set(this.contactColB);
      c.set(this.contactApproach);
      this.contactColA = a;
      this.contactColB = b;
      this.contactApproach = c;
    }
    return this.contactPool[k];
  }

  private bodyCount = 0;

  private nextKeyframedBody(px: number, py: number, pz: number, vx: number, vy: number, vz: number, restitution: number, friction: number): number {
    const k = this.bodyCount++;
    if (k >= this.bodyInputs.length)
      this.bodyInputs.push({ massKg: 1, inertia: new Float64Array(9), centerOfMass: { x: 0, y: 0, z: 0 }, linearVelocity: { x: 0, y: 0, z: 0 }, angularVelocity: { x: 0, y: 0, z: 0 } });
    const b = this.bodyInputs[k];
    b.keyframed = true;
    b.centerOfMass.x = px;
    b.centerOfMass.y = py;
    b.centerOfMass.z = pz;
    b.linearVelocity.x = vx;
    b.linearVelocity.y = vy;
    b.linearVelocity.z = vz;
    b.angularVelocity.x = 0;
    b.angularVelocity.y = 0;
    b.angularVelocity.z = 0;
    b.restitution = restitution;
    b.friction = friction;
    return k;
  }

  /** Loads every dynamic body into the solver input (indices = body indices). */
  /** Reserves the solver inputs of the dynamic bodies (indices = body indices); loadDynamicBody fills them. */
  private reserveDynamicBodies(): void {
    this.bodyCount = 0;
    for (let i = 0; i < this.dynCount; i++) {
      const k = this.bodyCount++;
      if (k >= this.bodyInputs.length)
        this.bodyInputs.push({ massKg: 1, inertia: new Float64Array(9), centerOfMass: { x: 0, y: 0, z: 0 }, linearVelocity: { x: 0, y: 0, z: 0 }, angularVelocity: { x: 0, y: 0, z: 0 } });
    }
  }

  /** Loads dynamic body i into its solver input. */
  private loadDynamicBody(st: Float64Array, i: number): void {
    const B = this.bodies;
    {
      const b = this.bodyInputs[i];
      const s = STATE_STRIDE * i;
      b.keyframed = false;
      b.massKg = B.massKg[i];
      b.centerOfMass.x = st[s];
      b.centerOfMass.y = st[s + 1];
      b.centerOfMass.z = st[s + 2];
      B.linearVelocity(st, i, _a);
      B.angularVelocity(st, i, _b);
      b.linearVelocity.x = _a[0];
      b.linearVelocity.y = _a[1];
      b.linearVelocity.z = _a[2];
      b.angularVelocity.x = _b[0];
      b.angularVelocity.y = _b[1];
      b.angularVelocity.z = _b[2];
      const I = b.inertia as Float64Array;
      for (let c = 0; c < 3; c++) {
        B.inertiaWorldTimes(st, i, c === 0 ? 1 : 0, c === 1 ? 1 : 0, c === 2 ? 1 : 0, I, 3 * c);
      }
      // symmetrise against rounding
      const i01 = 0.5 * (I[1] + I[3]), i02 = 0.5 * (I[2] + I[6]), i12 = 0.5 * (I[5] + I[7]);
      I[1] = I[3] = i01;
      I[2] = I[6] = i02;
      I[5] = I[7] = i12;
      const C = this.colliders[i];
      b.restitution = C.restitution;
      b.friction = C.friction;
    }
  }

  /** Adds the touching contacts (ground and persistent mesh pairs) at the positions in P0. */
  private gatherTouching(st: Float64Array, hs: number): void {
    const P = this.P0;
    const touch = this.opts.touchDistance;
    const spec = this.opts.speculativeSpeedMps;
    if (this.groundY !== null) {
      const g = this.groundY;
      for (let c = 0; c < this.dynCount; c++) {
        const C = this.colliders[c];
        if (!this.awake[C.body] || !C.groups || !this.active[C.body]) continue;
        // ragdoll parts: every ground approach up to 3 m/s is speculative (no exact time of impact needed for limbs)
        const ragdollPart = C.object >= 0 && this.objects[C.object].kind === 'character';
        const specC = ragdollPart ? Math.max(spec, 3) : spec;
        // no vertex within reach of the ground: nothing to gather
        const bottom = orientedBottomY(C.lbox, st, STATE_STRIDE * C.body);
        if (bottom - g >= touch && !(bottom - g < specC * hs)) continue;
        // vertical velocity of a vertex: the body's ω once, not per vertex (as pointVelocityY)
        const sb = STATE_STRIDE * C.body;
        this.bodies.angularVelocity(st, C.body, _w);
        const wx = _w[0], wz = _w[2], vy0 = st[sb + 8] * this.bodies.invMass[C.body], cx = st[sb], cz = st[sb + 2];
        // candidates touch, or reach the ground within the sub-step at a downward speed of at most
        // specC: they start within max(touch, min(specC, fastest downward vertex speed) hs) of it
        // (a vertex's vertical speed is vy0 + wz rx − wx rz, within |ω_xz| · radius of vy0)
        const down = Math.min(specC, Math.max(0, -vy0 + Math.sqrt(wx * wx + wz * wz) * C.radius)) * (1 + 1e-9) + 1e-12;
        const heldStep = this.colGroundHitStep[c] === this.stats.steps;
        const woke = this.wokeStep[C.body] === this.stats.steps; // woken in this step: at rest, not approaching
        const nch = C.chunkStart.length - 1;
        const pass = this.scratchChunkPass(nch);
        // a ragdoll part's vertices within the band (what bandVertices finds for the active set after
        // the solve: the same test, numbers and order) are kept while the band's chunks are read;
        // only those below `near` (bandNear): the active set before and after the solve can pick no
        // other (the solved velocities are checked against it, and the whole band is read if they
        // reach further)
        const band = Math.max(touch, specC * hs);
        let passB = pass, rec = -1, near = band;
        if (ragdollPart) {
          rec = this.startBandRecord(c);
          near = this.bandNear(c, touch, down * hs, band);
          this.agcNear[c] = near;
          if (near < band) {
            if (lowChunks(C, this.pose0, 7 * c, g + Math.max(touch, down * hs), pass) === 0 && !heldStep) continue;
          } else {
            passB = this._chunkPassB = grown(this._chunkPassB, nch);
            if (lowChunks2(C, this.pose0, 7 * c, g + Math.max(touch, down * hs), pass, g + band, passB) === 0 && !heldStep) {
              // as bandVertices would find them (the band's chunks without the candidates')
              this.bandVertices(c, g, band);
              continue;
            }
          }
        } else if (lowChunks(C, this.pose0, 7 * c, g + Math.max(touch, down * hs), pass) === 0 && !heldStep) continue;
        const keepAdded = specC > spec && this.activeKeep.length > 0;
        // the vertices of the low chunks from the pose (the numbers placeVertices gives: P0 of an
        // active body is its pose0's placement), written to P0 where the later steps read them
        const q0 = this.pose0, ps = 7 * c, CL = C.chunkLocal;
        const x0 = q0[ps], y0 = q0[ps + 1], z0 = q0[ps + 2], qx = q0[ps + 3], qy = q0[ps + 4], qz = q0[ps + 5], qw = q0[ps + 6];
        // candidates: touching vertices that approach, and slow ones that would reach the ground in this sub-step
        let nCand = 0;
        const cand = this.scratchCand(C.nv);
        const CS = C.chunkStart, CV = C.chunkVerts;
        // heights from the rotation's second row rule out the vertices surely beyond reach (see lowestY)
        const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
        const reach = specC * hs, cutY = g + (near < band ? near : touch > reach ? touch : reach) - y0 + heightTolerance(C, y0, g);
        const CB = C.chunkBox, a10 = Math.abs(r10), a11 = Math.abs(r11), a12 = Math.abs(r12);
        // the vertices (chunk order) the row test could pass: the part's low set (lowSet), made
        // again when the orientation has turned too far since it was made
        this.lowSet(c, r10, r11, r12, cutY);
        const SI = this.lowSetI, SK = this.lowSetK, e1 = C.vOff + this.lowSetN[c];
        let kPrev = -1, pk = 0, bk = false, okK = false;
        for (let e = C.vOff; e < e1; e++) {
          const k = SK[e];
          if (k !== kPrev) {
            // the chunk's tests, as a scan of every chunk makes them
            kPrev = k;
            pk = pass[k];
            bk = rec >= 0 && passB[k] === 1;
            const b = 6 * k;
            okK = (pk === 1 || bk) && !(r10 * CB[b] + r11 * CB[b + 1] + r12 * CB[b + 2] - (a10 * CB[b + 3] + a11 * CB[b + 4] + a12 * CB[b + 5]) >= cutY);
            // room for every vertex of the chunk in the band record, once per chunk
            if (okK && bk) this.agcBuf = grown(this.agcBuf, this.agcLen + 4 * (CS[k + 1] - CS[k]));
          }
          if (!okK) continue;
          {
            const i = SI[e];
            const lx = CL[3 * i], ly = CL[3 * i + 1], lz = CL[3 * i + 2];
            if (r10 * lx + r11 * ly + r12 * lz >= cutY) continue;
            const v = CV[i], o = 3 * (C.vOff + v);
            const tx = 2 * (qy * lz - qz * ly), ty = 2 * (qz * lx - qx * lz), tz = 2 * (qx * ly - qy * lx);
            const py = y0 + ly + qw * ty + qz * tx - qx * tz;
            const d = py - g;
            if (d >= touch && !(d < specC * hs)) continue;
            // beyond `near` no candidate either (gatherTouching's, as addGroundCandidatesBeforeSolve's)
            if (!(d < near)) continue;
            const px = x0 + lx + qw * tx + qy * tz - qz * ty, pz = z0 + lz + qw * tz + qx * ty - qy * tx;
            if (bk) {
              const Q = this.agcBuf, q = this.agcLen;
              Q[q] = v;
              Q[q + 1] = px;
              Q[q + 2] = py;
              Q[q + 3] = pz;
              this.agcLen = q + 4;
            }
            if (!pk) continue;
            P[o] = px;
            P[o + 1] = py;
            P[o + 2] = pz;
            if (this.groundMark[C.vOff + v] === this.markStamp) continue;
            // ragdoll vertices the active set had to add after a solve in this step or the last one
            // are candidates while within the band (then reduced with the others)
            if (keepAdded && this.activeKeep[C.vOff + v] >= this.stats.steps) {
              cand[nCand++] = v;
              continue;
            }
            const vn = vy0 + wz * (P[o] - cx) - wx * (P[o + 2] - cz);
            if (vn >= 0 && !(d < touch && woke)) continue;
            if (d >= touch && (-vn > specC || d + vn * hs >= 0)) continue;
            cand[nCand++] = v;
          }
        }
        if (rec >= 0) this.agcEnd[c] = this.agcLen;
        // in vertex order (the order the contacts are made in)
        sortAscending(cand, nCand);
        // contact data reduction (Zachwieja 3.8): a flat patch is held by its extreme points
        if (nCand > 4) nCand = reduceGroundPatch(P, C.vOff, cand, nCand);
        // a ragdoll part (limb) lies on a line: its two farthest-apart points hold it
        // plus its fastest approaching point, or a limb rolling about that line dips in between
        if (nCand > 2 && C.object >= 0 && this.objects[C.object].kind === 'character') {
          let fast = -1, fastV = Infinity;
          for (let k = 0; k < nCand; k++) {
            const o = 3 * (C.vOff + cand[k]);
            const vn = vy0 + wz * (P[o] - cx) - wx * (P[o + 2] - cz);
            if (vn < fastV) {
              fastV = vn;
              fast = cand[k];
            }
          }
          nCand = reduceGroundLine(P, C.vOff, cand, nCand);
          if (fast !== cand[0] && fast !== cand[1]) cand[nCand++] = fast;
        }
        // vertices that hit the ground by an impact in this step stay held: leaving one out lets the
        // drift push it in again at once (an impact at the same time, over and over)
        if (nCand < C.nv && heldStep) {
          this.ensureP0(c);
          const n0 = nCand;
          for (let v = 0, o = 3 * C.vOff; v < C.nv; v++, o += 3) {
            if (this.groundHitStep[C.vOff + v] !== this.stats.steps) continue;
            let dup = false;
            for (let k = 0; k < n0; k++) if (cand[k] === v) dup = true;
            if (dup) continue;
            const d = P[o + 1] - g;
            if (d >= touch) continue;
            if (vy0 + wz * (P[o] - cx) - wx * (P[o + 2] - cz) >= 0) continue;
            cand[nCand++] = v;
          }
        }
        for (let k = 0; k < nCand; k++) {
          const v = cand[k], o = 3 * (C.vOff + v);
          const d = P[o + 1] - g;
          const vn = vy0 + wz * (P[o] - cx) - wx * (P[o + 2] - cz);
          let other = -1;
          // ragdoll parts: a gap below the slop is resting contact (no approach at all), or the gaps the
          // position corrections leave would let a part resting on the ground fall at up to gap / hs
          if (d >= (specC > spec ? RAGDOLL_GROUND_SLOP : touch)) {
            // speculative contact: the ground side moves away at d / hs, so the gap may close exactly, no further
            other = this.nextKeyframedBody(P[o], g, P[o + 2], 0, -d / hs, 0, 0, C.friction);
          }
          this.groundMark[C.vOff + v] = this.markStamp;
          this.pushContact(C.body, other, P[o], P[o + 1], P[o + 2], 0, 1, 0, C.friction, c, -1, -vn);
        }
      }
    }
    // persistent mesh contacts
    const keep = 1e-3;
    let w = 0;
    for (let k = 0; k < this.persist.length; k++) {
      const pc = this.persist[k];
      const A = this.colliders[pc.cA], Bc = this.colliders[pc.cB];
      if (!this.active[A.body] || (Bc.kind === KIND_DYNAMIC && !this.active[Bc.body])) {
        this.persist[w++] = pc; // not in this sub-step (its island is on another clock)
        continue;
      }
      if (A.kind === KIND_DYNAMIC) this.ensureP0(pc.cA);
      if (Bc.kind === KIND_DYNAMIC) this.ensureP0(pc.cB);
      let dist = 0;
      let px = 0, py = 0, pz = 0, nx = pc.n[0], ny = pc.n[1], nz = pc.n[2];
      let ok = true;
      if (pc.kind === HitKind.VertexTriangle) {
        const T = Bc.tris, t = pc.fB;
        const ok2 = pointTrianglePlane(P, 3 * (A.vOff + pc.fA), 3 * (Bc.vOff + T[3 * t]), 3 * (Bc.vOff + T[3 * t + 1]), 3 * (Bc.vOff + T[3 * t + 2]), _pt);
        if (!ok2 || _pt[1] < -0.05 || _pt[2] < -0.05 || _pt[1] + _pt[2] > 1.05) ok = false;
        const sgn = _pt[3] * nx + _pt[4] * ny + _pt[5] * nz < 0 ? -1 : 1;
        dist = sgn * _pt[0];
        nx = sgn * _pt[3];
        ny = sgn * _pt[4];
        nz = sgn * _pt[5];
        const o = 3 * (A.vOff + pc.fA);
        px = P[o];
        py = P[o + 1];
        pz = P[o + 2];
      } else {
        const EA = A.edges, EB = Bc.edges;
        const a0 = 3 * (A.vOff + EA[2 * pc.fA]), a1 = 3 * (A.vOff + EA[2 * pc.fA + 1]);
        const b0 = 3 * (Bc.vOff + EB[2 * pc.fB]), b1 = 3 * (Bc.vOff + EB[2 * pc.fB + 1]);
        const d2 = segmentSegmentClosest(P, a0, a1, P, b0, b1, _st);
        const s = _st[0], t = _st[1];
        if (s <= 0 || s >= 1 || t <= 0 || t >= 1) ok = false;
        dist = Math.sqrt(d2);
        const qx = P[a0] + s * (P[a1] - P[a0]), qy = P[a0 + 1] + s * (P[a1 + 1] - P[a0 + 1]), qz = P[a0 + 2] + s * (P[a1 + 2] - P[a0 + 2]);
        const rx = P[b0] + t * (P[b1] - P[b0]), ry = P[b0 + 1] + t * (P[b1 + 1] - P[b0 + 1]), rz = P[b0 + 2] + t * (P[b1 + 2] - P[b0 + 2]);
        px = 0.5 * (qx + rx);
        py = 0.5 * (qy + ry);
        pz = 0.5 * (qz + rz);
        const ex = P[a1] - P[a0], ey = P[a1 + 1] - P[a0 + 1], ez = P[a1 + 2] - P[a0 + 2];
        const fx = P[b1] - P[b0], fy = P[b1 + 1] - P[b0 + 1], fz = P[b1 + 2] - P[b0 + 2];
        let cx = ey * fz - ez * fy, cy = ez * fx - ex * fz, cz = ex * fy - ey * fx;
        const cl = hypot3(cx, cy, cz);
        if (cl > 1e-12) {
          cx /= cl;
          cy /= cl;
          cz /= cl;
          const sg = cx * nx + cy * ny + cz * nz < 0 ? -1 : 1;
          nx = sg * cx;
          ny = sg * cy;
          nz = sg * cz;
        }
        if ((qx - rx) * nx + (qy - ry) * ny + (qz - rz) * nz < 0) dist = -dist;
      }
      if (!ok || Math.abs(dist) > keep) continue;
      this.persist[w++] = pc;
      pc.n[0] = nx;
      pc.n[1] = ny;
      pc.n[2] = nz;
      // a ragdoll part resting on a mesh: a gap below the slop is resting contact, as on the ground
      const rest = (A.object >= 0 && this.objects[A.object].ragdoll) || (Bc.object >= 0 && this.objects[Bc.object].ragdoll) ? RAGDOLL_GROUND_SLOP : touch;
      pc.held = dist <= rest;
      if (dist > rest) continue;
      if (!this.awake[A.body] && (Bc.kind !== KIND_DYNAMIC || !this.awake[Bc.body])) continue;
      const woke = this.wokeStep[A.body] === this.stats.steps || (Bc.kind === KIND_DYNAMIC && this.wokeStep[Bc.body] === this.stats.steps);
      const before = this.contactCount;
      this.addMeshContact(st, pc.cA, pc.cB, pc.kind, pc.fA, pc.fB, px, py, pz, nx, ny, nz, _st[0], _st[1], hs, !woke);
      if (this.contactCount > before) continue;
      // held but not approaching now: a candidate of the active set (addMeshContactsAfterSolve)
      const m = this.meshCandCount;
      if (m >= this.meshCandPc.length) {
        const c = new Int32Array(2 * m);
        c.set(this.meshCandPc);
        this.meshCandPc = c;
        this.meshCandF = grown(this.meshCandF, 16 * m);
      }
      this.meshCandPc[m] = w - 1;
      const F = this.meshCandF, o = 8 * m;
      F[o] = px;
      F[o + 1] = py;
      F[o + 2] = pz;
      F[o + 3] = nx;
      F[o + 4] = ny;
      F[o + 5] = nz;
      F[o + 6] = _st[0];
      F[o + 7] = _st[1];
      this.meshCandCount = m + 1;
    }
    this.persist.length = w;
  }

  private pointVelocityY(st: Float64Array, i: number, px: number, py: number, pz: number): number {
    const s = STATE_STRIDE * i;
    this.bodies.angularVelocity(st, i, _w);
    const rx = px - st[s], rz = pz - st[s + 2];
    void py;
    return st[s + 8] * this.bodies.invMass[i] + _w[2] * rx - _w[0] * rz;
  }

  /** Velocity of the material point at p of collider c (dynamic or keyframed) into _v. */
  private contactVelocity(st: Float64Array, c: number, kind: number, feat: number, side: 0 | 1, u: number, w: number, px: number, py: number, pz: number, timeSec: number): void {
    const C = this.colliders[c];
    if (C.kind === KIND_DYNAMIC) {
      const i = C.body, s = STATE_STRIDE * i;
      this.bodies.angularVelocity(st, i, _w);
      const im = this.bodies.invMass[i];
      const rx = px - st[s], ry = py - st[s + 1], rz = pz - st[s + 2];
      _v[0] = st[s + 7] * im + _w[1] * rz - _w[2] * ry;
      _v[1] = st[s + 8] * im + _w[2] * rx - _w[0] * rz;
      _v[2] = st[s + 9] * im + _w[0] * ry - _w[1] * rx;
      return;
    }
    _acc[0] = _acc[1] = _acc[2] = 0;
    if (kind === HitKind.VertexTriangle) {
      if (side === 0) this.addKeyframedVelocity(C, feat, 1, timeSec);
      else {
        const T = C.tris;
        this.addKeyframedVelocity(C, T[3 * feat], 1 - u - w, timeSec);
        this.addKeyframedVelocity(C, T[3 * feat + 1], u, timeSec);
        this.addKeyframedVelocity(C, T[3 * feat + 2], w, timeSec);
      }
    } else {
      const E = C.edges, par = side === 0 ? u : w;
      this.addKeyframedVelocity(C, E[2 * feat], 1 - par, timeSec);
      this.addKeyframedVelocity(C, E[2 * feat + 1], par, timeSec);
    }
    _v[0] = _acc[0];
    _v[1] = _acc[1];
    _v[2] = _acc[2];
  }

  private addKeyframedVelocity(C: Collider, v: number, wt: number, timeSec: number): void {
    this.keyframedVertexVelocity(C, v, timeSec);
    _acc[0] += wt * _v[0];
    _acc[1] += wt * _v[1];
    _acc[2] += wt * _v[2];
  }

  /** Adds a mesh–mesh contact between colliders cA (vertex / edge a side) and cB. */
  private addMeshContact(
    st: Float64Array, cA: number, cB: number, kind: number, fA: number, fB: number,
    px: number, py: number, pz: number, nx: number, ny: number, nz: number, u: number, w: number, hs: number, onlyApproaching: boolean,
  ): void {
    const A = this.colliders[cA], B = this.colliders[cB];
    this.contactVelocity(st, cA, kind, fA, 0, u, w, px, py, pz, this._kfTime);
    const ax = _v[0], ay = _v[1], az = _v[2];
    this.contactVelocity(st, cB, kind, fB, 1, u, w, px, py, pz, this._kfTime);
    const bx = _v[0], by = _v[1], bz = _v[2];
    const vn = (ax - bx) * nx + (ay - by) * ny + (az - bz) * nz;
    if (onlyApproaching && vn >= 0) return;
    void hs;
    let ia: number, ib: number;
    if (A.kind === KIND_DYNAMIC) ia = A.body;
    else ia = this.nextKeyframedBody(px, py, pz, ax, ay, az, A.restitution, A.friction);
    if (B.kind === KIND_DYNAMIC) ib = B.body;
    else ib = this.nextKeyframedBody(px, py, pz, bx, by, bz, B.restitution, B.friction);
    this.pushContact(ia, ib, px, py, pz, nx, ny, nz, Math.max(A.friction, B.friction), cA, cB, -vn);
  }

  private _kfTime = 0;
  private markStamp = 0;
  /**
   * Per body: the step in which it last woke. A body woken in this step
   * starts from rest (no gravity kick while asleep): its touching contacts
   * count even when not approaching, so what woke it finds it supported.
   */
  private wokeStep = new Int32Array(0);
  private groundMark = new Int32Array(0);
  /** Per dynamic vertex: the last step whose ground gathering takes it in (added by the active set). */
  private activeKeep = new Int32Array(0);
  /** Per vertex: the step in which it last hit the ground by an impact. */
  private groundHitStep = new Int32Array(0);
  /** Per dynamic collider: the last step one of its vertices hit the ground by an impact. */
  private colGroundHitStep = new Int32Array(0);

  /** Adds the ball joints and active cone limits of the ragdolls. Returns the joint count. */
  private gatherJoints(st: Float64Array): number {
    const J = this.joints;
    let n = 0;
    for (let k = 0; k < J.length; k++) {
      const j = J[k];
      if (!this.awake[j.bodyA] && !this.awake[j.bodyB]) continue;
      if (!this.active[j.bodyA]) continue;
      const sa = STATE_STRIDE * j.bodyA, sb = STATE_STRIDE * j.bodyB;
      this.turnedAnchor(_a, j.index, 0, st, sa, j.rA);
      this.turnedAnchor(_b, j.index, 1, st, sb, j.rB);
      if (n >= this.jointPool.length) this.jointPool.push({ kind: 'ball', bodyA: 0, bodyB: 0, point: { x: 0, y: 0, z: 0 } });
      const ji = this.jointPool[n++];
      ji.bodyA = j.bodyA;
      ji.bodyB = j.bodyB;
      const px = 0.5 * (st[sa] + _a[0] + st[sb] + _b[0]), py = 0.5 * (st[sa + 1] + _a[1] + st[sb + 1] + _b[1]), pz = 0.5 * (st[sa + 2] + _a[2] + st[sb + 2] + _b[2]);
      ji.point.x = px;
      ji.point.y = py;
      ji.point.z = pz;
      // cone limit: child axis must stay within coneLimitRad of the parent's reference axis
      rotateF64(_c, 0, st, sa + 3, j.coneAxisA[0], j.coneAxisA[1], j.coneAxisA[2]);
      rotateF64(_d, 0, st, sb + 3, j.axisB[0], j.axisB[1], j.axisB[2]);
      const cosA = _c[0] * _d[0] + _c[1] * _d[1] + _c[2] * _d[2];
      // engaged at the boundary (the position correction keeps the angle at most at the limit)
      if (j.coneLimitRad < Math.PI && cosA < this.engageAt[2 * j.index]) {
        // push the child's axis point back towards the cone
        let nx = _c[0] - cosA * _d[0], ny = _c[1] - cosA * _d[1], nz = _c[2] - cosA * _d[2];
        const l = hypot3(nx, ny, nz);
        if (l > 1e-9) {
          nx /= l;
          ny /= l;
          nz /= l;
          this.pushLimitContact(j.bodyB, j.bodyA, px + j.coneLen * _d[0], py + j.coneLen * _d[1], pz + j.coneLen * _d[2], nx, ny, nz, 2 * j.index);
        }
      }
      // twist limit: a frictionless contact at lever r from the joint point, across the child
      // axis d: its relative normal velocity is r × the twist rate (no swing or joint velocity
      // enters), so it stops the twist from growing past the limit
      if (j.twistLimitRad < Math.PI) {
        // well inside (|tan(φ/2)| below the engaging twist's by a margin far beyond atan2's rounding): not engaged
        this.twistHalf(st, j);
        const ts = _tw[0], tc = _tw[1];
        const phi = (ts < 0 ? -ts : ts) <= tc * this.engageAt[2 * j.index + 1] ? 0 : 2 * atan2(ts, tc);
        const lim = j.twistLimitRad - LIMIT_MARGIN_RAD;
        if (phi > lim || phi < -lim) {
          // e ⊥ d, t = d × e
          let ex = 0, ey = 0, ez = 0;
          if (Math.abs(_d[0]) < 0.57735) ex = 1;
          else if (Math.abs(_d[1]) < 0.57735) ey = 1;
          else ez = 1;
          const dot = ex * _d[0] + ey * _d[1] + ez * _d[2];
          ex -= dot * _d[0];
          ey -= dot * _d[1];
          ez -= dot * _d[2];
          const el = hypot3(ex, ey, ez);
          ex /= el;
          ey /= el;
          ez /= el;
          const sg = phi > 0 ? -1 : 1; // normal −t resists a growing positive twist
          const tx = sg * (_d[1] * ez - _d[2] * ey), ty = sg * (_d[2] * ex - _d[0] * ez), tz = sg * (_d[0] * ey - _d[1] * ex);
          const r = Math.max(j.coneLen, 0.05);
          this.pushLimitContact(j.bodyB, j.bodyA, px + r * ex, py + r * ey, pz + r * ez, tx, ty, tz, 2 * j.index + 1);
        }
      }
    }
    return n;
  }

  /** Impact contacts gathered by the last solveContacts (0 when not an impact). */
  private impactContacts = 0;

  /**
   * Resting contacts and joints at the start of a sub-step (impact = false),
   * or the impact at the time of first contact (impact = true: the contacts
   * found by CCD within the window join the touching ones).
   */
  private solveContacts(st: Float64Array, timeSec: number, hs: number, impact: boolean, tau = 0): boolean {
    this.contactCount = 0;
    this.meshCandCount = 0;
    this.markStamp++;
    this._kfTime = timeSec;
    this.reserveDynamicBodies();
    this._loadState = st;
    const firstImpact = this.contactCount;
    if (impact) {
      this.gatherImpactContacts(st, tau, hs);
      // a sleeping body that is hit wakes before its resting contacts are gathered, and brings them
      // even though it is not moving into them: it meets the hit supported, as it would awake
      const nd = this.dynCount;
      for (let k = firstImpact; k < this.contactCount; k++) {
        const a = this.contactPool[k].bodyA, b = this.contactPool[k].bodyB;
        if (a >= 0 && a < nd && !this.awake[a]) this.wake(a);
        if (b >= 0 && b < nd && !this.awake[b]) this.wake(b);
      }
    }
    const nImpact = this.contactCount - firstImpact;
    this.impactContacts = nImpact;
    this.gatherTouching(st, hs);
    const nJoints = this.gatherJoints(st);
    if (!impact && (this.opts.restingSolver === 'si' || this.opts.restingSolver === 'si-restitution')) this.addGroundCandidatesBeforeSolve(hs);
    if (this.contactCount === 0 && nJoints === 0) return false;
    // restitution: the lower of the two surfaces above the threshold, else 0
    const thr = this.opts.restitutionThresholdMps;
    for (let k = 0; k < this.contactCount; k++) {
      const ct = this.contactPool[k];
      const ca = this.contactColA[k], cb = this.contactColB[k];
      if (ca >= 0 && this.contactApproach[k] > thr) {
        const ea = this.colliders[ca].restitution, eb = cb >= 0 ? this.colliders[cb].restitution : ea;
        ct.restitution = Math.min(ea, eb);
      } else ct.restitution = 0;
    }
    this.ensureSolveBuffers(this.contactCount);
    this.solvingImpact = impact;
    this.solveHs = hs;
    this.solveIslands(nJoints, impact ? firstImpact : -1, nImpact);
    // active set: ragdoll vertices near the ground that the solved velocities would carry into it
    // (ones not approaching before the solve, or left out by the patch reduction) join the contacts,
    // and the islands are solved again; the continuous detection leaves these slow vertices to the
    // contacts of the sub-step, so none may be missing
    // (only the islands of the added contacts are solved again; the others keep their answer)
    for (let round = 0, before = this.contactCount; round < MAX_ACTIVE_SET_ROUNDS && (+this.addGroundContactsAfterSolve(hs) | +this.addMeshContactsAfterSolve(hs)); round++) {
      if (round === 0) this.islandFirst.set(this.islandOf);
      this.ensureSolveBuffers(this.contactCount);
      this.solveIslands(nJoints, before, this.contactCount - before);
      for (let i = 0; i < this.dynCount; i++) if (this.islandOf[i] < 0) this.islandOf[i] = this.islandFirst[i];
      before = this.contactCount;
    }
    this.stats.solves++;
    const B = this.bodies;
    if (impact) this.recordImpacts(st, timeSec, firstImpact, nImpact);
    const L = this.solLin, W = this.solAng;
    for (let i = 0; i < this.dynCount; i++) {
      if (this.islandOf[i] < 0) continue; // in no contact or joint: velocity unchanged
      const s = STATE_STRIDE * i;
      const m = B.massKg[i];
      const vx = L[3 * i], vy = L[3 * i + 1], vz = L[3 * i + 2];
      const dvx = vx * m - st[s + 7], dvy = vy * m - st[s + 8], dvz = vz * m - st[s + 9];
      if (!this.awake[i]) {
        if (dvx * dvx + dvy * dvy + dvz * dvz > (1e-6 * m) ** 2 || Math.abs(W[3 * i]) + Math.abs(W[3 * i + 1]) + Math.abs(W[3 * i + 2]) > 1e-6) this.wake(i);
        else continue;
      }
      st[s + 7] = vx * m;
      st[s + 8] = vy * m;
      st[s + 9] = vz * m;
      B.inertiaWorldTimes(st, i, W[3 * i], W[3 * i + 1], W[3 * i + 2], st, s + 10);
    }
    return true;
  }

  /** Held persistent mesh pairs of this solve that were not approaching when gathered (gatherTouching): persist index, and point, normal, u, w (8 numbers). */
  private meshCandPc = new Int32Array(16);
  private meshCandF = new Float64Array(128);
  private meshCandCount = 0;

  /**
   * The active set for keyframed and dynamic meshes, as addGroundContactsAfterSolve
   * for the ground: every held persistent pair (within the resting slop) that
   * was left out of this solve because it was not approaching, and that the
   * solved velocities (solLin, solAng) make approach, joins the contacts (then
   * its island is solved again). Without it a solve could carry a ragdoll's
   * hand into the table it rests on; the continuous detection then found the
   * hit at the start of the sub-step, whose impact contact was not approaching
   * at the velocity level, and the same impact repeated until the sub-step
   * budget ran out. Returns whether it added any.
   */
  private addMeshContactsAfterSolve(hs: number): boolean {
    const st = this._loadState, L = this.solLin, W = this.solAng, F = this.meshCandF, nd = this.dynCount;
    const before = this.contactCount;
    for (let m = 0; m < this.meshCandCount; m++) {
      const k = this.meshCandPc[m];
      if (k < 0) continue;
      const pc = this.persist[k], o = 8 * m;
      const px = F[o], py = F[o + 1], pz = F[o + 2], nx = F[o + 3], ny = F[o + 4], nz = F[o + 5], u = F[o + 6], w = F[o + 7];
      let vn = 0, solved = false;
      for (let side = 0; side < 2; side++) {
        const c = side === 0 ? pc.cA : pc.cB, C = this.colliders[c], sg = side === 0 ? 1 : -1;
        const i = C.body;
        if (C.kind === KIND_DYNAMIC && i < nd && this.islandOf[i] >= 0) {
          solved = true;
          const s = STATE_STRIDE * i, rx = px - st[s], ry = py - st[s + 1], rz = pz - st[s + 2];
          const wx = W[3 * i], wy = W[3 * i + 1], wz = W[3 * i + 2];
          vn += sg * ((L[3 * i] + wy * rz - wz * ry) * nx + (L[3 * i + 1] + wz * rx - wx * rz) * ny + (L[3 * i + 2] + wx * ry - wy * rx) * nz);
        } else {
          this.contactVelocity(st, c, pc.kind, side === 0 ? pc.fA : pc.fB, side as 0 | 1, u, w, px, py, pz, this._kfTime);
          vn += sg * (_v[0] * nx + _v[1] * ny + _v[2] * nz);
        }
      }
      if (!solved || !(vn < -1e-9)) continue;
      this.meshCandPc[m] = -1;
      this.addMeshContact(st, pc.cA, pc.cB, pc.kind, pc.fA, pc.fB, px, py, pz, nx, ny, nz, u, w, hs, false);
    }
    if (this.contactCount === before) return false;
    this.stats.activeSetContacts += this.contactCount - before;
    return true;
  }

  /**
   * Adds a ground contact (speculative when not touching: the gap may close
   * exactly, no further) for every ragdoll vertex within the speculative
   * band whose velocity after the last solve (solLin, solAng) would take it
   * below the ground within the sub-step and that has no ground contact in
   * this solve yet. Returns whether it added any.
   */
  private addGroundContactsAfterSolve(hs: number): boolean {
    if (this.groundY === null || hs <= 0) return false;
    const g = this.groundY, touch = this.opts.touchDistance;
    const band = Math.max(touch, Math.max(this.opts.speculativeSpeedMps, 3) * hs);
    const st = this._loadState;
    const L = this.solLin, W = this.solAng;
    const before = this.contactCount;
    for (let c = 0; c < this.dynCount; c++) {
      const C = this.colliders[c], i = C.body;
      if (!C.groups || C.object < 0 || this.objects[C.object].kind !== 'character') continue;
      if (!this.awake[i] || !this.active[i] || this.islandOf[i] < 0) continue;
      const sb = STATE_STRIDE * i;
      const vy = L[3 * i + 1], wx = W[3 * i], wz = W[3 * i + 2], cx = st[sb], cz = st[sb + 2];
      // the band's vertices from the pose, once per solve (the rounds only change the velocities);
      // a record of the vertices below `near` only (gatherTouching) serves while no vertex can
      // reach the ground from `near` or above at the solved velocities (vy + wz rx − wx rz, within
      // |ω_xz| · radius of vy): a vertex it leaves out ends above the ground and is never picked
      if (this.agcStamp[c] !== this.markStamp) this.bandVertices(c, g, band);
      else if (this.agcNear[c] < band) {
        const reach = (Math.max(0, -vy + Math.sqrt(wx * wx + wz * wz) * C.radius) * (1 + 1e-9) + 1e-12) * hs;
        if (!(reach < this.agcNear[c])) this.bandVertices(c, g, band);
      }
      const B0 = this.agcStart[c], B1 = this.agcEnd[c];
      if (B0 === B1) continue;
      const Q = this.agcBuf;
      // per part and round: the deepest predicted vertex, and the deepest one at least 5 cm from it
      // (the other end of a limb rolling about its line); the rest, if any, in the next round
      let fx = 0, fz = 0;
      for (let pick = 0; pick < 2; pick++) {
        let best = -1, bestY = 0, bx = 0, by = 0, bz = 0;
        for (let k = B0; k < B1; k += 4) {
          const v = Q[k];
          if (this.groundMark[C.vOff + v] === this.markStamp) continue;
          const px = Q[k + 1], py = Q[k + 2], pz = Q[k + 3];
          const d = py - g;
          if (pick === 1 && (px - fx) * (px - fx) + (pz - fz) * (pz - fz) < 0.05 * 0.05) continue;
          const yEnd = d + hs * (vy + wz * (px - cx) - wx * (pz - cz));
          if (yEnd < bestY || (yEnd === bestY && best >= 0 && v < best)) {
            best = v;
            bestY = yEnd;
            bx = px;
            by = py;
            bz = pz;
          }
        }
        if (best < 0 || bestY >= -1e-9) break;
        fx = bx;
        fz = bz;
        this.groundMark[C.vOff + best] = this.markStamp;
        this.activeKeep[C.vOff + best] = this.partKeep[c] = this.stats.steps + 1;
        const d = by - g;
        const other = d >= RAGDOLL_GROUND_SLOP ? this.nextKeyframedBody(bx, g, bz, 0, -d / hs, 0, 0, C.friction) : -1;
        this.pushContact(i, other, bx, by, bz, 0, 1, 0, C.friction, c, -1, 0);
      }
    }
    if (this.contactCount === before) return false;
    this.stats.activeSetContacts += this.contactCount - before;
    return true;
  }

  /**
   * The active set's likely members as speculative ground contacts of the first solve (the gap may
   * close exactly, no further), so that solve mostly has them and the islands are seldom solved
   * again (addGroundContactsAfterSolve): per ragdoll part, among its band vertices with no ground
   * contact in this solve,
   * - those the active set added within the last ACTIVE_KEEP_STEPS steps (a limb rocking on the
   *   ground needs the same vertices again; gatherTouching keeps only the last step's, and reduces
   *   them with its other candidates);
   * - the vertex the velocities before the solve carry deepest below the ground within the
   *   sub-step, and the deepest one at least 5 cm from it (as the active set picks after the
   *   solve; the ones gatherTouching's patch and line reductions left out).
   * A speculative contact the solved velocities do not close takes no impulse. Their approach is
   * recorded as 0 (no restitution), as the active set's. Only for the sequential-impulse resting
   * solves (where a re-solve is a whole solver call of 32 or 64 sweeps; measured on the bench scene:
   * calls 691 → 539, sweeps 30216 → 23049): with 'pgs' the extra contacts kept the ragdoll-rest
   * repro from sleeping by 6.5 s (8.3 s), with 'exact' it slept at 4.2 s instead of 3.0 s.
   */
  private addGroundCandidatesBeforeSolve(hs: number): void {
    if (this.groundY === null || hs <= 0) return;
    const g = this.groundY, touch = this.opts.touchDistance;
    const band = Math.max(touch, Math.max(this.opts.speculativeSpeedMps, 3) * hs);
    const st = this._loadState, keepFrom = this.stats.steps - ACTIVE_KEEP_STEPS;
    for (let c = 0; c < this.dynCount; c++) {
      const C = this.colliders[c], i = C.body;
      if (!C.groups || C.object < 0 || this.objects[C.object].kind !== 'character') continue;
      if (!this.awake[i] || !this.active[i]) continue;
      if (this.agcStamp[c] !== this.markStamp) this.bandVertices(c, g, band);
      const B0 = this.agcStart[c], B1 = this.agcEnd[c];
      if (B0 === B1) continue;
      const Q = this.agcBuf;
      for (let k = B0; k < B1; k += 4) {
        const v = Q[k], keep = this.activeKeep[C.vOff + v];
        if (keep < 0 || keep < keepFrom || this.groundMark[C.vOff + v] === this.markStamp) continue;
        this.pushSpeculativeGround(c, v, Q[k + 1], Q[k + 2], Q[k + 3], hs);
      }
      const sb = STATE_STRIDE * i;
      this.bodies.angularVelocity(st, i, _w);
      const vy = st[sb + 8] * this.bodies.invMass[i], wx = _w[0], wz = _w[2], cx = st[sb], cz = st[sb + 2];
      let fx = 0, fz = 0;
      for (let pick = 0; pick < 2; pick++) {
        let best = -1, bestY = -1e-9;
        for (let k = B0; k < B1; k += 4) {
          if (this.groundMark[C.vOff + Q[k]] === this.markStamp) continue;
          const px = Q[k + 1], pz = Q[k + 3];
          if (pick === 1 && (px - fx) * (px - fx) + (pz - fz) * (pz - fz) < 0.05 * 0.05) continue;
          const yEnd = Q[k + 2] - g + hs * (vy + wz * (px - cx) - wx * (pz - cz));
          if (yEnd < bestY) {
            best = k;
            bestY = yEnd;
          }
        }
        if (best < 0) break;
        fx = Q[best + 1];
        fz = Q[best + 3];
        this.pushSpeculativeGround(c, Q[best], fx, Q[best + 2], fz, hs);
      }
    }
  }

  /** A ground contact of vertex v of ragdoll part c at (px, py, pz), speculative above the slop (approach recorded as 0); marks the vertex. */
  private pushSpeculativeGround(c: number, v: number, px: number, py: number, pz: number, hs: number): void {
    const C = this.colliders[c], g = this.groundY!, d = py - g;
    this.groundMark[C.vOff + v] = this.markStamp;
    const other = d >= RAGDOLL_GROUND_SLOP ? this.nextKeyframedBody(px, g, pz, 0, -d / hs, 0, 0, C.friction) : -1;
    this.pushContact(C.body, other, px, py, pz, 0, 1, 0, C.friction, c, -1, 0);
  }

  /** Per dynamic collider: the solve (markStamp) its band vertices in agcBuf (v, x, y, z at pose0; agcStart..agcEnd) are for. */
  private agcStamp = new Int32Array(0);
  private agcStart = new Int32Array(0);
  private agcEnd = new Int32Array(0);
  private agcBuf = new Float64Array(256);
  private agcLen = 0;
  private agcCall = -1;

  private _chunkPassB = new Uint8Array(64);

  /**
   * Per dynamic collider: the height above the ground below which its band record holds every band
   * vertex (the band itself after bandVertices; less after gatherTouching, see bandNear).
   */
  private agcNear = new Float64Array(0);
  /**
   * Per dynamic collider c, its low set: at the rotation row (r10, r11, r12) it was made for
   * (lowSetRow[4c..4c+3), and its top in lowSetRow[4c+3]), every vertex whose row height
   * r1 · v (the local vertex's height above the centre, gatherTouching's row test) is below the
   * top, in chunk order: positions in chunkVerts in lowSetI and their chunks in lowSetK, from
   * C.vOff, lowSetN[c] of them (−1: none made).
   */
  private lowSetI = new Int32Array(0);
  private lowSetK = new Int32Array(0);
  private lowSetN = new Int32Array(0);
  private lowSetRow = new Float64Array(0);

  /**
   * Makes collider c's low set serve the row test `r1 · v < cut` at row (r10, r11, r12): kept while
   * the row has turned so little since it was made that no vertex outside it can pass (a row
   * height moves by at most |Δr1| · |v| ≤ |Δr1| · radius), else made again at this row with the top
   * LOW_SET_MARGIN above the cut.
   */
  private lowSet(c: number, r10: number, r11: number, r12: number, cut: number): void {
    const C = this.colliders[c];
    if (this.lowSetN.length < this.dynCount) {
      this.lowSetN = new Int32Array(this.dynCount).fill(-1);
      this.lowSetRow = new Float64Array(4 * this.dynCount);
      this.lowSetI = new Int32Array(this.groundMark.length);
      this.lowSetK = new Int32Array(this.groundMark.length);
    }
    const R = this.lowSetRow, o = 4 * c, tol = 1e-9 * (C.radius + 1e-3);
    if (this.lowSetN[c] >= 0) {
      const dx = r10 - R[o], dy = r11 - R[o + 1], dz = r12 - R[o + 2];
      if (cut + Math.sqrt(dx * dx + dy * dy + dz * dz) * C.radius * (1 + 1e-9) + tol <= R[o + 3]) return;
    }
    const top = cut + LOW_SET_MARGIN;
    const CS = C.chunkStart, CL = C.chunkLocal, CB = C.chunkBox, SI = this.lowSetI, SK = this.lowSetK;
    const a10 = Math.abs(r10), a11 = Math.abs(r11), a12 = Math.abs(r12);
    let e = C.vOff;
    for (let k = 0; k + 1 < CS.length; k++) {
      const b = 6 * k;
      if (r10 * CB[b] + r11 * CB[b + 1] + r12 * CB[b + 2] - (a10 * CB[b + 3] + a11 * CB[b + 4] + a12 * CB[b + 5]) - tol >= top) continue;
      for (let i = CS[k]; i < CS[k + 1]; i++) {
        if (r10 * CL[3 * i] + r11 * CL[3 * i + 1] + r12 * CL[3 * i + 2] >= top) continue;
        SI[e] = i;
        SK[e++] = k;
      }
    }
    this.lowSetN[c] = e - C.vOff;
    R[o] = r10;
    R[o + 1] = r11;
    R[o + 2] = r12;
    R[o + 3] = top;
  }

  /** Whether collider c's low set holds every vertex whose row height at row (r10, r11, r12) is below `cut`. */
  private lowSetCovers(c: number, r10: number, r11: number, r12: number, cut: number): boolean {
    if (c >= this.lowSetN.length || this.lowSetN[c] < 0) return false;
    const C = this.colliders[c], R = this.lowSetRow, o = 4 * c;
    const dx = r10 - R[o], dy = r11 - R[o + 1], dz = r12 - R[o + 2];
    return cut + Math.sqrt(dx * dx + dy * dy + dz * dz) * C.radius * (1 + 1e-9) + 1e-9 * (C.radius + 1e-3) <= R[o + 3];
  }

  /** Per dynamic collider: the largest activeKeep of its vertices (−1 none). */
  private partKeep = new Int32Array(0);

  /**
   * The part of the band gatherTouching records for ragdoll part c: the vertices below the larger
   * of the touch distance and the reach of its fastest downward vertex before the solve (downHs;
   * the only ones gatherTouching and addGroundCandidatesBeforeSolve can make contacts of), unless
   * the active set added one of its vertices within ACTIVE_KEEP_STEPS steps (those are candidates
   * anywhere in the band): then the whole band.
   */
  private bandNear(c: number, touch: number, downHs: number, band: number): number {
    const k = this.partKeep[c];
    if (k >= 0 && k >= this.stats.steps - ACTIVE_KEEP_STEPS) return band;
    const near = touch > downHs ? touch : downHs;
    return near < band ? near : band;
  }

  /** Starts collider c's band vertices in agcBuf for the current solve (markStamp): gatherTouching appends them; returns their start. */
  private startBandRecord(c: number): number {
    if (this.agcStamp.length < this.dynCount) {
      this.agcStamp = new Int32Array(this.dynCount).fill(-1);
      this.agcStart = new Int32Array(this.dynCount);
      this.agcEnd = new Int32Array(this.dynCount);
      this.agcNear = new Float64Array(this.dynCount);
      this.partKeep = new Int32Array(this.dynCount).fill(-1);
    }
    if (this.agcCall !== this.markStamp) {
      this.agcCall = this.markStamp;
      this.agcLen = 0;
    }
    this.agcStamp[c] = this.markStamp;
    this.agcStart[c] = this.agcEnd[c] = this.agcLen;
    return this.agcLen;
  }

  /** The vertices of dynamic collider c within `band` above the ground at pose0 (chunk by chunk, as the ground scans read them) into agcBuf. */
  private bandVertices(c: number, g: number, band: number): void {
    let o = this.startBandRecord(c);
    this.agcNear[c] = band;
    const C = this.colliders[c];
    const pass = this.scratchChunkPass(C.chunkStart.length - 1);
    if (lowChunks(C, this.pose0, 7 * c, g + band, pass) > 0) {
      const q0 = this.pose0, ps = 7 * c, CL = C.chunkLocal;
      const x0 = q0[ps], y0 = q0[ps + 1], z0 = q0[ps + 2], qx = q0[ps + 3], qy = q0[ps + 4], qz = q0[ps + 5], qw = q0[ps + 6];
      const CS = C.chunkStart, CV = C.chunkVerts;
      // heights from the rotation's second row rule out the vertices surely above the band (see lowestY)
      const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
      const cutY = g + band - y0 + heightTolerance(C, y0, g);
      const CB = C.chunkBox, a10 = Math.abs(r10), a11 = Math.abs(r11), a12 = Math.abs(r12);
      for (let k = 0; k + 1 < CS.length; k++) {
        if (!pass[k]) continue;
        const b = 6 * k;
        if (r10 * CB[b] + r11 * CB[b + 1] + r12 * CB[b + 2] - (a10 * CB[b + 3] + a11 * CB[b + 4] + a12 * CB[b + 5]) >= cutY) continue;
        for (let n = CS[k]; n < CS[k + 1]; n++) {
          const lx = CL[3 * n], ly = CL[3 * n + 1], lz = CL[3 * n + 2];
          if (r10 * lx + r11 * ly + r12 * lz >= cutY) continue;
          const v = CV[n];
          const tx = 2 * (qy * lz - qz * ly), ty = 2 * (qz * lx - qx * lz), tz = 2 * (qx * ly - qy * lx);
          const py = y0 + ly + qw * ty + qz * tx - qx * tz;
          if (py - g >= band) continue;
          this.agcBuf = grown(this.agcBuf, o + 4);
          const Q = this.agcBuf;
          Q[o] = v;
          Q[o + 1] = x0 + lx + qw * tx + qy * tz - qz * ty;
          Q[o + 2] = py;
          Q[o + 3] = z0 + lz + qw * tz + qx * ty - qy * tx;
          o += 4;
        }
      }
    }
    this.agcEnd[c] = o;
    this.agcLen = o;
  }

  // per-solve results gathered over the islands (global body / contact indices)
  private solLin = new Float64Array(0);
  private solAng = new Float64Array(0);
  private solImp = new Float64Array(0);
  /** Island (root dynamic body) of each dynamic body in the current solve, -1 if it has no contact or joint. */
  private islandOf = new Int32Array(0);
  /** islandOf of the first solve of a solveContacts call (the active-set rounds solve only some islands again). */
  private islandFirst = new Int32Array(0);
  private ufParent = new Int32Array(0);
  private _loadState: Float64Array = new Float64Array(0);
  private islandHit = new Uint8Array(0);
  private localIndex = new Int32Array(0);
  private ctBodyA = new Int32Array(0);
  private ctBodyB = new Int32Array(0);
  private jtBodyA = new Int32Array(0);
  private jtBodyB = new Int32Array(0);
  private islandSolution = new ImpulseSolution();
  /**
   * Island solutions by size (bodies, joints, contacts; solveIslands): an ImpulseSolution allocates its
   * arrays whenever its size changes, which with one for every island was at nearly every solve.
   */
  private readonly solutionBySize = new Map<number, ImpulseSolution>();

  /** The solution object for an island of nb bodies, nj joints and nc contacts (islandSolution). */
  private solutionFor(nb: number, nj: number, nc: number): ImpulseSolution {
    if (nj >= 4096 || nc >= 1 << 20) return this.islandSolution;
    const key = (nb * 4096 + nj) * (1 << 20) + nc;
    let sol = this.solutionBySize.get(key);
    if (!sol) {
      if (this.solutionBySize.size >= 512) this.solutionBySize.clear();
      sol = new ImpulseSolution();
      this.solutionBySize.set(key, sol);
    }
    return sol;
  }

  private ensureSolveBuffers(nc: number): void {
    const nb = this.dynCount;
    if (this.solLin.length < 3 * nb) {
      this.solLin = new Float64Array(3 * nb);
      this.solAng = new Float64Array(3 * nb);
      this.islandOf = new Int32Array(nb);
      this.islandFirst = new Int32Array(nb);
      this.islandHit = new Uint8Array(nb);
      this.ufParent = new Int32Array(nb);
      this.localIndex = new Int32Array(nb);
    }
    if (this.solImp.length < 3 * nc) {
      const n = Math.max(nc, 2 * (this.solImp.length / 3));
      this.solImp = new Float64Array(3 * n);
      this.ctBodyA = new Int32Array(n);
      this.ctBodyB = new Int32Array(n);
    }
    const nj = this.jointPool.length;
    if (this.jtBodyA.length < nj) {
      this.jtBodyA = new Int32Array(2 * nj);
      this.jtBodyB = new Int32Array(2 * nj);
    }
  }

  private ufFind(i: number): number {
    const p = this.ufParent;
    while (p[i] !== i) {
      p[i] = p[p[i]];
      i = p[i];
    }
    return i;
  }

  private ufUnion(a: number, b: number): void {
    const ra = this.ufFind(a), rb = this.ufFind(b);
    if (ra === rb) return;
    // the smaller index is the root: islands come out in body order (deterministic)
    if (ra < rb) this.ufParent[rb] = ra;
    else this.ufParent[ra] = rb;
  }

  /**
   * Solves the gathered contacts and joints island by island: bodies that
   * share no contact or joint do not interact within one impulse solve, so
   * each connected group is an independent (and much smaller) system. Fills
   * solLin/solAng for every body in an island and solImp for every contact.
   */
  private solveIslands(nJoints: number, firstImpact: number, nImpact: number): void {
    const nd = this.dynCount, nc = this.contactCount;
    const P = this.ufParent, isl = this.islandOf;
    for (let i = 0; i < nd; i++) {
      P[i] = i;
      isl[i] = -1;
    }
    for (let k = 0; k < nc; k++) {
      const ct = this.contactPool[k];
      this.ctBodyA[k] = ct.bodyA;
      this.ctBodyB[k] = ct.bodyB;
      const a = ct.bodyA < nd ? ct.bodyA : -1, b = ct.bodyB >= 0 && ct.bodyB < nd ? ct.bodyB : -1;
      if (a >= 0) isl[a] = 0;
      if (b >= 0) isl[b] = 0;
      if (a >= 0 && b >= 0) this.ufUnion(a, b);
    }
    for (let k = 0; k < nJoints; k++) {
      const j = this.jointPool[k];
      this.jtBodyA[k] = j.bodyA;
      this.jtBodyB[k] = j.bodyB;
      isl[j.bodyA] = 0;
      isl[j.bodyB] = 0;
      this.ufUnion(j.bodyA, j.bodyB);
    }
    for (let i = 0; i < nd; i++) if (isl[i] === 0) isl[i] = this.ufFind(i);
    if (firstImpact >= 0) {
      // an impact event re-solves only the islands the impact touches: the others had their
      // resting contacts and joints solved at the start of this sub-step
      const hit = this.islandHit;
      for (let i = 0; i < nd; i++) hit[i] = 0;
      for (let k = firstImpact; k < firstImpact + nImpact; k++) {
        const a = this.ctBodyA[k], b = this.ctBodyB[k];
        hit[a < nd ? isl[a] : isl[b]] = 1;
      }
      for (let i = 0; i < nd; i++) if (isl[i] >= 0 && !hit[isl[i]]) isl[i] = -1;
    }
    // only the bodies of the islands are loaded into the solver input
    for (let i = 0; i < nd; i++) if (isl[i] >= 0) this.loadDynamicBody(this._loadState, i);
    const bview = this.bodyView, jview = this.jointView, cview = this.contactView;
    const loc = this.localIndex;
    for (let root = 0; root < nd; root++) {
      if (isl[root] !== root) continue;
      bview.length = 0;
      jview.length = 0;
      cview.length = 0;
      for (let i = root; i < nd; i++) {
        if (isl[i] !== root) continue;
        loc[i] = bview.length;
        bview.push(this.bodyInputs[i]);
      }
      const nIslandBodies = bview.length;
      for (let k = 0; k < nc; k++) {
        const a = this.ctBodyA[k], b = this.ctBodyB[k];
        const da = a < nd, db = b >= 0 && b < nd;
        if ((da ? isl[a] : isl[b]) !== root) continue;
        const ct = this.contactPool[k];
        if (da) ct.bodyA = loc[a];
        else {
          ct.bodyA = bview.length;
          bview.push(this.bodyInputs[a]);
        }
        if (db) ct.bodyB = loc[b];
        else if (b >= 0) {
          ct.bodyB = bview.length;
          bview.push(this.bodyInputs[b]);
        }
        this.islandCt = grown(this.islandCt, cview.length + 1);
        this.islandCt[cview.length] = k;
        cview.push(ct);
      }
      for (let k = 0; k < nJoints; k++) {
        if (isl[this.jtBodyA[k]] !== root) continue;
        const j = this.jointPool[k];
        this.islandJt = grown(this.islandJt, jview.length + 1);
        this.islandJt[jview.length] = k;
        j.bodyA = loc[this.jtBodyA[k]];
        j.bodyB = loc[this.jtBodyB[k]];
        jview.push(j);
      }
      // a resting island (no joints, not an impact) whose solver input is exactly that of its last
      // solve (a box at rest on the ground: same contacts, same velocities after the same kick)
      // takes that solve's answer: the solver is deterministic, so the answer is the same
      const cacheable = jview.length === 0 && firstImpact < 0 && this.opts.reuseRestingSolves;
      const rv = cacheable ? this.restingReuse(root, nIslandBodies) : null;
      if (rv) {
        this.stats.islandReuses++;
        let o = 0;
        for (let i = root; i < nd; i++) {
          if (isl[i] !== root) continue;
          for (let c = 0; c < 3; c++) {
            this.solLin[3 * i + c] = rv[o++];
            this.solAng[3 * i + c] = rv[o++];
          }
        }
        for (let k = 0; k < nc; k++) {
          const a = this.ctBodyA[k], b = this.ctBodyB[k];
          if ((a < nd ? isl[a] : isl[b]) !== root) continue;
          for (let c = 0; c < 3; c++) this.solImp[3 * k + c] = rv[o++];
        }
        continue;
      }
      const sol = (this.islandSolution = this.solutionFor(bview.length, jview.length, cview.length));
      const t0 = performance.now();
      if (!this.restingSolve(bview, jview, cview, sol, root)) this.solver.solve(bview, jview, cview, {}, sol);
      this.stats.islandSolves++;
      this.stats.solverMs += performance.now() - t0;
      for (let i = root; i < nd; i++) {
        if (isl[i] !== root) continue;
        const l = loc[i];
        for (let c = 0; c < 3; c++) {
          this.solLin[3 * i + c] = sol.linearVelocity[3 * l + c];
          this.solAng[3 * i + c] = sol.angularVelocity[3 * l + c];
        }
      }
      let m = 0;
      for (let k = 0; k < nc; k++) {
        const a = this.ctBodyA[k], b = this.ctBodyB[k];
        if ((a < nd ? isl[a] : isl[b]) !== root) continue;
        for (let c = 0; c < 3; c++) this.solImp[3 * k + c] = sol.contactImpulse[3 * m + c];
        m++;
      }
      if (cacheable) this.keepResting(root, nIslandBodies, m);
    }
    // restore the global indices (the pools are reused)
    for (let k = 0; k < nc; k++) {
      this.contactPool[k].bodyA = this.ctBodyA[k];
      this.contactPool[k].bodyB = this.ctBodyB[k];
    }
    for (let k = 0; k < nJoints; k++) {
      this.jointPool[k].bodyA = this.jtBodyA[k];
      this.jointPool[k].bodyB = this.jtBodyB[k];
    }
  }

  /**
   * The sub-step solve of an island with joints by the resting-contact solver (WorldOptions.restingSolver
   * 'si' or 'pgs'): only without restitution (every contact ε = 0: resting contact; contacts approaching faster
   * than the restitution threshold are left to the analytic solver, whose Newton / Poisson phases
   * keep the energy law with ε > 0). Returns false, with sol unspecified, when the island is not for
   * it or its sweeps did not reach their tolerance (the analytic solver then solves it).
   */
  private restingSolve(bview: readonly RigidBodyInput[], jview: readonly JointInput[], cview: readonly ContactInput[], sol: ImpulseSolution, root: number): boolean {
    if (jview.length === 0 || this.solvingImpact || this.opts.restingSolver === 'exact') return false;
    if (this.opts.restingSolver === 'si-restitution') {
      // a keyframed object hitting the island (ε > 0 against a keyframed prop or character) is an
      // impact in the issue's sense: the analytic solver takes the island; touch-downs on the ground
      // and between dynamic bodies go to the sweeps with Poisson's phases
      for (let m = 0; m < cview.length; m++) {
        if ((cview[m].restitution ?? 0) <= 0) continue;
        const k = this.islandCt[m], ca = this.contactColA[k], cb = this.contactColB[k];
        if ((ca >= 0 && this.colliders[ca].kind !== KIND_DYNAMIC) || (cb >= 0 && this.colliders[cb].kind !== KIND_DYNAMIC)) return false;
      }
      // a touch-down whose rebound (ε × approach) would be slower than the restitution threshold is a resting
      // contact here: Poisson's phase costs as many sweeps again for a hop of under half a millimetre
      const thr = this.opts.restitutionThresholdMps;
      for (let m = 0; m < cview.length; m++) {
        const ct = this.contactPool[this.islandCt[m]], e = ct.restitution ?? 0;
        if (e > 0 && !(e * this.contactApproach[this.islandCt[m]] > thr)) ct.restitution = 0;
      }
      this.sequentialSolver.restitution = true;
      this.sequentialSolve(bview, jview, cview, sol, root);
      return true;
    }
    for (let k = 0; k < cview.length; k++) if ((cview[k].restitution ?? 0) > 0) return false;
    if (this.opts.restingSolver === 'si') {
      this.sequentialSolve(bview, jview, cview, sol, root);
      return true;
    }
    // warm start: each contact takes the impulse of the nearest contact of the last resting solve
    // between the same two bodies within 2 mm (the ragdoll barely moves between sub-steps)
    const nc = cview.length, W = (this.warmImp = grown(this.warmImp, 3 * nc));
    const pn = this.warmPrevCount, PB = this.warmPrevBodies, PF = this.warmPrevF;
    for (let k = 0; k < nc; k++) {
      const ct = cview[k], ba = bview[ct.bodyA], bb = ct.bodyB >= 0 ? bview[ct.bodyB] : null;
      let best = -1, bestD = 4e-6;
      for (let q = 0; q < pn; q++) {
        if (PB[2 * q] !== ba || PB[2 * q + 1] !== bb) continue;
        const dx = PF[6 * q] - ct.point.x, dy = PF[6 * q + 1] - ct.point.y, dz = PF[6 * q + 2] - ct.point.z;
        const d = dx * dx + dy * dy + dz * dz;
        if (d < bestD) {
          bestD = d;
          best = q;
        }
      }
      for (let c = 0; c < 3; c++) W[3 * k + c] = best >= 0 ? PF[6 * best + 3 + c] : NaN;
    }
    this.restingSolver.solve(bview, jview, cview, { warmImpulses: W }, sol);
    this.warmPrevF = grown(this.warmPrevF, 6 * nc);
    PB.length = 2 * nc;
    for (let k = 0; k < nc; k++) {
      const ct = cview[k];
      PB[2 * k] = bview[ct.bodyA];
      PB[2 * k + 1] = ct.bodyB >= 0 ? bview[ct.bodyB] : null;
      this.warmPrevF[6 * k] = ct.point.x;
      this.warmPrevF[6 * k + 1] = ct.point.y;
      this.warmPrevF[6 * k + 2] = ct.point.z;
      for (let c = 0; c < 3; c++) this.warmPrevF[6 * k + 3 + c] = sol.contactImpulse[3 * k + c];
    }
    this.warmPrevCount = nc;
    this.stats.restingSolves++;
    if (this.restingSolver.stats.converged) return true;
    this.stats.restingFallbacks++;
    return false;
  }

  /** Global contact (contactPool) and joint (jointPool) index of each entry of contactView / jointView (solveIslands). */
  private islandCt = new Int32Array(16);
  private islandJt = new Int32Array(16);
  /** Length of the current solveContacts call's sub-step (s). */
  private solveHs = 0;
  /** Per island root: its last sequential-impulse solve (warm start of the next). */
  private readonly siWarm = new Map<number, SiWarm>();
  private siWarmC = new Float64Array(0);
  private siWarmJ = new Float64Array(0);
  private siUsed = new Uint8Array(0);
  /** sequentialSolve's chains of the last solve's contacts (by collider A) and joints (by body A): heads (−1: none) and links. */
  private siHead = new Int32Array(0);
  private siNext = new Int32Array(0);

  /**
   * The sub-step solve of an island with joints by sequential impulses (WorldOptions.restingSolver
   * 'si'). Warm start from the island's last such solve: each joint takes the impulse of the joint
   * between the same two bodies; each joint limit the impulse of the same joint's same limit (cone or
   * twist: its point moves with the limb's swing, often more than 2 mm a sub-step; measured: 79% of
   * the active limits warm before, 96% now); each other contact the impulse of the unused contact
   * from the same colliders (the ground, a mesh pair) and bodies whose point, carried by its body's
   * solved velocity over that sub-step, is nearest to this one within 2 mm. Impulses are scaled by
   * the ratio of the sub-step lengths (a resting impulse is ∝ hs); an active-set re-solve of the same
   * sub-step starts from the first solve's impulses as they were.
   */
  private sequentialSolve(bview: readonly RigidBodyInput[], jview: readonly JointInput[], cview: readonly ContactInput[], sol: ImpulseSolution, root: number): void {
    const nc = cview.length, nj = jview.length;
    const WC = (this.siWarmC = grown(this.siWarmC, 3 * nc)), WJ = (this.siWarmJ = grown(this.siWarmJ, 3 * nj));
    const prev = this.siWarm.get(root), stamp = this.stats.solves, hs = this.solveHs;
    WC.fill(NaN, 0, 3 * nc);
    WJ.fill(NaN, 0, 3 * nj);
    if (prev) {
      const same = prev.stamp === stamp, scale = same || !(prev.hs > 0) ? 1 : hs / prev.hs, adv = same ? 0 : prev.hs;
      const pn = prev.nc, PK = prev.key, PF = prev.f;
      if (this.siUsed.length < pn) this.siUsed = new Uint8Array(2 * pn);
      if (this.siNext.length < pn) this.siNext = new Int32Array(2 * pn);
      const used = this.siUsed, next = this.siNext;
      used.fill(0, 0, pn);
      // the last solve's contacts chained by collider A (ascending: a contact's candidates in the order of the full scan)
      let nh = 0;
      for (let q = 0; q < pn; q++) nh = Math.max(nh, PK[4 * q] + 3);
      if (this.siHead.length < nh) this.siHead = new Int32Array(2 * nh).fill(-1);
      const head = this.siHead;
      for (let q = pn - 1; q >= 0; q--) {
        const h = PK[4 * q] >= -2 ? PK[4 * q] + 2 : 0;
        next[q] = head[h];
        head[h] = q;
      }
      const ctA = this.ctBodyA, ctB = this.ctBodyB, colA = this.contactColA, colB = this.contactColB, nd = this.dynCount, ict = this.islandCt;
      for (let m = 0; m < nc; m++) {
        const k = ict[m], ca = colA[k], cb = colB[k], ga = ctA[k], gb = ctB[k];
        const a = ga < nd ? ga : -1, b = gb >= 0 && gb < nd ? gb : -1;
        const h = ca >= -2 ? ca + 2 : 0;
        if (h >= nh) continue;
        const p = cview[m].point, px = p.x, py = p.y, pz = p.z;
        let best = -1, bestD = 4e-6;
        for (let q = head[h]; q >= 0; q = next[q]) {
          if (used[q] || PK[4 * q] !== ca || PK[4 * q + 1] !== cb || PK[4 * q + 2] !== a || PK[4 * q + 3] !== b) continue;
          if (ca === -2) {
            // a joint limit: the same joint's same limit (one a solve), wherever its point went
            best = q;
            break;
          }
          const o = 9 * q;
          const dx = PF[o] + adv * PF[o + 3] - px, dy = PF[o + 1] + adv * PF[o + 4] - py, dz = PF[o + 2] + adv * PF[o + 5] - pz;
          const d = dx * dx + dy * dy + dz * dz;
          if (d < bestD) {
            bestD = d;
            best = q;
          }
        }
        if (best < 0) continue;
        used[best] = 1;
        const o = 9 * best + 6;
        WC[3 * m] = scale * PF[o];
        WC[3 * m + 1] = scale * PF[o + 1];
        WC[3 * m + 2] = scale * PF[o + 2];
      }
      for (let q = 0; q < pn; q++) head[PK[4 * q] >= -2 ? PK[4 * q] + 2 : 0] = -1;
      // joints: the first of the last solve's joints between the same bodies (chained by body A, ascending)
      const pj = prev.nj, JK = prev.jkey, JP = prev.jp;
      let nhj = 0;
      for (let q = 0; q < pj; q++) nhj = Math.max(nhj, JK[2 * q] + 1);
      if (this.siHead.length < nhj) this.siHead = new Int32Array(2 * nhj).fill(-1);
      if (this.siNext.length < pj) this.siNext = new Int32Array(2 * pj);
      const jhead = this.siHead, jnext = this.siNext, ijt = this.islandJt, jtA = this.jtBodyA, jtB = this.jtBodyB;
      for (let q = pj - 1; q >= 0; q--) {
        if (JK[2 * q] < 0) continue;
        jnext[q] = jhead[JK[2 * q]];
        jhead[JK[2 * q]] = q;
      }
      for (let m = 0; m < nj; m++) {
        const k = ijt[m], a = jtA[k], b = jtB[k];
        if (a < 0 || a >= nhj) continue;
        for (let q = jhead[a]; q >= 0; q = jnext[q]) {
          if (JK[2 * q + 1] !== b) continue;
          WJ[3 * m] = scale * JP[3 * q];
          WJ[3 * m + 1] = scale * JP[3 * q + 1];
          WJ[3 * m + 2] = scale * JP[3 * q + 2];
          break;
        }
      }
      for (let q = 0; q < pj; q++) if (JK[2 * q] >= 0) jhead[JK[2 * q]] = -1;
    }
    const S = this.sequentialSolver;
    S.solve(bview, jview, cview, { warmImpulses: WC, warmJointImpulses: WJ }, sol);
    this.stats.restingSolves++;
    this.stats.restingSweeps += S.stats.sweeps;
    if (S.stats.coldRestart) this.stats.restingRestarts++;
    // keep this solve's impulses for the next
    let rec = prev;
    if (!rec) {
      rec = { stamp: 0, hs: 0, nc: 0, nj: 0, key: new Int32Array(0), f: new Float64Array(0), jkey: new Int32Array(0), jp: new Float64Array(0) };
      this.siWarm.set(root, rec);
    }
    rec.stamp = stamp;
    rec.hs = hs;
    rec.nc = nc;
    rec.nj = nj;
    if (rec.key.length < 4 * nc) {
      rec.key = new Int32Array(8 * nc);
      rec.f = new Float64Array(18 * nc);
    }
    if (rec.jkey.length < 2 * nj) {
      rec.jkey = new Int32Array(4 * nj);
      rec.jp = new Float64Array(6 * nj);
    }
    const L = sol.linearVelocity, A = sol.angularVelocity, CI = sol.contactImpulse, JI = sol.jointImpulse, RK = rec.key, RF = rec.f;
    const ctA = this.ctBodyA, ctB = this.ctBodyB, colA = this.contactColA, colB = this.contactColB, nd = this.dynCount, ict = this.islandCt;
    for (let m = 0; m < nc; m++) {
      const k = ict[m], ct = cview[m], o = 9 * m, ga = ctA[k], gb = ctB[k];
      const da = ga < nd ? ga : -1, db = gb >= 0 && gb < nd ? gb : -1;
      RK[4 * m] = colA[k];
      RK[4 * m + 1] = colB[k];
      RK[4 * m + 2] = da;
      RK[4 * m + 3] = db;
      const p = ct.point, px = p.x, py = p.y, pz = p.z;
      RF[o] = px;
      RF[o + 1] = py;
      RF[o + 2] = pz;
      // the velocity of the point on its dynamic side (A's when both are)
      const i = da >= 0 ? ct.bodyA : db >= 0 ? ct.bodyB : -1;
      if (i >= 0) {
        const c = bview[i].centerOfMass, rx = px - c.x, ry = py - c.y, rz = pz - c.z;
        const wx = A[3 * i], wy = A[3 * i + 1], wz = A[3 * i + 2];
        RF[o + 3] = L[3 * i] + wy * rz - wz * ry;
        RF[o + 4] = L[3 * i + 1] + wz * rx - wx * rz;
        RF[o + 5] = L[3 * i + 2] + wx * ry - wy * rx;
      } else RF[o + 3] = RF[o + 4] = RF[o + 5] = 0;
      RF[o + 6] = CI[3 * m];
      RF[o + 7] = CI[3 * m + 1];
      RF[o + 8] = CI[3 * m + 2];
    }
    const ijt = this.islandJt, jtA = this.jtBodyA, jtB = this.jtBodyB, RJ = rec.jkey, RP = rec.jp;
    for (let m = 0; m < nj; m++) {
      const k = ijt[m];
      RJ[2 * m] = jtA[k];
      RJ[2 * m + 1] = jtB[k];
      RP[3 * m] = JI[3 * m];
      RP[3 * m + 1] = JI[3 * m + 1];
      RP[3 * m + 2] = JI[3 * m + 2];
    }
  }

  /** Warm start of restingSolve: the last resting solve's contacts (bodies; point and impulse, 6 numbers each). */
  private warmImp = new Float64Array(0);
  private warmPrevCount = 0;
  private readonly warmPrevBodies: (RigidBodyInput | null)[] = [];
  private warmPrevF = new Float64Array(0);

  /** Per island root: the solver input of its last resting solve (signature) and its answer. */
  private restSig: (Float64Array | null)[] = [];
  private restSigLen = new Int32Array(0);
  private restOut: (Float64Array | null)[] = [];
  private sigScratch = new Float64Array(256);

  /**
   * Writes the solver input of the island in bodyView / contactView (every
   * number the solver reads, and the island's dynamic bodies) into
   * sigScratch; returns its length.
   */
  private islandSignature(root: number, nIslandBodies: number): number {
    const bv = this.bodyView, cv = this.contactView;
    const n = 3 + nIslandBodies + 24 * bv.length + 10 * cv.length;
    if (this.sigScratch.length < n) this.sigScratch = new Float64Array(2 * n);
    const S = this.sigScratch;
    let o = 0;
    S[o++] = bv.length;
    S[o++] = cv.length;
    S[o++] = nIslandBodies;
    for (let i = root, k = 0; k < nIslandBodies; i++) if (this.islandOf[i] === root) S[o + k++] = i;
    o += nIslandBodies;
    for (let k = 0; k < bv.length; k++) {
      const b = bv[k];
      S[o++] = b.keyframed ? 1 : 0;
      S[o++] = b.massKg;
      for (let c = 0; c < 9; c++) S[o++] = b.inertia[c];
      S[o++] = b.centerOfMass.x;
      S[o++] = b.centerOfMass.y;
      S[o++] = b.centerOfMass.z;
      S[o++] = b.linearVelocity.x;
      S[o++] = b.linearVelocity.y;
      S[o++] = b.linearVelocity.z;
      S[o++] = b.angularVelocity.x;
      S[o++] = b.angularVelocity.y;
      S[o++] = b.angularVelocity.z;
      S[o++] = b.restitution ?? NaN;
      S[o++] = b.friction ?? NaN;
      S[o++] = 0;
    }
    for (let k = 0; k < cv.length; k++) {
      const ct = cv[k];
      S[o++] = ct.bodyA;
      S[o++] = ct.bodyB;
      S[o++] = ct.point.x;
      S[o++] = ct.point.y;
      S[o++] = ct.point.z;
      S[o++] = ct.normal.x;
      S[o++] = ct.normal.y;
      S[o++] = ct.normal.z;
      S[o++] = ct.restitution ?? NaN;
      S[o++] = ct.friction ?? NaN;
    }
    return o;
  }

  /** The kept answer of this island's last resting solve if its input is the same number for number, else null. */
  private restingReuse(root: number, nIslandBodies: number): Float64Array | null {
    const prev = this.restSig[root];
    if (!prev) return null;
    const n = this.islandSignature(root, nIslandBodies);
    if (n !== this.restSigLen[root]) return null;
    const S = this.sigScratch;
    // Object.is: NaN (absent fields) equal to itself, and −0 told from +0 like the solver would
    for (let k = 0; k < n; k++) if (!Object.is(S[k], prev[k])) return null;
    return this.restOut[root];
  }

  /** Keeps the input and answer of island root's resting solve (islandSolution, m contacts). */
  private keepResting(root: number, nIslandBodies: number, m: number): void {
    if (this.restSig.length < this.dynCount) {
      this.restSig = new Array(this.dynCount).fill(null);
      this.restOut = new Array(this.dynCount).fill(null);
      this.restSigLen = new Int32Array(this.dynCount);
    }
    const n = this.islandSignature(root, nIslandBodies);
    let sig = this.restSig[root];
    if (!sig || sig.length < n) sig = this.restSig[root] = new Float64Array(n);
    for (let k = 0; k < n; k++) sig[k] = this.sigScratch[k];
    this.restSigLen[root] = n;
    const no = 6 * nIslandBodies + 3 * m;
    let out = this.restOut[root];
    if (!out || out.length < no) out = this.restOut[root] = new Float64Array(no);
    const sol = this.islandSolution, loc = this.localIndex;
    let o = 0;
    for (let i = root, k = 0; k < nIslandBodies; i++) {
      if (this.islandOf[i] !== root) continue;
      k++;
      const l = loc[i];
      for (let c = 0; c < 3; c++) {
        out[o++] = sol.linearVelocity[3 * l + c];
        out[o++] = sol.angularVelocity[3 * l + c];
      }
    }
    for (let k = 0; k < 3 * m; k++) out[o++] = sol.contactImpulse[k];
  }

  private wake(i: number): void {
    // wake the whole object (ragdolls wake together)
    const C = this.colliders[i];
    if (C.object >= 0) for (const b of this.objects[C.object].bodies) {
      if (!this.awake[b]) this.wokeStep[b] = this.stats.steps;
      this.awake[b] = 1;
      this.slowTime[b] = 0;
    }
    else {
      if (!this.awake[i]) this.wokeStep[i] = this.stats.steps;
      this.awake[i] = 1;
    }
  }

  /** Contacts of the CCD hits within the simultaneity window, at the current positions (P0). */
  private gatherImpactContacts(st: Float64Array, tau: number, hs: number): void {
    const P = this.P0;
    const window = hs > 0 ? this.opts.simultaneousSec / hs : 0;
    const F = this.hitF, I = this.hitI;
    for (let h = 0; h < this.hitCount; h++) {
      const o = 7 * h;
      if (F[o] > tau + window) continue;
      const kind = this.hitKind[h];
      const cA = I[4 * h], fA = I[4 * h + 1], cB = I[4 * h + 2], fB = I[4 * h + 3];
      if (cA >= 0 && cA < this.dynCount) this.ensureP0(cA);
      if (cB >= 0 && cB < this.dynCount) this.ensureP0(cB);
      let nx = F[o + 3], ny = F[o + 4], nz = F[o + 5];
      const u = F[o + 1], w = F[o + 2];
      if (kind === HitKind.Ground) {
        const C = this.colliders[cA];
        const vo = 3 * (C.vOff + fA);
        const vn = this.pointVelocityY(st, C.body, P[vo], P[vo + 1], P[vo + 2]);
        if (vn >= 0) continue;
        if (this.groundMark[C.vOff + fA] === this.markStamp) continue;
        this.groundMark[C.vOff + fA] = this.markStamp;
        this.groundHitStep[C.vOff + fA] = this.stats.steps;
        this.colGroundHitStep[cA] = this.stats.steps;
        this.pushContact(C.body, -1, P[vo], P[vo + 1], P[vo + 2], 0, 1, 0, C.friction, cA, -1, -vn);
        continue;
      }
      const A = this.colliders[cA], B = this.colliders[cB];
      let px = 0, py = 0, pz = 0;
      if (kind === HitKind.VertexTriangle) {
        const T = B.tris;
        const a = 3 * (B.vOff + T[3 * fB]), b = 3 * (B.vOff + T[3 * fB + 1]), c = 3 * (B.vOff + T[3 * fB + 2]);
        if (pointTrianglePlane(P, 3 * (A.vOff + fA), a, b, c, _pt)) {
          const sg = _pt[3] * nx + _pt[4] * ny + _pt[5] * nz < 0 ? -1 : 1;
          nx = sg * _pt[3];
          ny = sg * _pt[4];
          nz = sg * _pt[5];
        }
        const vo = 3 * (A.vOff + fA);
        px = P[vo];
        py = P[vo + 1];
        pz = P[vo + 2];
      } else {
        const EA = A.edges, EB = B.edges;
        const a0 = 3 * (A.vOff + EA[2 * fA]), a1 = 3 * (A.vOff + EA[2 * fA + 1]);
        const b0 = 3 * (B.vOff + EB[2 * fB]), b1 = 3 * (B.vOff + EB[2 * fB + 1]);
        for (let c = 0; c < 3; c++) {
          const q = P[a0 + c] + u * (P[a1 + c] - P[a0 + c]), r = P[b0 + c] + w * (P[b1 + c] - P[b0 + c]);
          if (c === 0) px = 0.5 * (q + r);
          else if (c === 1) py = 0.5 * (q + r);
          else pz = 0.5 * (q + r);
        }
      }
      this.addMeshContact(st, cA, cB, kind, fA, fB, px, py, pz, nx, ny, nz, u, w, hs, true);
      // remember the pair for resting contact, also when it is not approaching at this instant
      let dup = false;
      for (const pc of this.persist) if (pc.kind === kind && pc.cA === cA && pc.fA === fA && pc.cB === cB && pc.fB === fB) dup = true;
      if (!dup) this.persist.push({ kind, cA, fA, cB, fB, n: Float64Array.of(nx, ny, nz), held: true });
    }
  }

  private resolveImpact(timeSec: number, tau: number, hs: number): void {
    this.stats.impactEvents++;
    // wake sleeping bodies that are hit
    const I = this.hitI, F = this.hitF;
    const window = hs > 0 ? this.opts.simultaneousSec / hs : 0;
    for (let h = 0; h < this.hitCount; h++) {
      if (F[7 * h] > tau + window) continue;
      const a = I[4 * h], b = I[4 * h + 2];
      if (a >= 0 && a < this.dynCount && !this.awake[a]) this.wake(a);
      if (b >= 0 && b < this.dynCount && !this.awake[b]) this.wake(b);
    }
    this.onImpact?.(timeSec, 'pre');
    this.solveContacts(this.bodies.state, timeSec, hs, true, tau);
    this.onImpact?.(timeSec, 'post');
    if (this.impactContacts > 0) return;
    // no hit of the event is approaching at the velocity level (the motion into the face came
    // within the sub-step: position corrections, a solve without that pair): those hits are left
    // to the resting contacts for the rest of this step
    for (let h = 0; h < this.hitCount; h++) {
      if (F[7 * h] > tau + window) continue;
      const n = this.unresolvedCount;
      if (5 * n + 5 > this.unresolved.length) {
        const g = new Int32Array(2 * this.unresolved.length);
        g.set(this.unresolved);
        this.unresolved = g;
      }
      const U = this.unresolved, o = 5 * n;
      U[o] = this.hitKind[h];
      U[o + 1] = I[4 * h];
      U[o + 2] = I[4 * h + 1];
      U[o + 3] = I[4 * h + 2];
      U[o + 4] = I[4 * h + 3];
      this.unresolvedCount = n + 1;
    }
  }

  /** Called at every impact event, with the state just before ('pre') and just after ('post') the impulses. */
  onImpact: ((timeSec: number, phase: 'pre' | 'post') => void) | null = null;

  /**
   * One record per collider pair with an impact contact approaching faster
   * than the restitution threshold. The record's impulse is the pair's whole
   * impulse in this solve: every contact between the two colliders (the
   * impact contacts, the touching and speculative ones gathered with them,
   * the active-set ones; a vertex of either on a face of the other, signs
   * taken for the first object), so it is the part of the first object's
   * change of momentum that this pair caused. A pair whose impulse is
   * negligible is not an impact and gets no record: other contacts of the
   * same solve stopped the approach (a resting contact of another pair, the
   * rest of a ragdoll). Negligible means below NEGLIGIBLE_IMPACT_FRACTION of
   * the approach speed times the lighter dynamic mass of the pair (the part's
   * mass for a ragdoll; the dynamic one against the ground or a keyframed
   * object), far below what stopping that approach at a contact point takes.
   */
  private recordImpacts(st: Float64Array, timeSec: number, first: number, n: number): void {
    const thr = this.opts.restitutionThresholdMps;
    const B = this.bodies;
    const nc = this.contactCount;
    const CA = this.contactColA, CB = this.contactColB, J = this.solImp;
    const recorded = this.recordedPairs;
    recorded.length = 0;
    for (let k = first; k < first + n; k++) {
      const ca = CA[k], cb = CB[k];
      if (ca < 0 || this.contactApproach[k] < thr) continue;
      // the pair once, whichever way round its contacts came (vertex of A on B or of B on A)
      let dup = false;
      for (let r = 0; r < recorded.length; r += 2) if ((recorded[r] === ca && recorded[r + 1] === cb) || (recorded[r] === cb && recorded[r + 1] === ca)) dup = true;
      if (dup) continue;
      recorded.push(ca, cb);
      const A = this.colliders[ca];
      const Bc = cb >= 0 ? this.colliders[cb] : null;
      // report with the dynamic object first
      const flip = A.kind !== KIND_DYNAMIC && Bc !== null && Bc.kind === KIND_DYNAMIC;
      const first3 = flip ? Bc! : A;
      const other = flip ? A : Bc;
      const c1 = first3.index, c2 = other ? other.index : -1;
      let jx = 0, jy = 0, jz = 0;
      let px = 0, py = 0, pz = 0, cnt = 0;
      let approach = 0;
      for (let m = 0; m < nc; m++) {
        // the contact impulse acts on its bodyA, from collider CA[m]
        let s: number;
        if (CA[m] === c1 && CB[m] === c2) s = 1;
        else if (CA[m] === c2 && CB[m] === c1) s = -1;
        else continue;
        jx += s * J[3 * m];
        jy += s * J[3 * m + 1];
        jz += s * J[3 * m + 2];
        if (m < first || m >= first + n) continue;
        const ct = this.contactPool[m];
        px += ct.point.x;
        py += ct.point.y;
        pz += ct.point.z;
        approach = Math.max(approach, this.contactApproach[m]);
        cnt++;
      }
      const bi = first3.body;
      let lightKg = B.massKg[bi];
      if (other && other.kind === KIND_DYNAMIC) lightKg = Math.min(lightKg, B.massKg[other.body]);
      if (hypot3(jx, jy, jz) < NEGLIGIBLE_IMPACT_FRACTION * approach * lightKg) continue;
      const ct = this.contactPool[k];
      const s = ca === c1 ? 1 : -1;
      const pre: [number, number, number] = [st[STATE_STRIDE * bi + 7] * B.invMass[bi], st[STATE_STRIDE * bi + 8] * B.invMass[bi], st[STATE_STRIDE * bi + 9] * B.invMass[bi]];
      const post: [number, number, number] = [this.solLin[3 * bi], this.solLin[3 * bi + 1], this.solLin[3 * bi + 2]];
      this.impacts.push({
        timeSec,
        frame: timeSec * this.frameRate,
        objects: [first3.objectName, other ? other.objectName : 'ground'],
        parts: [first3.partName, other ? other.partName || this.partNameOf(other, ct) : ''],
        point: [px / cnt, py / cnt, pz / cnt],
        normal: [s * ct.normal.x, s * ct.normal.y, s * ct.normal.z],
        impulse: [jx, jy, jz],
        preVelocity: pre,
        postVelocity: post,
        approachSpeed: approach,
      });
    }
  }

  /** recordImpacts: the collider pairs recorded at the current impact (pairs of indices). */
  private readonly recordedPairs: number[] = [];

  private partNameOf(C: Collider, ct: ContactInput): string {
    if (C.kind !== KIND_CHARACTER) return '';
    // nearest part by box centre
    let best = '', bd = Infinity;
    const joints = this.doc.characters[C.docIndex].skeleton.joints;
    for (const p of C.parts) {
      if (!this.partActive(p)) continue; // the part hit was skinned in this step
      const cx = 0.5 * (p.box[0] + p.box[3]) - ct.point.x, cy = 0.5 * (p.box[1] + p.box[4]) - ct.point.y, cz = 0.5 * (p.box[2] + p.box[5]) - ct.point.z;
      const d = cx * cx + cy * cy + cz * cz;
      if (d < bd) {
        bd = d;
        best = joints[p.joint]?.name ?? '';
      }
    }
    return best;
  }

  /** Ground penetration projection and sleep bookkeeping. */
  private afterStep(h: number): void {
    const st = this.bodies.state;
    this.correctJoints(st, true);
    if (this.meshLimits) {
      // vertices inside keyframed prop meshes out (position only); a ragdoll's joints closed again
      const J = this.joints;
      for (const obj of this.objects) {
        let moved = false;
        for (const i of obj.bodies) if (this.awake[i] && this.pushOutOfMeshes(st, i)) moved = true;
        if (!moved || !obj.ragdoll) continue;
        this.measureClearance(st);
        for (let k = 0; k < J.length; k++) if (obj.bodies.includes(J[k].bodyA)) this.correctAnchor(st, J[k]);
        for (let k = J.length - 1; k >= 0; k--) if (obj.bodies.includes(J[k].bodyA)) this.correctAnchor(st, J[k]);
      }
    }
    if (this.groundY !== null) {
      const g = this.groundY;
      for (let c = 0; c < this.dynCount; c++) {
        const C = this.colliders[c];
        if (!C.groups || this.objects[C.object].ragdoll) continue;
        const minY = this.lowestY(st, c, g - 1e-5);
        if (minY < g - 1e-5) st[STATE_STRIDE * C.body + 1] += g - minY;
      }
      // a ragdoll: only its penetrating parts, through its joints (not lifted as a whole)
      for (const obj of this.objects) if (obj.ragdoll) this.projectRagdollGround(st, obj);
    }
    const thr = this.opts.sleepSpeedMps;
    for (const obj of this.objects) {
      let slow = true;
      for (const i of obj.bodies) {
        if (!this.awake[i]) continue;
        const s = STATE_STRIDE * i;
        const im = this.bodies.invMass[i];
        // drift velocity (mid-step): v − g h/2 removes the last half kick
        const g = this.bodies.gravity;
        const vx = st[s + 7] * im - 0.5 * h * g[0], vy = st[s + 8] * im - 0.5 * h * g[1], vz = st[s + 9] * im - 0.5 * h * g[2];
        this.bodies.angularVelocity(st, i, _w);
        // squared speeds against thr² (no Math.hypot builtin call per body and step)
        const sz = this.bodySize[i], thr2 = thr * thr;
        if (vx * vx + vy * vy + vz * vz > thr2 || (_w[0] * _w[0] + _w[1] * _w[1] + _w[2] * _w[2]) * sz * sz > thr2) slow = false;
      }
      for (const i of obj.bodies) this.slowTime[i] = slow ? this.slowTime[i] + h : 0;
      if (slow && this.slowTime[obj.bodies[0]] >= this.opts.sleepTimeSec) {
        for (const i of obj.bodies) {
          if (!this.awake[i]) continue;
          this.awake[i] = 0;
          const s = STATE_STRIDE * i;
          for (let k = 7; k < 13; k++) st[s + k] = 0;
        }
      }
    }
  }

  // ------------------------------------------------------------ queries

  /** Transform (t xyz, q xyzw) of a dynamic prop's origin, from its body. */
  propOrigin(obj: SimObject, out: Float64Array, oo = 0): void {
    const i = obj.bodies[0];
    const st = this.bodies.state;
    const s = STATE_STRIDE * i;
    this.bodies.localOrientation(st, i, out, oo + 3);
    const prop = this.doc.props[obj.index];
    const mp = this.propComs[obj.index] ?? (this.propComs[obj.index] = propMassProperties(prop).centerOfMass);
    rotateF64(_a, 0, out, oo + 3, mp[0], mp[1], mp[2]);
    out[oo] = st[s] - _a[0];
    out[oo + 1] = st[s + 1] - _a[1];
    out[oo + 2] = st[s + 2] - _a[2];
  }

  /**
   * Velocity of a dynamic prop's origin (linear) and angular velocity, for
   * key tangents. `origin`: propOrigin's answer for the current state, if the
   * caller has it (else it is made here).
   */
  propOriginVelocity(obj: SimObject, lin: Float64Array, ang: Float64Array, origin?: Float64Array): void {
    const i = obj.bodies[0];
    const st = this.bodies.state;
    const s = STATE_STRIDE * i;
    this.bodies.angularVelocity(st, i, ang);
    this.bodies.linearVelocity(st, i, lin);
    const o = origin ?? _o10;
    if (!origin) this.propOrigin(obj, _o10);
    const rx = o[0] - st[s], ry = o[1] - st[s + 1], rz = o[2] - st[s + 2];
    lin[0] += ang[1] * rz - ang[2] * ry;
    lin[1] += ang[2] * rx - ang[0] * rz;
    lin[2] += ang[0] * ry - ang[1] * rx;
  }

  private readonly propComs: [number, number, number][] = [];

  /**
   * Whether body i's state is at the world's current time. False only
   * within a step (e.g. in onImpact) for a body whose island was not in the
   * impact: it is already at the end of the step.
   */
  bodyCurrent(i: number): boolean {
    return this.live[i] === 1;
  }

  /** Total kinetic energy of the dynamic bodies. */
  kineticEnergy(): number {
    let e = 0;
    for (let i = 0; i < this.dynCount; i++) e += this.bodies.kineticEnergy(this.bodies.state, i);
    return e;
  }

  /** World positions of a dynamic collider's vertices (for tests and the ghost). */
  bodyVertices(body: number): Float64Array {
    this.placeDynamic(this.bodies.state, this.P0);
    this.ensureP0(body);
    const C = this.colliders[body];
    return this.P0.slice(3 * C.vOff, 3 * (C.vOff + C.nv));
  }
}

/** Copies a 6-number box a into b (no TypedArray.set call: see emptyBox). */
function copyBox(a: Float64Array, b: Float64Array): void {
  for (let c = 0; c < 6; c++) b[c] = a[c];
}

/** Placeholders of a character collider's primitive box buffers until they are made (primitiveBoxes). */
const _none64 = new Float64Array(0);
const _none32 = new Int32Array(0);
const _coords = new Float64Array(24);
const _res = new Float64Array(3);
const _vb = new Float64Array(6);
const _pt = new Float64Array(6);
const _st = new Float64Array(2);
const _tw = new Float64Array(2);
/** Band (m) in front of / behind a keyframed prop face within which ragdoll vertices limit the joint anchor corrections. */
const MESH_BAND = 0.03, MESH_BAND_IN = 0.01;
/**
 * Position corrections stop a vertex this far (m) in front of a keyframed
 * prop face: one left exactly on it may round to a hair behind, where the
 * continuous detection (back faces culled, slow pairs on one side skipped)
 * would not see it fall through.
 */
const MESH_CLEARANCE = 1e-5;
/** A vertex at most this far (m) behind a keyframed prop face, the mesh's nearest part, is taken out of it after the step (pushOutOfMeshes). */
const PUSH_BAND = 0.02;
const _push = new Float64Array(7);
const _tri12 = new Float64Array(12);

const _a = new Float64Array(3);
const _b = new Float64Array(3);
const _c = new Float64Array(3);
const _d = new Float64Array(3);
const _v = new Float64Array(3);
const _w = new Float64Array(3);
const _acc = new Float64Array(3);
const _q4 = new Float64Array(4);
const _q5 = new Float64Array(4);
const _sc5 = new Float64Array(2);
const _e = new Float64Array(3);
const _o10 = new Float64Array(10);
const _k9 = new Float64Array(9);

export type { Character, Prop };
