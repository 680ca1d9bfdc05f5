import { describe, expect, it } from 'vitest';
import { cubicRotationSegmentPassesZero } from './quatSpline';
import { mulberry32 } from '../math/random';

/** Two-key cubic rotation track values: [in0, v0, out0, in1, v1, out1]. */
function seg(v0: number[], out0: number[], in1: number[], v1: number[]): number[] {
  return [0, 0, 0, 0, ...v0, ...out0, ...in1, ...v1, 0, 0, 0, 0];
}

/** Brute force: the raw Hermite polynomial's length at u (float64). */
function lengthAt(values: number[], dt: number, u: number): number {
  const u2 = u * u, u3 = u2 * u;
  const h00 = 2 * u3 - 3 * u2 + 1, h10 = (u3 - 2 * u2 + u) * dt, h01 = -2 * u3 + 3 * u2, h11 = (u3 - u2) * dt;
  let s = 0;
  for (let c = 0; c < 4; c++) {
    const x = h00 * values[4 + c] + h10 * values[8 + c] + h01 * values[16 + c] + h11 * values[12 + c];
    s += x * x;
  }
  return Math.sqrt(s);
}

describe('cubicRotationSegmentPassesZero (exact)', () => {
  it('q to -q with zero tangents passes through zero (at u = 1/2)', () => {
    const q = [0.5, 0.5, 0.5, 0.5];
    expect(cubicRotationSegmentPassesZero([0, 1], seg(q, [0, 0, 0, 0], [0, 0, 0, 0], q.map((x) => -x)), 0)).toBe(true);
    expect(cubicRotationSegmentPassesZero([2, 2.7], seg([0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, -1]), 0)).toBe(true);
  });

  it('q to -q with tangents along q (a root at an irrational u) passes; with a sideways tangent it does not', () => {
    // P(u) = f(u) q with f(u) = h00 - h01 + (h10 + h11)·dt·s: f(0) = 1, f(1) = -1, so f has a root in (0, 1).
    const q = [0, 0.6, 0, 0.8];
    const s = 0.5, dt = 0.3; // a power of two: q·s is exact
    expect(cubicRotationSegmentPassesZero([0, dt], seg(q, q.map((x) => x * s), q.map((x) => x * s), q.map((x) => -x)), 0)).toBe(true);
    expect(cubicRotationSegmentPassesZero([0, dt], seg(q, [1, 0, 0, 0], [0, 0, 0, 0], q.map((x) => -x)), 0)).toBe(false);
  });

  it('q to q (no sign change) does not pass through zero', () => {
    const q = [0, 0, Math.SQRT1_2, Math.SQRT1_2];
    expect(cubicRotationSegmentPassesZero([0, 1], seg(q, [0, 0, 0, 0], [0, 0, 0, 0], q), 0)).toBe(false);
  });

  it('seeded random segments (seed 0x5e61): never reported for a segment whose length stays well above zero on a fine grid; reported ones reach zero', () => {
    const r = mulberry32(0x5e61);
    let reported = 0;
    for (let i = 0; i < 400; i++) {
      const pick = Math.floor(r() * 3);
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      // Family 0: random; 1: to -q with tangents exactly along q (power-of-two multiples, so the
      // product is exact: f(u) q with f(0) = 1, f(1) = -1 has a root); 2: to -q with random tangents.
      const sgn = r() < 0.5 ? 1 : -1;
      const s0 = (r() < 0.5 ? -1 : 1) * 2 ** (Math.floor(r() * 5) - 2), s1 = (r() < 0.5 ? -1 : 1) * 2 ** (Math.floor(r() * 5) - 2);
      const rand4 = () => [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5].map((x) => x * 4);
      const v1 = pick === 0 ? [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5] : q.map((x) => sgn * -x);
      const out0 = pick === 1 ? q.map((x) => x * s0) : rand4();
      const in1 = pick === 1 ? q.map((x) => x * s1) : rand4();
      const dt = 0.1 + r();
      const values = seg(q, out0, in1, v1);
      const passes = cubicRotationSegmentPassesZero([1, 1 + dt], values, 0);
      let minLen = Infinity;
      for (let k = 0; k <= 4000; k++) minLen = Math.min(minLen, lengthAt(values, dt, k / 4000));
      if (passes) {
        reported++;
        expect(minLen, `case ${i}: reported as passing through zero`).toBeLessThan(1e-2);
      } else expect(pick === 1 && sgn === 1, `case ${i}: q to -q with tangents along q must be reported`).toBe(false);
      if (minLen > 1e-2) expect(passes, `case ${i}: min length ${minLen} on the grid`).toBe(false);
    }
    expect(reported, 'cases that pass through zero').toBeGreaterThan(30);
  });
});
