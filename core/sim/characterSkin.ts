/**
 * Character skins and mesh topology for the simulated world (SimWorld): skin
 * comparison, the skin slots a mesh uses and their skin matrices, per-mesh
 * caches (triangle topology, outward winding, character part topology), and
 * the bounds of a character part from its joints alone (slotBounds,
 * jointBoundedBox).
 */
import type { SkinnedMesh } from '../document/types';
import { isClosedTriangles, uniqueEdges } from './geometry';
import { signedVolume } from './meshGeometry';
import type { JointBounds, JointGroup, Part } from './collider';

/** Whether two meshes have the same skin: skin joints and inverse bind matrices number for number. */
export function sameSkin(a: SkinnedMesh, b: SkinnedMesh): boolean {
  if (a.skinJoints.length !== b.skinJoints.length || a.inverseBindMatrices.length !== b.inverseBindMatrices.length) return false;
  for (let k = 0; k < a.skinJoints.length; k++) if (a.skinJoints[k] !== b.skinJoints[k]) return false;
  const A = a.inverseBindMatrices, B = b.inverseBindMatrices;
  if (A === B) return true;
  for (let k = 0; k < A.length; k++) if (!Object.is(A[k], B[k])) return false;
  return true;
}

/** Skin slots of a mesh that some vertex has a non-zero weight on: the only ones skinning reads. */
const usedSlots = new WeakMap<SkinnedMesh, Int32Array>();
export function usedSkinSlots(mesh: SkinnedMesh): Int32Array {
  let u = usedSlots.get(mesh);
  if (!u) {
    const on = new Uint8Array(mesh.skinJoints.length);
    const J = mesh.joints, W = mesh.weights;
    for (let i = 0; i < W.length; i++) if (W[i] !== 0) on[J[i]] = 1;
    const list: number[] = [];
    for (let k = 0; k < on.length; k++) if (on[k]) list.push(k);
    u = Int32Array.from(list);
    usedSlots.set(mesh, u);
  }
  return u;
}

/** computeSkinMatrices for the given slots only (the mesh's skin checked once by the caller). */
export function skinMatricesUsed(mesh: SkinnedMesh, world: Float64Array, out: Float64Array, used: Int32Array): void {
  const ibm = mesh.inverseBindMatrices, sj = mesh.skinJoints;
  for (let q = 0; q < used.length; q++) {
    const k = used[q];
    mat4MultiplyF32(out, 16 * k, world, 16 * sj[k], ibm, 16 * k);
  }
}

/**
 * mat4Multiply (out = a · b) for a Float64Array times a Float32Array (a joint's
 * world matrix times an inverse bind matrix): the same arithmetic, with one
 * element kind per argument at every call.
 */
function mat4MultiplyF32(out: Float64Array, oo: number, a: Float64Array, ao: number, b: Float32Array, bo: number): void {
  const a00 = a[ao], a10 = a[ao + 1], a20 = a[ao + 2], a30 = a[ao + 3];
  const a01 = a[ao + 4], a11 = a[ao + 5], a21 = a[ao + 6], a31 = a[ao + 7];
  const a02 = a[ao + 8], a12 = a[ao + 9], a22 = a[ao + 10], a32 = a[ao + 11];
  const a03 = a[ao + 12], a13 = a[ao + 13], a23 = a[ao + 14], a33 = a[ao + 15];
  for (let c = 0; c < 4; c++) {
    const b0 = b[bo + c * 4], b1 = b[bo + c * 4 + 1], b2 = b[bo + c * 4 + 2], b3 = b[bo + c * 4 + 3];
    out[oo + c * 4] = a00 * b0 + a01 * b1 + a02 * b2 + a03 * b3;
    out[oo + c * 4 + 1] = a10 * b0 + a11 * b1 + a12 * b2 + a13 * b3;
    out[oo + c * 4 + 2] = a20 * b0 + a21 * b1 + a22 * b2 + a23 * b3;
    out[oo + c * 4 + 3] = a30 * b0 + a31 * b1 + a32 * b2 + a33 * b3;
  }
}

/**
 * Per triangle list (read only: a prop's indices, a ragdoll body's shared
 * triangles): its unique edges and whether it is a closed, consistently
 * wound 2-manifold (isClosedTriangles); depends on the indices only.
 */
const triangleTopologies = new WeakMap<Uint32Array, { edges: Uint32Array; closed: boolean }>();
export function triangleTopology(tris: Uint32Array): { edges: Uint32Array; closed: boolean } {
  let t = triangleTopologies.get(tris);
  if (!t) triangleTopologies.set(tris, (t = { edges: uniqueEdges(tris), closed: isClosedTriangles(tris) }));
  return t;
}

/** Whether a skinned mesh is closed and wound outward in its bind pose (its faces then limit ragdoll corrections), per mesh. */
const outwardMeshes = new WeakMap<SkinnedMesh, boolean>();
export function outwardMesh(mesh: SkinnedMesh): boolean {
  let o = outwardMeshes.get(mesh);
  if (o === undefined) {
    o = isClosedTriangles(mesh.indices) && signedVolume(mesh.positions, mesh.indices) > 0;
    outwardMeshes.set(mesh, o);
  }
  return o;
}

/** Part topology of character meshes (edges, parts by dominant joint, slot bounds), per mesh. */
export const characterTopology = new WeakMap<SkinnedMesh, { edges: Uint32Array; parts: Part[]; groups: JointGroup[]; whole: JointGroup }>();

/** Resets a 6-number box (min xyz, max xyz) to empty (no TypedArray.set call: this runs per part and pass). */
export function emptyBox(b: Float64Array): void {
  b[0] = b[1] = b[2] = Infinity;
  b[3] = b[4] = b[5] = -Infinity;
}


/** Per-slot bind-space boxes and weight-sum range of a character part (see Part.slots). Exported for tests. */
export function slotBounds(mesh: SkinnedMesh, p: JointBounds & Pick<Part, 'verts'>): void {
  const J = mesh.joints, W = mesh.weights, P = mesh.positions;
  const slotOf = new Map<number, number>();
  const boxes: number[] = [];
  let wsMin = Infinity, wsMax = -Infinity;
  for (let k = 0; k < p.verts.length; k++) {
    const v = p.verts[k];
    let ws = 0;
    for (let i = 0; i < 4; i++) {
      const w = W[4 * v + i];
      if (w === 0) continue;
      ws += w;
      const slot = J[4 * v + i];
      let b = slotOf.get(slot);
      if (b === undefined) {
        b = slotOf.size;
        slotOf.set(slot, b);
        boxes.push(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
      }
      for (let c = 0; c < 3; c++) {
        const x = P[3 * v + c];
        if (x < boxes[6 * b + c]) boxes[6 * b + c] = x;
        if (x > boxes[6 * b + 3 + c]) boxes[6 * b + 3 + c] = x;
      }
    }
    if (ws < wsMin) wsMin = ws;
    if (ws > wsMax) wsMax = ws;
  }
  p.slots = Int32Array.from(slotOf.keys());
  p.slotBox = Float64Array.from(boxes);
  // centre and half extent per slot box (jointBoundedBox's numbers, made once)
  const ce = new Float64Array(boxes.length);
  for (let b = 0; b < boxes.length; b += 6)
    for (let c = 0; c < 3; c++) {
      ce[b + c] = 0.5 * (boxes[b + c] + boxes[b + 3 + c]);
      ce[b + 3 + c] = 0.5 * (boxes[b + 3 + c] - boxes[b + c]);
    }
  p.slotCE = ce;
  p.wsMin = wsMin === Infinity ? 1 : wsMin;
  p.wsMax = wsMax === -Infinity ? 1 : wsMax;
  p.jbox0 = new Float64Array(6);
  p.jbox1 = new Float64Array(6);
}

/**
 * Box of a character part posed with skin matrices S, from its per-slot
 * bind boxes (centre / half-extent through |S|), scaled by the weight-sum
 * range, padded for rounding.
 */
export function jointBoundedBox(p: JointBounds, S: Float64Array, out: Float64Array): void {
  slotsBox(p.slots!, p.slotCE!, S, p.wsMin!, p.wsMax!, 1e-9, 0, 1e-12, out);
}

/**
 * Box of the points that linear blend skinning places with matrices M (16
 * per slot) from per-slot bind boxes (centre and half extent per slot in
 * `CE`, 6 numbers each, through |M|), scaled by the weight-sum range
 * [wsMin, wsMax], each bound padded by rel·(|lo| + |hi| + floor) + abs for
 * rounding. Returns false when no slot gave a box (none, or only NaN
 * matrices): then `out` holds NaN, which every box test treats as reaching
 * everything (jointBoundedBox's callers rely on that; charBound empties it).
 */
export function slotsBox(slots: ArrayLike<number>, CE: Float64Array, M: Float64Array, wsMin: number, wsMax: number, rel: number, floor: number, abs: number, out: Float64Array): boolean {
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let k = 0, b = 0; k < slots.length; k++, b += 6) {
    const o = 16 * slots[k];
    const cx = CE[b], cy = CE[b + 1], cz = CE[b + 2], ex = CE[b + 3], ey = CE[b + 4], ez = CE[b + 5];
    const s0 = M[o], s1 = M[o + 1], s2 = M[o + 2], s4 = M[o + 4], s5 = M[o + 5], s6 = M[o + 6], s8 = M[o + 8], s9 = M[o + 9], s10 = M[o + 10];
    const mx = s0 * cx + s4 * cy + s8 * cz + M[o + 12], wx = Math.abs(s0) * ex + Math.abs(s4) * ey + Math.abs(s8) * ez;
    const my = s1 * cx + s5 * cy + s9 * cz + M[o + 13], wy = Math.abs(s1) * ex + Math.abs(s5) * ey + Math.abs(s9) * ez;
    const mz = s2 * cx + s6 * cy + s10 * cz + M[o + 14], wz = Math.abs(s2) * ex + Math.abs(s6) * ey + Math.abs(s10) * ez;
    if (mx - wx < lx) lx = mx - wx;
    if (mx + wx > hx) hx = mx + wx;
    if (my - wy < ly) ly = my - wy;
    if (my + wy > hy) hy = my + wy;
    if (mz - wz < lz) lz = mz - wz;
    if (mz + wz > hz) hz = mz + wz;
  }
  const some = lx <= hx;
  out[0] = lx;
  out[1] = ly;
  out[2] = lz;
  out[3] = hx;
  out[4] = hy;
  out[5] = hz;
  for (let c = 0; c < 3; c++) {
    let a = out[c], b = out[3 + c];
    if (wsMin !== 1 || wsMax !== 1) {
      const x0 = wsMin * a, x1 = wsMax * a, y0 = wsMin * b, y1 = wsMax * b;
      a = Math.min(x0, x1, y0, y1);
      b = Math.max(x0, x1, y0, y1);
    }
    const pad = rel * (Math.abs(a) + Math.abs(b) + floor) + abs;
    out[c] = a - pad;
    out[3 + c] = b + pad;
  }
  return some;
}
