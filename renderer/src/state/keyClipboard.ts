/**
 * Copy and paste of dope-sheet keys (Blender's / Maya's "copy keys, paste at
 * the current frame"). The clipboard is ephemeral state; pasting is one edit
 * of the document (runs inside an immer recipe, so it mutates its arguments).
 *
 * A copy holds, per channel (target + path), every key shown on a selected
 * frame: its offset in frames from the first copied frame (fractional for a
 * key between frames, an accepted impact), its value and, for cubic tracks,
 * its tangents. Pasting at frame P puts each key on P + offset in the same
 * channel of the destination clip (any clip of the project), replacing a key
 * at that exact time and creating the track when the channel has none.
 */
import type { Clip, ImpulseDocument, Interpolation, Track, TrackPath, TrackTarget } from '../../../core/document/types';
import type { SelectedKey } from './ephemeral';
import { curveChannel, type CurveKeyRef } from './curveData';
import { findTrack, frameToTime, keyIndexOnFrame, pathStride, sameTarget, setKey, timeToFrame } from './keys';

export interface CopiedKey {
  /** Frames after the clipboard's first frame (fractional for keys between frames). */
  offsetFrames: number;
  value: number[];
  /** Cubic tracks only: in- and out-tangent (units per second of the source clip). */
  inTangent?: number[];
  outTangent?: number[];
}

export interface CopiedChannel {
  target: TrackTarget;
  path: TrackPath;
  interpolation: Interpolation;
  keys: CopiedKey[];
}

export interface KeyClipboard {
  /** Clip the keys came from and its rate (tangents are per second of it). */
  sourceClip: string;
  frameRate: number;
  /** The first copied frame (offsets count from it). */
  baseFrame: number;
  channels: CopiedChannel[];
  keyCount: number;
}

/** Offsets this close to a whole frame are that frame (float error of time * frameRate). */
const WHOLE_FRAME = 1e-6;

function group(track: Track, i: number, g: 0 | 1 | 2): number[] {
  const n = pathStride(track.path);
  const base = track.interpolation === 'cubic' ? (3 * i + g) * n : i * n;
  return track.values.slice(base, base + n);
}

/**
 * Whether selected key `k` stands for the key of the track with `path`: a
 * key selected in the dope sheet stands for every channel of its object on
 * its frame; a key picked on a curve (it carries the curve's `channel`, e.g.
 * 'ty') only for the track that curve draws.
 */
function pickedOn(k: SelectedKey, path: TrackPath): boolean {
  const channel = (k as Partial<CurveKeyRef>).channel;
  return channel === undefined || curveChannel(channel).path === path;
}

/**
 * The keys of `clip` shown on the selected frames, or null when there are
 * none: per selected key, every path of its object (a dope-sheet diamond), or
 * only its curve's track (a key picked in the Curves view).
 */
export function copyKeys(clip: Clip, selected: readonly SelectedKey[]): KeyClipboard | null {
  const fps = clip.frameRate;
  const found: { track: Track; indices: number[] }[] = [];
  let baseFrame = Infinity;
  for (const track of clip.tracks) {
    const frames = new Set<number>();
    for (const k of selected) if (sameTarget(k.target, track.target) && pickedOn(k, track.path)) frames.add(k.frame);
    if (!frames.size) continue;
    const indices: number[] = [];
    for (let i = 0; i < track.times.length; i++) {
      const f = timeToFrame(track.times[i], fps);
      if (!frames.has(f)) continue;
      indices.push(i);
      baseFrame = Math.min(baseFrame, f);
    }
    if (indices.length) found.push({ track, indices });
  }
  if (!found.length) return null;
  let keyCount = 0;
  const channels: CopiedChannel[] = found.map(({ track, indices }) => ({
    target: { ...track.target },
    path: track.path,
    interpolation: track.interpolation,
    keys: indices.map((i) => {
      keyCount++;
      let offsetFrames = track.times[i] * fps - baseFrame;
      if (Math.abs(offsetFrames - Math.round(offsetFrames)) < WHOLE_FRAME) offsetFrames = Math.round(offsetFrames);
      const key: CopiedKey = { offsetFrames, value: group(track, i, 1) };
      if (track.interpolation === 'cubic') {
        key.inTangent = group(track, i, 0);
        key.outTangent = group(track, i, 2);
      }
      return key;
    }),
  }));
  return { sourceClip: clip.id, frameRate: fps, baseFrame, channels, keyCount };
}

/** First and last frame (fractional for keys between frames) the keys land on when pasted at `atFrame`. */
export function pasteRange(cb: KeyClipboard, atFrame: number): { first: number; last: number } {
  let first = Infinity, last = -Infinity;
  for (const ch of cb.channels)
    for (const k of ch.keys) {
      first = Math.min(first, atFrame + k.offsetFrames);
      last = Math.max(last, atFrame + k.offsetFrames);
    }
  return { first, last };
}

/** Whether the document has the object or bone a channel belongs to. */
export function targetExists(doc: ImpulseDocument, target: TrackTarget): boolean {
  if (target.kind === 'prop') return doc.props.some((p) => p.id === target.prop);
  const c = doc.characters.find((ch) => ch.id === target.character);
  return !!c && target.joint >= 0 && target.joint < c.skeleton.joints.length;
}

export interface PasteResult {
  /** Keys written (inserted or replacing). */
  pasted: number;
  /** Channels written to, and how many of them were created. */
  channels: number;
  createdTracks: number;
  /** Keys of channels whose object or bone is not in the document (not pasted). */
  skipped: number;
  /** The pasted keys as dope-sheet selection (target + shown frame). */
  selection: SelectedKey[];
}

/**
 * Pastes `cb` into `clip` of `doc` with its first frame on `atFrame`. Relative
 * timing is kept in frames; cubic tangents are rescaled when the clips' rates
 * differ (same shape over the same number of frames).
 */
export function pasteKeys(doc: ImpulseDocument, clip: Clip, cb: KeyClipboard, atFrame: number): PasteResult {
  const result: PasteResult = { pasted: 0, channels: 0, createdTracks: 0, skipped: 0, selection: [] };
  const fps = clip.frameRate;
  const tangentScale = fps / cb.frameRate;
  const n = (p: TrackPath) => pathStride(p);
  for (const ch of cb.channels) {
    if (!targetExists(doc, ch.target)) {
      result.skipped += ch.keys.length;
      continue;
    }
    if (!findTrack(clip, ch.target, ch.path)) result.createdTracks++;
    result.channels++;
    for (const k of ch.keys) {
      const frame = atFrame + k.offsetFrames;
      setKey(clip, ch.target, ch.path, frame, k.value, ch.interpolation);
      const track = findTrack(clip, ch.target, ch.path)!;
      if (track.interpolation === 'cubic' && k.inTangent && k.outTangent) {
        const i = keyIndexOnFrame(track, frame, fps);
        const stride = n(ch.path);
        // setKey may have flipped a quaternion to its neighbour's hemisphere: the tangents flip with it.
        let dot = 0;
        for (let c = 0; c < stride; c++) dot += track.values[(3 * i + 1) * stride + c] * k.value[c];
        const sign = ch.path === 'rotation' && dot < 0 ? -1 : 1;
        for (let c = 0; c < stride; c++) {
          track.values[3 * i * stride + c] = sign * k.inTangent[c] * tangentScale;
          track.values[(3 * i + 2) * stride + c] = sign * k.outTangent[c] * tangentScale;
        }
      }
      result.pasted++;
      const shown = timeToFrame(frameToTime(frame, fps), fps);
      if (!result.selection.some((s) => s.frame === shown && sameTarget(s.target, ch.target))) result.selection.push({ target: { ...ch.target }, frame: shown });
    }
  }
  return result;
}

/** "6 keys on 2 channels" (channels are target + path). */
export function describeKeys(keys: number, channels: number): string {
  return `${keys} key${keys === 1 ? '' : 's'} on ${channels} channel${channels === 1 ? '' : 's'}`;
}
