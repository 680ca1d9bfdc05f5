/**
 * Linear blend skinning with glTF semantics:
 *
 *   v' = Σᵢ wᵢ · (jointWorldᵢ · inverseBindᵢ) · v
 *
 * (the skinned mesh node's own transform is ignored, as glTF specifies;
 * three.js's `bindMatrix`/`bindMatrixInverse` cancel for glTF skins). World
 * matrices come from `Rig.world`, which already includes the character's
 * placement, so results are in world space.
 *
 * Everything works on flat typed arrays the caller owns; nothing allocates.
 */
import type { SkinnedMesh } from '../document/types';
import { mat4Multiply } from '../math/mat4';

type SkinMesh = Pick<SkinnedMesh, 'positions' | 'joints' | 'weights' | 'skinJoints' | 'inverseBindMatrices'> & { normals?: Float32Array; name?: string };
type Writable = { [i: number]: number; length: number };

/**
 * out[16k..] = world[16·skinJoints[k]..] · inverseBind[k] for every skin
 * joint slot k. Pass `Rig.worldDot` instead of `Rig.world` to get the time
 * derivatives of the skin matrices (inverse binds are constant).
 */
export function computeSkinMatrices<T extends Writable>(mesh: Pick<SkinnedMesh, 'skinJoints' | 'inverseBindMatrices'> & { name?: string }, world: ArrayLike<number>, out: T): T {
  const slots = mesh.skinJoints.length;
  if (out.length < slots * 16) throw new RangeError(`skin matrices buffer has ${out.length} numbers, mesh "${mesh.name ?? ''}" needs ${slots * 16}`);
  if (mesh.inverseBindMatrices.length < slots * 16)
    throw new RangeError(`mesh "${mesh.name ?? ''}": ${mesh.inverseBindMatrices.length / 16} inverse bind matrices for ${slots} skin joints`);
  const ibm = mesh.inverseBindMatrices;
  for (let k = 0; k < slots; k++) {
    const j = mesh.skinJoints[k];
    const wo = j * 16;
    if (j < 0 || wo + 16 > world.length) throw new RangeError(`mesh "${mesh.name ?? ''}": skinJoints[${k}] = ${j} is not a joint of the skeleton (${world.length / 16} joints)`);
    mat4Multiply(out, k * 16, world, wo, ibm, k * 16);
  }
  return out;
}

function checkBuffers(mesh: SkinMesh, skinMatrices: ArrayLike<number>, out: Writable, what: string): number {
  const n = mesh.positions.length / 3;
  if (out.length < n * 3) throw new RangeError(`${what} buffer has ${out.length} numbers, mesh "${mesh.name ?? ''}" needs ${n * 3}`);
  if (skinMatrices.length < mesh.skinJoints.length * 16)
    throw new RangeError(`skin matrices have ${skinMatrices.length} numbers, mesh "${mesh.name ?? ''}" needs ${mesh.skinJoints.length * 16}`);
  if (mesh.joints.length < n * 4 || mesh.weights.length < n * 4)
    throw new RangeError(`mesh "${mesh.name ?? ''}": joints/weights need 4 per vertex for ${n} vertices`);
  return n;
}

/**
 * Skins positions (and optionally normals) of `mesh` with `skinMatrices`
 * (from computeSkinMatrices) into `out` (xyz per vertex). Normals are
 * transformed by the inverse transpose of the blended matrix and
 * renormalised (for rigid joints that is three.js's result).
 */
export function skinPositions<T extends Writable>(mesh: SkinMesh, skinMatrices: ArrayLike<number>, out: T, outNormals?: Writable): T {
  const n = checkBuffers(mesh, skinMatrices, out, 'positions');
  const doNormals = outNormals !== undefined;
  const normals = mesh.normals;
  if (doNormals) {
    if (!normals || normals.length < n * 3) throw new RangeError(`mesh "${mesh.name ?? ''}" has no normals to skin`);
    if (outNormals.length < n * 3) throw new RangeError(`normals buffer has ${outNormals.length} numbers, mesh "${mesh.name ?? ''}" needs ${n * 3}`);
  }
  const P = mesh.positions, J = mesh.joints, W = mesh.weights, S = skinMatrices;
  const slots = mesh.skinJoints.length;
  for (let v = 0; v < n; v++) {
    let m0 = 0, m1 = 0, m2 = 0, m4 = 0, m5 = 0, m6 = 0, m8 = 0, m9 = 0, m10 = 0, m12 = 0, m13 = 0, m14 = 0;
    const v4 = v * 4;
    for (let i = 0; i < 4; i++) {
      const w = W[v4 + i];
      if (w === 0) continue;
      const slot = J[v4 + i];
      if (slot >= slots) throw new RangeError(`mesh "${mesh.name ?? ''}": vertex ${v} uses skin joint slot ${slot}, mesh has ${slots}`);
      const o = slot * 16;
      m0 += w * S[o];
      m1 += w * S[o + 1];
      m2 += w * S[o + 2];
      m4 += w * S[o + 4];
      m5 += w * S[o + 5];
      m6 += w * S[o + 6];
      m8 += w * S[o + 8];
      m9 += w * S[o + 9];
      m10 += w * S[o + 10];
      m12 += w * S[o + 12];
      m13 += w * S[o + 13];
      m14 += w * S[o + 14];
    }
    const v3 = v * 3;
    const x = P[v3], y = P[v3 + 1], z = P[v3 + 2];
    out[v3] = m0 * x + m4 * y + m8 * z + m12;
    out[v3 + 1] = m1 * x + m5 * y + m9 * z + m13;
    out[v3 + 2] = m2 * x + m6 * y + m10 * z + m14;
    if (doNormals) {
      const nx = normals![v3], ny = normals![v3 + 1], nz = normals![v3 + 2];
      // Cofactor matrix C = det · A⁻ᵀ (A[r][c] = m[c*4 + r]); the sign of det keeps orientation.
      const c00 = m5 * m10 - m9 * m6, c01 = m9 * m2 - m1 * m10, c02 = m1 * m6 - m5 * m2;
      const c10 = m6 * m8 - m4 * m10, c11 = m0 * m10 - m8 * m2, c12 = m4 * m2 - m0 * m6;
      const c20 = m4 * m9 - m8 * m5, c21 = m8 * m1 - m0 * m9, c22 = m0 * m5 - m4 * m1;
      let ox = c00 * nx + c01 * ny + c02 * nz;
      let oy = c10 * nx + c11 * ny + c12 * nz;
      let oz = c20 * nx + c21 * ny + c22 * nz;
      const det = m0 * c00 + m4 * c01 + m8 * c02;
      const l = Math.sqrt(ox * ox + oy * oy + oz * oz);
      const s = l > 0 ? (det < 0 ? -1 : 1) / l : 0;
      ox *= s;
      oy *= s;
      oz *= s;
      outNormals![v3] = ox;
      outNormals![v3 + 1] = oy;
      outNormals![v3 + 2] = oz;
    }
  }
  return out;
}

/**
 * Velocities of the skinned vertices: Σᵢ wᵢ · Ṡᵢ · v, with Ṡ from
 * `computeSkinMatrices(mesh, rig.worldDot, skinMatrixDots)`. Exact, since
 * skinning is linear in the skin matrices.
 */
export function skinVelocities<T extends Writable>(mesh: SkinMesh, skinMatrixDots: ArrayLike<number>, out: T): T {
  const n = checkBuffers(mesh, skinMatrixDots, out, 'velocities');
  const P = mesh.positions, J = mesh.joints, W = mesh.weights, S = skinMatrixDots;
  const slots = mesh.skinJoints.length;
  for (let v = 0; v < n; v++) {
    const v3 = v * 3, v4 = v * 4;
    const x = P[v3], y = P[v3 + 1], z = P[v3 + 2];
    let ox = 0, oy = 0, oz = 0;
    for (let i = 0; i < 4; i++) {
      const w = W[v4 + i];
      if (w === 0) continue;
      const slot = J[v4 + i];
      if (slot >= slots) throw new RangeError(`mesh "${mesh.name ?? ''}": vertex ${v} uses skin joint slot ${slot}, mesh has ${slots}`);
      const o = slot * 16;
      ox += w * (S[o] * x + S[o + 4] * y + S[o + 8] * z + S[o + 12]);
      oy += w * (S[o + 1] * x + S[o + 5] * y + S[o + 9] * z + S[o + 13]);
      oz += w * (S[o + 2] * x + S[o + 6] * y + S[o + 10] * z + S[o + 14]);
    }
    out[v3] = ox;
    out[v3 + 1] = oy;
    out[v3 + 2] = oz;
  }
  return out;
}

/**
 * LBS of vertex v alone into out[o..o+2], with the arithmetic of
 * `skinPositions` (results are identical): for callers that skin only the
 * vertices a query reaches. Slots are not range-checked here.
 */
export function skinVertex(mesh: Pick<SkinnedMesh, 'positions' | 'joints' | 'weights'>, S: ArrayLike<number>, v: number, out: Writable, o: number): void {
  const J = mesh.joints, W = mesh.weights, P = mesh.positions;
  let m0 = 0, m1 = 0, m2 = 0, m4 = 0, m5 = 0, m6 = 0, m8 = 0, m9 = 0, m10 = 0, m12 = 0, m13 = 0, m14 = 0;
  const v4 = v * 4;
  for (let i = 0; i < 4; i++) {
    const w = W[v4 + i];
    if (w === 0) continue;
    const so = J[v4 + i] * 16;
    m0 += w * S[so];
    m1 += w * S[so + 1];
    m2 += w * S[so + 2];
    m4 += w * S[so + 4];
    m5 += w * S[so + 5];
    m6 += w * S[so + 6];
    m8 += w * S[so + 8];
    m9 += w * S[so + 9];
    m10 += w * S[so + 10];
    m12 += w * S[so + 12];
    m13 += w * S[so + 13];
    m14 += w * S[so + 14];
  }
  const v3 = v * 3;
  const x = P[v3], y = P[v3 + 1], z = P[v3 + 2];
  out[o] = m0 * x + m4 * y + m8 * z + m12;
  out[o + 1] = m1 * x + m5 * y + m9 * z + m13;
  out[o + 2] = m2 * x + m6 * y + m10 * z + m14;
}

/** Velocity of vertex v alone, Σ wᵢ Ṡᵢ v (the arithmetic of `skinVelocities`), into out[o..o+2]. Slots are not range-checked here. */
export function skinVertexVelocity(mesh: Pick<SkinnedMesh, 'positions' | 'joints' | 'weights'>, S: ArrayLike<number>, v: number, out: Writable, o: number): void {
  const J = mesh.joints, W = mesh.weights, P = mesh.positions;
  const v3 = v * 3, v4 = v * 4;
  const x = P[v3], y = P[v3 + 1], z = P[v3 + 2];
  let ox = 0, oy = 0, oz = 0;
  for (let i = 0; i < 4; i++) {
    const w = W[v4 + i];
    if (w === 0) continue;
    const o = J[v4 + i] * 16;
    ox += w * (S[o] * x + S[o + 4] * y + S[o + 8] * z + S[o + 12]);
    oy += w * (S[o + 1] * x + S[o + 5] * y + S[o + 9] * z + S[o + 13]);
    oz += w * (S[o + 2] * x + S[o + 6] * y + S[o + 10] * z + S[o + 14]);
  }
  out[o] = ox;
  out[o + 1] = oy;
  out[o + 2] = oz;
}

/**
 * For each vertex, the skeleton joint index with the largest skin weight
 * (the first such slot on ties), or -1 for a vertex with no positive weight.
 * Names the body part a vertex (or triangle, via its vertices) belongs to.
 */
export function dominantJointPerVertex(mesh: Pick<SkinnedMesh, 'positions' | 'joints' | 'weights' | 'skinJoints'>, out?: Int32Array): Int32Array {
  const n = mesh.positions.length / 3;
  const res = out ?? new Int32Array(n);
  if (res.length < n) throw new RangeError(`dominant joint buffer has ${res.length} entries, mesh needs ${n}`);
  const J = mesh.joints, W = mesh.weights;
  for (let v = 0; v < n; v++) {
    let best = -1;
    let bestW = 0;
    for (let i = 0; i < 4; i++) {
      const w = W[v * 4 + i];
      if (w > bestW) {
        bestW = w;
        best = J[v * 4 + i];
      }
    }
    res[v] = best < 0 ? -1 : mesh.skinJoints[best];
  }
  return res;
}

/**
 * For each triangle, the skeleton joint that dominates it: the joint with
 * the largest summed weight over its three vertices (-1 if none).
 */
export function dominantJointPerTriangle(mesh: Pick<SkinnedMesh, 'indices' | 'joints' | 'weights' | 'skinJoints'>, out?: Int32Array): Int32Array {
  const t = mesh.indices.length / 3;
  const res = out ?? new Int32Array(t);
  if (res.length < t) throw new RangeError(`dominant joint buffer has ${res.length} entries, mesh needs ${t}`);
  const J = mesh.joints, W = mesh.weights, I = mesh.indices;
  // Up to 12 (slot, weight) candidates per triangle; sum equal slots.
  const slots = _slots, sums = _sums;
  for (let tri = 0; tri < t; tri++) {
    let m = 0;
    for (let c = 0; c < 3; c++) {
      const v = I[tri * 3 + c];
      for (let i = 0; i < 4; i++) {
        const w = W[v * 4 + i];
        if (w <= 0) continue;
        const s = J[v * 4 + i];
        let k = 0;
        while (k < m && slots[k] !== s) k++;
        if (k === m) {
          slots[m] = s;
          sums[m] = 0;
          m++;
        }
        sums[k] += w;
      }
    }
    let best = -1, bestW = 0;
    for (let k = 0; k < m; k++)
      if (sums[k] > bestW || (sums[k] === bestW && best >= 0 && slots[k] < slots[best])) {
        bestW = sums[k];
        best = k;
      }
    res[tri] = best < 0 ? -1 : mesh.skinJoints[slots[best]];
  }
  return res;
}

const _slots = new Int32Array(12);
const _sums = new Float64Array(12);
