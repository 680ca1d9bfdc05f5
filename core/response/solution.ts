/**
 * `ImpulseSolution`, the result of a solve (flat arrays, accessors that fill structural vectors), and
 * copying one into another (the guards and bisections keep their best result).
 */
import type { Vec3Like } from '../math';
import { CONTACT_STATE_NAMES } from './types';
import type { ContactStateValue } from './types';
import { F64 } from './flat';

/** Result of a solve. Arrays are flat (3 numbers per body / contact / joint); accessors fill structural vectors. */
export class ImpulseSolution {
  bodyCount = 0;
  jointCount = 0;
  contactCount = 0;
  /** New velocity of each body's centre of mass (keyframed bodies: the input, unchanged). */
  linearVelocity = F64(0);
  /** New angular velocity of each body. */
  angularVelocity = F64(0);
  /** Impulse on body A of each contact (B receives the opposite), world frame, N·s. */
  contactImpulse = F64(0);
  /** Final `ContactState` of each contact. */
  contactState = new Uint8Array(0);
  /** Impulse on body A of each joint from body B (the paper's R_AB), world frame. */
  jointImpulse = F64(0);
  /** Number of linear solves (1 + one per change of the contact states). */
  iterations = 0;
  /**
   * Kinetic energy of the dynamic bodies before and after, J. After ≤ before
   * for ε ≤ 1 except in one known case: several simultaneous contacts sliding
   * under the paper's friction rule (sliding impulse kept in the direction of
   * the sticking impulse) can add a little energy. Callers may check.
   */
  kineticEnergyBefore = 0;
  kineticEnergyAfter = 0;
  /**
   * 1 normally; below 1 when several sliding contacts would have added energy
   * and their friction was scaled down by this factor to prevent it. (Energy
   * the motion of keyframed bodies puts in — a swung bat — is allowed: the
   * guards compare E⁺ − W with E⁻, W the work of the keyframed points on the
   * dynamic bodies when positive.)
   */
  frictionScale = 1;
  /**
   * 1 normally; below 1 when the restitution impulses ε_c R_c of contacts
   * with different ε would have added energy and were scaled down by this
   * factor (see `RestitutionModel` 'paper').
   */
  restitutionScale = 1;

  resize(nb: number, nj: number, nc: number): void {
    this.bodyCount = nb;
    this.jointCount = nj;
    this.contactCount = nc;
    if (this.linearVelocity.length !== 3 * nb) {
      this.linearVelocity = F64(3 * nb);
      this.angularVelocity = F64(3 * nb);
    }
    if (this.jointImpulse.length !== 3 * nj) this.jointImpulse = F64(3 * nj);
    if (this.contactImpulse.length !== 3 * nc) {
      this.contactImpulse = F64(3 * nc);
      this.contactState = new Uint8Array(nc);
    }
  }
  getLinearVelocity<T extends Vec3Like>(body: number, out: T): T {
    return read3(this.linearVelocity, body, out);
  }
  getAngularVelocity<T extends Vec3Like>(body: number, out: T): T {
    return read3(this.angularVelocity, body, out);
  }
  getContactImpulse<T extends Vec3Like>(contact: number, out: T): T {
    return read3(this.contactImpulse, contact, out);
  }
  getJointImpulse<T extends Vec3Like>(joint: number, out: T): T {
    return read3(this.jointImpulse, joint, out);
  }
  getContactState(contact: number): ContactStateValue {
    return this.contactState[contact] as ContactStateValue;
  }
  contactStateName(contact: number): (typeof CONTACT_STATE_NAMES)[number] {
    return CONTACT_STATE_NAMES[this.contactState[contact]];
  }
}

export function copySolution(from: ImpulseSolution, to: ImpulseSolution): void {
  to.resize(from.bodyCount, from.jointCount, from.contactCount);
  to.linearVelocity.set(from.linearVelocity);
  to.angularVelocity.set(from.angularVelocity);
  to.contactImpulse.set(from.contactImpulse);
  to.contactState.set(from.contactState);
  to.jointImpulse.set(from.jointImpulse);
  to.iterations = from.iterations;
  to.kineticEnergyBefore = from.kineticEnergyBefore;
  to.kineticEnergyAfter = from.kineticEnergyAfter;
  to.frictionScale = from.frictionScale;
  to.restitutionScale = from.restitutionScale;
}

function read3<T extends Vec3Like>(a: Float64Array, i: number, out: T): T {
  out.x = a[3 * i];
  out.y = a[3 * i + 1];
  out.z = a[3 * i + 2];
  return out;
}
