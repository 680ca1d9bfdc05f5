/**
 * Keyframe editing on the document (runs inside immer recipes, so it mutates
 * its arguments). The dope sheet works in whole frames; tracks store seconds,
 * so a key's frame is `round(time * frameRate)` and a key is written at
 * exactly `frame / frameRate`.
 *
 * Cubic tracks keep glTF CUBICSPLINE layout (in-tangent, value, out-tangent per
 * key). Inserted keys get Catmull-Rom tangents; keys that already exist keep
 * theirs. `setKeyTangents` sets the tangents of chosen keys (auto, flat, linear).
 */
import type {
  Character,
  Clip,
  ImpulseDocument,
  Interpolation,
  Prop,
  Track,
  TrackPath,
  TrackTarget,
  Transform,
} from '../../../core/document/types';

export const PATHS: readonly TrackPath[] = ['translation', 'rotation', 'scale'];

export function pathStride(path: TrackPath): number {
  return path === 'rotation' ? 4 : 3;
}

export function targetKey(t: TrackTarget): string {
  return t.kind === 'joint' ? `j:${t.character}:${t.joint}` : `p:${t.prop}`;
}

export function sameTarget(a: TrackTarget, b: TrackTarget): boolean {
  if (a.kind === 'joint') return b.kind === 'joint' && a.character === b.character && a.joint === b.joint;
  return b.kind === 'prop' && a.prop === b.prop;
}

export function timeToFrame(timeSec: number, frameRate: number): number {
  return Math.round(timeSec * frameRate);
}

export function frameToTime(frame: number, frameRate: number): number {
  return frame / frameRate;
}

export function activeClip(doc: ImpulseDocument): Clip | undefined {
  return doc.clips.find((c) => c.id === doc.activeClip) ?? doc.clips[0];
}

export function findTrack(clip: Clip, target: TrackTarget, path: TrackPath): Track | undefined {
  return clip.tracks.find((t) => t.path === path && sameTarget(t.target, target));
}

/** Index of the (first) key of `track` shown on `frame` (its time rounds to it), or -1. */
export function keyIndexAtFrame(track: Track, frame: number, frameRate: number): number {
  for (let i = 0; i < track.times.length; i++) if (timeToFrame(track.times[i], frameRate) === frame) return i;
  return -1;
}

/**
 * Two key times closer than this (in frames) are the same time. Keys set in
 * the app sit exactly on whole frames; accepted suggestions (impacts) and fps
 * changes leave keys between frames, which must keep their own times. Times
 * that went through float32 (glTF, the simulator's output) are a few 1e-6
 * frames off the frame they were meant for: they count as on it.
 */
const SAME_TIME_FRAMES = 1e-4;

/** Index of the key of `track` exactly on whole frame `frame` (not one between frames that rounds to it), or -1. */
export function keyIndexOnFrame(track: Track, frame: number, frameRate: number): number {
  for (let i = 0; i < track.times.length; i++) if (Math.abs(track.times[i] * frameRate - frame) < SAME_TIME_FRAMES) return i;
  return -1;
}

/** Sorted distinct frames that hold a key of any path of `target`. */
export function keyFramesOf(clip: Clip, target: TrackTarget): number[] {
  const frames = new Set<number>();
  for (const t of clip.tracks) {
    if (!sameTarget(t.target, target)) continue;
    for (const time of t.times) frames.add(timeToFrame(time, clip.frameRate));
  }
  return [...frames].sort((a, b) => a - b);
}

/**
 * Where to draw each key of `targets` (a dope sheet row): rounded frame (the
 * frame the key is picked, moved and deleted on) -> its exact frame. Keys of
 * accepted suggestions sit between frames (an impact at 9.6); drawn on 10 they
 * looked keyed on a whole frame at any zoom. Where keys on one rounded frame
 * sit at different times (10 on one channel, 9.6 on another) the whole frame
 * is drawn.
 */
export function keyDrawFrames(clip: Clip, targets: readonly TrackTarget[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of clip.tracks) {
    if (!targets.some((x) => sameTarget(x, t.target))) continue;
    for (const time of t.times) {
      const exact = time * clip.frameRate, frame = Math.round(exact);
      const seen = out.get(frame);
      if (seen === undefined) out.set(frame, exact);
      else if (Math.abs(seen - exact) > 1e-6) out.set(frame, frame);
    }
  }
  return out;
}

/** Sorted distinct frames holding any key in the clip (for previous/next key). */
export function allKeyFrames(clip: Clip, filter?: (t: Track) => boolean): number[] {
  const frames = new Set<number>();
  for (const t of clip.tracks) {
    if (filter && !filter(t)) continue;
    for (const time of t.times) frames.add(timeToFrame(time, clip.frameRate));
  }
  return [...frames].sort((a, b) => a - b);
}

export function nextKeyFrame(frames: readonly number[], frame: number): number | undefined {
  for (const f of frames) if (f > frame) return f;
  return undefined;
}

export function previousKeyFrame(frames: readonly number[], frame: number): number | undefined {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i] < frame) return frames[i];
  return undefined;
}

/** Value of key `i` (the middle group for cubic tracks) copied into `out`. */
export function keyValue(track: Track, i: number, out: number[] = []): number[] {
  const n = pathStride(track.path);
  const base = track.interpolation === 'cubic' ? (3 * i + 1) * n : i * n;
  for (let k = 0; k < n; k++) out[k] = track.values[base + k];
  return out;
}

function valueOffset(track: Track, i: number): number {
  const n = pathStride(track.path);
  return track.interpolation === 'cubic' ? (3 * i + 1) * n : i * n;
}

/** Catmull-Rom tangent (units per second) of key `i` of a cubic track, written into its in/out groups. */
function autoTangent(track: Track, i: number): void {
  const n = pathStride(track.path);
  const count = track.times.length;
  const lo = Math.max(0, i - 1);
  const hi = Math.min(count - 1, i + 1);
  const dt = track.times[hi] - track.times[lo];
  for (let k = 0; k < n; k++) {
    const slope = hi === lo || dt <= 0 ? 0 : (track.values[valueOffset(track, hi) + k] - track.values[valueOffset(track, lo) + k]) / dt;
    track.values[3 * i * n + k] = slope;
    track.values[(3 * i + 2) * n + k] = slope;
  }
}

/** Flips quaternion `value` into the hemisphere of key `i` of a rotation track (shortest arc between keys). */
function alignQuat(track: Track, i: number, value: number[]): void {
  if (track.path !== 'rotation' || i < 0 || i >= track.times.length) return;
  const o = valueOffset(track, i);
  const dot = value[0] * track.values[o] + value[1] * track.values[o + 1] + value[2] * track.values[o + 2] + value[3] * track.values[o + 3];
  if (dot < 0) for (let k = 0; k < 4; k++) value[k] = -value[k];
}

/**
 * Sets a key of `target.path` on `frame`: replaces the value of an existing key
 * there, or inserts one (creating the track with `interpolation` if needed).
 */
export function setKey(
  clip: Clip,
  target: TrackTarget,
  path: TrackPath,
  frame: number,
  value: ArrayLike<number>,
  interpolation: Interpolation = 'linear',
): void {
  const n = pathStride(path);
  if (value.length !== n) throw new Error(`setKey ${targetKey(target)}.${path}: expected ${n} numbers, got ${value.length}`);
  const v = Array.from(value);
  let track = findTrack(clip, target, path);
  if (!track) {
    track = { target: { ...target }, path, interpolation, times: [], values: [] };
    clip.tracks.push(track);
  }
  const time = frameToTime(frame, clip.frameRate);
  // Only a key exactly on the frame is replaced: a key between frames (an impact of an accepted
  // suggestion) that rounds to this frame keeps its time, and the new key goes beside it.
  const existing = keyIndexOnFrame(track, frame, clip.frameRate);
  if (existing >= 0) {
    alignQuat(track, existing, v);
    const o = valueOffset(track, existing);
    for (let k = 0; k < n; k++) track.values[o + k] = v[k];
    track.times[existing] = time;
    return;
  }
  let at = 0;
  while (at < track.times.length && track.times[at] < time) at++;
  alignQuat(track, at > 0 ? at - 1 : at, v);
  track.times.splice(at, 0, time);
  if (track.interpolation === 'cubic') {
    // Neighbours keep their (possibly authored) tangents; the new key gets automatic ones.
    track.values.splice(3 * at * n, 0, ...new Array<number>(n).fill(0), ...v, ...new Array<number>(n).fill(0));
    autoTangent(track, at);
  } else {
    track.values.splice(at * n, 0, ...v);
  }
}

/** Removes the keys of every path of `target` (or of `paths` only) that sit on one of `frames`; empty tracks go. */
export function deleteKeys(clip: Clip, target: TrackTarget, frames: readonly number[], paths?: readonly TrackPath[]): number {
  const drop = new Set(frames);
  let removed = 0;
  for (let ti = clip.tracks.length - 1; ti >= 0; ti--) {
    const track = clip.tracks[ti];
    if (!sameTarget(track.target, target) || (paths && !paths.includes(track.path))) continue;
    const n = pathStride(track.path) * (track.interpolation === 'cubic' ? 3 : 1);
    for (let i = track.times.length - 1; i >= 0; i--) {
      if (!drop.has(timeToFrame(track.times[i], clip.frameRate))) continue;
      track.times.splice(i, 1);
      track.values.splice(i * n, n);
      removed++;
    }
    if (track.times.length === 0) clip.tracks.splice(ti, 1);
  }
  return removed;
}

/**
 * Moves the keys of `target` shown on `frames` by `deltaFrames`. Only the moved
 * keys change time: a key between frames (an impact of an accepted suggestion)
 * keeps its offset within the frame, and keys that do not move keep their exact
 * times. A moved key landing on the time of a key that did not move replaces
 * it (as in Blender's dope sheet); keys at other times in the same frame stay.
 * Keys moved before frame 0 are allowed (tracks may start before the range).
 * With `paths`, only the tracks of those paths move (the curve editor moves
 * the key of the curve it was picked on).
 */
export function moveKeys(clip: Clip, target: TrackTarget, frames: readonly number[], deltaFrames: number, paths?: readonly TrackPath[]): void {
  if (deltaFrames === 0 || frames.length === 0) return;
  const moving = new Set(frames);
  const fps = clip.frameRate;
  for (const track of clip.tracks) {
    if (!sameTarget(track.target, target) || (paths && !paths.includes(track.path))) continue;
    const group = pathStride(track.path) * (track.interpolation === 'cubic' ? 3 : 1);
    const keys: { time: number; moved: boolean; values: number[] }[] = [];
    for (let i = 0; i < track.times.length; i++) {
      const t = track.times[i];
      const f = timeToFrame(t, fps);
      const moved = moving.has(f);
      const onFrame = Math.abs(t * fps - f) < SAME_TIME_FRAMES;
      const time = !moved ? t : onFrame ? frameToTime(f + deltaFrames, fps) : t + deltaFrames / fps;
      keys.push({ time, moved, values: track.values.slice(i * group, (i + 1) * group) });
    }
    // Stable sort: moved keys keep their order, and so do the others.
    keys.sort((a, b) => a.time - b.time);
    const kept: typeof keys = [];
    for (const k of keys) {
      const prev = kept[kept.length - 1];
      if (prev && Math.abs(k.time - prev.time) * fps < SAME_TIME_FRAMES) {
        // Two keys on one time: the moved one wins.
        if (k.moved && !prev.moved) kept[kept.length - 1] = k;
        continue;
      }
      kept.push(k);
    }
    track.times = kept.map((k) => k.time);
    track.values = kept.flatMap((k) => k.values);
  }
}

/**
 * Tangent presets for keys of cubic channels (units per second, glTF
 * CUBICSPLINE in- and out-tangents):
 * - `auto`: Catmull-Rom, the slope between the neighbouring keys (smooth);
 * - `flat`: zero in and out (the curve eases into and out of the key: holds, contacts);
 * - `linear`: each side the slope of its own segment (straight into and out of the key);
 * - `unify`: a broken key joined again, in = out = the mean of its two slopes (the curve
 *   passes the key smoothly, turning as little as it can); an end key takes the slope of
 *   its one segment's side. Keys already smooth do not change.
 */
export type TangentMode = 'auto' | 'flat' | 'linear' | 'unify';

/** Slope (units per second) of component `k` over the segment from key `i` to key `j` of a cubic track. */
function segmentSlope(track: Track, i: number, j: number, k: number): number {
  const dt = track.times[j] - track.times[i];
  return dt > 0 ? (track.values[valueOffset(track, j) + k] - track.values[valueOffset(track, i) + k]) / dt : 0;
}

/** Writes preset `mode` into the in- and out-tangents of key `i` of a cubic track. */
function writeTangents(track: Track, i: number, mode: TangentMode): void {
  if (mode === 'auto') return autoTangent(track, i);
  const n = pathStride(track.path);
  const last = track.times.length - 1;
  if (mode === 'unify') {
    for (let k = 0; k < n; k++) {
      const inAt = 3 * i * n + k, outAt = (3 * i + 2) * n + k;
      // the first key's in-tangent and the last key's out-tangent shape nothing: the other side wins
      const joined = i === 0 ? track.values[outAt] : i === last ? track.values[inAt] : 0.5 * (track.values[inAt] + track.values[outAt]);
      track.values[inAt] = track.values[outAt] = joined;
    }
    return;
  }
  for (let k = 0; k < n; k++) {
    let inT = 0, outT = 0;
    if (mode === 'linear') {
      inT = i > 0 ? segmentSlope(track, i - 1, i, k) : i < last ? segmentSlope(track, i, i + 1, k) : 0;
      outT = i < last ? segmentSlope(track, i, i + 1, k) : inT;
    }
    track.values[3 * i * n + k] = inT;
    track.values[(3 * i + 2) * n + k] = outT;
  }
}

/**
 * Sets the tangents of the keys of `target` (every path) on `frames` to
 * `mode`; returns how many keys changed. A channel that is not cubic becomes
 * cubic first (tangents are a cubic notion): a linear one keeps its shape (each
 * key's in- and out-tangents are its segments' slopes, so translation and
 * scale curves are unchanged; rotations go from slerp to normalised lerp
 * between the same keys), a stepped one gets Catmull-Rom tangents.
 */
export function setKeyTangents(clip: Clip, target: TrackTarget, frames: readonly number[], mode: TangentMode): number {
  const chosen = new Set(frames);
  let changed = 0;
  for (const track of clip.tracks) {
    if (!sameTarget(track.target, target)) continue;
    const keys: number[] = [];
    for (let i = 0; i < track.times.length; i++) if (chosen.has(timeToFrame(track.times[i], clip.frameRate))) keys.push(i);
    if (keys.length === 0) continue;
    if (track.interpolation !== 'cubic') {
      const wasLinear = track.interpolation === 'linear';
      toCubic(track);
      if (wasLinear) for (let i = 0; i < track.times.length; i++) writeTangents(track, i, 'linear');
    }
    for (const i of keys) writeTangents(track, i, mode);
    changed += keys.length;
  }
  return changed;
}

/** A step or linear track as cubic with the same key values and Catmull-Rom tangents. */
function toCubic(track: Track): void {
  const n = pathStride(track.path);
  const count = track.times.length;
  const cubic: number[] = new Array<number>(count * 3 * n).fill(0);
  for (let i = 0; i < count; i++) for (let k = 0; k < n; k++) cubic[(3 * i + 1) * n + k] = track.values[i * n + k];
  track.values = cubic;
  track.interpolation = 'cubic';
  for (let i = 0; i < count; i++) autoTangent(track, i);
}

/** Converts tracks of `target` (all paths) to `interpolation`; cubic gets Catmull-Rom tangents. */
/** Sets the interpolation of every channel of `target`; returns how many channels changed. */
export function setInterpolation(clip: Clip, target: TrackTarget, interpolation: Interpolation): number {
  let changed = 0;
  for (const track of clip.tracks) {
    if (!sameTarget(track.target, target) || track.interpolation === interpolation) continue;
    changed++;
    if (interpolation === 'cubic') {
      toCubic(track);
      continue;
    }
    const values: number[] = [];
    for (let i = 0; i < track.times.length; i++) values.push(...keyValue(track, i));
    track.values = values;
    track.interpolation = interpolation;
  }
  return changed;
}

/** The transform a channel falls back to where it has no track. */
export function restTransform(doc: ImpulseDocument, target: TrackTarget): Transform {
  if (target.kind === 'joint') {
    const c = doc.characters.find((ch) => ch.id === target.character);
    if (!c) throw new Error(`no character ${target.character}`);
    const j = c.skeleton.joints[target.joint];
    if (!j) throw new Error(`character ${c.name}: no joint ${target.joint}`);
    return j.rest;
  }
  const p = doc.props.find((pr) => pr.id === target.prop);
  if (!p) throw new Error(`no prop ${target.prop}`);
  return p.transform;
}

/**
 * Writes a posed value the way the posing tools do: a channel that already has
 * a track gets a key on `frame` (so the edit is not lost on the next frame
 * change); an untracked channel gets a new track when auto-key is on, and
 * otherwise has its rest value changed.
 */
export function writeChannel(
  doc: ImpulseDocument,
  target: TrackTarget,
  path: TrackPath,
  frame: number,
  value: ArrayLike<number>,
  autoKey: boolean,
): void {
  const clip = activeClip(doc);
  if (clip && (autoKey || findTrack(clip, target, path))) {
    setKey(clip, target, path, frame, value);
    return;
  }
  const rest = restTransform(doc, target);
  const n = pathStride(path);
  for (let k = 0; k < n; k++) (rest[path] as number[])[k] = value[k];
}

export function characterById(doc: ImpulseDocument, id: string): Character | undefined {
  return doc.characters.find((c) => c.id === id);
}

export function propById(doc: ImpulseDocument, id: string): Prop | undefined {
  return doc.props.find((p) => p.id === id);
}
