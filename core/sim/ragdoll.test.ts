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

/**
 * Twist of joint j (rad): the relative rotation Δ = qRel0⁻¹ q_A⁻¹ q_B as a
 * matrix, its swing (the shortest rotation taking the child axis a to Δa)
 * removed, and the angle the rest turns a perpendicular vector about a.
 */
function twistOf(st: Float64Array, j: { bodyA: number; bodyB: number; axisB: Float64Array; qRel0: Float64Array }): number {
  const conj = (q: number[]) => [-q[0], -q[1], -q[2], q[3]];
  const mul = (a: number[], b: number[]) => [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
    a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
  const rot = (q: number[], v: number[]) => mul(mul(q, [v[0], v[1], v[2], 0]), conj(q)).slice(0, 3);
  const qa = Array.from(st.subarray(STATE_STRIDE * j.bodyA + 3, STATE_STRIDE * j.bodyA + 7));
  const qb = Array.from(st.subarray(STATE_STRIDE * j.bodyB + 3, STATE_STRIDE * j.bodyB + 7));
  const delta = mul(conj(Array.from(j.qRel0)), mul(conj(qa), qb));
  const a = Array.from(j.axisB);
  const da = rot(delta, a);
  // swing: axis a × Δa, angle between them
  const cx = a[1] * da[2] - a[2] * da[1], cy = a[2] * da[0] - a[0] * da[2], cz = a[0] * da[1] - a[1] * da[0];
  const sn = Math.hypot(cx, cy, cz), cs = a[0] * da[0] + a[1] * da[1] + a[2] * da[2];
  const ang = Math.atan2(sn, cs);
  const swing = sn > 1e-12 ? [(cx / sn) * Math.sin(ang / 2), (cy / sn) * Math.sin(ang / 2), (cz / sn) * Math.sin(ang / 2), Math.cos(ang / 2)] : [0, 0, 0, 1];
  const twist = mul(conj(swing), delta);
  const u0 = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = u0[0] * a[0] + u0[1] * a[1] + u0[2] * a[2];
  const u = [u0[0] - d * a[0], u0[1] - d * a[1], u0[2] - d * a[2]];
  const tu = rot(twist, u);
  const x = u[1] * tu[2] - u[2] * tu[1], y = u[2] * tu[0] - u[0] * tu[2], z = u[0] * tu[1] - u[1] * tu[0];
  return Math.atan2(x * a[0] + y * a[1] + z * a[2], u[0] * tu[0] + u[1] * tu[1] + u[2] * tu[2]);
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
    // no impact repeated at the same time until the sub-step budget runs out (see repro/ragdoll-ground-loop)
    expect(w.stats.budgetExceeded, 'steps whose sub-step budget ran out').toBe(0);
    expect(w.stats.impactEvents, 'impact events in 1.5 s').toBeLessThan(60);
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
    expect(s.stats.maxPositionError, 'key reduction error of the root translation (m)').toBeLessThanOrEqual(1.0001e-3);
    expect(s.stats.maxAngleError, 'key reduction error of the joint rotations (rad)').toBeLessThanOrEqual(2.0001e-3);
  });

  it('twist and cone limits: a twisting, bending chain in zero gravity stays within them (position-level correction), linear momentum kept', () => {
    const run = (twistLimitRad: number) => {
      const ch = chainCharacter('hero');
      const doc = sceneDoc([], { frames: 60, groundY: null, gravity: [0, 0, 0] });
      doc.characters = [ch];
      const s3 = Math.sin(1.5), c3 = Math.cos(1.5);
      doc.clips[0].tracks = [
        // joint 1 spins about its own axis (y) at 3 rad/s, joint 2 bends about z at 4 rad/s
        { target: { kind: 'joint', character: 'hero', joint: 1 }, path: 'rotation', interpolation: 'linear', times: [0, 1], values: [0, 0, 0, 1, 0, s3, 0, c3] },
        { target: { kind: 'joint', character: 'hero', joint: 2 }, path: 'rotation', interpolation: 'linear', times: [0, 1], values: [0, 0, 0, 1, 0, 0, Math.sin(2), Math.cos(2)] },
      ];
      const w = new SimWorld(doc, { dynamic: ['hero'], startTimeSec: 0.05, ragdoll: { twistLimitRad, coneLimitRad: 0.3 } });
      const p0 = [0, 0, 0];
      const st = w.bodies.state;
      for (let i = 0; i < w.bodies.count; i++) for (let c = 0; c < 3; c++) p0[c] += st[STATE_STRIDE * i + 7 + c];
      const ca = [0, 0, 0], cb = [0, 0, 0];
      let twist = 0, cone = 0, dp = 0;
      for (let k = 0; k < 240; k++) {
        w.step();
        for (const j of w.joints) {
          twist = Math.max(twist, Math.abs(twistOf(st, j)) - j.twistLimitRad);
          rotate(ca, 0, st, STATE_STRIDE * j.bodyA + 3, j.coneAxisA[0], j.coneAxisA[1], j.coneAxisA[2]);
          rotate(cb, 0, st, STATE_STRIDE * j.bodyB + 3, j.axisB[0], j.axisB[1], j.axisB[2]);
          cone = Math.max(cone, Math.acos(Math.min(1, ca[0] * cb[0] + ca[1] * cb[1] + ca[2] * cb[2])) - j.coneLimitRad);
        }
        const p = [0, 0, 0];
        for (let i = 0; i < w.bodies.count; i++) for (let c = 0; c < 3; c++) p[c] += st[STATE_STRIDE * i + 7 + c];
        dp = Math.max(dp, Math.hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]));
      }
      return { twist, cone, dp, joints: w.joints.length };
    };
    const limited = run(0.3);
    expect(limited.joints).toBeGreaterThanOrEqual(1);
    expect(limited.twist, 'twist beyond its 0.3 rad limit (rad)').toBeLessThan(0.02);
    expect(limited.cone, 'swing beyond its 0.3 rad cone (rad)').toBeLessThan(0.02);
    expect(limited.dp, 'total linear momentum change (N·s): joint impulses and corrections are internal').toBeLessThan(1e-9);
    // the same motion without a twist limit goes well past 0.3 rad: the limit is what holds it
    const free = run(Math.PI);
    expect(free.twist + Math.PI - 0.3, 'free twist exceeds 0.3 rad').toBeGreaterThan(0.3);
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
    let worst = 0, worstTwist = 0, gap = 0;
    for (let i = 0; i < 60; i++) {
      w.step();
      const st = w.bodies.state;
      for (const j of w.joints) {
        rotate(ca, 0, st, STATE_STRIDE * j.bodyA + 3, j.coneAxisA[0], j.coneAxisA[1], j.coneAxisA[2]);
        rotate(cb, 0, st, STATE_STRIDE * j.bodyB + 3, j.axisB[0], j.axisB[1], j.axisB[2]);
        const ang = Math.acos(Math.min(1, ca[0] * cb[0] + ca[1] * cb[1] + ca[2] * cb[2]));
        worst = Math.max(worst, ang - j.coneLimitRad);
        worstTwist = Math.max(worstTwist, Math.abs(twistOf(st, j)) - j.twistLimitRad);
        rotate(ca, 0, st, STATE_STRIDE * j.bodyA + 3, j.rA[0], j.rA[1], j.rA[2]);
        rotate(cb, 0, st, STATE_STRIDE * j.bodyB + 3, j.rB[0], j.rB[1], j.rB[2]);
        for (let c = 0; c < 3; c++) gap = Math.max(gap, Math.abs(st[STATE_STRIDE * j.bodyA + c] + ca[c] - st[STATE_STRIDE * j.bodyB + c] - cb[c]));
      }
    }
    expect(worst, 'cone limits hold to within 0.1 rad').toBeLessThan(0.1);
    expect(worstTwist, 'twist limits hold to within 0.1 rad').toBeLessThan(0.1);
    // the ground projection after a step lifts single parts; the lift / anchor sweeps leave a few mm at most
    expect(gap, 'ball joints stay together (m)').toBeLessThan(5e-3);
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
