/**
 * Baking: sample every joint of every character and every prop transform of
 * a clip from our own curves (core/anim), and turn each channel into glTF
 * keys — sparse (key reduction within tolerances, the default) or one key per
 * frame.
 *
 * Times of baked keys are relative to the clip's first frame, so the exported
 * animation starts at 0 s as game engines expect: baked time τ plays document
 * time startFrame / frameRate + τ.
 *
 * Sparse sampling grid per channel: every frame, the track's own key times
 * inside the clip (where linear or stepped curves have kinks or jumps), and
 * `subSamples` points between each pair of those, so a curve that passes the
 * check stays within tolerance between frames too. Cubic fits take the exact
 * derivatives of the track (one-sided at the track's keys) as tangents.
 *
 * Sparse channels that hold one value within tolerance become one key:
 * 'rest' when that value is the node's rest value (the exporter then leaves
 * the channel out unless another clip moves it, see pruneStaticChannels),
 * 'constant' otherwise. A held pose that is not the rest pose (a clenched
 * fist) stays a channel: folding it into the node's rest transform would
 * lose it for engines that re-target clips curve by curve onto their own rig.
 *
 * Every-frame mode is literal: one key per frame for every channel the clip
 * animates (has a track for), whether or not it moves.
 *
 * Time axis: glTF stores key times as float32, so the bake samples, fits and
 * measures on float32 relative times τ (see time32.ts), comparing the curve
 * as written with our evaluation at document time start + τ. Frames round to
 * the nearest float32, the clip's end up (the file covers the whole clip),
 * a track's key times down (a time played at or after a key sees it).
 * Samples that fall on the same float32 time, or closer than
 * MIN_KEY_INTERVAL_SEC, are one sample (the later one wins: keys closer than
 * float32 can tell apart become one key, and their error is measured like
 * any other), so baked key times strictly increase as stored. Reported errors are measured at those float32 times with the
 * values rounded to float32 and the interpolation written. One exception: a
 * stepped track is sampled at a key's own time for the anchor of that key,
 * so its jump is placed at the float32 time at or below it instead of
 * counting the jump as error within the float32 step where it lies.
 */
import type { Clip, ImpulseDocument, TrackPath } from '../document/types';
import { SceneEvaluator, TRS_STRIDE } from '../anim';
import type { TrackSampler } from '../anim';
import { type ChannelKind, type DenseSignal, type KeyCurve, type ReduceResult, curveError, keysAtEverySample, valueError, reduceSignal, toFloat32Curve } from './reduce';
import { float32Down, float32Up, keyFollows, nextKeyTime32 } from './time32';
import { hypot4 } from '../math/libm';

export interface Tolerances {
  /** Metres. */
  translation: number;
  /** Radians of rotation angle. */
  rotationRad: number;
  /** Scale units (1 = 100 %). */
  scale: number;
}

export const DEFAULT_TOLERANCES: Readonly<Tolerances> = Object.freeze({ translation: 5e-4, rotationRad: 1e-3, scale: 1e-3 });

export type BakeMode = 'sparse' | 'every-frame';

export interface BakeOptions {
  /** Clip ids to bake; default every clip of the document. */
  clipIds?: string[];
  mode?: BakeMode;
  tolerance?: Partial<Tolerances>;
  /** Check points between consecutive frames / key times (sparse mode). Default 3. */
  subSamples?: number;
  /**
   * Also bake channels the clip does not animate (their constant rest value:
   * one key, or one per frame in every-frame mode; method 'static'). Default
   * true. The exporter drops the ones no clip animates (the node's rest
   * transform already holds them) and keeps the others, so playing several
   * clips in a row in an engine never leaves a joint in another clip's pose.
   */
  includeStatic?: boolean;
}

export type BakedTarget = { kind: 'joint'; character: number; joint: number } | { kind: 'prop'; prop: number };

export interface BakedChannel {
  target: BakedTarget;
  path: TrackPath;
  /** Keys, times relative to the clip's first frame; values already rounded to float32. */
  curve: KeyCurve;
  /** Largest error against our evaluation at the sampled points. */
  maxError: number;
  /**
   * 'static': the clip does not animate this channel (one key, its rest
   * value). 'rest': it is animated but stays within tolerance of the rest
   * value (one key). 'constant': it holds one other value (one key).
   */
  method: ReduceResult['method'] | 'every-frame' | 'static';
}

export interface BakedClip {
  id: string;
  name: string;
  frameRate: number;
  startFrame: number;
  endFrame: number;
  /** Document time of baked time 0. */
  startTimeSec: number;
  durationSec: number;
  mode: BakeMode;
  tolerance: Tolerances;
  channels: BakedChannel[];
}

const PATHS: TrackPath[] = ['translation', 'rotation', 'scale'];
const PATH_OFFSET = [0, 3, 7];
/** Grid refinements tried for a channel no fit holds on (sub, 4·sub+3, 16·sub+15 points between frames). */
const MAX_REFINEMENTS = 3;
/** Half-width of the one-sided derivative probe at key times (seconds). */
const SIDE_SEC = 1e-7;

export class BakeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BakeError';
  }
}

/** The tolerance that applies to a channel of this path. */
export function toleranceFor(path: TrackPath, tol: Tolerances): number {
  return path === 'translation' ? tol.translation : path === 'rotation' ? tol.rotationRad : tol.scale;
}

function kindOf(path: TrackPath): ChannelKind {
  return path === 'rotation' ? 'rotation' : 'vector';
}

/** Frames of the clip as relative times (seconds from the first frame). */
function frameTimes(clip: Clip): Float64Array {
  const n = clip.endFrame - clip.startFrame + 1;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[k] = k / clip.frameRate;
  return out;
}

/**
 * Dense grid for one track: frames ∪ the track's key times inside the clip,
 * with `sub` check points between neighbours. Relative float32 times,
 * strictly increasing (see the module comment).
 */
function denseGrid(clip: Clip, sampler: TrackSampler | null, start: number, sub: number): { times: Float64Array; preferred: Uint8Array; keyIndex: Int32Array } {
  const frames = frameTimes(clip);
  const duration = frames[frames.length - 1];
  const anchors: number[] = [];
  const keyOf: number[] = [];
  let k = 0;
  const keys = sampler ? sampler.times : null;
  const eps = 1e-9;
  for (let f = 0; f < frames.length; f++) {
    const tf = frames[f];
    if (keys) {
      while (k < keys.length && keys[k] - start < tf - eps) {
        const tk = keys[k] - start;
        if (tk > eps && tk < duration - eps) {
          anchors.push(tk);
          keyOf.push(k);
        }
        k++;
      }
      const onKey = k < keys.length && Math.abs(keys[k] - start - tf) <= eps;
      anchors.push(tf);
      keyOf.push(onKey ? k : -1);
      if (onKey) k++;
    } else {
      anchors.push(tf);
      keyOf.push(-1);
    }
  }
  const m = anchors.length;
  const cap = 2 * m + (m - 1) * sub; // anchors, the float32 after each key anchor, check points
  const times = new Float64Array(cap);
  const preferred = new Uint8Array(cap);
  const keyIndex = new Int32Array(cap).fill(-1);
  const isAnchor = new Uint8Array(cap);
  let n = 0;
  // Appends a float32 time. A sample that does not follow the previous one
  // (same float32, or closer than MIN_KEY_INTERVAL_SEC) is dropped; an anchor
  // instead drops the samples after the last anchor that it does not follow,
  // then replaces that anchor if it does not follow it either (the later wins).
  const push = (t: number, anchor: boolean, key: number) => {
    if (n > 0 && !keyFollows(times[n - 1], t)) {
      if (!anchor) return;
      while (n > 0 && !isAnchor[n - 1] && !keyFollows(times[n - 1], t)) n--;
      if (n > 0 && !keyFollows(times[n - 1], t)) {
        n--;
        t = n === 0 ? 0 : Math.max(t, times[n]); // the clip's start stays at 0
      }
    }
    isAnchor[n] = anchor ? 1 : 0;
    times[n] = t;
    preferred[n] = anchor || key === -2 ? 1 : 0;
    keyIndex[n] = key < 0 ? -1 : key;
    n++;
  };
  for (let a = 0; a < m; a++) {
    const ta = anchors[a];
    const t32 = a === 0 ? 0 : a === m - 1 ? float32Up(ta) : keyOf[a] >= 0 ? float32Down(ta) : Math.fround(ta);
    push(t32, true, keyOf[a]);
    // The float32 right after a key: where the file can show what the curve does
    // just after the key (a kink, or keys closer than float32 steps merged into one).
    if (keyOf[a] >= 0 && a > 0 && a + 1 < m) push(nextKeyTime32(times[n - 1]), false, -2);
    if (a + 1 < m) {
      const dt = anchors[a + 1] - ta;
      for (let s = 1; s <= sub; s++) push(Math.fround(ta + (dt * s) / (sub + 1)), false, -1);
    }
  }
  return { times: times.slice(0, n), preferred: preferred.slice(0, n), keyIndex: keyIndex.slice(0, n) };
}

/**
 * Samples a track over the grid: values, and slopes (one-sided at the track's
 * keys), at document time start + τ. Grid points on a key of a stepped track
 * are sampled at the key's own time (module comment).
 */
function sampleTrack(sampler: TrackSampler, grid: { times: Float64Array; keyIndex: Int32Array }, start: number, dims: number): { values: Float64Array; slopeIn: Float64Array; slopeOut: Float64Array } {
  const n = grid.times.length;
  const values = new Float64Array(n * dims);
  const slopeIn = new Float64Array(n * dims);
  const slopeOut = new Float64Array(n * dims);
  for (let i = 0; i < n; i++) {
    const key = grid.keyIndex[i];
    // Our curve where the file plays it (float32 time); a stepped track's key anchor at the key itself.
    const t = key >= 0 && sampler.interpolation === 'step' ? sampler.times[key] : grid.times[i] + start;
    sampler.valueAt(t, values, i * dims);
    if (key >= 0) {
      sampler.derivativeAt(t - SIDE_SEC, slopeIn, i * dims);
      sampler.derivativeAt(t + SIDE_SEC, slopeOut, i * dims);
    } else {
      sampler.derivativeAt(t, slopeOut, i * dims);
      for (let c = 0; c < dims; c++) slopeIn[i * dims + c] = slopeOut[i * dims + c];
    }
  }
  // At the clip ends only one side is played: use the inner side for both tangents.
  const last = (n - 1) * dims;
  for (let c = 0; c < dims; c++) {
    slopeIn[c] = slopeOut[c];
    slopeOut[last + c] = slopeIn[last + c];
  }
  return { values, slopeIn, slopeOut };
}

/**
 * The raw glTF CUBICSPLINE polynomial of a cubic track (before normalising
 * rotations) and its derivative at an absolute time; clamped outside the keys.
 */
function cubicRaw(sampler: TrackSampler, tAbs: number, dims: number, p: Float64Array, dp: Float64Array): void {
  const times = sampler.times, v = sampler.values, n = sampler.keyCount, stride = 3 * dims;
  if (tAbs <= times[0] || tAbs >= times[n - 1] || n === 1) {
    const k = tAbs <= times[0] ? 0 : n - 1;
    for (let c = 0; c < dims; c++) {
      p[c] = v[k * stride + dims + c];
      dp[c] = 0;
    }
    return;
  }
  let i = 0;
  while (times[i + 1] <= tAbs) i++;
  const dt = times[i + 1] - times[i];
  const u = (tAbs - times[i]) / dt, u2 = u * u, u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
  const d00 = (6 * u2 - 6 * u) / dt, d10 = 3 * u2 - 4 * u + 1, d01 = (-6 * u2 + 6 * u) / dt, d11 = 3 * u2 - 2 * u;
  const p0 = i * stride + dims, m0 = i * stride + 2 * dims, p1 = (i + 1) * stride + dims, m1 = (i + 1) * stride;
  for (let c = 0; c < dims; c++) {
    p[c] = h00 * v[p0 + c] + h10 * dt * v[m0 + c] + h01 * v[p1 + c] + h11 * dt * v[m1 + c];
    dp[c] = d00 * v[p0 + c] + d10 * v[m0 + c] + d01 * v[p1 + c] + d11 * v[m1 + c];
  }
}

/**
 * The track's own keys limited to the clip (relative times): inner keys kept
 * as they are, plus keys at the clip's ends carrying the curve's value there
 * (and its derivative as tangents), which reproduces the curve exactly up to
 * the float32 key times: inner keys move to the float32 at or below them, the
 * end to the float32 at or above the clip's end, and keys that land on one
 * float32 time are merged (in-tangent of the first, value and out-tangent of
 * the last). The result is a candidate, checked like any other.
 */
function originalCurve(sampler: TrackSampler, start: number, duration: number, dims: number): KeyCurve {
  const interp = sampler.interpolation;
  const cubic = interp === 'cubic';
  const g = cubic ? 3 : 1;
  const stride = g * dims;
  const eps = 1e-9;
  const times: number[] = [];
  const values: number[] = [];
  const tmp = new Float64Array(4);
  const dp = new Float64Array(4);
  const vAt = new Float64Array(4);
  const unused = new Float64Array(4);
  const boundary = (tRel: number, inside: number) => {
    times.push(tRel);
    if (cubic) {
      // The same polynomial cut at the clip end: its value and derivative there.
      // glTF wants unit rotation values, so a rotation's raw (unnormalised)
      // components are scaled to unit length, tangent with them; the cut
      // segment then differs slightly from the original and is checked like
      // any other candidate.
      const tAt = tRel + start;
      cubicRaw(sampler, tAt + inside * SIDE_SEC, dims, tmp, dp);
      cubicRaw(sampler, tAt, dims, vAt, unused);
      const scale = dims === 4 ? 1 / hypot4(vAt[0], vAt[1], vAt[2], vAt[3]) : 1;
      for (let c = 0; c < dims; c++) values.push(dp[c] * scale);
      for (let c = 0; c < dims; c++) values.push(vAt[c] * scale);
      for (let c = 0; c < dims; c++) values.push(dp[c] * scale);
    } else {
      sampler.valueAt(tRel + start, tmp, 0);
      for (let c = 0; c < dims; c++) values.push(tmp[c]);
    }
  };
  boundary(0, 1);
  let firstInner = true;
  for (let k = 0; k < sampler.keyCount; k++) {
    const tk = sampler.times[k] - start;
    if (!(tk > eps && tk < duration - eps)) continue;
    times.push(float32Down(tk));
    const base = values.length;
    for (let c = 0; c < stride; c++) values.push(sampler.values[k * stride + c]);
    // A curve's first key has no segment before it: its in-tangent is unused by
    // our evaluator (clamped) but would shape the new segment from the clip start.
    if (cubic && firstInner && k === 0) for (let c = 0; c < dims; c++) values[base + c] = 0;
    if (cubic && k === sampler.keyCount - 1) for (let c = 0; c < dims; c++) values[base + 2 * dims + c] = 0;
    firstInner = false;
  }
  boundary(float32Up(duration), -1);
  // Merge keys that share a float32 time (times are non-decreasing here).
  let n = 0;
  for (let k = 0; k < times.length; k++) {
    if (n > 0 && !keyFollows(times[n - 1], times[k])) {
      // Keep the first key's in-tangent, take this key's value and out-tangent.
      const from = cubic ? dims : 0;
      for (let c = from; c < stride; c++) values[(n - 1) * stride + c] = values[k * stride + c];
      continue;
    }
    times[n] = times[k];
    for (let c = 0; c < stride; c++) values[n * stride + c] = values[k * stride + c];
    n++;
  }
  return {
    interpolation: interp === 'step' ? 'STEP' : interp === 'linear' ? 'LINEAR' : 'CUBICSPLINE',
    times: Float64Array.from(times.slice(0, n)),
    values: Float64Array.from(values.slice(0, n * stride)),
  };
}

/** A constant channel: one key (glTF holds a sampler's only key for the whole clip). */
function staticCurve(value: ArrayLike<number>, vo: number, dims: number): KeyCurve {
  const values = new Float64Array(dims);
  for (let c = 0; c < dims; c++) values[c] = value[vo + c];
  return toFloat32Curve({ interpolation: 'LINEAR', times: Float64Array.of(0), values });
}

function bakeChannel(
  clip: Clip,
  sampler: TrackSampler | null,
  rest: ArrayLike<number>,
  restOffset: number,
  target: BakedTarget,
  path: TrackPath,
  options: { mode: BakeMode; tol: Tolerances; sub: number; start: number; duration: number },
): BakedChannel {
  const kind = kindOf(path);
  const dims = kind === 'rotation' ? 4 : 3;
  const { mode, tol, sub, start, duration } = options;
  if (mode === 'every-frame') {
    const frames = frameTimes(clip);
    // Float32 frame times (the end rounded up); frames that share one keep the later.
    const times = new Float64Array(frames.length);
    const frameOf = new Int32Array(frames.length);
    let n = 0;
    for (let i = 0; i < frames.length; i++) {
      const t = i === 0 ? 0 : i === frames.length - 1 ? float32Up(frames[i]) : Math.fround(frames[i]);
      if (n > 0 && !keyFollows(times[n - 1], t)) n--;
      frameOf[n] = i;
      times[n++] = t;
    }
    const signal: DenseSignal = { kind, times: times.slice(0, n), values: new Float64Array(n * dims) };
    // A stepped track is sampled at the frame itself (a key on a frame holds from that frame on).
    const exactFrames = sampler !== null && sampler.interpolation === 'step';
    for (let i = 0; i < n; i++) {
      if (sampler) sampler.valueAt((exactFrames ? frames[frameOf[i]] : signal.times[i]) + start, signal.values, i * dims);
      else for (let c = 0; c < dims; c++) signal.values[i * dims + c] = rest[restOffset + c];
    }
    const curve = keysAtEverySample(signal);
    // The keys hold our values at their times up to float32 rounding of the values.
    return { target, path, curve, maxError: curveError(curve, signal), method: sampler ? 'every-frame' : 'static' };
  }
  // One key: its error is the float32 rounding of its value.
  if (!sampler) {
    const curve = staticCurve(rest, restOffset, dims);
    return { target, path, curve, maxError: valueError(kind, curve.values, 0, rest, restOffset), method: 'static' };
  }
  if (duration === 0) {
    const values = new Float64Array(dims);
    sampler.valueAt(start, values, 0);
    const curve = toFloat32Curve({ interpolation: 'STEP', times: Float64Array.of(0), values });
    return { target, path, curve, maxError: valueError(kind, curve.values, 0, values, 0), method: 'original' };
  }
  const tolerance = toleranceFor(path, tol);
  const original = originalCurve(sampler, start, duration, dims);
  const restValue = rest instanceof Float64Array ? rest.subarray(restOffset, restOffset + dims) : Array.prototype.slice.call(rest, restOffset, restOffset + dims);
  // A curve too fast for the sampling (it bends a lot between samples) gets a
  // finer grid: each refinement puts 4× the points between frames.
  let best: ReduceResult | null = null;
  for (let refine = 0, s = sub; refine < MAX_REFINEMENTS; refine++, s = 4 * s + 3) {
    const grid = denseGrid(clip, sampler, start, s);
    const sampled = sampleTrack(sampler, grid, start, dims);
    const signal: DenseSignal = { kind, times: grid.times, values: sampled.values, slopeIn: sampled.slopeIn, slopeOut: sampled.slopeOut, preferred: grid.preferred };
    // Independent check points midway between the samples.
    // (float32 times; one that rounds onto a sample is that sample, already checked).
    const gm = grid.times.length - 1;
    const checkTimes = new Float64Array(gm);
    let m = 0;
    for (let i = 0; i < gm; i++) {
      const t = Math.fround(0.5 * (grid.times[i] + grid.times[i + 1]));
      if (t > grid.times[i] && t < grid.times[i + 1]) checkTimes[m++] = t;
    }
    const check = { times: checkTimes.slice(0, m), values: new Float64Array(m * dims) };
    for (let i = 0; i < m; i++) sampler.valueAt(check.times[i] + start, check.values, i * dims);
    const res = reduceSignal(signal, { tolerance, original, check, rest: restValue });
    if (!best || res.maxError < best.maxError) best = res;
    if (res.maxError <= tolerance) break;
  }
  return { target, path, curve: best!.curve, maxError: best!.maxError, method: best!.method };
}

/** Bakes one clip of the document (see the module comment). */
export function bakeClip(doc: ImpulseDocument, clipId: string, options: BakeOptions = {}): BakedClip {
  const clip = doc.clips.find((c) => c.id === clipId);
  if (!clip) throw new BakeError(`clip "${clipId}" not found (document has ${doc.clips.map((c) => `"${c.id}"`).join(', ') || 'no clips'})`);
  if (!(clip.frameRate > 0)) throw new BakeError(`clip "${clip.name}": frameRate must be > 0, got ${clip.frameRate}`);
  if (!(clip.endFrame >= clip.startFrame) || !Number.isInteger(clip.startFrame) || !Number.isInteger(clip.endFrame))
    throw new BakeError(`clip "${clip.name}": frame range ${clip.startFrame}..${clip.endFrame} is not a range of whole frames`);
  const mode = options.mode ?? 'sparse';
  const tol: Tolerances = { ...DEFAULT_TOLERANCES, ...options.tolerance };
  for (const [k, v] of Object.entries(tol)) if (!(v >= 0)) throw new BakeError(`tolerance ${k} must be >= 0, got ${v}`);
  const sub = options.subSamples ?? 3;
  const includeStatic = options.includeStatic ?? true;
  const evaluator = new SceneEvaluator(doc, clip.id);
  const start = clip.startFrame / clip.frameRate;
  const duration = (clip.endFrame - clip.startFrame) / clip.frameRate;
  const ctx = { mode, tol, sub, start, duration };
  const channels: BakedChannel[] = [];
  doc.characters.forEach((ch, ci) => {
    const table = evaluator.characterChannels[ci];
    const rest = evaluator.restPoses[ci];
    for (let j = 0; j < ch.skeleton.joints.length; j++) {
      for (let p = 0; p < 3; p++) {
        const k = table[j * 3 + p];
        if (k < 0 && !includeStatic) continue;
        const target: BakedTarget = { kind: 'joint', character: ci, joint: j };
        channels.push(bakeChannel(clip, k >= 0 ? evaluator.samplers[k] : null, rest, j * TRS_STRIDE + PATH_OFFSET[p], target, PATHS[p], ctx));
      }
    }
  });
  doc.props.forEach((_prop, pi) => {
    for (let p = 0; p < 3; p++) {
      const k = evaluator.propChannels[pi * 3 + p];
      if (k < 0 && !includeStatic) continue;
      const target: BakedTarget = { kind: 'prop', prop: pi };
      channels.push(bakeChannel(clip, k >= 0 ? evaluator.samplers[k] : null, evaluator.propRest, pi * TRS_STRIDE + PATH_OFFSET[p], target, PATHS[p], ctx));
    }
  });
  return {
    id: clip.id,
    name: clip.name,
    frameRate: clip.frameRate,
    startFrame: clip.startFrame,
    endFrame: clip.endFrame,
    startTimeSec: start,
    durationSec: duration,
    mode,
    tolerance: tol,
    channels,
  };
}

/** Bakes the requested clips (default: all, in document order). */
export function bakeDocument(doc: ImpulseDocument, options: BakeOptions = {}): BakedClip[] {
  const ids = options.clipIds ?? doc.clips.map((c) => c.id);
  return ids.map((id) => bakeClip(doc, id, options));
}

/** Total number of keys in a baked clip. */
export function bakedKeyCount(clip: BakedClip): number {
  let n = 0;
  for (const ch of clip.channels) n += ch.curve.times.length;
  return n;
}

/** True when the channel holds the node's rest value for the whole clip. */
export function holdsRest(ch: BakedChannel): boolean {
  return ch.method === 'static' || ch.method === 'rest';
}

/**
 * Channels to write: drops a channel from every clip when it holds the node's
 * rest value in every clip ('static': untracked, or 'rest': tracked but
 * within tolerance of the rest value), since the node's own transform
 * already holds that value. A channel that some clip moves is kept in every
 * clip (as one rest key where it does not move), so playing several clips in
 * a row in an engine never leaves a joint in another clip's pose. Returns
 * new clip objects.
 */
export function pruneStaticChannels(clips: BakedClip[]): BakedClip[] {
  const key = (ch: BakedChannel) => (ch.target.kind === 'joint' ? `j${ch.target.character}/${ch.target.joint}` : `p${ch.target.prop}`) + `/${ch.path}`;
  const animated = new Set<string>();
  for (const c of clips) for (const ch of c.channels) if (!holdsRest(ch)) animated.add(key(ch));
  return clips.map((c) => ({ ...c, channels: c.channels.filter((ch) => animated.has(key(ch))) }));
}

/**
 * glTF has no clip length: engines take the last key time. When every
 * channel of a sparse clip is a single key, the clip would play as 0 s long;
 * this gives the first channel a second key at the clip's end (same value).
 * Returns the clip itself when nothing needs changing.
 */
export function withClipLength(clip: BakedClip): BakedClip {
  if (!(clip.durationSec > 0) || clip.channels.length === 0) return clip;
  const end = float32Up(clip.durationSec);
  for (const ch of clip.channels) if (ch.curve.times[ch.curve.times.length - 1] >= end) return clip;
  // Repeat a one-key channel's key at the end (a baked clip's channels end at
  // the clip's end unless they are one key; a hand-made one may have none).
  const at = clip.channels.findIndex((ch) => ch.curve.times.length === 1);
  if (at < 0) return clip;
  const first = clip.channels[at];
  const c = first.curve;
  const values = new Float64Array(2 * c.values.length);
  values.set(c.values);
  values.set(c.values, c.values.length);
  const curve: KeyCurve = { interpolation: 'LINEAR', times: Float64Array.of(c.times[0], end), values };
  const channels = clip.channels.slice();
  channels[at] = { ...first, curve };
  return { ...clip, channels };
}
