/**
 * The dope sheet's frame <-> pixel mapping (view state: never in the
 * document, never an undo step). Everything drawn on the sheet (ruler labels,
 * key diamonds, playhead, box select, key drag, scrubbing, check bands and
 * impact markers) goes through `frameToX` / `xToFrame` of one `SheetView`.
 *
 * `x` is in pixels from the key area's origin line (the sheet's left edge plus
 * the names column and a small pad); `originFrame` is the (fractional) frame
 * on that line, `pxPerFrame` the zoom.
 */

export interface SheetView {
  /** Frame under x = 0 (may be fractional, may lie outside the clip's range). */
  originFrame: number;
  pxPerFrame: number;
}

/** Zoom limits: a 50 000-frame clip still fits in 1000 px; one frame can fill 200 px. */
export const MIN_PX_PER_FRAME = 0.02;
export const MAX_PX_PER_FRAME = 200;

/** Ruler labels are at least this far apart. */
export const MIN_LABEL_SPACING_PX = 40;

export function frameToX(view: SheetView, frame: number): number {
  return (frame - view.originFrame) * view.pxPerFrame;
}

export function xToFrame(view: SheetView, x: number): number {
  return view.originFrame + x / view.pxPerFrame;
}

function clampZoom(pxPerFrame: number): number {
  return Math.min(MAX_PX_PER_FRAME, Math.max(MIN_PX_PER_FRAME, pxPerFrame));
}

/** The clip range `start`..`end` filling `availPx` (the key area's width less the right pad). */
export function fitView(start: number, end: number, availPx: number): SheetView {
  const span = Math.max(1, end - start);
  return { originFrame: start, pxPerFrame: clampZoom(Math.max(1, availPx) / span) };
}

/**
 * Zoom by `factor` around pixel `x`: the frame under `x` stays under `x`
 * (unless a zoom limit stops the zoom, then the view does not change scale).
 */
export function zoomAt(view: SheetView, x: number, factor: number): SheetView {
  const pxPerFrame = clampZoom(view.pxPerFrame * factor);
  const anchor = xToFrame(view, x);
  return { originFrame: anchor - x / pxPerFrame, pxPerFrame };
}

/** Pan by `dxPx` pixels: the content follows the pointer (drag right shows earlier frames). */
export function panBy(view: SheetView, dxPx: number): SheetView {
  return { originFrame: view.originFrame - dxPx / view.pxPerFrame, pxPerFrame: view.pxPerFrame };
}

/**
 * Keeps part of the clip range in sight: at least a tenth of the visible
 * width (`areaPx`) overlaps `start`..`end`, so a pan cannot lose the clip.
 */
export function clampView(view: SheetView, start: number, end: number, areaPx: number): SheetView {
  const visible = Math.max(1, areaPx) / view.pxPerFrame;
  const lo = start - 0.9 * visible;
  const hi = end - 0.1 * visible;
  const originFrame = Math.min(Math.max(view.originFrame, Math.min(lo, hi)), Math.max(lo, hi));
  return originFrame === view.originFrame ? view : { originFrame, pxPerFrame: view.pxPerFrame };
}

/** Label step in frames: the smallest of 1, 2, 5, 10, 20, 50, … whose labels are `minSpacingPx` apart. */
export function labelStep(pxPerFrame: number, minSpacingPx = MIN_LABEL_SPACING_PX): number {
  for (let decade = 1; ; decade *= 10) {
    for (const m of [1, 2, 5]) {
      const step = m * decade;
      if (step * pxPerFrame >= minSpacingPx) return step;
    }
    if (decade > 1e12) return decade;
  }
}

/** Labelled frames (multiples of `step`) between pixels `fromX` and `toX`. */
export function tickFrames(view: SheetView, fromX: number, toX: number, step: number): number[] {
  const out: number[] = [];
  const last = Math.floor(xToFrame(view, toX) / step) * step;
  // `+ 0` turns -0 (ceil of a small negative) into 0.
  for (let f = Math.ceil(xToFrame(view, fromX) / step) * step + 0; f <= last; f += step) out.push(f);
  return out;
}

/** Wheel delta in pixels (line and page modes scaled as browsers scroll them). */
export function wheelPixels(delta: number, deltaMode: number, pagePx: number): number {
  return deltaMode === 1 ? delta * 16 : deltaMode === 2 ? delta * pagePx : delta;
}

/** Zoom factor for a wheel movement of `deltaPx` (up/away zooms in; 100 px ≈ ×1.22). */
export function wheelZoomFactor(deltaPx: number): number {
  return Math.exp(-deltaPx * 0.002);
}

/**
 * The frames a key drag moves keys shown on `frames` by (`delta` wanted),
 * limited so none of them leaves `start`..`end`, as a paste refuses to; keys
 * already outside the range may move back in but are not pushed (the limit
 * never makes a move the pointer did not).
 */
export function clampKeyDelta(frames: readonly number[], delta: number, start: number, end: number): number {
  if (!frames.length) return delta;
  let lo = Infinity, hi = -Infinity;
  for (const f of frames) {
    lo = Math.min(lo, f);
    hi = Math.max(hi, f);
  }
  const min = Math.min(0, start - lo), max = Math.max(0, end - hi);
  return Math.min(max, Math.max(min, delta));
}

/**
 * The view showing the same times after the clip's rate changes from
 * `fromFps` to `toFps` (its keys are renumbered: frame f becomes f·to/from):
 * the same seconds under the same pixels.
 */
export function rescaleView(view: SheetView, fromFps: number, toFps: number): SheetView {
  const k = toFps / fromFps;
  return { originFrame: view.originFrame * k, pxPerFrame: clampZoom(view.pxPerFrame / k) };
}
