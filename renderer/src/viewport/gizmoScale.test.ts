import { describe, expect, it } from 'vitest';
import { MIN_DRAG_SCALE_RATIO, holdDragScale } from './gizmoScale';
import { mulberry32 } from '../../../core/document/fixtures';

describe('a scale drag does not pass through 0', () => {
  it('keeps values on the start side untouched, and holds 0, sign flips and NaN at the floor on the start side', () => {
    const s = { x: 2.5, y: 0, z: -0.3 };
    expect(holdDragScale(s, [1, 1, 1])).toBe(true);
    expect(s).toEqual({ x: 2.5, y: MIN_DRAG_SCALE_RATIO, z: MIN_DRAG_SCALE_RATIO });
    const m = { x: -2, y: 0.5, z: NaN };
    expect(holdDragScale(m, [-1, -1, -4])).toBe(true);
    expect(m).toEqual({ x: -2, y: -MIN_DRAG_SCALE_RATIO, z: -4 * MIN_DRAG_SCALE_RATIO });
    const ok = { x: 0.9, y: 1.1, z: 3 };
    expect(holdDragScale(ok, [1, 1, 1])).toBe(false);
    expect(ok).toEqual({ x: 0.9, y: 1.1, z: 3 });
  });

  it('seeded: every held result keeps the start sign and size ≥ the floor, and equals the input whenever the input already did', () => {
    const rand = mulberry32(11);
    for (let k = 0; k < 2000; k++) {
      const start: [number, number, number] = [0, 1, 2].map(() => (rand() < 0.3 ? -1 : 1) * (0.01 + 5 * rand())) as [number, number, number];
      const v = { x: 6 * rand() - 3, y: 6 * rand() - 3, z: 6 * rand() - 3 };
      const before = { ...v };
      holdDragScale(v, start);
      (['x', 'y', 'z'] as const).forEach((c, i) => {
        const floor = MIN_DRAG_SCALE_RATIO * Math.abs(start[i]);
        expect(Math.sign(v[c])).toBe(Math.sign(start[i]));
        expect(Math.abs(v[c])).toBeGreaterThanOrEqual(floor);
        if (Math.sign(before[c]) === Math.sign(start[i]) && Math.abs(before[c]) >= floor) expect(v[c]).toBe(before[c]);
      });
    }
  });
});
