/**
 * Contact space: the matrix A = B K⁻¹ Bᵀ over the basis rows (n, t₁, t₂ of every contact, joints that
 * close loops), grown a row at a time per tree factorization, each contact-state pass gathered from it
 * and solved least-norm; and the pass cache (`reusePassFactors`) of the last passes' factors (layer
 * `ContactSpace` of `ImpulseSolver`).
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
 */
import { factorDenseRobust, factorSymmetricRobust, refineDenseRobust, refineSymmetricRobust, solveDenseRobust, solveSymmetricRobust } from './linalg';
import { ContactState } from './types';
import { F64, growF, growI, sameBits, setRow } from './flat';
import { SchurComplement } from './schur';

/** Entries of the pass cache kept (see `ImpulseSolver.reusePassFactors`). */
export const PASS_CACHE_SIZE = 8;

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

export function newPassFactors(): PassFactors {
  return { s: 0, asym: false, rank: 0, rj: new Int32Array(0), rg: new Int32Array(0), rc: F64(0), S: F64(0), work: F64(0), piv: new Int32Array(0), rhs: F64(0), mu: F64(0), residual: 0, solved: false };
}

export abstract class ContactSpace extends SchurComplement {
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
  protected csSlot(key: number): number {
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
  protected solveContactSpace(vScale: number): void {
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
  protected ensureX(): void {
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
  protected csNormalVelocity(c: number): number {
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
}
