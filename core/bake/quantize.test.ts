import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../math/random';
import { mat4TransformPoint } from '../math/mat4';
import { dequantMatrix, dequantizePosition, positionDequant, quantizeNormals, quantizePositions, quantizeWeights } from './quantize';

describe('quantize', () => {
  for (const seed of [1, 2, 3]) {
    it(`positions: every vertex within half a grid step per axis, through D as a matrix too (seed ${seed})`, () => {
      const r = mulberry32(seed);
      const a = new Float32Array(3 * 500), b = new Float32Array(3 * 300);
      for (let i = 0; i < a.length; i++) a[i] = (r() - 0.3) * 180 * (i % 3 === 1 ? 1 : 0.3);
      for (let i = 0; i < b.length; i++) b[i] = (r() - 0.5) * 40 + 7;
      const dq = positionDequant([a, b]);
      const step = dq.scale / 32767;
      const D = dequantMatrix(dq);
      const got = new Float64Array(3), viaD = new Float64Array(3);
      for (const p of [a, b]) {
        const q = quantizePositions(p, dq);
        for (let i = 0; i < p.length; i += 3) {
          dequantizePosition(q, i, dq, got);
          mat4TransformPoint(viaD, 0, D, 0, q[i] / 32767, q[i + 1] / 32767, q[i + 2] / 32767);
          for (let c = 0; c < 3; c++) {
            expect(Math.abs(got[c] - p[i + c]), 'half a step').toBeLessThanOrEqual(0.5 * step * (1 + 1e-9));
            expect(Math.abs(viaD[c] - got[c])).toBeLessThanOrEqual(1e-9 * dq.scale);
          }
        }
      }
    });

    it(`weights: integer sums exactly 255 / 65535, each weight within one step (seed ${seed})`, () => {
      const r = mulberry32(seed);
      const n = 2000;
      const w = new Float32Array(4 * n);
      for (let v = 0; v < n; v++) {
        const used = 1 + Math.floor(r() * 4);
        let sum = 0;
        for (let k = 0; k < used; k++) sum += w[4 * v + k] = r() ** 3;
        if (sum === 0) w[4 * v] = sum = 1;
        for (let k = 0; k < 4; k++) w[4 * v + k] /= sum;
      }
      for (const [bits, max] of [[8, 255], [16, 65535]] as const) {
        const q = quantizeWeights(w, bits);
        for (let v = 0; v < n; v++) {
          let s = 0;
          for (let k = 0; k < 4; k++) {
            s += q[4 * v + k];
            expect(Math.abs(q[4 * v + k] / max - w[4 * v + k])).toBeLessThan(1 / max);
            if (w[4 * v + k] === 0) expect(q[4 * v + k], 'unused slots stay 0').toBe(0);
          }
          expect(s).toBe(max);
        }
      }
    });

    it(`normals: int8 within 0.7°, int16 within 0.003° of the unit normal (seed ${seed})`, () => {
      const r = mulberry32(seed);
      const n = new Float32Array(3 * 1000);
      for (let i = 0; i < n.length; i++) n[i] = (r() - 0.5) * (1 + 3 * r());
      for (const [bits, max, limitDeg] of [[8, 127, 0.7], [16, 32767, 0.003]] as const) {
        const q = quantizeNormals(n, bits);
        for (let i = 0; i < n.length; i += 3) {
          const l = Math.hypot(n[i], n[i + 1], n[i + 2]);
          const ql = Math.hypot(q[i], q[i + 1], q[i + 2]);
          const cos = (n[i] * q[i] + n[i + 1] * q[i + 1] + n[i + 2] * q[i + 2]) / (l * ql);
          expect((Math.acos(Math.min(1, cos)) * 180) / Math.PI).toBeLessThan(limitDeg);
          expect(Math.abs(ql / max - 1), 'near unit length').toBeLessThan(bits === 8 ? 0.007 : 3e-5);
        }
      }
    });
  }

  it('a zero normal becomes +Y; an empty mesh gets an identity dequantisation', () => {
    expect(Array.from(quantizeNormals([0, 0, 0], 8))).toEqual([0, 127, 0]);
    expect(positionDequant([new Float32Array(0)])).toEqual({ offset: [0, 0, 0], scale: 1 });
  });
});
