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
import { ccdNoContactWithin, ccdQueryFlat } from './ccd';

/** Feature kinds in a feature list. */
export const FEATURE_EDGE_EDGE = 0;
export const FEATURE_VERTEX_TRIANGLE = 1;

/** Distance (relative to the largest coordinate) within which the CCD may report a contact. */
export const CCD_REACH = 4e-9;

/** Numbers per triangle in a motion box (`motionBoxInto`). */
export const MOTION_BOX = 13;

let _order = new Int32Array(0);
let _lb = new Float64Array(0);
let _win = new Float64Array(0);
let _winHi = new Float64Array(0);
const _tuv = new Float64Array(3);

/**
 * Moving-interval bound, one axis at a time. On axis k the first part's
 * points at time t lie in [lo₀ + t·min Δ, hi₀ + t·max Δ] (each point is a
 * convex combination of its part's vertices, whose coordinates move by their
 * own Δ), and likewise the second part's; a contact the CCD reports needs the
 * two points within its reach R on every axis. So on each axis the two
 * intervals, widened by R, must meet: g ≤ t·s for both orderings, with g the
 * gap at the start (less R) and s the largest closing rate from the
 * relative displacements. Each is a linear condition on t; the times that
 * satisfy all six form a window of [0, 1]. `_wLo`/`_wHi` hold it.
 */
let _wLo = 0, _wHi = 1;

/**
 * Narrows the window by one condition g ≤ t·s (a gap g the parts close at rate s).
 * False when no t in [0, 1] can meet it.
 */
function narrowWindow(g: number, s: number): boolean {
  if (g > 0) {
    if (!(s > 0)) return false;
    const t = (g / s) * (1 - 1e-15);
    if (t > _wLo) _wLo = t;
  } else if (s < 0) {
    const t = (g / s) * (1 + 1e-15);
    if (t < _wHi) _wHi = t;
  }
  return true;
}

/** Narrows the window by one axis (extremes at the start and of the displacements of each part). False when it is empty. */
function axisWindow(alo: number, ahi: number, dalo: number, dahi: number, blo: number, bhi: number, dblo: number, dbhi: number, R: number): boolean {
  // first part's top reaches the second's bottom: blo − ahi − R ≤ t·(dahi − dblo);
  // second part's top reaches the first's bottom: alo − bhi − R ≤ t·(dbhi − dalo)
  return narrowWindow(blo - ahi - R, dahi - dblo) && narrowWindow(alo - bhi - R, dbhi - dalo) && _wLo <= _wHi;
}

/**
 * Narrows the window by the moving intervals along one more direction: the
 * normal n at the start of the triangle (vertex–triangle) or the cross
 * product of the two edges (edge–edge), unnormalised. Along a fixed direction
 * the projections of linearly moving points move linearly too, so the
 * per-axis argument holds with the reach scaled by |n| (the CCD's reach is a
 * Euclidean distance); the projections round by a few ε of scale·|n|, far
 * below the pad in R. False when the window is empty.
 */
function normalWindow(coords: ArrayLike<number>, o: number, kind: number, R: number): boolean {
  let ux: number, uy: number, uz: number, vx: number, vy: number, vz: number;
  if (kind === FEATURE_VERTEX_TRIANGLE) {
    ux = coords[o + 6] - coords[o + 3]; uy = coords[o + 7] - coords[o + 4]; uz = coords[o + 8] - coords[o + 5];
    vx = coords[o + 9] - coords[o + 3]; vy = coords[o + 10] - coords[o + 4]; vz = coords[o + 11] - coords[o + 5];
  } else {
    ux = coords[o + 3] - coords[o]; uy = coords[o + 4] - coords[o + 1]; uz = coords[o + 5] - coords[o + 2];
    vx = coords[o + 9] - coords[o + 6]; vy = coords[o + 10] - coords[o + 7]; vz = coords[o + 11] - coords[o + 8];
  }
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const n1 = kind === FEATURE_VERTEX_TRIANGLE ? 1 : 2;
  let alo = Infinity, ahi = -Infinity, blo = Infinity, bhi = -Infinity;
  let dalo = Infinity, dahi = -Infinity, dblo = Infinity, dbhi = -Infinity;
  for (let i = 0; i < 4; i++) {
    const p = o + i * 3;
    const x = coords[p] * nx + coords[p + 1] * ny + coords[p + 2] * nz;
    const d = (coords[p + 12] - coords[p]) * nx + (coords[p + 13] - coords[p + 1]) * ny + (coords[p + 14] - coords[p + 2]) * nz;
    if (i < n1) {
      if (x < alo) alo = x; if (x > ahi) ahi = x;
      if (d < dalo) dalo = d; if (d > dahi) dahi = d;
    } else {
      if (x < blo) blo = x; if (x > bhi) bhi = x;
      if (d < dblo) dblo = d; if (d > dbhi) dbhi = d;
    }
  }
  const Rn = R * Math.sqrt(nx * nx + ny * ny + nz * nz) * (1 + 1e-9);
  return axisWindow(alo, ahi, dalo, dahi, blo, bhi, dblo, dbhi, Rn);
}

/**
 * Rounding margin (relative to the largest coordinate) added to the CCD's
 * reach in the bounds: the differences and products above round by a few ε
 * of that scale, far below it.
 */
const BOUND_PAD = 1e-12;

/**
 * Earliest time at which the two parts of feature f (24 numbers at
 * coords[f·24]: 4 points at the start, then at the end; the first part is
 * point 0 for vertex–triangle, points 0–1 for edge–edge) can come within the
 * CCD's tolerance: the later of (1) the gap between their boxes at the start,
 * less that tolerance, over the largest closing speed, and (2) the start of
 * the per-axis window of the moving intervals (`axisWindow`). 0 when the
 * boxes already (nearly) overlap and the window starts at 0; Infinity when
 * the window within the step is empty (the parts cannot come within the
 * tolerance during the step).
 */
export function earliestPossibleContact(coords: ArrayLike<number>, f: number, kind: number): number {
  const t = featureBounds(coords, f, kind);
  return t > _wLo ? t : _wLo;
}

/**
 * The two bounds of `earliestPossibleContact`: returns the box-gap bound
 * (Infinity when the window is empty) and leaves the window's start in
 * `_wLo`. firstContact orders the features by the first (the order, and so
 * the feature that wins a tie, is that of the plain bound) and skips those
 * whose window starts at or after the earliest contact found.
 */
function featureBounds(coords: ArrayLike<number>, f: number, kind: number): number {
  const o = f * 24, n1 = kind === FEATURE_VERTEX_TRIANGLE ? 1 : 2;
  let gap2 = 0, scale = 0;
  for (let i = 0; i < 24; i++) { const ax = Math.abs(coords[o + i]); if (ax > scale) scale = ax; }
  const R = (CCD_REACH + BOUND_PAD) * scale;
  _wLo = 0; _wHi = 1;
  for (let k = 0; k < 3; k++) {
    let alo = Infinity, ahi = -Infinity, blo = Infinity, bhi = -Infinity;
    let dalo = Infinity, dahi = -Infinity, dblo = Infinity, dbhi = -Infinity;
    for (let i = 0; i < 4; i++) {
      const x = coords[o + i * 3 + k], d = coords[o + 12 + i * 3 + k] - x;
      if (i < n1) {
        if (x < alo) alo = x; if (x > ahi) ahi = x;
        if (d < dalo) dalo = d; if (d > dahi) dahi = d;
      } else {
        if (x < blo) blo = x; if (x > bhi) bhi = x;
        if (d < dblo) dblo = d; if (d > dbhi) dbhi = d;
      }
    }
    if (!axisWindow(alo, ahi, dalo, dahi, blo, bhi, dblo, dbhi, R)) { _wLo = Infinity; return Infinity; }
    const g = blo > ahi ? blo - ahi : alo > bhi ? alo - bhi : 0;
    gap2 += g * g;
  }
  // the same window along the feature's normal at the start (the triangle's,
  // or the cross product of the two edges): there the two parts start as
  // points or nearly so, so it is the tightest of the windows where the parts
  // approach edge-on or face-on; an empty window leaves the plain bound (the
  // order) as it is and only empties _wLo
  if (!normalWindow(coords, o, kind, R)) _wLo = Infinity;
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
 * Earliest time in the step at which two linearly moving triangles (ta of
 * positions A0 → A1, indices IA; tb of B0 → B1, IB) can come within the CCD's
 * reach: the start of the per-axis window of their moving intervals
 * (`axisWindow`), Infinity when it is empty. Every feature of the pair
 * (vertex–triangle, edge–edge) lies within the two triangles, so none of
 * their CCD contacts lies before it.
 */
export function touchWindow(
  A0: Float64Array, A1: Float64Array, IA: Uint32Array, ta: number,
  B0: Float64Array, B1: Float64Array, IB: Uint32Array, tb: number,
): number {
  motionBoxInto(A0, A1, IA, ta, _mA, 0);
  motionBoxInto(B0, B1, IB, tb, _mB, 0);
  return touchWindowMotion(_mA, 0, _mB, 0);
}

const _mA = new Float64Array(MOTION_BOX), _mB = new Float64Array(MOTION_BOX);

/**
 * The motion box of triangle t (positions P0 → P1, indices I) into
 * out[o..o+12]: per axis k at out[o+4k..]: the least and largest coordinate
 * at the start, the least and largest displacement; then at out[o+12] the
 * largest absolute coordinate at either sample (the scale of the CCD's reach).
 */
export function motionBoxInto(P0: Float64Array, P1: Float64Array, I: Uint32Array, t: number, out: Float64Array, o: number): void {
  const a = I[t * 3] * 3, b = I[t * 3 + 1] * 3, c = I[t * 3 + 2] * 3;
  let m = 0;
  for (let k = 0; k < 3; k++) {
    const p0 = P0[a + k], p1 = P0[b + k], p2 = P0[c + k], q0 = P1[a + k], q1 = P1[b + k], q2 = P1[c + k];
    const d0 = q0 - p0, d1 = q1 - p1, d2 = q2 - p2;
    const lo = p0 < p1 ? (p0 < p2 ? p0 : p2) : p1 < p2 ? p1 : p2, hi = p0 > p1 ? (p0 > p2 ? p0 : p2) : p1 > p2 ? p1 : p2;
    const lq = q0 < q1 ? (q0 < q2 ? q0 : q2) : q1 < q2 ? q1 : q2, hq = q0 > q1 ? (q0 > q2 ? q0 : q2) : q1 > q2 ? q1 : q2;
    out[o + k * 4] = lo; out[o + k * 4 + 1] = hi;
    out[o + k * 4 + 2] = d0 < d1 ? (d0 < d2 ? d0 : d2) : d1 < d2 ? d1 : d2;
    out[o + k * 4 + 3] = d0 > d1 ? (d0 > d2 ? d0 : d2) : d1 > d2 ? d1 : d2;
    if (-lo > m) m = -lo; if (hi > m) m = hi; if (-lq > m) m = -lq; if (hq > m) m = hq;
  }
  out[o + 12] = m;
}

/** `touchWindow` from the two triangles' motion boxes (`motionBoxInto`) at mA[oa..], mB[ob..]. */
export function touchWindowMotion(mA: Float64Array, oa: number, mB: Float64Array, ob: number): number {
  const sa = mA[oa + 12], sb = mB[ob + 12];
  const R = (CCD_REACH + BOUND_PAD) * (sa > sb ? sa : sb);
  _wLo = 0; _wHi = 1;
  for (let k = 0; k < 12; k += 4) {
    if (!axisWindow(mA[oa + k], mA[oa + k + 1], mA[oa + k + 2], mA[oa + k + 3], mB[ob + k], mB[ob + k + 1], mB[ob + k + 2], mB[ob + k + 3], R)) return Infinity;
  }
  return _wLo;
}

/**
 * `touchWindowMotion` narrowed further by the moving intervals along each
 * triangle's normal at the start of the step (the same argument as the
 * feature windows along their normals: every point of a feature lies in its
 * triangle, projections of linearly moving points move linearly, and the
 * reach scales by |n|). Triangles ta (A0 → A1, IA) and tb (B0 → B1, IB),
 * with their motion boxes at mA[oa..], mB[ob..]. Every feature's window of
 * the pair lies within it; Infinity when it is empty.
 */
export function touchWindowNormals(
  mA: Float64Array, oa: number, mB: Float64Array, ob: number,
  A0: Float64Array, A1: Float64Array, IA: Uint32Array, ta: number, B0: Float64Array, B1: Float64Array, IB: Uint32Array, tb: number,
): number {
  if (touchWindowMotion(mA, oa, mB, ob) === Infinity) return Infinity;
  const sa = mA[oa + 12], sb = mB[ob + 12];
  const R = (CCD_REACH + BOUND_PAD) * (sa > sb ? sa : sb);
  if (!triangleNormalWindow(A0, A1, IA, ta, B0, B1, IB, tb, R, true)) return Infinity;
  if (!triangleNormalWindow(A0, A1, IA, ta, B0, B1, IB, tb, R, false)) return Infinity;
  return _wLo;
}

/** Narrows the window along the start normal of ta (ofA) or tb: the moving intervals of both triangles' projections. False when it is empty. */
function triangleNormalWindow(
  A0: Float64Array, A1: Float64Array, IA: Uint32Array, ta: number, B0: Float64Array, B1: Float64Array, IB: Uint32Array, tb: number, R: number, ofA: boolean,
): boolean {
  const P = ofA ? A0 : B0, I = ofA ? IA : IB, t = ofA ? ta : tb;
  const a = I[t * 3] * 3, b = I[t * 3 + 1] * 3, c = I[t * 3 + 2] * 3;
  const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
  const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  let alo = Infinity, ahi = -Infinity, blo = Infinity, bhi = -Infinity;
  let dalo = Infinity, dahi = -Infinity, dblo = Infinity, dbhi = -Infinity;
  for (let j = 0; j < 3; j++) {
    const p = IA[ta * 3 + j] * 3, q = IB[tb * 3 + j] * 3;
    const x = A0[p] * nx + A0[p + 1] * ny + A0[p + 2] * nz;
    const d = (A1[p] - A0[p]) * nx + (A1[p + 1] - A0[p + 1]) * ny + (A1[p + 2] - A0[p + 2]) * nz;
    if (x < alo) alo = x; if (x > ahi) ahi = x;
    if (d < dalo) dalo = d; if (d > dahi) dahi = d;
    const y = B0[q] * nx + B0[q + 1] * ny + B0[q + 2] * nz;
    const e = (B1[q] - B0[q]) * nx + (B1[q + 1] - B0[q + 1]) * ny + (B1[q + 2] - B0[q + 2]) * nz;
    if (y < blo) blo = y; if (y > bhi) bhi = y;
    if (e < dblo) dblo = e; if (e > dbhi) dbhi = e;
  }
  const Rn = R * Math.sqrt(nx * nx + ny * ny + nz * nz) * (1 + 1e-9);
  return axisWindow(alo, ahi, dalo, dahi, blo, bhi, dblo, dbhi, Rn);
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
  if (_order.length < count) { _order = new Int32Array(count * 2); _lb = new Float64Array(count * 2); _win = new Float64Array(count * 2); _winHi = new Float64Array(count * 2); }
  const order = _order, lb = _lb, win = _win, winHi = _winHi;
  let n = 0;
  for (let f = 0; f < count; f++) {
    const t = featureBounds(coords, f, kinds[f]);
    if (t > 1 || t >= tLimit || _wLo >= tLimit) continue; // cannot touch within the step (or before tLimit)
    lb[f] = t;
    win[f] = _wLo;
    winHi[f] = _wHi;
    order[n++] = f;
  }
  // earliest possible first (insertion into a sorted prefix: feature lists are short)
  sortByKey(order, n, lb);
  let best = tLimit, searches = 0;
  out[0] = Infinity; out[1] = 0; out[2] = 0; out[3] = -1;
  for (let k = 0; k < n; k++) {
    const f = order[k];
    if (lb[f] >= best) break; // this and every later feature cannot precede the contact found
    if (win[f] >= best) continue; // this one cannot either (its window starts later)
    // nor one whose coplanarity determinant keeps its sign on the window (up to best)
    if (ccdNoContactWithin(kinds[f] === FEATURE_VERTEX_TRIANGLE, coords, f * 24, win[f], winHi[f] < best ? winHi[f] : best)) continue;
    searches++;
    if (ccdQueryFlat(kinds[f] === FEATURE_VERTEX_TRIANGLE, coords, f * 24, _tuv, 0, 0, 100_000, best, win[f], winHi[f])) {
      best = _tuv[0];
      out[0] = best; out[1] = _tuv[1]; out[2] = _tuv[2]; out[3] = f;
    }
  }
  return searches;
}

/**
 * The earliest time any of `count` features could touch within the step
 * (the least of their `earliestPossibleContact`; Infinity when none can):
 * no CCD contact of the list lies before it.
 */
export function earliestOfFeatures(coords: ArrayLike<number>, kinds: ArrayLike<number>, count: number): number {
  let m = Infinity;
  for (let f = 0; f < count; f++) {
    const t = featureBounds(coords, f, kinds[f]);
    if (t > 1) continue;
    const e = t > _wLo ? t : _wLo;
    if (e < m) m = e;
  }
  return m;
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
