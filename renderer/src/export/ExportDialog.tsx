/** File > Export options: sparse keys (default) or one key per frame. */
import { exportProject, useExportDialog } from './exportFlow';
import { setStatus } from '../state/ephemeral';

export function ExportDialog() {
  const { open, everyFrame } = useExportDialog();
  if (!open) return null;
  const close = () => useExportDialog.setState({ open: false });
  const run = () => {
    close();
    exportProject(everyFrame).catch((e: unknown) => setStatus(`Export: ${e instanceof Error ? e.message : String(e)}`, true));
  };
  return (
    <div className="modal-backdrop" onClick={close}>
      <div className="modal export-dialog" data-testid="export-dialog" onClick={(e) => e.stopPropagation()}>
        <h2>Export glTF (.glb)</h2>
        <p className="muted">Meshes, skins, materials and every clip, baked from the curves.</p>
        <label className="check-row">
          <input type="radio" name="export-mode" data-testid="export-sparse" checked={!everyFrame} onChange={() => useExportDialog.setState({ everyFrame: false })} />
          Sparse keys (reduced within tolerance; keeps your interpolation where it holds)
        </label>
        <label className="check-row">
          <input type="radio" name="export-mode" data-testid="export-every-frame" checked={everyFrame} onChange={() => useExportDialog.setState({ everyFrame: true })} />
          One key per frame
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
