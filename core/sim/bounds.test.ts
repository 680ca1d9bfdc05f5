import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../document/fixtures';
import type { SkinnedMesh } from '../document/types';
import { chunkLowY, chunked, lowChunks, lowChunks2 } from './chunks';
import { jointBoundedBox, slotBounds } from './characterSkin';
import type { Collider, Part } from './collider';

/** jointBoundedBox as it was before the slot centres and extents were made once: from the slot boxes at every call. */
function jointBoundedBoxReference(p: Part, S: Float64Array, out: Float64Array): void {
  for (let c = 0; c < 3; c++) {
    out[c] = Infinity;
    out[3 + c] = -Infinity;
  }
  const slots = p.slots!, B = p.slotBox!;
  for (let k = 0; k < slots.length; k++) {
    const o = 16 * slots[k], b = 6 * k;
    const cx = 0.5 * (B[b] + B[b + 3]), cy = 0.5 * (B[b + 1] + B[b + 4]), cz = 0.5 * (B[b + 2] + B[b + 5]);
    const ex = 0.5 * (B[b + 3] - B[b]), ey = 0.5 * (B[b + 4] - B[b + 1]), ez = 0.5 * (B[b + 5] - B[b + 2]);
    for (let c = 0; c < 3; c++) {
      const m = S[o + c] * cx + S[o + 4 + c] * cy + S[o + 8 + c] * cz + S[o + 12 + c];
      const e = Math.abs(S[o + c]) * ex + Math.abs(S[o + 4 + c]) * ey + Math.abs(S[o + 8 + c]) * ez;
      if (m - e < out[c]) out[c] = m - e;
      if (m + e > out[3 + c]) out[3 + c] = m + e;
    }
  }
  const lo = p.wsMin!, hi = p.wsMax!;
  for (let c = 0; c < 3; c++) {
    let a = out[c], b = out[3 + c];
    if (lo !== 1 || hi !== 1) {
      const x0 = lo * a, x1 = hi * a, y0 = lo * b, y1 = hi * b;
      a = Math.min(x0, x1, y0, y1);
      b = Math.max(x0, x1, y0, y1);
    }
    const pad = 1e-9 * (Math.abs(a) + Math.abs(b)) + 1e-12;
    out[c] = a - pad;
    out[3 + c] = b + pad;
  }
}

describe('joint-bounded boxes', () => {
  it('seed 41: jointBoundedBox gives the numbers of the plain per-call computation, bit for bit (random skins, weights and skin matrices)', () => {
    const rand = mulberry32(41);
    let compared = 0;
    for (let trial = 0; trial < 60; trial++) {
      const nv = 1 + Math.floor(rand() * 120), nj = 1 + Math.floor(rand() * 12);
      const positions = new Float32Array(3 * nv), joints = new Uint16Array(4 * nv), weights = new Float32Array(4 * nv);
      for (let v = 0; v < nv; v++) {
        for (let c = 0; c < 3; c++) positions[3 * v + c] = 2 * (rand() - 0.5);
        // 1 to 4 influences, some vertices with weights not summing to 1 (the weight-sum range)
        const n = 1 + Math.floor(rand() * 4);
        let sum = 0;
        for (let i = 0; i < n; i++) {
          joints[4 * v + i] = Math.floor(rand() * nj);
          sum += weights[4 * v + i] = rand();
        }
        const norm = trial % 3 === 0 ? 1 : sum;
        for (let i = 0; i < n; i++) weights[4 * v + i] /= norm;
      }
      const mesh = { positions, joints, weights } as unknown as SkinnedMesh;
      const verts = Uint32Array.from({ length: nv }, (_, v) => v).filter(() => rand() < 0.7);
      const part = { verts } as Part;
      slotBounds(mesh, part);
      for (let pose = 0; pose < 10; pose++) {
        // skin matrices: rotations with scale and shear, translations, negative entries
        const S = new Float64Array(16 * nj);
        for (let k = 0; k < 16 * nj; k++) S[k] = 4 * (rand() - 0.5);
        const got = new Float64Array(6), want = new Float64Array(6);
        jointBoundedBox(part, S, got);
        jointBoundedBoxReference(part, S, want);
        for (let c = 0; c < 6; c++) expect(Object.is(got[c], want[c]), `trial ${trial} pose ${pose} side ${c}: ${got[c]} vs ${want[c]}`).toBe(true);
        compared++;
      }
    }
    expect(compared).toBe(600);
  });
});

describe('ground-scan chunk flags', () => {
  it('seed 43: lowChunks and lowChunks2 flag exactly the chunks whose chunkLowY bound is below each limit (random clouds and poses)', () => {
    const rand = mulberry32(43);
    let flagged = 0, total = 0;
    for (let trial = 0; trial < 40; trial++) {
      const nv = 1 + Math.floor(rand() * 300);
      const X = new Float64Array(3 * nv);
      for (let k = 0; k < 3 * nv; k++) X[k] = (0.05 + rand()) * (rand() - 0.5);
      const C = chunked(X) as unknown as Collider;
      const nc = C.chunkStart.length - 1;
      for (let p = 0; p < 20; p++) {
        // a pose at an offset in a buffer (as pose0 / pose1 hold one per body)
        const s = 7 * Math.floor(rand() * 3);
        const P = new Float64Array(s + 7);
        for (let c = 0; c < 3; c++) P[s + c] = rand() - 0.5;
        let n2 = 0;
        for (let c = 3; c < 7; c++) n2 += (P[s + c] = rand() - 0.5) ** 2;
        for (let c = 3; c < 7; c++) P[s + c] /= Math.sqrt(n2);
        const limA = P[s + 1] + 0.6 * (rand() - 0.5), limB = P[s + 1] + 0.6 * (rand() - 0.5);
        const a = new Uint8Array(nc), a2 = new Uint8Array(nc), b2 = new Uint8Array(nc);
        const n = lowChunks(C, P, s, limA, a);
        const n2b = lowChunks2(C, P, s, limA, a2, limB, b2);
        let want = 0;
        for (let k = 0; k < nc; k++) {
          const y = chunkLowY(C.chunkSphere, k, P, s);
          expect(a[k], `trial ${trial} pose ${p} chunk ${k}: bound ${y} against ${limA}`).toBe(y < limA ? 1 : 0);
          expect(a2[k], `trial ${trial} pose ${p} chunk ${k} (two limits, first)`).toBe(y < limA ? 1 : 0);
          expect(b2[k], `trial ${trial} pose ${p} chunk ${k} (two limits, second): bound ${y} against ${limB}`).toBe(y < limB ? 1 : 0);
          if (y < limA) want++;
        }
        expect(n, 'count of flagged chunks').toBe(want);
        expect(n2b, 'count of flagged chunks (two limits)').toBe(want);
        flagged += want;
        total += nc;
      }
    }
    // both outcomes occur
    expect(flagged).toBeGreaterThan(0.1 * total);
    expect(flagged).toBeLessThan(0.9 * total);
  });
});
