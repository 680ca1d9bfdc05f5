/**
 * Impacts grouped for the Suggest panel. A ragdoll lying on a keyframed bat
 * that keeps swinging is hit hundreds of times by the same bat: the panel
 * shows one row per run of impacts between the same two parts, each impact
 * of the run less than `gapFrames` after the one before, with the run's
 * frames, count and strongest impulse. Single impacts stay single rows.
 */
import type { SuggestImpact } from '../workers/protocol';

export interface ImpactGroup {
  a: string;
  b: string;
  parts: [string, string];
  /** Frames (fractional) of the first and last impact of the run. */
  firstFrame: number;
  lastFrame: number;
  count: number;
  /** The strongest impulse of the run (N·s) and the frame it happens at. */
  peakImpulse: number;
  peakFrame: number;
}

function pairKey(im: SuggestImpact): string {
  return `${im.a}\u0000${im.parts[0]}\u0000${im.b}\u0000${im.parts[1]}`;
}

/** Groups `impacts` (any order) into runs per pair of parts, ordered by their first impact. */
export function groupImpacts(impacts: readonly SuggestImpact[], fps: number, gapFrames = 1): ImpactGroup[] {
  const sorted = impacts.map((im, i) => ({ im, i, f: im.timeSec * fps })).sort((x, y) => x.f - y.f || x.i - y.i);
  const open = new Map<string, ImpactGroup>();
  const out: ImpactGroup[] = [];
  for (const { im, f } of sorted) {
    const key = pairKey(im);
    const g = open.get(key);
    if (g && f - g.lastFrame < gapFrames) {
      g.lastFrame = f;
      g.count++;
      if (im.impulse > g.peakImpulse) {
        g.peakImpulse = im.impulse;
        g.peakFrame = f;
      }
      continue;
    }
    const fresh: ImpactGroup = { a: im.a, b: im.b, parts: [im.parts[0], im.parts[1]], firstFrame: f, lastFrame: f, count: 1, peakImpulse: im.impulse, peakFrame: f };
    open.set(key, fresh);
    out.push(fresh);
  }
  return out;
}
