/**
 * Redundant contacts, layer `ContactGroups` of `ImpulseSolver`: the contact groups of one dynamic body
 * against the world or keyframed bodies, compressed to a basis of their row space or eliminated with
 * their body (`contactGroups`).
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
 */
import { invertDefinite, luFactor, luSolve, symmetricEigen } from './linalg';
import { ContactState, ResponseInputError } from './types';
import { growF, growI } from './flat';
import { ArticulatedTree } from './tree';

export abstract class ContactGroups extends ArticulatedTree {
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
  protected prepareGroups(mode: 'auto' | 'schur' | 'eliminate'): boolean {
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
  protected decomposePending(): void {
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
  protected compressGroup(d: number, nv: number): number {
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
  protected expandGroups(): void {
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
  protected eliminateGroupBody(d: number): void {
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
  protected addEliminatedOffsets(x: Float64Array): void {
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
  protected eliminatedLambdas(x: Float64Array): void {
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
}
