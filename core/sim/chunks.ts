/**
 * Boxes and vertex chunks of dynamic colliders for the simulated world
 * (SimWorld): local and oriented boxes, the median-split vertex chunks whose
 * height bounds let ground scans skip most vertices, and small sorting and
 * selection helpers.
 */
import type { Collider } from './collider';
import { hypot3 } from '../math/libm';

const _emptyBox = Float64Array.of(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity);
/** Box of flat xyz points. */
export function localBox(X: Float64Array): Float64Array {
  const b = Float64Array.from(_emptyBox);
  for (let i = 0; i < X.length; i += 3)
    for (let c = 0; c < 3; c++) {
      if (X[i + c] < b[c]) b[c] = X[i + c];
      if (X[i + c] > b[3 + c]) b[3 + c] = X[i + c];
    }
  if (X.length === 0) b.fill(0);
  return b;
}

/** Grows `out` by the world box of local box `lb` placed at state st[s..] (position, then quaternion), padded for rounding. */
export function orientedBoxInto(lb: Float64Array, st: Float64Array, s: number, out: Float64Array): void {
  const x = st[s + 3], y = st[s + 4], z = st[s + 5], w = st[s + 6];
  // rotation matrix rows
  const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w);
  const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
  const r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
  const cx = 0.5 * (lb[0] + lb[3]), cy = 0.5 * (lb[1] + lb[4]), cz = 0.5 * (lb[2] + lb[5]);
  const ex = 0.5 * (lb[3] - lb[0]), ey = 0.5 * (lb[4] - lb[1]), ez = 0.5 * (lb[5] - lb[2]);
  const pad = 1e-9 * (ex + ey + ez) + 1e-12;
  const m0 = st[s] + r00 * cx + r01 * cy + r02 * cz, e0 = Math.abs(r00) * ex + Math.abs(r01) * ey + Math.abs(r02) * ez + pad;
  const m1 = st[s + 1] + r10 * cx + r11 * cy + r12 * cz, e1 = Math.abs(r10) * ex + Math.abs(r11) * ey + Math.abs(r12) * ez + pad;
  const m2 = st[s + 2] + r20 * cx + r21 * cy + r22 * cz, e2 = Math.abs(r20) * ex + Math.abs(r21) * ey + Math.abs(r22) * ez + pad;
  if (m0 - e0 < out[0]) out[0] = m0 - e0;
  if (m1 - e1 < out[1]) out[1] = m1 - e1;
  if (m2 - e2 < out[2]) out[2] = m2 - e2;
  if (m0 + e0 > out[3]) out[3] = m0 + e0;
  if (m1 + e1 > out[4]) out[4] = m1 + e1;
  if (m2 + e2 > out[5]) out[5] = m2 + e2;
}

/**
 * The bottom (lowest y) of the box orientedBoxInto grows an empty box by:
 * its numbers for that side only (the rotation's second row, the same
 * expressions), +∞ where the box would keep +∞ (a NaN bottom).
 */
export function orientedBottomY(lb: Float64Array, st: Float64Array, s: number): number {
  const x = st[s + 3], y = st[s + 4], z = st[s + 5], w = st[s + 6];
  const r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w);
  const cx = 0.5 * (lb[0] + lb[3]), cy = 0.5 * (lb[1] + lb[4]), cz = 0.5 * (lb[2] + lb[5]);
  const ex = 0.5 * (lb[3] - lb[0]), ey = 0.5 * (lb[4] - lb[1]), ez = 0.5 * (lb[5] - lb[2]);
  const pad = 1e-9 * (ex + ey + ez) + 1e-12;
  const m1 = st[s + 1] + r10 * cx + r11 * cy + r12 * cz, e1 = Math.abs(r10) * ex + Math.abs(r11) * ey + Math.abs(r12) * ez + pad;
  return m1 - e1 < Infinity ? m1 - e1 : Infinity;
}

/** Largest length of the flat xyz vectors in X. */
export function maxNorm(X: Float64Array): number {
  let m = 0;
  for (let i = 0; i < X.length; i += 3) m = Math.max(m, hypot3(X[i], X[i + 1], X[i + 2]));
  return m;
}

/** Sorts a[0..n) ascending (insertion sort: the lists are short and mostly in order). */
export function sortAscending(a: Uint32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    for (; j >= 0 && a[j] > v; j--) a[j + 1] = a[j];
    a[j + 1] = v;
  }
}

/** Most vertices in a ground-scan chunk (Collider.chunkVerts). */
const CHUNK_VERTS = 16;

/** Splits flat xyz points into compact chunks of at most CHUNK_VERTS (median splits along the longest axis). */
export function vertexChunks(X: Float64Array): { chunkStart: Int32Array; chunkVerts: Uint32Array; chunkSphere: Float64Array; chunkBox: Float64Array; chunkOf: Int32Array } {
  const nv = X.length / 3;
  const verts = new Uint32Array(nv);
  for (let v = 0; v < nv; v++) verts[v] = v;
  const starts: number[] = [];
  const split = (a: number, b: number): void => {
    if (b - a <= CHUNK_VERTS) {
      starts.push(a);
      // ascending vertex order within the chunk (insertion sort, at most CHUNK_VERTS)
      for (let i = a + 1; i < b; i++) {
        const v = verts[i];
        let j = i - 1;
        for (; j >= a && verts[j] > v; j--) verts[j + 1] = verts[j];
        verts[j + 1] = v;
      }
      return;
    }
    let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let k = a; k < b; k++) {
      const o = 3 * verts[k];
      if (X[o] < lx) lx = X[o];
      if (X[o] > hx) hx = X[o];
      if (X[o + 1] < ly) ly = X[o + 1];
      if (X[o + 1] > hy) hy = X[o + 1];
      if (X[o + 2] < lz) lz = X[o + 2];
      if (X[o + 2] > hz) hz = X[o + 2];
    }
    const ax = hx - lx >= hy - ly && hx - lx >= hz - lz ? 0 : hy - ly >= hz - lz ? 1 : 2;
    const m = (a + b) >> 1;
    selectRank(verts, X, ax, a, b, m);
    split(a, m);
    split(m, b);
  };
  if (nv > 0) split(0, nv);
  starts.push(nv);
  const nc = starts.length - 1;
  const sphere = new Float64Array(4 * nc), box = new Float64Array(6 * nc);
  for (let k = 0; k < nc; k++) {
    // the chunk's box (scalars: no arrays per chunk)
    let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let i = starts[k]; i < starts[k + 1]; i++) {
      const o = 3 * verts[i], x = X[o], y = X[o + 1], z = X[o + 2];
      if (x < lx) lx = x;
      if (x > hx) hx = x;
      if (y < ly) ly = y;
      if (y > hy) hy = y;
      if (z < lz) lz = z;
      if (z > hz) hz = z;
    }
    const cx = 0.5 * (lx + hx), cy = 0.5 * (ly + hy), cz = 0.5 * (lz + hz);
    let r2 = 0;
    for (let i = starts[k]; i < starts[k + 1]; i++) {
      const o = 3 * verts[i];
      const d2 = (X[o] - cx) ** 2 + (X[o + 1] - cy) ** 2 + (X[o + 2] - cz) ** 2;
      if (d2 > r2) r2 = d2;
    }
    sphere[4 * k] = cx;
    sphere[4 * k + 1] = cy;
    sphere[4 * k + 2] = cz;
    // padded for the rounding of the rotated vertices (relative 1e-9 of the lever, far above it)
    sphere[4 * k + 3] = Math.sqrt(r2) * (1 + 1e-9) + 1e-9 * hypot3(cx, cy, cz) + 1e-12;
    const pad = 1e-9 * hypot3(cx, cy, cz) + 1e-12;
    box[6 * k] = cx;
    box[6 * k + 1] = cy;
    box[6 * k + 2] = cz;
    box[6 * k + 3] = 0.5 * (hx - lx) * (1 + 1e-9) + pad;
    box[6 * k + 4] = 0.5 * (hy - ly) * (1 + 1e-9) + pad;
    box[6 * k + 5] = 0.5 * (hz - lz) * (1 + 1e-9) + pad;
  }
  const chunkOf = new Int32Array(nv);
  for (let k = 0; k < nc; k++) for (let i = starts[k]; i < starts[k + 1]; i++) chunkOf[verts[i]] = k;
  return { chunkStart: Int32Array.from(starts), chunkVerts: verts, chunkSphere: sphere, chunkBox: box, chunkOf };
}

/** vertexChunks of X with X's coordinates in chunk order (chunkLocal). */
export function chunked(X: Float64Array): ReturnType<typeof vertexChunks> & { chunkLocal: Float64Array } {
  const ch = vertexChunks(X), V = ch.chunkVerts;
  const chunkLocal = new Float64Array(3 * V.length);
  for (let i = 0; i < V.length; i++) {
    chunkLocal[3 * i] = X[3 * V[i]];
    chunkLocal[3 * i + 1] = X[3 * V[i] + 1];
    chunkLocal[3 * i + 2] = X[3 * V[i] + 2];
  }
  return { ...ch, chunkLocal };
}

/**
 * Reorders idx[a..b) so that idx[m] holds the element of its rank by the key
 * (X[3 idx + ax], idx) and no element before it has a larger key nor after it
 * a smaller one (quickselect, Hoare partition, median-of-three pivot).
 */
function selectRank(idx: Uint32Array, X: Float64Array, ax: number, a: number, b: number, m: number): void {
  // the order "p before q" is X[3p + ax] < X[3q + ax], or equal keys and p < q; the keys are read
  // once per element visited (the same comparisons, hence the same swaps, as comparing through a
  // function of two indices)
  let lo = a, hi = b - 1;
  while (hi > lo) {
    // median of three as the pivot
    const mid = (lo + hi) >> 1;
    let p0 = idx[lo], p1 = idx[mid];
    const p2 = idx[hi];
    let k0 = X[3 * p0 + ax], k1 = X[3 * p1 + ax];
    const k2 = X[3 * p2 + ax];
    if (k1 < k0 || (k1 === k0 && p1 < p0)) {
      const t = p0, tk = k0;
      p0 = p1;
      k0 = k1;
      p1 = t;
      k1 = tk;
    }
    if (k2 < k1 || (k2 === k1 && p2 < p1)) {
      p1 = p2;
      k1 = k2;
      if (k1 < k0 || (k1 === k0 && p1 < p0)) {
        p1 = p0;
        k1 = k0;
      }
    }
    const pivot = p1, pk = k1;
    let i = lo, j = hi;
    while (i <= j) {
      for (;;) {
        const v = idx[i], kv = X[3 * v + ax];
        if (kv < pk || (kv === pk && v < pivot)) i++;
        else break;
      }
      for (;;) {
        const v = idx[j], kv = X[3 * v + ax];
        if (pk < kv || (pk === kv && pivot < v)) j--;
        else break;
      }
      if (i <= j) {
        const t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        i++;
        j--;
      }
    }
    if (m <= j) hi = j;
    else if (m >= i) lo = i;
    else return;
  }
}

/**
 * Bound on how far a vertex height of dynamic collider C computed as
 * y0 + r1 · v (the rotation matrix's second row) can differ from the
 * quaternion rotation's y0 + v_y + q_w t_y + q_z t_x − q_x t_z (the same
 * polynomial in q and v, rounded differently: a few ulps of |y0|, |g| and
 * the body's radius), compared against the ground height g; far above it, so
 * a vertex this bound rules out is ruled out by the exact height too.
 */
export function heightTolerance(C: Collider, y0: number, g: number): number {
  return 1e-9 * (Math.abs(y0) + Math.abs(g) + C.radius + 1e-3);
}

/**
 * Lower bound of the height of chunk k (spheres S from vertexChunks: world y
 * of any of its vertices) for the pose at P[s..s+7) (position, unit quaternion).
 */
export function chunkLowY(S: Float64Array, k: number, P: Float64Array, s: number): number {
  const qx = P[s + 3], qy = P[s + 4], qz = P[s + 5], qw = P[s + 6];
  const o = 4 * k;
  // second row of the rotation matrix
  const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
  return P[s + 1] + r10 * S[o] + r11 * S[o + 1] + r12 * S[o + 2] - S[o + 3];
}

/**
 * Marks in `pass` (one flag per chunk) the chunks of dynamic collider C that
 * may have a vertex below `limitY` for the pose at P[s..]; returns how many.
 */
export function lowChunks(C: Collider, P: Float64Array, s: number, limitY: number, pass: Uint8Array): number {
  const nc = C.chunkStart.length - 1, S = C.chunkSphere;
  // chunkLowY's numbers, its rotation row taken once
  const qx = P[s + 3], qy = P[s + 4], qz = P[s + 5], qw = P[s + 6], py = P[s + 1];
  const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
  let n = 0;
  for (let k = 0, o = 0; k < nc; k++, o += 4) {
    const low = py + r10 * S[o] + r11 * S[o + 1] + r12 * S[o + 2] - S[o + 3] < limitY;
    pass[k] = low ? 1 : 0;
    if (low) n++;
  }
  return n;
}

/** lowChunks for two limits at once (one bound per chunk): flags into passA and passB; returns the count for limitA. */
export function lowChunks2(C: Collider, P: Float64Array, s: number, limitA: number, passA: Uint8Array, limitB: number, passB: Uint8Array): number {
  const nc = C.chunkStart.length - 1, S = C.chunkSphere;
  const qx = P[s + 3], qy = P[s + 4], qz = P[s + 5], qw = P[s + 6], py = P[s + 1];
  const r10 = 2 * (qx * qy + qz * qw), r11 = 1 - 2 * (qx * qx + qz * qz), r12 = 2 * (qy * qz - qx * qw);
  let n = 0;
  for (let k = 0, o = 0; k < nc; k++, o += 4) {
    const y = py + r10 * S[o] + r11 * S[o + 1] + r12 * S[o + 2] - S[o + 3];
    const low = y < limitA;
    passA[k] = low ? 1 : 0;
    passB[k] = y < limitB ? 1 : 0;
    if (low) n++;
  }
  return n;
}
