/**
 * The clip picker in the timeline's transport: switch clips, and create,
 * duplicate, rename (inline field: Enter commits, Escape cancels) or delete
 * one. Each change is one undo step (state/clips.ts); the clip it touches
 * becomes active, so the dope sheet and the Check/Suggest panels follow it as
 * they do when the picker switches clips.
 */
import { useEffect, useRef, useState } from 'react';
import { docActions, useDocStore } from '../state/documentStore';
import { setStatus, useEphemeral } from '../state/ephemeral';
import { runCommand } from '../commands';
import { clipActions } from '../state/clips';

function RenameField({ id, initial, onDone }: { id: string; initial: string; onDone: () => void }) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // Enter and Escape both close the field, and closing blurs it: the blur must not commit again.
  const closed = useRef(false);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const close = () => {
    closed.current = true;
    onDone();
  };
  const commit = (): boolean => {
    const refused = clipActions.rename(id, text);
    setError(refused);
    if (refused) {
      setStatus(refused, true);
      return false;
    }
    close();
    return true;
  };
  return (
    <span className="clip-rename">
      <input
        ref={input}
        type="text"
        className={`clip-name${error ? ' invalid' : ''}`}
        data-testid="clip-rename-input"
        aria-label="Clip name"
        aria-invalid={error !== null}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          // The field keeps every key: typing S, K, Space or Delete must not key, play or delete keys,
          // and Escape must cancel the rename, not clear the selection.
          e.stopPropagation();
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            close();
          }
        }}
        onBlur={() => {
          // Clicking away keeps a valid name and drops a refused one (the old name stays).
          if (closed.current) return;
          if (clipActions.rename(id, text) !== null) setStatus('Rename cancelled: the name was not valid');
          close();
        }}
      />
      {error && (
        <span className="clip-error" role="alert" data-testid="clip-rename-error">
          {error}
        </span>
      )}
    </span>
  );
}

export function ClipPicker() {
  const clips = useDocStore((s) => s.history.doc.clips);
  const activeId = useDocStore((s) => s.history.doc.activeClip);
  const renaming = useEphemeral((s) => s.renamingClip);
  const setRenaming = (id: string | null) => useEphemeral.setState({ renamingClip: id });
  const active = clips.find((c) => c.id === activeId) ?? clips[0];
  const loadCount = useDocStore((s) => s.loadCount);
  // An undo that removes the clip being renamed closes the field, and so does opening another project.
  useEffect(() => {
    if (renaming && !clips.some((c) => c.id === renaming)) setRenaming(null);
  }, [clips, renaming]);
  useEffect(() => () => useEphemeral.setState({ renamingClip: null }), [loadCount]);
  const lastClip = clips.length <= 1;
  return (
    <span className="clip-picker" data-testid="clip-picker">
      <label>Clip</label>
      {renaming && active ? (
        <RenameField key={renaming} id={renaming} initial={clips.find((c) => c.id === renaming)?.name ?? ''} onDone={() => setRenaming(null)} />
      ) : (
        <select
          data-testid="clip-select"
          value={active?.id ?? ''}
          disabled={clips.length === 0}
          title="Active clip"
          onChange={(e) => docActions.edit('Active clip', (d) => void (d.activeClip = e.target.value))}
        >
          {clips.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      )}
      <button data-testid="clip-new" title="New clip: empty, with this clip's frame rate and range" onClick={() => runCommand('newClip')}>
        + New
      </button>
      <button data-testid="clip-duplicate" title="Duplicate this clip with all its keys" disabled={!active} onClick={() => runCommand('duplicateClip')}>
        Duplicate
      </button>
      <button data-testid="clip-rename" title="Rename this clip (Enter renames, Escape cancels)" disabled={!active || renaming !== null} onClick={() => runCommand('renameClip')}>
        Rename
      </button>
      <button
        data-testid="clip-delete"
        title={lastClip ? 'The last clip cannot be deleted: a project keeps at least one clip' : 'Delete this clip (Undo brings it back)'}
        disabled={lastClip}
        onClick={() => runCommand('deleteClip')}
      >
        ✕ Clip
      </button>
    </span>
  );
}
