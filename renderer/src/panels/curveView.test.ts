import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test/random';
import { frameToX } from './sheetView';
import { fitCurveView, formatValue, handleOffset, HANDLE_MIN_DX_PX, HANDLE_PX, panCurveView, slopeFromHandle, valueStep, valueTicks, valueToY, yToValue, zoomTimeAt, zoomValueAt } from './curveView';

describe('curve view mapping', () => {
  it('frame all puts the clip range across the width and the value range inside the padded height', () => {
    const v = fitCurveView(10, 70, 600, -0.5, 2.5, 200, 16);
    expect(frameToX(v, 10)).toBeCloseTo(0, 9);
    expect(frameToX(v, 70)).toBeCloseTo(600, 9);
    expect(valueToY(v, 2.5)).toBeCloseTo(16, 9);
    expect(valueToY(v, -0.5)).toBeCloseTo(184, 9);
    // A flat curve still gets a band around its value.
    const flat = fitCurveView(0, 10, 100, 3, 3, 100);
    expect(valueToY(flat, 3)).toBeCloseTo(50, 9);
  });

  it('seed 7: zooming keeps the value / frame under the pointer, pan follows the pointer, y <-> value round-trips', () => {
    const r = mulberry32(7);
    for (let i = 0; i < 200; i++) {
      const v = fitCurveView(0, 1 + r() * 100, 100 + r() * 900, -r() * 50, r() * 50, 100 + r() * 400);
      const y = r() * 300, x = r() * 800;
      expect(yToValue(v, valueToY(v, 1.234))).toBeCloseTo(1.234, 9);
      const z = zoomValueAt(v, y, 0.2 + r() * 4);
      expect(yToValue(z, y)).toBeCloseTo(yToValue(v, y), 9);
      const zt = zoomTimeAt(v, x, 0.2 + r() * 4);
      expect(zt.originFrame + x / zt.pxPerFrame).toBeCloseTo(v.originFrame + x / v.pxPerFrame, 9);
      const dx = (r() - 0.5) * 200, dy = (r() - 0.5) * 200;
      const p = panCurveView(v, dx, dy);
      expect(valueToY(p, 0.7)).toBeCloseTo(valueToY(v, 0.7) + dy, 9);
      expect(frameToX(p, 5)).toBeCloseTo(frameToX(v, 5) + dx, 9);
    }
  });

  it('value labels are 1, 2 or 5 × a power of ten, at least the spacing apart, and every label is in sight', () => {
    for (const ppu of [0.013, 0.9, 3, 47, 999, 12345]) {
      const step = valueStep(ppu);
      expect(step * ppu).toBeGreaterThanOrEqual(22 - 1e-9);
      expect(step * ppu / 2.5).toBeLessThan(22 * 1.0000001); // not more than one 1-2-5 rung too coarse
      const m = step / Math.pow(10, Math.floor(Math.log10(step) + 1e-12));
      expect([1, 2, 5].some((x) => Math.abs(m - x) < 1e-9), `step ${step}`).toBe(true);
      const v = fitCurveView(0, 10, 100, -3, 7, 300);
      const ticks = valueTicks({ ...v, pxPerUnit: ppu }, 0, 300, step);
      for (const t of ticks) {
        const y = valueToY({ ...v, pxPerUnit: ppu }, t);
        expect(y).toBeGreaterThanOrEqual(-1e-6);
        expect(y).toBeLessThanOrEqual(300 + 1e-6);
      }
    }
    expect(formatValue(0.30000000000000004, 0.1)).toBe('0.3');
    expect(formatValue(20, 10)).toBe('20');
  });
});

describe('tangent handles on screen', () => {
  it('seed 23: a handle drawn for a slope is HANDLE_PX long, on its side, along that slope in the graph; dragging its dot there gives the slope back', () => {
    const r = mulberry32(23);
    for (let i = 0; i < 500; i++) {
      const view = { originFrame: r() * 20 - 10, pxPerFrame: 0.5 + r() * 40, topValue: r() * 10 - 5, pxPerUnit: Math.exp(r() * 10 - 3) };
      const fps = [24, 25, 30, 60][i % 4];
      const slope = (r() - 0.5) * Math.exp(r() * 8 - 2);
      for (const side of [-1, 1] as const) {
        const o = handleOffset(view, fps, slope, side);
        expect(Math.hypot(o.dx, o.dy)).toBeCloseTo(HANDLE_PX, 9);
        expect(Math.sign(o.dx), 'in to the left, out to the right').toBe(side);
        // The line's rise over its run, in the graph's values and frames, is the slope per frame.
        const perFrame = -o.dy / view.pxPerUnit / (o.dx / view.pxPerFrame);
        expect(Math.abs(perFrame - slope / fps)).toBeLessThan(1e-9 * Math.max(1, Math.abs(slope / fps)));
        if (Math.abs(o.dx) >= HANDLE_MIN_DX_PX) expect(Math.abs(slopeFromHandle(view, fps, o.dx, o.dy, side) - slope)).toBeLessThan(1e-9 * Math.max(1, Math.abs(slope)));
      }
    }
  });

  it('a dot dragged across its key stays on its side: the slope of a HANDLE_MIN_DX_PX run (steep, same sense)', () => {
    const view = { originFrame: 0, pxPerFrame: 10, topValue: 1, pxPerUnit: 100 };
    // Out dot 5 px left of the key and 20 px up: counted as 1 px right, 20 px up.
    expect(slopeFromHandle(view, 30, -5, -20, 1)).toBeCloseTo((0.2 / (HANDLE_MIN_DX_PX / 10)) * 30, 9);
    // In dot right of the key, 20 px up: counted as 1 px left, 20 px up (falling into the key).
    expect(slopeFromHandle(view, 30, 5, -20, -1)).toBeCloseTo((0.2 / (-HANDLE_MIN_DX_PX / 10)) * 30, 9);
    // A vertical slope draws a vertical handle (no NaN).
    const o = handleOffset(view, 30, Infinity, 1);
    expect([o.dx, o.dy]).toEqual([0, -HANDLE_PX]);
  });
});
