import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImpulseDocument, Track } from '../../document/types';
import { importGltf } from '../../io/importGltf';
import { SimWorld } from '../../sim/world';
import { STATE_STRIDE } from '../../sim/rigid';
import { boxPropAt, linearTranslation, sceneDoc } from '../../sim/testkit';
import type { ImpulseSolver } from '../solver';

/** The simulator's solver answering with Coulomb's sliding friction (until the simulator passes slidingFriction 'coulomb' itself). */
function coulombSliding(w: SimWorld): SimWorld {
  (w as unknown as { solver: ImpulseSolver }).solver.slidingFriction = 'coulomb';
  return w;
}

/**
 * Repro (core/sim/repro/ragdoll-rest, second case), now for the solver: the
 * mannequin dropped alone kept its left hand spinning on the ground at
 * 0.15 rad/s for ever. The paper's sliding rule (the impulse keeps the
 * direction of the sticking impulse) left one of the hand's ground contacts
 * with friction pushing along its slip after an active-set re-solve, and the
 * simulator worked around it by solving such contacts again as sticking
 * (`frictionRounds`, up to 3 rounds). The solver now solves those contacts'
 * friction by Coulomb's law (SolveOptions.slidingFriction 'coulomb',
 * ImpulseSolver frictionLaw; here set on the simulator's solver), so the
 * simulator runs with `frictionRounds: 0` (its answer as the solver gives it).
 * Law (as in the sim's repro): with sleeping off, from 6 s to 8 s after the
 * drop no part turns faster than 0.05 rad/s or drifts faster than 5 mm/s.
 * And a box sliding on the ground still stops after v²/(2 μ g).
 */
async function ragdollAlone(): Promise<ImpulseDocument> {
  const url = new URL('../../../assets/characters/mannequin.glb', import.meta.url);
  const imported = await importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb');
  const walk = imported.clips.find((c) => c.name === 'walk')!;
  const doc = sceneDoc([], { frames: 120, fps: 30 });
  const ch = { ...imported.characters[0], id: 'ragdoll', name: 'ragdoll', mode: 'dynamic' as const };
  doc.characters = [ch];
  doc.clips[0].tracks = walk.tracks.map((t): Track => (t.target.kind === 'joint' ? { ...t, target: { ...t.target, character: 'ragdoll' } } : t));
  return doc;
}

const SPIN_FROM_SEC = 6;
const SPIN_TO_SEC = 8;
const SPIN_RADPS = 0.05;
const DRIFT_MPS = 0.005;

describe('repro: sliding friction that fed a ragdoll hand\'s spin, without the simulator\'s re-solves (frictionRounds 0)', () => {
  for (const startTimeSec of [0, 0.5]) {
    it(`dropped from the walk pose at ${startTimeSec} s, sleeping off: from ${SPIN_FROM_SEC} s to ${SPIN_TO_SEC} s no part turns faster than ${SPIN_RADPS} rad/s or drifts faster than ${DRIFT_MPS} m/s`, async () => {
      const doc = await ragdollAlone();
      const w = coulombSliding(new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec, sleepTimeSec: 1e9, frictionRounds: 0 }));
      const B = w.bodies, st = B.state, h = w.stepSec, gy = B.gravity[1];
      const parts = w.objects[0].ragdoll!.parts.map((p) => doc.characters[0].skeleton.joints[p.joint].name);
      const om = new Float64Array(3);
      let worstSpin = 0, spinPart = '', worstDrift = 0, driftPart = '';
      while (w.timeSec < startTimeSec + SPIN_TO_SEC - 1e-9) {
        w.step();
        if (w.timeSec < startTimeSec + SPIN_FROM_SEC) continue;
        for (let i = 0; i < B.count; i++) {
          B.angularVelocity(st, i, om);
          const spin = Math.hypot(om[0], om[1], om[2]);
          const s = STATE_STRIDE * i, im = B.invMass[i];
          // drift velocity (mid-step): without the last half kick of gravity
          const drift = Math.hypot(st[s + 7] * im, st[s + 8] * im - 0.5 * h * gy, st[s + 9] * im);
          if (spin > worstSpin) [worstSpin, spinPart] = [spin, `${parts[i]} at ${(w.timeSec - startTimeSec).toFixed(2)} s`];
          if (drift > worstDrift) [worstDrift, driftPart] = [drift, `${parts[i]} at ${(w.timeSec - startTimeSec).toFixed(2)} s`];
        }
      }
      expect(w.stats.frictionResolves, 're-solves by the simulator (frictionRounds 0)').toBe(0);
      expect(worstSpin, `fastest turning part (rad/s): ${spinPart}`).toBeLessThan(SPIN_RADPS);
      expect(worstDrift, `fastest drifting part (m/s): ${driftPart}`).toBeLessThan(DRIFT_MPS);
    }, 240_000);
  }

  it('a box sliding on the ground with speed v (μ 0.4, 3 m/s; four corner contacts) still stops after v²/(2 μ g), with frictionRounds 0', () => {
    const v0 = 3, mu = 0.4, G = 9.81;
    const doc = sceneDoc([boxPropAt('box', [0.2, 0.1, 0.2], [0, 0.1, 0], { friction: mu, restitution: 0 })], {
      tracks: [linearTranslation('box', 0, [-v0, 0.1, 0], 1, [0, 0.1, 0])],
    });
    const w = coulombSliding(new SimWorld(doc, { dynamic: ['box'], startTimeSec: 0.5, frictionRounds: 0 }));
    const x0 = w.bodies.state[0];
    while (w.timeSec < 0.5 + 2 - 1e-9) w.step();
    const d = w.bodies.state[0] - x0;
    const expected = (v0 * v0) / (2 * mu * G);
    expect(Math.abs(d - expected) / expected, `slid ${d} m, expected ${expected} m`).toBeLessThan(2e-3);
    expect(Math.abs(w.bodies.state[1] - 0.1), 'stays on the ground').toBeLessThan(1e-5);
  });
});
