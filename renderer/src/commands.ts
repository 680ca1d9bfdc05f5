/**
 * Every command of the app in one table: the in-app menu bar, native menu
 * events (`onMenuCommand`), keyboard shortcuts and the help panel all read it.
 */
import type { ImpulseDocument } from '../../core/document/types';
import type { MenuCommand } from '../../electron/ipc/contract';
import {
  copyPose,
  copySelectedKeys,
  cutSelectedKeys,
  deleteSelectedKeys,
  selectAllKeys,
  pasteCopiedKeys,
  jumpToKey,
  pastePose,
  setInterpolationOnSelection,
  setKeyOnSelection,
  setTangentsOnSelection,
  stepFrame,
  setFrame,
} from './actions';
import {
  autosaveNow,
  handleCloseRequest,
  importGltfFile,
  newProject,
  openProject,
  openRecent,
  openSample,
  saveProject,
} from './project';
import { docActions, getDoc, useDocStore } from './state/documentStore';
import { useEphemeral, setStatus, type SelectedKey, type Selection } from './state/ephemeral';
import { usePrefs, setPref } from './state/preferences';
import { activeClip } from './state/keys';
import { clipActions, deleteClipError } from './state/clips';
import { checkClip, stepFinding } from './check/checkStore';
import { suggest } from './suggest/suggestStore';
import { openExportDialog } from './export/exportFlow';

/** Hooks the viewport installs (camera operations need the three.js camera); they live in viewState.ts. */
export { viewportCommands } from './viewport/viewState';
import { viewportCommands } from './viewport/viewState';
import { modalOpen } from './panels/modal';
import { makePlayRange, playBounds, rangeOf, withRange } from './state/playRange';
import { curvesFocused, deletePickedCurveKeys, hasCurvePicks, selectAllCurveKeys, toggleTimelineMode, useCurves } from './state/curveStore';

/** Called on Escape before anything else; returns true when it consumed the key (a drag was cancelled). */
/** The name of what is selected, for a status line ("Ball", "Mannequin", "Mannequin: LeftHand", "Mannequin: IK handle 2"); null for nothing. */
export function selectionLabel(doc: ImpulseDocument, sel: Selection): string | null {
  if (!sel) return null;
  if (sel.kind === 'prop') return doc.props.find((p) => p.id === sel.id)?.name ?? sel.id;
  const ch = doc.characters.find((c) => c.id === (sel.kind === 'character' ? sel.id : sel.character));
  const name = ch?.name ?? (sel.kind === 'character' ? sel.id : sel.character);
  if (sel.kind === 'character') return name;
  if (sel.kind === 'joint') return `${name}: ${ch?.skeleton.joints[sel.joint]?.name ?? `joint ${sel.joint}`}`;
  return `${name}: IK handle ${sel.chain + 1}`;
}

const VIEW_KEY = { front: '1', right: '3', top: '7' } as const;
function setView(which: 'front' | 'right' | 'top'): void {
  viewportCommands.setView(which);
  setStatus(`${which[0].toUpperCase()}${which.slice(1)} view (${VIEW_KEY[which]})`);
}

export const escapeHandlers: (() => boolean)[] = [];

export type CommandId =
  | MenuCommand
  | 'toolTranslate'
  | 'toolRotate'
  | 'toolScale'
  | 'playPause'
  | 'toggleLoop'
  | 'toggleAutoKey'
  | 'nextFrame'
  | 'previousFrame'
  | 'nextKey'
  | 'previousKey'
  | 'firstFrame'
  | 'lastFrame'
  | 'interpolationStep'
  | 'interpolationLinear'
  | 'interpolationCubic'
  | 'tangentsAuto'
  | 'tangentsFlat'
  | 'tangentsUnify'
  | 'tangentsLinear'
  | 'toggleGrid'
  | 'toggleBones'
  | 'newClip'
  | 'duplicateClip'
  | 'renameClip'
  | 'deleteClip'
  | 'copyKeys'
  | 'pasteKeys'
  | 'sheetFrameAll'
  | 'playRangeFromKeys'
  | 'clearPlayRange'
  | 'toggleCurves'
  | 'curvesFrameAll'
  | 'curvesDeleteKeys'
  | 'curvesSelectAllKeys'
  | 'escape';

export interface CommandDef {
  id: CommandId;
  label: string;
  /** Shortcut labels for the help panel and menus (first one is shown in menus). */
  keys: string[];
  run: () => void | Promise<void>;
  /** Returns a reason when the command cannot run now (menus show it disabled). */
  disabledReason?: () => string | null;
  /**
   * A shortcut shared with another command belongs to this one while `active()`
   * holds (e.g. Ctrl+C copies keys while the dope sheet has focus and keys are
   * selected, the pose otherwise); `label` says when, in the help panel.
   */
  when?: { label: string; active: () => boolean };
}

/** Whether keyboard focus is in the dope sheet (a click anywhere in it gives it focus; the viewport or a field takes it away). */
export function dopeSheetFocused(): boolean {
  if (typeof document === 'undefined') return false;
  const el = document.activeElement;
  return !!el && typeof el.closest === 'function' && el.closest('[data-dopesheet]') !== null;
}

/** Whether keyboard focus is in the timeline area: the dope sheet or the Curves view (their key selection is shared). */
export function timelineFocused(): boolean {
  return dopeSheetFocused() || curvesFocused();
}

function togglePlay(): void {
  const e = useEphemeral.getState();
  const clip = activeClip(getDoc());
  // Play starts at the first frame when the playhead is at the end (without loop) or outside the range
  // (after Start was raised past it): it played the frames before Start, which are not in the clip's range.
  // With a play range set, its frames are the range.
  const f = Math.round(e.frame);
  const b = clip ? playBounds(clip, e.playRanges) : null;
  if (!e.playing && b && ((f >= b.to && !usePrefs.getState().loop) || f < b.from || f > b.to)) setFrame(b.from);
  useEphemeral.setState({ playing: !e.playing, frame: e.playing ? Math.round(e.frame) : useEphemeral.getState().frame });
}

/** Loops playback over the frames of the selected keys (first to last selected frame). */
function playRangeFromKeys(): void {
  const clip = activeClip(getDoc());
  const keys = useEphemeral.getState().selectedKeys;
  if (!clip) return;
  const frames = keys.map((k) => k.frame);
  const range = frames.length ? makePlayRange(clip, Math.min(...frames), Math.max(...frames)) : null;
  if (!range) return setStatus('Select keys on two or more frames (or Ctrl+drag on the ruler) to set the play range');
  useEphemeral.setState({ playRanges: withRange(useEphemeral.getState().playRanges, clip.id, range) });
  setStatus(`Play range ${range.from}–${range.to}: playback ${usePrefs.getState().loop ? 'loops over' : 'plays'} these frames; Alt+P clears it`);
}

/**
 * Clears the play range of the clip shown. Ranges set on other clips (out of
 * sight here) stay: Alt+P in walk cleared the one on swing, unseen, and said
 * walk's playback was no longer limited although it never was.
 */
function clearPlayRange(): void {
  const ranges = useEphemeral.getState().playRanges;
  const clip = activeClip(getDoc());
  if (!clip || !rangeOf(ranges, clip.id)) return setStatus(clip ? `No play range set on ${clip.name}` : 'No play range set');
  useEphemeral.setState({ playRanges: withRange(ranges, clip.id, null) });
  setStatus(clip ? `Play range cleared: playback covers ${clip.name} (${clip.startFrame}–${clip.endFrame})` : 'Play range cleared');
}

/** Undo (-1) or redo (1), saying in the status bar what was undone or redone (or why nothing was). */
export function undoRedo(direction: -1 | 1): void {
  const h = useDocStore.getState().history;
  if (h.drag) return setStatus(`Finish or cancel (Escape) the drag before ${direction < 0 ? 'undoing' : 'redoing'}`);
  const entry = direction < 0 ? h.past[h.past.length - 1] : h.future[0];
  if (!entry) return setStatus(direction < 0 ? 'Nothing to undo' : 'Nothing to redo');
  if (direction < 0) docActions.undo();
  else docActions.redo();
  // Key edits give back their key selection: undoing a key move selects the keys where they were again.
  if (entry.selection) useEphemeral.setState({ selectedKeys: (direction < 0 ? entry.selection.before : entry.selection.after) as SelectedKey[] });
  setStatus(`${direction < 0 ? 'Undid' : 'Redid'}: ${entry.label}`);
}

const noClip = () => (activeClip(getDoc()) ? null : 'The document has no clip');

export const COMMANDS: CommandDef[] = [
  { id: 'new', label: 'New', keys: ['Ctrl+N'], run: newProject },
  { id: 'open', label: 'Open…', keys: ['Ctrl+O'], run: openProject },
  { id: 'openSample', label: 'Open Sample', keys: [], run: openSample },
  { id: 'save', label: 'Save', keys: ['Ctrl+S'], run: () => void saveProject(false) },
  { id: 'saveAs', label: 'Save As…', keys: ['Ctrl+Shift+S'], run: () => void saveProject(true) },
  { id: 'import', label: 'Import glTF…', keys: ['Ctrl+I'], run: importGltfFile },
  {
    id: 'export',
    label: 'Export GLB…',
    keys: ['Ctrl+E'],
    run: openExportDialog,
  },
  { id: 'undo', label: 'Undo', keys: ['Ctrl+Z'], run: () => undoRedo(-1) },
  { id: 'redo', label: 'Redo', keys: ['Ctrl+Shift+Z', 'Ctrl+Y'], run: () => undoRedo(1) },
  { id: 'setKey', label: 'Set Key', keys: ['S', 'K'], run: setKeyOnSelection, disabledReason: noClip },
  { id: 'deleteKeys', label: 'Delete Keys', keys: ['Delete', 'X', 'Backspace', 'Alt+I'], run: () => deleteSelectedKeys(), disabledReason: noClip },
  { id: 'copyPose', label: 'Copy Pose', keys: ['Ctrl+C'], run: copyPose },
  { id: 'pastePose', label: 'Paste Pose', keys: ['Ctrl+V'], run: pastePose },
  {
    id: 'copyKeys',
    label: 'Copy Keys',
    keys: ['Ctrl+C'],
    run: copySelectedKeys,
    disabledReason: noClip,
    when: { label: 'dope sheet or curves focused and keys selected (a key picked on a curve copies that curve’s track); otherwise Ctrl+C copies the pose', active: () => timelineFocused() && useEphemeral.getState().selectedKeys.length > 0 },
  },
  {
    id: 'pasteKeys',
    label: 'Paste Keys at Playhead',
    keys: ['Ctrl+V'],
    run: pasteCopiedKeys,
    disabledReason: noClip,
    when: { label: 'dope sheet or curves focused and keys copied; otherwise Ctrl+V pastes the pose', active: () => timelineFocused() && useEphemeral.getState().keyClipboard !== null },
  },
  {
    id: 'cutKeys',
    label: 'Cut Keys',
    keys: ['Ctrl+X'],
    run: cutSelectedKeys,
    disabledReason: noClip,
    // With nothing selected it says so (it did nothing and said nothing: no other Ctrl+X there).
    when: { label: 'dope sheet or curves focused (keys picked on curves: only those curves’ tracks)', active: timelineFocused },
  },
  {
    id: 'selectAllKeys',
    label: 'Select All Keys',
    keys: ['Ctrl+A'],
    run: selectAllKeys,
    disabledReason: noClip,
    when: { label: 'dope sheet focused', active: dopeSheetFocused },
  },
  {
    id: 'sheetFrameAll',
    label: 'Dope Sheet: Frame All',
    keys: ['Home'],
    run: () => useEphemeral.setState({ sheetView: null }),
    when: { label: 'dope sheet focused; elsewhere Home goes to the first frame', active: dopeSheetFocused },
  },
  {
    id: 'toggleCurves',
    label: 'Curves / Dope Sheet',
    keys: ['G'],
    run: () => {
      const mode = toggleTimelineMode();
      setStatus(mode === 'curves' ? 'Curves: the selected prop or bone’s curves (G: back to the dope sheet)' : 'Dope sheet (G: curves)');
    },
  },
  {
    id: 'curvesFrameAll',
    label: 'Curves: Frame All',
    keys: ['Home'],
    run: () => useCurves.setState({ view: null }),
    when: { label: 'curves focused; elsewhere Home goes to the first frame', active: curvesFocused },
  },
  {
    id: 'curvesDeleteKeys',
    label: 'Curves: Delete Picked Keys',
    keys: ['Delete', 'X', 'Backspace'],
    run: () => deletePickedCurveKeys(),
    disabledReason: noClip,
    when: { label: 'curves focused and keys picked on curves: only those channels’ keys go', active: () => curvesFocused() && hasCurvePicks(useEphemeral.getState().selectedKeys) },
  },
  {
    id: 'curvesSelectAllKeys',
    label: 'Curves: Select All Keys',
    keys: ['Ctrl+A'],
    run: selectAllCurveKeys,
    disabledReason: noClip,
    when: { label: 'curves focused: every key of the shown curves', active: curvesFocused },
  },
  { id: 'interpolationStep', label: 'Interpolation: Step', keys: [], run: () => setInterpolationOnSelection('step') },
  { id: 'interpolationLinear', label: 'Interpolation: Linear', keys: [], run: () => setInterpolationOnSelection('linear') },
  { id: 'interpolationCubic', label: 'Interpolation: Cubic', keys: [], run: () => setInterpolationOnSelection('cubic') },
  { id: 'tangentsAuto', label: 'Tangents: Auto (smooth)', keys: [], run: () => setTangentsOnSelection('auto'), disabledReason: noClip },
  { id: 'tangentsFlat', label: 'Tangents: Flat (ease in/out)', keys: [], run: () => setTangentsOnSelection('flat'), disabledReason: noClip },
  { id: 'tangentsLinear', label: 'Tangents: Linear', keys: [], run: () => setTangentsOnSelection('linear'), disabledReason: noClip },
  { id: 'tangentsUnify', label: 'Tangents: Unify (join broken: in = out, their mean)', keys: [], run: () => setTangentsOnSelection('unify'), disabledReason: noClip },
  { id: 'toolTranslate', label: 'Move tool', keys: ['W'], run: () => useEphemeral.setState({ tool: 'translate' }) },
  { id: 'toolRotate', label: 'Rotate tool', keys: ['E'], run: () => useEphemeral.setState({ tool: 'rotate' }) },
  { id: 'toolScale', label: 'Scale tool', keys: ['R'], run: () => useEphemeral.setState({ tool: 'scale' }) },
  {
    id: 'frameSelected',
    label: 'Frame Selected',
    keys: ['F'],
    run: () => {
      viewportCommands.frameSelected();
      setStatus(`Framed ${selectionLabel(getDoc(), useEphemeral.getState().selection) ?? 'the whole scene (nothing selected)'}`);
    },
  },
  {
    id: 'togglePerspective',
    label: 'Perspective / Orthographic',
    keys: ['O', 'Numpad5'],
    run: () => {
      const next = usePrefs.getState().projection === 'perspective' ? 'orthographic' : 'perspective';
      setPref('projection', next);
      setStatus(next === 'orthographic' ? 'Orthographic view (O: back to perspective)' : 'Perspective view (O: orthographic)');
    },
  },
  { id: 'viewFront', label: 'Front View', keys: ['1', 'Numpad1'], run: () => setView('front') },
  { id: 'viewRight', label: 'Right View', keys: ['3', 'Numpad3'], run: () => setView('right') },
  { id: 'viewTop', label: 'Top View', keys: ['7', 'Numpad7'], run: () => setView('top') },
  { id: 'toggleGrid', label: 'Show Grid', keys: [], run: () => setPref('showGrid', !usePrefs.getState().showGrid) },
  { id: 'toggleBones', label: 'Show Bones', keys: [], run: () => setPref('showBones', !usePrefs.getState().showBones) },
  { id: 'playPause', label: 'Play / Pause', keys: ['Space'], run: togglePlay, disabledReason: noClip },
  { id: 'toggleLoop', label: 'Loop Playback', keys: ['L'], run: () => setPref('loop', !usePrefs.getState().loop) },
  { id: 'toggleAutoKey', label: 'Auto-Key', keys: ['N'], run: () => setPref('autoKey', !usePrefs.getState().autoKey) },
  { id: 'playRangeFromKeys', label: 'Play Range from Selected Keys', keys: ['P'], run: playRangeFromKeys, disabledReason: noClip },
  { id: 'clearPlayRange', label: 'Clear Play Range', keys: ['Alt+P'], run: clearPlayRange },
  { id: 'nextFrame', label: 'Next Frame', keys: ['ArrowRight'], run: () => stepFrame(1) },
  { id: 'previousFrame', label: 'Previous Frame', keys: ['ArrowLeft'], run: () => stepFrame(-1) },
  { id: 'nextKey', label: 'Next Key', keys: ['.', 'ArrowUp'], run: () => jumpToKey(1) },
  { id: 'previousKey', label: 'Previous Key', keys: [',', 'ArrowDown'], run: () => jumpToKey(-1) },
  {
    id: 'firstFrame',
    label: 'First Frame',
    keys: ['Shift+ArrowLeft', 'Home'],
    run: () => setFrame(activeClip(getDoc())?.startFrame ?? 0),
  },
  {
    id: 'lastFrame',
    label: 'Last Frame',
    keys: ['Shift+ArrowRight', 'End'],
    run: () => setFrame(activeClip(getDoc())?.endFrame ?? 0),
  },
  {
    id: 'checkClip',
    label: 'Check Clip',
    keys: ['Ctrl+Shift+C'],
    run: checkClip,
    disabledReason: noClip,
  },
  {
    id: 'suggest',
    label: 'Suggest Motion',
    keys: ['Ctrl+Shift+M'],
    run: () => suggest(),
    disabledReason: noClip,
  },
  { id: 'nextFinding', label: 'Next Finding', keys: [']'], run: () => stepFinding(1), disabledReason: noClip },
  { id: 'previousFinding', label: 'Previous Finding', keys: ['['], run: () => stepFinding(-1), disabledReason: noClip },
  { id: 'newClip', label: 'New Clip', keys: [], run: () => clipActions.create() },
  { id: 'duplicateClip', label: 'Duplicate Clip', keys: [], run: () => clipActions.duplicate(), disabledReason: noClip },
  {
    id: 'renameClip',
    label: 'Rename Clip…',
    keys: [],
    run: () => {
      const clip = activeClip(getDoc());
      if (clip) useEphemeral.setState({ renamingClip: clip.id });
    },
    disabledReason: noClip,
  },
  {
    id: 'deleteClip',
    label: 'Delete Clip',
    keys: [],
    run: () => {
      const refused = clipActions.remove();
      if (refused) setStatus(refused, true);
    },
    disabledReason: () => deleteClipError(getDoc()),
  },
  { id: 'help', label: 'Keyboard Shortcuts', keys: ['?', 'F1'], run: () => useEphemeral.setState({ helpOpen: !useEphemeral.getState().helpOpen }) },
  {
    id: 'escape',
    label: 'Cancel drag / close / clear key selection',
    keys: ['Escape'],
    run: () => {
      for (const h of escapeHandlers) if (h()) return;
      if (docActions.cancelDrag()) return;
      const e = useEphemeral.getState();
      if (e.helpOpen) useEphemeral.setState({ helpOpen: false });
      else if (e.selectedKeys.length) useEphemeral.setState({ selectedKeys: [] });
      else useEphemeral.setState({ selection: null });
    },
  },
  { id: 'autosave', label: 'Autosave', keys: [], run: autosaveNow },
  { id: 'closeRequested', label: 'Close', keys: [], run: handleCloseRequest },
  { id: 'quitRequested', label: 'Quit', keys: [], run: handleCloseRequest },
  { id: 'openRecent', label: 'Open Recent', keys: [], run: () => undefined },
];

const byId = new Map(COMMANDS.map((c) => [c.id, c]));

export function commandDef(id: CommandId): CommandDef {
  const c = byId.get(id);
  if (!c) throw new Error(`unknown command ${id}`);
  return c;
}

export function runCommand(id: CommandId, arg?: { path?: string }): void {
  if (id === 'openRecent') {
    if (arg?.path) void openRecent(arg.path);
    return;
  }
  const c = commandDef(id);
  const reason = c.disabledReason?.();
  if (reason) {
    setStatus(reason);
    return;
  }
  Promise.resolve(c.run()).catch((e: unknown) => setStatus(`${c.label}: ${e instanceof Error ? e.message : String(e)}`, true));
}

/** Normalises a keyboard event to the labels used in `keys` (e.g. "Ctrl+Shift+Z", "S", "?"). */
export function keyLabel(e: KeyboardEvent): string {
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('Ctrl');
  if (e.altKey) parts.push('Alt');
  let key = e.key;
  if (e.code.startsWith('Numpad') && /^Numpad\d$/.test(e.code)) key = e.code;
  else if (key === ' ') key = 'Space';
  else if (key.length === 1) key = key.toUpperCase();
  // Shift is part of printable characters like "?" already.
  if (e.shiftKey && (key.length > 1 || /[A-Z]/.test(key))) parts.push('Shift');
  parts.push(key === 'Del' ? 'Delete' : key);
  return parts.join('+');
}

/** Key label -> commands bound to it: at most one without a `when` context, any number with one. */
const keymap = new Map<string, CommandDef[]>();
const bind = (key: string, c: CommandDef) => {
  const list = keymap.get(key.toUpperCase()) ?? [];
  if (!c.when && list.some((o) => !o.when)) throw new Error(`shortcut ${key} bound to ${list.find((o) => !o.when)!.id} and ${c.id}`);
  list.push(c);
  keymap.set(key.toUpperCase(), list);
};
for (const c of COMMANDS) for (const k of c.keys) bind(k, c);

/** The command a key runs now: a command whose context holds, else the key's plain command. */
export function commandForKey(e: KeyboardEvent): CommandId | undefined {
  const list = keymap.get(keyLabel(e).toUpperCase());
  if (!list) return undefined;
  return (list.find((c) => c.when?.active()) ?? list.find((c) => !c.when))?.id;
}

/** Keys a focused drop-down keeps: moving through its options. Anything else is the app's. */
const SELECT_KEYS = new Set(['ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown', 'Enter']);

/**
 * Whether the focused control keeps this key for itself (typing, text undo,
 * moving through options) instead of the app's shortcut. A drop-down keeps
 * only its navigation keys: it stays focused after a pick, and its type-ahead
 * turned the S of "set key" into Interpolation: Step and the K into Control:
 * Keyframed, while Ctrl+Z, Space and Delete did nothing.
 */
export function controlKeepsKey(el: EventTarget | null, key: string): boolean {
  if (typeof HTMLElement === 'undefined' || !(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLSelectElement) return SELECT_KEYS.has(key);
  return el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'range'].includes(el.type);
}

function hasTextSelection(): boolean {
  const sel = typeof window !== 'undefined' ? window.getSelection() : null;
  return !!sel && !sel.isCollapsed && sel.toString().trim() !== '';
}

/** Global shortcuts. Text fields keep their own keys (typing, text undo) except Escape. */
export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.repeat && !['ArrowLeft', 'ArrowRight'].includes(e.key)) return;
    // A modal dialog is open: its keys are its own (panels/modal.ts), the document behind it waits.
    if (modalOpen()) return;
    const id = commandForKey(e);
    if (!id) {
      // Ctrl+A outside the dope sheet and text fields: the browser's select-all highlighted every label of
      // the app, and the Ctrl+C that followed copied that text instead of the pose (selected text wins).
      if (keyLabel(e) === 'Ctrl+A' && !controlKeepsKey(e.target, e.key)) {
        e.preventDefault();
        setStatus('Ctrl+A selects every key of the clip with the dope sheet focused: click the dope sheet first');
      }
      return;
    }
    if (controlKeepsKey(e.target, e.key) && id !== 'escape') return;
    // Ctrl+C over selected text (a finding, an error in the status bar) copies the text, not the pose.
    if ((id === 'copyPose' || id === 'copyKeys') && hasTextSelection()) return;
    e.preventDefault();
    runCommand(id);
  };
  window.addEventListener('keydown', onKey);
  return () => window.removeEventListener('keydown', onKey);
}
