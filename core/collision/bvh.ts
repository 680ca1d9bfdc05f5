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

/**
 * Default triangles per chunk of a lazy refit (the subtrees refit, or skinned
 * on demand, as a whole when a traversal first reaches them). Larger chunks
 * cost less to box per pose and more per expansion; on the bench's
 * mannequins 128 measured 3–4% faster per contact frame than 32 (64: 2%,
 * 192–256: the same as 128).
 */
export const CHUNK_TRIANGLES = 128;
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

/**
 * A float32 below x: the nearest float32 to y = x − |x|·2⁻²³ − 2⁻¹⁴⁹. The
 * float32 spacing s near y is at most |x|·2⁻²³ in the normal range (2⁻¹⁴⁹
 * among subnormals; twice that of x's when y crosses into the next binade,
 * still at most x's |x|·2⁻²³ + its own) so round-to-nearest lands at most
 * s/2 above y, below x. Branch-free; the box is rounded outward by one to
 * four float32 steps.
 */
function down32(x: number): number {
  return Math.fround(x - Math.abs(x) * 1.1920928955078125e-7 - 1.401298464324817e-45);
}

/** A float32 above x (see down32). */
function up32(x: number): number {
  return Math.fround(x + Math.abs(x) * 1.1920928955078125e-7 + 1.401298464324817e-45);
}

/**
 * Writes the box of the vertices list[lo..hi) (position offsets) over
 * `positions` and, when given, `positionsEnd` into node box f[o..o+6),
 * rounded outwards to float32.
 */
function boxOfVertices(f: Float32Array, o: number, list: Int32Array, lo: number, hi: number, positions: ArrayLike<number>, positionsEnd: ArrayLike<number> | null): void {
  if (positionsEnd === null && hi > lo) {
    boxOfVerticesAt(f, o, list, lo, hi, positions);
    return;
  }
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let s = lo; s < hi; s++) {
    const v = list[s];
    const x = positions[v], y = positions[v + 1], z = positions[v + 2];
    if (x < lx) lx = x; if (x > hx) hx = x;
    if (y < ly) ly = y; if (y > hy) hy = y;
    if (z < lz) lz = z; if (z > hz) hz = z;
  }
  if (positionsEnd !== null) {
    for (let s = lo; s < hi; s++) {
      const v = list[s];
      const x = positionsEnd[v], y = positionsEnd[v + 1], z = positionsEnd[v + 2];
      if (x < lx) lx = x; if (x > hx) hx = x;
      if (y < ly) ly = y; if (y > hy) hy = y;
      if (z < lz) lz = z; if (z > hz) hz = z;
    }
  }
  f[o] = down32(lx); f[o + 1] = down32(ly); f[o + 2] = down32(lz);
  f[o + 3] = up32(hx); f[o + 4] = up32(hy); f[o + 5] = up32(hz);
}

/**
 * boxOfVertices at one sample (list non-empty), without a branch on the
 * coordinates (which mispredict): each bound takes the vertex's coordinate
 * by x·k + bound·(1 − k) with k = 1 where it is below (above) the bound so
 * far, else 0, which is exactly x or the bound, but for the sign of a zero
 * that down32 / up32 round away. The same float32 box as the branches.
 */
function boxOfVerticesAt(f: Float32Array, o: number, list: Int32Array, lo: number, hi: number, positions: ArrayLike<number>): void {
  let v = list[lo];
  let lx = positions[v], ly = positions[v + 1], lz = positions[v + 2], hx = lx, hy = ly, hz = lz;
  for (let s = lo + 1; s < hi; s++) {
    v = list[s];
    const x = positions[v], y = positions[v + 1], z = positions[v + 2];
    let k = +(x < lx); lx = x * k + lx * (1 - k);
    k = +(x > hx); hx = x * k + hx * (1 - k);
    k = +(y < ly); ly = y * k + ly * (1 - k);
    k = +(y > hy); hy = y * k + hy * (1 - k);
    k = +(z < lz); lz = z * k + lz * (1 - k);
    k = +(z > hz); hz = z * k + hz * (1 - k);
  }
  f[o] = down32(lx); f[o + 1] = down32(ly); f[o + 2] = down32(lz);
  f[o + 3] = up32(hx); f[o + 4] = up32(hy); f[o + 5] = up32(hz);
}

/**
 * boxOfVertices over both samples, keeping each sample's box too: the union
 * into f[o..o+5] (the same numbers as boxOfVertices), the box at `positions`
 * into S[so..so+5] and at `positionsEnd` into S[so+6..so+11] (rounded
 * outward the same way).
 */
function sampleBoxesOfVertices(f: Float32Array, o: number, S: Float32Array, so: number, list: Int32Array, lo: number, hi: number, positions: ArrayLike<number>, positionsEnd: ArrayLike<number>): void {
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let s = lo; s < hi; s++) {
    const v = list[s];
    const x = positions[v], y = positions[v + 1], z = positions[v + 2];
    if (x < lx) lx = x; if (x > hx) hx = x;
    if (y < ly) ly = y; if (y > hy) hy = y;
    if (z < lz) lz = z; if (z > hz) hz = z;
  }
  let ex = Infinity, ey = Infinity, ez = Infinity, gx = -Infinity, gy = -Infinity, gz = -Infinity;
  for (let s = lo; s < hi; s++) {
    const v = list[s];
    const x = positionsEnd[v], y = positionsEnd[v + 1], z = positionsEnd[v + 2];
    if (x < ex) ex = x; if (x > gx) gx = x;
    if (y < ey) ey = y; if (y > gy) gy = y;
    if (z < ez) ez = z; if (z > gz) gz = z;
  }
  S[so] = down32(lx); S[so + 1] = down32(ly); S[so + 2] = down32(lz);
  S[so + 3] = up32(hx); S[so + 4] = up32(hy); S[so + 5] = up32(hz);
  S[so + 6] = down32(ex); S[so + 7] = down32(ey); S[so + 8] = down32(ez);
  S[so + 9] = up32(gx); S[so + 10] = up32(gy); S[so + 11] = up32(gz);
  f[o] = down32(lx < ex ? lx : ex); f[o + 1] = down32(ly < ey ? ly : ey); f[o + 2] = down32(lz < ez ? lz : ez);
  f[o + 3] = up32(hx > gx ? hx : gx); f[o + 4] = up32(hy > gy ? hy : gy); f[o + 5] = up32(hz > gz ? hz : gz);
}

/** Node box f[o..o+6) = union of the child boxes at a and b. */
function unionOfChildren(f: Float32Array, o: number, a: number, b: number): void {
  // the child chosen by index arithmetic, not by a branch on the bounds: the same choices
  const d = a - b;
  f[o] = f[b + d * +(f[a] < f[b])];
  f[o + 1] = f[b + 1 + d * +(f[a + 1] < f[b + 1])];
  f[o + 2] = f[b + 2 + d * +(f[a + 2] < f[b + 2])];
  f[o + 3] = f[b + 3 + d * +(f[a + 3] > f[b + 3])];
  f[o + 4] = f[b + 4 + d * +(f[a + 4] > f[b + 4])];
  f[o + 5] = f[b + 5 + d * +(f[a + 5] > f[b + 5])];
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

  /**
   * Per node (12 floats at node · 12), after a refit over two samples of a
   * tree that keeps them (`keepSampleBoxes`): its box at `positions` (0..5)
   * and at `positionsEnd` (6..11), each containing the node's triangles at
   * that sample (rounded outward like the node boxes); valid where the node
   * box is (chunk roots and above at once, a chunk's own nodes once it is
   * expanded). Null otherwise, or when the last refit was over one sample.
   */
  sampleBoxes: Float32Array | null = null;
  private sampleStore: Float32Array | null = null;

  /** Makes the refits over two samples keep each sample's node boxes (`sampleBoxes`). */
  keepSampleBoxes(): void {
    if (this.sampleStore === null) this.sampleStore = new Float32Array(this.nodeCount * 12);
  }

  /** A copy with the same nodes and triangle order, refit independently (same traversal order as this tree). */
  clone(): TriangleBVH {
    return new TriangleBVH(this.buffer.slice(0), this.nodeCount, this.order, this.indices);
  }

  get triangleCount(): number {
    return this.order.length;
  }

  /**
   * Builds over `triangles` (ids into `indices`, default all) at `positions`
   * (xyz per vertex) until leaves hold at most `maxLeafSize` triangles,
   * splitting at the centroid median of the longest axis (`'median'`) or by
   * the binned surface-area heuristic (`'sah'`: fewer overlapping node pairs
   * in BVH-vs-BVH; the median where every centroid falls in one bin).
   */
  static build(positions: ArrayLike<number>, indices: Uint32Array, triangles?: Uint32Array, maxLeafSize = 8, split: 'median' | 'sah' = 'median'): TriangleBVH {
    const n = triangles ? triangles.length : indices.length / 3;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = triangles ? triangles[i] : i;
    const cent = new Float64Array(n * 3);
    const tbox = split === 'sah' ? new Float64Array(n * 6) : null;
    for (let i = 0; i < n; i++) {
      const t = order[i] * 3;
      const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
      for (let k = 0; k < 3; k++) {
        const pa = positions[a + k], pb = positions[b + k], pc = positions[c + k];
        cent[i * 3 + k] = pa + pb + pc;
        if (tbox !== null) {
          tbox[i * 6 + k] = pa < pb ? (pa < pc ? pa : pc) : pb < pc ? pb : pc;
          tbox[i * 6 + 3 + k] = pa > pb ? (pa > pc ? pa : pc) : pb > pc ? pb : pc;
        }
      }
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
      let axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
      let mid = (start + end) >> 1;
      const sah = tbox === null ? -1 : sahSplit(order, cent, tbox!, start, end, lx, ly, lz, ex, ey, ez);
      if (sah >= 0) { axis = sah & 3; mid = sah >> 2; }
      else select(order, cent, start, end - 1, mid, axis, tbox);
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
    this.sampleBoxes = null;
    this.chunkOf = null;
    this.chunkHook = null;
    const f = this.f32;
    if (this.leafVerts === null) this.buildRefitLists();
    const lv = this.leafVerts!, lvo = this.leafVertOffsets!, leaves = this.leafNodes!, inner = this.innerNodes!, right = this.innerRight!;
    // leaves: each distinct vertex of the leaf once (lv holds position offsets v·3)
    for (let l = 0; l < leaves.length; l++) {
      boxOfVertices(f, leaves[l] * NODE_WORDS, lv, lvo[l], lvo[l + 1], positions, positionsEnd);
    }
    // inner nodes, children before parents (depth-first order: children have larger indices)
    for (let k = 0; k < inner.length; k++) {
      const o = inner[k] * NODE_WORDS;
      unionOfChildren(f, o, o + NODE_WORDS, right[k] * NODE_WORDS);
    }
  }

  /**
   * Refit lists (built on first refit): the leaf nodes with their distinct
   * vertices (as position offsets v·3, CSR by leaf), and the inner nodes in
   * decreasing index order with their right children.
   */
  private leafVerts: Int32Array | null = null;
  private leafVertOffsets: Int32Array | null = null;
  private leafNodes: Int32Array | null = null;
  private innerNodes: Int32Array | null = null;
  private innerRight: Int32Array | null = null;

  private buildRefitLists(): void {
    const u = this.u32, order = this.order, idx = this.indices;
    const leaves: number[] = [], offs: number[] = [], tmp: number[] = [], inner: number[] = [], right: number[] = [];
    for (let node = 0; node < this.nodeCount; node++) {
      const w7 = u[node * NODE_WORDS + 7];
      if (!(w7 & LEAF)) continue;
      leaves.push(node);
      offs.push(tmp.length);
      const start = u[node * NODE_WORDS + 6], cnt = w7 & ~LEAF, first = tmp.length;
      for (let s = start; s < start + cnt; s++) {
        for (let j = 0; j < 3; j++) {
          const v = idx[order[s] * 3 + j] * 3;
          let seen = false;
          for (let k = first; k < tmp.length; k++) if (tmp[k] === v) { seen = true; break; }
          if (!seen) tmp.push(v);
        }
      }
    }
    offs.push(tmp.length);
    for (let node = this.nodeCount - 1; node >= 0; node--) {
      if (u[node * NODE_WORDS + 7] & LEAF) continue;
      inner.push(node);
      right.push(u[node * NODE_WORDS + 6]);
    }
    this.leafVerts = Int32Array.from(tmp);
    this.leafVertOffsets = Int32Array.from(offs);
    this.leafNodes = Int32Array.from(leaves);
    this.innerNodes = Int32Array.from(inner);
    this.innerRight = Int32Array.from(right);
  }

  /**
   * Lazy refit: chunk roots (the highest nodes over at most `chunkTriangles`
   * triangles) get the tight box of their chunk's vertices, the nodes above
   * them are refit from those, and a chunk's own nodes are refit only when a
   * traversal first expands its root (`chunkOf` / `ensureChunk`, called by
   * every traversal in query.ts and signed.ts). Every box stays valid at all
   * times: a chunk root's box bounds its triangles whether or not its inside
   * is fresh. Positions must stay unchanged until the next refit.
   */
  refitLazy(positions: ArrayLike<number>, positionsEnd: ArrayLike<number> | null, chunkTriangles = CHUNK_TRIANGLES): void {
    if (this.chunkRoots === null) this.buildChunks(chunkTriangles);
    if (this.leafVerts === null) this.buildRefitLists();
    this.chunkHook = null;
    this.lazyPositions = positions;
    this.lazyPositionsEnd = positionsEnd;
    const f = this.f32, roots = this.chunkRoots!, cv = this.chunkVerts!, cvo = this.chunkVertOffsets!, fresh = this.chunkFresh!;
    const S = this.sampleBoxes = positionsEnd !== null ? this.sampleStore : null;
    for (let c = 0; c < roots.length; c++) {
      const o = roots[c] * NODE_WORDS;
      if (S !== null) sampleBoxesOfVertices(f, o, S, roots[c] * 12, cv, cvo[c], cvo[c + 1], positions, positionsEnd!);
      else boxOfVertices(f, o, cv, cvo[c], cvo[c + 1], positions, positionsEnd);
      // a leaf chunk root is exact as it is
      fresh[c] = (this.u32[o + 7] & LEAF) !== 0 ? 1 : 0;
    }
    this.refitTop();
  }

  /**
   * Prepares lazy refits (chunks of at most `chunkTriangles` triangles) and
   * returns each chunk's vertices as position offsets (vertex · 3), chunk c's
   * in verts[offsets[c] .. offsets[c + 1]]: for callers that gather the chunk
   * boxes while writing the positions (`refitLazyBoxes`).
   */
  lazyChunks(chunkTriangles = CHUNK_TRIANGLES): { verts: Int32Array; offsets: Int32Array } {
    if (this.chunkRoots === null) this.buildChunks(chunkTriangles);
    if (this.leafVerts === null) this.buildRefitLists();
    return { verts: this.chunkVerts!, offsets: this.chunkVertOffsets! };
  }

  /**
   * `refitLazy(positions, null)` with the chunks' vertex boxes given (min xyz,
   * max xyz per chunk, in the order of `lazyChunks`): the same tree.
   */
  refitLazyBoxes(positions: ArrayLike<number>, boxes: Float64Array): void {
    this.sampleBoxes = null;
    this.lazyPositions = positions;
    this.lazyPositionsEnd = null;
    this.setChunkRootBoxes(boxes, null);
  }

  /**
   * `refitLazy(positions, positionsEnd)` with each chunk's vertex boxes at
   * both samples given (`boxes` for positions, `boxesEnd` for positionsEnd,
   * in the order of `lazyChunks`): the chunk roots get their union, the same
   * tree.
   */
  refitLazyBoxesSwept(positions: ArrayLike<number>, positionsEnd: ArrayLike<number>, boxes: Float64Array, boxesEnd: Float64Array): void {
    this.sampleBoxes = this.sampleStore;
    this.lazyPositions = positions;
    this.lazyPositionsEnd = positionsEnd;
    this.setChunkRootBoxes(boxes, boxesEnd);
  }

  /**
   * `refitLazyBoxes` where the positions are written on demand: `boxes` need
   * only contain each chunk's vertices (they may be looser than their box),
   * and `writeChunk(c)` is called before chunk c's nodes are first read from
   * the positions: at once for a chunk whose root is a leaf (traversals read
   * it without expanding it), else by `ensureChunk`. The tree prunes no
   * less than one refit at the positions: every node box still contains its
   * triangles, the nodes inside an expanded chunk are exact. Any other refit
   * drops the callback.
   */
  refitLazyBoxesOnDemand(positions: ArrayLike<number>, boxes: Float64Array, writeChunk: (c: number) => void): void {
    if (this.chunkRoots === null) this.buildChunks(CHUNK_TRIANGLES);
    this.sampleBoxes = null;
    this.lazyPositions = positions;
    this.lazyPositionsEnd = null;
    this.setChunkRootBoxes(boxes, null);
    const fresh = this.chunkFresh!;
    for (let c = 0; c < fresh.length; c++) if (fresh[c] === 1) writeChunk(c);
    this.chunkHook = writeChunk;
  }

  /**
   * `refitLazyBoxesSwept` where the positions at both samples are written on
   * demand, as in `refitLazyBoxesOnDemand`: `boxes` and `boxesEnd` need only
   * contain each chunk's vertices at the two samples (the chunk roots get
   * their union), and `writeChunk(c)` writes chunk c's positions at both
   * samples before its nodes are first read.
   */
  refitLazyBoxesSweptOnDemand(positions: ArrayLike<number>, positionsEnd: ArrayLike<number>, boxes: Float64Array, boxesEnd: Float64Array, writeChunk: (c: number) => void): void {
    if (this.chunkRoots === null) this.buildChunks(CHUNK_TRIANGLES);
    this.sampleBoxes = this.sampleStore;
    this.lazyPositions = positions;
    this.lazyPositionsEnd = positionsEnd;
    this.setChunkRootBoxes(boxes, boxesEnd);
    const fresh = this.chunkFresh!;
    for (let c = 0; c < fresh.length; c++) if (fresh[c] === 1) writeChunk(c);
    this.chunkHook = writeChunk;
  }

  /** Set by refitLazyBoxesOnDemand: writes a chunk's positions before its nodes are refit. */
  private chunkHook: ((c: number) => void) | null = null;

  /** Chunk roots from given chunk boxes (united with `boxesEnd` when given), then the top. */
  private setChunkRootBoxes(boxes: Float64Array, boxesEnd: Float64Array | null): void {
    this.chunkHook = null;
    const f = this.f32, roots = this.chunkRoots!, fresh = this.chunkFresh!;
    const end = boxesEnd ?? boxes;
    for (let c = 0; c < roots.length; c++) {
      const o = roots[c] * NODE_WORDS, b = c * 6;
      f[o] = down32(boxes[b] < end[b] ? boxes[b] : end[b]);
      f[o + 1] = down32(boxes[b + 1] < end[b + 1] ? boxes[b + 1] : end[b + 1]);
      f[o + 2] = down32(boxes[b + 2] < end[b + 2] ? boxes[b + 2] : end[b + 2]);
      f[o + 3] = up32(boxes[b + 3] > end[b + 3] ? boxes[b + 3] : end[b + 3]);
      f[o + 4] = up32(boxes[b + 4] > end[b + 4] ? boxes[b + 4] : end[b + 4]);
      f[o + 5] = up32(boxes[b + 5] > end[b + 5] ? boxes[b + 5] : end[b + 5]);
    }
    const S = this.sampleBoxes;
    if (S !== null && boxesEnd !== null) {
      for (let c = 0; c < roots.length; c++) {
        const o = roots[c] * 12, b = c * 6;
        for (let k = 0; k < 3; k++) {
          S[o + k] = down32(boxes[b + k]); S[o + 3 + k] = up32(boxes[b + 3 + k]);
          S[o + 6 + k] = down32(boxesEnd[b + k]); S[o + 9 + k] = up32(boxesEnd[b + 3 + k]);
        }
      }
    } else this.sampleBoxes = null;
    // a leaf chunk root is exact as it is
    fresh.set(this.chunkLeafRoot!);
    this.refitTop();
  }

  /** The nodes above the chunk roots, from the chunk roots' boxes. */
  private refitTop(): void {
    const f = this.f32;
    const top = this.topNodes!, topRight = this.topRight!;
    for (let k = 0; k < top.length; k++) {
      const o = top[k] * NODE_WORDS;
      unionOfChildren(f, o, o + NODE_WORDS, topRight[k] * NODE_WORDS);
    }
    const S = this.sampleBoxes;
    if (S !== null) {
      for (let k = 0; k < top.length; k++) {
        const o = top[k] * 12, r = topRight[k] * 12;
        unionOfChildren(S, o, o + 12, r);
        unionOfChildren(S, o + 6, o + 18, r + 6);
      }
    }
    this.chunkOf = this.chunkIndex;
  }

  /**
   * Chunk index of each chunk root node, -1 for other nodes; null unless the
   * last refit was lazy (then traversals call ensureChunk before expanding a
   * chunk root).
   */
  chunkOf: Int32Array | null = null;

  /** Refits the nodes inside chunk c (after a lazy refit), once. */
  ensureChunk(c: number): void {
    const fresh = this.chunkFresh!;
    if (fresh[c] === 1) return;
    fresh[c] = 1;
    if (this.chunkHook !== null) this.chunkHook(c);
    const positions = this.lazyPositions!, positionsEnd = this.lazyPositionsEnd;
    const f = this.f32, lv = this.leafVerts!, lvo = this.leafVertOffsets!, leaves = this.leafNodes!, inner = this.innerNodes!, right = this.innerRight!;
    const S = this.sampleBoxes;
    if (S !== null) {
      for (let l = this.chunkLeafLo![c], le = this.chunkLeafHi![c]; l < le; l++) {
        sampleBoxesOfVertices(f, leaves[l] * NODE_WORDS, S, leaves[l] * 12, lv, lvo[l], lvo[l + 1], positions, positionsEnd!);
      }
    } else {
      for (let l = this.chunkLeafLo![c], le = this.chunkLeafHi![c]; l < le; l++) {
        boxOfVertices(f, leaves[l] * NODE_WORDS, lv, lvo[l], lvo[l + 1], positions, positionsEnd);
      }
    }
    for (let k = this.chunkInnerLo![c], ke = this.chunkInnerHi![c]; k < ke; k++) {
      const o = inner[k] * NODE_WORDS;
      unionOfChildren(f, o, o + NODE_WORDS, right[k] * NODE_WORDS);
      if (S !== null) {
        const so = inner[k] * 12, r = right[k] * 12;
        unionOfChildren(S, so, so + 12, r);
        unionOfChildren(S, so + 6, so + 18, r + 6);
      }
    }
  }

  private lazyPositions: ArrayLike<number> | null = null;
  private lazyPositionsEnd: ArrayLike<number> | null = null;
  private chunkRoots: Int32Array | null = null;
  private chunkIndex: Int32Array | null = null;
  private chunkFresh: Uint8Array | null = null;
  /** Per chunk: 1 when its root is a leaf (exact as soon as the root is boxed). */
  private chunkLeafRoot: Uint8Array | null = null;
  private chunkVerts: Int32Array | null = null;
  private chunkVertOffsets: Int32Array | null = null;
  private chunkLeafLo: Int32Array | null = null;
  private chunkLeafHi: Int32Array | null = null;
  private chunkInnerLo: Int32Array | null = null;
  private chunkInnerHi: Int32Array | null = null;
  private topNodes: Int32Array | null = null;
  private topRight: Int32Array | null = null;

  private buildChunks(maxTris: number): void {
    if (this.leafVerts === null) this.buildRefitLists();
    const u = this.u32, n = this.nodeCount, order = this.order, idx = this.indices;
    // triangles and nodes per subtree (children have larger indices: reverse sweep)
    const tris = new Int32Array(n), size = new Int32Array(n);
    for (let node = n - 1; node >= 0; node--) {
      const w7 = u[node * NODE_WORDS + 7];
      if (w7 & LEAF) { tris[node] = w7 & ~LEAF; size[node] = 1; continue; }
      const r = u[node * NODE_WORDS + 6];
      tris[node] = tris[node + 1] + tris[r];
      size[node] = 1 + size[node + 1] + size[r];
    }
    const roots: number[] = [], top: number[] = [], topRight: number[] = [];
    const stack = [0];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (tris[node] <= maxTris || (u[node * NODE_WORDS + 7] & LEAF)) { roots.push(node); continue; }
      top.push(node);
      stack.push(node + 1, u[node * NODE_WORDS + 6]);
    }
    roots.sort((a, b) => a - b);
    top.sort((a, b) => b - a); // children before parents
    const chunkIndex = new Int32Array(n).fill(-1);
    const leaves = this.leafNodes!, inner = this.innerNodes!;
    const verts: number[] = [], voff: number[] = [];
    const leafLo = new Int32Array(roots.length), leafHi = new Int32Array(roots.length), innerLo = new Int32Array(roots.length), innerHi = new Int32Array(roots.length);
    const seen = new Set<number>();
    roots.forEach((root, c) => {
      chunkIndex[root] = c;
      const end = root + size[root];
      // leaves ascending, inner nodes descending: node ranges map to index ranges
      leafLo[c] = lowerBound(leaves, root, true); leafHi[c] = lowerBound(leaves, end, true);
      innerLo[c] = lowerBound(inner, end - 1, false); innerHi[c] = lowerBound(inner, root - 1, false);
      voff.push(verts.length);
      seen.clear();
      for (let l = leafLo[c]; l < leafHi[c]; l++) {
        const o = leaves[l] * NODE_WORDS, st = u[o + 6], cnt = u[o + 7] & ~LEAF;
        for (let s = st; s < st + cnt; s++) for (let j = 0; j < 3; j++) {
          const v = idx[order[s] * 3 + j] * 3;
          if (!seen.has(v)) { seen.add(v); verts.push(v); }
        }
      }
    });
    voff.push(verts.length);
    for (const node of top) topRight.push(u[node * NODE_WORDS + 6]);
    this.chunkRoots = Int32Array.from(roots);
    this.chunkIndex = chunkIndex;
    this.chunkFresh = new Uint8Array(roots.length);
    this.chunkLeafRoot = Uint8Array.from(roots, (r) => ((u[r * NODE_WORDS + 7] & LEAF) !== 0 ? 1 : 0));
    this.chunkVerts = Int32Array.from(verts);
    this.chunkVertOffsets = Int32Array.from(voff);
    this.chunkLeafLo = leafLo; this.chunkLeafHi = leafHi; this.chunkInnerLo = innerLo; this.chunkInnerHi = innerHi;
    this.topNodes = Int32Array.from(top);
    this.topRight = Int32Array.from(topRight);
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

/**
 * First index i in the sorted list `a` (ascending when `asc`, else
 * descending) whose value is not before `x` in that order: for ascending, the
 * first a[i] ≥ x; for descending, the first a[i] ≤ x.
 */
function lowerBound(a: Int32Array, x: number, asc: boolean): number {
  let lo = 0, hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (asc ? a[mid] < x : a[mid] > x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Quickselect slots [lo, hi] of `order` (with centroids `cent` per slot) so slot k holds the median along axis. */
function select(order: Uint32Array, cent: Float64Array, lo: number, hi: number, k: number, axis: number, tbox: Float64Array | null): void {
  while (hi > lo) {
    const pivot = cent[((lo + hi) >> 1) * 3 + axis];
    let i = lo, j = hi;
    while (i <= j) {
      while (cent[i * 3 + axis] < pivot) i++;
      while (cent[j * 3 + axis] > pivot) j--;
      if (i <= j) {
        swapSlots(order, cent, tbox, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swapSlots(order: Uint32Array, cent: Float64Array, tbox: Float64Array | null, i: number, j: number): void {
  const t = order[i]; order[i] = order[j]; order[j] = t;
  for (let k = 0; k < 3; k++) {
    const c = cent[i * 3 + k]; cent[i * 3 + k] = cent[j * 3 + k]; cent[j * 3 + k] = c;
  }
  if (tbox !== null) {
    for (let k = 0; k < 6; k++) {
      const c = tbox[i * 6 + k]; tbox[i * 6 + k] = tbox[j * 6 + k]; tbox[j * 6 + k] = c;
    }
  }
}

const SAH_BINS = 32;
const _binCount = new Int32Array(SAH_BINS);
const _binBox = new Float64Array(SAH_BINS * 6);
const _rightArea = new Float64Array(SAH_BINS);
const _rightCount = new Int32Array(SAH_BINS);
const _binAcc = new Float64Array(6);

function halfArea(b: Float64Array, o: number): number {
  const dx = b[o + 3] - b[o], dy = b[o + 4] - b[o + 1], dz = b[o + 5] - b[o + 2];
  return dx * dy + dy * dz + dz * dx;
}

/**
 * Binned surface-area split of slots [start, end) (Wald 2007): over the three
 * axes of the centroid box (lo, extent), the bin boundary with the least
 * area(left)·count(left) + area(right)·count(right); partitions the slots
 * (order, centroids, triangle boxes) at it and returns mid·4 + axis, or −1
 * when every centroid falls in one bin on every axis (the caller splits at
 * the median).
 */
function sahSplit(order: Uint32Array, cent: Float64Array, tbox: Float64Array, start: number, end: number, lx: number, ly: number, lz: number, ex: number, ey: number, ez: number): number {
  let bestCost = Infinity, bestAxis = -1, bestBin = -1;
  const acc = _binAcc;
  for (let axis = 0; axis < 3; axis++) {
    const lo = axis === 0 ? lx : axis === 1 ? ly : lz, ext = axis === 0 ? ex : axis === 1 ? ey : ez;
    if (!(ext > 0)) continue;
    const scale = SAH_BINS / ext;
    _binCount.fill(0);
    for (let b = 0; b < SAH_BINS; b++) {
      _binBox[b * 6] = _binBox[b * 6 + 1] = _binBox[b * 6 + 2] = Infinity;
      _binBox[b * 6 + 3] = _binBox[b * 6 + 4] = _binBox[b * 6 + 5] = -Infinity;
    }
    const bb = _binBox;
    for (let i = start; i < end; i++) {
      let b = ((cent[i * 3 + axis] - lo) * scale) | 0;
      if (b >= SAH_BINS) b = SAH_BINS - 1;
      _binCount[b]++;
      const o = b * 6, t = i * 6;
      const x0 = tbox[t], y0 = tbox[t + 1], z0 = tbox[t + 2], x1 = tbox[t + 3], y1 = tbox[t + 4], z1 = tbox[t + 5];
      if (x0 < bb[o]) bb[o] = x0;
      if (y0 < bb[o + 1]) bb[o + 1] = y0;
      if (z0 < bb[o + 2]) bb[o + 2] = z0;
      if (x1 > bb[o + 3]) bb[o + 3] = x1;
      if (y1 > bb[o + 4]) bb[o + 4] = y1;
      if (z1 > bb[o + 5]) bb[o + 5] = z1;
    }
    // right sweep: area and count of bins b..SAH_BINS-1
    acc[0] = acc[1] = acc[2] = Infinity; acc[3] = acc[4] = acc[5] = -Infinity;
    let cnt = 0;
    for (let b = SAH_BINS - 1; b > 0; b--) {
      const o = b * 6;
      for (let k = 0; k < 3; k++) {
        if (_binBox[o + k] < acc[k]) acc[k] = _binBox[o + k];
        if (_binBox[o + 3 + k] > acc[3 + k]) acc[3 + k] = _binBox[o + 3 + k];
      }
      cnt += _binCount[b];
      _rightCount[b] = cnt;
      _rightArea[b] = cnt > 0 ? halfArea(acc, 0) : 0;
    }
    acc[0] = acc[1] = acc[2] = Infinity; acc[3] = acc[4] = acc[5] = -Infinity;
    cnt = 0;
    for (let b = 0; b < SAH_BINS - 1; b++) {
      const o = b * 6;
      for (let k = 0; k < 3; k++) {
        if (_binBox[o + k] < acc[k]) acc[k] = _binBox[o + k];
        if (_binBox[o + 3 + k] > acc[3 + k]) acc[3 + k] = _binBox[o + 3 + k];
      }
      cnt += _binCount[b];
      const rc = _rightCount[b + 1];
      if (cnt === 0 || rc === 0) continue;
      const cost = halfArea(acc, 0) * cnt + _rightArea[b + 1] * rc;
      if (cost < bestCost) { bestCost = cost; bestAxis = axis; bestBin = b; }
    }
  }
  if (bestAxis < 0) return -1;
  const lo = bestAxis === 0 ? lx : bestAxis === 1 ? ly : lz, ext = bestAxis === 0 ? ex : bestAxis === 1 ? ey : ez;
  const scale = SAH_BINS / ext;
  let i = start, j = end - 1;
  while (i <= j) {
    let b = ((cent[i * 3 + bestAxis] - lo) * scale) | 0;
    if (b >= SAH_BINS) b = SAH_BINS - 1;
    if (b <= bestBin) i++;
    else { swapSlots(order, cent, tbox, i, j); j--; }
  }
  return i * 4 + bestAxis;
}
