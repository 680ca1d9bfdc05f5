/**
 * Coulomb's law at sliding contacts, layer `FrictionLaw` of `ImpulseSolver` (`frictionLawFirst`,
 * `frictionLaw`, `slidePushes`).
 *
 * Coulomb's law at sliding contacts (`slidingFriction: 'coulomb'`, frictionLaw): the paper's sliding rule
 * keeps the direction of the sticking impulse; with several contacts an
 * answer can leave a sliding contact without restitution whose friction pushes
 * along its slip (positive work at the contact, while the island's energy
 * still falls: a ragdoll's hand spun on the ground for ever). Such answers are
 * solved again: first with those contacts perfectly rough (kept when each then
 * sticks inside its own cone), else their tangential impulses become unknowns of
 * Coulomb's complementarity problem with the round cone (sticking without slip
 * inside it, or sliding on it against the slip), solved over the contact-space
 * matrix A (block descent, then semismooth Newton), the other contacts keeping
 * the paper's states until they break the law too. The paper's answer is kept
 * wherever it has no such contact.
 */
import { ContactState } from './types';
import { hypot2, hypot3 } from '../math/libm';
import { growF, growI, growU } from './flat';
import { ImpulseSolution } from './solution';
import { CoulombProblem, FRICTION_GROW_ROUNDS, FRICTION_LAW_PASSES, FRICTION_LAW_REJOINS, FRICTION_RESTICK_ROUNDS } from './coulomb';

export abstract class FrictionLaw extends CoulombProblem {
  /**
   * Coulomb's law at every sliding contact: its friction opposes its slip, so it does no positive
   * work there. The paper's sliding rule keeps the direction of the sticking impulse; with
   * several contacts, the later state changes of others can leave a sliding contact's friction
   * pushing along its slip (f_t·w > 0, w the tangential velocity after minus its target) while
   * the island's total energy still falls (a ragdoll's hand kept spinning on the ground). When
   * the one-phase answer in `out` has such a contact, it becomes "free": its tangential impulse
   * f_c is solved as Coulomb's complementarity problem with the round cone (`frictionSolve`:
   * f_c = proj over the disc of radius γ λ_c of (f_c − ρ_c w_c), i.e. sticking with w_c = 0 and
   * |f_c| ≤ γ λ_c, or sliding with |f_c| = γ λ_c against w_c), the other contacts keeping the
   * paper's states. Then every contact is checked: a sticking one outside its cone or a sliding
   * one whose friction pushes along its slip becomes free too, normals follow the contact-state
   * loop's rules (a pulling contact leaves; a separated one that would approach comes back, at
   * most FRICTION_LAW_REJOINS times, after which the free contacts lose their friction, as the
   * loop's cycling rule). The free set only grows, so this ends; the paper's answer is kept
   * where it holds. Writes the answer into out; returns the linear solves (0: answer kept).
   */
  private frictionLaw(vScale: number, restModel: string, out: ImpulseSolution, preset = false): number {
    const nc = this.nc, nd = this.nd, epsT = restModel === 'paper' ? 1 : 0;
    this.slW = growF(this.slW, 2 * nc);
    this.slFree = growU(this.slFree, nc);
    let any = false;
    if (preset) for (let c = 0; c < nc && !any; c++) any = this.slFree[c] === 1;
    else this.slFree.fill(0, 0, nc);
    for (let c = 0; c < nc; c++) {
      if (out.contactState[c] === ContactState.Slide && this.slidePushes(c, vScale, epsT)) {
        this.slFree[c] = 1;
        any = true;
      }
    }
    if (!any) return 0;
    this.frictionLawStats.solves++;
    // (the pass cache holds the factors this needs; switched off, it is used here uncounted)
    // (its passes are counted in frictionLawStats, not as contact-state passes)
    const keepReuse = this.reusePassFactors, keepStats = keepReuse ? null : { ...this.passCacheStats }, keepCs = { ...this.contactSpaceStats };
    this.reusePassFactors = true;
    this.rejoins = growI(this.rejoins, nc);
    this.rejoins.fill(0, 0, nc);
    this.conBody.fill(0, 0, nd);
    this.slRow = growI(this.slRow, nc);
    this.slF = growF(this.slF, 2 * nc);
    this.slF.fill(0, 0, 2 * nc);
    this.slN = growF(this.slN, nc);
    this.slSlide = growU(this.slSlide, nc);
    this.slSlide.fill(0, 0, nc);
    let rounds = 0;
    this.frictionOff = false;
    try {
      if (!this.treeReady) {
        // (after a loop with eliminated bodies: their rows and blocks are the tree's again)
        this.jointRowsReady = false;
        this.buildRows(restModel);
        this.buildForest();
        this.factor();
        this.treeReady = true;
      }
      for (;;) {
        rounds++;
        this.linearSolves++;
        this.frictionSolve(vScale, epsT, restModel);
        let scale = 0;
        for (let c = 0; c < nc; c++) {
          const k = this.nj + c;
          if (this.cRows[k] > 0) scale = Math.max(scale, Math.abs(this.slN[c]));
        }
        let changed = false, grew = 0;
        for (let c = 0; c < nc; c++) {
          const st = this.contactState[c], g = this.contactGamma[c], ln = this.slN[c];
          if (st === ContactState.Static || st === ContactState.Separated) continue;
          if (this.slFree[c] || st === ContactState.Frictionless) {
            if (ln < -1e-9 * scale) {
              this.contactState[c] = ContactState.Separated;
              this.slFree[c] = 0;
              this.rejoins[c]++;
              changed = true;
            }
            continue;
          }
          const r0 = this.cRow0[this.nj + c];
          if (st === ContactState.Stick) {
            const l1 = this.rowLambda[r0 + 1], l2 = this.rowLambda[r0 + 2], lt = hypot2(l1, l2);
            const inside = g === Infinity ? ln >= -1e-9 * scale : lt <= g * ln * (1 + 1e-9) + 1e-12 * scale;
            if (inside) continue;
            changed = true;
            if (g !== Infinity && ln > 0) this.slFree[c] = grew = 1;
            else this.contactState[c] = ContactState.Frictionless;
          } else if (st === ContactState.Slide) {
            if (ln * Math.max(1, g) < -1e-10 * scale) {
              this.contactState[c] = ContactState.Frictionless;
              changed = true;
            } else if (this.slidePushes(c, vScale, epsT)) {
              this.slFree[c] = grew = 1;
              changed = true;
            }
          }
        }
        if (grew && rounds >= FRICTION_GROW_ROUNDS) {
          // (a free set that keeps growing: every frictional contact at once)
          for (let c = 0; c < nc; c++) {
            const st = this.contactState[c], g = this.contactGamma[c];
            if ((st === ContactState.Slide || st === ContactState.Stick) && g > 0 && g !== Infinity) this.slFree[c] = 1;
          }
        }
        let capped = false;
        if (!changed) {
          for (let c = 0; c < nc; c++) {
            if (this.contactState[c] !== ContactState.Separated) continue;
            const w = this.normalVelocity(c, true) + this.epsOn * this.contactEps[c] * this.normalVelocity(c, false);
            if (!(w < -1e-9 * (Math.abs(this.normalVelocity(c, false)) + vScale))) continue;
            if (this.rejoins[c] > FRICTION_LAW_REJOINS) {
              capped = true;
              continue;
            }
            // (back as a free contact: its friction solved with Coulomb's law from the start)
            this.contactState[c] = this.contactGamma[c] > 0 ? ContactState.Stick : ContactState.Frictionless;
            if (this.contactGamma[c] > 0 && this.contactGamma[c] !== Infinity) this.slFree[c] = 1;
            changed = true;
          }
        }
        if (!changed && !(capped && !this.frictionOff)) break;
        if (!this.frictionOff && (rounds >= FRICTION_LAW_PASSES || capped)) {
          // (as the contact-state loop's cycling rule: the contacts whose friction is solved here
          // and the sliding ones lose it; without friction the normals' problem is symmetric)
          this.frictionOff = true;
          this.frictionLawStats.dropped++;
          for (let c = 0; c < nc; c++) if (this.contactState[c] === ContactState.Slide) this.slFree[c] = 1;
          this.rejoins.fill(0, 0, nc);
        }
        if (rounds >= 2 * FRICTION_LAW_PASSES) break;
      }
    } finally {
      this.reusePassFactors = keepReuse;
      if (keepStats) Object.assign(this.passCacheStats, keepStats);
      Object.assign(this.contactSpaceStats, keepCs);
      this.frictionOff = false;
    }
    this.frictionLawStats.passes += rounds;
    this.writeResult(out, out.iterations + rounds);
    // (a free contact's rows are sticking ones; its friction decides between sticking and sliding)
    for (let c = 0; c < nc; c++)
      if (this.slFree[c] && out.contactState[c] === ContactState.Stick && this.slSlide[c]) out.contactState[c] = this.slSlide[c] === 2 ? ContactState.Frictionless : ContactState.Slide;
    return rounds;
  }

  /**
   * Coulomb's law at sliding contacts without restitution, first the cheap way: a sliding contact
   * whose friction pushes along its slip is made perfectly rough (sticking, γ = ∞) and the
   * contact-state loop run again from the states it had (up to FRICTION_RESTICK_ROUNDS rounds, as
   * new such contacts appear); if every contact made rough then sticks inside its own cone (and no
   * sliding contact pushes along its slip), that answer keeps every law: it is kept. Otherwise the
   * rough contacts outside their cones and the pushing ones are solved by Coulomb's law
   * (`frictionLaw`). Returns the linear solves (0: the answer kept as it was).
   */
  protected frictionLawFirst(unilateral: boolean, groupMode: 'auto' | 'schur' | 'eliminate', vScale: number, restModel: string, out: ImpulseSolution): number {
    const nc = this.nc, epsT = restModel === 'paper' ? 1 : 0;
    this.slW = growF(this.slW, 2 * nc);
    this.slRough = growU(this.slRough, nc);
    this.slRough.fill(0, 0, nc);
    this.slGamma = growF(this.slGamma, nc);
    let solves = 0, rough = false;
    try {
      for (let round = 0; round < FRICTION_RESTICK_ROUNDS; round++) {
        let any = false;
        for (let c = 0; c < nc; c++) {
          if (this.slRough[c] || out.contactState[c] !== ContactState.Slide || !this.slidePushes(c, vScale, epsT)) continue;
          this.slRough[c] = 1;
          this.slGamma[c] = this.contactGamma[c];
          this.contactGamma[c] = Infinity;
          this.contactState[c] = ContactState.Stick;
          any = rough = true;
        }
        if (!any) break;
        this.frictionLawStats.resticks++;
        const it = this.runContactStates(unilateral, false, groupMode, vScale, restModel);
        solves += it;
        this.writeResult(out, out.iterations + it);
      }
    } finally {
      for (let c = 0; c < nc; c++) if (this.slRough[c]) this.contactGamma[c] = this.slGamma[c];
    }
    if (!rough) return 0;
    // the rough contacts: inside their own cones? the sliding ones: none pushing along its slip?
    this.slFree = growU(this.slFree, nc);
    this.slFree.fill(0, 0, nc);
    let bad = false;
    const I = out.contactImpulse, f = this.contactFrame;
    for (let c = 0; c < nc; c++) {
      const st = out.contactState[c];
      if (this.slRough[c] && st === ContactState.Stick) {
        const o = 9 * c, ln = I[3 * c] * f[o] + I[3 * c + 1] * f[o + 1] + I[3 * c + 2] * f[o + 2];
        const lt = hypot3(I[3 * c] - ln * f[o], I[3 * c + 1] - ln * f[o + 1], I[3 * c + 2] - ln * f[o + 2]);
        if (!(lt <= this.contactGamma[c] * Math.max(ln, 0) * (1 + 1e-9))) this.slFree[c] = 1;
      } else if (st === ContactState.Slide && this.slidePushes(c, vScale, epsT)) this.slFree[c] = 1;
      if (this.slFree[c]) bad = true;
    }
    if (!bad) return solves;
    return solves + this.frictionLaw(vScale, restModel, out, true);
  }

  /**
   * Whether sliding contact c's friction γλP pushes along its slip w after the last solve (x
   * formed): P·w > 1e-10 |w| with |w| above 1e-10 vScale. Fills slW[2c..2c+1].
   */
  private slidePushes(c: number, vScale: number, epsT: number): boolean {
    const g = this.contactGamma[c];
    // (with restitution at the contact its slip after is not the one its friction acted on
    // throughout: the paper's rule scales the whole impulse, friction included, by 1 + ε)
    if (!(g > 0) || g === Infinity || this.epsOn * this.contactEps[c] > 0) return false;
    const f = this.contactFrame, w = this.slip(c, epsT), o = 9 * c, S = this.contactSlide;
    const p1 = S[3 * c] * f[o + 3] + S[3 * c + 1] * f[o + 4] + S[3 * c + 2] * f[o + 5];
    const p2 = S[3 * c] * f[o + 6] + S[3 * c + 1] * f[o + 7] + S[3 * c + 2] * f[o + 8];
    return w > 1e-10 * vScale && p1 * this.slW[2 * c] + p2 * this.slW[2 * c + 1] > 1e-10 * w;
  }
}
