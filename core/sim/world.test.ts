import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SimWorld, jointBoundedBox, slotBounds } from './world';
import { SceneEvaluator } from '../anim/evaluate';
import { Rig } from '../skeleton/rig';
import { computeSkinMatrices, dominantJointPerTriangle, skinPositions } from '../skeleton/skinning';
import { parseDocument } from '../document/parse';
import { STATE_STRIDE } from './rigid';
import { ballPropAt, boxPropAt, linearTranslation, octahedronProp, sceneDoc } from './testkit';
import { mulberry32 } from '../document/fixtures';

// Physics laws and closed forms for the simulated world (fixed step 240 Hz).

const G = 9.81;

function run(w: SimWorld, seconds: number, each?: (w: SimWorld) => void): void {
  const n = Math.round(seconds / w.stepSec);
  for (let i = 0; i < n; i++) {
    w.step();
    each?.(w);
  }
}

describe('free flight', () => {
  it('a thrown ball follows the parabola x0 + v0 t + g t²/2 to 1e-6 m', () => {
    const v0 = [3, 7, -2];
    const doc = sceneDoc([ballPropAt('ball', 0.1, [0, 2, 0])], { groundY: null, tracks: [linearTranslation('ball', 0, [0, 2, 0], 1, [v0[0], 2 + v0[1], v0[2]])] });
    const w = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 });
    // start state: at t = 0 on the track, with the track's exact velocity
    const x0 = [w.bodies.state[0], w.bodies.state[1], w.bodies.state[2]];
    let worst = 0;
    run(w, 1.5, () => {
      const t = w.timeSec;
      const s = w.bodies.state;
      const expected = [x0[0] + v0[0] * t, x0[1] + v0[1] * t - 0.5 * G * t * t, x0[2] + v0[2] * t];
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(s[k] - expected[k]));
    });
    expect(worst, `largest deviation from the parabola ${worst} m`).toBeLessThan(1e-6);
  });

  it('a spinning asymmetric body keeps its kinetic energy and angular momentum (no gravity, 5 s)', () => {
    const doc = sceneDoc([boxPropAt('brick', [0.3, 0.1, 0.05], [0, 0, 0], { massKg: 2 })], { groundY: null, gravity: [0, 0, 0] });
    const w = new SimWorld(doc, { dynamic: ['brick'], startTimeSec: 0 });
    // spin about an axis near the unstable middle axis
    const s = w.bodies.state;
    const L0 = [0.02, 0.3, 0.01];
    s.set(L0, 10);
    const E0 = w.kineticEnergy();
    let worstE = 0, worstL = 0;
    run(w, 5, () => {
      worstE = Math.max(worstE, Math.abs(w.kineticEnergy() - E0) / E0);
      for (let k = 0; k < 3; k++) worstL = Math.max(worstL, Math.abs(s[10 + k] - L0[k]));
    });
    expect(worstL, 'angular momentum (world) is conserved exactly').toBeLessThan(1e-14);
    expect(worstE, `relative energy error ${worstE}`).toBeLessThan(1e-3);
  });
});

describe('ground contact', () => {
  for (const eps of [0.3, 0.5, 0.8]) {
    it(`a ball bouncing on the ground: successive apex heights in the ratio ε² (ε = ${eps})`, () => {
      const doc = sceneDoc([octahedronProp('ball', 0.1, [0, 1.1, 0], { restitution: eps, friction: 0 })]);
      const w = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 });
      const apex: number[] = [];
      let prev = w.bodies.state[1], rising = false;
      run(w, 3, () => {
        const y = w.bodies.state[1];
        if (rising && y < prev) apex.push(prev - 0.1); // lowest vertex height at the apex
        rising = y > prev;
        prev = y;
      });
      expect(apex.length).toBeGreaterThanOrEqual(3);
      // the discrete apex is the highest sample: within g h²/8 of the true one
      for (let k = 0; k < 3; k++) {
        const h0 = k === 0 ? 1 : apex[k - 1];
        expect(Math.abs(apex[k] / h0 - eps * eps), `apex ${k}: ${apex[k]} after ${h0}`).toBeLessThan(2e-4 / h0 + 1e-4);
      }
      // every impact reports the pre- and post-impact velocities in the ratio −ε
      for (const im of w.impacts.slice(0, 3)) {
        expect(im.objects).toEqual(['ball', 'ground']);
        expect(im.postVelocity[1] / im.preVelocity[1]).toBeCloseTo(-eps, 9);
      }
    });
  }

  it('comes to rest on the ground without sinking or jitter, then sleeps', () => {
    const doc = sceneDoc([boxPropAt('box', [0.2, 0.1, 0.15], [0, 0.5, 0], { restitution: 0.3, friction: 0.5 }, [0.1, 0.2, 0.05, 0.97])]);
    const w = new SimWorld(doc, { dynamic: ['box'], startTimeSec: 0 });
    run(w, 3);
    const ys: number[] = [];
    run(w, 1, (w) => ys.push(w.bodies.state[1]));
    const v = w.bodyVertices(0);
    let minY = Infinity;
    for (let i = 1; i < v.length; i += 3) minY = Math.min(minY, v[i]);
    expect(minY, 'lowest vertex on the ground').toBeGreaterThan(-1e-5);
    expect(minY).toBeLessThan(1e-4);
    expect(Math.max(...ys) - Math.min(...ys), 'no jitter while resting').toBeLessThan(1e-9);
    expect(w.awake[0], 'asleep').toBe(0);
  });

  it('a box sliding with speed v stops after v²/(2 μ g)', () => {
    const v0 = 3, mu = 0.4;
    const doc = sceneDoc([boxPropAt('box', [0.2, 0.1, 0.2], [0, 0.1, 0], { friction: mu, restitution: 0 })], {
      tracks: [linearTranslation('box', 0, [-v0, 0.1, 0], 1, [0, 0.1, 0])],
    });
    const w = new SimWorld(doc, { dynamic: ['box'], startTimeSec: 0.5 });
    const x0 = w.bodies.state[0];
    run(w, 2);
    const d = w.bodies.state[0] - x0;
    const expected = (v0 * v0) / (2 * mu * G);
    expect(Math.abs(d - expected) / expected, `slid ${d} m, expected ${expected} m`).toBeLessThan(2e-3);
    expect(Math.abs(w.bodies.state[1] - 0.1), 'stays on the ground').toBeLessThan(1e-5);
  });
});

describe('keyframed bodies have infinite mass', () => {
  for (const [eps, u, V] of [[0.5, -2, 5], [1, 0, 8], [0, 1, 10]] as const) {
    it(`a ball hit by a keyframed bat leaves with V + ε (V − u) (ε=${eps}, u=${u}, V=${V})`, () => {
      // bat: a box moving along +x at V; ball: an octahedron with a vertex facing the bat, moving at u
      const bat = boxPropAt('bat', [0.05, 0.3, 0.3], [-1, 1, 0], { mode: 'keyframed', restitution: 1, friction: 0 });
      const ball = octahedronProp('ball', 0.1, [0, 1, 0], { restitution: eps, friction: 0 });
      const doc = sceneDoc([bat, ball], {
        groundY: null,
        gravity: [0, 0, 0],
        tracks: [linearTranslation('bat', 0, [-1, 1, 0], 1, [-1 + V, 1, 0]), linearTranslation('ball', 0, [0, 1, 0], 1, [u, 1, 0])],
      });
      const w = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 });
      run(w, 0.5);
      const vx = w.bodies.state[7] / w.bodies.massKg[0];
      expect(w.impacts.length).toBeGreaterThanOrEqual(1);
      expect(vx).toBeCloseTo(V + eps * (V - u), 9);
      expect(Math.hypot(w.bodies.state[8], w.bodies.state[9], w.bodies.state[10], w.bodies.state[11], w.bodies.state[12]), 'no sideways or angular momentum (float32 mesh)').toBeLessThan(1e-7);
      const im = w.impacts[0];
      expect(im.objects).toEqual(['ball', 'bat']);
      expect(im.preVelocity[0]).toBeCloseTo(u, 12);
      expect(im.postVelocity[0]).toBeCloseTo(V + eps * (V - u), 9);
      // the impact happens when the bat's face reaches the ball's vertex: (0.85 + V t) = u t - 0.1 ... solved for t
      const tContact = (1 - 0.05 - 0.1) / (V - u);
      expect(im.timeSec).toBeCloseTo(tContact, 9);
    });
  }
});

describe('no tunnelling', () => {
  it('seed 11: fast balls (10–120 m/s, random directions) never pass through a 5 mm keyframed wall', () => {
    const rand = mulberry32(11);
    for (let trial = 0; trial < 12; trial++) {
      const speed = 10 + 110 * rand();
      const a = (rand() - 0.5) * 1.6, b = (rand() - 0.5) * 1.6;
      const dir = [Math.cos(a) * Math.cos(b), Math.sin(a), Math.cos(a) * Math.sin(b)];
      const wallX = 0.5;
      const wall = boxPropAt('wall', [0.0025, 3, 3], [wallX, 1.5, 0], { mode: 'keyframed', restitution: 0.5 });
      const wallV = (rand() - 0.5) * 4; // the wall moves too
      const ball = ballPropAt('ball', 0.05, [0, 1.5, 0], { restitution: 0.6, friction: 0.3 }, 1);
      const doc = sceneDoc([wall, ball], {
        groundY: null,
        tracks: [
          linearTranslation('wall', 0, [wallX, 1.5, 0], 1, [wallX + wallV, 1.5, 0]),
          linearTranslation('ball', 0, [0, 1.5, 0], 1, [speed * dir[0], 1.5 + speed * dir[1], speed * dir[2]]),
        ],
      });
      const w = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 });
      run(w, 0.3, (w) => {
        const v = w.bodyVertices(0);
        const front = wallX + wallV * w.timeSec - 0.0025;
        for (let i = 0; i < v.length; i += 3)
          if (Math.abs(v[i + 1] - 1.5) < 3 && Math.abs(v[i + 2]) < 3)
            expect(v[i], `trial ${trial} (speed ${speed.toFixed(1)} m/s) at t=${w.timeSec.toFixed(4)}: ball vertex x beyond the wall face ${front}`).toBeLessThanOrEqual(front + 1e-6);
      });
      expect(w.impacts.length, `trial ${trial}: the ball hit the wall`).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('islands and body-part volumes', () => {
  it('separate groups are solved as separate islands: a ball in free flight beside bouncing crates keeps its parabola, a resting crate stays put', () => {
    const crate = boxPropAt('crateA', [0.15, 0.1, 0.2], [0, 0.4, 0], { restitution: 0.4, friction: 0.6, massKg: 3 }, [0.2, 0.1, 0, 0.97]);
    const resting = boxPropAt('crateB', [0.1, 0.1, 0.1], [3, 0.1, 0], { restitution: 0.2, friction: 0.8, massKg: 1 });
    const ball = ballPropAt('ballC', 0.1, [-3, 8, 0], { massKg: 0.5 });
    const w = new SimWorld(sceneDoc([crate, resting, ball]), { dynamic: ['crateA', 'crateB', 'ballC'], startTimeSec: 0 });
    const x0 = [w.bodies.state[2 * STATE_STRIDE], w.bodies.state[2 * STATE_STRIDE + 1], w.bodies.state[2 * STATE_STRIDE + 2]];
    const r0 = [w.bodies.state[STATE_STRIDE], w.bodies.state[STATE_STRIDE + 1], w.bodies.state[STATE_STRIDE + 2]];
    let parabola = 0, drift = 0;
    run(w, 1.2, () => {
      const s = w.bodies.state, t = w.timeSec;
      parabola = Math.max(parabola, Math.abs(s[2 * STATE_STRIDE] - x0[0]), Math.abs(s[2 * STATE_STRIDE + 1] - (x0[1] - 0.5 * G * t * t)), Math.abs(s[2 * STATE_STRIDE + 2] - x0[2]));
      drift = Math.max(drift, Math.hypot(s[STATE_STRIDE] - r0[0], s[STATE_STRIDE + 1] - r0[1], s[STATE_STRIDE + 2] - r0[2]));
    });
    expect(w.impacts.filter((i) => i.objects[0] === 'crateA').length, 'the crate bounced').toBeGreaterThan(1);
    expect(parabola, 'ball off its parabola (m)').toBeLessThan(1e-9);
    expect(drift, 'resting crate moved (m)').toBeLessThan(1e-4);
    expect(w.stats.islandSolves, 'solves split into islands').toBeGreaterThan(w.stats.solves);
  });

  it('seed 3: a character part bounded from its joints contains every skinned vertex of the part (mannequin, random times of both clips)', () => {
    const doc = parseDocument(readFileSync(new URL('../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));
    const ch = doc.characters[0];
    const rand = mulberry32(3);
    const rig = new Rig(ch);
    let checked = 0;
    for (const clip of doc.clips) {
      const ev = new SceneEvaluator(doc, clip.id);
      const end = Math.max(...clip.tracks.map((t) => t.times[t.times.length - 1]));
      for (let trial = 0; trial < 4; trial++) {
        ev.characterLocalPose(0, end * rand(), rig.local);
        rig.computeWorld();
        for (const mesh of ch.meshes) {
          const S = computeSkinMatrices(mesh, rig.world, new Float64Array(16 * mesh.skinJoints.length));
          const X = skinPositions(mesh, S, new Float64Array(mesh.positions.length));
          const dom = dominantJointPerTriangle(mesh);
          const byJoint = new Map<number, Set<number>>();
          for (let t = 0; t < dom.length; t++) {
            if (!byJoint.has(dom[t])) byJoint.set(dom[t], new Set());
            for (let k = 0; k < 3; k++) byJoint.get(dom[t])!.add(mesh.indices[3 * t + k]);
          }
          for (const [joint, set] of byJoint) {
            const part = { verts: Uint32Array.from(set) } as Parameters<typeof slotBounds>[1];
            slotBounds(mesh, part);
            const box = new Float64Array(6);
            jointBoundedBox(part, S, box);
            const tight = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
            for (const v of set)
              for (let c = 0; c < 3; c++) {
                const x = X[3 * v + c];
                expect(x >= box[c] && x <= box[3 + c], `mesh ${mesh.name} joint ${joint} vertex ${v} axis ${c}: ${x} outside [${box[c]}, ${box[3 + c]}]`).toBe(true);
                tight[c] = Math.min(tight[c], x);
                tight[3 + c] = Math.max(tight[3 + c], x);
                checked++;
              }
            // a bound, not the whole world: within 0.3 m of the skinned part's own box
            for (let c = 0; c < 3; c++) expect(tight[c] - box[c] + box[3 + c] - tight[3 + c], `joint ${joint} box slack`).toBeLessThan(0.3);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
