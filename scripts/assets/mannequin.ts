/**
 * The generated mannequin: a 67-joint Mixamo-style skeleton (T-pose, Y up,
 * facing +Z, 1.8 m tall) under an `Armature` node scaled 0.01 (joint
 * translations in centimetres, as Mixamo exports them), capsule and ellipsoid
 * body parts skinned smoothly across the joints, and two clips: `walk` (1 s
 * loop, CUBICSPLINE keys) and `swing` (2 s two-handed bat swing, LINEAR keys,
 * plus STEP keys on the eyes).
 */
import { append, capsule, ellipsoid, type MeshData, type V3 } from './geometry';

export const ARMATURE_SCALE = 0.01;

export interface JointDef {
  name: string;
  parent: number;
  /** Bind-pose world position in metres. */
  pos: V3;
}

export function mannequinJoints(): JointDef[] {
  const joints: JointDef[] = [];
  const add = (name: string, parent: string | null, pos: V3): void => {
    const p = parent === null ? -1 : joints.findIndex((j) => j.name === parent);
    if (parent !== null && p < 0) throw new Error(`unknown parent ${parent}`);
    joints.push({ name, parent: p, pos });
  };
  add('Hips', null, [0, 1.0, 0]);
  add('Spine', 'Hips', [0, 1.1, 0]);
  add('Spine1', 'Spine', [0, 1.22, 0]);
  add('Spine2', 'Spine1', [0, 1.34, 0]);
  add('Neck', 'Spine2', [0, 1.5, 0]);
  add('Head', 'Neck', [0, 1.6, 0]);
  add('HeadTop_End', 'Head', [0, 1.8, 0]);
  add('LeftEye', 'Head', [0.035, 1.69, 0.085]);
  add('RightEye', 'Head', [-0.035, 1.69, 0.085]);
  for (const [side, sx] of [['Left', 1], ['Right', -1]] as const) {
    const X = (x: number): number => sx * x;
    add(`${side}Shoulder`, 'Spine2', [X(0.05), 1.45, 0]);
    add(`${side}Arm`, `${side}Shoulder`, [X(0.18), 1.45, 0]);
    add(`${side}ForeArm`, `${side}Arm`, [X(0.46), 1.45, 0]);
    add(`${side}Hand`, `${side}ForeArm`, [X(0.72), 1.45, 0]);
    const hand = `${side}Hand`;
    // Thumb points forward (+Z) in the palms-down T-pose.
    const thumb: V3[] = [[0.74, 1.44, 0.03], [0.765, 1.44, 0.055], [0.788, 1.44, 0.07], [0.808, 1.44, 0.08]];
    thumb.forEach((p, k) => add(`${hand}Thumb${k + 1}`, k === 0 ? hand : `${hand}Thumb${k}`, [X(p[0]), p[1], p[2]]));
    const fingers: [string, number, number[]][] = [
      ['Index', 0.027, [0.04, 0.025, 0.02]],
      ['Middle', 0.009, [0.045, 0.028, 0.022]],
      ['Ring', -0.01, [0.042, 0.026, 0.02]],
      ['Pinky', -0.028, [0.032, 0.02, 0.018]],
    ];
    for (const [finger, z, lengths] of fingers) {
      let x = 0.815;
      add(`${hand}${finger}1`, hand, [X(x), 1.45, z]);
      for (let k = 0; k < 3; k++) {
        x += lengths[k];
        add(`${hand}${finger}${k + 2}`, `${hand}${finger}${k + 1}`, [X(x), 1.45, z]);
      }
    }
  }
  for (const [side, sx] of [['Left', 1], ['Right', -1]] as const) {
    const X = (x: number): number => sx * x;
    add(`${side}UpLeg`, 'Hips', [X(0.09), 0.95, 0]);
    add(`${side}Leg`, `${side}UpLeg`, [X(0.09), 0.52, 0]);
    add(`${side}Foot`, `${side}Leg`, [X(0.09), 0.09, 0]);
    add(`${side}ToeBase`, `${side}Foot`, [X(0.09), 0.028, 0.12]);
    add(`${side}Toe_End`, `${side}ToeBase`, [X(0.09), 0.028, 0.2]);
  }
  return joints;
}

export interface SkinnedPart {
  name: string;
  data: MeshData;
  /** Per vertex: up to 4 (joint, weight) pairs. */
  joints: number[];
  weights: number[];
  color: [number, number, number, number];
}

function smooth(x: number): number {
  const t = Math.min(1, Math.max(0, x));
  return t * t * (3 - 2 * t);
}

/**
 * Weights of one body part bound to joint `bone`, blended towards `from`
 * (usually the parent) over the first `blend` of its axis and towards `to`
 * (usually the child) over the last `blend`; each side reaches 0.5 at the end.
 */
function weigh(part: MeshData, bone: number, from: number, to: number, blend: number, joints: number[], weights: number[]): void {
  for (const s of part.axial) {
    const wf = from >= 0 ? 0.5 * smooth(1 - s / blend) : 0;
    const wt = to >= 0 ? 0.5 * smooth((s - (1 - blend)) / blend) : 0;
    const pairs: [number, number][] = [[bone, 1 - wf - wt]];
    if (wf > 0) pairs.push([from, wf]);
    if (wt > 0) pairs.push([to, wt]);
    while (pairs.length < 4) pairs.push([0, 0]);
    for (const [j, w] of pairs) {
      joints.push(j);
      weights.push(w);
    }
  }
}

export function mannequinParts(joints: JointDef[]): SkinnedPart[] {
  const J = (name: string): number => {
    const i = joints.findIndex((j) => j.name === name);
    if (i < 0) throw new Error(`no joint ${name}`);
    return i;
  };
  const P = (name: string): V3 => joints[J(name)].pos;
  const parts = new Map<string, SkinnedPart>();
  const part = (name: string, color: [number, number, number, number]): SkinnedPart => {
    let p = parts.get(name);
    if (!p) {
      p = { name, data: { positions: [], indices: [], axial: [] }, joints: [], weights: [], color };
      parts.set(name, p);
    }
    return p;
  };
  const put = (target: SkinnedPart, m: MeshData, bone: string, from: string | null, to: string | null, blend: number): void => {
    weigh(m, J(bone), from ? J(from) : -1, to ? J(to) : -1, blend, target.joints, target.weights);
    append(target.data, m);
  };
  const body = part('Mannequin_Body', [0.55, 0.57, 0.62, 1]);
  const head = part('Mannequin_Head', [0.75, 0.72, 0.68, 1]);
  const arms = part('Mannequin_Arms', [0.55, 0.57, 0.62, 1]);
  const hands = part('Mannequin_Hands', [0.75, 0.72, 0.68, 1]);
  const legs = part('Mannequin_Legs', [0.3, 0.33, 0.4, 1]);

  // Torso: pelvis, belly, chest, upper chest, neck (overlapping closed shells).
  // Each shell overlaps only the shells of its parent and child joints in the
  // bind pose (the checker skips joints one hop apart, nothing else): the
  // belly stops below the upper chest, the chest below the shoulders, and the
  // upper chest (Spine2) is narrower than the reach of the upper arms' caps.
  put(body, ellipsoid([0, 0.99, 0], [0, 1, 0], 0.12, 0.16, 0.11, 18, 10, [1, 0, 0]), 'Hips', null, 'Spine', 0.35);
  put(body, capsule([0, 1.1, 0], [0, 1.2, 0], 0.125, 0.125, 18, 4, 3, [1.1, 0.82], [1, 0, 0]), 'Spine', 'Hips', 'Spine1', 0.4);
  put(body, ellipsoid([0, 1.29, 0], [0, 1, 0], 0.11, 0.165, 0.115, 18, 10, [1, 0, 0]), 'Spine1', 'Spine', 'Spine2', 0.5);
  put(body, ellipsoid([0, 1.42, 0], [1, 0, 0], 0.115, 0.08, 0.1, 18, 10, [0, 1, 0]), 'Spine2', null, null, 0.3);
  put(body, capsule(P('Neck'), P('Head'), 0.05, 0.048, 12, 3, 3), 'Neck', 'Spine2', 'Head', 0.35);
  // Head and eyes.
  put(head, ellipsoid([0, 1.69, 0.005], [0, 1, 0], 0.11, 0.09, 0.1, 20, 12, [1, 0, 0]), 'Head', 'Neck', null, 0.25);
  for (const eye of ['LeftEye', 'RightEye']) put(head, ellipsoid(P(eye), [0, 0, 1], 0.014, 0.014, 0.014, 10, 6), eye, null, null, 0.3);

  for (const side of ['Left', 'Right']) {
    put(arms, capsule(P(`${side}Shoulder`), P(`${side}Arm`), 0.045, 0.05, 12, 3, 2), `${side}Shoulder`, 'Spine2', `${side}Arm`, 0.3);
    put(arms, capsule(P(`${side}Arm`), P(`${side}ForeArm`), 0.05, 0.04, 14, 4, 6), `${side}Arm`, `${side}Shoulder`, `${side}ForeArm`, 0.2);
    put(arms, capsule(P(`${side}ForeArm`), P(`${side}Hand`), 0.04, 0.03, 14, 4, 6), `${side}ForeArm`, `${side}Arm`, `${side}Hand`, 0.2);
    const h = `${side}Hand`;
    const sx = side === 'Left' ? 1 : -1;
    put(hands, ellipsoid([sx * 0.77, 1.45, 0], [1, 0, 0], 0.055, 0.018, 0.042, 14, 8, [0, 1, 0]), h, `${side}ForeArm`, null, 0.3);
    for (const f of ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky']) {
      for (let k = 1; k <= 3; k++) {
        const a = `${h}${f}${k}`, b = `${h}${f}${k + 1}`;
        // Neighbouring fingers are 1.8-1.9 cm apart: radii leave a 2 mm gap between them.
        const r = f === 'Thumb' ? 0.0105 : f === 'Pinky' ? 0.0072 : 0.008;
        put(hands, capsule(P(a), P(b), r, r * 0.9, 8, 2, 2), a, k === 1 ? h : `${h}${f}${k - 1}`, k < 3 ? b : null, 0.3);
      }
    }
    put(legs, capsule(P(`${side}UpLeg`), P(`${side}Leg`), 0.08, 0.055, 16, 4, 7), `${side}UpLeg`, 'Hips', `${side}Leg`, 0.18);
    put(legs, capsule(P(`${side}Leg`), P(`${side}Foot`), 0.052, 0.04, 16, 4, 7), `${side}Leg`, `${side}UpLeg`, `${side}Foot`, 0.18);
    put(legs, capsule([sx * 0.09, 0.045, -0.04], [sx * 0.09, 0.038, 0.11], 0.04, 0.036, 14, 3, 3, [1.1, 0.9], [1, 0, 0]), `${side}Foot`, `${side}Leg`, `${side}ToeBase`, 0.25);
    put(legs, capsule(P(`${side}ToeBase`), P(`${side}Toe_End`), 0.026, 0.024, 12, 3, 2, [1.3, 1], [1, 0, 0]), `${side}ToeBase`, `${side}Foot`, null, 0.3);
  }
  return [...parts.values()];
}

// ---------------------------------------------------------------- animation

export type Quat = [number, number, number, number];

export function quatMul(a: Quat, b: Quat): Quat {
  return [
    a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1],
    a[1] * b[3] + a[3] * b[1] + a[2] * b[0] - a[0] * b[2],
    a[2] * b[3] + a[3] * b[2] + a[0] * b[1] - a[1] * b[0],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

export function rotate(q: Quat, v: V3): V3 {
  const p = quatMul(quatMul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [p[0], p[1], p[2]];
}

export function axisAngle(axis: V3, deg: number): Quat {
  const l = Math.hypot(axis[0], axis[1], axis[2]);
  const h = (deg * Math.PI) / 360;
  const s = Math.sin(h) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(h)];
}

/** Shortest-arc rotation taking unit `a` to unit `b`. */
export function fromTo(a: V3, b: V3): Quat {
  const d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const c: V3 = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const q: Quat = [c[0], c[1], c[2], 1 + d];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** Rotations applied in order: first `qs[0]`, then `qs[1]`, ... (q = qn · ... · q0). */
export function chain(...qs: Quat[]): Quat {
  let q: Quat = [0, 0, 0, 1];
  for (const r of qs) q = quatMul(r, q);
  return q;
}

/** A pose: joint name → local rotation; optional Hips translation offset (metres, world). */
export interface Pose {
  rot: Record<string, Quat>;
  hipsOffset?: V3;
}

export interface ChannelKeys {
  joint: string;
  path: 'rotation' | 'translation';
  interpolation: 'LINEAR' | 'STEP' | 'CUBICSPLINE';
  times: number[];
  /** Flat values; for CUBICSPLINE [in, value, out] per key. */
  values: number[];
}

export interface ClipDef {
  name: string;
  channels: ChannelKeys[];
}

function ensureContinuity(qs: Quat[]): void {
  for (let k = 1; k < qs.length; k++) {
    const a = qs[k - 1], b = qs[k];
    if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0) qs[k] = [-b[0], -b[1], -b[2], -b[3]];
  }
}

/** Builds channels for every joint a pose mentions, keyed at `times`. */
function channelsFromPoses(
  joints: JointDef[],
  times: number[],
  poses: Pose[],
  interpolation: 'LINEAR' | 'CUBICSPLINE',
  periodic: boolean,
): ChannelKeys[] {
  const names = new Set<string>();
  for (const p of poses) for (const n of Object.keys(p.rot)) names.add(n);
  const out: ChannelKeys[] = [];
  const tangents = (vals: number[][]): number[][] => {
    // Catmull-Rom (finite-difference) tangents in units per second.
    const n = vals.length;
    return vals.map((_, k) => {
      let a: number, b: number;
      if (periodic) {
        a = k === 0 ? n - 2 : k - 1;
        b = k === n - 1 ? 1 : k + 1;
      } else {
        a = Math.max(0, k - 1);
        b = Math.min(n - 1, k + 1);
      }
      const dtA = periodic && k === 0 ? times[n - 1] - times[n - 2] : times[k] - times[a];
      const dtB = periodic && k === n - 1 ? times[1] - times[0] : times[b] - times[k];
      const va = vals[a], vb = vals[b];
      return va.map((_, c) => (vb[c] - va[c]) / (dtA + dtB || 1));
    });
  };
  const emit = (joint: string, path: 'rotation' | 'translation', vals: number[][]): void => {
    const values: number[] = [];
    if (interpolation === 'CUBICSPLINE') {
      const tg = tangents(vals);
      vals.forEach((v, k) => values.push(...tg[k], ...v, ...tg[k]));
    } else {
      vals.forEach((v) => values.push(...v));
    }
    out.push({ joint, path, interpolation, times: times.slice(), values });
  };
  for (const name of names) {
    if (joints.findIndex((j) => j.name === name) < 0) throw new Error(`pose names unknown joint ${name}`);
    const qs = poses.map((p) => p.rot[name] ?? ([0, 0, 0, 1] as Quat));
    ensureContinuity(qs);
    emit(name, 'rotation', qs);
  }
  if (poses.some((p) => p.hipsOffset)) {
    const hips = joints[0].pos;
    emit(
      'Hips',
      'translation',
      poses.map((p) => {
        const o = p.hipsOffset ?? [0, 0, 0];
        return [(hips[0] + o[0]) / ARMATURE_SCALE, (hips[1] + o[1]) / ARMATURE_SCALE, (hips[2] + o[2]) / ARMATURE_SCALE];
      }),
    );
  }
  return out;
}

const X: V3 = [1, 0, 0];
const Y: V3 = [0, 1, 0];
const Z: V3 = [0, 0, 1];

/** Arms hanging down from the T-pose, elbows slightly bent. */
function armsDown(rot: Record<string, Quat>, swingL: number, swingR: number): void {
  rot.LeftArm = chain(axisAngle(Z, -72), axisAngle(X, swingL));
  rot.RightArm = chain(axisAngle(Z, 72), axisAngle(X, swingR));
  rot.LeftForeArm = axisAngle(Y, -18 + Math.min(0, swingL) * 0.5);
  rot.RightForeArm = axisAngle(Y, 18 - Math.min(0, swingR) * 0.5);
}

/**
 * Lowest point of either foot (heel and toe sole points, rigid with the Foot
 * joint) for a pose with the hips at their rest height.
 */
export function lowestFootY(joints: JointDef[], rot: Record<string, Quat>): number {
  const J = (n: string) => joints.find((j) => j.name === n)!;
  // Sole vertices of the feet (rigid with the Foot joint; the toes are not animated in the walk).
  const legs = mannequinParts(joints).find((p) => p.name === 'Mannequin_Legs')!;
  const soles: V3[] = [];
  for (let v = 0; v < legs.data.positions.length; v += 3) if (legs.data.positions[v + 1] < 0.02) soles.push([legs.data.positions[v], legs.data.positions[v + 1], legs.data.positions[v + 2]]);
  let lowest = Infinity;
  for (const side of ['Left', 'Right']) {
    let pos: V3 = J('Hips').pos;
    let R: Quat = rot.Hips ?? [0, 0, 0, 1];
    let prev = J('Hips');
    for (const name of [`${side}UpLeg`, `${side}Leg`, `${side}Foot`]) {
      const j = J(name);
      const off = rotate(R, [j.pos[0] - prev.pos[0], j.pos[1] - prev.pos[1], j.pos[2] - prev.pos[2]]);
      pos = [pos[0] + off[0], pos[1] + off[1], pos[2] + off[2]];
      R = quatMul(R, rot[name] ?? [0, 0, 0, 1]);
      prev = j;
    }
    for (const sole of soles) {
      if (Math.sign(sole[0]) !== Math.sign(prev.pos[0])) continue;
      const p = rotate(R, [sole[0] - prev.pos[0], sole[1] - prev.pos[1], sole[2] - prev.pos[2]]);
      lowest = Math.min(lowest, pos[1] + p[1]);
    }
  }
  return lowest;
}

export function walkClip(joints: JointDef[]): ClipDef {
  const T = 1.0;
  const n = 8;
  const times: number[] = [];
  const poses: Pose[] = [];
  for (let k = 0; k <= n; k++) {
    const t = (k / n) * T;
    const ph = (2 * Math.PI * (k % n)) / n;
    const s = Math.sin(ph);
    const rot: Record<string, Quat> = {};
    rot.LeftUpLeg = axisAngle(X, -25 * s);
    rot.RightUpLeg = axisAngle(X, 25 * s);
    rot.LeftLeg = axisAngle(X, 8 + 28 * Math.max(0, Math.sin(ph + Math.PI * 0.85)));
    rot.RightLeg = axisAngle(X, 8 + 28 * Math.max(0, Math.sin(ph - Math.PI * 0.15)));
    rot.LeftFoot = axisAngle(X, 10 * s - 6);
    rot.RightFoot = axisAngle(X, -10 * s - 6);
    armsDown(rot, 20 * s, -20 * s);
    rot.Hips = axisAngle(Y, 6 * s);
    rot.Spine = axisAngle(Y, -4 * s);
    rot.Spine2 = chain(axisAngle(X, 3), axisAngle(Y, -4 * s));
    rot.Head = axisAngle(Y, 2 * s);
    times.push(t);
    // Hips height chosen so the lower foot just touches the ground at every key.
    poses.push({ rot, hipsOffset: [0, 0.005 - lowestFootY(joints, rot), 0] });
  }
  return { name: 'walk', channels: channelsFromPoses(joints, times, poses, 'CUBICSPLINE', true) };
}

/**
 * Key poses of the swing (LINEAR keys): torso twist about +Y (degrees,
 * negative = wound up to the right), forward lean, knee bend, wrist cock, arm
 * slope (`reach`), and the bat's elevation above horizontal for the sample
 * scene (its heading follows the twist).
 */
export const SWING_KEYS: { t: number; twist: number; lean: number; knee: number; cock: number; reach: number; batElev: number; batYaw: number }[] = [
  { t: 0.0, twist: -20, lean: 18, knee: 14, cock: 35, reach: 0.55, batElev: 55, batYaw: -30 },
  { t: 0.4, twist: -75, lean: 16, knee: 16, cock: 70, reach: 0.45, batElev: 70, batYaw: -100 },
  { t: 0.7, twist: -60, lean: 22, knee: 18, cock: 60, reach: 0.6, batElev: 45, batYaw: -80 },
  { t: 0.9, twist: -24, lean: 30, knee: 22, cock: 20, reach: 0.8, batElev: 8, batYaw: -28 },
  { t: 1.0, twist: 0, lean: 34, knee: 24, cock: 0, reach: 0.9, batElev: -5, batYaw: 0 },
  { t: 1.15, twist: 38, lean: 36, knee: 26, cock: -15, reach: 1.0, batElev: 12, batYaw: 45 },
  { t: 1.35, twist: 70, lean: 28, knee: 22, cock: -45, reach: 0.7, batElev: 55, batYaw: 80 },
  { t: 1.65, twist: 95, lean: 18, knee: 16, cock: -70, reach: 0.45, batElev: 80, batYaw: 100 },
  { t: 2.0, twist: 100, lean: 14, knee: 14, cock: -75, reach: 0.4, batElev: 82, batYaw: 105 },
];

// ------------------------------------------------------------ swing (IK grip)

/** World rotation and position of every joint (metres; identity rest rotations). */
export interface WorldPose {
  q: Quat[];
  p: V3[];
}

export function forwardKinematics(joints: JointDef[], rot: Record<string, Quat>, hipsOffset: V3 = [0, 0, 0]): WorldPose {
  const q: Quat[] = [];
  const p: V3[] = [];
  joints.forEach((j, i) => {
    const r = rot[j.name] ?? ([0, 0, 0, 1] as Quat);
    if (j.parent < 0) {
      q.push(r);
      p.push([j.pos[0] + hipsOffset[0], j.pos[1] + hipsOffset[1], j.pos[2] + hipsOffset[2]]);
      return;
    }
    const pp = joints[j.parent].pos;
    const off = rotate(q[j.parent], [j.pos[0] - pp[0], j.pos[1] - pp[1], j.pos[2] - pp[2]]);
    q.push(quatMul(q[j.parent], r));
    p.push([p[j.parent][0] + off[0], p[j.parent][1] + off[1], p[j.parent][2] + off[2]]);
    void i;
  });
  return { q, p };
}

function slerp(a: Quat, b: Quat, t: number): Quat {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  let bb = b;
  if (d < 0) {
    d = -d;
    bb = [-b[0], -b[1], -b[2], -b[3]];
  }
  let ka = 1 - t, kb = t;
  if (d < 0.9999995) {
    const th = Math.acos(d), s = Math.sin(th);
    ka = Math.sin((1 - t) * th) / s;
    kb = Math.sin(t * th) / s;
  }
  const q: Quat = [ka * a[0] + kb * bb[0], ka * a[1] + kb * bb[1], ka * a[2] + kb * bb[2], ka * a[3] + kb * bb[3]];
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

function normalize(v: V3): V3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}
function crossV(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dotV(a: V3, b: V3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function conj(q: Quat): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}
/** Quaternion of the rotation whose matrix has columns x, y, z (orthonormal, right-handed). */
function quatFromAxes(x: V3, y: V3, z: V3): Quat {
  const m00 = x[0], m10 = x[1], m20 = x[2], m01 = y[0], m11 = y[1], m21 = y[2], m02 = z[0], m12 = z[1], m22 = z[2];
  const tr = m00 + m11 + m22;
  let q: Quat;
  if (tr > 0) {
    const s = 0.5 / Math.sqrt(tr + 1);
    q = [(m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  const l = Math.hypot(...q);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** Body pose of a swing key without the arms and hands (torso, legs, hips drop). */
function swingBodyPose(k: (typeof SWING_KEYS)[number]): Pose {
  const rot: Record<string, Quat> = {};
  const tw = k.twist;
  rot.Hips = axisAngle(Y, 0.3 * tw);
  rot.Spine = chain(axisAngle(X, k.lean * 0.4), axisAngle(Y, 0.2 * tw));
  rot.Spine1 = chain(axisAngle(X, k.lean * 0.3), axisAngle(Y, 0.25 * tw));
  rot.Spine2 = chain(axisAngle(X, k.lean * 0.3), axisAngle(Y, 0.25 * tw));
  rot.Neck = axisAngle(Y, -0.35 * tw);
  rot.Head = axisAngle(X, -0.5 * k.lean);
  // Stance: feet apart, knees bent; the thighs cancel the hips' twist so the feet stay planted.
  const up = chain(axisAngle(Z, 9), axisAngle(X, -k.knee * 0.6), axisAngle(Y, -0.3 * tw));
  const upR = chain(axisAngle(Z, -9), axisAngle(X, -k.knee * 0.6), axisAngle(Y, -0.3 * tw));
  rot.LeftUpLeg = up;
  rot.RightUpLeg = upR;
  rot.LeftLeg = axisAngle(X, k.knee);
  rot.RightLeg = axisAngle(X, k.knee);
  rot.LeftFoot = chain(axisAngle(X, -k.knee * 0.4), axisAngle(Z, -9));
  rot.RightFoot = chain(axisAngle(X, -k.knee * 0.4), axisAngle(Z, 9));
  // Lower the hips by exactly what the bent legs lose in height, so the feet stay on the ground.
  const thigh = rotate(quatMul(rot.Hips, up), [0, -0.43, 0]);
  const shin = rotate(quatMul(quatMul(rot.Hips, up), rot.LeftLeg), [0, -0.43, 0]);
  const drop = 0.86 + (thigh[1] + shin[1]);
  return { rot, hipsOffset: [0, -drop, 0] };
}

/**
 * A pose between the swing keys exactly as LINEAR keys interpolate it: slerp
 * of every joint's rotation, lerp of the hips offset.
 */
function interpolatedPose(timeSec: number, poseOf: (k: (typeof SWING_KEYS)[number]) => Pose): Pose {
  const keys = SWING_KEYS;
  let i = 1;
  while (i < keys.length - 1 && timeSec > keys[i].t) i++;
  const a = Math.min(1, Math.max(0, (timeSec - keys[i - 1].t) / (keys[i].t - keys[i - 1].t)));
  const pa = poseOf(keys[i - 1]), pb = poseOf(keys[i]);
  const rot: Record<string, Quat> = {};
  for (const n of new Set([...Object.keys(pa.rot), ...Object.keys(pb.rot)])) rot[n] = slerp(pa.rot[n] ?? [0, 0, 0, 1], pb.rot[n] ?? [0, 0, 0, 1], a);
  const ha = pa.hipsOffset ?? [0, 0, 0], hb = pb.hipsOffset ?? [0, 0, 0];
  return { rot, hipsOffset: [ha[0] + a * (hb[0] - ha[0]), ha[1] + a * (hb[1] - ha[1]), ha[2] + a * (hb[2] - ha[2])] };
}

/**
 * The swing's reference arms (the first version of the clip, where both
 * fists met at one point): they define where the bat's grip travels, so the
 * bat's world trajectory (and the contacts the sample is built around) does
 * not depend on how the hands are modelled.
 */
function referenceArms(k: (typeof SWING_KEYS)[number], rot: Record<string, Quat>): void {
  const inward = 0.3;
  const dl: V3 = [-inward, -k.reach, 0.85];
  const dr: V3 = [inward, -k.reach, 0.85];
  const nl = Math.hypot(...dl), nr = Math.hypot(...dr);
  rot.LeftArm = fromTo([1, 0, 0], [dl[0] / nl, dl[1] / nl, dl[2] / nl]);
  rot.RightArm = fromTo([-1, 0, 0], [dr[0] / nr, dr[1] / nr, dr[2] / nr]);
  rot.LeftForeArm = axisAngle(Y, -8);
  rot.RightForeArm = axisAngle(Y, 8);
  rot.RightHand = axisAngle(Z, -k.cock);
  rot.LeftHand = axisAngle(Z, k.cock);
}

/**
 * The swing's reference clip (body and reference arms at SWING_KEYS, LINEAR):
 * the sample keys the bat from it, evaluated exactly as the first version of
 * the clip was (through float32 glTF values), so the bat's path is unchanged.
 */
export function referenceSwingClip(joints: JointDef[]): ClipDef {
  const poses = SWING_KEYS.map((k) => {
    const p = swingBodyPose(k);
    referenceArms(k, p.rot);
    return p;
  });
  return { name: 'swing-reference', channels: channelsFromPoses(joints, SWING_KEYS.map((k) => k.t), poses, 'LINEAR', false) };
}

/** The reference grip: 7 cm along the fingers from each wrist, averaged over both hands. */
export const REF_FIST_FROM_WRIST = 0.07;

export interface ReferenceGrip {
  /** Centre of the grip (world, metres). */
  grip: V3;
  /** Reference hands' local +x axes in world (the old "square to the fingers" rule uses them). */
  xl: V3;
  xr: V3;
}

/**
 * Reference grip at any time of the swing: the reference poses at the keys,
 * interpolated as the LINEAR keys are (slerp per joint, lerp of the hips).
 */
export function referenceGrip(joints: JointDef[], timeSec: number): ReferenceGrip {
  const pose = interpolatedPose(timeSec, (k) => {
    const p = swingBodyPose(k);
    referenceArms(k, p.rot);
    return p;
  });
  const w = forwardKinematics(joints, pose.rot, pose.hipsOffset);
  const J = (n: string): number => joints.findIndex((j) => j.name === n);
  const rh = J('RightHand'), lh = J('LeftHand');
  const xr = rotate(w.q[rh], [1, 0, 0]), xl = rotate(w.q[lh], [1, 0, 0]);
  const c = REF_FIST_FROM_WRIST;
  const r = w.p[rh], l = w.p[lh];
  return { grip: [(r[0] - c * xr[0] + l[0] + c * xl[0]) / 2, (r[1] - c * xr[1] + l[1] + c * xl[1]) / 2, (r[2] - c * xr[2] + l[2] + c * xl[2]) / 2], xl, xr };
}

/** Bat geometry the grip is built around (metres from the knob). */
export const GRIP_FROM_KNOB = 0.12;
export const HIT_FROM_KNOB = 0.72;
/** Height of the ball's centre in the sample (table top + radius + rest gap). */
export const BALL_CENTRE_Y = 0.8 + 0.037 + 0.0005;
export const CONTACT_TIME = 1.0;

function lerpKey(t: number, field: 'batYaw' | 'batElev'): number {
  const k = SWING_KEYS;
  if (t <= k[0].t) return k[0][field];
  for (let i = 1; i < k.length; i++)
    if (t <= k[i].t) {
      const a = (t - k[i - 1].t) / (k[i].t - k[i - 1].t);
      return k[i - 1][field] + a * (k[i][field] - k[i - 1][field]);
    }
  return k[k.length - 1][field];
}

/**
 * The finish: from FINISH_FROM to FINISH_TO s the bat turns from square to the
 * reference fingers back to the heading and elevation of SWING_KEYS (upright
 * over the left shoulder), which two fists on the handle can hold without
 * the forearms crossing (square to the reference fingers it would wrap behind
 * the neck, out of reach of a two-handed grip).
 */
export const FINISH_FROM = 1.35;
export const FINISH_TO = 1.5;

/**
 * The bat's direction (knob → barrel, unit) at a time of the swing: heading
 * and elevation from SWING_KEYS; at contact tilted so the hit point is at the
 * ball's height; in the follow-through (after `squareAfter` s) square to the
 * reference hands' fingers, until the finish (FINISH_FROM).
 */
export function batDirectionAt(joints: JointDef[], timeSec: number, squareAfter = CONTACT_TIME + 0.1): V3 {
  const ref = referenceGrip(joints, timeSec);
  let elev = lerpKey(timeSec, 'batElev');
  if (Math.abs(timeSec - CONTACT_TIME) < 1e-9) elev = (Math.asin((BALL_CENTRE_Y - ref.grip[1]) / (HIT_FROM_KNOB - GRIP_FROM_KNOB)) * 180) / Math.PI;
  const y = (lerpKey(timeSec, 'batYaw') * Math.PI) / 180, e = (elev * Math.PI) / 180;
  let d: V3 = [Math.sin(y) * Math.cos(e), Math.sin(e), Math.cos(y) * Math.cos(e)];
  if (timeSec > squareAfter + 1e-9) {
    const g: V3 = [ref.xl[0] - ref.xr[0], ref.xl[1] - ref.xr[1], ref.xl[2] - ref.xr[2]];
    const k = dotV(d, g) / dotV(g, g);
    const sq = normalize([d[0] - k * g[0], d[1] - k * g[1], d[2] - k * g[2]]);
    const b = Math.min(1, Math.max(0, (timeSec - FINISH_FROM) / (FINISH_TO - FINISH_FROM)));
    d = normalize([sq[0] * (1 - b) + d[0] * b, sq[1] * (1 - b) + d[1] * b, sq[2] * (1 - b) + d[2] * b]);
  }
  return d;
}

/**
 * Where the handle passes through a fist, in the hand's local frame (metres
 * from the wrist joint): under the knuckles (9.5 cm along the hand), on the
 * palm side, inside the curled fingers. Mirrored in x for the right hand.
 */
export const FIST_GRIP_LOCAL: V3 = [0.09, -0.03, 0];
/**
 * The fists sit on the handle one above the other, centred on the reference
 * grip: the lower (left) hand this far towards the knob, the upper (right)
 * hand this far towards the barrel. A fist spans -3.5 cm (pinky) to +6.6 cm
 * (thumb) along the handle from its grip point, so 11.5 cm apart leaves a gap.
 */
export const LOWER_FIST_OFFSET = -0.062;
export const UPPER_FIST_OFFSET = 0.053;
/** Upper arm and forearm lengths (Arm → ForeArm → Hand). */
const UPPER_ARM = 0.28;
const FOREARM = 0.26;
/** Shoulders rolled forward (protraction) in the swing, so the upper arms reach in front of the chest. */
const PROTRACT_DEG = 18;
/** Elbow directions tried by the IK (Spine2 frame, x mirrored for the right arm), preferred first: down and out, out, down, down and forward, up and out. */
const ELBOW_POLES: V3[] = [[0.8, -1, -0.2], [1, -0.2, 0], [0.2, -1, 0], [0.5, -1, 0.6], [1, 0.6, 0]];
/** Finger curl per joint (degrees) and thumb curl, in the fist. */
const FINGER_CURL = 70;
const THUMB_CURL = 35;

export interface SwingArmsResult {
  /** Per key: distance between a fist's grip point and its target (0 when reachable). */
  reachError: number[];
}

/**
 * Arms for a swing key by two-bone IK: each fist's grip point on the handle
 * (left hand lower, right hand upper), the handle along the fist's local +z
 * (index finger towards the barrel), the backs of the hands facing the swing
 * direction (left) and away from it (right), elbows down and out.
 */
function gripArms(joints: JointDef[], pose: Pose, grip: V3, d: V3, yawDeg: number, rollDeg = 0, pole0: V3 = [0.8, -1, -0.2]): { err: number; clearance: number; wrist: number } {
  const rot = pose.rot;
  const J = (n: string): number => joints.findIndex((j) => j.name === n);
  let err = 0;
  for (const [side, sx] of [['Left', 1], ['Right', -1]] as const) {
    rot[`${side}Shoulder`] = axisAngle(Y, -sx * PROTRACT_DEG);
    // Fingers curled in parallel planes (no finger crosses its neighbour's plane); thumb rotated
    // to lie along the fingers beside the index finger, curled the same way.
    for (const f of ['Index', 'Middle', 'Ring', 'Pinky'])
      for (let j = 1; j <= 3; j++) rot[`${side}Hand${f}${j}`] = axisAngle([0, 0, sx], -FINGER_CURL);
    rot[`${side}HandThumb2`] = chain(axisAngle(Y, sx * 33), axisAngle([0, 0, sx], -THUMB_CURL));
    rot[`${side}HandThumb3`] = chain(axisAngle(Y, -sx * 6.4), axisAngle([0, 0, sx], -THUMB_CURL));
  }
  const w = forwardKinematics(joints, rot, pose.hipsOffset);
  // Swing direction: horizontal, perpendicular to the bat's heading.
  const yw = (yawDeg * Math.PI) / 180;
  const u: V3 = [Math.cos(yw), 0, -Math.sin(yw)];
  const k = dotV(u, d);
  const yl = rotate(axisAngle(d, rollDeg), normalize([u[0] - k * d[0], u[1] - k * d[1], u[2] - k * d[2]]));
  const f = crossV(yl, d);
  const seg: Record<string, [V3, V3, V3]> = {};
  let wrist = 0;
  let chest = Infinity;
  for (const [side, sx] of [['Left', 1], ['Right', -1]] as const) {
    const off = sx > 0 ? LOWER_FIST_OFFSET : UPPER_FIST_OFFSET;
    const F: V3 = [grip[0] + off * d[0], grip[1] + off * d[1], grip[2] + off * d[2]];
    // Hand world frame: left x = fingers, y = back of the hand, z = handle; right mirrored in x and y.
    const RH = sx > 0 ? quatFromAxes(f, yl, d) : quatFromAxes([-f[0], -f[1], -f[2]], [-yl[0], -yl[1], -yl[2]], d);
    const gl = rotate(RH, [sx * FIST_GRIP_LOCAL[0], FIST_GRIP_LOCAL[1], FIST_GRIP_LOCAL[2]]);
    let W: V3 = [F[0] - gl[0], F[1] - gl[1], F[2] - gl[2]];
    const sh = J(`${side}Shoulder`), arm = J(`${side}Arm`);
    const A = w.p[arm];
    let D: V3 = [W[0] - A[0], W[1] - A[1], W[2] - A[2]];
    let dist = Math.hypot(...D);
    const maxD = UPPER_ARM + FOREARM - 1e-4;
    if (dist > maxD) {
      err = Math.max(err, dist - maxD);
      D = [(D[0] * maxD) / dist, (D[1] * maxD) / dist, (D[2] * maxD) / dist];
      dist = maxD;
      W = [A[0] + D[0], A[1] + D[1], A[2] + D[2]];
    }
    const Dn: V3 = [D[0] / dist, D[1] / dist, D[2] / dist];
    const a = (UPPER_ARM * UPPER_ARM + dist * dist - FOREARM * FOREARM) / (2 * dist);
    const h = Math.sqrt(Math.max(0, UPPER_ARM * UPPER_ARM - a * a));
    const pole = rotate(w.q[J('Spine2')], [sx * pole0[0], pole0[1], pole0[2]]);
    const pk = dotV(pole, Dn);
    const perp = normalize([pole[0] - pk * Dn[0], pole[1] - pk * Dn[1], pole[2] - pk * Dn[2]]);
    const E: V3 = [A[0] + a * Dn[0] + h * perp[0], A[1] + a * Dn[1] + h * perp[1], A[2] + a * Dn[2] + h * perp[2]];
    const dirFA = normalize([W[0] - E[0], W[1] - E[1], W[2] - E[2]]);
    const dirUA = normalize([E[0] - A[0], E[1] - A[1], E[2] - A[2]]);
    const bone: V3 = [sx, 0, 0];
    // Least twist: the forearm takes the hand's roll, the upper arm the forearm's.
    wrist = Math.max(wrist, Math.acos(Math.min(1, Math.max(-1, dotV(rotate(RH, bone), dirFA)))) * (180 / Math.PI));
    const RFA = quatMul(fromTo(rotate(RH, bone), dirFA), RH);
    const RA = quatMul(fromTo(rotate(RFA, bone), dirUA), RFA);
    rot[`${side}Arm`] = quatMul(conj(w.q[sh]), RA);
    rot[`${side}ForeArm`] = quatMul(conj(RA), RFA);
    rot[`${side}Hand`] = quatMul(conj(RFA), RH);
    seg[side] = [E, W, F];
    // The upper arm (radius 5 cm) stays out of the chest shell (Spine1's ellipsoid, 29 cm up in bind).
    const c = J('Spine1'), qc = conj(w.q[c]), pc = w.p[c];
    for (let i = 0; i <= 12; i++) {
      const x = rotate(qc, [A[0] + ((E[0] - A[0]) * i) / 12 - pc[0], A[1] + ((E[1] - A[1]) * i) / 12 - pc[1], A[2] + ((E[2] - A[2]) * i) / 12 - pc[2]]);
      const v = Math.hypot(x[0] / 0.215, (x[1] - 0.07) / 0.16, x[2] / 0.165);
      chest = Math.min(chest, 0.1 * (v - 1));
    }
  }
  // Clearance between the forearms (radii up to 4 cm), between each forearm and the other fist, and of the upper arms from the chest.
  const near = (a0: V3, a1: V3, b0: V3, b1: V3): number => {
    let m = Infinity;
    for (let i = 0; i <= 12; i++)
      for (let j = 0; j <= 12; j++) {
        const p = [0, 1, 2].map((c) => a0[c] + ((a1[c] - a0[c]) * i) / 12), q = [0, 1, 2].map((c) => b0[c] + ((b1[c] - b0[c]) * j) / 12);
        m = Math.min(m, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
      }
    return m;
  };
  const [EL, WL, FL] = seg.Left, [ER, WR, FR] = seg.Right;
  const clearance = Math.min(near(EL, WL, ER, WR) - 0.075, near(EL, WL, FR, FR) - 0.09, near(ER, WR, FL, FL) - 0.09, chest);
  return { err, clearance, wrist };
}

/**
 * A two-handed swing in front of the body: the torso winds up to the right
 * (-Y twist) and swings through to the left; hands low at contact (t = 1.0 s).
 * The fists hold the bat's handle one above the other (left hand lower), each
 * placed by IK on the reference grip trajectory the sample's bat follows.
 */
export function swingClip(joints: JointDef[]): ClipDef & SwingArmsResult {
  // The body moves between SWING_KEYS; the arms are keyed every 0.1 s as well (the body's
  // rotations at those keys are its own interpolation, so it moves exactly as between the
  // SWING_KEYS), so the fists follow the grip trajectory closely between the body's keys.
  const times = [...new Set([...SWING_KEYS.map((k) => k.t), ...Array.from({ length: 21 }, (_, i) => i / 10)])].sort((a, b) => a - b);
  const poses: Pose[] = [];
  const reachError: number[] = [];
  let prevRoll = 0;
  for (const t of times) {
    const ref = referenceGrip(joints, t);
    const d = batDirectionAt(joints, t);
    // The hands' roll about the handle: the backs of the hands face the swing direction unless the
    // arms cannot reach the handle that way (late follow-through); then the nearest roll (to the
    // previous key's) that reaches, or failing that the one that comes closest.
    let best: { pose: Pose; err: number; roll: number; score: number } | null = null;
    for (let step = -180; step < 180; step += 15)
    for (const [pi, pole] of ELBOW_POLES.entries()) {
      const roll = prevRoll + step;
      const pose = interpolatedPose(t, swingBodyPose);
      const r = gripArms(joints, pose, ref.grip, d, lerpKey(t, 'batYaw'), roll, pole);
      // Reach first, then clearance between the arms (enough is enough) and wrist bend, then the least roll change.
      // Wrists bent past 45 degrees fold the fist onto the forearm.
      const score = -10 * r.err + Math.min(r.clearance, 0.015) - 0.002 * Math.max(0, r.wrist - 45) - 0.0004 * (Math.abs(step) / 15) - 0.001 * pi;
      if (!best || score > best.score) best = { pose, err: r.err, roll, score };
    }
    reachError.push(best!.err);
    prevRoll = best!.roll;
    poses.push(best!.pose);
  }
  const channels = channelsFromPoses(joints, times, poses, 'LINEAR', false);
  // Eyes: STEP keys (a glance at the ball before contact, then after it).
  const glance = [axisAngle(X, 0), axisAngle(X, 12), axisAngle(Y, 15), axisAngle(X, 0)];
  const eyeTimes = [0, 0.5, 1.1, 1.8];
  for (const eye of ['LeftEye', 'RightEye'])
    channels.push({ joint: eye, path: 'rotation', interpolation: 'STEP', times: eyeTimes, values: glance.flatMap((q) => q) });
  return { name: 'swing', channels, reachError };
}
