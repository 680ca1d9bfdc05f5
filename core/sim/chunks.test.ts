import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../document/fixtures';
import { hypot3 } from '../math/libm';
import { chunked, orientedBottomY, orientedBoxInto } from './chunks';

/**
 * The chunking as it was before its selection read each key once: the order
 * through a two-index comparison function, swaps by destructuring. The
 * reference the fast selection must reproduce element for element.
 */
function selectRankReference(idx: Uint32Array, X: Float64Array, ax: number, a: number, b: number, m: number): void {
  const less = (p: number, q: number): boolean => X[3 * p + ax] < X[3 * q + ax] || (X[3 * p + ax] === X[3 * q + ax] && p < q);
  let lo = a, hi = b - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    let p0 = idx[lo], p1 = idx[mid];
    const p2 = idx[hi];
    if (less(p1, p0)) [p0, p1] = [p1, p0];
    if (less(p2, p1)) {
      p1 = p2;
      if (less(p1, p0)) p1 = p0;
    }
    const pivot = p1;
    let i = lo, j = hi;
    while (i <= j) {
      while (less(idx[i], pivot)) i++;
      while (less(pivot, idx[j])) j--;
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

/** The reference chunking: median splits along the longest axis, at most 16 vertices, ascending within a chunk; then each chunk's sphere and box. */
function chunkOrderReference(X: Float64Array): { verts: Uint32Array; starts: number[]; sphere: Float64Array; box: Float64Array } {
  const nv = X.length / 3;
  const verts = new Uint32Array(nv);
  for (let v = 0; v < nv; v++) verts[v] = v;
  const starts: number[] = [];
  const split = (a: number, b: number): void => {
    if (b - a <= 16) {
      starts.push(a);
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
      lx = Math.min(lx, X[o]);
      hx = Math.max(hx, X[o]);
      ly = Math.min(ly, X[o + 1]);
      hy = Math.max(hy, X[o + 1]);
      lz = Math.min(lz, X[o + 2]);
      hz = Math.max(hz, X[o + 2]);
    }
    const ax = hx - lx >= hy - ly && hx - lx >= hz - lz ? 0 : hy - ly >= hz - lz ? 1 : 2;
    const m = (a + b) >> 1;
    selectRankReference(verts, X, ax, a, b, m);
    split(a, m);
    split(m, b);
  };
  if (nv > 0) split(0, nv);
  starts.push(nv);
  // per chunk: centre and radius (padded), box centre and half extent (padded), as they were made
  const nc = starts.length - 1;
  const sphere = new Float64Array(4 * nc), box = new Float64Array(6 * nc);
  for (let k = 0; k < nc; k++) {
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (let i = starts[k]; i < starts[k + 1]; i++)
      for (let c = 0; c < 3; c++) {
        const x = X[3 * verts[i] + c];
        if (x < lo[c]) lo[c] = x;
        if (x > hi[c]) hi[c] = x;
      }
    const cx = 0.5 * (lo[0] + hi[0]), cy = 0.5 * (lo[1] + hi[1]), cz = 0.5 * (lo[2] + hi[2]);
    let r2 = 0;
    for (let i = starts[k]; i < starts[k + 1]; i++) {
      const o = 3 * verts[i];
      const d2 = (X[o] - cx) ** 2 + (X[o + 1] - cy) ** 2 + (X[o + 2] - cz) ** 2;
      if (d2 > r2) r2 = d2;
    }
    const lever = hypot3(cx, cy, cz);
    sphere.set([cx, cy, cz, Math.sqrt(r2) * (1 + 1e-9) + 1e-9 * lever + 1e-12], 4 * k);
    const pad = 1e-9 * lever + 1e-12;
    box.set([cx, cy, cz], 6 * k);
    for (let c = 0; c < 3; c++) box[6 * k + 3 + c] = 0.5 * (hi[c] - lo[c]) * (1 + 1e-9) + pad;
  }
  return { verts, starts, sphere, box };
}

describe('vertexChunks selection', () => {
  it('seeded 61: the same chunks (vertex order, spheres and boxes bit for bit) as the two-index comparison and per-chunk arrays (distinct, tied and duplicated keys)', () => {
    const rand = mulberry32(61);
    for (let trial = 0; trial < 60; trial++) {
      const nv = 1 + Math.floor(rand() * 900);
      const X = new Float64Array(3 * nv);
      // a third continuous, a third on a coarse grid (many equal keys), a third with whole duplicated points
      const mode = trial % 3;
      for (let i = 0; i < X.length; i++) X[i] = mode === 1 ? Math.round(rand() * 8) / 8 : rand() * 2 - 1;
      if (mode === 2) for (let v = 1; v < nv; v += 3) X.copyWithin(3 * v, 3 * (v - 1), 3 * v);
      const ref = chunkOrderReference(X);
      const got = chunked(X);
      expect(Array.from(got.chunkVerts), `trial ${trial} (${nv} vertices, mode ${mode}): vertex order`).toEqual(Array.from(ref.verts));
      expect(Array.from(got.chunkStart), `trial ${trial}: chunk starts`).toEqual(ref.starts);
      expect(Array.from(got.chunkSphere), `trial ${trial}: chunk spheres bit for bit`).toEqual(Array.from(ref.sphere));
      expect(Array.from(got.chunkBox), `trial ${trial}: chunk boxes bit for bit`).toEqual(Array.from(ref.box));
      for (let i = 0; i < got.chunkVerts.length; i++)
        for (let c = 0; c < 3; c++) expect(got.chunkLocal[3 * i + c], `trial ${trial}: chunkLocal ${i}`).toBe(X[3 * got.chunkVerts[i] + c]);
      // every chunk's box and sphere hold its vertices
      for (let k = 0; k + 1 < got.chunkStart.length; k++)
        for (let i = got.chunkStart[k]; i < got.chunkStart[k + 1]; i++) {
          const v = got.chunkVerts[i];
          expect(got.chunkOf[v], `trial ${trial}: chunkOf[${v}]`).toBe(k);
          const S = got.chunkSphere, o = 4 * k;
          expect(Math.hypot(X[3 * v] - S[o], X[3 * v + 1] - S[o + 1], X[3 * v + 2] - S[o + 2]), `trial ${trial}: vertex ${v} inside chunk ${k}'s sphere`).toBeLessThanOrEqual(S[o + 3]);
        }
    }
  });
});

describe('orientedBottomY', () => {
  it('seeded 67: the bottom of the box orientedBoxInto makes from an empty box, bit for bit (random boxes and poses, NaN and infinite inputs)', () => {
    const rand = mulberry32(67);
    const st = new Float64Array(7), out = new Float64Array(6), lb = new Float64Array(6);
    for (let trial = 0; trial < 4000; trial++) {
      for (let c = 0; c < 3; c++) {
        const a = rand() * 4 - 2, b = rand() * 4 - 2;
        lb[c] = Math.min(a, b);
        lb[3 + c] = Math.max(a, b);
      }
      let qx = rand() * 2 - 1, qy = rand() * 2 - 1, qz = rand() * 2 - 1, qw = rand() * 2 - 1;
      const n = Math.hypot(qx, qy, qz, qw);
      [qx, qy, qz, qw] = [qx / n, qy / n, qz / n, qw / n];
      st.set([rand() * 20 - 10, rand() * 20 - 10, rand() * 20 - 10, qx, qy, qz, qw]);
      // now and then a degenerate input: NaN position, infinite box, an empty box (+∞ / −∞ sides)
      if (trial % 97 === 5) st[1] = NaN;
      if (trial % 89 === 7) lb[4] = Infinity;
      if (trial % 83 === 11) lb.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
      out.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]);
      orientedBoxInto(lb, st, 0, out);
      expect(Object.is(orientedBottomY(lb, st, 0), out[1]), `trial ${trial}: ${orientedBottomY(lb, st, 0)} vs the box's bottom ${out[1]}`).toBe(true);
    }
  });
});
