/**
 * Undo history over immer patches (theatre.js / tldraw style): the document is
 * immutable, every edit is a recipe run through `produceWithPatches`, and the
 * history keeps the forward and inverse patches of each step, never snapshots.
 *
 * A drag is one step: `beginDrag` remembers the document at pointer-down,
 * every `updateDrag` re-runs its recipe against that base (recipes are
 * absolute: "rotation = q", not "rotate by dq"), `commitDrag` records the
 * patches from base to the final state, `cancelDrag` restores the base.
 *
 * Pure functions over a plain `HistoryState` value so they can be tested
 * without React or zustand; `documentStore.ts` wraps them in a store.
 */
import { applyPatches, enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';

enablePatches();

export interface HistoryEntry {
  /** Monotonic id; the saved marker points at one of these. */
  id: number;
  label: string;
  patches: Patch[];
  inverse: Patch[];
  /**
   * View state to restore with the edit (the app stores the dope sheet's key
   * selection): `before` on undo, `after` on redo. Not part of the document.
   */
  selection?: { before: unknown; after: unknown };
}

export interface DragState<D> {
  label: string;
  base: D;
  patches: Patch[];
  inverse: Patch[];
}

export interface HistoryState<D> {
  doc: D;
  past: HistoryEntry[];
  future: HistoryEntry[];
  drag: DragState<D> | null;
  nextId: number;
  /** Id of the newest `past` entry when the document was last saved (0 = initial state). */
  savedId: number;
}

export type Recipe<D> = (draft: Draft<D>) => void;

export const HISTORY_LIMIT = 500;

export function createHistory<D>(doc: D): HistoryState<D> {
  return { doc, past: [], future: [], drag: null, nextId: 1, savedId: 0 };
}

/** Id of the state the document is in now: the newest applied entry, or 0. */
export function currentId<D>(h: HistoryState<D>): number {
  return h.past.length ? h.past[h.past.length - 1].id : 0;
}

export function isDirty<D>(h: HistoryState<D>): boolean {
  return h.drag !== null || currentId(h) !== h.savedId;
}

export function markSaved<D>(h: HistoryState<D>): HistoryState<D> {
  return { ...h, savedId: currentId(h) };
}

function push<D>(h: HistoryState<D>, doc: D, label: string, patches: Patch[], inverse: Patch[], selection?: HistoryEntry['selection']): HistoryState<D> {
  const entry: HistoryEntry = selection ? { id: h.nextId, label, patches, inverse, selection } : { id: h.nextId, label, patches, inverse };
  let past = [...h.past, entry];
  let savedId = h.savedId;
  if (past.length > HISTORY_LIMIT) {
    const dropped = past.slice(0, past.length - HISTORY_LIMIT);
    past = past.slice(past.length - HISTORY_LIMIT);
    // The saved state fell off the end: it can no longer be reached by undo.
    if (dropped.some((e) => e.id === savedId)) savedId = -1;
  }
  // Redo states are discarded; if the saved state was among them it is gone.
  if (h.future.some((e) => e.id === savedId)) savedId = -1;
  return { doc, past, future: [], drag: null, nextId: h.nextId + 1, savedId };
}

/** One undoable edit. An edit that changes nothing leaves no history entry. */
export function edit<D>(h: HistoryState<D>, label: string, recipe: Recipe<D>, selection?: HistoryEntry['selection']): HistoryState<D> {
  if (h.drag) throw new Error(`edit "${label}" while drag "${h.drag.label}" is open`);
  const [doc, patches, inverse] = produceWithPatches(h.doc, recipe);
  if (patches.length === 0) return h;
  return push(h, doc, label, patches, inverse, selection);
}

export function beginDrag<D>(h: HistoryState<D>, label: string): HistoryState<D> {
  if (h.drag) throw new Error(`beginDrag "${label}" while drag "${h.drag.label}" is open`);
  return { ...h, drag: { label, base: h.doc, patches: [], inverse: [] } };
}

/** Re-runs `recipe` against the drag's base document; the previous preview is replaced. */
export function updateDrag<D>(h: HistoryState<D>, recipe: Recipe<D>): HistoryState<D> {
  if (!h.drag) throw new Error('updateDrag without beginDrag');
  const [doc, patches, inverse] = produceWithPatches(h.drag.base, recipe);
  return { ...h, doc, drag: { ...h.drag, patches, inverse } };
}

export function commitDrag<D>(h: HistoryState<D>, selection?: HistoryEntry['selection']): HistoryState<D> {
  if (!h.drag) throw new Error('commitDrag without beginDrag');
  const { patches, inverse, label } = h.drag;
  if (patches.length === 0) return { ...h, doc: h.drag.base, drag: null };
  return push({ ...h, drag: null }, h.doc, label, patches, inverse, selection);
}

export function cancelDrag<D>(h: HistoryState<D>): HistoryState<D> {
  if (!h.drag) return h;
  return { ...h, doc: h.drag.base, drag: null };
}

export function canUndo<D>(h: HistoryState<D>): boolean {
  return h.drag === null && h.past.length > 0;
}
export function canRedo<D>(h: HistoryState<D>): boolean {
  return h.drag === null && h.future.length > 0;
}

export function undo<D>(h: HistoryState<D>): HistoryState<D> {
  if (!canUndo(h)) return h;
  const entry = h.past[h.past.length - 1];
  const doc = applyPatches(h.doc as object, entry.inverse) as D;
  return { ...h, doc, past: h.past.slice(0, -1), future: [entry, ...h.future] };
}

export function redo<D>(h: HistoryState<D>): HistoryState<D> {
  if (!canRedo(h)) return h;
  const entry = h.future[0];
  const doc = applyPatches(h.doc as object, entry.patches) as D;
  return { ...h, doc, past: [...h.past, entry], future: h.future.slice(1) };
}
