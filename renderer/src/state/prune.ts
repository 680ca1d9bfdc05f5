/**
 * Keeps the ephemeral state pointing at things the document still has. An
 * undo (of an import, an added key, a key move), a clip switch or a project
 * load can remove what the selection, the hover or the selected keys refer
 * to; left alone, the Properties panel went blank, the gizmo had nothing to
 * hold and Delete reported keys it could not find.
 */
import type { ImpulseDocument } from '../../../core/document/types';
import { findLimbChains } from '../scene/limbs';
import { activeClip, keyFramesOf } from './keys';
import { useEphemeral, type Ephemeral, type SelectedKey, type Selection } from './ephemeral';
import { useDocStore } from './documentStore';

/** Whether what `sel` names exists in `doc` (null always does). */
export function selectionExists(doc: ImpulseDocument, sel: Selection): boolean {
  if (!sel) return true;
  switch (sel.kind) {
    case 'prop':
      return doc.props.some((p) => p.id === sel.id);
    case 'character':
      return doc.characters.some((c) => c.id === sel.id);
    case 'joint': {
      const c = doc.characters.find((ch) => ch.id === sel.character);
      return !!c && sel.joint >= 0 && sel.joint < c.skeleton.joints.length;
    }
    case 'ik': {
      const c = doc.characters.find((ch) => ch.id === sel.character);
      return !!c && sel.chain >= 0 && sel.chain < findLimbChains(c.skeleton).length;
    }
  }
}

/** The selected keys that still have a key in the active clip. */
export function existingKeys(doc: ImpulseDocument, keys: readonly SelectedKey[]): SelectedKey[] {
  const clip = activeClip(doc);
  if (!clip) return [];
  const frames = new Map<string, Set<number>>();
  return keys.filter((k) => {
    const id = JSON.stringify(k.target);
    let set = frames.get(id);
    if (!set) frames.set(id, (set = new Set(keyFramesOf(clip, k.target))));
    return set.has(k.frame);
  });
}

/** What to change in the ephemeral state so it only names things `doc` has (null: nothing). */
export function pruneEphemeral(doc: ImpulseDocument, e: Pick<Ephemeral, 'selection' | 'hover' | 'selectedKeys'>): Partial<Ephemeral> | null {
  const out: Partial<Ephemeral> = {};
  if (!selectionExists(doc, e.selection)) out.selection = null;
  if (!selectionExists(doc, e.hover)) out.hover = null;
  if (e.selectedKeys.length) {
    const keys = existingKeys(doc, e.selectedKeys);
    if (keys.length !== e.selectedKeys.length) out.selectedKeys = keys;
  }
  return Object.keys(out).length ? out : null;
}

/**
 * Prunes the ephemeral state after every document change (not during a drag:
 * its preview is not final). Selected keys belong to the clip they were picked
 * in: when another clip becomes active (picked, duplicated, created, the
 * active one deleted, or any of these undone) they are cleared, even where
 * the other clip has keys on the same frames (a duplicate, or the clip after
 * a deleted one): Delete, Ctrl+C or a tangent change must not act on keys the
 * animator never picked there.
 *
 * A frame rate change (or its undo) renumbers the clip's keys (they keep their
 * time: frame 30 at 30 fps is 24 at 24 fps): the selected keys and the play
 * range are renumbered with them. They kept their numbers, so the selection
 * named other keys (Delete removed the key now on 24, not the one picked) and
 * the range looped over other motion.
 */
export function installPruning(): () => void {
  let last = useDocStore.getState().history.doc;
  let lastClip = activeClip(last)?.id ?? null;
  return useDocStore.subscribe((s) => {
    const doc = s.history.doc;
    if (doc === last || s.history.drag) return;
    const prev = last;
    last = doc;
    const clipId = activeClip(doc)?.id ?? null;
    const clipChanged = clipId !== lastClip;
    lastClip = clipId;
    let eph = useEphemeral.getState();
    const renumbered = renumberForFrameRate(prev, doc, eph);
    if (renumbered) eph = { ...eph, ...renumbered };
    const change = { ...renumbered, ...pruneEphemeral(doc, clipChanged ? { ...eph, selectedKeys: [] } : eph) };
    if (clipChanged && eph.selectedKeys.length) change.selectedKeys = [];
    if (Object.keys(change).length) useEphemeral.setState(change);
  });
}

/** The selected keys and play ranges renumbered for a new frame rate of their clip between `prev` and `doc` (null: no change). */
export function renumberForFrameRate(prev: ImpulseDocument, doc: ImpulseDocument, e: Pick<Ephemeral, 'selectedKeys' | 'playRanges'>): Partial<Ephemeral> | null {
  const out: Partial<Ephemeral> = {};
  const rate = (d: ImpulseDocument, id: string | undefined) => d.clips.find((c) => c.id === id)?.frameRate;
  const active = activeClip(doc)?.id;
  const from = rate(prev, active), to = rate(doc, active);
  // Selected keys belong to the active clip (a clip switch clears them, above).
  if (e.selectedKeys.length && active === activeClip(prev)?.id && from && to && from !== to)
    out.selectedKeys = e.selectedKeys.map((k) => ({ target: k.target, frame: Math.round((k.frame * to) / from) }));
  let changed = false;
  const ranges = e.playRanges.flatMap((r) => {
    const rFrom = rate(prev, r.clipId), rTo = rate(doc, r.clipId);
    if (!(rFrom && rTo && rFrom !== rTo)) return [r];
    changed = true;
    const a = Math.round((r.from * rTo) / rFrom), b = Math.round((r.to * rTo) / rFrom);
    return b > a ? [{ clipId: r.clipId, from: a, to: b }] : [];
  });
  if (changed) out.playRanges = ranges;
  return Object.keys(out).length ? out : null;
}
