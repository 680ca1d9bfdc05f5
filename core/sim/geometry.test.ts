import { describe, expect, it } from 'vitest';
import { isClosedTriangles } from './geometry';
import { isClosedMesh } from '../document/massProperties';
import { boxMesh, icosphereMesh, mulberry32 } from '../document/fixtures';

describe('isClosedTriangles', () => {
  it('seed 23: agrees with isClosedMesh on closed meshes, on them with a face removed, flipped or doubled, and on random soups', () => {
    const rand = mulberry32(23);
    const meshes: Uint32Array[] = [boxMesh(1, 2, 3).indices, icosphereMesh(1, 1).indices, icosphereMesh(1, 2).indices];
    let closed = 0, open = 0;
    for (const base of meshes) {
      const variants: Uint32Array[] = [base];
      for (let k = 0; k < 6; k++) {
        const t = 3 * Math.floor(rand() * (base.length / 3));
        const removed = new Uint32Array(base.length - 3);
        removed.set(base.subarray(0, t));
        removed.set(base.subarray(t + 3), t);
        const flipped = Uint32Array.from(base);
        flipped[t + 1] = base[t + 2];
        flipped[t + 2] = base[t + 1];
        const doubled = new Uint32Array(base.length + 3);
        doubled.set(base);
        doubled.set(base.subarray(t, t + 3), base.length);
        const degenerate = Uint32Array.from(base);
        degenerate[t + 1] = degenerate[t];
        variants.push(removed, flipped, doubled, degenerate);
      }
      for (const v of variants) {
        const want = isClosedMesh(v);
        expect(isClosedTriangles(v), `mesh of ${v.length / 3} triangles`).toBe(want);
        if (want) closed++;
        else open++;
      }
    }
    for (let k = 0; k < 200; k++) {
      // soups on few vertices: some close by chance (tetrahedra and the like)
      const nv = 4 + Math.floor(rand() * 4), nt = 2 + Math.floor(rand() * 8);
      const v = new Uint32Array(3 * nt);
      for (let i = 0; i < v.length; i++) v[i] = Math.floor(rand() * nv);
      const want = isClosedMesh(v);
      expect(isClosedTriangles(v), `soup ${k}: ${Array.from(v)}`).toBe(want);
    }
    // a tetrahedron, both windings
    const tet = Uint32Array.of(0, 1, 2, 0, 3, 1, 1, 3, 2, 2, 3, 0);
    expect(isClosedTriangles(tet)).toBe(true);
    expect(isClosedTriangles(tet.slice().reverse())).toBe(true);
    expect(closed, 'closed cases tested').toBeGreaterThanOrEqual(3);
    expect(open, 'open cases tested').toBeGreaterThan(50);
    expect(isClosedTriangles(new Uint32Array(0))).toBe(false);
  });
});
