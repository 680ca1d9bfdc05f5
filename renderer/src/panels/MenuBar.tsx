/** In-app menu bar (shown when the shell has no native menus, e.g. Chromium). */
import { useEffect, useRef, useState } from 'react';
import { COMMANDS, commandDef, runCommand, type CommandId } from '../commands';
import { useCanRedo, useCanUndo, useDocStore } from '../state/documentStore';
import { useEphemeral } from '../state/ephemeral';
import { usePrefs } from '../state/preferences';

const MENUS: { name: string; items: (CommandId | '-')[] }[] = [
  { name: 'File', items: ['new', 'open', 'openSample', '-', 'save', 'saveAs', '-', 'import', 'export'] },
  { name: 'Edit', items: ['undo', 'redo', '-', 'setKey', 'deleteKeys', 'copyPose', 'pastePose', 'copyKeys', 'cutKeys', 'pasteKeys', 'selectAllKeys', '-', 'interpolationStep', 'interpolationLinear', 'interpolationCubic', '-', 'tangentsAuto', 'tangentsFlat', 'tangentsLinear', 'tangentsUnify'] },
  { name: 'View', items: ['frameSelected', 'togglePerspective', 'viewFront', 'viewRight', 'viewTop', 'sheetFrameAll', 'toggleCurves', '-', 'toggleGrid', 'toggleBones', '-', 'toolTranslate', 'toolRotate', 'toolScale'] },
  { name: 'Playback', items: ['playPause', 'toggleLoop', 'toggleAutoKey', '-', 'previousKey', 'nextKey', 'firstFrame', 'lastFrame', '-', 'playRangeFromKeys', 'clearPlayRange'] },
  { name: 'Clip', items: ['newClip', 'duplicateClip', 'renameClip', 'deleteClip', '-', 'checkClip', 'nextFinding', 'previousFinding', 'suggest'] },
  { name: 'Help', items: ['help'] },
];

export function MenuBar({ native }: { native: boolean }) {
  const [open, setOpen] = useState<string | null>(null);
  const canUndo = useCanUndo();
  const canRedo = useCanRedo();
  const undoLabel = useDocStore((s) => s.history.past[s.history.past.length - 1]?.label);
  const redoLabel = useDocStore((s) => s.history.future[0]?.label);
  const recent = useEphemeral((s) => s.recent);
  const prefs = usePrefs();
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: PointerEvent) => {
      if (!bar.current?.contains(e.target as Node)) setOpen(null);
    };
    // Escape closes the menu and nothing else: it reached the global Escape command, which cleared the selection.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      setOpen(null);
    };
    window.addEventListener('pointerdown', close);
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('pointerdown', close);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open]);
  if (native) return null;
  const disabled = (id: CommandId): string | null => {
    if (id === 'undo' && !canUndo) return 'Nothing to undo';
    if (id === 'redo' && !canRedo) return 'Nothing to redo';
    return commandDef(id).disabledReason?.() ?? null;
  };
  const checked = (id: CommandId): boolean | undefined =>
    id === 'toggleGrid' ? prefs.showGrid : id === 'toggleBones' ? prefs.showBones : id === 'toggleLoop' ? prefs.loop : id === 'toggleAutoKey' ? prefs.autoKey : id === 'togglePerspective' ? prefs.projection === 'orthographic' : undefined;
  return (
    <div className="menubar" ref={bar} data-testid="menubar">
      {MENUS.map((m) => (
        <div key={m.name} className={`menu${open === m.name ? ' open' : ''}`}>
          <button data-testid={`menu-${m.name.toLowerCase()}`} onClick={() => setOpen(open === m.name ? null : m.name)} onMouseEnter={() => open && setOpen(m.name)}>
            {m.name}
          </button>
          {open === m.name && (
            <div className="menu-items">
              {m.items.map((id, i) =>
                id === '-' ? (
                  <div key={i} className="menu-sep" />
                ) : (
                  <button
                    key={id}
                    data-testid={`menuitem-${id}`}
                    disabled={disabled(id) !== null}
                    title={disabled(id) ?? undefined}
                    onClick={() => {
                      setOpen(null);
                      runCommand(id);
                    }}
                  >
                    <span className="check">{checked(id) === undefined ? '' : checked(id) ? '✓' : ''}</span>
                    <span className="label">
                      {commandDef(id).label}
                      {id === 'undo' && undoLabel ? ` ${undoLabel}` : id === 'redo' && redoLabel ? ` ${redoLabel}` : ''}
                    </span>
                    <span className="shortcut">{commandDef(id).keys[0] ?? ''}</span>
                  </button>
                ),
              )}
              {m.name === 'File' && recent.length > 0 && (
                <>
                  <div className="menu-sep" />
                  <div className="menu-heading">Open Recent</div>
                  {recent.slice(0, 8).map((p) => (
                    <button
                      key={p}
                      data-testid="menuitem-recent"
                      title={p}
                      onClick={() => {
                        setOpen(null);
                        runCommand('openRecent', { path: p });
                      }}
                    >
                      <span className="check" />
                      <span className="label">{p.split(/[\\/]/).pop()}</span>
                      <span className="shortcut" />
                    </button>
                  ))}
                </>
              )}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}

export function HelpPanel() {
  const open = useEphemeral((s) => s.helpOpen);
  if (!open) return null;
  const listed = COMMANDS.filter((c) => c.keys.length);
  return (
    <div className="modal-backdrop" onClick={() => useEphemeral.setState({ helpOpen: false })}>
      <div className="modal help" data-testid="help-panel" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <table>
          <tbody>
            {listed.map((c) => (
              <tr key={c.id} data-testid={`help-${c.id}`}>
                <td>
                  {c.label}
                  {c.when && <span className="muted"> ({c.when.label})</span>}
                </td>
                <td>
                  {c.keys.map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </td>
              </tr>
            ))}
            <tr>
              <td>Orbit / pan / zoom</td>
              <td>
                <kbd>Left drag</kbd> <kbd>Right drag</kbd> <kbd>Wheel</kbd>
              </td>
            </tr>
            <tr>
              <td>Select</td>
              <td>
                <kbd>Click</kbd> in the viewport, outliner or dope sheet
              </td>
            </tr>
            <tr>
              <td>Outliner from the keyboard</td>
              <td>
                <kbd>Tab</kbd> to a row, <kbd>Enter</kbd> selects, <kbd>↑</kbd> <kbd>↓</kbd> move between rows
              </td>
            </tr>
            <tr data-testid="help-select-keys">
              <td>Select keys</td>
              <td>
                <kbd>Click</kbd> a diamond (<kbd>Shift</kbd> or <kbd>Ctrl</kbd>+click adds), <kbd>Drag</kbd> over the rows to box-select
              </td>
            </tr>
            <tr>
              <td>Move keys in time</td>
              <td>
                <kbd>Drag</kbd> selected diamonds (<kbd>Esc</kbd> cancels)
              </td>
            </tr>
            <tr>
              <td>Scrub</td>
              <td>
                <kbd>Drag</kbd> on the frame ruler above the rows
              </td>
            </tr>
            <tr data-testid="help-sheet-view">
              <td>Zoom / pan the dope sheet</td>
              <td>
                <kbd>Ctrl+Wheel</kbd> (or <kbd>Wheel</kbd> over the ruler) zooms around the mouse; <kbd>Middle drag</kbd>, <kbd>Alt+drag</kbd> or{' '}
                <kbd>Shift+Wheel</kbd> pans; <kbd>Home</kbd> (dope sheet focused) or the ⇔ button fits the clip
              </td>
            </tr>
            <tr data-testid="help-curve-tangents">
              <td>Curve tangents</td>
              <td>
                In Curves (<kbd>G</kbd>), click a key of a cubic translation or scale curve and drag its handle dots: in and out move together;{' '}
                <kbd>Shift</kbd> while dragging moves one side only, and the key stays broken (its sides move alone) until a preset joins them. Right-click a
                key for tangent presets and interpolation. <b>N</b> over the channel list normalizes the curves (each in −1…1).
              </td>
            </tr>
            <tr data-testid="help-copy-keys">
              <td>Copy / paste keys</td>
              <td>
                Click in the dope sheet, select keys, <kbd>Ctrl+C</kbd>; put the playhead where the first key goes (any clip), <kbd>Ctrl+V</kbd>. Keys keep their spacing and channels
                and replace keys on the same frames. In the Curves view the same keys copy, cut and paste the picked curves&rsquo; keys (a key picked on Translate Y copies its
                translation key, not the rotation on that frame). Elsewhere <kbd>Ctrl+C</kbd> / <kbd>Ctrl+V</kbd> copy and paste the pose.
              </td>
            </tr>
          </tbody>
        </table>
        <p className="muted">
          Posing a channel that already has keys sets a key at the playhead. With auto-key on, any channel you pose is keyed; otherwise unanimated
          channels change their rest pose. A selected character shows its bones (click one to rotate it) and cyan IK handles on hands and feet;
          press W to move the character itself.
        </p>
        <button data-testid="help-close" onClick={() => useEphemeral.setState({ helpOpen: false })}>
          Close
        </button>
      </div>
    </div>
  );
}
