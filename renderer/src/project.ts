/**
 * Project life cycle: startup (recovery, first-launch sample), new, open,
 * save, import, autosave, close. Talks to the shell through `ImpulseApi` and
 * to core for parsing, serialising and glTF import.
 */
import { parseDocument } from '../../core/document/parse';
import { serializeDocument } from '../../core/document/serialize';
import { importGltf } from '../../core/io/importGltf';
import type { ImpulseDocument } from '../../core/document/types';
import type { OpenedProject, RecoveryInfo } from '../../electron/ipc/contract';
import { getShell, requireShell } from './bridge/shell';
import { docActions, getDoc, useDocStore, emptyDocument } from './state/documentStore';
import { isDirty } from './state/history';
import { useEphemeral, setStatus } from './state/ephemeral';
import { usePrefs, setPref } from './state/preferences';
import { activeClip } from './state/keys';
import { projectErrorMessage } from './docErrors';
import { mergeImport } from './importMerge';

export const AUTOSAVE_INTERVAL_MS = 60_000;

function reportError(what: string, e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  setStatus(`${what}: ${message}`, true);
  console.error(`${what}:`, e);
}

async function busy<T>(label: string, fn: () => Promise<T>): Promise<T | undefined> {
  useEphemeral.setState({ busy: label });
  try {
    return await fn();
  } catch (e) {
    reportError(label, e);
    return undefined;
  } finally {
    useEphemeral.setState({ busy: null });
  }
}

function resetView(doc: ImpulseDocument): void {
  const clip = activeClip(doc);
  useEphemeral.setState({ selection: null, hover: null, selectedKeys: [], playRanges: [], playing: false, frame: clip ? clip.startFrame : 0 });
}

export function loadDocument(doc: ImpulseDocument, path: string | null, name: string, dirty = false): void {
  docActions.load(doc, path, name, dirty);
  resetView(doc);
}

function fileNameOf(path: string | null, name: string): string {
  return path ? (path.split(/[\\/]/).pop() ?? path) : name;
}

/** Opens a project text; a file that does not parse leaves the open document as it was and says which file, where and what. */
function openText(p: OpenedProject): void {
  let doc: ImpulseDocument;
  try {
    doc = parseDocument(p.text);
  } catch (e) {
    const message = `Could not open ${projectErrorMessage(fileNameOf(p.path, p.name), p.text, e)}`;
    setStatus(message, true);
    console.error(message, e);
    return;
  }
  loadDocument(doc, p.path, p.name);
  setStatus(`Opened ${p.name}`);
  void refreshRecent();
}

export async function refreshRecent(): Promise<void> {
  const shell = getShell();
  if (!shell) return;
  try {
    useEphemeral.setState({ recent: await shell.listRecent() });
  } catch (e) {
    reportError('Recent files', e);
  }
}

/** Asks to save a dirty document first. Resolves false when the user cancels. */
export async function confirmDiscard(): Promise<boolean> {
  if (!isDirty(useDocStore.getState().history)) return true;
  const choice = await requireShell().askUnsavedChanges();
  if (choice === 'cancel') return false;
  if (choice === 'save') return (await saveProject(false)) === true;
  return true;
}

export async function startup(): Promise<void> {
  const shell = getShell();
  if (!shell) {
    setStatus('No shell attached: files are unavailable', true);
    return;
  }
  void refreshRecent();
  const recovery = await busy('Checking for recovery', () => shell.checkRecovery());
  if (recovery) {
    useEphemeral.setState({ recovery });
    return;
  }
  await loadInitial();
}

async function loadInitial(): Promise<void> {
  const shell = requireShell();
  await busy('Opening', async () => {
    const initial = await shell.getInitialProject();
    if (initial) openText(initial);
    else if (!usePrefs.getState().launched) openText(await shell.loadSample());
  });
  setPref('launched', true);
}

export async function acceptRecovery(info: RecoveryInfo): Promise<void> {
  useEphemeral.setState({ recovery: null });
  try {
    const doc = parseDocument(info.text);
    // Recovered work is unsaved work: the document stays dirty until saved.
    loadDocument(doc, info.path, info.name, true);
    setStatus(`Recovered ${info.name} (autosaved ${new Date(info.savedAt).toLocaleString()})`);
  } catch (e) {
    const message = `Could not recover ${projectErrorMessage(`the autosave of ${info.name}`, info.text, e)}`;
    setStatus(message, true);
    console.error(message, e);
    await loadInitial();
  }
  setPref('launched', true);
}

export async function declineRecovery(): Promise<void> {
  useEphemeral.setState({ recovery: null });
  await busy('Discarding recovery', () => requireShell().discardRecovery());
  await loadInitial();
}

export async function newProject(): Promise<void> {
  if (!(await confirmDiscard())) return;
  loadDocument(emptyDocument(), null, 'Untitled');
  setStatus('New project');
}

export async function openProject(): Promise<void> {
  if (!(await confirmDiscard())) return;
  await busy('Open', async () => {
    const p = await requireShell().openProject();
    if (p) openText(p);
  });
}

export async function openRecent(path: string): Promise<void> {
  if (!(await confirmDiscard())) return;
  await busy('Open recent', async () => {
    const listed = useEphemeral.getState().recent.includes(path);
    let p: OpenedProject;
    try {
      p = await requireShell().openRecent(path);
    } catch (e) {
      // Main drops a file it cannot open from the list; the File menu kept showing it, and a second
      // click said only "... is not in the recent list". Refresh the list and say it is gone.
      await refreshRecent();
      if (!listed || useEphemeral.getState().recent.includes(path)) throw e;
      throw new Error(`${e instanceof Error ? e.message : String(e)} (removed from Open Recent)`);
    }
    openText(p);
  });
}

export async function openSample(): Promise<void> {
  if (!(await confirmDiscard())) return;
  await busy('Open sample', async () => openText(await requireShell().loadSample()));
}

/** Saves; resolves true when written, false when cancelled, undefined on error. */
export async function saveProject(saveAs: boolean): Promise<boolean | undefined> {
  // A drag in progress is not part of what gets saved.
  docActions.cancelDrag();
  const { path } = useDocStore.getState();
  const doc = getDoc();
  return busy(saveAs ? 'Save as' : 'Save', async () => {
    const text = serializeDocument(doc);
    const saved = await requireShell().saveProject({ text, path, saveAs });
    if (!saved) return false;
    // Mark the state that was serialised as saved (only if nothing changed meanwhile).
    if (getDoc() === doc) docActions.markSaved(saved.path, saved.name);
    else useDocStore.setState({ path: saved.path, name: saved.name });
    setStatus(`Saved ${saved.path}`);
    void refreshRecent();
    return true;
  });
}

export async function autosaveNow(): Promise<void> {
  const shell = getShell();
  if (!shell) return;
  const { history } = useDocStore.getState();
  if (!isDirty(history)) return;
  try {
    await shell.autosave(serializeDocument(history.drag ? history.drag.base : history.doc));
  } catch (e) {
    reportError('Autosave', e);
  }
}

/**
 * Imports a .glb/.gltf: its characters, props and clips are added to the
 * document as one undoable step. New objects are placed beside what is
 * already in the scene so they do not start out interpenetrating it.
 */
export async function importGltfFile(): Promise<void> {
  await busy('Import glTF', async () => {
    const file = await requireShell().importGltf();
    if (!file) return;
    const result = await importGltf(file.bytes, file.fileName);
    const { characters, props, clips } = mergeImport(getDoc(), result);
    docActions.edit(`Import ${file.fileName}`, (d) => {
      d.characters.push(...(characters as never[]));
      d.props.push(...(props as never[]));
      d.clips.push(...(clips as never[]));
      if (!d.clips.some((c) => c.id === d.activeClip) && d.clips.length) d.activeClip = d.clips[0].id;
    });
    if (characters[0]) useEphemeral.setState({ selection: { kind: 'character', id: characters[0].id } });
    else if (props[0]) useEphemeral.setState({ selection: { kind: 'prop', id: props[0].id } });
    const what = [
      characters.length && `${characters.length} character${characters.length > 1 ? 's' : ''}`,
      props.length && `${props.length} prop${props.length > 1 ? 's' : ''}`,
      clips.length && `${clips.length} clip${clips.length > 1 ? 's' : ''}`,
    ].filter(Boolean);
    // The warnings themselves (an open mesh gets no mass from density, ignored animation, dropped
    // normals): the status said only "(2 warnings)", and they went to the console, which the app has not.
    const n = result.warnings.length;
    const prefix = `${file.fileName}: `;
    const warned = result.warnings.map((w) => (w.startsWith(prefix) ? w.slice(prefix.length) : w)).join('; ');
    setStatus(`Imported ${file.fileName}: ${what.join(', ') || 'nothing'}${n ? `; ${n} warning${n > 1 ? 's' : ''}: ${warned}` : ''}`);
    for (const w of result.warnings) console.warn(w);
  });
}

/** Window close / app quit while the document may be dirty. */
export async function handleCloseRequest(): Promise<void> {
  const shell = requireShell();
  let proceed = false;
  try {
    proceed = await confirmDiscard();
  } catch (e) {
    reportError('Close', e);
  }
  await shell.confirmClose(proceed);
}

/** Keeps the shell's idea of the window title, dirty flag and path current. */
export function publishDocumentState(): () => void {
  let last = '';
  const push = () => {
    const shell = getShell();
    if (!shell) return;
    const s = useDocStore.getState();
    const dirty = isDirty(s.history);
    const title = `${s.name}${s.path ? '.impulse' : ''}`;
    const key = `${dirty}|${title}|${s.path}`;
    if (key === last) return;
    last = key;
    shell.setDocumentState({ dirty, title, path: s.path }).catch((e) => reportError('Window state', e));
  };
  push();
  return useDocStore.subscribe(push);
}
