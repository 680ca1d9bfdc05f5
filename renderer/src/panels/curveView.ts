/**
 * The curve editor's frame/value <-> pixel mapping (view state: never in the
 * document, never an undo step). Horizontally it is the dope sheet's
 * `SheetView` (`frameToX` / `xToFrame` of sheetView.ts); vertically `topValue`
 * is the value on the graph's top edge and `pxPerUnit` the zoom (values grow
 * upwards).
 */
import { fitView, MAX_PX_PER_FRAME, MIN_PX_PER_FRAME, type SheetView } from './sheetView';

export interface CurveView extends SheetView {
  /** Value on the graph's top edge (y = 0). */
  topValue: number;
  /** Pixels per unit of value (metres, degrees, scale). */
  pxPerUnit: number;
}

export const MIN_PX_PER_UNIT = 1e-4;
export const MAX_PX_PER_UNIT = 1e6;

export function valueToY(view: CurveView, value: number): number {
  return (view.topValue - value) * view.pxPerUnit;
}

export function yToValue(view: CurveView, y: number): number {
  return view.topValue - y / view.pxPerUnit;
}

function clampUnitZoom(pxPerUnit: number): number {
  return Math.min(MAX_PX_PER_UNIT, Math.max(MIN_PX_PER_UNIT, pxPerUnit));
}

/**
 * Frame all: the clip's range `start`..`end` across `widthPx`, and the values
 * `lo`..`hi` in `heightPx` less `padPx` above and below (a flat curve gets a
 * band of ±1 around its value).
 */
export function fitCurveView(start: number, end: number, widthPx: number, lo: number, hi: number, heightPx: number, padPx = 16): CurveView {
  const h = fitView(start, end, widthPx);
  if (!(hi >= lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [-1, 1];
  if (hi - lo < 1e-6) [lo, hi] = [lo - 1, hi + 1];
  const avail = Math.max(1, heightPx - 2 * padPx);
  const pxPerUnit = clampUnitZoom(avail / (hi - lo));
  return { ...h, topValue: hi + padPx / pxPerUnit, pxPerUnit };
}

/** Zoom values by `factor` around pixel row `y` (the value under `y` stays there). */
export function zoomValueAt(view: CurveView, y: number, factor: number): CurveView {
  const pxPerUnit = clampUnitZoom(view.pxPerUnit * factor);
  const anchor = yToValue(view, y);
  return { ...view, topValue: anchor + y / pxPerUnit, pxPerUnit };
}

/** Zoom time by `factor` around pixel column `x` (the frame under `x` stays there). */
export function zoomTimeAt(view: CurveView, x: number, factor: number): CurveView {
  const pxPerFrame = Math.min(MAX_PX_PER_FRAME, Math.max(MIN_PX_PER_FRAME, view.pxPerFrame * factor));
  const anchor = view.originFrame + x / view.pxPerFrame;
  return { ...view, originFrame: anchor - x / pxPerFrame, pxPerFrame };
}

/** Pan by a pointer movement of (dx, dy) pixels: the graph follows the pointer. */
export function panCurveView(view: CurveView, dxPx: number, dyPx: number): CurveView {
  return { ...view, originFrame: view.originFrame - dxPx / view.pxPerFrame, topValue: view.topValue + dyPx / view.pxPerUnit };
}

/** Value label step: the smallest of …, 0.1, 0.2, 0.5, 1, 2, 5, 10, … whose labels are `minSpacingPx` apart. */
export function valueStep(pxPerUnit: number, minSpacingPx = 22): number {
  const raw = minSpacingPx / pxPerUnit;
  const decade = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * decade >= raw * (1 - 1e-12)) return m * decade;
  return 10 * decade;
}

/** Labelled values (multiples of `step`) between pixel rows `fromY` (top) and `toY` (bottom). */
export function valueTicks(view: CurveView, fromY: number, toY: number, step: number): number[] {
  const out: number[] = [];
  const hi = yToValue(view, fromY), lo = yToValue(view, toY);
  for (let i = Math.ceil(lo / step); i * step <= hi && out.length < 200; i++) out.push(i * step + 0);
  return out;
}

/** A value label with as many decimals as the step needs. */
export function formatValue(v: number, step: number): string {
  const digits = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  return v.toFixed(digits);
}

// ---------------------------------------------------------------------------
// Tangent handles. The graph plots value (px per unit, up) against frames (px
// per frame, right); a cubic key's tangent is a slope in units per second
// (glTF CUBICSPLINE), so on screen a slope `s` rises `s / fps · pxPerUnit`
// pixels per `pxPerFrame` pixels.

/** On-screen length of a tangent handle (from the key to the dot), in pixels. */
export const HANDLE_PX = 40;
/** A handle dragged across its key's time stays this many pixels on its own side (the slope gets steep, never flips). */
export const HANDLE_MIN_DX_PX = 1;

/** In-handle (-1, drawn left of the key) or out-handle (+1, right). */
export type HandleSide = -1 | 1;

/**
 * Offset in pixels (x right, y down) from a key point to the dot of its
 * handle on `side` for a slope of `slopePerSec` units per second: a line of
 * `lengthPx` along the slope as the view draws it.
 */
export function handleOffset(view: CurveView, fps: number, slopePerSec: number, side: HandleSide, lengthPx = HANDLE_PX): { dx: number; dy: number } {
  const ex = view.pxPerFrame;
  const ey = (-slopePerSec / fps) * view.pxPerUnit;
  const len = Math.hypot(ex, ey);
  if (!(len > 0) || !Number.isFinite(len)) return { dx: 0, dy: side * -lengthPx * Math.sign(slopePerSec) };
  return { dx: (side * ex * lengthPx) / len, dy: (side * ey * lengthPx) / len };
}

/**
 * The slope (units per second) of a handle on `side` whose dot is dragged to
 * (dxPx, dyPx) pixels from its key (x right, y down): the line's rise in the
 * graph's values over its run in the graph's frames, times the clip's frame
 * rate. A dot on the wrong side of the key counts as HANDLE_MIN_DX_PX on its own side.
 */
export function slopeFromHandle(view: CurveView, fps: number, dxPx: number, dyPx: number, side: HandleSide): number {
  const run = side * Math.max(side * dxPx, HANDLE_MIN_DX_PX);
  const frames = run / view.pxPerFrame;
  const value = -dyPx / view.pxPerUnit;
  return (value / frames) * fps;
}
