import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../document/fixtures';
import { acos, atan2 } from '../math/libm';
import { coneSkipCos, twistSkipTan } from './limits';

describe('limit skip margins', () => {
  it('seed 47: a cone cosine above coneSkipCos never has an angle beyond the limit (random and near-boundary cosines, limits over [0, π))', () => {
    const rand = mulberry32(47);
    let skipped = 0, kept = 0;
    for (let trial = 0; trial < 20000; trial++) {
      const L = trial % 50 === 0 ? 0 : rand() * Math.PI * (trial % 7 === 0 ? 1e-3 : 1);
      const thr = coneSkipCos(L);
      // around the limit's cosine, within a few margins, and anywhere in [-1.1, 1.1]
      const x = trial % 2 === 0 ? Math.cos(L) + (rand() - 0.5) * 1e-8 : 2.2 * (rand() - 0.5);
      const angle = acos(x > 1 ? 1 : x < -1 ? -1 : x);
      if (x > thr) {
        skipped++;
        expect(angle > L, `limit ${L}, cosine ${x} (threshold ${thr}): angle ${angle} beyond it`).toBe(false);
      } else kept++;
    }
    expect(skipped).toBeGreaterThan(2000);
    expect(kept).toBeGreaterThan(2000);
    expect(coneSkipCos(-0.1), 'negative limit: never skip').toBe(Infinity);
    expect(coneSkipCos(Math.PI), 'no limit: never skip').toBe(Infinity);
  });

  it('seed 53: a twist with |s| ≤ c · twistSkipTan never has 2 atan2(s, c) beyond ± the limit (random and near-boundary half angles)', () => {
    const rand = mulberry32(53);
    let skipped = 0, kept = 0;
    for (let trial = 0; trial < 20000; trial++) {
      const T = trial % 5 === 0 ? 1e-6 + rand() * 1e-4 : 1e-6 + rand() * (Math.PI - 1e-3 - 1e-6);
      const ratio = twistSkipTan(T);
      // half angle near ± T / 2 or anywhere; c ≥ 0 as twistHalf leaves it, with random lengths
      const half = trial % 2 === 0 ? (rand() < 0.5 ? -1 : 1) * (0.5 * T) * (1 + (rand() - 0.5) * 1e-8) : (rand() - 0.5) * Math.PI;
      const len = 0.1 + rand();
      const s = len * Math.sin(half), c = Math.abs(len * Math.cos(half));
      const phi = 2 * atan2(s, c);
      if (Math.abs(s) <= c * ratio) {
        skipped++;
        expect(phi > T || phi < -T, `limit ${T}, s ${s}, c ${c}: twist ${phi} beyond it`).toBe(false);
      } else kept++;
    }
    expect(skipped).toBeGreaterThan(2000);
    expect(kept).toBeGreaterThan(2000);
    expect(Number.isNaN(twistSkipTan(0)), 'zero limit: never skip').toBe(true);
    expect(Number.isNaN(twistSkipTan(Math.PI - 1e-4)), 'limit near π: never skip').toBe(true);
    expect(Math.abs(1) <= 0 * twistSkipTan(0.8), 'c = 0 with s ≠ 0: not skipped').toBe(false);
  });
});
