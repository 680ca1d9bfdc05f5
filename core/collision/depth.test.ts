import { describe, expect, it } from 'vitest';
import { createEmptyDocument, defaultCharacterCollision, defaultCollision, defaultMaterial, identityTransform } from '../document';
import { boxMesh, chainCharacter, icosphereMesh } from '../document/fixtures';
import type { Character, ImpulseDocument, Prop, SkinnedMesh, Track } from '../document/types';
import { CollisionScene, checkFrame } from './scene';
import { signedDistance, vertexTriangles } from './signed';
import { TriangleBVH } from './bvh';
import { mulberry32, uvSphere, windingNumber } from './testutil';
import { SceneEvaluator } from '../anim';
import { Rig, computeSkinMatrices, skinPositions } from '../skeleton';

type Q = [number, number, number, number];

function prop(id: string, mesh: { positions: Float32Array; indices: Uint32Array }, at: [number, number, number], rotation: Q = [0, 0, 0, 1]): Prop {
  return {
    id, name: id, transform: { translation: at, rotation, scale: [1, 1, 1] }, mesh,
    material: defaultMaterial(), physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 }, collision: defaultCollision(),
  };
}

function propsDoc(...props: Prop[]): ImpulseDocument {
  const doc = createEmptyDocument('depth');
  doc.props.push(...props);
  return doc;
}

/**
 * Depth of the single crossing between the scene's objects at frame 0, by the
 * pseudo-normal inside test (closed, outward-oriented meshes) and by exact ray
 * parity (the general path): both must agree.
 */
function depthOf(doc: ImpulseDocument): number {
  const scene = new CollisionScene(doc);
  expect(scene.objects.every((o) => o.orientedOutward), 'test meshes are closed and outward').toBe(true);
  const contacts = checkFrame(scene, 0).filter((c) => c.kind === 'intersect');
  expect(contacts.length, 'one crossing part pair').toBe(1);
  const parity = new CollisionScene(doc);
  for (const o of parity.objects) o.orientedOutward = false;
  const byParity = checkFrame(parity, 0).filter((c) => c.kind === 'intersect');
  expect(Math.abs(byParity[0].depth - contacts[0].depth), `pseudo-normal ${contacts[0].depth} vs parity ${byParity[0].depth}`).toBeLessThan(1e-12);
  return contacts[0].depth;
}

/** Closed tube along x from -len/2 to len/2: `rings` rings of `seg` vertices, a centre vertex on each cap, outward. */
function tubeMesh(radius: number, len: number, rings: number, seg: number): { positions: Float32Array; indices: Uint32Array } {
  const pos: number[] = [];
  for (let i = 0; i < rings; i++) {
    const x = -len / 2 + (len * i) / (rings - 1);
    for (let j = 0; j < seg; j++) { const a = (2 * Math.PI * j) / seg; pos.push(x, radius * Math.cos(a), radius * Math.sin(a)); }
  }
  const c0 = rings * seg, c1 = c0 + 1;
  pos.push(-len / 2, 0, 0, len / 2, 0, 0);
  const idx: number[] = [];
  const v = (i: number, j: number) => i * seg + (j % seg);
  for (let i = 0; i < rings - 1; i++) for (let j = 0; j < seg; j++) {
    idx.push(v(i, j), v(i, j + 1), v(i + 1, j + 1), v(i, j), v(i + 1, j + 1), v(i + 1, j));
  }
  for (let j = 0; j < seg; j++) { idx.push(c0, v(0, j + 1), v(0, j)); idx.push(c1, v(rings - 1, j), v(rings - 1, j + 1)); }
  // orient outward: flip every triangle whose normal points toward the axis
  for (let t = 0; t < idx.length; t += 3) {
    const p = (k: number) => [pos[idx[t + k] * 3], pos[idx[t + k] * 3 + 1], pos[idx[t + k] * 3 + 2]];
    const [a, b, c] = [p(0), p(1), p(2)];
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const m = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
    const out = Math.abs(m[0]) > len / 2 - 1e-9 ? [m[0], 0, 0] : [0, m[1], m[2]];
    if (n[0] * out[0] + n[1] * out[1] + n[2] * out[2] < 0) { const s = idx[t + 1]; idx[t + 1] = idx[t + 2]; idx[t + 2] = s; }
  }
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

/** Largest gap between a unit icosphere of `subdivisions` levels and its circumscribed sphere (inradius deficit). */
function icoDeficit(subdivisions: number): number {
  const m = icosphereMesh(1, subdivisions);
  let worst = 0;
  for (let t = 0; t < m.indices.length; t += 3) {
    let cx = 0, cy = 0, cz = 0;
    for (let k = 0; k < 3; k++) { cx += m.positions[m.indices[t + k] * 3] / 3; cy += m.positions[m.indices[t + k] * 3 + 1] / 3; cz += m.positions[m.indices[t + k] * 3 + 2] / 3; }
    worst = Math.max(worst, 1 - Math.hypot(cx, cy, cz));
  }
  return worst;
}

describe('penetration depth between objects (deepest vertex inside the other closed mesh)', () => {
  // a direction through an icosahedron vertex (kept by subdivision), so both spheres have a vertex on the centre line
  const t = (1 + Math.sqrt(5)) / 2, l = Math.hypot(1, t);
  const u: [number, number, number] = [1 / l, -t / l, 0];
  for (const d of [0.2, 0.3, 0.42]) {
    it(`icosphere r=0.3 through icosphere r=0.2 at centre distance ${d}: depth = r1 + r2 − d within the tessellation`, () => {
      const r1 = 0.3, r2 = 0.2, sub = 3;
      const doc = propsDoc(prop('big', icosphereMesh(r1, sub), [0, 0, 0]), prop('small', icosphereMesh(r2, sub), [u[0] * d, u[1] * d, u[2] * d]));
      const depth = depthOf(doc);
      const exact = r1 + r2 - d;
      const tol = icoDeficit(sub) * r1 + 1e-6;
      expect(depth, `depth ${depth} ≤ r1 + r2 − d = ${exact}`).toBeLessThanOrEqual(exact + 1e-6);
      expect(depth, `depth ${depth} ≥ r1 + r2 − d − tessellation ${tol}`).toBeGreaterThanOrEqual(exact - tol);
    });
  }

  it('a thin rod through the middle of a ball: depth = ball radius − rod radius (the rod vertices at the centre)', () => {
    const r = 0.037, rho = 0.004, sub = 3;
    // rod rings every 5 mm, one ring at the centre
    const doc = propsDoc(prop('ball', icosphereMesh(r, sub), [0, 0, 0]), prop('rod', tubeMesh(rho, 0.6, 121, 12), [0, 0, 0]));
    const depth = depthOf(doc);
    expect(depth, `depth ${depth} ≤ r − ρ`).toBeLessThanOrEqual(r - rho + 1e-6);
    expect(depth, `depth ${depth} ≥ r − ρ − tessellation`).toBeGreaterThanOrEqual(r - rho - icoDeficit(sub) * r - 1e-6);
    expect(depth, 'much deeper than the old crossing-vertex estimate (mm)').toBeGreaterThan(0.025);
  });

  it('box corner pushed into a box top: depth = how far the corner is below the face', () => {
    // rotate the small box so its body diagonal (−1,−1,−1) points straight down
    const a = [-1 / Math.sqrt(3), -1 / Math.sqrt(3), -1 / Math.sqrt(3)], b = [0, -1, 0];
    const ax = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    const s = Math.hypot(ax[0], ax[1], ax[2]), ang = Math.acos(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
    const q: Q = [(ax[0] / s) * Math.sin(ang / 2), (ax[1] / s) * Math.sin(ang / 2), (ax[2] / s) * Math.sin(ang / 2), Math.cos(ang / 2)];
    const h = 0.1, half = h * Math.sqrt(3);
    for (const delta of [0.01, 0.05, 0.09]) {
      const doc = propsDoc(prop('base', boxMesh(0.5, 0.5, 0.5), [0, 0, 0]), prop('cube', boxMesh(h, h, h), [0, 0.5 - delta + half, 0], q));
      const depth = depthOf(doc);
      expect(Math.abs(depth - delta), `corner ${delta} deep, got ${depth}`).toBeLessThan(1e-5);
    }
  });
});

describe('signed distance with angle-weighted pseudo-normals', () => {
  it('seed 7: sign agrees with the winding number and |distance| with brute force on a bumpy closed sphere', () => {
    const r = mulberry32(7);
    const m = uvSphere(24, 16, 0, 0, 0, 1, r, 0.3);
    const bvh = TriangleBVH.build(m.positions, m.indices, undefined, 4);
    const vt = vertexTriangles(m.indices, m.positions.length / 3);
    let inside = 0;
    for (let i = 0; i < 300; i++) {
      // include points exactly at vertices' directions and near the surface
      const v = Math.floor(r() * (m.positions.length / 3));
      const s = 0.6 + 0.8 * r();
      const x = m.positions[v * 3] * s + (r() - 0.5) * 0.01, y = m.positions[v * 3 + 1] * s + (r() - 0.5) * 0.01, z = m.positions[v * 3 + 2] * s + (r() - 0.5) * 0.01;
      const sd = signedDistance(bvh, m.positions, vt, x, y, z, null);
      const w = windingNumber(m, x, y, z);
      if (Math.abs(w - 0.5) < 0.45) continue; // too close to call with the winding number
      expect(sd < 0, `point ${i}: inside by winding number ${w.toFixed(3)}, signed distance ${sd}`).toBe(w > 0.5);
      if (w > 0.5) inside++;
      let best = Infinity;
      for (let t = 0; t < m.indices.length; t += 3) best = Math.min(best, pointTriDistance(m.positions, m.indices, t / 3, x, y, z));
      expect(Math.abs(Math.abs(sd) - best), `point ${i}: distance`).toBeLessThan(1e-9);
    }
    expect(inside, 'both inside and outside points were tested').toBeGreaterThan(30);
  });
});

/** Point-triangle distance by sampling-free minimisation over the closed triangle (brute: regions by projection). */
function pointTriDistance(P: Float64Array, I: Uint32Array, t: number, x: number, y: number, z: number): number {
  const A = [P[I[t * 3] * 3], P[I[t * 3] * 3 + 1], P[I[t * 3] * 3 + 2]];
  const B = [P[I[t * 3 + 1] * 3], P[I[t * 3 + 1] * 3 + 1], P[I[t * 3 + 1] * 3 + 2]];
  const C = [P[I[t * 3 + 2] * 3], P[I[t * 3 + 2] * 3 + 1], P[I[t * 3 + 2] * 3 + 2]];
  const sub = (a: number[], b: number[]) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const p = [x, y, z];
  const segDist = (a: number[], b: number[]) => {
    const ab = sub(b, a), s = Math.min(1, Math.max(0, dot(sub(p, a), ab) / dot(ab, ab)));
    const q = [a[0] + s * ab[0], a[1] + s * ab[1], a[2] + s * ab[2]];
    return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  };
  const n = cross(sub(B, A), sub(C, A)), nn = dot(n, n);
  const h = dot(sub(p, A), n) / nn;
  const q = [p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]];
  const inside = dot(cross(sub(B, A), sub(q, A)), n) >= 0 && dot(cross(sub(C, B), sub(q, B)), n) >= 0 && dot(cross(sub(A, C), sub(q, C)), n) >= 0;
  if (inside) return Math.abs(h) * Math.sqrt(nn);
  return Math.min(segDist(A, B), segDist(B, C), segDist(C, A));
}

/**
 * A skinned two-part character built in code: a torso box (joint 1) and an arm
 * box (joint 3, three hops from joint 1) whose left end starts at `bindX`; the
 * clip moves the arm along −x by `push` per frame (frames 0, 1, 2).
 */
function torsoAndArm(bindX: number, pushes: number[], adjacentHops = 1): ImpulseDocument {
  const torso = boxMesh(0.2, 0.3, 0.15), arm = boxMesh(0.3, 0.04, 0.04);
  const armCentre = bindX + 0.3;
  for (let v = 0; v < 8; v++) arm.positions[v * 3] += armCentre;
  const skin = (m: { positions: Float32Array; indices: Uint32Array }, slot: number, name: string): SkinnedMesh => {
    const n = m.positions.length / 3;
    const joints = new Uint16Array(4 * n), weights = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) { joints[4 * v] = slot; weights[4 * v] = 1; }
    const ibm = new Float32Array(16 * 4);
    const worldX = [0, 0, armCentre - 0.5, armCentre];
    for (let j = 0; j < 4; j++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -worldX[j], 0, 0, 1], 16 * j);
    return { name, positions: m.positions, indices: m.indices, joints, weights, skinJoints: new Int32Array([0, 1, 2, 3]), inverseBindMatrices: ibm, material: 0 };
  };
  const rest = (x: number) => ({ translation: [x, 0, 0] as [number, number, number], rotation: [0, 0, 0, 1] as Q, scale: [1, 1, 1] as [number, number, number] });
  const ch: Character = {
    id: 'body', name: 'Body', transform: identityTransform(),
    skeleton: { joints: [
      { name: 'root', parent: -1, rest: rest(0) }, { name: 'torso', parent: 0, rest: rest(0) },
      { name: 'shoulder', parent: 0, rest: rest(armCentre - 0.5) }, { name: 'arm', parent: 2, rest: rest(0.5) },
    ] },
    meshes: [skin(torso, 1, 'torso'), skin(arm, 3, 'arm')],
    materials: [defaultMaterial('skin')], collision: { ...defaultCharacterCollision(), adjacentHops }, mode: 'keyframed',
    source: { file: 'body.glb', index: 0, name: 'Armature' },
  };
  const doc = createEmptyDocument('self');
  doc.characters.push(ch);
  const track: Track = {
    target: { kind: 'joint', character: 'body', joint: 3 }, path: 'translation', interpolation: 'linear',
    times: pushes.map((_, i) => i / 30), values: pushes.flatMap((p) => [0.5 - p, 0, 0]),
  };
  doc.clips = [{ id: 'c', name: 'clip', frameRate: 30, startFrame: 0, endFrame: pushes.length - 1, tracks: [track] }];
  doc.activeClip = 'c';
  return doc;
}

describe('self-collision depth (signed distance to the other part, pseudo-normal sign)', () => {
  it('an arm pushed into the torso: depth = how far its end is past the torso face (closed form)', () => {
    // arm end starts 0.1 outside the torso face x = 0.2; pushes of 0.13, 0.18, 0.2 put it 0.03, 0.08, 0.1 deep
    const doc = torsoAndArm(0.3, [0.13, 0.18, 0.2]);
    const scene = new CollisionScene(doc);
    for (const [f, deep] of [[0, 0.03], [1, 0.08], [2, 0.1]] as const) {
      const c = checkFrame(scene, f).filter((x) => x.a.objectId === 'body' && x.b.objectId === 'body');
      expect(c.length, `frame ${f}: one self-collision`).toBe(1);
      expect([c[0].a.part, c[0].b.part].sort(), 'named by the joints').toEqual(['arm', 'torso']);
      expect(Math.abs(c[0].depth - deep), `frame ${f}: depth ${c[0].depth} vs ${deep}`).toBeLessThan(1e-6);
    }
  });

  it('repro: with continuous detection (a new contact is found by the swept test) the depths are the discrete ones', () => {
    // arm end 0.05 outside at frame 0, then 0.03, 0.08, 0.1 deep: frame 1's pair is new, so the continuous test finds it
    const doc = torsoAndArm(0.3, [0.05, 0.13, 0.18, 0.2]);
    const scene = new CollisionScene(doc), discrete = new CollisionScene(doc);
    for (let f = 0; f < 4; f++) {
      scene.pose(f / 30, f > 0);
      const c = scene.detect(true).filter((x) => x.kind === 'intersect');
      discrete.pose(f / 30, false);
      const d = discrete.detect(false);
      expect(c.length, `frame ${f}: crossings as in the discrete check`).toBe(d.length);
      if (f > 0) expect(Math.abs(c[0].depth - [0, 0.03, 0.08, 0.1][f]), `frame ${f}: depth ${c[0].depth} with continuous detection`).toBeLessThan(1e-6);
    }
  });

  it('adjacentHops: parts three hops apart (torso–root–shoulder–arm) are skipped when adjacentHops ≥ 3', () => {
    const near = checkFrame(new CollisionScene(torsoAndArm(0.3, [0.18], 3)), 0);
    expect(near.length, 'torso and arm are 3 hops apart: ignored with adjacentHops 3').toBe(0);
    const far = checkFrame(new CollisionScene(torsoAndArm(0.3, [0.18], 2)), 0);
    expect(far.length, 'with adjacentHops 2 they are checked').toBe(1);
  });

  it('bind pose: an overlap that exists in the bind pose is not reported unless it gets deeper', () => {
    // arm end 0.02 inside the torso in the bind pose
    const doc = torsoAndArm(0.18, [0, -0.05, 0.0005, 0.06]);
    const scene = new CollisionScene(doc);
    const self = (f: number) => checkFrame(scene, f).filter((x) => x.a.objectId === 'body' && x.b.objectId === 'body');
    expect(self(0).length, 'frame 0 = bind pose overlap: not reported').toBe(0);
    expect(self(1).length, 'frame 1: pulled out').toBe(0);
    expect(self(2).length, 'frame 2: 0.5 mm deeper than the bind pose, within the tolerance (1e-3 of the size)').toBe(0);
    const deeper = self(3);
    expect(deeper.length, 'frame 3: 6 cm deeper than the bind pose: reported').toBe(1);
    expect(Math.abs(deeper[0].depth - 0.08), `depth ${deeper[0].depth}`).toBeLessThan(1e-6);
  });
});

describe('part boxes without skinning (joints only)', () => {
  for (const seed of [3, 4]) {
    it(`seed ${seed}: every skinned vertex lies in its part's conservative box`, () => {
      const r = mulberry32(seed);
      const doc = createEmptyDocument('boxes');
      const ch = chainCharacter('hero');
      // blend weights over 3 joints, not normalised exactly (within the document tolerance)
      const m = ch.meshes[0];
      for (let v = 0; v < m.weights.length / 4; v++) {
        const a = r(), b = r() * (1 - a);
        m.joints.set([v % 4, (v + 1) % 4, (v + 2) % 4, 0], v * 4);
        m.weights.set([a, b, (1 - a - b) * (1 + (r() - 0.5) * 1e-4), 0], v * 4);
      }
      doc.characters.push(ch);
      doc.clips = [{ id: 'c', name: 'c', frameRate: 10, startFrame: 0, endFrame: 10, tracks: randomRotationTracks(r, 'hero', 4, [0, 0.5, 1]) }];
      doc.activeClip = 'c';
      const scene = new CollisionScene(doc);
      const box = new Float64Array(6);
      for (let f = 0; f <= 10; f++) {
        scene.pose(f / 10, f > 0);
        scene.skinAll();
        const o = scene.objects[0];
        for (const p of o.parts) {
          scene.partBox(p, box);
          for (const v of scene.parts[p].verts) for (let k = 0; k < 3; k++) {
            const x = o.positions[v * 3 + k];
            expect(x >= box[k] && x <= box[3 + k], `frame ${f} part ${p} vertex ${v} axis ${k}: ${x} in [${box[k]}, ${box[3 + k]}]`).toBe(true);
          }
        }
      }
    });
  }
});

/**
 * A closed, outward tube (radius r, height 1) skinned to a 4-joint chain
 * along +y with blended weights, bent per frame by seeded joint rotations.
 */
/** Linear rotation tracks for joints 0..joints-1 of a character: a seeded random axis and angle (< 3 rad) at each key time. */
function randomRotationTracks(r: () => number, character: string, joints: number, times: number[]): Track[] {
  const tracks: Track[] = [];
  for (let j = 0; j < joints; j++) {
    const values: number[] = [];
    for (let k = 0; k < times.length; k++) {
      const ax = [r() - 0.5, r() - 0.5, r() - 0.5], l = Math.hypot(ax[0], ax[1], ax[2]), ang = 3 * r();
      values.push((ax[0] / l) * Math.sin(ang / 2), (ax[1] / l) * Math.sin(ang / 2), (ax[2] / l) * Math.sin(ang / 2), Math.cos(ang / 2));
    }
    tracks.push({ target: { kind: 'joint', character, joint: j }, path: 'rotation', interpolation: 'linear', times: [...times], values });
  }
  return tracks;
}

function bentTube(id: string, r: () => number, radius: number, frames: number): { ch: Character; tracks: Track[] } {
  const around = 24, rings = 25, H = 1, J = 4, seg = H / J;
  const nv = around * rings + 2;
  const pos = new Float32Array(nv * 3), jn = new Uint16Array(nv * 4), wt = new Float32Array(nv * 4);
  const setW = (v: number, y: number) => {
    const f = Math.min(J - 1 - 1e-9, Math.max(0, y / seg - 0.5)), j = Math.floor(f), s = f - j;
    jn[v * 4] = j; jn[v * 4 + 1] = Math.min(J - 1, j + 1); wt[v * 4] = 1 - s; wt[v * 4 + 1] = s;
  };
  for (let i = 0; i < rings; i++) for (let k = 0; k < around; k++) {
    const a = (2 * Math.PI * k) / around, v = i * around + k, y = (H * i) / (rings - 1);
    pos.set([radius * Math.cos(a), y, radius * Math.sin(a)], v * 3);
    setW(v, y);
  }
  const bot = around * rings, top = bot + 1;
  setW(bot, 0); pos[top * 3 + 1] = H; setW(top, H);
  const idx: number[] = [];
  for (let i = 0; i < rings - 1; i++) for (let k = 0; k < around; k++) {
    const a = i * around + k, b = i * around + ((k + 1) % around), c = a + around, d = b + around;
    idx.push(a, c, b, b, c, d);
  }
  for (let k = 0; k < around; k++) { idx.push(bot, k, (k + 1) % around); idx.push(top, (rings - 1) * around + ((k + 1) % around), (rings - 1) * around + k); }
  const ibm = new Float32Array(16 * J);
  for (let j = 0; j < J; j++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -seg * j, 0, 1], 16 * j);
  const collision = defaultCharacterCollision();
  collision.selfCollision = false;
  const ch: Character = {
    id, name: id, transform: identityTransform(),
    skeleton: { joints: Array.from({ length: J }, (_, j) => ({ name: `${id}_j${j}`, parent: j - 1, rest: { translation: [0, j === 0 ? 0 : seg, 0] as [number, number, number], rotation: [0, 0, 0, 1] as Q, scale: [1, 1, 1] as [number, number, number] } })) },
    meshes: [{ name: 'tube', positions: pos, indices: new Uint32Array(idx), joints: jn, weights: wt, skinJoints: Int32Array.from({ length: J }, (_, j) => j), inverseBindMatrices: ibm, material: 0 }],
    materials: [defaultMaterial()], collision, mode: 'keyframed',
  };
  const tracks: Track[] = [];
  for (let j = 1; j < J; j++) {
    const times: number[] = [], values: number[] = [];
    const ax = [r() - 0.5, 0.2 * (r() - 0.5), r() - 0.5], l = Math.hypot(ax[0], ax[1], ax[2]);
    for (let f = 0; f <= frames; f++) {
      const ang = 0.7 * (r() - 0.5);
      times.push(f / 30);
      values.push((ax[0] / l) * Math.sin(ang / 2), (ax[1] / l) * Math.sin(ang / 2), (ax[2] / l) * Math.sin(ang / 2), Math.cos(ang / 2));
    }
    tracks.push({ target: { kind: 'joint', character: id, joint: j }, path: 'rotation', interpolation: 'linear', times, values });
  }
  return { ch, tracks };
}

/**
 * Brute-force depth of a crossing part pair between two objects (the
 * documented measure, no BVH, no regions): every vertex of either part inside
 * the overlap of the parts' vertex boxes that lies inside the other object by
 * its winding number, with its distance to every triangle of the other object;
 * the largest. Vertices too close to the surface for the winding number to
 * decide are returned apart (their distance must not matter).
 */
function bruteObjectDepth(scene: CollisionScene, pa: number, pb: number): { depth: number; undecided: number } {
  const box = (p: number) => {
    const o = scene.objects[scene.parts[p].object], b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
    for (const v of scene.parts[p].verts) for (let k = 0; k < 3; k++) { b[k] = Math.min(b[k], o.positions[v * 3 + k]); b[3 + k] = Math.max(b[3 + k], o.positions[v * 3 + k]); }
    return b;
  };
  const ba = box(pa), bb = box(pb);
  const ov = [0, 1, 2].map((k) => Math.max(ba[k], bb[k])).concat([0, 1, 2].map((k) => Math.min(ba[3 + k], bb[3 + k])));
  let depth = 0, undecided = 0;
  for (const [me, other] of [[pa, pb], [pb, pa]]) {
    const om = scene.objects[scene.parts[me].object], oo = scene.objects[scene.parts[other].object];
    const mesh = { positions: oo.positions, indices: oo.indices };
    for (const v of scene.parts[me].verts) {
      const x = om.positions[v * 3], y = om.positions[v * 3 + 1], z = om.positions[v * 3 + 2];
      if (x < ov[0] || x > ov[3] || y < ov[1] || y > ov[4] || z < ov[2] || z > ov[5]) continue;
      const w = windingNumber(mesh, x, y, z);
      if (w < 0.25) continue;
      let d = Infinity;
      for (let t = 0; t < oo.indices.length / 3; t++) d = Math.min(d, pointTriDistance(oo.positions, oo.indices, t, x, y, z));
      if (w > 0.75) depth = Math.max(depth, d); else undecided = Math.max(undecided, d);
    }
  }
  return { depth, undecided };
}

describe('penetration depth between objects against a brute-force reference', () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: a bending skinned tube and a bumpy ball (parts, regions, both inside tests) give the brute-force depth`, () => {
      const r = mulberry32(seed);
      const frames = 4;
      const doc = createEmptyDocument('depth');
      const { ch, tracks } = bentTube('tube', r, 0.15, frames);
      doc.characters.push(ch);
      const ball = uvSphere(24, 16, 0, 0, 0, 0.16 + 0.08 * r(), r, 0.3);
      doc.props.push(prop('ball', { positions: Float32Array.from(ball.positions), indices: ball.indices }, [(r() - 0.5) * 0.2, 0.3 + 0.4 * r(), (r() - 0.5) * 0.2]));
      // a second bumpy ball crossing the first: prop against prop
      const ball2 = uvSphere(20, 12, 0, 0, 0, 0.12, r, 0.4);
      doc.props.push(prop('ball2', { positions: Float32Array.from(ball2.positions), indices: ball2.indices }, [0.15, 0.55, 0.1]));
      doc.clips = [{ id: 'c', name: 'c', frameRate: 30, startFrame: 0, endFrame: frames, tracks }];
      doc.activeClip = 'c';
      let compared = 0;
      for (const parity of [false, true]) {
        const scene = new CollisionScene(doc, 'c');
        expect(scene.objects.every((o) => o.orientedOutward), 'tube and balls are closed and outward').toBe(true);
        if (parity) for (const o of scene.objects) o.orientedOutward = false;
        for (let f = 0; f <= frames; f++) {
          const contacts = checkFrame(scene, f).filter((c) => c.kind === 'intersect');
          scene.skinAll();
          for (const c of contacts) {
            const pa = scene.parts.findIndex((p) => scene.objects[p.object].id === c.a.objectId && p.joint === c.a.joint);
            const pb = scene.parts.findIndex((p) => scene.objects[p.object].id === c.b.objectId && p.joint === c.b.joint);
            const ref = bruteObjectDepth(scene, pa, pb);
            expect(Math.abs(c.depth - ref.depth), `${parity ? 'parity' : 'pseudo-normal'} frame ${f} ${c.a.part}/${c.b.part}: depth ${c.depth} vs brute force ${ref.depth}`).toBeLessThan(1e-9);
            expect(ref.undecided, 'vertices the winding number cannot decide are shallower').toBeLessThanOrEqual(ref.depth + 1e-9);
            if (ref.depth > 0) compared++;
          }
        }
      }
      expect(compared, 'crossings with depth were compared').toBeGreaterThan(6);
    });
  }
});

describe('part skinning by influence sets', () => {
  for (const [seed, shared] of [[5, true], [6, false]] as const) {
    it(`seed ${seed}: positions at both samples equal skinPositions bit for bit (${shared ? 'few shared influence sets' : 'a set per vertex'})`, () => {
      const r = mulberry32(seed);
      const doc = createEmptyDocument('skin');
      const ch = chainCharacter('hero');
      const m = ch.meshes[0];
      // a finer mesh along the chain (162 vertices)
      const ball = icosphereMesh(0.4, 2);
      for (let v = 0; v < ball.positions.length / 3; v++) ball.positions[v * 3 + 1] = ball.positions[v * 3 + 1] * 2 + 0.75;
      m.positions = ball.positions;
      m.indices = ball.indices;
      m.joints = new Uint16Array(ball.positions.length / 3 * 4);
      m.weights = new Float32Array(ball.positions.length / 3 * 4);
      // shared: three weight sets over the chain; else random weights per vertex
      const palette = [[0.75, 0.25, 0], [0.5, 0.3, 0.2], [1, 0, 0]];
      for (let v = 0; v < m.weights.length / 4; v++) {
        const w = shared ? palette[v % 3] : (() => { const a = r(), b = r() * (1 - a); return [a, b, 1 - a - b]; })();
        m.joints.set(shared ? [1 + (v % 2), 3, 0, 0] : [v % 4, (v + 1) % 4, (v + 2) % 4, 0], v * 4);
        m.weights.set([w[0], w[1], w[2], 0], v * 4);
      }
      doc.characters.push(ch);
      doc.clips = [{ id: 'c', name: 'c', frameRate: 10, startFrame: 0, endFrame: 10, tracks: randomRotationTracks(r, 'hero', 4, [0, 1]) }];
      doc.activeClip = 'c';
      const scene = new CollisionScene(doc);
      expect(m.positions.length / 3, 'enough vertices to share sets').toBeGreaterThan(12);
      // the reference: whole-mesh skinning at each sample
      const ev = new SceneEvaluator(doc), rig = new Rig(ch);
      const S = new Float64Array(16 * m.skinJoints.length), ref = new Float64Array(m.positions.length), prevRef = new Float64Array(m.positions.length);
      for (let f = 0; f <= 10; f++) {
        scene.pose(f / 10, f > 0);
        scene.skinAll();
        prevRef.set(ref);
        ev.characterLocalPose(0, f / 10, rig.local);
        rig.computeWorld();
        computeSkinMatrices(m, rig.world, S);
        skinPositions(m, S, ref);
        const o = scene.objects[0];
        for (let i = 0; i < ref.length; i++) {
          expect(o.positions[i], `frame ${f} coordinate ${i}`).toBe(ref[i]);
          if (f > 0) expect(o.prevPositions[i], `frame ${f} previous sample, coordinate ${i}`).toBe(prevRef[i]);
        }
      }
    });
  }
});

describe('BVH chunk boxes of skinned parts', () => {
  it('seed 9: gathered while skinning (a part whose boxes were read after its last skinning) or computed on demand, they equal the boxes of the chunks\' skinned vertices, at both samples', () => {
    const r = mulberry32(9);
    const doc = createEmptyDocument('chunks');
    const ch = chainCharacter('hero');
    const m = ch.meshes[0];
    const ball = icosphereMesh(0.4, 3);
    for (let v = 0; v < ball.positions.length / 3; v++) ball.positions[v * 3 + 1] = ball.positions[v * 3 + 1] * 2 + 0.75;
    m.positions = ball.positions;
    m.indices = ball.indices;
    m.joints = new Uint16Array(ball.positions.length / 3 * 4);
    m.weights = new Float32Array(ball.positions.length / 3 * 4);
    for (let v = 0; v < m.weights.length / 4; v++) {
      const a = r(), b = r() * (1 - a);
      m.joints.set([v % 4, (v + 1) % 4, (v + 2) % 4, 0], v * 4);
      m.weights.set([a, b, 1 - a - b, 0], v * 4);
    }
    doc.characters.push(ch);
    doc.clips = [{ id: 'c', name: 'c', frameRate: 10, startFrame: 0, endFrame: 12, tracks: randomRotationTracks(r, 'hero', 4, [0, 1]) }];
    doc.activeClip = 'c';
    const scene = new CollisionScene(doc) as unknown as {
      pose(t: number, keep: boolean): void; parts: { verts: Uint32Array; bvh: TriangleBVH }[]; objects: { positions: Float64Array; prevPositions: Float64Array }[];
      ensureSkinned(p: number, previous: boolean): void; chunkBoxes(p: number, previous: boolean): { box: Float64Array; prevBox: Float64Array };
      chunksOf(p: number): { stamp: number }; frameStamp: number;
    };
    let gathered = 0, onDemand = 0, checked = 0;
    for (let f = 0; f <= 12; f++) {
      scene.pose(f / 10, f > 0);
      for (let p = 0; p < scene.parts.length; p++) {
        // every part skinned; its chunk boxes read on some frames only, so both ways occur
        scene.ensureSkinned(p, false);
        if ((p + f) % 3 === 0) continue;
        for (const previous of f > 0 ? [false, true] : [false]) {
          if (!previous) { if (scene.chunksOf(p).stamp === scene.frameStamp) gathered++; else onDemand++; }
          const c = scene.chunkBoxes(p, previous);
          const P = previous ? scene.objects[0].prevPositions : scene.objects[0].positions, B = previous ? c.prevBox : c.box;
          const { verts, offsets } = scene.parts[p].bvh.lazyChunks();
          for (let k = 0; k + 1 < offsets.length; k++) {
            const want = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
            for (let q = offsets[k]; q < offsets[k + 1]; q++) for (let a = 0; a < 3; a++) {
              const x = P[verts[q] + a];
              if (x < want[a]) want[a] = x; if (x > want[3 + a]) want[3 + a] = x;
            }
            for (let a = 0; a < 6; a++) expect(B[k * 6 + a], `frame ${f} part ${p} chunk ${k}${previous ? ' (previous sample)' : ''} coordinate ${a}`).toBe(want[a]);
            checked++;
          }
        }
      }
    }
    expect(gathered, 'chunk boxes gathered while skinning were checked').toBeGreaterThan(10);
    expect(onDemand, 'chunk boxes computed on demand were checked').toBeGreaterThan(10);
    expect(checked).toBeGreaterThan(100);
  });
});

describe('part boxes from influence sets (without skinning)', () => {
  for (const seed of [12, 13]) {
    it(`seed ${seed}: the union of each influence set's mapped bind box holds every skinned vertex of the part, at both samples, and is tighter than the box from the joints`, () => {
      const r = mulberry32(seed);
      const doc = createEmptyDocument('sets');
      const ch = chainCharacter('hero');
      const m = ch.meshes[0];
      const ball = icosphereMesh(0.4, 2);
      for (let v = 0; v < ball.positions.length / 3; v++) ball.positions[v * 3 + 1] = ball.positions[v * 3 + 1] * 2 + 0.75;
      m.positions = ball.positions;
      m.indices = ball.indices;
      m.joints = new Uint16Array(ball.positions.length / 3 * 4);
      m.weights = new Float32Array(ball.positions.length / 3 * 4);
      // four shared weight sets (one not normalised exactly, within the document tolerance)
      const palette = [[0.75, 0.25, 0], [0.5, 0.3, 0.2 * (1 + 4e-5)], [1, 0, 0], [0.1, 0.6, 0.3]];
      for (let v = 0; v < m.weights.length / 4; v++) {
        const w = palette[v % 4];
        m.joints.set([v % 4, (v + 1) % 4, (v + 2) % 4, 0], v * 4);
        m.weights.set([w[0], w[1], w[2], 0], v * 4);
      }
      doc.characters.push(ch);
      doc.clips = [{ id: 'c', name: 'c', frameRate: 10, startFrame: 0, endFrame: 10, tracks: randomRotationTracks(r, 'hero', 4, [0, 0.5, 1]) }];
      doc.activeClip = 'c';
      const scene = new CollisionScene(doc) as unknown as {
        pose(t: number, keep: boolean): void; skinAll(): void; partBox(p: number, out: Float64Array): void;
        parts: { verts: Uint32Array }[]; objects: { positions: Float64Array; prevPositions: Float64Array; parts: number[] }[];
        looseBox(p: number, previous: boolean, out: Float64Array, o: number): void; chunksOf(p: number): { skin: { perVertex: boolean } };
      };
      const cur = new Float64Array(6), prev = new Float64Array(6), joints = new Float64Array(6);
      let checked = 0, tighter = 0;
      for (let f = 0; f <= 10; f++) {
        scene.pose(f / 10, f > 0);
        const o = scene.objects[0];
        const boxes = new Map<number, [Float64Array, Float64Array]>();
        for (const p of o.parts) {
          // before any skinning of this sample: the boxes from the influence sets
          expect(scene.chunksOf(p).skin.perVertex, `part ${p} shares its influence sets`).toBe(false);
          scene.looseBox(p, false, cur, 0);
          if (f > 0) scene.looseBox(p, true, prev, 0);
          boxes.set(p, [cur.slice(), prev.slice()]);
          scene.partBox(p, joints);
          let vol = 1, jvol = 1;
          for (let k = 0; k < 3; k++) { vol *= cur[3 + k] - cur[k]; jvol *= joints[3 + k] - joints[k]; }
          if (vol < jvol) tighter++;
        }
        scene.skinAll();
        for (const p of o.parts) {
          const [c, q] = boxes.get(p)!;
          for (const v of scene.parts[p].verts) for (let k = 0; k < 3; k++) {
            const x = o.positions[v * 3 + k];
            expect(x >= c[k] && x <= c[3 + k], `frame ${f} part ${p} vertex ${v} axis ${k}: ${x} in [${c[k]}, ${c[3 + k]}]`).toBe(true);
            if (f > 0) {
              const y = o.prevPositions[v * 3 + k];
              expect(y >= q[k] && y <= q[3 + k], `frame ${f} previous sample, part ${p} vertex ${v} axis ${k}: ${y} in [${q[k]}, ${q[3 + k]}]`).toBe(true);
            }
            checked++;
          }
        }
      }
      expect(checked, 'vertices checked').toBeGreaterThan(1000);
      expect(tighter, 'part-frames where the sets give a smaller box than the joints').toBeGreaterThan(10);
    });
  }
});

describe('penetration depth of shallow crossings (regions made only of crossing triangles\' vertices)', () => {
  // Caps smaller than a ring of triangles: the deepest vertices sit in
  // regions whose every vertex is a crossing triangle's, the ones
  // closedSideDepth leaves to its second pass.
  for (const seed of [31, 32, 33]) {
    it(`seed ${seed}: bumpy balls overlapping by less than a triangle give the brute-force depth (both inside tests)`, () => {
      const r = mulberry32(seed);
      let compared = 0;
      for (let k = 0; k < 6; k++) {
        const ra = 0.18 + 0.06 * r(), rb = 0.1 + 0.06 * r();
        const a = uvSphere(24, 16, 0, 0, 0, ra, r, 0.15);
        const b = uvSphere(20, 12, 0, 0, 0, rb, r, 0.15);
        // a random direction, centres (ra + rb)·(0.97 … 1.0) apart: shallow or no crossing
        const ux = r() - 0.5, uy = r() - 0.5, uz = r() - 0.5, ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
        const d = (ra + rb) * (0.97 + 0.03 * r());
        const doc = propsDoc(
          prop('a', { positions: Float32Array.from(a.positions), indices: a.indices }, [0, 0, 0]),
          prop('b', { positions: Float32Array.from(b.positions), indices: b.indices }, [(d * ux) / ul, (d * uy) / ul, (d * uz) / ul]),
        );
        for (const parity of [false, true]) {
          const scene = new CollisionScene(doc);
          if (parity) for (const o of scene.objects) o.orientedOutward = false;
          const contacts = checkFrame(scene, 0).filter((c) => c.kind === 'intersect');
          scene.skinAll();
          for (const c of contacts) {
            const pa = scene.parts.findIndex((p) => scene.objects[p.object].id === c.a.objectId);
            const pb = scene.parts.findIndex((p) => scene.objects[p.object].id === c.b.objectId);
            const ref = bruteObjectDepth(scene, pa, pb);
            expect(Math.abs(c.depth - ref.depth), `seed ${seed} case ${k} ${parity ? 'parity' : 'pseudo-normal'}: depth ${c.depth} vs brute force ${ref.depth}`).toBeLessThan(1e-9);
            if (ref.depth > 0) compared++;
          }
        }
      }
      expect(compared, 'shallow crossings with depth were compared').toBeGreaterThan(4);
    });
  }
});

describe('ray-parity depth regions decided by parity carried across crossing edges (carryParity)', () => {
  // A character of two overlapping closed tubes (two shells, so ray parity
  // per shell) bent through a bumpy ball, and the ball through it: regions
  // of either side lie inside one shell, both or none; a region decided by a
  // neighbour's parity flipped per shell by the edge's exact crossings must
  // give the depth of a ray per region and of the brute force.
  for (const seed of [41, 42, 43]) {
    it(`seed ${seed}: two-shell character and bumpy balls give the brute-force depth with parity carried (and the same as a ray per region)`, () => {
      const r = mulberry32(seed);
      const frames = 4;
      const doc = createEmptyDocument('carry');
      const { ch, tracks } = bentTube('tubes', r, 0.15, frames);
      // the second shell: the same skinned tube, narrower and shifted sideways (overlapping the first)
      const m0 = ch.meshes[0], p1 = Float32Array.from(m0.positions);
      for (let v = 0; v < p1.length; v += 3) { p1[v] = 0.8 * p1[v] + 0.07; p1[v + 2] = 0.8 * p1[v + 2] + 0.02; }
      ch.meshes.push({ ...m0, name: 'tube2', positions: p1 });
      doc.characters.push(ch);
      const ball = uvSphere(24, 16, 0, 0, 0, 0.14 + 0.06 * r(), r, 0.3);
      doc.props.push(prop('ball', { positions: Float32Array.from(ball.positions), indices: ball.indices }, [0.05 + (r() - 0.5) * 0.1, 0.3 + 0.4 * r(), (r() - 0.5) * 0.1]));
      doc.clips = [{ id: 'c', name: 'c', frameRate: 30, startFrame: 0, endFrame: frames, tracks }];
      doc.activeClip = 'c';
      const carry = new CollisionScene(doc, 'c'), rays = new CollisionScene(doc, 'c');
      rays.parityCarry = false;
      const tubes = carry.objects.find((o) => o.id === 'tubes')!;
      expect(tubes.shellClosed, 'two closed shells').toEqual([true, true]);
      expect(tubes.orientedOutward, 'two overlapping shells: ray parity').toBe(false);
      for (const o of carry.objects) o.orientedOutward = false;
      for (const o of rays.objects) o.orientedOutward = false;
      let compared = 0;
      for (let f = 0; f <= frames; f++) {
        const cc = checkFrame(carry, f).filter((c) => c.kind === 'intersect');
        const cr = checkFrame(rays, f).filter((c) => c.kind === 'intersect');
        expect(cc.map((c) => `${c.a.part}|${c.b.part}`), `frame ${f}: the same crossing part pairs`).toEqual(cr.map((c) => `${c.a.part}|${c.b.part}`));
        carry.skinAll();
        for (let k = 0; k < cc.length; k++) {
          const c = cc[k];
          expect(c.depth, `frame ${f} ${c.a.part}/${c.b.part}: carried parity ${c.depth} vs a ray per region ${cr[k].depth}`).toBe(cr[k].depth);
          const pa = carry.parts.findIndex((p) => carry.objects[p.object].id === c.a.objectId && p.joint === c.a.joint);
          const pb = carry.parts.findIndex((p) => carry.objects[p.object].id === c.b.objectId && p.joint === c.b.joint);
          const ref = bruteObjectDepth(carry, pa, pb);
          expect(Math.abs(c.depth - ref.depth), `frame ${f} ${c.a.part}/${c.b.part}: depth ${c.depth} vs brute force ${ref.depth}`).toBeLessThan(1e-9);
          expect(ref.undecided, 'vertices the winding number cannot decide are shallower').toBeLessThanOrEqual(ref.depth + 1e-9);
          if (ref.depth > 0) compared++;
        }
      }
      expect(compared, 'crossings with depth were compared').toBeGreaterThan(3);
      expect(carry.depthTests.carried, 'regions decided by carried parity').toBeGreaterThan(5);
      console.log(`seed ${seed}: region inside tests ${JSON.stringify(carry.depthTests)} (reference ${JSON.stringify(rays.depthTests)})`);
      expect(carry.depthTests.shared, 'regions decided by a vertex shared with another part').toBeGreaterThan(0);
      expect(rays.depthTests.carried, 'the reference casts a ray per region').toBe(0);
    });
  }
});

describe('depth candidates walked a second time from the side\'s last search (depthRewalk)', () => {
  // A walk over the other surface ends in a local minimum of the distance
  // (inside a bumpy ball or a tube, often on the side the crossing is on);
  // before a full search a candidate is walked again from the triangle the
  // side's last search found, and ruled out when that bound is within the
  // running maximum. Depths must equal those without the second walk bit for
  // bit (both inside tests), and the brute force.
  for (const seed of [51, 52, 53]) {
    it(`seed ${seed}: a bending tube through bumpy balls gives the brute-force depth and the depth without second walks, with fewer searches`, () => {
      const r = mulberry32(seed);
      const frames = 3;
      const doc = createEmptyDocument('rewalk');
      const { ch, tracks } = bentTube('tube', r, 0.12, frames);
      doc.characters.push(ch);
      for (let k = 0; k < 2; k++) {
        const ball = uvSphere(24, 16, 0, 0, 0, 0.2 + 0.06 * r(), r, 0.35);
        doc.props.push(prop(`ball${k}`, { positions: Float32Array.from(ball.positions), indices: ball.indices }, [(r() - 0.5) * 0.15, 0.25 + 0.5 * k + 0.1 * r(), (r() - 0.5) * 0.15]));
      }
      doc.clips = [{ id: 'c', name: 'c', frameRate: 30, startFrame: 0, endFrame: frames, tracks }];
      doc.activeClip = 'c';
      // pseudo-normal and ray-parity inside tests, each with and without second walks
      const scenes = [false, true].flatMap((parity) => [true, false].map((rewalk) => {
        const s = new CollisionScene(doc, 'c');
        s.depthRewalk = rewalk;
        if (parity) for (const o of s.objects) o.orientedOutward = false;
        return s;
      }));
      let compared = 0;
      for (let f = 0; f <= frames; f++) {
        const found = scenes.map((s) => checkFrame(s, f).filter((c) => c.kind === 'intersect'));
        const names = (k: number) => found[k].map((c) => `${c.a.part}|${c.b.part}`);
        for (let k = 1; k < 4; k++) {
          expect(names(k), `frame ${f}: the same crossing part pairs`).toEqual(names(0));
          expect(found[k].map((c) => c.depth), `frame ${f}: the same depths (scene ${k})`).toEqual(found[0].map((c) => c.depth));
        }
        const scene = scenes[0];
        scene.skinAll();
        for (const c of found[0]) {
          const pa = scene.parts.findIndex((p) => scene.objects[p.object].id === c.a.objectId && p.joint === c.a.joint);
          const pb = scene.parts.findIndex((p) => scene.objects[p.object].id === c.b.objectId && p.joint === c.b.joint);
          const brute = bruteObjectDepth(scene, pa, pb);
          expect(Math.abs(c.depth - brute.depth), `frame ${f} ${c.a.part}/${c.b.part}: depth ${c.depth} vs brute force ${brute.depth}`).toBeLessThan(1e-9);
          expect(brute.undecided, 'vertices the winding number cannot decide are shallower').toBeLessThanOrEqual(brute.depth + 1e-9);
          if (brute.depth > 0) compared++;
        }
      }
      expect(compared, 'crossings with depth were compared').toBeGreaterThan(4);
      for (const k of [0, 2]) {
        const t = scenes[k].depthTests, ref = scenes[k + 1].depthTests;
        console.log(`seed ${seed} ${k ? 'parity' : 'pseudo-normal'}: ${JSON.stringify(t)} (without second walks ${JSON.stringify(ref)})`);
        expect(t.rewalked, 'candidates ruled out by a second walk').toBeGreaterThan(5);
        expect(t.searches, `full searches ${t.searches} with second walks, ${ref.searches} without`).toBeLessThan(ref.searches);
        expect(ref.rewalked, 'the reference walks once').toBe(0);
      }
    });
  }
});
