/**
 * Broad phase over body parts: sweep-and-prune over (swept) axis-aligned
 * boxes, as in Macagon 2003 section 3 (objects kept sorted along x; the order
 * from the last frame is repaired by insertion sort, nearly linear under
 * frame-to-frame coherence), with collision groups/masks and ignore rules
 * applied per pair through a caller-given filter.
 */
import type { CollisionSettings, IgnoreRule } from '../document/types';

export class PartSweepAndPrune {
  private order = new Int32Array(0);
  private count = 0;

  /**
   * Appends to `out` every pair (i, j), i < j, of boxes (min xyz, max xyz, 6
   * numbers each in `boxes`) that overlap on all three axes (closed) and that
   * `accept(i, j)` allows. Returns the number of pairs added.
   */
  pairs(boxes: ArrayLike<number>, count: number, accept: ((i: number, j: number) => boolean) | null, out: number[]): number {
    if (this.count !== count) {
      this.order = new Int32Array(count);
      for (let i = 0; i < count; i++) this.order[i] = i;
      this.count = count;
    }
    const ord = this.order;
    for (let i = 1; i < count; i++) {
      const v = ord[i], key = boxes[v * 6];
      let j = i - 1;
      while (j >= 0 && boxes[ord[j] * 6] > key) {
        ord[j + 1] = ord[j];
        j--;
      }
      ord[j + 1] = v;
    }
    let added = 0;
    for (let a = 0; a < count; a++) {
      const i = ord[a];
      const maxX = boxes[i * 6 + 3];
      for (let b = a + 1; b < count; b++) {
        const j = ord[b];
        if (boxes[j * 6] > maxX) break;
        if (boxes[i * 6 + 1] > boxes[j * 6 + 4] || boxes[j * 6 + 1] > boxes[i * 6 + 4]) continue;
        if (boxes[i * 6 + 2] > boxes[j * 6 + 5] || boxes[j * 6 + 2] > boxes[i * 6 + 5]) continue;
        const lo = i < j ? i : j, hi = i < j ? j : i;
        if (accept !== null && !accept(lo, hi)) continue;
        out.push(lo, hi);
        added++;
      }
    }
    return added;
  }
}

/** Collision classes: both enabled, and each one's groups are in the other's mask. */
export function settingsCollide(a: CollisionSettings, b: CollisionSettings): boolean {
  return a.enabled && b.enabled && (a.groups & b.mask) !== 0 && (b.groups & a.mask) !== 0;
}

/**
 * Whether an ignore rule covers the part pair (objectA, jointA)–(objectB,
 * jointB) in either order. A rule side without `joint` covers the whole
 * object; props use joint -1.
 */
export function partPairIgnored(rules: readonly IgnoreRule[], objectA: string, jointA: number, objectB: string, jointB: number): boolean {
  for (const r of rules) {
    if (sideMatches(r.a, objectA, jointA) && sideMatches(r.b, objectB, jointB)) return true;
    if (sideMatches(r.a, objectB, jointB) && sideMatches(r.b, objectA, jointA)) return true;
  }
  return false;
}

function sideMatches(s: { object: string; joint?: number }, object: string, joint: number): boolean {
  return s.object === object && (s.joint === undefined || s.joint === joint);
}
