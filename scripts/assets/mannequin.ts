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

  // Torso: pelvis, belly, chest, neck (overlapping closed shells).
  put(body, ellipsoid([0, 0.99, 0], [0, 1, 0], 0.12, 0.16, 0.11, 18, 10, [1, 0, 0]), 'Hips', null, 'Spine', 0.35);
  put(body, capsule([0, 1.1, 0], [0, 1.22, 0], 0.125, 0.135, 18, 4, 3, [1.1, 0.82], [1, 0, 0]), 'Spine', 'Hips', 'Spine1', 0.4);
  put(body, ellipsoid([0, 1.33, 0], [0, 1, 0], 0.15, 0.17, 0.115, 18, 10, [1, 0, 0]), 'Spine1', 'Spine', 'Spine2', 0.5);
  put(body, ellipsoid([0, 1.42, 0], [1, 0, 0], 0.2, 0.08, 0.1, 18, 10, [0, 1, 0]), 'Spine2', null, null, 0.3);
  put(body, capsule(P('Neck'), P('Head'), 0.05, 0.048, 12, 3, 3), 'Neck', 'Spine2', 'Head', 0.35);
  // Head and eyes.
  put(head, ellipsoid([0, 1.69, 0.005], [0, 1, 0], 0.11, 0.09, 0.1, 20, 12, [1, 0, 0]), 'Head', 'Neck', null, 0.25);
  for (const eye of ['LeftEye', 'RightEye']) put(head, ellipsoid(P(eye), [0, 0, 1], 0.014, 0.014, 0.014, 10, 6), eye, null, null, 0.3);

  for (const side of ['Left', 'Right']) {
    put(arms, capsule(P(`${side}Shoulder`), P(`${side}Arm`), 0.05, 0.052, 12, 3, 2), `${side}Shoulder`, 'Spine2', `${side}Arm`, 0.3);
    put(arms, capsule(P(`${side}Arm`), P(`${side}ForeArm`), 0.05, 0.04, 14, 4, 6), `${side}Arm`, `${side}Shoulder`, `${side}ForeArm`, 0.2);
    put(arms, capsule(P(`${side}ForeArm`), P(`${side}Hand`), 0.04, 0.03, 14, 4, 6), `${side}ForeArm`, `${side}Arm`, `${side}Hand`, 0.2);
    const h = `${side}Hand`;
    const sx = side === 'Left' ? 1 : -1;
    put(hands, ellipsoid([sx * 0.77, 1.45, 0], [1, 0, 0], 0.055, 0.018, 0.042, 14, 8, [0, 1, 0]), h, `${side}ForeArm`, null, 0.3);
    for (const f of ['Thumb', 'Index', 'Middle', 'Ring', 'Pinky']) {
      for (let k = 1; k <= 3; k++) {
        const a = `${h}${f}${k}`, b = `${h}${f}${k + 1}`;
        const r = f === 'Thumb' ? 0.011 : f === 'Pinky' ? 0.008 : 0.009;
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

/**
 * A two-handed swing in front of the body: both arms reach forward and in so
 * the hands meet, the torso winds up to the right (-Y twist) and swings
 * through to the left; hands low at contact (t = 1.0 s).
 */
export function swingClip(joints: JointDef[]): ClipDef {
  const keys = SWING_KEYS;
  const times: number[] = [];
  const poses: Pose[] = [];
  for (const k of keys) {
    const rot: Record<string, Quat> = {};
    const tw = k.twist;
    rot.Hips = axisAngle(Y, 0.3 * tw);
    rot.Spine = chain(axisAngle(X, k.lean * 0.4), axisAngle(Y, 0.2 * tw));
    rot.Spine1 = chain(axisAngle(X, k.lean * 0.3), axisAngle(Y, 0.25 * tw));
    rot.Spine2 = chain(axisAngle(X, k.lean * 0.3), axisAngle(Y, 0.25 * tw));
    rot.Neck = axisAngle(Y, -0.35 * tw);
    rot.Head = axisAngle(X, -0.5 * k.lean);
    // Arms forward and in, so the hands meet in front of the chest; `reach` = downward slope.
    const inward = 0.3;
    const dl: V3 = [-inward, -k.reach, 0.85];
    const dr: V3 = [inward, -k.reach, 0.85];
    const nl = Math.hypot(...dl), nr = Math.hypot(...dr);
    rot.LeftArm = fromTo([1, 0, 0], [dl[0] / nl, dl[1] / nl, dl[2] / nl]);
    rot.RightArm = fromTo([-1, 0, 0], [dr[0] / nr, dr[1] / nr, dr[2] / nr]);
    rot.LeftForeArm = axisAngle(Y, -8);
    rot.RightForeArm = axisAngle(Y, 8);
    // Wrist cock (bat up at the wind-up, rolled over in the follow-through).
    rot.RightHand = axisAngle(Z, -k.cock);
    rot.LeftHand = axisAngle(Z, k.cock);
    // Fists.
    for (const side of ['Left', 'Right']) {
      const s = side === 'Left' ? 1 : -1;
      for (const f of ['Index', 'Middle', 'Ring', 'Pinky'])
        for (let j = 1; j <= 3; j++) rot[`${side}Hand${f}${j}`] = axisAngle([0, 0, s], -70);
      rot[`${side}HandThumb1`] = axisAngle([0, 1, 0], s * 25);
      rot[`${side}HandThumb2`] = axisAngle([0, 1, 0], s * 30);
    }
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
    const hipsQ = rot.Hips;
    const thigh = rotate(quatMul(hipsQ, up), [0, -0.43, 0]);
    const shin = rotate(quatMul(quatMul(hipsQ, up), rot.LeftLeg), [0, -0.43, 0]);
    const drop = 0.86 + (thigh[1] + shin[1]);
    times.push(k.t);
    poses.push({ rot, hipsOffset: [0, -drop, 0] });
  }
  const channels = channelsFromPoses(joints, times, poses, 'LINEAR', false);
  // Eyes: STEP keys (a glance at the ball before contact, then after it).
  const glance = [axisAngle(X, 0), axisAngle(X, 12), axisAngle(Y, 15), axisAngle(X, 0)];
  const eyeTimes = [0, 0.5, 1.1, 1.8];
  for (const eye of ['LeftEye', 'RightEye'])
    channels.push({ joint: eye, path: 'rotation', interpolation: 'STEP', times: eyeTimes, values: glance.flatMap((q) => q) });
  return { name: 'swing', channels };
}
