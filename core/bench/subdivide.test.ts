import { describe, expect, it } from 'vitest';
import { importGltf } from '../io/importGltf';
import { readAsset } from '../node/assets';
import type { SkinnedMesh } from '../document/types';
import { densify, subdivideSkinnedMesh, surfaceArea } from './subdivide';

const mannequin = async () => (await importGltf(readAsset('characters/mannequin.glb'), 'mannequin.glb')).characters[0];

/** Uses of each undirected edge, by vertex index: histogram uses → edge count. */
function edgeUses(m: SkinnedMesh): Map<number, number> {
  const uses = new Map<string, number>();
  for (let t = 0; t < m.indices.length; t += 3)
    for (let e = 0; e < 3; e++) {
      const a = m.indices[t + e], b = m.indices[t + ((e + 1) % 3)];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  const hist = new Map<number, number>();
  for (const u of uses.values()) hist.set(u, (hist.get(u) ?? 0) + 1);
  return hist;
}

describe('midpoint subdivision of skinned meshes', () => {
  it('keeps the surface, the topology class of every edge and the old vertices; new weights are convex and come from the edge ends', async () => {
    for (const m of (await mannequin()).meshes) {
      const s = subdivideSkinnedMesh(m);
      const nv = m.positions.length / 3, nt = m.indices.length / 3;
      expect(s.indices.length / 3).toBe(4 * nt);
      // an edge used k times becomes two edges used k times; each triangle adds three interior edges used twice
      const before = edgeUses(m), after = edgeUses(s);
      const expected = new Map<number, number>();
      for (const [k, n] of before) expected.set(k, 2 * n);
      expected.set(2, (expected.get(2) ?? 0) + 3 * nt);
      expect([...after].sort()).toEqual([...expected].sort());
      expect(Math.abs(surfaceArea(s) - surfaceArea(m)) / surfaceArea(m)).toBeLessThan(1e-5);
      expect(Array.from(s.positions.subarray(0, nv * 3))).toEqual(Array.from(m.positions));
      expect(Array.from(s.weights.subarray(0, nv * 4))).toEqual(Array.from(m.weights));
      for (let v = nv; v < s.positions.length / 3; v++) {
        let sum = 0;
        for (let k = 0; k < 4; k++) {
          expect(s.weights[v * 4 + k]).toBeGreaterThanOrEqual(0);
          sum += s.weights[v * 4 + k];
        }
        expect(Math.abs(sum - 1)).toBeLessThan(1e-6);
      }
      // each new vertex is the midpoint of an old edge whose ends carry its influences
      for (let t = 0; t < nt; t++) {
        const [a, b, c] = [m.indices[3 * t], m.indices[3 * t + 1], m.indices[3 * t + 2]];
        const ab = s.indices[12 * t + 1];
        for (let q = 0; q < 3; q++) expect(s.positions[ab * 3 + q]).toBeCloseTo(0.5 * (m.positions[a * 3 + q] + m.positions[b * 3 + q]), 5);
        const ends = new Set([...m.joints.subarray(a * 4, a * 4 + 4), ...m.joints.subarray(b * 4, b * 4 + 4)]);
        for (let k = 0; k < 4; k++) if (s.weights[ab * 4 + k] > 0) expect(ends.has(s.joints[ab * 4 + k])).toBe(true);
        expect(c).toBe(s.indices[12 * t + 8]);
      }
    }
  });

  it('densify stops at the triangle count nearest the target', async () => {
    const ch = await mannequin();
    const count = (c: typeof ch) => c.meshes.reduce((s, m) => s + m.indices.length / 3, 0);
    const dense = densify(ch, 50_000);
    const n = count(dense);
    expect(n).toBeGreaterThan(40_000);
    expect(n).toBeLessThan(60_000);
    expect(dense.skeleton).toBe(ch.skeleton);
  });
});
