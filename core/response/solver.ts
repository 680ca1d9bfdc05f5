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
 * Unilateral contacts: pulling frictionless contacts leave all at once and a
 * separated contact that would approach comes back (complementarity), with a
 * cap against cycling.
 *
 * Layers: each file below holds one abstract class extending the one before it (so the methods
 * read and write the shared state as `this.` fields), bottom to top:
 *   flat.ts, solution.ts  buffer helpers; `ImpulseSolution` (the result)
 *   state.ts            `SolverState`: every buffer, the public options and statistics
 *   inputs.ts           `SolverInputs`: bodies, joints, contacts in; the solution and energies out
 *   tree.ts             `ArticulatedTree`: spanning forest, constraint rows, block-tree LDLᵀ (sparse solve)
 *   groups.ts           `ContactGroups`: redundant contacts compressed or eliminated with their body
 *   schur.ts            `SchurComplement`: the secondary rows' Schur complement (by bodies, by paths, low-rank)
 *   contactspace.ts     `ContactSpace`: the contact-space matrix A and the pass cache
 *   solver.ts           `ImpulseSolver`: `solve` (energy guard on friction), warm start, one solve
 */
import { luFactor, luSolve, refineDenseRobust, refineSymmetricRobust, solveDenseRobust, solveSymmetricRobust } from './linalg';
import { ContactState, ResponseInputError } from './types';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './types';
import { hypot2, hypot3 } from '../math/libm';
import { growF, growI, growU } from './flat';
import { ImpulseSolution, copySolution } from './solution';
import { ContactSpace } from './contactspace';

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

/**
 * Reusable solver: keeps its buffers between calls, so repeated solves of
 * similar size do not allocate (except the result on first use and the dense
 * reference path).
 *
 * Buffers, options and statistics: `SolverState` (state.ts); the algorithm: the layers listed at the top of this file.
 */
export class ImpulseSolver extends ContactSpace {
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
