/**
 * The suggestion an animator gets: simulate the dynamic objects over a frame
 * range (SimWorld), and turn their motion into sparse keys (core/bake key
 * reduction with a position and an angle tolerance) ready to merge into the
 * clip, plus the impacts found and a per-frame trajectory for a ghost.
 *
 * Props get a translation and a rotation track (of the prop's origin, as the
 * document animates props). Ragdoll characters get a rotation track for every
 * joint whose local rotation changes and a translation track for the
 * skeleton roots. The first key is the state at `fromFrame`, which is where
 * the keyed motion hands over, so accepting a suggestion does not jump.
 */
import type { Clip, ImpulseDocument, Track, TrackTarget } from '../document/types';
import { reduceSignal, type DenseSignal, type KeyCurve } from '../bake/reduce';
import { SimWorld, SimulationError, type ImpactRecord, type WorldOptions, type WorldStats } from './world';
import { ragdollPose } from './ragdoll';
import { STATE_STRIDE } from './rigid';
import { hypot3 } from '../math/libm';

export interface SuggestOptions {
  /** Names or ids of the props / characters to simulate. */
  dynamic: string[];
  fromFrame: number;
  toFrame: number;
  clipId?: string;
  /** Default 240. */
  stepHz?: number;
  /** Key reduction tolerance for positions, metres (default 1e-3). */
  positionTolerance?: number;
  /** Key reduction tolerance for rotations, radians (default 2e-3). */
  angleTolerance?: number;
  /** Further simulation settings (thresholds, ragdoll). */
  world?: Partial<Omit<WorldOptions, 'dynamic' | 'startTimeSec' | 'clipId' | 'stepHz'>>;
}

export interface TrajectoryEntry {
  object: string;
  kind: 'prop' | 'character';
  /** Frame numbers sampled (fromFrame..toFrame). */
  frames: number[];
  /**
   * Props: 7 numbers per frame (origin t xyz, q xyzw). Characters: the local
   * pose, 10 numbers per joint per frame.
   */
  values: Float64Array;
}

export interface SuggestStats extends WorldStats {
  frames: number;
  keys: number;
  /** Keys the same tracks would have with one key per frame. */
  denseKeys: number;
  /** Largest key-reduction error (m for translation, rad for rotation). */
  maxPositionError: number;
  maxAngleError: number;
  elapsedSteps: number;
  stepSec: number;
  aborted: boolean;
  /** Dynamic rigid bodies (props, ragdoll parts) asleep at the end, and all of them. */
  bodiesAsleep: number;
  bodies: number;
}

export interface Suggestion {
  clipId: string;
  fromFrame: number;
  toFrame: number;
  /** Object ids that were simulated. */
  objects: string[];
  tracks: Track[];
  impacts: ImpactRecord[];
  trajectory: TrajectoryEntry[];
  stats: SuggestStats;
}

export type ProgressCallback = (fraction: number) => void;

export function suggestMotion(doc: ImpulseDocument, options: SuggestOptions, onProgress?: ProgressCallback, signal?: { aborted: boolean }): Suggestion {
  const clip = findClip(doc, options.clipId);
  const { fromFrame, toFrame } = options;
  if (!Number.isFinite(fromFrame) || !Number.isFinite(toFrame) || !(toFrame > fromFrame))
    throw new SimulationError(`frame range ${fromFrame}..${toFrame}: toFrame must be greater than fromFrame`);
  if (options.dynamic.length === 0) throw new SimulationError('no dynamic objects given');
  const posTol = options.positionTolerance ?? 1e-3;
  const angTol = options.angleTolerance ?? 2e-3;
  const fps = clip.frameRate;
  const world = new SimWorld(doc, {
    ...options.world,
    dynamic: options.dynamic,
    startTimeSec: fromFrame / fps,
    clipId: clip.id,
    stepHz: options.stepHz,
  });
  const perFrame = Math.round(1 / (world.stepSec * fps));
  const frameCount = Math.floor(toFrame - fromFrame) + 1;
  const sampleCount = (frameCount - 1) * perFrame + 1;
  const times = new Float64Array(sampleCount);
  const preferred = new Uint8Array(sampleCount);

  // per object sample buffers
  const propObjs = world.objects.filter((o) => o.kind === 'prop');
  const charObjs = world.objects.filter((o) => o.kind === 'character');
  // props: samples at every step and at every impact (where the velocity jumps: slopeIn ≠ slopeOut)
  // props: samples at every step and at their impacts (each prop has its own sample times: at an
  // impact elsewhere its island may already be at the end of the step)
  // one interleaved buffer per prop, PROP_SAMPLE numbers a sample (see PS_*): a step's samples of a
  // prop are written next to each other, not into eight arrays; taken from the last suggestion's (see
  // propSampleBuffer), given back at the end
  const propBuf = propObjs.map((_, i) => propSampleBuffer(i, PROP_SAMPLE * (sampleCount + 16)));
  const propLen = new Int32Array(propObjs.length);
  // characters: one sample per frame (their keys go on frames)
  const charPose = charObjs.map((o) => new Float64Array(10 * o.ragdoll!.parents.length * frameCount));
  const o10 = new Float64Array(10), lin = new Float64Array(3), ang = new Float64Array(3), qd = new Float64Array(4);
  let aborted = false;

  /** Velocity slopes of prop i (origin velocity, q̇ = ½ ω ⊗ q) for its current state and orientation q (hemisphere-aligned). */
  const slopes = (i: number, q: ArrayLike<number>, qo: number, origin?: Float64Array) => {
    world.propOriginVelocity(propObjs[i], lin, ang, origin);
    const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3], wx = ang[0], wy = ang[1], wz = ang[2];
    qd[0] = 0.5 * (wx * qw + wy * qz - wz * qy);
    qd[1] = 0.5 * (wy * qw + wz * qx - wx * qz);
    qd[2] = 0.5 * (wz * qw + wx * qy - wy * qx);
    qd[3] = 0.5 * (-wx * qx - wy * qy - wz * qz);
  };
  const samplePropsAt = (timeSec: number, preferredSample: boolean, phase: 'both' | 'pre' | 'post') => {
    for (let i = 0; i < propObjs.length; i++) {
      const obj = propObjs[i];
      if (phase !== 'both' && !world.bodyCurrent(obj.bodies[0])) continue;
      let B = propBuf[i];
      const k = propLen[i];
      if (phase !== 'post') {
        if (k > 0 && timeSec <= B[PROP_SAMPLE * (k - 1)] + 1e-9) {
          // same instant as the last sample (several impacts at once): only the outgoing slope changes
          if (phase === 'pre') continue;
        } else {
          const o = PROP_SAMPLE * k;
          if (o + PROP_SAMPLE > B.length) {
            const grownBuf = new Float64Array(2 * B.length);
            grownBuf.set(B);
            B = propBuf[i] = grownBuf;
          }
          B[o] = timeSec;
          B[o + 1] = preferredSample ? 1 : 0;
          world.propOrigin(obj, o10);
          let s = 1;
          const l = o - PROP_SAMPLE + PS_Q; // the last sample's orientation
          if (k > 0 && o10[3] * B[l] + o10[4] * B[l + 1] + o10[5] * B[l + 2] + o10[6] * B[l + 3] < 0) s = -1;
          B[o + PS_T] = o10[0];
          B[o + PS_T + 1] = o10[1];
          B[o + PS_T + 2] = o10[2];
          B[o + PS_Q] = s * o10[3];
          B[o + PS_Q + 1] = s * o10[4];
          B[o + PS_Q + 2] = s * o10[5];
          B[o + PS_Q + 3] = s * o10[6];
          slopes(i, B, o + PS_Q, o10); // o10: the origin for this state, just made
          for (let c = 0; c < 3; c++) B[o + PS_TIN + c] = B[o + PS_TOUT + c] = lin[c];
          for (let c = 0; c < 4; c++) B[o + PS_QIN + c] = B[o + PS_QOUT + c] = qd[c];
          propLen[i] = k + 1;
          continue;
        }
      }
      // post: replace the outgoing slopes of the last sample
      const o = PROP_SAMPLE * (k - 1);
      slopes(i, B, o + PS_Q);
      for (let c = 0; c < 3; c++) B[o + PS_TOUT + c] = lin[c];
      for (let c = 0; c < 4; c++) B[o + PS_QOUT + c] = qd[c];
    }
  };
  if (propObjs.length > 0) world.onImpact = (t, phase) => samplePropsAt(t, true, phase);

  const sample = (k: number) => {
    const timeSec = (fromFrame * perFrame + k) / (fps * perFrame);
    times[k] = timeSec;
    if (propObjs.length > 0) samplePropsAt(timeSec, k % perFrame === 0, 'both');
    if (k % perFrame !== 0) return;
    const fk = k / perFrame;
    charObjs.forEach((obj, i) => {
      const rd = obj.ragdoll!;
      const nj = rd.parents.length;
      const bp = bodyPoseBuffer(rd.parts.length);
      const st = world.bodies.state;
      for (let p = 0; p < rd.parts.length; p++) {
        const b = obj.bodies[p];
        const s = STATE_STRIDE * b;
        world.bodies.localOrientation(st, b, bp, 7 * p + 3);
        // head = com + R_local · head_local
        const hx = rd.parts[p].head[0], hy = rd.parts[p].head[1], hz = rd.parts[p].head[2];
        const qx = bp[7 * p + 3], qy = bp[7 * p + 4], qz = bp[7 * p + 5], qw = bp[7 * p + 6];
        const tx = 2 * (qy * hz - qz * hy), ty = 2 * (qz * hx - qx * hz), tz = 2 * (qx * hy - qy * hx);
        bp[7 * p] = st[s] + hx + qw * tx + qy * tz - qz * ty;
        bp[7 * p + 1] = st[s + 1] + hy + qw * ty + qz * tx - qx * tz;
        bp[7 * p + 2] = st[s + 2] + hz + qw * tz + qx * ty - qy * tx;
      }
      const out = charPose[i].subarray(10 * nj * fk, 10 * nj * (fk + 1));
      ragdollPose(rd, bp, out);
      if (fk > 0) {
        const prev = charPose[i].subarray(10 * nj * (fk - 1), 10 * nj * fk);
        for (let j = 0; j < nj; j++) {
          const o = 10 * j + 3;
          if (out[o] * prev[o] + out[o + 1] * prev[o + 1] + out[o + 2] * prev[o + 2] + out[o + 3] * prev[o + 3] < 0)
            for (let c = 0; c < 4; c++) out[o + c] = -out[o + c];
        }
      }
    });
  };

  sample(0);
  preferred[0] = 1;
  for (let k = 1; k < sampleCount; k++) {
    if (signal?.aborted) {
      aborted = true;
      break;
    }
    world.step();
    sample(k);
    if (k % perFrame === 0) {
      preferred[k] = 1;
      onProgress?.(k / (sampleCount - 1));
    }
  }
  world.onImpact = null;
  if (aborted) throw new SimulationError('suggestion aborted');

  // ---- key reduction
  const frames: number[] = [];
  for (let f = 0; f < frameCount; f++) frames.push(fromFrame + f);
  const propTraj: TrajectoryEntry[] = [];
  const tracks: Track[] = [];
  let keys = 0, denseKeys = 0, maxPos = 0, maxAng = 0;
  /** `unitM`: metres per unit of the signal (skeleton roots may be in other units); errors are reported in metres. */
  const addTrack = (target: TrackTarget, path: 'translation' | 'rotation', sig: DenseSignal, tol: number, unitM = 1) => {
    // signals with the exact velocities as slopes (props) are cubic Hermite data: fit cubic keys,
    // the fewest keys for the animator (a linear fit can take fewer bytes with far more keys);
    // linear only if no cubic fit holds the tolerance
    let r = sig.slopeIn ? reduceSignal(sig, { tolerance: tol, linear: false }) : reduceSignal(sig, { tolerance: tol });
    if (sig.slopeIn && r.method === 'linear') r = reduceSignal(sig, { tolerance: tol });
    tracks.push(curveToTrack(target, path, r.curve, sig.times));
    keys += r.curve.times.length;
    denseKeys += frameCount;
    if (path === 'translation') maxPos = Math.max(maxPos, r.maxError * unitM);
    else maxAng = Math.max(maxAng, r.maxError);
  };
  // one set of signal arrays for all props (views of a prop's n samples): reduceSignal and the
  // trajectory keep none of them, and eight fresh arrays per prop cost more than their copying
  let most = 0;
  for (let i = 0; i < propObjs.length; i++) most = Math.max(most, propLen[i]);
  const ptAll = new Float64Array(most), ppAll = new Uint8Array(most);
  const TAll = new Float64Array(3 * most), QAll = new Float64Array(4 * most), TinAll = new Float64Array(3 * most), QinAll = new Float64Array(4 * most), ToutAll = new Float64Array(3 * most), QoutAll = new Float64Array(4 * most);
  propObjs.forEach((obj, i) => {
    const B = propBuf[i], n = propLen[i];
    const pt = ptAll.subarray(0, n), pp = ppAll.subarray(0, n);
    const T = TAll.subarray(0, 3 * n), Q = QAll.subarray(0, 4 * n), Tin = TinAll.subarray(0, 3 * n), Qin = QinAll.subarray(0, 4 * n), Tout = ToutAll.subarray(0, 3 * n), Qout = QoutAll.subarray(0, 4 * n);
    for (let k = 0; k < n; k++) {
      const o = PROP_SAMPLE * k;
      pt[k] = B[o];
      pp[k] = B[o + 1];
      for (let c = 0; c < 3; c++) {
        T[3 * k + c] = B[o + PS_T + c];
        Tin[3 * k + c] = B[o + PS_TIN + c];
        Tout[3 * k + c] = B[o + PS_TOUT + c];
      }
      for (let c = 0; c < 4; c++) {
        Q[4 * k + c] = B[o + PS_Q + c];
        Qin[4 * k + c] = B[o + PS_QIN + c];
        Qout[4 * k + c] = B[o + PS_QOUT + c];
      }
    }
    const target: TrackTarget = { kind: 'prop', prop: obj.id };
    addTrack(target, 'translation', { kind: 'vector', times: pt, values: T, slopeIn: Tin, slopeOut: Tout, preferred: pp }, posTol);
    addTrack(target, 'rotation', { kind: 'rotation', times: pt, values: Q, slopeIn: Qin, slopeOut: Qout, preferred: pp }, angTol);
    // per-frame trajectory for the ghost
    const v = new Float64Array(7 * frameCount);
    for (let k = 0, f = 0; k < pt.length && f < frameCount; k++) {
      if (!pp[k] || Math.abs(pt[k] - (fromFrame + f) / fps) > 1e-9) continue;
      v.set(T.subarray(3 * k, 3 * k + 3), 7 * f);
      v.set(Q.subarray(4 * k, 4 * k + 4), 7 * f + 3);
      f++;
    }
    propTraj.push({ object: obj.id, kind: 'prop', frames, values: v });
  });
  const ftimes = new Float64Array(frameCount);
  for (let f = 0; f < frameCount; f++) ftimes[f] = (fromFrame + f) / fps;
  charObjs.forEach((obj, i) => {
    const rd = obj.ragdoll!;
    const nj = rd.parents.length;
    const P = charPose[i];
    for (let j = 0; j < nj; j++) {
      // rotation channel, if it moves at all
      const q = new Float64Array(4 * frameCount);
      let moves = false;
      for (let k = 0; k < frameCount; k++) {
        for (let c = 0; c < 4; c++) q[4 * k + c] = P[10 * nj * k + 10 * j + 3 + c];
        const d = Math.abs(q[4 * k] * q[0] + q[4 * k + 1] * q[1] + q[4 * k + 2] * q[2] + q[4 * k + 3] * q[3]);
        if (1 - d > 1e-12) moves = true;
      }
      const target: TrackTarget = { kind: 'joint', character: obj.id, joint: j };
      if (moves) addTrack(target, 'rotation', { kind: 'rotation', times: ftimes, values: q }, angTol);
      if (rd.parents[j] < 0) {
        const t = new Float64Array(3 * frameCount);
        for (let k = 0; k < frameCount; k++) for (let c = 0; c < 3; c++) t[3 * k + c] = P[10 * nj * k + 10 * j + c];
        // root translations are in the skeleton's units: scale the tolerance by the character's placement scale
        const s = hypot3(rd.rootMatrix[0], rd.rootMatrix[1], rd.rootMatrix[2]) || 1;
        addTrack(target, 'translation', { kind: 'vector', times: ftimes, values: t }, posTol / s, s);
      }
    }
  });

  for (let i = 0; i < propBuf.length; i++) _propBufs[i] = propBuf[i];

  // ---- trajectory for the ghost (one sample per frame)
  const trajectory: TrajectoryEntry[] = propTraj;
  charObjs.forEach((obj, i) => {
    const nj = obj.ragdoll!.parents.length;
    const v = new Float64Array(10 * nj * frameCount);
    v.set(charPose[i]);
    trajectory.push({ object: obj.id, kind: 'character', frames, values: v });
  });
  onProgress?.(1);
  return {
    clipId: clip.id,
    fromFrame,
    toFrame,
    objects: world.objects.map((o) => o.id),
    tracks,
    impacts: world.impacts,
    trajectory,
    stats: {
      ...world.stats,
      frames: frameCount,
      keys,
      denseKeys,
      maxPositionError: maxPos,
      maxAngleError: maxAng,
      elapsedSteps: sampleCount - 1,
      stepSec: world.stepSec,
      bodiesAsleep: world.awake.reduce((n, a) => n + (a ? 0 : 1), 0),
      bodies: world.awake.length,
      aborted,
    },
  };
}

/** Numbers pushed one sample at a time (a Float64Array that doubles when full): a prop's samples in a suggestion. */
/**
 * A dynamic prop's sample, PROP_SAMPLE numbers: time, preferred (1: on a
 * frame), the origin's translation (PS_T) and orientation (PS_Q,
 * hemisphere-aligned with the sample before), and the slopes into (PS_TIN,
 * PS_QIN) and out of it (PS_TOUT, PS_QOUT: they differ at an impact).
 */
const PS_T = 2, PS_Q = 5, PS_TIN = 9, PS_QIN = 12, PS_TOUT = 16, PS_QOUT = 19, PROP_SAMPLE = 23;

/**
 * Prop i's sample buffer (at least n numbers), kept from one suggestion to
 * the next: ~90 kB a prop, and fresh memory costs its page faults when the
 * steps first write it (~0.6 ms of a props-only bench suggestion). Taken out
 * while in use (a suggestion started inside another, from onProgress, gets
 * new ones); every number read is written first; no result refers to it.
 */
const _propBufs: (Float64Array | null)[] = [];
function propSampleBuffer(i: number, n: number): Float64Array {
  const b = _propBufs[i];
  _propBufs[i] = null;
  return b && b.length >= n ? b : new Float64Array(n);
}

let _bp = new Float64Array(0);
function bodyPoseBuffer(parts: number): Float64Array {
  if (_bp.length < 7 * parts) _bp = new Float64Array(7 * parts);
  return _bp;
}

function findClip(doc: ImpulseDocument, clipId?: string): Clip {
  const id = clipId ?? doc.activeClip;
  const clip = doc.clips.find((c) => c.id === id || c.name === id);
  if (!clip) throw new SimulationError(`clip '${id}' not found (clips: ${doc.clips.map((c) => c.id).join(', ') || 'none'})`);
  return clip;
}

/**
 * A reduced curve as document keys. The reduction stores times as float32 (as
 * a .glb will); each key came from a dense sample, so its time goes back to
 * that sample's exact time (a key on frame 32 at 32 / fps, not at 32.0000017
 * frames): the first sample that rounds to it, the sample a merged key keeps.
 */
function curveToTrack(target: TrackTarget, path: 'translation' | 'rotation', c: KeyCurve, sampleTimes: ArrayLike<number>): Track {
  const times = Array.from(c.times);
  for (let k = 0, i = 0; k < times.length; k++) {
    while (i < sampleTimes.length && Math.fround(sampleTimes[i]) < times[k]) i++;
    if (i < sampleTimes.length && Math.fround(sampleTimes[i]) === times[k]) times[k] = sampleTimes[i];
  }
  return {
    target,
    path,
    interpolation: c.interpolation === 'CUBICSPLINE' ? 'cubic' : c.interpolation === 'STEP' ? 'step' : 'linear',
    times,
    values: Array.from(c.values),
  };
}

function sameTarget(a: TrackTarget, b: TrackTarget): boolean {
  if (a.kind === 'prop' && b.kind === 'prop') return a.prop === b.prop;
  if (a.kind === 'joint' && b.kind === 'joint') return a.character === b.character && a.joint === b.joint;
  return false;
}

/** Keys of a track as cubic (in-tangent, value, out-tangent) groups; linear keys get the slopes of their segments. */
function asCubic(t: Track): Track {
  if (t.interpolation === 'cubic') return t;
  const d = t.path === 'rotation' ? 4 : 3;
  const n = t.times.length;
  const values: number[] = [];
  for (let k = 0; k < n; k++) {
    const slope = (a: number, b: number, c: number) =>
      t.interpolation === 'linear' && a >= 0 && b < n && t.times[b] > t.times[a] ? (t.values[b * d + c] - t.values[a * d + c]) / (t.times[b] - t.times[a]) : 0;
    for (let c = 0; c < d; c++) values.push(slope(k - 1, k, c));
    for (let c = 0; c < d; c++) values.push(t.values[k * d + c]);
    for (let c = 0; c < d; c++) values.push(slope(k, k + 1, c));
  }
  return { ...t, interpolation: 'cubic', values };
}

/**
 * A new document (the input is not modified) where the suggestion's tracks
 * replace the simulated objects' keys inside the suggestion's frame range
 * of its clip; keys outside the range stay. Interpolations are unified to
 * cubic when the two differ (linear keys become cubic keys with their
 * segments' slopes, which keeps their shape).
 */
export function applySuggestion(doc: ImpulseDocument, s: Suggestion): ImpulseDocument {
  const ci = doc.clips.findIndex((c) => c.id === s.clipId);
  if (ci < 0) throw new SimulationError(`applySuggestion: clip '${s.clipId}' is not in the document`);
  const clip = doc.clips[ci];
  const t0 = s.fromFrame / clip.frameRate, t1 = s.toFrame / clip.frameRate;
  const eps = 1e-9;
  const tracks = clip.tracks.slice();
  for (const sug of s.tracks) {
    const i = tracks.findIndex((t) => t.path === sug.path && sameTarget(t.target, sug.target));
    if (i < 0) {
      tracks.push({ ...sug, times: sug.times.slice(), values: sug.values.slice() });
      continue;
    }
    let old = tracks[i];
    let neu = sug;
    if (old.interpolation !== neu.interpolation) {
      old = asCubic(old);
      neu = asCubic(neu);
    }
    const d = (old.path === 'rotation' ? 4 : 3) * (old.interpolation === 'cubic' ? 3 : 1);
    const times: number[] = [];
    const values: number[] = [];
    const pushOld = (k: number) => {
      times.push(old.times[k]);
      for (let c = 0; c < d; c++) values.push(old.values[k * d + c]);
    };
    for (let k = 0; k < old.times.length; k++) if (old.times[k] < t0 - eps) pushOld(k);
    for (let k = 0; k < neu.times.length; k++) {
      times.push(neu.times[k]);
      for (let c = 0; c < d; c++) values.push(neu.values[k * d + c]);
    }
    for (let k = 0; k < old.times.length; k++) if (old.times[k] > t1 + eps) pushOld(k);
    tracks[i] = { target: old.target, path: old.path, interpolation: old.interpolation === 'step' && neu.interpolation !== 'step' ? neu.interpolation : old.interpolation, times, values };
  }
  const clips = doc.clips.slice();
  clips[ci] = { ...clip, tracks };
  return { ...doc, clips };
}
