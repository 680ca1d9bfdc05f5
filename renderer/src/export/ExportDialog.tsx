/** File > Export options: sparse keys (default) or one key per frame; mesh quantisation, animation only, prop physics. */
import { useRef } from 'react';
import { exportNotes, exportProject, useExportDialog } from './exportFlow';
import { suggestionOf, useSuggest } from '../suggest/suggestStore';
import { useDocStore } from '../state/documentStore';
import { setStatus } from '../state/ephemeral';
import { useModalKeys } from '../panels/modal';

const close = () => useExportDialog.setState({ open: false });

export function ExportDialog() {
  const open = useExportDialog((s) => s.open);
  return open ? <ExportDialogBody /> : null;
}

function ExportDialogBody() {
  const { everyFrame, quantize, animationOnly, physics } = useExportDialog();
  const dialog = useRef<HTMLDivElement>(null);
  const doc = useDocStore((s) => s.history.doc);
  const pending = suggestionOf(useSuggest((s) => s.result))?.objects ?? null;
  const notes = exportNotes(doc, pending);
  // Escape cancels; Tab stays in the dialog; the app's shortcuts wait.
  useModalKeys(dialog, close);
  const run = () => {
    close();
    exportProject({ everyFrame, quantize, animationOnly, physics }).catch((e: unknown) => setStatus(`Export: ${e instanceof Error ? e.message : String(e)}`, true));
  };
  return (
    <div className="modal-backdrop" onClick={close}>
      <div ref={dialog} className="modal export-dialog" data-testid="export-dialog" role="dialog" aria-modal="true" aria-label="Export glTF" onClick={(e) => e.stopPropagation()}>
        <h2>Export glTF (.glb)</h2>
        <p className="muted">Meshes, skins, materials and every clip, baked from the curves.</p>
        {notes.map((n) => (
          <p key={n} className="warning" data-testid="export-note">
            {n}
          </p>
        ))}
        <label className="check-row">
          <input type="radio" name="export-mode" data-testid="export-sparse" checked={!everyFrame} onChange={() => useExportDialog.setState({ everyFrame: false })} />
          Sparse keys (reduced within tolerance; keeps your interpolation where it holds)
        </label>
        <label className="check-row">
          <input type="radio" name="export-mode" data-testid="export-every-frame" checked={everyFrame} onChange={() => useExportDialog.setState({ everyFrame: true })} />
          One key per frame
        </label>
        <label className="check-row">
          <input type="checkbox" data-testid="export-quantize" checked={quantize} disabled={animationOnly} onChange={(e) => useExportDialog.setState({ quantize: e.target.checked })} />
          Compact meshes (KHR_mesh_quantization: read by three.js, Blender 2.83+, Unity glTFast, Godot 4)
        </label>
        <label className="check-row">
          <input type="checkbox" data-testid="export-animation-only" checked={animationOnly} onChange={(e) => useExportDialog.setState({ animationOnly: e.target.checked })} />
          Animation only (skeleton, props and clips, no meshes: for re-targeting onto a rig the engine has)
        </label>
        <label className="check-row">
          Prop physics{' '}
          <select data-testid="export-physics" value={animationOnly ? 'none' : physics} disabled={animationOnly} onChange={(e) => useExportDialog.setState({ physics: e.target.value as 'none' | 'khr' | 'omi' })}>
            <option value="none">none</option>
            <option value="khr">KHR_physics_rigid_bodies</option>
            <option value="omi">OMI_physics_body</option>
          </select>
        </label>
        <div className="buttons">
          <button data-testid="export-cancel" onClick={close}>
            Cancel
          </button>
          <button className="primary" data-testid="export-run" onClick={run} autoFocus>
            Export…
          </button>
        </div>
      </div>
    </div>
  );
}
