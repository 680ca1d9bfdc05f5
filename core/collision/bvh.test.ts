import { describe, expect, it } from 'vitest';
import { TriangleBVH, f32Down, f32Up } from './bvh';
import { closestPointOnMesh, closestPointOnTriangle, forEachLeafPair, pointInMesh } from './query';
import { triTriOverlap } from './tritri';
import { mulberry32, triangleSoup, uvSphere, windingNumber } from './testutil';

const _p = new Float64Array(9), _q = new Float64Array(9);
function load(out: Float64Array, pos: ArrayLike<number>, idx: Uint32Array, t: number): Float64Array {
  for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[j * 3 + k] = pos[idx[t * 3 + j] * 3 + k];
  return out;
}

function bruteIntersecting(pa: Float64Array, ia: Uint32Array, pb: Float64Array, ib: Uint32Array): Set<string> {
  const s = new Set<string>();
  for (let i = 0; i < ia.length / 3; i++) for (let j = 0; j < ib.length / 3; j++) {
    if (triTriOverlap(load(_p, pa, ia, i), 0, load(_q, pb, ib, j), 0)) s.add(`${i}:${j}`);
  }
  return s;
}

function bvhIntersecting(a: TriangleBVH, pa: Float64Array, b: TriangleBVH, pb: Float64Array): Set<string> {
  const s = new Set<string>();
  forEachLeafPair(a, b, (i, j) => {
    if (triTriOverlap(load(_p, pa, a.indices, i), 0, load(_q, pb, b.indices, j), 0)) s.add(`${i}:${j}`);
  });
  return s;
}

describe('TriangleBVH', () => {
  for (const [seed, split] of [[1, 'median'], [2, 'median'], [3, 'median'], [11, 'sah'], [12, 'sah'], [13, 'sah']] as const) {
    it(`seed ${seed}: BVH-vs-BVH (${split} splits) finds exactly the brute-force intersecting pairs, before and after refit`, () => {
      const r = mulberry32(seed);
      const A = triangleSoup(300, 1, 0.15, r), B = triangleSoup(250, 1, 0.15, r);
      const ba = TriangleBVH.build(A.positions, A.indices, undefined, 4, split), bb = TriangleBVH.build(B.positions, B.indices, undefined, 4, split);
      const ref = bruteIntersecting(A.positions, A.indices, B.positions, B.indices);
      expect(ref.size, 'the seeded soup has intersections').toBeGreaterThan(10);
      expect([...bvhIntersecting(ba, A.positions, bb, B.positions)].sort()).toEqual([...ref].sort());
      // deform and refit (no rebuild)
      for (let i = 0; i < A.positions.length; i++) A.positions[i] += (r() - 0.5) * 0.3;
      ba.refit(A.positions);
      const ref2 = bruteIntersecting(A.positions, A.indices, B.positions, B.indices);
      expect([...bvhIntersecting(ba, A.positions, bb, B.positions)].sort(), 'after refit').toEqual([...ref2].sort());
    });
  }
  for (const [seed, split] of [[4, 'median'], [14, 'sah']] as const) it(`seed ${seed}: every node box (${split} splits) holds its triangles at both ends of a swept refit, and children are inside parents`, () => {
    const r = mulberry32(seed);
    const A = triangleSoup(500, 1, 0.1, r);
    const end = A.positions.slice();
    for (let i = 0; i < end.length; i++) end[i] += (r() - 0.5) * 0.5;
    const b = TriangleBVH.build(A.positions, A.indices, undefined, 6, split);
    b.refitSwept(A.positions, end);
    let leaves = 0, covered = 0;
    for (let n = 0; n < b.nodeCount; n++) {
      const o = n * 8;
      if (b.isLeaf(n)) {
        leaves++;
        expect(b.leafCount(n), 'a leaf holds at most maxLeafSize triangles').toBeLessThanOrEqual(6);
        for (let s = b.leafStart(n); s < b.leafStart(n) + b.leafCount(n); s++) {
          covered++;
          const t = b.order[s];
          for (const P of [A.positions, end]) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) {
            const x = P[A.indices[t * 3 + j] * 3 + k];
            expect(x >= b.f32[o + k] && x <= b.f32[o + 3 + k], 'vertex inside its leaf box').toBe(true);
          }
        }
      } else {
        for (const c of [n + 1, b.rightChild(n)]) for (let k = 0; k < 3; k++) {
          expect(b.f32[c * 8 + k] >= b.f32[o + k] && b.f32[c * 8 + 3 + k] <= b.f32[o + 3 + k], 'child inside parent').toBe(true);
        }
      }
    }
    expect(covered, 'every triangle in exactly one leaf').toBe(500);
    expect(new Set(b.order).size).toBe(500);
    expect(leaves).toBeGreaterThan(50);
  });
  it('seed 9: a box rounded to float32 holds its vertices and is at most four float32 steps wider (magnitudes from 1e-45 to 1e30, zeros, both signs)', () => {
    const r = mulberry32(9);
    // the float32 next below / above a float32 (f32Down / f32Up of a float32 is itself)
    const below = (y: number) => f32Down(y - Math.abs(y) * 2 ** -30 - 1e-46), above = (y: number) => f32Up(y + Math.abs(y) * 2 ** -30 + 1e-46);
    const idx = new Uint32Array([0, 1, 2]);
    const pos = new Float64Array(9);
    for (let i = 0; i < 3000; i++) {
      for (let k = 0; k < 9; k++) {
        const e = r() < 0.1 ? 0 : (r() < 0.5 ? -1 : 1) * r() * 10 ** (Math.floor(r() * 76) - 45);
        pos[k] = e;
      }
      const b = TriangleBVH.build(pos, idx);
      for (let k = 0; k < 3; k++) {
        const lo = Math.min(pos[k], pos[3 + k], pos[6 + k]), hi = Math.max(pos[k], pos[3 + k], pos[6 + k]);
        const bl = b.f32[k], bh = b.f32[3 + k];
        expect(bl <= lo && bh >= hi, `case ${i} axis ${k}: [${bl}, ${bh}] holds [${lo}, ${hi}]`).toBe(true);
        expect(bl >= below(below(below(f32Down(lo)))) && bh <= above(above(above(f32Up(hi)))), `case ${i} axis ${k}: [${bl}, ${bh}] within four float32 steps of [${lo}, ${hi}]`).toBe(true);
      }
    }
  });
  it('seed 21: boxes taken without branches on the coordinates (leaves, unions of children) are those of the branches, bit for bit, with ties and signed zeros', () => {
    const r = mulberry32(21);
    // coordinates from a small set (many ties, +0 and -0) and random ones
    const pick = [0, -0, 1, -1, 0.5, -0.5, 1e-30, -1e-30];
    const n = 400, pos = new Float64Array(n * 9), idx = new Uint32Array(n * 3);
    for (let i = 0; i < pos.length; i++) pos[i] = r() < 0.5 ? pick[Math.floor(r() * pick.length)] : (r() - 0.5) * 2;
    // shared vertices: a third of the corners reuse an earlier vertex
    for (let i = 0; i < idx.length; i++) idx[i] = i > 3 && r() < 0.33 ? Math.floor(r() * i) : i;
    for (const split of ['median', 'sah'] as const) {
      const a = TriangleBVH.build(pos, idx, undefined, 4, split), b = TriangleBVH.build(pos, idx, undefined, 4, split);
      a.refit(pos); // one sample: the branch-free leaf boxes
      b.refitSwept(pos, pos); // both samples equal: the same vertex sets through the branching loops
      let leaves = 0, inner = 0;
      for (let nd = 0; nd < a.nodeCount; nd++) {
        const o = nd * 8;
        if ((a.u32[o + 7] & 0x80000000) !== 0) {
          leaves++;
          for (let k = 0; k < 6; k++) expect(Object.is(a.f32[o + k], b.f32[o + k]), `${split} leaf ${nd} bound ${k}: ${a.f32[o + k]} is ${b.f32[o + k]}`).toBe(true);
        } else {
          inner++;
          const l = (nd + 1) * 8, rr = a.u32[o + 6] * 8;
          for (let k = 0; k < 3; k++) {
            const lo = a.f32[l + k] < a.f32[rr + k] ? a.f32[l + k] : a.f32[rr + k];
            const hi = a.f32[l + 3 + k] > a.f32[rr + 3 + k] ? a.f32[l + 3 + k] : a.f32[rr + 3 + k];
            expect(Object.is(a.f32[o + k], lo) && Object.is(a.f32[o + 3 + k], hi), `${split} node ${nd} axis ${k}: the union of its children`).toBe(true);
          }
        }
      }
      expect(leaves > 50 && inner > 50, 'a tree with many nodes').toBe(true);
      // the lazy refit, every chunk expanded: the same tree
      const c = TriangleBVH.build(pos, idx, undefined, 4, split);
      c.refitLazy(pos, null, 16);
      for (let nd = 0; nd < c.nodeCount; nd++) if (c.chunkOf![nd] >= 0) c.ensureChunk(c.chunkOf![nd]);
      for (let i = 0; i < a.nodeCount * 8; i++) if ((i & 7) < 6) expect(Object.is(c.f32[i], a.f32[i]), `${split} lazy node ${i >> 3} bound ${i & 7}`).toBe(true);
    }
  });
  it('builds over a subset of triangles (a body part) and only reports those', () => {
    const r = mulberry32(5);
    const A = triangleSoup(200, 1, 0.2, r), B = triangleSoup(200, 1, 0.2, r);
    const subset = new Uint32Array(Array.from({ length: 100 }, (_, i) => i * 2));
    const ba = TriangleBVH.build(A.positions, A.indices, subset), bb = TriangleBVH.build(B.positions, B.indices);
    const got = bvhIntersecting(ba, A.positions, bb, B.positions);
    const ref = [...bruteIntersecting(A.positions, A.indices, B.positions, B.indices)].filter((k) => Number(k.split(':')[0]) % 2 === 0);
    expect([...got].sort()).toEqual(ref.sort());
  });
});

describe('point inside closed mesh', () => {
  for (const seed of [6, 7]) {
    it(`seed ${seed}: exact ray parity agrees with the generalized winding number`, () => {
      const r = mulberry32(seed);
      const m = uvSphere(24, 16, 0.1, -0.2, 0.3, 1, r, 0.6);
      const b = TriangleBVH.build(m.positions, m.indices);
      let inside = 0;
      for (let i = 0; i < 1500; i++) {
        const p = [0.1 + (r() - 0.5) * 3, -0.2 + (r() - 0.5) * 3, 0.3 + (r() - 0.5) * 3];
        const w = windingNumber(m, p[0], p[1], p[2]);
        if (Math.abs(w - Math.round(w)) > 1e-6) continue;
        const got = pointInMesh(b, m.positions, p);
        expect(got, `point ${p} winding ${w}`).toBe(Math.round(w) === 1 ? 1 : 0);
        if (got === 1) inside++;
      }
      expect(inside).toBeGreaterThan(100);
    });
  }
  it('points exactly on vertices, edges and faces of a cube are on the surface; rays through edges are recast', () => {
    // unit cube, 12 triangles, outward
    const P = new Float64Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1]);
    const I = new Uint32Array([0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3]);
    const b = TriangleBVH.build(P, I);
    expect(pointInMesh(b, P, [0.5, 0.5, 0.5]), 'centre').toBe(1);
    expect(pointInMesh(b, P, [1, 1, 1]), 'corner').toBe(2);
    expect(pointInMesh(b, P, [0.5, 0, 0]), 'edge').toBe(2);
    expect(pointInMesh(b, P, [0.25, 0.25, 1]), 'face').toBe(2);
    expect(pointInMesh(b, P, [0.5, 0.5, 1 + 2 ** -40]), 'just outside').toBe(0);
    expect(pointInMesh(b, P, [0.5, 0.5, 1 - 2 ** -40]), 'just inside').toBe(1);
    // points on the diagonal: rays along (1,1,1)/√3 from here pass through cube edges/corners
    expect(pointInMesh(b, P, [0.25, 0.25, 0.25]), 'diagonal point inside').toBe(1);
  });
  it('seed 8: closest point on mesh equals the brute-force minimum over triangles', () => {
    const r = mulberry32(8);
    const m = uvSphere(16, 10, 0, 0, 0, 1, r, 0.5);
    const b = TriangleBVH.build(m.positions, m.indices);
    const out = new Float64Array(3), cp = new Float64Array(3);
    for (let i = 0; i < 300; i++) {
      const p = [(r() - 0.5) * 4, (r() - 0.5) * 4, (r() - 0.5) * 4];
      const d = closestPointOnMesh(b, m.positions, p[0], p[1], p[2], out);
      let best = Infinity;
      for (let t = 0; t < m.indices.length / 3; t++) {
        closestPointOnTriangle(p[0], p[1], p[2], m.positions, m.indices[t * 3] * 3, m.indices[t * 3 + 1] * 3, m.indices[t * 3 + 2] * 3, cp);
        best = Math.min(best, Math.hypot(cp[0] - p[0], cp[1] - p[1], cp[2] - p[2]));
      }
      expect(Math.abs(d - best), 'BVH distance equals brute force').toBeLessThan(1e-12);
    }
  });
});

describe('lazy refit (chunk boxes first, a chunk inside when a traversal reaches it)', () => {
  for (const seed of [5, 6]) {
    it(`seed ${seed}: after deforming, every query answers as after a full refit (pairs, closest points, inside tests, vertices in a box)`, async () => {
      const { verticesInBox } = await import('./query');
      const { signedDistance, vertexTriangles } = await import('./signed');
      const r = mulberry32(seed);
      const A = uvSphere(40, 30, 0, 0, 0, 0.5, r, 0.2), B = uvSphere(36, 24, 0.4, 0.1, 0, 0.45, r, 0.2);
      const lazyA = TriangleBVH.build(A.positions, A.indices, undefined, 4), lazyB = TriangleBVH.build(B.positions, B.indices, undefined, 4);
      const fullA = TriangleBVH.build(A.positions, A.indices, undefined, 4), fullB = TriangleBVH.build(B.positions, B.indices, undefined, 4);
      const vtA = vertexTriangles(A.indices, A.positions.length / 3);
      for (let step = 0; step < 3; step++) {
        // a smooth deformation (a bend and a wobble), then both refits
        const k = 0.3 * (r() - 0.5), w = 0.05 * r();
        for (let i = 0; i < A.positions.length; i += 3) {
          const x = A.positions[i], y = A.positions[i + 1];
          A.positions[i] = x + k * y * y + w * Math.sin(7 * y);
          A.positions[i + 2] += w * Math.cos(5 * x);
        }
        lazyA.refitLazy(A.positions, null, 16); lazyB.refitLazy(B.positions, null, 16);
        fullA.refit(A.positions); fullB.refit(B.positions);
        expect(lazyA.chunkOf, 'lazy mode is on').not.toBeNull();
        expect([...bvhIntersecting(lazyA, A.positions, lazyB, B.positions)].sort(), `step ${step}: intersecting pairs`).toEqual([...bvhIntersecting(fullA, A.positions, fullB, B.positions)].sort());
        const out = new Float64Array(3), box = new Float64Array(6);
        for (let q = 0; q < 60; q++) {
          const p = [(r() - 0.5) * 1.4, (r() - 0.5) * 1.4, (r() - 0.5) * 1.4];
          expect(closestPointOnMesh(lazyA, A.positions, p[0], p[1], p[2], out), `step ${step} point ${q}: distance`).toBe(closestPointOnMesh(fullA, A.positions, p[0], p[1], p[2], out));
          expect(signedDistance(lazyA, A.positions, vtA, p[0], p[1], p[2], null), `step ${step} point ${q}: signed distance`).toBe(signedDistance(fullA, A.positions, vtA, p[0], p[1], p[2], null));
          expect(pointInMesh(lazyA, A.positions, p), `step ${step} point ${q}: inside`).toBe(pointInMesh(fullA, A.positions, p));
        }
        for (let q = 0; q < 10; q++) {
          for (let c = 0; c < 3; c++) { const a = (r() - 0.5) * 1.2, b = a + 0.4 * r(); box[c] = a; box[3 + c] = b; }
          const nv = A.positions.length / 3, s1 = new Uint32Array(nv), s2 = new Uint32Array(nv), o1 = new Int32Array(nv), o2 = new Int32Array(nv);
          const n1 = verticesInBox(lazyA, A.positions, box, s1, 1, o1), n2 = verticesInBox(fullA, A.positions, box, s2, 1, o2);
          expect([...o1.subarray(0, n1)].sort((x, y) => x - y), `step ${step} box ${q}: vertices`).toEqual([...o2.subarray(0, n2)].sort((x, y) => x - y));
        }
      }
    });
  }

  it('seed 7: chunk boxes gathered by the caller (refitLazyBoxes) give the same tree as refitLazy', () => {
    const r = mulberry32(7);
    const A = uvSphere(40, 30, 0, 0, 0, 0.5, r, 0.2);
    const lazy = TriangleBVH.build(A.positions, A.indices, undefined, 4), given = TriangleBVH.build(A.positions, A.indices, undefined, 4);
    const { verts, offsets } = given.lazyChunks();
    const boxes = new Float64Array((offsets.length - 1) * 6);
    for (let step = 0; step < 3; step++) {
      for (let i = 0; i < A.positions.length; i++) A.positions[i] += 0.02 * (r() - 0.5);
      for (let c = 0; c + 1 < offsets.length; c++) {
        for (let k = 0; k < 3; k++) { boxes[c * 6 + k] = Infinity; boxes[c * 6 + 3 + k] = -Infinity; }
        for (let s = offsets[c]; s < offsets[c + 1]; s++) for (let k = 0; k < 3; k++) {
          const x = A.positions[verts[s] + k];
          boxes[c * 6 + k] = Math.min(boxes[c * 6 + k], x);
          boxes[c * 6 + 3 + k] = Math.max(boxes[c * 6 + 3 + k], x);
        }
      }
      lazy.refitLazy(A.positions, null);
      given.refitLazyBoxes(A.positions, boxes);
      expect(Array.from(given.f32), `step ${step}: node boxes equal`).toEqual(Array.from(lazy.f32));
      expect(given.chunkOf, 'lazy mode is on').not.toBeNull();
    }
  });

  it('seed 8: swept refit from both samples\' chunk boxes (refitLazyBoxesSwept) gives the same tree as refitLazy over both samples, expanded chunks included', () => {
    const r = mulberry32(8);
    const A = uvSphere(40, 30, 0, 0, 0, 0.5, r, 0.2);
    const lazy = TriangleBVH.build(A.positions, A.indices, undefined, 4), given = TriangleBVH.build(A.positions, A.indices, undefined, 4);
    const { verts, offsets } = given.lazyChunks();
    const nc = offsets.length - 1;
    const gather = (P: Float64Array, out: Float64Array) => {
      for (let c = 0; c < nc; c++) {
        for (let k = 0; k < 3; k++) { out[c * 6 + k] = Infinity; out[c * 6 + 3 + k] = -Infinity; }
        for (let s = offsets[c]; s < offsets[c + 1]; s++) for (let k = 0; k < 3; k++) {
          const x = P[verts[s] + k];
          out[c * 6 + k] = Math.min(out[c * 6 + k], x);
          out[c * 6 + 3 + k] = Math.max(out[c * 6 + 3 + k], x);
        }
      }
    };
    let prev = Float64Array.from(A.positions);
    const boxes = new Float64Array(nc * 6), prevBoxes = new Float64Array(nc * 6);
    for (let step = 0; step < 3; step++) {
      const cur = Float64Array.from(prev);
      for (let i = 0; i < cur.length; i++) cur[i] += 0.05 * (r() - 0.5);
      gather(cur, boxes);
      gather(prev, prevBoxes);
      lazy.refitLazy(cur, prev);
      given.refitLazyBoxesSwept(cur, prev, boxes, prevBoxes);
      expect(Array.from(given.f32), `step ${step}: node boxes equal`).toEqual(Array.from(lazy.f32));
      for (let c = 0; c < nc; c++) { lazy.ensureChunk(c); given.ensureChunk(c); }
      expect(Array.from(given.f32), `step ${step}: node boxes equal after every chunk is expanded`).toEqual(Array.from(lazy.f32));
      prev = cur;
    }
  });
});
