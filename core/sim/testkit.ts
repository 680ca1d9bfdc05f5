/**
 * Scene builders for the simulator tests and benchmark (not part of the public API).
 */
import { createEmptyDocument, defaultCollision, defaultMaterial } from '../document/defaults';
import { boxMesh, icosphereMesh } from '../document/fixtures';
import type { ImpulseDocument, Prop, Track } from '../document/types';
import { importGltf } from '../io/importGltf';
import { STATE_STRIDE } from './rigid';
import type { SimWorld } from './world';

/** A ball prop (icosphere) with the given mass, restitution and friction, at `position`. */
export function ballPropAt(id: string, radius: number, position: [number, number, number], physics: Partial<Prop['physics']> = {}, subdivisions = 2): Prop {
  const m = icosphereMesh(radius, subdivisions);
  return {
    id,
    name: id,
    transform: { translation: position, rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    mesh: m,
    material: defaultMaterial('ball'),
    physics: { mode: 'dynamic', massKg: 1, restitution: 0.5, friction: 0.5, ...physics },
    collision: defaultCollision(),
  };
}

export function boxPropAt(id: string, half: [number, number, number], position: [number, number, number], physics: Partial<Prop['physics']> = {}, rotation: [number, number, number, number] = [0, 0, 0, 1]): Prop {
  const m = boxMesh(half[0], half[1], half[2]);
  return {
    id,
    name: id,
    transform: { translation: position, rotation, scale: [1, 1, 1] },
    mesh: m,
    material: defaultMaterial('box'),
    physics: { mode: 'dynamic', massKg: 1, restitution: 0, friction: 0.5, ...physics },
    collision: defaultCollision(),
  };
}

/** A document with the given props, ground at `groundY`, one clip `clip` of `frames` frames at `fps`. */
export function sceneDoc(props: Prop[], opts: { groundY?: number | null; fps?: number; frames?: number; tracks?: Track[]; gravity?: [number, number, number] } = {}): ImpulseDocument {
  const doc = createEmptyDocument('sim test');
  doc.groundY = opts.groundY === undefined ? 0 : opts.groundY;
  if (opts.gravity) doc.gravity = opts.gravity;
  doc.props = props;
  doc.clips = [{ id: 'clip', name: 'clip', frameRate: opts.fps ?? 30, startFrame: 0, endFrame: opts.frames ?? 60, tracks: opts.tracks ?? [] }];
  doc.activeClip = 'clip';
  return doc;
}

/** Linear translation track of a prop: from p0 at t0 to p1 at t1. */
export function linearTranslation(prop: string, t0: number, p0: number[], t1: number, p1: number[]): Track {
  return { target: { kind: 'prop', prop }, path: 'translation', interpolation: 'linear', times: [t0, t1], values: [...p0, ...p1] };
}

/** A regular octahedron (vertices on the axes at distance r) as a dynamic prop: a "ball" whose contacts are single vertices. */
export function octahedronProp(id: string, r: number, position: [number, number, number], physics: Partial<Prop['physics']> = {}): Prop {
  const positions = new Float32Array([r, 0, 0, -r, 0, 0, 0, r, 0, 0, -r, 0, 0, 0, r, 0, 0, -r]);
  // outward winding: (x, y, z) octant faces
  const faces: number[] = [];
  for (const sx of [0, 1]) for (const sy of [2, 3]) for (const sz of [4, 5]) {
    const flip = (sx === 1 ? 1 : 0) ^ (sy === 3 ? 1 : 0) ^ (sz === 5 ? 1 : 0);
    if (flip) faces.push(sx, sz, sy);
    else faces.push(sx, sy, sz);
  }
  return {
    id,
    name: id,
    transform: { translation: position, rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    mesh: { positions, indices: new Uint32Array(faces) },
    material: defaultMaterial('ball'),
    physics: { mode: 'dynamic', massKg: 1, restitution: 0.5, friction: 0.5, ...physics },
    collision: defaultCollision(),
  };
}

/** Kinetic plus gravitational potential energy (J) of a world's bodies, height along y. */
export function mechanicalEnergy(w: SimWorld): number {
  const B = w.bodies, st = B.state, g = -B.gravity[1];
  let e = 0;
  for (let i = 0; i < B.count; i++) e += B.kineticEnergy(st, i) + (g * st[STATE_STRIDE * i + 1]) / B.invMass[i];
  return e;
}

/** Height (y, m) of the lowest vertex of any of a world's bodies. */
export function lowestVertexY(w: SimWorld): number {
  let low = Infinity;
  for (let b = 0; b < w.bodies.count; b++) {
    const v = w.bodyVertices(b);
    for (let q = 1; q < v.length; q += 3) low = Math.min(low, v[q]);
  }
  return low;
}

/**
 * The repros' ragdoll drop: the mannequin (`glb`: assets/characters/mannequin.glb's bytes) alone as the
 * dynamic character 'ragdoll', posed by its walk clip (4 s at 30 fps), above the ground at 0, raised by
 * `raiseM` (it then lands about √(2 g raiseM) faster).
 */
export async function ragdollWalkDoc(glb: Uint8Array, raiseM = 0): Promise<ImpulseDocument> {
  const imported = await importGltf(glb, 'mannequin.glb');
  const walk = imported.clips.find((c) => c.name === 'walk')!;
  const doc = sceneDoc([], { frames: 120, fps: 30 });
  const ch = imported.characters[0], [x, y, z] = ch.transform.translation;
  doc.characters = [{ ...ch, id: 'ragdoll', name: 'ragdoll', mode: 'dynamic' as const, transform: raiseM === 0 ? ch.transform : { ...ch.transform, translation: [x, y + raiseM, z] } }];
  doc.clips[0].tracks = walk.tracks.map((t): Track => (t.target.kind === 'joint' ? { ...t, target: { ...t.target, character: 'ragdoll' } } : t));
  return doc;
}

/**
 * Steps two worlds side by side (`before(s)` first, if given) and returns the index of the first step
 * after which their states differ (Object.is per number), or -1 if none does in `steps` steps.
 */
export function firstDifference(a: SimWorld, b: SimWorld, steps: number, before?: (s: number) => void): number {
  for (let s = 0; s < steps; s++) {
    before?.(s);
    a.step();
    b.step();
    const x = a.bodies.state, y = b.bodies.state;
    for (let k = 0; k < x.length; k++) if (!Object.is(x[k], y[k])) return s;
  }
  return -1;
}
