/**
 * File > Export: bake and write the .glb in the engine worker (with
 * progress), then hand the bytes to the shell's save dialog.
 */
import { create } from 'zustand';
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
