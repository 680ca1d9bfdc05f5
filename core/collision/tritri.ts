/**
 * Robust triangle–triangle intersection of closed triangles (touching counts).
 *
 * Decision: exact. The plane-side test of Möller (1997) rejects most pairs with
 * filtered-exact `orient3d`; what remains is decided by the fact that two
 * triangles meet iff an edge of one meets the other (the ends of the
 * intersection of two convex sets in different planes lie on edges; for
 * coplanar triangles the overlap contains a vertex or an edge crossing), each
 * segment–triangle test made of exact orientation predicates, with coplanar
 * segments tested in the projection that drops the normal's largest axis.
 *
 * Geometry: the intersection segment (non-coplanar), or for coplanar overlap
 * the two extreme points of the overlap polygon's vertices, in floating point.
 */
import { orient2d, orient3d } from './predicates';

const _pts = new Float64Array(3 * 24);

/** Which coordinates survive the projection along the normal's largest axis. */
function dropAxis(T: ArrayLike<number>, to: number): number {
  const ux = T[to + 3] - T[to], uy = T[to + 4] - T[to + 1], uz = T[to + 5] - T[to + 2];
  const vx = T[to + 6] - T[to], vy = T[to + 7] - T[to + 1], vz = T[to + 8] - T[to + 2];
  const nx = Math.abs(uy * vz - uz * vy), ny = Math.abs(uz * vx - ux * vz), nz = Math.abs(ux * vy - uy * vx);
  return nx >= ny && nx >= nz ? 0 : ny >= nz ? 1 : 2;
}

function onSegment2(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  // p is known collinear with ab
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/** Closed 2D segments ab and cd meet (exact). */
export function segmentsMeet2(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const o1 = orient2d(ax, ay, bx, by, cx, cy), o2 = orient2d(ax, ay, bx, by, dx, dy);
  const o3 = orient2d(cx, cy, dx, dy, ax, ay), o4 = orient2d(cx, cy, dx, dy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 === 0 && onSegment2(ax, ay, bx, by, cx, cy)) return true;
  if (o2 === 0 && onSegment2(ax, ay, bx, by, dx, dy)) return true;
  if (o3 === 0 && onSegment2(cx, cy, dx, dy, ax, ay)) return true;
  if (o4 === 0 && onSegment2(cx, cy, dx, dy, bx, by)) return true;
  return false;
}

/** Closed 2D point-in-triangle (exact; a degenerate triangle holds only points on its hull segment). */
function pointInTri2(px: number, py: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  const o1 = orient2d(ax, ay, bx, by, px, py), o2 = orient2d(bx, by, cx, cy, px, py), o3 = orient2d(cx, cy, ax, ay, px, py);
  if ((o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)) {
    if (orient2d(ax, ay, bx, by, cx, cy) !== 0) return true;
    // degenerate: on one of the three segments
    return (o1 === 0 && onSegment2(ax, ay, bx, by, px, py)) || (o2 === 0 && onSegment2(bx, by, cx, cy, px, py)) ||
      (o3 === 0 && onSegment2(cx, cy, ax, ay, px, py));
  }
  return false;
}

/**
 * Closed segment S[so..so+5] (two points) meets closed triangle T[to..to+8]
 * (exact). `s0`, `s1` are the orientations of the segment ends to T's plane.
 */
function segmentMeetsTriangle(S: ArrayLike<number>, so: number, T: ArrayLike<number>, to: number, s0: number, s1: number, axis: number): boolean {
  if (s0 * s1 > 0) return false;
  if (s0 === 0 && s1 === 0) {
    const i = axis === 0 ? 1 : 0, j = axis === 2 ? 1 : 2;
    const ax = T[to + i], ay = T[to + j], bx = T[to + 3 + i], by = T[to + 3 + j], cx = T[to + 6 + i], cy = T[to + 6 + j];
    const px = S[so + i], py = S[so + j], qx = S[so + 3 + i], qy = S[so + 3 + j];
    return pointInTri2(px, py, ax, ay, bx, by, cx, cy) || pointInTri2(qx, qy, ax, ay, bx, by, cx, cy) ||
      segmentsMeet2(px, py, qx, qy, ax, ay, bx, by) || segmentsMeet2(px, py, qx, qy, bx, by, cx, cy) ||
      segmentsMeet2(px, py, qx, qy, cx, cy, ax, ay);
  }
  // The segment crosses (or touches) the plane at one point; that point is in
  // the closed triangle iff the segment's line sees the three edges with
  // orientations of one sign (zeros allowed).
  const o1 = orient3d(S, so, S, so + 3, T, to, T, to + 3);
  const o2 = orient3d(S, so, S, so + 3, T, to + 3, T, to + 6);
  const o3 = orient3d(S, so, S, so + 3, T, to + 6, T, to);
  if ((o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)) {
    if (o1 !== 0 || o2 !== 0 || o3 !== 0) return true;
    // All zero only for a zero-area T (degenerate triangles are not supported:
    // their neighbours in a mesh carry the surface).
    return false;
  }
  return false;
}

const _edge = new Float64Array(6);

function edgeOf(T: ArrayLike<number>, to: number, e: number): Float64Array {
  const a = to + e * 3, b = to + ((e + 1) % 3) * 3;
  _edge[0] = T[a]; _edge[1] = T[a + 1]; _edge[2] = T[a + 2];
  _edge[3] = T[b]; _edge[4] = T[b + 1]; _edge[5] = T[b + 2];
  return _edge;
}

const EPS = 2 ** -53;
/** Shewchuk's static orient3d bound, widened for the rounding of the differences (as in predicates.ts, with margin). */
const SIDE_BOUND = (7 + 56 * EPS) * EPS + 16 * EPS;

/**
 * side[i] = orient3d(T0, T1, T2, X_i) for the three vertices of X: exact
 * signs. The plane's cross product (T1 − T0) × (T2 − T0) and the permanent's
 * factors are shared by the three points (det[a, b, c] expanded along c, the
 * same static error bound as any row expansion); only a determinant within
 * that bound of 0 goes to the filtered-exact orient3d. Returns the sum of
 * the three signs (±3 exactly when all lie strictly on one side).
 */
function planeSides(T: ArrayLike<number>, to: number, X: ArrayLike<number>, xo: number, side: Int8Array, plane: Float64Array): number {
  const t0x = T[to], t0y = T[to + 1], t0z = T[to + 2];
  const ax = T[to + 3] - t0x, ay = T[to + 4] - t0y, az = T[to + 5] - t0z;
  const bx = T[to + 6] - t0x, by = T[to + 7] - t0y, bz = T[to + 8] - t0z;
  const ybz = ay * bz, zby = az * by, zbx = az * bx, xbz = ax * bz, xby = ax * by, ybx = ay * bx;
  const nx = ybz - zby, ny = zbx - xbz, nz = xby - ybx;
  const kx = Math.abs(ybz) + Math.abs(zby), ky = Math.abs(zbx) + Math.abs(xbz), kz = Math.abs(xby) + Math.abs(ybx);
  plane[0] = nx; plane[1] = ny; plane[2] = nz;
  let sum = 0;
  for (let i = 0; i < 3; i++) {
    const o = xo + i * 3;
    const cx = X[o] - t0x, cy = X[o + 1] - t0y, cz = X[o + 2] - t0z;
    const det = cx * nx + cy * ny + cz * nz;
    plane[3 + i] = det;
    const bound = SIDE_BOUND * (Math.abs(cx) * kx + Math.abs(cy) * ky + Math.abs(cz) * kz);
    // the sign without a branch on it (the float sign is decisive outside the bound; within it, exact)
    const sg = +(det > bound) - +(-det > bound);
    const si = sg !== 0 ? sg : orient3d(T, to, T, to + 3, T, to + 6, X, o);
    side[i] = si;
    sum += si;
  }
  return sum;
}

const _sideP = new Int8Array(3);
const _sideQ = new Int8Array(3);
/**
 * The floating-point planes of the last overlap test, for the intersection
 * segment: Q's normal (T1 − T0) × (T2 − T0) then P's vertices' determinants
 * against it (_planeQ), and P's normal then Q's vertices' (_planeP). The
 * same operations in the same order as segmentByIntervals took them anew:
 * the same bits.
 */
const _planeQ = new Float64Array(6);
const _planeP = new Float64Array(6);
const _planes = { q: _planeQ, p: _planeP } as const;

/**
 * The floating-point planes of the last `triTriOverlap` / `triTriIntersect`
 * that passed both plane-side tests (every pair that meets does): `q[0..2]`
 * is Q's (Q1 − Q0) × (Q2 − Q0) and `q[3..5]` P's vertices' determinants
 * against it; `p` the same with P and Q swapped. Overwritten by the next test.
 */
export function lastTriTriPlanes(): { readonly q: Float64Array; readonly p: Float64Array } {
  return _planes;
}

/**
 * Exact test: do closed triangles P (9 numbers at po) and Q (9 at qo) share a point?
 */
export function triTriOverlap(P: ArrayLike<number>, po: number, Q: ArrayLike<number>, qo: number): boolean {
  // all three strictly on one side (signs in {−1, 0, 1}: their sum is ±3 exactly then)
  const sp = planeSides(Q, qo, P, po, _sideP, _planeQ);
  if (sp === 3 || sp === -3) return false;
  const sq = planeSides(P, po, Q, qo, _sideQ, _planeP);
  if (sq === 3 || sq === -3) return false;
  if (generalPosition()) return crossingIntervalsMeet(P, po, Q, qo);
  const axisQ = dropAxis(Q, qo), axisP = dropAxis(P, po);
  for (let e = 0; e < 3; e++) {
    if (segmentMeetsTriangle(edgeOf(P, po, e), 0, Q, qo, _sideP[e], _sideP[(e + 1) % 3], axisQ)) return true;
  }
  for (let e = 0; e < 3; e++) {
    if (segmentMeetsTriangle(edgeOf(Q, qo, e), 0, P, po, _sideQ[e], _sideQ[(e + 1) % 3], axisP)) return true;
  }
  return false;
}

/** Float: point where segment a→b crosses the plane (n, d) — n·x = d. */
function planeCross(A: ArrayLike<number>, ao: number, B: ArrayLike<number>, bo: number, nx: number, ny: number, nz: number, d: number, out: Float64Array, oo: number): void {
  const da = nx * A[ao] + ny * A[ao + 1] + nz * A[ao + 2] - d;
  const db = nx * B[bo] + ny * B[bo + 1] + nz * B[bo + 2] - d;
  const den = da - db;
  const s = den === 0 ? 0 : Math.min(1, Math.max(0, da / den));
  out[oo] = A[ao] + s * (B[bo] - A[ao]);
  out[oo + 1] = A[ao + 1] + s * (B[bo + 1] - A[ao + 1]);
  out[oo + 2] = A[ao + 2] + s * (B[bo + 2] - A[ao + 2]);
}

/**
 * Triangle–triangle intersection with its geometry. Returns false when the
 * closed triangles are disjoint; otherwise true and writes into `out` (6
 * numbers at `oo`) the intersection segment's two ends (equal for a single
 * touching point). For coplanar overlap the ends are the two most distant
 * points of the overlap polygon's vertices. `lastTriTriCoplanar()` tells
 * whether the last intersecting pair was coplanar.
 */
export function triTriIntersect(P: ArrayLike<number>, po: number, Q: ArrayLike<number>, qo: number, out: Float64Array, oo: number): boolean {
  if (!triTriOverlap(P, po, Q, qo)) return false;
  const coplanar = _sideP[0] === 0 && _sideP[1] === 0 && _sideP[2] === 0;
  _lastCoplanar = coplanar;
  let n = 0;
  const pts = _pts;
  if (!coplanar && generalPosition() && segmentByIntervals(P, po, Q, qo, out, oo)) return true;
  if (!coplanar) {
    // Candidate ends: where edges of one triangle cross the other triangle.
    const nqx0 = Q[qo + 3] - Q[qo], nqy0 = Q[qo + 4] - Q[qo + 1], nqz0 = Q[qo + 5] - Q[qo + 2];
    const nqx1 = Q[qo + 6] - Q[qo], nqy1 = Q[qo + 7] - Q[qo + 1], nqz1 = Q[qo + 8] - Q[qo + 2];
    const qnx = nqy0 * nqz1 - nqz0 * nqy1, qny = nqz0 * nqx1 - nqx0 * nqz1, qnz = nqx0 * nqy1 - nqy0 * nqx1;
    const qd = qnx * Q[qo] + qny * Q[qo + 1] + qnz * Q[qo + 2];
    const npx0 = P[po + 3] - P[po], npy0 = P[po + 4] - P[po + 1], npz0 = P[po + 5] - P[po + 2];
    const npx1 = P[po + 6] - P[po], npy1 = P[po + 7] - P[po + 1], npz1 = P[po + 8] - P[po + 2];
    const pnx = npy0 * npz1 - npz0 * npy1, pny = npz0 * npx1 - npx0 * npz1, pnz = npx0 * npy1 - npy0 * npx1;
    const pd = pnx * P[po] + pny * P[po + 1] + pnz * P[po + 2];
    const axisQ = dropAxis(Q, qo), axisP = dropAxis(P, po);
    for (let e = 0; e < 3; e++) {
      const s0 = _sideP[e], s1 = _sideP[(e + 1) % 3];
      const E = edgeOf(P, po, e);
      if (s0 === 0 && s1 === 0) continue;
      if (segmentMeetsTriangle(E, 0, Q, qo, s0, s1, axisQ)) { planeCross(E, 0, E, 3, qnx, qny, qnz, qd, pts, n * 3); n++; }
    }
    for (let e = 0; e < 3; e++) {
      const s0 = _sideQ[e], s1 = _sideQ[(e + 1) % 3];
      const E = edgeOf(Q, qo, e);
      if (s0 === 0 && s1 === 0) continue;
      if (segmentMeetsTriangle(E, 0, P, po, s0, s1, axisP)) { planeCross(E, 0, E, 3, pnx, pny, pnz, pd, pts, n * 3); n++; }
    }
    // Vertices lying in the other's plane and inside it (an edge or corner
    // resting on the other triangle) are ends too.
    n = addCoplanarPoints(P, po, Q, qo, pts, n, false);
  } else {
    n = addCoplanarPoints(P, po, Q, qo, pts, 0, true);
  }
  if (n === 0) {
    // Exact test says they meet but float geometry found nothing: use the closest vertex pair midpoint.
    for (let k = 0; k < 3; k++) { out[oo + k] = P[po + k]; out[oo + 3 + k] = P[po + k]; }
    return true;
  }
  // Two most distant candidate points.
  let bi = 0, bj = 0, bd = -1;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const dx = pts[i * 3] - pts[j * 3], dy = pts[i * 3 + 1] - pts[j * 3 + 1], dz = pts[i * 3 + 2] - pts[j * 3 + 2];
      const d = dx * dx + dy * dy + dz * dz;
      if (d > bd) { bd = d; bi = i; bj = j; }
    }
  }
  for (let k = 0; k < 3; k++) { out[oo + k] = pts[bi * 3 + k]; out[oo + 3 + k] = pts[bj * 3 + k]; }
  return true;
}

/**
 * Guigue & Devillers 2003: two triangles in general position (no vertex in
 * the other's plane, each straddling the other's plane) meet iff their
 * intervals on the planes' common line overlap, decided by two orientations
 * once each triangle is put with its lone vertex first (and the other
 * triangle's order flipped when that vertex lies on the negative side).
 * Exact orientations (zero counts as touching). Reads _sideP / _sideQ.
 */
function crossingIntervalsMeet(P: ArrayLike<number>, po: number, Q: ArrayLike<number>, qo: number): boolean {
  const dp1 = _sideP[0], dq1 = _sideP[1], dr1 = _sideP[2];
  // P's vertices with the lone one first (offsets), and whether Q's order flips
  let a1 = po, b1 = po + 3, c1 = po + 6, flip = false;
  if (dp1 > 0) {
    if (dq1 > 0) { a1 = po + 6; b1 = po; c1 = po + 3; flip = true; } else if (dr1 > 0) { a1 = po + 3; b1 = po + 6; c1 = po; flip = true; }
  } else if (dq1 < 0) { a1 = po + 6; b1 = po; c1 = po + 3; } else if (dr1 < 0) { a1 = po + 3; b1 = po + 6; c1 = po; } else flip = true;
  const x2 = qo, y2 = flip ? qo + 6 : qo + 3, z2 = flip ? qo + 3 : qo + 6;
  const dx = _sideQ[0], dy = flip ? _sideQ[2] : _sideQ[1], dz = flip ? _sideQ[1] : _sideQ[2];
  if (dx > 0) {
    if (dy > 0) return intervalsMeet(P, a1, c1, b1, Q, z2, x2, y2);
    if (dz > 0) return intervalsMeet(P, a1, c1, b1, Q, y2, z2, x2);
    return intervalsMeet(P, a1, b1, c1, Q, x2, y2, z2);
  }
  if (dy < 0) return intervalsMeet(P, a1, b1, c1, Q, z2, x2, y2);
  if (dz < 0) return intervalsMeet(P, a1, b1, c1, Q, y2, z2, x2);
  return intervalsMeet(P, a1, c1, b1, Q, x2, y2, z2);
}

/** The two orientation tests of Guigue & Devillers' canonical form (CHECK_MIN_MAX), P's vertices at a, b, c and Q's at d, e, f. */
function intervalsMeet(P: ArrayLike<number>, a: number, b: number, c: number, Q: ArrayLike<number>, d: number, e: number, f: number): boolean {
  if (orient3d(P, b, Q, d, P, a, Q, e) > 0) return false;
  return orient3d(P, a, Q, d, P, c, Q, f) <= 0;
}

/** No vertex of either triangle lies in the other's plane (exact orientations of the last overlap test). */
function generalPosition(): boolean {
  return _sideP[0] !== 0 && _sideP[1] !== 0 && _sideP[2] !== 0 && _sideQ[0] !== 0 && _sideQ[1] !== 0 && _sideQ[2] !== 0;
}

const _iv = new Float64Array(12);

/**
 * Where the two edges of triangle T from its lone vertex (alone on its side
 * of the other's plane, by `side`) cross that plane, by the vertices'
 * determinants D[3..5] against it: into iv[o..o+5], the edge to the next
 * vertex (cyclically) first.
 */
function crossingPoints(T: ArrayLike<number>, to: number, side: Int8Array, D: Float64Array, iv: Float64Array, o: number): void {
  const lone = side[0] === side[1] ? 2 : side[0] === side[2] ? 1 : 0;
  const a = to + lone * 3, da = D[3 + lone];
  const ax = T[a], ay = T[a + 1], az = T[a + 2];
  for (let k = 1; k <= 2; k++) {
    const vb = (lone + k) % 3, b = to + vb * 3;
    const den = da - D[3 + vb];
    const t = den === 0 ? 0.5 : Math.min(1, Math.max(0, da / den));
    const q = o + (k - 1) * 3;
    iv[q] = ax + t * (T[b] - ax); iv[q + 1] = ay + t * (T[b + 1] - ay); iv[q + 2] = az + t * (T[b + 2] - az);
  }
}

/**
 * Intersection segment of two triangles known (exactly) to cross in general
 * position (Möller 1997): each triangle has one vertex alone on its side of
 * the other's plane; its two edges from that vertex cross the plane at the
 * ends of the triangle's interval on the planes' common line, and the segment
 * is the overlap of the two intervals. Floating point (the decision is
 * exact, the geometry is not); false when rounding leaves the overlap empty
 * (the caller then uses the edge-by-edge construction).
 */
function segmentByIntervals(P: ArrayLike<number>, po: number, Q: ArrayLike<number>, qo: number, out: Float64Array, oo: number): boolean {
  const iv = _iv;
  // the planes and the vertices' determinants of the overlap test just made (planeSides: the same bits as taken anew)
  const pl = _planeP, ql = _planeQ;
  const pnx = pl[0], pny = pl[1], pnz = pl[2], qnx = ql[0], qny = ql[1], qnz = ql[2];
  // the two crossing points of each triangle with the other's plane
  crossingPoints(P, po, _sideP, ql, iv, 0);
  crossingPoints(Q, qo, _sideQ, pl, iv, 6);
  // positions along the common line
  const lx = pny * qnz - pnz * qny, ly = pnz * qnx - pnx * qnz, lz = pnx * qny - pny * qnx;
  const s0 = iv[0] * lx + iv[1] * ly + iv[2] * lz, s1 = iv[3] * lx + iv[4] * ly + iv[5] * lz;
  const s2 = iv[6] * lx + iv[7] * ly + iv[8] * lz, s3 = iv[9] * lx + iv[10] * ly + iv[11] * lz;
  const pLo = s0 <= s1 ? 0 : 3, pHi = s0 <= s1 ? 3 : 0, qLo = s2 <= s3 ? 6 : 9, qHi = s2 <= s3 ? 9 : 6;
  const pmin = s0 <= s1 ? s0 : s1, pmax = s0 <= s1 ? s1 : s0, qmin = s2 <= s3 ? s2 : s3, qmax = s2 <= s3 ? s3 : s2;
  if (pmin > qmax || qmin > pmax) return false;
  const lo = pmin >= qmin ? pLo : qLo, hi = pmax <= qmax ? pHi : qHi;
  out[oo] = iv[lo]; out[oo + 1] = iv[lo + 1]; out[oo + 2] = iv[lo + 2];
  out[oo + 3] = iv[hi]; out[oo + 4] = iv[hi + 1]; out[oo + 5] = iv[hi + 2];
  return true;
}

/** Vertices of the coplanar overlap polygon (vertices inside the other, edge crossings). */
function addCoplanarPoints(P: ArrayLike<number>, po: number, Q: ArrayLike<number>, qo: number, pts: Float64Array, n: number, coplanar: boolean): number {
  for (let pass = 0; pass < 2; pass++) {
    const A = pass === 0 ? P : Q, ao = pass === 0 ? po : qo, B = pass === 0 ? Q : P, bo = pass === 0 ? qo : po;
    const axisB = dropAxis(B, bo);
    const i = axisB === 0 ? 1 : 0, j = axisB === 2 ? 1 : 2;
    // orientation of A's vertices to B's plane, from triTriOverlap
    const side = pass === 0 ? _sideP : _sideQ;
    for (let v = 0; v < 3; v++) {
      if (side[v] !== 0) continue; // off B's plane: not a point of the overlap's boundary
      if (pointInTri2(A[ao + v * 3 + i], A[ao + v * 3 + j], B[bo + i], B[bo + j], B[bo + 3 + i], B[bo + 3 + j], B[bo + 6 + i], B[bo + 6 + j])) {
        if (n < 24) {
          pts[n * 3] = A[ao + v * 3]; pts[n * 3 + 1] = A[ao + v * 3 + 1]; pts[n * 3 + 2] = A[ao + v * 3 + 2];
          n++;
        }
      }
    }
  }
  if (!coplanar) return n;
  const axis = dropAxis(Q, qo);
  const i = axis === 0 ? 1 : 0, j = axis === 2 ? 1 : 2;
  for (let e = 0; e < 3; e++) {
    const a = po + e * 3, b = po + ((e + 1) % 3) * 3;
    if (orient3d(Q, qo, Q, qo + 3, Q, qo + 6, P, a) !== 0 || orient3d(Q, qo, Q, qo + 3, Q, qo + 6, P, b) !== 0) continue;
    for (let f = 0; f < 3; f++) {
      const c = qo + f * 3, d = qo + ((f + 1) % 3) * 3;
      const ax = P[a + i], ay = P[a + j], bx = P[b + i], by = P[b + j], cx = Q[c + i], cy = Q[c + j], dx = Q[d + i], dy = Q[d + j];
      if (!segmentsMeet2(ax, ay, bx, by, cx, cy, dx, dy)) continue;
      const den = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx);
      if (den === 0) continue; // collinear overlap: its ends are vertices, already added
      const s = Math.min(1, Math.max(0, ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / den));
      if (n >= 24) return n;
      pts[n * 3] = P[a] + s * (P[b] - P[a]); pts[n * 3 + 1] = P[a + 1] + s * (P[b + 1] - P[a + 1]); pts[n * 3 + 2] = P[a + 2] + s * (P[b + 2] - P[a + 2]);
      n++;
    }
  }
  return n;
}

let _lastCoplanar = false;
/** Whether the last pair reported by `triTriIntersect` overlapped in a common plane. */
export function lastTriTriCoplanar(): boolean {
  return _lastCoplanar;
}
