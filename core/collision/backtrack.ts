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
 * The bounds `firstContact` orders and cuts feature f by, into out[o..o+2]:
 * the plain bound (the box-gap bound of `earliestPossibleContact`; above 1
 * when the features cannot touch within the step) and the window of the
 * moving intervals [start, end] (start Infinity when it is empty). A search
 * of the feature confined to the window (`ccdQueryFlat` with tFrom, tTo)
 * finds what a search over the whole step finds.
 */
export function featureWindowInto(coords: ArrayLike<number>, f: number, kind: number, out: Float64Array, o: number): void {
  out[o] = featureBounds(coords, f, kind);
  out[o + 1] = _wLo;
  out[o + 2] = _wHi;
}

const _ca = new Float64Array(12);
/** Conservative advancement stops once a step would advance by less than this (of the step). */
const CA_MIN_STEP = 1e-4;

/**
 * Closing speed bound of feature `o` (24 numbers: n1 points of the first
 * part, then the second's, start then end positions) over the step:
 * max |Δa_i − c| + max |Δb_j − c| with c the motion of the second part's
 * first point, padded for rounding (`scale`: the largest coordinate).
 */
function featureReach(coords: ArrayLike<number>, o: number, n1: number, scale: number): number {
  const c0 = o + n1 * 3;
  const cx = coords[c0 + 12] - coords[c0], cy = coords[c0 + 13] - coords[c0 + 1], cz = coords[c0 + 14] - coords[c0 + 2];
  let ma = 0, mb = 0;
  for (let i = 0; i < 4; i++) {
    const p = o + i * 3;
    const dx = coords[p + 12] - coords[p] - cx, dy = coords[p + 13] - coords[p + 1] - cy, dz = coords[p + 14] - coords[p + 2] - cz;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (i < n1) { if (d > ma) ma = d; } else if (d > mb) mb = d;
  }
  return (ma + mb) * (1 + 1e-12) + 1e-15 * (scale + 1);
}

/**
 * Conservative advancement of feature f (24 numbers at coords[f·24], kind)
 * from `tFrom`, a time before which the CCD reports no contact of it: a
 * later time before which its two parts stay farther apart than the CCD's
 * reach (the same reach as `featureBounds`). For fixed feature parameters
 * the two points move linearly, by at most `reach` (the closing-speed bound
 * of `featureBounds`) per step, so the distance between the parts is
 * Lipschitz in time with that constant, and a distance d at time t keeps
 * them apart until t + (d − R)/reach. The distance used is a rigorous lower
 * bound: the gap between the two parts' projections onto the direction
 * between their closest points (any direction's gap bounds the distance of
 * two convex sets from below; the closest points only choose it). Iterates
 * at most `steps` times, until a step advances by less than CA_MIN_STEP or
 * the time reaches `tTo`; returns the time reached (≥ tFrom).
 */
export function advanceFeature(coords: ArrayLike<number>, f: number, kind: number, tFrom: number, tTo: number, steps: number): number {
  const o = f * 24, n1 = kind === FEATURE_VERTEX_TRIANGLE ? 1 : 2;
  let scale = 0;
  for (let i = 0; i < 24; i++) { const ax = Math.abs(coords[o + i]); if (ax > scale) scale = ax; }
  const reach = featureReach(coords, o, n1, scale);
  // the CCD's reach, padded further for the rounding of the interpolated points and the projections
  const R = (CCD_REACH + BOUND_PAD + 1e-12) * (scale + 1e-300);
  const P = _ca;
  let t = tFrom;
  for (let s = 0; s < steps && t < tTo; s++) {
    for (let i = 0; i < 12; i++) { const a = coords[o + i]; P[i] = a + t * (coords[o + 12 + i] - a); }
    if (kind === FEATURE_VERTEX_TRIANGLE) closestPointTriangle(P); else closestSegmentSegment(P);
    const d = projectedGap(P, n1);
    const dt = (d - R) / reach;
    if (!(dt > CA_MIN_STEP)) break;
    t += dt * (1 - 1e-12);
  }
  return t;
}

/** Closest points of the two parts (set by closestPointTriangle / closestSegmentSegment): first part's, second part's. */
let _px = 0, _py = 0, _pz = 0, _qx = 0, _qy = 0, _qz = 0;

/**
 * Gap between the projections of the two parts (points 0..n1−1 and n1..3 of
 * P) onto the unit direction from the second part's closest point to the
 * first's: a lower bound of their distance (0 when they overlap along it).
 */
function projectedGap(P: Float64Array, n1: number): number {
  let wx = _px - _qx, wy = _py - _qy, wz = _pz - _qz;
  const l = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (!(l > 0)) return 0;
  wx /= l; wy /= l; wz /= l;
  let lo1 = Infinity, hi2 = -Infinity;
  for (let i = 0; i < 4; i++) {
    const x = P[i * 3] * wx + P[i * 3 + 1] * wy + P[i * 3 + 2] * wz;
    if (i < n1) { if (x < lo1) lo1 = x; } else if (x > hi2) hi2 = x;
  }
  const g = lo1 - hi2;
  return g > 0 ? g : 0;
}

/** Closest point of triangle P[3..11] to point P[0..2] (Ericson, Real-Time Collision Detection 5.1.5), into _q; _p the point. */
function closestPointTriangle(P: Float64Array): void {
  const px = P[0], py = P[1], pz = P[2], ax = P[3], ay = P[4], az = P[5];
  _px = px; _py = py; _pz = pz;
  const abx = P[6] - ax, aby = P[7] - ay, abz = P[8] - az, acx = P[9] - ax, acy = P[10] - ay, acz = P[11] - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) { _qx = ax; _qy = ay; _qz = az; return; }
  const bpx = px - P[6], bpy = py - P[7], bpz = pz - P[8];
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) { _qx = P[6]; _qy = P[7]; _qz = P[8]; return; }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) { const v = d1 / (d1 - d3); _qx = ax + v * abx; _qy = ay + v * aby; _qz = az + v * abz; return; }
  const cpx = px - P[9], cpy = py - P[10], cpz = pz - P[11];
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) { _qx = P[9]; _qy = P[10]; _qz = P[11]; return; }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) { const w = d2 / (d2 - d6); _qx = ax + w * acx; _qy = ay + w * acy; _qz = az + w * acz; return; }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    _qx = P[6] + w * (P[9] - P[6]); _qy = P[7] + w * (P[10] - P[7]); _qz = P[8] + w * (P[11] - P[8]);
    return;
  }
  const den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
  _qx = ax + abx * v + acx * w; _qy = ay + aby * v + acy * w; _qz = az + abz * v + acz * w;
}

/** Closest points of segments P[0..2]–P[3..5] (into _p) and P[6..8]–P[9..11] (into _q) (Ericson 5.1.9). */
function closestSegmentSegment(P: Float64Array): void {
  const d1x = P[3] - P[0], d1y = P[4] - P[1], d1z = P[5] - P[2];
  const d2x = P[9] - P[6], d2y = P[10] - P[7], d2z = P[11] - P[8];
  const rx = P[0] - P[6], ry = P[1] - P[7], rz = P[2] - P[8];
  const a = d1x * d1x + d1y * d1y + d1z * d1z, e = d2x * d2x + d2y * d2y + d2z * d2z, f = d2x * rx + d2y * ry + d2z * rz;
  let s: number, t: number;
  if (a <= 0 && e <= 0) { s = 0; t = 0; } else if (a <= 0) { s = 0; t = clamp01(f / e); } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 0) { t = 0; s = clamp01(-c / a); } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z, den = a * e - b * b;
      s = den > 0 ? clamp01((b * f - c * e) / den) : 0;
      t = (b * s + f) / e;
      if (t < 0) { t = 0; s = clamp01(-c / a); } else if (t > 1) { t = 1; s = clamp01((b - c) / a); }
    }
  }
  _px = P[0] + d1x * s; _py = P[1] + d1y * s; _pz = P[2] + d1z * s;
  _qx = P[6] + d2x * t; _qy = P[7] + d2y * t; _qz = P[8] + d2z * t;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
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
  // The CCD reports a contact where the features come within its tolerance
  // (1e-9 of the largest coordinate per component, see ccd.ts) and rounding
  // adds a little: the gap to close is smaller by a margin above that.
  const gap = Math.sqrt(gap2) - CCD_REACH * (scale + 1e-300);
  if (gap <= 0) return 0;
  return gap / featureReach(coords, o, n1, scale);
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
 * The window of the moving intervals of two point sets along one direction n
 * (unnormalised, length `nLen`): per set the least and largest n·x at the
 * start (alo, ahi; blo, bhi) and the least and largest n·Δx (dalo, dahi;
 * dblo, dbhi), with `scale` the largest absolute coordinate of either set at
 * either sample. Along a fixed direction the projections of linearly moving
 * points move linearly, and the CCD's reach scales by |n| (the argument of
 * `touchWindowMotion`, along n). Returns the window's start in [0, 1], or
 * Infinity when it is empty: no contact the CCD reports between points of
 * the two sets' convex hulls lies before it.
 */
export function windowAlong(alo: number, ahi: number, dalo: number, dahi: number, blo: number, bhi: number, dblo: number, dbhi: number, scale: number, nLen: number): number {
  const Rn = (CCD_REACH + BOUND_PAD) * scale * nLen * (1 + 1e-9);
  _wLo = 0; _wHi = 1;
  return axisWindow(alo, ahi, dalo, dahi, blo, bhi, dblo, dbhi, Rn) ? _wLo : Infinity;
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
