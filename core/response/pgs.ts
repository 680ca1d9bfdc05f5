/**
 * Resting contact for articulated islands: contact impulses by projected block Gauss–Seidel in
 * contact space, joints solved exactly (`RestingContactSolver`).
 *
 * The exact solver (`ImpulseSolver`, solver.ts) finds the contact states of Moore & Wilhelms by a
 * sequence of linear solves (14.6 per ragdoll solve in the sim bench, see README.md). A ragdoll
 * lying on the ground is solved once per sub-step with ε = 0 and small velocities; that is resting
 * contact, which the issue allows to handle "by contact impulses". Here:
 *
 * 1. The joints are eliminated exactly: the block-tree LDLᵀ of [M Jⱼᵀ; Jⱼ 0] (`ArticulatedTree`).
 *    u_free = K⁻¹ [M u⁻; c_joints] is the velocity with every joint holding and no contact.
 * 2. Each contact with a dynamic side has three rows (normal n, tangents t₁, t₂). The contacts'
 *    Delassus matrix with the joints eliminated, A = B K⁻¹ Bᵀ (3 rows per contact), is built from
 *    one tree solve per row (its column), and b = B u_free + (keyframed part) + ε·min(v⁻ₙ, 0) on
 *    the normal rows (Newton's rule v⁺ₙ ≥ −ε v⁻ₙ for approaching contacts with ε > 0).
 * 3. Projected Gauss–Seidel over the contacts, one 3×3 block at a time, with w = b + A λ kept up
 *    to date: the block's unconstrained update λ + A_cc⁻¹(−w_c); a normal impulse ≤ 0 separates
 *    (λ_c = 0); a tangential impulse outside the circular Coulomb cone |λₜ| ≤ γ λₙ slides: λ_c =
 *    s (n + γ d), d the direction of the trial's tangential part, s from w_cₙ = 0 (or the trial
 *    projected onto the cone when that has no pushing answer). Frictionless contacts (γ = 0) take
 *    the scalar update max(0, λₙ − wₙ / A_nn). Sweeps stop when no block changed its own relative
 *    velocity by more than `tolerance` × the velocity scale (max |b|, |v⁻|), or after `maxSweeps`.
 * 4. One tree solve with [M u⁻ + Bᵀ λ; c_joints] gives the velocities and the joint impulses.
 *
 * Laws (resting.test.ts): joints hold exactly (to round-off); λₙ ≥ 0; |λₜ| ≤ γ λₙ; normal
 * velocities ≥ −ε v⁻ₙ − tol; complementarity within tol; momentum changes only by the impulses of
 * the world and keyframed bodies; for ε = 0 (fixed world) kinetic energy does not increase (any
 * converged answer dissipates: ΔE = λ·w⁺ − ½ λᵀAλ ≤ 0, and u_free is an M-projection of u⁻);
 * frictionless velocities equal the exact solver's (they are unique).
 *
 * Not exact for: joints that close loops or a second joint of a tree to a keyframed body or the
 * world (rows outside the spanning tree): such an island is handed to the exact `ImpulseSolver`
 * (`stats.exactFallbacks`), so joints always hold exactly.
 */
import { ContactState, ResponseInputError } from './types';
import type { ContactInput, JointInput, RigidBodyInput } from './types';
import { F64, growF, growI, growU, setRow } from './flat';
import { ImpulseSolution } from './solution';
import { ArticulatedTree } from './tree';
import { ImpulseSolver } from './solver';

/** Options of `RestingContactSolver.solve`. */
export interface RestingSolveOptions {
  /**
   * Impulses per contact (3 numbers, world frame, on body A) to start from, e.g. the previous
   * sub-step's impulses of the same contacts; NaN or a missing array: start from zero. Only the
   * start changes: the stopping rule and the laws are the same.
   */
  warmImpulses?: ArrayLike<number>;
}

/** Statistics of the last call and totals (`RestingContactSolver.stats`). */
export interface RestingStats {
  /** Sweeps of the last call. */
  sweeps: number;
  /** Largest change of a block's own relative velocity in the last sweep of the last call, m/s. */
  lastChange: number;
  /** Velocity scale of the last call, m/s (tolerance × scale is the stopping bound). */
  velocityScale: number;
  /** Whether the last call fell back from Newton's restitution targets (no answer) to Poisson's phases. */
  poisson: boolean;
  /** Contacts of the last call's answer that slide (impulse on the rim of the cone). */
  sliding: number;
  /** Whether the last call stopped at the tolerance (false: at maxSweeps). */
  converged: boolean;
  /** Polishes (exact solves of the iterate's contact states) over all calls, and those not kept. */
  polishes: number;
  polishesRejected: number;
  /** Totals over all calls. */
  calls: number;
  totalSweeps: number;
  notConverged: number;
  /** Calls handed to the exact solver (joint rows outside the spanning tree). */
  exactFallbacks: number;
}

/** LU factorization of the dense n×n M in place with partial pivoting (rows in piv); false when a pivot vanishes. */
function factorDense(M: Float64Array, n: number, piv: Int32Array): boolean {
  for (let k = 0; k < n; k++) {
    let p = k, best = Math.abs(M[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(M[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (!(best > 0)) return false;
    if (p !== k)
      for (let j = 0; j < n; j++) {
        const t = M[k * n + j];
        M[k * n + j] = M[p * n + j];
        M[p * n + j] = t;
      }
    const inv = 1 / M[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const f = (M[i * n + k] *= inv);
      if (f === 0) continue;
      for (let j = k + 1; j < n; j++) M[i * n + j] -= f * M[k * n + j];
    }
  }
  return true;
}

/** Solves with the factors of `factorDense` in place: z holds b on entry, the solution on exit. */
function solveFactored(M: Float64Array, n: number, piv: Int32Array, z: Float64Array): void {
  // (the row interchanges first: the factorization swapped whole rows, multipliers included)
  for (let k = 0; k < n; k++) {
    const p = piv[k];
    if (p !== k) {
      const t = z[k];
      z[k] = z[p];
      z[p] = t;
    }
  }
  for (let k = 0; k < n; k++) {
    const zk = z[k];
    if (zk !== 0) for (let i = k + 1; i < n; i++) z[i] -= M[i * n + k] * zk;
  }
  for (let k = n - 1; k >= 0; k--) {
    let sum = z[k];
    for (let j = k + 1; j < n; j++) sum -= M[k * n + j] * z[j];
    z[k] = sum / M[k * n + k];
  }
}

export class RestingContactSolver extends ArticulatedTree {
  /** Sweeps stop when no block's relative velocity changed by more than tolerance × velocity scale. */
  tolerance = 1e-9;
  /** Every this many sweeps the contact states of the iterate are solved exactly (`polish`); 0: never. */
  polishEvery = 8;
  /** Over-relaxation of each block update (1: plain Gauss–Seidel). */
  relaxation = 1;
  /** Largest number of sweeps. */
  maxSweeps = 64;
  readonly stats: RestingStats = { sweeps: 0, lastChange: 0, velocityScale: 0, converged: true, sliding: 0, poisson: false, polishes: 0, polishesRejected: 0, calls: 0, totalSweeps: 0, notConverged: 0, exactFallbacks: 0 };

  // contact rows: 3 per contact with a dynamic side (n, t1, t2); 12 numbers each (J on A's body, J on B's body)
  private pRow = new Int32Array(0); // contact -> first row (-1: no dynamic side)
  private pContact = new Int32Array(0); // block -> contact
  private pJ = F64(0);
  private pD = new Int32Array(0); // 2 per row: dynamic index of A's and B's side or -1
  private pA = F64(0); // m×m Delassus matrix (row-major)
  private pB = F64(0); // free relative velocity (with the restitution target) per row
  private pB0 = F64(0); // b without the restitution targets (Poisson's compression)
  private pL1 = F64(0); // Poisson: λ of the compression, then ε λ
  private pW = F64(0); // current w = b + A λ
  private pL = F64(0); // λ per row
  private pInv = F64(0); // 4 per block: the inverse of its tangential 2×2
  private pVm = F64(0); // v⁻ₙ per block (normal relative velocity before)
  private exact: ImpulseSolver | null = null;

  solve(
    bodies: readonly RigidBodyInput[],
    joints: readonly JointInput[],
    contacts: readonly ContactInput[],
    options: RestingSolveOptions = {},
    out: ImpulseSolution = new ImpulseSolution(),
  ): ImpulseSolution {
    this.stats.calls++;
    this.gammaScale = 1;
    this.loadBodies(bodies);
    this.ensureConstraints(joints.length + contacts.length);
    this.loadJoints(joints);
    this.loadContacts(contacts, bodies, 'coulomb');
    const nd = this.nd, nj = this.nj, nc = this.nc;
    this.conBody = growU(this.conBody, nd);
    this.conBody.fill(0, 0, nd);
    this.buildForest();
    for (let j = 0; j < nj; j++) {
      const a = this.cA[j], b = this.cB[j];
      const anyDyn = (a >= 0 && this.dyn[a] >= 0) || (b >= 0 && this.dyn[b] >= 0);
      if (anyDyn && !this.cPrimary[j]) {
        // a joint row outside the spanning tree: the exact solver keeps every joint exact
        this.stats.exactFallbacks++;
        if (!this.exact) this.exact = Object.assign(new ImpulseSolver(), { slidingFriction: 'coulomb' as const });
        return this.exact.solve(bodies, joints, contacts, {}, out);
      }
    }
    this.jointRowsReady = false;
    this.factor();
    const T = this.totalDim, x = this.x;

    // contact rows
    let nbk = 0;
    this.pRow = growI(this.pRow, nc);
    this.pContact = growI(this.pContact, nc);
    for (let c = 0; c < nc; c++) {
      if (this.contactState[c] === ContactState.Static) this.pRow[c] = -1;
      else {
        this.pRow[c] = 3 * nbk;
        this.pContact[nbk++] = c;
      }
    }
    const m = 3 * nbk;
    this.pJ = growF(this.pJ, 12 * m);
    this.pD = growI(this.pD, 2 * m);
    this.pA = growF(this.pA, m * m);
    this.pB = growF(this.pB, m);
    this.pW = growF(this.pW, m);
    this.pL = growF(this.pL, m);
    this.pInv = growF(this.pInv, 4 * nbk);
    this.pVm = growF(this.pVm, nbk);
    const J = this.pJ, D = this.pD, F = this.contactFrame, P = this.contactPoint, com = this.com;
    for (let q = 0; q < nbk; q++) {
      const c = this.pContact[q], k = nj + c, a = this.cA[k], b = this.cB[k];
      for (let s = 0; s < 3; s++) {
        const r = 3 * q + s, o = 12 * r, fo = 9 * c + 3 * s;
        const dx = F[fo], dy = F[fo + 1], dz = F[fo + 2];
        for (let side = 0; side < 2; side++) {
          const i = side === 0 ? a : b, sg = side === 0 ? 1 : -1, jo = o + 6 * side;
          if (i < 0) {
            for (let e = 0; e < 6; e++) J[jo + e] = 0;
            D[2 * r + side] = -1;
            continue;
          }
          const rx = P[3 * c] - com[3 * i], ry = P[3 * c + 1] - com[3 * i + 1], rz = P[3 * c + 2] - com[3 * i + 2];
          setRow(J, jo, dx, dy, dz, rx, ry, rz, sg);
          D[2 * r + side] = this.dyn[i];
        }
      }
    }

    // free velocities (joints holding, no contact) and b
    this.fillBaseRhs(x);
    this.treeSolve(x);
    this.x0 = growF(this.x0, T);
    this.x0.set(x.subarray(0, T));
    const B = this.pB;
    let vScale = 0, anyEps = false;
    this.pB0 = growF(this.pB0, m);
    this.pL1 = growF(this.pL1, 2 * m);
    for (let q = 0; q < nbk; q++) {
      const c = this.pContact[q], k = nj + c;
      for (let s = 0; s < 3; s++) {
        const r = 3 * q + s;
        B[r] = this.rowVel(r, this.cA[k], this.cB[k], x, true);
        vScale = Math.max(vScale, Math.abs(B[r]));
      }
      const vm = this.rowVel(3 * q, this.cA[k], this.cB[k], x, false);
      this.pVm[q] = vm;
      vScale = Math.max(vScale, Math.abs(vm));
      this.pB0[3 * q] = B[3 * q];
      this.pB0[3 * q + 1] = B[3 * q + 1];
      this.pB0[3 * q + 2] = B[3 * q + 2];
      const eps = this.contactEps[c];
      if (eps > 0 && vm < 0) {
        B[3 * q] += eps * vm;
        anyEps = true;
      }
    }

    // Delassus matrix: one tree solve per row (its column K⁻¹ Bᵀ), A symmetric
    const A = this.pA;
    for (let r = 0; r < m; r++) {
      x.fill(0, 0, T);
      this.addRow(x, r, 1);
      this.treeSolve(x);
      for (let s = r; s < m; s++) {
        const v = this.rowDot6(x, s);
        A[s * m + r] = v;
        A[r * m + s] = v;
      }
    }
    // block inverses (a tiny shift keeps a block whose rows the joints fix invertible)
    for (let q = 0; q < nbk; q++) this.invertBlock(q, m);

    // start
    const L = this.pL, Wv = this.pW, warm = options.warmImpulses;
    for (let q = 0; q < nbk; q++) {
      const c = this.pContact[q], r0 = 3 * q;
      L[r0] = L[r0 + 1] = L[r0 + 2] = 0;
      if (!warm || warm.length < 3 * nc) continue;
      const ix = warm[3 * c], iy = warm[3 * c + 1], iz = warm[3 * c + 2];
      if (!(Number.isFinite(ix) && Number.isFinite(iy) && Number.isFinite(iz))) continue;
      const fo = 9 * c;
      const ln = ix * F[fo] + iy * F[fo + 1] + iz * F[fo + 2];
      if (!(ln > 0)) continue;
      let l1 = ix * F[fo + 3] + iy * F[fo + 4] + iz * F[fo + 5], l2 = ix * F[fo + 6] + iy * F[fo + 7] + iz * F[fo + 8];
      const g = this.contactGamma[c], lt = Math.sqrt(l1 * l1 + l2 * l2);
      if (g === 0) l1 = l2 = 0;
      else if (lt > g * ln) {
        l1 *= (g * ln) / lt;
        l2 *= (g * ln) / lt;
      }
      L[r0] = ln;
      L[r0 + 1] = l1;
      L[r0 + 2] = l2;
    }
    for (let r = 0; r < m; r++) {
      let s = B[r];
      const o = r * m;
      for (let t = 0; t < m; t++) s += A[o + t] * L[t];
      Wv[r] = s;
    }

    // projected block Gauss–Seidel
    const bound = this.tolerance * vScale;
    const st = this.stats;
    st.sweeps = 0;
    st.velocityScale = vScale;
    st.poisson = false;
    // (with restitution targets a quarter of the sweeps: no answer shows as no convergence)
    let ok = this.sweepLoop(nbk, m, bound, anyEps ? this.maxSweeps >> 2 : this.maxSweeps);
    if (!ok && anyEps) {
      // Newton's per-contact targets can contradict each other on coupled contacts (no answer):
      // Poisson's form instead, which always has one. Compression with ε = 0 gives λ₁; ε λ₁ is
      // applied at every contact and the contacts are solved once more with ε = 0 from there.
      st.poisson = true;
      const B0 = this.pB0, L1 = this.pL1;
      L.fill(0, 0, m);
      Wv.set(B0.subarray(0, m));
      this.sweepLoop(nbk, m, bound, this.maxSweeps);
      L1.set(L.subarray(0, m));
      for (let q = 0; q < nbk; q++) {
        const e = this.contactEps[this.pContact[q]];
        for (let k = 3 * q; k < 3 * q + 3; k++) L1[m + k] = e * L[k];
      }
      for (let r = 0; r < m; r++) {
        let s = Wv[r];
        const o = r * m;
        for (let t = 0; t < m; t++) s += A[o + t] * L1[m + t];
        Wv[r] = s;
      }
      L.fill(0, 0, m);
      ok = this.sweepLoop(nbk, m, bound, this.maxSweeps);
      for (let r = 0; r < m; r++) L[r] += L1[r] + L1[m + r];
    }
    st.converged = ok;
    st.totalSweeps += st.sweeps;
    if (!ok) st.notConverged++;

    // velocities and joint impulses: one tree solve
    this.fillBaseRhs(x);
    for (let r = 0; r < m; r++) if (L[r] !== 0) this.addRow(x, r, L[r]);
    this.treeSolve(x);
    this.writeOut(out, bodies.length);
    return out;
  }

  /** Sweeps until no block changes its relative velocity by more than `bound` (or maxSweeps in all); whether it got there. */
  private sweepLoop(nbk: number, m: number, bound: number, maxSweeps: number): boolean {
    const st = this.stats;
    let change = 0;
    for (let k = 0; k < maxSweeps; k++) {
      st.sweeps++;
      change = 0;
      for (let q = 0; q < nbk; q++) change = Math.max(change, this.updateBlock(q, m));
      if (!(change > bound)) break;
      if (this.polishEvery > 0 && (k + 1) % this.polishEvery === 0 && this.polish(nbk, m, bound)) {
        st.lastChange = 0;
        return true;
      }
    }
    st.lastChange = change;
    return !(change > bound);
  }

  // polish: the equalities of the sweeps' contact states, solved at once
  private qKind = new Int32Array(0); // per unknown: row (single row) or -1 - block (sliding block)
  private qG = F64(0); // per unknown: 3 coefficients of a sliding block's impulse (1, γ d)
  private qZ0 = F64(0); // per unknown: its value in the iterate
  private qM = F64(0);
  private qMf = F64(0);
  private qZ = F64(0);
  private qR = F64(0);
  private qPiv = new Int32Array(0);
  /** Laws an answer of `polish` broke, counted per contact over all calls: a pull (λₙ < 0), outside the cone, a separated contact approaching, an equality's residual, sliding friction against the law, a sticking contact's tangential residual. */
  readonly polishBreaks = [0, 0, 0, 0, 0, 0];
  private pBase = F64(0);
  private pCand = F64(0);
  private pCandW = F64(0);
  /**
   * Largest sine of the angle between a sliding contact's friction and the opposite of its slip in a
   * kept polish (beyond the bound). Default Infinity: sliding friction only has to dissipate (no
   * positive work on the slip); the simulator takes no answer with a sliding contact (`stats.sliding`).
   */
  slipAngle = Infinity;
  /** Solves of one polish (the contact states changed between them where the answer breaks a law). */
  polishRounds = 1;
  /** Refinement steps of the shifted dense solve (each divides the shift's error by about 1e10 in the rows' range). */
  polishRefinements = 2;

  private bState = new Uint8Array(0); // per block: 0 separated, 1 equalities on its rows (sticking / frictionless), 2 sliding
  private bDir = F64(0); // per block: γ·d (2 numbers), the sliding impulse's tangential part per unit normal impulse

  /**
   * Takes the contact states of the current iterate (separated: λₙ = 0; frictionless or sticking:
   * their rows' velocities zero; sliding: λ = s (n + γ d), d the iterate's friction direction, the
   * normal velocity zero) and solves those equalities at once: a dense solve over the active rows of
   * A shifted by 1e-10 of its largest diagonal (with redundant rows the correction of the iterate
   * stays small and keeps its split of the impulses), refined. Where the answer breaks a law the
   * states change as in the analytic solver, all at once (a pulling contact separates, one outside
   * its cone slides along its impulse's direction, a separated one that approaches sticks, a sliding
   * one whose friction would push along the slip takes the slip's opposite direction), and the
   * equalities are solved again, up to `polishRounds` times. Kept when the answer is a solution within
   * the bound: λₙ ≥ 0, inside the cones, separated contacts not approaching, zero velocities on the
   * equalities, sliding friction doing no positive work; otherwise the sweeps go on from their iterate.
   * Returns whether it was kept.
   */
  private polish(nbk: number, m: number, bound: number): boolean {
    const st = this.stats;
    st.polishes++;
    const A = this.pA, L = this.pL, Wv = this.pW;
    this.pBase = growF(this.pBase, m);
    this.pCand = growF(this.pCand, m);
    this.pCandW = growF(this.pCandW, m);
    this.qKind = growI(this.qKind, m);
    this.qG = growF(this.qG, 3 * m);
    this.qZ0 = growF(this.qZ0, m);
    this.bState = growU(this.bState, nbk);
    this.bDir = growF(this.bDir, 2 * nbk);
    const base = this.pBase, cand = this.pCand, cw = this.pCandW, kind = this.qKind, G = this.qG, z0 = this.qZ0;
    const bs = this.bState, bd = this.bDir;
    // states of the iterate; cand holds the values the next solve starts from
    for (let q = 0; q < nbk; q++) {
      const r0 = 3 * q, ln = L[r0], g = this.contactGamma[this.pContact[q]];
      cand[r0] = L[r0];
      cand[r0 + 1] = L[r0 + 1];
      cand[r0 + 2] = L[r0 + 2];
      if (!(ln > 0)) bs[q] = 0;
      else if (g === 0 || g === Infinity) bs[q] = 1;
      else {
        const lt = Math.sqrt(L[r0 + 1] * L[r0 + 1] + L[r0 + 2] * L[r0 + 2]);
        if (lt < g * ln * (1 - 1e-9)) bs[q] = 1;
        else {
          bs[q] = 2;
          bd[2 * q] = (g * L[r0 + 1]) / lt;
          bd[2 * q + 1] = (g * L[r0 + 2]) / lt;
        }
      }
    }
    // base = w − A λ: the phase's free velocities
    for (let r = 0; r < m; r++) {
      let sum = Wv[r];
      const o = r * m;
      for (let t = 0; t < m; t++) sum -= A[o + t] * L[t];
      base[r] = sum;
    }
    this.qM = growF(this.qM, m * m);
    this.qMf = growF(this.qMf, m * m);
    this.qZ = growF(this.qZ, m);
    this.qR = growF(this.qR, m);
    this.qPiv = growI(this.qPiv, m);
    const M = this.qM, Mf = this.qMf, z = this.qZ, res = this.qR, piv = this.qPiv;
    for (let round = 0; round < this.polishRounds; round++) {
      let n = 0;
      for (let q = 0; q < nbk; q++) {
        const r0 = 3 * q;
        if (bs[q] === 1) {
          const rows = this.contactGamma[this.pContact[q]] === 0 ? 1 : 3;
          for (let k = 0; k < rows; k++) {
            z0[n] = cand[r0 + k];
            kind[n++] = r0 + k;
          }
        } else if (bs[q] === 2) {
          G[3 * n] = 1;
          G[3 * n + 1] = bd[2 * q];
          G[3 * n + 2] = bd[2 * q + 1];
          z0[n] = cand[r0];
          kind[n++] = -1 - q;
        }
      }
      let maxDiag = 0;
      for (let k = 0; k < n; k++) {
        const ck = kind[k] >= 0 ? kind[k] : 3 * (-1 - kind[k]), o = ck * m;
        for (let l = 0; l < n; l++) {
          const kl = kind[l];
          let v: number;
          if (kl >= 0) v = A[o + kl];
          else {
            const r0 = 3 * (-1 - kl);
            v = A[o + r0] * G[3 * l] + A[o + r0 + 1] * G[3 * l + 1] + A[o + r0 + 2] * G[3 * l + 2];
          }
          M[k * n + l] = v;
        }
        maxDiag = Math.max(maxDiag, Math.abs(M[k * n + k]));
      }
      if (n > 0) {
        const shift = 1e-10 * maxDiag;
        Mf.set(M.subarray(0, n * n));
        for (let k = 0; k < n; k++) Mf[k * n + k] += shift;
        if (!factorDense(Mf, n, piv)) break;
        // z = z0 + corrections: residual r = −(base_c + M z), solve (M + shift) δ = r, refined
        for (let k = 0; k < n; k++) z[k] = z0[k];
        for (let it = 0; it <= this.polishRefinements; it++) {
          for (let k = 0; k < n; k++) {
            const ck = kind[k] >= 0 ? kind[k] : 3 * (-1 - kind[k]);
            let sum = base[ck];
            for (let l = 0; l < n; l++) sum += M[k * n + l] * z[l];
            res[k] = -sum;
          }
          solveFactored(Mf, n, piv, res);
          for (let k = 0; k < n; k++) z[k] += res[k];
        }
      }
      cand.fill(0, 0, m);
      for (let k = 0; k < n; k++) {
        const kk = kind[k];
        if (kk >= 0) cand[kk] = z[k];
        else {
          const r0 = 3 * (-1 - kk);
          cand[r0] = z[k] * G[3 * k];
          cand[r0 + 1] = z[k] * G[3 * k + 1];
          cand[r0 + 2] = z[k] * G[3 * k + 2];
        }
      }
      for (let r = 0; r < m; r++) {
        let sum = base[r];
        const o = r * m;
        for (let t = 0; t < m; t++) sum += A[o + t] * cand[t];
        cw[r] = sum;
      }
      let ok = true, numeric = false;
      for (let q = 0; q < nbk; q++) {
        const r0 = 3 * q, ln = cand[r0], g = this.contactGamma[this.pContact[q]];
        const lt = Math.sqrt(cand[r0 + 1] * cand[r0 + 1] + cand[r0 + 2] * cand[r0 + 2]);
        if (bs[q] === 0) {
          if (cw[r0] < -bound) {
            // separated but approaching: back with equalities, from zero
            this.polishBreaks[2]++;
            ok = false;
            bs[q] = 1;
          }
        } else if (ln < 0) {
          this.polishBreaks[0]++;
          ok = false;
          bs[q] = 0;
          cand[r0] = cand[r0 + 1] = cand[r0 + 2] = 0;
        } else if (g !== Infinity && lt > g * ln * (1 + 1e-9)) {
          // outside the cone: slides along its impulse's tangential direction
          this.polishBreaks[1]++;
          ok = false;
          bs[q] = 2;
          bd[2 * q] = (g * cand[r0 + 1]) / lt;
          bd[2 * q + 1] = (g * cand[r0 + 2]) / lt;
        } else if (Math.abs(cw[r0]) > bound) {
          this.polishBreaks[3]++;
          ok = false;
          numeric = true;
        } else if (bs[q] === 2) {
          // sliding: friction opposite the slip (Coulomb; a friction impulse at an angle to the slip
          // keeps a part turning, see core/sim/repro/ragdoll-rest.test.ts), within the bound and
          // `slipAngle`; else the slip's opposite direction
          const ws = Math.sqrt(cw[r0 + 1] * cw[r0 + 1] + cw[r0 + 2] * cw[r0 + 2]);
          const along = (cw[r0 + 1] * cand[r0 + 1] + cw[r0 + 2] * cand[r0 + 2]) / lt;
          if (along > bound || Math.sqrt(Math.max(0, ws * ws - along * along)) > bound + this.slipAngle * ws) {
            this.polishBreaks[4]++;
            ok = false;
            bd[2 * q] = (-g * cw[r0 + 1]) / ws;
            bd[2 * q + 1] = (-g * cw[r0 + 2]) / ws;
          }
        } else if (g !== 0 && (Math.abs(cw[r0 + 1]) > bound || Math.abs(cw[r0 + 2]) > bound)) {
          this.polishBreaks[5]++;
          ok = false;
          numeric = true;
        }
      }
      if (ok) {
        L.set(cand.subarray(0, m));
        Wv.set(cw.subarray(0, m));
        return true;
      }
      if (numeric) break;
    }
    st.polishesRejected++;
    return false;
  }

  /** Relative velocity along row r: the dynamic sides from the node blocks of u (free = true) or from u⁻, keyframed sides from u⁻. */
  private rowVel(r: number, a: number, b: number, u: Float64Array, free: boolean): number {
    const J = this.pJ, o = 12 * r;
    let s = 0;
    for (let side = 0; side < 2; side++) {
      const i = side === 0 ? a : b;
      if (i < 0) continue;
      const d = this.dyn[i], jo = o + 6 * side;
      if (d >= 0 && free) {
        const xo = this.nodeOff[d];
        for (let e = 0; e < 6; e++) s += J[jo + e] * u[xo + e];
      } else {
        const vo = 6 * i;
        for (let e = 0; e < 6; e++) s += J[jo + e] * this.vel[vo + e];
      }
    }
    return s;
  }

  /** x[body blocks] += μ·B_rᵀ. */
  private addRow(x: Float64Array, r: number, mu: number): void {
    const J = this.pJ, o = 12 * r;
    for (let side = 0; side < 2; side++) {
      const d = this.pD[2 * r + side];
      if (d < 0) continue;
      const xo = this.nodeOff[d], jo = o + 6 * side;
      for (let e = 0; e < 6; e++) x[xo + e] += mu * J[jo + e];
    }
  }

  /** B_r · u over the dynamic sides, u from the node blocks of x. */
  private rowDot6(x: Float64Array, r: number): number {
    const J = this.pJ, o = 12 * r;
    let s = 0;
    for (let side = 0; side < 2; side++) {
      const d = this.pD[2 * r + side];
      if (d < 0) continue;
      const xo = this.nodeOff[d], jo = o + 6 * side;
      for (let e = 0; e < 6; e++) s += J[jo + e] * x[xo + e];
    }
    return s;
  }

  /** Inverse of the block's tangential 2×2 (a tiny shift keeps a pair the joints fix invertible). */
  private invertBlock(q: number, m: number): void {
    const A = this.pA, r1 = 3 * q + 1, I = this.pInv, o = 4 * q;
    const shift = 1e-12 * (A[r1 * m + r1] + A[(r1 + 1) * m + r1 + 1]) + 1e-300;
    const a = A[r1 * m + r1] + shift, b = A[r1 * m + r1 + 1], d = A[(r1 + 1) * m + r1 + 1] + shift;
    const id = 1 / (a * d - b * b);
    I[o] = d * id;
    I[o + 1] = I[o + 2] = -b * id;
    I[o + 3] = a * id;
  }

  /** One block update of contact block q; returns the largest change of its own relative velocity. */
  private updateBlock(q: number, m: number): number {
    const A = this.pA, L = this.pL, Wv = this.pW, r0 = 3 * q;
    const c = this.pContact[q], g = this.contactGamma[c];
    const l0 = L[r0], l1 = L[r0 + 1], l2 = L[r0 + 2];
    const w0 = Wv[r0], w1 = Wv[r0 + 1], w2 = Wv[r0 + 2];
    let n0: number, n1: number, n2: number;
    const Ann = A[r0 * m + r0];
    if (g === 0) {
      n0 = Ann > 0 ? Math.max(0, l0 - w0 / Ann) : 0;
      n1 = n2 = 0;
    } else {
      // normal first (scalar), then the tangential pair (2×2) with the normal impulse just found,
      // projected onto the disc |λₜ| ≤ γ λₙ
      const om = this.relaxation;
      n0 = Ann > 0 ? Math.max(0, l0 - (om * w0) / Ann) : 0;
      const e0 = n0 - l0, I = this.pInv, o = 4 * q;
      const v1 = w1 + A[(r0 + 1) * m + r0] * e0, v2 = w2 + A[(r0 + 2) * m + r0] * e0;
      n1 = l1 - om * (I[o] * v1 + I[o + 1] * v2);
      n2 = l2 - om * (I[o + 2] * v1 + I[o + 3] * v2);
      if (g !== Infinity) {
        // outside the disc: projected radially (the fixed points on the rim have the friction
        // impulse opposite the slip as the contact's tangential pair sees it, A_tt⁻¹ w_t)
        const tt = Math.sqrt(n1 * n1 + n2 * n2), lim = g * n0;
        if (tt > lim) {
          const f = tt > 0 ? lim / tt : 0;
          n1 *= f;
          n2 *= f;
        }
      }
    }
    const d0 = n0 - l0, d1 = n1 - l1, d2 = n2 - l2;
    if (d0 === 0 && d1 === 0 && d2 === 0) return 0;
    L[r0] = n0;
    L[r0 + 1] = n1;
    L[r0 + 2] = n2;
    // w += A[:, block] δ (A symmetric: rows r0..r0+2 read as columns)
    const o0 = r0 * m, o1 = o0 + m, o2 = o1 + m;
    for (let t = 0; t < m; t++) Wv[t] += A[o0 + t] * d0 + A[o1 + t] * d1 + A[o2 + t] * d2;
    return Math.max(Math.abs(Wv[r0] - w0), Math.abs(Wv[r0 + 1] - w1), Math.abs(Wv[r0 + 2] - w2));
  }

  private writeOut(out: ImpulseSolution, nb: number): void {
    const nj = this.nj, nc = this.nc, x = this.x, L = this.pL, F = this.contactFrame;
    out.resize(nb, nj, nc);
    this.stats.sliding = 0;
    out.iterations = 1;
    out.frictionScale = 1;
    out.restitutionScale = 1;
    for (let i = 0; i < nb; i++) {
      const d = this.dyn[i];
      for (let k = 0; k < 3; k++) {
        out.linearVelocity[3 * i + k] = d < 0 ? this.vel[6 * i + k] : x[this.nodeOff[d] + k];
        out.angularVelocity[3 * i + k] = d < 0 ? this.vel[6 * i + 3 + k] : x[this.nodeOff[d] + 3 + k];
      }
    }
    // joint impulses: λ = −x on the joint nodes (KKT sign), along the row directions
    out.jointImpulse.fill(0);
    for (let i = this.nd; i < this.nNodes; i++) {
      const j = this.nodeRef[i], o = this.nodeOff[i];
      for (let k = 0; k < this.nodeDim[i]; k++) {
        const l = -x[o + k], dO = 9 * j + 3 * k;
        out.jointImpulse[3 * j] += l * this.jointDirs[dO];
        out.jointImpulse[3 * j + 1] += l * this.jointDirs[dO + 1];
        out.jointImpulse[3 * j + 2] += l * this.jointDirs[dO + 2];
      }
    }
    for (let c = 0; c < nc; c++) {
      const r0 = this.pRow[c], o = 3 * c, fo = 9 * c;
      if (r0 < 0) {
        out.contactImpulse[o] = out.contactImpulse[o + 1] = out.contactImpulse[o + 2] = 0;
        out.contactState[c] = ContactState.Static;
        continue;
      }
      const ln = L[r0], l1 = L[r0 + 1], l2 = L[r0 + 2];
      for (let k = 0; k < 3; k++) out.contactImpulse[o + k] = ln * F[fo + k] + l1 * F[fo + 3 + k] + l2 * F[fo + 6 + k];
      const g = this.contactGamma[c];
      out.contactState[c] =
        ln <= 0 ? ContactState.Separated : g === 0 ? ContactState.Frictionless : g !== Infinity && Math.sqrt(l1 * l1 + l2 * l2) >= g * ln * (1 - 1e-9) ? ContactState.Slide : ContactState.Stick;
      if (out.contactState[c] === ContactState.Slide) this.stats.sliding++;
    }
    this.writeEnergies(out);
    if (!Number.isFinite(out.kineticEnergyAfter)) throw new ResponseInputError('resting contact solve: velocities are not finite (degenerate contact rows)');
  }
}
