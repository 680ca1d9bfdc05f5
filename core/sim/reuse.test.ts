import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImpulseDocument } from '../document/types';
import { SimWorld } from './world';
import { ragdollWalkDoc, firstDifference } from './testkit';

/**
 * Work made once and reused where it is the same numbers (twelfth round of
 * core/sim/README.md), checked against the same world making it every time:
 * the states must be the same bit for bit after every step.
 *
 * - dampJoints makes each body's I_world⁻¹ columns once per call (the
 *   orientations do not change inside it). The reference forgets them before
 *   every joint, so each joint makes both bodies' columns as before.
 */

interface Internals {
  dampStamp: Float64Array;
  dampInvInertia: (st: Float64Array, i: number, stamp: number) => number;
}

const internals = (w: SimWorld): Internals => w as unknown as Internals;

const ragdollDrop = (heightM: number): Promise<ImpulseDocument> => ragdollWalkDoc(new Uint8Array(readFileSync(new URL('../../assets/characters/mannequin.glb', import.meta.url))), heightM);

describe('work made once and reused', () => {
  it('dampJoints: each body\'s inverse-inertia columns made once per call give the states of making them per joint, bit for bit (the ragdoll dropped from 1 m)', async () => {
    const doc = await ragdollDrop(1);
    const reuse = new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0 });
    const full = new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0 });
    const F = internals(full), make = F.dampInvInertia;
    F.dampInvInertia = function (this: Internals, st: Float64Array, i: number, stamp: number): number {
      this.dampStamp.fill(0);
      return make.call(this, st, i, stamp);
    };
    // the asks answered from columns already made in the same call
    let reused = 0;
    const R = internals(reuse), makeR = R.dampInvInertia;
    R.dampInvInertia = function (this: Internals, st: Float64Array, i: number, stamp: number): number {
      if (this.dampStamp[i] === stamp) reused++;
      return makeR.call(this, st, i, stamp);
    };
    expect(firstDifference(reuse, full, 240)).toBe(-1);
    expect(reused).toBeGreaterThan(1000);
  }, 60_000);
});
