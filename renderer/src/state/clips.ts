/**
 * Managing a project's clips: new, duplicate, rename, delete. Each operation
 * is a recipe over the document (so it is one undo step through
 * `docActions.edit`, like every other document edit) that also makes the
 * affected clip the active one, so the timeline and the Check/Suggest panels
 * follow it exactly as they do when the clip picker switches clips.
 *
 * The recipes are pure (no store access) and are tested with the history
 * functions directly; `clipActions` wraps them for the UI.
 */
import { current, isDraft, type Draft } from 'immer';
import type { Clip, ImpulseDocument } from '../../../core/document/types';
import { newUniqueId } from '../../../core/document/ids';
import { activeClip } from './keys';
import { docActions, getDoc } from './documentStore';
import { setStatus, useEphemeral } from './ephemeral';

/** `base`, or `base 2`, `base 3`, ... : the first that no clip is named. */
export function uniqueClipName(clips: readonly Pick<Clip, 'name'>[], base: string): string {
  const taken = new Set(clips.map((c) => c.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const name = `${base} ${n}`;
    if (!taken.has(name)) return name;
  }
}

/** Why `name` cannot be the name of clip `id`, or null when it can. */
export function clipNameError(doc: ImpulseDocument, id: string, name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'A clip needs a name.';
  const other = doc.clips.find((c) => c.id !== id && c.name === trimmed);
  if (other) return `Another clip is already named "${trimmed}".`;
  return null;
}

/** Why the active clip cannot be deleted, or null when it can. */
export function deleteClipError(doc: ImpulseDocument): string | null {
  if (doc.clips.length <= 1) return 'A project keeps at least one clip: the last clip cannot be deleted.';
  return null;
}

function takenIds(doc: Draft<ImpulseDocument>): Set<string> {
  return new Set(doc.clips.map((c) => c.id));
}

/**
 * Adds an empty clip with the active clip's frame rate and range (30 fps,
 * 0-120 without one), named "clip", "clip 2", ..., and makes it active.
 * Returns the new clip's id.
 */
export function newClipRecipe(doc: Draft<ImpulseDocument>): string {
  const from = activeClip(doc as ImpulseDocument);
  const clip: Clip = {
    id: newUniqueId('clip', takenIds(doc)),
    name: uniqueClipName(doc.clips, 'clip'),
    frameRate: from?.frameRate ?? 30,
    startFrame: from?.startFrame ?? 0,
    endFrame: from?.endFrame ?? 120,
    tracks: [],
  };
  doc.clips.push(clip);
  doc.activeClip = clip.id;
  return clip.id;
}

/**
 * Adds a deep copy of the active clip (tracks, keys, range, rate) named
 * "<name> copy" (or "<name> copy 2", ...) right after it and makes it active.
 * Returns the copy's id, or null when there is no clip to copy.
 */
export function duplicateClipRecipe(doc: Draft<ImpulseDocument>): string | null {
  const from = activeClip(doc as ImpulseDocument);
  if (!from) return null;
  // A deep copy: no track, times or values array of the copy is shared with the original.
  const source = structuredClone(isDraft(from) ? current(from) : from) as Clip;
  const copy: Clip = { ...source, id: newUniqueId('clip', takenIds(doc)), name: uniqueClipName(doc.clips, `${from.name} copy`) };
  const at = doc.clips.findIndex((c) => c.id === from.id);
  doc.clips.splice(at + 1, 0, copy);
  doc.activeClip = copy.id;
  return copy.id;
}

/** Renames clip `id` (trimmed). Throws with the reason when the name is refused (see `clipNameError`). */
export function renameClipRecipe(doc: Draft<ImpulseDocument>, id: string, name: string): void {
  const clip = doc.clips.find((c) => c.id === id);
  if (!clip) throw new Error(`rename clip: no clip with id ${id}`);
  const error = clipNameError(doc as ImpulseDocument, id, name);
  if (error) throw new Error(error);
  clip.name = name.trim();
}

/**
 * Deletes the active clip; the clip after it (or, for the last in the list,
 * the one before) becomes active. Throws when it is the only clip.
 */
export function deleteClipRecipe(doc: Draft<ImpulseDocument>): void {
  const error = deleteClipError(doc as ImpulseDocument);
  if (error) throw new Error(error);
  const from = activeClip(doc as ImpulseDocument)!;
  const at = doc.clips.findIndex((c) => c.id === from.id);
  doc.clips.splice(at, 1);
  doc.activeClip = doc.clips[Math.min(at, doc.clips.length - 1)].id;
}

/**
 * One clip edit and its status line. What the edit itself made others say
 * (a suggestion for the clip that is no longer shown was discarded) follows
 * the message instead of being replaced by it.
 */
function editClips(label: string, recipe: (d: Draft<ImpulseDocument>) => void, message: (doc: ImpulseDocument) => string): void {
  const before = useEphemeral.getState().status;
  docActions.edit(label, recipe);
  const during = useEphemeral.getState().status;
  const text = message(getDoc());
  if (during && during !== before) setStatus(`${text}. ${during.text}`, during.error);
  else setStatus(text);
}

const named = (doc: ImpulseDocument) => activeClip(doc)?.name ?? '';

/** The UI's entry points: one undo step each, saying what they did. Refusals return the message instead of editing. */
export const clipActions = {
  create(): void {
    editClips('New clip', (d) => void newClipRecipe(d), (doc) => {
      const c = activeClip(doc)!;
      return `New clip "${c.name}": empty, frames ${c.startFrame}–${c.endFrame} at ${c.frameRate} fps`;
    });
  },
  duplicate(): void {
    const from = activeClip(getDoc());
    if (!from) return;
    editClips('Duplicate clip', (d) => void duplicateClipRecipe(d), (doc) => `Duplicated "${from.name}" as "${named(doc)}", now shown`);
  },
  /** Null when renamed (or unchanged), else why the name was refused. */
  rename(id: string, name: string): string | null {
    const error = clipNameError(getDoc(), id, name);
    if (error) return error;
    const old = getDoc().clips.find((c) => c.id === id)?.name;
    if (old === name.trim()) return null;
    editClips('Rename clip', (d) => renameClipRecipe(d, id, name), () => `Renamed clip "${old}" to "${name.trim()}"`);
    return null;
  },
  /** Null when deleted, else why not. */
  remove(): string | null {
    const error = deleteClipError(getDoc());
    if (error) return error;
    const gone = named(getDoc());
    editClips('Delete clip', (d) => deleteClipRecipe(d), (doc) => `Deleted clip "${gone}"; "${named(doc)}" is shown (Undo brings it back)`);
    return null;
  },
};
