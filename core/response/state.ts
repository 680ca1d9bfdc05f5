/**
 * The flat state of `ImpulseSolver`: every buffer its layers share (bodies, constraints, rows, the
 * tree, the Schur complement, contact groups, the low-rank and path-built Schur caches, contact space
 * and its pass cache, friction, restitution, warm start), and the public options and statistics.
 * Buffers grow and are kept between calls; each layer (see solver.ts) is an abstract class extending
 * the one below it, so the methods read `this.` state as before.
 */
import { F64 } from './flat';
import { ImpulseSolution } from './solution';
import type { PassFactors } from './contactspace';

/** The buffers, options and statistics of `ImpulseSolver` (the base of its layers). */
export abstract class SolverState {
  // bodies
  protected nb = 0;
  protected nd = 0;
  protected com = F64(0);
  protected vel = F64(0); // 6 per body: v, ω
  protected mass = F64(0);
  protected inertia = F64(0); // 9 per body (symmetric)
  protected dyn = new Int32Array(0); // dynamic index or -1
  protected dynBody = new Int32Array(0);
  protected rest = F64(0);
  protected fric = F64(0);
  protected kf = new Uint8Array(0);

  // constraints: joints 0..nj-1 then contacts nj..nj+nc-1
  protected nj = 0;
  protected nc = 0;
  protected cA = new Int32Array(0);
  protected cB = new Int32Array(0);
  protected cRow0 = new Int32Array(0);
  protected cRows = new Int32Array(0);
  protected cPrimary = new Uint8Array(0);
  protected jointKind = new Uint8Array(0);
  protected jointDirs = F64(0); // 9 per joint: up to three unit row directions
  protected jointPoint = F64(0);
  protected contactPoint = F64(0);
  protected contactFrame = F64(0); // 9 per contact: n, t1, t2
  protected contactSlide = F64(0); // 3 per contact: unit tangential direction P of the sliding impulse
  protected contactEps = F64(0);
  protected contactGamma = F64(0);
  protected contactState = new Uint8Array(0);

  // rows
  protected nRows = 0;
  protected rowOwner = new Int32Array(0);
  protected rowJA = F64(0);
  protected rowJB = F64(0);
  protected rowGA = F64(0);
  protected rowGB = F64(0);
  protected rowDA = new Int32Array(0); // dynamic index of A or -1
  protected rowDB = new Int32Array(0);
  protected rowC = F64(0); // effective right-hand side (target minus keyframed velocity)
  protected rowLambda = F64(0);

  // tree
  protected nNodes = 0;
  protected totalDim = 0;
  protected nodeDim = new Int32Array(0);
  protected nodeOff = new Int32Array(0);
  protected nodeParent = new Int32Array(0);
  protected nodeRef = new Int32Array(0); // dyn index (body nodes) or joint index
  protected post = new Int32Array(0);
  protected blkD = F64(0);
  protected blkDinv = F64(0);
  protected blkW = F64(0);
  protected hScratch = F64(36);
  protected work36 = F64(36);
  protected x = F64(0);
  protected x0 = F64(0);
  protected ufree = F64(0); // M u⁻ per dynamic body (6 each)
  protected adjStart = new Int32Array(0);
  protected adjList = new Int32Array(0);
  protected ufParent = new Int32Array(0);
  protected compRoot = new Int32Array(0);
  protected queue = new Int32Array(0);

  // secondary / Schur
  protected secRows = new Int32Array(0);
  protected S = F64(0);
  protected sRhs = F64(0);
  protected sMu = F64(0);
  protected sWork = F64(0);
  protected sPiv = new Int32Array(0);

  // contact groups: the rows of one dynamic body against the world / keyframed bodies
  protected grpHead = new Int32Array(0); // per dynamic body: first grouped row or -1
  protected grpNext = new Int32Array(0); // per row: next row of the same group
  protected grpCount = new Int32Array(0);
  protected grpV0 = new Int32Array(0); // per dynamic body: first virtual row (-1: not compressed)
  protected grpRank = new Int32Array(0);
  protected grpY = F64(0); // 6 per dynamic body
  protected gram = F64(36);
  protected eigV = F64(36);
  protected eigW = F64(6);
  protected vec6 = F64(6);
  protected vec3 = F64(3); // a sliding contact's impulse direction n + γ P (buildRows)
  protected virtInvLam = F64(0); // per virtual row: 1 / Λ_i (its row is √Λ_i q_i)
  protected rejoins = new Int32Array(0); // per contact: times it was separated
  protected slHead = new Int32Array(0); // per dynamic body: first sliding row against the world / keyframed, or -1
  protected slCount = new Int32Array(0);
  protected slIn = new Uint8Array(0); // per dynamic body: 1 when its sliding rows are eliminated with it
  protected obA = F64(0); // 36 per dynamic body: LU of A = J M⁻¹ Gᵀ of an oblique elimination
  protected obPiv = new Int32Array(0); // 6 per dynamic body
  protected obMinv = F64(0); // 36 per dynamic body: M⁻¹
  protected grpLam = F64(0); // 6 per dynamic body: eigenvalues of the group's Gram matrix (descending use: first grpRank kept)
  protected grpQ = F64(0); // 36 per dynamic body: rows 0..rank-1 span the group's rows, rows rank..5 their complement
  protected grpT = F64(0); // 6 per dynamic body: targets Q u = t
  /** Per dynamic body: 1 when it is eliminated together with its contact group (`contactGroups: 'eliminate'`). */
  protected conBody = new Uint8Array(0);
  protected grpFull = new Uint8Array(0); // per dynamic body: grpQ/grpLam/grpT hold its group's full decomposition
  protected grpPending = new Uint8Array(0); // per dynamic body: a group of several contacts not decomposed yet (grpRank an upper bound)
  protected grpDirty = new Uint8Array(0);
  protected schurResidual = 0; // max |b − S λ| of the last sparse solve (0 when consistent) // per dynamic body: its contacts changed state since its group was decomposed
  protected prevState = new Uint8Array(0); // per contact: state at the last linear solve
  protected conYt = F64(0); // 6 per dynamic body: velocity offset (I − Z M) Qᵀ t
  protected conF = F64(0); // 6 per dynamic body: right-hand side of the last solve
  protected mat36 = F64(36);
  protected mat36b = F64(36);
  // low-rank Schur complement S = P Rᵀ (see `solveLowRankSchur`)
  protected compOf = new Int32Array(0);
  protected compHead = new Int32Array(0);
  protected compNext = new Int32Array(0);
  protected facCbuf = F64(0); // per touched component: C (6n × k, row stride 6n) with Z_BB = C Eᵀ
  protected facEbuf = F64(0); // E (= C when Z_BB is symmetric)
  protected facK = new Int32Array(0); // per dynamic body: columns of its component's C (-1: untouched)
  protected facOff = new Int32Array(0); // per dynamic body: first column of its component in P, R
  protected facRow = new Int32Array(0); // per dynamic body: offset of its 6 rows in facCbuf
  protected facStride = new Int32Array(0);
  protected fZblk = F64(0);
  protected fD = F64(0);
  protected fDone = new Uint8Array(0);
  protected fP = F64(0);
  protected fR = F64(0);
  protected fOrd = new Int32Array(0);
  protected fOrd2 = new Int32Array(0);
  protected fLim = new Int32Array(0); // per column of P: the columns of C₁ its row can have nonzero (solveLowRankSchur)
  protected mat36c = F64(36);
  protected piv6 = new Int32Array(6);
  protected piv6b = new Int32Array(6);
  protected fU1 = F64(0);
  protected fU2 = F64(0);
  protected fT1 = F64(0);
  protected fT2 = F64(0);
  protected fM = F64(0);
  protected fY = F64(0);
  protected fZ = F64(0);
  protected fRes = F64(0);
  protected fTmp = F64(0);
  protected fPerm = new Int32Array(0);

  /** 1: rows ask for −ε times the velocity before (Newton, `normalOnly`); 0: the phases of Poisson restitution. */
  protected epsOn = 1;
  // Schur complement by tree paths (`buildSchurByPaths`)
  protected pPos = new Int32Array(0);
  protected pY = F64(0);
  protected pZ = F64(0);
  protected pYJ = F64(0);
  protected pPath = new Int32Array(0);
  protected pLen = new Int32Array(0);
  protected pMark = new Int32Array(0);
  // Cache of the previous path-based Schur build (same tree factorization): a secondary row
  // whose data (G, J, bodies) is unchanged keeps its path vectors, and a pair of such rows its
  // entry of S, bit for bit (the contact-state loop changes a few rows per pass).
  protected pcValid = false;
  protected x0Valid = false; // x0c holds the tree solve of the base right-hand side
  protected x0c = F64(0);
  protected pcS = 0; // rows in the cache
  protected pcT = 0;
  protected pcN = 0;
  protected pcAsym = false;
  protected pcRow = F64(0); // 24 per cached row: G_A, G_B, J_A, J_B
  protected pcRowCur = F64(0);
  protected pcD = new Int32Array(0); // 2 per cached row: dynamic indices of A, B
  protected pcDCur = new Int32Array(0);
  protected pcY = F64(0);
  protected pcZ = F64(0);
  protected pcYJ = F64(0);
  protected pcPath = new Int32Array(0);
  protected pcLen = new Int32Array(0);
  protected pcSm = F64(0); // S entries of the cached rows (row-major, pcS × pcS)
  protected pcSmCur = F64(0);
  protected pcDir = new Uint8Array(0); // 1 where that entry was computed directly (not mirrored)
  protected pcDirCur = new Uint8Array(0);
  protected pcHit = new Int32Array(0); // per current row: cached row with the same data, or -1
  /** Reuse unchanged rows of the previous Schur build within one contact-state loop (default true; false = rebuild every pass, for comparison). */
  reuseSchurRows = true;
  /** Path-based Schur builds and rows / entries taken from the cache (benchmarks). */
  schurCacheStats = { builds: 0, rowsReused: 0, rows: 0, entriesReused: 0, entries: 0 };
  protected abortOnContradiction = false;
  protected aborted = false; // the last Newton attempt was given up (contradiction with eliminated bodies)
  protected skipElimination = false; // contact-state loops start without eliminated bodies
  /** The tree factorization holds this solve's bodies and joints with no eliminated body (reused by later phases). */
  protected treeReady = false;
  /**
   * Contact-space solve (`contactSpace`): A = B K⁻¹ Bᵀ over basis rows B (n, t₁, t₂ of each
   * contact, secondary joint rows), materialized lazily per basis row while the tree
   * factorization stands; a pass's Schur complement is gathered from it.
   */
  protected csValid = false;
  protected csKeys = 0; // key space: 3·nc contact basis rows, then joint rows
  protected csSlotOf = new Int32Array(0); // key -> slot or -1
  protected csN = 0; // materialized slots
  protected csCap = 0; // row stride of csA
  protected csA = F64(0);
  protected csD = new Int32Array(0); // 2 per slot: dynamic indices of the sides
  protected csJ = F64(0); // 12 per slot: the row on side A, side B
  protected csY = F64(0); // per slot, T numbers: L⁻¹ Bᵀ on the slot's path
  protected csZ = F64(0); // D⁻¹ L⁻¹ Bᵀ on the path
  protected csPath = new Int32Array(0); // per slot, N: path nodes
  protected csLen = new Int32Array(0);
  protected csMark = new Int32Array(0);
  protected csPY = F64(0); // per slot on one dynamic body, T numbers: y packed in path order
  protected csPZ = F64(0);
  protected csPL = new Int32Array(0); // packed length, or -1 (a row on two dynamic bodies)
  protected csRootDims = new Int32Array(0); // per node: numbers on its path to the root
  protected csLca = new Int32Array(0); // per pair of body nodes (chains' first nodes): numbers their chains share, −1 none, −2 not yet known
  protected csRowJ = new Int32Array(0); // per secondary row of the pass: slot of its J (= G for basis rows)
  protected csRowG = new Int32Array(0); // 3 per secondary row: slots of G's terms (-1 unused)
  protected csRowC = F64(0); // 3 per secondary row: coefficients of G's terms
  protected csStamp = new Int32Array(0); // per slot: last pass whose rows used it as a J row (statistics)
  protected csPass = 0; // passes since the factorization (statistics)
  protected csPrevRows = 0;
  /**
   * Solve each contact-state pass of an island with joints and no eliminated body in contact space: the Schur
   * complement of the pass is gathered from A (the basis rows' K⁻¹ products, built once per
   * tree factorization and shared by every pass and phase of a solve) instead of built from
   * the tree, and solved least-norm over the uncompressed rows (the same split the compressed
   * groups keep; when the rows contradict each other, the least-squares answer of least norm
   * over those rows). Default true; false = the compressed tree-built Schur complement every
   * pass (for comparison).
   */
  contactSpace = true;
  /**
   * Keep the factors of the last passes' Schur complements while the tree factorization stands,
   * and take them (with the answer, when the right-hand side is the same too) for a later pass
   * with the same rows: the first, all-sticking pass of every friction-bisection step, the passes
   * of a restitution bisection, a contact-state loop that comes back to a set it had. Bit for bit
   * what factoring again gives. Default true; false = factor every pass (for comparison).
   */
  reusePassFactors = true;
  /**
   * Solve each contact-state pass of an island of one dynamic body and no joints by its own pass
   * (`solveOneBody`, onebody.ts: the body's 6×6 inverse mass and its contact rows, no tree solves
   * or contact groups), the same least-norm equations as the general pass. Default true; false =
   * the general pass (for comparison).
   */
  oneBodyPass = true;
  /**
   * The low-rank Schur solve (every touched body an eliminated or isolated node) forms
   * M = C₁ᵀC₂; with every impulse along its condition direction C₂ = C₁ and M is symmetric:
   * then only its lower triangle is summed (and the known zeros of the pivoted Cholesky factor
   * skipped) and mirrored, bit for bit the full product. Default true; false = the full product
   * (for comparison).
   */
  symmetricLowRankProduct = true;
  /** Low-rank Schur solves that formed M, and those that formed it as a symmetric product (tests, benchmarks). */
  lowRankStats = { solves: 0, symmetric: 0 };
  /** Contact-space passes looked up in that cache, factorizations and whole solves taken from it (tests, benchmarks). */
  passCacheStats = { lookups: 0, factorsReused: 0, solvesReused: 0 };
  protected pfEntries: PassFactors[] = [];
  protected pfCount = 0;
  protected pfNext = 0;
  protected xStale = false; // x not yet formed after the last contact-space pass
  protected passEntry = -1; // pass cache entry holding the last contact-space pass's factors (-1: none)
  protected slideFree = false; // rows: contacts with finite friction as frictionless ones (`frictionSolve`)
  protected frictionOff = false; // `frictionLaw`: a loop that did not settle goes on without friction
  protected slF = F64(0); // per contact: tangential impulse on t₁, t₂ (`frictionSolve`)
  protected slN = F64(0); // per contact: normal impulse of the last `frictionSolve`
  protected slKey = F64(0); // per basis key: the multiplier of `frictionSolve`'s frictionless pass (after the friction)
  protected slSlide = new Uint8Array(0); // per contact: sliding in the last `frictionSolve`
  protected slFree = new Uint8Array(0); // per contact: its friction solved by `frictionSolve` (`frictionLaw`)
  protected slAGi = F64(0);
  protected slRough = new Uint8Array(0); // per contact: made perfectly rough by `frictionLawFirst`
  protected slGamma = F64(0);
  protected csPassRows = 0; // secondary rows of that pass (secRows, sMu, csRowG, csRowC)
  /** Passes solved in contact space, those whose rows contradicted each other, basis rows materialized (tests, benchmarks). */
  contactSpaceStats = { passes: 0, leastSquares: 0, slots: 0, firstPasses: 0, rows: 0, rowsCubed: 0, rowsCubedFirst: 0, rowsAdded: 0, rowsRemoved: 0 };
  /**
   * Restitution paths of 'paper' solves (benchmarks): Newton attempts, those given up at their
   * first contradiction with eliminated bodies, those solved to the end and not kept (a contact
   * ends approaching, or energy added), the linear solves of both; Poisson calls and their
   * linear solves; bisection solves saved by keeping the result at the kept scale.
   */
  restitutionStats = { newtonAttempts: 0, newtonGivenUp: 0, newtonNotKept: 0, newtonDiscardedSolves: 0, poissonCalls: 0, poissonSolves: 0, bisectionSolvesSaved: 0 };
  protected poissonUsed = false;
  protected gammaOrig = F64(0);
  protected p1C = F64(0); // compression phase: contact impulses (3 each)
  protected p1J = F64(0); // joint impulses
  protected p1S = new Uint8Array(0); // contact states
  protected p1U = F64(0); // velocities u_c (6 per body)
  protected velPre = F64(0); // velocities before the impact (6 per body)
  protected resImp = F64(0); // restitution impulses s ε_c R_c (3 per contact)
  protected phaseOut = new ImpulseSolution();
  protected phaseBest = new ImpulseSolution(); // a bisection's result at its lower end

  // warm start (`SolveOptions.warmStart`): the previous solve's counts and final contact states
  protected lastNb = -1;
  protected lastNj = -1;
  protected lastNc = -1;
  protected lastState = new Uint8Array(0);
  protected warmSep = new Uint8Array(0); // per contact: started separated by the warm start, not yet back

  /** Scale on every contact's Coulomb γ; below 1 only inside the energy guard of `solve`. */
  protected gammaScale = 1;

  // sliding directions (`frictionLaw`)
  protected relV = F64(6); // relative velocity at a contact after (0..2) and before (3..5)
  protected slW = F64(0); // per contact: tangential slip after minus its target, coordinates on t₁, t₂
  protected slR = F64(0); // per Newton contact: residual (n × P)·w
  protected slList = new Int32Array(0); // Newton contacts
  protected slRow = new Int32Array(0); // per contact: its secondary row in the last pass (-1)
  protected slJac = F64(0);
  protected slPiv = new Int32Array(0);
  protected slAG = F64(0); // per Newton contact and tangent: A[t_k row, G_q] over the pass's rows q
  protected slCol = F64(0);
  protected slDmu = F64(0);
  /**
   * Solves whose answer was redone by `frictionLaw` (a sliding contact's friction pushed along its
   * slip), their linear solves, Newton steps on sliding directions, and those that reached the
   * cap (sliding contacts left frictionless); for tests and benchmarks.
   */
  frictionLawStats = { resticks: 0, solves: 0, passes: 0, newtonSteps: 0, dropped: 0, stalled: 0 };

  /**
   * Sliding friction when a call's options do not say (`SolveOptions.slidingFriction`):
   * 'paper' (default) or 'coulomb' (frictionLaw).
   */
  slidingFriction: 'paper' | 'coulomb' = 'paper';

  /** Linear solves done by this solver since it was made (all calls, guards included); for benchmarks. */
  linearSolves = 0;
}
