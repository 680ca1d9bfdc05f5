/**
 * Play ranges: frames that playback loops over while the animator polishes
 * part of a clip, inside the clip's Start–End. View state (not in the document,
 * never an undo step); each clip keeps its own (at most one), so going back to
 * a clip finds the range that was set on it.
 */
import type { Clip } from '../../../core/document/types';

export interface PlayRange {
  clipId: string;
  from: number;
  to: number;
}

/** The play range set on clip `clipId`, or null. */
export function rangeOf(ranges: readonly PlayRange[], clipId: string | undefined): PlayRange | null {
  return ranges.find((r) => r.clipId === clipId) ?? null;
}

/** `ranges` with clip `clipId`'s range replaced by `range` (null: removed); the others kept, in order. */
export function withRange(ranges: readonly PlayRange[], clipId: string, range: PlayRange | null): PlayRange[] {
  const out = ranges.filter((r) => r.clipId !== clipId);
  if (range) out.push({ ...range, clipId });
  return out;
}

/** The frames playback covers in `clip`: the play range set on it (within Start–End), else Start–End. */
export function playBounds(clip: Pick<Clip, 'id' | 'startFrame' | 'endFrame'>, ranges: readonly PlayRange[]): { from: number; to: number; limited: boolean } {
  const range = rangeOf(ranges, clip.id);
  if (range) {
    const from = Math.max(clip.startFrame, range.from), to = Math.min(clip.endFrame, range.to);
    if (to > from) return { from, to, limited: true };
  }
  return { from: clip.startFrame, to: clip.endFrame, limited: false };
}

/** A play range over whole frames a..b (either order) in `clip`, or null when it covers less than two frames there. */
export function makePlayRange(clip: Pick<Clip, 'id' | 'startFrame' | 'endFrame'>, a: number, b: number): PlayRange | null {
  const from = Math.max(clip.startFrame, Math.round(Math.min(a, b))), to = Math.min(clip.endFrame, Math.round(Math.max(a, b)));
  return to > from ? { clipId: clip.id, from, to } : null;
}

/**
 * The playhead `dtSec` seconds of playback on from `frame`: it wraps from `to`
 * back to `from` with `loop` (keeping the overshoot), else stops on `to`. A
 * playhead outside the bounds (a range set or Start typed during playback)
 * plays on from `from`.
 */
export function advancePlayhead(frame: number, dtSec: number, frameRate: number, bounds: { from: number; to: number }, loop: boolean): { frame: number; stop: boolean } {
  const { from, to } = bounds;
  const start = frame < from || frame > to ? from : frame;
  const f = start + Math.min(dtSec, 0.1) * frameRate;
  if (f <= to) return { frame: f, stop: false };
  if (!loop) return { frame: to, stop: true };
  return { frame: from + ((f - from) % Math.max(1, to - from)), stop: false };
}
