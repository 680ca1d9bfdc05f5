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
 * Layers: each file below holds one abstract class extending the one before it (so the methods
 * read and write the shared state as `this.` fields), bottom to top:
 *   flat.ts, solution.ts  buffer helpers; `ImpulseSolution` (the result)
 *   state.ts            `SolverState`: every buffer, the public options and statistics
 *   inputs.ts           `SolverInputs`: bodies, joints, contacts in; the solution and energies out
 *   tree.ts             `ArticulatedTree`: spanning forest, constraint rows, block-tree LDLᵀ (sparse solve)
 *   groups.ts           `ContactGroups`: redundant contacts compressed or eliminated with their body
 *   schur.ts            `SchurComplement`: the secondary rows' Schur complement (by bodies, by paths, low-rank)
 *   contactspace.ts     `ContactSpace`: the contact-space matrix A and the pass cache
 *   onebody.ts          `OneBodyPass`: the pass of an island of one dynamic body and no joints (M⁻¹ and its rows)
 *   contactstates.ts    `ContactStates`: the contact-state loop and its linear solves (sparse, dense)
 *   coulomb.ts          `CoulombProblem`: Coulomb's complementarity problem (Tresca descent, Newton)
 *   friction.ts         `FrictionLaw`: Coulomb's law at sliding contacts
 *   restitution.ts      `Restitution`: the paper's compression and restitution phases
 *   solver.ts           `ImpulseSolver`: `solve` (energy guard on friction), warm start, one solve
 */
import { ContactState, ResponseInputError } from './types';
import type { ContactInput, JointInput, RigidBodyInput, SolveOptions } from './types';
import { growU } from './flat';
import { ImpulseSolution, copySolution } from './solution';
import { Restitution } from './restitution';

export { ImpulseSolution } from './solution';

/**
 * Reusable solver: keeps its buffers between calls, so repeated solves of
 * similar size do not allocate (except the result on first use and the dense
 * reference path).
 *
 * Buffers, options and statistics: `SolverState` (state.ts); the algorithm: the layers listed at the top of this file.
 */
export class ImpulseSolver extends Restitution {
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
