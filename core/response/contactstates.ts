/**
 * The contact-state loop (stick → slide → frictionless → separated, and back), one linear solve per
 * pass: sparse (tree, contact groups, Schur complement or contact space), one body's own pass
 * (`solveOneBody`: one dynamic body, no joints) or the dense reference of the paper's whole system
 * (layer `ContactStates` of `ImpulseSolver`).
 *
 * Unilateral contacts: pulling frictionless contacts leave all at once and a
 * separated contact that would approach comes back (complementarity), with a
 * cap against cycling.
 */
import { luFactor, luSolve, solveDenseRobust, solveSymmetricRobust } from './linalg';
import { ContactState } from './types';
import { hypot2 } from '../math/libm';
import { growF, growI } from './flat';
import { OneBodyPass } from './onebody';

export abstract class ContactStates extends OneBodyPass {
  /**
   * The contact-state loop: solve, switch states (stick → slide →
   * frictionless → separated, separated contacts that approach come back),
   * solve again, until nothing changes. Contact states on entry are the
   * starting guess. Returns the number of linear solves.
   */
  protected runContactStates(unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string): number {
    const nj = this.nj, nc = this.nc;
    this.conBody.fill(0, 0, this.nd);
    this.grpDirty.fill(1, 0, this.nd);
    if (dense) {
      this.buildForest();
      this.treeReady = false;
    }
    this.rejoins = growI(this.rejoins, nc);
    this.rejoins.fill(0, 0, nc);
    this.jointRowsReady = false;
    let iterations = 0, noEliminate = this.skipElimination;
    // (one dynamic body and no joints: its own pass, `solveOneBody`; with 'eliminate' the group's
    // body would be eliminated, which that pass does not do)
    const oneBody = !dense && this.nd === 1 && nj === 0 && groupMode !== 'eliminate' && this.oneBodyPass;
    // (the Schur cache stays valid while the tree factorization of this solve stands: its rows
    // are matched by their data; the base solve x0 depends on the velocities, which phases change)
    if (!this.treeReady) this.pcValid = false;
    this.x0Valid = false;
    for (;;) {
      iterations++;
      this.linearSolves++;
      this.buildRows(restModel);
      if (dense) this.solveDense();
      else if (oneBody) {
        if (iterations === 1) this.prepareOneBody();
        this.solveOneBody();
      } else {
        const refactor = this.prepareGroups(noEliminate ? 'schur' : groupMode) || iterations === 1;
        let anyCon = false;
        for (let d = 0; d < this.nd && !anyCon; d++) if (this.conBody[d]) anyCon = true;
        if (refactor && !(this.treeReady && !anyCon)) {
          // the set of eliminated bodies changed: their joints leave (or rejoin) the tree
          // (a factorization without eliminated bodies is kept across the phases of one solve)
          this.buildForest();
          this.factor();
          this.treeReady = !anyCon;
        }
        // eliminated bodies' blocks follow their groups, which change with the contact states
        let anyEliminated = false;
        for (let d = 0; d < this.nd; d++)
          if (this.conBody[d]) {
            anyEliminated = true;
            if (refactor || this.grpDirty[d]) this.eliminateGroupBody(d);
          }
        this.grpDirty.fill(0, 0, this.nd);
        this.schurResidual = 0;
        // (islands without joints keep the direct per-body Schur build: nothing to share there)
        if (this.contactSpace && !anyEliminated && this.nj > 0) this.solveContactSpace(vScale);
        else this.solveSparse();
        // (a Newton attempt whose equations contradict each other with eliminated bodies is given
        // up at once, rather than redone on the contact Schur complement: the Poisson form takes over)
        if (this.abortOnContradiction && anyEliminated && this.schurResidual > 1e-9 * vScale) {
          this.aborted = true;
          return iterations;
        }
        if (anyEliminated && this.schurResidual > 1e-9 * vScale && groupMode !== 'eliminate') {
          // The equations contradict each other (e.g. different ε at two pinned bodies joined
          // by a joint): with eliminated bodies the least-squares compromise would fall on the
          // joints. From here on the contacts go to the Schur complement, as without
          // elimination, which keeps every joint of the tree exact.
          noEliminate = true;
          this.prepareGroups('schur');
          this.buildForest();
          this.factor();
          this.treeReady = true;
          if (this.contactSpace && this.nj > 0) this.solveContactSpace(vScale);
          else this.solveSparse();
        }
      }
      for (let c = 0; c < nc; c++) this.prevState[c] = this.contactState[c];
      // Contact impulses: normal component and the tangential part.
      let scale = 0;
      for (let c = 0; c < nc; c++) {
        const k = nj + c;
        const r0 = this.cRow0[k];
        if (this.cRows[k] > 0) scale = Math.max(scale, Math.abs(this.rowLambda[r0]));
      }
      // State changes, each one-way (stick → slide → frictionless → separated), so the loop ends.
      let changed = false;
      for (let c = 0; c < nc; c++) {
        const k = nj + c, r0 = this.cRow0[k];
        const st = this.contactState[c];
        if (st === ContactState.Stick) {
          const g = this.contactGamma[c];
          const ln = this.rowLambda[r0], l1 = this.rowLambda[r0 + 1], l2 = this.rowLambda[r0 + 2];
          const lt = hypot2(l1, l2);
          // the paper's cone test γ R·k ≥ |R − k(R·k)| (fails for a pulling R·k < 0 too)
          const inside = g === Infinity ? !unilateral || ln >= -1e-9 * scale : lt <= g * ln * (1 + 1e-9) + 1e-12 * scale;
          if (inside) continue;
          changed = true;
          if (g !== Infinity && lt > 0) {
            // Slide: keep the direction of the parallel component (α = γ P·i, β = γ P·j).
            const f = this.contactFrame, o = 9 * c;
            this.contactSlide[3 * c] = (l1 * f[o + 3] + l2 * f[o + 6]) / lt;
            this.contactSlide[3 * c + 1] = (l1 * f[o + 4] + l2 * f[o + 7]) / lt;
            this.contactSlide[3 * c + 2] = (l1 * f[o + 5] + l2 * f[o + 8]) / lt;
            this.contactState[c] = ContactState.Slide;
          } else {
            // a perfectly rough contact that would have to pull cannot stick: no friction
            this.contactState[c] = ContactState.Frictionless;
          }
        } else if (st === ContactState.Slide && unilateral && this.rowLambda[r0] * Math.max(1, this.contactGamma[c]) < -1e-10 * scale) {
          // no pushing impulse exists on the cone in that direction (Painlevé-type case): drop the
          // friction (a pull of round-off size stays: its friction γ|λ| is round-off as well)
          this.contactState[c] = ContactState.Frictionless;
          changed = true;
        }
      }
      if (!changed && unilateral) {
        // Frictionless contacts that pull are separating: all of them leave at once. Then a
        // separated contacts that would now approach faster than −ε allows come back (together at
        // first, later the most violating one at a time), so the final set solves the complementarity problem
        // λ ≥ 0, v⁺·n + ε v⁻·n ≥ 0, λ·(v⁺·n + ε v⁻·n) = 0 over the frictionless contacts.
        for (let c = 0; c < nc; c++) {
          if (this.contactState[c] !== ContactState.Frictionless) continue;
          if (this.rowLambda[this.cRow0[nj + c]] < -1e-9 * scale) {
            this.contactState[c] = ContactState.Separated;
            this.rejoins[c]++;
            changed = true;
          }
        }
        // (only when the equations are consistent: a least-squares compromise misses its targets
        // anyway, and re-adding would only cycle)
        if (!changed && (dense || this.schurResidual <= 1e-9 * vScale)) {
          let worst = -1, worstVal = 0, capped = false;
          for (let c = 0; c < nc; c++) {
            if (this.contactState[c] !== ContactState.Separated) continue;
            const w = this.normalVelocity(c, true) + this.epsOn * this.contactEps[c] * this.normalVelocity(c, false);
            const tol = 1e-9 * (Math.abs(this.normalVelocity(c, false)) + vScale);
            if (!(w < -tol)) continue;
            // a contact that keeps coming back and leaving again (cycling) is not re-added …
            if (this.rejoins[c] > 2) {
              capped = true;
              continue;
            }
            if (w < worstVal) {
              worstVal = w;
              worst = c;
            }
          }
          if (worst >= 0) {
            // The contacts that approach come back together while none of them has left twice;
            // after that one at a time (the most violating first), which is what stops cycling.
            const batch = this.rejoins[worst] <= 1;
            for (let c = 0; c < nc; c++) {
              if (c !== worst && (!batch || this.contactState[c] !== ContactState.Separated || this.rejoins[c] > 1)) continue;
              if (c !== worst) {
                const w = this.normalVelocity(c, true) + this.epsOn * this.contactEps[c] * this.normalVelocity(c, false);
                if (!(w < -1e-9 * (Math.abs(this.normalVelocity(c, false)) + vScale))) continue;
              }
              // (one that a warm start left out comes back as it would have started: sticking)
              this.contactState[c] = this.warmSep[c] && this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
              this.warmSep[c] = 0;
            }
            changed = true;
          } else if (capped) {
            // … instead, the sliding contacts lose their friction. With sliding impulses off
            // their condition directions the complementarity problem need not have a solution
            // (and the pivoting can cycle); without them it is symmetric (frictionless and
            // sticking rows), where it does. Each contact slides at most once, so this ends.
            for (let c = 0; c < nc; c++)
              if (this.contactState[c] === ContactState.Slide) {
                this.contactState[c] = ContactState.Frictionless;
                changed = true;
              }
            if (changed) this.rejoins.fill(0, 0, nc);
          }
        }
      }
      if (!changed) break;
      // bodies whose contacts changed state have new groups
      for (let c = 0; c < nc; c++) {
        if (this.contactState[c] === this.prevState[c]) continue;
        const a = this.cA[nj + c], b = this.cB[nj + c];
        if (a >= 0 && this.dyn[a] >= 0) this.grpDirty[this.dyn[a]] = 1;
        if (b >= 0 && this.dyn[b] >= 0) this.grpDirty[this.dyn[b]] = 1;
      }
    }
    this.ensureX();
    return iterations;
  }

  /** (v_A(p) − v_B(p))·n of contact c after the last linear solve (post) or before the impact. */
  protected normalVelocity(c: number, post: boolean): number {
    const k = this.nj + c, f = this.contactFrame, o = 9 * c, P = this.contactPoint;
    const nx = f[o], ny = f[o + 1], nz = f[o + 2];
    let s = 0;
    // (after a contact-space pass the velocities are not formed: the dynamic sides' part is
    // J_n x = J_n x0 + Σ_q (J_n K⁻¹ G_qᵀ) μ_q, read from A)
    const stale = post && this.xStale;
    if (stale) s = this.csNormalVelocity(c);
    for (let side = 0; side < 2; side++) {
      const b = side === 0 ? this.cA[k] : this.cB[k];
      if (b < 0) continue;
      const d = this.dyn[b];
      if (stale && d >= 0) continue;
      const src = post && d >= 0 ? this.x : this.vel, so = post && d >= 0 ? this.nodeOff[d] : 6 * b;
      const rx = P[3 * c] - this.com[3 * b], ry = P[3 * c + 1] - this.com[3 * b + 1], rz = P[3 * c + 2] - this.com[3 * b + 2];
      const wx = src[so + 3], wy = src[so + 4], wz = src[so + 5];
      const vx = src[so] + wy * rz - wz * ry, vy = src[so + 1] + wz * rx - wx * rz, vz = src[so + 2] + wx * ry - wy * rx;
      s += (side === 0 ? 1 : -1) * (vx * nx + vy * ny + vz * nz);
    }
    return s;
  }

  private solveSparse(): void {
    this.xStale = false;
    // (the compressed groups need their decompositions)
    this.decomposePending();
    const T = this.totalDim, nRows = this.nRows, nd = this.nd, nj = this.nj;
    // secondary rows: non-primary joints and all contact rows with at least one dynamic side,
    // except the rows of eliminated groups; dependent groups compressed
    this.secRows = growI(this.secRows, 2 * nRows + 1);
    let s = 0;
    for (let r = 0; r < nRows; r++) {
      const k = this.rowOwner[r];
      if (k < nj && this.cPrimary[k]) continue;
      const da = this.rowDA[r], db = this.rowDB[r];
      if (da < 0 && db < 0) {
        this.rowLambda[r] = 0;
        continue;
      }
      if (k >= nj && (da < 0) !== (db < 0)) {
        const st = this.contactState[k - nj];
        if (st === ContactState.Stick || st === ContactState.Frictionless) continue; // grouped
        if (st === ContactState.Slide && this.conBody[da >= 0 ? da : db] && this.slIn[da >= 0 ? da : db]) continue; // eliminated with its body
      }
      this.secRows[s++] = r;
    }
    let nv = nRows;
    for (let d = 0; d < nd; d++) {
      if (this.grpHead[d] < 0 || this.conBody[d]) continue;
      if (this.grpCount[d] > 1) nv = this.compressGroup(d, nv);
      if (this.grpV0[d] >= 0) for (let q = 0; q < this.grpRank[d]; q++) this.secRows[s++] = this.grpV0[d] + q;
      else for (let r = this.grpHead[d]; r >= 0; r = this.grpNext[r]) this.secRows[s++] = r;
    }
    const x = this.x, x0 = this.x0;
    if (s > 0) {
      // (the free solve M⁻¹-through-the-tree of the base right-hand side is the same in every
      // pass while the tree factorization stands: kept, as the path vectors are)
      if (this.x0Valid) x0.set(this.x0c.subarray(0, T));
      else {
        this.fillBaseRhs(x0);
        this.treeSolve(x0);
        this.x0c = growF(this.x0c, T);
        this.x0c.set(x0.subarray(0, T));
        this.x0Valid = true;
      }
      this.addEliminatedOffsets(x0);
      this.sRhs = growF(this.sRhs, s);
      this.sMu = growF(this.sMu, s);
      for (let m = 0; m < s; m++) {
        const r = this.secRows[m];
        this.sRhs[m] = this.rowC[r] - this.rowDot(x0, r);
      }
    }
    if (s > 0 && !this.solveLowRankSchur(s)) {
      this.S = growF(this.S, s * s);
      this.sWork = growF(this.sWork, 3 * s * s + 4 * s);
      this.sPiv = growI(this.sPiv, 2 * s);
      const S = this.S;
      if (s < 8 || !this.buildSchurByBodies(s)) this.buildSchurByPaths(s);
      // symmetric when every impulse acts along its condition direction (no sliding contact)
      let symmetric = true;
      for (let d = 0; d < nd; d++) if (this.conBody[d] && this.slIn[d]) symmetric = false;
      for (let q = 0; q < s && symmetric; q++) {
        const k = this.rowOwner[this.secRows[q]];
        if (k >= nj && this.contactState[k - nj] === ContactState.Slide) symmetric = false;
      }
      this.schurResidual = symmetric ? solveSymmetricRobust(S, s, this.sRhs, this.sMu, this.sWork, this.sPiv) : solveDenseRobust(S, s, this.sRhs, this.sMu, this.sWork, this.sPiv);
    }
    this.fillBaseRhs(x);
    for (let q = 0; q < s; q++) {
      const r = this.secRows[q];
      this.rowLambda[r] = this.sMu[q];
      this.addImpulse(x, r, this.sMu[q]);
    }
    for (let d = 0; d < nd; d++) if (this.conBody[d]) for (let k = 0; k < 6; k++) this.conF[6 * d + k] = x[this.nodeOff[d] + k];
    this.treeSolve(x);
    this.addEliminatedOffsets(x);
    this.expandGroups();
    this.eliminatedLambdas(x);
    // primary joint impulses: λ = −λ' (KKT sign convention)
    for (let i = this.nd; i < this.nNodes; i++) {
      const j = this.nodeRef[i], r0 = this.cRow0[j], o = this.nodeOff[i];
      for (let k = 0; k < this.nodeDim[i]; k++) this.rowLambda[r0 + k] = -x[o + k];
    }
  }

  // ---------------------------------------------------------------- dense reference

  /**
   * The whole system at once, as the paper writes it: unknowns u (6 per
   * dynamic body) and λ (one per row); Gaussian elimination with partial
   * pivoting. O((6n + rows)³): a reference, not for production.
   */
  private solveDense(): void {
    this.xStale = false;
    const nd = this.nd, nRows = this.nRows, n6 = 6 * nd, N = n6 + nRows;
    const A = new Float64Array(N * N), b = new Float64Array(N), piv = new Int32Array(N);
    for (let i = 0; i < nd; i++) {
      const bi = this.dynBody[i], m = this.mass[bi], I = this.inertia, o = 6 * i;
      for (let k = 0; k < 3; k++) A[(o + k) * N + o + k] = m;
      for (let rr = 0; rr < 3; rr++) for (let c = 0; c < 3; c++) A[(o + 3 + rr) * N + o + 3 + c] = I[9 * bi + c * 3 + rr];
      const v = this.vel, vo = 6 * bi;
      b[o] = m * v[vo];
      b[o + 1] = m * v[vo + 1];
      b[o + 2] = m * v[vo + 2];
      for (let rr = 0; rr < 3; rr++) b[o + 3 + rr] = I[9 * bi + rr] * v[vo + 3] + I[9 * bi + 3 + rr] * v[vo + 4] + I[9 * bi + 6 + rr] * v[vo + 5];
    }
    for (let r = 0; r < nRows; r++) {
      const col = n6 + r, row = n6 + r, o = 6 * r;
      const da = this.rowDA[r], db = this.rowDB[r];
      if (da < 0 && db < 0) {
        A[row * N + col] = 1; // λ = 0
        continue;
      }
      if (da >= 0)
        for (let k = 0; k < 6; k++) {
          A[(6 * da + k) * N + col] -= this.rowGA[o + k];
          A[row * N + 6 * da + k] += this.rowJA[o + k];
        }
      if (db >= 0)
        for (let k = 0; k < 6; k++) {
          A[(6 * db + k) * N + col] -= this.rowGB[o + k];
          A[row * N + 6 * db + k] += this.rowJB[o + k];
        }
      b[row] = this.rowC[r];
    }
    luFactor(A, N, piv, 1e-13);
    luSolve(A, N, piv, b);
    // store velocities in the node layout used by writeResult (body nodes first, offsets 6·i)
    for (let i = 0; i < nd; i++) {
      const o = this.nodeOff[i];
      for (let k = 0; k < 6; k++) this.x[o + k] = b[6 * i + k];
    }
    for (let r = 0; r < nRows; r++) this.rowLambda[r] = b[n6 + r];
  }
}
