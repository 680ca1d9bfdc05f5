/**
 * File > Export: bake and write the .glb in the engine worker (with
 * progress), then hand the bytes to the shell's save dialog.
 */
import { create } from 'zustand';
import type { ImpulseDocument } from '../../../core/document/types';
import { getDoc, useDocStore } from '../state/documentStore';
import { setStatus } from '../state/ephemeral';
import { requireShell } from '../bridge/shell';
import { runForeground } from '../workers/engine';

export interface ExportChoices {
  everyFrame: boolean;
  /** KHR_mesh_quantization (int16 positions, int8 normals, uint8 weights); off for old readers. */
  quantize: boolean;
  /** Skeleton, props and animations without meshes, for re-targeting in an engine. */
  animationOnly: boolean;
  physics: 'none' | 'khr' | 'omi';
}

export const useExportDialog = create<{ open: boolean } & ExportChoices>()(() => ({
  open: false,
  everyFrame: false,
  quantize: true,
  animationOnly: false,
  physics: 'none',
}));

export function openExportDialog(): void {
  useExportDialog.setState({ open: true });
}

/**
 * What the export will not hold that an animator may expect in it: the
 * suggestion on screen when it is not accepted (its motion is a ghost, not
 * keys), and dynamic objects that no clip keys (they are written where they
 * stand: only accepted suggestions give them motion). `pending`: the ids of
 * the objects of the suggestion shown, or null.
 */
export function exportNotes(doc: ImpulseDocument, pending: readonly string[] | null): string[] {
  const nameOf = (id: string) => doc.props.find((p) => p.id === id)?.name ?? doc.characters.find((c) => c.id === id)?.name ?? id;
  const list = (names: string[]) => (names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`);
  const notes: string[] = [];
  if (pending && pending.length)
    notes.push(`The suggestion shown for ${list(pending.map(nameOf))} is not accepted: its motion is not in the export (Accept it first to bake it).`);
  const keyed = new Set<string>();
  for (const c of doc.clips) for (const t of c.tracks) keyed.add(t.target.kind === 'prop' ? t.target.prop : t.target.character);
  const still = [...doc.props.filter((p) => p.physics.mode === 'dynamic' && !keyed.has(p.id) && !pending?.includes(p.id)), ...doc.characters.filter((c) => c.mode === 'dynamic' && !keyed.has(c.id) && !pending?.includes(c.id))].map((o) => o.name);
  if (still.length)
    notes.push(`Dynamic, with no keys in any clip: ${list(still)}. ${still.length === 1 ? 'It is' : 'They are'} exported where ${still.length === 1 ? 'it stands' : 'they stand'}; Suggest and Accept to bake ${still.length === 1 ? 'its' : 'their'} motion.`);
  return notes;
}

export function suggestedFileName(): string {
  const name = useDocStore.getState().name || getDoc().name || 'scene';
  return `${name.replace(/[\\/:*?"<>|]+/g, '_')}.glb`;
}

/** Exports the current document; resolves to the written path, or null when cancelled. */
export async function exportProject(choices: Partial<ExportChoices> = {}): Promise<string | null> {
  const { everyFrame = false, quantize = true, animationOnly = false, physics = 'none' } = choices;
  const doc = getDoc();
  if (!doc.characters.length && !doc.props.length) {
    setStatus('Nothing to export: the scene is empty', true);
    return null;
  }
  const mode = everyFrame ? 'every-frame' : 'sparse';
  const result = await runForeground('export', doc, { mode, quantize, animationOnly, physics }, `Exporting (${mode === 'sparse' ? 'sparse keys' : 'every frame'})`);
  if (!result) {
    setStatus('Export cancelled');
    return null;
  }
  const saved = await requireShell().exportGlb({ bytes: result.bytes, suggestedName: suggestedFileName() });
  if (!saved) {
    setStatus('Export cancelled');
    return null;
  }
  const kb = (result.bytes.byteLength / 1024).toFixed(0);
  setStatus(`Exported ${saved.path} (${result.clipCount} clip${result.clipCount === 1 ? '' : 's'}, ${result.keyCount} keys, ${kb} KiB)`);
  return saved.path;
}
