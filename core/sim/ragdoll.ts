/**
 * Ragdolls from skinned characters (Macagon 2003, section 4): rigid bodies
 * from the skeleton and its skin, ball joints at the bone heads with cone
 * limits, and the skeleton pose recovered from the bodies.
 *
 * Bodies: every triangle of the skin belongs to the joint that dominates it
 * (largest summed weight). The `maxBodies` joints with the most skin become
 * bodies; the skin of every other joint goes to its nearest ancestor that is
 * a body (fingers to the hand, toes to the foot). A body's mass comes from
 * the solid ellipsoid fitted to its vertices (principal axes of their
 * spread, semi-axes half the extents) times `densityKgPerM3` (~1000 kg/m³).
 * Its frame is the joint's world frame at the start, so the joint's world
 * rotation afterwards is simply the body's orientation.
 *
 * Joints: a ball joint at the head of every body's joint, to the body of its
 * nearest ancestor joint (bodies without one hang on the root body). A cone
 * limit keeps the axis from the joint to the child's centre of mass within
 * `coneLimitRad` of where it points (in the parent's frame) at the start,
 * and a twist limit keeps the child's rotation about that axis, relative to
 * the parent, within `twistLimitRad` of its start value (swing–twist
 * decomposition of the relative rotation).
 */
import type { Character } from '../document/types';
import type { SceneEvaluator } from '../anim/evaluate';
import { Rig, angularVelocityFromMatrix } from '../skeleton/rig';
import { computeSkinMatrices, skinPositions, dominantJointPerTriangle } from '../skeleton/skinning';
import { mat4Compose, mat4Decompose, mat4Invert, mat4Multiply } from '../math/mat4';
import { principalAxes } from './principal';
import { rotate, rotateInv, type RigidBodyInit } from './rigid';
import { hypot3 } from '../math/libm';

export interface RagdollOptions {
  /** Most bodies per character (default 20). */
  maxBodies?: number;
  /** Body density, kg/m³ (default 1000). */
  densityKgPerM3?: number;
  /** Cone half-angle of every joint around its start direction (default 1.2 rad). */
  coneLimitRad?: number;
  /** Twist of every joint about its child axis, either way from the start (default 0.8 rad). */
  twistLimitRad?: number;
  restitution?: number;
  friction?: number;
  /**
   * Joint friction: the relative angular velocity of the two bodies of a
   * joint decays as exp(−c t), c in s⁻¹ (default 4). Momentum-conserving and
   * dissipative; it lets a ragdoll lying on the ground come to rest (a limb
   * between two ball joints has a free spin otherwise).
   */
  jointDampingPerSec?: number;
}

export interface RagdollPart {
  /** Skeleton joint whose frame the body has. */
  joint: number;
  init: RigidBodyInit;
  /** Vertex positions relative to the centre of mass, in the body's local frame (the joint's world rotation). */
  local: Float64Array;
  tris: Uint32Array;
  /** Joint head relative to the centre of mass, local frame. */
  head: Float64Array;
}

export interface RagdollJoint {
  partA: number;
  partB: number;
  /** Anchor relative to A's / B's centre of mass, in their local frames. */
  rA: Float64Array;
  rB: Float64Array;
  /** Reference direction of the cone, in A's local frame. */
  coneAxisA: Float64Array;
  /** Child axis (joint to B's centre of mass), in B's local frame. */
  axisB: Float64Array;
  coneLen: number;
  coneLimitRad: number;
  /** Largest twist (rad) of B about axisB relative to A, either way from the start; π = free. */
  twistLimitRad: number;
}

export interface Ragdoll {
  characterIndex: number;
  parts: RagdollPart[];
  joints: RagdollJoint[];
  /** Body part index per skeleton joint, or -1. */
  partOfJoint: Int32Array;
  /** Joint local poses at the start (10 per joint) and world scales (3 per joint). */
  startLocal: Float64Array;
  worldScale: Float64Array;
  rootMatrix: Float64Array;
  parents: Int32Array;
  restitution: number;
  friction: number;
}

export function buildRagdoll(ch: Character, ci: number, evaluator: SceneEvaluator, t0: number, opts: RagdollOptions = {}): Ragdoll {
  const maxBodies = opts.maxBodies ?? 20;
  const density = opts.densityKgPerM3 ?? 1000;
  const cone = opts.coneLimitRad ?? 1.2;
  const twist = opts.twistLimitRad ?? 0.8;
  const rig = new Rig(ch);
  const n = rig.jointCount;
  evaluator.characterLocalPose(ci, t0, rig.local);
  const localDot = evaluator.characterLocalPoseDerivative(ci, t0, new Float64Array(10 * n));
  rig.computeWorldDerivative(localDot);
  const startLocal = Float64Array.from(rig.local);

  // skinned positions at the start
  const meshVerts: Float64Array[] = [];
  for (const mesh of ch.meshes) {
    const sm = computeSkinMatrices(mesh, rig.world, new Float64Array(16 * mesh.skinJoints.length));
    meshVerts.push(skinPositions(mesh, sm, new Float64Array(mesh.positions.length)));
  }
  const parents = rig.parents;
  const topo = ragdollTopology(ch, parents, maxBodies);
  const { chosen, rootJoint, bodyJoints, partOfJoint: partOfJointShared } = topo;
  const partOfJoint = Int32Array.from(partOfJointShared);

  const parts: RagdollPart[] = [];
  const comWorld: number[][] = [];
  const qWorld: number[][] = [];
  const tq = new Float64Array(3), qq = new Float64Array(4), sq = new Float64Array(3);
  const worldScale = new Float64Array(3 * n);
  for (let j = 0; j < n; j++) {
    mat4Decompose(rig.world, 16 * j, tq, 0, qq, 0, sq, 0);
    worldScale.set(sq, 3 * j);
  }
  for (let bk = 0; bk < bodyJoints.length; bk++) {
    const bj = bodyJoints[bk];
    // the body's vertices (mesh, vertex: in the order its triangles first reach them) at the start
    const refs = topo.bodyVerts[bk];
    const nv = refs.length / 2;
    const pts = bodyPoints(refs, meshVerts, nv);
    // ellipsoid fit
    meanScatter(pts, nv, _fit);
    const mx = _fit[0], my = _fit[1], mz = _fit[2];
    const cov = [_fit[3], _fit[4], _fit[5], _fit[6], _fit[7], _fit[8], _fit[9], _fit[10], _fit[11]];
    const scaleC = Math.max(cov[0], cov[4], cov[8]) || 1;
    for (let k = 0; k < 9; k++) cov[k] = cov[k] / scaleC + (k % 4 === 0 ? 1e-9 : 0);
    const pa = principalAxes(cov, `character '${ch.name}' body '${ch.skeleton.joints[bj].name}': vertex spread`);
    const lo = new Float64Array(3), hi = new Float64Array(3);
    const e = new Float64Array(3);
    frameExtents(pts, nv, mx, my, mz, pa.rotation, lo, hi);
    const semi = [0, 1, 2].map((k) => Math.max(0.5 * (hi[k] - lo[k]), 0.01));
    const mid = new Float64Array(3);
    rotate(mid, 0, pa.rotation, 0, 0.5 * (hi[0] + lo[0]), 0.5 * (hi[1] + lo[1]), 0.5 * (hi[2] + lo[2]));
    const com = [mx + mid[0], my + mid[1], mz + mid[2]];
    const [a, b, c] = semi;
    const massKg = density * (4 / 3) * Math.PI * a * b * c;
    const Ip = [(massKg * (b * b + c * c)) / 5, (massKg * (a * a + c * c)) / 5, (massKg * (a * a + b * b)) / 5];
    // joint world rotation
    mat4Decompose(rig.world, 16 * bj, tq, 0, qq, 0, sq, 0);
    const qj = [qq[0], qq[1], qq[2], qq[3]];
    // inertia in the joint's frame: R_j^T R_p diag R_p^T R_j
    const Iw = new Float64Array(9);
    const col = new Float64Array(3), tmp = new Float64Array(3);
    for (let k = 0; k < 3; k++) {
      // world basis vector e_k through R_p diag R_p^T
      rotateInv(tmp, pa.rotation, 0, k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0);
      rotate(col, 0, pa.rotation, 0, tmp[0] * Ip[0], tmp[1] * Ip[1], tmp[2] * Ip[2]);
      Iw.set(col, 3 * k);
    }
    const Il = new Float64Array(9);
    for (let k = 0; k < 3; k++) {
      rotate(tmp, 0, qj, 0, k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0);
      const x = Iw[0] * tmp[0] + Iw[3] * tmp[1] + Iw[6] * tmp[2];
      const y = Iw[1] * tmp[0] + Iw[4] * tmp[1] + Iw[7] * tmp[2];
      const z = Iw[2] * tmp[0] + Iw[5] * tmp[1] + Iw[8] * tmp[2];
      rotateInv(col, qj, 0, x, y, z);
      Il.set(col, 3 * k);
    }
    for (const [r, cc] of [[1, 3], [2, 6], [5, 7]]) Il[r] = Il[cc] = 0.5 * (Il[r] + Il[cc]);
    // velocities from the exact world derivative
    const Winv = new Float64Array(16);
    mat4Invert(Winv, 0, rig.world, 16 * bj);
    const cl = [
      Winv[0] * com[0] + Winv[4] * com[1] + Winv[8] * com[2] + Winv[12],
      Winv[1] * com[0] + Winv[5] * com[1] + Winv[9] * com[2] + Winv[13],
      Winv[2] * com[0] + Winv[6] * com[1] + Winv[10] * com[2] + Winv[14],
    ];
    const D = rig.worldDot, o = 16 * bj;
    const vcom: [number, number, number] = [
      D[o] * cl[0] + D[o + 4] * cl[1] + D[o + 8] * cl[2] + D[o + 12],
      D[o + 1] * cl[0] + D[o + 5] * cl[1] + D[o + 9] * cl[2] + D[o + 13],
      D[o + 2] * cl[0] + D[o + 6] * cl[1] + D[o + 10] * cl[2] + D[o + 14],
    ];
    const w = angularVelocityFromMatrix(rig.world, o, D, o, { x: 0, y: 0, z: 0 });
    const local = bodyLocal(pts, nv, qj, com[0], com[1], com[2]);
    const head = new Float64Array(3);
    rotateInv(e, qj, 0, rig.world[o + 12] - com[0], rig.world[o + 13] - com[1], rig.world[o + 14] - com[2]);
    head.set(e);
    parts.push({
      joint: bj,
      init: {
        name: `${ch.name}:${ch.skeleton.joints[bj].name}`,
        massKg,
        inertiaLocal: Il,
        position: [com[0], com[1], com[2]],
        orientation: [qj[0], qj[1], qj[2], qj[3]],
        linearVelocity: vcom,
        angularVelocity: [w.x, w.y, w.z],
      },
      local,
      tris: topo.bodyTris[bk],
      head,
    });
    comWorld.push(com);
    qWorld.push(qj);
  }

  // joints
  const joints: RagdollJoint[] = [];
  for (let k = 0; k < bodyJoints.length; k++) {
    const bj = bodyJoints[k];
    if (bj === rootJoint) continue;
    let a = parents[bj];
    while (a >= 0 && !chosen[a]) a = parents[a];
    const pa = a >= 0 ? partOfJoint[a] : partOfJoint[rootJoint];
    const o = 16 * bj;
    const p = [rig.world[o + 12], rig.world[o + 13], rig.world[o + 14]];
    const rA = new Float64Array(3), rB = new Float64Array(3), coneAxisA = new Float64Array(3), axisB = new Float64Array(3);
    const e = new Float64Array(3);
    rotateInv(e, qWorld[pa], 0, p[0] - comWorld[pa][0], p[1] - comWorld[pa][1], p[2] - comWorld[pa][2]);
    rA.set(e);
    rotateInv(e, qWorld[k], 0, p[0] - comWorld[k][0], p[1] - comWorld[k][1], p[2] - comWorld[k][2]);
    rB.set(e);
    const dx = comWorld[k][0] - p[0], dy = comWorld[k][1] - p[1], dz = comWorld[k][2] - p[2];
    const len = hypot3(dx, dy, dz);
    if (len > 1e-9) {
      rotateInv(e, qWorld[pa], 0, dx / len, dy / len, dz / len);
      coneAxisA.set(e);
      rotateInv(e, qWorld[k], 0, dx / len, dy / len, dz / len);
      axisB.set(e);
    }
    joints.push({ partA: pa, partB: k, rA, rB, coneAxisA, axisB, coneLen: len, coneLimitRad: len > 1e-9 ? cone : Math.PI, twistLimitRad: len > 1e-9 ? twist : Math.PI });
  }
  return {
    characterIndex: ci,
    parts,
    joints,
    partOfJoint,
    startLocal,
    worldScale,
    rootMatrix: Float64Array.from(rig.rootMatrix),
    parents: Int32Array.from(parents),
    restitution: opts.restitution ?? 0.2,
    friction: opts.friction ?? 0.6,
  };
}

/** The pose-independent part of a ragdoll: which joints are bodies, and each body's triangles and vertices. */
interface RagdollTopology {
  chosen: Uint8Array;
  rootJoint: number;
  bodyJoints: number[];
  partOfJoint: Int32Array;
  /** Per body: its triangles over its own vertex numbering (shared between ragdolls of the same meshes: read only). */
  bodyTris: Uint32Array[];
  /** Per body: (mesh, vertex) of each of its vertices, in the order its triangles (mesh, then triangle order) first reach them. */
  bodyVerts: Int32Array[];
}

/** Per meshes array: the topologies built from it, with the skeleton parents and body count they are for. */
const topologies = new WeakMap<Character['meshes'], { parents: Int32Array; maxBodies: number; topo: RagdollTopology }[]>();

/**
 * Bodies from the skin (see buildRagdoll): every triangle belongs to the
 * joint dominating it, the `maxBodies` joints with the most triangles become
 * bodies, the others' skin goes to their nearest body ancestor. Depends on
 * the meshes, the skeleton's parents and maxBodies only, not on the pose:
 * built once per meshes array and kept (like the world's character part
 * topology).
 */
function ragdollTopology(ch: Character, parents: Int32Array, maxBodies: number): RagdollTopology {
  let list = topologies.get(ch.meshes);
  if (!list) topologies.set(ch.meshes, (list = []));
  for (const e of list) {
    if (e.maxBodies !== maxBodies || e.parents.length !== parents.length) continue;
    let same = true;
    for (let j = 0; j < parents.length && same; j++) if (e.parents[j] !== parents[j]) same = false;
    if (same) return e.topo;
  }
  const n = parents.length;
  const dominant: Int32Array[] = [];
  const triCount = new Float64Array(n);
  for (const mesh of ch.meshes) {
    const dom = dominantJointPerTriangle(mesh);
    dominant.push(dom);
    for (let t = 0; t < dom.length; t++) if (dom[t] >= 0) triCount[dom[t]]++;
  }
  // choose the body joints
  const order = [...Array(n).keys()].filter((j) => triCount[j] > 0).sort((a, b) => triCount[b] - triCount[a] || a - b);
  if (order.length === 0) throw new Error(`character '${ch.name}': no skinned triangles, cannot build a ragdoll`);
  const chosen = new Uint8Array(n);
  for (let k = 0; k < Math.min(maxBodies, order.length); k++) chosen[order[k]] = 1;
  const depth = new Int32Array(n);
  for (let j = 0; j < n; j++) depth[j] = parents[j] < 0 ? 0 : depth[parents[j]] + 1;
  let rootJoint = -1;
  for (let j = 0; j < n; j++) if (chosen[j] && (rootJoint < 0 || depth[j] < depth[rootJoint])) rootJoint = j;
  const owner = new Int32Array(n).fill(-1); // body joint owning joint j's skin
  for (let j = 0; j < n; j++) {
    let a = j;
    while (a >= 0 && !chosen[a]) a = parents[a];
    owner[j] = a >= 0 ? a : rootJoint;
  }
  const bodyJoints = [...Array(n).keys()].filter((j) => chosen[j]);
  const partOfJoint = new Int32Array(n).fill(-1);
  bodyJoints.forEach((j, k) => (partOfJoint[j] = k));
  // triangles of each body (mesh, triangle), in mesh then triangle order: one pass over the meshes
  const bodyTriRefs: number[][] = bodyJoints.map(() => []);
  ch.meshes.forEach((_mesh, mi) => {
    const dom = dominant[mi];
    for (let t = 0; t < dom.length; t++) if (dom[t] >= 0) bodyTriRefs[partOfJoint[owner[dom[t]]]].push(mi, t);
  });
  // vertex → index in the body being built (stamped with the body)
  const vStamp = ch.meshes.map((m) => new Int32Array(m.positions.length / 3).fill(-1));
  const vIndex = ch.meshes.map((m) => new Int32Array(m.positions.length / 3));
  const bodyTris: Uint32Array[] = [], bodyVerts: Int32Array[] = [];
  for (let bk = 0; bk < bodyJoints.length; bk++) {
    const triList: number[] = [];
    const refs: number[] = [];
    const bt = bodyTriRefs[bk];
    for (let q = 0; q < bt.length; q += 2) {
      const mi = bt[q], t = bt[q + 1];
      const idxMesh = ch.meshes[mi].indices, stamp = vStamp[mi], index = vIndex[mi];
      for (let k = 0; k < 3; k++) {
        const v = idxMesh[3 * t + k];
        if (stamp[v] !== bk) {
          stamp[v] = bk;
          index[v] = refs.length / 2;
          refs.push(mi, v);
        }
        triList.push(index[v]);
      }
    }
    bodyTris.push(Uint32Array.from(triList));
    bodyVerts.push(Int32Array.from(refs));
  }
  const topo: RagdollTopology = { chosen, rootJoint, bodyJoints, partOfJoint, bodyTris, bodyVerts };
  list.push({ parents: Int32Array.from(parents), maxBodies, topo });
  return topo;
}

/**
 * Skeleton local pose (10 numbers per joint) from the ragdoll's bodies:
 * `bodyPose` holds, per part, the world position of the joint head (3) and
 * the body's local-frame orientation (4). Joints that are bodies take the
 * body's rotation and head position; joints between them keep their start
 * local transform; the ancestors of the root body are solved backwards.
 */
export function ragdollPose(rd: Ragdoll, bodyPose: ArrayLike<number>, out: Float64Array): Float64Array {
  const n = rd.parents.length;
  const world = _world.length >= 16 * n ? _world : (_world = new Float64Array(16 * n));
  const done = _done.length >= n ? _done : (_done = new Uint8Array(n));
  done.fill(0, 0, n);
  const L = _lm;
  for (let j = 0; j < n; j++) {
    const k = rd.partOfJoint[j];
    if (k < 0) continue;
    mat4Compose(world, 16 * j, bodyPose, 7 * k, bodyPose, 7 * k + 3, rd.worldScale, 3 * j);
    done[j] = 1;
  }
  // ancestors of body joints that are not bodies: world_parent = world_child · local_child⁻¹
  for (let j = n - 1; j >= 0; j--) {
    if (!done[j]) continue;
    const p = rd.parents[j];
    if (p < 0 || done[p]) continue;
    // only walk up from the topmost bodies (a body with no body ancestor)
    let a = p, hasBodyAncestor = false;
    while (a >= 0) {
      if (rd.partOfJoint[a] >= 0) hasBodyAncestor = true;
      a = rd.parents[a];
    }
    if (hasBodyAncestor) continue;
    let c = j;
    let q = p;
    while (q >= 0 && !done[q]) {
      mat4Compose(L, 0, rd.startLocal, 10 * c, rd.startLocal, 10 * c + 3, rd.startLocal, 10 * c + 7);
      mat4Invert(L, 16, L, 0);
      mat4Multiply(world, 16 * q, world, 16 * c, L, 16);
      done[q] = 1;
      c = q;
      q = rd.parents[q];
    }
  }
  for (let j = 0; j < n; j++) {
    if (done[j]) continue;
    const p = rd.parents[j];
    mat4Compose(L, 0, rd.startLocal, 10 * j, rd.startLocal, 10 * j + 3, rd.startLocal, 10 * j + 7);
    if (p < 0) mat4Multiply(world, 16 * j, rd.rootMatrix, 0, L, 0);
    else mat4Multiply(world, 16 * j, world, 16 * p, L, 0);
    done[j] = 1;
  }
  for (let j = 0; j < n; j++) {
    const p = rd.parents[j];
    if (p < 0) mat4Invert(L, 0, rd.rootMatrix, 0);
    else mat4Invert(L, 0, world, 16 * p);
    mat4Multiply(L, 16, L, 0, world, 16 * j);
    mat4Decompose(L, 16, out, 10 * j, out, 10 * j + 3, out, 10 * j + 7);
    // keep the start pose's quaternion hemisphere
    const s = rd.startLocal;
    if (out[10 * j + 3] * s[10 * j + 3] + out[10 * j + 4] * s[10 * j + 4] + out[10 * j + 5] * s[10 * j + 5] + out[10 * j + 6] * s[10 * j + 6] < 0)
      for (let c = 3; c < 7; c++) out[10 * j + c] = -out[10 * j + c];
  }
  return out;
}

let _world = new Float64Array(0);
let _done = new Uint8Array(0);
const _lm = new Float64Array(32);

/*
 * buildRagdoll's per-vertex loops, as small functions of typed arrays. Inside
 * buildRagdoll (one call per suggestion, a large body with many inlined calls)
 * they made it hot enough for TurboFan, whose compilation of it took 250–770 ms
 * of CPU (a background thread's, counted in the process's CPU time), twice
 * (a map check deoptimized the first code); apart, each compiles in a few ms.
 * The numbers are buildRagdoll's: the same expressions in the same order
 * (rotateInv's written out).
 */
const _fit = new Float64Array(12);

/** The body's vertices ((mesh, vertex) pairs of refs) from the skinned positions, xyz. */
export function bodyPoints(refs: Int32Array, meshVerts: Float64Array[], nv: number): Float64Array {
  const pts = new Float64Array(3 * nv);
  for (let v = 0; v < nv; v++) {
    const V = meshVerts[refs[2 * v]], o = 3 * refs[2 * v + 1];
    pts[3 * v] = V[o];
    pts[3 * v + 1] = V[o + 1];
    pts[3 * v + 2] = V[o + 2];
  }
  return pts;
}

/** out[0..2]: the points' mean; out[3..11]: their scatter Σ d dᵀ (row k: d_k d, summed in vertex order). */
export function meanScatter(pts: Float64Array, nv: number, out: Float64Array): void {
  let mx = 0, my = 0, mz = 0;
  for (let v = 0; v < nv; v++) {
    mx += pts[3 * v];
    my += pts[3 * v + 1];
    mz += pts[3 * v + 2];
  }
  mx /= nv;
  my /= nv;
  mz /= nv;
  let c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0, c8 = 0;
  for (let v = 0; v < nv; v++) {
    const dx = pts[3 * v] - mx, dy = pts[3 * v + 1] - my, dz = pts[3 * v + 2] - mz;
    c0 += dx * dx;
    c1 += dy * dx;
    c2 += dz * dx;
    c3 += dx * dy;
    c4 += dy * dy;
    c5 += dz * dy;
    c6 += dx * dz;
    c7 += dy * dz;
    c8 += dz * dz;
  }
  out[0] = mx;
  out[1] = my;
  out[2] = mz;
  out[3] = c0;
  out[4] = c1;
  out[5] = c2;
  out[6] = c3;
  out[7] = c4;
  out[8] = c5;
  out[9] = c6;
  out[10] = c7;
  out[11] = c8;
}

/** lo, hi: the box of the points less (mx, my, mz), in the frame of rotation q (rotateInv by q), ±∞ for no points. */
export function frameExtents(pts: Float64Array, nv: number, mx: number, my: number, mz: number, q: readonly number[], lo: Float64Array, hi: Float64Array): void {
  const qx = -q[0], qy = -q[1], qz = -q[2], qw = q[3];
  let l0 = Infinity, l1 = Infinity, l2 = Infinity, h0 = -Infinity, h1 = -Infinity, h2 = -Infinity;
  for (let v = 0; v < nv; v++) {
    const vx = pts[3 * v] - mx, vy = pts[3 * v + 1] - my, vz = pts[3 * v + 2] - mz;
    const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
    const e0 = vx + qw * tx + qy * tz - qz * ty, e1 = vy + qw * ty + qz * tx - qx * tz, e2 = vz + qw * tz + qx * ty - qy * tx;
    if (e0 < l0) l0 = e0;
    if (e0 > h0) h0 = e0;
    if (e1 < l1) l1 = e1;
    if (e1 > h1) h1 = e1;
    if (e2 < l2) l2 = e2;
    if (e2 > h2) h2 = e2;
  }
  lo[0] = l0;
  lo[1] = l1;
  lo[2] = l2;
  hi[0] = h0;
  hi[1] = h1;
  hi[2] = h2;
}

/** The points less (cx, cy, cz) in the frame of rotation q (rotateInv by q). */
export function bodyLocal(pts: Float64Array, nv: number, q: readonly number[], cx: number, cy: number, cz: number): Float64Array {
  const local = new Float64Array(3 * nv);
  const qx = -q[0], qy = -q[1], qz = -q[2], qw = q[3];
  for (let v = 0; v < nv; v++) {
    const vx = pts[3 * v] - cx, vy = pts[3 * v + 1] - cy, vz = pts[3 * v + 2] - cz;
    const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
    local[3 * v] = vx + qw * tx + qy * tz - qz * ty;
    local[3 * v + 1] = vy + qw * ty + qz * tx - qx * tz;
    local[3 * v + 2] = vz + qw * tz + qx * ty - qy * tx;
  }
  return local;
}
