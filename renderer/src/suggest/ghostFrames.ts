/** Which sampled frames of a suggestion the ghost draws. */

/** Indices (into entry.frames) of the onion-skin copies: evenly spaced, always including the first and last. */
export function onionFrames(count: number, maxCopies: number): number[] {
  if (count <= 0) return [];
  if (count <= maxCopies) return Array.from({ length: count }, (_, i) => i);
  const out: number[] = [];
  for (let k = 0; k < maxCopies; k++) out.push(Math.round((k * (count - 1)) / (maxCopies - 1)));
  return [...new Set(out)];
}

/**
 * Index into `frames` (sorted ascending) of the sample nearest to playhead
 * `frame` (ties go to the later sample), or -1 when the playhead is more than
 * half a frame outside the suggestion.
 */
export function liveSampleIndex(frames: readonly number[], frame: number): number {
  const n = frames.length;
  if (n === 0 || !(frame >= frames[0] - 0.5) || !(frame <= frames[n - 1] + 0.5)) return -1;
  // Last sample at or before the playhead (0 when the playhead is before the first).
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames[mid] <= frame) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1 < n && frames[lo + 1] - frame <= frame - frames[lo] ? lo + 1 : lo;
}
