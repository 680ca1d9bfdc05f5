/**
 * One dynamic body against fixed bodies (the world, keyframed bodies) and no joints: the linear
 * solve of a contact-state pass without the tree, the contact groups' bookkeeping or the Schur
 * complement by paths (layer `OneBodyPass` of `ImpulseSolver`; `runContactStates` takes it for
 * such islands, every other layer is shared).
 *
 * The pass solves what `solveSparse` solves for that island, the same equations in the same
 * least-norm sense: the body's sticking and frictionless rows (its contact group, J = G) hold in
 * the least-squares sense of the group (the projection of J_g u = c_g on the group's row space),
 * its sliding rows (condition n, impulse n + γP) exactly, and the group's impulses are the
 * least-norm split of the group's wrench. With M⁻¹ the body block's inverse, u⁻ the
 * body's velocity before, and the secondary rows q (sliding rows, then the group's rows or the
 * basis of its row space):
 *   S μ = c − J u⁻,  S_pq = J_p M⁻¹ G_qᵀ (at most 6 + sliding rows; formed from 6-vectors),
 *   u = u⁻ + M⁻¹ Σ_q G_qᵀ μ_q,
 * solved by the general path's least-norm solvers (`solveSymmetricRobust`, `solveDenseRobust`),
 * the group compressed (Gram eigen-decomposition, tolerance and order) as `decomposeGroup` does.
 *
 * A group that certainly pins all six freedoms with no sliding contact (a box resting or stuck on
 * four corners, the usual case) is solved in closed form instead: with the Gram matrix
 * G = J_gᵀJ_g and b = J_gᵀc_g, u = G⁻¹b (its least-squares velocity) and the least-norm impulses
 * λ_g = J_g G⁻¹ M(u − u⁻), two 6×6 Cholesky solves. "Certainly": the bounds
 * λ_min(G) ≥ 1/tr(G⁻¹), λ_max(G) ≤ tr(G) and those of M⁻¹ show the compressed system
 * S = Λ^½ Q M⁻¹ Qᵀ Λ^½ (eigenvalues those of G M⁻¹) has λ_min > 1e-8 λ_max, so the general path
 * keeps all six rows (rank cut at 1e-12 of Λ and at 1e-11 of S's pivots) and has this answer.
 */
import { invertDefinite, solveDenseRobust, solveSymmetricRobust, symmetricEigen } from './linalg';
import { ContactState, ResponseInputError } from './types';
import { F64, growF, growI } from './flat';
import { ContactSpace } from './contactspace';

export abstract class OneBodyPass extends ContactSpace {
  private obSec = new Int32Array(0); // secondary rows: row index, or −1 − i for the group's basis row i
  private obGrp = new Int32Array(0); // the group's rows
  private obJ = F64(0); // 6 per secondary row: condition row
  private obWG = F64(0); // 6 per secondary row: M⁻¹ G_qᵀ
  private obC = F64(0);
  private obMu = F64(0);
  private obQ = F64(36); // the group's basis rows (√Λ_i q_i) in order
  private obInv = F64(36);
  private obL = F64(36);
  private obY = F64(6);
  private obU = F64(6);
  private obLam = F64(6); // Λ_i of the group's basis rows
  private obR = F64(36);

  private obW = F64(36); // M⁻¹ of the body, 6×6 row-major

  /**
   * Before the first pass of a loop: the body's M⁻¹ = diag(1/m, 1/m, 1/m, I⁻¹) and room for its
   * velocity in x (node 0, at offset 0 in any tree).
   */
  protected prepareOneBody(): void {
    const b = this.dynBody[0], m = this.mass[b], Minv = this.obW, w = this.work36;
    Minv.fill(0);
    Minv[0] = Minv[7] = Minv[14] = 1 / m;
    if (!invertDefinite(this.inertia, 9 * b, 3, 3, 1, w, 0, this.hScratch)) throw new ResponseInputError(`bodies[${b}]: singular body block in the impulse system`);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) Minv[(3 + r) * 6 + 3 + c] = w[3 * r + c];
    this.x = growF(this.x, 6);
    this.nodeOff = growI(this.nodeOff, 1);
    this.nodeOff[0] = 0;
  }

  /**
   * One contact-state pass of an island of one dynamic body (dynamic index 0) and no joints:
   * rowLambda of every row, the body's velocity in x (node 0), schurResidual. The rows are built
   * (`buildRows`), M⁻¹ formed (`prepareOneBody`).
   */
  protected solveOneBody(): void {
    this.xStale = false;
    const nRows = this.nRows, nj = this.nj, Minv = this.obW;
    const b = this.dynBody[0], vel = this.vel, vo = 6 * b;
    const JA = this.rowJA, JB = this.rowJB, GA = this.rowGA, GB = this.rowGB, C = this.rowC, lam = this.rowLambda;
    this.obSec = growI(this.obSec, nRows + 6);
    this.obGrp = growI(this.obGrp, nRows);
    const sec = this.obSec, grp = this.obGrp;
    // sliding rows first (in row order), then the group, as `solveSparse` orders them
    let s = 0, ng = 0, single = true;
    for (let r = 0; r < nRows; r++) {
      const da = this.rowDA[r], db = this.rowDB[r];
      if (da < 0 && db < 0) {
        lam[r] = 0;
        continue;
      }
      const st = this.contactState[this.rowOwner[r] - nj];
      if (st === ContactState.Stick || st === ContactState.Frictionless) {
        if (ng > 0 && this.rowOwner[r] !== this.rowOwner[grp[0]]) single = false;
        grp[ng++] = r;
      } else sec[s++] = r;
    }
    const u0 = vel[vo], u1 = vel[vo + 1], u2 = vel[vo + 2], u3 = vel[vo + 3], u4 = vel[vo + 4], u5 = vel[vo + 5];
    const x = this.x;
    this.schurResidual = 0;
    let basis = 0, rank = 0; // the group's rows: 0 as they are, 1 eigen basis Λ^½Q, 2 pivoted Cholesky basis
    if (ng > 0 && !single) {
      // Gram matrix and J_gᵀc_g of the group, summed as `decomposeGroup` sums them
      const Gm = this.gram, bv = this.vec6;
      Gm.fill(0);
      bv.fill(0);
      for (let g = 0; g < ng; g++) {
        const r = grp[g], J = this.rowDA[r] === 0 ? JA : JB, o = 6 * r, c = C[r];
        for (let i = 0; i < 6; i++) {
          const ji = J[o + i];
          bv[i] += ji * c;
          for (let j = 0; j < 6; j++) Gm[i * 6 + j] += ji * J[o + j];
        }
      }
      if (s === 0 && ng >= 6 && this.fullRank(Gm) && this.wellPosed()) {
        // u = G⁻¹ b; y = G⁻¹ M (u − u⁻); λ_r = J_r·y
        const L = this.obL, U = this.obU, Y = this.obY;
        for (let i = 0; i < 6; i++) U[i] = bv[i];
        choleskySolve(L, U);
        const m = this.mass[b], I = this.inertia, io = 9 * b;
        const d0 = U[0] - u0, d1 = U[1] - u1, d2 = U[2] - u2, d3 = U[3] - u3, d4 = U[4] - u4, d5 = U[5] - u5;
        Y[0] = m * d0;
        Y[1] = m * d1;
        Y[2] = m * d2;
        Y[3] = I[io] * d3 + I[io + 3] * d4 + I[io + 6] * d5;
        Y[4] = I[io + 1] * d3 + I[io + 4] * d4 + I[io + 7] * d5;
        Y[5] = I[io + 2] * d3 + I[io + 5] * d4 + I[io + 8] * d5;
        choleskySolve(L, Y);
        for (let g = 0; g < ng; g++) {
          const r = grp[g], J = this.rowDA[r] === 0 ? JA : JB, o = 6 * r;
          lam[r] = J[o] * Y[0] + J[o + 1] * Y[1] + J[o + 2] * Y[2] + J[o + 3] * Y[3] + J[o + 4] * Y[4] + J[o + 5] * Y[5];
        }
        for (let k = 0; k < 6; k++) x[k] = U[k];
        return;
      }
      this.obC = growF(this.obC, nRows + 6);
      if (ng <= 6 && this.rowsIndependent(grp, ng)) {
        // (rank = rows: `solveSparse` takes the rows as they are)
        for (let g = 0; g < ng; g++) sec[s++] = grp[g];
      } else if ((rank = this.pivotedBasis(Gm, bv)) > 0) {
        // basis rows B (r×6, BᵀB = G to round-off, as Λ^½Q's), targets (BBᵀ)⁻¹Bb: see `pivotedBasis`
        for (let i = 0; i < rank; i++) {
          sec[s] = -1 - i;
          this.obC[s] = this.obT[i];
          s++;
        }
        basis = 2;
      } else {
        // the basis of the group's row space as `decomposeGroup` / `compressGroup` form it
        const V = this.eigV, w = this.eigW, Q = this.obQ;
        symmetricEigen(Gm, 6, V, w);
        let wmax = 0;
        for (let i = 0; i < 6; i++) wmax = Math.max(wmax, w[i]);
        const tol = 1e-12 * wmax;
        rank = 0;
        for (let i = 0; i < 6; i++) if (w[i] > tol) rank++;
        if (rank < ng) {
          let kept = 0;
          for (let i = 0; i < 6; i++) {
            if (!(w[i] > tol)) continue;
            let t = 0;
            for (let k = 0; k < 6; k++) t += V[k * 6 + i] * bv[k];
            const sq = Math.sqrt(w[i]), qo = 6 * kept;
            for (let k = 0; k < 6; k++) Q[qo + k] = sq * V[k * 6 + i];
            this.obLam[kept] = w[i];
            sec[s] = -1 - kept;
            this.obC[s] = sq * (t / w[i]);
            s++;
            kept++;
          }
          basis = 1;
        } else for (let g = 0; g < ng; g++) sec[s++] = grp[g];
      }
    } else for (let g = 0; g < ng; g++) sec[s++] = grp[g];

    // S μ = c − J u⁻ over the secondary rows
    this.obJ = growF(this.obJ, 6 * s);
    this.obWG = growF(this.obWG, 6 * s);
    this.obC = growF(this.obC, s);
    this.obMu = growF(this.obMu, s);
    this.S = growF(this.S, s * s);
    this.sWork = growF(this.sWork, 3 * s * s + 4 * s);
    this.sPiv = growI(this.sPiv, 2 * s);
    this.sRhs = growF(this.sRhs, s);
    const Jq = this.obJ, WG = this.obWG, rhs = this.sRhs, S = this.S, Q = this.obQ;
    let symmetric = true;
    for (let q = 0; q < s; q++) {
      const r = sec[q], o = 6 * q;
      let c: number;
      if (r < 0) {
        const qo = 6 * (-1 - r);
        for (let k = 0; k < 6; k++) Jq[o + k] = Q[qo + k];
        c = this.obC[q];
        mulMinv(Minv, Q, qo, WG, o);
      } else {
        const side = this.rowDA[r] === 0, J = side ? JA : JB, G = side ? GA : GB, ro = 6 * r;
        for (let k = 0; k < 6; k++) Jq[o + k] = J[ro + k];
        c = C[r];
        mulMinv(Minv, G, ro, WG, o);
        if (this.contactState[this.rowOwner[r] - nj] === ContactState.Slide) symmetric = false;
      }
      rhs[q] = c - (Jq[o] * u0 + Jq[o + 1] * u1 + Jq[o + 2] * u2 + Jq[o + 3] * u3 + Jq[o + 4] * u4 + Jq[o + 5] * u5);
    }
    for (let p = 0; p < s; p++) {
      const po = 6 * p;
      for (let q = 0; q < s; q++) {
        const qo = 6 * q;
        S[p * s + q] = Jq[po] * WG[qo] + Jq[po + 1] * WG[qo + 1] + Jq[po + 2] * WG[qo + 2] + Jq[po + 3] * WG[qo + 3] + Jq[po + 4] * WG[qo + 4] + Jq[po + 5] * WG[qo + 5];
      }
    }
    const mu = this.obMu;
    if (s > 0) this.schurResidual = symmetric ? solveSymmetricRobust(S, s, rhs, mu, this.sWork, this.sPiv, true) : solveDenseRobust(S, s, rhs, mu, this.sWork, this.sPiv, true);
    let x0 = u0, x1 = u1, x2 = u2, x3 = u3, x4 = u4, x5 = u5;
    const Y = this.obY;
    Y.fill(0);
    for (let q = 0; q < s; q++) {
      const m = mu[q], o = 6 * q, r = sec[q];
      x0 += m * WG[o];
      x1 += m * WG[o + 1];
      x2 += m * WG[o + 2];
      x3 += m * WG[o + 3];
      x4 += m * WG[o + 4];
      x5 += m * WG[o + 5];
      if (r >= 0) lam[r] = m;
      else if (basis === 1) {
        // y = Σ q_i ν_i / √Λ_i (the basis row is √Λ_i q_i)
        const f = m * (1 / this.obLam[-1 - r]);
        for (let k = 0; k < 6; k++) Y[k] += f * Jq[o + k];
      } else Y[-1 - r] = m;
    }
    if (basis > 0) {
      // y = Bᵀ(BBᵀ)⁻¹ν for the pivoted basis (the least-norm split: |λ_g| = |ν| as with Λ^½Q)
      if (basis === 2) this.pivotedExpand(rank, Y);
      for (let g = 0; g < ng; g++) {
        const r = grp[g], J = this.rowDA[r] === 0 ? JA : JB, o = 6 * r;
        lam[r] = J[o] * Y[0] + J[o + 1] * Y[1] + J[o + 2] * Y[2] + J[o + 3] * Y[3] + J[o + 4] * Y[4] + J[o + 5] * Y[5];
      }
    }
    x[0] = x0;
    x[1] = x1;
    x[2] = x2;
    x[3] = x3;
    x[4] = x4;
    x[5] = x5;
  }

  private obP = new Int32Array(6);
  private obT = F64(6);
  private obM = F64(36);
  private obZ = F64(6);

  /**
   * The group's row space by pivoted Cholesky of its Gram matrix G (6×6): P G Pᵀ = L Lᵀ + E with
   * L (6×r) and the trailing block E ≤ 1e-14 tr(G). Its rank r is certainly `decomposeGroup`'s
   * (eigenvalues above 1e-12 of the largest): λ_r(G) ≥ λ_min(L₁₁L₁₁ᵀ) ≥ 1/tr((L₁₁L₁₁ᵀ)⁻¹) >
   * 1e-9 tr(G), and λ_{r+1}(G) ≤ tr(E) ≤ 1e-14 tr(G) (Weyl). Then the basis rows are B = LᵀP (so
   * BᵀB = G to round-off, as for Λ^½Q), in obQ, and their targets B G⁺ b = (BBᵀ)⁻¹ B b in obT,
   * BBᵀ = LᵀL factored in obM. Returns r, or 0 when the rank is not certain (the eigen-decomposition
   * then decides, as in `decomposeGroup`).
   */
  private pivotedBasis(G: Float64Array, bv: Float64Array): number {
    const A = this.obL, p = this.obP;
    A.set(G);
    let trG = 0;
    for (let i = 0; i < 6; i++) {
      trG += G[7 * i];
      p[i] = i;
    }
    let r = 0;
    for (; r < 6; r++) {
      let best = -1, bi = r, tail = 0;
      for (let i = r; i < 6; i++) {
        const d = A[7 * i];
        tail += d;
        if (d > best) {
          best = d;
          bi = i;
        }
      }
      if (tail <= 1e-14 * trG) break;
      if (bi !== r) {
        // symmetric swap of rows and columns r and bi (full storage)
        for (let k = 0; k < 6; k++) {
          const t = A[r * 6 + k];
          A[r * 6 + k] = A[bi * 6 + k];
          A[bi * 6 + k] = t;
        }
        for (let k = 0; k < 6; k++) {
          const t = A[k * 6 + r];
          A[k * 6 + r] = A[k * 6 + bi];
          A[k * 6 + bi] = t;
        }
        const t = p[r];
        p[r] = p[bi];
        p[bi] = t;
      }
      if (!(best > 0)) return 0;
      const l = Math.sqrt(A[7 * r]);
      A[7 * r] = l;
      for (let i = r + 1; i < 6; i++) A[i * 6 + r] /= l;
      for (let i = r + 1; i < 6; i++) for (let j = r + 1; j <= i; j++) {
        const v = A[i * 6 + j] - A[i * 6 + r] * A[j * 6 + r];
        A[i * 6 + j] = v;
        A[j * 6 + i] = v;
      }
    }
    if (r === 0) return 0;
    // λ_min of L₁₁L₁₁ᵀ (r×r leading block of A's lower triangle, stride 6)
    const inv = this.obInv;
    let trInv = 0;
    for (let j = 0; j < r; j++)
      for (let i = j; i < r; i++) {
        let sum = i === j ? 1 : 0;
        for (let k = j; k < i; k++) sum -= A[i * 6 + k] * inv[k];
        const v = sum / A[7 * i];
        inv[i] = v;
        trInv += v * v;
      }
    if (!(1 / trInv > 1e-9 * trG)) return 0;
    // B_i = column i of L (rows 0..5, zero above the diagonal) in the original order
    const Q = this.obQ, M = this.obM, t = this.obT;
    for (let i = 0; i < r; i++) {
      const qo = 6 * i;
      let bt = 0;
      for (let k = 0; k < 6; k++) {
        const v = k < i ? 0 : A[k * 6 + i];
        Q[qo + p[k]] = v;
        bt += v * bv[p[k]];
      }
      t[i] = bt;
    }
    // BBᵀ = LᵀL (r×r), factored; t ← (BBᵀ)⁻¹ B b
    for (let i = 0; i < r; i++)
      for (let j = 0; j <= i; j++) {
        let sum = 0;
        for (let k = i; k < 6; k++) sum += A[k * 6 + i] * A[k * 6 + j];
        M[i * r + j] = sum;
      }
    if (!cholesky(M, r)) return 0;
    solveFactored(M, r, t);
    return r;
  }

  /** y ← Bᵀ (BBᵀ)⁻¹ ν for the basis of `pivotedBasis` (ν in y[0..r−1] on entry). */
  private pivotedExpand(r: number, y: Float64Array): void {
    const z = this.obZ, Q = this.obQ;
    for (let i = 0; i < r; i++) z[i] = y[i];
    solveFactored(this.obM, r, z);
    y.fill(0);
    for (let i = 0; i < r; i++) for (let k = 0; k < 6; k++) y[k] += z[i] * Q[6 * i + k];
  }

  private obTrG = 0;
  private obTrInv = 0;

  /**
   * Whether the group's Gram matrix G (6×6) certainly has rank 6 for `decomposeGroup` (eigenvalues
   * above 1e-12 of the largest): λ_min ≥ 1/tr(G⁻¹) > 1e-9 tr(G) ≥ 1e-9 λ_max. Leaves G's Cholesky
   * factor in obL.
   */
  private fullRank(G: Float64Array): boolean {
    const L = this.obL;
    L.set(G);
    let trG = 0;
    for (let i = 0; i < 6; i++) trG += G[7 * i];
    if (!cholesky(L, 6)) return false;
    const trInv = inverseTrace(L, 6, this.obInv);
    this.obTrG = trG;
    this.obTrInv = trInv;
    return 1 / trInv > 1e-9 * trG;
  }

  /**
   * After `fullRank`: whether the compressed system S (eigenvalues those of G M⁻¹) certainly keeps
   * all six rows in the general path's pivoted Cholesky (pivots above 1e-11 of the largest
   * diagonal): λ_min(G)λ_min(M⁻¹) > 1e-8 λ_max(G)λ_max(M⁻¹), with λ(M⁻¹) in
   * [min(1/m, 1/tr I), max(1/m, tr I⁻¹)]. Then the closed form is its answer.
   */
  private wellPosed(): boolean {
    const b = this.dynBody[0], m = this.mass[b], I = this.inertia, io = 9 * b, W = this.obW;
    const trI = I[io] + I[io + 4] + I[io + 8], trIinv = W[21] + W[28] + W[35];
    const wLo = Math.min(1 / m, 1 / trI), wHi = Math.max(1 / m, trIinv);
    return (1 / this.obTrInv) * wLo > 1e-8 * this.obTrG * wHi;
  }

  /**
   * Whether the k ≤ 6 group rows are certainly independent for `decomposeGroup` (G's k nonzero
   * eigenvalues are those of R = J_g J_gᵀ: λ_min(R) ≥ 1/tr(R⁻¹) > 1e-9 tr(R); the other 6 − k
   * are zero, at round-off in the eigen-decomposition, far below its 1e-12 cut).
   */
  private rowsIndependent(grp: Int32Array, k: number): boolean {
    const R = this.obR, JA = this.rowJA, JB = this.rowJB;
    let tr = 0;
    for (let i = 0; i < k; i++) {
      const ri = grp[i], Ji = this.rowDA[ri] === 0 ? JA : JB, oi = 6 * ri;
      for (let j = 0; j <= i; j++) {
        const rj = grp[j], Jj = this.rowDA[rj] === 0 ? JA : JB, oj = 6 * rj;
        const v = Ji[oi] * Jj[oj] + Ji[oi + 1] * Jj[oj + 1] + Ji[oi + 2] * Jj[oj + 2] + Ji[oi + 3] * Jj[oj + 3] + Ji[oi + 4] * Jj[oj + 4] + Ji[oi + 5] * Jj[oj + 5];
        R[i * k + j] = v;
        if (i === j) tr += v;
      }
    }
    if (!cholesky(R, k)) return false;
    return 1 / inverseTrace(R, k, this.obInv) > 1e-9 * tr;
  }
}

/** In-place Cholesky A = L Lᵀ of an n×n (row-major, stride n; the lower triangle is read and holds L). False unless positive definite. */
function cholesky(L: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let d = L[j * n + j];
    for (let k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (!(d > 0)) return false;
    const ljj = Math.sqrt(d);
    L[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = L[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / ljj;
    }
  }
  return true;
}

/** tr((L Lᵀ)⁻¹) = |L⁻¹|²_F for the factor of `cholesky` (col: n scratch). */
function inverseTrace(L: Float64Array, n: number, col: Float64Array): number {
  let tr = 0;
  for (let j = 0; j < n; j++)
    for (let i = j; i < n; i++) {
      let s = i === j ? 1 : 0;
      for (let k = j; k < i; k++) s -= L[i * n + k] * col[k];
      const v = s / L[i * n + i];
      col[i] = v;
      tr += v * v;
    }
  return tr;
}

/** v ← (L Lᵀ)⁻¹ v for the n×n factor of `cholesky`. */
function solveFactored(L: Float64Array, n: number, v: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = v[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * v[k];
    v[i] = s / L[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = v[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * v[k];
    v[i] = s / L[i * n + i];
  }
}

/** v ← L⁻¹ v (6×6 factor of `cholesky`). */
function forward(L: Float64Array, v: Float64Array): void {
  for (let i = 0; i < 6; i++) {
    let s = v[i];
    for (let k = 0; k < i; k++) s -= L[i * 6 + k] * v[k];
    v[i] = s / L[i * 7];
  }
}

/** v ← L⁻ᵀ v (6×6 factor of `cholesky`). */
function backward(L: Float64Array, v: Float64Array): void {
  for (let i = 5; i >= 0; i--) {
    let s = v[i];
    for (let k = i + 1; k < 6; k++) s -= L[k * 6 + i] * v[k];
    v[i] = s / L[i * 7];
  }
}

/** v ← (L Lᵀ)⁻¹ v (6×6 factor of `cholesky`). */
function choleskySolve(L: Float64Array, v: Float64Array): void {
  forward(L, v);
  backward(L, v);
}

/** out[oo..oo+5] = M⁻¹ g[go..go+5] for M⁻¹ = diag(1/m, 1/m, 1/m, I⁻¹) (6×6 row-major at 0; its zero blocks skipped). */
function mulMinv(Minv: Float64Array, g: Float64Array, go: number, out: Float64Array, oo: number): void {
  const im = Minv[0], g3 = g[go + 3], g4 = g[go + 4], g5 = g[go + 5];
  out[oo] = im * g[go];
  out[oo + 1] = im * g[go + 1];
  out[oo + 2] = im * g[go + 2];
  out[oo + 3] = Minv[21] * g3 + Minv[22] * g4 + Minv[23] * g5;
  out[oo + 4] = Minv[27] * g3 + Minv[28] * g4 + Minv[29] * g5;
  out[oo + 5] = Minv[33] * g3 + Minv[34] * g4 + Minv[35] * g5;
}
