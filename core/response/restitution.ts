/**
 * Restitution (Moore & Wilhelms §3.2, Poisson's hypothesis), layer `Restitution` of `ImpulseSolver`:
 * the compression and restitution phases per contact (`solvePoisson`), and the one-ε shortcut.
 *
 * Restitution: the paper solves with ε = 0 and scales the impulses by (1 + ε)
 * (Poisson's hypothesis). For a row whose velocity before is J u⁻, with one ε
 * for all contacts, that is the same as asking for J u⁺ = −ε J u⁻ (Newton).
 * 'paper' (default) solves Newton's rows first, in one pass, and keeps the
 * answer when its equations have a solution, no contact ends approaching and
 * (different ε) no energy is added. Otherwise, and always with 'poisson',
 * restitution is computed the paper's way per contact (`solvePoisson`): a
 * compression phase with ε = 0, then the impulses ε_c R_c and one more
 * ε = 0 solve from there. `normalOnly` and `unilateral: false` keep Newton's
 * per-row equalities.
 */
import { ContactState } from './types';
import { growF, growU } from './flat';
import { ImpulseSolution, copySolution } from './solution';
import { FrictionLaw } from './friction';

export abstract class Restitution extends FrictionLaw {
  /**
   * Restitution as the paper states it (R_actual = (1 + ε) R, Poisson's
   * hypothesis), per contact: a compression phase solved with ε = 0 gives
   * each contact its impulse R_c (and the velocities u_c); then the
   * restitution phase applies ε_c R_c at every contact and solves once more
   * with ε = 0 from there, so the joints hold again and a contact the
   * restitution impulses of others would drive together receives the extra
   * push that stops it (never a pull). A contact's total impulse is
   * (1 + ε_c) R_c plus that push.
   *
   * With one ε for every contact (and joints holding before the impact) this
   * is exactly Newton's rule v⁺ = −ε v⁻ at every contact that pushed in the
   * compression phase, so single contacts and uniform-ε systems are
   * unchanged. With different ε among coupled contacts Newton's equations
   * can contradict each other (no velocity satisfies them all); the Poisson
   * form always has an answer. There a contact may end with v⁺·n between 0
   * and −ε v⁻·n (another contact's lower ε holds the body), and never
   * approaching. Applying ε_c R_c with different ε_c can add kinetic energy
   * (the impulses no longer scale together); when it would, the restitution
   * impulses are scaled by the largest s ∈ [0, 1] that adds none, found by
   * bisection (`ImpulseSolution.restitutionScale`; s = 0 is the inelastic
   * compression phase, which never adds energy).
   */
  protected solvePoisson(unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): ImpulseSolution {
    const l0 = this.linearSolves;
    try {
      return this.poissonPhases(unilateral, dense, groupMode, vScale, restModel, out);
    } finally {
      this.restitutionStats.poissonCalls++;
      this.restitutionStats.poissonSolves += this.linearSolves - l0;
    }
  }

  private poissonPhases(unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): ImpulseSolution {
    const nb = this.nb, nj = this.nj, nc = this.nc;
    this.poissonUsed = true;
    this.epsOn = 0;
    let its = this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
    this.writeResult(out, its);
    out.restitutionScale = 1;
    const e0 = out.kineticEnergyBefore, tol = e0 * (1 + 1e-12);
    let finiteFriction = false;
    for (let c = 0; c < nc; c++) if (this.contactGamma[c] > 0 && this.contactGamma[c] !== Infinity) finiteFriction = true;
    if (this.gained(out) > tol && finiteFriction) {
      // Several sliding contacts can add energy in the compression phase (see `solve`): the
      // friction scale is found for this phase alone (bisection to 2⁻⁶; 0 = frictionless,
      // which adds none), so the restitution phase starts from a compression that adds none.
      this.gammaOrig = growF(this.gammaOrig, nc);
      this.gammaOrig.set(this.contactGamma.subarray(0, nc));
      // (the phase at the scale kept is the one solved and tested at it, copied then, not solved
      // again: only a bracket that never found one adds a solve at 0)
      let lo = 0, hi = 1, found = false;
      const best = this.phaseBest;
      for (let k = 0; k <= 6; k++) {
        const g = k === 6 ? lo : 0.5 * (lo + hi);
        for (let c = 0; c < nc; c++) {
          const g0 = this.gammaOrig[c];
          this.contactGamma[c] = g0 === Infinity ? Infinity : g0 * g;
          if (k < 6 || !found) if (this.contactState[c] !== ContactState.Static) this.contactState[c] = this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
        }
        if (k === 6 && found) {
          this.restitutionStats.bisectionSolvesSaved++;
          copySolution(best, out);
          for (let c = 0; c < nc; c++) this.contactState[c] = best.contactState[c];
          break;
        }
        its += this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
        this.writeResult(out, its);
        if (k === 6) break;
        if (this.gained(out) <= tol) {
          lo = g;
          found = true;
          copySolution(out, best);
        } else hi = g;
      }
      out.iterations = its;
      out.frictionScale = lo;
    }
    const frictionScale = out.frictionScale, ec = this.gained(out);
    // keep the compression phase: impulses, states, velocities u_c, and u⁻
    this.p1C = growF(this.p1C, 3 * nc);
    this.p1J = growF(this.p1J, 3 * nj);
    this.p1S = growU(this.p1S, nc);
    this.p1U = growF(this.p1U, 6 * nb);
    this.velPre = growF(this.velPre, 6 * nb);
    this.resImp = growF(this.resImp, 3 * nc);
    this.p1C.set(out.contactImpulse.subarray(0, 3 * nc));
    this.p1J.set(out.jointImpulse.subarray(0, 3 * nj));
    for (let c = 0; c < nc; c++) this.p1S[c] = this.contactState[c];
    this.velPre.set(this.vel.subarray(0, 6 * nb));
    for (let i = 0; i < nb; i++)
      for (let k = 0; k < 3; k++) {
        this.p1U[6 * i + k] = out.linearVelocity[3 * i + k];
        this.p1U[6 * i + 3 + k] = out.angularVelocity[3 * i + k];
      }
    let anyImpulse = false, uniform = true, eps0 = -1;
    for (let c = 0; c < nc; c++) {
      const e = this.contactEps[c], o = 3 * c;
      if (this.p1C[o] === 0 && this.p1C[o + 1] === 0 && this.p1C[o + 2] === 0) continue;
      if (e > 0) anyImpulse = true;
      if (eps0 < 0) eps0 = e;
      else if (e !== eps0) uniform = false;
    }
    if (!anyImpulse) return out;
    if (uniform && this.uniformRestitution(eps0, vScale, out)) {
      if (this.gained(out) <= tol || ec > tol) return out;
      // (sliding friction with ε can add energy: the bisection below finds the restitution scale)
    }
    its += this.restitutionPhase(1, unilateral, dense, groupMode, vScale, restModel, out);
    // Different ε (or friction in the restitution phase) can add energy: the largest
    // restitution scale s that adds none, by bisection to 2⁻⁶ (s = 0 is the compression phase).
    if (this.gained(out) > tol && ec <= tol) {
      // (the result at the scale kept is the one solved and tested at it, as above)
      let lo = 0, hi = 1, found = false;
      const best = this.phaseBest;
      for (let k = 0; k < 6; k++) {
        const s = 0.5 * (lo + hi);
        its += this.restitutionPhase(s, unilateral, dense, groupMode, vScale, restModel, out);
        if (this.gained(out) <= tol) {
          lo = s;
          found = true;
          copySolution(out, best);
        } else hi = s;
      }
      if (found) {
        this.restitutionStats.bisectionSolvesSaved++;
        copySolution(best, out);
      } else its += this.restitutionPhase(lo, unilateral, dense, groupMode, vScale, restModel, out);
      out.restitutionScale = lo;
    }
    out.iterations = its;
    out.frictionScale = frictionScale;
    return out;
  }

  /**
   * One ε for every contact that pushed: when the joints held before the
   * impact, applying ε R_c at the contacts and re-solving the joints gives
   * exactly ε times the compression phase's joint impulses as well, so
   * u⁺ = u_c + ε (u_c − u⁻) and every impulse is (1 + ε) times its
   * compression value (Newton's rule, one linear solve). Taken when the
   * joints hold at that u⁺ and no contact approaches there; otherwise
   * returns false and the full restitution phase runs.
   */
  private uniformRestitution(eps: number, vScale: number, out: ImpulseSolution): boolean {
    const nb = this.nb, nj = this.nj, nc = this.nc, vel = this.vel;
    for (let i = 0; i < nb; i++) {
      if (this.dyn[i] < 0) continue;
      for (let k = 0; k < 6; k++) vel[6 * i + k] = this.p1U[6 * i + k] + eps * (this.p1U[6 * i + k] - this.velPre[6 * i + k]);
    }
    let ok = true;
    // joint rows (built in the compression phase; a joint's rows do not depend on the states)
    for (let j = 0; j < nj && ok; j++)
      for (let r = this.cRow0[j]; r < this.cRow0[j] + this.cRows[j]; r++)
        if (Math.abs(this.rowVelocity(r)) > 1e-11 * vScale) {
          ok = false;
          break;
        }
    for (let c = 0; c < nc && ok; c++) if (this.contactState[c] !== ContactState.Static && this.normalVelocity(c, false) < -1e-12 * vScale) ok = false;
    if (ok) {
      for (let i = 0; i < nb; i++)
        for (let k = 0; k < 3; k++) {
          out.linearVelocity[3 * i + k] = vel[6 * i + k];
          out.angularVelocity[3 * i + k] = vel[6 * i + 3 + k];
        }
      for (let k = 0; k < 3 * nc; k++) out.contactImpulse[k] *= 1 + eps;
      for (let k = 0; k < 3 * nj; k++) out.jointImpulse[k] *= 1 + eps;
      let e1 = 0;
      for (let d = 0; d < this.nd; d++) {
        const i = this.dynBody[d];
        e1 += this.energy(i, out.linearVelocity, 3 * i, out.angularVelocity, 3 * i);
      }
      out.kineticEnergyAfter = e1;
    }
    vel.set(this.velPre.subarray(0, 6 * nb));
    return ok;
  }

  /**
   * The restitution phase with the restitution impulses scaled by s: from
   * u_c + M⁻¹ Σ s ε_c R_c (keyframed bodies unchanged), an ε = 0 solve with
   * the contacts that approach there active and the others separated (the
   * complementarity loop takes it from there). Writes the combined result
   * (velocities, total impulses, states, energy against u⁻) into out.
   */
  private restitutionPhase(s: number, unilateral: boolean, dense: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): number {
    const nb = this.nb, nj = this.nj, nc = this.nc;
    const vel = this.vel, com = this.com, P = this.contactPoint;
    vel.set(this.p1U.subarray(0, 6 * nb));
    for (let c = 0; c < nc; c++) {
      const e = s * this.contactEps[c], o = 3 * c;
      const ix = e * this.p1C[o], iy = e * this.p1C[o + 1], iz = e * this.p1C[o + 2];
      this.resImp[o] = ix;
      this.resImp[o + 1] = iy;
      this.resImp[o + 2] = iz;
      if (ix === 0 && iy === 0 && iz === 0) continue;
      const k = nj + c;
      for (let side = 0; side < 2; side++) {
        const b = side === 0 ? this.cA[k] : this.cB[k];
        if (b < 0 || this.dyn[b] < 0) continue;
        const sg = side === 0 ? 1 : -1, m = this.mass[b], vo = 6 * b;
        const rx = P[o] - com[3 * b], ry = P[o + 1] - com[3 * b + 1], rz = P[o + 2] - com[3 * b + 2];
        vel[vo] += (sg * ix) / m;
        vel[vo + 1] += (sg * iy) / m;
        vel[vo + 2] += (sg * iz) / m;
        // Δω = I⁻¹ (r × impulse)
        const tx = sg * (ry * iz - rz * iy), ty = sg * (rz * ix - rx * iz), tz = sg * (rx * iy - ry * ix);
        const I = this.inertia, io = 9 * b;
        const a = I[io], bb = I[io + 3], cc = I[io + 6], d = I[io + 4], f = I[io + 7], h = I[io + 8];
        const A0 = d * h - f * f, A1 = cc * f - bb * h, A2 = bb * f - cc * d, A4 = a * h - cc * cc, A5 = bb * cc - a * f, A8 = a * d - bb * bb;
        const det = a * A0 + bb * A1 + cc * A2;
        vel[vo + 3] += (A0 * tx + A1 * ty + A2 * tz) / det;
        vel[vo + 4] += (A1 * tx + A4 * ty + A5 * tz) / det;
        vel[vo + 5] += (A2 * tx + A5 * ty + A8 * tz) / det;
      }
    }
    // contacts that approach after the restitution impulses start active, the others separated
    for (let c = 0; c < nc; c++) {
      if (this.contactState[c] === ContactState.Static) continue;
      const vn = this.normalVelocity(c, false);
      // (an approaching one starts as it ended the compression phase, sliding in the same direction)
      const p1 = this.p1S[c];
      const active = p1 === ContactState.Stick || p1 === ContactState.Slide || p1 === ContactState.Frictionless ? p1 : this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
      this.contactState[c] = vn < -1e-12 * vScale ? active : ContactState.Separated;
    }
    const it = this.runContactStates(unilateral, dense, groupMode, vScale, restModel);
    const tmp = this.phaseOut;
    this.writeResult(tmp, it);
    vel.set(this.velPre.subarray(0, 6 * nb));
    out.linearVelocity.set(tmp.linearVelocity);
    out.angularVelocity.set(tmp.angularVelocity);
    for (let k = 0; k < 3 * nj; k++) out.jointImpulse[k] = this.p1J[k] + tmp.jointImpulse[k];
    for (let k = 0; k < 3 * nc; k++) out.contactImpulse[k] = this.p1C[k] + this.resImp[k] + tmp.contactImpulse[k];
    for (let c = 0; c < nc; c++) {
      const st = tmp.contactState[c];
      out.contactState[c] = st === ContactState.Separated || st === ContactState.Static ? this.p1S[c] : st;
    }
    let e1 = 0;
    for (let d = 0; d < this.nd; d++) {
      const i = this.dynBody[d];
      e1 += this.energy(i, out.linearVelocity, 3 * i, out.angularVelocity, 3 * i);
    }
    out.kineticEnergyAfter = e1;
    return it;
  }
}
