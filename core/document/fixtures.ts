/**
 * Small, valid documents and closed meshes for tests (of this module and
 * others). Pure data builders; nothing here is used by the app itself.
 */
import { createEmptyDocument, defaultCharacterCollision, defaultCollision, defaultMaterial, identityTransform } from './defaults';
import type { Character, Clip, ImpulseDocument, Prop, SkinnedMesh, Track } from './types';
import { hypot3 } from '../math/libm';

export interface TriMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

export { mulberry32 } from '../math/random';

/** Winds every triangle of a mesh that is star-shaped about `center` outward. */
function orientOutward(positions: ArrayLike<number>, indices: Uint32Array, center: [number, number, number]): void {
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const gx = (positions[a] + positions[b] + positions[c]) / 3 - center[0];
    const gy = (positions[a + 1] + positions[b + 1] + positions[c + 1]) / 3 - center[1];
    const gz = (positions[a + 2] + positions[b + 2] + positions[c + 2]) / 3 - center[2];
    if (nx * gx + ny * gy + nz * gz < 0) {
      const tmp = indices[t + 1];
      indices[t + 1] = indices[t + 2];
      indices[t + 2] = tmp;
    }
  }
}

/** Axis-aligned box with half extents (hx, hy, hz) centred at the origin: 8 vertices, 12 outward triangles. */
export function boxMesh(hx: number, hy: number, hz: number): TriMesh {
  const positions = new Float32Array(24);
  for (let v = 0; v < 8; v++) {
    positions[3 * v] = v & 1 ? hx : -hx;
    positions[3 * v + 1] = v & 2 ? hy : -hy;
    positions[3 * v + 2] = v & 4 ? hz : -hz;
  }
  // Faces as quads (a, b, c, d) around each face; two triangles each.
  const quads = [
    [0, 2, 6, 4], [1, 5, 7, 3], // -x, +x
    [0, 4, 5, 1], [2, 3, 7, 6], // -y, +y
    [0, 1, 3, 2], [4, 6, 7, 5], // -z, +z
  ];
  const indices = new Uint32Array(36);
  quads.forEach(([a, b, c, d], f) => indices.set([a, b, c, a, c, d], f * 6));
  orientOutward(positions, indices, [0, 0, 0]);
  return { positions, indices };
}

/** Icosphere of radius `r` (vertices on the sphere), `subdivisions` levels: 20·4ⁿ triangles, shared vertices. */
export function icosphereMesh(r: number, subdivisions: number): TriMesh {
  const t = (1 + Math.sqrt(5)) / 2;
  const verts: number[][] = [
    [-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0],
    [0, -1, t], [0, 1, t], [0, -1, -t], [0, 1, -t],
    [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1],
  ].map(([x, y, z]) => {
    const l = hypot3(x, y, z);
    return [x / l, y / l, z / l];
  });
  let faces: number[][] = [
    [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
    [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
    [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
    [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
  ];
  for (let s = 0; s < subdivisions; s++) {
    const cache = new Map<string, number>();
    const mid = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let m = cache.get(key);
      if (m === undefined) {
        const [x, y, z] = [0, 1, 2].map((k) => (verts[a][k] + verts[b][k]) / 2);
        const l = hypot3(x, y, z);
        m = verts.length;
        verts.push([x / l, y / l, z / l]);
        cache.set(key, m);
      }
      return m;
    };
    const next: number[][] = [];
    for (const [a, b, c] of faces) {
      const ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.push([a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]);
    }
    faces = next;
  }
  const positions = new Float32Array(verts.length * 3);
  verts.forEach((v, i) => positions.set([v[0] * r, v[1] * r, v[2] * r], i * 3));
  const indices = new Uint32Array(faces.flat());
  orientOutward(positions, indices, [0, 0, 0]);
  return { positions, indices };
}

/** Tetrahedron with the given 4 corners, wound outward. */
export function tetraMesh(p: number[][]): TriMesh {
  const positions = new Float32Array(p.flat());
  const indices = new Uint32Array([0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2]);
  const c: [number, number, number] = [0, 1, 2].map((k) => (p[0][k] + p[1][k] + p[2][k] + p[3][k]) / 4) as [number, number, number];
  orientOutward(positions, indices, c);
  return { positions, indices };
}

/** A 4-joint chain character (root at the origin, joints 0.5 m apart along +y) with one skinned box mesh. */
export function chainCharacter(id = 'hero'): Character {
  const jointCount = 4;
  const joints = Array.from({ length: jointCount }, (_, i) => ({
    name: `joint${i}`,
    parent: i - 1,
    rest: { translation: [0, i === 0 ? 0 : 0.5, 0] as [number, number, number], rotation: [0, 0, 0, 1] as [number, number, number, number], scale: [1, 1, 1] as [number, number, number] },
  }));
  const box = boxMesh(0.1, 0.75, 0.1);
  const vertexCount = box.positions.length / 3;
  for (let v = 0; v < vertexCount; v++) box.positions[3 * v + 1] += 0.75;
  const jointsAttr = new Uint16Array(4 * vertexCount);
  const weights = new Float32Array(4 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const y = box.positions[3 * v + 1];
    const slot = Math.min(jointCount - 1, Math.floor(y / 0.5));
    jointsAttr.set([slot, Math.max(0, slot - 1), 0, 0], 4 * v);
    weights.set([0.75, 0.25, 0, 0], 4 * v);
  }
  const ibm = new Float32Array(16 * jointCount);
  for (let j = 0; j < jointCount; j++) {
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5 * j, 0, 1], 16 * j);
  }
  const mesh: SkinnedMesh = {
    name: 'body',
    positions: box.positions,
    indices: box.indices,
    joints: jointsAttr,
    weights,
    skinJoints: new Int32Array([0, 1, 2, 3]),
    inverseBindMatrices: ibm,
    material: 0,
  };
  return {
    id,
    name: 'Hero',
    transform: identityTransform(),
    skeleton: { joints },
    meshes: [mesh],
    materials: [defaultMaterial('skin')],
    collision: defaultCharacterCollision(),
    mode: 'keyframed',
    source: { file: 'hero.glb', index: 0, name: 'Armature' },
  };
}

export function boxProp(id = 'crate'): Prop {
  const box = boxMesh(0.25, 0.25, 0.25);
  return {
    id,
    name: 'Crate',
    transform: { translation: [1, 0.25, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    mesh: box,
    material: defaultMaterial('wood'),
    physics: { mode: 'keyframed', massKg: 4, restitution: 0.3, friction: 0.6 },
    collision: defaultCollision(),
  };
}

export function ballProp(id = 'ball'): Prop {
  const sphere = icosphereMesh(0.11, 2);
  return {
    id,
    name: 'Ball',
    transform: { translation: [2, 1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    mesh: sphere,
    material: defaultMaterial('leather'),
    physics: { mode: 'dynamic', densityKgPerM3: 200, restitution: 0.8, friction: 0.4 },
    collision: defaultCollision(),
  };
}

/**
 * A valid document: the chain character `hero`, props `crate` (massKg) and
 * `ball` (density), and clip `swing` with tracks of every interpolation:
 * 0 hero joint 1 rotation linear, 1 hero joint 0 translation cubic,
 * 2 crate translation step, 3 ball rotation cubic.
 */
export function sampleDocument(): ImpulseDocument {
  const doc = createEmptyDocument('Sample');
  const s = Math.SQRT1_2;
  const tracks: Track[] = [
    {
      target: { kind: 'joint', character: 'hero', joint: 1 },
      path: 'rotation',
      interpolation: 'linear',
      times: [0, 0.5, 1],
      values: [0, 0, 0, 1, 0, 0, s, s, 0, 0, 1, 0],
    },
    {
      target: { kind: 'joint', character: 'hero', joint: 0 },
      path: 'translation',
      interpolation: 'cubic',
      times: [0, 1],
      values: [0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0.5, 0, 0, 0, 0, 0],
    },
    {
      target: { kind: 'prop', prop: 'crate' },
      path: 'translation',
      interpolation: 'step',
      times: [0, 0.25, 0.5],
      values: [1, 0.25, 0, 1, 0.5, 0, 1, 0.25, 0],
    },
    {
      target: { kind: 'prop', prop: 'ball' },
      path: 'rotation',
      interpolation: 'cubic',
      times: [0, 1],
      values: [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, -1, 0, 0, 0, 0, s, s, 0, 0, 0, 0],
    },
  ];
  doc.characters = [chainCharacter('hero')];
  doc.props = [boxProp('crate'), ballProp('ball')];
  doc.clips = [{ id: 'swing', name: 'Swing', frameRate: 30, startFrame: 0, endFrame: 30, tracks }];
  doc.activeClip = 'swing';
  doc.check = { ignore: [{ a: { object: 'hero', joint: 3 }, b: { object: 'crate' }, note: 'hand rests on crate' }], groupNames: ['default', 'props'] };
  return doc;
}

/** Times to evaluate a clip at in tests: 41 over its frames, every key time and the midpoints between a track's keys. */
export function clipSampleTimes(clip: Clip): number[] {
  const t = new Set<number>();
  const span = clip.endFrame - clip.startFrame;
  for (let k = 0; k <= 40; k++) t.add((clip.startFrame + (span * k) / 40) / clip.frameRate);
  for (const tr of clip.tracks)
    for (let k = 0; k < tr.times.length; k++) {
      t.add(tr.times[k]);
      if (k > 0) t.add((tr.times[k] + tr.times[k - 1]) / 2);
    }
  return [...t];
}
