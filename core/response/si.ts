/**
 * Resting contact for articulated islands by sequential impulses (`SequentialImpulseSolver`):
 * projected Gauss–Seidel in body space over the joint rows and the contact rows together, with
 * accumulated impulses and a warm start (Catto, "Iterative Dynamics with Temporal Coherence",
 * GDC 2005; "Fast and Simple Physics using Sequential Impulses", GDC 2006; Box2D's contact solver).
 *
 * The exact solver (`ImpulseSolver`) and the contact-space PGS (`RestingContactSolver`, pgs.ts) both
 * eliminate the joints exactly and work on a dense contact matrix; here nothing is factorized. Per
 * call:
 *
 * 1. Per body: inverse mass, world inverse inertia, velocities (keyframed bodies and the world:
 *    inverse mass 0, velocities fixed).
 * 2. Per ball joint: arms r_A, r_B and the inverse of its 3×3 effective mass
 *    K = (m_A⁻¹ + m_B⁻¹) I − [r_A]× I_A⁻¹ [r_A]× − [r_B]× I_B⁻¹ [r_B]×.
 *    Per contact: frame (n, t₁, t₂), normal effective mass 1 / nᵀKn and the tangential 2×2 block K_tt.
 * 3. Warm start: the given impulses (the previous sub-step's, matched by the caller) are applied to the
 *    body velocities (contacts projected onto their cone first).
 * 4. Sweeps, each over every joint, then every contact:
 *    - joint: the 3×3 block solved exactly, P += −K⁻¹ v_rel (the joint's relative velocity becomes 0);
 *    - contact normal: λₙ ← max(0, λₙ − vₙ / Kₙₙ);
 *    - contact tangent pair: the minimizer of the pair's kinetic energy over the disc |λₜ| ≤ γ λₙ (the
 *      exact block projection in K_tt's metric, by a secular equation when the unconstrained
 *      λₜ − K_tt⁻¹ vₜ lies outside): the slip after the step is then opposite the friction impulse
 *      (maximal dissipation), unlike a radial projection. γ = ∞: no projection; γ = 0: no rows.
 *    Every step lowers the kinetic energy (each minimizes it along its own rows, from a feasible
 *    start), impulses act in equal and opposite pairs (momentum changes only by the world and
 *    keyframed bodies), λₙ ≥ 0 and the friction is inside the cone after every step.
 *    Sweeps alternate their direction (symmetric Gauss–Seidel). They stop when no row's relative
 *    velocity changed by more than `tolerance` × the velocity scale (largest row velocity before the
 *    solve) in a sweep, or after `maxSweeps`.
 *
 * 5. Energy guard (`energyGuard`): a warm-started answer whose kinetic energy grew by more than the
 *    keyframed points' work is solved again from zero impulses, where every step keeps that law.
 * 6. Restitution (`restitution`, default off: ε ignored): Poisson's phases, ε·λ of the compression
 *    solve applied and the sweeps run again from there, scaled down while the energy would grow.
 *
 * Joints exact per sweep (`treeJoints`, the default since the thirteenth round, with `limitBlocks`, local
 * limit blocks, `maxSweeps` 12, `slowMaxSweeps` 64): the ball joints of a spanning forest (all of a
 * ragdoll's) are not swept; once per call the block-tree LDLᵀ of [M Jᵀ; J 0] (Baraff 1996, bodies 6×6
 * and joints 3×3 as nodes, children first, no fill-in) is factored, and every sweep ends with one tree
 * solve that projects the velocities onto those joints (the kinetic energy's minimum over their
 * impulses), so the answer's joints hold to round-off. Joint limits (frictionless contacts between two
 * bodies joined by a ball joint, `limitBlocks`) are stepped with their joint as a local 4-row block, or
 * (`artLimits`) in the joint-eliminated space: a unit normal impulse's response of every body and joint
 * (one tree solve, on the limit's first non-trivial step), λₙ ← max(0, λₙ − vₙ/K_art); `artContacts` does
 * the same for the normal rows of contacts against the ground or keyframed bodies. With the forest the
 * sweeps run forward only. Other contacts and joints closing loops: as in 4.
 * Calls whose velocity scale is below `slowScale` (an island nearly at rest) get `slowMaxSweeps`.
 *
 * Per-row arithmetic (`gsLoop`: `jointPass`, `contactPass`): the arrays in locals; per joint I⁻¹[r]× of both
 * sides; per contact whose B side does not move (the world, a keyframed body) B's row velocities, once per
 * call; per contact with friction K_tt⁻¹ and K_tt's eigen-decomposition once per call, the disc's Newton
 * started at the contact's last κ. With treeJoints the factorization (and the joint limits' responses) of a
 * call with the same masses, inertias and arms as the last (an active-set re-solve) are kept.
 *
 * Without treeJoints the joints hold to the sweeps' residual (`stats.jointResidual`); the simulator
 * corrects the drift at the position level (`correctJoints`) as it does for the analytic solver's
 * answers. The simulator uses it for resting contact (sub-step solves, ε = 0) of islands with joints;
 * impacts go to the analytic solver. Ball joints only (the ragdoll's joints); other kinds throw
 * `ResponseInputError`. Measurements: README.md, "Sequential impulses".
 */
import { ContactState, ResponseInputError } from './types';
import type { ContactInput, JointInput, RigidBodyInput } from './types';
import { F64, growF, growI, growU as growU8, sameBits, tangentBasis } from './flat';
import { ImpulseSolution } from './solution';

/** Options of `SequentialImpulseSolver.solve`. */
export interface SequentialSolveOptions {
  /** Per contact 3 numbers (world frame, on body A) to start from; NaN or missing: zero. Projected onto the cone. */
  warmImpulses?: ArrayLike<number>;
  /** Per joint 3 numbers (world frame, on body A) to start from; NaN or missing: zero. */
  warmJointImpulses?: ArrayLike<number>;
}

/** Statistics of the last call and totals. */
export interface SequentialStats {
  /** Sweeps of the last call. */
  sweeps: number;
  /** Largest change of a row's relative velocity in the last sweep, m/s. */
  lastChange: number;
  /** Velocity scale of the last call (largest |row velocity| before the solve), m/s. */
  velocityScale: number;
  /** Whether the last call stopped at the tolerance (false: at maxSweeps). */
  converged: boolean;
  /** Whether the last call's warm-started answer gained energy and was solved again from zero impulses (`energyGuard`). */
  coldRestart: boolean;
  /** Largest joint relative velocity after the last call, m/s (0 for exact joints). */
  jointResidual: number;
  /** Largest normal approach (−vₙ⁺, ≥ 0) of a contact after the last call, m/s. */
  approach: number;
  calls: number;
  totalSweeps: number;
  notConverged: number;
  coldRestarts: number;
}

export class SequentialImpulseSolver {
  /** Sweeps stop when no row's relative velocity changed by more than tolerance × velocity scale. */
  tolerance = 1e-4;
  /**
   * Largest number of sweeps (each of Poisson's phases has as many again). 12 with the forest (the default,
   * README "thirteenth round"); Gauss–Seidel joints (treeJoints false) were run at 32.
   */
  maxSweeps = 12;
  /** Velocity scale below which a call counts as at rest (m/s): the scale is at least this. */
  minVelocityScale = 1e-9;
  /** Alternate the sweep direction (symmetric Gauss–Seidel); only without treeJoints (with it the sweeps run forward: measured better). */
  symmetric = true;
  /**
   * A warm-started answer whose dynamic bodies' kinetic energy grew by more than the work of the
   * keyframed bodies' points (round-off aside) is solved again from zero impulses, where every step
   * keeps that law (`stats.coldRestart`).
   */
  energyGuard = true;
  /**
   * Restitution (default false: every contact ε = 0, as the simulator's resting solves): Poisson's
   * phases after the compression solve (`poisson`), for contacts with ε > 0.
   */
  restitution = false;
  /**
   * Calls whose velocity scale is below `slowScale` (m/s: an island nearly at rest, where what the sweeps
   * leave shows as creep that keeps it from sleeping) get up to `slowMaxSweeps` sweeps instead of maxSweeps.
   */
  slowScale = 0.05;
  /**
   * 64 (default; with the forest at maxSweeps 12 the sleeping-off repro dropped at 0.5 s turned a forearm at
   * 0.10 rad/s at 32, 1.1e-3 at 48, 2.0e-4 at 64: README, thirteenth round); 0: no effect.
   */
  slowMaxSweeps = 64;
  /** Largest number of sweeps of each of Poisson's restitution phases (at most maxSweeps). */
  poissonMaxSweeps = Infinity;
  /**
   * Joints exact in every sweep (default true since the thirteenth round, README: with limitBlocks, local
   * limit blocks and 12 sweeps, answers as good as Gauss–Seidel's at 32 sweeps and 0.87× the bench's
   * suggestion CPU): the ball joints of a spanning forest (all of a ragdoll's)
   * are projected onto their constraints at the end of every sweep by one block-tree LDLᵀ solve of
   * [M Jᵀ; J 0] (Baraff 1996), factored once per call; the contacts (and the joints closing loops) by
   * Gauss–Seidel as above. false: every joint by its own 3×3 block in the sweep (then maxSweeps 32,
   * slowMaxSweeps 0, limitBlocks false were the measured settings).
   */
  treeJoints = true;
  /**
   * A frictionless contact between two dynamic bodies joined by a ball joint (a joint limit) is stepped
   * together with that joint: the 4 rows' kinetic energy minimized over λₙ ≥ 0 and the
   * joint's impulse (the Schur complement of the joint's 3×3 block), instead of the contact row alone,
   * which the joint undoes. Default true (with treeJoints).
   */
  limitBlocks = true;
  /**
   * With treeJoints and limitBlocks: the joint limits stepped in the joint-eliminated space (true) or as local
   * 4-row blocks with their joint (false, default: cheaper per call and per sweep, README eleventh round).
   */
  artLimits = false;
  /**
   * With treeJoints: the normal rows of contacts between a forest body and something that does not move (the
   * ground, a keyframed body) stepped in the joint-eliminated space (the articulated effective mass: the
   * whole tree responds), their friction pair as before.
   */
  artContacts = false;
  readonly stats: SequentialStats = { sweeps: 0, lastChange: 0, velocityScale: 0, converged: true, coldRestart: false, jointResidual: 0, approach: 0, calls: 0, totalSweeps: 0, notConverged: 0, coldRestarts: 0 };

  // bodies: nb + 1 (the last is the world); per body inverse mass, inverse inertia (9), velocity (6)
  private bm = F64(0);
  private bI = F64(0);
  private bV = F64(0);
  // joints: bodies, arms (6), inverse effective mass (9), accumulated impulse (3)
  private ja = new Int32Array(0);
  private jb = new Int32Array(0);
  private jr = F64(0);
  private jK = F64(0);
  private jP = F64(0);
  private jM = F64(0); // per joint: I_A⁻¹[r_A]× and I_B⁻¹[r_B]× (9 each, column-major)
  // contacts: bodies, arms (6), frame (9), normal mass, K_tt (3), γ, accumulated (n, t1, t2)
  private ca = new Int32Array(0);
  private cb = new Int32Array(0);
  private cr = F64(0);
  private cf = F64(0);
  private cmn = F64(0);
  private cK = F64(0);
  private cg = F64(0);
  private cL = F64(0);
  private cAct = new Uint8Array(0); // 1: has a dynamic side
  private cArt = new Uint8Array(0); // per contact: 1 when stepped in the joint-eliminated space (artStep)
  private cJt = new Int32Array(0); // per contact: the joint between its two bodies (limitBlocks), else −1
  private cKj = F64(0); // per such contact: change of the joint's relative velocity per unit normal impulse (3)
  private cEff = F64(0); // per such contact: 1 / (Kₙₙ − k_njᵀ K_j⁻¹ k_nj), 0 when the joint takes the whole row
  private cJ = F64(0); // per contact, per row (n, t1, t2): r_A × d, r_B × d, I_A⁻¹(r_A × d), I_B⁻¹(r_B × d) (36 numbers)
  private readonly k9 = F64(9);

  solve(
    bodies: readonly RigidBodyInput[],
    joints: readonly JointInput[],
    contacts: readonly ContactInput[],
    options: SequentialSolveOptions = NO_OPTIONS,
    out: ImpulseSolution = new ImpulseSolution(),
  ): ImpulseSolution {
    const nb = bodies.length, nj = joints.length, nc = contacts.length;
    const st = this.stats;
    st.calls++;
    // the last call's counts, for the reuse of its setup (kept 0 if this setup throws)
    const lastNb = this.lastNb, lastNj = this.lastNj, lastNc = this.lastNc;
    this.lastNb = this.lastNj = this.lastNc = 0;
    const e0 = this.setupBodies(bodies, lastNb);
    this.setupJoints(joints, nb, lastNj, options.warmJointImpulses);
    const jP = this.jP;

    this.tN = 0;
    if (this.treeJoints && nj > 0) this.buildTree(bodies, nj);

    this.setupContacts(bodies, contacts, nj, lastNc, options.warmImpulses);
    const cL = this.cL;

    this.aN = 0;
    if (this.tN > 0 && ((this.limitBlocks && this.artLimits) || this.artContacts)) this.buildLimitResponses(nb, nj, nc);
    this.gsSetup(nc);
    this.lastNb = nb;
    this.lastNj = nj;
    this.lastNc = this.limitBlocks ? 0 : nc;

    // velocity scale: the largest row velocity before the solve (and before the warm start)
    const vs = Math.max(this.rowSpeed(nj, nc), this.minVelocityScale);
    st.velocityScale = vs;
    const warmed = this.warmStart(nj, nc);

    // sweeps
    const bound = this.tolerance * vs, cap = this.maxSweeps;
    if (vs < this.slowScale) this.maxSweeps = Math.max(cap, this.slowMaxSweeps);
    let sweeps = this.sweepLoop(nj, bound);
    let e1 = this.dynamicEnergy(bodies);
    st.coldRestart = false;
    if (this.energyGuard && warmed && e1 - e0 - this.keyframedWork(bodies, nc) > 1e-9 * (e0 + e1) + 1e-300) {
      // the warm start left energy in (its impulses were not taken out within the sweeps): from zero
      // impulses every step can only take energy out (or let keyframed bodies put in their work)
      st.coldRestart = true;
      st.coldRestarts++;
      this.loadVelocities(bodies);
      jP.fill(0, 0, 3 * nj);
      cL.fill(0, 0, 3 * nc);
      sweeps += this.sweepLoop(nj, bound);
      e1 = this.dynamicEnergy(bodies);
    }
    let rScale = 1;
    if (this.restitution) {
      rScale = this.poisson(bodies, contacts, nj, nc, bound, e0);
      sweeps += this.pSweeps;
      e1 = this.dynamicEnergy(bodies);
    }
    this.maxSweeps = cap;
    st.sweeps = sweeps;
    st.totalSweeps += sweeps;
    if (!st.converged) st.notConverged++;

    // answer
    out.resize(nb, nj, nc);
    out.iterations = sweeps;
    out.frictionScale = 1;
    out.restitutionScale = rScale;
    out.kineticEnergyBefore = e0;
    out.kineticEnergyAfter = e1;
    this.answer(out, nb, nj, nc);
    if (!Number.isFinite(e1)) throw new ResponseInputError('sequential-impulse solve: velocities are not finite');
    return out;
  }

  /** The largest |relative velocity| of a joint's rows and an active contact's rows (n, t₁, t₂) at bV. */
  private rowSpeed(nj: number, nc: number): number {
    const ja = this.ja, jb = this.jb, jr = this.jr, ca = this.ca, cb = this.cb, cr = this.cr, cf = this.cf, act = this.cAct;
    let vs = 0;
    for (let j = 0; j < nj; j++) {
      this.relVel(ja[j], jb[j], jr, 6 * j);
      vs = Math.max(vs, Math.abs(this.rv0), Math.abs(this.rv1), Math.abs(this.rv2));
    }
    for (let c = 0; c < nc; c++) {
      if (!act[c]) continue;
      this.relVel(ca[c], cb[c], cr, 6 * c);
      const o = 9 * c, r0 = this.rv0, r1 = this.rv1, r2 = this.rv2;
      vs = Math.max(vs, Math.abs(r0 * cf[o] + r1 * cf[o + 1] + r2 * cf[o + 2]), Math.abs(r0 * cf[o + 3] + r1 * cf[o + 4] + r2 * cf[o + 5]), Math.abs(r0 * cf[o + 6] + r1 * cf[o + 7] + r2 * cf[o + 8]));
    }
    return vs;
  }

  /** The warm start's impulses (jP, cL) applied to bV; whether there was one. */
  private warmStart(nj: number, nc: number): boolean {
    const ja = this.ja, jb = this.jb, jr = this.jr, jP = this.jP, ca = this.ca, cb = this.cb, cr = this.cr, cf = this.cf, cL = this.cL;
    let warmed = false;
    for (let j = 0; j < nj; j++) {
      const px = jP[3 * j], py = jP[3 * j + 1], pz = jP[3 * j + 2];
      if (px !== 0 || py !== 0 || pz !== 0) {
        warmed = true;
        this.apply(ja[j], jb[j], jr, 6 * j, px, py, pz);
      }
    }
    for (let c = 0; c < nc; c++) {
      const ln = cL[3 * c];
      if (!(ln > 0)) continue;
      warmed = true;
      const o = 9 * c, l1 = cL[3 * c + 1], l2 = cL[3 * c + 2];
      this.apply(ca[c], cb[c], cr, 6 * c, ln * cf[o] + l1 * cf[o + 3] + l2 * cf[o + 6], ln * cf[o + 1] + l1 * cf[o + 4] + l2 * cf[o + 7], ln * cf[o + 2] + l1 * cf[o + 5] + l2 * cf[o + 8]);
    }
    return warmed;
  }

  /** The answer's velocities, joint and contact impulses and contact states into out (resized); stats.jointResidual and approach. */
  private answer(out: ImpulseSolution, nb: number, nj: number, nc: number): void {
    const V = this.bV, jP = this.jP, ja = this.ja, jb = this.jb, jr = this.jr, ca = this.ca, cb = this.cb, cr = this.cr, cf = this.cf, cg = this.cg, cL = this.cL, act = this.cAct;
    const LV = out.linearVelocity, AV = out.angularVelocity, JI = out.jointImpulse, CI = out.contactImpulse, CS = out.contactState;
    for (let i = 0; i < nb; i++) {
      const o6 = 6 * i, o3 = 3 * i;
      LV[o3] = V[o6];
      LV[o3 + 1] = V[o6 + 1];
      LV[o3 + 2] = V[o6 + 2];
      AV[o3] = V[o6 + 3];
      AV[o3 + 1] = V[o6 + 4];
      AV[o3 + 2] = V[o6 + 5];
    }
    let jres = 0;
    for (let j = 0; j < nj; j++) {
      JI[3 * j] = jP[3 * j];
      JI[3 * j + 1] = jP[3 * j + 1];
      JI[3 * j + 2] = jP[3 * j + 2];
      this.relVel(ja[j], jb[j], jr, 6 * j);
      jres = Math.max(jres, Math.sqrt(this.rv0 * this.rv0 + this.rv1 * this.rv1 + this.rv2 * this.rv2));
    }
    this.stats.jointResidual = jres;
    let appr = 0;
    for (let c = 0; c < nc; c++) {
      const o = 9 * c, oc = 3 * c;
      const ln = cL[oc], l1 = cL[oc + 1], l2 = cL[oc + 2];
      CI[oc] = ln * cf[o] + l1 * cf[o + 3] + l2 * cf[o + 6];
      CI[oc + 1] = ln * cf[o + 1] + l1 * cf[o + 4] + l2 * cf[o + 7];
      CI[oc + 2] = ln * cf[o + 2] + l1 * cf[o + 5] + l2 * cf[o + 8];
      const g = cg[c];
      if (!act[c]) {
        CS[c] = ContactState.Static;
        continue;
      }
      this.relVel(ca[c], cb[c], cr, 6 * c);
      appr = Math.max(appr, -(this.rv0 * cf[o] + this.rv1 * cf[o + 1] + this.rv2 * cf[o + 2]));
      CS[c] = ln <= 0 ? ContactState.Separated : g === 0 ? ContactState.Frictionless : g !== Infinity && Math.sqrt(l1 * l1 + l2 * l2) >= g * ln * (1 - 1e-9) ? ContactState.Slide : ContactState.Stick;
    }
    this.stats.approach = appr;
  }

  private bC = F64(0); // per body: centre of mass (3)
  private bMass = F64(0); // per dynamic body: mass and inertia (9), the input's
  private bIn = F64(0);
  /**
   * Reuse of the last call's setup (an active-set re-solve of the same island: the same bodies, joints
   * and a prefix of the contacts, bit for bit): per body / contact 1 when its inputs are the last call's
   * at the same index (bSame, cSame), so that what was computed from them is still in place; the last
   * call's counts (0 after a call that threw, or with limitBlocks for the contacts).
   */
  private bSame = new Uint8Array(0);
  private cSame = new Uint8Array(0);
  private jPt = F64(0); // per joint: its point (the last call's, compared)
  private cPt = F64(0); // per contact: point and normal (the last call's, compared)
  private lastNb = 0;
  private lastNj = 0;
  private lastNc = 0;

  /**
   * Step 1 of a call: per body (and the world, last) inverse mass, world inverse inertia, velocities and
   * centre of mass into flat arrays; returns the dynamic bodies' kinetic energy.
   */
  private setupBodies(bodies: readonly RigidBodyInput[], lastNb: number): number {
    const nb = bodies.length, W = nb;
    // the last call's bodies are comparable while no buffer is made anew
    const prev = this.bIn.length >= 9 * nb && this.bm.length >= nb + 1 && this.bC.length >= 3 * nb && this.bMass.length >= nb && this.bI.length >= 9 * (nb + 1) ? Math.min(lastNb, nb) : 0;
    this.bm = growF(this.bm, nb + 1);
    this.bI = growF(this.bI, 9 * (nb + 1));
    this.bV = growF(this.bV, 6 * (nb + 1));
    this.bC = growF(this.bC, 3 * nb);
    this.bMass = growF(this.bMass, nb);
    this.bIn = growF(this.bIn, 9 * nb);
    this.bSame = growU8(this.bSame, nb + 1);
    const bm = this.bm, bI = this.bI, V = this.bV, C = this.bC, M = this.bMass, In = this.bIn, same = this.bSame;
    let e0 = 0;
    for (let i = 0; i < nb; i++) {
      const b = bodies[i], o6 = 6 * i, o9 = 9 * i, lv = b.linearVelocity, av = b.angularVelocity, cm = b.centerOfMass;
      V[o6] = lv.x;
      V[o6 + 1] = lv.y;
      V[o6 + 2] = lv.z;
      V[o6 + 3] = av.x;
      V[o6 + 4] = av.y;
      V[o6 + 5] = av.z;
      const kf = b.keyframed === true;
      // the same body as the last call's i (an active-set re-solve): its inverse inertia is kept
      if (i < prev && sameBits(C[3 * i], cm.x) && sameBits(C[3 * i + 1], cm.y) && sameBits(C[3 * i + 2], cm.z) && (bm[i] === 0) === kf && (kf || sameInertia(M[i], In, o9, b.massKg, b.inertia))) {
        same[i] = 1;
        if (!kf) e0 += kinetic(M[i], In, o9, V, o6);
        continue;
      }
      same[i] = 0;
      C[3 * i] = cm.x;
      C[3 * i + 1] = cm.y;
      C[3 * i + 2] = cm.z;
      if (kf) {
        bm[i] = 0;
        for (let k = 0; k < 9; k++) bI[o9 + k] = 0;
        continue;
      }
      const m = b.massKg;
      if (!(m > 0) || !Number.isFinite(m)) throw new ResponseInputError(`body ${b.id ?? i}: mass must be finite and > 0`);
      bm[i] = 1 / m;
      M[i] = m;
      const I = b.inertia;
      for (let k = 0; k < 9; k++) In[o9 + k] = I[k];
      if (!invertSym3(In, bI, o9, o9)) throw new ResponseInputError(`body ${b.id ?? i}: inertia is not invertible`);
      e0 += kinetic(m, In, o9, V, o6);
    }
    bm[W] = 0;
    for (let k = 0; k < 9; k++) bI[9 * W + k] = 0;
    for (let k = 0; k < 6; k++) V[6 * W + k] = 0;
    same[W] = 1;
    return e0;
  }

  /** Step 2 for the joints: bodies, arms, I⁻¹[r]× of both sides, the inverse of the 3×3 effective mass, the warm start (jP). */
  private setupJoints(joints: readonly JointInput[], nb: number, lastNj: number, wj: ArrayLike<number> | undefined): void {
    const nj = joints.length, W = nb;
    const prev = this.ja.length >= nj && this.jb.length >= nj && this.jr.length >= 6 * nj && this.jK.length >= 9 * nj && this.jM.length >= 18 * nj && this.jPt.length >= 3 * nj ? Math.min(lastNj, nj) : 0;
    this.ja = growI(this.ja, nj);
    this.jb = growI(this.jb, nj);
    this.jr = growF(this.jr, 6 * nj);
    this.jK = growF(this.jK, 9 * nj);
    this.jP = growF(this.jP, 3 * nj);
    this.jM = growF(this.jM, 18 * nj);
    this.jPt = growF(this.jPt, 3 * nj);
    const ja = this.ja, jb = this.jb, jr = this.jr, jK = this.jK, K = this.k9, jM = this.jM, bm = this.bm, bI = this.bI, C = this.bC, P = this.jPt, same = this.bSame;
    const warm = wj !== undefined && wj.length >= 3 * nj;
    for (let j = 0; j < nj; j++) {
      const jt = joints[j];
      if (jt.kind !== 'ball' && jt.kind !== 'revolute') throw new ResponseInputError(`joint ${jt.id ?? j}: the sequential-impulse solver takes ball joints only`);
      const a = jt.bodyA >= 0 ? jt.bodyA : W, b = jt.bodyB >= 0 ? jt.bodyB : W;
      const o = 6 * j, p = jt.point, px = p.x, py = p.y, pz = p.z;
      // the last call's joint j between the same bodies at the same point: arms, K⁻¹ and I⁻¹[r]× kept
      if (j < prev && ja[j] === a && jb[j] === b && same[a] === 1 && same[b] === 1 && sameBits(P[3 * j], px) && sameBits(P[3 * j + 1], py) && sameBits(P[3 * j + 2], pz)) {
        this.warmJoint(j, warm ? wj : undefined);
        continue;
      }
      ja[j] = a;
      jb[j] = b;
      P[3 * j] = px;
      P[3 * j + 1] = py;
      P[3 * j + 2] = pz;
      armsInto(jr, o, C, W, a, b, px, py, pz);
      const ax = jr[o], ay = jr[o + 1], az = jr[o + 2], bx = jr[o + 3], by = jr[o + 4], bz = jr[o + 5];
      K[0] = K[1] = K[2] = K[3] = K[4] = K[5] = K[6] = K[7] = K[8] = 0;
      addPointMass(K, bm[a], bI, 9 * a, ax, ay, az);
      addPointMass(K, bm[b], bI, 9 * b, bx, by, bz);
      // Δω_A = I_A⁻¹ (r_A × p) = M_A p, column k: I_A⁻¹ (r_A × e_k); the same for B (jointPass)
      crossMatrix(jM, 18 * j, bI, 9 * a, ax, ay, az);
      crossMatrix(jM, 18 * j + 9, bI, 9 * b, bx, by, bz);
      if (!invertSym3(K, jK, 9 * j)) {
        // both sides fixed (or a degenerate block): the joint cannot act
        for (let k = 0; k < 9; k++) jK[9 * j + k] = 0;
      }
      this.warmJoint(j, warm ? wj : undefined);
    }
  }

  /** Joint j's warm start (finite, else zero) into jP. */
  private warmJoint(j: number, wj: ArrayLike<number> | undefined): void {
    let qx = 0, qy = 0, qz = 0;
    if (wj !== undefined) {
      qx = wj[3 * j];
      qy = wj[3 * j + 1];
      qz = wj[3 * j + 2];
      if (!(Number.isFinite(qx) && Number.isFinite(qy) && Number.isFinite(qz))) qx = qy = qz = 0;
    }
    const jP = this.jP;
    jP[3 * j] = qx;
    jP[3 * j + 1] = qy;
    jP[3 * j + 2] = qz;
  }

  /**
   * Step 2 for the contacts: bodies, frame, arms, the rows' r × d and I⁻¹(r × d) (cJ), the normal mass,
   * K_tt, friction, the warm start projected onto the cone (cL); joint limits' k_nj (limitBlocks).
   */
  private setupContacts(bodies: readonly RigidBodyInput[], contacts: readonly ContactInput[], nj: number, lastNc: number, warm: ArrayLike<number> | undefined): void {
    const nc = contacts.length, W = bodies.length, limits = this.limitBlocks;
    const prev =
      !limits && this.ca.length >= nc && this.cb.length >= nc && this.cr.length >= 6 * nc && this.cf.length >= 9 * nc && this.cmn.length >= nc && this.cK.length >= 3 * nc && this.cg.length >= nc && this.cAct.length >= nc && this.cJ.length >= 36 * nc && this.cPt.length >= 6 * nc
        ? Math.min(lastNc, nc)
        : 0;
    this.ca = growI(this.ca, nc);
    this.cb = growI(this.cb, nc);
    this.cr = growF(this.cr, 6 * nc);
    this.cf = growF(this.cf, 9 * nc);
    this.cmn = growF(this.cmn, nc);
    this.cK = growF(this.cK, 3 * nc);
    this.cg = growF(this.cg, nc);
    this.cL = growF(this.cL, 3 * nc);
    if (this.cAct.length < nc) this.cAct = new Uint8Array(Math.max(nc, 2 * this.cAct.length));
    this.cJ = growF(this.cJ, 36 * nc);
    this.cJt = growI(this.cJt, nc);
    this.cArt = growU8(this.cArt, nc);
    this.cArt.fill(0, 0, nc);
    this.cKj = growF(this.cKj, 3 * nc);
    this.cEff = growF(this.cEff, nc);
    this.cPt = growF(this.cPt, 6 * nc);
    this.cSame = growU8(this.cSame, nc);
    const ca = this.ca, cb = this.cb, cr = this.cr, cf = this.cf, cmn = this.cmn, cK = this.cK, cg = this.cg, cL = this.cL, act = this.cAct, cJ = this.cJ, cJt = this.cJt;
    const K = this.k9, bm = this.bm, bI = this.bI, C = this.bC, P = this.cPt, same = this.bSame, cSame = this.cSame;
    const warmOk = warm !== undefined && warm.length >= 3 * nc;
    let frame = -1; // the last contact set up in this call (its normal in cPt, its frame in cf)
    for (let c = 0; c < nc; c++) {
      const ct = contacts[c];
      const a = ct.bodyA >= 0 ? ct.bodyA : W, b = ct.bodyB >= 0 ? ct.bodyB : W;
      const n = ct.normal, p = ct.point, o6 = 6 * c;
      let g = ct.friction;
      if (g === undefined || g === null) {
        const ba = bodies[ct.bodyA], bb = ct.bodyB >= 0 ? bodies[ct.bodyB] : null;
        g = Math.max(ba.friction ?? 0, bb ? (bb.friction ?? 0) : 0);
      }
      cL[3 * c] = cL[3 * c + 1] = cL[3 * c + 2] = 0;
      cJt[c] = -1;
      // the last call's contact c between the same bodies at the same point, normal and friction: frame,
      // arms, rows and effective masses kept
      if (
        c < prev &&
        ca[c] === a &&
        cb[c] === b &&
        same[a] === 1 &&
        same[b] === 1 &&
        sameBits(cg[c], g) &&
        sameBits(P[o6], p.x) &&
        sameBits(P[o6 + 1], p.y) &&
        sameBits(P[o6 + 2], p.z) &&
        sameBits(P[o6 + 3], n.x) &&
        sameBits(P[o6 + 4], n.y) &&
        sameBits(P[o6 + 5], n.z)
      ) {
        cSame[c] = 1;
        if (act[c] && warmOk) this.warmContact(c, warm, g);
        continue;
      }
      cSame[c] = 0;
      ca[c] = a;
      cb[c] = b;
      // a dynamic side: inverse mass > 0 (keyframed bodies and the world have 0)
      const ma = bm[a], mb = bm[b], on = ma > 0 || mb > 0;
      act[c] = on ? 1 : 0;
      const o = 9 * c;
      let nx = n.x, ny = n.y, nz = n.z;
      P[o6 + 3] = nx;
      P[o6 + 4] = ny;
      P[o6 + 5] = nz;
      if (frame >= 0 && sameBits(P[6 * frame + 3], nx) && sameBits(P[6 * frame + 4], ny) && sameBits(P[6 * frame + 5], nz)) {
        // the normal of the last contact set up (the ground's, mostly): its frame
        const f = 9 * frame;
        for (let k = 0; k < 9; k++) cf[o + k] = cf[f + k];
        nx = cf[o];
        ny = cf[o + 1];
        nz = cf[o + 2];
      } else {
        const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(nl > 0)) throw new ResponseInputError(`contact ${ct.id ?? c}: zero normal`);
        nx /= nl;
        ny /= nl;
        nz /= nl;
        cf[o] = nx;
        cf[o + 1] = ny;
        cf[o + 2] = nz;
        tangentBasis(nx, ny, nz, cf, o + 3);
      }
      frame = c;
      const px = p.x, py = p.y, pz = p.z;
      P[o6] = px;
      P[o6 + 1] = py;
      P[o6 + 2] = pz;
      armsInto(cr, o6, C, W, a, b, px, py, pz);
      const ax = cr[o6], ay = cr[o6 + 1], az = cr[o6 + 2], bx = cr[o6 + 3], by = cr[o6 + 4], bz = cr[o6 + 5];
      cg[c] = g;
      if (!on) {
        cmn[c] = 0;
        continue;
      }
      K[0] = K[1] = K[2] = K[3] = K[4] = K[5] = K[6] = K[7] = K[8] = 0;
      addPointMass(K, ma, bI, 9 * a, ax, ay, az);
      addPointMass(K, mb, bI, 9 * b, bx, by, bz);
      const j = 36 * c, ia = 9 * a, ib = 9 * b, t1x = cf[o + 3], t1y = cf[o + 4], t1z = cf[o + 5], t2x = cf[o + 6], t2y = cf[o + 7], t2z = cf[o + 8];
      jacobianRow(cJ, j, bI, ia, ax, ay, az, nx, ny, nz);
      jacobianRow(cJ, j + 3, bI, ib, bx, by, bz, nx, ny, nz);
      jacobianRow(cJ, j + 12, bI, ia, ax, ay, az, t1x, t1y, t1z);
      jacobianRow(cJ, j + 15, bI, ib, bx, by, bz, t1x, t1y, t1z);
      jacobianRow(cJ, j + 24, bI, ia, ax, ay, az, t2x, t2y, t2z);
      jacobianRow(cJ, j + 27, bI, ib, bx, by, bz, t2x, t2y, t2z);
      const knn = quad(K, cf, o, o);
      cmn[c] = knn > 0 ? 1 / knn : 0;
      if (limits && g === 0 && knn > 0 && a < W && b < W && ma > 0 && mb > 0) this.limitSetup(c, a, b, nj, knn);
      cK[3 * c] = quad(K, cf, o + 3, o + 3);
      cK[3 * c + 1] = quad(K, cf, o + 3, o + 6);
      cK[3 * c + 2] = quad(K, cf, o + 6, o + 6);
      if (warmOk) this.warmContact(c, warm, g);
    }
  }

  /** Contact c's warm start (finite and pushing, else none) projected onto its cone (friction g) into cL. */
  private warmContact(c: number, warm: ArrayLike<number>, g: number): void {
    const ix = warm[3 * c], iy = warm[3 * c + 1], iz = warm[3 * c + 2];
    if (!(Number.isFinite(ix) && Number.isFinite(iy) && Number.isFinite(iz))) return;
    const cf = this.cf, o = 9 * c, cL = this.cL;
    const ln = ix * cf[o] + iy * cf[o + 1] + iz * cf[o + 2];
    if (!(ln > 0)) return;
    let l1 = ix * cf[o + 3] + iy * cf[o + 4] + iz * cf[o + 5], l2 = ix * cf[o + 6] + iy * cf[o + 7] + iz * cf[o + 8];
    const lt = Math.sqrt(l1 * l1 + l2 * l2);
    if (g === 0) l1 = l2 = 0;
    else if (lt > g * ln) {
      l1 *= (g * ln) / lt;
      l2 *= (g * ln) / lt;
    }
    cL[3 * c] = ln;
    cL[3 * c + 1] = l1;
    cL[3 * c + 2] = l2;
  }

  private pV = F64(0);
  private pL = F64(0);
  private pP = F64(0);
  private pE = F64(0);
  private pSweeps = 0;

  /**
   * Poisson's restitution after the compression solve (`restitution`): every contact with ε > 0 gets
   * ε·s times its compression impulse on top, and the sweeps run again from zero accumulators from
   * there (contacts may only push more, joints hold again); s = 1, ½, ¼, 0 until the kinetic energy is
   * at most E⁻ + the keyframed points' work. Leaves the totals in cL / jP; returns s, its sweeps in pSweeps.
   */
  private poisson(bodies: readonly RigidBodyInput[], contacts: readonly ContactInput[], nj: number, nc: number, bound: number, e0: number): number {
    const nb = bodies.length, V = this.bV, cL = this.cL, jP = this.jP, F = this.cf, act = this.cAct;
    this.pE = growF(this.pE, nc);
    const E = this.pE;
    let any = false;
    for (let c = 0; c < nc; c++) {
      const ct = contacts[c];
      const e = ct.restitution ?? Math.min(bodies[ct.bodyA].restitution ?? 0, ct.bodyB >= 0 ? (bodies[ct.bodyB].restitution ?? 0) : Infinity);
      E[c] = act[c] && e > 0 && cL[3 * c] > 0 ? e : 0;
      if (E[c] > 0) any = true;
    }
    this.pSweeps = 0;
    if (!any) return 1;
    this.pV = growF(this.pV, 6 * (nb + 1));
    this.pL = growF(this.pL, 3 * nc);
    this.pP = growF(this.pP, 3 * nj);
    const V1 = this.pV, L1 = this.pL, P1 = this.pP;
    V1.set(V.subarray(0, 6 * (nb + 1)));
    L1.set(cL.subarray(0, 3 * nc));
    P1.set(jP.subarray(0, 3 * nj));
    let sweeps = 0;
    for (const s of POISSON_SCALES) {
      V.set(V1.subarray(0, 6 * (nb + 1)));
      for (let c = 0; c < nc; c++) {
        const k = s * E[c];
        if (k === 0) continue;
        const f = 9 * c, ln = k * L1[3 * c], l1 = k * L1[3 * c + 1], l2 = k * L1[3 * c + 2];
        this.apply(this.ca[c], this.cb[c], this.cr, 6 * c, ln * F[f] + l1 * F[f + 3] + l2 * F[f + 6], ln * F[f + 1] + l1 * F[f + 4] + l2 * F[f + 7], ln * F[f + 2] + l1 * F[f + 5] + l2 * F[f + 8]);
      }
      cL.fill(0, 0, 3 * nc);
      jP.fill(0, 0, 3 * nj);
      const cap = this.maxSweeps;
      this.maxSweeps = Math.min(cap, this.poissonMaxSweeps);
      sweeps += this.sweepLoop(nj, bound);
      this.maxSweeps = cap;
      for (let k = 0; k < 3 * nc; k++) cL[k] += (1 + s * E[(k / 3) | 0]) * L1[k];
      for (let k = 0; k < 3 * nj; k++) jP[k] += P1[k];
      const e2 = this.dynamicEnergy(bodies);
      this.pSweeps = sweeps;
      if (e2 - e0 - this.keyframedWork(bodies, nc) <= 1e-9 * (e0 + e2) + 1e-300) return s;
    }
    V.set(V1.subarray(0, 6 * (nb + 1)));
    cL.set(L1.subarray(0, 3 * nc));
    jP.set(P1.subarray(0, 3 * nj));
    return 0;
  }

  // ---------------------------------------------------------------- joints exact per sweep (treeJoints)
  // nodes: body i (dynamic) is node i, joint j is node nb + j, ordered children before parents (tOrder);
  // per node: its parent (tPar), the arm r and sign s of the joint's Jacobian s[I, −[r]×] on the body of
  // its edge to the parent (tEr), D accumulated and then D⁻¹ in place (tDi), for bodies L = D⁻¹Jᵀ (tL, 6×3), and the
  // solve's vectors (tX, tZ)
  private tN = 0;
  private tNb = 0;
  private tOrder = new Int32Array(0);
  private tPar = new Int32Array(0);
  private tPrim = new Uint8Array(0); // per joint: 1 in the forest
  private tUf = new Int32Array(0);
  private tAdjS = new Int32Array(0);
  private tAdj = new Int32Array(0);
  private tSeen = new Uint8Array(0);
  private tEr = F64(0);
  private tX = F64(0);
  private tZ = F64(0);
  private tDi = F64(0);
  private tL = F64(0);

  private ufFind(i: number): number {
    const p = this.tUf;
    while (p[i] !== i) {
      p[i] = p[p[i]];
      i = p[i];
    }
    return i;
  }

  /** The spanning forest of the joints (body and joint nodes, children first) and its block LDLᵀ factorization. */
  private buildTree(bodies: readonly RigidBodyInput[], nj: number): void {
    const nb = bodies.length, W = nb, bm = this.bm, ja = this.ja, jb = this.jb;
    const NN = nb + nj;
    this.tNb = nb;
    this.tPrim = growU8(this.tPrim, nj);
    this.tUf = growI(this.tUf, nb + 1);
    this.tOrder = growI(this.tOrder, NN);
    this.tPar = growI(this.tPar, NN);
    this.tSeen = growU8(this.tSeen, NN);
    this.tAdjS = growI(this.tAdjS, nb + 2);
    this.tAdj = growI(this.tAdj, 2 * nj);
    // the same joints between the same dynamic / fixed bodies as the last call: the same forest and order
    let same = this.tKeyNb === nb && this.tKeyNj === nj;
    this.tKey = growI(this.tKey, 3 * nj);
    const key = this.tKey;
    for (let j = 0; j < nj; j++) {
      const a = ja[j], b = jb[j], k = (a < W && bm[a] > 0 ? 1 : 0) | (b < W && bm[b] > 0 ? 2 : 0);
      if (same && (key[3 * j] !== a || key[3 * j + 1] !== b || key[3 * j + 2] !== k)) same = false;
      key[3 * j] = a;
      key[3 * j + 1] = b;
      key[3 * j + 2] = k;
    }
    this.tKeyNb = nb;
    this.tKeyNj = nj;
    if (same && this.tKeyN >= 0) this.tN = this.tKeyN;
    else {
      this.tKeyN = -1;
      this.buildForest(nb, nj);
      this.tKeyN = this.tN;
    }
    if (this.tN === 0) return;
    // the same forest, masses, inertias and arms as the last factorization (an active-set re-solve of the
    // same sub-step): the same factors, and the same joint limits have the same responses (buildLimitResponses)
    this.tReused = same && this.tFactored && this.sameFactorInputs(bodies, nj);
    if (!this.tReused) {
      this.factorTree(bodies, nj);
      this.saveFactorInputs(bodies, nj);
    }
    this.tFactored = true;
  }

  private tReused = false;
  private tFactored = false;
  private tIn = F64(0);

  /** Whether the masses, inertias and joint arms equal those of the last factorization (saveFactorInputs). */
  private sameFactorInputs(bodies: readonly RigidBodyInput[], nj: number): boolean {
    const nb = bodies.length, S = this.tIn, jr = this.jr;
    if (S.length < 10 * nb + 6 * nj) return false;
    for (let i = 0; i < nb; i++) {
      const b = bodies[i], o = 10 * i;
      if (S[o] !== b.massKg) return false;
      for (let k = 0; k < 9; k++) if (S[o + 1 + k] !== b.inertia[k]) return false;
    }
    for (let k = 0, o = 10 * nb; k < 6 * nj; k++) if (S[o + k] !== jr[k]) return false;
    return true;
  }

  private saveFactorInputs(bodies: readonly RigidBodyInput[], nj: number): void {
    const nb = bodies.length, jr = this.jr;
    this.tIn = growF(this.tIn, 10 * nb + 6 * nj);
    const S = this.tIn;
    for (let i = 0; i < nb; i++) {
      const b = bodies[i], o = 10 * i;
      S[o] = b.massKg;
      for (let k = 0; k < 9; k++) S[o + 1 + k] = b.inertia[k];
    }
    for (let k = 0, o = 10 * nb; k < 6 * nj; k++) S[o + k] = jr[k];
  }

  private tKey = new Int32Array(0);
  private tKeyNb = -1;
  private tKeyNj = -1;
  private tKeyN = -1;

  /** The forest and its order (buildTree). */
  private buildForest(nb: number, nj: number): void {
    const W = nb, bm = this.bm, ja = this.ja, jb = this.jb, NN = nb + nj;
    const prim = this.tPrim, uf = this.tUf, seen = this.tSeen;
    for (let i = 0; i <= nb; i++) uf[i] = i;
    let any = false;
    // joints between two dynamic bodies unless they close a loop; then per tree one joint to a fixed body
    for (let j = 0; j < nj; j++) {
      prim[j] = 0;
      const a = ja[j], b = jb[j];
      if (!(a < W && bm[a] > 0 && b < W && bm[b] > 0)) continue;
      const ra = this.ufFind(a), rb = this.ufFind(b);
      if (ra === rb) continue;
      uf[ra] = rb;
      prim[j] = 1;
      any = true;
    }
    seen.fill(0, 0, NN);
    for (let j = 0; j < nj; j++) {
      const a = ja[j], b = jb[j], da = a < W && bm[a] > 0, db = b < W && bm[b] > 0;
      if (da === db) continue;
      const r = this.ufFind(da ? a : b);
      if (seen[r]) continue; // (seen[] of the trees' roots: anchored already)
      seen[r] = 1;
      prim[j] = 1;
      any = true;
    }
    if (!any) {
      this.tN = 0;
      return;
    }
    // body → its forest joints (CSR)
    const S = this.tAdjS, A = this.tAdj;
    S.fill(0, 0, nb + 2);
    for (let j = 0; j < nj; j++) {
      if (!prim[j]) continue;
      if (ja[j] < W && bm[ja[j]] > 0) S[ja[j] + 1]++;
      if (jb[j] < W && bm[jb[j]] > 0) S[jb[j] + 1]++;
    }
    for (let i = 0; i < nb; i++) S[i + 1] += S[i];
    for (let j = 0; j < nj; j++) {
      if (!prim[j]) continue;
      if (ja[j] < W && bm[ja[j]] > 0) A[S[ja[j]]++] = j;
      if (jb[j] < W && bm[jb[j]] > 0) A[S[jb[j]]++] = j;
    }
    for (let i = nb; i > 0; i--) S[i] = S[i - 1];
    S[0] = 0;
    // breadth first from the anchored joints, then from the remaining bodies (parents before children)
    seen.fill(0, 0, NN);
    const Q = this.tOrder, par = this.tPar;
    let qn = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (let k = 0; k < (pass === 0 ? nj : nb); k++) {
        let root: number;
        if (pass === 0) {
          const da = ja[k] < W && bm[ja[k]] > 0, db = jb[k] < W && bm[jb[k]] > 0;
          if (!prim[k] || da === db) continue;
          root = nb + k;
        } else {
          if (!(bm[k] > 0) || S[k + 1] === S[k]) continue;
          root = k;
        }
        if (seen[root]) continue;
        let h = qn;
        seen[root] = 1;
        par[root] = -1;
        Q[qn++] = root;
        while (h < qn) {
          const n = Q[h++];
          if (n >= nb) {
            const j = n - nb;
            for (let s = 0; s < 2; s++) {
              const b = s === 0 ? ja[j] : jb[j];
              if (!(b < W && bm[b] > 0) || seen[b]) continue;
              seen[b] = 1;
              par[b] = n;
              Q[qn++] = b;
            }
          } else {
            for (let e = S[n]; e < S[n + 1]; e++) {
              const m = nb + A[e];
              if (seen[m]) continue;
              seen[m] = 1;
              par[m] = n;
              Q[qn++] = m;
            }
          }
        }
      }
    }
    // children first
    for (let i = 0, k = qn - 1; i < k; i++, k--) {
      const t = Q[i];
      Q[i] = Q[k];
      Q[k] = t;
    }
    this.tN = qn;
    this.tLeaf = growU8(this.tLeaf, NN);
    const leaf = this.tLeaf;
    for (let q = 0; q < qn; q++) leaf[Q[q]] = 1;
    for (let q = 0; q < qn; q++) if (par[Q[q]] >= 0) leaf[par[Q[q]]] = 0;
    // per node its children but the leaf bodies (CSR, in the order of tOrder: treeProject sums them in the order treeSolve does)
    this.tChS = growI(this.tChS, NN + 1);
    this.tCh = growI(this.tCh, NN);
    const CS = this.tChS, CH = this.tCh;
    CS.fill(0, 0, NN + 1);
    // (a leaf body's z is 0: not listed)
    for (let q = 0; q < qn; q++) if (par[Q[q]] >= 0 && !leaf[Q[q]]) CS[par[Q[q]] + 1]++;
    for (let i = 0; i < NN; i++) CS[i + 1] += CS[i];
    for (let q = 0; q < qn; q++) {
      const p = par[Q[q]];
      if (p >= 0 && !leaf[Q[q]]) CH[CS[p]++] = Q[q];
    }
    for (let i = NN; i > 0; i--) CS[i] = CS[i - 1];
    CS[0] = 0;
  }

  private tLeaf = new Uint8Array(0);
  private tChS = new Int32Array(0);
  private tCh = new Int32Array(0);

  /** The block LDLᵀ factorization of the forest's [M Jᵀ; J 0] at this call's arms and inertias (buildTree). */
  private factorTree(bodies: readonly RigidBodyInput[], nj: number): void {
    const nb = bodies.length, NN = nb + nj, qn = this.tN, Q = this.tOrder, par = this.tPar, ja = this.ja;
    this.tEr = growF(this.tEr, 4 * NN);
    this.tX = growF(this.tX, 6 * NN);
    this.tZ = growF(this.tZ, 6 * NN);
    this.tDi = growF(this.tDi, 36 * NN);
    this.tL = growF(this.tL, 18 * NN);
    // D is accumulated in tDi and inverted in place (one array: the factorization's memory is what a call
    // loads, README thirteenth round)
    const D = this.tDi, Di = this.tDi, L = this.tL, E = this.tEr, jr = this.jr, bm = this.bm, bI = this.bI, leaf = this.tLeaf;
    for (let q = 0; q < qn; q++) {
      const n = Q[q], p = par[n];
      if (n < nb) {
        const o = 36 * n;
        if (leaf[n]) {
          // no joint below: D = M, D⁻¹ = diag(1/m, I⁻¹) (all 36 entries read)
          for (let k = 0; k < 36; k++) D[o + k] = 0;
          const m = bm[n], io = 9 * n;
          Di[o] = Di[o + 7] = Di[o + 14] = m;
          for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) Di[o + 6 * (3 + r) + 3 + c] = bI[io + 3 * c + r];
        } else {
          // the upper triangle only: the children subtract into it, invert6Sym reads it and writes all 36
          for (let r = 0; r < 6; r++) for (let k = o + 7 * r, k1 = o + 6 * r + 6; k < k1; k++) D[k] = 0;
          const m = bodies[n].massKg, I = bodies[n].inertia;
          D[o] = D[o + 7] = D[o + 14] = m;
          for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) D[o + 6 * (3 + r) + 3 + c] = I[3 * c + r];
        }
      } else for (let k = 0; k < 9; k++) D[36 * n + k] = 0;
      if (p < 0) continue;
      const j = (n >= nb ? n : p) - nb, b = n >= nb ? p : n, sA = ja[j] === b, ro = 6 * j + (sA ? 0 : 3);
      E[4 * n] = jr[ro];
      E[4 * n + 1] = jr[ro + 1];
      E[4 * n + 2] = jr[ro + 2];
      E[4 * n + 3] = sA ? 1 : -1;
    }
    // factor, children first (symmetric blocks: the upper triangles accumulated and read)
    for (let q = 0; q < qn; q++) {
      const n = Q[q], p = par[n], o = 36 * n;
      if (n < nb) {
        if (!leaf[n]) invert6Sym(D, o, Di);
        if (p < 0) continue;
        // L = D⁻¹ Jᵀ, column k = s D⁻¹ (e_k, r × e_k) (r × e₀ = (0, rz, −ry), r × e₁ = (−rz, 0, rx), r × e₂ = (ry, −rx, 0));
        // D_p −= J L, column k = s (L_lin,k + L_ang,k × r)
        const rx = E[4 * n], ry = E[4 * n + 1], rz = E[4 * n + 2], s = E[4 * n + 3], l = 18 * n, op = 36 * p;
        for (let r = 0; r < 6; r++) {
          const d = o + 6 * r, d3 = Di[d + 3], d4 = Di[d + 4], d5 = Di[d + 5];
          L[l + 3 * r] = s * (Di[d] + d4 * rz - d5 * ry);
          L[l + 3 * r + 1] = s * (Di[d + 1] + d5 * rx - d3 * rz);
          L[l + 3 * r + 2] = s * (Di[d + 2] + d3 * ry - d4 * rx);
        }
        for (let k = 0; k < 3; k++) {
          const ax = L[l + 9 + k], ay = L[l + 12 + k], az = L[l + 15 + k];
          // upper triangle of the joint's 3×3 (rows ≤ k)
          D[op + k] -= s * (L[l + k] + ay * rz - az * ry);
          if (k >= 1) D[op + 3 + k] -= s * (L[l + 3 + k] + az * rx - ax * rz);
          if (k === 2) D[op + 8] -= s * (L[l + 8] + ax * ry - ay * rx);
        }
      } else {
        invert3Sym(D, o, Di);
        if (p < 0) continue;
        // D_p −= Jᵀ G J = [G, GR; RᵀG, RᵀGR] (G = D⁻¹, R = −[r]×: R e_k = e_k × r, Rᵀ y = r × y); upper triangle
        const rx = E[4 * n], ry = E[4 * n + 1], rz = E[4 * n + 2], op = 36 * p;
        const g00 = Di[o], g01 = Di[o + 1], g02 = Di[o + 2], g11 = Di[o + 4], g12 = Di[o + 5], g22 = Di[o + 8];
        // GR columns: e₀ × r = (0, −rz, ry), e₁ × r = (rz, 0, −rx), e₂ × r = (−ry, rx, 0)
        const h00 = g02 * ry - g01 * rz, h01 = g00 * rz - g02 * rx, h02 = g01 * rx - g00 * ry;
        const h10 = g12 * ry - g11 * rz, h11 = g01 * rz - g12 * rx, h12 = g11 * rx - g01 * ry;
        const h20 = g22 * ry - g12 * rz, h21 = g02 * rz - g22 * rx, h22 = g12 * rx - g02 * ry;
        D[op] -= g00;
        D[op + 1] -= g01;
        D[op + 2] -= g02;
        D[op + 7] -= g11;
        D[op + 8] -= g12;
        D[op + 14] -= g22;
        D[op + 3] -= h00;
        D[op + 4] -= h01;
        D[op + 5] -= h02;
        D[op + 9] -= h10;
        D[op + 10] -= h11;
        D[op + 11] -= h12;
        D[op + 15] -= h20;
        D[op + 16] -= h21;
        D[op + 17] -= h22;
        // RᵀGR, column k = r × (GR column k): upper triangle
        D[op + 21] -= ry * h20 - rz * h10;
        D[op + 22] -= ry * h21 - rz * h11;
        D[op + 23] -= ry * h22 - rz * h12;
        D[op + 28] -= rz * h01 - rx * h21;
        D[op + 29] -= rz * h02 - rx * h22;
        D[op + 35] -= rx * h12 - ry * h02;
      }
    }
  }

  /**
   * Projects the velocities onto the forest's joint constraints (the kinetic energy's minimum over those
   * joints' impulses): solves [M Jᵀ; J 0][Δv; y] = [0; −J v], Δv added, joint impulses P −= y. Returns
   * the largest joint relative velocity before (the change of those rows).
   */
  private treeProject(): number {
    const qn = this.tN, nb = this.tNb, Q = this.tOrder, par = this.tPar, X = this.tX, Z = this.tZ, Di = this.tDi, L = this.tL, E = this.tEr;
    const leaf = this.tLeaf, CS = this.tChS, CH = this.tCh;
    const V = this.bV, P = this.jP, ja = this.ja, jb = this.jb, jr = this.jr;
    let res = 0;
    // forward, children first (treeSolve's, right-hand side 0 on the bodies and −J v on the joints, each node
    // gathering its children's terms): z_n = D_n⁻¹ (x_n − Σ_children L_cᵀ x_c); a leaf body's z is 0
    for (let q = 0; q < qn; q++) {
      const n = Q[q], x = 6 * n, o = 36 * n;
      if (n >= nb) {
        const j = n - nb, oa = 6 * ja[j], ob = 6 * jb[j], r6 = 6 * j;
        const ax = jr[r6], ay = jr[r6 + 1], az = jr[r6 + 2], bx = jr[r6 + 3], by = jr[r6 + 4], bz = jr[r6 + 5];
        const wax = V[oa + 3], way = V[oa + 4], waz = V[oa + 5], wbx = V[ob + 3], wby = V[ob + 4], wbz = V[ob + 5];
        const v0 = V[oa] + way * az - waz * ay - (V[ob] + wby * bz - wbz * by);
        const v1 = V[oa + 1] + waz * ax - wax * az - (V[ob + 1] + wbz * bx - wbx * bz);
        const v2 = V[oa + 2] + wax * ay - way * ax - (V[ob + 2] + wbx * by - wby * bx);
        // (comparisons, not Math.max: the same res but for a NaN, which is skipped either way)
        const a0 = Math.abs(v0), a1 = Math.abs(v1), a2 = Math.abs(v2);
        if (a0 > res) res = a0;
        if (a1 > res) res = a1;
        if (a2 > res) res = a2;
        let x0 = -v0, x1 = -v1, x2 = -v2;
        for (let e = CS[n], e1 = CS[n + 1]; e < e1; e++) {
          const c = CH[e];
          const zc = 6 * c, ec = 4 * c, rx = E[ec], ry = E[ec + 1], rz = E[ec + 2], s = E[ec + 3];
          const z0 = Z[zc], z1 = Z[zc + 1], z2 = Z[zc + 2], wx = Z[zc + 3], wy = Z[zc + 4], wz = Z[zc + 5];
          x0 -= s * (z0 + wy * rz - wz * ry);
          x1 -= s * (z1 + wz * rx - wx * rz);
          x2 -= s * (z2 + wx * ry - wy * rx);
        }
        // D⁻¹ is symmetric bit for bit (invert3Sym): its upper triangle read once
        const g00 = Di[o], g01 = Di[o + 1], g02 = Di[o + 2], g11 = Di[o + 4], g12 = Di[o + 5], g22 = Di[o + 8];
        Z[x] = g00 * x0 + g01 * x1 + g02 * x2;
        Z[x + 1] = g01 * x0 + g11 * x1 + g12 * x2;
        Z[x + 2] = g02 * x0 + g12 * x1 + g22 * x2;
      } else {
        if (leaf[n]) continue;
        let x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0;
        for (let e = CS[n], e1 = CS[n + 1]; e < e1; e++) {
          const c = CH[e], zc = 6 * c, ec = 4 * c, rx = E[ec], ry = E[ec + 1], rz = E[ec + 2], s = E[ec + 3];
          const z0 = Z[zc], z1 = Z[zc + 1], z2 = Z[zc + 2];
          x0 -= s * z0;
          x1 -= s * z1;
          x2 -= s * z2;
          x3 -= s * (ry * z2 - rz * z1);
          x4 -= s * (rz * z0 - rx * z2);
          x5 -= s * (rx * z1 - ry * z0);
        }
        // D⁻¹ is symmetric bit for bit (invert6Sym): its upper triangle read once
        const d00 = Di[o], d01 = Di[o + 1], d02 = Di[o + 2], d03 = Di[o + 3], d04 = Di[o + 4], d05 = Di[o + 5],
          d11 = Di[o + 7], d12 = Di[o + 8], d13 = Di[o + 9], d14 = Di[o + 10], d15 = Di[o + 11],
          d22 = Di[o + 14], d23 = Di[o + 15], d24 = Di[o + 16], d25 = Di[o + 17],
          d33 = Di[o + 21], d34 = Di[o + 22], d35 = Di[o + 23],
          d44 = Di[o + 28], d45 = Di[o + 29],
          d55 = Di[o + 35];
        Z[x] = d00 * x0 + d01 * x1 + d02 * x2 + d03 * x3 + d04 * x4 + d05 * x5;
        Z[x + 1] = d01 * x0 + d11 * x1 + d12 * x2 + d13 * x3 + d14 * x4 + d15 * x5;
        Z[x + 2] = d02 * x0 + d12 * x1 + d22 * x2 + d23 * x3 + d24 * x4 + d25 * x5;
        Z[x + 3] = d03 * x0 + d13 * x1 + d23 * x2 + d33 * x3 + d34 * x4 + d35 * x5;
        Z[x + 4] = d04 * x0 + d14 * x1 + d24 * x2 + d34 * x3 + d44 * x4 + d45 * x5;
        Z[x + 5] = d05 * x0 + d15 * x1 + d25 * x2 + d35 * x3 + d45 * x4 + d55 * x5;
      }
    }
    if (res === 0) return 0;
    // backward, parents first: x_n = z_n − L_n x_p, added to the velocities (bodies) and taken from the joint impulses
    for (let q = qn - 1; q >= 0; q--) {
      const n = Q[q], p = par[n], x = 6 * n;
      if (n < nb) {
        if (leaf[n]) {
          // z = 0; no child reads its x
          if (p >= 0) {
            const xp = 6 * p, l = 18 * n, y0 = X[xp], y1 = X[xp + 1], y2 = X[xp + 2];
            V[x] += 0 - (L[l] * y0 + L[l + 1] * y1 + L[l + 2] * y2);
            V[x + 1] += 0 - (L[l + 3] * y0 + L[l + 4] * y1 + L[l + 5] * y2);
            V[x + 2] += 0 - (L[l + 6] * y0 + L[l + 7] * y1 + L[l + 8] * y2);
            V[x + 3] += 0 - (L[l + 9] * y0 + L[l + 10] * y1 + L[l + 11] * y2);
            V[x + 4] += 0 - (L[l + 12] * y0 + L[l + 13] * y1 + L[l + 14] * y2);
            V[x + 5] += 0 - (L[l + 15] * y0 + L[l + 16] * y1 + L[l + 17] * y2);
          }
          continue;
        }
        let z0 = Z[x], z1 = Z[x + 1], z2 = Z[x + 2], z3 = Z[x + 3], z4 = Z[x + 4], z5 = Z[x + 5];
        if (p >= 0) {
          const xp = 6 * p, l = 18 * n, y0 = X[xp], y1 = X[xp + 1], y2 = X[xp + 2];
          z0 -= L[l] * y0 + L[l + 1] * y1 + L[l + 2] * y2;
          z1 -= L[l + 3] * y0 + L[l + 4] * y1 + L[l + 5] * y2;
          z2 -= L[l + 6] * y0 + L[l + 7] * y1 + L[l + 8] * y2;
          z3 -= L[l + 9] * y0 + L[l + 10] * y1 + L[l + 11] * y2;
          z4 -= L[l + 12] * y0 + L[l + 13] * y1 + L[l + 14] * y2;
          z5 -= L[l + 15] * y0 + L[l + 16] * y1 + L[l + 17] * y2;
        }
        X[x] = z0;
        X[x + 1] = z1;
        X[x + 2] = z2;
        X[x + 3] = z3;
        X[x + 4] = z4;
        X[x + 5] = z5;
        V[x] += z0;
        V[x + 1] += z1;
        V[x + 2] += z2;
        V[x + 3] += z3;
        V[x + 4] += z4;
        V[x + 5] += z5;
      } else {
        let z0 = Z[x], z1 = Z[x + 1], z2 = Z[x + 2];
        if (p >= 0) {
          // L_j x_p = s G (v + ω × r)
          const ex = 4 * n, rx = E[ex], ry = E[ex + 1], rz = E[ex + 2], s = E[ex + 3], xp = 6 * p, o = 36 * n;
          const wx = X[xp + 3], wy = X[xp + 4], wz = X[xp + 5];
          const u0 = s * (X[xp] + wy * rz - wz * ry), u1 = s * (X[xp + 1] + wz * rx - wx * rz), u2 = s * (X[xp + 2] + wx * ry - wy * rx);
          const g00 = Di[o], g01 = Di[o + 1], g02 = Di[o + 2], g11 = Di[o + 4], g12 = Di[o + 5], g22 = Di[o + 8];
          z0 -= g00 * u0 + g01 * u1 + g02 * u2;
          z1 -= g01 * u0 + g11 * u1 + g12 * u2;
          z2 -= g02 * u0 + g12 * u1 + g22 * u2;
        }
        X[x] = z0;
        X[x + 1] = z1;
        X[x + 2] = z2;
        const j = 3 * (n - nb);
        P[j] -= z0;
        P[j + 1] -= z1;
        P[j + 2] -= z2;
      }
    }
    return res;
  }

  /** [M Jᵀ; J 0] x = tX (per node) solved in place by the forest's factorization; bodiesZero: the bodies' entries are 0 (a leaf body's z is then 0). */
  private treeSolve(bodiesZero = false): void {
    const leaf = this.tLeaf;
    const qn = this.tN, nb = this.tNb, Q = this.tOrder, par = this.tPar, X = this.tX, Z = this.tZ, Di = this.tDi, L = this.tL, E = this.tEr;
    // forward, children first: z_n = D_n⁻¹ x_n; x_p −= L_nᵀ x_n = s J z_n (body child) or s Jᵀ z_n (joint child)
    for (let q = 0; q < qn; q++) {
      const n = Q[q], p = par[n], x = 6 * n, o = 36 * n;
      if (n < nb) {
        if (bodiesZero && leaf[n]) {
          Z[x] = Z[x + 1] = Z[x + 2] = Z[x + 3] = Z[x + 4] = Z[x + 5] = 0;
          continue;
        }
        const x0 = X[x], x1 = X[x + 1], x2 = X[x + 2], x3 = X[x + 3], x4 = X[x + 4], x5 = X[x + 5];
        const z0 = Di[o] * x0 + Di[o + 1] * x1 + Di[o + 2] * x2 + Di[o + 3] * x3 + Di[o + 4] * x4 + Di[o + 5] * x5;
        const z1 = Di[o + 6] * x0 + Di[o + 7] * x1 + Di[o + 8] * x2 + Di[o + 9] * x3 + Di[o + 10] * x4 + Di[o + 11] * x5;
        const z2 = Di[o + 12] * x0 + Di[o + 13] * x1 + Di[o + 14] * x2 + Di[o + 15] * x3 + Di[o + 16] * x4 + Di[o + 17] * x5;
        const ax = Di[o + 18] * x0 + Di[o + 19] * x1 + Di[o + 20] * x2 + Di[o + 21] * x3 + Di[o + 22] * x4 + Di[o + 23] * x5;
        const ay = Di[o + 24] * x0 + Di[o + 25] * x1 + Di[o + 26] * x2 + Di[o + 27] * x3 + Di[o + 28] * x4 + Di[o + 29] * x5;
        const az = Di[o + 30] * x0 + Di[o + 31] * x1 + Di[o + 32] * x2 + Di[o + 33] * x3 + Di[o + 34] * x4 + Di[o + 35] * x5;
        Z[x] = z0;
        Z[x + 1] = z1;
        Z[x + 2] = z2;
        Z[x + 3] = ax;
        Z[x + 4] = ay;
        Z[x + 5] = az;
        if (p < 0) continue;
        const rx = E[4 * n], ry = E[4 * n + 1], rz = E[4 * n + 2], s = E[4 * n + 3], xp = 6 * p;
        X[xp] -= s * (z0 + ay * rz - az * ry);
        X[xp + 1] -= s * (z1 + az * rx - ax * rz);
        X[xp + 2] -= s * (z2 + ax * ry - ay * rx);
      } else {
        const x0 = X[x], x1 = X[x + 1], x2 = X[x + 2];
        const z0 = Di[o] * x0 + Di[o + 1] * x1 + Di[o + 2] * x2, z1 = Di[o + 3] * x0 + Di[o + 4] * x1 + Di[o + 5] * x2, z2 = Di[o + 6] * x0 + Di[o + 7] * x1 + Di[o + 8] * x2;
        Z[x] = z0;
        Z[x + 1] = z1;
        Z[x + 2] = z2;
        if (p < 0) continue;
        const rx = E[4 * n], ry = E[4 * n + 1], rz = E[4 * n + 2], s = E[4 * n + 3], xp = 6 * p;
        X[xp] -= s * z0;
        X[xp + 1] -= s * z1;
        X[xp + 2] -= s * z2;
        X[xp + 3] -= s * (ry * z2 - rz * z1);
        X[xp + 4] -= s * (rz * z0 - rx * z2);
        X[xp + 5] -= s * (rx * z1 - ry * z0);
      }
    }
    // backward, parents first: x_n = z_n − L_n x_p
    for (let q = qn - 1; q >= 0; q--) {
      const n = Q[q], p = par[n], x = 6 * n;
      if (n < nb) {
        if (p < 0) {
          X[x] = Z[x];
          X[x + 1] = Z[x + 1];
          X[x + 2] = Z[x + 2];
          X[x + 3] = Z[x + 3];
          X[x + 4] = Z[x + 4];
          X[x + 5] = Z[x + 5];
          continue;
        }
        const xp = 6 * p, l = 18 * n, y0 = X[xp], y1 = X[xp + 1], y2 = X[xp + 2];
        X[x] = Z[x] - (L[l] * y0 + L[l + 1] * y1 + L[l + 2] * y2);
        X[x + 1] = Z[x + 1] - (L[l + 3] * y0 + L[l + 4] * y1 + L[l + 5] * y2);
        X[x + 2] = Z[x + 2] - (L[l + 6] * y0 + L[l + 7] * y1 + L[l + 8] * y2);
        X[x + 3] = Z[x + 3] - (L[l + 9] * y0 + L[l + 10] * y1 + L[l + 11] * y2);
        X[x + 4] = Z[x + 4] - (L[l + 12] * y0 + L[l + 13] * y1 + L[l + 14] * y2);
        X[x + 5] = Z[x + 5] - (L[l + 15] * y0 + L[l + 16] * y1 + L[l + 17] * y2);
      } else {
        if (p < 0) {
          X[x] = Z[x];
          X[x + 1] = Z[x + 1];
          X[x + 2] = Z[x + 2];
          continue;
        }
        // L_j x_p = s G (v + ω × r)
        const rx = E[4 * n], ry = E[4 * n + 1], rz = E[4 * n + 2], s = E[4 * n + 3], xp = 6 * p, o = 36 * n;
        const wx = X[xp + 3], wy = X[xp + 4], wz = X[xp + 5];
        const u0 = s * (X[xp] + wy * rz - wz * ry), u1 = s * (X[xp + 1] + wz * rx - wx * rz), u2 = s * (X[xp + 2] + wx * ry - wy * rx);
        X[x] = Z[x] - (Di[o] * u0 + Di[o + 1] * u1 + Di[o + 2] * u2);
        X[x + 1] = Z[x + 1] - (Di[o + 3] * u0 + Di[o + 4] * u1 + Di[o + 5] * u2);
        X[x + 2] = Z[x + 2] - (Di[o + 6] * u0 + Di[o + 7] * u1 + Di[o + 8] * u2);
      }
    }
  }

  // joint limits with their joint in the forest (treeJoints and limitBlocks): stepped in the joint-eliminated
  // space, the response of a unit normal impulse (velocities of every body, 6 nb, and the joints' impulses, 3 nj) precomputed
  private aList = new Int32Array(0); // contacts
  private aN = 0;
  private aInvK = F64(0); // 1 / (articulated normal effective mass)
  private aResp = F64(0);
  private aStride = 0;

  /** The joint limits whose joint is in the forest (marked in cArt); their responses are computed when first needed (artResponse). */
  private buildLimitResponses(nb: number, nj: number, nc: number): void {
    this.aN = 0;
    const prevN = this.aPrevN;
    this.aPrevN = 0;
    if (this.tN === 0) return;
    const prim = this.tPrim, jt = this.cJt, act = this.cAct, sel = this.cArt;
    const lim = this.limitBlocks && this.artLimits, gnd = this.artContacts, bm = this.bm, bI = this.bI, AS = this.tAdjS, ca = this.ca, cb = this.cb;
    let na = 0;
    for (let c = 0; c < nc; c++) {
      sel[c] = 0;
      if (!act[c]) continue;
      if (lim && jt[c] >= 0 && prim[jt[c]] && this.cEff[c] > 0) sel[c] = 1;
      else if (gnd) {
        // A a forest body, B does not move (the world, a keyframed body)
        const a = ca[c], b = cb[c], ib = 9 * b;
        if (a < nb && bm[a] > 0 && AS[a + 1] > AS[a] && bm[b] === 0 && bI[ib] === 0 && bI[ib + 4] === 0 && bI[ib + 8] === 0 && bI[ib + 1] === 0 && bI[ib + 2] === 0 && bI[ib + 5] === 0) sel[c] = 2;
      }
      if (sel[c]) na++;
    }
    if (na === 0) return;
    const stride = 6 * nb + 3 * nj, reuse = this.tReused && this.aStride === stride;
    // the last call's limits (keys, responses) to reuse: swap the buffers
    const oN = reuse ? prevN : 0, oKey = this.aKey, oResp = this.aResp, oInvK = this.aInvK, oDone = this.aDone;
    this.aKey = growF(this.aKeyB, 11 * na);
    this.aResp = growF(this.aRespB, na * stride);
    this.aInvK = growF(this.aInvKB, na);
    this.aDone = growU8(this.aDoneB, na);
    this.aKeyB = oKey;
    this.aRespB = oResp;
    this.aInvKB = oInvK;
    this.aDoneB = oDone;
    this.aStride = stride;
    this.aList = growI(this.aList, na);
    this.aAcc = growF(this.aAcc, na);
    const K = this.aKey, F = this.cf, r = this.cr;
    let k = 0;
    for (let c = 0; c < nc; c++) {
      if (!sel[c]) continue;
      this.aList[k] = c;
      this.aDone[k] = 0;
      this.aAcc[k] = 0;
      const o = 11 * k;
      K[o] = this.ca[c];
      K[o + 1] = this.cb[c];
      for (let i = 0; i < 3; i++) K[o + 2 + i] = F[9 * c + i];
      for (let i = 0; i < 6; i++) K[o + 5 + i] = r[6 * c + i];
      for (let q = 0; q < oN; q++) {
        if (!oDone[q]) continue;
        let eq = true;
        for (let i = 0; i < 11 && eq; i++) eq = oKey[11 * q + i] === K[o + i];
        if (!eq) continue;
        this.aResp.set(oResp.subarray(q * stride, (q + 1) * stride), k * stride);
        this.aInvK[k] = oInvK[q];
        this.aDone[k] = 1;
        break;
      }
      k++;
    }
    this.aN = k;
    this.aPrevN = k;
  }

  private aKey = F64(0); // per limit: bodies, normal, arms (11): the key of its response for the next call
  private aPrevN = 0;
  private aKeyB = F64(0); // the other buffers (the last call's)
  private aRespB = F64(0);
  private aInvKB = F64(0);
  private aDoneB = new Uint8Array(0);
  private aAcc = F64(0); // per limit: normal impulse applied by artStep whose joint impulses are not yet in jP (artFlush)
  private aDone = new Uint8Array(0);

  /** Limit k's response to a unit normal impulse (one tree solve) and its articulated effective mass; 0 when the joints take the whole row. */
  private artResponse(k: number): void {
    const c = this.aList[k], nb = this.tNb, stride = this.aStride, nj = (stride - 6 * nb) / 3;
    const X = this.tX, Q = this.tOrder, qn = this.tN, R = this.aResp, F = this.cf, J = this.cJ, prim = this.tPrim;
    for (let q = 0; q < qn; q++) {
      const x = 6 * Q[q];
      X[x] = X[x + 1] = X[x + 2] = X[x + 3] = X[x + 4] = X[x + 5] = 0;
    }
    const a = this.ca[c], b = this.cb[c], f = 9 * c, jo = 36 * c;
    // f_A = (n, r_A × n), f_B = −(n, r_B × n) (a side that does not move: no term)
    for (let side = 0; side < 2; side++) {
      const i = side === 0 ? a : b, sg = side === 0 ? 1 : -1, x = 6 * i, w = jo + 3 * side;
      if (!(i < nb && this.bm[i] > 0)) continue;
      X[x] = sg * F[f];
      X[x + 1] = sg * F[f + 1];
      X[x + 2] = sg * F[f + 2];
      X[x + 3] = sg * J[w];
      X[x + 4] = sg * J[w + 1];
      X[x + 5] = sg * J[w + 2];
    }
    this.treeSolve();
    const o = k * stride;
    for (let i = 0; i < 6 * nb; i++) R[o + i] = 0;
    for (let q = 0; q < qn; q++) {
      const n = Q[q], x = 6 * n;
      if (n >= nb) {
        const j = o + 6 * nb + 3 * (n - nb);
        R[j] = -X[x];
        R[j + 1] = -X[x + 1];
        R[j + 2] = -X[x + 2];
      } else for (let r = 0; r < 6; r++) R[o + 6 * n + r] = X[x + r];
    }
    for (let j = 0; j < nj; j++) if (!prim[j]) R[o + 6 * nb + 3 * j] = R[o + 6 * nb + 3 * j + 1] = R[o + 6 * nb + 3 * j + 2] = 0;
    // K = J_n Δv
    let kn = 0;
    for (let side = 0; side < 2; side++) {
      const i = side === 0 ? a : b, sg = side === 0 ? 1 : -1, w = jo + 3 * side, v = o + 6 * i;
      if (!(i < nb && this.bm[i] > 0)) continue;
      kn += sg * (F[f] * R[v] + F[f + 1] * R[v + 1] + F[f + 2] * R[v + 2] + J[w] * R[v + 3] + J[w + 1] * R[v + 4] + J[w + 2] * R[v + 5]);
    }
    this.aInvK[k] = kn > 1e-9 / this.cmn[c] ? 1 / kn : 0;
    this.aDone[k] = 1;
  }

  /** Joint limit k of aList in the joint-eliminated space: λₙ ← max(0, λₙ − vₙ / K), the response applied to every body (the joints' impulses later, artFlush). */
  private artStep(k: number): number {
    const c = this.aList[k], F = this.cf, f = 9 * c, L = this.cL, ln0 = L[3 * c];
    this.relVel(this.ca[c], this.cb[c], this.cr, 6 * c);
    const vn = this.rv0 * F[f] + this.rv1 * F[f + 1] + this.rv2 * F[f + 2];
    if (ln0 === 0 && vn >= 0) return 0;
    if (!this.aDone[k]) this.artResponse(k);
    const iK = this.aInvK[k];
    if (iK === 0) {
      // the joints take the whole row (no articulated effective mass): the local block, or the local row
      this.artFlush();
      if (this.cJt[c] >= 0) return this.limitStep(c);
      const ln = Math.max(0, ln0 - this.cmn[c] * vn), dl = ln - ln0;
      if (dl === 0) return 0;
      L[3 * c] = ln;
      this.apply(this.ca[c], this.cb[c], this.cr, 6 * c, dl * F[f], dl * F[f + 1], dl * F[f + 2]);
      return Math.abs(dl / this.cmn[c]);
    }
    const ln = Math.max(0, ln0 - iK * vn), dl = ln - ln0;
    if (dl === 0) return 0;
    L[3 * c] = ln;
    this.aAcc[k] += dl;
    const o = k * this.aStride, R = this.aResp, V = this.bV, nv = 6 * this.tNb;
    for (let i = 0; i < nv; i++) V[i] += dl * R[o + i];
    return Math.abs(dl / iK);
  }

  /** The joint impulses of the artSteps so far into jP. */
  private artFlush(): void {
    const na = this.aN, stride = this.aStride, nv = 6 * this.tNb, R = this.aResp, P = this.jP, A = this.aAcc;
    for (let k = 0; k < na; k++) {
      const d = A[k];
      if (d === 0) continue;
      A[k] = 0;
      const o = k * stride;
      for (let i = nv; i < stride; i++) P[i - nv] += d * R[o + i];
    }
  }

  /**
   * Sweeps until no row velocity changes by more than bound, at most maxSweeps; sets stats.converged /
   * lastChange; returns the sweeps. Without the forest: gsLoop. With it (forward sweeps): the joints
   * outside the forest and the contacts by Gauss–Seidel, then the forest's joints exactly (treeProject),
   * then the joint limits in the joint-eliminated space (artStep; the joints stay exact).
   */
  private sweepLoop(nj: number, bound: number): number {
    if (this.tN === 0) return this.gsLoop(nj, bound);
    const st = this.stats, prim = this.tPrim, na = this.aN, art = this.cArt, list = this.aList;
    let sweeps = 0, change = 0;
    st.converged = false;
    while (sweeps < this.maxSweeps) {
      change = 0;
      for (let k = 0; k < na; k++) if (art[list[k]] === 2) change = Math.max(change, this.artStep(k));
      for (let j = 0; j < nj; j++) if (!prim[j]) change = Math.max(change, this.jointStep(j));
      change = Math.max(change, this.contactPass(false));
      for (let k = 0; k < na; k++) if (art[list[k]] === 2) change = Math.max(change, this.artFriction(list[k]));
      change = Math.max(change, this.treeProject());
      for (let k = 0; k < na; k++) if (art[list[k]] === 1) change = Math.max(change, this.artStep(k));
      sweeps++;
      if (change <= bound) {
        st.converged = true;
        break;
      }
    }
    st.lastChange = change;
    if (na > 0) this.artFlush();
    return sweeps;
  }

  // per active contact (gsLoop): its index (gsList); per contact with friction, K_tt's eigen-decomposition (e₁, e₂, cos, sin; cEig)
  private gsList = new Int32Array(0);
  private gsN = 0;
  private cEig = F64(0);
  private cKap = F64(0); // per contact: the κ of its last disc projection (diskMinEig's warm start)

  /**
   * Per call, for contactPass: the active contacts' list (without the joint limits stepped by artStep); per
   * contact whose B side does not move in the solve (the world, a keyframed body) the B side's row
   * velocities (cBias: n, t₁, t₂), which stay constant; per contact with friction K_tt⁻¹ and K_tt's
   * eigen-decomposition (cEig: e₁, e₂, cos, sin, K_tt⁻¹ as i11, i12, i22, and 1 when K_tt is invertible).
   */
  private gsSetup(nc: number): void {
    this.gsList = growI(this.gsList, nc);
    // a contact with the last call's inputs (cSame) has the last call's decomposition in place
    const keep = this.cEig.length >= 8 * nc, same = this.cSame;
    this.cEig = growF(this.cEig, 8 * nc);
    this.cKap = growF(this.cKap, nc);
    this.cKap.fill(0, 0, nc);
    this.cOne = growU8(this.cOne, nc);
    this.cBias = growF(this.cBias, 3 * nc);
    const act = this.cAct, list = this.gsList, E = this.cEig, Kt = this.cK, g = this.cg, art = this.cArt, one = this.cOne, B = this.cBias;
    const bm = this.bm, bI = this.bI, V = this.bV, F = this.cf, J = this.cJ, cb = this.cb;
    let n = 0;
    for (let c = 0; c < nc; c++) {
      // (joint limits stepped by artStep: not here; contacts whose normal row artStep takes: their friction by artFriction)
      if (!act[c] || art[c] === 1) continue;
      if (art[c] === 0) list[n++] = c;
      const b = cb[c], ob = 6 * b, ib = 9 * b;
      one[c] = bm[b] === 0 && bI[ib] === 0 && bI[ib + 4] === 0 && bI[ib + 8] === 0 && bI[ib + 1] === 0 && bI[ib + 2] === 0 && bI[ib + 5] === 0 ? 1 : 0;
      if (one[c]) {
        const f = 9 * c, j = 36 * c, vx = V[ob], vy = V[ob + 1], vz = V[ob + 2], wx = V[ob + 3], wy = V[ob + 4], wz = V[ob + 5];
        B[3 * c] = F[f] * vx + F[f + 1] * vy + F[f + 2] * vz + J[j + 3] * wx + J[j + 4] * wy + J[j + 5] * wz;
        B[3 * c + 1] = F[f + 3] * vx + F[f + 4] * vy + F[f + 5] * vz + J[j + 15] * wx + J[j + 16] * wy + J[j + 17] * wz;
        B[3 * c + 2] = F[f + 6] * vx + F[f + 7] * vy + F[f + 8] * vz + J[j + 27] * wx + J[j + 28] * wy + J[j + 29] * wz;
      }
      if (g[c] === 0 || (keep && same[c] === 1)) continue;
      const k11 = Kt[3 * c], k12 = Kt[3 * c + 1], k22 = Kt[3 * c + 2], e = 8 * c;
      eigen2(k11, k12, k22, E, e);
      const det = k11 * k22 - k12 * k12;
      if (det > 1e-300 * (k11 * k22 + 1e-300)) {
        E[e + 4] = k22 / det;
        E[e + 5] = -k12 / det;
        E[e + 6] = k11 / det;
        E[e + 7] = 1;
      } else E[e + 7] = 0;
    }
    this.gsN = n;
  }

  private cOne = new Uint8Array(0);
  private cBias = F64(0);

  /**
   * sweepLoop without the forest: every joint by its 3×3 block (jointPass), then every active contact
   * (contactPass); backward on odd sweeps when symmetric.
   */
  private gsLoop(nj: number, bound: number): number {
    const st = this.stats, cap = this.maxSweeps, symmetric = this.symmetric;
    let sweeps = 0, change = 0;
    st.converged = false;
    while (sweeps < cap) {
      const backward = symmetric && (sweeps & 1) === 1;
      if (!backward) change = Math.max(this.jointPass(0, nj, false), this.contactPass(false));
      else change = Math.max(this.contactPass(true), this.jointPass(0, nj, true));
      sweeps++;
      if (change <= bound) {
        st.converged = true;
        break;
      }
    }
    st.lastChange = change;
    return sweeps;
  }

  /** Joints j0 ≤ j < j1 (in reverse when backward), each block solved exactly (jointStep); returns the largest row velocity change. */
  private jointPass(j0: number, j1: number, backward: boolean): number {
    const V = this.bV, bm = this.bm, M = this.jM, ja = this.ja, jb = this.jb, jr = this.jr, jK = this.jK, jP = this.jP;
    let change = 0;
    for (let q = j0; q < j1; q++) {
      const j = backward ? j1 - 1 - (q - j0) : q, k18 = 18 * j;
      const a = ja[j], b = jb[j], o = 6 * j, oa = 6 * a, ob = 6 * b;
      const ax = jr[o], ay = jr[o + 1], az = jr[o + 2], bx = jr[o + 3], by = jr[o + 4], bz = jr[o + 5];
      const wax = V[oa + 3], way = V[oa + 4], waz = V[oa + 5], wbx = V[ob + 3], wby = V[ob + 4], wbz = V[ob + 5];
      const v0 = V[oa] + way * az - waz * ay - (V[ob] + wby * bz - wbz * by);
      const v1 = V[oa + 1] + waz * ax - wax * az - (V[ob + 1] + wbz * bx - wbx * bz);
      const v2 = V[oa + 2] + wax * ay - way * ax - (V[ob + 2] + wbx * by - wby * bx);
      const k = 9 * j;
      const px = -(jK[k] * v0 + jK[k + 3] * v1 + jK[k + 6] * v2), py = -(jK[k + 1] * v0 + jK[k + 4] * v1 + jK[k + 7] * v2), pz = -(jK[k + 2] * v0 + jK[k + 5] * v1 + jK[k + 8] * v2);
      if (px === 0 && py === 0 && pz === 0) continue;
      jP[3 * j] += px;
      jP[3 * j + 1] += py;
      jP[3 * j + 2] += pz;
      let m = bm[a];
      if (m > 0) {
        // Δω = I⁻¹ (r × p) = M p (jM, column-major)
        const u = k18;
        V[oa] += m * px;
        V[oa + 1] += m * py;
        V[oa + 2] += m * pz;
        V[oa + 3] = wax + (M[u] * px + M[u + 3] * py + M[u + 6] * pz);
        V[oa + 4] = way + (M[u + 1] * px + M[u + 4] * py + M[u + 7] * pz);
        V[oa + 5] = waz + (M[u + 2] * px + M[u + 5] * py + M[u + 8] * pz);
      }
      m = bm[b];
      if (m > 0) {
        // Δω = I⁻¹ (r × p) = M p (jM, column-major)
        const u = k18 + 9;
        V[ob] -= m * px;
        V[ob + 1] -= m * py;
        V[ob + 2] -= m * pz;
        V[ob + 3] = wbx - (M[u] * px + M[u + 3] * py + M[u + 6] * pz);
        V[ob + 4] = wby - (M[u + 1] * px + M[u + 4] * py + M[u + 7] * pz);
        V[ob + 5] = wbz - (M[u + 2] * px + M[u + 5] * py + M[u + 8] * pz);
      }
      const r = Math.max(Math.abs(v0), Math.abs(v1), Math.abs(v2));
      if (r > change) change = r;
    }
    return change;
  }

  /** The active contacts of gsList (in reverse when backward): normal row, then the tangent pair over its disc (contactStep); returns the largest row velocity change. */
  private contactPass(backward: boolean): number {
    const V = this.bV, bm = this.bm, ca = this.ca, cb = this.cb, F = this.cf, J = this.cJ, L = this.cL, cmn = this.cmn, Kt = this.cK, cg = this.cg, jt = this.cJt;
    const list = this.gsList, na = this.gsN, one = this.cOne;
    let change = 0;
    for (let q = 0; q < na; q++) {
      const c = list[backward ? na - 1 - q : q];
      if (jt[c] >= 0) {
        change = Math.max(change, this.limitStep(c));
        continue;
      }
      if (one[c]) {
        const r = this.oneSidedStep(c);
        if (r > change) change = r;
        continue;
      }
      const a = ca[c], b = cb[c], oa = 6 * a, ob = 6 * b, f = 9 * c, j = 36 * c, l = 3 * c;
      const ma = bm[a], mb = bm[b];
      let vax = V[oa], vay = V[oa + 1], vaz = V[oa + 2], wax = V[oa + 3], way = V[oa + 4], waz = V[oa + 5];
      let vbx = V[ob], vby = V[ob + 1], vbz = V[ob + 2], wbx = V[ob + 3], wby = V[ob + 4], wbz = V[ob + 5];
      const nx = F[f], ny = F[f + 1], nz = F[f + 2];
      const vn = nx * (vax - vbx) + ny * (vay - vby) + nz * (vaz - vbz) + J[j] * wax + J[j + 1] * way + J[j + 2] * waz - (J[j + 3] * wbx + J[j + 4] * wby + J[j + 5] * wbz);
      const mn = cmn[c], ln0 = L[l], ln = Math.max(0, ln0 - mn * vn), dn = ln - ln0;
      let ch = 0;
      if (dn !== 0) {
        L[l] = ln;
        const pa = ma * dn, pb = mb * dn;
        vax += pa * nx;
        vay += pa * ny;
        vaz += pa * nz;
        wax += dn * J[j + 6];
        way += dn * J[j + 7];
        waz += dn * J[j + 8];
        vbx -= pb * nx;
        vby -= pb * ny;
        vbz -= pb * nz;
        wbx -= dn * J[j + 9];
        wby -= dn * J[j + 10];
        wbz -= dn * J[j + 11];
        ch = Math.abs(dn / mn);
      }
      const g = cg[c];
      // (separated, no friction impulse: the disc is the point 0, the pair stays at 0)
      if (g !== 0 && (ln !== 0 || g === Infinity || L[l + 1] !== 0 || L[l + 2] !== 0)) {
        const ux = F[f + 3], uy = F[f + 4], uz = F[f + 5], sx = F[f + 6], sy = F[f + 7], sz = F[f + 8];
        const dvx = vax - vbx, dvy = vay - vby, dvz = vaz - vbz;
        const w1 = ux * dvx + uy * dvy + uz * dvz + J[j + 12] * wax + J[j + 13] * way + J[j + 14] * waz - (J[j + 15] * wbx + J[j + 16] * wby + J[j + 17] * wbz);
        const w2 = sx * dvx + sy * dvy + sz * dvz + J[j + 24] * wax + J[j + 25] * way + J[j + 26] * waz - (J[j + 27] * wbx + J[j + 28] * wby + J[j + 29] * wbz);
        const kk = 3 * c, k11 = Kt[kk], k12 = Kt[kk + 1], k22 = Kt[kk + 2];
        const l1 = L[l + 1], l2 = L[l + 2];
        const z1 = k11 * l1 + k12 * l2 - w1, z2 = k12 * l1 + k22 * l2 - w2;
        this.frictionImpulse(c, z1, z2, l1, l2, ln, g);
        const x1 = _x[0], x2 = _x[1];
        const d1 = x1 - l1, d2 = x2 - l2;
        if (d1 !== 0 || d2 !== 0) {
          L[l + 1] = x1;
          L[l + 2] = x2;
          const px = d1 * ux + d2 * sx, py = d1 * uy + d2 * sy, pz = d1 * uz + d2 * sz;
          vax += ma * px;
          vay += ma * py;
          vaz += ma * pz;
          wax += d1 * J[j + 18] + d2 * J[j + 30];
          way += d1 * J[j + 19] + d2 * J[j + 31];
          waz += d1 * J[j + 20] + d2 * J[j + 32];
          vbx -= mb * px;
          vby -= mb * py;
          vbz -= mb * pz;
          wbx -= d1 * J[j + 21] + d2 * J[j + 33];
          wby -= d1 * J[j + 22] + d2 * J[j + 34];
          wbz -= d1 * J[j + 23] + d2 * J[j + 35];
          ch = Math.max(ch, Math.abs(k11 * d1 + k12 * d2), Math.abs(k12 * d1 + k22 * d2));
        }
      }
      if (ch === 0) continue;
      if (ch > change) change = ch;
      V[oa] = vax;
      V[oa + 1] = vay;
      V[oa + 2] = vaz;
      V[oa + 3] = wax;
      V[oa + 4] = way;
      V[oa + 5] = waz;
      V[ob] = vbx;
      V[ob + 1] = vby;
      V[ob + 2] = vbz;
      V[ob + 3] = wbx;
      V[ob + 4] = wby;
      V[ob + 5] = wbz;
    }
    return change;
  }

  /**
   * Contact c's new tangent impulse into _x: the minimizer of ½ xᵀ K_tt x − zᵀ x (z = K_tt λ_t − v_t) over
   * the friction disc |x| ≤ γ λₙ (no bound for γ = ∞); λ_t = (l1, l2) kept where K_tt is singular.
   */
  private frictionImpulse(c: number, z1: number, z2: number, l1: number, l2: number, ln: number, g: number): void {
    const E = this.cEig, e = 8 * c;
    let x1 = l1, x2 = l2;
    if (E[e + 7] === 1) {
      x1 = E[e + 4] * z1 + E[e + 5] * z2;
      x2 = E[e + 5] * z1 + E[e + 6] * z2;
    }
    if (g !== Infinity) {
      const R = g * ln;
      if (x1 * x1 + x2 * x2 > R * R) {
        if (R > 0) {
          this.cKap[c] = diskMinEig(E, e, z1, z2, R, this.cKap[c]);
          return;
        }
        x1 = x2 = 0;
      }
    }
    _x[0] = x1;
    _x[1] = x2;
  }

  /** The friction pair of contact c whose normal row artStep takes (cArt 2; B does not move: cBias), as in oneSidedStep. */
  private artFriction(c: number): number {
    const g = this.cg[c], L = this.cL, l = 3 * c, ln = L[l];
    if (g === 0 || !(ln !== 0 || g === Infinity || L[l + 1] !== 0 || L[l + 2] !== 0)) return 0;
    const V = this.bV, a = this.ca[c], oa = 6 * a, F = this.cf, f = 9 * c, J = this.cJ, j = 36 * c, B = this.cBias, ma = this.bm[a];
    const vax = V[oa], vay = V[oa + 1], vaz = V[oa + 2], wax = V[oa + 3], way = V[oa + 4], waz = V[oa + 5];
    const ux = F[f + 3], uy = F[f + 4], uz = F[f + 5], sx = F[f + 6], sy = F[f + 7], sz = F[f + 8];
    const w1 = ux * vax + uy * vay + uz * vaz + J[j + 12] * wax + J[j + 13] * way + J[j + 14] * waz - B[l + 1];
    const w2 = sx * vax + sy * vay + sz * vaz + J[j + 24] * wax + J[j + 25] * way + J[j + 26] * waz - B[l + 2];
    const Kt = this.cK, kk = 3 * c, k11 = Kt[kk], k12 = Kt[kk + 1], k22 = Kt[kk + 2];
    const l1 = L[l + 1], l2 = L[l + 2];
    this.frictionImpulse(c, k11 * l1 + k12 * l2 - w1, k12 * l1 + k22 * l2 - w2, l1, l2, ln, g);
    const d1 = _x[0] - l1, d2 = _x[1] - l2;
    if (d1 === 0 && d2 === 0) return 0;
    L[l + 1] = _x[0];
    L[l + 2] = _x[1];
    const px = d1 * ux + d2 * sx, py = d1 * uy + d2 * sy, pz = d1 * uz + d2 * sz;
    V[oa] = vax + ma * px;
    V[oa + 1] = vay + ma * py;
    V[oa + 2] = vaz + ma * pz;
    V[oa + 3] = wax + (d1 * J[j + 18] + d2 * J[j + 30]);
    V[oa + 4] = way + (d1 * J[j + 19] + d2 * J[j + 31]);
    V[oa + 5] = waz + (d1 * J[j + 20] + d2 * J[j + 32]);
    return Math.max(Math.abs(k11 * d1 + k12 * d2), Math.abs(k12 * d1 + k22 * d2));
  }

  /** contactPass's step of contact c whose B side does not move (cOne): B's row velocities are cBias. */
  private oneSidedStep(c: number): number {
    const V = this.bV, a = this.ca[c], oa = 6 * a, F = this.cf, f = 9 * c, J = this.cJ, j = 36 * c, L = this.cL, l = 3 * c, B = this.cBias;
    const ma = this.bm[a];
    let vax = V[oa], vay = V[oa + 1], vaz = V[oa + 2], wax = V[oa + 3], way = V[oa + 4], waz = V[oa + 5];
    const nx = F[f], ny = F[f + 1], nz = F[f + 2];
    const vn = nx * vax + ny * vay + nz * vaz + J[j] * wax + J[j + 1] * way + J[j + 2] * waz - B[l];
    const mn = this.cmn[c], ln0 = L[l], ln = Math.max(0, ln0 - mn * vn), dn = ln - ln0;
    let ch = 0;
    if (dn !== 0) {
      L[l] = ln;
      const pa = ma * dn;
      vax += pa * nx;
      vay += pa * ny;
      vaz += pa * nz;
      wax += dn * J[j + 6];
      way += dn * J[j + 7];
      waz += dn * J[j + 8];
      ch = Math.abs(dn / mn);
    }
    const g = this.cg[c];
    if (g !== 0 && (ln !== 0 || g === Infinity || L[l + 1] !== 0 || L[l + 2] !== 0)) {
      const ux = F[f + 3], uy = F[f + 4], uz = F[f + 5], sx = F[f + 6], sy = F[f + 7], sz = F[f + 8];
      const w1 = ux * vax + uy * vay + uz * vaz + J[j + 12] * wax + J[j + 13] * way + J[j + 14] * waz - B[l + 1];
      const w2 = sx * vax + sy * vay + sz * vaz + J[j + 24] * wax + J[j + 25] * way + J[j + 26] * waz - B[l + 2];
      const Kt = this.cK, kk = 3 * c, k11 = Kt[kk], k12 = Kt[kk + 1], k22 = Kt[kk + 2];
      const l1 = L[l + 1], l2 = L[l + 2];
      const z1 = k11 * l1 + k12 * l2 - w1, z2 = k12 * l1 + k22 * l2 - w2;
      this.frictionImpulse(c, z1, z2, l1, l2, ln, g);
      const x1 = _x[0], x2 = _x[1];
      const d1 = x1 - l1, d2 = x2 - l2;
      if (d1 !== 0 || d2 !== 0) {
        L[l + 1] = x1;
        L[l + 2] = x2;
        const px = d1 * ux + d2 * sx, py = d1 * uy + d2 * sy, pz = d1 * uz + d2 * sz;
        vax += ma * px;
        vay += ma * py;
        vaz += ma * pz;
        wax += d1 * J[j + 18] + d2 * J[j + 30];
        way += d1 * J[j + 19] + d2 * J[j + 31];
        waz += d1 * J[j + 20] + d2 * J[j + 32];
        ch = Math.max(ch, Math.abs(k11 * d1 + k12 * d2), Math.abs(k12 * d1 + k22 * d2));
      }
    }
    if (ch === 0) return 0;
    V[oa] = vax;
    V[oa + 1] = vay;
    V[oa + 2] = vaz;
    V[oa + 3] = wax;
    V[oa + 4] = way;
    V[oa + 5] = waz;
    return ch;
  }

  /** The input velocities into bV. */
  private loadVelocities(bodies: readonly RigidBodyInput[]): void {
    const V = this.bV;
    for (let i = 0; i < bodies.length; i++) {
      const b = bodies[i], o6 = 6 * i;
      V[o6] = b.linearVelocity.x;
      V[o6 + 1] = b.linearVelocity.y;
      V[o6 + 2] = b.linearVelocity.z;
      V[o6 + 3] = b.angularVelocity.x;
      V[o6 + 4] = b.angularVelocity.y;
      V[o6 + 5] = b.angularVelocity.z;
    }
  }

  /** Kinetic energy of the dynamic bodies at the current velocities (masses and inertias as setupBodies kept them). */
  private dynamicEnergy(bodies: readonly RigidBodyInput[]): number {
    const nb = bodies.length, bm = this.bm, M = this.bMass, I = this.bIn, V = this.bV;
    let e = 0;
    for (let i = 0; i < nb; i++) if (bm[i] !== 0) e += kinetic(M[i], I, 9 * i, V, 6 * i);
    return e;
  }

  /**
   * Work of the keyframed bodies' points on the dynamic bodies through the current impulses
   * (impulse on the dynamic side · velocity of the keyframed point); with zero impulses at the start,
   * every step keeps E⁺ ≤ E⁻ + this (each step minimizes the energy of its rows less this work).
   */
  private keyframedWork(bodies: readonly RigidBodyInput[], nc: number): number {
    const nb = bodies.length, V = this.bV, F = this.cf, L = this.cL, r = this.cr;
    let w = 0;
    for (let c = 0; c < nc; c++) {
      if (!this.cAct[c]) continue;
      const a = this.ca[c], b = this.cb[c];
      const ka = a < nb && bodies[a].keyframed, kb = b < nb && bodies[b].keyframed;
      if (!ka && !kb) continue;
      const f = 9 * c, ln = L[3 * c], l1 = L[3 * c + 1], l2 = L[3 * c + 2];
      const px = ln * F[f] + l1 * F[f + 3] + l2 * F[f + 6], py = ln * F[f + 1] + l1 * F[f + 4] + l2 * F[f + 7], pz = ln * F[f + 2] + l1 * F[f + 5] + l2 * F[f + 8];
      // B keyframed: A (dynamic) receives P; A keyframed: B receives −P
      const i = kb ? b : a, o = kb ? 6 * c + 3 : 6 * c, sg = kb ? 1 : -1, oi = 6 * i;
      const wx = V[oi + 3], wy = V[oi + 4], wz = V[oi + 5];
      const vx = V[oi] + wy * r[o + 2] - wz * r[o + 1], vy = V[oi + 1] + wz * r[o] - wx * r[o + 2], vz = V[oi + 2] + wx * r[o + 1] - wy * r[o];
      w += sg * (px * vx + py * vy + pz * vz);
    }
    return w;
  }

  // relative velocity (A's point − B's point) of the last relVel call
  private rv0 = 0;
  private rv1 = 0;
  private rv2 = 0;

  private relVel(a: number, b: number, r: Float64Array, o: number): void {
    const V = this.bV, oa = 6 * a, ob = 6 * b;
    const ax = r[o], ay = r[o + 1], az = r[o + 2], bx = r[o + 3], by = r[o + 4], bz = r[o + 5];
    const wax = V[oa + 3], way = V[oa + 4], waz = V[oa + 5], wbx = V[ob + 3], wby = V[ob + 4], wbz = V[ob + 5];
    this.rv0 = V[oa] + way * az - waz * ay - (V[ob] + wby * bz - wbz * by);
    this.rv1 = V[oa + 1] + waz * ax - wax * az - (V[ob + 1] + wbz * bx - wbx * bz);
    this.rv2 = V[oa + 2] + wax * ay - way * ax - (V[ob + 2] + wbx * by - wby * bx);
  }

  /** Impulse (px, py, pz) on A at arm r[o..], its opposite on B at r[o+3..]. */
  private apply(a: number, b: number, r: Float64Array, o: number, px: number, py: number, pz: number): void {
    const V = this.bV, I = this.bI;
    let m = this.bm[a];
    if (m > 0) {
      const oa = 6 * a, ia = 9 * a;
      const tx = r[o + 1] * pz - r[o + 2] * py, ty = r[o + 2] * px - r[o] * pz, tz = r[o] * py - r[o + 1] * px;
      V[oa] += m * px;
      V[oa + 1] += m * py;
      V[oa + 2] += m * pz;
      V[oa + 3] += I[ia] * tx + I[ia + 3] * ty + I[ia + 6] * tz;
      V[oa + 4] += I[ia + 1] * tx + I[ia + 4] * ty + I[ia + 7] * tz;
      V[oa + 5] += I[ia + 2] * tx + I[ia + 5] * ty + I[ia + 8] * tz;
    }
    m = this.bm[b];
    if (m > 0) {
      const ob = 6 * b, ib = 9 * b;
      const tx = r[o + 4] * pz - r[o + 5] * py, ty = r[o + 5] * px - r[o + 3] * pz, tz = r[o + 3] * py - r[o + 4] * px;
      V[ob] -= m * px;
      V[ob + 1] -= m * py;
      V[ob + 2] -= m * pz;
      V[ob + 3] -= I[ib] * tx + I[ib + 3] * ty + I[ib + 6] * tz;
      V[ob + 4] -= I[ib + 1] * tx + I[ib + 4] * ty + I[ib + 7] * tz;
      V[ob + 5] -= I[ib + 2] * tx + I[ib + 5] * ty + I[ib + 8] * tz;
    }
  }

  /** Joint j's block solved exactly; returns the largest change of its relative velocity (= its residual before). */
  private jointStep(j: number): number {
    const a = this.ja[j], b = this.jb[j], r = this.jr, o = 6 * j;
    this.relVel(a, b, r, o);
    const v0 = this.rv0, v1 = this.rv1, v2 = this.rv2;
    const K = this.jK, k = 9 * j;
    const px = -(K[k] * v0 + K[k + 3] * v1 + K[k + 6] * v2), py = -(K[k + 1] * v0 + K[k + 4] * v1 + K[k + 7] * v2), pz = -(K[k + 2] * v0 + K[k + 5] * v1 + K[k + 8] * v2);
    if (px === 0 && py === 0 && pz === 0) return 0;
    const P = this.jP;
    P[3 * j] += px;
    P[3 * j + 1] += py;
    P[3 * j + 2] += pz;
    this.apply(a, b, r, o, px, py, pz);
    return Math.max(Math.abs(v0), Math.abs(v1), Math.abs(v2));
  }

  /** Contact c (frictionless, both bodies dynamic): the joint between its bodies and k_nj, K_eff (limitBlocks). */
  private limitSetup(c: number, a: number, b: number, nj: number, knn: number): void {
    const ja = this.ja, jb = this.jb, jK = this.jK;
    let j = 0;
    for (; j < nj; j++) if (((ja[j] === a && jb[j] === b) || (ja[j] === b && jb[j] === a)) && jK[9 * j] !== 0) break;
    if (j === nj) return;
    // a unit normal impulse: A gets n at r_A (Δv = m_A n, Δω = I_A⁻¹(r_A × n)), B the opposite
    const F = this.cf, f = 9 * c, J = this.cJ, jo = 36 * c, bm = this.bm, jr = this.jr;
    const nx = F[f], ny = F[f + 1], nz = F[f + 2];
    let k0 = 0, k1 = 0, k2 = 0;
    for (let side = 0; side < 2; side++) {
      const body = side === 0 ? ja[j] : jb[j], sj = side === 0 ? 1 : -1, sc = body === a ? 1 : -1;
      const m = bm[body], wo = jo + (body === a ? 6 : 9), ro = 6 * j + 3 * side;
      const wx = sc * J[wo], wy = sc * J[wo + 1], wz = sc * J[wo + 2];
      const rx = jr[ro], ry = jr[ro + 1], rz = jr[ro + 2];
      k0 += sj * (sc * m * nx + wy * rz - wz * ry);
      k1 += sj * (sc * m * ny + wz * rx - wx * rz);
      k2 += sj * (sc * m * nz + wx * ry - wy * rx);
    }
    const q = 9 * j;
    const s = k0 * (jK[q] * k0 + jK[q + 3] * k1 + jK[q + 6] * k2) + k1 * (jK[q + 1] * k0 + jK[q + 4] * k1 + jK[q + 7] * k2) + k2 * (jK[q + 2] * k0 + jK[q + 5] * k1 + jK[q + 8] * k2);
    const eff = knn - s;
    this.cJt[c] = j;
    this.cKj[3 * c] = k0;
    this.cKj[3 * c + 1] = k1;
    this.cKj[3 * c + 2] = k2;
    this.cEff[c] = eff > 1e-9 * knn ? 1 / eff : 0;
  }

  /**
   * Contact c with its joint j (limitBlocks): minimizes the energy over λₙ ≥ 0 and the joint's impulse:
   * Δλ = −(vₙ − k_njᵀK_j⁻¹u) / K_eff (clamped), ΔP = −K_j⁻¹(u + k_nj Δλ). Returns the largest row velocity change.
   */
  private limitStep(c: number): number {
    const j = this.cJt[c], jr = this.jr, K = this.jK, q = 9 * j, F = this.cf, f = 9 * c, Kj = this.cKj, kc = 3 * c, J = this.cJ, jo = 36 * c;
    const V = this.bV, bm = this.bm, M = this.jM;
    // the contact's bodies are the joint's (limitSetup), maybe swapped: both read once, updated in registers in
    // the order of the separate updates (the same sums) and stored once
    const a = this.ca[c], b = this.cb[c], oa = 6 * a, ob = 6 * b, ja = this.ja[j], sw = ja !== a;
    let A0 = V[oa], A1 = V[oa + 1], A2 = V[oa + 2], A3 = V[oa + 3], A4 = V[oa + 4], A5 = V[oa + 5];
    let B0 = V[ob], B1 = V[ob + 1], B2 = V[ob + 2], B3 = V[ob + 3], B4 = V[ob + 4], B5 = V[ob + 5];
    // the joint's relative velocity u (its arms), the contact's normal velocity (its rows r × n)
    const o6 = 6 * j;
    const ax = jr[o6], ay = jr[o6 + 1], az = jr[o6 + 2], bx = jr[o6 + 3], by = jr[o6 + 4], bz = jr[o6 + 5];
    const u0 = sw
      ? B0 + B4 * az - B5 * ay - (A0 + A4 * bz - A5 * by)
      : A0 + A4 * az - A5 * ay - (B0 + B4 * bz - B5 * by);
    const u1 = sw
      ? B1 + B5 * ax - B3 * az - (A1 + A5 * bx - A3 * bz)
      : A1 + A5 * ax - A3 * az - (B1 + B5 * bx - B3 * bz);
    const u2 = sw
      ? B2 + B3 * ay - B4 * ax - (A2 + A3 * by - A4 * bx)
      : A2 + A3 * ay - A4 * ax - (B2 + B3 * by - B4 * bx);
    const nx = F[f], ny = F[f + 1], nz = F[f + 2];
    const vn = nx * (A0 - B0) + ny * (A1 - B1) + nz * (A2 - B2) + J[jo] * A3 + J[jo + 1] * A4 + J[jo + 2] * A5 - (J[jo + 3] * B3 + J[jo + 4] * B4 + J[jo + 5] * B5);
    const k0 = Kj[kc], k1 = Kj[kc + 1], k2 = Kj[kc + 2];
    // w = K_j⁻¹ u
    const w0 = K[q] * u0 + K[q + 3] * u1 + K[q + 6] * u2, w1 = K[q + 1] * u0 + K[q + 4] * u1 + K[q + 7] * u2, w2 = K[q + 2] * u0 + K[q + 5] * u1 + K[q + 8] * u2;
    const L = this.cL, ln0 = L[3 * c];
    const ln = Math.max(0, ln0 - this.cEff[c] * (vn - (k0 * w0 + k1 * w1 + k2 * w2))), dl = ln - ln0;
    const e0 = u0 + k0 * dl, e1 = u1 + k1 * dl, e2 = u2 + k2 * dl;
    const px = -(K[q] * e0 + K[q + 3] * e1 + K[q + 6] * e2), py = -(K[q + 1] * e0 + K[q + 4] * e1 + K[q + 7] * e2), pz = -(K[q + 2] * e0 + K[q + 5] * e1 + K[q + 8] * e2);
    const pn = px !== 0 || py !== 0 || pz !== 0;
    if (dl !== 0) {
      L[3 * c] = ln;
      // dl n on A at r_A (Δω = dl I_A⁻¹(r_A × n)), the opposite on B
      let m = bm[a] * dl;
      A0 += m * nx;
      A1 += m * ny;
      A2 += m * nz;
      A3 += dl * J[jo + 6];
      A4 += dl * J[jo + 7];
      A5 += dl * J[jo + 8];
      m = bm[b] * dl;
      B0 -= m * nx;
      B1 -= m * ny;
      B2 -= m * nz;
      B3 -= dl * J[jo + 9];
      B4 -= dl * J[jo + 10];
      B5 -= dl * J[jo + 11];
    }
    if (pn) {
      const P = this.jP;
      P[3 * j] += px;
      P[3 * j + 1] += py;
      P[3 * j + 2] += pz;
      // p on the joint's A (Δω = M_A p, jM), −p on B
      const u = 18 * j, mA = bm[sw ? b : a], mB = bm[sw ? a : b];
      const dA0 = mA * px, dA1 = mA * py, dA2 = mA * pz;
      const dA3 = M[u] * px + M[u + 3] * py + M[u + 6] * pz, dA4 = M[u + 1] * px + M[u + 4] * py + M[u + 7] * pz, dA5 = M[u + 2] * px + M[u + 5] * py + M[u + 8] * pz;
      const dB0 = mB * px, dB1 = mB * py, dB2 = mB * pz;
      const dB3 = M[u + 9] * px + M[u + 12] * py + M[u + 15] * pz, dB4 = M[u + 10] * px + M[u + 13] * py + M[u + 16] * pz, dB5 = M[u + 11] * px + M[u + 14] * py + M[u + 17] * pz;
      if (sw) {
        B0 += dA0;
        B1 += dA1;
        B2 += dA2;
        B3 += dA3;
        B4 += dA4;
        B5 += dA5;
        A0 -= dB0;
        A1 -= dB1;
        A2 -= dB2;
        A3 -= dB3;
        A4 -= dB4;
        A5 -= dB5;
      } else {
        A0 += dA0;
        A1 += dA1;
        A2 += dA2;
        A3 += dA3;
        A4 += dA4;
        A5 += dA5;
        B0 -= dB0;
        B1 -= dB1;
        B2 -= dB2;
        B3 -= dB3;
        B4 -= dB4;
        B5 -= dB5;
      }
    }
    V[oa] = A0;
    V[oa + 1] = A1;
    V[oa + 2] = A2;
    V[oa + 3] = A3;
    V[oa + 4] = A4;
    V[oa + 5] = A5;
    V[ob] = B0;
    V[ob + 1] = B1;
    V[ob + 2] = B2;
    V[ob + 3] = B3;
    V[ob + 4] = B4;
    V[ob + 5] = B5;
    // the normal row's velocity change: Kₙₙ Δλ + k_njᵀ ΔP
    const dvn = dl / this.cmn[c] + k0 * px + k1 * py + k2 * pz;
    return Math.max(Math.abs(dvn), Math.abs(u0), Math.abs(u1), Math.abs(u2));
  }

}

const _x = F64(2);
/** diskMinEig's Newton stops after a step below this (relative to e₁ + κ): the iteration is quadratic, so what is left is ≈ its square. */
const DISK_STEP_TOL = 1e-6;
const POISSON_SCALES = [1, 0.5, 0.25];
const NO_OPTIONS: SequentialSolveOptions = {};

/** K = [k11 k12; k12 k22]'s eigenvalues e₁ ≥ e₂ and the rotation (cos, sin) of e₁'s eigenvector, into out[o..o+3]. */
function eigen2(k11: number, k12: number, k22: number, out: Float64Array, o: number): void {
  const tr = 0.5 * (k11 + k22), df = 0.5 * (k11 - k22), rad = Math.sqrt(df * df + k12 * k12);
  const e1 = tr + rad, e2 = tr - rad;
  let c = 1, s = 0;
  if (rad > 0) {
    // eigenvector of e1: (k12, e1 − k11) or (e1 − k22, k12)
    let ux = k12, uy = e1 - k11;
    if (Math.abs(df) > 0 && df > 0) {
      ux = e1 - k22;
      uy = k12;
    }
    const ul = Math.sqrt(ux * ux + uy * uy);
    c = ux / ul;
    s = uy / ul;
  }
  out[o] = e1;
  out[o + 1] = e2;
  out[o + 2] = c;
  out[o + 3] = s;
}

/**
 * The minimizer of ½ xᵀKx − zᵀx over |x| ≤ R (K = [k11 k12; k12 k22] positive semidefinite, its
 * eigen-decomposition in E[o..o+3] by eigen2), when the unconstrained one lies outside: x = (K + κI)⁻¹ z
 * with κ > 0 and |x| = R (K's eigenvectors, Newton on 1/|x(κ)| − 1/R, which is nearly linear in κ),
 * started at `warm` (the contact's last κ) when it lies in the root's bracket. Into _x; returns κ.
 */
function diskMinEig(E: Float64Array, o: number, z1: number, z2: number, R: number, warm = 0): number {
  const e1 = E[o], e2 = E[o + 1], c = E[o + 2], s = E[o + 3];
  // y = Qᵀ z (Q = [u, u⊥])
  const y1 = c * z1 + s * z2, y2 = -s * z1 + c * z2;
  // the root lies in [|y|/R − e₁, |y|/R − e₂]: |y| / (e₁ + κ) ≤ |x(κ)| ≤ |y| / (e₂ + κ); start at the
  // warm κ (the same contact's last root) inside that bracket, else at its lower end
  const ny = Math.sqrt(y1 * y1 + y2 * y2);
  let kap = Math.max(0, ny / R - Math.max(e1, 0));
  if (warm > kap) kap = Math.min(warm, ny / R - e2);
  const iR = 1 / R;
  let a1 = e1 + kap, a2 = e2 + kap;
  for (let it = 0; it < 30; it++) {
    const d = 1 / (a1 * a2), i1 = a2 * d, i2 = a1 * d;
    const q1 = y1 * i1, q2 = y2 * i2;
    const n2 = q1 * q1 + q2 * q2, nrm = Math.sqrt(n2);
    if (!(nrm > 0)) break;
    // Newton on φ = 1/|x| − 1/R: dφ/dκ = Σ q_i²/a_i / |x|³ (a_i = e_i + κ), step = φ / φ'
    const step = (n2 * (1 - nrm * iR)) / (q1 * q1 * i1 + q2 * q2 * i2);
    kap -= step;
    if (kap < 0) kap = 0;
    a1 = e1 + kap;
    a2 = e2 + kap;
    if (Math.abs(step) <= DISK_STEP_TOL * a1) break;
  }
  let x1 = y1 / a1, x2 = y2 / a2;
  // exactly on the rim (the iteration's last bits)
  const nrm = Math.sqrt(x1 * x1 + x2 * x2);
  if (nrm > R) {
    x1 *= R / nrm;
    x2 *= R / nrm;
  }
  _x[0] = c * x1 - s * x2;
  _x[1] = s * x1 + c * x2;
  return kap;
}

/** Inverse of the symmetric 3×3 M[mo..] (column-major, 9 numbers) into out[o..]; false when singular. */
function invertSym3(M: ArrayLike<number>, out: Float64Array, o: number, mo = 0): boolean {
  const a = M[mo], b = M[mo + 3], c = M[mo + 6], d = M[mo + 1], e = M[mo + 4], f = M[mo + 7], g = M[mo + 2], h = M[mo + 5], i = M[mo + 8];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 0) || !Number.isFinite(det)) return false;
  const s = 1 / det;
  // out column-major; (M⁻¹)ᵀ = M⁻¹ for symmetric M, written as the adjugate
  out[o] = A * s;
  out[o + 1] = B * s;
  out[o + 2] = C * s;
  out[o + 3] = -(b * i - c * h) * s;
  out[o + 4] = (a * i - c * g) * s;
  out[o + 5] = -(a * h - b * g) * s;
  out[o + 6] = (b * f - c * e) * s;
  out[o + 7] = -(a * f - c * d) * s;
  out[o + 8] = (a * e - b * d) * s;
  return true;
}

/** The arms r_A, r_B of point p from the bodies' centres C (a body index ≥ W, the world: 0) into R[o..o + 5]. */
function armsInto(R: Float64Array, o: number, C: Float64Array, W: number, a: number, b: number, px: number, py: number, pz: number): void {
  let ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0;
  if (a < W) {
    ax = px - C[3 * a];
    ay = py - C[3 * a + 1];
    az = pz - C[3 * a + 2];
  }
  if (b < W) {
    bx = px - C[3 * b];
    by = py - C[3 * b + 1];
    bz = pz - C[3 * b + 2];
  }
  R[o] = ax;
  R[o + 1] = ay;
  R[o + 2] = az;
  R[o + 3] = bx;
  R[o + 4] = by;
  R[o + 5] = bz;
}

/**
 * K += m I − [r]× I⁻¹ [r]× (the point's effective inverse mass, column-major): column k is
 * m e_k + (I⁻¹ (r × e_k)) × r, written out with the zero terms of r × e_k dropped (each sum then equals
 * the full one but for the sign of a zero, which adding onto K's +0 start does not keep: K's bits are
 * those of the full sums).
 */
function addPointMass(K: Float64Array, m: number, I: Float64Array, o: number, rx: number, ry: number, rz: number): void {
  if (m === 0) return;
  const i0 = I[o], i1 = I[o + 1], i2 = I[o + 2], i3 = I[o + 3], i4 = I[o + 4], i5 = I[o + 5], i6 = I[o + 6], i7 = I[o + 7], i8 = I[o + 8];
  // column 0: r × e_0 = (0, rz, −ry)
  let ux = i3 * rz - i6 * ry, uy = i4 * rz - i7 * ry, uz = i5 * rz - i8 * ry;
  K[0] += m + uy * rz - uz * ry;
  K[1] += uz * rx - ux * rz;
  K[2] += ux * ry - uy * rx;
  // column 1: r × e_1 = (−rz, 0, rx)
  ux = i6 * rx - i0 * rz;
  uy = i7 * rx - i1 * rz;
  uz = i8 * rx - i2 * rz;
  K[3] += uy * rz - uz * ry;
  K[4] += m + uz * rx - ux * rz;
  K[5] += ux * ry - uy * rx;
  // column 2: r × e_2 = (ry, −rx, 0)
  ux = i0 * ry - i3 * rx;
  uy = i1 * ry - i4 * rx;
  uz = i2 * ry - i5 * rx;
  K[6] += uy * rz - uz * ry;
  K[7] += uz * rx - ux * rz;
  K[8] += m + ux * ry - uy * rx;
}

/** Whether mass m and inertia I (9) have the bits of the kept m0 and In[o..o+8]. */
function sameInertia(m0: number, In: Float64Array, o: number, m: number, I: ArrayLike<number>): boolean {
  if (!sameBits(m0, m)) return false;
  for (let k = 0; k < 9; k++) if (!sameBits(In[o + k], I[k])) return false;
  return true;
}

/** out[o..o+8] = I⁻¹[r]× (column-major; I⁻¹ at I[io..]): column k is I⁻¹ (r × e_k) (jointPass's Δω = M p). */
function crossMatrix(out: Float64Array, o: number, I: Float64Array, io: number, rx: number, ry: number, rz: number): void {
  const i0 = I[io], i1 = I[io + 1], i2 = I[io + 2], i3 = I[io + 3], i4 = I[io + 4], i5 = I[io + 5], i6 = I[io + 6], i7 = I[io + 7], i8 = I[io + 8];
  // column 0: r × e_0 = (0, rz, −ry); column 1: (−rz, 0, rx); column 2: (ry, −rx, 0)
  out[o] = i0 * 0 + i3 * rz + i6 * -ry;
  out[o + 1] = i1 * 0 + i4 * rz + i7 * -ry;
  out[o + 2] = i2 * 0 + i5 * rz + i8 * -ry;
  out[o + 3] = i0 * -rz + i3 * 0 + i6 * rx;
  out[o + 4] = i1 * -rz + i4 * 0 + i7 * rx;
  out[o + 5] = i2 * -rz + i5 * 0 + i8 * rx;
  out[o + 6] = i0 * ry + i3 * -rx + i6 * 0;
  out[o + 7] = i1 * ry + i4 * -rx + i7 * 0;
  out[o + 8] = i2 * ry + i5 * -rx + i8 * 0;
}

/** One side of a contact row (direction d, arm r): r × d into J[o..o+2], I⁻¹(r × d) into J[o+6..o+8] (I⁻¹ at I[io..]). */
function jacobianRow(J: Float64Array, o: number, I: Float64Array, io: number, rx: number, ry: number, rz: number, dx: number, dy: number, dz: number): void {
  const ax = ry * dz - rz * dy, ay = rz * dx - rx * dz, az = rx * dy - ry * dx;
  J[o] = ax;
  J[o + 1] = ay;
  J[o + 2] = az;
  J[o + 6] = I[io] * ax + I[io + 3] * ay + I[io + 6] * az;
  J[o + 7] = I[io + 1] * ax + I[io + 4] * ay + I[io + 7] * az;
  J[o + 8] = I[io + 2] * ax + I[io + 5] * ay + I[io + 8] * az;
}

/** uᵀ K v for frame vectors u = F[ou..], v = F[ov..] (K column-major, symmetric). */
function quad(K: Float64Array, F: Float64Array, ou: number, ov: number): number {
  const vx = F[ov], vy = F[ov + 1], vz = F[ov + 2];
  return F[ou] * (K[0] * vx + K[3] * vy + K[6] * vz) + F[ou + 1] * (K[1] * vx + K[4] * vy + K[7] * vz) + F[ou + 2] * (K[2] * vx + K[5] * vy + K[8] * vz);
}

/** ½ m |v|² + ½ ωᵀ I ω (I at I[io..io+8], V[o..o+5] = v, ω). */
function kinetic(m: number, I: ArrayLike<number>, io: number, V: Float64Array, o: number): number {
  const vx = V[o], vy = V[o + 1], vz = V[o + 2], wx = V[o + 3], wy = V[o + 4], wz = V[o + 5];
  return 0.5 * m * (vx * vx + vy * vy + vz * vz) + 0.5 * (wx * (I[io] * wx + I[io + 3] * wy + I[io + 6] * wz) + wy * (I[io + 1] * wx + I[io + 4] * wy + I[io + 7] * wz) + wz * (I[io + 2] * wx + I[io + 5] * wy + I[io + 8] * wz));
}

/** Inverse of the symmetric 3×3 block M[o..o+8] (row-major; its upper triangle read) into out[o..o+8] (full), by the adjugate; out may be M (every read before the first write). */
function invert3Sym(M: Float64Array, o: number, out: Float64Array): void {
  const a = M[o], b = M[o + 1], c = M[o + 2], d = M[o + 4], e = M[o + 5], f = M[o + 8];
  const A = d * f - e * e, B = c * e - b * f, C = b * e - c * d;
  const s = 1 / (a * A + b * B + c * C);
  out[o] = A * s;
  out[o + 1] = out[o + 3] = B * s;
  out[o + 2] = out[o + 6] = C * s;
  out[o + 4] = (a * f - c * c) * s;
  out[o + 5] = out[o + 7] = (b * c - a * e) * s;
  out[o + 8] = (a * d - b * b) * s;
}

/**
 * Inverse of the symmetric positive definite 6×6 block M[o..o+35] (row-major; its upper triangle read) into
 * out[o..] (full): M = [A B; Bᵀ C], X = A⁻¹B, S = C − BᵀX, M⁻¹ = [A⁻¹ + X S⁻¹ Xᵀ, −X S⁻¹; −S⁻¹ Xᵀ, S⁻¹]. out may
 * be M (every read before the first write).
 */
function invert6Sym(M: Float64Array, o: number, out: Float64Array): void {
  const a00 = M[o], a01 = M[o + 1], a02 = M[o + 2], a11 = M[o + 7], a12 = M[o + 8], a22 = M[o + 14];
  const b00 = M[o + 3], b01 = M[o + 4], b02 = M[o + 5], b10 = M[o + 9], b11 = M[o + 10], b12 = M[o + 11], b20 = M[o + 15], b21 = M[o + 16], b22 = M[o + 17];
  // A⁻¹ (symmetric)
  let i00 = a11 * a22 - a12 * a12, i01 = a02 * a12 - a01 * a22, i02 = a01 * a12 - a02 * a11;
  const ia = 1 / (a00 * i00 + a01 * i01 + a02 * i02);
  i00 *= ia;
  i01 *= ia;
  i02 *= ia;
  const i11 = (a00 * a22 - a02 * a02) * ia, i12 = (a01 * a02 - a00 * a12) * ia, i22 = (a00 * a11 - a01 * a01) * ia;
  // X = A⁻¹ B
  const x00 = i00 * b00 + i01 * b10 + i02 * b20, x01 = i00 * b01 + i01 * b11 + i02 * b21, x02 = i00 * b02 + i01 * b12 + i02 * b22;
  const x10 = i01 * b00 + i11 * b10 + i12 * b20, x11 = i01 * b01 + i11 * b11 + i12 * b21, x12 = i01 * b02 + i11 * b12 + i12 * b22;
  const x20 = i02 * b00 + i12 * b10 + i22 * b20, x21 = i02 * b01 + i12 * b11 + i22 * b21, x22 = i02 * b02 + i12 * b12 + i22 * b22;
  // S = C − Bᵀ X (symmetric)
  const s00 = M[o + 21] - (b00 * x00 + b10 * x10 + b20 * x20), s01 = M[o + 22] - (b00 * x01 + b10 * x11 + b20 * x21), s02 = M[o + 23] - (b00 * x02 + b10 * x12 + b20 * x22);
  const s11 = M[o + 28] - (b01 * x01 + b11 * x11 + b21 * x21), s12 = M[o + 29] - (b01 * x02 + b11 * x12 + b21 * x22), s22 = M[o + 35] - (b02 * x02 + b12 * x12 + b22 * x22);
  let t00 = s11 * s22 - s12 * s12, t01 = s02 * s12 - s01 * s22, t02 = s01 * s12 - s02 * s11;
  const is = 1 / (s00 * t00 + s01 * t01 + s02 * t02);
  t00 *= is;
  t01 *= is;
  t02 *= is;
  const t11 = (s00 * s22 - s02 * s02) * is, t12 = (s01 * s02 - s00 * s12) * is, t22 = (s00 * s11 - s01 * s01) * is;
  // Y = X S⁻¹
  const y00 = x00 * t00 + x01 * t01 + x02 * t02, y01 = x00 * t01 + x01 * t11 + x02 * t12, y02 = x00 * t02 + x01 * t12 + x02 * t22;
  const y10 = x10 * t00 + x11 * t01 + x12 * t02, y11 = x10 * t01 + x11 * t11 + x12 * t12, y12 = x10 * t02 + x11 * t12 + x12 * t22;
  const y20 = x20 * t00 + x21 * t01 + x22 * t02, y21 = x20 * t01 + x21 * t11 + x22 * t12, y22 = x20 * t02 + x21 * t12 + x22 * t22;
  // top-left A⁻¹ + Y Xᵀ
  out[o] = i00 + (y00 * x00 + y01 * x01 + y02 * x02);
  out[o + 1] = out[o + 6] = i01 + (y00 * x10 + y01 * x11 + y02 * x12);
  out[o + 2] = out[o + 12] = i02 + (y00 * x20 + y01 * x21 + y02 * x22);
  out[o + 7] = i11 + (y10 * x10 + y11 * x11 + y12 * x12);
  out[o + 8] = out[o + 13] = i12 + (y10 * x20 + y11 * x21 + y12 * x22);
  out[o + 14] = i22 + (y20 * x20 + y21 * x21 + y22 * x22);
  // off-diagonal −Y and −Yᵀ
  out[o + 3] = out[o + 18] = -y00;
  out[o + 4] = out[o + 24] = -y01;
  out[o + 5] = out[o + 30] = -y02;
  out[o + 9] = out[o + 19] = -y10;
  out[o + 10] = out[o + 25] = -y11;
  out[o + 11] = out[o + 31] = -y12;
  out[o + 15] = out[o + 20] = -y20;
  out[o + 16] = out[o + 26] = -y21;
  out[o + 17] = out[o + 32] = -y22;
  // bottom-right S⁻¹
  out[o + 21] = t00;
  out[o + 22] = out[o + 27] = t01;
  out[o + 23] = out[o + 33] = t02;
  out[o + 28] = t11;
  out[o + 29] = out[o + 34] = t12;
  out[o + 35] = t22;
}

