/**
 * Bounding volume hierarchy over triangles, stored flat as three-mesh-bvh does:
 * one ArrayBuffer of 32-byte nodes,
 *
 *   f32[0..5]  min x, y, z, max x, y, z (rounded outward from the doubles)
 *   u32[6]     leaf: first slot in `order`;   inner: index of the right child
 *   u32[7]     leaf: triangle count | LEAF;   inner: split axis
 *
 * in depth-first order (the left child of node i is i + 1), so a reverse sweep
 * over the nodes refits the tree bottom-up without rebuilding it. Triangles are
 * ids into an index buffer shared with the caller (a BVH may cover a subset of
 * a mesh, as a body part does); positions are passed to `refit` each time the
 * mesh deforms. `refitSwept` bounds each triangle over a linear motion between
 * two position sets (the boxes continuous detection needs).
 */

export const NODE_BYTES = 32;
const NODE_WORDS = 8;
const LEAF = 0x80000000;

const _f32 = new Float32Array(1);
const _u32 = new Uint32Array(_f32.buffer);

/** Largest float32 not above x. */
export function f32Down(x: number): number {
  _f32[0] = x;
  if (_f32[0] <= x) return _f32[0];
  const b = _u32[0];
  if (_f32[0] > 0) _u32[0] = b - 1;
  else if (_f32[0] < 0) _u32[0] = b + 1;
  else _u32[0] = 0x80000001; // -smallest subnormal
  return _f32[0];
}

/** Smallest float32 not below x. */
export function f32Up(x: number): number {
  _f32[0] = x;
  if (_f32[0] >= x) return _f32[0];
  const b = _u32[0];
  if (_f32[0] > 0) _u32[0] = b + 1;
  else if (_f32[0] < 0) _u32[0] = b - 1;
  else _u32[0] = 1;
  return _f32[0];
}

export class TriangleBVH {
  readonly buffer: ArrayBuffer;
  readonly f32: Float32Array;
  readonly u32: Uint32Array;
  readonly nodeCount: number;
  /** Triangle ids in leaf order. */
  readonly order: Uint32Array;
  /** Triangle vertex indices (3 per triangle id), shared with the mesh. */
  readonly indices: Uint32Array;

  private constructor(buffer: ArrayBuffer, nodeCount: number, order: Uint32Array, indices: Uint32Array) {
    this.buffer = buffer;
    this.f32 = new Float32Array(buffer);
    this.u32 = new Uint32Array(buffer);
    this.nodeCount = nodeCount;
    this.order = order;
    this.indices = indices;
  }

  get triangleCount(): number {
    return this.order.length;
  }

  /**
   * Builds over `triangles` (ids into `indices`, default all) at `positions`
   * (xyz per vertex), splitting at the centroid median of the longest axis
   * until leaves hold at most `maxLeafSize` triangles.
   */
  static build(positions: ArrayLike<number>, indices: Uint32Array, triangles?: Uint32Array, maxLeafSize = 8): TriangleBVH {
    const n = triangles ? triangles.length : indices.length / 3;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = triangles ? triangles[i] : i;
    const cent = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      const t = order[i] * 3;
      const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
      for (let k = 0; k < 3; k++) cent[i * 3 + k] = positions[a + k] + positions[b + k] + positions[c + k];
    }
    // Every split leaves both halves non-empty, so there are at most 2n − 1 nodes.
    const cap = Math.max(1, 2 * n - 1);
    const buf = new ArrayBuffer(cap * NODE_BYTES);
    const u32 = new Uint32Array(buf);
    let count = 0;
    const buildRange = (start: number, end: number): number => {
      const node = count++;
      const m = end - start;
      if (m <= maxLeafSize) {
        u32[node * NODE_WORDS + 6] = start;
        u32[node * NODE_WORDS + 7] = m | LEAF;
        return node;
      }
      let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
      for (let i = start; i < end; i++) {
        const x = cent[i * 3], y = cent[i * 3 + 1], z = cent[i * 3 + 2];
        if (x < lx) lx = x; if (x > hx) hx = x;
        if (y < ly) ly = y; if (y > hy) hy = y;
        if (z < lz) lz = z; if (z > hz) hz = z;
      }
      const ex = hx - lx, ey = hy - ly, ez = hz - lz;
      const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
      const mid = (start + end) >> 1;
      select(order, cent, start, end - 1, mid, axis);
      buildRange(start, mid); // left child: node + 1
      const right = buildRange(mid, end);
      u32[node * NODE_WORDS + 6] = right;
      u32[node * NODE_WORDS + 7] = axis;
      return node;
    };
    buildRange(0, n);
    const bvh = new TriangleBVH(buf.slice(0, count * NODE_BYTES), count, order, indices);
    bvh.refit(positions);
    return bvh;
  }

  /** Recomputes every box for new vertex positions (same topology). */
  refit(positions: ArrayLike<number>): void {
    this.refitSwept(positions, null);
  }

  /**
   * Recomputes every box to hold each triangle at `positions` and, when
   * `positionsEnd` is given, also at `positionsEnd`: the box of a linear motion
   * between the two.
   */
  refitSwept(positions: ArrayLike<number>, positionsEnd: ArrayLike<number> | null): void {
    const f = this.f32, u = this.u32, order = this.order, idx = this.indices;
    for (let node = this.nodeCount - 1; node >= 0; node--) {
      const o = node * NODE_WORDS;
      const w7 = u[o + 7];
      if (w7 & LEAF) {
        const start = u[o + 6], cnt = w7 & ~LEAF;
        let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
        for (let s = start; s < start + cnt; s++) {
          const t = order[s] * 3;
          for (let j = 0; j < 3; j++) {
            const v = idx[t + j] * 3;
            let x = positions[v], y = positions[v + 1], z = positions[v + 2];
            if (x < lx) lx = x; if (x > hx) hx = x;
            if (y < ly) ly = y; if (y > hy) hy = y;
            if (z < lz) lz = z; if (z > hz) hz = z;
            if (positionsEnd !== null) {
              x = positionsEnd[v]; y = positionsEnd[v + 1]; z = positionsEnd[v + 2];
              if (x < lx) lx = x; if (x > hx) hx = x;
              if (y < ly) ly = y; if (y > hy) hy = y;
              if (z < lz) lz = z; if (z > hz) hz = z;
            }
          }
        }
        f[o] = f32Down(lx); f[o + 1] = f32Down(ly); f[o + 2] = f32Down(lz);
        f[o + 3] = f32Up(hx); f[o + 4] = f32Up(hy); f[o + 5] = f32Up(hz);
      } else {
        const a = (node + 1) * NODE_WORDS, b = u[o + 6] * NODE_WORDS;
        f[o] = f[a] < f[b] ? f[a] : f[b];
        f[o + 1] = f[a + 1] < f[b + 1] ? f[a + 1] : f[b + 1];
        f[o + 2] = f[a + 2] < f[b + 2] ? f[a + 2] : f[b + 2];
        f[o + 3] = f[a + 3] > f[b + 3] ? f[a + 3] : f[b + 3];
        f[o + 4] = f[a + 4] > f[b + 4] ? f[a + 4] : f[b + 4];
        f[o + 5] = f[a + 5] > f[b + 5] ? f[a + 5] : f[b + 5];
      }
    }
  }

  isLeaf(node: number): boolean {
    return (this.u32[node * NODE_WORDS + 7] & LEAF) !== 0;
  }
  leafStart(node: number): number {
    return this.u32[node * NODE_WORDS + 6];
  }
  leafCount(node: number): number {
    return this.u32[node * NODE_WORDS + 7] & ~LEAF;
  }
  rightChild(node: number): number {
    return this.u32[node * NODE_WORDS + 6];
  }

  /** Root box into out[oo..oo+5] (min xyz, max xyz). */
  rootBox(out: Float64Array, oo = 0): void {
    for (let k = 0; k < 6; k++) out[oo + k] = this.f32[k];
  }
}

/** Quickselect slots [lo, hi] of `order` (with centroids `cent` per slot) so slot k holds the median along axis. */
function select(order: Uint32Array, cent: Float64Array, lo: number, hi: number, k: number, axis: number): void {
  while (hi > lo) {
    const pivot = cent[((lo + hi) >> 1) * 3 + axis];
    let i = lo, j = hi;
    while (i <= j) {
      while (cent[i * 3 + axis] < pivot) i++;
      while (cent[j * 3 + axis] > pivot) j--;
      if (i <= j) {
        swapSlots(order, cent, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swapSlots(order: Uint32Array, cent: Float64Array, i: number, j: number): void {
  const t = order[i]; order[i] = order[j]; order[j] = t;
  for (let k = 0; k < 3; k++) {
    const c = cent[i * 3 + k]; cent[i * 3 + k] = cent[j * 3 + k]; cent[j * 3 + k] = c;
  }
}
