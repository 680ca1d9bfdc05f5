/**
 * The curve editor's data: which channels an object shows as curves, their
 * samples taken from the core's evaluation (`TrackSampler`, the same sampling
 * as playback), rotations shown as XYZ Euler angles in degrees made
 * continuous (unwrapped), and the key edits a curve drag makes (run inside
 * immer recipes, so they mutate the clip they are given).
 *
 * A curve key is one key of one track (`path`) seen on one of its components:
 * a value drag changes that component only (for a rotation, that Euler angle:
 * the key's quaternion is rebuilt from the key's three angles with the one
 * changed); a time drag moves the track's key (all its components) with the
 * dope sheet's `moveKeys` rules.
 */
import * as THREE from 'three';
import type { Clip, Track, TrackPath, TrackTarget, Transform } from '../../../core/document/types';
import { TrackSampler } from '../../../core/anim/track';
import { deleteKeys, findTrack, keyIndexAtFrame, moveKeys, pathStride, sameTarget, targetKey, timeToFrame } from './keys';

export type CurveChannelId = 'tx' | 'ty' | 'tz' | 'rx' | 'ry' | 'rz' | 'sx' | 'sy' | 'sz';

export interface CurveChannel {
  id: CurveChannelId;
  path: TrackPath;
  /** x, y or z (for rotations the Euler angle about that axis). */
  component: 0 | 1 | 2;
  label: string;
  color: string;
  unit: string;
}

const AXIS_COLOR = ['#ff5a5a', '#5ad65a', '#5a8cff'] as const;
const AXIS = ['X', 'Y', 'Z'] as const;

function channelsOf(path: TrackPath, prefix: 't' | 'r' | 's', name: string, unit: string): CurveChannel[] {
  return ([0, 1, 2] as const).map((c) => ({ id: `${prefix}${'xyz'[c]}` as CurveChannelId, path, component: c, label: `${name} ${AXIS[c]}`, color: AXIS_COLOR[c], unit }));
}

export const CURVE_CHANNELS: readonly CurveChannel[] = [
  ...channelsOf('translation', 't', 'Translate', 'm'),
  ...channelsOf('rotation', 'r', 'Rotate', '°'),
  ...channelsOf('scale', 's', 'Scale', '×'),
];

export function curveChannel(id: CurveChannelId): CurveChannel {
  const c = CURVE_CHANNELS.find((x) => x.id === id);
  if (!c) throw new Error(`unknown curve channel ${id}`);
  return c;
}

// ---------------------------------------------------------------------------
// Euler angles (XYZ order, as the Properties panel shows rotations).

const _q = new THREE.Quaternion();
const _e = new THREE.Euler();
const TWO_PI = 2 * Math.PI;

/** Shifts `a` by a whole number of turns to lie within half a turn of `near`. */
function nearestTurn(a: number, near: number): number {
  return a + TWO_PI * Math.round((near - a) / TWO_PI);
}

/**
 * XYZ Euler angles (radians) of unit quaternion `q` (x, y, z, w) at `qo`,
 * written to `out` at `oo`. With `prev` (the angles of the previous sample) the
 * triple closest to it is chosen among the two Euler solutions of the rotation,
 * (x, y, z) and (x + π, π − y, z + π), each shifted by whole turns: a curve
 * sampled densely enough never jumps by 360° (or flips through the other
 * solution) where the rotation itself moves smoothly.
 */
export function eulerXYZ(q: ArrayLike<number>, qo: number, prev: ArrayLike<number> | null, out: Float64Array | number[], oo = 0): void {
  _q.set(q[qo], q[qo + 1], q[qo + 2], q[qo + 3]).normalize();
  _e.setFromQuaternion(_q, 'XYZ');
  let x = _e.x, y = _e.y, z = _e.z;
  if (prev) {
    const ax = nearestTurn(x, prev[0]), ay = nearestTurn(y, prev[1]), az = nearestTurn(z, prev[2]);
    const bx = nearestTurn(x + Math.PI, prev[0]), by = nearestTurn(Math.PI - y, prev[1]), bz = nearestTurn(z + Math.PI, prev[2]);
    const da = Math.abs(ax - prev[0]) + Math.abs(ay - prev[1]) + Math.abs(az - prev[2]);
    const db = Math.abs(bx - prev[0]) + Math.abs(by - prev[1]) + Math.abs(bz - prev[2]);
    if (db < da) [x, y, z] = [bx, by, bz];
    else [x, y, z] = [ax, ay, az];
  }
  out[oo] = x;
  out[oo + 1] = y;
  out[oo + 2] = z;
}

/** Unit quaternion (x, y, z, w) of XYZ Euler angles in degrees. */
export function quatFromEulerDeg(deg: ArrayLike<number>, out: number[] = [0, 0, 0, 0]): number[] {
  _e.set(THREE.MathUtils.degToRad(deg[0]), THREE.MathUtils.degToRad(deg[1]), THREE.MathUtils.degToRad(deg[2]), 'XYZ');
  _q.setFromEuler(_e);
  out[0] = _q.x;
  out[1] = _q.y;
  out[2] = _q.z;
  out[3] = _q.w;
  return out;
}

// ---------------------------------------------------------------------------
// Sampling.

/** One drawn key: a key of the channel's track, at its exact time. */
export interface CurveKey {
  /** The frame the key is picked and moved on (its time rounded, as in the dope sheet). */
  frame: number;
  timeSec: number;
  /** Index into the samples where the key's time is (its value on the curve). */
  sample: number;
}

export interface TargetCurves {
  /** Sample times in seconds, increasing; every key time is one of them. */
  times: Float64Array;
  /** Channel-major values, `values[ch * times.length + i]`, in the order of CURVE_CHANNELS (rotations in degrees). */
  values: Float64Array;
  /** Keys per path (none for an unkeyed channel: a flat line at the rest value). */
  keys: Record<TrackPath, CurveKey[]>;
  /** Which paths have a track. */
  keyed: Record<TrackPath, boolean>;
}

/** At most this many samples per object (a zoomed-in view of a long clip samples more coarsely). */
export const MAX_SAMPLES = 20000;
/** At least this many samples per key interval (rotations stay continuous through fast turns). */
const PER_INTERVAL = 8;

/**
 * Sample times from `tLo` to `tHi` (seconds): a grid of step `stepSec`, every
 * key time of `keyTimes` in between, and at least PER_INTERVAL samples inside
 * each key interval.
 */
export function curveSampleTimes(tLo: number, tHi: number, stepSec: number, keyTimes: readonly number[]): Float64Array {
  const span = Math.max(0, tHi - tLo);
  const sorted = [...new Set(keyTimes)].filter((t) => t >= tLo && t <= tHi).sort((a, b) => a - b);
  let minGap = Infinity;
  for (let i = 1; i < sorted.length; i++) minGap = Math.min(minGap, sorted[i] - sorted[i - 1]);
  let step = Math.min(stepSec > 0 ? stepSec : span || 1, minGap / PER_INTERVAL);
  if (span / step > MAX_SAMPLES) step = span / MAX_SAMPLES;
  const eps = 1e-9;
  const grid: number[] = [];
  for (let i = 0; tLo + i * step < tHi - eps; i++) grid.push(tLo + i * step);
  grid.push(tHi);
  // Merge the grid and the key times; drop grid points within a hair of a key (a key keeps its exact time).
  const out: number[] = [];
  let k = 0;
  for (const t of grid) {
    while (k < sorted.length && sorted[k] <= t + eps) {
      if (!out.length || sorted[k] > out[out.length - 1]) out.push(sorted[k]);
      k++;
    }
    if (!out.length || t > out[out.length - 1] + eps) out.push(t);
  }
  while (k < sorted.length) out.push(sorted[k++]);
  return Float64Array.from(out);
}

/** The time span a target's curves are sampled over: the clip's range and every key of the target. */
export function curveSpan(clip: Clip, target: TrackTarget): [number, number] {
  let lo = clip.startFrame / clip.frameRate, hi = clip.endFrame / clip.frameRate;
  for (const t of clip.tracks) {
    if (!sameTarget(t.target, target) || !t.times.length) continue;
    lo = Math.min(lo, t.times[0]);
    hi = Math.max(hi, t.times[t.times.length - 1]);
  }
  return [lo, hi];
}

/** Every key time of `target`'s tracks. */
export function targetKeyTimes(clip: Clip, target: TrackTarget): number[] {
  const out: number[] = [];
  for (const t of clip.tracks) if (sameTarget(t.target, target)) for (const time of t.times) out.push(time);
  return out;
}

/**
 * The nine curves of `target` at `times` (from `curveSampleTimes`): each keyed
 * channel is `TrackSampler.valueAt` (rotations converted to unwrapped Euler
 * degrees, continuous from the first sample on), an unkeyed one its `rest` value.
 */
export function sampleTargetCurves(clip: Clip | undefined, target: TrackTarget, rest: Transform, times: Float64Array): TargetCurves {
  const n = times.length;
  const values = new Float64Array(9 * n);
  const keys: Record<TrackPath, CurveKey[]> = { translation: [], rotation: [], scale: [] };
  const keyed: Record<TrackPath, boolean> = { translation: false, rotation: false, scale: false };
  const buf = new Float64Array(4);
  const prev = new Float64Array(3);
  const rad = new Float64Array(3);
  const paths: TrackPath[] = ['translation', 'rotation', 'scale'];
  for (let p = 0; p < 3; p++) {
    const path = paths[p];
    const track = clip ? findTrack(clip, target, path) : undefined;
    const sampler = track && track.times.length ? new TrackSampler(track) : null;
    keyed[path] = sampler !== null;
    const base = 3 * p * n;
    for (let i = 0; i < n; i++) {
      if (sampler) sampler.valueAt(times[i], buf);
      else for (let k = 0; k < pathStride(path); k++) buf[k] = rest[path][k];
      if (path === 'rotation') {
        eulerXYZ(buf, 0, i > 0 ? prev : null, rad);
        prev.set(rad);
        for (let c = 0; c < 3; c++) values[base + c * n + i] = THREE.MathUtils.radToDeg(rad[c]);
      } else for (let c = 0; c < 3; c++) values[base + c * n + i] = buf[c];
    }
    if (!track || !clip) continue;
    let s = 0;
    for (let k = 0; k < track.times.length; k++) {
      const time = track.times[k];
      while (s < n - 1 && times[s] < time) s++;
      if (times[s] !== time) continue; // outside the sampled span
      keys[path].push({ frame: timeToFrame(time, clip.frameRate), timeSec: time, sample: s });
    }
  }
  return { times, values, keys, keyed };
}

/** Index of channel `id` in CURVE_CHANNELS (the row of `TargetCurves.values`). */
export function channelIndex(id: CurveChannelId): number {
  return CURVE_CHANNELS.findIndex((c) => c.id === id);
}

/** The value curve `id` shows at sample `i`. */
export function curveValue(curves: TargetCurves, id: CurveChannelId, i: number): number {
  return curves.values[channelIndex(id) * curves.times.length + i];
}

// ---------------------------------------------------------------------------
// Normalized display (Blender's and Maya's Normalize): each curve drawn
// scaled into −1…1 over the clip's range, so metres, degrees and scale can be
// read together. Only the drawing changes: keys, fields and drags keep the
// curves' own units (a drag of d shown units moves a key by d × scale).

/** Per channel (index of CURVE_CHANNELS): the value shown is (value − offset[c]) / scale[c]. */
export interface CurveNorm {
  offset: Float64Array;
  scale: Float64Array;
}

/**
 * The normalization of `curves` for frames `start`..`end`: each channel's
 * lowest sample there is drawn at −1 and its highest at +1; a flat channel
 * (range below 1e-9 of its size, or 1e-12) is drawn at 0 with scale 1.
 * Samples outside the range are used only when none falls inside it.
 */
export function normalizeCurves(curves: TargetCurves, fps: number, start: number, end: number): CurveNorm {
  const n = curves.times.length, m = CURVE_CHANNELS.length;
  const offset = new Float64Array(m), scale = new Float64Array(m).fill(1);
  let inside = 0;
  for (let i = 0; i < n; i++) {
    const f = curves.times[i] * fps;
    if (f >= start - 1e-9 && f <= end + 1e-9) inside++;
  }
  for (let c = 0; c < m; c++) {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const f = curves.times[i] * fps;
      if (inside > 0 && (f < start - 1e-9 || f > end + 1e-9)) continue;
      const v = curves.values[c * n + i];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (!(hi >= lo)) continue;
    offset[c] = 0.5 * (lo + hi);
    const half = 0.5 * (hi - lo);
    if (half > Math.max(1e-12, 1e-9 * Math.max(Math.abs(lo), Math.abs(hi)))) scale[c] = half;
  }
  return { offset, scale };
}

// ---------------------------------------------------------------------------
// Edits.

/** A key picked on a curve. */
export interface CurveKeyRef {
  target: TrackTarget;
  channel: CurveChannelId;
  frame: number;
}

export function sameCurveKey(a: CurveKeyRef, b: CurveKeyRef): boolean {
  return a.channel === b.channel && a.frame === b.frame && sameTarget(a.target, b.target);
}

function valueIndex(track: Track, i: number): number {
  const n = pathStride(track.path);
  return track.interpolation === 'cubic' ? (3 * i + 1) * n : i * n;
}

/**
 * Sets component `component` of the translation or scale key of `target` on
 * `frame` to `value`; other components, other keys and the tangents stay
 * (a cubic key keeps its tangents' slopes). Returns whether a key was there.
 */
export function setKeyComponent(clip: Clip, target: TrackTarget, path: 'translation' | 'scale', frame: number, component: number, value: number): boolean {
  const track = findTrack(clip, target, path);
  const i = track ? keyIndexAtFrame(track, frame, clip.frameRate) : -1;
  if (!track || i < 0) return false;
  track.values[valueIndex(track, i) + component] = value;
  return true;
}

/**
 * Sets the rotation key of `target` on `frame` to XYZ Euler angles `deg`,
 * keeping the key's quaternion in the hemisphere it was in (so the shortest
 * arcs to its neighbours, and cubic tangents, keep their sense). Returns
 * whether a key was there.
 */
export function setRotationKeyEuler(clip: Clip, target: TrackTarget, frame: number, deg: ArrayLike<number>): boolean {
  const track = findTrack(clip, target, 'rotation');
  const i = track ? keyIndexAtFrame(track, frame, clip.frameRate) : -1;
  if (!track || i < 0) return false;
  const q = quatFromEulerDeg(deg);
  const o = valueIndex(track, i);
  const dot = q[0] * track.values[o] + q[1] * track.values[o + 1] + q[2] * track.values[o + 2] + q[3] * track.values[o + 3];
  for (let k = 0; k < 4; k++) track.values[o + k] = dot < 0 ? -q[k] : q[k];
  return true;
}

/** A key in a value drag, with what it showed when the drag began. */
export interface ValueDragKey {
  ref: CurveKeyRef;
  /** The key's value on its curve at the drag's start (degrees for rotations). */
  start: number;
  /** Rotation keys: the key's three Euler angles (degrees) on the curves at the drag's start. */
  startEuler?: [number, number, number];
  /** Units of the curve per unit of the drag (the normalized view's scale of this curve); 1 when absent. */
  scale?: number;
}

/**
 * Applies a value drag of `delta` (units of each curve: metres, degrees,
 * scale; times each key's `scale` in the normalized view) to the keys: each
 * key's own component becomes `start + delta · scale`. Rotation
 * keys picked on several angles of one key change those angles together.
 */
export function applyValueDrag(clip: Clip, keys: readonly ValueDragKey[], delta: number): void {
  const rotations = new Map<string, { target: TrackTarget; frame: number; deg: [number, number, number] }>();
  for (const k of keys) {
    const ch = curveChannel(k.ref.channel);
    if (ch.path !== 'rotation') {
      setKeyComponent(clip, k.ref.target, ch.path, k.ref.frame, ch.component, k.start + delta * (k.scale ?? 1));
      continue;
    }
    if (!k.startEuler) throw new Error(`rotation key ${targetKey(k.ref.target)}@${k.ref.frame} dragged without its Euler angles`);
    const id = `${targetKey(k.ref.target)}@${k.ref.frame}`;
    let r = rotations.get(id);
    if (!r) rotations.set(id, (r = { target: k.ref.target, frame: k.ref.frame, deg: [...k.startEuler] }));
    r.deg[ch.component] = k.start + delta * (k.scale ?? 1);
  }
  for (const r of rotations.values()) setRotationKeyEuler(clip, r.target, r.frame, r.deg);
}

/**
 * Moves the picked keys `deltaFrames` in time with the dope sheet's rules
 * (`moveKeys`: whole frames, a moved key landing on a key that stays replaces
 * it), each on its own track only (a key picked on Translate Y moves the
 * translation key, not the rotation key on the same frame).
 */
export function applyTimeDrag(clip: Clip, keys: readonly CurveKeyRef[], deltaFrames: number): void {
  const groups = new Map<string, { target: TrackTarget; path: TrackPath; frames: number[] }>();
  for (const k of keys) {
    const path = curveChannel(k.channel).path;
    const id = `${targetKey(k.target)}/${path}`;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { target: k.target, path, frames: [] }));
    if (!g.frames.includes(k.frame)) g.frames.push(k.frame);
  }
  for (const g of groups.values()) moveKeys(clip, g.target, g.frames, deltaFrames, [g.path]);
}

/**
 * Deletes the picked keys: a key picked on a curve removes that track's key
 * only (Delete on a Translate Y point keeps the rotation key on that frame);
 * `plain` keys (selected in the dope sheet) remove every path's key there.
 * Returns how many keys went.
 */
export function deleteCurveKeys(clip: Clip, picked: readonly CurveKeyRef[], plain: readonly { target: TrackTarget; frame: number }[]): number {
  let removed = 0;
  const groups = new Map<string, { target: TrackTarget; path: TrackPath; frames: number[] }>();
  for (const k of picked) {
    const path = curveChannel(k.channel).path;
    const id = `${targetKey(k.target)}/${path}`;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { target: k.target, path, frames: [] }));
    if (!g.frames.includes(k.frame)) g.frames.push(k.frame);
  }
  for (const g of groups.values()) removed += deleteKeys(clip, g.target, g.frames, [g.path]);
  for (const k of plain) removed += deleteKeys(clip, k.target, [k.frame]);
  return removed;
}

// ---------------------------------------------------------------------------
// Tangent handles.

/**
 * What the active key shows as tangent handles: for a key of a cubic
 * translation or scale track, its in- and out-slopes of that component (units
 * per second, glTF CUBICSPLINE: the curve's derivative just before and just
 * after the key); otherwise why there are none.
 */
export type KeyTangents =
  | {
      kind: 'handles';
      inSlope: number;
      outSlope: number;
      /** Whether the curve has a segment before / after the key (the first key's in- and the last key's out-tangent shape nothing). */
      hasIn: boolean;
      hasOut: boolean;
    }
  | { kind: 'none'; reason: 'rotation' | 'not-cubic' | 'no-key' };

export function keyTangents(clip: Clip, ref: CurveKeyRef): KeyTangents {
  const ch = curveChannel(ref.channel);
  if (ch.path === 'rotation') return { kind: 'none', reason: 'rotation' };
  const track = findTrack(clip, ref.target, ch.path);
  const i = track ? keyIndexAtFrame(track, ref.frame, clip.frameRate) : -1;
  if (!track || i < 0) return { kind: 'none', reason: 'no-key' };
  if (track.interpolation !== 'cubic') return { kind: 'none', reason: 'not-cubic' };
  return {
    kind: 'handles',
    inSlope: track.values[3 * i * 3 + ch.component],
    outSlope: track.values[(3 * i + 2) * 3 + ch.component],
    hasIn: i > 0,
    hasOut: i < track.times.length - 1,
  };
}

/**
 * Whether a key's tangent handles are broken: in and out slopes differ (after
 * a Shift drag, the Linear preset, or as imported). glTF keeps no flag, so this
 * is read from the slopes: a plain drag then moves the dragged side only, and
 * a key whose slopes are equal (Auto, Flat, an aligned drag) moves both.
 */
export function tangentsBroken(t: KeyTangents): boolean {
  if (t.kind !== 'handles' || !t.hasIn || !t.hasOut) return false;
  return Math.abs(t.inSlope - t.outSlope) > 1e-12 * Math.max(1, Math.abs(t.inSlope), Math.abs(t.outSlope));
}

/**
 * Sets the tangent of the key `ref` (a cubic translation or scale key; its
 * channel's component only) to `slopePerSec`: the side dragged (`'in'` or
 * `'out'`) and, `aligned`, the other side too (in = out: a smooth key);
 * broken, the other side keeps its slope. Nothing else changes. Returns
 * whether the key had handles.
 */
export function setKeyTangentSlope(clip: Clip, ref: CurveKeyRef, side: 'in' | 'out', slopePerSec: number, aligned: boolean): boolean {
  const ch = curveChannel(ref.channel);
  if (ch.path === 'rotation' || !Number.isFinite(slopePerSec)) return false;
  const track = findTrack(clip, ref.target, ch.path);
  const i = track ? keyIndexAtFrame(track, ref.frame, clip.frameRate) : -1;
  if (!track || i < 0 || track.interpolation !== 'cubic') return false;
  const inAt = 3 * i * 3 + ch.component, outAt = (3 * i + 2) * 3 + ch.component;
  if (side === 'in' || aligned) track.values[inAt] = slopePerSec;
  if (side === 'out' || aligned) track.values[outAt] = slopePerSec;
  return true;
}
