import { describe, expect, it } from 'vitest';
import { applyDenseNull, applyDenseRobust, applySymmetricRobust, factorDenseRobust, factorSymmetricRobust, invertDefinite, jacobiSvd, luCompletePivot, luRookPivot, pivotedCholesky, refineDenseRobust, refineSymmetricRobust, solveDenseRobust, solveSymmetricRobust, symmetricEigen } from './linalg';
import { seededRandom } from './fixtures';

// The small dense kernels of the contact solve against slow, obvious
// references on seeded random matrices: the minimum-norm least-squares
// solution from a Jacobi SVD, and the defining identities of each
// factorisation. Rank-deficient inputs are the point (redundant contacts).

/** n×n row-major matrix of rank r: B·Cᵀ with random n×r factors (symmetric B·Bᵀ when `sym`). */
function lowRank(rand: () => number, n: number, r: number, sym: boolean): Float64Array {
  const B = new Float64Array(n * r), C = new Float64Array(n * r);
  for (let i = 0; i < n * r; i++) {
    B[i] = 2 * rand() - 1;
    C[i] = sym ? B[i] : 2 * rand() - 1;
  }
  const S = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < r; k++) s += B[i * r + k] * C[j * r + k];
      S[i * n + j] = s;
    }
  return S;
}

/** b ← S·b (a right-hand side in the range of S: a consistent system). */
function consistent(S: Float64Array, n: number, b: Float64Array): void {
  const y = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += S[i * n + j] * y[j];
    b[i] = s;
  }
}

/** pinv(S)·b from a one-sided Jacobi SVD (the slow reference). */
function pinvSolve(S: Float64Array, n: number, b: Float64Array): Float64Array {
  const A = Float64Array.from(S), V = new Float64Array(n * n), sig = new Float64Array(n);
  jacobiSvd(A, V, sig, n);
  const smax = Math.max(...sig);
  const x = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    if (!(sig[j] > 1e-10 * smax)) continue;
    let c = 0;
    for (let i = 0; i < n; i++) c += A[i * n + j] * b[i];
    c /= sig[j] * sig[j];
    for (let i = 0; i < n; i++) x[i] += c * V[i * n + j];
  }
  return x;
}

// (seeds 41–60: rank n − 1 … n − 3, the deficiencies of redundant contacts; `nullSpace`: the
// least-norm solution through bases of the null spaces instead of the Gram matrices)
describe('solveDenseRobust: minimum-norm least squares, as the SVD pseudo-inverse gives it', () => {
  for (let seed = 1; seed <= 60; seed++)
    for (const early of [false, true])
    for (const nullSpace of [false, true])
    it(`seed ${seed}${early ? ', refinement ended at round-off (early)' : ''}${nullSpace ? ', null-space form' : ''}`, () => {
      const rand = seededRandom(seed);
      const n = 1 + Math.floor(rand() * 30);
      const r = seed > 40 ? Math.max(0, n - 1 - (seed % 3)) : seed % 4 === 0 ? n : Math.floor(rand() * (n + 1));
      const sym = seed % 2 === 0;
      const S = lowRank(rand, n, r, sym);
      const b = new Float64Array(n);
      for (let i = 0; i < n; i++) b[i] = 2 * rand() - 1; // generally inconsistent when r < n
      if (seed % 5 === 1) consistent(S, n, b);
      const x = new Float64Array(n);
      solveDenseRobust(S, n, b, x, new Float64Array(3 * n * n + 4 * n), new Int32Array(2 * n), early, nullSpace);
      const ref = pinvSolve(S, n, b);
      let scale = 1e-300, diff = 0;
      for (let i = 0; i < n; i++) {
        scale = Math.max(scale, Math.abs(ref[i]));
        diff = Math.max(diff, Math.abs(x[i] - ref[i]));
      }
      expect(diff / scale, `n = ${n}, rank ${r}: |x − pinv(S) b| / |pinv(S) b|`).toBeLessThan(1e-7);
    });
});

describe('solveSymmetricRobust: minimum-norm least squares for symmetric positive semi-definite S, as the SVD pseudo-inverse gives it', () => {
  for (let seed = 1; seed <= 60; seed++)
    for (const early of [false, true])
    for (const nullSpace of [false, true])
    it(`seed ${seed}${early ? ', refinement ended at round-off (early)' : ''}${nullSpace ? ', null-space form' : ''}`, () => {
      const rand = seededRandom(50 + seed);
      const n = 1 + Math.floor(rand() * 30);
      const r = seed > 40 ? Math.max(0, n - 1 - (seed % 3)) : seed % 4 === 0 ? n : Math.floor(rand() * (n + 1));
      const S = lowRank(rand, n, r, true);
      if (seed % 3 === 0) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if ((i + 2 * j) % 5 === 0 && i !== j) S[i * n + j] = S[j * n + i] = 0; // sparser, then made PSD again
      if (seed % 3 === 0) for (let i = 0; i < n; i++) S[i * n + i] += n; // diagonally dominant: PSD
      const b = new Float64Array(n);
      for (let i = 0; i < n; i++) b[i] = 2 * rand() - 1;
      if (seed % 5 === 1) consistent(S, n, b);
      const x = new Float64Array(n);
      solveSymmetricRobust(S, n, b, x, new Float64Array(2 * n * n + 4 * n), new Int32Array(n), early, nullSpace);
      const ref = pinvSolve(S, n, b);
      let scale = 1e-300, diff = 0;
      for (let i = 0; i < n; i++) {
        scale = Math.max(scale, Math.abs(ref[i]));
        diff = Math.max(diff, Math.abs(x[i] - ref[i]));
      }
      expect(diff / scale, `n = ${n}, rank ${r}: |x − pinv(S) b| / |pinv(S) b|`).toBeLessThan(1e-7);
    });
});

describe('pivotedCholesky and symmetricEigen', () => {
  for (let seed = 1; seed <= 20; seed++)
    it(`seed ${seed}: Z = C Cᵀ at the numerical rank; A V = V diag(w) with V orthonormal`, () => {
      const rand = seededRandom(200 + seed);
      const n = 1 + Math.floor(rand() * 24), r = Math.floor(rand() * (n + 1));
      const Z = lowRank(rand, n, r, true);
      const C = new Float64Array(n * n);
      const k = pivotedCholesky(Z, n, C, 0, n, new Float64Array(n), new Uint8Array(n));
      expect(k, 'rank').toBe(r);
      let zmax = 1e-300, err = 0;
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          let v = 0;
          for (let m = 0; m < k; m++) v += C[i * n + m] * C[j * n + m];
          zmax = Math.max(zmax, Math.abs(Z[i * n + j]));
          err = Math.max(err, Math.abs(v - Z[i * n + j]));
        }
      expect(err / zmax, 'max |Z − C Cᵀ| / max |Z|').toBeLessThan(1e-10);
      const m = Math.min(n, 8);
      const A = new Float64Array(m * m);
      for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) A[i * m + j] = Z[i * n + j] + (i === j ? rand() : 0);
      const A0 = Float64Array.from(A), V = new Float64Array(m * m), w = new Float64Array(m);
      symmetricEigen(A, m, V, w);
      for (let c = 0; c < m; c++)
        for (let i = 0; i < m; i++) {
          let av = 0;
          for (let j = 0; j < m; j++) av += A0[i * m + j] * V[j * m + c];
          expect(Math.abs(av - w[c] * V[i * m + c]), `(A v − w v)[${i}] of eigenpair ${c}`).toBeLessThan(1e-12 * (1 + Math.abs(w[c])) * 10);
        }
      for (let p = 0; p < m; p++)
        for (let q = 0; q < m; q++) {
          let d = 0;
          for (let i = 0; i < m; i++) d += V[i * m + p] * V[i * m + q];
          expect(Math.abs(d - (p === q ? 1 : 0))).toBeLessThan(1e-12);
        }
    });
});

describe('invertDefinite: (s·A)⁻¹·s of a definite block inside a strided buffer', () => {
  for (let seed = 1; seed <= 30; seed++)
    it(`seed ${seed}: A·X = I, the rest of the buffer untouched`, () => {
      const rand = seededRandom(400 + seed);
      const n = 1 + (seed % 6), stride = 6, ao = 3, oo = 5, sign = seed % 2 ? 1 : -1;
      const R = lowRank(rand, n, n, true); // B·Bᵀ: symmetric positive definite (almost surely)
      for (let i = 0; i < n; i++) R[i * n + i] += 0.1;
      const a = new Float64Array(ao + stride * n).fill(7), out = new Float64Array(oo + stride * n).fill(9);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) a[ao + i * stride + j] = sign * R[i * n + j];
      expect(invertDefinite(a, ao, stride, n, sign, out, oo, new Float64Array(36)), 'definite').toBe(true);
      let err = 0;
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let k = 0; k < n; k++) s += a[ao + i * stride + k] * out[oo + k * stride + j];
          err = Math.max(err, Math.abs(s - (i === j ? 1 : 0)));
        }
      expect(err, `n = ${n}, sign ${sign}: max |A·X − I|`).toBeLessThan(1e-9);
      for (let i = 0; i < oo; i++) expect(out[i], 'before the block').toBe(9);
      for (let i = 0; i < n; i++) for (let j = n; j < stride && oo + i * stride + j < out.length; j++) expect(out[oo + i * stride + j], 'beside the block').toBe(9);
    });
  it('refuses an indefinite block', () => {
    const a = Float64Array.from([1, 2, 2, 1]);
    expect(invertDefinite(a, 0, 2, 2, 1, new Float64Array(4), 0, new Float64Array(4)), 'eigenvalues 3 and −1').toBe(false);
  });
});

// (luRookPivot: the same factorization with rook pivots, each largest in its row and column)
for (const [name, lu] of [['luCompletePivot', luCompletePivot], ['luRookPivot', luRookPivot]] as const)
describe(`${name}: P·A·Q = L·U at the numerical rank`, () => {
  for (let seed = 1; seed <= 30; seed++)
    it(`seed ${seed}`, () => {
      const rand = seededRandom(500 + seed);
      const n = 1 + Math.floor(rand() * 12), r = seed % 3 === 0 ? n : Math.floor(rand() * (n + 1));
      const A = lowRank(rand, n, r, false), LU = Float64Array.from(A);
      const p = new Int32Array(n), q = new Int32Array(n);
      const rank = lu(LU, n, p, q, 1e-11);
      expect(rank, `n = ${n}: the rank of a product of n×${r} factors`).toBe(r);
      // rows 0..rank−1 of P A Q are L U; the trailing block below is at round-off
      let err = 0, big = 0;
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          let s = 0;
          for (let k = 0; k < Math.min(i, j, rank - 1) + 1 && k < rank; k++) s += (k === i ? 1 : LU[i * n + k]) * (k <= j ? LU[k * n + j] : 0);
          big = Math.max(big, Math.abs(A[i * n + j]));
          err = Math.max(err, Math.abs(s - A[p[i] * n + q[j]]));
        }
      expect(err / Math.max(big, 1e-300), `n = ${n}, rank ${r}: max |P A Q − L U| / max |A|`).toBeLessThan(1e-9);
    });
  it('a NaN entry gives rank 0 (as the tolerance from max |A| does)', () => {
    const a = Float64Array.from([1, 2, NaN, 4]);
    expect(lu(a, 2, new Int32Array(2), new Int32Array(2), 1e-11)).toBe(0);
  });
});

// The refinement's first residual is b itself (x starts at 0) and a refinement that stops
// returns the residual it has just found: against the plain loop, which forms both with S,
// bit for bit (right-hand sides with zeros of either sign, S with negative entries, full
// rank and rank-deficient, consistent or not).
describe('refineDenseRobust / refineSymmetricRobust: bit for bit the plain refinement loop', () => {
  function plainRefine(S: Float64Array, n: number, b: Float64Array, x: Float64Array, apply: (r: Float64Array, d: Float64Array) => void, rank: number, early: boolean): number {
    const r = new Float64Array(n), d = new Float64Array(n);
    const residual = (out: Float64Array | null) => {
      let rn = 0;
      for (let i = 0; i < n; i++) {
        let s = b[i];
        for (let j = 0; j < n; j++) s -= S[i * n + j] * x[j];
        if (out) out[i] = s;
        rn = Math.max(rn, Math.abs(s));
      }
      return rn;
    };
    x.fill(0, 0, n);
    let res = Infinity, b0 = 0;
    for (let it = 0; it < 4; it++) {
      const rn = residual(r);
      if (it === 0) b0 = rn;
      else if (early && rn <= 1e-15 * b0) return rn;
      if (rn >= res * 0.5 && it > 1) break;
      res = rn;
      if (rn === 0 || rank === 0) break;
      apply(r, d);
      for (let i = 0; i < n; i++) x[i] += d[i];
    }
    return residual(null);
  }
  for (let seed = 1; seed <= 40; seed++)
    for (const sym of [false, true])
      for (const nullSpace of [false, true])
        it(`seed ${seed}${sym ? ', symmetric' : ''}${nullSpace ? ', null-space form' : ''}`, () => {
          const rand = seededRandom(9100 + seed);
          const n = 1 + Math.floor(rand() * 14), r = seed % 3 === 0 ? Math.max(1, n - 1 - Math.floor(rand() * 3)) : n;
          const S = lowRank(rand, n, r, sym);
          const b = new Float64Array(n);
          for (let i = 0; i < n; i++) b[i] = 2 * rand() - 1;
          if (seed % 2 === 0) consistent(S, n, b);
          for (let i = 0; i < n; i++) if (rand() < 0.25) b[i] = rand() < 0.5 ? -0 : 0;
          const work = new Float64Array(3 * n * n + 4 * n), piv = new Int32Array(2 * n);
          const rank = sym ? factorSymmetricRobust(S, n, work, piv, nullSpace) : factorDenseRobust(S, n, work, piv, nullSpace);
          const apply = (res: Float64Array, out: Float64Array) => (sym ? applySymmetricRobust(n, rank, work, piv, res, out, nullSpace) : nullSpace ? applyDenseNull(n, rank, work, piv, res, out) : applyDenseRobust(n, rank, work, piv, res, out));
          for (const early of [false, true]) {
            const x = new Float64Array(n), xr = new Float64Array(n);
            const got = sym ? refineSymmetricRobust(S, n, b, x, work, piv, rank, early, nullSpace) : refineDenseRobust(S, n, b, x, work, piv, rank, early, nullSpace);
            const want = plainRefine(S, n, b, xr, apply, rank, early);
            expect(Object.is(got, want), `residual ${got} (plain loop: ${want})`).toBe(true);
            for (let i = 0; i < n; i++) expect(Object.is(x[i], xr[i]), `x[${i}] = ${x[i]} (plain loop: ${xr[i]})`).toBe(true);
          }
        });

  it('a NaN or infinite entry gives rank 0 in factorSymmetricRobust (as in luRookPivot)', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const S = Float64Array.from([4, 1, 0, 1, 3, bad, 0, bad, 2]);
      expect(factorSymmetricRobust(S, 3, new Float64Array(3 * 9 + 12), new Int32Array(6)), `rank with an entry ${bad}`).toBe(0);
    }
  });
});

// luRookPivot updates two rows per sweep over the pivot row; every entry gets the one update
// it gets row by row: against the plain row-by-row elimination (same rook pivots), bit for bit,
// on full-rank and rank-deficient matrices with zeros in the pivot columns (rows left as they are).
describe('luRookPivot: bit for bit the row-by-row elimination', () => {
  function plainRook(a: Float64Array, n: number, p: Int32Array, q: Int32Array, relTol: number): number {
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
    const swap = (k: number, bi: number, bj: number) => {
      for (let j = 0; j < n; j++) [a[k * n + j], a[bi * n + j]] = [a[bi * n + j], a[k * n + j]];
      [p[k], p[bi]] = [p[bi], p[k]];
      for (let i = 0; i < n; i++) [a[i * n + k], a[i * n + bj]] = [a[i * n + bj], a[i * n + k]];
      [q[k], q[bj]] = [q[bj], q[k]];
    };
    for (let k = 0; k < n; k++) {
      let bj = k, bi = k, best = -1;
      for (let i = k; i < n; i++) if (Math.abs(a[i * n + k]) > best) [best, bi] = [Math.abs(a[i * n + k]), i];
      for (let it = 0; it < n; it++) {
        let rb = best, rj = bj;
        for (let j = k; j < n; j++) if (Math.abs(a[bi * n + j]) > rb) [rb, rj] = [Math.abs(a[bi * n + j]), j];
        if (rj === bj) break;
        [bj, best] = [rj, rb];
        let cb = best, ci = bi;
        for (let i = k; i < n; i++) if (Math.abs(a[i * n + bj]) > cb) [cb, ci] = [Math.abs(a[i * n + bj]), i];
        if (ci === bi) break;
        [bi, best] = [ci, cb];
      }
      if (!(best > tol)) {
        for (let i = k; i < n; i++) for (let j = k; j < n; j++) if (Math.abs(a[i * n + j]) > best) [best, bi, bj] = [Math.abs(a[i * n + j]), i, j];
        if (!(best > tol) || best === 0) return k;
      }
      swap(k, bi, bj);
      const inv = 1 / a[k * n + k];
      for (let i = k + 1; i < n; i++) {
        const f = a[i * n + k] * inv;
        a[i * n + k] = f;
        if (f === 0) continue;
        for (let j = k + 1; j < n; j++) a[i * n + j] -= f * a[k * n + j];
      }
    }
    return n;
  }
  for (let seed = 1; seed <= 60; seed++)
    it(`seed ${seed}`, () => {
      const rand = seededRandom(9300 + seed);
      const n = 1 + Math.floor(rand() * 20), r = seed % 3 === 0 ? Math.floor(rand() * (n + 1)) : n;
      const A = lowRank(rand, n, r, seed % 4 === 0);
      // zeros in some columns (a pivot column's zero rows skip their update; both halves of a pair)
      if (seed % 2 === 0) for (let i = 0; i < n; i++) if (rand() < 0.4) A[i * n + Math.floor(rand() * n)] = 0;
      const a = Float64Array.from(A), b = Float64Array.from(A);
      const p = new Int32Array(n), q = new Int32Array(n), pb = new Int32Array(n), qb = new Int32Array(n);
      const rank = luRookPivot(a, n, p, q, 1e-11), want = plainRook(b, n, pb, qb, 1e-11);
      expect(rank, `n = ${n}: rank`).toBe(want);
      for (let i = 0; i < n * n; i++) expect(Object.is(a[i], b[i]), `entry ${i}: ${a[i]} (row by row: ${b[i]})`).toBe(true);
      for (let i = 0; i < n; i++) expect(p[i] === pb[i] && q[i] === qb[i], `permutations at ${i}`).toBe(true);
    });
});
