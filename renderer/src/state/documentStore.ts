/**
 * The document part of the app state: the ImpulseDocument and its undo
 * history (immer patches, see history.ts), plus the project's file path.
 * Everything that changes the document goes through `docActions`.
 */
import { create } from 'zustand';
import type { ImpulseDocument } from '../../../core/document/types';
import { createEmptyDocument } from '../../../core/document/defaults';
import * as H from './history';

export interface DocumentStore {
  history: H.HistoryState<ImpulseDocument>;
  /** Where the project lives on disk (null: untitled / the sample). */
  path: string | null;
  /** Display name (file name without extension). */
  name: string;
  /** Bumped whenever a different project is loaded (views reset on it). */
  loadCount: number;
}

export function emptyDocument(name = 'Untitled'): ImpulseDocument {
  return createEmptyDocument(name);
}

export const useDocStore = create<DocumentStore>()(() => ({
  history: H.createHistory(emptyDocument()),
  path: null,
  name: 'Untitled',
  loadCount: 0,
}));

const set = useDocStore.setState;
const get = useDocStore.getState;

export const docActions = {
  /** Replaces the project (open, new, recover): history starts over. */
  load(doc: ImpulseDocument, path: string | null, name: string, dirty = false): void {
    const history = H.createHistory(doc);
    set((s) => ({ history: dirty ? { ...history, savedId: -1 } : history, path, name, loadCount: s.loadCount + 1 }));
  },
  /** One undoable edit; `selection` (the key selection before and after it) comes back with undo / redo. */
  edit(label: string, recipe: H.Recipe<ImpulseDocument>, selection?: H.HistoryEntry['selection']): void {
    set({ history: H.edit(get().history, label, recipe, selection) });
  },
  beginDrag(label: string): void {
    const h = get().history;
    if (h.drag) set({ history: H.beginDrag(H.cancelDrag(h), label) });
    else set({ history: H.beginDrag(h, label) });
  },
  updateDrag(recipe: H.Recipe<ImpulseDocument>): void {
    if (!get().history.drag) return;
    set({ history: H.updateDrag(get().history, recipe) });
  },
  commitDrag(selection?: H.HistoryEntry['selection']): void {
    if (!get().history.drag) return;
    set({ history: H.commitDrag(get().history, selection) });
  },
  /** Escape during a drag: back to the document from pointer-down. Returns whether a drag was open. */
  cancelDrag(): boolean {
    if (!get().history.drag) return false;
    set({ history: H.cancelDrag(get().history) });
    return true;
  },
  isDragging(): boolean {
    return get().history.drag !== null;
  },
  undo(): void {
    set({ history: H.undo(get().history) });
  },
  redo(): void {
    set({ history: H.redo(get().history) });
  },
  markSaved(path: string, name: string): void {
    set({ history: H.markSaved(get().history), path, name });
  },
};

export const getDoc = (): ImpulseDocument => get().history.doc;

/** Narrow selectors. */
export const useDoc = (): ImpulseDocument => useDocStore((s) => s.history.doc);
export const useCanUndo = (): boolean => useDocStore((s) => H.canUndo(s.history));
export const useCanRedo = (): boolean => useDocStore((s) => H.canRedo(s.history));
export const useDirty = (): boolean => useDocStore((s) => H.isDirty(s.history));
