/**
 * Contact data reduction after Zachwieja 1992, section 3.8: one contact point
 * per colliding pair. One point passes through; two are averaged; a collinear
 * set becomes the midpoint of its two extremes; a coplanar set the centre
 * (area centroid) of its convex hull, which the thesis recommends over a
 * plain average; any other set the average. The hull's area centroid does not
 * depend on the order of the points or on points lying on the hull's edges
 * (the crossing segments of two faces put many there): the centroid of the
 * hull's vertices moved by millimetres with whichever of those rounding left
 * as corners, so with the order the narrow phase found them in.
 */

import { hypot3 } from '../math/libm';
const _hull = new Int32Array(4096);
const _proj = new Float64Array(2 * 4096);
const _ord = new Int32Array(4096);

/**
 * Reduces `count` points (xyz in `pts`) to one, written to out[0..2]. `tol` is
 * the distance under which points count as collinear / coplanar (scene units).
 * Returns 0 for none, 1 single, 2 collinear (incl. two points), 3 coplanar, 4 general.
 */
export function reduceContacts(pts: ArrayLike<number>, count: number, out: Float64Array | number[], tol = 1e-9): number {
  if (count <= 0) return 0;
  if (count === 1) {
    out[0] = pts[0]; out[1] = pts[1]; out[2] = pts[2];
    return 1;
  }
  // Extremes: the point farthest from the first, then the farthest from that.
  let i0 = 0, best = -1;
  for (let i = 0; i < count; i++) {
    const d = dist2(pts, 0, i);
    if (d > best) { best = d; i0 = i; }
  }
  let i1 = i0;
  best = -1;
  for (let i = 0; i < count; i++) {
    const d = dist2(pts, i0, i);
    if (d > best) { best = d; i1 = i; }
  }
  const len = Math.sqrt(best);
  if (len <= tol) {
    average(pts, count, out);
    return 1;
  }
  const dx = (pts[i1 * 3] - pts[i0 * 3]) / len, dy = (pts[i1 * 3 + 1] - pts[i0 * 3 + 1]) / len, dz = (pts[i1 * 3 + 2] - pts[i0 * 3 + 2]) / len;
  // Farthest point from the line.
  let i2 = -1, bestLine = tol;
  for (let i = 0; i < count; i++) {
    const px = pts[i * 3] - pts[i0 * 3], py = pts[i * 3 + 1] - pts[i0 * 3 + 1], pz = pts[i * 3 + 2] - pts[i0 * 3 + 2];
    const s = px * dx + py * dy + pz * dz;
    const qx = px - s * dx, qy = py - s * dy, qz = pz - s * dz;
    const d = Math.sqrt(qx * qx + qy * qy + qz * qz);
    if (d > bestLine) { bestLine = d; i2 = i; }
  }
  if (i2 < 0) {
    for (let k = 0; k < 3; k++) out[k] = 0.5 * (pts[i0 * 3 + k] + pts[i1 * 3 + k]);
    return 2;
  }
  // Plane through the three; in-plane axes e1 = d, e2 = normal × d.
  const ax = pts[i2 * 3] - pts[i0 * 3], ay = pts[i2 * 3 + 1] - pts[i0 * 3 + 1], az = pts[i2 * 3 + 2] - pts[i0 * 3 + 2];
  let nx = dy * az - dz * ay, ny = dz * ax - dx * az, nz = dx * ay - dy * ax;
  const nl = hypot3(nx, ny, nz);
  nx /= nl; ny /= nl; nz /= nl;
  for (let i = 0; i < count; i++) {
    const px = pts[i * 3] - pts[i0 * 3], py = pts[i * 3 + 1] - pts[i0 * 3 + 1], pz = pts[i * 3 + 2] - pts[i0 * 3 + 2];
    if (Math.abs(px * nx + py * ny + pz * nz) > tol) {
      average(pts, count, out);
      return 4;
    }
  }
  const ex = ny * dz - nz * dy, ey = nz * dx - nx * dz, ez = nx * dy - ny * dx;
  const n = Math.min(count, 4096);
  for (let i = 0; i < n; i++) {
    const px = pts[i * 3] - pts[i0 * 3], py = pts[i * 3 + 1] - pts[i0 * 3 + 1], pz = pts[i * 3 + 2] - pts[i0 * 3 + 2];
    _proj[i * 2] = px * dx + py * dy + pz * dz;
    _proj[i * 2 + 1] = px * ex + py * ey + pz * ez;
    _ord[i] = i;
  }
  const h = convexHull2(n);
  // area centroid: a fan of triangles from the first hull vertex, each weighted by its area
  // (the hull is convex, so every fan triangle has the same orientation), about that vertex
  const o = _hull[0] * 3, ox = pts[o], oy = pts[o + 1], oz = pts[o + 2];
  let sx = 0, sy = 0, sz = 0, sw = 0;
  for (let k = 1; k + 1 < h; k++) {
    const a = _hull[k] * 3, b = _hull[k + 1] * 3;
    const ux = pts[a] - ox, uy = pts[a + 1] - oy, uz = pts[a + 2] - oz;
    const vx = pts[b] - ox, vy = pts[b + 1] - oy, vz = pts[b + 2] - oz;
    const w = hypot3(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
    sx += w * (ux + vx); sy += w * (uy + vy); sz += w * (uz + vz);
    sw += w;
  }
  if (sw > 0) {
    out[0] = ox + sx / (3 * sw); out[1] = oy + sy / (3 * sw); out[2] = oz + sz / (3 * sw);
    return 3;
  }
  // (no area at all: a hull of rounding only) the centroid of its vertices
  sx = sy = sz = 0;
  for (let k = 0; k < h; k++) {
    const i = _hull[k];
    sx += pts[i * 3]; sy += pts[i * 3 + 1]; sz += pts[i * 3 + 2];
  }
  out[0] = sx / h; out[1] = sy / h; out[2] = sz / h;
  return 3;
}

function dist2(p: ArrayLike<number>, i: number, j: number): number {
  const x = p[i * 3] - p[j * 3], y = p[i * 3 + 1] - p[j * 3 + 1], z = p[i * 3 + 2] - p[j * 3 + 2];
  return x * x + y * y + z * z;
}

function average(p: ArrayLike<number>, count: number, out: Float64Array | number[]): void {
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < count; i++) { x += p[i * 3]; y += p[i * 3 + 1]; z += p[i * 3 + 2]; }
  out[0] = x / count; out[1] = y / count; out[2] = z / count;
}

/** Andrew's monotone chain over _proj[0..n); hull vertex indices into _hull, returns their count. */
function convexHull2(n: number): number {
  const ord = Array.from(_ord.subarray(0, n));
  ord.sort((a, b) => _proj[a * 2] - _proj[b * 2] || _proj[a * 2 + 1] - _proj[b * 2 + 1]);
  const cross = (o: number, a: number, b: number) =>
    (_proj[a * 2] - _proj[o * 2]) * (_proj[b * 2 + 1] - _proj[o * 2 + 1]) - (_proj[a * 2 + 1] - _proj[o * 2 + 1]) * (_proj[b * 2] - _proj[o * 2]);
  const H: number[] = [];
  for (const p of ord) {
    while (H.length >= 2 && cross(H[H.length - 2], H[H.length - 1], p) <= 0) H.pop();
    H.push(p);
  }
  const lower = H.length + 1;
  for (let i = ord.length - 2; i >= 0; i--) {
    const p = ord[i];
    while (H.length >= lower && cross(H[H.length - 2], H[H.length - 1], p) <= 0) H.pop();
    H.push(p);
  }
  H.pop();
  for (let k = 0; k < H.length; k++) _hull[k] = H[k];
  return H.length;
}
