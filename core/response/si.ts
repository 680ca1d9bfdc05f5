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
 * Joints are not exact: they hold to the sweeps' residual (`stats.jointResidual`); the simulator
 * corrects the drift at the position level (`correctJoints`) as it does for the analytic solver's
 * answers. The simulator uses it for resting contact (sub-step solves, ε = 0) of islands with joints;
 * impacts go to the analytic solver. Ball joints only (the ragdoll's joints); other kinds throw
 * `ResponseInputError`. Measurements: README.md, "Sequential impulses".
 */
import { ContactState, ResponseInputError } from './types';
import type { ContactInput, JointInput, RigidBodyInput } from './types';
import { F64, growF, growI, tangentBasis } from './flat';
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
  /** Largest number of sweeps. */
  maxSweeps = 32;
  /** Velocity scale below which a call counts as at rest (m/s): the scale is at least this. */
  minVelocityScale = 1e-9;
  /** Alternate the sweep direction (symmetric Gauss–Seidel). */
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
  private cJ = F64(0); // per contact, per row (n, t1, t2): r_A × d, r_B × d, I_A⁻¹(r_A × d), I_B⁻¹(r_B × d) (36 numbers)
  private readonly k9 = F64(9);

  solve(
    bodies: readonly RigidBodyInput[],
    joints: readonly JointInput[],
    contacts: readonly ContactInput[],
    options: SequentialSolveOptions = {},
    out: ImpulseSolution = new ImpulseSolution(),
  ): ImpulseSolution {
    const nb = bodies.length, nj = joints.length, nc = contacts.length, W = nb;
    const st = this.stats;
    st.calls++;
    this.bm = growF(this.bm, nb + 1);
    this.bI = growF(this.bI, 9 * (nb + 1));
    this.bV = growF(this.bV, 6 * (nb + 1));
    const bm = this.bm, bI = this.bI, V = this.bV;
    let e0 = 0;
    for (let i = 0; i < nb; i++) {
      const b = bodies[i], o6 = 6 * i, o9 = 9 * i;
      V[o6] = b.linearVelocity.x;
      V[o6 + 1] = b.linearVelocity.y;
      V[o6 + 2] = b.linearVelocity.z;
      V[o6 + 3] = b.angularVelocity.x;
      V[o6 + 4] = b.angularVelocity.y;
      V[o6 + 5] = b.angularVelocity.z;
      if (b.keyframed) {
        bm[i] = 0;
        for (let k = 0; k < 9; k++) bI[o9 + k] = 0;
        continue;
      }
      if (!(b.massKg > 0) || !Number.isFinite(b.massKg)) throw new ResponseInputError(`body ${b.id ?? i}: mass must be finite and > 0`);
      bm[i] = 1 / b.massKg;
      if (!invertSym3(b.inertia, bI, o9)) throw new ResponseInputError(`body ${b.id ?? i}: inertia is not invertible`);
      e0 += kinetic(b.massKg, b.inertia, V, o6);
    }
    bm[W] = 0;
    for (let k = 0; k < 9; k++) bI[9 * W + k] = 0;
    for (let k = 0; k < 6; k++) V[6 * W + k] = 0;

    // joints
    this.ja = growI(this.ja, nj);
    this.jb = growI(this.jb, nj);
    this.jr = growF(this.jr, 6 * nj);
    this.jK = growF(this.jK, 9 * nj);
    this.jP = growF(this.jP, 3 * nj);
    const ja = this.ja, jb = this.jb, jr = this.jr, jK = this.jK, jP = this.jP, K = this.k9;
    for (let j = 0; j < nj; j++) {
      const jt = joints[j];
      if (jt.kind !== 'ball' && jt.kind !== 'revolute') throw new ResponseInputError(`joint ${jt.id ?? j}: the sequential-impulse solver takes ball joints only`);
      const a = jt.bodyA >= 0 ? jt.bodyA : W, b = jt.bodyB >= 0 ? jt.bodyB : W;
      ja[j] = a;
      jb[j] = b;
      const o = 6 * j;
      this.arm(jr, o, a, bodies, jt.point);
      this.arm(jr, o + 3, b, bodies, jt.point);
      K.fill(0);
      addPointMass(K, bm[a], bI, 9 * a, jr[o], jr[o + 1], jr[o + 2]);
      addPointMass(K, bm[b], bI, 9 * b, jr[o + 3], jr[o + 4], jr[o + 5]);
      if (!invertSym3(K, jK, 9 * j)) {
        // both sides fixed (or a degenerate block): the joint cannot act
        for (let k = 0; k < 9; k++) jK[9 * j + k] = 0;
      }
      const wj = options.warmJointImpulses;
      let px = 0, py = 0, pz = 0;
      if (wj && wj.length >= 3 * nj) {
        px = wj[3 * j];
        py = wj[3 * j + 1];
        pz = wj[3 * j + 2];
        if (!(Number.isFinite(px) && Number.isFinite(py) && Number.isFinite(pz))) px = py = pz = 0;
      }
      jP[3 * j] = px;
      jP[3 * j + 1] = py;
      jP[3 * j + 2] = pz;
    }

    // contacts
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
    const ca = this.ca, cb = this.cb, cr = this.cr, cf = this.cf, cmn = this.cmn, cK = this.cK, cg = this.cg, cL = this.cL, act = this.cAct, cJ = this.cJ;
    const warm = options.warmImpulses;
    for (let c = 0; c < nc; c++) {
      const ct = contacts[c];
      const a = ct.bodyA >= 0 ? ct.bodyA : W, b = ct.bodyB >= 0 ? ct.bodyB : W;
      ca[c] = a;
      cb[c] = b;
      const ba = bodies[ct.bodyA], bb = ct.bodyB >= 0 ? bodies[ct.bodyB] : null;
      act[c] = (a < W && !ba.keyframed) || (bb !== null && !bb.keyframed) ? 1 : 0;
      const o = 9 * c;
      let nx = ct.normal.x, ny = ct.normal.y, nz = ct.normal.z;
      const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (!(nl > 0)) throw new ResponseInputError(`contact ${ct.id ?? c}: zero normal`);
      nx /= nl;
      ny /= nl;
      nz /= nl;
      cf[o] = nx;
      cf[o + 1] = ny;
      cf[o + 2] = nz;
      tangentBasis(nx, ny, nz, cf, o + 3);
      this.arm(cr, 6 * c, a, bodies, ct.point);
      this.arm(cr, 6 * c + 3, b, bodies, ct.point);
      const g = ct.friction ?? Math.max(ba.friction ?? 0, bb ? (bb.friction ?? 0) : 0);
      cg[c] = g;
      cL[3 * c] = cL[3 * c + 1] = cL[3 * c + 2] = 0;
      if (!act[c]) {
        cmn[c] = 0;
        continue;
      }
      K.fill(0);
      addPointMass(K, bm[a], bI, 9 * a, cr[6 * c], cr[6 * c + 1], cr[6 * c + 2]);
      addPointMass(K, bm[b], bI, 9 * b, cr[6 * c + 3], cr[6 * c + 4], cr[6 * c + 5]);
      for (let r = 0; r < 3; r++) {
        const jo = 36 * c + 12 * r, d = o + 3 * r;
        for (let side = 0; side < 2; side++) {
          const ro = 6 * c + 3 * side, io = 9 * (side === 0 ? a : b), so = jo + 3 * side;
          const ax = cr[ro + 1] * cf[d + 2] - cr[ro + 2] * cf[d + 1], ay = cr[ro + 2] * cf[d] - cr[ro] * cf[d + 2], az = cr[ro] * cf[d + 1] - cr[ro + 1] * cf[d];
          cJ[so] = ax;
          cJ[so + 1] = ay;
          cJ[so + 2] = az;
          cJ[so + 6] = bI[io] * ax + bI[io + 3] * ay + bI[io + 6] * az;
          cJ[so + 7] = bI[io + 1] * ax + bI[io + 4] * ay + bI[io + 7] * az;
          cJ[so + 8] = bI[io + 2] * ax + bI[io + 5] * ay + bI[io + 8] * az;
        }
      }
      const knn = quad(K, cf, o, o);
      cmn[c] = knn > 0 ? 1 / knn : 0;
      cK[3 * c] = quad(K, cf, o + 3, o + 3);
      cK[3 * c + 1] = quad(K, cf, o + 3, o + 6);
      cK[3 * c + 2] = quad(K, cf, o + 6, o + 6);
      if (warm && warm.length >= 3 * nc) {
        const ix = warm[3 * c], iy = warm[3 * c + 1], iz = warm[3 * c + 2];
        if (Number.isFinite(ix) && Number.isFinite(iy) && Number.isFinite(iz)) {
          const ln = ix * nx + iy * ny + iz * nz;
          if (ln > 0) {
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
        }
      }
    }

    // velocity scale: the largest row velocity before the solve (and before the warm start)
    let vs = 0;
    for (let j = 0; j < nj; j++) {
      this.relVel(ja[j], jb[j], jr, 6 * j);
      vs = Math.max(vs, Math.abs(this.rv0), Math.abs(this.rv1), Math.abs(this.rv2));
    }
    for (let c = 0; c < nc; c++) {
      if (!act[c]) continue;
      this.relVel(ca[c], cb[c], cr, 6 * c);
      const o = 9 * c;
      for (let s = 0; s < 3; s++) vs = Math.max(vs, Math.abs(this.rv0 * cf[o + 3 * s] + this.rv1 * cf[o + 3 * s + 1] + this.rv2 * cf[o + 3 * s + 2]));
    }
    vs = Math.max(vs, this.minVelocityScale);
    st.velocityScale = vs;

    // warm start
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

    // sweeps
    const bound = this.tolerance * vs;
    let sweeps = this.sweepLoop(nj, nc, bound);
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
      sweeps += this.sweepLoop(nj, nc, bound);
      e1 = this.dynamicEnergy(bodies);
    }
    let rScale = 1;
    if (this.restitution) {
      const r = this.poisson(bodies, contacts, nj, nc, bound, e0);
      sweeps += r.sweeps;
      rScale = r.scale;
      e1 = this.dynamicEnergy(bodies);
    }
    st.sweeps = sweeps;
    st.totalSweeps += sweeps;
    if (!st.converged) st.notConverged++;

    // answer
    out.resize(nb, nj, nc);
    out.iterations = sweeps;
    out.frictionScale = 1;
    out.restitutionScale = rScale;
    for (let i = 0; i < nb; i++) {
      const o6 = 6 * i;
      for (let k = 0; k < 3; k++) {
        out.linearVelocity[3 * i + k] = V[o6 + k];
        out.angularVelocity[3 * i + k] = V[o6 + 3 + k];
      }
    }
    out.kineticEnergyBefore = e0;
    out.kineticEnergyAfter = e1;
    let jres = 0;
    for (let j = 0; j < nj; j++) {
      for (let k = 0; k < 3; k++) out.jointImpulse[3 * j + k] = jP[3 * j + k];
      this.relVel(ja[j], jb[j], jr, 6 * j);
      jres = Math.max(jres, Math.sqrt(this.rv0 * this.rv0 + this.rv1 * this.rv1 + this.rv2 * this.rv2));
    }
    st.jointResidual = jres;
    let appr = 0;
    for (let c = 0; c < nc; c++) {
      const o = 9 * c, oc = 3 * c;
      const ln = cL[oc], l1 = cL[oc + 1], l2 = cL[oc + 2];
      for (let k = 0; k < 3; k++) out.contactImpulse[oc + k] = ln * cf[o + k] + l1 * cf[o + 3 + k] + l2 * cf[o + 6 + k];
      const g = cg[c];
      if (!act[c]) {
        out.contactState[c] = ContactState.Static;
        continue;
      }
      this.relVel(ca[c], cb[c], cr, 6 * c);
      appr = Math.max(appr, -(this.rv0 * cf[o] + this.rv1 * cf[o + 1] + this.rv2 * cf[o + 2]));
      out.contactState[c] =
        ln <= 0 ? ContactState.Separated : g === 0 ? ContactState.Frictionless : g !== Infinity && Math.sqrt(l1 * l1 + l2 * l2) >= g * ln * (1 - 1e-9) ? ContactState.Slide : ContactState.Stick;
    }
    st.approach = appr;
    if (!Number.isFinite(e1)) throw new ResponseInputError('sequential-impulse solve: velocities are not finite');
    return out;
  }

  private pV = F64(0);
  private pL = F64(0);
  private pP = F64(0);
  private pE = F64(0);

  /**
   * Poisson's restitution after the compression solve (`restitution`): every contact with ε > 0 gets
   * ε·s times its compression impulse on top, and the sweeps run again from zero accumulators from
   * there (contacts may only push more, joints hold again); s = 1, ½, ¼, 0 until the kinetic energy is
   * at most E⁻ + the keyframed points' work. Leaves the totals in cL / jP; returns the sweeps and s.
   */
  private poisson(bodies: readonly RigidBodyInput[], contacts: readonly ContactInput[], nj: number, nc: number, bound: number, e0: number): { sweeps: number; scale: number } {
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
    if (!any) return { sweeps: 0, scale: 1 };
    this.pV = growF(this.pV, 6 * (nb + 1));
    this.pL = growF(this.pL, 3 * nc);
    this.pP = growF(this.pP, 3 * nj);
    const V1 = this.pV, L1 = this.pL, P1 = this.pP;
    V1.set(V.subarray(0, 6 * (nb + 1)));
    L1.set(cL.subarray(0, 3 * nc));
    P1.set(jP.subarray(0, 3 * nj));
    let sweeps = 0;
    for (const s of [1, 0.5, 0.25]) {
      V.set(V1.subarray(0, 6 * (nb + 1)));
      for (let c = 0; c < nc; c++) {
        const k = s * E[c];
        if (k === 0) continue;
        const f = 9 * c, ln = k * L1[3 * c], l1 = k * L1[3 * c + 1], l2 = k * L1[3 * c + 2];
        this.apply(this.ca[c], this.cb[c], this.cr, 6 * c, ln * F[f] + l1 * F[f + 3] + l2 * F[f + 6], ln * F[f + 1] + l1 * F[f + 4] + l2 * F[f + 7], ln * F[f + 2] + l1 * F[f + 5] + l2 * F[f + 8]);
      }
      cL.fill(0, 0, 3 * nc);
      jP.fill(0, 0, 3 * nj);
      sweeps += this.sweepLoop(nj, nc, bound);
      for (let k = 0; k < 3 * nc; k++) cL[k] += (1 + s * E[(k / 3) | 0]) * L1[k];
      for (let k = 0; k < 3 * nj; k++) jP[k] += P1[k];
      const e2 = this.dynamicEnergy(bodies);
      if (e2 - e0 - this.keyframedWork(bodies, nc) <= 1e-9 * (e0 + e2) + 1e-300) return { sweeps, scale: s };
    }
    V.set(V1.subarray(0, 6 * (nb + 1)));
    cL.set(L1.subarray(0, 3 * nc));
    jP.set(P1.subarray(0, 3 * nj));
    return { sweeps, scale: 0 };
  }

  /** Sweeps until no row velocity changes by more than bound, at most maxSweeps; sets stats.converged / lastChange; returns the sweeps. */
  private sweepLoop(nj: number, nc: number, bound: number): number {
    const act = this.cAct, st = this.stats;
    let sweeps = 0, change = 0;
    st.converged = false;
    while (sweeps < this.maxSweeps) {
      const backward = this.symmetric && (sweeps & 1) === 1;
      change = 0;
      if (!backward) {
        for (let j = 0; j < nj; j++) change = Math.max(change, this.jointStep(j));
        for (let c = 0; c < nc; c++) if (act[c]) change = Math.max(change, this.contactStep(c));
      } else {
        for (let c = nc - 1; c >= 0; c--) if (act[c]) change = Math.max(change, this.contactStep(c));
        for (let j = nj - 1; j >= 0; j--) change = Math.max(change, this.jointStep(j));
      }
      sweeps++;
      if (change <= bound) {
        st.converged = true;
        break;
      }
    }
    st.lastChange = change;
    return sweeps;
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

  /** Kinetic energy of the dynamic bodies at the current velocities. */
  private dynamicEnergy(bodies: readonly RigidBodyInput[]): number {
    let e = 0;
    for (let i = 0; i < bodies.length; i++) if (!bodies[i].keyframed) e += kinetic(bodies[i].massKg, bodies[i].inertia, this.bV, 6 * i);
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

  /** Arm point − centre of mass of body i (zero for the world) into out[o..o+2]. */
  private arm(out: Float64Array, o: number, i: number, bodies: readonly RigidBodyInput[], p: { x: number; y: number; z: number }): void {
    if (i >= bodies.length) {
      out[o] = out[o + 1] = out[o + 2] = 0;
      return;
    }
    const c = bodies[i].centerOfMass;
    out[o] = p.x - c.x;
    out[o + 1] = p.y - c.y;
    out[o + 2] = p.z - c.z;
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

  /** Contact c: the normal row, then the tangential pair over its disc; returns the largest change of a row velocity. */
  private contactStep(c: number): number {
    const a = this.ca[c], b = this.cb[c], V = this.bV, oa = 6 * a, ob = 6 * b, F = this.cf, f = 9 * c, J = this.cJ, j = 36 * c, L = this.cL, l = 3 * c;
    const ma = this.bm[a], mb = this.bm[b];
    let vax = V[oa], vay = V[oa + 1], vaz = V[oa + 2], wax = V[oa + 3], way = V[oa + 4], waz = V[oa + 5];
    let vbx = V[ob], vby = V[ob + 1], vbz = V[ob + 2], wbx = V[ob + 3], wby = V[ob + 4], wbz = V[ob + 5];
    // normal row: v_n = n·(v_A − v_B) + (r_A × n)·ω_A − (r_B × n)·ω_B
    const nx = F[f], ny = F[f + 1], nz = F[f + 2];
    const vn = nx * (vax - vbx) + ny * (vay - vby) + nz * (vaz - vbz) + J[j] * wax + J[j + 1] * way + J[j + 2] * waz - (J[j + 3] * wbx + J[j + 4] * wby + J[j + 5] * wbz);
    const ln0 = L[l], ln = Math.max(0, ln0 - this.cmn[c] * vn), dn = ln - ln0;
    let change = 0;
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
      change = Math.abs(dn / this.cmn[c]);
    }
    const g = this.cg[c];
    if (g !== 0) {
      // tangential pair: minimize ½ xᵀ K x + xᵀ (v_t − K λ_t) over |x| ≤ γ λₙ
      const ux = F[f + 3], uy = F[f + 4], uz = F[f + 5], sx = F[f + 6], sy = F[f + 7], sz = F[f + 8];
      const dvx = vax - vbx, dvy = vay - vby, dvz = vaz - vbz;
      const w1 = ux * dvx + uy * dvy + uz * dvz + J[j + 12] * wax + J[j + 13] * way + J[j + 14] * waz - (J[j + 15] * wbx + J[j + 16] * wby + J[j + 17] * wbz);
      const w2 = sx * dvx + sy * dvy + sz * dvz + J[j + 24] * wax + J[j + 25] * way + J[j + 26] * waz - (J[j + 27] * wbx + J[j + 28] * wby + J[j + 29] * wbz);
      const Kt = this.cK, kk = 3 * c, k11 = Kt[kk], k12 = Kt[kk + 1], k22 = Kt[kk + 2];
      const l1 = L[l + 1], l2 = L[l + 2];
      // z = K λ_t − v_t; unconstrained x = K⁻¹ z
      const z1 = k11 * l1 + k12 * l2 - w1, z2 = k12 * l1 + k22 * l2 - w2;
      const det = k11 * k22 - k12 * k12;
      let x1: number, x2: number;
      if (det > 1e-300 * (k11 * k22 + 1e-300)) {
        x1 = (k22 * z1 - k12 * z2) / det;
        x2 = (k11 * z2 - k12 * z1) / det;
      } else {
        x1 = l1;
        x2 = l2;
      }
      if (g !== Infinity) {
        const R = g * ln;
        if (x1 * x1 + x2 * x2 > R * R) {
          if (!(R > 0)) x1 = x2 = 0;
          else {
            diskMin(k11, k12, k22, z1, z2, R);
            x1 = _x[0];
            x2 = _x[1];
          }
        }
      }
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
        change = Math.max(change, Math.abs(k11 * d1 + k12 * d2), Math.abs(k12 * d1 + k22 * d2));
      }
    }
    if (change === 0) return 0;
    // (keyframed bodies and the world: inverse mass and inertia 0, their velocities unchanged)
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
    return change;
  }
}

const _x = F64(2);

/**
 * The minimizer of ½ xᵀKx − zᵀx over |x| ≤ R (K = [k11 k12; k12 k22] positive semidefinite), when the
 * unconstrained one lies outside: x = (K + κI)⁻¹ z with κ > 0 and |x| = R (K's eigenvectors, Newton on
 * 1/|x(κ)| − 1/R, which is nearly linear in κ). Into _x.
 */
function diskMin(k11: number, k12: number, k22: number, z1: number, z2: number, R: number): void {
  // eigen-decomposition of the symmetric 2×2
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
  // y = Qᵀ z (Q = [u, u⊥])
  const y1 = c * z1 + s * z2, y2 = -s * z1 + c * z2;
  // a start below the root (|x| ≥ R there): |x(κ)| ≥ |y| / (e₁ + κ)
  const ny = Math.sqrt(y1 * y1 + y2 * y2);
  let kap = Math.max(0, ny / R - Math.max(e1, 0));
  for (let it = 0; it < 30; it++) {
    const a1 = e1 + kap, a2 = e2 + kap;
    const q1 = y1 / a1, q2 = y2 / a2;
    const nrm = Math.sqrt(q1 * q1 + q2 * q2);
    if (!(nrm > 0)) break;
    const phi = 1 / nrm - 1 / R;
    // d|x|/dκ = −Σ q_i² / a_i / |x|; d(1/|x|)/dκ = Σ q_i²/a_i / |x|³
    const dphi = (q1 * q1 / a1 + q2 * q2 / a2) / (nrm * nrm * nrm);
    const step = phi / dphi;
    kap -= step;
    if (kap < 0) kap = 0;
    if (Math.abs(step) <= 1e-12 * (kap + e1)) break;
  }
  let x1 = y1 / (e1 + kap), x2 = y2 / (e2 + kap);
  // exactly on the rim (the iteration's last bits)
  const nrm = Math.sqrt(x1 * x1 + x2 * x2);
  if (nrm > R) {
    x1 *= R / nrm;
    x2 *= R / nrm;
  }
  _x[0] = c * x1 - s * x2;
  _x[1] = s * x1 + c * x2;
}

/** Inverse of the symmetric 3×3 M (column-major, 9 numbers) into out[o..]; false when singular. */
function invertSym3(M: ArrayLike<number>, out: Float64Array, o: number): boolean {
  const a = M[0], b = M[3], c = M[6], d = M[1], e = M[4], f = M[7], g = M[2], h = M[5], i = M[8];
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

/** K += m I − [r]× I⁻¹ [r]× (the point's effective inverse mass, column-major). */
function addPointMass(K: Float64Array, m: number, I: Float64Array, o: number, rx: number, ry: number, rz: number): void {
  if (m === 0) return;
  // column e_k: m e_k + (I⁻¹ (r × e_k)) × r
  for (let k = 0; k < 3; k++) {
    const ex = k === 0 ? 1 : 0, ey = k === 1 ? 1 : 0, ez = k === 2 ? 1 : 0;
    const tx = ry * ez - rz * ey, ty = rz * ex - rx * ez, tz = rx * ey - ry * ex;
    const ux = I[o] * tx + I[o + 3] * ty + I[o + 6] * tz, uy = I[o + 1] * tx + I[o + 4] * ty + I[o + 7] * tz, uz = I[o + 2] * tx + I[o + 5] * ty + I[o + 8] * tz;
    K[3 * k] += m * ex + uy * rz - uz * ry;
    K[3 * k + 1] += m * ey + uz * rx - ux * rz;
    K[3 * k + 2] += m * ez + ux * ry - uy * rx;
  }
}

/** uᵀ K v for frame vectors u = F[ou..], v = F[ov..] (K column-major, symmetric). */
function quad(K: Float64Array, F: Float64Array, ou: number, ov: number): number {
  const vx = F[ov], vy = F[ov + 1], vz = F[ov + 2];
  return F[ou] * (K[0] * vx + K[3] * vy + K[6] * vz) + F[ou + 1] * (K[1] * vx + K[4] * vy + K[7] * vz) + F[ou + 2] * (K[2] * vx + K[5] * vy + K[8] * vz);
}

/** ½ m |v|² + ½ ωᵀ I ω (V[o..o+5] = v, ω). */
function kinetic(m: number, I: ArrayLike<number>, V: Float64Array, o: number): number {
  const vx = V[o], vy = V[o + 1], vz = V[o + 2], wx = V[o + 3], wy = V[o + 4], wz = V[o + 5];
  return 0.5 * m * (vx * vx + vy * vy + vz * vz) + 0.5 * (wx * (I[0] * wx + I[3] * wy + I[6] * wz) + wy * (I[1] * wx + I[4] * wy + I[7] * wz) + wz * (I[2] * wx + I[5] * wy + I[8] * wz));
}
