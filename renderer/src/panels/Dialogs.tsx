import { useEffect, useRef, useState } from 'react';
import type { RecoveryInfo } from '../../../electron/ipc/contract';
import { useModalKeys } from './modal';
import { acceptRecovery, declineRecovery } from '../project';
import { useEphemeral } from '../state/ephemeral';
import { useDirty, useDocStore } from '../state/documentStore';
import { runtime } from '../scene/runtime';
import { usePrefs } from '../state/preferences';

export function RecoveryDialog() {
  const info = useEphemeral((s) => s.recovery);
  return info ? <RecoveryBody info={info} /> : null;
}

function RecoveryBody({ info }: { info: RecoveryInfo }) {
  const dialog = useRef<HTMLDivElement>(null);
  // A question to answer: no Escape; Tab stays on its two buttons and the app's shortcuts wait.
  useModalKeys(dialog);
  return (
    <div className="modal-backdrop">
      <div ref={dialog} className="modal" data-testid="recovery-dialog" role="dialog" aria-modal="true">
        <h2>Recover unsaved work?</h2>
        <p>
          Impulse did not close cleanly. An autosave of <b>{info.name}</b> from {new Date(info.savedAt).toLocaleString()} is available.
        </p>
        <div className="buttons">
          <button data-testid="recovery-accept" className="primary" onClick={() => void acceptRecovery(info)}>
            Recover
          </button>
          <button data-testid="recovery-discard" onClick={() => void declineRecovery()}>
            Discard
          </button>
        </div>
      </div>
    </div>
  );
}

export function StatusBar() {
  const status = useEphemeral((s) => s.status);
  const busy = useEphemeral((s) => s.busy);
  const dirty = useDirty();
  const name = useDocStore((s) => s.name);
  const path = useDocStore((s) => s.path);
  const tool = useEphemeral((s) => s.tool);
  const autoKey = usePrefs((s) => s.autoKey);
  const [evalError, setEvalError] = useState<string | null>(null);
  const doc = useDocStore((s) => s.history.doc);
  useEffect(() => {
    const id = requestAnimationFrame(() => setEvalError(runtime.error));
    return () => cancelAnimationFrame(id);
  }, [doc]);
  return (
    <div className="statusbar" data-testid="statusbar">
      <span data-testid="doc-name" title={path ?? 'not saved yet'}>
        {name}
        {dirty ? ' •' : ''}
      </span>
      <span className="muted">Tool: {tool}</span>
      {autoKey && <span className="autokey-on">AUTO-KEY</span>}
      {busy && <span data-testid="busy">{busy}…</span>}
      {evalError && <span className="error">Animation error: {evalError}</span>}
      <span className={`status${status?.error ? ' error' : ''}`} data-testid="status" title={status?.text}>
        {status?.text}
      </span>
    </div>
  );
}
