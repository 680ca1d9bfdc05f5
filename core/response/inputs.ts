/**
 * Input and output of `ImpulseSolver`: reading bodies, joints and contacts into the flat state (with
 * the checks that throw `ResponseInputError` naming the body, joint or contact), writing the answer
 * into an `ImpulseSolution`, and the kinetic energy measures the guards compare (`energy`, `gained`).
 */
import type { Vec3Like } from '../math';
import { ContactState, ResponseInputError } from './types';
import type { ContactInput, JointInput, RigidBodyInput } from './types';
import { hypot3 } from '../math/libm';
import { KIND_BALL, KIND_LINEAR, KIND_PLANAR, growF, growI, growU, tangentBasis } from './flat';
import { ImpulseSolution } from './solution';
import { SolverState } from './state';

function label(kind: string, i: number, id: string | undefined): string {
  return id ? `${kind}[${i}] ("${id}")` : `${kind}[${i}]`;
}

function finite3(v: Vec3Like | undefined): boolean {
  return !!v && Number.isFinite(v.x) && Number.isFinite(v.y) && Number.isFinite(v.z);
}

export abstract class SolverInputs extends SolverState {
  // ---------------------------------------------------------------- input

  protected loadBodies(bodies: readonly RigidBodyInput[]): void {
    const nb = bodies.length;
    this.nb = nb;
    this.com = growF(this.com, 3 * nb);
    this.vel = growF(this.vel, 6 * nb);
    this.mass = growF(this.mass, nb);
    this.inertia = growF(this.inertia, 9 * nb);
    this.dyn = growI(this.dyn, nb);
    this.dynBody = growI(this.dynBody, nb);
    this.rest = growF(this.rest, nb);
    this.fric = growF(this.fric, nb);
    this.kf = growU(this.kf, nb);
    let nd = 0;
    for (let i = 0; i < nb; i++) {
      const b = bodies[i];
      if (!b) throw new ResponseInputError(`${label('bodies', i, undefined)}: missing`);
      if (!finite3(b.centerOfMass)) throw new ResponseInputError(`${label('bodies', i, b?.id)}: centerOfMass must be a finite {x, y, z}`);
      if (!finite3(b.linearVelocity)) throw new ResponseInputError(`${label('bodies', i, b?.id)}: linearVelocity must be a finite {x, y, z}`);
      if (!finite3(b.angularVelocity)) throw new ResponseInputError(`${label('bodies', i, b?.id)}: angularVelocity must be a finite {x, y, z}`);
      const e = b.restitution ?? 0, g = b.friction ?? 0;
      if (!(e >= 0 && e <= 1)) throw new ResponseInputError(`${label('bodies', i, b?.id)}: restitution must be in [0, 1] (got ${e})`);
      if (!(g >= 0)) throw new ResponseInputError(`${label('bodies', i, b?.id)}: friction must be ≥ 0 or Infinity (got ${g})`);
      this.com[3 * i] = b.centerOfMass.x;
      this.com[3 * i + 1] = b.centerOfMass.y;
      this.com[3 * i + 2] = b.centerOfMass.z;
      const v = this.vel, o = 6 * i;
      v[o] = b.linearVelocity.x;
      v[o + 1] = b.linearVelocity.y;
      v[o + 2] = b.linearVelocity.z;
      v[o + 3] = b.angularVelocity.x;
      v[o + 4] = b.angularVelocity.y;
      v[o + 5] = b.angularVelocity.z;
      this.rest[i] = e;
      this.fric[i] = g;
      if (b.keyframed) {
        this.kf[i] = 1;
        this.dyn[i] = -1;
        continue;
      }
      this.kf[i] = 0;
      const m = b.massKg;
      if (!(Number.isFinite(m) && m > 0)) throw new ResponseInputError(`${label('bodies', i, b?.id)}: massKg must be finite and > 0 (got ${m})`);
      const I = b.inertia;
      if (!I || I.length !== 9) throw new ResponseInputError(`${label('bodies', i, b?.id)}: inertia must have 9 numbers (column-major 3×3)`);
      for (let k = 0; k < 9; k++)
        if (!Number.isFinite(I[k])) throw new ResponseInputError(`${label('bodies', i, b?.id)}: inertia[${k}] is not finite (${I[k]})`);
      const scale = Math.max(Math.abs(I[0]), Math.abs(I[4]), Math.abs(I[8]), Number.MIN_VALUE);
      if (Math.abs(I[1] - I[3]) > 1e-9 * scale || Math.abs(I[2] - I[6]) > 1e-9 * scale || Math.abs(I[5] - I[7]) > 1e-9 * scale)
        throw new ResponseInputError(`${label('bodies', i, b?.id)}: inertia tensor is not symmetric`);
      // positive definite: leading principal minors > 0 (relative to scale)
      const a = I[0], bb = I[3], c = I[6], d = I[4], f = I[7], h = I[8];
      const m2 = a * d - bb * bb;
      const m3 = a * (d * h - f * f) - bb * (bb * h - f * c) + c * (bb * f - d * c);
      if (!(a > 0 && m2 > 1e-14 * scale * scale && m3 > 1e-14 * scale * scale * scale))
        throw new ResponseInputError(`${label('bodies', i, b?.id)}: inertia tensor is not positive definite`);
      for (let k = 0; k < 9; k++) this.inertia[9 * i + k] = I[k];
      this.mass[i] = m;
      this.dyn[i] = nd;
      this.dynBody[nd] = i;
      nd++;
    }
    this.nd = nd;
  }

  private checkBodyRef(idx: number, kind: string, i: number, id: string | undefined, allowWorld: boolean): void {
    if (!Number.isInteger(idx) || idx < (allowWorld ? -1 : 0) || idx >= this.nb)
      throw new ResponseInputError(`${label(kind, i, id)}: references a missing body (index ${idx}, ${this.nb} bodies)`);
  }

  protected ensureConstraints(nk: number): void {
    this.cA = growI(this.cA, nk);
    this.cB = growI(this.cB, nk);
    this.cRow0 = growI(this.cRow0, nk);
    this.cRows = growI(this.cRows, nk);
    this.cPrimary = growU(this.cPrimary, nk);
  }

  protected loadJoints(joints: readonly JointInput[]): void {
    const nj = joints.length;
    this.nj = nj;
    this.jointKind = growU(this.jointKind, nj);
    this.jointDirs = growF(this.jointDirs, 9 * nj);
    this.jointPoint = growF(this.jointPoint, 3 * nj);
    for (let j = 0; j < nj; j++) {
      const jt = joints[j];
      if (!jt) throw new ResponseInputError(`${label('joints', j, undefined)}: missing`);
      this.checkBodyRef(jt.bodyA, 'joints', j, jt?.id, true);
      this.checkBodyRef(jt.bodyB, 'joints', j, jt?.id, true);
      if (jt.bodyA === jt.bodyB) throw new ResponseInputError(`${label('joints', j, jt?.id)}: bodyA and bodyB are the same body (${jt.bodyA})`);
      if (!finite3(jt.point)) throw new ResponseInputError(`${label('joints', j, jt?.id)}: point must be a finite {x, y, z}`);
      this.cA[j] = jt.bodyA;
      this.cB[j] = jt.bodyB;
      this.jointPoint[3 * j] = jt.point.x;
      this.jointPoint[3 * j + 1] = jt.point.y;
      this.jointPoint[3 * j + 2] = jt.point.z;
      const D = this.jointDirs, o = 9 * j;
      if (jt.kind === 'ball' || jt.kind === 'revolute') {
        this.jointKind[j] = KIND_BALL;
        D.fill(0, o, o + 9);
        D[o] = 1;
        D[o + 4] = 1;
        D[o + 8] = 1;
      } else if (jt.kind === 'linearSlide' || jt.kind === 'planarSlide') {
        const ax = jt.kind === 'linearSlide' ? jt.axis : jt.normal;
        const field = jt.kind === 'linearSlide' ? 'axis' : 'normal';
        if (!finite3(ax)) throw new ResponseInputError(`${label('joints', j, jt?.id)}: ${field} must be a finite {x, y, z}`);
        const l = hypot3(ax.x, ax.y, ax.z);
        if (!(l > 1e-12)) throw new ResponseInputError(`${label('joints', j, jt?.id)}: ${field} has zero length`);
        const nx = ax.x / l, ny = ax.y / l, nz = ax.z / l;
        if (jt.kind === 'linearSlide') {
          this.jointKind[j] = KIND_LINEAR;
          // rows along the two directions perpendicular to the free axis
          tangentBasis(nx, ny, nz, D, o);
        } else {
          this.jointKind[j] = KIND_PLANAR;
          D[o] = nx;
          D[o + 1] = ny;
          D[o + 2] = nz;
        }
      } else {
        throw new ResponseInputError(`${label('joints', j, jt?.id)}: unknown kind '${String((jt as { kind: unknown }).kind)}'`);
      }
    }
  }

  protected loadContacts(contacts: readonly ContactInput[], bodies: readonly RigidBodyInput[], model: string): void {
    const nc = contacts.length, nj = this.nj;
    this.nc = nc;
    this.contactPoint = growF(this.contactPoint, 3 * nc);
    this.contactFrame = growF(this.contactFrame, 9 * nc);
    this.contactSlide = growF(this.contactSlide, 3 * nc);
    this.contactEps = growF(this.contactEps, nc);
    this.contactGamma = growF(this.contactGamma, nc);
    this.contactState = growU(this.contactState, nc);
    for (let c = 0; c < nc; c++) {
      const ct = contacts[c];
      if (!ct) throw new ResponseInputError(`${label('contacts', c, undefined)}: missing`);
      this.checkBodyRef(ct.bodyA, 'contacts', c, ct?.id, false);
      this.checkBodyRef(ct.bodyB, 'contacts', c, ct?.id, true);
      if (ct.bodyA === ct.bodyB) throw new ResponseInputError(`${label('contacts', c, ct?.id)}: bodyA and bodyB are the same body (${ct.bodyA})`);
      if (!finite3(ct.point)) throw new ResponseInputError(`${label('contacts', c, ct?.id)}: point must be a finite {x, y, z}`);
      if (!finite3(ct.normal)) throw new ResponseInputError(`${label('contacts', c, ct?.id)}: normal must be a finite {x, y, z}`);
      const l = hypot3(ct.normal.x, ct.normal.y, ct.normal.z);
      if (!(l > 1e-12)) throw new ResponseInputError(`${label('contacts', c, ct?.id)}: normal has zero length`);
      const nx = ct.normal.x / l, ny = ct.normal.y / l, nz = ct.normal.z / l;
      const f = this.contactFrame, o = 9 * c;
      f[o] = nx;
      f[o + 1] = ny;
      f[o + 2] = nz;
      tangentBasis(nx, ny, nz, f, o + 3);
      this.contactPoint[3 * c] = ct.point.x;
      this.contactPoint[3 * c + 1] = ct.point.y;
      this.contactPoint[3 * c + 2] = ct.point.z;
      const a = ct.bodyA, b = ct.bodyB;
      const eA = bodies[a].restitution ?? 0, gA = bodies[a].friction ?? 0;
      const eB = b >= 0 ? (bodies[b].restitution ?? 0) : eA;
      const gB = b >= 0 ? (bodies[b].friction ?? 0) : gA;
      const e = ct.restitution ?? Math.min(eA, eB);
      const g = ct.friction ?? Math.max(gA, gB);
      if (!(e >= 0 && e <= 1)) throw new ResponseInputError(`${label('contacts', c, ct?.id)}: restitution must be in [0, 1] (got ${e})`);
      if (!(g >= 0)) throw new ResponseInputError(`${label('contacts', c, ct?.id)}: friction must be ≥ 0 or Infinity (got ${g})`);
      this.contactEps[c] = e;
      const gamma = model === 'frictionless' ? 0 : model === 'rough' ? Infinity : g === Infinity ? Infinity : g * this.gammaScale;
      this.contactGamma[c] = gamma;
      const k = nj + c;
      this.cA[k] = a;
      this.cB[k] = b;
      this.cPrimary[k] = 0;
      const dynamicSide = this.dyn[a] >= 0 || (b >= 0 && this.dyn[b] >= 0);
      this.contactState[c] = !dynamicSide ? ContactState.Static : gamma > 0 ? ContactState.Stick : ContactState.Frictionless;
    }
  }

  // ---------------------------------------------------------------- output

  protected writeResult(out: ImpulseSolution, iterations: number): void {
    const nb = this.nb, nj = this.nj, nc = this.nc;
    out.resize(nb, nj, nc);
    out.iterations = iterations;
    out.frictionScale = 1;
    const x = this.x;
    for (let i = 0; i < nb; i++) {
      const d = this.dyn[i];
      if (d < 0) {
        for (let k = 0; k < 3; k++) {
          out.linearVelocity[3 * i + k] = this.vel[6 * i + k];
          out.angularVelocity[3 * i + k] = this.vel[6 * i + 3 + k];
        }
      } else {
        const o = this.nodeOff[d];
        for (let k = 0; k < 3; k++) {
          out.linearVelocity[3 * i + k] = x[o + k];
          out.angularVelocity[3 * i + k] = x[o + 3 + k];
        }
      }
    }
    for (let k = 0; k < nj + nc; k++) {
      const target = k < nj ? out.jointImpulse : out.contactImpulse;
      const o = 3 * (k < nj ? k : k - nj);
      let ix = 0, iy = 0, iz = 0;
      for (let r = this.cRow0[k]; r < this.cRow0[k] + this.cRows[k]; r++) {
        const l = this.rowLambda[r], g = 6 * r;
        ix += l * this.rowGA[g];
        iy += l * this.rowGA[g + 1];
        iz += l * this.rowGA[g + 2];
      }
      target[o] = ix;
      target[o + 1] = iy;
      target[o + 2] = iz;
    }
    for (let c = 0; c < nc; c++) out.contactState[c] = this.contactState[c];
    this.writeEnergies(out);
  }

  /** The dynamic bodies' kinetic energy before (the loaded velocities) and after (the solution's) into `out`. */
  protected writeEnergies(out: ImpulseSolution): void {
    let e0 = 0, e1 = 0;
    for (let d = 0; d < this.nd; d++) {
      const i = this.dynBody[d];
      e0 += this.energy(i, this.vel, 6 * i, this.vel, 6 * i + 3);
      e1 += this.energy(i, out.linearVelocity, 3 * i, out.angularVelocity, 3 * i);
    }
    out.kineticEnergyBefore = e0;
    out.kineticEnergyAfter = e1;
  }

  protected energy(i: number, lin: Float64Array, lo: number, ang: Float64Array, ao: number): number {
    const I = this.inertia, io = 9 * i;
    const wx = ang[ao], wy = ang[ao + 1], wz = ang[ao + 2];
    const ix = I[io] * wx + I[io + 3] * wy + I[io + 6] * wz;
    const iy = I[io + 1] * wx + I[io + 4] * wy + I[io + 7] * wz;
    const iz = I[io + 2] * wx + I[io + 5] * wy + I[io + 8] * wz;
    const vx = lin[lo], vy = lin[lo + 1], vz = lin[lo + 2];
    return 0.5 * this.mass[i] * (vx * vx + vy * vy + vz * vz) + 0.5 * (wx * ix + wy * iy + wz * iz);
  }

  /**
   * What the energy guards compare with the energy before: the kinetic
   * energy after minus the work W done on the dynamic bodies by the motion of
   * the keyframed ones (Σ impulse received · velocity of the keyframed
   * point) when W > 0. A keyframed bat swung into a ball adds energy by law;
   * what must not add any is the response itself (seen from the bat). Before,
   * the guards compared the plain energies, so a bat hit always "added
   * energy" and every guard scaled the friction to 0 after its full search
   * (the bat-and-ball sample: 428 linear solves in one call, the ball leaving
   * without the bat's friction). With W ≤ 0 (keyframed bodies at rest, or
   * taking energy out) this is the kinetic energy after, exactly, as before.
   */
  protected gained(out: ImpulseSolution): number {
    const nj = this.nj, nc = this.nc, P = this.contactPoint, J = this.jointPoint, vel = this.vel, com = this.com;
    let w = 0;
    for (let k = 0; k < nj + nc; k++) {
      const a = this.cA[k], b = this.cB[k];
      const aKf = a >= 0 && this.dyn[a] < 0, bKf = b >= 0 && this.dyn[b] < 0;
      if (aKf === bKf) continue;
      const aDyn = a >= 0 && this.dyn[a] >= 0, bDyn = b >= 0 && this.dyn[b] >= 0;
      if (!(aKf && bDyn) && !(bKf && aDyn)) continue;
      const imp = k < nj ? out.jointImpulse : out.contactImpulse, io = 3 * (k < nj ? k : k - nj);
      const pts = k < nj ? J : P;
      const kf = aKf ? a : b, sg = aKf ? -1 : 1; // impulse received by the dynamic side
      const vo = 6 * kf;
      const rx = pts[io] - com[3 * kf], ry = pts[io + 1] - com[3 * kf + 1], rz = pts[io + 2] - com[3 * kf + 2];
      const wx = vel[vo + 3], wy = vel[vo + 4], wz = vel[vo + 5];
      const vx = vel[vo] + wy * rz - wz * ry, vy = vel[vo + 1] + wz * rx - wx * rz, vz = vel[vo + 2] + wx * ry - wy * rx;
      w += sg * (imp[io] * vx + imp[io + 1] * vy + imp[io + 2] * vz);
    }
    // (only work put in counts: keyframed bodies that take energy out leave the plain E⁺ ≤ E⁻)
    return w > 0 ? out.kineticEnergyAfter - w : out.kineticEnergyAfter;
  }
}
