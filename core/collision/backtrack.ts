/**
 * Micro-backtracking (Zachwieja 1992, section 3.5): the first moment and point
 * of contact over the features (vertex–triangle and edge–edge pairs) of the
 * triangle pairs involved in a collision, moving linearly over one step.
 *
 * Zachwieja searches the involved features together, backward in time from
 * the end of the step, with precedence to the earliest: features whose
 * contact lies later are suspended on a stack, and discarded once an earlier
 * contact is found. Here the same precedence is kept with a conservative
 * order and cut:
 *
 * - each feature gets the earliest time it could touch, from the gap between
 *   its two parts at the start of the step and the most their points can
 *   approach each other per unit time (the points of a linearly moving
 *   triangle or edge move by convex combinations of its vertices' motions);
 * - features are searched in that order, each confined to the time before
 *   the earliest contact found so far (`ccdQueryFlat` with `tLimit`), and
 *   the search ends at the first feature that cannot start before it: all
 *   later ones are discarded unsearched;
 * - the per-feature search is the conservative bisection of `ccd.ts`, which
 *   narrows time earliest-first like Zachwieja's binary search (section
 *   3.6.2) but bounds the contact function over whole boxes of (t, u, v), so
 *   it never steps over a contact: the time returned is never later than the
 *   true first contact (it is the start of the earliest box whose image is
 *   within the tolerance), and no contact is missed.
 *
 * The result equals the minimum over the features of their own earliest
 * contact (each searched over the whole step), with far fewer searches.
 */
import { ccdQueryFlat } from './ccd';

/** Feature kinds in a feature list. */
export const FEATURE_EDGE_EDGE = 0;
export const FEATURE_VERTEX_TRIANGLE = 1;

/** Distance (relative to the largest coordinate) within which the CCD may report a contact. */
export const CCD_REACH = 4e-9;

let _order = new Int32Array(0);
let _lb = new Float64Array(0);
const _tuv = new Float64Array(3);

/**
 * Earliest time at which the two parts of feature f (24 numbers at
 * coords[f·24]: 4 points at the start, then at the end; the first part is
 * point 0 for vertex–triangle, points 0–1 for edge–edge) can come within the
 * CCD's tolerance: the gap between their boxes at the start, less that
 * tolerance, over the largest closing speed. 0 when the boxes already
 * (nearly) overlap; Infinity when they never close that gap.
 */
export function earliestPossibleContact(coords: ArrayLike<number>, f: number, kind: number): number {
  const o = f * 24, n1 = kind === FEATURE_VERTEX_TRIANGLE ? 1 : 2;
  let gap2 = 0, scale = 0;
  for (let i = 0; i < 24; i++) { const ax = Math.abs(coords[o + i]); if (ax > scale) scale = ax; }
  for (let k = 0; k < 3; k++) {
    let alo = Infinity, ahi = -Infinity, blo = Infinity, bhi = -Infinity;
    for (let i = 0; i < 4; i++) {
      const x = coords[o + i * 3 + k];
      if (i < n1) { if (x < alo) alo = x; if (x > ahi) ahi = x; } else { if (x < blo) blo = x; if (x > bhi) bhi = x; }
    }
    const g = blo > ahi ? blo - ahi : alo > bhi ? alo - bhi : 0;
    gap2 += g * g;
  }
  if (gap2 === 0) return 0;
  // closing speed bound: max |Δa_i − c| + max |Δb_j − c| with c = Δ of the second part's first point
  const c0 = o + n1 * 3;
  const cx = coords[c0 + 12] - coords[c0], cy = coords[c0 + 13] - coords[c0 + 1], cz = coords[c0 + 14] - coords[c0 + 2];
  let ma = 0, mb = 0;
  for (let i = 0; i < 4; i++) {
    const p = o + i * 3;
    const dx = coords[p + 12] - coords[p] - cx, dy = coords[p + 13] - coords[p + 1] - cy, dz = coords[p + 14] - coords[p + 2] - cz;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (i < n1) { if (d > ma) ma = d; } else if (d > mb) mb = d;
  }
  // The CCD reports a contact where the features come within its tolerance
  // (1e-9 of the largest coordinate per component, see ccd.ts) and rounding
  // adds a little: the gap to close is smaller by a margin above that.
  const gap = Math.sqrt(gap2) - CCD_REACH * (scale + 1e-300);
  if (gap <= 0) return 0;
  const reach = (ma + mb) * (1 + 1e-12) + 1e-15 * (scale + 1);
  return gap / reach;
}

/**
 * First contact over `count` features (24 numbers each in `coords`, kind per
 * feature in `kinds`: FEATURE_VERTEX_TRIANGLE or FEATURE_EDGE_EDGE) within
 * the step [0, tLimit). Writes t, u, v and the feature index into
 * out[0..3] (u, v as in ccdVertexTriangleHit / ccdEdgeEdgeHit) and returns
 * the number of per-feature searches made (> 0 when anything was searched);
 * out[0] is Infinity when there is no contact.
 */
export function firstContact(coords: ArrayLike<number>, kinds: ArrayLike<number>, count: number, out: Float64Array, tLimit = Infinity): number {
  if (_order.length < count) { _order = new Int32Array(count * 2); _lb = new Float64Array(count * 2); }
  const order = _order, lb = _lb;
  let n = 0;
  for (let f = 0; f < count; f++) {
    const t = earliestPossibleContact(coords, f, kinds[f]);
    if (t > 1 || t >= tLimit) continue; // cannot touch within the step
    lb[f] = t;
    order[n++] = f;
  }
  // earliest possible first (insertion into a sorted prefix: feature lists are short)
  sortByKey(order, n, lb);
  let best = tLimit, searches = 0;
  out[0] = Infinity; out[1] = 0; out[2] = 0; out[3] = -1;
  for (let k = 0; k < n; k++) {
    const f = order[k];
    if (lb[f] >= best) break; // this and every later feature cannot precede the contact found
    searches++;
    if (ccdQueryFlat(kinds[f] === FEATURE_VERTEX_TRIANGLE, coords, f * 24, _tuv, 0, 0, 100_000, best)) {
      best = _tuv[0];
      out[0] = best; out[1] = _tuv[1]; out[2] = _tuv[2]; out[3] = f;
    }
  }
  return searches;
}

/** Contact point of feature f at time t with parameters u, v (on the triangle, or on the first edge). */
export function featurePoint(coords: ArrayLike<number>, f: number, kind: number, t: number, u: number, v: number, out: Float64Array): void {
  const o = f * 24;
  for (let k = 0; k < 3; k++) {
    const at = (i: number) => coords[o + i * 3 + k] + t * (coords[o + 12 + i * 3 + k] - coords[o + i * 3 + k]);
    if (kind === FEATURE_VERTEX_TRIANGLE) { const a = at(1); out[k] = a + u * (at(2) - a) + v * (at(3) - a); } else { const a0 = at(0); out[k] = a0 + u * (at(1) - a0); }
  }
}

/** Sorts idx[0..n) by key[idx[i]] ascending (ties by index), without allocating. */
function sortByKey(idx: Int32Array, n: number, key: Float64Array): void {
  if (n < 32) {
    for (let i = 1; i < n; i++) {
      const x = idx[i], kx = key[x];
      let j = i - 1;
      while (j >= 0 && (key[idx[j]] > kx || (key[idx[j]] === kx && idx[j] > x))) { idx[j + 1] = idx[j]; j--; }
      idx[j + 1] = x;
    }
    return;
  }
  idx.subarray(0, n).sort((a, b) => key[a] - key[b] || a - b);
}
