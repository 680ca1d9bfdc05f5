/**
 * Random characters for the skeleton tests (seeded). Not part of the public API.
 */
import type { Character, SkinnedMesh, Transform } from '../document/types';
import { mat4Invert } from '../math/mat4';
import { randomUnitQuat } from '../anim/testkit';
import { Rig } from './rig';
import { hypot3 } from '../math/libm';

export function randomTransform(r: () => number, uniformScale = false): Transform {
  const s = 0.5 + r();
  return {
    translation: [r() * 2 - 1, r() * 2 - 1, r() * 2 - 1],
    rotation: randomUnitQuat(r) as [number, number, number, number],
    scale: uniformScale ? [s, s, s] : [0.5 + r(), 0.5 + r(), 0.5 + r()],
  };
}

/** A random tree in parent-first order: joint j's parent is a random earlier joint (joint 0 and ~5% more are roots). */
export function randomCharacter(r: () => number, jointCount: number, opts: { uniformScale?: boolean; id?: string } = {}): Character {
  const joints = [];
  for (let j = 0; j < jointCount; j++) {
    const parent = j === 0 || r() < 0.05 ? -1 : Math.floor(r() * j);
    joints.push({ name: `j${j}`, parent, rest: randomTransform(r, opts.uniformScale) });
  }
  return {
    id: opts.id ?? 'hero',
    name: 'Hero',
    transform: randomTransform(r, opts.uniformScale),
    skeleton: { joints },
    meshes: [],
    materials: [],
    collision: { enabled: true, groups: 1, mask: 1, selfCollision: false, adjacentHops: 1 },
    mode: 'keyframed',
  };
}

/**
 * A random skinned mesh over `character`: skinJoints a random subset (in
 * random order) of the joints, inverse binds = inverse rest world matrices,
 * 1..4 influences per vertex (some zero weights in between), weights summing to 1.
 */
export function randomSkinnedMesh(r: () => number, character: Character, vertexCount: number): SkinnedMesh {
  const n = character.skeleton.joints.length;
  const order = Array.from({ length: n }, (_, i) => i).sort(() => r() - 0.5);
  const slots = Math.max(1, Math.min(n, 2 + Math.floor(r() * n)));
  const skinJoints = Int32Array.from(order.slice(0, slots));
  const rig = new Rig(character);
  const inverseBindMatrices = new Float32Array(slots * 16);
  const inv = new Float64Array(16);
  for (let k = 0; k < slots; k++) {
    mat4Invert(inv, 0, rig.world, skinJoints[k] * 16);
    inverseBindMatrices.set(inv, k * 16);
  }
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const joints = new Uint16Array(vertexCount * 4);
  const weights = new Float32Array(vertexCount * 4);
  for (let v = 0; v < vertexCount; v++) {
    for (let c = 0; c < 3; c++) positions[v * 3 + c] = r() * 4 - 2;
    const nx = r() - 0.5, ny = r() - 0.5, nz = r() - 0.5, l = hypot3(nx, ny, nz) || 1;
    normals[v * 3] = nx / l;
    normals[v * 3 + 1] = ny / l;
    normals[v * 3 + 2] = nz / l;
    const k = 1 + Math.floor(r() * 4);
    let sum = 0;
    for (let i = 0; i < 4; i++) {
      joints[v * 4 + i] = Math.floor(r() * slots);
      const w = i < k && r() > 0.1 ? r() : 0;
      weights[v * 4 + i] = w;
      sum += w;
    }
    if (sum === 0) {
      weights[v * 4] = 1;
      sum = 1;
    }
    for (let i = 0; i < 4; i++) weights[v * 4 + i] /= sum;
  }
  const indices = new Uint32Array(Math.floor(vertexCount / 3) * 3);
  for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(r() * vertexCount);
  return { name: 'body', positions, normals, indices, joints, weights, skinJoints, inverseBindMatrices, material: 0 };
}
