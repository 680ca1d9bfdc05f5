/**
 * Per-frame check results of one clip, kept across edits: after an edit only
 * the frames the edited keys influence are checked again.
 *
 * What a frame's result depends on: the poses at that frame and (for the
 * continuous check of the motion into it) at the previous frame; the
 * geometry, placement and collision settings of every object. A track's
 * curve between two keys depends on those two keys only (step, linear, and
 * glTF cubic splines with their explicit tangents), and it is constant
 * before its first and after its last key. So when a track changes from key
 * `p` (the first key that differs) to key `n-q-1` (the last one), its pose
 * changes only strictly between the key before `p` and the key after the last
 * changed one; when the first (last) key changes, everything before (after)
 * changes too.
 *
 * Ignore rules and physics (mass, restitution, friction, mode) do not change
 * what the checker finds: ignore rules are applied when findings are shown,
 * so adding or undoing one rechecks nothing.
 */
import type { Character, Clip, ImpulseDocument, Prop, Track } from '../../../core/document/types';
import type { FrameCheck } from '../workers/protocol';

export type FrameRange = [number, number];

/** Which frames of `clipId` must be checked again after `prev` became `next`: 'all' or inclusive ranges. */
export function dirtyFrames(prev: ImpulseDocument, next: ImpulseDocument, clipId: string): 'all' | FrameRange[] {
  if (prev === next) return [];
  if (prev.groundY !== next.groundY) return 'all';
  if (!sameObjects(prev.characters, next.characters, characterCheckInputsEqual)) return 'all';
  if (!sameObjects(prev.props, next.props, propCheckInputsEqual)) return 'all';
  const a = prev.clips.find((c) => c.id === clipId);
  const b = next.clips.find((c) => c.id === clipId);
  if (!a || !b) return 'all';
  if (a === b) return [];
  if (a.frameRate !== b.frameRate) return 'all';
  const times = dirtyTimes(a, b);
  if (times === 'all') return 'all';
  const ranges: FrameRange[] = [];
  const fps = b.frameRate;
  const lo = Math.min(a.startFrame, b.startFrame), hi = Math.max(a.endFrame, b.endFrame);
  for (const [t0, t1] of times) {
    // Frames whose time lies strictly inside (t0, t1) have a new pose...
    let f0 = t0 === -Infinity ? lo : Math.floor(t0 * fps + EPS) + 1;
    let f1 = t1 === Infinity ? hi : Math.ceil(t1 * fps - EPS) - 1;
    if (f1 < f0) continue;
    // ...and the continuous check into the frame after the last one moves differently.
    f1 += 1;
    f0 = Math.max(f0, lo);
    f1 = Math.min(f1, hi);
    if (f1 >= f0) ranges.push([f0, f1]);
  }
  return mergeRanges(ranges);
}

const EPS = 1e-9;

function sameObjects<T extends { id: string }>(a: readonly T[], b: readonly T[], eq: (x: T, y: T) => boolean): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && (a[i].id !== b[i].id || !eq(a[i], b[i]))) return false;
  return true;
}

function characterCheckInputsEqual(x: Character, y: Character): boolean {
  return x.transform === y.transform && x.skeleton === y.skeleton && x.meshes === y.meshes && x.collision === y.collision;
}

function propCheckInputsEqual(x: Prop, y: Prop): boolean {
  return x.transform === y.transform && x.mesh === y.mesh && x.collision === y.collision;
}

const trackId = (t: Track): string =>
  `${t.target.kind === 'joint' ? `j:${t.target.character}:${t.target.joint}` : `p:${t.target.prop}`}:${t.path}`;

/** Open time intervals (seconds) where some track of the clip evaluates differently. */
export function dirtyTimes(a: Clip, b: Clip): 'all' | [number, number][] {
  if (a.tracks === b.tracks) return [];
  const before = new Map<string, Track>();
  for (const t of a.tracks) before.set(trackId(t), t);
  const out: [number, number][] = [];
  const seen = new Set<string>();
  for (const t of b.tracks) {
    const id = trackId(t);
    seen.add(id);
    const old = before.get(id);
    if (old === t) continue;
    // A new track moves its channel away from the rest value at every time.
    if (!old) return 'all';
    const r = changedInterval(old, t);
    if (r === 'all') return 'all';
    if (r) out.push(r);
  }
  for (const id of before.keys()) if (!seen.has(id)) return 'all';
  return out;
}

function keyStride(t: Track): number {
  return (t.path === 'rotation' ? 4 : 3) * (t.interpolation === 'cubic' ? 3 : 1);
}

function keyEqual(x: Track, i: number, y: Track, j: number, stride: number): boolean {
  if (x.times[i] !== y.times[j]) return false;
  for (let k = 0; k < stride; k++) if (x.values[i * stride + k] !== y.values[j * stride + k]) return false;
  return true;
}

/** The open interval where `b` differs from `a` (same channel), null when they evaluate the same. */
export function changedInterval(a: Track, b: Track): 'all' | [number, number] | null {
  if (a.interpolation !== b.interpolation) return 'all';
  const stride = keyStride(b);
  const na = a.times.length, nb = b.times.length;
  let p = 0;
  while (p < na && p < nb && keyEqual(a, p, b, p, stride)) p++;
  if (p === na && p === nb) return null;
  let q = 0;
  while (q < na - p && q < nb - p && keyEqual(a, na - 1 - q, b, nb - 1 - q, stride)) q++;
  const t0 = p === 0 ? -Infinity : b.times[p - 1];
  const t1 = q === 0 ? Infinity : b.times[nb - q];
  return [t0, t1];
}

export function mergeRanges(ranges: FrameRange[]): FrameRange[] {
  const s = [...ranges].sort((x, y) => x[0] - y[0]);
  const out: FrameRange[] = [];
  for (const r of s) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/** Per-frame results of one clip for one document state, updated as the document changes. */
export class FrameCache {
  private frames = new Map<number, FrameCheck>();
  doc: ImpulseDocument | null = null;
  clipId: string | null = null;

  get size(): number {
    return this.frames.size;
  }

  has(frame: number): boolean {
    return this.frames.has(frame);
  }

  get(frame: number): FrameCheck | undefined {
    return this.frames.get(frame);
  }

  values(): IterableIterator<FrameCheck> {
    return this.frames.values();
  }

  /**
   * Moves the cache to `doc`: drops the frames the change influences (all of
   * them for another clip or a structural change) and frames outside the clip.
   * Returns how many frames were dropped.
   */
  update(doc: ImpulseDocument, clipId: string): number {
    const before = this.frames.size;
    if (this.doc === null || this.clipId !== clipId) this.frames.clear();
    else {
      const dirty = dirtyFrames(this.doc, doc, clipId);
      if (dirty === 'all') this.frames.clear();
      else for (const [f0, f1] of dirty) for (let f = f0; f <= f1; f++) this.frames.delete(f);
    }
    const clip = doc.clips.find((c) => c.id === clipId);
    if (!clip) this.frames.clear();
    else for (const f of [...this.frames.keys()]) if (f < clip.startFrame || f > clip.endFrame) this.frames.delete(f);
    this.doc = doc;
    this.clipId = clipId;
    return before - this.frames.size;
  }

  /** Stores results computed for `doc` (ignored when the cache has moved on to another document since). */
  store(doc: ImpulseDocument, results: readonly FrameCheck[]): boolean {
    if (doc !== this.doc) return false;
    for (const r of results) this.frames.set(r.frame, r);
    return true;
  }

  /** Frames of the clip with no result, as inclusive ranges. */
  missing(startFrame: number, endFrame: number): FrameRange[] {
    const out: FrameRange[] = [];
    let open = -1;
    for (let f = startFrame; f <= endFrame; f++) {
      if (!this.frames.has(f)) {
        if (open < 0) open = f;
      } else if (open >= 0) {
        out.push([open, f - 1]);
        open = -1;
      }
    }
    if (open >= 0) out.push([open, endFrame]);
    return out;
  }

  clear(): void {
    this.frames.clear();
    this.doc = null;
    this.clipId = null;
  }
}
