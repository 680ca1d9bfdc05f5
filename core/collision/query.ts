/**
 * Queries over `TriangleBVH`: pairs of overlapping leaves of two trees,
 * point-inside-closed-mesh by exact ray parity, and closest point on a mesh.
 */
import { NODE_BYTES, TriangleBVH } from './bvh';
import { orient3d } from './predicates';

const W = NODE_BYTES / 4;
let _pairStack = new Int32Array(2 * 256);

/**
 * Calls `visit(triA, triB)` for every pair of triangles whose leaf boxes
 * overlap (a superset of the intersecting pairs; the caller runs the exact
 * test). `visit` returns true to stop early. Both trees are in one frame.
 */
export function forEachLeafPair(a: TriangleBVH, b: TriangleBVH, visit: (triA: number, triB: number) => boolean | void): boolean {
  const oa = a.order, ob = b.order, ua = a.u32, ub = b.u32;
  return forEachLeafNodePair(a, b, (na, nb) => {
    const pa = na * W, pb = nb * W;
    const sa = ua[pa + 6], ca = ua[pa + 7] & 0x7fffffff, sb = ub[pb + 6], cb = ub[pb + 7] & 0x7fffffff;
    for (let i = sa; i < sa + ca; i++) {
      for (let j = sb; j < sb + cb; j++) {
        if (visit(oa[i], ob[j]) === true) return true;
      }
    }
    return false;
  });
}

/**
 * Calls `visit(leafA, leafB)` (node indices) for every pair of leaves whose
 * boxes overlap; `visit` returns true to stop early. For callers that filter
 * a leaf's triangles against the other leaf's box before pairing them.
 */
export function forEachLeafNodePair(a: TriangleBVH, b: TriangleBVH, visit: (leafA: number, leafB: number) => boolean | void): boolean {
  if (a.triangleCount === 0 || b.triangleCount === 0) return false;
  const fa = a.f32, fb = b.f32, ua = a.u32, ub = b.u32;
  if (!boxesMeet(fa, 0, fb, 0)) return false;
  let st = _pairStack;
  let sp = 0;
  st[sp++] = 0; st[sp++] = 0;
  // pairs on the stack have overlapping boxes (children are tested before they are pushed)
  while (sp > 0) {
    const nb = st[--sp], na = st[--sp];
    const pa = na * W, pb = nb * W;
    const leafA = (ua[pa + 7] & 0x80000000) !== 0, leafB = (ub[pb + 7] & 0x80000000) !== 0;
    if (leafA && leafB) {
      if (visit(na, nb) === true) return true;
      continue;
    }
    if (sp + 4 > st.length) {
      const ns = new Int32Array(st.length * 2);
      ns.set(st);
      st = _pairStack = ns;
    }
    if (!leafA && a.chunkOf !== null && a.chunkOf[na] >= 0) a.ensureChunk(a.chunkOf[na]);
    if (!leafB && b.chunkOf !== null && b.chunkOf[nb] >= 0) b.ensureChunk(b.chunkOf[nb]);
    if (!leafA && !leafB) {
      // descend both: the child pairs whose boxes meet
      if (sp + 8 > st.length) {
        const ns = new Int32Array(st.length * 2);
        ns.set(st);
        st = _pairStack = ns;
      }
      const la = na + 1, ra = ua[pa + 6], lb = nb + 1, rb = ub[pb + 6];
      const law = la * W, raw = ra * W, lbw = lb * W, rbw = rb * W;
      // each child pair written to the stack and kept (sp advanced) when its
      // boxes meet: no branch on the box tests (which mispredict); the same
      // pairs in the same order. A's right child's box read once for its two tests.
      const x0 = fa[raw], y0 = fa[raw + 1], z0 = fa[raw + 2], x1 = fa[raw + 3], y1 = fa[raw + 4], z1 = fa[raw + 5];
      st[sp] = ra; st[sp + 1] = rb;
      sp += 2 - 2 * (+(x0 > fb[rbw + 3]) | +(fb[rbw] > x1) | +(y0 > fb[rbw + 4]) | +(fb[rbw + 1] > y1) | +(z0 > fb[rbw + 5]) | +(fb[rbw + 2] > z1));
      st[sp] = ra; st[sp + 1] = lb;
      sp += 2 - 2 * (+(x0 > fb[lbw + 3]) | +(fb[lbw] > x1) | +(y0 > fb[lbw + 4]) | +(fb[lbw + 1] > y1) | +(z0 > fb[lbw + 5]) | +(fb[lbw + 2] > z1));
      const u0 = fa[law], v0 = fa[law + 1], w0 = fa[law + 2], u1 = fa[law + 3], v1 = fa[law + 4], w1 = fa[law + 5];
      st[sp] = la; st[sp + 1] = rb;
      sp += 2 - 2 * (+(u0 > fb[rbw + 3]) | +(fb[rbw] > u1) | +(v0 > fb[rbw + 4]) | +(fb[rbw + 1] > v1) | +(w0 > fb[rbw + 5]) | +(fb[rbw + 2] > w1));
      st[sp] = la; st[sp + 1] = lb;
      sp += 2 - 2 * (+(u0 > fb[lbw + 3]) | +(fb[lbw] > u1) | +(v0 > fb[lbw + 4]) | +(fb[lbw + 1] > v1) | +(w0 > fb[lbw + 5]) | +(fb[lbw + 2] > w1));
      continue;
    }
    if (!leafA) {
      // B's box read once for the two children of A (pairs kept as above)
      const l = na + 1, r = ua[pa + 6], lw = l * W, rw = r * W;
      const x0 = fb[pb], y0 = fb[pb + 1], z0 = fb[pb + 2], x1 = fb[pb + 3], y1 = fb[pb + 4], z1 = fb[pb + 5];
      st[sp] = r; st[sp + 1] = nb;
      sp += 2 - 2 * (+(fa[rw] > x1) | +(x0 > fa[rw + 3]) | +(fa[rw + 1] > y1) | +(y0 > fa[rw + 4]) | +(fa[rw + 2] > z1) | +(z0 > fa[rw + 5]));
      st[sp] = l; st[sp + 1] = nb;
      sp += 2 - 2 * (+(fa[lw] > x1) | +(x0 > fa[lw + 3]) | +(fa[lw + 1] > y1) | +(y0 > fa[lw + 4]) | +(fa[lw + 2] > z1) | +(z0 > fa[lw + 5]));
    } else {
      const l = nb + 1, r = ub[pb + 6], lw = l * W, rw = r * W;
      const x0 = fa[pa], y0 = fa[pa + 1], z0 = fa[pa + 2], x1 = fa[pa + 3], y1 = fa[pa + 4], z1 = fa[pa + 5];
      st[sp] = na; st[sp + 1] = r;
      sp += 2 - 2 * (+(x0 > fb[rw + 3]) | +(fb[rw] > x1) | +(y0 > fb[rw + 4]) | +(fb[rw + 1] > y1) | +(z0 > fb[rw + 5]) | +(fb[rw + 2] > z1));
      st[sp] = na; st[sp + 1] = l;
      sp += 2 - 2 * (+(x0 > fb[lw + 3]) | +(fb[lw] > x1) | +(y0 > fb[lw + 4]) | +(fb[lw + 1] > y1) | +(z0 > fb[lw + 5]) | +(fb[lw + 2] > z1));
    }
  }
  return false;
}

/**
 * `forEachLeafNodePair` over two trees refit over the same two samples
 * (`positions` at t = 1, `positionsEnd` at t = 0) that keep their sample
 * boxes (`TriangleBVH.sampleBoxes`; else it is forEachLeafNodePair): a node
 * pair whose boxes meet is skipped also when its two nodes cannot come
 * within `reach` of each other at any time of the step. Moving linearly, a
 * node's points at time t lie in the box interpolated between its boxes at
 * the two samples ((1 − t)·B₀ + t·B₁ per bound), so on each axis the gap
 * between the two nodes' intervals is linear in t; a contact within the
 * reach needs every axis's gap ≤ reach at one t (`sampleWindowMeets`). The
 * pairs kept are visited in the same order as by forEachLeafNodePair, and a
 * pair skipped has no two points within the reach at any t, at t = 1 (its
 * boxes at the sample are apart) included.
 */
export function forEachLeafNodePairSwept(a: TriangleBVH, b: TriangleBVH, reach: number, visit: (leafA: number, leafB: number) => boolean | void): boolean {
  if (a.triangleCount === 0 || b.triangleCount === 0) return false;
  const SA = a.sampleBoxes, SB = b.sampleBoxes;
  if (SA === null || SB === null) return forEachLeafNodePair(a, b, visit);
  const fa = a.f32, fb = b.f32, ua = a.u32, ub = b.u32;
  if (!boxesMeet(fa, 0, fb, 0) || !sampleWindowMeets(SA, 0, SB, 0, reach)) return false;
  let st = _pairStack;
  let sp = 0;
  st[sp++] = 0; st[sp++] = 0;
  while (sp > 0) {
    const nb = st[--sp], na = st[--sp];
    const pa = na * W, pb = nb * W;
    const leafA = (ua[pa + 7] & 0x80000000) !== 0, leafB = (ub[pb + 7] & 0x80000000) !== 0;
    if (leafA && leafB) {
      if (visit(na, nb) === true) return true;
      continue;
    }
    if (sp + 8 > st.length) {
      const ns = new Int32Array(st.length * 2);
      ns.set(st);
      st = _pairStack = ns;
    }
    if (!leafA && a.chunkOf !== null && a.chunkOf[na] >= 0) a.ensureChunk(a.chunkOf[na]);
    if (!leafB && b.chunkOf !== null && b.chunkOf[nb] >= 0) b.ensureChunk(b.chunkOf[nb]);
    if (!leafA && !leafB) {
      const la = na + 1, ra = ua[pa + 6], lb = nb + 1, rb = ub[pb + 6];
      if (boxesMeet(fa, ra * W, fb, rb * W) && sampleWindowMeets(SA, ra * 12, SB, rb * 12, reach)) { st[sp++] = ra; st[sp++] = rb; }
      if (boxesMeet(fa, ra * W, fb, lb * W) && sampleWindowMeets(SA, ra * 12, SB, lb * 12, reach)) { st[sp++] = ra; st[sp++] = lb; }
      if (boxesMeet(fa, la * W, fb, rb * W) && sampleWindowMeets(SA, la * 12, SB, rb * 12, reach)) { st[sp++] = la; st[sp++] = rb; }
      if (boxesMeet(fa, la * W, fb, lb * W) && sampleWindowMeets(SA, la * 12, SB, lb * 12, reach)) { st[sp++] = la; st[sp++] = lb; }
      continue;
    }
    if (!leafA) {
      const l = na + 1, r = ua[pa + 6];
      if (boxesMeet(fa, r * W, fb, pb) && sampleWindowMeets(SA, r * 12, SB, nb * 12, reach)) { st[sp++] = r; st[sp++] = nb; }
      if (boxesMeet(fa, l * W, fb, pb) && sampleWindowMeets(SA, l * 12, SB, nb * 12, reach)) { st[sp++] = l; st[sp++] = nb; }
    } else {
      const l = nb + 1, r = ub[pb + 6];
      if (boxesMeet(fa, pa, fb, r * W) && sampleWindowMeets(SA, na * 12, SB, r * 12, reach)) { st[sp++] = na; st[sp++] = r; }
      if (boxesMeet(fa, pa, fb, l * W) && sampleWindowMeets(SA, na * 12, SB, l * 12, reach)) { st[sp++] = na; st[sp++] = l; }
    }
  }
  return false;
}

/** Pad of the window's ends (time), far above the rounding of the gaps' quotients. */
const WINDOW_PAD = 1e-9;

/**
 * Whether two nodes with sample boxes (SA[a..a+11], SB[b..b+11]: the box at
 * t = 1, then at t = 0) can come within `reach` on every axis at one time t
 * in [0, 1]: per axis and side, the gap (1 − t)·g₀ + t·g₁ ≤ reach holds on an
 * interval of t; the six intervals (padded by WINDOW_PAD) must meet.
 */
export function sampleWindowMeets(SA: Float32Array, a: number, SB: Float32Array, b: number, reach: number): boolean {
  let lo = 0, hi = 1;
  for (let k = 0; k < 3; k++) {
    // B above A: B's lower bound less A's upper bound, at t = 0 and t = 1
    let g0 = SB[b + 6 + k] - SA[a + 9 + k] - reach, g1 = SB[b + k] - SA[a + 3 + k] - reach;
    if (g0 > 0) {
      if (g1 > 0) return false;
      const t = g0 / (g0 - g1) - WINDOW_PAD;
      if (t > lo) lo = t;
    } else if (g1 > 0) {
      const t = g0 / (g0 - g1) + WINDOW_PAD;
      if (t < hi) hi = t;
    }
    // A above B
    g0 = SA[a + 6 + k] - SB[b + 9 + k] - reach; g1 = SA[a + k] - SB[b + 3 + k] - reach;
    if (g0 > 0) {
      if (g1 > 0) return false;
      const t = g0 / (g0 - g1) - WINDOW_PAD;
      if (t > lo) lo = t;
    } else if (g1 > 0) {
      const t = g0 / (g0 - g1) + WINDOW_PAD;
      if (t < hi) hi = t;
    }
  }
  return lo <= hi;
}

function boxesMeet(fa: Float32Array, pa: number, fb: Float32Array, pb: number): boolean {
  return !(fa[pa] > fb[pb + 3] || fb[pb] > fa[pa + 3] || fa[pa + 1] > fb[pb + 4] || fb[pb + 1] > fa[pa + 4] ||
    fa[pa + 2] > fb[pb + 5] || fb[pb + 2] > fa[pa + 5]);
}

/** Whether the root boxes of two trees overlap. */
export function rootsOverlap(a: TriangleBVH, b: TriangleBVH): boolean {
  const fa = a.f32, fb = b.f32;
  return !(fa[0] > fb[3] || fb[0] > fa[3] || fa[1] > fb[4] || fb[1] > fa[4] || fa[2] > fb[5] || fb[2] > fa[5]);
}

// Ray directions with no special relation to axes or each other; a ray that
// grazes an edge or vertex (an exact zero) is recast along the next one.
const DIRS = [
  0.5773502691896258, 0.5773502691896257, 0.5773502691896259,
  -0.3212521321, 0.8312312312, -0.4538989212,
  0.7071230123, -0.3101231233, 0.6353321987,
  -0.8123123123, -0.4123123, 0.4123123123,
  0.1234567891, 0.9876543219, 0.0987654321,
  0.6012312311, 0.2112312311, -0.7712312311,
];

const _seg = new Float64Array(6);
let _nodeStack = new Int32Array(256);
let _nodeDist = new Float64Array(256);

/**
 * Exact ray-parity inside test of `point` (3 numbers at po) against the closed
 * mesh covered by `bvh` at `positions`. Returns 1 inside, 0 outside, 2 on the
 * surface. Crossings are decided with exact orientation predicates; a ray
 * through an edge or a vertex is recast in another direction.
 */
export function pointInMesh(bvh: TriangleBVH, positions: ArrayLike<number>, point: ArrayLike<number>, po = 0): number {
  if (bvh.triangleCount === 0) return 0;
  const f = bvh.f32;
  const px = point[po], py = point[po + 1], pz = point[po + 2];
  if (px < f[0] || px > f[3] || py < f[1] || py > f[4] || pz < f[2] || pz > f[5]) return 0;
  // Far end beyond the root box.
  const ext = Math.max(f[3] - f[0], f[4] - f[1], f[5] - f[2]) * 4 + 1;
  for (let d = 0; d < DIRS.length / 3; d++) {
    _seg[0] = px; _seg[1] = py; _seg[2] = pz;
    _seg[3] = px + DIRS[d * 3] * ext; _seg[4] = py + DIRS[d * 3 + 1] * ext; _seg[5] = pz + DIRS[d * 3 + 2] * ext;
    const r = rayParity(bvh, positions);
    if (r >= 0) return r;
  }
  // Every direction was degenerate: the point is on an edge shared by many
  // rays, practically on the surface.
  return 2;
}

let _shellCounts = new Int32Array(8);

/**
 * Inside test against a closed surface split over several BVHs (the body parts
 * of one character), each triangle belonging to shell `triShell[tri]` (one
 * shell per source mesh; null: all shell 0). Parity is counted per shell;
 * the point is inside when it is inside any shell whose `shellClosed` entry is
 * true. Returns 1 inside, 0 outside, 2 on the surface.
 */
export function pointInParts(
  bvhs: readonly TriangleBVH[], positions: ArrayLike<number>, triShell: Int32Array | null, shellClosed: readonly boolean[],
  point: ArrayLike<number>, po = 0,
): number {
  const px = point[po], py = point[po + 1], pz = point[po + 2];
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (const b of bvhs) {
    if (b.triangleCount === 0) continue;
    const f = b.f32;
    if (f[0] < lx) lx = f[0]; if (f[1] < ly) ly = f[1]; if (f[2] < lz) lz = f[2];
    if (f[3] > hx) hx = f[3]; if (f[4] > hy) hy = f[4]; if (f[5] > hz) hz = f[5];
  }
  if (!(px >= lx && px <= hx && py >= ly && py <= hy && pz >= lz && pz <= hz)) return 0;
  if (_shellCounts.length < shellClosed.length) _shellCounts = new Int32Array(shellClosed.length);
  const ext = Math.max(hx - lx, hy - ly, hz - lz) * 4 + 1;
  for (let d = 0; d < DIRS.length / 3; d++) {
    _seg[0] = px; _seg[1] = py; _seg[2] = pz;
    _seg[3] = px + DIRS[d * 3] * ext; _seg[4] = py + DIRS[d * 3 + 1] * ext; _seg[5] = pz + DIRS[d * 3 + 2] * ext;
    _shellCounts.fill(0);
    let r = 0;
    for (const b of bvhs) {
      r = rayCrossings(b, positions, triShell, _shellCounts);
      if (r !== 0) break;
    }
    if (r === 2) return 2;
    if (r === -1) continue;
    for (let s = 0; s < shellClosed.length; s++) if (shellClosed[s] && (_shellCounts[s] & 1) === 1) return 1;
    return 0;
  }
  return 2;
}

/**
 * `pointInParts` for parts whose trees are refit on demand: `boxes` holds a
 * box per tree (6 numbers: min xyz, max xyz) known to contain all its
 * triangles before any refit (e.g. a body part's box from its joints);
 * `ensure(i)` makes tree i current. A tree is made current and searched only
 * when the ray meets its box, so parts the ray passes by are never skinned.
 * The ray's far end lies beyond the union of those boxes (not of the refit
 * trees' roots); for closed shells the parity, and so the answer, does not
 * depend on where beyond the surface the ray ends. With `parityOut`, when
 * the answer is 0 or 1, parityOut[0] gets the closed shells the point is
 * inside of (odd parity) as bits, shell s as bit s (for s < 31).
 */
export function pointInPartsLazy(
  bvhs: readonly TriangleBVH[], boxes: Float64Array, boxOffsets: ArrayLike<number>, ensure: (i: number) => void,
  positions: ArrayLike<number>, triShell: Int32Array | null, shellClosed: readonly boolean[], point: ArrayLike<number>, po = 0,
  parityOut: Int32Array | null = null,
): number {
  const px = point[po], py = point[po + 1], pz = point[po + 2];
  if (parityOut !== null) parityOut[0] = 0;
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let i = 0; i < bvhs.length; i++) {
    if (bvhs[i].triangleCount === 0) continue;
    const o = boxOffsets[i];
    if (boxes[o] < lx) lx = boxes[o]; if (boxes[o + 1] < ly) ly = boxes[o + 1]; if (boxes[o + 2] < lz) lz = boxes[o + 2];
    if (boxes[o + 3] > hx) hx = boxes[o + 3]; if (boxes[o + 4] > hy) hy = boxes[o + 4]; if (boxes[o + 5] > hz) hz = boxes[o + 5];
  }
  if (!(px >= lx && px <= hx && py >= ly && py <= hy && pz >= lz && pz <= hz)) return 0;
  if (_shellCounts.length < shellClosed.length) _shellCounts = new Int32Array(shellClosed.length);
  const ext = Math.max(hx - lx, hy - ly, hz - lz) * 4 + 1;
  // a box is passed by when the segment misses it widened by this much (far above rounding)
  const pad = 1e-7 * ext;
  // first the ray (of the directions and their opposites) that leaves the
  // union of the boxes soonest, ending just beyond it (it meets the fewest
  // parts: the parity of a closed shell is the same along any ray); then, if
  // it is degenerate, the usual directions
  let short = -1, shortLen = Infinity;
  for (let d = 0; d < (2 * DIRS.length) / 3; d++) {
    const s = d < DIRS.length / 3 ? 1 : -1, k = (d % (DIRS.length / 3)) * 3;
    const dx = s * DIRS[k], dy = s * DIRS[k + 1], dz = s * DIRS[k + 2];
    const ex = (dx > 0 ? hx - px : px - lx) / Math.abs(dx), ey = (dy > 0 ? hy - py : py - ly) / Math.abs(dy), ez = (dz > 0 ? hz - pz : pz - lz) / Math.abs(dz);
    const e = ex < ey ? (ex < ez ? ex : ez) : ey < ez ? ey : ez;
    if (e < shortLen) { shortLen = e; short = d; }
  }
  for (let d = -1; d < DIRS.length / 3; d++) {
    _seg[0] = px; _seg[1] = py; _seg[2] = pz;
    if (d < 0) {
      const s = short < DIRS.length / 3 ? 1 : -1, k = (short % (DIRS.length / 3)) * 3;
      // beyond the exit by a margin far above rounding (the boxes are padded too)
      const len = shortLen * 1.01 + 1e-3 * ext;
      _seg[3] = px + s * DIRS[k] * len; _seg[4] = py + s * DIRS[k + 1] * len; _seg[5] = pz + s * DIRS[k + 2] * len;
    } else {
      _seg[3] = px + DIRS[d * 3] * ext; _seg[4] = py + DIRS[d * 3 + 1] * ext; _seg[5] = pz + DIRS[d * 3 + 2] * ext;
    }
    const ix = 1 / (_seg[3] - px), iy = 1 / (_seg[4] - py), iz = 1 / (_seg[5] - pz);
    _shellCounts.fill(0);
    let r = 0;
    for (let i = 0; i < bvhs.length; i++) {
      if (bvhs[i].triangleCount === 0) continue;
      const o = boxOffsets[i];
      let t0 = 0, t1 = 1;
      let a = (boxes[o] - pad - px) * ix, b = (boxes[o + 3] + pad - px) * ix;
      if (a > b) { const t = a; a = b; b = t; }
      if (a > t0) t0 = a; if (b < t1) t1 = b;
      a = (boxes[o + 1] - pad - py) * iy; b = (boxes[o + 4] + pad - py) * iy;
      if (a > b) { const t = a; a = b; b = t; }
      if (a > t0) t0 = a; if (b < t1) t1 = b;
      a = (boxes[o + 2] - pad - pz) * iz; b = (boxes[o + 5] + pad - pz) * iz;
      if (a > b) { const t = a; a = b; b = t; }
      if (a > t0) t0 = a; if (b < t1) t1 = b;
      if (t0 > t1) continue;
      ensure(i);
      r = rayCrossings(bvhs[i], positions, triShell, _shellCounts);
      if (r !== 0) break;
    }
    if (r === 2) return 2;
    if (r === -1) continue;
    if (parityOut !== null) {
      // the closed shells of odd parity, as bits (shell s: bit s, s < 31)
      let m = 0;
      for (let s = 0; s < shellClosed.length && s < 31; s++) if (shellClosed[s] && (_shellCounts[s] & 1) === 1) m |= 1 << s;
      parityOut[0] = m;
    }
    for (let s = 0; s < shellClosed.length; s++) if (shellClosed[s] && (_shellCounts[s] & 1) === 1) return 1;
    return 0;
  }
  return 2;
}

const _one = new Int32Array(1);

/** Parity along _seg: 1 odd, 0 even, 2 point on the surface, -1 degenerate ray. */
function rayParity(bvh: TriangleBVH, positions: ArrayLike<number>): number {
  _one[0] = 0;
  const r = rayCrossings(bvh, positions, null, _one);
  return r !== 0 ? r : _one[0] & 1;
}

/** Counts crossings of _seg per shell into `counts`; returns 0, or 2 (point on the surface), or -1 (degenerate ray). */
function rayCrossings(bvh: TriangleBVH, positions: ArrayLike<number>, triShell: Int32Array | null, counts: Int32Array): number {
  if (bvh.triangleCount === 0) return 0;
  const f = bvh.f32, u = bvh.u32, order = bvh.order, idx = bvh.indices;
  const ox = _seg[0], oy = _seg[1], oz = _seg[2];
  const dx = _seg[3] - ox, dy = _seg[4] - oy, dz = _seg[5] - oz;
  const ix = 1 / dx, iy = 1 / dy, iz = 1 / dz;
  let st = _nodeStack;
  let sp = 0;
  st[sp++] = 0;
  while (sp > 0) {
    const node = st[--sp];
    const o = node * W;
    // slab test over the segment parameter [0, 1], padded
    let t0 = 0, t1 = 1;
    let a = (f[o] - ox) * ix, b = (f[o + 3] - ox) * ix;
    if (a > b) { const t = a; a = b; b = t; }
    if (a > t0) t0 = a; if (b < t1) t1 = b;
    a = (f[o + 1] - oy) * iy; b = (f[o + 4] - oy) * iy;
    if (a > b) { const t = a; a = b; b = t; }
    if (a > t0) t0 = a; if (b < t1) t1 = b;
    a = (f[o + 2] - oz) * iz; b = (f[o + 5] - oz) * iz;
    if (a > b) { const t = a; a = b; b = t; }
    if (a > t0) t0 = a; if (b < t1) t1 = b;
    if (t0 > t1 + 1e-9) continue;
    if (u[o + 7] & 0x80000000) {
      const s = u[o + 6], c = u[o + 7] & 0x7fffffff;
      for (let i = s; i < s + c; i++) {
        const t = order[i] * 3;
        const A = idx[t] * 3, B = idx[t + 1] * 3, C = idx[t + 2] * 3;
        const s0 = orient3d(positions, A, positions, B, positions, C, _seg, 0);
        const s1 = orient3d(positions, A, positions, B, positions, C, _seg, 3);
        if (s0 === 0) {
          // the point lies in the triangle's plane: on the surface if inside it
          if (pointInTriangle3(positions, A, B, C)) return 2;
          if (s1 === 0) return -1;
          continue;
        }
        if (s1 === 0) return -1;
        if (s0 === s1) continue;
        const o1 = orient3d(_seg, 0, _seg, 3, positions, A, positions, B);
        const o2 = orient3d(_seg, 0, _seg, 3, positions, B, positions, C);
        const o3 = orient3d(_seg, 0, _seg, 3, positions, C, positions, A);
        if (o1 === 0 || o2 === 0 || o3 === 0) {
          if ((o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)) return -1; // through an edge or vertex
          continue;
        }
        if ((o1 > 0) === (o2 > 0) && (o2 > 0) === (o3 > 0)) counts[triShell === null ? 0 : triShell[order[i]]]++;
      }
      continue;
    }
    if (sp + 2 > st.length) {
      const ns = new Int32Array(st.length * 2);
      ns.set(st);
      st = _nodeStack = ns;
    }
    // lazy refit: the chunk under this node gets its boxes before they are read
    if (bvh.chunkOf !== null && bvh.chunkOf[node] >= 0) bvh.ensureChunk(bvh.chunkOf[node]);
    st[sp++] = node + 1;
    st[sp++] = u[o + 6];
  }
  return 0;
}

/** The point _seg[0..2], known to lie in the plane of ABC: inside the closed triangle? */
function pointInTriangle3(P: ArrayLike<number>, A: number, B: number, C: number): boolean {
  // Use the normal to build a point off the plane, then the line orientations.
  const ux = P[B] - P[A], uy = P[B + 1] - P[A + 1], uz = P[B + 2] - P[A + 2];
  const vx = P[C] - P[A], vy = P[C + 1] - P[A + 1], vz = P[C + 2] - P[A + 2];
  _off[0] = _seg[0] + (uy * vz - uz * vy);
  _off[1] = _seg[1] + (uz * vx - ux * vz);
  _off[2] = _seg[2] + (ux * vy - uy * vx);
  _off[3] = _seg[0]; _off[4] = _seg[1]; _off[5] = _seg[2];
  const o1 = orient3d(_off, 3, _off, 0, P, A, P, B);
  const o2 = orient3d(_off, 3, _off, 0, P, B, P, C);
  const o3 = orient3d(_off, 3, _off, 0, P, C, P, A);
  return (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0);
}
const _off = new Float64Array(6);

/** Closest point on triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5); writes out[0..2]. */
export function closestPointOnTriangle(
  px: number, py: number, pz: number, P: ArrayLike<number>, A: number, B: number, C: number, out: Float64Array,
): void {
  const ax = P[A], ay = P[A + 1], az = P[A + 2];
  const abx = P[B] - ax, aby = P[B + 1] - ay, abz = P[B + 2] - az;
  const acx = P[C] - ax, acy = P[C + 1] - ay, acz = P[C + 2] - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) { out[0] = ax; out[1] = ay; out[2] = az; return; }
  const bpx = px - P[B], bpy = py - P[B + 1], bpz = pz - P[B + 2];
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) { out[0] = P[B]; out[1] = P[B + 1]; out[2] = P[B + 2]; return; }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    out[0] = ax + v * abx; out[1] = ay + v * aby; out[2] = az + v * abz; return;
  }
  const cpx = px - P[C], cpy = py - P[C + 1], cpz = pz - P[C + 2];
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) { out[0] = P[C]; out[1] = P[C + 1]; out[2] = P[C + 2]; return; }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    out[0] = ax + w * acx; out[1] = ay + w * acy; out[2] = az + w * acz; return;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    out[0] = P[B] + w * (P[C] - P[B]); out[1] = P[B + 1] + w * (P[C + 1] - P[B + 1]); out[2] = P[B + 2] + w * (P[C + 2] - P[B + 2]);
    return;
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, w = vc * denom;
  out[0] = ax + abx * v + acx * w; out[1] = ay + aby * v + acy * w; out[2] = az + abz * v + acz * w;
}

const _cp = new Float64Array(3);

/**
 * Distance from a point to the mesh surface covered by `bvh` (branch and bound
 * over boxes). Writes the closest point into out[0..2] and returns the
 * distance; `outTri[0]` gets the triangle id when given. With `bound`, only
 * triangles nearer than it are searched (out untouched and Infinity returned
 * when there are none): pass the best distance found in other trees. With
 * `stopAt`, the search ends as soon as a triangle within `stopAt` is found (the
 * result is then only an upper bound, at most `stopAt`): for callers that only
 * need to know whether the distance exceeds it.
 */
export function closestPointOnMesh(
  bvh: TriangleBVH, positions: ArrayLike<number>, px: number, py: number, pz: number, out: Float64Array, outTri?: Int32Array, bound = Infinity, stopAt = -1,
): number {
  const stop2 = stopAt < 0 ? -1 : stopAt * stopAt;
  const f = bvh.f32, u = bvh.u32, order = bvh.order, idx = bvh.indices;
  let best = bound === Infinity ? Infinity : bound * bound;
  const start = best;
  if (bvh.triangleCount === 0) return Infinity;
  let st = _nodeStack, sd = _nodeDist;
  let sp = 0;
  // each stacked node carries its box distance (computed when pushed)
  st[sp] = 0; sd[sp++] = boxDistSq(f, 0, px, py, pz);
  while (sp > 0) {
    const node = st[--sp];
    if (sd[sp] >= best) continue;
    const o = node * W;
    if (u[o + 7] & 0x80000000) {
      const s = u[o + 6], c = u[o + 7] & 0x7fffffff;
      for (let i = s; i < s + c; i++) {
        const t = order[i] * 3;
        closestPointOnTriangle(px, py, pz, positions, idx[t] * 3, idx[t + 1] * 3, idx[t + 2] * 3, _cp);
        const ex = _cp[0] - px, ey = _cp[1] - py, ez = _cp[2] - pz;
        const d = ex * ex + ey * ey + ez * ez;
        if (d < best) {
          best = d;
          out[0] = _cp[0]; out[1] = _cp[1]; out[2] = _cp[2];
          if (outTri) outTri[0] = order[i];
          if (d <= stop2) return Math.sqrt(d);
        }
      }
      continue;
    }
    if (sp + 2 > st.length) {
      const ns = new Int32Array(st.length * 2);
      ns.set(st);
      st = _nodeStack = ns;
    }
    if (sp + 2 > sd.length) {
      const nd = new Float64Array(sd.length * 2);
      nd.set(sd);
      sd = _nodeDist = nd;
    }
    // nearer child last (popped first)
    if (bvh.chunkOf !== null && bvh.chunkOf[node] >= 0) bvh.ensureChunk(bvh.chunkOf[node]);
    const l = node + 1, r = u[o + 6];
    const dl = boxDistSq(f, l * W, px, py, pz), dr = boxDistSq(f, r * W, px, py, pz);
    if (dl < dr) {
      if (dr < best) { st[sp] = r; sd[sp++] = dr; }
      if (dl < best) { st[sp] = l; sd[sp++] = dl; }
    } else {
      if (dl < best) { st[sp] = l; sd[sp++] = dl; }
      if (dr < best) { st[sp] = r; sd[sp++] = dr; }
    }
  }
  return best === start && bound !== Infinity ? Infinity : Math.sqrt(best);
}

function boxDistSq(f: Float32Array, o: number, px: number, py: number, pz: number): number {
  // min ≤ max: at most one side of each axis is positive (same values as max(lo − p, 0, p − hi))
  let dx = f[o] - px, dy = f[o + 1] - py, dz = f[o + 2] - pz;
  if (dx < 0) { dx = px - f[o + 3]; if (dx < 0) dx = 0; }
  if (dy < 0) { dy = py - f[o + 4]; if (dy < 0) dy = 0; }
  if (dz < 0) { dz = pz - f[o + 5]; if (dz < 0) dz = 0; }
  return dx * dx + dy * dy + dz * dz;
}

let _boxStack = new Int32Array(256);

/**
 * Writes into `out` (from 0) every vertex of the triangles under `bvh` that
 * lies in the closed box `box` (min xyz, max xyz) at `positions`, each once:
 * `stamp[v]` is set to `stampValue` for visited vertices. Returns the count;
 * `out` must hold every vertex of the tree.
 */
export function verticesInBox(
  bvh: TriangleBVH, positions: ArrayLike<number>, box: ArrayLike<number>, stamp: Uint32Array, stampValue: number, out: Int32Array,
): number {
  if (bvh.triangleCount === 0) return 0;
  const f = bvh.f32, u = bvh.u32, order = bvh.order, idx = bvh.indices;
  const lx = box[0], ly = box[1], lz = box[2], hx = box[3], hy = box[4], hz = box[5];
  let n = 0;
  let st = _boxStack;
  let sp = 0;
  st[sp++] = 0;
  while (sp > 0) {
    const node = st[--sp];
    const o = node * W;
    if (f[o] > hx || f[o + 3] < lx || f[o + 1] > hy || f[o + 4] < ly || f[o + 2] > hz || f[o + 5] < lz) continue;
    if (u[o + 7] & 0x80000000) {
      const s = u[o + 6], c = u[o + 7] & 0x7fffffff;
      for (let i = s; i < s + c; i++) {
        const t = order[i] * 3;
        for (let j = 0; j < 3; j++) {
          const v = idx[t + j];
          if (stamp[v] === stampValue) continue;
          stamp[v] = stampValue;
          const x = positions[v * 3], y = positions[v * 3 + 1], z = positions[v * 3 + 2];
          if (x >= lx && x <= hx && y >= ly && y <= hy && z >= lz && z <= hz) out[n++] = v;
        }
      }
      continue;
    }
    if (sp + 2 > st.length) {
      const ns = new Int32Array(st.length * 2);
      ns.set(st);
      st = _boxStack = ns;
    }
    // lazy refit: the chunk under this node gets its boxes before they are read
    if (bvh.chunkOf !== null && bvh.chunkOf[node] >= 0) bvh.ensureChunk(bvh.chunkOf[node]);
    st[sp++] = node + 1;
    st[sp++] = u[o + 6];
  }
  return n;
}
