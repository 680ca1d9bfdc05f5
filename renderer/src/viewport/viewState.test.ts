import { describe, expect, it } from 'vitest';
import { DOCK_COVER_PX, frameDistance, frameZoom, inUncoveredViewport, uncoveredWidthPx } from './viewState';
import { mulberry32 } from '../../../core/document/fixtures';

describe('framing fits the sphere in the part of the viewport the dock leaves', () => {
  it('seeded: at frameDistance (margin 1) the sphere touches the narrower field and stays inside the other', () => {
    const rand = mulberry32(5);
    for (let k = 0; k < 1000; k++) {
      const r = 0.05 + 3 * rand(), fov = 20 + 60 * rand(), w = 200 + 1600 * rand(), h = 200 + 1000 * rand();
      const d = frameDistance(r, fov, w, h, 1);
      const seen = Math.asin(r / d); // half-angle the sphere takes up, seen from the camera
      const tv = Math.tan((fov * Math.PI) / 360);
      const vHalf = Math.atan(tv), hHalf = Math.atan((tv * w) / h);
      expect(seen).toBeLessThanOrEqual(Math.min(vHalf, hHalf) * (1 + 1e-12));
      expect(seen).toBeCloseTo(Math.min(vHalf, hHalf), 12);
      // the margin moves the camera back by exactly its factor
      expect(frameDistance(r, fov, w, h, 1.1)).toBeCloseTo(1.1 * d, 9);
    }
  });

  it('a narrow uncovered part (1024×560 window: the dock takes 348 px) frames from farther than the height alone asks', () => {
    const w = 760, h = 480;
    const visible = uncoveredWidthPx(w, true);
    expect(visible).toBe(w - DOCK_COVER_PX);
    expect(frameDistance(1, 40, visible, h)).toBeGreaterThan(frameDistance(1, 40, w, h));
    expect(uncoveredWidthPx(w, false)).toBe(w);
    // too narrow to share: the dock is drawn over the view, which keeps its whole width
    expect(uncoveredWidthPx(500, true)).toBe(500);
    expect(inUncoveredViewport(visible + 1, 10, w, h, true)).toBe(false);
    expect(inUncoveredViewport(visible - 1, 10, w, h, true)).toBe(true);
  });

  it('orthographic zoom: the sphere diameter with the margin fits the smaller side in pixels', () => {
    const z = frameZoom(2, 400, 700);
    expect(2 * 2 * 1.1 * z).toBeCloseTo(400, 9);
    expect(2 * 2 * 1.1 * frameZoom(2, 900, 700)).toBeCloseTo(700, 9);
  });
});
