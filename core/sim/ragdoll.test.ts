import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SimWorld } from './world';
import { STATE_STRIDE, rotate } from './rigid';
import { buildRagdoll, ragdollPose } from './ragdoll';
import { SceneEvaluator } from '../anim/evaluate';
import { Rig } from '../skeleton/rig';
import { chainCharacter, mulberry32 } from '../document/fixtures';
import { parseDocument } from '../document/parse';
import { suggestMotion } from './suggest';
import { ballPropAt, linearTranslation, sceneDoc } from './testkit';
import type { ImpulseDocument } from '../document/types';

/** The 4-joint chain character, lying along +x at height 1 m, its root moving at (1, 2, 0) m/s and joint 1 bending. */
function chainDoc(): ImpulseDocument {
  const ch = chainCharacter('hero');
  ch.transform = { translation: [0, 1, 0], rotation: [0, 0, -Math.SQRT1_2, Math.SQRT1_2], scale: [1, 1, 1] };
  const doc = sceneDoc([], { frames: 60 });
  doc.characters = [ch];
  doc.clips[0].tracks = [
    { target: { kind: 'joint', character: 'hero', joint: 0 }, path: 'translation', interpolation: 'linear', times: [0, 1], values: [0, 0, 0, -2, 1, 0] },
    { target: { kind: 'joint', character: 'hero', joint: 1 }, path: 'rotation', interpolation: 'linear', times: [0, 1], values: [0, 0, 0, 1, 0, 0, Math.sin(0.4), Math.cos(0.4)] },
  ];
  return doc;
}

describe('ragdoll from a skinned character', () => {
  it('switching from keys to simulation does not jump: pose and body velocities match the curves at the start', () => {
    const doc = chainDoc();
    const t0 = 0.3;
    const ev = new SceneEvaluator(doc);
    const rd = buildRagdoll(doc.characters[0], 0, ev, t0);
    expect(rd.parts.length).toBeGreaterThanOrEqual(2); // joints that dominate skin triangles
    expect(rd.joints.length).toBe(rd.parts.length - 1);
    // pose recovered from the start bodies is the keyed pose
    const bp = new Float64Array(7 * rd.parts.length);
    rd.parts.forEach((p, k) => {
      const h = [0, 0, 0];
      rotate(h, 0, p.init.orientation, 0, p.head[0], p.head[1], p.head[2]);
      bp.set([p.init.position[0] + h[0], p.init.position[1] + h[1], p.init.position[2] + h[2], ...p.init.orientation], 7 * k);
    });
    const pose = ragdollPose(rd, bp, new Float64Array(40));
    const keyed = ev.characterLocalPose(0, t0, new Float64Array(40));
    for (let i = 0; i < 40; i++) expect(Math.abs(pose[i] - keyed[i]), `local pose component ${i}`).toBeLessThan(1e-9);
    // body velocities: the exact derivative against a central difference of the rig (reference)
    const rig = new Rig(doc.characters[0]);
    const d = 1e-6;
    const at = (t: number, j: number, local: number[]) => {
      ev.characterLocalPose(0, t, rig.local);
      rig.computeWorld();
      const m = rig.world, o = 16 * j;
      return [0, 1, 2].map((r) => m[o + r] * local[0] + m[o + 4 + r] * local[1] + m[o + 8 + r] * local[2] + m[o + 12 + r]);
    };
    rd.parts.forEach((p) => {
      // centre of mass in the joint's local frame
      ev.characterLocalPose(0, t0, rig.local);
      rig.computeWorld();
      const h = [0, 0, 0];
      rotate(h, 0, p.init.orientation, 0, -p.head[0], -p.head[1], -p.head[2]);
      // head → com offset in world, back into joint-local coordinates (unit scale here)
      const o = 16 * p.joint, m = rig.world;
      const local = [0, 1, 2].map((c) => m[o + 4 * c] * h[0] + m[o + 4 * c + 1] * h[1] + m[o + 4 * c + 2] * h[2]);
      const a = at(t0 + d, p.joint, local), b = at(t0 - d, p.joint, local);
      for (let c = 0; c < 3; c++) expect(Math.abs(p.init.linearVelocity![c] - (a[c] - b[c]) / (2 * d)), `part ${p.joint} velocity ${c}`).toBeLessThan(1e-6);
    });
  });

  it('falls under gravity with its joints held together, lands on the ground without passing through it', () => {
    const doc = chainDoc();
    const w = new SimWorld(doc, { dynamic: ['hero'], startTimeSec: 0.2 });
    let worstGap = 0, lowest = Infinity;
    const a = [0, 0, 0], b = [0, 0, 0];
    for (let i = 0; i < 240 * 1.5; i++) {
      w.step();
      const st = w.bodies.state;
      for (const j of w.joints) {
        rotate(a, 0, st, STATE_STRIDE * j.bodyA + 3, j.rA[0], j.rA[1], j.rA[2]);
        rotate(b, 0, st, STATE_STRIDE * j.bodyB + 3, j.rB[0], j.rB[1], j.rB[2]);
        const gap = Math.hypot(st[STATE_STRIDE * j.bodyA] + a[0] - st[STATE_STRIDE * j.bodyB] - b[0], st[STATE_STRIDE * j.bodyA + 1] + a[1] - st[STATE_STRIDE * j.bodyB + 1] - b[1], st[STATE_STRIDE * j.bodyA + 2] + a[2] - st[STATE_STRIDE * j.bodyB + 2] - b[2]);
        worstGap = Math.max(worstGap, gap);
      }
      for (let k = 0; k < w.bodies.count; k++) {
        const v = w.bodyVertices(k);
        for (let q = 1; q < v.length; q += 3) lowest = Math.min(lowest, v[q]);
      }
    }
    expect(worstGap, 'ball joints stay together').toBeLessThan(1e-3);
    expect(lowest, 'never below the ground').toBeGreaterThan(-1e-3);
    expect(w.impacts.some((i) => i.objects[1] === 'ground')).toBe(true);
    // it came down: every body within reach of the ground
    for (let k = 0; k < w.bodies.count; k++) expect(w.bodies.state[STATE_STRIDE * k + 1]).toBeLessThan(0.3);
  });

  it('the suggestion for a character is keys on its joints', () => {
    const s = suggestMotion(chainDoc(), { dynamic: ['hero'], fromFrame: 6, toFrame: 36 });
    expect(s.tracks.every((t) => t.target.kind === 'joint')).toBe(true);
    expect(s.tracks.some((t) => t.path === 'rotation')).toBe(true);
    expect(s.tracks.some((t) => t.target.kind === 'joint' && t.target.joint === 0 && t.path === 'translation')).toBe(true);
    expect(s.trajectory[0].kind).toBe('character');
  });

  it('mannequin: 20 bodies with masses from the skin volume (total 50–120 kg), cone limits respected', () => {
    const doc = parseDocument(readFileSync(new URL('../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));
    const ev = new SceneEvaluator(doc);
    const rd = buildRagdoll(doc.characters[0], 0, ev, 0.3);
    expect(rd.parts.length).toBe(20);
    const total = rd.parts.reduce((s, p) => s + p.init.massKg, 0);
    expect(total).toBeGreaterThan(50);
    expect(total).toBeLessThan(120);
    const w = new SimWorld(doc, { dynamic: ['Mannequin'], startTimeSec: 0.3 });
    const ca = [0, 0, 0], cb = [0, 0, 0];
    let worst = 0;
    for (let i = 0; i < 60; i++) {
      w.step();
      const st = w.bodies.state;
      for (const j of w.joints) {
        rotate(ca, 0, st, STATE_STRIDE * j.bodyA + 3, j.coneAxisA[0], j.coneAxisA[1], j.coneAxisA[2]);
        rotate(cb, 0, st, STATE_STRIDE * j.bodyB + 3, j.axisB[0], j.axisB[1], j.axisB[2]);
        const ang = Math.acos(Math.min(1, ca[0] * cb[0] + ca[1] * cb[1] + ca[2] * cb[2]));
        worst = Math.max(worst, ang - j.coneLimitRad);
      }
    }
    // the limits act on velocities only (no positional projection), so they drift a little
    expect(worst, 'cone limits (velocity level) hold to within 0.25 rad').toBeLessThan(0.25);
  });
});

describe('no tunnelling through a character', () => {
  it("seed 5: fast balls never pass through a moving character's limb", () => {
    const rand = mulberry32(5);
    for (let trial = 0; trial < 6; trial++) {
      const ch = chainCharacter('hero'); // skinned column: |x|, |z| ≤ 0.1, 0 ≤ y ≤ 1.5 around joint 0
      const speed = 20 + 80 * rand();
      const vz = (rand() - 0.5) * 0.3 * speed, vy = (rand() - 0.5) * 0.3 * speed;
      const limbV = (rand() - 0.5) * 6;
      const doc = sceneDoc([ballPropAt('ball', 0.04, [-1, 0.75, 0], { restitution: 0.7, friction: 0.2 }, 1)], { groundY: null, gravity: [0, 0, 0] });
      doc.characters = [ch];
      doc.clips[0].tracks = [
        { target: { kind: 'joint', character: 'hero', joint: 0 }, path: 'translation', interpolation: 'linear', times: [0, 1], values: [0, 0, 0, limbV, 0, 0] },
        linearTranslation('ball', 0, [-1, 0.75, 0], 1, [-1 + speed, 0.75 + vy, vz]),
      ];
      const w = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 });
      const steps = Math.round((1.5 / Math.max(speed, 1)) * 240) + 10;
      for (let i = 0; i < steps; i++) {
        w.step();
        const cx = limbV * w.timeSec;
        const v = w.bodyVertices(0);
        for (let q = 0; q < v.length; q += 3) {
          const inside = Math.abs(v[q] - cx) < 0.1 - 1e-6 && Math.abs(v[q + 2]) < 0.1 - 1e-6 && v[q + 1] > 1e-6 && v[q + 1] < 1.5 - 1e-6;
          expect(inside, `trial ${trial} (speed ${speed.toFixed(1)}): ball vertex inside the limb at t=${w.timeSec.toFixed(4)}`).toBe(false);
        }
      }
      if (Math.abs(vy) < 0.2 * speed && Math.abs(vz) < 0.1 * speed) expect(w.impacts.length, `trial ${trial}: hit the limb`).toBeGreaterThanOrEqual(1);
    }
  });
});
