import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SimWorld, chunkLowY, jointBoundedBox, slotBounds, vertexChunks } from './world';
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

  it('a resting island whose solver input repeats exactly takes its last answer: the same states number for number as solving again, fewer solver calls', () => {
    const doc = sceneDoc([
      boxPropAt('box', [0.2, 0.1, 0.15], [0, 0.5, 0], { restitution: 0.3, friction: 0.5 }, [0.1, 0.2, 0.05, 0.97]),
      ballPropAt('ball', 0.1, [0.6, 0.8, 0], { restitution: 0.5, friction: 0.4 }, 1),
      boxPropAt('crate', [0.08, 0.06, 0.1], [-0.6, 0.5, 0.1], { massKg: 1, restitution: 0.3, friction: 0.5 }),
    ]);
    // sleeping off, so the resting islands keep being solved
    const opts = { dynamic: ['box', 'ball', 'crate'], startTimeSec: 0, sleepTimeSec: 1e9 };
    const a = new SimWorld(doc, { ...opts, reuseRestingSolves: false });
    const b = new SimWorld(doc, opts);
    for (let k = 0; k < 480; k++) {
      a.step();
      b.step();
      for (let i = 0; i < a.bodies.state.length; i++) {
        if (a.bodies.state[i] !== b.bodies.state[i]) expect.fail(`step ${k}: state[${i}] ${b.bodies.state[i]} with reuse, ${a.bodies.state[i]} solving again`);
      }
    }
    expect(a.stats.islandReuses, 'no reuse when off').toBe(0);
    expect(b.stats.islandReuses, 'resting islands reused').toBeGreaterThan(100);
    expect(b.stats.islandSolves + b.stats.islandReuses, 'every island answered once').toBe(a.stats.islandSolves);
    // and the resting crate does not drift or sink while its answers are reused
    const s = 2 * STATE_STRIDE, x0 = b.bodies.state[s], y0 = b.bodies.state[s + 1];
    const r0 = b.stats.islandReuses;
    run(b, 1);
    expect(b.stats.islandReuses - r0, 'the crate at rest reuses its answer').toBeGreaterThan(200);
    expect(Math.abs(b.bodies.state[s + 1] - y0) + Math.abs(b.bodies.state[s] - x0), 'resting crate stays put').toBeLessThan(1e-9);
    expect(y0, 'crate (half height 0.06) on the ground').toBeCloseTo(0.06, 4);
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
    expect(w.stats.islandSolves + w.stats.islandReuses, 'solves split into islands (solved, or a resting answer reused)').toBeGreaterThanOrEqual(w.stats.solves);
    // the crate's impacts backtrack only its island: the ball (and the resting crate until it sleeps)
    // keep their own clock, so the ball's parabola above is one sub-step per step
    expect(w.stats.bodiesKept, 'bodies left at their own clock at the crate impacts').toBeGreaterThan(0);
  });

  it('seed 17: pairs of balls thrown at each other, islands on their own clocks: never inside each other or the ground', () => {
    const rand = mulberry32(17);
    const r = 0.1;
    const props = [];
    const tracks = [];
    for (let i = 0; i < 4; i++) {
      const x = 20 * i, y = 1 + rand(), z = 0.05 * (rand() - 0.5);
      const vx = 3 + 3 * rand();
      for (const side of [-1, 1]) {
        const id = `ball${i}${side < 0 ? 'L' : 'R'}`;
        const p0 = [x + 0.6 * side, y + 0.04 * side, z];
        props.push(ballPropAt(id, r, p0 as [number, number, number], { massKg: 0.5 + rand(), restitution: 0.3 + 0.5 * rand(), friction: 0.3 }, 1));
        tracks.push(linearTranslation(id, 0, p0, 0.1, [p0[0] - side * 0.1 * vx, p0[1], p0[2]]));
      }
    }
    const doc = sceneDoc(props, { tracks });
    const w = new SimWorld(doc, { dynamic: props.map((p) => p.id), startTimeSec: 0.05 });
    // inscribed radius of the icosphere: two non-overlapping balls keep their centres 2 r_in apart
    const m = props[0].mesh;
    let rIn = Infinity;
    for (let t = 0; t < m.indices.length; t += 3) {
      const a = 3 * m.indices[t], b = 3 * m.indices[t + 1], c = 3 * m.indices[t + 2];
      const ux = m.positions[b] - m.positions[a], uy = m.positions[b + 1] - m.positions[a + 1], uz = m.positions[b + 2] - m.positions[a + 2];
      const vx = m.positions[c] - m.positions[a], vy = m.positions[c + 1] - m.positions[a + 1], vz = m.positions[c + 2] - m.positions[a + 2];
      const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
      rIn = Math.min(rIn, Math.abs(nx * m.positions[a] + ny * m.positions[a + 1] + nz * m.positions[a + 2]) / Math.hypot(nx, ny, nz));
    }
    let closest = Infinity, lowest = Infinity;
    run(w, 1.5, (w) => {
      const s = w.bodies.state;
      for (let a = 0; a < props.length; a++) {
        for (let b = a + 1; b < props.length; b++) {
          const d = Math.hypot(s[STATE_STRIDE * a] - s[STATE_STRIDE * b], s[STATE_STRIDE * a + 1] - s[STATE_STRIDE * b + 1], s[STATE_STRIDE * a + 2] - s[STATE_STRIDE * b + 2]);
          closest = Math.min(closest, d / (2 * rIn));
        }
        const v = w.bodyVertices(a);
        for (let k = 1; k < v.length; k += 3) lowest = Math.min(lowest, v[k]);
      }
    });
    const pairHits = w.impacts.filter((i) => i.objects[1] !== 'ground');
    expect(new Set(pairHits.map((i) => i.objects[0].slice(0, 5))).size, 'every pair collided in the air').toBe(4);
    for (const hit of pairHits) {
      const ia = props.findIndex((p) => p.id === hit.objects[0]), ib = props.findIndex((p) => p.id === hit.objects[1]);
      expect(ib, 'impact partner is the other ball of the pair').toBe(ia ^ 1);
    }
    for (let i = 0; i < 4; i++) {
      // the first impact of a pair pushes each ball back the way it came
      const hit = pairHits.find((h) => h.objects[0].startsWith(`ball${i}`))!;
      const sgn = hit.objects[0].endsWith('L') ? -1 : 1;
      expect(sgn * hit.impulse[0], `pair ${i}: impulse on ${hit.objects[0]} points away from ${hit.objects[1]}`).toBeGreaterThan(0);
    }
    expect(closest, 'closest centre distance / (2 × inscribed radius)').toBeGreaterThan(1 - 1e-3);
    expect(lowest, 'lowest ball vertex (m) above the ground').toBeGreaterThan(-1e-4);
    expect(w.stats.bodiesKept, 'bodies left at their own clock at the impacts of other pairs').toBeGreaterThan(0);
  });

  it('an island kept at its own clock and then reached by another within the same step is taken back to the time of that impact', () => {
    // zero gravity: A (10 m/s down) bounces off the ground at 0.3 h and hits B (1 m/s sideways,
    // not in the first impact, so kept at the end of the step) at about 0.7 h of the same step
    const h = 1 / 240, d = 10 * h;
    const a0: [number, number, number] = [0, 0.1 + 0.3 * d, 0];
    const b0: [number, number, number] = [0.02, 0.3 + 0.4 * d - 0.022, 0]; // B's lower face above A's top vertex
    const A = octahedronProp('A', 0.1, a0, { massKg: 1, restitution: 1, friction: 0 });
    const B = octahedronProp('B', 0.1, b0, { massKg: 2, restitution: 0.5, friction: 0 });
    const doc = sceneDoc([A, B], {
      gravity: [0, 0, 0],
      tracks: [linearTranslation('A', 0, a0, 1, [a0[0], a0[1] - 10, a0[2]]), linearTranslation('B', 0, b0, 1, [b0[0] + 1, b0[1], b0[2]])],
    });
    const w = new SimWorld(doc, { dynamic: ['A', 'B'], startTimeSec: 0 });
    w.step();
    const names = w.impacts.map((i) => i.objects.join('/'));
    expect(names[0], 'ground bounce first').toBe('A/ground');
    expect(names.length, `ground bounce, then A on B, in the first step: ${names}`).toBeGreaterThanOrEqual(2);
    for (const n of names.slice(1)) expect(['A/B', 'B/A'], 'then only A–B contacts').toContain(n);
    const [bounce, hit] = w.impacts;
    expect(Math.abs(bounce.timeSec - 0.3 * h), 'ground impact at 0.3 h (float32 mesh)').toBeLessThan(1e-8);
    expect(hit.timeSec, 'A reaches B later in the same step').toBeGreaterThan(bounce.timeSec);
    expect(hit.timeSec).toBeLessThan(h);
    expect(w.stats.bodiesKept, 'B was kept at the end of the step at the ground impact').toBeGreaterThan(0);
    const s = w.bodies.state;
    // momentum after the bounce (A up at 10 m/s, B sideways at 1 m/s) is kept by the A–B impact
    const py = s[8] + s[STATE_STRIDE + 8], px = s[7] + s[STATE_STRIDE + 7];
    expect(Math.abs(py - 10), 'vertical momentum after the A–B impact (kg m/s)').toBeLessThan(1e-9);
    expect(Math.abs(px - 2), 'horizontal momentum (kg m/s)').toBeLessThan(1e-9);
    // B moved at 1 m/s until the impact and at its new velocity after it: it was taken back from
    // its kept end of the step to the impact time, not hit where it would be at the end
    const vb = [s[STATE_STRIDE + 7] / 2, s[STATE_STRIDE + 8] / 2, s[STATE_STRIDE + 9] / 2];
    const tHit = hit.timeSec;
    const expected = [b0[0] + 1 * tHit + vb[0] * (h - tHit), b0[1] + vb[1] * (h - tHit), b0[2] + vb[2] * (h - tHit)];
    for (let c = 0; c < 3; c++) expect(Math.abs(s[STATE_STRIDE + c] - expected[c]), `B position (axis ${c}) after the step`).toBeLessThan(1e-9);
    expect(vb[1], 'B pushed up').toBeGreaterThan(0.1);
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
          // and the whole mesh as one group (the character's box each step): joint −1
          byJoint.set(-1, new Set(Array.from({ length: mesh.positions.length / 3 }, (_, v) => v)));
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
            for (let c = 0; c < 3; c++) expect(tight[c] - box[c] + box[3 + c] - tight[3 + c], `joint ${joint} box slack`).toBeLessThan(joint < 0 ? 0.6 : 0.3);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('ground-scan chunks', () => {
  it('seed 29: chunks partition the vertices (ascending within each, at most 16) and bound every rotated vertex height from the pose alone (spheres and boxes)', () => {
    const rand = mulberry32(29);
    for (let trial = 0; trial < 40; trial++) {
      const nv = 1 + Math.floor(rand() * 400);
      // elongated random clouds (limbs) and flat ones (boxes)
      const sx = 0.02 + rand(), sy = 0.02 + rand() * 0.3, sz = 0.02 + rand();
      const X = new Float64Array(3 * nv);
      for (let v = 0; v < nv; v++) {
        X[3 * v] = sx * (rand() - 0.5);
        X[3 * v + 1] = sy * (rand() - 0.5);
        X[3 * v + 2] = sz * (rand() - 0.5);
      }
      const { chunkStart, chunkVerts, chunkSphere, chunkBox, chunkOf } = vertexChunks(X);
      const seen = new Uint8Array(nv);
      for (let k = 0; k + 1 < chunkStart.length; k++) {
        expect(chunkStart[k + 1] - chunkStart[k], `chunk ${k} size`).toBeLessThanOrEqual(16);
        expect(chunkStart[k + 1] - chunkStart[k], `chunk ${k} size`).toBeGreaterThan(0);
        for (let i = chunkStart[k]; i < chunkStart[k + 1]; i++) {
          const v = chunkVerts[i];
          if (i > chunkStart[k]) expect(v, 'ascending within a chunk').toBeGreaterThan(chunkVerts[i - 1]);
          expect(chunkOf[v], `chunk of vertex ${v}`).toBe(k);
          seen[v]++;
        }
      }
      expect(seen.every((n) => n === 1), 'every vertex in exactly one chunk').toBe(true);
      for (let p = 0; p < 20; p++) {
        // random pose: position and unit quaternion (x, y, z, qx, qy, qz, qw)
        const pose = new Float64Array(7);
        for (let c = 0; c < 3; c++) pose[c] = 4 * (rand() - 0.5);
        let n2 = 0;
        for (let c = 3; c < 7; c++) n2 += (pose[c] = rand() - 0.5) ** 2;
        for (let c = 3; c < 7; c++) pose[c] /= Math.sqrt(n2);
        const [qx, qy, qz, qw] = [pose[3], pose[4], pose[5], pose[6]];
        let lowest = Infinity, lowestBound = Infinity;
        const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
        for (let k = 0; k + 1 < chunkStart.length; k++) {
          const bound = chunkLowY(chunkSphere, k, pose, 0);
          lowestBound = Math.min(lowestBound, bound);
          // the box: centre height less the extents along the row
          const b = 6 * k;
          const boxBound = pose[1] + r10 * chunkBox[b] + r11 * chunkBox[b + 1] + r12 * chunkBox[b + 2] - (Math.abs(r10) * chunkBox[b + 3] + Math.abs(r11) * chunkBox[b + 4] + Math.abs(r12) * chunkBox[b + 5]);
          for (let i = chunkStart[k]; i < chunkStart[k + 1]; i++) {
            const v = chunkVerts[i];
            const vx = X[3 * v], vy = X[3 * v + 1], vz = X[3 * v + 2];
            // y of q v q* + position, brute force through the rotation matrix
            const y = pose[1] + 2 * (qx * qy + qz * qw) * vx + (1 - 2 * (qx * qx + qz * qz)) * vy + 2 * (qy * qz - qx * qw) * vz;
            expect(y, `trial ${trial} pose ${p}: vertex ${v} above its chunk's bound`).toBeGreaterThanOrEqual(bound);
            expect(y, `trial ${trial} pose ${p}: vertex ${v} above its chunk's box bound`).toBeGreaterThanOrEqual(boxBound);
            lowest = Math.min(lowest, y);
          }
        }
        // the bound is useful: within the largest chunk diameter of the true lowest vertex
        expect(lowest - lowestBound, `trial ${trial}: bound within the cloud size`).toBeLessThanOrEqual(2 * Math.hypot(sx, sy, sz));
      }
    }
  });
});
