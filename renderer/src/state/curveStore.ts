/**
 * The curve editor's view state (not the document, not undoable): which view
 * the timeline area shows, the curve view's zoom and pan, the hidden channels
 * and the key whose value the field edits.
 *
 * The key selection is the dope sheet's (`useEphemeral().selectedKeys`), so
 * both views, the transport's interpolation / tangent menus and undo share
 * it: a key picked on a curve is stored as a `CurveKeyRef` (a `SelectedKey`
 * with the channel it was picked on); a key selected in the dope sheet (no
 * channel) stands for every curve's key of that object on that frame.
 */
import { create } from 'zustand';
import type { TrackTarget } from '../../../core/document/types';
import type { CurveView } from '../panels/curveView';
import type { CurveChannelId, CurveKeyRef } from './curveData';
import { sameTarget } from './keys';
import type { SelectedKey } from './ephemeral';

export type TimelineMode = 'dopesheet' | 'curves';

export interface CurveEditorState {
  mode: TimelineMode;
  /** Zoom and pan; null: frame all (the clip's range and the shown curves' values fill the graph). */
  view: CurveView | null;
  hidden: CurveChannelId[];
  /** The key the value field edits (the last one clicked). */
  active: CurveKeyRef | null;
}

export const useCurves = create<CurveEditorState>()(() => ({ mode: 'dopesheet', view: null, hidden: [], active: null }));

export function toggleTimelineMode(): TimelineMode {
  const mode: TimelineMode = useCurves.getState().mode === 'curves' ? 'dopesheet' : 'curves';
  useCurves.setState({ mode });
  return mode;
}

/** Whether keyboard focus is in the curve editor (a click in it gives it focus). */
export function curvesFocused(): boolean {
  if (typeof document === 'undefined') return false;
  const el = document.activeElement;
  return !!el && typeof el.closest === 'function' && el.closest('[data-curves]') !== null;
}

function channelOf(k: SelectedKey): CurveChannelId | undefined {
  return (k as Partial<CurveKeyRef>).channel;
}

/** Whether the key of `channel` of `target` on `frame` is selected (picked on that curve, or its frame selected in the dope sheet). */
export function isCurveKeySelected(selected: readonly SelectedKey[], target: TrackTarget, channel: CurveChannelId, frame: number): boolean {
  for (const k of selected) {
    if (k.frame !== frame || !sameTarget(k.target, target)) continue;
    const c = channelOf(k);
    if (c === undefined || c === channel) return true;
  }
  return false;
}

/** The selection with the curve key `ref` added (if absent) or taken out (if selected). */
export function toggleCurveKey(selected: readonly SelectedKey[], ref: CurveKeyRef): SelectedKey[] {
  const i = selected.findIndex((k) => k.frame === ref.frame && sameTarget(k.target, ref.target) && channelOf(k) === ref.channel);
  if (i >= 0) return [...selected.slice(0, i), ...selected.slice(i + 1)];
  return [...selected, ref];
}
