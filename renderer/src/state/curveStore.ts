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
import type { ImpulseDocument, TrackTarget } from '../../../core/document/types';
import type { CurveView } from '../panels/curveView';
import { CURVE_CHANNELS, deleteCurveKeys, type CurveChannelId, type CurveKeyRef } from './curveData';
import { activeClip, findTrack, sameTarget, timeToFrame } from './keys';
import { setStatus, useEphemeral, type SelectedKey } from './ephemeral';
import { docActions, getDoc } from './documentStore';

export type TimelineMode = 'dopesheet' | 'curves';

export interface CurveEditorState {
  mode: TimelineMode;
  /** Zoom and pan; null: frame all (the clip's range and the shown curves' values fill the graph). */
  view: CurveView | null;
  hidden: CurveChannelId[];
  /** The key the value field edits (the last one clicked). */
  active: CurveKeyRef | null;
  /** Each curve drawn scaled into −1…1 over the clip's range (curveData `normalizeCurves`); the keys keep their units. */
  normalized: boolean;
}

export const useCurves = create<CurveEditorState>()(() => ({ mode: 'dopesheet', view: null, hidden: [], active: null, normalized: false }));

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

/** Whether the key selection holds a key picked on a curve (Delete then removes those tracks' keys only). */
export function hasCurvePicks(selected: readonly SelectedKey[]): boolean {
  return selected.some((k) => channelOf(k) !== undefined);
}

/** Delete (or the delete of a Cut) with the curve editor focused: each picked curve key removes its own track's key (one undo step). */
export function deletePickedCurveKeys(verb: 'Delete' | 'Cut' = 'Delete'): void {
  const selected = useEphemeral.getState().selectedKeys;
  if (!selected.length) return setStatus('Select keys on the curves to delete them');
  const picked = selected.filter((k): k is CurveKeyRef => channelOf(k) !== undefined);
  const plain = selected.filter((k) => channelOf(k) === undefined);
  let removed = 0;
  docActions.edit(
    `${verb} keys`,
    (d) => {
      const clip = activeClip(d as ImpulseDocument);
      if (clip) removed = deleteCurveKeys(clip, picked, plain);
    },
    { before: selected, after: [] },
  );
  useEphemeral.setState({ selectedKeys: [] });
  setStatus(removed ? `${verb === 'Cut' ? 'Cut' : 'Deleted'} ${removed} key${removed === 1 ? '' : 's'} (Ctrl+Z puts them back)` : 'No keys to delete there');
}

/** The object whose curves the Curves view shows for the selection (a prop or a bone), or null. */
export function curveTarget(sel: ReturnType<typeof useEphemeral.getState>['selection']): TrackTarget | null {
  if (sel?.kind === 'prop') return { kind: 'prop', prop: sel.id };
  if (sel?.kind === 'joint') return { kind: 'joint', character: sel.character, joint: sel.joint };
  return null;
}

/** Ctrl+A with the curve editor focused: every key of the shown curves. */
export function selectAllCurveKeys(): void {
  const clip = activeClip(getDoc());
  const target = curveTarget(useEphemeral.getState().selection);
  if (!clip || !target) return setStatus('Select a prop or a bone to pick its keys on the curves');
  const hidden = useCurves.getState().hidden;
  const out: CurveKeyRef[] = [];
  for (const ch of CURVE_CHANNELS) {
    if (hidden.includes(ch.id)) continue;
    const track = findTrack(clip, target, ch.path);
    if (track) for (const t of track.times) out.push({ target, channel: ch.id, frame: timeToFrame(t, clip.frameRate) });
  }
  useEphemeral.setState({ selectedKeys: out });
  setStatus(out.length ? `Picked ${out.length} key${out.length === 1 ? '' : 's'} on the shown curves` : 'No keys on the shown curves');
}
