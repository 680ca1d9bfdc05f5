/**
 * The Schur complement of the secondary rows (closing joints, contacts) over the tree: built by bodies
 * or by tree paths (with the cache of the previous path-built one), or solved low-rank as S = P Rᵀ
 * when every touched body is an isolated node.
 */
import { applyDenseRobust, factorDenseRobust, luCompletePivot, pivotedCholesky } from './linalg';
import { ContactState } from './types';
import { growF, growI, growU } from './flat';
import { ContactGroups } from './groups';

export abstract class SchurComplement extends ContactGroups {
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
  protected solveLowRankSchur(s: number): boolean {
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
  protected buildSchurByBodies(s: number): boolean {
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
  protected buildSchurByPaths(s: number): void {
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
}
