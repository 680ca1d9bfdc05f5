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
  // Inverse column by column: solve L Lᵀ x = e_c.
  for (let c = 0; c < n; c++) {
    // forward: L y = e_c, store y in out column c
    for (let i = 0; i < n; i++) {
      let sum = i === c ? 1 : 0;
      for (let k = 0; k < i; k++) sum -= work[i * n + k] * out[oo + k * stride + c];
      out[oo + i * stride + c] = sum / work[i * n + i];
    }
    // backward: Lᵀ x = y
    for (let i = n - 1; i >= 0; i--) {
      let sum = out[oo + i * stride + c];
      for (let k = i + 1; k < n; k++) sum -= work[k * n + i] * out[oo + k * stride + c];
      out[oo + i * stride + c] = sum / work[i * n + i];
    }
  }
  if (s < 0) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[oo + i * stride + j] = -out[oo + i * stride + j];
  return true;
}

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
 * symmetric) robustly: LU with partial pivoting and iterative refinement when
 * S has full rank; otherwise the pseudo-inverse from a one-sided Jacobi SVD
 * (singular values below 1e-10 of the largest dropped), i.e. the
 * minimum-norm least-squares solution. Rank deficiency is normal here:
 * redundant constraints such as four contacts under a flat box, or a sticking
 * contact next to a ball joint. `work` needs 2n² + 3n numbers, `piv` n.
 * Returns the residual norm max|b − S x|.
 */
export function solveDenseRobust(S: Float64Array, n: number, b: Float64Array, x: Float64Array, work: Float64Array, piv: Int32Array): number {
  if (n === 0) return 0;
  const A = work.subarray(0, n * n);
  const V = work.subarray(n * n, 2 * n * n);
  const r = work.subarray(2 * n * n, 2 * n * n + n);
  const d = work.subarray(2 * n * n + n, 2 * n * n + 2 * n);
  const sig = work.subarray(2 * n * n + 2 * n, 2 * n * n + 3 * n);
  A.set(S.subarray(0, n * n));
  const deficient = luFactor(A, n, piv, 1e-11);
  if (deficient > 0) {
    A.set(S.subarray(0, n * n));
    jacobiSvd(A, V, sig, n);
  }
  x.fill(0, 0, n);
  let res = Infinity;
  for (let it = 0; it < 4; it++) {
    let rn = 0;
    for (let i = 0; i < n; i++) {
      let s = b[i];
      const ri = i * n;
      for (let j = 0; j < n; j++) s -= S[ri + j] * x[j];
      r[i] = s;
      rn = Math.max(rn, Math.abs(s));
    }
    if (rn >= res * 0.5 && it > 1) break;
    res = rn;
    if (rn === 0) break;
    if (deficient > 0) pinvApply(A, V, sig, n, r, d);
    else {
      d.set(r);
      luSolve(A, n, piv, d);
    }
    for (let i = 0; i < n; i++) x[i] += d[i];
  }
  let rn = 0;
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let j = 0; j < n; j++) s -= S[i * n + j] * x[j];
    rn = Math.max(rn, Math.abs(s));
  }
  return rn;
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

/** d = pinv(A)·r from the factors of `jacobiSvd`, dropping σ ≤ 1e-10·σ_max. */
function pinvApply(US: Float64Array, V: Float64Array, sig: Float64Array, n: number, r: Float64Array, d: Float64Array): void {
  let smax = 0;
  for (let j = 0; j < n; j++) smax = Math.max(smax, sig[j]);
  const tol = 1e-10 * smax;
  d.fill(0, 0, n);
  for (let j = 0; j < n; j++) {
    const sj = sig[j];
    if (!(sj > tol)) continue;
    let c = 0;
    for (let i = 0; i < n; i++) c += US[i * n + j] * r[i];
    c /= sj * sj;
    for (let i = 0; i < n; i++) d[i] += c * V[i * n + j];
  }
}
