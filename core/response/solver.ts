/*
 * Analytic impulse solver after Moore & Wilhelms 1988, section 3.2.
 *
 * Unknowns: the new linear and angular velocity u = (v̄, ω̄) of every dynamic
 * body and one impulse per constraint row (contact rows and joint rows).
 * Equations (the paper's 15-equation system, generalised):
 *   M u − Σ_r G_rᵀ λ_r = M u⁻          (momentum of every dynamic body)
 *   J_r u = c_r                          (one velocity condition per row)
 * where J_r·u is the relative velocity of the row's point along its direction
 * (seen from A minus seen from B) and G_r is the direction the impulse acts in
 * (G = J except for sliding contacts, whose impulse is k + α i + β j while the
 * condition stays along k). Keyframed bodies and the world have fixed
 * velocities: their columns leave the system and their known velocity moves to
 * the right-hand side (section 3.3).
 *
 * Coulomb's law at sliding contacts (`slidingFriction: 'coulomb'`, frictionLaw): the paper's sliding rule
 * keeps the direction of the sticking impulse; with several contacts an
 * answer can leave a sliding contact without restitution whose friction pushes
 * along its slip (positive work at the contact, while the island's energy
 * still falls: a ragdoll's hand spun on the ground for ever). Such answers are
 * solved again: first with those contacts perfectly rough (kept when each then
 * sticks inside its own cone), else their tangential impulses become unknowns of
 * Coulomb's complementarity problem with the round cone (sticking without slip
 * inside it, or sliding on it against the slip), solved over the contact-space
 * matrix A (block descent, then semismooth Newton), the other contacts keeping
 * the paper's states until they break the law too. The paper's answer is kept
 * wherever it has no such contact.
 *
 * Restitution: the paper solves with ε = 0 and scales the impulses by (1 + ε)
 * (Poisson's hypothesis). For a row whose velocity before is J u⁻, with one ε
 * for all contacts, that is the same as asking for J u⁺ = −ε J u⁻ (Newton).
 * 'paper' (default) solves Newton's rows first, in one pass, and keeps the
 * answer when its equations have a solution, no contact ends approaching and
 * (different ε) no energy is added. Otherwise, and always with 'poisson',
 * restitution is computed the paper's way per contact (`solvePoisson`): a
 * compression phase with ε = 0, then the impulses ε_c R_c and one more
 * ε = 0 solve from there. `normalOnly` and `unilateral: false` keep Newton's
 * per-row equalities.
 *
 * Sparse solve (Baraff 1996, "Linear-time dynamics using Lagrange
 * multipliers"): the bodies and the joints of a spanning forest form a tree of
 * blocks (bodies 6×6, joints 1..3); ordering children before parents, a block
 * LDLᵀ factorisation of [M Jᵀ; J 0] has no fill-in, so factor and solve cost
 * O(n). Joints that close loops, joints beyond the first one to a keyframed
 * body in a tree, and all contacts are "secondary" rows handled by a small
 * dense Schur complement of size s (s tree solves, O(n·s + s³)).
 *
 * Many redundant contacts (a ragdoll lying on the ground: 40–80 points, four
 * coplanar corners per box, collinear points along limbs). The contacts of
 * one dynamic body against the world or keyframed bodies form a "group":
 * - `contactGroups: 'schur'`: a group whose rows are dependent is replaced by
 *   a basis of its row space (≤ 6 rows, scaled so that the least-norm split
 *   over the full set is kept), so the Schur complement has at most 6 rows
 *   per body.
 * - `'eliminate'`: the body is eliminated together with its group (and its
 *   sliding contacts when the rows stay independent) before anything else;
 *   its joints become secondary rows. A body pinned by its contacts then has
 *   no freedom left (Z = 0) and its joints drop out of the problem. When
 *   every touched body is such an isolated node, the Schur complement is
 *   S = P Rᵀ of rank K (the freedoms left), solved in O(s + K³).
 * - `'auto'` picks the smaller Schur complement. The Schur system is solved
 *   least-norm (rank-revealing pivoted Cholesky when symmetric, complete-
 *   pivot LU otherwise) — never by an SVD.
 * Unilateral contacts: pulling frictionless contacts leave all at once and a
 * separated contact that would approach comes back (complementarity), with a
 * cap against cycling.
 *
 * Contact space (`contactSpace`, default; islands with joints and no
 * eliminated body): the contact-state passes of one solve share one tree
 * factorization, so A = B K⁻¹ Bᵀ over the basis rows B (the n, t₁, t₂ rows of
 * every contact, joints that close loops) is kept and grown a basis row at a
 * time (its path vectors and its entries with the rows before). A pass then
 * gathers its Schur complement from A (a sliding contact's impulse row is
 * n + γ(σ₁ t₁ + σ₂ t₂), a combination of its three) and solves it least-norm
 * over the uncompressed rows, which is the split the compressed groups keep;
 * the velocities are formed by one tree solve when the loop ends, a separated
 * contact's normal velocity in between comes from A and the free solve.
 * A pass's least-norm solve: rook-pivoted LU (asymmetric: sliding
 * contacts) or pivoted Cholesky (symmetric), stopped at the numerical rank; a
 * rank-deficient system is solved through bases of its null spaces (O(n²·d)
 * for a deficiency d), not through Gram matrices (O(n³)). The factors of the
 * last passes are kept while the tree factorization stands (`reusePassFactors`):
 * a pass with the same rows as an earlier one (the all-sticking first pass of
 * every friction-bisection step, the passes of a restitution bisection, a loop
 * that comes back to a set it had) takes them, and its answer when its
 * right-hand side is the same too.
 *
 * Layers: each file below holds one abstract class extending the one before it (so the methods
 * read and write the shared state as `this.` fields), bottom to top:
 *   flat.ts, solution.ts  buffer helpers; `ImpulseSolution` (the result)
 *   state.ts            `SolverState`: every buffer, the public options and statistics
 *   inputs.ts           `SolverInputs`: bodies, joints, contacts in; the solution and energies out
 *   solver.ts           `ImpulseSolver`: `solve` (energy guard on friction), warm start, one solve
 */
import { applyDenseRobust, factorDenseRobust, factorSymmetricRobust, invertDefinite, luCompletePivot, luFactor, luSolve, pivotedCholesky, refineDenseRobust, refineSymmetricRobust, solveDenseRobust, solveSymmetricRobust, symmetricEigen } from './linalg';
import { ContactState, ResponseInputError } from './types';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './types';
import { hypot2, hypot3 } from '../math/libm';
import { KIND_BALL, KIND_LINEAR, F64, growF, growI, growU, sameBits, setRow } from './flat';
import { ImpulseSolution, copySolution } from './solution';
import { SolverInputs } from './inputs';

export { ImpulseSolution } from './solution';

/** `frictionLaw`: contact-state passes before sliding contacts lose their friction (a loop that does not settle). */
const FRICTION_LAW_PASSES = 60;
/** `frictionLaw`: Newton steps on the sliding friction per set of contact states. */
const FRICTION_NEWTON_STEPS = 8;
/** `frictionLaw`: a slip counts as along −P when its component across P is below this fraction of it. */
const FRICTION_DIRECTION_TOL = 1e-4;
/** `frictionLaw`: rounds of disc radii (Tresca problems) before the Newton polish. */
const FRICTION_TRESCA_ROUNDS = 3;
/** `frictionLaw`: turns of descent and Newton steps. */
const FRICTION_CYCLES = 8;
/** `frictionLaw`: block coordinate descent sweeps per Tresca problem. */
const FRICTION_SWEEPS = 20;
/** `frictionLaw`: from this round on, a free set that grows takes every frictional contact. */
const FRICTION_GROW_ROUNDS = 3;
/** `frictionLaw`: W + δI with δ this fraction of W's largest diagonal entry. */
const FRICTION_REGULARIZATION = 0;
/** `frictionLawFirst`: rounds of making pushing sliding contacts perfectly rough. */
const FRICTION_RESTICK_ROUNDS = 3;
/** `frictionLaw`: times a separated contact may come back. */
const FRICTION_LAW_REJOINS = 2;

/** Entries of the pass cache kept (see `ImpulseSolver.reusePassFactors`). */
const PASS_CACHE_SIZE = 8;

/** One cached pass: its rows (slots of J, of G's terms and their coefficients), S, factors, last right-hand side and answer. */
export interface PassFactors {
  s: number;
  asym: boolean;
  rank: number;
  rj: Int32Array<ArrayBuffer>;
  rg: Int32Array<ArrayBuffer>;
  rc: Float64Array<ArrayBuffer>;
  S: Float64Array<ArrayBuffer>;
  work: Float64Array<ArrayBuffer>;
  piv: Int32Array<ArrayBuffer>;
  rhs: Float64Array<ArrayBuffer>;
  mu: Float64Array<ArrayBuffer>;
  residual: number;
  solved: boolean;
}

function newPassFactors(): PassFactors {
  return { s: 0, asym: false, rank: 0, rj: new Int32Array(0), rg: new Int32Array(0), rc: F64(0), S: F64(0), work: F64(0), piv: new Int32Array(0), rhs: F64(0), mu: F64(0), residual: 0, solved: false };
}

/**
 * Reusable solver: keeps its buffers between calls, so repeated solves of
 * similar size do not allocate (except the result on first use and the dense
 * reference path).
 *
 * Buffers, options and statistics: `SolverState` (state.ts); the algorithm: the layers listed at the top of this file.
 */
export class ImpulseSolver extends SolverInputs {
  solve(
    bodies: readonly RigidBodyInput[],
    joints: readonly JointInput[],
    contacts: readonly ContactInput[],
    options: SolveOptions = {},
    out: ImpulseSolution = new ImpulseSolution(),
  ): ImpulseSolution {
    this.gammaScale = 1;
    this.poissonUsed = false;
    this.solveOnce(bodies, joints, contacts, options, out);
    const e0 = out.kineticEnergyBefore;
    // (the restitution phases of `solvePoisson` have guards of their own)
    if ((options.friction ?? 'coulomb') !== 'coulomb' || this.gained(out) <= e0 * (1 + 1e-12) || this.poissonUsed) return this.remember(out);
    // Keeping each sliding impulse in its sticking direction (the paper's α, β
    // conditions) can add kinetic energy when several contacts slide at once.
    // Then a friction scale s in [0, 1] that adds none is found and the whole
    // solve (contact states included) is done with γ·s: impulses stay pushing
    // and inside their (original) cones, momentum is untouched, and s = 0 is
    // the frictionless solution, which adds none. The scale is the allowed end
    // of a bracket [lo, hi] (lo adds none, hi adds some) shrunk by regula falsi
    // (Illinois) on E(s) − E⁻, with a bisection step every third try, until it
    // is 2⁻¹⁶ wide or E(lo > 0) is within 1e-9 of E⁻ (at most 8 solves after the
    // one at s = 0; the bisection of the whole bracket took 17). The solution
    // at lo is kept as found, not solved again.
    const tol = e0 * (1 + 1e-12);
    const best = this.guardBest;
    let lo = 0, hi = 1, fhi = this.gained(out) - tol, flo: number;
    try {
      this.gammaScale = 0;
      this.solveOnce(bodies, joints, contacts, options, best);
      flo = this.gained(best) - tol;
      let side = 0;
      for (let k = 0; k < 8 && hi - lo > 1 / 65536 && !(lo > 0 && flo >= -1e-9 * e0); k++) {
        let s = fhi > flo ? (lo * fhi - hi * flo) / (fhi - flo) : 0.5 * (lo + hi);
        if (k % 3 === 2 || !(s > lo + (hi - lo) / 64 && s < hi - (hi - lo) / 64)) s = 0.5 * (lo + hi);
        this.gammaScale = s;
        this.solveOnce(bodies, joints, contacts, options, out);
        const f = this.gained(out) - tol;
        if (f <= 0) {
          lo = s;
          flo = f;
          copySolution(out, best);
          if (side === -1) fhi *= 0.5;
          side = -1;
        } else {
          hi = s;
          fhi = f;
          if (side === 1) flo *= 0.5;
          side = 1;
        }
      }
      copySolution(best, out);
      out.frictionScale = lo;
    } finally {
      this.gammaScale = 1;
    }
    // (the solver's contact states are those of the last solve; a warm start reads the output's)
    return this.remember(out);
  }

  private guardBest = new ImpulseSolution();

  /** Keeps what a warm start of the next solve needs. */
  private remember(out: ImpulseSolution): ImpulseSolution {
    this.lastNb = out.bodyCount;
    this.lastNj = out.jointCount;
    this.lastNc = out.contactCount;
    this.lastState = growU(this.lastState, out.contactCount);
    this.lastState.set(out.contactState.subarray(0, out.contactCount));
    return out;
  }

  /** Warm start: contacts that ended separated in the previous solve start separated. */
  private applyWarmStart(warm: boolean): void {
    const nc = this.nc;
    this.warmSep = growU(this.warmSep, nc);
    this.warmSep.fill(0, 0, nc);
    if (!warm || this.lastNb !== this.nb || this.lastNj !== this.nj || this.lastNc !== nc) return;
    for (let c = 0; c < nc; c++)
      if (this.lastState[c] === ContactState.Separated && this.contactState[c] !== ContactState.Static) {
        this.contactState[c] = ContactState.Separated;
        this.warmSep[c] = 1;
      }
  }

  private solveOnce(
    bodies: readonly RigidBodyInput[],
    joints: readonly JointInput[],
    contacts: readonly ContactInput[],
    options: SolveOptions,
    out: ImpulseSolution,
  ): ImpulseSolution {
    const frictionModel = options.friction ?? 'coulomb';
    const restModel = options.restitution ?? 'paper';
    const unilateral = options.unilateral ?? true;
    const dense = options.linearSolver === 'dense';
    const groupMode = options.contactGroups ?? 'auto';
    if (groupMode !== 'auto' && groupMode !== 'schur' && groupMode !== 'eliminate')
      throw new ResponseInputError(`options.contactGroups: unknown mode '${String(groupMode)}'`);
    if (frictionModel !== 'coulomb' && frictionModel !== 'frictionless' && frictionModel !== 'rough')
      throw new ResponseInputError(`options.friction: unknown model '${String(frictionModel)}'`);
    if (restModel !== 'paper' && restModel !== 'normalOnly' && restModel !== 'poisson')
      throw new ResponseInputError(`options.restitution: unknown model '${String(restModel)}'`);

    this.treeReady = false;
    const sliding = options.slidingFriction ?? this.slidingFriction;
    if (sliding !== 'paper' && sliding !== 'coulomb') throw new ResponseInputError(`options.slidingFriction: unknown rule '${String(sliding)}'`);
    const law = sliding === 'coulomb' && frictionModel === 'coulomb' && !dense;
    this.loadBodies(bodies);
    this.ensureConstraints(joints.length + contacts.length);
    this.loadJoints(joints);
    this.loadContacts(contacts, bodies, frictionModel);
    this.applyWarmStart(options.warmStart === true);
    this.conBody = growU(this.conBody, this.nd);
    this.grpDirty = growU(this.grpDirty, this.nd);
    this.prevState = growU(this.prevState, contacts.length);

    const nc = this.nc;
    let vScale = 0;
    for (let i = 0; i < this.nb; i++) for (let k = 0; k < 6; k++) vScale = Math.max(vScale, Math.abs(this.vel[6 * i + k]));
    let anyEps = false;
    for (let c = 0; c < nc; c++) if (this.contactEps[c] > 0 && this.contactState[c] !== ContactState.Static) anyEps = true;
    if (restModel === 'normalOnly' || !anyEps || !unilateral) {
      // Newton restitution per row (or no restitution at all): one phase. With `unilateral:
      // false` (every contact an equality, the paper's linear system) too: the equalities
      // v⁺ = −ε v⁻ are what that formulation asks for.
      this.epsOn = 1;
      const it = this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
      this.writeResult(out, it);
      if (unilateral && law) this.frictionLawFirst(unilateral, groupMode, vScale, restModel, out);
      out.restitutionScale = 1;
      return out;
    }
    let uniformAll = true, e0 = -1;
    for (let c = 0; c < nc; c++) {
      if (this.contactState[c] === ContactState.Static) continue;
      if (e0 < 0) e0 = this.contactEps[c];
      else if (this.contactEps[c] !== e0) uniformAll = false;
    }
    if (restModel === 'paper') {
      // Newton's per-row rule first, in one pass: with one ε for all it is the Poisson result
      // whenever the joints held before and no contact separating before the impact is asked to
      // approach (−ε v⁻·n < 0). It is kept when its equations have a solution (no least-squares
      // compromise), no contact ends approaching and (different ε) no energy is added;
      // otherwise the Poisson form below, which always has an answer.
      this.epsOn = 1;
      this.abortOnContradiction = true;
      this.aborted = false;
      let it: number;
      try {
        it = this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
      } finally {
        this.abortOnContradiction = false;
      }
      const st = this.restitutionStats;
      st.newtonAttempts++;
      let ok = dense || this.schurResidual <= 1e-9 * vScale;
      for (let c = 0; c < nc && ok; c++) if (this.contactState[c] !== ContactState.Static && this.normalVelocity(c, true) < -1e-9 * vScale) ok = false;
      if (ok) {
        this.writeResult(out, it);
        let lawOk = true;
        if (law && this.frictionLawFirst(unilateral, groupMode, vScale, restModel, out) > 0) {
          // (Coulomb's friction solved again: its answer too must leave no contact approaching)
          for (let c = 0; c < nc && lawOk; c++) if (this.contactState[c] !== ContactState.Static && this.normalVelocity(c, true) < -1e-9 * vScale) lawOk = false;
        }
        out.restitutionScale = 1;
        // (one ε: sliding friction that adds energy is left to the guard of `solve`, as always)
        if (lawOk && (uniformAll || this.gained(out) <= out.kineticEnergyBefore * (1 + 1e-12))) return out;
      }
      if (this.aborted) st.newtonGivenUp++;
      else st.newtonNotKept++;
      st.newtonDiscardedSolves += it;
      // (the compression phase starts with the contacts Newton's attempt separated left out;
      // one that approaches comes back as a fresh contact)
      for (let c = 0; c < nc; c++) {
        const st = this.contactState[c];
        if (st === ContactState.Static) continue;
        if (st === ContactState.Separated) this.warmSep[c] = 1;
        else this.contactState[c] = this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
      }
    }
    // (a Newton attempt given up because its rows contradicted each other with eliminated bodies:
    // the Poisson phases solve with the contacts in the Schur complement from the start, as
    // each would after meeting the contradiction again)
    // (few contacts: a dense solve over their uncompressed rows stays cheap)
    this.skipElimination = this.aborted && this.contactSpace && groupMode === 'auto' && 3 * nc <= 96;
    try {
      return this.solvePoisson(unilateral, dense, groupMode, vScale, restModel, out);
    } finally {
      this.skipElimination = false;
    }
  }

  /**
   * Restitution as the paper states it (R_actual = (1 + ε) R, Poisson's
   * hypothesis), per contact: a compression phase solved with ε = 0 gives
   * each contact its impulse R_c (and the velocities u_c); then the
   * restitution phase applies ε_c R_c at every contact and solves once more
   * with ε = 0 from there, so the joints hold again and a contact the
   * restitution impulses of others would drive together receives the extra
   * push that stops it (never a pull). A contact's total impulse is
   * (1 + ε_c) R_c plus that push.
   *
   * With one ε for every contact (and joints holding before the impact) this
   * is exactly Newton's rule v⁺ = −ε v⁻ at every contact that pushed in the
   * compression phase, so single contacts and uniform-ε systems are
   * unchanged. With different ε among coupled contacts Newton's equations
   * can contradict each other (no velocity satisfies them all); the Poisson
   * form always has an answer. There a contact may end with v⁺·n between 0
   * and −ε v⁻·n (another contact's lower ε holds the body), and never
   * approaching. Applying ε_c R_c with different ε_c can add kinetic energy
   * (the impulses no longer scale together); when it would, the restitution
   * impulses are scaled by the largest s ∈ [0, 1] that adds none, found by
   * bisection (`ImpulseSolution.restitutionScale`; s = 0 is the inelastic
   * compression phase, which never adds energy).
   */
  private solvePoisson(unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): ImpulseSolution {
    const l0 = this.linearSolves;
    try {
      return this.poissonPhases(unilateral, dense, groupMode, vScale, restModel, out);
    } finally {
      this.restitutionStats.poissonCalls++;
      this.restitutionStats.poissonSolves += this.linearSolves - l0;
    }
  }

  private poissonPhases(unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): ImpulseSolution {
    const nb = this.nb, nj = this.nj, nc = this.nc;
    this.poissonUsed = true;
    this.epsOn = 0;
    let its = this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
    this.writeResult(out, its);
    out.restitutionScale = 1;
    const e0 = out.kineticEnergyBefore, tol = e0 * (1 + 1e-12);
    let finiteFriction = false;
    for (let c = 0; c < nc; c++) if (this.contactGamma[c] > 0 && this.contactGamma[c] !== Infinity) finiteFriction = true;
    if (this.gained(out) > tol && finiteFriction) {
      // Several sliding contacts can add energy in the compression phase (see `solve`): the
      // friction scale is found for this phase alone (bisection to 2⁻⁶; 0 = frictionless,
      // which adds none), so the restitution phase starts from a compression that adds none.
      this.gammaOrig = growF(this.gammaOrig, nc);
      this.gammaOrig.set(this.contactGamma.subarray(0, nc));
      // (the phase at the scale kept is the one solved and tested at it, copied then, not solved
      // again: only a bracket that never found one adds a solve at 0)
      let lo = 0, hi = 1, found = false;
      const best = this.phaseBest;
      for (let k = 0; k <= 6; k++) {
        const g = k === 6 ? lo : 0.5 * (lo + hi);
        for (let c = 0; c < nc; c++) {
          const g0 = this.gammaOrig[c];
          this.contactGamma[c] = g0 === Infinity ? Infinity : g0 * g;
          if (k < 6 || !found) if (this.contactState[c] !== ContactState.Static) this.contactState[c] = this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
        }
        if (k === 6 && found) {
          this.restitutionStats.bisectionSolvesSaved++;
          copySolution(best, out);
          for (let c = 0; c < nc; c++) this.contactState[c] = best.contactState[c];
          break;
        }
        its += this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
        this.writeResult(out, its);
        if (k === 6) break;
        if (this.gained(out) <= tol) {
          lo = g;
          found = true;
          copySolution(out, best);
        } else hi = g;
      }
      out.iterations = its;
      out.frictionScale = lo;
    }
    const frictionScale = out.frictionScale, ec = this.gained(out);
    // keep the compression phase: impulses, states, velocities u_c, and u⁻
    this.p1C = growF(this.p1C, 3 * nc);
    this.p1J = growF(this.p1J, 3 * nj);
    this.p1S = growU(this.p1S, nc);
    this.p1U = growF(this.p1U, 6 * nb);
    this.velPre = growF(this.velPre, 6 * nb);
    this.resImp = growF(this.resImp, 3 * nc);
    this.p1C.set(out.contactImpulse.subarray(0, 3 * nc));
    this.p1J.set(out.jointImpulse.subarray(0, 3 * nj));
    for (let c = 0; c < nc; c++) this.p1S[c] = this.contactState[c];
    this.velPre.set(this.vel.subarray(0, 6 * nb));
    for (let i = 0; i < nb; i++)
      for (let k = 0; k < 3; k++) {
        this.p1U[6 * i + k] = out.linearVelocity[3 * i + k];
        this.p1U[6 * i + 3 + k] = out.angularVelocity[3 * i + k];
      }
    let anyImpulse = false, uniform = true, eps0 = -1;
    for (let c = 0; c < nc; c++) {
      const e = this.contactEps[c], o = 3 * c;
      if (this.p1C[o] === 0 && this.p1C[o + 1] === 0 && this.p1C[o + 2] === 0) continue;
      if (e > 0) anyImpulse = true;
      if (eps0 < 0) eps0 = e;
      else if (e !== eps0) uniform = false;
    }
    if (!anyImpulse) return out;
    if (uniform && this.uniformRestitution(eps0, vScale, out)) {
      if (this.gained(out) <= tol || ec > tol) return out;
      // (sliding friction with ε can add energy: the bisection below finds the restitution scale)
    }
    its += this.restitutionPhase(1, unilateral, dense, groupMode, vScale, restModel, out);
    // Different ε (or friction in the restitution phase) can add energy: the largest
    // restitution scale s that adds none, by bisection to 2⁻⁶ (s = 0 is the compression phase).
    if (this.gained(out) > tol && ec <= tol) {
      // (the result at the scale kept is the one solved and tested at it, as above)
      let lo = 0, hi = 1, found = false;
      const best = this.phaseBest;
      for (let k = 0; k < 6; k++) {
        const s = 0.5 * (lo + hi);
        its += this.restitutionPhase(s, unilateral, dense, groupMode, vScale, restModel, out);
        if (this.gained(out) <= tol) {
          lo = s;
          found = true;
          copySolution(out, best);
        } else hi = s;
      }
      if (found) {
        this.restitutionStats.bisectionSolvesSaved++;
        copySolution(best, out);
      } else its += this.restitutionPhase(lo, unilateral, dense, groupMode, vScale, restModel, out);
      out.restitutionScale = lo;
    }
    out.iterations = its;
    out.frictionScale = frictionScale;
    return out;
  }

  /**
   * One ε for every contact that pushed: when the joints held before the
   * impact, applying ε R_c at the contacts and re-solving the joints gives
   * exactly ε times the compression phase's joint impulses as well, so
   * u⁺ = u_c + ε (u_c − u⁻) and every impulse is (1 + ε) times its
   * compression value (Newton's rule, one linear solve). Taken when the
   * joints hold at that u⁺ and no contact approaches there; otherwise
   * returns false and the full restitution phase runs.
   */
  private uniformRestitution(eps: number, vScale: number, out: ImpulseSolution): boolean {
    const nb = this.nb, nj = this.nj, nc = this.nc, vel = this.vel;
    for (let i = 0; i < nb; i++) {
      if (this.dyn[i] < 0) continue;
      for (let k = 0; k < 6; k++) vel[6 * i + k] = this.p1U[6 * i + k] + eps * (this.p1U[6 * i + k] - this.velPre[6 * i + k]);
    }
    let ok = true;
    // joint rows (built in the compression phase; a joint's rows do not depend on the states)
    for (let j = 0; j < nj && ok; j++)
      for (let r = this.cRow0[j]; r < this.cRow0[j] + this.cRows[j]; r++)
        if (Math.abs(this.rowVelocity(r)) > 1e-11 * vScale) {
          ok = false;
          break;
        }
    for (let c = 0; c < nc && ok; c++) if (this.contactState[c] !== ContactState.Static && this.normalVelocity(c, false) < -1e-12 * vScale) ok = false;
    if (ok) {
      for (let i = 0; i < nb; i++)
        for (let k = 0; k < 3; k++) {
          out.linearVelocity[3 * i + k] = vel[6 * i + k];
          out.angularVelocity[3 * i + k] = vel[6 * i + 3 + k];
        }
      for (let k = 0; k < 3 * nc; k++) out.contactImpulse[k] *= 1 + eps;
      for (let k = 0; k < 3 * nj; k++) out.jointImpulse[k] *= 1 + eps;
      let e1 = 0;
      for (let d = 0; d < this.nd; d++) {
        const i = this.dynBody[d];
        e1 += this.energy(i, out.linearVelocity, 3 * i, out.angularVelocity, 3 * i);
      }
      out.kineticEnergyAfter = e1;
    }
    vel.set(this.velPre.subarray(0, 6 * nb));
    return ok;
  }

  /**
   * The restitution phase with the restitution impulses scaled by s: from
   * u_c + M⁻¹ Σ s ε_c R_c (keyframed bodies unchanged), an ε = 0 solve with
   * the contacts that approach there active and the others separated (the
   * complementarity loop takes it from there). Writes the combined result
   * (velocities, total impulses, states, energy against u⁻) into out.
   */
  private restitutionPhase(s: number, unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): number {
    const nb = this.nb, nj = this.nj, nc = this.nc;
    const vel = this.vel, com = this.com, P = this.contactPoint;
    vel.set(this.p1U.subarray(0, 6 * nb));
    for (let c = 0; c < nc; c++) {
      const e = s * this.contactEps[c], o = 3 * c;
      const ix = e * this.p1C[o], iy = e * this.p1C[o + 1], iz = e * this.p1C[o + 2];
      this.resImp[o] = ix;
      this.resImp[o + 1] = iy;
      this.resImp[o + 2] = iz;
      if (ix === 0 && iy === 0 && iz === 0) continue;
      const k = nj + c;
      for (let side = 0; side < 2; side++) {
        const b = side === 0 ? this.cA[k] : this.cB[k];
        if (b < 0 || this.dyn[b] < 0) continue;
        const sg = side === 0 ? 1 : -1, m = this.mass[b], vo = 6 * b;
        const rx = P[o] - com[3 * b], ry = P[o + 1] - com[3 * b + 1], rz = P[o + 2] - com[3 * b + 2];
        vel[vo] += (sg * ix) / m;
        vel[vo + 1] += (sg * iy) / m;
        vel[vo + 2] += (sg * iz) / m;
        // Δω = I⁻¹ (r × impulse)
        const tx = sg * (ry * iz - rz * iy), ty = sg * (rz * ix - rx * iz), tz = sg * (rx * iy - ry * ix);
        const I = this.inertia, io = 9 * b;
        const a = I[io], bb = I[io + 3], cc = I[io + 6], d = I[io + 4], f = I[io + 7], h = I[io + 8];
        const A0 = d * h - f * f, A1 = cc * f - bb * h, A2 = bb * f - cc * d, A4 = a * h - cc * cc, A5 = bb * cc - a * f, A8 = a * d - bb * bb;
        const det = a * A0 + bb * A1 + cc * A2;
        vel[vo + 3] += (A0 * tx + A1 * ty + A2 * tz) / det;
        vel[vo + 4] += (A1 * tx + A4 * ty + A5 * tz) / det;
        vel[vo + 5] += (A2 * tx + A5 * ty + A8 * tz) / det;
      }
    }
    // contacts that approach after the restitution impulses start active, the others separated
    for (let c = 0; c < nc; c++) {
      if (this.contactState[c] === ContactState.Static) continue;
      const vn = this.normalVelocity(c, false);
      // (an approaching one starts as it ended the compression phase, sliding in the same direction)
      const p1 = this.p1S[c];
      const active = p1 === ContactState.Stick || p1 === ContactState.Slide || p1 === ContactState.Frictionless ? p1 : this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
      this.contactState[c] = vn < -1e-12 * vScale ? active : ContactState.Separated;
    }
    const it = this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
    const tmp = this.phaseOut;
    this.writeResult(tmp, it);
    vel.set(this.velPre.subarray(0, 6 * nb));
    out.linearVelocity.set(tmp.linearVelocity);
    out.angularVelocity.set(tmp.angularVelocity);
    for (let k = 0; k < 3 * nj; k++) out.jointImpulse[k] = this.p1J[k] + tmp.jointImpulse[k];
    for (let k = 0; k < 3 * nc; k++) out.contactImpulse[k] = this.p1C[k] + this.resImp[k] + tmp.contactImpulse[k];
    for (let c = 0; c < nc; c++) {
      const st = tmp.contactState[c];
      out.contactState[c] = st === ContactState.Separated || st === ContactState.Static ? this.p1S[c] : st;
    }
    let e1 = 0;
    for (let d = 0; d < this.nd; d++) {
      const i = this.dynBody[d];
      e1 += this.energy(i, out.linearVelocity, 3 * i, out.angularVelocity, 3 * i);
    }
    out.kineticEnergyAfter = e1;
    return it;
  }

  /**
   * The contact-state loop: solve, switch states (stick → slide →
   * frictionless → separated, separated contacts that approach come back),
   * solve again, until nothing changes. Contact states on entry are the
   * starting guess. Returns the number of linear solves.
   */
  private runContactStates(unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string): number {
    const nj = this.nj, nc = this.nc;
    this.conBody.fill(0, 0, this.nd);
    this.grpDirty.fill(1, 0, this.nd);
    if (dense) {
      this.buildForest();
      this.treeReady = false;
    }
    this.rejoins = growI(this.rejoins, nc);
    this.rejoins.fill(0, 0, nc);
    this.jointRowsReady = false;
    let iterations = 0, noEliminate = this.skipElimination;
    // (the Schur cache stays valid while the tree factorization of this solve stands: its rows
    // are matched by their data; the base solve x0 depends on the velocities, which phases change)
    if (!this.treeReady) this.pcValid = false;
    this.x0Valid = false;
    for (;;) {
      iterations++;
      this.linearSolves++;
      this.buildRows(restModel);
      if (dense) this.solveDense();
      else {
        const refactor = this.prepareGroups(noEliminate ? 'schur' : groupMode) || iterations === 1;
        let anyCon = false;
        for (let d = 0; d < this.nd && !anyCon; d++) if (this.conBody[d]) anyCon = true;
        if (refactor && !(this.treeReady && !anyCon)) {
          // the set of eliminated bodies changed: their joints leave (or rejoin) the tree
          // (a factorization without eliminated bodies is kept across the phases of one solve)
          this.buildForest();
          this.factor();
          this.treeReady = !anyCon;
        }
        // eliminated bodies' blocks follow their groups, which change with the contact states
        let anyEliminated = false;
        for (let d = 0; d < this.nd; d++)
          if (this.conBody[d]) {
            anyEliminated = true;
            if (refactor || this.grpDirty[d]) this.eliminateGroupBody(d);
          }
        this.grpDirty.fill(0, 0, this.nd);
        this.schurResidual = 0;
        // (islands without joints keep the direct per-body Schur build: nothing to share there)
        if (this.contactSpace && !anyEliminated && this.nj > 0) this.solveContactSpace(vScale);
        else this.solveSparse();
        // (a Newton attempt whose equations contradict each other with eliminated bodies is given
        // up at once, rather than redone on the contact Schur complement: the Poisson form takes over)
        if (this.abortOnContradiction && anyEliminated && this.schurResidual > 1e-9 * vScale) {
          this.aborted = true;
          return iterations;
        }
        if (anyEliminated && this.schurResidual > 1e-9 * vScale && groupMode !== 'eliminate') {
          // The equations contradict each other (e.g. different ε at two pinned bodies joined
          // by a joint): with eliminated bodies the least-squares compromise would fall on the
          // joints. From here on the contacts go to the Schur complement, as without
          // elimination, which keeps every joint of the tree exact.
          noEliminate = true;
          this.prepareGroups('schur');
          this.buildForest();
          this.factor();
          this.treeReady = true;
          if (this.contactSpace && this.nj > 0) this.solveContactSpace(vScale);
          else this.solveSparse();
        }
      }
      for (let c = 0; c < nc; c++) this.prevState[c] = this.contactState[c];
      // Contact impulses: normal component and the tangential part.
      let scale = 0;
      for (let c = 0; c < nc; c++) {
        const k = nj + c;
        const r0 = this.cRow0[k];
        if (this.cRows[k] > 0) scale = Math.max(scale, Math.abs(this.rowLambda[r0]));
      }
      // State changes, each one-way (stick → slide → frictionless → separated), so the loop ends.
      let changed = false;
      for (let c = 0; c < nc; c++) {
        const k = nj + c, r0 = this.cRow0[k];
        const st = this.contactState[c];
        if (st === ContactState.Stick) {
          const g = this.contactGamma[c];
          const ln = this.rowLambda[r0], l1 = this.rowLambda[r0 + 1], l2 = this.rowLambda[r0 + 2];
          const lt = hypot2(l1, l2);
          // the paper's cone test γ R·k ≥ |R − k(R·k)| (fails for a pulling R·k < 0 too)
          const inside = g === Infinity ? !unilateral || ln >= -1e-9 * scale : lt <= g * ln * (1 + 1e-9) + 1e-12 * scale;
          if (inside) continue;
          changed = true;
          if (g !== Infinity && lt > 0) {
            // Slide: keep the direction of the parallel component (α = γ P·i, β = γ P·j).
            const f = this.contactFrame, o = 9 * c;
            this.contactSlide[3 * c] = (l1 * f[o + 3] + l2 * f[o + 6]) / lt;
            this.contactSlide[3 * c + 1] = (l1 * f[o + 4] + l2 * f[o + 7]) / lt;
            this.contactSlide[3 * c + 2] = (l1 * f[o + 5] + l2 * f[o + 8]) / lt;
            this.contactState[c] = ContactState.Slide;
          } else {
            // a perfectly rough contact that would have to pull cannot stick: no friction
            this.contactState[c] = ContactState.Frictionless;
          }
        } else if (st === ContactState.Slide && unilateral && this.rowLambda[r0] * Math.max(1, this.contactGamma[c]) < -1e-10 * scale) {
          // no pushing impulse exists on the cone in that direction (Painlevé-type case): drop the
          // friction (a pull of round-off size stays: its friction γ|λ| is round-off as well)
          this.contactState[c] = ContactState.Frictionless;
          changed = true;
        }
      }
      if (!changed && unilateral) {
        // Frictionless contacts that pull are separating: all of them leave at once. Then a
        // separated contacts that would now approach faster than −ε allows come back (together at
        // first, later the most violating one at a time), so the final set solves the complementarity problem
        // λ ≥ 0, v⁺·n + ε v⁻·n ≥ 0, λ·(v⁺·n + ε v⁻·n) = 0 over the frictionless contacts.
        for (let c = 0; c < nc; c++) {
          if (this.contactState[c] !== ContactState.Frictionless) continue;
          if (this.rowLambda[this.cRow0[nj + c]] < -1e-9 * scale) {
            this.contactState[c] = ContactState.Separated;
            this.rejoins[c]++;
            changed = true;
          }
        }
        // (only when the equations are consistent: a least-squares compromise misses its targets
        // anyway, and re-adding would only cycle)
        if (!changed && (dense || this.schurResidual <= 1e-9 * vScale)) {
          let worst = -1, worstVal = 0, capped = false;
          for (let c = 0; c < nc; c++) {
            if (this.contactState[c] !== ContactState.Separated) continue;
            const w = this.normalVelocity(c, true) + this.epsOn * this.contactEps[c] * this.normalVelocity(c, false);
            const tol = 1e-9 * (Math.abs(this.normalVelocity(c, false)) + vScale);
            if (!(w < -tol)) continue;
            // a contact that keeps coming back and leaving again (cycling) is not re-added …
            if (this.rejoins[c] > 2) {
              capped = true;
              continue;
            }
            if (w < worstVal) {
              worstVal = w;
              worst = c;
            }
          }
          if (worst >= 0) {
            // The contacts that approach come back together while none of them has left twice;
            // after that one at a time (the most violating first), which is what stops cycling.
            const batch = this.rejoins[worst] <= 1;
            for (let c = 0; c < nc; c++) {
              if (c !== worst && (!batch || this.contactState[c] !== ContactState.Separated || this.rejoins[c] > 1)) continue;
              if (c !== worst) {
                const w = this.normalVelocity(c, true) + this.epsOn * this.contactEps[c] * this.normalVelocity(c, false);
                if (!(w < -1e-9 * (Math.abs(this.normalVelocity(c, false)) + vScale))) continue;
              }
              // (one that a warm start left out comes back as it would have started: sticking)
              this.contactState[c] = this.warmSep[c] && this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
              this.warmSep[c] = 0;
            }
            changed = true;
          } else if (capped) {
            // … instead, the sliding contacts lose their friction. With sliding impulses off
            // their condition directions the complementarity problem need not have a solution
            // (and the pivoting can cycle); without them it is symmetric (frictionless and
            // sticking rows), where it does. Each contact slides at most once, so this ends.
            for (let c = 0; c < nc; c++)
              if (this.contactState[c] === ContactState.Slide) {
                this.contactState[c] = ContactState.Frictionless;
                changed = true;
              }
            if (changed) this.rejoins.fill(0, 0, nc);
          }
        }
      }
      if (!changed) break;
      // bodies whose contacts changed state have new groups
      for (let c = 0; c < nc; c++) {
        if (this.contactState[c] === this.prevState[c]) continue;
        const a = this.cA[nj + c], b = this.cB[nj + c];
        if (a >= 0 && this.dyn[a] >= 0) this.grpDirty[this.dyn[a]] = 1;
        if (b >= 0 && this.dyn[b] >= 0) this.grpDirty[this.dyn[b]] = 1;
      }
    }
    this.ensureX();
    return iterations;
  }

  /**
   * Relative velocity of A with respect to B at contact c (world frame): after the last linear
   * solve into relV[0..2] (x must be formed), before the impact into relV[3..5].
   */
  private contactVelocity(c: number): void {
    const k = this.nj + c, P = this.contactPoint, R = this.relV;
    R.fill(0);
    for (let side = 0; side < 2; side++) {
      const b = side === 0 ? this.cA[k] : this.cB[k];
      if (b < 0) continue;
      const d = this.dyn[b], sg = side === 0 ? 1 : -1;
      const rx = P[3 * c] - this.com[3 * b], ry = P[3 * c + 1] - this.com[3 * b + 1], rz = P[3 * c + 2] - this.com[3 * b + 2];
      for (let post = 0; post < 2; post++) {
        const src = post === 0 && d >= 0 ? this.x : this.vel, so = post === 0 && d >= 0 ? this.nodeOff[d] : 6 * b, ro = 3 * post;
        const wx = src[so + 3], wy = src[so + 4], wz = src[so + 5];
        R[ro] += sg * (src[so] + wy * rz - wz * ry);
        R[ro + 1] += sg * (src[so + 1] + wz * rx - wx * rz);
        R[ro + 2] += sg * (src[so + 2] + wx * ry - wy * rx);
      }
    }
  }

  /**
   * slW[2c..2c+1] ← the tangential slip of contact c after the last solve minus its target
   * (−ε v⁻ on the tangents in 'paper' restitution, else 0), on t₁ and t₂; returns its length.
   */
  private slip(c: number, epsT: number): number {
    this.contactVelocity(c);
    const R = this.relV, f = this.contactFrame, o = 9 * c, e = this.epsOn * this.contactEps[c] * epsT;
    const wx = R[0] + e * R[3], wy = R[1] + e * R[4], wz = R[2] + e * R[5];
    const w1 = wx * f[o + 3] + wy * f[o + 4] + wz * f[o + 5], w2 = wx * f[o + 6] + wy * f[o + 7] + wz * f[o + 8];
    this.slW[2 * c] = w1;
    this.slW[2 * c + 1] = w2;
    return hypot2(w1, w2);
  }

  /**
   * Coulomb's law at every sliding contact: its friction opposes its slip, so it does no positive
   * work there. The paper's sliding rule keeps the direction of the sticking impulse; with
   * several contacts, the later state changes of others can leave a sliding contact's friction
   * pushing along its slip (f_t·w > 0, w the tangential velocity after minus its target) while
   * the island's total energy still falls (a ragdoll's hand kept spinning on the ground). When
   * the one-phase answer in `out` has such a contact, it becomes "free": its tangential impulse
   * f_c is solved as Coulomb's complementarity problem with the round cone (`frictionSolve`:
   * f_c = proj over the disc of radius γ λ_c of (f_c − ρ_c w_c), i.e. sticking with w_c = 0 and
   * |f_c| ≤ γ λ_c, or sliding with |f_c| = γ λ_c against w_c), the other contacts keeping the
   * paper's states. Then every contact is checked: a sticking one outside its cone or a sliding
   * one whose friction pushes along its slip becomes free too, normals follow the contact-state
   * loop's rules (a pulling contact leaves; a separated one that would approach comes back, at
   * most FRICTION_LAW_REJOINS times, after which the free contacts lose their friction, as the
   * loop's cycling rule). The free set only grows, so this ends; the paper's answer is kept
   * where it holds. Writes the answer into out; returns the linear solves (0: answer kept).
   */
  private frictionLaw(vScale: number, restModel: string, out: ImpulseSolution, preset = false): number {
    const nc = this.nc, nd = this.nd, epsT = restModel === 'paper' ? 1 : 0;
    this.slW = growF(this.slW, 2 * nc);
    this.slFree = growU(this.slFree, nc);
    let any = false;
    if (preset) for (let c = 0; c < nc && !any; c++) any = this.slFree[c] === 1;
    else this.slFree.fill(0, 0, nc);
    for (let c = 0; c < nc; c++) {
      if (out.contactState[c] === ContactState.Slide && this.slidePushes(c, vScale, epsT)) {
        this.slFree[c] = 1;
        any = true;
      }
    }
    if (!any) return 0;
    this.frictionLawStats.solves++;
    // (the pass cache holds the factors this needs; switched off, it is used here uncounted)
    // (its passes are counted in frictionLawStats, not as contact-state passes)
    const keepReuse = this.reusePassFactors, keepStats = keepReuse ? null : { ...this.passCacheStats }, keepCs = { ...this.contactSpaceStats };
    this.reusePassFactors = true;
    this.rejoins = growI(this.rejoins, nc);
    this.rejoins.fill(0, 0, nc);
    this.conBody.fill(0, 0, nd);
    this.slRow = growI(this.slRow, nc);
    this.slF = growF(this.slF, 2 * nc);
    this.slF.fill(0, 0, 2 * nc);
    this.slN = growF(this.slN, nc);
    this.slSlide = growU(this.slSlide, nc);
    this.slSlide.fill(0, 0, nc);
    let rounds = 0;
    this.frictionOff = false;
    try {
      if (!this.treeReady) {
        // (after a loop with eliminated bodies: their rows and blocks are the tree's again)
        this.jointRowsReady = false;
        this.buildRows(restModel);
        this.buildForest();
        this.factor();
        this.treeReady = true;
      }
      for (;;) {
        rounds++;
        this.linearSolves++;
        this.frictionSolve(vScale, epsT, restModel);
        let scale = 0;
        for (let c = 0; c < nc; c++) {
          const k = this.nj + c;
          if (this.cRows[k] > 0) scale = Math.max(scale, Math.abs(this.slN[c]));
        }
        let changed = false, grew = 0;
        for (let c = 0; c < nc; c++) {
          const st = this.contactState[c], g = this.contactGamma[c], ln = this.slN[c];
          if (st === ContactState.Static || st === ContactState.Separated) continue;
          if (this.slFree[c] || st === ContactState.Frictionless) {
            if (ln < -1e-9 * scale) {
              this.contactState[c] = ContactState.Separated;
              this.slFree[c] = 0;
              this.rejoins[c]++;
              changed = true;
            }
            continue;
          }
          const r0 = this.cRow0[this.nj + c];
          if (st === ContactState.Stick) {
            const l1 = this.rowLambda[r0 + 1], l2 = this.rowLambda[r0 + 2], lt = hypot2(l1, l2);
            const inside = g === Infinity ? ln >= -1e-9 * scale : lt <= g * ln * (1 + 1e-9) + 1e-12 * scale;
            if (inside) continue;
            changed = true;
            if (g !== Infinity && ln > 0) this.slFree[c] = grew = 1;
            else this.contactState[c] = ContactState.Frictionless;
          } else if (st === ContactState.Slide) {
            if (ln * Math.max(1, g) < -1e-10 * scale) {
              this.contactState[c] = ContactState.Frictionless;
              changed = true;
            } else if (this.slidePushes(c, vScale, epsT)) {
              this.slFree[c] = grew = 1;
              changed = true;
            }
          }
        }
        if (grew && rounds >= FRICTION_GROW_ROUNDS) {
          // (a free set that keeps growing: every frictional contact at once)
          for (let c = 0; c < nc; c++) {
            const st = this.contactState[c], g = this.contactGamma[c];
            if ((st === ContactState.Slide || st === ContactState.Stick) && g > 0 && g !== Infinity) this.slFree[c] = 1;
          }
        }
        let capped = false;
        if (!changed) {
          for (let c = 0; c < nc; c++) {
            if (this.contactState[c] !== ContactState.Separated) continue;
            const w = this.normalVelocity(c, true) + this.epsOn * this.contactEps[c] * this.normalVelocity(c, false);
            if (!(w < -1e-9 * (Math.abs(this.normalVelocity(c, false)) + vScale))) continue;
            if (this.rejoins[c] > FRICTION_LAW_REJOINS) {
              capped = true;
              continue;
            }
            // (back as a free contact: its friction solved with Coulomb's law from the start)
            this.contactState[c] = this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
            if (this.contactGamma[c] > 0 && this.contactGamma[c] !== Infinity) this.slFree[c] = 1;
            changed = true;
          }
        }
        if (!changed && !(capped && !this.frictionOff)) break;
        if (!this.frictionOff && (rounds >= FRICTION_LAW_PASSES || capped)) {
          // (as the contact-state loop's cycling rule: the contacts whose friction is solved here
          // and the sliding ones lose it; without friction the normals' problem is symmetric)
          this.frictionOff = true;
          this.frictionLawStats.dropped++;
          for (let c = 0; c < nc; c++) if (this.contactState[c] === ContactState.Slide) this.slFree[c] = 1;
          this.rejoins.fill(0, 0, nc);
        }
        if (rounds >= 2 * FRICTION_LAW_PASSES) break;
      }
    } finally {
      this.reusePassFactors = keepReuse;
      if (keepStats) Object.assign(this.passCacheStats, keepStats);
      Object.assign(this.contactSpaceStats, keepCs);
      this.frictionOff = false;
    }
    this.frictionLawStats.passes += rounds;
    this.writeResult(out, out.iterations + rounds);
    // (a free contact's rows are sticking ones; its friction decides between sticking and sliding)
    for (let c = 0; c < nc; c++)
      if (this.slFree[c] && out.contactState[c] === ContactState.Stick && this.slSlide[c]) out.contactState[c] = this.slSlide[c] === 2 ? ContactState.Frictionless : ContactState.Slide;
    return rounds;
  }

  /**
   * Coulomb's law at sliding contacts without restitution, first the cheap way: a sliding contact
   * whose friction pushes along its slip is made perfectly rough (sticking, γ = ∞) and the
   * contact-state loop run again from the states it had (up to FRICTION_RESTICK_ROUNDS rounds, as
   * new such contacts appear); if every contact made rough then sticks inside its own cone (and no
   * sliding contact pushes along its slip), that answer keeps every law: it is kept. Otherwise the
   * rough contacts outside their cones and the pushing ones are solved by Coulomb's law
   * (`frictionLaw`). Returns the linear solves (0: the answer kept as it was).
   */
  private frictionLawFirst(unilateral: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): number {
    const nc = this.nc, epsT = restModel === 'paper' ? 1 : 0;
    this.slW = growF(this.slW, 2 * nc);
    this.slRough = growU(this.slRough, nc);
    this.slRough.fill(0, 0, nc);
    this.slGamma = growF(this.slGamma, nc);
    let solves = 0, rough = false;
    try {
      for (let round = 0; round < FRICTION_RESTICK_ROUNDS; round++) {
        let any = false;
        for (let c = 0; c < nc; c++) {
          if (this.slRough[c] || out.contactState[c] !== ContactState.Slide || !this.slidePushes(c, vScale, epsT)) continue;
          this.slRough[c] = 1;
          this.slGamma[c] = this.contactGamma[c];
          this.contactGamma[c] = Infinity;
          this.contactState[c] = ContactState.Stick;
          any = rough = true;
        }
        if (!any) break;
        this.frictionLawStats.resticks++;
        const it = this.runContactStates(unilateral, false, groupMode, vScale, restModel);
        solves += it;
        this.writeResult(out, out.iterations + it);
      }
    } finally {
      for (let c = 0; c < nc; c++) if (this.slRough[c]) this.contactGamma[c] = this.slGamma[c];
    }
    if (!rough) return 0;
    // the rough contacts: inside their own cones? the sliding ones: none pushing along its slip?
    this.slFree = growU(this.slFree, nc);
    this.slFree.fill(0, 0, nc);
    let bad = false;
    const I = out.contactImpulse, f = this.contactFrame;
    for (let c = 0; c < nc; c++) {
      const st = out.contactState[c];
      if (this.slRough[c] && st === ContactState.Stick) {
        const o = 9 * c, ln = I[3 * c] * f[o] + I[3 * c + 1] * f[o + 1] + I[3 * c + 2] * f[o + 2];
        const lt = hypot3(I[3 * c] - ln * f[o], I[3 * c + 1] - ln * f[o + 1], I[3 * c + 2] - ln * f[o + 2]);
        if (!(lt <= this.contactGamma[c] * Math.max(ln, 0) * (1 + 1e-9))) this.slFree[c] = 1;
      } else if (st === ContactState.Slide && this.slidePushes(c, vScale, epsT)) this.slFree[c] = 1;
      if (this.slFree[c]) bad = true;
    }
    if (!bad) return solves;
    return solves + this.frictionLaw(vScale, restModel, out, true);
  }

  /**
   * Whether sliding contact c's friction γλP pushes along its slip w after the last solve (x
   * formed): P·w > 1e-10 |w| with |w| above 1e-10 vScale. Fills slW[2c..2c+1].
   */
  private slidePushes(c: number, vScale: number, epsT: number): boolean {
    const g = this.contactGamma[c];
    // (with restitution at the contact its slip after is not the one its friction acted on
    // throughout: the paper's rule scales the whole impulse, friction included, by 1 + ε)
    if (!(g > 0) || g === Infinity || this.epsOn * this.contactEps[c] > 0) return false;
    const f = this.contactFrame, w = this.slip(c, epsT), o = 9 * c, S = this.contactSlide;
    const p1 = S[3 * c] * f[o + 3] + S[3 * c + 1] * f[o + 4] + S[3 * c + 2] * f[o + 5];
    const p2 = S[3 * c] * f[o + 6] + S[3 * c + 1] * f[o + 7] + S[3 * c + 2] * f[o + 8];
    return w > 1e-10 * vScale && p1 * this.slW[2 * c] + p2 * this.slW[2 * c + 1] > 1e-10 * w;
  }

  /**
   * Coulomb friction for the current normal states (`frictionLaw`). One contact-space pass with
   * every frictional contact frictionless (symmetric; with the same normals, its factors come
   * from the pass cache) makes every normal impulse λ and tangential slip w an affine function
   * of the tangential impulses f (2 per frictional contact): λ = λ⁰ + N f, w = w⁰ + W f, with
   * W = A_tt − A_t,rows S⁺ A_rows,t (its factors solve for the tangent columns). Then the
   * semismooth Newton method (Alart–Curnier) on F(f) = f − proj_{disc γλ(f)}(f − ρ w(f)) = 0,
   * with backtracking on |F| and least-norm steps (redundant sticking contacts leave the
   * split of their friction free), from the last friction. The answer is set into the rows as
   * known impulses (the contacts as sticking rows, their multipliers λ, f) and the velocities
   * formed; slN gets λ, slSlide marks the sliding contacts (|f − ρw| beyond the disc).
   */
  private frictionSolve(vScale: number, epsT: number, restModel: string): void {
    const nc = this.nc, nj = this.nj, F = this.slF;
    this.slSlide.fill(0, 0, nc);
    this.slList = growI(this.slList, nc);
    let m = 0;
    for (let c = 0; c < nc; c++) {
      if (!this.slFree[c]) continue;
      // (free contacts carry sticking rows once their friction is known)
      this.contactState[c] = ContactState.Stick;
      this.slList[m++] = c;
    }
    // the pass with the free contacts frictionless
    this.slideFree = true;
    try {
      this.buildRows(restModel);
      this.solveContactSpace(vScale);
    } finally {
      this.slideFree = false;
    }
    this.ensureX();
    const e = this.passEntry, s = this.csPassRows, sec = this.secRows, rj = this.csRowJ, rg = this.csRowG, rc = this.csRowC, mu = this.sMu, A = this.csA, cap = this.csCap;
    const row = this.slRow;
    row.fill(-1, 0, nc);
    for (let q = 0; q < s; q++) {
      const k = this.rowOwner[sec[q]];
      if (k >= nj && sec[q] === this.cRow0[k]) row[k - nj] = q;
    }
    if (m === 0 || e < 0) {
      // (no free contact: that pass is the answer)
      if (m > 0) throw new Error('frictionSolve: the pass cache holds no factors');
      this.keyMultipliers();
      return;
    }
    const pf = this.pfEntries[e], n2 = 2 * m;
    // Z = S⁺ A[rows, t columns]
    this.slAG = growF(this.slAG, n2 * s);
    this.slCol = growF(this.slCol, s);
    this.slDmu = growF(this.slDmu, s);
    const Z = this.slAG, col = this.slCol, z = this.slDmu;
    for (let j = 0; j < n2; j++) {
      const sl = this.csSlot(3 * this.slList[j >> 1] + 1 + (j & 1));
      for (let q = 0; q < s; q++) col[q] = A[rj[q] * cap + sl];
      if (pf.asym) refineDenseRobust(pf.S, s, col, z, pf.work, pf.piv, pf.rank, true, true);
      else refineSymmetricRobust(pf.S, s, col, z, pf.work, pf.piv, pf.rank, true, true);
      for (let q = 0; q < s; q++) Z[j * s + q] = z[q];
    }
    const nn = n2 * n2;
    this.slJac = growF(this.slJac, 3 * nn + m * n2 + 12 * n2 + 3 * nn + 4 * n2);
    const buf = this.slJac;
    let o = 0;
    const take = (k: number) => buf.subarray(o, (o += k));
    const W = take(nn), N = take(m * n2), J = take(nn), JS = take(3 * nn + 4 * n2);
    const w0 = take(n2), l0 = take(m), fv = take(n2), Fv = take(n2), ft = take(n2), Ft = take(n2), dx = take(n2), rho = take(m), wv = take(n2), lv = take(m);
    // (a sliding row's impulse is a combination G_q of basis rows: A[t_i, G_q])
    this.slAGi = growF(this.slAGi, s);
    const ag = this.slAGi;
    for (let i = 0; i < n2; i++) {
      const ai = this.csSlot(3 * this.slList[i >> 1] + 1 + (i & 1)) * cap;
      for (let q = 0; q < s; q++) {
        const g3 = 3 * q;
        let v = A[ai + rg[g3]];
        if (rg[g3 + 1] >= 0) v += rc[g3 + 1] * A[ai + rg[g3 + 1]] + rc[g3 + 2] * A[ai + rg[g3 + 2]];
        ag[q] = v;
      }
      for (let j = 0; j < n2; j++) {
        const sj = this.csSlot(3 * this.slList[j >> 1] + 1 + (j & 1));
        let v = A[ai + sj];
        for (let q = 0; q < s; q++) v -= ag[q] * Z[j * s + q];
        W[i * n2 + j] = v;
      }
    }
    // (W + δI, δ a 1e-11 of its largest diagonal entry: redundant sticking contacts leave W
    // singular and their split of the friction free; this picks the least-norm split and keeps the
    // Newton systems regular, at slips of 1e-11 of the friction's effect)
    let wmax = 0;
    for (let i = 0; i < n2; i++) wmax = Math.max(wmax, W[i * n2 + i]);
    for (let i = 0; i < n2; i++) W[i * n2 + i] += FRICTION_REGULARIZATION * wmax;
    let scale = 0;
    for (let i = 0; i < m; i++) {
      const c = this.slList[i], qc = row[c];
      this.slip(c, epsT);
      w0[2 * i] = this.slW[2 * c];
      w0[2 * i + 1] = this.slW[2 * c + 1];
      l0[i] = qc >= 0 ? mu[qc] : 0;
      for (let j = 0; j < n2; j++) N[i * n2 + j] = qc >= 0 ? -Z[j * s + qc] : 0;
      const dg = Math.max(W[2 * i * n2 + 2 * i], W[(2 * i + 1) * n2 + 2 * i + 1]);
      rho[i] = dg > 0 ? 1 / dg : 0;
      fv[2 * i] = 0;
      fv[2 * i + 1] = 0;
      scale = Math.max(scale, this.contactGamma[c] * Math.abs(l0[i]));
    }
    // F(f) = f − proj_{disc γλ}(f − ρ w); returns |F|
    const gammaOf = (i: number) => (this.frictionOff ? 0 : this.contactGamma[this.slList[i]]);
    const evalF = (x: Float64Array, out: Float64Array): number => {
      let mx = 0;
      for (let i = 0; i < m; i++) {
        let ln = l0[i], w1 = w0[2 * i], w2 = w0[2 * i + 1];
        for (let j = 0; j < n2; j++) {
          const xj = x[j];
          if (xj === 0) continue;
          ln += N[i * n2 + j] * xj;
          w1 += W[2 * i * n2 + j] * xj;
          w2 += W[(2 * i + 1) * n2 + j] * xj;
        }
        lv[i] = ln;
        wv[2 * i] = w1;
        wv[2 * i + 1] = w2;
        const r = gammaOf(i) * Math.max(ln, 0);
        const y1 = x[2 * i] - rho[i] * w1, y2 = x[2 * i + 1] - rho[i] * w2, yl = hypot2(y1, y2);
        const k = yl > r ? r / yl : 1;
        out[2 * i] = x[2 * i] - k * y1;
        out[2 * i + 1] = x[2 * i + 1] - k * y2;
        mx += out[2 * i] * out[2 * i] + out[2 * i + 1] * out[2 * i + 1];
      }
      return Math.sqrt(mx);
    };
    // Tresca rounds: the disc radii γλ from the current friction, then the convex problem
    // min ½ fᵀW f + w⁰ᵀf over those discs by exact block (contact) coordinate descent
    // block coordinate descent (Tresca rounds) and Newton steps in turn: the descent always makes
    // progress, the Newton method ends it fast once near
    this.tresca(m, n2, W, N, w0, l0, fv, wv, lv, scale, FRICTION_TRESCA_ROUNDS, FRICTION_SWEEPS);
    let res = evalF(fv, Fv);
    const goal = 1e-13 * (scale + 1e-300);
    for (let cycle = 0; cycle < FRICTION_CYCLES && res > goal; cycle++) {
      if (cycle > 0) {
        this.tresca(m, n2, W, N, w0, l0, fv, wv, lv, scale, 4, FRICTION_SWEEPS);
        res = evalF(fv, Fv);
      }
      for (let it = 0; it < FRICTION_NEWTON_STEPS && res > goal; it++) {
        this.frictionLawStats.newtonSteps++;
        // generalized Jacobian (lv, wv at fv from the last evalF of fv)
        for (let i = 0; i < m; i++) {
          const g = gammaOf(i), ln = lv[i], r = g * Math.max(ln, 0);
          const y1 = fv[2 * i] - rho[i] * wv[2 * i], y2 = fv[2 * i + 1] - rho[i] * wv[2 * i + 1], yl = hypot2(y1, y2);
          const r0 = 2 * i * n2, r1 = (2 * i + 1) * n2;
          if (yl <= r) {
            // sticking: F_i = ρ w_i
            for (let j = 0; j < n2; j++) {
              J[r0 + j] = rho[i] * W[r0 + j];
              J[r1 + j] = rho[i] * W[r1 + j];
            }
          } else {
            // sliding: F_i = f_i − r ŷ; ∂(r ŷ) = ŷ γ ∂λ + (r/|y|)(I − ŷŷᵀ)(E_i − ρ W_i)
            const u1 = y1 / yl, u2 = y2 / yl, h = r / yl, gl = ln > 0 ? g : 0;
            for (let j = 0; j < n2; j++) {
              const d1 = (j === 2 * i ? 1 : 0) - rho[i] * W[r0 + j], d2 = (j === 2 * i + 1 ? 1 : 0) - rho[i] * W[r1 + j];
              const pr = u1 * d1 + u2 * d2, dl = gl * N[i * n2 + j];
              J[r0 + j] = (j === 2 * i ? 1 : 0) - (u1 * dl + h * (d1 - u1 * pr));
              J[r1 + j] = (j === 2 * i + 1 ? 1 : 0) - (u2 * dl + h * (d2 - u2 * pr));
            }
          }
        }
        for (let j = 0; j < n2; j++) Ft[j] = -Fv[j];
        this.slPiv = growI(this.slPiv, 2 * n2);
        // (partial pivoting; a singular J — redundant sticking contacts leave their split free — least-norm)
        JS.set(J.subarray(0, nn));
        if (luFactor(JS, n2, this.slPiv, 1e-13) === 0) {
          dx.set(Ft);
          luSolve(JS, n2, this.slPiv, dx);
        } else solveDenseRobust(J, n2, Ft, dx, JS, this.slPiv, true, true);
        // backtracking on |F|
        let t = 1, next = Infinity;
        for (let k = 0; k < 30; k++, t *= 0.5) {
          for (let j = 0; j < n2; j++) ft[j] = fv[j] + t * dx[j];
          next = evalF(ft, Ft);
          if (next < res * (1 - 1e-4 * t)) break;
        }
        if (!(next < res)) {
          evalF(fv, Fv);
          break;
        }
        fv.set(ft);
        Fv.set(Ft);
        // (a step that did not at least halve the residual: back to the descent)
        const slow = next > 0.5 * res;
        res = next;
        if (slow) break;
      }
    }
    const stalled = res > 1e3 * goal;
    if (stalled) {
      // (the Newton method stopped short: the free contacts go without friction, which does no work)
      this.frictionLawStats.stalled++;
      fv.fill(0, 0, n2);
    }
    // (inside the discs of the final normal impulses, also where the Newton method stopped short:
    // a friction scaled down changes the normals a little, so a few times)
    for (let round = 0; round < 8; round++) {
      let out = false;
      for (let i = 0; i < m; i++) {
        let ln = l0[i];
        for (let j = 0; j < n2; j++) ln += N[i * n2 + j] * fv[j];
        lv[i] = ln;
        const r = gammaOf(i) * Math.max(ln, 0), l = hypot2(fv[2 * i], fv[2 * i + 1]);
        if (l > r * (1 + 1e-12)) {
          const k = (r * (1 - 1e-12)) / l;
          fv[2 * i] *= k;
          fv[2 * i + 1] *= k;
          out = true;
        }
      }
      if (!out) break;
    }
    // the answer as known impulses: every frictional contact sticking (rows n, t₁, t₂)
    for (let i = 0; i < m; i++) {
      const c = this.slList[i];
      F[2 * c] = fv[2 * i];
      F[2 * c + 1] = fv[2 * i + 1];
      // (sliding: on its cone; a converged sticking one has no slip; 2: without friction)
      const r = gammaOf(i) * Math.max(lv[i], 0);
      this.slSlide[c] = stalled || !(gammaOf(i) > 0) ? 2 : r > 0 && hypot2(fv[2 * i], fv[2 * i + 1]) >= r * (1 - 1e-9) ? 1 : 0;
    }
    for (let q = 0; q < s; q++) {
      let v = mu[q];
      for (let j = 0; j < n2; j++) v -= Z[j * s + q] * fv[j];
      mu[q] = v;
    }
    this.keyMultipliers();
    this.buildRows(restModel);
    this.knownImpulses();
  }

  /**
   * Staggered friction (`frictionSolve`): up to FRICTION_TRESCA_ROUNDS rounds of radii
   * r_i = γ_i max(λ_i(f), 0), then block coordinate descent on the convex problem
   * min ½ fᵀ W f + w⁰ᵀ f, |f_i| ≤ r_i, each contact's 2-D block solved exactly (its unconstrained
   * minimum, or on the circle: (W_ii + κ I) f_i = −g with |f_i| = r_i, Newton on κ), until the
   * friction moves less than 1e-12 of the largest radius. The start for the Newton polish.
   */
  private tresca(m: number, n2: number, W: Float64Array, N: Float64Array, w0: Float64Array, l0: Float64Array, fv: Float64Array, wv: Float64Array, lv: Float64Array, scale: number, rounds: number, sweeps: number): void {
    const tiny = 1e-300;
    for (let round = 0; round < rounds; round++) {
      // radii and slips from the current friction
      let dr = 0;
      for (let i = 0; i < m; i++) {
        let ln = l0[i];
        for (let j = 0; j < n2; j++) ln += N[i * n2 + j] * fv[j];
        if (round > 0) dr = Math.max(dr, Math.abs(ln - lv[i]));
        lv[i] = ln;
      }
      if (round > 0 && dr * 10 <= 1e-12 * scale) break;
      for (let i = 0; i < n2; i++) {
        let v = w0[i];
        for (let j = 0; j < n2; j++) v += W[i * n2 + j] * fv[j];
        wv[i] = v;
      }
      for (let sweep = 0; sweep < sweeps; sweep++) {
        let moved = 0;
        for (let i = 0; i < m; i++) {
          const c = this.slList[i], r = (this.frictionOff ? 0 : this.contactGamma[c]) * Math.max(lv[i], 0);
          const i0 = 2 * i, i1 = i0 + 1;
          const a = W[i0 * n2 + i0], b = W[i0 * n2 + i1], d = W[i1 * n2 + i1];
          const f1 = fv[i0], f2 = fv[i1];
          // slip without this contact's own friction
          const g1 = wv[i0] - a * f1 - b * f2, g2 = wv[i1] - b * f1 - d * f2;
          let n1 = 0, n2v = 0;
          const det = a * d - b * b;
          if (det > 1e-14 * (a * d + tiny)) {
            n1 = -(d * g1 - b * g2) / det;
            n2v = -(a * g2 - b * g1) / det;
          }
          if (!(det > 1e-14 * (a * d + tiny)) || hypot2(n1, n2v) > r) {
            if (!(r > 0)) {
              n1 = n2v = 0;
            } else {
              // eigen-decomposition of the 2×2 block, then |f(κ)| = r for κ ≥ 0
              const tr = 0.5 * (a + d), df = hypot2(0.5 * (a - d), b);
              const e1 = tr + df, e2 = Math.max(tr - df, 0);
              let q1x = 1, q1y = 0;
              if (df > 0) {
                // eigenvector of e1
                if (Math.abs(b) > 0) {
                  q1x = b;
                  q1y = e1 - a;
                } else if (a < d) {
                  q1x = 0;
                  q1y = 1;
                }
                const l = hypot2(q1x, q1y);
                q1x /= l;
                q1y /= l;
              }
              const h1 = q1x * g1 + q1y * g2, h2 = -q1y * g1 + q1x * g2, hl = hypot2(h1, h2);
              // |f(κ)| − r, f(κ) = −(W_ii + κ I)⁻¹ g, decreases in κ; its root lies in
              // [|g|/r − e₁, |g|/r − e₂]; Newton from the left end (above the root) rises to it
              let k = Math.max(hl / r - e1, 1e-12 * (e1 + hl / r));
              for (let it = 0; it < 60; it++) {
                const u1 = e1 + k, u2 = e2 + k;
                const p = (h1 * h1) / (u1 * u1) + (h2 * h2) / (u2 * u2);
                const dp = (-2 * h1 * h1) / (u1 * u1 * u1) - (2 * h2 * h2) / (u2 * u2 * u2);
                const phi = Math.sqrt(p) - r;
                // Newton on √p − r (close to linear in 1/κ)
                const step = phi / (dp / (2 * Math.sqrt(p)));
                const kn = k - step;
                if (!(kn > k)) break;
                k = kn;
                if (Math.abs(phi) <= 1e-15 * r) break;
              }
              const c1 = hl > 0 ? -h1 / (e1 + k) : 0, c2 = hl > 0 ? -h2 / (e2 + k) : 0;
              n1 = q1x * c1 - q1y * c2;
              n2v = q1y * c1 + q1x * c2;
              const l = hypot2(n1, n2v);
              if (l > r) {
                n1 *= r / l;
                n2v *= r / l;
              }
            }
          }
          const d1 = n1 - f1, d2 = n2v - f2;
          if (d1 === 0 && d2 === 0) continue;
          moved = Math.max(moved, Math.abs(d1), Math.abs(d2));
          fv[i0] = n1;
          fv[i1] = n2v;
          for (let j = 0; j < n2; j++) wv[j] += W[j * n2 + i0] * d1 + W[j * n2 + i1] * d2;
        }
        if (moved <= 1e-12 * scale) break;
      }
    }
  }

  /** slKey[key] ← the multiplier of the last pass's row with basis key `key` (3c + direction, or 3nc + joint row); slN from it. */
  private keyMultipliers(): void {
    const nc = this.nc, nj = this.nj, s = this.csPassRows, sec = this.secRows, mu = this.sMu;
    let jointRows = 0;
    for (let j = 0; j < nj; j++) jointRows += this.cRows[j];
    this.slKey = growF(this.slKey, 3 * nc + jointRows + 1);
    this.slKey.fill(0, 0, 3 * nc + jointRows + 1);
    for (let q = 0; q < s; q++) {
      const r = sec[q], k = this.rowOwner[r];
      if (k < nj) this.slKey[3 * nc + r] = mu[q];
      else this.slKey[3 * (k - nj) + r - this.cRow0[k]] = mu[q];
    }
    for (let c = 0; c < nc; c++) this.slN[c] = this.slKey[3 * c];
  }

  /**
   * After `frictionSolve`: the contact-space pass of the rows built for the current states,
   * with the multipliers known (sMu over the frictionless pass's rows, slF on the tangents):
   * secondary rows, their slots and multipliers, rowLambda, then the velocities (`ensureX`).
   */
  private knownImpulses(): void {
    const nRows = this.nRows, nj = this.nj, nc = this.nc, F = this.slF, K = this.slKey;
    this.secRows = growI(this.secRows, nRows + 1);
    this.csRowJ = growI(this.csRowJ, nRows + 1);
    this.csRowG = growI(this.csRowG, 3 * nRows + 3);
    this.csRowC = growF(this.csRowC, 3 * nRows + 3);
    this.sMu = growF(this.sMu, nRows + 1);
    const sec = this.secRows, rj = this.csRowJ, rg = this.csRowG, rc = this.csRowC;
    let s = 0;
    for (let r = 0; r < nRows; r++) {
      const k = this.rowOwner[r];
      if (k < nj && this.cPrimary[k]) continue;
      if (this.rowDA[r] < 0 && this.rowDB[r] < 0) {
        this.rowLambda[r] = 0;
        continue;
      }
      let v: number;
      if (k < nj) {
        rj[s] = rg[3 * s] = this.csSlot(3 * nc + r);
        v = K[3 * nc + r];
        rg[3 * s + 1] = rg[3 * s + 2] = -1;
      } else {
        const c = k - nj, comp = r - this.cRow0[k];
        rj[s] = rg[3 * s] = this.csSlot(3 * c + comp);
        rg[3 * s + 1] = rg[3 * s + 2] = -1;
        v = comp > 0 && this.slFree[c] ? F[2 * c + comp - 1] : K[3 * c + comp];
        if (this.contactState[c] === ContactState.Slide) {
          // (a sliding row: its impulse n + γ P on the basis rows)
          const f = this.contactFrame, o = 9 * c, S = this.contactSlide, g = this.contactGamma[c];
          rg[3 * s + 1] = this.csSlot(3 * c + 1);
          rc[3 * s + 1] = g * (S[3 * c] * f[o + 3] + S[3 * c + 1] * f[o + 4] + S[3 * c + 2] * f[o + 5]);
          rg[3 * s + 2] = this.csSlot(3 * c + 2);
          rc[3 * s + 2] = g * (S[3 * c] * f[o + 6] + S[3 * c + 1] * f[o + 7] + S[3 * c + 2] * f[o + 8]);
        }
      }
      rc[3 * s] = 1;
      this.sMu[s] = v;
      this.rowLambda[r] = v;
      sec[s++] = r;
    }
    this.csPassRows = s;
    this.xStale = true;
    this.ensureX();
  }

  /** (v_A(p) − v_B(p))·n of contact c after the last linear solve (post) or before the impact. */
  private normalVelocity(c: number, post: boolean): number {
    const k = this.nj + c, f = this.contactFrame, o = 9 * c, P = this.contactPoint;
    const nx = f[o], ny = f[o + 1], nz = f[o + 2];
    let s = 0;
    // (after a contact-space pass the velocities are not formed: the dynamic sides' part is
    // J_n x = J_n x0 + Σ_q (J_n K⁻¹ G_qᵀ) μ_q, read from A)
    const stale = post && this.xStale;
    if (stale) s = this.csNormalVelocity(c);
    for (let side = 0; side < 2; side++) {
      const b = side === 0 ? this.cA[k] : this.cB[k];
      if (b < 0) continue;
      const d = this.dyn[b];
      if (stale && d >= 0) continue;
      const src = post && d >= 0 ? this.x : this.vel, so = post && d >= 0 ? this.nodeOff[d] : 6 * b;
      const rx = P[3 * c] - this.com[3 * b], ry = P[3 * c + 1] - this.com[3 * b + 1], rz = P[3 * c + 2] - this.com[3 * b + 2];
      const wx = src[so + 3], wy = src[so + 4], wz = src[so + 5];
      const vx = src[so] + wy * rz - wz * ry, vy = src[so + 1] + wz * rx - wx * rz, vz = src[so + 2] + wx * ry - wy * rx;
      s += (side === 0 ? 1 : -1) * (vx * nx + vy * ny + vz * nz);
    }
    return s;
  }

  // ---------------------------------------------------------------- tree

  private find(i: number): number {
    const p = this.ufParent;
    while (p[i] !== i) {
      p[i] = p[p[i]];
      i = p[i];
    }
    return i;
  }

  /** Chooses the primary joints (a spanning forest) and orders the tree nodes children-first. */
  private buildForest(): void {
    this.pcValid = false;
    this.x0Valid = false;
    const nd = this.nd, nj = this.nj;
    this.ufParent = growI(this.ufParent, nd);
    this.compRoot = growI(this.compRoot, nd);
    for (let i = 0; i < nd; i++) {
      this.ufParent[i] = i;
      this.compRoot[i] = -1;
    }
    let np = 0;
    // joints between two dynamic bodies: primary unless they close a loop
    for (let j = 0; j < nj; j++) {
      const a = this.cA[j], b = this.cB[j];
      const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
      this.cPrimary[j] = 0;
      if (da < 0 || db < 0) continue;
      if (this.conBody[da] || this.conBody[db]) continue;
      const ra = this.find(da), rb = this.find(db);
      if (ra === rb) continue;
      this.ufParent[ra] = rb;
      this.cPrimary[j] = 1;
      np++;
    }
    // joints to a keyframed body or the world: the first per tree becomes its root
    for (let j = 0; j < nj; j++) {
      const a = this.cA[j], b = this.cB[j];
      const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
      if ((da < 0) === (db < 0)) continue;
      if (this.conBody[da >= 0 ? da : db]) continue;
      const r = this.find(da >= 0 ? da : db);
      if (this.compRoot[r] >= 0) continue;
      this.compRoot[r] = j;
      this.cPrimary[j] = 1;
      np++;
    }
    const N = nd + np;
    this.nNodes = N;
    this.nodeDim = growI(this.nodeDim, N);
    this.nodeOff = growI(this.nodeOff, N);
    this.nodeParent = growI(this.nodeParent, N);
    this.nodeRef = growI(this.nodeRef, N);
    this.post = growI(this.post, N);
    this.queue = growI(this.queue, N);
    // joint nodes are numbered nd.. ; jointNode maps a joint to its node (-1: secondary), in the secRows scratch buffer
    const jointNode = this.secRows = growI(this.secRows, Math.max(nj, 1));
    let q = nd;
    for (let j = 0; j < nj; j++) {
      if (this.cPrimary[j]) {
        jointNode[j] = q;
        this.nodeRef[q] = j;
        this.nodeDim[q] = this.jointKind[j] === KIND_BALL ? 3 : this.jointKind[j] === KIND_LINEAR ? 2 : 1;
        q++;
      } else jointNode[j] = -1;
    }
    for (let i = 0; i < nd; i++) {
      this.nodeRef[i] = i;
      this.nodeDim[i] = 6;
    }
    // adjacency: dynamic body -> incident primary joints (CSR)
    this.adjStart = growI(this.adjStart, nd + 1);
    this.adjList = growI(this.adjList, 2 * np + 1);
    const st = this.adjStart;
    st.fill(0, 0, nd + 1);
    for (let j = 0; j < nj; j++) {
      if (!this.cPrimary[j]) continue;
      const a = this.cA[j], b = this.cB[j];
      if (a >= 0 && this.dyn[a] >= 0) st[this.dyn[a] + 1]++;
      if (b >= 0 && this.dyn[b] >= 0) st[this.dyn[b] + 1]++;
    }
    for (let i = 0; i < nd; i++) st[i + 1] += st[i];
    const fill = this.ufParent; // reuse as insertion cursor (union-find no longer needed)
    for (let i = 0; i < nd; i++) fill[i] = st[i];
    for (let j = 0; j < nj; j++) {
      if (!this.cPrimary[j]) continue;
      const a = this.cA[j], b = this.cB[j];
      if (a >= 0 && this.dyn[a] >= 0) this.adjList[fill[this.dyn[a]]++] = jointNode[j];
      if (b >= 0 && this.dyn[b] >= 0) this.adjList[fill[this.dyn[b]]++] = jointNode[j];
    }
    // BFS from each tree root; post-order = reverse BFS order
    const parent = this.nodeParent;
    for (let i = 0; i < N; i++) parent[i] = -2; // unvisited
    const queue = this.queue;
    let head = 0, tail = 0;
    const visit = (root: number) => {
      parent[root] = -1;
      queue[tail++] = root;
      while (head < tail) {
        const u = queue[head++];
        if (u < nd) {
          for (let e = st[u]; e < st[u + 1]; e++) {
            const w = this.adjList[e];
            if (parent[w] !== -2) continue;
            parent[w] = u;
            queue[tail++] = w;
          }
        } else {
          const j = this.nodeRef[u];
          const a = this.cA[j], b = this.cB[j];
          const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
          if (da >= 0 && parent[da] === -2) {
            parent[da] = u;
            queue[tail++] = da;
          }
          if (db >= 0 && parent[db] === -2) {
            parent[db] = u;
            queue[tail++] = db;
          }
        }
      }
    };
    // roots: joints to keyframed/world first, then any unvisited body
    for (let j = 0; j < nj; j++) {
      const node = jointNode[j];
      if (node < 0) continue;
      const a = this.cA[j], b = this.cB[j];
      const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
      if ((da < 0) !== (db < 0) && parent[node] === -2) visit(node);
    }
    for (let i = 0; i < nd; i++) if (parent[i] === -2) visit(i);
    for (let t = 0; t < N; t++) this.post[t] = queue[N - 1 - t];
    let off = 0;
    for (let t = 0; t < N; t++) {
      this.nodeOff[t] = off;
      off += this.nodeDim[t];
    }
    this.totalDim = off;
    this.x = growF(this.x, off);
    this.x0 = growF(this.x0, off);
    this.ufree = growF(this.ufree, 6 * nd);
    this.blkD = growF(this.blkD, 36 * N);
    this.blkDinv = growF(this.blkDinv, 36 * N);
    this.blkW = growF(this.blkW, 36 * N);
  }

  /** Rows of joint j (velocity direction = impulse direction). Written at row r0. */
  private writeJointRows(j: number, r0: number): number {
    const n = this.jointKind[j] === KIND_BALL ? 3 : this.jointKind[j] === KIND_LINEAR ? 2 : 1;
    const a = this.cA[j], b = this.cB[j];
    for (let k = 0; k < n; k++) {
      const o = 9 * j + 3 * k;
      this.writeRowPair(r0 + k, a, b, this.jointPoint, 3 * j, this.jointDirs, o, this.jointDirs, o);
      this.rowOwner[r0 + k] = j;
      this.rowC[r0 + k] = -this.kfVelocity(r0 + k); // target 0
    }
    return n;
  }

  /**
   * J rows along D[do..do+2], G rows along G[go..go+2], both at the point P[po..po+2], for sides
   * a (+) and b (−). (Arrays and offsets, not the nine numbers: a call with number arguments that
   * is not inlined boxes each of them.)
   */
  private writeRowPair(r: number, a: number, b: number, P: Float64Array, po: number, D: Float64Array, dO: number, G: Float64Array, gO: number): void {
    const c = this.com, o = 6 * r;
    const px = P[po], py = P[po + 1], pz = P[po + 2];
    const dx = D[dO], dy = D[dO + 1], dz = D[dO + 2], gx = G[gO], gy = G[gO + 1], gz = G[gO + 2];
    if (a >= 0) {
      const rx = px - c[3 * a], ry = py - c[3 * a + 1], rz = pz - c[3 * a + 2];
      setRow(this.rowJA, o, dx, dy, dz, rx, ry, rz, 1);
      setRow(this.rowGA, o, gx, gy, gz, rx, ry, rz, 1);
      this.rowDA[r] = this.dyn[a];
    } else {
      setRow(this.rowJA, o, dx, dy, dz, 0, 0, 0, 1);
      setRow(this.rowGA, o, gx, gy, gz, 0, 0, 0, 1);
      this.rowDA[r] = -1;
    }
    if (b >= 0) {
      const rx = px - c[3 * b], ry = py - c[3 * b + 1], rz = pz - c[3 * b + 2];
      setRow(this.rowJB, o, dx, dy, dz, rx, ry, rz, -1);
      setRow(this.rowGB, o, gx, gy, gz, rx, ry, rz, -1);
      this.rowDB[r] = this.dyn[b];
    } else {
      setRow(this.rowJB, o, dx, dy, dz, 0, 0, 0, -1);
      setRow(this.rowGB, o, gx, gy, gz, 0, 0, 0, -1);
      this.rowDB[r] = -1;
    }
  }

  /** rowC[r] = factor · J_r·u⁻ − (the keyframed part of J_r·u⁻): `rowVelocity` and `kfVelocity` in one call that returns no number. */
  private writeRowTarget(r: number, factor: number): void {
    const k = this.rowOwner[r], a = this.cA[k], b = this.cB[k];
    const rv = this.sideVelocity(this.rowJA, r, a) + this.sideVelocity(this.rowJB, r, b);
    let kv = 0;
    if (a >= 0 && this.kf[a]) kv += this.sideVelocity(this.rowJA, r, a);
    if (b >= 0 && this.kf[b]) kv += this.sideVelocity(this.rowJB, r, b);
    this.rowC[r] = factor * rv - kv;
  }

  /** J_r·u⁻ over all sides (dynamic and keyframed): the row's relative velocity before the impact. */
  private rowVelocity(r: number): number {
    const k = this.rowOwner[r];
    return this.sideVelocity(this.rowJA, r, this.cA[k]) + this.sideVelocity(this.rowJB, r, this.cB[k]);
  }

  /** The part of J_r·u⁻ that comes from keyframed bodies (fixed, moved to the right-hand side). */
  private kfVelocity(r: number): number {
    const k = this.rowOwner[r];
    const a = this.cA[k], b = this.cB[k];
    let s = 0;
    if (a >= 0 && this.kf[a]) s += this.sideVelocity(this.rowJA, r, a);
    if (b >= 0 && this.kf[b]) s += this.sideVelocity(this.rowJB, r, b);
    return s;
  }

  private sideVelocity(J: Float64Array, r: number, body: number): number {
    if (body < 0) return 0;
    const o = 6 * r, v = this.vel, vo = 6 * body;
    return J[o] * v[vo] + J[o + 1] * v[vo + 1] + J[o + 2] * v[vo + 2] + J[o + 3] * v[vo + 3] + J[o + 4] * v[vo + 4] + J[o + 5] * v[vo + 5];
  }

  /**
   * Writes the joint rows (first in the row order) and returns their count. They depend on the
   * bodies, the joints and the keyframed velocities only, none of which a contact-state loop
   * changes: written once per loop (`runContactStates` clears `jointRowsReady`) and kept by
   * its later passes, bit for bit what writing them again gives.
   */
  private jointRows(): number {
    if (this.jointRowsReady) return this.jointRowsEnd;
    let r = 0;
    for (let j = 0; j < this.nj; j++) {
      this.cRow0[j] = r;
      const a = this.cA[j], b = this.cB[j];
      const anyDyn = (a >= 0 && this.dyn[a] >= 0) || (b >= 0 && this.dyn[b] >= 0);
      const n = anyDyn ? this.writeJointRows(j, r) : 0;
      this.cRows[j] = n;
      r += n;
    }
    this.jointRowsEnd = r;
    this.jointRowsReady = true;
    return r;
  }
  private jointRowsReady = false;
  private jointRowsEnd = 0;

  private ensureRows(n: number): void {
    if (this.rowOwner.length >= n) return;
    this.jointRowsReady = false;
    const m = Math.max(n, 2 * this.rowOwner.length);
    this.rowOwner = new Int32Array(m);
    this.rowJA = F64(6 * m);
    this.rowJB = F64(6 * m);
    this.rowGA = F64(6 * m);
    this.rowGB = F64(6 * m);
    this.rowDA = new Int32Array(m);
    this.rowDB = new Int32Array(m);
    this.rowC = F64(m);
    this.rowLambda = F64(m);
  }

  private buildRows(restModel: string): void {
    const nj = this.nj, nc = this.nc;
    // room for the virtual rows of compressed contact groups (never more than the rows they replace)
    this.ensureRows(6 * (nj + nc) + 2);
    let r = this.jointRows();
    for (let c = 0; c < nc; c++) {
      const k = nj + c;
      this.cRow0[k] = r;
      const st = this.contactState[c];
      const a = this.cA[k], b = this.cB[k];
      const P = this.contactPoint;
      const f = this.contactFrame, o = 9 * c;
      const eps = this.epsOn * this.contactEps[c];
      let n = 0;
      // (`slideFree`: the contacts with finite friction as frictionless ones)
      const free = this.slideFree && this.slFree[c] === 1 && this.contactGamma[c] !== Infinity;
      if (st === ContactState.Frictionless || st === ContactState.Stick || free) {
        n = st === ContactState.Stick && !free ? 3 : 1;
        for (let q = 0; q < n; q++) {
          this.writeRowPair(r + q, a, b, P, 3 * c, f, o + 3 * q, f, o + 3 * q);
          this.rowOwner[r + q] = k;
          this.writeRowTarget(r + q, q === 0 || restModel === 'paper' ? -eps : 0);
        }
      } else if (st === ContactState.Slide) {
        n = 1;
        const g = this.contactGamma[c], S = this.contactSlide, G = this.vec3;
        G[0] = f[o] + g * S[3 * c];
        G[1] = f[o + 1] + g * S[3 * c + 1];
        G[2] = f[o + 2] + g * S[3 * c + 2];
        this.writeRowPair(r, a, b, P, 3 * c, f, o, G, 0);
        this.rowOwner[r] = k;
        this.writeRowTarget(r, -eps);
      }
      this.cRows[k] = n;
      r += n;
    }
    this.nRows = r;
  }

  // ---------------------------------------------------------------- sparse

  /** Fills hScratch (row-major, stride 6) with H_ip, the block coupling node i to its parent p (d_i × d_p). */
  private couplingBlock(i: number, p: number): void {
    const H = this.hScratch, nd = this.nd;
    if (i < nd) {
      // i body, p joint: H_ip = J_{p,i}ᵀ (6 × dp)
      const j = this.nodeRef[p], r0 = this.cRow0[j], dp = this.nodeDim[p];
      const side = this.cA[j] >= 0 && this.dyn[this.cA[j]] === i ? this.rowJA : this.rowJB;
      for (let c = 0; c < dp; c++) for (let rr = 0; rr < 6; rr++) H[rr * 6 + c] = side[6 * (r0 + c) + rr];
    } else {
      // i joint, p body: H_ip = J_{i,p} (di × 6)
      const j = this.nodeRef[i], r0 = this.cRow0[j], di = this.nodeDim[i];
      const side = this.cA[j] >= 0 && this.dyn[this.cA[j]] === p ? this.rowJA : this.rowJB;
      for (let rr = 0; rr < di; rr++) for (let c = 0; c < 6; c++) H[rr * 6 + c] = side[6 * (r0 + rr) + c];
    }
  }

  /** Block LDLᵀ of the tree part of [M Jᵀ; J 0], children first (no fill-in). */
  private factor(): void {
    this.pcValid = false;
    this.x0Valid = false;
    this.csValid = false;
    // joint rows are needed for the coupling blocks; contact rows are not
    this.ensureRows(3 * this.nj + 1);
    this.jointRows();
    const N = this.nNodes, nd = this.nd, D = this.blkD, Dinv = this.blkDinv, W = this.blkW, H = this.hScratch;
    for (let i = 0; i < N; i++) {
      const o = 36 * i;
      D.fill(0, o, o + 36);
      if (i < nd) {
        const b = this.dynBody[i], m = this.mass[b], I = this.inertia;
        D[o] = m;
        D[o + 7] = m;
        D[o + 14] = m;
        for (let rr = 0; rr < 3; rr++) for (let c = 0; c < 3; c++) D[o + (3 + rr) * 6 + 3 + c] = I[9 * b + c * 3 + rr];
      }
    }
    for (let t = 0; t < N; t++) {
      const i = this.post[t], di = this.nodeDim[i], o = 36 * i;
      const sign = i < nd ? 1 : -1;
      if (!invertDefinite(D, o, 6, di, sign, Dinv, o, this.work36)) {
        if (i < nd) throw new ResponseInputError(`bodies[${this.dynBody[i]}]: singular body block in the impulse system`);
        throw new ResponseInputError(`joints[${this.nodeRef[i]}]: degenerate joint constraint (rows are not independent)`);
      }
      const p = this.nodeParent[i];
      if (p < 0) continue;
      const dp = this.nodeDim[p], op = 36 * p;
      this.couplingBlock(i, p);
      // W_i = Dinv_i · H_ip  (di × dp)
      for (let rr = 0; rr < di; rr++)
        for (let c = 0; c < dp; c++) {
          let s = 0;
          for (let k = 0; k < di; k++) s += Dinv[o + rr * 6 + k] * H[k * 6 + c];
          W[o + rr * 6 + c] = s;
        }
      // D_p −= H_ipᵀ W_i
      for (let rr = 0; rr < dp; rr++)
        for (let c = 0; c < dp; c++) {
          let s = 0;
          for (let k = 0; k < di; k++) s += H[k * 6 + rr] * W[o + k * 6 + c];
          D[op + rr * 6 + c] -= s;
        }
    }
  }

  /** Solves the factored tree system in place: x holds b on entry (node-ordered blocks), the solution on exit. */
  private treeSolve(x: Float64Array): void {
    const N = this.nNodes, W = this.blkW, Dinv = this.blkDinv, off = this.nodeOff, dim = this.nodeDim, par = this.nodeParent;
    for (let t = 0; t < N; t++) {
      const i = this.post[t], p = par[i];
      if (p < 0) continue;
      const di = dim[i], dp = dim[p], oi = off[i], op = off[p], o = 36 * i;
      let nz = false;
      for (let rr = 0; rr < di; rr++) if (x[oi + rr] !== 0) nz = true;
      if (!nz) continue; // sparse right-hand sides (one impulse): nothing to pass up
      for (let c = 0; c < dp; c++) {
        let s = 0;
        for (let rr = 0; rr < di; rr++) s += W[o + rr * 6 + c] * x[oi + rr];
        x[op + c] -= s;
      }
    }
    const tmp = this.work36;
    for (let i = 0; i < N; i++) {
      const di = dim[i], oi = off[i], o = 36 * i;
      let nz = false;
      for (let rr = 0; rr < di; rr++) if (x[oi + rr] !== 0) nz = true;
      if (!nz) continue;
      for (let rr = 0; rr < di; rr++) {
        let s = 0;
        for (let k = 0; k < di; k++) s += Dinv[o + rr * 6 + k] * x[oi + k];
        tmp[rr] = s;
      }
      for (let rr = 0; rr < di; rr++) x[oi + rr] = tmp[rr];
    }
    for (let t = N - 1; t >= 0; t--) {
      const i = this.post[t], p = par[i];
      if (p < 0) continue;
      const di = dim[i], dp = dim[p], oi = off[i], op = off[p], o = 36 * i;
      for (let rr = 0; rr < di; rr++) {
        let s = 0;
        for (let c = 0; c < dp; c++) s += W[o + rr * 6 + c] * x[op + c];
        x[oi + rr] -= s;
      }
    }
  }

  /** x ← [M u⁻ on bodies; c on primary joint rows]. */
  private fillBaseRhs(x: Float64Array): void {
    const nd = this.nd, N = this.nNodes;
    for (let i = 0; i < nd; i++) {
      const b = this.dynBody[i], o = this.nodeOff[i], m = this.mass[b], v = this.vel, vo = 6 * b, I = this.inertia, io = 9 * b;
      const wx = v[vo + 3], wy = v[vo + 4], wz = v[vo + 5];
      x[o] = m * v[vo];
      x[o + 1] = m * v[vo + 1];
      x[o + 2] = m * v[vo + 2];
      x[o + 3] = I[io] * wx + I[io + 3] * wy + I[io + 6] * wz;
      x[o + 4] = I[io + 1] * wx + I[io + 4] * wy + I[io + 7] * wz;
      x[o + 5] = I[io + 2] * wx + I[io + 5] * wy + I[io + 8] * wz;
    }
    for (let i = nd; i < N; i++) {
      const j = this.nodeRef[i], r0 = this.cRow0[j], o = this.nodeOff[i];
      for (let k = 0; k < this.nodeDim[i]; k++) x[o + k] = this.rowC[r0 + k];
    }
  }

  /** x[body blocks] += μ·G_rᵀ. */
  private addImpulse(x: Float64Array, r: number, mu: number): void {
    const da = this.rowDA[r], db = this.rowDB[r], o = 6 * r;
    if (da >= 0) {
      const xo = this.nodeOff[da];
      for (let k = 0; k < 6; k++) x[xo + k] += mu * this.rowGA[o + k];
    }
    if (db >= 0) {
      const xo = this.nodeOff[db];
      for (let k = 0; k < 6; k++) x[xo + k] += mu * this.rowGB[o + k];
    }
  }

  /** J_r · u over dynamic sides, u read from node blocks of x. */
  private rowDot(x: Float64Array, r: number): number {
    const da = this.rowDA[r], db = this.rowDB[r], o = 6 * r;
    let s = 0;
    if (da >= 0) {
      const xo = this.nodeOff[da];
      for (let k = 0; k < 6; k++) s += this.rowJA[o + k] * x[xo + k];
    }
    if (db >= 0) {
      const xo = this.nodeOff[db];
      for (let k = 0; k < 6; k++) s += this.rowJB[o + k] * x[xo + k];
    }
    return s;
  }

  /**
   * Contact groups: the rows of contacts of one dynamic body against the world
   * or keyframed bodies whose impulse acts along their condition direction
   * (sticking and frictionless contacts). For each group, the Gram matrix of
   * its rows J_g (k×6) is decomposed, J_gᵀJ_g = Qᵀ Λ Q: the first r rows of Q
   * (grpQ) span the rows, the rest their complement; grpT holds the targets t
   * of Q u = t (Λ⁻¹ Q J_gᵀ c_g: the least-squares equivalent of J_g u = c_g,
   * exact when consistent). Then decides which bodies are eliminated with
   * their group (`contactGroups`). Returns true when that set changed.
   */
  private prepareGroups(mode: 'auto' | 'schur' | 'eliminate'): boolean {
    const nRows = this.nRows, nd = this.nd, nj = this.nj;
    this.grpHead = growI(this.grpHead, nd);
    this.grpCount = growI(this.grpCount, nd);
    this.grpV0 = growI(this.grpV0, nd);
    this.grpRank = growI(this.grpRank, nd);
    this.grpY = growF(this.grpY, 6 * nd);
    this.grpLam = growF(this.grpLam, 6 * nd);
    this.grpQ = growF(this.grpQ, 36 * nd);
    this.grpT = growF(this.grpT, 6 * nd);
    this.conYt = growF(this.conYt, 6 * nd);
    this.conF = growF(this.conF, 6 * nd);
    this.grpNext = growI(this.grpNext, nRows + 1);
    this.virtInvLam = growF(this.virtInvLam, 2 * nRows + 1);
    if (this.grpFull.length < nd) this.grpFull = new Uint8Array(Math.max(nd, 2 * this.grpFull.length)); // kept across iterations
    if (this.grpPending.length < nd) this.grpPending = new Uint8Array(Math.max(nd, 2 * this.grpPending.length)); // kept across iterations
    this.slHead = growI(this.slHead, nd);
    this.slCount = growI(this.slCount, nd);
    if (this.slIn.length < nd) this.slIn = new Uint8Array(Math.max(nd, 2 * this.slIn.length)); // kept across iterations
    this.grpHead.fill(-1, 0, nd);
    this.grpCount.fill(0, 0, nd);
    this.grpV0.fill(-1, 0, nd);
    this.slHead.fill(-1, 0, nd);
    this.slCount.fill(0, 0, nd);
    for (let r = nRows - 1; r >= 0; r--) {
      const k = this.rowOwner[r];
      if (k < nj) continue;
      const da = this.rowDA[r], db = this.rowDB[r];
      if ((da < 0) === (db < 0)) continue;
      const st = this.contactState[k - nj];
      const d = da >= 0 ? da : db;
      if (st === ContactState.Slide) {
        // sliding contacts (impulse off the condition direction) of one dynamic body
        this.grpNext[r] = this.slHead[d];
        this.slHead[d] = r;
        this.slCount[d]++;
        continue;
      }
      if (st !== ContactState.Stick && st !== ContactState.Frictionless) continue;
      this.grpNext[r] = this.grpHead[d];
      this.grpHead[d] = r;
      this.grpCount[d]++;
    }
    // (a group of several contacts is decomposed when its rank is needed: by the 'auto' decision
    // when the bound min(rows, 6) does not settle it, by the compressed or eliminated solve; a
    // pass in contact space needs none. Its rows do not change until its contacts do.)
    let sumRank = 0, anyPending = false;
    for (let d = 0; d < nd; d++) {
      if (this.grpDirty[d]) {
        // (a group whose contacts kept their states keeps its decomposition)
        this.grpRank[d] = 0;
        this.grpFull[d] = 0;
        this.grpPending[d] = 0;
        const h = this.grpHead[d];
        if (h >= 0) {
          // the rows of a single contact (n, or n, t₁, t₂) are independent: decomposed only if eliminated
          let single = true;
          for (let r = this.grpNext[h]; r >= 0 && single; r = this.grpNext[r]) if (this.rowOwner[r] !== this.rowOwner[h]) single = false;
          if (single) this.grpRank[d] = this.grpCount[d];
          else {
            this.grpPending[d] = 1;
            this.grpRank[d] = Math.min(6, this.grpCount[d]); // (an upper bound until decomposed)
          }
        }
      }
      sumRank += this.grpRank[d];
      // its sliding contacts can be eliminated with it when all its rows stay independent
      // (with the rank not yet known, counted when they could be: an upper bound of the sum)
      const low = this.grpPending[d] ? 1 : this.grpRank[d];
      if (this.grpPending[d]) anyPending = true;
      if (this.slCount[d] > 0 && low + this.slCount[d] <= 6) sumRank += this.slCount[d];
    }
    let eliminate = mode === 'eliminate';
    if (mode === 'auto' && sumRank > 0) {
      // eliminate when the joints of the grouped bodies are fewer rows than their groups (and the
      // groups are not tiny: a few contact rows are cheaper in the Schur complement)
      let jointRows = 0;
      for (let j = 0; j < nj; j++) {
        const a = this.cA[j], b = this.cB[j];
        const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
        if ((da >= 0 && this.grpRank[da] + this.slCount[da] > 0) || (db >= 0 && this.grpRank[db] + this.slCount[db] > 0)) jointRows += this.cRows[j];
      }
      if (anyPending && sumRank > jointRows && sumRank > 12) {
        // (the bound does not settle it: the ranks themselves)
        this.decomposePending();
        sumRank = 0;
        for (let d = 0; d < nd; d++) {
          sumRank += this.grpRank[d];
          if (this.slCount[d] > 0 && this.grpRank[d] + this.slCount[d] <= 6) sumRank += this.slCount[d];
        }
      }
      eliminate = sumRank > jointRows && sumRank > 12;
    }
    let changed = false;
    for (let d = 0; d < nd; d++) {
      const c = eliminate && (this.grpRank[d] > 0 || (this.slCount[d] > 0 && this.slCount[d] <= 6)) ? 1 : 0;
      if (c !== this.conBody[d]) {
        this.conBody[d] = c;
        changed = true;
      }
    }
    return changed;
  }

  /** Decomposes the groups whose decomposition `prepareGroups` left for when it is needed. */
  private decomposePending(): void {
    for (let d = 0; d < this.nd; d++) if (this.grpPending[d]) this.decomposeGroup(d);
  }

  /** Gram decomposition of group d into grpQ / grpLam / grpT (see `prepareGroups`); returns its rank. */
  private decomposeGroup(d: number): number {
    this.grpPending[d] = 0;
    const G = this.gram, V = this.eigV, w = this.eigW, b = this.vec6;
    G.fill(0);
    b.fill(0);
    for (let r = this.grpHead[d]; r >= 0; r = this.grpNext[r]) {
      const J = this.rowDA[r] === d ? this.rowJA : this.rowJB, o = 6 * r, c = this.rowC[r];
      for (let i = 0; i < 6; i++) {
        const ji = J[o + i];
        b[i] += ji * c;
        for (let j = 0; j < 6; j++) G[i * 6 + j] += ji * J[o + j];
      }
    }
    symmetricEigen(G, 6, V, w);
    let wmax = 0;
    for (let i = 0; i < 6; i++) wmax = Math.max(wmax, w[i]);
    const Q = this.grpQ, qo = 36 * d, tol = 1e-12 * wmax;
    let rank = 0;
    for (let i = 0; i < 6; i++) if (w[i] > tol) rank++;
    // rows 0..rank-1 of Q: eigenvectors kept; rows rank..5: the complement
    let kept = 0, free = rank;
    for (let i = 0; i < 6; i++) {
      const row = w[i] > tol ? kept++ : free++;
      let t = 0;
      for (let k = 0; k < 6; k++) {
        const q = V[k * 6 + i];
        Q[qo + 6 * row + k] = q;
        t += q * b[k];
      }
      if (row < rank) {
        this.grpLam[6 * d + row] = w[i];
        this.grpT[6 * d + row] = t / w[i];
      }
    }
    this.grpRank[d] = rank;
    this.grpFull[d] = 1;
    return rank;
  }

  /**
   * Replaces the rows of contact group d, when they are linearly dependent
   * (four coplanar corners under a box, many points along a limb), by the
   * virtual rows Λ^½ Q (r×6) with targets Λ^½ t. Their impulses ν come back
   * as λ_g = J_g Qᵀ Λ^-½ ν (`expandGroups`), the least-norm λ_g with
   * J_gᵀ λ_g = Qᵀ Λ^½ ν, and |λ_g| = |ν|: so the least-norm solution of the
   * compressed system is the least-norm solution of the full one. Returns the
   * next free row index.
   */
  private compressGroup(d: number, nv: number): number {
    const rank = this.grpRank[d];
    if (rank >= this.grpCount[d]) return nv; // independent rows: solved as they are
    this.grpV0[d] = nv;
    const Q = this.grpQ, qo = 36 * d;
    for (let i = 0; i < rank; i++) {
      const o = 6 * nv, lam = this.grpLam[6 * d + i], sq = Math.sqrt(lam);
      for (let k = 0; k < 6; k++) {
        const q = Q[qo + 6 * i + k];
        this.rowJA[o + k] = sq * q;
        this.rowGA[o + k] = sq * q;
        this.rowJB[o + k] = 0;
        this.rowGB[o + k] = 0;
      }
      this.rowDA[nv] = d;
      this.rowDB[nv] = -1;
      this.rowOwner[nv] = -1;
      this.rowC[nv] = sq * this.grpT[6 * d + i];
      this.virtInvLam[nv] = 1 / lam;
      nv++;
    }
    return nv;
  }

  /** λ of every row of a compressed group from the ν of its virtual rows: y = Σ q_i ν_i / √Λ_i, λ_r = J_r·y. */
  private expandGroups(): void {
    const Y = this.grpY;
    for (let d = 0; d < this.nd; d++) {
      const v0 = this.grpV0[d];
      if (v0 < 0) continue;
      const yo = 6 * d;
      Y.fill(0, yo, yo + 6);
      for (let q = 0; q < this.grpRank[d]; q++) {
        const r = v0 + q, f = this.rowLambda[r] * this.virtInvLam[r], o = 6 * r;
        for (let k = 0; k < 6; k++) Y[yo + k] += f * this.rowJA[o + k];
      }
      this.groupLambdas(d);
    }
  }

  /** λ_r = J_r·y for the rows of group d, y = grpY block d. */
  private groupLambdas(d: number): void {
    const Y = this.grpY, yo = 6 * d;
    for (let r = this.grpHead[d]; r >= 0; r = this.grpNext[r]) {
      const J = this.rowDA[r] === d ? this.rowJA : this.rowJB, o = 6 * r;
      let l = 0;
      for (let k = 0; k < 6; k++) l += J[o + k] * Y[yo + k];
      this.rowLambda[r] = l;
    }
  }

  /**
   * Body d eliminated with its contact group (an isolated tree node): its
   * velocity is u = Z f + (I − Z M) Qᵀ t for the impulse f it receives (M u⁻
   * plus secondary impulses), with Z = N (Nᵀ M N)⁻¹ Nᵀ and N the directions
   * the group leaves free (Z = 0 when the group pins all six). Z replaces the
   * body's inverse block; the offset goes to conYt.
   */
  private eliminateGroupBody(d: number): void {
    this.pcValid = false;
    this.x0Valid = false;
    if (this.grpHead[d] >= 0 && !this.grpFull[d]) this.decomposeGroup(d);
    if (this.slCount[d] > 0 && this.eliminateOblique(d)) return;
    this.slIn[d] = 0;
    if (this.grpRank[d] === 0) {
      // sliding rows alone could not be eliminated: the body stays a free isolated node
      const b = this.dynBody[d], o = 36 * d;
      if (!invertDefinite(this.blkD, o, 6, 6, 1, this.blkDinv, o, this.work36)) throw new ResponseInputError(`bodies[${b}]: singular body block in the impulse system`);
      this.conYt.fill(0, 6 * d, 6 * d + 6);
      return;
    }
    const b = this.dynBody[d], m = this.mass[b], I = this.inertia, io = 9 * b;
    const Q = this.grpQ, qo = 36 * d, rank = this.grpRank[d], k = 6 - rank;
    const Dinv = this.blkDinv, o = 36 * d;
    const MN = this.mat36, A = this.mat36b;
    // MN (6×k, stride 6) = M·N
    for (let c = 0; c < k; c++) {
      const no = qo + 6 * (rank + c);
      MN[c] = m * Q[no];
      MN[6 + c] = m * Q[no + 1];
      MN[12 + c] = m * Q[no + 2];
      for (let rr = 0; rr < 3; rr++) MN[(3 + rr) * 6 + c] = I[io + rr] * Q[no + 3] + I[io + 3 + rr] * Q[no + 4] + I[io + 6 + rr] * Q[no + 5];
    }
    // A = Nᵀ M N (k×k), then its inverse in the work block
    for (let i = 0; i < k; i++)
      for (let j = 0; j < k; j++) {
        let sum = 0;
        for (let e = 0; e < 6; e++) sum += Q[qo + 6 * (rank + i) + e] * MN[e * 6 + j];
        A[i * 6 + j] = sum;
      }
    const Ainv = this.hScratch;
    if (k > 0 && !invertDefinite(A, 0, 6, k, 1, Ainv, 0, this.work36)) throw new ResponseInputError(`bodies[${b}]: singular body block in the impulse system`);
    // Z = N A⁻¹ Nᵀ
    for (let r = 0; r < 6; r++)
      for (let c = 0; c < 6; c++) {
        let sum = 0;
        for (let i = 0; i < k; i++) {
          const ni = Q[qo + 6 * (rank + i) + r];
          if (ni === 0) continue;
          for (let j = 0; j < k; j++) sum += ni * Ainv[i * 6 + j] * Q[qo + 6 * (rank + j) + c];
        }
        Dinv[o + r * 6 + c] = sum;
      }
    // offset: p = Qᵀ t; Yt = p − Z M p
    const p = this.vec6, t = this.grpT, Yt = this.conYt, yo = 6 * d;
    for (let e = 0; e < 6; e++) {
      let sum = 0;
      for (let i = 0; i < rank; i++) sum += Q[qo + 6 * i + e] * t[6 * d + i];
      p[e] = sum;
    }
    const Mp = this.eigW;
    Mp[0] = m * p[0];
    Mp[1] = m * p[1];
    Mp[2] = m * p[2];
    for (let rr = 0; rr < 3; rr++) Mp[3 + rr] = I[io + rr] * p[3] + I[io + 3 + rr] * p[4] + I[io + 6 + rr] * p[5];
    for (let r = 0; r < 6; r++) {
      let sum = 0;
      for (let c = 0; c < 6; c++) sum += Dinv[o + r * 6 + c] * Mp[c];
      Yt[yo + r] = p[r] - sum;
    }
  }

  /**
   * Eliminates body d with its sticking/frictionless group (rows q_i = G, targets
   * t_i) AND its sliding contacts (condition rows n, impulse rows n + γP): with
   * the k ≤ 6 rows J (conditions) and G (impulse directions),
   * u = M⁻¹(f + Gᵀμ), J u = t ⇒ A μ = t − J M⁻¹ f, A = J M⁻¹ Gᵀ; so
   * u = Z f + Yt with Z = M⁻¹ − M⁻¹Gᵀ A⁻¹ J M⁻¹ (not symmetric) and
   * Yt = M⁻¹Gᵀ A⁻¹ t. Returns false (nothing changed) when A is singular or
   * badly conditioned (a Painlevé-like sliding contact): its slides then stay
   * in the Schur complement.
   */
  private eliminateOblique(d: number): boolean {
    this.pcValid = false;
    this.x0Valid = false;
    const rank = this.grpRank[d], k = rank + this.slCount[d];
    if (k > 6) return false;
    const b = this.dynBody[d], m = this.mass[b], I = this.inertia, io = 9 * b;
    this.obA = growF(this.obA, 36 * this.nd);
    this.obPiv = growI(this.obPiv, 6 * this.nd);
    this.obMinv = growF(this.obMinv, 36 * this.nd);
    const Minv = this.obMinv, mo = 36 * d;
    // M⁻¹ = diag(1/m, I⁻¹)
    const Mblk = this.mat36;
    Mblk.fill(0);
    for (let i = 0; i < 3; i++) Mblk[i * 6 + i] = m;
    for (let rr = 0; rr < 3; rr++) for (let c = 0; c < 3; c++) Mblk[(3 + rr) * 6 + 3 + c] = I[io + c * 3 + rr];
    if (!invertDefinite(Mblk, 0, 6, 6, 1, Minv, mo, this.work36)) throw new ResponseInputError(`bodies[${b}]: singular body block in the impulse system`);
    // rows: J (k×6) and G (k×6), targets t, in mat36b / hScratch / vec6
    const Jm = this.mat36b, Gm = this.hScratch, t = this.vec6, Q = this.grpQ, qo = 36 * d;
    let row = 0;
    for (let i = 0; i < rank; i++, row++) {
      for (let e = 0; e < 6; e++) Jm[row * 6 + e] = Gm[row * 6 + e] = Q[qo + 6 * i + e];
      t[row] = this.grpT[6 * d + i];
    }
    for (let r = this.slHead[d]; r >= 0; r = this.grpNext[r], row++) {
      const side = this.rowDA[r] === d, J = side ? this.rowJA : this.rowJB, G = side ? this.rowGA : this.rowGB;
      for (let e = 0; e < 6; e++) {
        Jm[row * 6 + e] = J[6 * r + e];
        Gm[row * 6 + e] = G[6 * r + e];
      }
      t[row] = this.rowC[r];
    }
    // B = M⁻¹ Gᵀ (6×k) into mat36; A = J B (k×k) into obA
    const B = this.mat36, A = this.obA, ao = 36 * d;
    for (let e = 0; e < 6; e++)
      for (let c = 0; c < k; c++) {
        let sum = 0;
        for (let f = 0; f < 6; f++) sum += Minv[mo + e * 6 + f] * Gm[c * 6 + f];
        B[e * 6 + c] = sum;
      }
    let amax = 0;
    for (let i = 0; i < k; i++)
      for (let c = 0; c < k; c++) {
        let sum = 0;
        for (let e = 0; e < 6; e++) sum += Jm[i * 6 + e] * B[e * 6 + c];
        A[ao + i * k + c] = sum;
        amax = Math.max(amax, Math.abs(sum));
      }
    const piv = this.piv6, Ak = this.mat36c;
    for (let i = 0; i < k * k; i++) Ak[i] = A[ao + i];
    if (luFactor(Ak, k, piv, 1e-9) > 0) return false;
    for (let i = 0; i < k; i++) if (!(Math.abs(Ak[i * k + i]) > 1e-9 * amax)) return false;
    for (let i = 0; i < k * k; i++) A[ao + i] = Ak[i];
    for (let i = 0; i < k; i++) this.obPiv[6 * d + i] = piv[i];
    // Z = M⁻¹ − B A⁻¹ (J M⁻¹): column by column of J M⁻¹
    const Dinv = this.blkDinv, o = 36 * d, col = this.eigW;
    for (let c = 0; c < 6; c++) {
      for (let i = 0; i < k; i++) {
        let sum = 0;
        for (let e = 0; e < 6; e++) sum += Jm[i * 6 + e] * Minv[mo + e * 6 + c];
        col[i] = sum;
      }
      luSolve(Ak, k, piv, col);
      for (let e = 0; e < 6; e++) {
        let sum = 0;
        for (let i = 0; i < k; i++) sum += B[e * 6 + i] * col[i];
        Dinv[o + e * 6 + c] = Minv[mo + e * 6 + c] - sum;
      }
    }
    // Yt = B A⁻¹ t
    for (let i = 0; i < k; i++) col[i] = t[i];
    luSolve(Ak, k, piv, col);
    for (let e = 0; e < 6; e++) {
      let sum = 0;
      for (let i = 0; i < k; i++) sum += B[e * 6 + i] * col[i];
      this.conYt[6 * d + e] = sum;
    }
    this.slIn[d] = 1;
    return true;
  }

  /** x[eliminated body blocks] += their velocity offset (after a tree solve of an impulse that includes M u⁻). */
  private addEliminatedOffsets(x: Float64Array): void {
    for (let d = 0; d < this.nd; d++) {
      if (!this.conBody[d]) continue;
      const o = this.nodeOff[d];
      for (let k = 0; k < 6; k++) x[o + k] += this.conYt[6 * d + k];
    }
  }

  /**
   * Impulses of the contacts of eliminated bodies: the group's wrench is
   * w = M u − f (f saved in conF before the last tree solve), split with the
   * least norm: y = Qᵀ Λ⁻¹ Q w, λ_r = J_r·y.
   */
  private eliminatedLambdas(x: Float64Array): void {
    const Y = this.grpY, Q = this.grpQ, F = this.conF, I = this.inertia;
    for (let d = 0; d < this.nd; d++) {
      if (!this.conBody[d]) continue;
      if (this.slIn[d]) {
        this.obliqueLambdas(d);
        continue;
      }
      if (this.grpRank[d] === 0) continue;
      const b = this.dynBody[d], m = this.mass[b], io = 9 * b, o = this.nodeOff[d], fo = 6 * d, w = this.vec6;
      w[0] = m * x[o] - F[fo];
      w[1] = m * x[o + 1] - F[fo + 1];
      w[2] = m * x[o + 2] - F[fo + 2];
      for (let rr = 0; rr < 3; rr++) w[3 + rr] = I[io + rr] * x[o + 3] + I[io + 3 + rr] * x[o + 4] + I[io + 6 + rr] * x[o + 5] - F[fo + 3 + rr];
      Y.fill(0, fo, fo + 6);
      const qo = 36 * d;
      for (let i = 0; i < this.grpRank[d]; i++) {
        let c = 0;
        for (let k = 0; k < 6; k++) c += Q[qo + 6 * i + k] * w[k];
        c /= this.grpLam[6 * d + i];
        for (let k = 0; k < 6; k++) Y[fo + k] += c * Q[qo + 6 * i + k];
      }
      this.groupLambdas(d);
    }
  }

  /** Multipliers of an oblique elimination: μ = A⁻¹ (t − J M⁻¹ f); the group's part split least-norm, the slides' taken as they are. */
  private obliqueLambdas(d: number): void {
    const rank = this.grpRank[d], k = rank + this.slCount[d];
    const Minv = this.obMinv, mo = 36 * d, F = this.conF, fo = 6 * d, Q = this.grpQ, qo = 36 * d;
    const mf = this.vec6, mu = this.eigW;
    for (let e = 0; e < 6; e++) {
      let sum = 0;
      for (let f = 0; f < 6; f++) sum += Minv[mo + e * 6 + f] * F[fo + f];
      mf[e] = sum;
    }
    let row = 0;
    for (let i = 0; i < rank; i++, row++) {
      let jm = 0;
      for (let e = 0; e < 6; e++) jm += Q[qo + 6 * i + e] * mf[e];
      mu[row] = this.grpT[6 * d + i] - jm;
    }
    for (let r = this.slHead[d]; r >= 0; r = this.grpNext[r], row++) {
      const J = this.rowDA[r] === d ? this.rowJA : this.rowJB;
      let jm = 0;
      for (let e = 0; e < 6; e++) jm += J[6 * r + e] * mf[e];
      mu[row] = this.rowC[r] - jm;
    }
    const Ak = this.mat36c, piv = this.piv6;
    for (let i = 0; i < k * k; i++) Ak[i] = this.obA[36 * d + i];
    for (let i = 0; i < k; i++) piv[i] = this.obPiv[6 * d + i];
    luSolve(Ak, k, piv, mu);
    row = rank;
    for (let r = this.slHead[d]; r >= 0; r = this.grpNext[r], row++) this.rowLambda[r] = mu[row];
    if (rank === 0) return;
    const Y = this.grpY;
    Y.fill(0, fo, fo + 6);
    for (let i = 0; i < rank; i++) {
      const c = mu[i] / this.grpLam[6 * d + i];
      for (let e = 0; e < 6; e++) Y[fo + e] += c * Q[qo + 6 * i + e];
    }
    this.groupLambdas(d);
  }

  /**
   * The Schur complement of the secondary rows when every body they touch is
   * an isolated tree node (no primary joint: a free body, or one eliminated
   * with its contact group): then S = J Z Gᵀ with Z block-diagonal, and each
   * block factors as Z_b = C_b C_bᵀ (C_b: 6×k_b, k_b = the directions body b
   * can still move in, 0 when its contacts pin it). So S = P Rᵀ with P = J C,
   * R = G C (s×K, K = Σ k_b), and its least-norm solution is
   * λ = U₂ · pinv(C₁ᵀC₂) · U₁ᵀ b where PᵀP = C₁C₁ᵀ, RᵀR = C₂C₂ᵀ (pivoted
   * Cholesky) and U₁ = P_piv L₁₁⁻ᵀ, U₂ = R_piv L₂₂⁻ᵀ are orthonormal bases of
   * range(P), range(R); refined on the true residual. P and R have two
   * short segments per row, so this is O(s + K³) instead of O(s²·rank).
   * Used when K ≤ s (many contacts pinning many bodies); returns false
   * otherwise (the caller forms S).
   */
  private solveLowRankSchur(s: number): boolean {
    if (s < 12) return false; // small: forming S is as cheap
    const nd = this.nd, N = this.nNodes;
    // tree component of every node (parents come later in post-order)
    this.compOf = growI(this.compOf, N);
    for (let t = N - 1; t >= 0; t--) {
      const i = this.post[t], p = this.nodeParent[i];
      this.compOf[i] = p < 0 ? i : this.compOf[p];
    }
    // touched bodies, chained per component
    this.facK = growI(this.facK, nd);
    this.facOff = growI(this.facOff, nd);
    this.facRow = growI(this.facRow, nd);
    this.facStride = growI(this.facStride, nd);
    this.compHead = growI(this.compHead, N);
    this.compNext = growI(this.compNext, nd);
    this.facK.fill(-1, 0, nd);
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q];
      for (let side = 0; side < 2; side++) {
        const d = side === 0 ? this.rowDA[r] : this.rowDB[r];
        if (d < 0 || this.facK[d] !== -1) continue;
        this.facK[d] = -2;
        const c = this.compOf[d];
        this.compHead[c] = -1;
      }
    }
    for (let d = nd - 1; d >= 0; d--) {
      if (this.facK[d] !== -2) continue;
      const c = this.compOf[d];
      this.compNext[d] = this.compHead[c];
      this.compHead[c] = d;
    }
    // room for every component's C
    let need = 0;
    for (let d = 0; d < nd; d++) {
      if (this.facK[d] !== -2 || this.compHead[this.compOf[d]] !== d) continue;
      let n = 0;
      for (let b = d; b >= 0; b = this.compNext[b]) n++;
      need += 36 * n * n;
    }
    this.facCbuf = growF(this.facCbuf, need);
    this.facEbuf = growF(this.facEbuf, need);
    // factor each touched component's mobility block: Z_BB = C Cᵀ
    let K = 0, cUsed = 0;
    for (let d = 0; d < nd; d++) {
      if (this.facK[d] !== -2) continue;
      const c = this.compOf[d];
      let n = 0;
      for (let b = this.compHead[c]; b >= 0; b = this.compNext[b]) n++;
      const nz = 6 * n;
      if (nz > s && !(n === 1 && this.isolatedNode(d))) return false; // forming this block would cost more than forming S
      const Z = (this.fZblk = growF(this.fZblk, nz * nz));
      this.fD = growF(this.fD, nz);
      this.fDone = growU(this.fDone, nz);
      let k: number;
      if (n === 1 && this.isolatedNode(d) && this.conBody[d] && this.slIn[d]) {
        // oblique elimination: Z not symmetric, Z = C Eᵀ from a complete-pivot LU
        for (let i = 0; i < 36; i++) Z[i] = this.blkDinv[36 * d + i];
        const pp = this.piv6, qq = this.piv6b;
        k = luCompletePivot(Z, 6, pp, qq, 1e-12);
        const C = this.facCbuf, E = this.facEbuf;
        for (let i = 0; i < 6; i++)
          for (let c = 0; c < 6; c++) {
            C[cUsed + pp[i] * 6 + c] = c < k ? (i === c ? 1 : i > c ? Z[i * 6 + c] : 0) : 0;
            E[cUsed + qq[i] * 6 + c] = c < k && i >= c ? Z[c * 6 + i] : 0;
          }
      } else {
        if (n === 1 && this.isolatedNode(d)) {
          for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) Z[i * 6 + j] = 0.5 * (this.blkDinv[36 * d + i * 6 + j] + this.blkDinv[36 * d + j * 6 + i]);
        } else {
          const x = this.x, T = this.totalDim;
          let ai = 0;
          for (let a = this.compHead[c]; a >= 0; a = this.compNext[a], ai++)
            for (let e = 0; e < 6; e++) {
              x.fill(0, 0, T);
              x[this.nodeOff[a] + e] = 1;
              this.treeSolve(x);
              let bi = 0;
              for (let b = this.compHead[c]; b >= 0; b = this.compNext[b], bi++) for (let f = 0; f < 6; f++) Z[(6 * bi + f) * nz + 6 * ai + e] = x[this.nodeOff[b] + f];
            }
          for (let i = 0; i < nz; i++)
            for (let j = 0; j < i; j++) {
              const v = 0.5 * (Z[i * nz + j] + Z[j * nz + i]);
              Z[i * nz + j] = v;
              Z[j * nz + i] = v;
            }
        }
        k = pivotedCholesky(Z, nz, this.facCbuf, cUsed, nz, this.fD, this.fDone);
        for (let i = cUsed; i < cUsed + nz * nz; i++) this.facEbuf[i] = this.facCbuf[i];
      }
      let bi = 0;
      for (let b = this.compHead[c]; b >= 0; b = this.compNext[b], bi++) {
        this.facK[b] = k;
        this.facOff[b] = K;
        this.facRow[b] = cUsed + 6 * bi * nz; // its 6 rows of C, row stride facStride
        this.facStride[b] = nz;
      }
      cUsed += nz * nz;
      K += k;
      if (K > s) return false;
    }
    // (every impulse along its condition direction, G = J bit for bit, and no oblique elimination:
    // then R = P, RᵀR = PᵀP and C₂ = C₁ bit for bit, so they are formed once)
    let same = true;
    for (let d = 0; d < nd && same; d++) if (this.facK[d] >= 0 && this.conBody[d] && this.slIn[d] && this.isolatedNode(d)) same = false;
    for (let q = 0; q < s && same; q++) {
      const o = 6 * this.secRows[q];
      for (let e = 0; e < 6; e++)
        if (this.rowJA[o + e] !== this.rowGA[o + e] || this.rowJB[o + e] !== this.rowGB[o + e] || (this.rowJA[o + e] === 0 && 1 / this.rowJA[o + e] !== 1 / this.rowGA[o + e]) || (this.rowJB[o + e] === 0 && 1 / this.rowJB[o + e] !== 1 / this.rowGB[o + e])) {
          same = false;
          break;
        }
    }
    // P = J C, R = G E (s×K, row-major); each row has at most two column segments (its bodies' components)
    const P = (this.fP = growF(this.fP, s * K)), R = same ? P : (this.fR = growF(this.fR, s * K));
    P.fill(0, 0, s * K);
    if (!same) R.fill(0, 0, s * K);
    const seg = (this.fPerm = growI(this.fPerm, 4 * s));
    const C = this.facCbuf, E = this.facEbuf;
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q], o = 6 * r;
      seg[4 * q + 1] = 0;
      seg[4 * q + 3] = 0;
      for (let side = 0; side < 2; side++) {
        const d = side === 0 ? this.rowDA[r] : this.rowDB[r];
        if (d < 0) continue;
        const J = side === 0 ? this.rowJA : this.rowJB, G = side === 0 ? this.rowGA : this.rowGB;
        const k = this.facK[d], off = this.facOff[d], co = this.facRow[d], cs = this.facStride[d];
        for (let c = 0; c < k; c++) {
          let pj = 0;
          for (let e = 0; e < 6; e++) pj += J[o + e] * C[co + e * cs + c];
          P[q * K + off + c] += pj;
          if (same) continue;
          let pg = 0;
          for (let e = 0; e < 6; e++) pg += G[o + e] * E[co + e * cs + c];
          R[q * K + off + c] += pg;
        }
        // distinct segments (two bodies of one tree component share theirs)
        if (seg[4 * q + 1] > 0 && seg[4 * q] === off) continue;
        const sg = seg[4 * q + 1] > 0 ? 2 : 0;
        seg[4 * q + sg] = off;
        seg[4 * q + sg + 1] = k;
      }
    }
    const mu = this.sMu;
    mu.fill(0, 0, s);
    if (K === 0) return this.zeroSchur(s); // every touched body is pinned: S = 0, least-norm λ = 0
    // Grams PᵀP and RᵀR (K×K), row by row over the nonzero segments
    const GP = (this.fT1 = growF(this.fT1, K * K)), GR = same ? GP : (this.fT2 = growF(this.fT2, K * K));
    GP.fill(0, 0, K * K);
    if (!same) GR.fill(0, 0, K * K);
    for (let q = 0; q < s; q++)
      for (let sa = 0; sa < 4; sa += 2) {
        const oa = seg[4 * q + sa], ka = seg[4 * q + sa + 1];
        for (let sb = 0; sb < 4; sb += 2) {
          const ob = seg[4 * q + sb], kb = seg[4 * q + sb + 1];
          for (let i = 0; i < ka; i++) {
            const pi = P[q * K + oa + i], ri = R[q * K + oa + i], go = (oa + i) * K + ob;
            for (let j = 0; j < kb; j++) GP[go + j] += pi * P[q * K + ob + j];
            if (!same) for (let j = 0; j < kb; j++) GR[go + j] += ri * R[q * K + ob + j];
          }
        }
      }
    // PᵀP = C₁C₁ᵀ, RᵀR = C₂C₂ᵀ (pivoted Cholesky at the numerical rank). The pivot columns of P
    // span its range and U₁ = P_piv L₁₁⁻ᵀ is an orthonormal basis of it (L₁₁ = C₁ on the pivot
    // rows, lower triangular), likewise U₂ for R; then S = U₁ (C₁ᵀC₂) U₂ᵀ.
    this.fD = growF(this.fD, K);
    this.fDone = growU(this.fDone, K);
    this.fOrd = growI(this.fOrd, 2 * K);
    const o1 = this.fOrd, o2 = same ? o1 : (this.fOrd2 = growI(this.fOrd2, K));
    const C1 = (this.fU1 = growF(this.fU1, K * K)), C2 = same ? C1 : (this.fU2 = growF(this.fU2, K * K));
    const k1 = pivotedCholesky(GP, K, C1, 0, K, this.fD, this.fDone, 1e-13, o1);
    const k2 = same ? k1 : pivotedCholesky(GR, K, C2, 0, K, this.fD, this.fDone, 1e-13, o2);
    if (k1 === 0 || k2 === 0) return this.zeroSchur(s); // S = 0
    const m = Math.max(k1, k2);
    const M = (this.fM = growF(this.fM, m * m));
    M.fill(0, 0, m * m);
    this.lowRankStats.solves++;
    if (same && this.symmetricLowRankProduct) {
      this.lowRankStats.symmetric++;
      // M = C₁ᵀC₁ is symmetric: its lower triangle, mirrored (entry (j, i) has the products of
      // entry (i, j), added in the same order of c). The pivot row chosen at step k has zeros
      // (exact: pivotedCholesky writes them) beyond column k: those terms, which add nothing
      // to a sum that starts at +0, are left out as the zeros of C₁ are.
      const lim = (this.fLim = growI(this.fLim, K));
      lim.fill(k1, 0, K);
      for (let k = 0; k < k1; k++) lim[o1[k]] = k + 1;
      for (let c = 0; c < K; c++) {
        const r1 = c * K, lc = lim[c];
        for (let i = 0; i < lc; i++) {
          const v = C1[r1 + i];
          if (v === 0) continue;
          const mi = i * m;
          for (let j = 0; j <= i; j++) M[mi + j] += v * C1[r1 + j];
        }
      }
      for (let i = 0; i < m; i++) for (let j = 0; j < i; j++) M[j * m + i] = M[i * m + j];
    } else
      for (let c = 0; c < K; c++) {
        const r1 = c * K, r2 = c * K;
        for (let i = 0; i < k1; i++) {
          const v = C1[r1 + i];
          if (v === 0) continue;
          for (let j = 0; j < k2; j++) M[i * m + j] += v * C2[r2 + j];
        }
      }
    const y = (this.fY = growF(this.fY, Math.max(m, K))), z = (this.fZ = growF(this.fZ, Math.max(m, K)));
    const res = (this.fRes = growF(this.fRes, s)), tmp = (this.fTmp = growF(this.fTmp, K));
    this.sWork = growF(this.sWork, 3 * m * m + 4 * m);
    this.sPiv = growI(this.sPiv, 2 * m);
    for (let q = 0; q < s; q++) res[q] = this.sRhs[q];
    const mRank = factorDenseRobust(M, m, this.sWork, this.sPiv);
    let bn = 0, rn = Infinity;
    for (let q = 0; q < s; q++) bn = Math.max(bn, Math.abs(this.sRhs[q]));
    for (let pass = 0; pass < 4; pass++) {
      // Δλ = U₂ pinv(C₁ᵀC₂) U₁ᵀ res, U₁ᵀ res = L₁₁⁻¹ (P_pivᵀ res)
      tmp.fill(0, 0, K);
      for (let q = 0; q < s; q++) {
        const rq = res[q];
        if (rq === 0) continue;
        for (let sg = 0; sg < 4; sg += 2) {
          const off = seg[4 * q + sg], k = seg[4 * q + sg + 1];
          for (let c = 0; c < k; c++) tmp[off + c] += P[q * K + off + c] * rq;
        }
      }
      for (let i = 0; i < k1; i++) {
        const row = o1[i] * K;
        let v = tmp[o1[i]];
        for (let j = 0; j < i; j++) v -= C1[row + j] * y[j];
        y[i] = v / C1[row + i];
      }
      for (let i = k1; i < m; i++) y[i] = 0;
      if (mRank > 0) applyDenseRobust(m, mRank, this.sWork, this.sPiv, y, z);
      else z.fill(0, 0, m);
      // U₂ z = R_piv L₂₂⁻ᵀ z
      for (let i = k2 - 1; i >= 0; i--) {
        let v = z[i];
        for (let j = i + 1; j < k2; j++) v -= C2[o2[j] * K + i] * z[j];
        z[i] = v / C2[o2[i] * K + i];
      }
      tmp.fill(0, 0, K);
      for (let i = 0; i < k2; i++) tmp[o2[i]] = z[i];
      for (let q = 0; q < s; q++) {
        let sum = 0;
        for (let sg = 0; sg < 4; sg += 2) {
          const off = seg[4 * q + sg], k = seg[4 * q + sg + 1];
          for (let c = 0; c < k; c++) sum += R[q * K + off + c] * tmp[off + c];
        }
        mu[q] += sum;
      }
      // res = b − P (Rᵀ λ)
      tmp.fill(0, 0, K);
      for (let q = 0; q < s; q++) {
        const lq = mu[q];
        if (lq === 0) continue;
        for (let sg = 0; sg < 4; sg += 2) {
          const off = seg[4 * q + sg], k = seg[4 * q + sg + 1];
          for (let c = 0; c < k; c++) tmp[off + c] += R[q * K + off + c] * lq;
        }
      }
      rn = 0;
      for (let q = 0; q < s; q++) {
        let sum = 0;
        for (let sg = 0; sg < 4; sg += 2) {
          const off = seg[4 * q + sg], k = seg[4 * q + sg + 1];
          for (let c = 0; c < k; c++) sum += P[q * K + off + c] * tmp[off + c];
        }
        res[q] = this.sRhs[q] - sum;
        rn = Math.max(rn, Math.abs(res[q]));
      }
      if (rn <= 1e-14 * bn) break;
    }
    this.schurResidual = rn;
    return true;
  }

  /** S = 0: λ = 0, and the residual is the right-hand side. */
  private zeroSchur(s: number): boolean {
    let rn = 0;
    for (let q = 0; q < s; q++) rn = Math.max(rn, Math.abs(this.sRhs[q]));
    this.schurResidual = rn;
    return true;
  }

  /** True when dynamic body node d has no primary joint (no parent, no child). */
  private isolatedNode(d: number): boolean {
    const st = this.adjStart;
    return st[d + 1] === st[d];
  }

  /**
   * Forms the Schur complement directly when every body the secondary rows
   * touch is an isolated tree node (inverse block Z_b known): S_ij = Σ_b
   * J_i,b Z_b G_j,bᵀ over the bodies both rows act on, no tree solves.
   * Returns false (nothing written) otherwise.
   */
  private buildSchurByBodies(s: number): boolean {
    const nd = this.nd;
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q];
      const da = this.rowDA[r], db = this.rowDB[r];
      if ((da >= 0 && !this.isolatedNode(da)) || (db >= 0 && !this.isolatedNode(db))) return false;
    }
    // rows per body (CSR): entry = q·2 + side
    this.compHead = growI(this.compHead, nd + 1);
    const start = this.compHead;
    start.fill(0, 0, nd + 1);
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q];
      if (this.rowDA[r] >= 0) start[this.rowDA[r] + 1]++;
      if (this.rowDB[r] >= 0) start[this.rowDB[r] + 1]++;
    }
    for (let d = 0; d < nd; d++) start[d + 1] += start[d];
    this.fPerm = growI(this.fPerm, 2 * s + 1);
    this.compNext = growI(this.compNext, nd);
    const list = this.fPerm, fill = this.compNext;
    for (let d = 0; d < nd; d++) fill[d] = start[d];
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q];
      if (this.rowDA[r] >= 0) list[fill[this.rowDA[r]]++] = 2 * q;
      if (this.rowDB[r] >= 0) list[fill[this.rowDB[r]]++] = 2 * q + 1;
    }
    const S = this.S, Dinv = this.blkDinv;
    S.fill(0, 0, s * s);
    this.fY = growF(this.fY, 6 * (2 * s + 1));
    const Y = this.fY;
    for (let d = 0; d < nd; d++) {
      const a = start[d], e = start[d + 1];
      if (a === e) continue;
      const o = 36 * d;
      // Y_j = Z_d G_jᵀ for each row j on d
      for (let u = a; u < e; u++) {
        const q = list[u] >> 1, side = list[u] & 1, r = this.secRows[q], G = side ? this.rowGB : this.rowGA, go = 6 * r;
        for (let i = 0; i < 6; i++) {
          let sum = 0;
          for (let k = 0; k < 6; k++) sum += Dinv[o + i * 6 + k] * G[go + k];
          Y[6 * u + i] = sum;
        }
      }
      for (let u = a; u < e; u++) {
        const qi = list[u] >> 1, ri = this.secRows[qi], J = list[u] & 1 ? this.rowJB : this.rowJA, jo = 6 * ri;
        for (let v = a; v < e; v++) {
          const qj = list[v] >> 1;
          let sum = 0;
          for (let k = 0; k < 6; k++) sum += J[jo + k] * Y[6 * v + k];
          S[qi * s + qj] += sum;
        }
      }
    }
    return true;
  }

  /**
   * S = J_s K⁻¹ G_sᵀ over the secondary rows with K = L D Lᵀ the tree
   * factorisation: S_mq = (L⁻¹ J_mᵀ)ᵀ D⁻¹ (L⁻¹ G_qᵀ). L⁻¹ of a row that acts
   * on one or two bodies is nonzero only on the paths from their nodes to
   * the root, so each row costs O(depth) instead of a full tree solve, and an
   * entry is a dot product over the nodes of one path.
   */
  private buildSchurByPaths(s: number): void {
    const T = this.totalDim, N = this.nNodes, nj = this.nj;
    const par = this.nodeParent, off = this.nodeOff, dim = this.nodeDim, W = this.blkW, Dinv = this.blkDinv;
    // (sliding rows have G ≠ J; a body eliminated with sliding contacts has an unsymmetric block)
    let asym = false;
    for (let d = 0; d < this.nd && !asym; d++) if (this.conBody[d] && this.slIn[d]) asym = true;
    for (let q = 0; q < s && !asym; q++) {
      const k = this.rowOwner[this.secRows[q]];
      if (k >= nj && this.contactState[k - nj] === ContactState.Slide) asym = true;
    }
    this.pPos = growI(this.pPos, N);
    for (let t = 0; t < N; t++) this.pPos[this.post[t]] = t;
    const Y = (this.pY = growF(this.pY, s * T)), Z = (this.pZ = growF(this.pZ, s * T));
    const YJ = (this.pYJ = growF(this.pYJ, s * T));
    const path = (this.pPath = growI(this.pPath, s * N)), plen = (this.pLen = growI(this.pLen, s));
    this.pMark = growI(this.pMark, N);
    const mark = this.pMark;
    mark.fill(-1, 0, N);
    // rows of this build and their matches in the cache of the previous one
    const rowCur = (this.pcRowCur = growF(this.pcRowCur, 24 * s)), dCur = (this.pcDCur = growI(this.pcDCur, 2 * s));
    const hit = (this.pcHit = growI(this.pcHit, s));
    const cacheOk = this.reuseSchurRows && this.pcValid && this.pcT === T && this.pcN === N;
    const cs = cacheOk ? this.pcS : 0, cRow = this.pcRow, cD = this.pcD;
    const stats = this.schurCacheStats;
    stats.builds++;
    stats.rows += s;
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q], o = 6 * r, ro = 24 * q;
      for (let k = 0; k < 6; k++) {
        rowCur[ro + k] = this.rowGA[o + k];
        rowCur[ro + 6 + k] = this.rowGB[o + k];
        rowCur[ro + 12 + k] = this.rowJA[o + k];
        rowCur[ro + 18 + k] = this.rowJB[o + k];
      }
      const da = this.rowDA[r], db = this.rowDB[r];
      dCur[2 * q] = da;
      dCur[2 * q + 1] = db;
      hit[q] = -1;
      const c0 = q < cs ? q : 0; // the same position first
      for (let u = 0; u < cs; u++) {
        const c = c0 + u < cs ? c0 + u : c0 + u - cs;
        if (cD[2 * c] !== da || cD[2 * c + 1] !== db) continue;
        let same = true;
        for (let k = 0; k < 24 && same; k++) if (cRow[24 * c + k] !== rowCur[ro + k]) same = false;
        if (same) {
          hit[q] = c;
          break;
        }
      }
    }
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q], o = 6 * r, base = q * T, pb = q * N, c = hit[q];
      if (c >= 0) {
        // unchanged row, unchanged tree: its path and path vectors are the cached ones
        const cb = c * T;
        const n = (plen[q] = this.pcLen[c]);
        for (let t = 0; t < n; t++) {
          const i = (path[pb + t] = this.pcPath[c * N + t]), oi = off[i];
          for (let k = 0; k < dim[i]; k++) {
            Y[base + oi + k] = this.pcY[cb + oi + k];
            Z[base + oi + k] = this.pcZ[cb + oi + k];
            YJ[base + oi + k] = this.pcYJ[cb + oi + k];
          }
        }
        stats.rowsReused++;
        continue;
      }
      // the nodes on the paths from the row's bodies to the root, children first
      let n = 0;
      for (let side = 0; side < 2; side++) {
        for (let i = side === 0 ? this.rowDA[r] : this.rowDB[r]; i >= 0 && mark[i] !== q; i = par[i]) {
          mark[i] = q;
          // insertion by post-order position (paths are short)
          let k = n++;
          while (k > 0 && this.pPos[path[pb + k - 1]] > this.pPos[i]) {
            path[pb + k] = path[pb + k - 1];
            k--;
          }
          path[pb + k] = i;
        }
      }
      plen[q] = n;
      // (Y from G, YJ from J: the same numbers when the row's G = J)
      let jIsG = true;
      for (let k = 0; k < 12 && jIsG; k++) if (rowCur[24 * q + k] !== rowCur[24 * q + 12 + k]) jIsG = false;
      for (let v = 0; v < (jIsG ? 1 : 2); v++) {
        const y = v === 0 ? Y : YJ;
        for (let t = 0; t < n; t++) {
          const i = path[pb + t];
          y.fill(0, base + off[i], base + off[i] + dim[i]);
        }
        const GA = v === 0 ? this.rowGA : this.rowJA, GB = v === 0 ? this.rowGB : this.rowJB;
        const da = this.rowDA[r], db = this.rowDB[r];
        if (da >= 0) for (let k = 0; k < 6; k++) y[base + off[da] + k] += GA[o + k];
        if (db >= 0) for (let k = 0; k < 6; k++) y[base + off[db] + k] += GB[o + k];
        // forward substitution along the path: y_p −= W_iᵀ y_i
        for (let t = 0; t < n; t++) {
          const i = path[pb + t], p = par[i];
          if (p < 0) continue;
          const di = dim[i], dp = dim[p], oi = base + off[i], op = base + off[p], wo = 36 * i;
          for (let c = 0; c < dp; c++) {
            let sum = 0;
            for (let rr = 0; rr < di; rr++) sum += W[wo + rr * 6 + c] * y[oi + rr];
            y[op + c] -= sum;
          }
        }
      }
      if (jIsG)
        for (let t = 0; t < n; t++) {
          const oi = base + off[path[pb + t]];
          for (let k = 0; k < dim[path[pb + t]]; k++) YJ[oi + k] = Y[oi + k];
        }
      // Z = D⁻¹ Y on the path
      for (let t = 0; t < n; t++) {
        const i = path[pb + t], di = dim[i], oi = base + off[i], wo = 36 * i;
        for (let rr = 0; rr < di; rr++) {
          let sum = 0;
          for (let k = 0; k < di; k++) sum += Dinv[wo + rr * 6 + k] * Y[oi + k];
          Z[oi + rr] = sum;
        }
      }
    }
    // S_mq = Σ over the nodes on both paths of (L⁻¹ J_mᵀ)_i · (D⁻¹ L⁻¹ G_qᵀ)_i
    // (without sliding rows J = G and the upper triangle is mirrored; an entry computed
    // directly in the previous build is reused when both rows are unchanged and its
    // J side is the same: same symmetry, or the row's J = G)
    const L = asym ? YJ : Y;
    const S = this.S;
    const Sc = (this.pcSmCur = growF(this.pcSmCur, s * s)), dirCur = (this.pcDirCur = growU(this.pcDirCur, s * s));
    dirCur.fill(0, 0, s * s);
    const cSm = this.pcSm, cDir = this.pcDir;
    mark.fill(-1, 0, N);
    for (let m = 0; m < s; m++) {
      const pm = m * N, nm = plen[m], bm = m * T, cm = hit[m];
      let jOk = cm >= 0 && asym === this.pcAsym;
      if (cm >= 0 && !jOk) {
        jOk = true;
        for (let k = 0; k < 12 && jOk; k++) if (rowCur[24 * m + k] !== rowCur[24 * m + 12 + k]) jOk = false;
      }
      let marked = false;
      for (let q = asym ? 0 : m; q < s; q++) {
        const cq = hit[q];
        let sum: number;
        stats.entries++;
        if (jOk && cq >= 0 && cDir[cm * cs + cq]) {
          sum = cSm[cm * cs + cq];
          stats.entriesReused++;
        } else {
          if (!marked) {
            for (let t = 0; t < nm; t++) mark[path[pm + t]] = m;
            marked = true;
          }
          const pq = q * N, nq = plen[q], bq = q * T;
          sum = 0;
          for (let t = 0; t < nq; t++) {
            const i = path[pq + t];
            if (mark[i] !== m) continue;
            const oi = off[i];
            for (let k = 0; k < dim[i]; k++) sum += L[bm + oi + k] * Z[bq + oi + k];
          }
        }
        S[m * s + q] = sum;
        Sc[m * s + q] = sum;
        dirCur[m * s + q] = 1;
        if (!asym) {
          S[q * s + m] = sum;
          Sc[q * s + m] = sum;
        }
      }
    }
    // this build becomes the cache of the next (buffers swapped, nothing copied)
    let tf: Float64Array<ArrayBuffer>, ti: Int32Array<ArrayBuffer>, tu: Uint8Array<ArrayBuffer>;
    tf = this.pcY; this.pcY = this.pY; this.pY = tf;
    tf = this.pcZ; this.pcZ = this.pZ; this.pZ = tf;
    tf = this.pcYJ; this.pcYJ = this.pYJ; this.pYJ = tf;
    ti = this.pcPath; this.pcPath = this.pPath; this.pPath = ti;
    ti = this.pcLen; this.pcLen = this.pLen; this.pLen = ti;
    tf = this.pcRow; this.pcRow = this.pcRowCur; this.pcRowCur = tf;
    ti = this.pcD; this.pcD = this.pcDCur; this.pcDCur = ti;
    tf = this.pcSm; this.pcSm = this.pcSmCur; this.pcSmCur = tf;
    tu = this.pcDir; this.pcDir = this.pcDirCur; this.pcDirCur = tu;
    this.pcS = s;
    this.pcT = T;
    this.pcN = N;
    this.pcAsym = asym;
    this.pcValid = true;
  }

  /** Resets the contact-space cache A for the current tree factorization. */
  private csReset(): void {
    const nc = this.nc, N = this.nNodes, T = this.totalDim;
    let jointRows = 0;
    for (let j = 0; j < this.nj; j++) jointRows += this.cRows[j];
    this.csKeys = 3 * nc + jointRows;
    const cap = this.csKeys;
    this.csSlotOf = growI(this.csSlotOf, cap);
    this.csSlotOf.fill(-1, 0, cap);
    this.csN = 0;
    this.csCap = cap;
    this.csA = growF(this.csA, cap * cap);
    this.csD = growI(this.csD, 2 * cap);
    this.csJ = growF(this.csJ, 12 * cap);
    this.csY = growF(this.csY, cap * T);
    this.csZ = growF(this.csZ, cap * T);
    this.csPath = growI(this.csPath, cap * N);
    this.csLen = growI(this.csLen, cap);
    this.csMark = growI(this.csMark, N);
    this.csMark.fill(-1, 0, N);
    this.csPY = growF(this.csPY, cap * T);
    this.csPZ = growF(this.csPZ, cap * T);
    this.csPL = growI(this.csPL, cap);
    this.csRootDims = growI(this.csRootDims, N);
    this.pPos = growI(this.pPos, N);
    for (let t = 0; t < N; t++) this.pPos[this.post[t]] = t;
    // numbers on the path from each node to its root (parents come later in post-order)
    for (let t = N - 1; t >= 0; t--) {
      const i = this.post[t], p = this.nodeParent[i];
      this.csRootDims[i] = this.nodeDim[i] + (p < 0 ? 0 : this.csRootDims[p]);
    }
    this.csLca = growI(this.csLca, this.nd * this.nd);
    this.csLca.fill(-2, 0, this.nd * this.nd);
    this.csValid = true;
    this.pfCount = 0;
    this.pfNext = 0;
    this.csStamp = growI(this.csStamp, cap);
    this.csStamp.fill(0, 0, cap);
    this.csPass = 0;
    this.csPrevRows = 0;
  }

  /**
   * Slot of basis row `key` in A, materialized on first use: the row (contact c's direction
   * a = key mod 3 at its point, or joint row key − 3·nc), its path vectors y = L⁻¹ Bᵀ and
   * z = D⁻¹ y on the nodes from its bodies to the root, and its entries y_m·z over the common
   * nodes with every slot materialized before (A is symmetric).
   */
  private csSlot(key: number): number {
    const have = this.csSlotOf[key];
    if (have >= 0) return have;
    const q = this.csN++;
    this.csSlotOf[key] = q;
    this.contactSpaceStats.slots++;
    const nc = this.nc, nj = this.nj, T = this.totalDim, N = this.nNodes, cap = this.csCap;
    const par = this.nodeParent, off = this.nodeOff, dim = this.nodeDim, W = this.blkW, Dinv = this.blkDinv;
    const Jq = this.csJ, jo = 12 * q;
    let da: number, db: number;
    if (key < 3 * nc) {
      const c = (key / 3) | 0, a = key - 3 * c, k = nj + c, f = this.contactFrame, fo = 9 * c + 3 * a;
      const dx = f[fo], dy = f[fo + 1], dz = f[fo + 2];
      const P = this.contactPoint, px = P[3 * c], py = P[3 * c + 1], pz = P[3 * c + 2], com = this.com;
      const A = this.cA[k], B = this.cB[k];
      da = A >= 0 ? this.dyn[A] : -1;
      db = B >= 0 ? this.dyn[B] : -1;
      if (da >= 0) setRow(Jq, jo, dx, dy, dz, px - com[3 * A], py - com[3 * A + 1], pz - com[3 * A + 2], 1);
      if (db >= 0) setRow(Jq, jo + 6, dx, dy, dz, px - com[3 * B], py - com[3 * B + 1], pz - com[3 * B + 2], -1);
    } else {
      const r = key - 3 * nc, o = 6 * r;
      da = this.rowDA[r];
      db = this.rowDB[r];
      for (let k = 0; k < 6; k++) {
        Jq[jo + k] = this.rowJA[o + k];
        Jq[jo + 6 + k] = this.rowJB[o + k];
      }
    }
    this.csD[2 * q] = da;
    this.csD[2 * q + 1] = db;
    // the nodes on the paths from the row's bodies to the root, children first
    const path = this.csPath, pb = q * N, mark = this.csMark, pos = this.pPos;
    let n = 0;
    for (let side = 0; side < 2; side++) {
      for (let i = side === 0 ? da : db; i >= 0 && mark[i] !== q; i = par[i]) {
        mark[i] = q;
        let k = n++;
        while (k > 0 && pos[path[pb + k - 1]] > pos[i]) {
          path[pb + k] = path[pb + k - 1];
          k--;
        }
        path[pb + k] = i;
      }
    }
    this.csLen[q] = n;
    const Y = this.csY, Z = this.csZ, base = q * T;
    for (let t = 0; t < n; t++) {
      const i = path[pb + t];
      for (let k = 0; k < dim[i]; k++) Y[base + off[i] + k] = 0;
    }
    if (da >= 0) for (let k = 0; k < 6; k++) Y[base + off[da] + k] += Jq[jo + k];
    if (db >= 0) for (let k = 0; k < 6; k++) Y[base + off[db] + k] += Jq[jo + 6 + k];
    // forward substitution along the path (y_p −= W_iᵀ y_i), then z = D⁻¹ y
    for (let t = 0; t < n; t++) {
      const i = path[pb + t], p = par[i];
      if (p < 0) continue;
      const di = dim[i], dp = dim[p], oi = base + off[i], op = base + off[p], wo = 36 * i;
      for (let c = 0; c < dp; c++) {
        let sum = 0;
        for (let rr = 0; rr < di; rr++) sum += W[wo + rr * 6 + c] * Y[oi + rr];
        Y[op + c] -= sum;
      }
    }
    for (let t = 0; t < n; t++) {
      const i = path[pb + t], di = dim[i], oi = base + off[i], wo = 36 * i;
      for (let rr = 0; rr < di; rr++) {
        let sum = 0;
        for (let k = 0; k < di; k++) sum += Dinv[wo + rr * 6 + k] * Y[oi + k];
        Z[oi + rr] = sum;
      }
    }
    // a row on one dynamic body has a chain to the root as its path: packed in path order, the
    // nodes it shares with another chain are a suffix of both (from their lowest common node)
    const chain = da < 0 || db < 0;
    const PY = this.csPY, PZ = this.csPZ;
    let L = 0;
    if (chain) {
      for (let t = 0; t < n; t++) {
        const i = path[pb + t], oi = base + off[i];
        for (let k = 0; k < dim[i]; k++, L++) {
          PY[base + L] = Y[oi + k];
          PZ[base + L] = Z[oi + k];
        }
      }
    }
    this.csPL[q] = chain ? L : -1;
    // entries with every slot so far (q's path is marked with q)
    const A = this.csA, PL = this.csPL, rootDims = this.csRootDims, lca = this.csLca, nd = this.nd;
    const first = n > 0 ? path[pb] : -1;
    for (let m = 0; m <= q; m++) {
      const pm = m * N, nm = this.csLen[m], bm = m * T;
      let sum = 0;
      const Lm = PL[m];
      if (chain && Lm >= 0) {
        if (nm > 0 && n > 0) {
          // lowest common node: the first node of m's chain on q's (chains start at their body
          // node: kept per pair of bodies, as the numbers from it to the root)
          const lk = path[pm] * nd + first;
          let cs = lca[lk];
          if (cs === -2) {
            let t = 0;
            if (path[pm] !== first) while (t < nm && mark[path[pm + t]] !== q) t++;
            cs = lca[lk] = t < nm ? rootDims[path[pm + t]] : -1;
          }
          if (cs >= 0) {
            const om = bm + Lm - cs, oq = base + L - cs;
            for (let k = 0; k < cs; k++) sum += PY[om + k] * PZ[oq + k];
          }
        }
      } else {
        for (let t = 0; t < nm; t++) {
          const i = path[pm + t];
          if (mark[i] !== q) continue;
          const oi = off[i];
          for (let k = 0; k < dim[i]; k++) sum += Y[bm + oi + k] * Z[base + oi + k];
        }
      }
      A[m * cap + q] = sum;
      A[q * cap + m] = sum;
    }
    return q;
  }

  /**
   * One linear solve of a contact-state pass with no eliminated body, in contact space:
   * every secondary row (contact rows uncompressed, joints that close loops) is a basis row
   * of A or, for a sliding contact's impulse, a combination n + γ(σ₁ t₁ + σ₂ t₂) of its
   * contact's three; S is gathered from A and solved least-norm (the split the compressed
   * groups keep); then one tree solve gives the velocities and the tree joints' impulses.
   * Rows that contradict each other get the least-squares answer of least norm over them
   * (the compressed solve weighs a group's rows through its basis instead).
   */
  private solveContactSpace(vScale: number): void {
    const T = this.totalDim, nRows = this.nRows, nj = this.nj, nc = this.nc;
    if (!this.csValid) this.csReset();
    this.secRows = growI(this.secRows, nRows + 1);
    this.csRowJ = growI(this.csRowJ, nRows + 1);
    this.csRowG = growI(this.csRowG, 3 * nRows + 3);
    this.csRowC = growF(this.csRowC, 3 * nRows + 3);
    const sec = this.secRows, rj = this.csRowJ, rg = this.csRowG, rc = this.csRowC;
    let s = 0, asym = false;
    for (let r = 0; r < nRows; r++) {
      const k = this.rowOwner[r];
      if (k < nj && this.cPrimary[k]) continue;
      if (this.rowDA[r] < 0 && this.rowDB[r] < 0) {
        this.rowLambda[r] = 0;
        continue;
      }
      const g3 = 3 * s;
      rg[g3 + 1] = -1;
      rg[g3 + 2] = -1;
      if (k < nj) {
        rj[s] = rg[g3] = this.csSlot(3 * nc + r);
        rc[g3] = 1;
      } else {
        const c = k - nj, k3 = 3 * c;
        if (this.contactState[c] === ContactState.Slide) {
          asym = true;
          const f = this.contactFrame, o = 9 * c, S = this.contactSlide, g = this.contactGamma[c];
          const sx = S[k3], sy = S[k3 + 1], sz = S[k3 + 2];
          rj[s] = rg[g3] = this.csSlot(k3);
          rc[g3] = 1;
          rg[g3 + 1] = this.csSlot(k3 + 1);
          rc[g3 + 1] = g * (sx * f[o + 3] + sy * f[o + 4] + sz * f[o + 5]);
          rg[g3 + 2] = this.csSlot(k3 + 2);
          rc[g3 + 2] = g * (sx * f[o + 6] + sy * f[o + 7] + sz * f[o + 8]);
        } else {
          rj[s] = rg[g3] = this.csSlot(k3 + (r - this.cRow0[k]));
          rc[g3] = 1;
        }
      }
      sec[s++] = r;
    }
    const x0 = this.x0;
    let residual = 0;
    // (x0 also gives the normal velocities of separated contacts: `csNormalVelocity`)
    if (this.x0Valid) x0.set(this.x0c.subarray(0, T));
    else {
      this.fillBaseRhs(x0);
      this.treeSolve(x0);
      this.x0c = growF(this.x0c, T);
      this.x0c.set(x0.subarray(0, T));
      this.x0Valid = true;
    }
    if (s > 0) {
      this.sRhs = growF(this.sRhs, s);
      this.sMu = growF(this.sMu, s);
      for (let m = 0; m < s; m++) this.sRhs[m] = this.rowC[sec[m]] - this.rowDot(x0, sec[m]);
      // (a pass whose rows an earlier pass of this factorization had: its factors, and with the
      // same right-hand side its answer, are taken from the cache — bit for bit what solving gives)
      const hit = this.reusePassFactors ? this.pfFind(s, asym) : -1;
      this.passEntry = hit;
      if (hit >= 0) residual = this.pfSolve(hit);
      else {
        const e = this.reusePassFactors ? this.pfStore(s, asym) : -1;
        this.passEntry = e;
        const pf = e >= 0 ? this.pfEntries[e] : null;
        const S = pf ? pf.S : (this.S = growF(this.S, s * s));
        const A = this.csA, cap = this.csCap;
        for (let m = 0; m < s; m++) {
          const am = rj[m] * cap, sm = m * s;
          for (let q = asym ? 0 : m; q < s; q++) {
            const g3 = 3 * q;
            let v = A[am + rg[g3]];
            if (rg[g3 + 1] >= 0) v += rc[g3 + 1] * A[am + rg[g3 + 1]] + rc[g3 + 2] * A[am + rg[g3 + 2]];
            S[sm + q] = v;
            if (!asym) S[q * s + m] = v;
          }
        }
        if (pf) {
          pf.rank = asym ? factorDenseRobust(S, s, pf.work, pf.piv, true) : factorSymmetricRobust(S, s, pf.work, pf.piv, true);
          residual = this.pfSolve(e);
        } else {
          this.sWork = growF(this.sWork, 3 * s * s + 4 * s);
          this.sPiv = growI(this.sPiv, 2 * s);
          residual = asym ? solveDenseRobust(S, s, this.sRhs, this.sMu, this.sWork, this.sPiv, true, true) : solveSymmetricRobust(S, s, this.sRhs, this.sMu, this.sWork, this.sPiv, true, true);
        }
      }
    }
    // (statistics: rows whose J basis row the previous pass of this factorization did not have)
    const st = this.contactSpaceStats, pass = ++this.csPass, stamp = this.csStamp;
    let kept = 0;
    for (let q = 0; q < s; q++) {
      if (stamp[rj[q]] === pass - 1) kept++;
      stamp[rj[q]] = pass;
    }
    st.passes++;
    st.rows += s;
    st.rowsCubed += s * s * s;
    if (pass === 1) {
      st.firstPasses++;
      st.rowsCubedFirst += s * s * s;
    } else {
      st.rowsAdded += s - kept;
      st.rowsRemoved += this.csPrevRows - kept;
    }
    this.csPrevRows = s;
    if (residual > 1e-9 * vScale) this.contactSpaceStats.leastSquares++;
    this.schurResidual = residual;
    for (let q = 0; q < s; q++) this.rowLambda[sec[q]] = this.sMu[q];
    // (the velocities and the tree joints' impulses are formed when read: `ensureX`)
    this.csPassRows = s;
    this.xStale = true;
  }

  /** Cache entry of this pass's rows (csRowJ/G/C) and kind, or -1. */
  private pfFind(s: number, asym: boolean): number {
    const rj = this.csRowJ, rg = this.csRowG, rc = this.csRowC;
    this.passCacheStats.lookups++;
    next: for (let e = 0; e < this.pfCount; e++) {
      const pf = this.pfEntries[e];
      if (pf.s !== s || pf.asym !== asym) continue;
      for (let q = 0; q < s; q++) {
        const g3 = 3 * q;
        if (pf.rj[q] !== rj[q] || pf.rg[g3] !== rg[g3] || pf.rg[g3 + 1] !== rg[g3 + 1] || pf.rg[g3 + 2] !== rg[g3 + 2]) continue next;
        if (rg[g3 + 1] >= 0 && !(sameBits(pf.rc[g3 + 1], rc[g3 + 1]) && sameBits(pf.rc[g3 + 2], rc[g3 + 2]))) continue next;
      }
      this.passCacheStats.factorsReused++;
      return e;
    }
    return -1;
  }

  /** A cache entry (the oldest when full) holding this pass's rows; its S and factors are the caller's to fill. */
  private pfStore(s: number, asym: boolean): number {
    let e: number;
    if (this.pfCount < PASS_CACHE_SIZE) {
      e = this.pfCount++;
      if (e === this.pfEntries.length) this.pfEntries.push(newPassFactors());
    } else {
      e = this.pfNext;
      this.pfNext = (this.pfNext + 1) % PASS_CACHE_SIZE;
    }
    const pf = this.pfEntries[e], rj = this.csRowJ, rg = this.csRowG, rc = this.csRowC;
    pf.s = s;
    pf.asym = asym;
    pf.rj = growI(pf.rj, s);
    pf.rg = growI(pf.rg, 3 * s);
    pf.rc = growF(pf.rc, 3 * s);
    pf.S = growF(pf.S, s * s);
    pf.work = growF(pf.work, 3 * s * s + 4 * s);
    pf.piv = growI(pf.piv, 2 * s);
    pf.rhs = growF(pf.rhs, s);
    pf.mu = growF(pf.mu, s);
    pf.solved = false;
    for (let q = 0; q < s; q++) {
      const g3 = 3 * q;
      pf.rj[q] = rj[q];
      pf.rg[g3] = rg[g3];
      pf.rg[g3 + 1] = rg[g3 + 1];
      pf.rg[g3 + 2] = rg[g3 + 2];
      pf.rc[g3 + 1] = rc[g3 + 1];
      pf.rc[g3 + 2] = rc[g3 + 2];
    }
    return e;
  }

  /** sMu from cache entry e's factors for the right-hand side sRhs (the kept answer when it is the same); returns the residual. */
  private pfSolve(e: number): number {
    const pf = this.pfEntries[e], s = pf.s, b = this.sRhs, mu = this.sMu;
    if (pf.solved) {
      let same = true;
      for (let q = 0; q < s && same; q++) same = sameBits(pf.rhs[q], b[q]);
      if (same) {
        this.passCacheStats.solvesReused++;
        for (let q = 0; q < s; q++) mu[q] = pf.mu[q];
        return pf.residual;
      }
    }
    const residual = pf.asym ? refineDenseRobust(pf.S, s, b, mu, pf.work, pf.piv, pf.rank, true, true) : refineSymmetricRobust(pf.S, s, b, mu, pf.work, pf.piv, pf.rank, true, true);
    for (let q = 0; q < s; q++) {
      pf.rhs[q] = b[q];
      pf.mu[q] = mu[q];
    }
    pf.residual = residual;
    pf.solved = true;
    return residual;
  }

  /** After a contact-space pass: x = K⁻¹ (base + Σ G_qᵀ μ_q), one tree solve, and the tree joints' impulses. */
  private ensureX(): void {
    if (!this.xStale) return;
    this.xStale = false;
    const x = this.x, sec = this.secRows;
    this.fillBaseRhs(x);
    for (let q = 0; q < this.csPassRows; q++) this.addImpulse(x, sec[q], this.sMu[q]);
    this.treeSolve(x);
    // primary joint impulses: λ = −λ' (KKT sign convention)
    for (let i = this.nd; i < this.nNodes; i++) {
      const j = this.nodeRef[i], r0 = this.cRow0[j], o = this.nodeOff[i];
      for (let k = 0; k < this.nodeDim[i]; k++) this.rowLambda[r0 + k] = -x[o + k];
    }
  }

  /** Dynamic sides' part of contact c's normal velocity after a contact-space pass, from A. */
  private csNormalVelocity(c: number): number {
    const q = this.csSlot(3 * c), cap = this.csCap, A = this.csA, x0 = this.x0, J = this.csJ, jo = 12 * q;
    let s = 0;
    const da = this.csD[2 * q], db = this.csD[2 * q + 1];
    if (da >= 0) for (let k = 0, o = this.nodeOff[da]; k < 6; k++) s += J[jo + k] * x0[o + k];
    if (db >= 0) for (let k = 0, o = this.nodeOff[db]; k < 6; k++) s += J[jo + 6 + k] * x0[o + k];
    const rg = this.csRowG, rc = this.csRowC, aq = q * cap;
    for (let m = 0; m < this.csPassRows; m++) {
      const g3 = 3 * m;
      let v = A[aq + rg[g3]];
      if (rg[g3 + 1] >= 0) v += rc[g3 + 1] * A[aq + rg[g3 + 1]] + rc[g3 + 2] * A[aq + rg[g3 + 2]];
      s += v * this.sMu[m];
    }
    return s;
  }

  private solveSparse(): void {
    this.xStale = false;
    // (the compressed groups need their decompositions)
    this.decomposePending();
    const T = this.totalDim, nRows = this.nRows, nd = this.nd, nj = this.nj;
    // secondary rows: non-primary joints and all contact rows with at least one dynamic side,
    // except the rows of eliminated groups; dependent groups compressed
    this.secRows = growI(this.secRows, 2 * nRows + 1);
    let s = 0;
    for (let r = 0; r < nRows; r++) {
      const k = this.rowOwner[r];
      if (k < nj && this.cPrimary[k]) continue;
      const da = this.rowDA[r], db = this.rowDB[r];
      if (da < 0 && db < 0) {
        this.rowLambda[r] = 0;
        continue;
      }
      if (k >= nj && (da < 0) !== (db < 0)) {
        const st = this.contactState[k - nj];
        if (st === ContactState.Stick || st === ContactState.Frictionless) continue; // grouped
        if (st === ContactState.Slide && this.conBody[da >= 0 ? da : db] && this.slIn[da >= 0 ? da : db]) continue; // eliminated with its body
      }
      this.secRows[s++] = r;
    }
    let nv = nRows;
    for (let d = 0; d < nd; d++) {
      if (this.grpHead[d] < 0 || this.conBody[d]) continue;
      if (this.grpCount[d] > 1) nv = this.compressGroup(d, nv);
      if (this.grpV0[d] >= 0) for (let q = 0; q < this.grpRank[d]; q++) this.secRows[s++] = this.grpV0[d] + q;
      else for (let r = this.grpHead[d]; r >= 0; r = this.grpNext[r]) this.secRows[s++] = r;
    }
    const x = this.x, x0 = this.x0;
    if (s > 0) {
      // (the free solve M⁻¹-through-the-tree of the base right-hand side is the same in every
      // pass while the tree factorization stands: kept, as the path vectors are)
      if (this.x0Valid) x0.set(this.x0c.subarray(0, T));
      else {
        this.fillBaseRhs(x0);
        this.treeSolve(x0);
        this.x0c = growF(this.x0c, T);
        this.x0c.set(x0.subarray(0, T));
        this.x0Valid = true;
      }
      this.addEliminatedOffsets(x0);
      this.sRhs = growF(this.sRhs, s);
      this.sMu = growF(this.sMu, s);
      for (let m = 0; m < s; m++) {
        const r = this.secRows[m];
        this.sRhs[m] = this.rowC[r] - this.rowDot(x0, r);
      }
    }
    if (s > 0 && !this.solveLowRankSchur(s)) {
      this.S = growF(this.S, s * s);
      this.sWork = growF(this.sWork, 3 * s * s + 4 * s);
      this.sPiv = growI(this.sPiv, 2 * s);
      const S = this.S;
      if (s < 8 || !this.buildSchurByBodies(s)) this.buildSchurByPaths(s);
      // symmetric when every impulse acts along its condition direction (no sliding contact)
      let symmetric = true;
      for (let d = 0; d < nd; d++) if (this.conBody[d] && this.slIn[d]) symmetric = false;
      for (let q = 0; q < s && symmetric; q++) {
        const k = this.rowOwner[this.secRows[q]];
        if (k >= nj && this.contactState[k - nj] === ContactState.Slide) symmetric = false;
      }
      this.schurResidual = symmetric ? solveSymmetricRobust(S, s, this.sRhs, this.sMu, this.sWork, this.sPiv) : solveDenseRobust(S, s, this.sRhs, this.sMu, this.sWork, this.sPiv);
    }
    this.fillBaseRhs(x);
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q];
      this.rowLambda[r] = this.sMu[q];
      this.addImpulse(x, r, this.sMu[q]);
    }
    for (let d = 0; d < nd; d++) if (this.conBody[d]) for (let k = 0; k < 6; k++) this.conF[6 * d + k] = x[this.nodeOff[d] + k];
    this.treeSolve(x);
    this.addEliminatedOffsets(x);
    this.expandGroups();
    this.eliminatedLambdas(x);
    // primary joint impulses: λ = −λ' (KKT sign convention)
    for (let i = this.nd; i < this.nNodes; i++) {
      const j = this.nodeRef[i], r0 = this.cRow0[j], o = this.nodeOff[i];
      for (let k = 0; k < this.nodeDim[i]; k++) this.rowLambda[r0 + k] = -x[o + k];
    }
  }

  // ---------------------------------------------------------------- dense reference

  /**
   * The whole system at once, as the paper writes it: unknowns u (6 per
   * dynamic body) and λ (one per row); Gaussian elimination with partial
   * pivoting. O((6n + rows)³): a reference, not for production.
   */
  private solveDense(): void {
    this.xStale = false;
    const nd = this.nd, nRows = this.nRows, n6 = 6 * nd, N = n6 + nRows;
    const A = new Float64Array(N * N), b = new Float64Array(N), piv = new Int32Array(N);
    for (let i = 0; i < nd; i++) {
      const bi = this.dynBody[i], m = this.mass[bi], I = this.inertia, o = 6 * i;
      for (let k = 0; k < 3; k++) A[(o + k) * N + o + k] = m;
      for (let rr = 0; rr < 3; rr++) for (let c = 0; c < 3; c++) A[(o + 3 + rr) * N + o + 3 + c] = I[9 * bi + c * 3 + rr];
      const v = this.vel, vo = 6 * bi;
      b[o] = m * v[vo];
      b[o + 1] = m * v[vo + 1];
      b[o + 2] = m * v[vo + 2];
      for (let rr = 0; rr < 3; rr++) b[o + 3 + rr] = I[9 * bi + rr] * v[vo + 3] + I[9 * bi + 3 + rr] * v[vo + 4] + I[9 * bi + 6 + rr] * v[vo + 5];
    }
    for (let r = 0; r < nRows; r++) {
      const col = n6 + r, row = n6 + r, o = 6 * r;
      const da = this.rowDA[r], db = this.rowDB[r];
      if (da < 0 && db < 0) {
        A[row * N + col] = 1; // λ = 0
        continue;
      }
      if (da >= 0)
        for (let k = 0; k < 6; k++) {
          A[(6 * da + k) * N + col] -= this.rowGA[o + k];
          A[row * N + 6 * da + k] += this.rowJA[o + k];
        }
      if (db >= 0)
        for (let k = 0; k < 6; k++) {
          A[(6 * db + k) * N + col] -= this.rowGB[o + k];
          A[row * N + 6 * db + k] += this.rowJB[o + k];
        }
      b[row] = this.rowC[r];
    }
    luFactor(A, N, piv, 1e-13);
    luSolve(A, N, piv, b);
    // store velocities in the node layout used by writeResult (body nodes first, offsets 6·i)
    for (let i = 0; i < nd; i++) {
      const o = this.nodeOff[i];
      for (let k = 0; k < 6; k++) this.x[o + k] = b[6 * i + k];
    }
    for (let r = 0; r < nRows; r++) this.rowLambda[r] = b[n6 + r];
  }
}

const sharedSolver = new ImpulseSolver();

/**
 * Post-impact velocities of every body and every impulse (contacts and
 * joints) for simultaneous contacts among rigid and articulated bodies.
 * See `ImpulseSolver` to reuse buffers across calls.
 */
export function solveImpulses(
  bodies: readonly RigidBodyInput[],
  joints: readonly JointInput[],
  contacts: readonly ContactInput[],
  options?: SolveOptions,
  out?: ImpulseSolution,
): ImpulseSolution {
  return sharedSolver.solve(bodies, joints, contacts, options, out);
}
