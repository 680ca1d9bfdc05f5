/**
 * Small dense linear algebra on flat Float64Arrays, row-major with an explicit
 * stride. No allocation: callers own every buffer.
 */

/**
 * out = (s·A)⁻¹·s for the n×n block of `a` at `ao` (row stride `stride`), where
 * s = ±1 is chosen so that s·A is symmetric positive definite. Uses a Cholesky
 * factorisation in `work` (n·n). Returns false when s·A is not positive
 * definite (a pivot ≤ tol · largest diagonal entry).
 */
export function invertDefinite(
  a: Float64Array,
  ao: number,
  stride: number,
  n: number,
  s: number,
  out: Float64Array,
  oo: number,
  work: Float64Array,
): boolean {
  // Cholesky: L (lower) in work, row-major n×n.
  let maxDiag = 0;
  for (let i = 0; i < n; i++) maxDiag = Math.max(maxDiag, Math.abs(a[ao + i * stride + i]));
  const tol = 1e-13 * maxDiag;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = s * a[ao + i * stride + j];
      for (let k = 0; k < j; k++) sum -= work[i * n + k] * work[j * n + k];
      if (i === j) {
        if (!(sum > tol)) return false;
        work[i * n + i] = Math.sqrt(sum);
      } else {
        work[i * n + j] = sum / work[j * n + j];
      }
    }
  }
  // Inverse column by column: solve L Lᵀ x = e_c (x in the scratch column y, then stored with
  // the sign s). y_i = 0 above row c, and those zeros add nothing below it: rows from c on.
  const y = invCol.length >= n ? invCol : (invCol = new Float64Array(n));
  for (let c = 0; c < n; c++) {
    // forward: L y = e_c
    for (let i = 0; i < c; i++) y[i] = 0;
    for (let i = c; i < n; i++) {
      let sum = i === c ? 1 : 0;
      const ri = i * n;
      for (let k = c; k < i; k++) sum -= work[ri + k] * y[k];
      y[i] = sum / work[ri + i];
    }
    // backward: Lᵀ x = y
    for (let i = n - 1; i >= 0; i--) {
      let sum = y[i];
      for (let k = i + 1; k < n; k++) sum -= work[k * n + i] * y[k];
      y[i] = sum / work[i * n + i];
    }
    if (s < 0) for (let i = 0; i < n; i++) out[oo + i * stride + c] = -y[i];
    else for (let i = 0; i < n; i++) out[oo + i * stride + c] = y[i];
  }
  return true;
}
let invCol = new Float64Array(6);
let gramLt = new Float64Array(64); // Lᵀ for the Gram matrix of `solveSymmetricRobust`

/**
 * In-place LU factorisation with partial pivoting of the n×n row-major matrix
 * `a` (stride n). `piv[i]` receives the row swapped into position i. Returns
 * the number of pivots that were ≤ `relTol` · max|a| (treated as zero: the
 * matrix is rank-deficient and `luSolve` sets the matching unknowns to zero).
 */
export function luFactor(a: Float64Array, n: number, piv: Int32Array, relTol: number): number {
  let maxAbs = 0;
  for (let i = 0; i < n * n; i++) maxAbs = Math.max(maxAbs, Math.abs(a[i]));
  const tol = relTol * maxAbs;
  let deficient = 0;
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs(a[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(a[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[k] = p;
    if (p !== k) {
      const rk = k * n, rp = p * n;
      for (let j = 0; j < n; j++) {
        const t = a[rk + j];
        a[rk + j] = a[rp + j];
        a[rp + j] = t;
      }
    }
    const d = a[k * n + k];
    if (!(Math.abs(d) > tol)) {
      a[k * n + k] = 0;
      deficient++;
      continue;
    }
    const inv = 1 / d;
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      const f = a[ri + k] * inv;
      if (f === 0) continue;
      a[ri + k] = f;
      const rk = k * n;
      for (let j = k + 1; j < n; j++) a[ri + j] -= f * a[rk + j];
    }
  }
  return deficient;
}

/** Solves with the factors of `luFactor`, b overwritten by x. Zero pivots give zero unknowns. */
export function luSolve(a: Float64Array, n: number, piv: Int32Array, b: Float64Array): void {
  for (let k = 0; k < n; k++) {
    const p = piv[k];
    if (p !== k) {
      const t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
  }
  for (let i = 0; i < n; i++) {
    let sum = b[i];
    const ri = i * n;
    for (let k = 0; k < i; k++) sum -= a[ri + k] * b[k];
    b[i] = sum;
  }
  for (let i = n - 1; i >= 0; i--) {
    const ri = i * n;
    const d = a[ri + i];
    if (d === 0) {
      b[i] = 0;
      continue;
    }
    let sum = b[i];
    for (let k = i + 1; k < n; k++) sum -= a[ri + k] * b[k];
    b[i] = sum / d;
  }
}

/**
 * Solves the small dense system S x = b (n×n row-major, not necessarily
 * symmetric) robustly, giving the minimum-norm least-squares solution
 * x = pinv(S)·b. Rank deficiency is normal here: redundant constraints such
 * as four contacts under a flat box, or a sticking contact next to a ball
 * joint. Method: LU with complete pivoting, stopped at the numerical rank r
 * (largest remaining |entry| ≤ 1e-11·max|S|), so P S Q = L U with L (n×r) of
 * full column rank and U (r×n) of full row rank; then
 * pinv(S) = Q·Uᵀ(U Uᵀ)⁻¹·(LᵀL)⁻¹Lᵀ·P, with iterative refinement. Cost
 * O(n²·r), against O(n³) per sweep of an SVD. `work` needs 3n² + 4n numbers,
 * `piv` 2n. Returns the residual norm max|b − S x|. `early`: stop refining once the residual is
 * at round-off level of b (1e-15·max|b|) instead of when it stops halving. `nullSpace`: rook
 * pivoting (`luRookPivot`) and, below full rank, the null-space form of pinv(S) (`applyDenseNull`,
 * O(n²·d) for a deficiency d) instead of the Gram matrices: the same solution, other round-off.
 */
export function solveDenseRobust(S: Float64Array, n: number, b: Float64Array, x: Float64Array, work: Float64Array, piv: Int32Array, early = false, nullSpace = false): number {
  if (n === 0) return 0;
  return refineDenseRobust(S, n, b, x, work, piv, factorDenseRobust(S, n, work, piv, nullSpace), early, nullSpace);
}

/**
 * The solve of `solveDenseRobust` from factors `factorDenseRobust` left in `work` and `piv`
 * (rank `rank`): the same S may be solved again for another right-hand side without factoring
 * it again (bit for bit the answer `solveDenseRobust` gives). Returns max|b − S x|.
 */
export function refineDenseRobust(S: Float64Array, n: number, b: Float64Array, x: Float64Array, work: Float64Array, piv: Int32Array, rank: number, early = false, nullSpace = false): number {
  if (n === 0) return 0;
  const o = 3 * n * n;
  const r = work.subarray(o, o + n);
  const d = work.subarray(o + n, o + 2 * n);
  x.fill(0, 0, n);
  let res = Infinity, b0 = 0;
  for (let it = 0; it < 4; it++) {
    // (x = 0 at first: the residual is b itself when S is finite, which a rank above 0 says)
    const rn = it === 0 && rank > 0 ? copyResidual(b, n, r) : residualInto(S, n, b, x, r);
    if (it === 0) b0 = rn;
    // (`early`: a residual at round-off level of the right-hand side ends the refinement)
    else if (early && rn <= 1e-15 * b0) return rn;
    // (x has not moved since rn was found: it is the residual)
    if ((rn >= res * 0.5 && it > 1) || rn === 0 || rank === 0) return rn;
    res = rn;
    if (nullSpace) applyDenseNull(n, rank, work, piv, r, d);
    else applyDenseRobust(n, rank, work, piv, r, d);
    for (let i = 0; i < n; i++) x[i] += d[i];
  }
  return residualInto(S, n, b, x, null);
}

/**
 * The residual b − S·0 of a finite S: r = b (up to the sign of zero entries, which adding them
 * to x = +0 drops), returns max |b|.
 */
function copyResidual(b: ArrayLike<number>, n: number, r: Float64Array): number {
  let rn = 0;
  for (let i = 0; i < n; i++) {
    const s = b[i];
    r[i] = s;
    rn = Math.max(rn, Math.abs(s));
  }
  return rn;
}

/** r = b − S·x (S dense n×n, row-major; r may be null); returns max |r|. */
function residualInto(S: Float64Array, n: number, b: ArrayLike<number>, x: ArrayLike<number>, r: Float64Array | null): number {
  let rn = 0;
  for (let i = 0; i < n; i++) {
    let s = b[i];
    const ri = i * n;
    for (let j = 0; j < n; j++) s -= S[ri + j] * x[j];
    if (r !== null) r[i] = s;
    rn = Math.max(rn, Math.abs(s));
  }
  return rn;
}

/**
 * The factors `solveDenseRobust` uses, in `work` (3n² + 4n) and `piv` (2n):
 * complete-pivot LU of S at its numerical rank and, below full rank, the
 * Cholesky factors of the Gram matrices LᵀL and U Uᵀ; with `nullSpace`, instead, bases of the
 * null spaces of S and Sᵀ (see `applyDenseNull`), O(n²·d) for a rank deficiency d instead of
 * O(n³). Returns the rank.
 */
export function factorDenseRobust(S: Float64Array, n: number, work: Float64Array, piv: Int32Array, nullSpace = false): number {
  const A = work.subarray(0, n * n);
  const GL = work.subarray(n * n, 2 * n * n);
  const GU = work.subarray(2 * n * n, 3 * n * n);
  const p = piv.subarray(0, n), q = piv.subarray(n, 2 * n);
  A.set(S.subarray(0, n * n));
  const rank = nullSpace ? luRookPivot(A, n, p, q, 1e-11) : luCompletePivot(A, n, p, q, 1e-11);
  if (nullSpace) {
    if (rank > 0 && rank < n) luNullSpaces(work, n, rank);
    return rank;
  }
  if (rank < n) {
    // Gram matrices of the full-rank factors (lower triangles), Cholesky-factored in place
    GL.fill(0, 0, n * n);
    for (let i = 0; i < n; i++) {
      // row i of L: A[i][0..min(i, rank)−1] and the unit diagonal
      const m = Math.min(i, rank), ri = i * n;
      for (let a2 = 0; a2 < m; a2++) {
        const la = A[ri + a2];
        if (la === 0) continue;
        for (let c = 0; c <= a2; c++) GL[a2 * n + c] += la * A[ri + c];
      }
      if (i < rank) {
        for (let c = 0; c < i; c++) GL[i * n + c] += A[ri + c];
        GL[i * n + i] += 1;
      }
    }
    for (let a2 = 0; a2 < rank; a2++)
      for (let c = 0; c <= a2; c++) {
        let su = 0;
        for (let j = a2; j < n; j++) su += A[c * n + j] * A[a2 * n + j];
        GU[a2 * n + c] = su;
      }
    cholInPlace(GL, n, rank);
    cholInPlace(GU, n, rank);
  }
  return rank;
}

/** out = pinv(S)·res from the factors of `factorDenseRobust` (S⁻¹·res at full rank). */
export function applyDenseRobust(n: number, rank: number, work: Float64Array, piv: Int32Array, res: Float64Array, out: Float64Array): void {
  luPinvApply(work, n, rank, piv, res, out);
}

/**
 * out = pinv(S)·res (S⁻¹·res at full rank) from the factors of `solveDenseRobust`, read in place
 * from `work` (A at 0, GL at n², GU at 2n², scratch t, t2 at 3n² + 2n, 3n² + 3n) and `piv` (p, q).
 */
function luPinvApply(w: Float64Array, n: number, rank: number, piv: Int32Array, res: Float64Array, out: Float64Array): void {
  const full = rank === n, nn = n * n, to = 3 * nn + 2 * n, t2o = to + n;
  for (let i = 0; i < n; i++) w[to + i] = res[piv[i]];
  if (full) {
    for (let i = 0; i < n; i++) {
      let s = w[to + i];
      for (let k = 0; k < i; k++) s -= w[i * n + k] * w[to + k];
      w[to + i] = s;
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = w[to + i];
      for (let k = i + 1; k < n; k++) s -= w[i * n + k] * w[to + k];
      w[to + i] = s / w[i * n + i];
    }
    for (let j = 0; j < n; j++) out[piv[n + j]] = w[to + j];
    return;
  }
  // y = (LᵀL)⁻¹ Lᵀ t
  for (let a = 0; a < rank; a++) {
    let s = w[to + a];
    for (let i = a + 1; i < n; i++) s += w[i * n + a] * w[to + i];
    w[t2o + a] = s;
  }
  cholSolveAt(w, nn, n, rank, w, t2o);
  // w = (U Uᵀ)⁻¹ y, z = Uᵀ w
  cholSolveAt(w, 2 * nn, n, rank, w, t2o);
  for (let j = 0; j < n; j++) {
    let s = 0;
    const m = j < rank ? j : rank - 1;
    for (let a = 0; a <= m; a++) s += w[a * n + j] * w[t2o + a];
    out[piv[n + j]] = s;
  }
}

/**
 * Null-space form of the least-norm solve (`nullSpace`), rank r < n, d = n − r. With
 * P S Q = L U, L = [L₁₁; L₂₁] (L₁₁ r×r unit lower), U = [U₁₁ U₁₂]: the columns of
 * Z = [Z_b; I], Z_b = −U₁₁⁻¹ U₁₂, span the null space of P S Q, and those of W = [−X_b; I],
 * X_b = L₁₁⁻ᵀ L₂₁ᵀ, the null space of (P S Q)ᵀ. pinv(S)·b is then: project P b onto range(L)
 * (remove its W part), solve L₁₁ U₁₁ v₁ = (that)₁ with v₂ = 0, remove the Z part of v. Stored
 * after the LU (work at n²): Z_b, X_b (r×d each, row-major), the Cholesky factors of ZᵀZ and
 * WᵀW (d×d each); 2·d·n numbers in all.
 */
function luNullSpaces(w: Float64Array, n: number, r: number): void {
  const d = n - r, zo = n * n, xo = zo + r * d, gz = xo + r * d, gw = gz + d * d;
  for (let c = 0; c < d; c++) {
    // U₁₁ Z_b = −U₁₂ (column c), back substitution
    for (let i = r - 1; i >= 0; i--) {
      const ri = i * n;
      let s = -w[ri + r + c];
      for (let k = i + 1; k < r; k++) s -= w[ri + k] * w[zo + k * d + c];
      w[zo + i * d + c] = s / w[ri + i];
    }
    // L₁₁ᵀ X_b = L₂₁ᵀ (column c: row r + c of L), unit diagonal
    const rc = (r + c) * n;
    for (let i = r - 1; i >= 0; i--) {
      let s = w[rc + i];
      for (let k = i + 1; k < r; k++) s -= w[k * n + i] * w[xo + k * d + c];
      w[xo + i * d + c] = s;
    }
  }
  for (let a = 0; a < d; a++)
    for (let b = 0; b <= a; b++) {
      let sz = a === b ? 1 : 0, sw = sz;
      for (let k = 0; k < r; k++) {
        sz += w[zo + k * d + a] * w[zo + k * d + b];
        sw += w[xo + k * d + a] * w[xo + k * d + b];
      }
      w[gz + a * d + b] = sz;
      w[gw + a * d + b] = sw;
    }
  cholSolveFactor(w, gz, d);
  cholSolveFactor(w, gw, d);
}

/** `cholInPlace` of the d×d block at offset o of w (row stride d). */
function cholSolveFactor(w: Float64Array, o: number, d: number): void {
  for (let i = 0; i < d; i++)
    for (let j = 0; j <= i; j++) {
      let s = w[o + i * d + j];
      for (let k = 0; k < j; k++) s -= w[o + i * d + k] * w[o + j * d + k];
      if (i === j) w[o + i * d + i] = Math.sqrt(Math.max(s, 1e-300));
      else w[o + i * d + j] = s / w[o + j * d + j];
    }
}

let nullC = new Float64Array(8); // coefficients on a null-space basis (d)

/** v[vo..vo+n) −= B (BᵀB)⁻¹ Bᵀ v for B = [sg·M; I] (M r×d at mo of w, Cholesky of BᵀB at go): removes v's part in range(B). */
function removeRange(w: Float64Array, mo: number, go: number, sg: number, r: number, d: number, v: Float64Array, vo: number): void {
  if (nullC.length < d) nullC = new Float64Array(2 * d);
  const c = nullC;
  for (let j = 0; j < d; j++) {
    let s = 0;
    for (let k = 0; k < r; k++) s += w[mo + k * d + j] * v[vo + k];
    c[j] = v[vo + r + j] + sg * s;
  }
  cholSolveAt(w, go, d, d, c, 0);
  for (let k = 0; k < r; k++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += w[mo + k * d + j] * c[j];
    v[vo + k] -= sg * s;
  }
  for (let j = 0; j < d; j++) v[vo + r + j] -= c[j];
}

/** out = pinv(S)·res from the factors of `factorDenseRobust(…, nullSpace = true)` (scratch at 3n² + 2n). */
export function applyDenseNull(n: number, rank: number, w: Float64Array, piv: Int32Array, res: Float64Array, out: Float64Array): void {
  const nn = n * n, r = rank, d = n - r, to = 3 * nn + 2 * n;
  const zo = nn, xo = zo + r * d, gz = xo + r * d, gw = gz + d * d;
  for (let i = 0; i < n; i++) w[to + i] = res[piv[i]];
  if (d > 0) removeRange(w, xo, gw, -1, r, d, w, to);
  for (let i = 0; i < r; i++) {
    let s = w[to + i];
    for (let k = 0; k < i; k++) s -= w[i * n + k] * w[to + k];
    w[to + i] = s;
  }
  for (let i = r - 1; i >= 0; i--) {
    let s = w[to + i];
    for (let k = i + 1; k < r; k++) s -= w[i * n + k] * w[to + k];
    w[to + i] = s / w[i * n + i];
  }
  if (d > 0) {
    for (let j = 0; j < d; j++) w[to + r + j] = 0;
    removeRange(w, zo, gz, 1, r, d, w, to);
  }
  for (let j = 0; j < n; j++) out[piv[n + j]] = w[to + j];
}

/** Brings the pivot at (bi, bj) of the row-major n×n `a` to (k, k): swaps rows k, bi and columns k, bj, and their entries of the permutations p, q. */
function swapPivot(a: Float64Array, n: number, k: number, bi: number, bj: number, p: Int32Array, q: Int32Array): void {
  if (bi !== k) {
    const rk = k * n, rb = bi * n;
    for (let j = 0; j < n; j++) {
      const tt = a[rk + j];
      a[rk + j] = a[rb + j];
      a[rb + j] = tt;
    }
    const tp = p[k];
    p[k] = p[bi];
    p[bi] = tp;
  }
  if (bj !== k) {
    for (let i = 0; i < n; i++) {
      const ri = i * n, tt = a[ri + k];
      a[ri + k] = a[ri + bj];
      a[ri + bj] = tt;
    }
    const tq = q[k];
    q[k] = q[bj];
    q[bj] = tq;
  }
}

/**
 * In-place LU with complete pivoting of the n×n row-major `a`, stopped at the
 * numerical rank: row k of P·a·Q is row p[k] of a, column k is column q[k].
 * On return the strict lower part of the first r columns holds L (unit
 * diagonal), rows 0..r−1 from the diagonal on hold U. Returns r.
 */
export function luCompletePivot(a: Float64Array, n: number, p: Int32Array, q: Int32Array, relTol: number): number {
  for (let i = 0; i < n; i++) {
    p[i] = i;
    q[i] = i;
  }
  // the largest entry of the trailing block is found while it is updated (first step: a full
  // scan, whose largest |entry| is also max|a|)
  let bi = 0, bj = 0, best = -1, nan = false;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const v = Math.abs(a[i * n + j]);
      if (v > best) {
        best = v;
        bi = i;
        bj = j;
      } else if (v !== v) nan = true;
    }
  // (a NaN entry makes the tolerance NaN: rank 0, as a max over the entries gives)
  const tol = nan ? NaN : relTol * Math.max(best, 0);
  for (let k = 0; k < n; k++) {
    if (!(best > tol) || best === 0) return k;
    swapPivot(a, n, k, bi, bj, p, q);
    const rk = k * n, inv = 1 / a[rk + k];
    best = -1;
    bi = bj = k + 1;
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      const f = a[ri + k] * inv;
      a[ri + k] = f;
      if (f === 0) {
        for (let j = k + 1; j < n; j++) {
          const v = Math.abs(a[ri + j]);
          if (v > best) {
            best = v;
            bi = i;
            bj = j;
          }
        }
        continue;
      }
      for (let j = k + 1; j < n; j++) {
        const w = a[ri + j] - f * a[rk + j];
        a[ri + j] = w;
        const v = Math.abs(w);
        if (v > best) {
          best = v;
          bi = i;
          bj = j;
        }
      }
    }
  }
  return n;
}

/**
 * `luCompletePivot` with rook pivoting: each pivot is largest in its row and in its column of
 * the trailing block (found by alternating row and column searches, O(n) per step in
 * practice) instead of largest in the whole block (O(n²) per step), and the elimination does
 * not track the block's maximum. Stopped at the same numerical rank rule: when the rook pivot
 * is ≤ relTol·max|a|, the whole trailing block is scanned, and the factorization ends only when
 * all of it is. Same output layout (P·a·Q = L·U, rows p, columns q). Returns the rank.
 */
export function luRookPivot(a: Float64Array, n: number, p: Int32Array, q: Int32Array, relTol: number): number {
  for (let i = 0; i < n; i++) {
    p[i] = i;
    q[i] = i;
  }
  let amax = -1, nan = false;
  for (let i = 0; i < n * n; i++) {
    const v = Math.abs(a[i]);
    if (v > amax) amax = v;
    else if (v !== v) nan = true;
  }
  const tol = nan ? NaN : relTol * Math.max(amax, 0);
  if (!(amax > tol) || amax === 0) return 0;
  for (let k = 0; k < n; k++) {
    // rook search from column k: the largest of a column, then of its row, … until both agree
    let bj = k, bi = k, best = -1;
    for (let i = k; i < n; i++) {
      const v = Math.abs(a[i * n + k]);
      if (v > best) {
        best = v;
        bi = i;
      }
    }
    for (let it = 0; it < n; it++) {
      let rb = best, rj = bj;
      const ri = bi * n;
      for (let j = k; j < n; j++) {
        const v = Math.abs(a[ri + j]);
        if (v > rb) {
          rb = v;
          rj = j;
        }
      }
      if (rj === bj) break;
      bj = rj;
      best = rb;
      let cb = best, ci = bi;
      for (let i = k; i < n; i++) {
        const v = Math.abs(a[i * n + bj]);
        if (v > cb) {
          cb = v;
          ci = i;
        }
      }
      if (ci === bi) break;
      bi = ci;
      best = cb;
    }
    if (!(best > tol)) {
      // (the rook pivot is negligible: the block is, only if its largest entry is)
      for (let i = k; i < n; i++)
        for (let j = k; j < n; j++) {
          const v = Math.abs(a[i * n + j]);
          if (v > best) {
            best = v;
            bi = i;
            bj = j;
          }
        }
      if (!(best > tol) || best === 0) return k;
    }
    swapPivot(a, n, k, bi, bj, p, q);
    const rk = k * n, inv = 1 / a[rk + k];
    // (two rows per sweep over the pivot row: each entry gets the same one update as row by row)
    let i = k + 1;
    for (; i + 1 < n; i += 2) {
      const ri = i * n, ri2 = ri + n;
      const f = a[ri + k] * inv, f2 = a[ri2 + k] * inv;
      a[ri + k] = f;
      a[ri2 + k] = f2;
      if (f !== 0 && f2 !== 0)
        for (let j = k + 1; j < n; j++) {
          const u = a[rk + j];
          a[ri + j] -= f * u;
          a[ri2 + j] -= f2 * u;
        }
      else if (f !== 0) for (let j = k + 1; j < n; j++) a[ri + j] -= f * a[rk + j];
      else if (f2 !== 0) for (let j = k + 1; j < n; j++) a[ri2 + j] -= f2 * a[rk + j];
    }
    if (i < n) {
      const ri = i * n;
      const f = a[ri + k] * inv;
      a[ri + k] = f;
      if (f !== 0) for (let j = k + 1; j < n; j++) a[ri + j] -= f * a[rk + j];
    }
  }
  return n;
}

/** Cholesky L Lᵀ of the leading m×m block of the symmetric g (row stride n, lower triangle given), in place. */
export function cholInPlace(g: Float64Array, n: number, m: number): void {
  for (let i = 0; i < m; i++)
    for (let j = 0; j <= i; j++) {
      let s = g[i * n + j];
      for (let k = 0; k < j; k++) s -= g[i * n + k] * g[j * n + k];
      if (i === j) g[i * n + i] = Math.sqrt(Math.max(s, 1e-300));
      else g[i * n + j] = s / g[j * n + j];
    }
}

/** `cholSolve` with the factor at offset `go` of g and v at offset `vo` of v. */
function cholSolveAt(g: Float64Array, go: number, n: number, m: number, v: Float64Array, vo: number): void {
  for (let i = 0; i < m; i++) {
    let s = v[vo + i];
    for (let k = 0; k < i; k++) s -= g[go + i * n + k] * v[vo + k];
    v[vo + i] = s / g[go + i * n + i];
  }
  for (let i = m - 1; i >= 0; i--) {
    let s = v[vo + i];
    for (let k = i + 1; k < m; k++) s -= g[go + k * n + i] * v[vo + k];
    v[vo + i] = s / g[go + i * n + i];
  }
}

/** Solves (L Lᵀ) y = v for the factor of `cholInPlace`, v overwritten. */
export function cholSolve(g: Float64Array, n: number, m: number, v: Float64Array): void {
  for (let i = 0; i < m; i++) {
    let s = v[i];
    for (let k = 0; k < i; k++) s -= g[i * n + k] * v[k];
    v[i] = s / g[i * n + i];
  }
  for (let i = m - 1; i >= 0; i--) {
    let s = v[i];
    for (let k = i + 1; k < m; k++) s -= g[k * n + i] * v[k];
    v[i] = s / g[i * n + i];
  }
}

/**
 * One-sided Jacobi SVD (Hestenes) of the n×n row-major A in place: on return
 * the columns of A are σ_j·u_j, V (n×n row-major) holds the right singular
 * vectors as columns and sig[j] = σ_j.
 */
export function jacobiSvd(A: Float64Array, V: Float64Array, sig: Float64Array, n: number): void {
  V.fill(0, 0, n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++)
      for (let q = p + 1; q < n; q++) {
        let alpha = 0, beta = 0, gamma = 0;
        for (let i = 0; i < n; i++) {
          const ap = A[i * n + p], aq = A[i * n + q];
          alpha += ap * ap;
          beta += aq * aq;
          gamma += ap * aq;
        }
        if (gamma === 0 || Math.abs(gamma) <= 1e-15 * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t), s = c * t;
        for (let i = 0; i < n; i++) {
          const ap = A[i * n + p], aq = A[i * n + q];
          A[i * n + p] = c * ap - s * aq;
          A[i * n + q] = s * ap + c * aq;
          const vp = V[i * n + p], vq = V[i * n + q];
          V[i * n + p] = c * vp - s * vq;
          V[i * n + q] = s * vp + c * vq;
        }
      }
    if (!rotated) break;
  }
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += A[i * n + j] * A[i * n + j];
    sig[j] = Math.sqrt(s);
  }
}

/**
 * Eigen-decomposition of the symmetric n×n row-major `a` (destroyed) by
 * cyclic Jacobi rotations, for small n (the 6×6 Gram matrices of contact
 * groups). On return w[k] is the k-th eigenvalue and column k of V
 * (row-major n×n) its unit eigenvector.
 */
export function symmetricEigen(a: Float64Array, n: number, V: Float64Array, w: Float64Array): void {
  V.fill(0, 0, n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0, diag = 0;
    for (let p = 0; p < n; p++) {
      diag += a[p * n + p] * a[p * n + p];
      for (let q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    }
    if (off <= 1e-30 * diag || off === 0) break;
    for (let p = 0; p < n - 1; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (apq === 0) continue;
        const app = a[p * n + p], aqq = a[q * n + q];
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < n; k++) {
          // columns p, q
          const akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          // rows p, q
          const apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p], vkq = V[k * n + q];
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  for (let i = 0; i < n; i++) w[i] = a[i * n + i];
}

/**
 * Pivoted Cholesky of the symmetric positive semi-definite n×n row-major `z`
 * (read only): z ≈ C·Cᵀ with C (n×k, row-major with row stride `stride`) in
 * the original row order, stopped when the largest remaining diagonal is
 * ≤ `relTol` (default 1e-12) of the largest diagonal. `d` (n) and `done` (n)
 * are scratch; `order`, if given, receives the pivot rows (C restricted to
 * them, in that order, is lower triangular). Returns k.
 */
export function pivotedCholesky(z: Float64Array, n: number, C: Float64Array, co: number, stride: number, d: Float64Array, done: Uint8Array, relTol = 1e-12, order?: Int32Array): number {
  let dmax = 0;
  for (let i = 0; i < n; i++) {
    d[i] = z[i * n + i];
    done[i] = 0;
    dmax = Math.max(dmax, d[i]);
  }
  const tol = relTol * dmax;
  let k = 0;
  for (; k < n && k < stride; k++) {
    let p = -1, best = tol;
    for (let i = 0; i < n; i++) if (!done[i] && d[i] > best) {
      best = d[i];
      p = i;
    }
    if (p < 0) break;
    done[p] = 1;
    if (order) order[k] = p;
    const lpp = Math.sqrt(best);
    for (let i = 0; i < n; i++) {
      if (i === p) {
        C[co + i * stride + k] = lpp;
        continue;
      }
      if (done[i]) {
        C[co + i * stride + k] = 0;
        continue;
      }
      let v = z[i * n + p];
      for (let m = 0; m < k; m++) v -= C[co + i * stride + m] * C[co + p * stride + m];
      v /= lpp;
      C[co + i * stride + k] = v;
      d[i] -= v * v;
    }
  }
  return k;
}

/**
 * Minimum-norm least-squares solution of S x = b for a symmetric positive
 * semi-definite n×n row-major S (the Schur complement when every impulse acts
 * along its condition direction): pivoted Cholesky P S Pᵀ = L Lᵀ with L
 * (n×r) stopped at the numerical rank (largest remaining diagonal ≤ 1e-11 of
 * the largest), then x = P L (LᵀL)⁻² Lᵀ Pᵀ b (x = S⁻¹ b at full rank), with
 * iterative refinement. Zero entries of L are skipped, so sparse S (bodies
 * coupled only through shared joints) factor faster. About half the work of
 * `solveDenseRobust`. `work` needs 2n² + 4n numbers, `piv` n. Returns the
 * residual norm max|b − S x|. `early` as for `solveDenseRobust`. `nullSpace`: below full rank,
 * the null-space form (`applySymmetricNull`) instead of LᵀL: the same solution, other round-off.
 */
export function solveSymmetricRobust(S: Float64Array, n: number, b: Float64Array, x: Float64Array, work: Float64Array, piv: Int32Array, early = false, nullSpace = false): number {
  if (n === 0) return 0;
  return refineSymmetricRobust(S, n, b, x, work, piv, factorSymmetricRobust(S, n, work, piv, nullSpace), early, nullSpace);
}

/**
 * The factors `solveSymmetricRobust` uses, in `work` (2n² + 4n) and `piv` (n): pivoted Cholesky
 * at the numerical rank and, below full rank, the Cholesky factor of LᵀL; with `nullSpace`,
 * instead, a basis Z = [Z_b; I] of the null space, Z_b = −L₁₁⁻ᵀ L₂₁ᵀ (r×d at n²), and the
 * Cholesky factor of ZᵀZ after it (see `applySymmetricNull`). Returns the rank.
 */
export function factorSymmetricRobust(S: Float64Array, n: number, work: Float64Array, piv: Int32Array, nullSpace = false): number {
  if (n === 0) return 0;
  const A = work.subarray(0, n * n);
  const G = work.subarray(n * n, 2 * n * n);
  const o = 2 * n * n;
  const t = work.subarray(o + 2 * n, o + 3 * n);
  // (a NaN or infinite entry gives rank 0, as in `luRookPivot`: a rank above 0 says S is finite)
  let finite = true;
  for (let i = 0; i < n * n; i++) {
    const v = S[i];
    A[i] = v;
    if (v - v !== 0) finite = false;
  }
  for (let i = 0; i < n; i++) piv[i] = i;
  if (!finite) return 0;
  let dmax = 0;
  for (let i = 0; i < n; i++) dmax = Math.max(dmax, A[i * n + i]);
  const tol = 1e-11 * dmax;
  let rank = 0;
  for (let k = 0; k < n; k++) {
    let p = -1, best = tol;
    for (let i = k; i < n; i++) if (A[i * n + i] > best) {
      best = A[i * n + i];
      p = i;
    }
    if (p < 0) break;
    if (p !== k) {
      // symmetric swap of indices k < p in lower-triangle storage
      let tt = A[k * n + k];
      A[k * n + k] = A[p * n + p];
      A[p * n + p] = tt;
      for (let j = 0; j < k; j++) {
        tt = A[k * n + j];
        A[k * n + j] = A[p * n + j];
        A[p * n + j] = tt;
      }
      for (let j = k + 1; j < p; j++) {
        tt = A[j * n + k];
        A[j * n + k] = A[p * n + j];
        A[p * n + j] = tt;
      }
      for (let j = p + 1; j < n; j++) {
        tt = A[j * n + k];
        A[j * n + k] = A[j * n + p];
        A[j * n + p] = tt;
      }
      const tp = piv[k];
      piv[k] = piv[p];
      piv[p] = tp;
    }
    const lkk = Math.sqrt(A[k * n + k]);
    A[k * n + k] = lkk;
    const inv = 1 / lkk;
    // (column k is copied to t, so the update below reads it contiguously; same arithmetic)
    for (let i = k + 1; i < n; i++) t[i] = A[i * n + k] *= inv;
    for (let i = k + 1; i < n; i++) {
      const lik = t[i];
      if (lik === 0) continue;
      const ri = i * n;
      for (let j = k + 1; j <= i; j++) A[ri + j] -= lik * t[j];
    }
    rank = k + 1;
  }
  const full = rank === n;
  if (nullSpace) {
    if (!full && rank > 0) cholNullSpace(work, n, rank);
    return rank;
  }
  if (!full && rank > 0) {
    // G = LᵀL (rank × rank, lower triangle), Cholesky in place; G_ac = Σ_{i ≥ a} L_ia L_ic in
    // the order of i, as dot products of L's columns (copied to rows of Lt, contiguous)
    G.fill(0, 0, n * n);
    if (gramLt.length < rank * n) gramLt = new Float64Array(Math.max(rank * n, 2 * gramLt.length));
    const Lt = gramLt;
    for (let a = 0; a < rank; a++) for (let i = a, ra = a * n; i < n; i++) Lt[ra + i] = A[i * n + a];
    for (let a = 0; a < rank; a++) {
      const ra = a * n;
      for (let c = 0; c <= a; c++) {
        const rc = c * n;
        let sum = 0;
        for (let i = a; i < n; i++) sum += Lt[ra + i] * Lt[rc + i];
        G[ra + c] = sum;
      }
    }
    cholInPlace(G, n, rank);
  }
  return rank;
}

/**
 * The solve of `solveSymmetricRobust` from the factors `factorSymmetricRobust` left in `work`
 * and `piv` (rank `rank`): bit for bit the answer `solveSymmetricRobust` gives, for another
 * right-hand side of the same S without factoring it again. Returns max|b − S x|.
 */
export function refineSymmetricRobust(S: Float64Array, n: number, b: Float64Array, x: Float64Array, work: Float64Array, piv: Int32Array, rank: number, early = false, nullSpace = false): number {
  if (n === 0) return 0;
  const A = work.subarray(0, n * n);
  const G = work.subarray(n * n, 2 * n * n);
  const o = 2 * n * n;
  const r = work.subarray(o, o + n), d = work.subarray(o + n, o + 2 * n), t = work.subarray(o + 2 * n, o + 3 * n), t2 = work.subarray(o + 3 * n, o + 4 * n);
  x.fill(0, 0, n);
  let res = Infinity, b0 = 0;
  for (let it = 0; it < 4; it++) {
    // (x = 0 at first: the residual is b itself when S is finite, which a rank above 0 says)
    const rn = it === 0 && rank > 0 ? copyResidual(b, n, r) : residualInto(S, n, b, x, r);
    if (it === 0) b0 = rn;
    // (`early`: a residual at round-off level of the right-hand side ends the refinement)
    else if (early && rn <= 1e-15 * b0) return rn;
    // (x has not moved since rn was found: it is the residual)
    if ((rn >= res * 0.5 && it > 1) || rn === 0 || rank === 0) return rn;
    res = rn;
    if (nullSpace) applySymmetricNull(n, rank, work, piv, r, d);
    else cholPinvApply(A, G, n, rank, piv, t, t2, r, d);
    for (let i = 0; i < n; i++) x[i] += d[i];
  }
  return residualInto(S, n, b, x, null);
}

/**
 * out = pinv(S)·res from the factors of `factorSymmetricRobust` (the step of
 * `refineSymmetricRobust`; `nullSpace` as they were factored).
 */
export function applySymmetricRobust(n: number, rank: number, work: Float64Array, piv: Int32Array, res: Float64Array, out: Float64Array, nullSpace = false): void {
  const o = 2 * n * n;
  if (nullSpace) applySymmetricNull(n, rank, work, piv, res, out);
  else cholPinvApply(work.subarray(0, n * n), work.subarray(n * n, o), n, rank, piv, work.subarray(o + 2 * n, o + 3 * n), work.subarray(o + 3 * n, o + 4 * n), res, out);
}

/** out = pinv(S)·res (S⁻¹·res at full rank) from the factors of `solveSymmetricRobust`. */
function cholPinvApply(A: Float64Array, G: Float64Array, n: number, rank: number, piv: Int32Array, t: Float64Array, t2: Float64Array, res: Float64Array, out: Float64Array): void {
  const full = rank === n;
  for (let i = 0; i < n; i++) t[i] = res[piv[i]];
  if (full) {
    for (let i = 0; i < n; i++) {
      let s = t[i];
      for (let k = 0; k < i; k++) s -= A[i * n + k] * t[k];
      t[i] = s / A[i * n + i];
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = t[i];
      for (let k = i + 1; k < n; k++) s -= A[k * n + i] * t[k];
      t[i] = s / A[i * n + i];
    }
    for (let i = 0; i < n; i++) out[piv[i]] = t[i];
    return;
  }
  // y = Lᵀ t; w = G⁻¹ G⁻¹ y; out = P L w
  t2.fill(0, 0, rank);
  for (let i = 0; i < n; i++) {
    const m = Math.min(i + 1, rank), ti = t[i];
    if (ti === 0) continue;
    for (let a = 0; a < m; a++) t2[a] += A[i * n + a] * ti;
  }
  cholSolve(G, n, rank, t2);
  cholSolve(G, n, rank, t2);
  for (let i = 0; i < n; i++) {
    const m = Math.min(i + 1, rank);
    let s = 0;
    for (let a = 0; a < m; a++) s += A[i * n + a] * t2[a];
    out[piv[i]] = s;
  }
}

/** Null-space basis of the pivoted Cholesky factor (r < n, d = n − r): L₁₁ᵀ Z_b = −L₂₁ᵀ at n², Cholesky of I + Z_bᵀ Z_b after it. */
function cholNullSpace(w: Float64Array, n: number, r: number): void {
  const d = n - r, zo = n * n, gz = zo + r * d;
  for (let c = 0; c < d; c++) {
    const rc = (r + c) * n;
    for (let i = r - 1; i >= 0; i--) {
      let s = -w[rc + i];
      for (let k = i + 1; k < r; k++) s -= w[k * n + i] * w[zo + k * d + c];
      w[zo + i * d + c] = s / w[i * n + i];
    }
  }
  for (let a = 0; a < d; a++)
    for (let b = 0; b <= a; b++) {
      let sz = a === b ? 1 : 0;
      for (let k = 0; k < r; k++) sz += w[zo + k * d + a] * w[zo + k * d + b];
      w[gz + a * d + b] = sz;
    }
  cholSolveFactor(w, gz, d);
}

/**
 * out = pinv(S)·res from the factors of `factorSymmetricRobust(…, nullSpace = true)`: S is
 * symmetric, so its range is the complement of its null space: remove res's part in range(Z),
 * solve L₁₁ L₁₁ᵀ v₁ = (that)₁ with v₂ = 0, remove v's part in range(Z). Scratch at 2n² + 2n.
 */
function applySymmetricNull(n: number, rank: number, w: Float64Array, piv: Int32Array, res: Float64Array, out: Float64Array): void {
  const nn = n * n, r = rank, d = n - r, to = 2 * nn + 2 * n, zo = nn, gz = zo + r * d;
  for (let i = 0; i < n; i++) w[to + i] = res[piv[i]];
  if (d > 0) removeRange(w, zo, gz, 1, r, d, w, to);
  for (let i = 0; i < r; i++) {
    let s = w[to + i];
    for (let k = 0; k < i; k++) s -= w[i * n + k] * w[to + k];
    w[to + i] = s / w[i * n + i];
  }
  for (let i = r - 1; i >= 0; i--) {
    let s = w[to + i];
    for (let k = i + 1; k < r; k++) s -= w[k * n + i] * w[to + k];
    w[to + i] = s / w[i * n + i];
  }
  if (d > 0) {
    for (let j = 0; j < d; j++) w[to + r + j] = 0;
    removeRange(w, zo, gz, 1, r, d, w, to);
  }
  for (let i = 0; i < n; i++) out[piv[i]] = w[to + i];
}
