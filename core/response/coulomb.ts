/**
 * Coulomb's complementarity problem at sliding contacts (`frictionSolve`): the tangential impulses of
 * the contacts that broke the law become unknowns over the contact-space matrix A, solved with the
 * round cone by block descent on Tresca problems (`tresca`) then semismooth Newton; the slip and
 * relative velocity at a contact; the limits of `frictionLaw`.
 */
import { luFactor, luSolve, refineDenseRobust, refineSymmetricRobust, solveDenseRobust } from './linalg';
import { ContactState } from './types';
import { hypot2 } from '../math/libm';
import { growF, growI } from './flat';
import { ContactStates } from './contactstates';

/** `frictionLaw`: contact-state passes before sliding contacts lose their friction (a loop that does not settle). */
export const FRICTION_LAW_PASSES = 60;
/** `frictionLaw`: Newton steps on the sliding friction per set of contact states. */
const FRICTION_NEWTON_STEPS = 8;
/** `frictionLaw`: a slip counts as along −P when its component across P is below this fraction of it. */
/** `frictionLaw`: rounds of disc radii (Tresca problems) before the Newton polish. */
const FRICTION_TRESCA_ROUNDS = 3;
/** `frictionLaw`: turns of descent and Newton steps. */
const FRICTION_CYCLES = 8;
/** `frictionLaw`: block coordinate descent sweeps per Tresca problem. */
const FRICTION_SWEEPS = 20;
/** `frictionLaw`: from this round on, a free set that grows takes every frictional contact. */
export const FRICTION_GROW_ROUNDS = 3;
/** `frictionLaw`: W + δI with δ this fraction of W's largest diagonal entry. */
const FRICTION_REGULARIZATION = 0;
/** `frictionLawFirst`: rounds of making pushing sliding contacts perfectly rough. */
export const FRICTION_RESTICK_ROUNDS = 3;
/** `frictionLaw`: times a separated contact may come back. */
export const FRICTION_LAW_REJOINS = 2;

export abstract class CoulombProblem extends ContactStates {
  /**
   * Relative velocity of A with respect to B at contact c (world frame): after the last linear
   * solve into relV[0..2] (x must be formed), before the impact into relV[3..5].
   */
  private contactVelocity(c: number): void {
    const k = this.nj + c, P = this.contactPoint, R = this.relV;
    R.fill(0);
    for (let side = 0; side < 2; side++) {
      const b = side === 0 ? this.cA[k] : this.cB[k];
      if (b < 0) continue;
      const d = this.dyn[b], sg = side === 0 ? 1 : -1;
      const rx = P[3 * c] - this.com[3 * b], ry = P[3 * c + 1] - this.com[3 * b + 1], rz = P[3 * c + 2] - this.com[3 * b + 2];
      for (let post = 0; post < 2; post++) {
        const src = post === 0 && d >= 0 ? this.x : this.vel, so = post === 0 && d >= 0 ? this.nodeOff[d] : 6 * b, ro = 3 * post;
        const wx = src[so + 3], wy = src[so + 4], wz = src[so + 5];
        R[ro] += sg * (src[so] + wy * rz - wz * ry);
        R[ro + 1] += sg * (src[so + 1] + wz * rx - wx * rz);
        R[ro + 2] += sg * (src[so + 2] + wx * ry - wy * rx);
      }
    }
  }

  /**
   * slW[2c..2c+1] ← the tangential slip of contact c after the last solve minus its target
   * (−ε v⁻ on the tangents in 'paper' restitution, else 0), on t₁ and t₂; returns its length.
   */
  protected slip(c: number, epsT: number): number {
    this.contactVelocity(c);
    const R = this.relV, f = this.contactFrame, o = 9 * c, e = this.epsOn * this.contactEps[c] * epsT;
    const wx = R[0] + e * R[3], wy = R[1] + e * R[4], wz = R[2] + e * R[5];
    const w1 = wx * f[o + 3] + wy * f[o + 4] + wz * f[o + 5], w2 = wx * f[o + 6] + wy * f[o + 7] + wz * f[o + 8];
    this.slW[2 * c] = w1;
    this.slW[2 * c + 1] = w2;
    return hypot2(w1, w2);
  }

  /**
   * Coulomb friction for the current normal states (`frictionLaw`). One contact-space pass with
   * every frictional contact frictionless (symmetric; with the same normals, its factors come
   * from the pass cache) makes every normal impulse λ and tangential slip w an affine function
   * of the tangential impulses f (2 per frictional contact): λ = λ⁰ + N f, w = w⁰ + W f, with
   * W = A_tt − A_t,rows S⁺ A_rows,t (its factors solve for the tangent columns). Then the
   * semismooth Newton method (Alart–Curnier) on F(f) = f − proj_{disc γλ(f)}(f − ρ w(f)) = 0,
   * with backtracking on |F| and least-norm steps (redundant sticking contacts leave the
   * split of their friction free), from the last friction. The answer is set into the rows as
   * known impulses (the contacts as sticking rows, their multipliers λ, f) and the velocities
   * formed; slN gets λ, slSlide marks the sliding contacts (|f − ρw| beyond the disc).
   */
  protected frictionSolve(vScale: number, epsT: number, restModel: string): void {
    const nc = this.nc, nj = this.nj, F = this.slF;
    this.slSlide.fill(0, 0, nc);
    this.slList = growI(this.slList, nc);
    let m = 0;
    for (let c = 0; c < nc; c++) {
      if (!this.slFree[c]) continue;
      // (free contacts carry sticking rows once their friction is known)
      this.contactState[c] = ContactState.Stick;
      this.slList[m++] = c;
    }
    // the pass with the free contacts frictionless
    this.slideFree = true;
    try {
      this.buildRows(restModel);
      this.solveContactSpace(vScale);
    } finally {
      this.slideFree = false;
    }
    this.ensureX();
    const e = this.passEntry, s = this.csPassRows, sec = this.secRows, rj = this.csRowJ, rg = this.csRowG, rc = this.csRowC, mu = this.sMu, A = this.csA, cap = this.csCap;
    const row = this.slRow;
    row.fill(-1, 0, nc);
    for (let q = 0; q < s; q++) {
      const k = this.rowOwner[sec[q]];
      if (k >= nj && sec[q] === this.cRow0[k]) row[k - nj] = q;
    }
    if (m === 0 || e < 0) {
      // (no free contact: that pass is the answer)
      if (m > 0) throw new Error('frictionSolve: the pass cache holds no factors');
      this.keyMultipliers();
      return;
    }
    const pf = this.pfEntries[e], n2 = 2 * m;
    // Z = S⁺ A[rows, t columns]
    this.slAG = growF(this.slAG, n2 * s);
    this.slCol = growF(this.slCol, s);
    this.slDmu = growF(this.slDmu, s);
    const Z = this.slAG, col = this.slCol, z = this.slDmu;
    for (let j = 0; j < n2; j++) {
      const sl = this.csSlot(3 * this.slList[j >> 1] + 1 + (j & 1));
      for (let q = 0; q < s; q++) col[q] = A[rj[q] * cap + sl];
      if (pf.asym) refineDenseRobust(pf.S, s, col, z, pf.work, pf.piv, pf.rank, true, true);
      else refineSymmetricRobust(pf.S, s, col, z, pf.work, pf.piv, pf.rank, true, true);
      for (let q = 0; q < s; q++) Z[j * s + q] = z[q];
    }
    const nn = n2 * n2;
    this.slJac = growF(this.slJac, 3 * nn + m * n2 + 12 * n2 + 3 * nn + 4 * n2);
    const buf = this.slJac;
    let o = 0;
    const take = (k: number) => buf.subarray(o, (o += k));
    const W = take(nn), N = take(m * n2), J = take(nn), JS = take(3 * nn + 4 * n2);
    const w0 = take(n2), l0 = take(m), fv = take(n2), Fv = take(n2), ft = take(n2), Ft = take(n2), dx = take(n2), rho = take(m), wv = take(n2), lv = take(m);
    // (a sliding row's impulse is a combination G_q of basis rows: A[t_i, G_q])
    this.slAGi = growF(this.slAGi, s);
    const ag = this.slAGi;
    for (let i = 0; i < n2; i++) {
      const ai = this.csSlot(3 * this.slList[i >> 1] + 1 + (i & 1)) * cap;
      for (let q = 0; q < s; q++) {
        const g3 = 3 * q;
        let v = A[ai + rg[g3]];
        if (rg[g3 + 1] >= 0) v += rc[g3 + 1] * A[ai + rg[g3 + 1]] + rc[g3 + 2] * A[ai + rg[g3 + 2]];
        ag[q] = v;
      }
      for (let j = 0; j < n2; j++) {
        const sj = this.csSlot(3 * this.slList[j >> 1] + 1 + (j & 1));
        let v = A[ai + sj];
        for (let q = 0; q < s; q++) v -= ag[q] * Z[j * s + q];
        W[i * n2 + j] = v;
      }
    }
    // (W + δI, δ a 1e-11 of its largest diagonal entry: redundant sticking contacts leave W
    // singular and their split of the friction free; this picks the least-norm split and keeps the
    // Newton systems regular, at slips of 1e-11 of the friction's effect)
    let wmax = 0;
    for (let i = 0; i < n2; i++) wmax = Math.max(wmax, W[i * n2 + i]);
    for (let i = 0; i < n2; i++) W[i * n2 + i] += FRICTION_REGULARIZATION * wmax;
    let scale = 0;
    for (let i = 0; i < m; i++) {
      const c = this.slList[i], qc = row[c];
      this.slip(c, epsT);
      w0[2 * i] = this.slW[2 * c];
      w0[2 * i + 1] = this.slW[2 * c + 1];
      l0[i] = qc >= 0 ? mu[qc] : 0;
      for (let j = 0; j < n2; j++) N[i * n2 + j] = qc >= 0 ? -Z[j * s + qc] : 0;
      const dg = Math.max(W[2 * i * n2 + 2 * i], W[(2 * i + 1) * n2 + 2 * i + 1]);
      rho[i] = dg > 0 ? 1 / dg : 0;
      fv[2 * i] = 0;
      fv[2 * i + 1] = 0;
      scale = Math.max(scale, this.contactGamma[c] * Math.abs(l0[i]));
    }
    // F(f) = f − proj_{disc γλ}(f − ρ w); returns |F|
    const gammaOf = (i: number) => (this.frictionOff ? 0 : this.contactGamma[this.slList[i]]);
    const evalF = (x: Float64Array, out: Float64Array): number => {
      let mx = 0;
      for (let i = 0; i < m; i++) {
        let ln = l0[i], w1 = w0[2 * i], w2 = w0[2 * i + 1];
        for (let j = 0; j < n2; j++) {
          const xj = x[j];
          if (xj === 0) continue;
          ln += N[i * n2 + j] * xj;
          w1 += W[2 * i * n2 + j] * xj;
          w2 += W[(2 * i + 1) * n2 + j] * xj;
        }
        lv[i] = ln;
        wv[2 * i] = w1;
        wv[2 * i + 1] = w2;
        const r = gammaOf(i) * Math.max(ln, 0);
        const y1 = x[2 * i] - rho[i] * w1, y2 = x[2 * i + 1] - rho[i] * w2, yl = hypot2(y1, y2);
        const k = yl > r ? r / yl : 1;
        out[2 * i] = x[2 * i] - k * y1;
        out[2 * i + 1] = x[2 * i + 1] - k * y2;
        mx += out[2 * i] * out[2 * i] + out[2 * i + 1] * out[2 * i + 1];
      }
      return Math.sqrt(mx);
    };
    // Tresca rounds: the disc radii γλ from the current friction, then the convex problem
    // min ½ fᵀW f + w⁰ᵀf over those discs by exact block (contact) coordinate descent
    // block coordinate descent (Tresca rounds) and Newton steps in turn: the descent always makes
    // progress, the Newton method ends it fast once near
    this.tresca(m, n2, W, N, w0, l0, fv, wv, lv, scale, FRICTION_TRESCA_ROUNDS, FRICTION_SWEEPS);
    let res = evalF(fv, Fv);
    const goal = 1e-13 * (scale + 1e-300);
    for (let cycle = 0; cycle < FRICTION_CYCLES && res > goal; cycle++) {
      if (cycle > 0) {
        this.tresca(m, n2, W, N, w0, l0, fv, wv, lv, scale, 4, FRICTION_SWEEPS);
        res = evalF(fv, Fv);
      }
      for (let it = 0; it < FRICTION_NEWTON_STEPS && res > goal; it++) {
        this.frictionLawStats.newtonSteps++;
        // generalized Jacobian (lv, wv at fv from the last evalF of fv)
        for (let i = 0; i < m; i++) {
          const g = gammaOf(i), ln = lv[i], r = g * Math.max(ln, 0);
          const y1 = fv[2 * i] - rho[i] * wv[2 * i], y2 = fv[2 * i + 1] - rho[i] * wv[2 * i + 1], yl = hypot2(y1, y2);
          const r0 = 2 * i * n2, r1 = (2 * i + 1) * n2;
          if (yl <= r) {
            // sticking: F_i = ρ w_i
            for (let j = 0; j < n2; j++) {
              J[r0 + j] = rho[i] * W[r0 + j];
              J[r1 + j] = rho[i] * W[r1 + j];
            }
          } else {
            // sliding: F_i = f_i − r ŷ; ∂(r ŷ) = ŷ γ ∂λ + (r/|y|)(I − ŷŷᵀ)(E_i − ρ W_i)
            const u1 = y1 / yl, u2 = y2 / yl, h = r / yl, gl = ln > 0 ? g : 0;
            for (let j = 0; j < n2; j++) {
              const d1 = (j === 2 * i ? 1 : 0) - rho[i] * W[r0 + j], d2 = (j === 2 * i + 1 ? 1 : 0) - rho[i] * W[r1 + j];
              const pr = u1 * d1 + u2 * d2, dl = gl * N[i * n2 + j];
              J[r0 + j] = (j === 2 * i ? 1 : 0) - (u1 * dl + h * (d1 - u1 * pr));
              J[r1 + j] = (j === 2 * i + 1 ? 1 : 0) - (u2 * dl + h * (d2 - u2 * pr));
            }
          }
        }
        for (let j = 0; j < n2; j++) Ft[j] = -Fv[j];
        this.slPiv = growI(this.slPiv, 2 * n2);
        // (partial pivoting; a singular J — redundant sticking contacts leave their split free — least-norm)
        JS.set(J.subarray(0, nn));
        if (luFactor(JS, n2, this.slPiv, 1e-13) === 0) {
          dx.set(Ft);
          luSolve(JS, n2, this.slPiv, dx);
        } else solveDenseRobust(J, n2, Ft, dx, JS, this.slPiv, true, true);
        // backtracking on |F|
        let t = 1, next = Infinity;
        for (let k = 0; k < 30; k++, t *= 0.5) {
          for (let j = 0; j < n2; j++) ft[j] = fv[j] + t * dx[j];
          next = evalF(ft, Ft);
          if (next < res * (1 - 1e-4 * t)) break;
        }
        if (!(next < res)) {
          evalF(fv, Fv);
          break;
        }
        fv.set(ft);
        Fv.set(Ft);
        // (a step that did not at least halve the residual: back to the descent)
        const slow = next > 0.5 * res;
        res = next;
        if (slow) break;
      }
    }
    const stalled = res > 1e3 * goal;
    if (stalled) {
      // (the Newton method stopped short: the free contacts go without friction, which does no work)
      this.frictionLawStats.stalled++;
      fv.fill(0, 0, n2);
    }
    // (inside the discs of the final normal impulses, also where the Newton method stopped short:
    // a friction scaled down changes the normals a little, so a few times)
    for (let round = 0; round < 8; round++) {
      let out = false;
      for (let i = 0; i < m; i++) {
        let ln = l0[i];
        for (let j = 0; j < n2; j++) ln += N[i * n2 + j] * fv[j];
        lv[i] = ln;
        const r = gammaOf(i) * Math.max(ln, 0), l = hypot2(fv[2 * i], fv[2 * i + 1]);
        if (l > r * (1 + 1e-12)) {
          const k = (r * (1 - 1e-12)) / l;
          fv[2 * i] *= k;
          fv[2 * i + 1] *= k;
          out = true;
        }
      }
      if (!out) break;
    }
    // the answer as known impulses: every frictional contact sticking (rows n, t₁, t₂)
    for (let i = 0; i < m; i++) {
      const c = this.slList[i];
      F[2 * c] = fv[2 * i];
      F[2 * c + 1] = fv[2 * i + 1];
      // (sliding: on its cone; a converged sticking one has no slip; 2: without friction)
      const r = gammaOf(i) * Math.max(lv[i], 0);
      this.slSlide[c] = stalled || !(gammaOf(i) > 0) ? 2 : r > 0 && hypot2(fv[2 * i], fv[2 * i + 1]) >= r * (1 - 1e-9) ? 1 : 0;
    }
    for (let q = 0; q < s; q++) {
      let v = mu[q];
      for (let j = 0; j < n2; j++) v -= Z[j * s + q] * fv[j];
      mu[q] = v;
    }
    this.keyMultipliers();
    this.buildRows(restModel);
    this.knownImpulses();
  }

  /**
   * Staggered friction (`frictionSolve`): up to FRICTION_TRESCA_ROUNDS rounds of radii
   * r_i = γ_i max(λ_i(f), 0), then block coordinate descent on the convex problem
   * min ½ fᵀ W f + w⁰ᵀ f, |f_i| ≤ r_i, each contact's 2-D block solved exactly (its unconstrained
   * minimum, or on the circle: (W_ii + κ I) f_i = −g with |f_i| = r_i, Newton on κ), until the
   * friction moves less than 1e-12 of the largest radius. The start for the Newton polish.
   */
  private tresca(m: number, n2: number, W: Float64Array, N: Float64Array, w0: Float64Array, l0: Float64Array, fv: Float64Array, wv: Float64Array, lv: Float64Array, scale: number, rounds: number, sweeps: number): void {
    const tiny = 1e-300;
    for (let round = 0; round < rounds; round++) {
      // radii and slips from the current friction
      let dr = 0;
      for (let i = 0; i < m; i++) {
        let ln = l0[i];
        for (let j = 0; j < n2; j++) ln += N[i * n2 + j] * fv[j];
        if (round > 0) dr = Math.max(dr, Math.abs(ln - lv[i]));
        lv[i] = ln;
      }
      if (round > 0 && dr * 10 <= 1e-12 * scale) break;
      for (let i = 0; i < n2; i++) {
        let v = w0[i];
        for (let j = 0; j < n2; j++) v += W[i * n2 + j] * fv[j];
        wv[i] = v;
      }
      for (let sweep = 0; sweep < sweeps; sweep++) {
        let moved = 0;
        for (let i = 0; i < m; i++) {
          const c = this.slList[i], r = (this.frictionOff ? 0 : this.contactGamma[c]) * Math.max(lv[i], 0);
          const i0 = 2 * i, i1 = i0 + 1;
          const a = W[i0 * n2 + i0], b = W[i0 * n2 + i1], d = W[i1 * n2 + i1];
          const f1 = fv[i0], f2 = fv[i1];
          // slip without this contact's own friction
          const g1 = wv[i0] - a * f1 - b * f2, g2 = wv[i1] - b * f1 - d * f2;
          let n1 = 0, n2v = 0;
          const det = a * d - b * b;
          if (det > 1e-14 * (a * d + tiny)) {
            n1 = -(d * g1 - b * g2) / det;
            n2v = -(a * g2 - b * g1) / det;
          }
          if (!(det > 1e-14 * (a * d + tiny)) || hypot2(n1, n2v) > r) {
            if (!(r > 0)) {
              n1 = n2v = 0;
            } else {
              // eigen-decomposition of the 2×2 block, then |f(κ)| = r for κ ≥ 0
              const tr = 0.5 * (a + d), df = hypot2(0.5 * (a - d), b);
              const e1 = tr + df, e2 = Math.max(tr - df, 0);
              let q1x = 1, q1y = 0;
              if (df > 0) {
                // eigenvector of e1
                if (Math.abs(b) > 0) {
                  q1x = b;
                  q1y = e1 - a;
                } else if (a < d) {
                  q1x = 0;
                  q1y = 1;
                }
                const l = hypot2(q1x, q1y);
                q1x /= l;
                q1y /= l;
              }
              const h1 = q1x * g1 + q1y * g2, h2 = -q1y * g1 + q1x * g2, hl = hypot2(h1, h2);
              // |f(κ)| − r, f(κ) = −(W_ii + κ I)⁻¹ g, decreases in κ; its root lies in
              // [|g|/r − e₁, |g|/r − e₂]; Newton from the left end (above the root) rises to it
              let k = Math.max(hl / r - e1, 1e-12 * (e1 + hl / r));
              for (let it = 0; it < 60; it++) {
                const u1 = e1 + k, u2 = e2 + k;
                const p = (h1 * h1) / (u1 * u1) + (h2 * h2) / (u2 * u2);
                const dp = (-2 * h1 * h1) / (u1 * u1 * u1) - (2 * h2 * h2) / (u2 * u2 * u2);
                const phi = Math.sqrt(p) - r;
                // Newton on √p − r (close to linear in 1/κ)
                const step = phi / (dp / (2 * Math.sqrt(p)));
                const kn = k - step;
                if (!(kn > k)) break;
                k = kn;
                if (Math.abs(phi) <= 1e-15 * r) break;
              }
              const c1 = hl > 0 ? -h1 / (e1 + k) : 0, c2 = hl > 0 ? -h2 / (e2 + k) : 0;
              n1 = q1x * c1 - q1y * c2;
              n2v = q1y * c1 + q1x * c2;
              const l = hypot2(n1, n2v);
              if (l > r) {
                n1 *= r / l;
                n2v *= r / l;
              }
            }
          }
          const d1 = n1 - f1, d2 = n2v - f2;
          if (d1 === 0 && d2 === 0) continue;
          moved = Math.max(moved, Math.abs(d1), Math.abs(d2));
          fv[i0] = n1;
          fv[i1] = n2v;
          for (let j = 0; j < n2; j++) wv[j] += W[j * n2 + i0] * d1 + W[j * n2 + i1] * d2;
        }
        if (moved <= 1e-12 * scale) break;
      }
    }
  }

  /** slKey[key] ← the multiplier of the last pass's row with basis key `key` (3c + direction, or 3nc + joint row); slN from it. */
  private keyMultipliers(): void {
    const nc = this.nc, nj = this.nj, s = this.csPassRows, sec = this.secRows, mu = this.sMu;
    let jointRows = 0;
    for (let j = 0; j < nj; j++) jointRows += this.cRows[j];
    this.slKey = growF(this.slKey, 3 * nc + jointRows + 1);
    this.slKey.fill(0, 0, 3 * nc + jointRows + 1);
    for (let q = 0; q < s; q++) {
      const r = sec[q], k = this.rowOwner[r];
      if (k < nj) this.slKey[3 * nc + r] = mu[q];
      else this.slKey[3 * (k - nj) + r - this.cRow0[k]] = mu[q];
    }
    for (let c = 0; c < nc; c++) this.slN[c] = this.slKey[3 * c];
  }

  /**
   * After `frictionSolve`: the contact-space pass of the rows built for the current states,
   * with the multipliers known (sMu over the frictionless pass's rows, slF on the tangents):
   * secondary rows, their slots and multipliers, rowLambda, then the velocities (`ensureX`).
   */
  private knownImpulses(): void {
    const nRows = this.nRows, nj = this.nj, nc = this.nc, F = this.slF, K = this.slKey;
    this.secRows = growI(this.secRows, nRows + 1);
    this.csRowJ = growI(this.csRowJ, nRows + 1);
    this.csRowG = growI(this.csRowG, 3 * nRows + 3);
    this.csRowC = growF(this.csRowC, 3 * nRows + 3);
    this.sMu = growF(this.sMu, nRows + 1);
    const sec = this.secRows, rj = this.csRowJ, rg = this.csRowG, rc = this.csRowC;
    let s = 0;
    for (let r = 0; r < nRows; r++) {
      const k = this.rowOwner[r];
      if (k < nj && this.cPrimary[k]) continue;
      if (this.rowDA[r] < 0 && this.rowDB[r] < 0) {
        this.rowLambda[r] = 0;
        continue;
      }
      let v: number;
      if (k < nj) {
        rj[s] = rg[3 * s] = this.csSlot(3 * nc + r);
        v = K[3 * nc + r];
        rg[3 * s + 1] = rg[3 * s + 2] = -1;
      } else {
        const c = k - nj, comp = r - this.cRow0[k];
        rj[s] = rg[3 * s] = this.csSlot(3 * c + comp);
        rg[3 * s + 1] = rg[3 * s + 2] = -1;
        v = comp > 0 && this.slFree[c] ? F[2 * c + comp - 1] : K[3 * c + comp];
        if (this.contactState[c] === ContactState.Slide) {
          // (a sliding row: its impulse n + γ P on the basis rows)
          const f = this.contactFrame, o = 9 * c, S = this.contactSlide, g = this.contactGamma[c];
          rg[3 * s + 1] = this.csSlot(3 * c + 1);
          rc[3 * s + 1] = g * (S[3 * c] * f[o + 3] + S[3 * c + 1] * f[o + 4] + S[3 * c + 2] * f[o + 5]);
          rg[3 * s + 2] = this.csSlot(3 * c + 2);
          rc[3 * s + 2] = g * (S[3 * c] * f[o + 6] + S[3 * c + 1] * f[o + 7] + S[3 * c + 2] * f[o + 8]);
        }
      }
      rc[3 * s] = 1;
      this.sMu[s] = v;
      this.rowLambda[r] = v;
      sec[s++] = r;
    }
    this.csPassRows = s;
    this.xStale = true;
    this.ensureX();
  }
}
