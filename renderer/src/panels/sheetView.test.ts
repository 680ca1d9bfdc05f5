import { clampTimelineHeight, DEFAULT_TIMELINE_HEIGHT, MIN_TIMELINE_HEIGHT, RESERVED_ABOVE_TIMELINE } from '../state/preferences';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test/random';
import { MAX_PX_PER_FRAME, MIN_LABEL_SPACING_PX, MIN_PX_PER_FRAME, clampKeyDelta, rescaleView, clampView, fitView, frameToX, labelStep, panBy, tickFrames, type SheetView, wheelZoomFactor, xToFrame, zoomAt } from './sheetView';

describe('dope sheet view mapping', () => {
  it('frameToX and xToFrame are inverse (seed 11)', () => {
    const rnd = mulberry32(11);
    for (let i = 0; i < 500; i++) {
      const view: SheetView = { originFrame: (rnd() - 0.5) * 1000, pxPerFrame: 0.05 + rnd() * 100 };
      const f = (rnd() - 0.5) * 5000;
      expect(xToFrame(view, frameToX(view, f)), `frame ${f} round trip`).toBeCloseTo(f, 6);
    }
  });

  it('zooming around a pixel keeps the frame under it there (seed 7)', () => {
    const rnd = mulberry32(7);
    for (let i = 0; i < 500; i++) {
      const view: SheetView = { originFrame: (rnd() - 0.5) * 200, pxPerFrame: 0.1 + rnd() * 50 };
      const x = rnd() * 1200;
      const factor = Math.exp((rnd() - 0.5) * 3);
      const before = xToFrame(view, x);
      const next = zoomAt(view, x, factor);
      expect(xToFrame(next, x), `frame under x=${x} after zoom ×${factor}`).toBeCloseTo(before, 6);
      const expectedScale = Math.min(MAX_PX_PER_FRAME, Math.max(MIN_PX_PER_FRAME, view.pxPerFrame * factor));
      expect(next.pxPerFrame).toBeCloseTo(expectedScale, 9);
    }
  });

  it('zoom in then out by the same factor around the same pixel gives the view back', () => {
    const view: SheetView = { originFrame: 12.5, pxPerFrame: 8 };
    const back = zoomAt(zoomAt(view, 333, 1.7), 333, 1 / 1.7);
    expect(back.originFrame).toBeCloseTo(view.originFrame, 9);
    expect(back.pxPerFrame).toBeCloseTo(view.pxPerFrame, 9);
  });

  it('zoom stops at its limits and still keeps the frame under the mouse', () => {
    const v = zoomAt({ originFrame: 0, pxPerFrame: 150 }, 400, 10);
    expect(v.pxPerFrame).toBe(MAX_PX_PER_FRAME);
    expect(xToFrame(v, 400)).toBeCloseTo(400 / 150, 9);
    expect(zoomAt({ originFrame: 0, pxPerFrame: 0.03 }, 10, 0.01).pxPerFrame).toBe(MIN_PX_PER_FRAME);
  });

  it('frame all puts start on x = 0 and end on the last pixel of the area', () => {
    for (const [start, end, avail] of [[0, 60, 1000], [-20, 13, 417], [100, 5100, 900], [5, 9, 300]] as const) {
      const v = fitView(start, end, avail);
      expect(frameToX(v, start), `start of ${start}-${end}`).toBeCloseTo(0, 9);
      expect(frameToX(v, end), `end of ${start}-${end} in ${avail} px`).toBeCloseTo(avail, 6);
    }
  });

  it('panning moves every frame by the same number of pixels', () => {
    const view: SheetView = { originFrame: 3, pxPerFrame: 4 };
    const moved = panBy(view, 50);
    for (const f of [-10, 0, 7, 33.5]) expect(frameToX(moved, f) - frameToX(view, f)).toBeCloseTo(50, 9);
  });

  it('a pan cannot push the whole clip range out of sight', () => {
    const area = 800;
    const far = clampView({ originFrame: 5000, pxPerFrame: 10 }, 0, 60, area);
    expect(frameToX(far, 60), 'the end of the range stays in the area').toBeGreaterThan(0);
    const left = clampView({ originFrame: -5000, pxPerFrame: 10 }, 0, 60, area);
    expect(frameToX(left, 0), 'the start of the range stays in the area').toBeLessThan(area);
    const inside: SheetView = { originFrame: 10, pxPerFrame: 10 };
    expect(clampView(inside, 0, 60, area), 'a view showing the range is unchanged').toBe(inside);
  });

  it('label step: the smallest 1-2-5 step whose labels are far enough apart', () => {
    const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
    const rnd = mulberry32(3);
    for (let i = 0; i < 300; i++) {
      const px = Math.exp(Math.log(MIN_PX_PER_FRAME) + rnd() * (Math.log(MAX_PX_PER_FRAME) - Math.log(MIN_PX_PER_FRAME)));
      const step = labelStep(px);
      // Brute force over the list.
      const want = steps.find((s) => s * px >= MIN_LABEL_SPACING_PX);
      expect(step, `${px} px/frame`).toBe(want);
    }
    expect(labelStep(40)).toBe(1);
    expect(labelStep(8)).toBe(5);
    expect(labelStep(4)).toBe(10);
  });

  it('ticks are the multiples of the step inside the pixel span', () => {
    const view: SheetView = { originFrame: -3.2, pxPerFrame: 2 };
    const ticks = tickFrames(view, 0, 200, 10);
    expect(ticks).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    for (const f of ticks) {
      expect(frameToX(view, f)).toBeGreaterThanOrEqual(0);
      expect(frameToX(view, f)).toBeLessThanOrEqual(200);
    }
  });

  it('the wheel zooms in when rolled up and out when rolled down, symmetrically', () => {
    expect(wheelZoomFactor(-100)).toBeGreaterThan(1);
    expect(wheelZoomFactor(100)).toBeLessThan(1);
    expect(wheelZoomFactor(-100) * wheelZoomFactor(100)).toBeCloseTo(1, 12);
  });
});

describe('clampKeyDelta', () => {
  it('keeps every dragged key inside the range: the drag stops where the first of them meets an end', () => {
    expect(clampKeyDelta([50, 57], 10, 0, 60), 'key 57 stops on 60').toBe(3);
    expect(clampKeyDelta([3, 9], -10, 0, 60), 'key 3 stops on 0').toBe(-3);
    expect(clampKeyDelta([20, 30], 7, 0, 60), 'room enough: as wanted').toBe(7);
    expect(clampKeyDelta([60], 1, 0, 60), 'the last key does not go past End').toBe(0);
  });

  it('never pushes keys already outside the range, and lets them come back in', () => {
    expect(clampKeyDelta([-4, 10], 0, 0, 60)).toBe(0);
    expect(clampKeyDelta([-4, 10], 3, 0, 60), 'back towards the range').toBe(3);
    expect(clampKeyDelta([-4, 10], -2, 0, 60), 'no further out').toBe(0);
    expect(clampKeyDelta([70], -5, 0, 60)).toBe(-5);
    expect(clampKeyDelta([], 9, 0, 60)).toBe(9);
  });

  it('brute force: for seeded key sets and drags, the result is the wanted move closest to it that leaves no key further outside', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let n = 0; n < 500; n++) {
      const start = Math.floor(rnd() * 20), end = start + 1 + Math.floor(rnd() * 60);
      const frames = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => start - 5 + Math.floor(rnd() * (end - start + 10)));
      const wanted = Math.floor(rnd() * 120) - 60;
      const allowed = (d: number) => frames.every((f) => (f + d >= start || f + d >= f) && (f + d <= end || f + d <= f));
      let best = 0;
      for (let d = -130; d <= 130; d++) if (allowed(d) && Math.abs(d - wanted) < Math.abs(best - wanted)) best = d;
      const got = clampKeyDelta(frames, wanted, start, end);
      expect(got, JSON.stringify({ frames, wanted, start, end })).toBe(best);
    }
  });
});

describe('rescaleView', () => {
  it('keeps every time under the same pixel when the frame rate changes', () => {
    const v = { originFrame: 31.4, pxPerFrame: 59.2 };
    const w = rescaleView(v, 30, 24);
    for (const x of [0, 100, 517.3, 1070]) {
      // Seconds at pixel x: frame / fps.
      expect(xToFrame(w, x) / 24, `x = ${x}`).toBeCloseTo(xToFrame(v, x) / 30, 12);
    }
    expect(rescaleView(w, 24, 30).originFrame).toBeCloseTo(v.originFrame, 12);
  });
});

describe('timeline height (the bar above the timeline)', () => {
  it('keeps the preference within [MIN_TIMELINE_HEIGHT, window − RESERVED_ABOVE_TIMELINE], whole pixels, the default for garbage', () => {
    expect(clampTimelineHeight(300, 720)).toBe(300);
    expect(clampTimelineHeight(10, 720)).toBe(MIN_TIMELINE_HEIGHT);
    expect(clampTimelineHeight(5000, 720)).toBe(720 - RESERVED_ABOVE_TIMELINE);
    expect(clampTimelineHeight(250.6, 720)).toBe(251);
    expect(clampTimelineHeight(Number.NaN, 720)).toBe(DEFAULT_TIMELINE_HEIGHT);
    // A window too small for both: the timeline keeps its least height (the viewport gives way).
    expect(clampTimelineHeight(300, 200)).toBe(MIN_TIMELINE_HEIGHT);
    expect(clampTimelineHeight(Number.NaN, 300)).toBe(MIN_TIMELINE_HEIGHT);
  });
});
