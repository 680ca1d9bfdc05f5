/**
 * What the shell does for the renderer, as plain functions of an injected
 * `Host` (dialogs, folders, clock, windows). No Electron import: Electron's
 * main (`main.ts`), the Playwright Chromium bridge (`e2e/fixtures/bridge.ts`)
 * and the local HTTP bridge (`electron/server/httpBridge.ts`) all run this
 * same code.
 *
 * Paths: the renderer never names a file the user did not choose. Every path
 * a request carries must have come out of a dialog (this session, or an
 * earlier one via the recent list / a recovery file) or be the bundled
 * sample; files of the app itself live in `host.userDataDir`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import {
  PROJECT_EXTENSION,
  type Channel, type ChannelRequest, type ChannelResponse, type DocumentState, type ExportRequest,
  type ImportedFile, type OpenedProject, type RecoveryInfo, type SaveRequest, type SavedProject, type UnsavedChoice,
} from '../ipc/contract';
import { validateRequest, MAX_BYTES, MAX_TEXT_CHARS } from '../ipc/validators';
import { writeFileAtomic } from './files';

export type WindowId = number;

export interface DialogFilter {
  name: string;
  extensions: string[];
}

export interface OpenDialogOptions {
  title: string;
  filters: DialogFilter[];
  defaultPath?: string;
}

export interface SaveDialogOptions {
  title: string;
  filters: DialogFilter[];
  defaultPath: string;
}

export interface Host {
  /** The app's own data folder (recent list, recovery files). */
  userDataDir: string;
  /** The bundled sample project (`assets/sample/bat-and-ball.impulse`). */
  samplePath: string;
  /** Default folder of file dialogs. */
  documentsDir: string;
  now(): number;
  /** Absolute path chosen, or null when cancelled. */
  showOpenDialog(windowId: WindowId, options: OpenDialogOptions): Promise<string | null>;
  showSaveDialog(windowId: WindowId, options: SaveDialogOptions): Promise<string | null>;
  askUnsavedChanges(windowId: WindowId, title: string): Promise<UnsavedChoice>;
  /** The window may close now (the renderer saved or discarded). */
  closeWindow(windowId: WindowId): void;
  /** The renderer kept the window open (a quit in progress stops). */
  closeCancelled(windowId: WindowId): void;
  /** Window title / edited marker. */
  documentStateChanged(windowId: WindowId, state: DocumentState): void;
  /** The recent list changed (main rebuilds File > Open Recent). */
  recentChanged(paths: string[]): void;
}

/** What a window starts with (`getInitialProject`). */
export type InitialProject = { kind: 'sample' } | { kind: 'file'; path: string } | { kind: 'empty' };

interface WindowState {
  id: WindowId;
  initial: InitialProject;
  path: string | null;
  title: string;
  dirty: boolean;
  /** Recovery file this window writes (or adopted from a crashed session). */
  recoveryFile: string | null;
  /** A crashed session's recovery handed out by `checkRecovery`, until the renderer takes it (or not). */
  pendingRecovery: { file: string; path: string | null } | null;
}

interface RecoveryFileContent {
  format: 'impulse-recovery';
  version: 1;
  path: string | null;
  name: string;
  savedAt: number;
  text: string;
}

export const RECENT_LIMIT = 10;
const PROJECT_FILTERS: DialogFilter[] = [{ name: 'Impulse project', extensions: [PROJECT_EXTENSION] }];
const GLTF_FILTERS: DialogFilter[] = [{ name: 'glTF', extensions: ['glb', 'gltf'] }];
const GLB_FILTERS: DialogFilter[] = [{ name: 'glTF binary', extensions: ['glb'] }];

export class AccessError extends Error {
  override name = 'AccessError';
}

/** File name without the project extension. */
export function projectName(path: string): string {
  const base = basename(path);
  return base.toLowerCase().endsWith(`.${PROJECT_EXTENSION}`) ? base.slice(0, -PROJECT_EXTENSION.length - 1) : base;
}

/** A file-system-safe name (letters, digits, `-`, `_`, `.`). */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(0, 80);
  return cleaned || 'untitled';
}

function withExtension(path: string, ext: string): string {
  return extname(path).toLowerCase() === `.${ext}` ? path : `${path}.${ext}`;
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e && e.code === 'ENOENT') return 'file not found';
  if (e && (e.code === 'EACCES' || e.code === 'EPERM')) return 'permission denied';
  if (e && e.code === 'EISDIR') return 'is a folder';
  return e instanceof Error ? e.message : String(err);
}

export class Handlers {
  readonly host: Host;
  /** Distinguishes this run's untitled recovery files from a crashed run's. */
  readonly sessionId: string;
  private readonly windows = new Map<WindowId, WindowState>();
  private readonly granted = new Set<string>();
  /** Recovery files handed to a window by `checkRecovery` (never offered twice). */
  private readonly claimed = new Set<string>();

  constructor(host: Host, options: { sessionId?: string } = {}) {
    this.host = host;
    this.sessionId = options.sessionId ?? randomBytes(4).toString('hex');
  }

  get recoveryDir(): string {
    return join(this.host.userDataDir, 'recovery');
  }

  get recentFile(): string {
    return join(this.host.userDataDir, 'recent.json');
  }

  // ---- windows -------------------------------------------------------------

  openWindow(id: WindowId, initial: InitialProject): void {
    if (this.windows.has(id)) throw new Error(`window ${id} is already registered`);
    if (initial.kind === 'file') this.grant(initial.path);
    this.windows.set(id, { id, initial, path: null, title: '', dirty: false, recoveryFile: null, pendingRecovery: null });
  }

  /** The window is gone (closed or crashed renderer). Its recovery file stays unless it closed cleanly. */
  forgetWindow(id: WindowId): void {
    this.windows.delete(id);
  }

  /** The window closed with nothing unsaved: its recovery file goes, then the window. */
  async closedCleanly(id: WindowId): Promise<void> {
    const w = this.windows.get(id);
    if (w?.recoveryFile) await fsp.rm(w.recoveryFile, { force: true });
    this.windows.delete(id);
  }

  /**
   * The window's renderer crashed and is being reloaded: it starts over as a
   * fresh window, and its last autosave becomes a pending recovery it is offered.
   */
  rendererRestarted(id: WindowId): void {
    const w = this.win(id);
    if (w.recoveryFile) this.claimed.delete(w.recoveryFile);
    this.windows.set(id, { id, initial: w.initial, path: null, title: '', dirty: false, recoveryFile: null, pendingRecovery: null });
  }

  windowState(id: WindowId): Readonly<WindowState> | undefined {
    return this.windows.get(id);
  }

  windowIds(): WindowId[] {
    return [...this.windows.keys()];
  }

  private win(id: WindowId): WindowState {
    const w = this.windows.get(id);
    if (!w) throw new AccessError(`no window ${id}`);
    return w;
  }

  // ---- paths the user chose --------------------------------------------------

  /** Marks a path as chosen by the user (dialog, command line). */
  grant(path: string): string {
    const p = resolve(path);
    this.granted.add(p);
    return p;
  }

  isAllowed(path: string): boolean {
    if (!isAbsolute(path)) return false;
    const p = resolve(path);
    // The app's own files in userDataDir are written by the handlers only, never at the renderer's request.
    return this.granted.has(p);
  }

  private requireAllowed(op: string, path: string): string {
    if (!this.isAllowed(path)) throw new AccessError(`${op}: ${path} was not chosen in a dialog`);
    return resolve(path);
  }

  // ---- dispatch ----------------------------------------------------------------

  /** Entry point of every transport: checks the channel and payload, then runs the handler. */
  async invoke(windowId: WindowId, channel: unknown, payload: unknown): Promise<unknown> {
    const v = validateRequest(channel, payload);
    return this.run(windowId, v.channel, v.payload as ChannelRequest<Channel>);
  }

  private run<C extends Channel>(w: WindowId, channel: C, p: ChannelRequest<C>): Promise<ChannelResponse<C>> {
    const r = p as never;
    const table: { [K in Channel]: (w: WindowId, p: ChannelRequest<K>) => Promise<ChannelResponse<K>> } = {
      getInitialProject: (id) => this.getInitialProject(id),
      openProject: (id) => this.openProject(id),
      openRecent: (id, q) => this.openRecent(id, q.path),
      listRecent: () => this.listRecent(),
      loadSample: (id) => this.loadSample(id),
      saveProject: (id, q) => this.saveProject(id, q),
      autosave: (id, q) => this.autosave(id, q.text),
      checkRecovery: (id) => this.checkRecovery(id),
      discardRecovery: (id) => this.discardRecovery(id),
      importGltf: (id) => this.importGltf(id),
      exportGlb: (id, q) => this.exportGlb(id, q),
      setDocumentState: (id, q) => this.setDocumentState(id, q),
      askUnsavedChanges: (id) => this.askUnsavedChanges(id),
      confirmClose: (id, q) => this.confirmClose(id, q.proceed),
    };
    return table[channel](w, r);
  }

  // ---- projects ------------------------------------------------------------------

  private async readProject(path: string): Promise<OpenedProject> {
    let stat;
    try {
      stat = await fsp.stat(path);
    } catch (err) {
      throw new Error(`Cannot open ${path}: ${describe(err)}`);
    }
    if (!stat.isFile()) throw new Error(`Cannot open ${path}: not a file`);
    if (stat.size > MAX_TEXT_CHARS) throw new Error(`Cannot open ${path}: larger than ${MAX_TEXT_CHARS} bytes`);
    const text = await fsp.readFile(path, 'utf8').catch((err) => {
      throw new Error(`Cannot open ${path}: ${describe(err)}`);
    });
    return { path, text, name: projectName(path) };
  }

  /** The window now holds another project: its old recovery file is obsolete. */
  private async changeProject(w: WindowState, path: string | null): Promise<void> {
    if (w.recoveryFile) await fsp.rm(w.recoveryFile, { force: true });
    w.recoveryFile = null;
    w.pendingRecovery = null;
    w.path = path;
    w.dirty = false;
  }

  async getInitialProject(id: WindowId): Promise<OpenedProject | null> {
    const w = this.win(id);
    if (w.initial.kind === 'empty') return null;
    if (w.initial.kind === 'sample') return this.readSample();
    const project = await this.readProject(w.initial.path);
    await this.addRecent(project.path!);
    w.path = project.path;
    return project;
  }

  private async readSample(): Promise<OpenedProject> {
    const sample = await this.readProject(this.host.samplePath);
    return { path: null, text: sample.text, name: sample.name };
  }

  async openProject(id: WindowId): Promise<OpenedProject | null> {
    const w = this.win(id);
    const chosen = await this.host.showOpenDialog(id, {
      title: 'Open project',
      filters: PROJECT_FILTERS,
      defaultPath: w.path ? dirname(w.path) : this.host.documentsDir,
    });
    if (chosen === null) return null;
    const path = this.grant(chosen);
    const project = await this.readProject(path);
    await this.addRecent(path);
    await this.changeProject(w, path);
    return project;
  }

  async openRecent(id: WindowId, path: string): Promise<OpenedProject> {
    const w = this.win(id);
    const recent = await this.listRecent();
    const p = resolve(path);
    if (!recent.includes(p)) throw new AccessError(`openRecent: ${path} is not in the recent list`);
    let project: OpenedProject;
    try {
      project = await this.readProject(p);
    } catch (err) {
      await this.writeRecent(recent.filter((r) => r !== p));
      throw err;
    }
    this.grant(p);
    await this.addRecent(p);
    await this.changeProject(w, p);
    return project;
  }

  async loadSample(id: WindowId): Promise<OpenedProject> {
    const w = this.win(id);
    const sample = await this.readSample();
    await this.changeProject(w, null);
    return sample;
  }

  async saveProject(id: WindowId, request: SaveRequest): Promise<SavedProject | null> {
    const w = this.win(id);
    let target: string;
    if (request.saveAs || request.path === null) {
      const current = request.path ?? w.path;
      const chosen = await this.host.showSaveDialog(id, {
        title: request.saveAs ? 'Save project as' : 'Save project',
        filters: PROJECT_FILTERS,
        defaultPath: current ?? join(this.host.documentsDir, `${safeFileName(w.title.replace(/\.impulse$/, '') || 'untitled')}.${PROJECT_EXTENSION}`),
      });
      if (chosen === null) return null;
      target = this.grant(withExtension(chosen, PROJECT_EXTENSION));
    } else {
      target = this.requireAllowed('saveProject', request.path);
    }
    try {
      await writeFileAtomic(target, request.text);
    } catch (err) {
      throw new Error(`Cannot save ${target}: ${describe(err)}`);
    }
    await this.addRecent(target);
    if (w.recoveryFile) await fsp.rm(w.recoveryFile, { force: true });
    w.recoveryFile = null;
    w.path = target;
    w.dirty = false;
    return { path: target, name: projectName(target) };
  }

  // ---- recovery ------------------------------------------------------------------

  /** `<userData>/recovery/<project>.autosave.json`: named after the project file, or untitled + session + window. */
  recoveryFileFor(w: { id: WindowId; path: string | null }): string {
    const key = w.path
      ? `${safeFileName(projectName(w.path))}-${createHash('sha1').update(resolve(w.path)).digest('hex').slice(0, 8)}`
      : `untitled-${this.sessionId}-${w.id}`;
    return join(this.recoveryDir, `${key}.autosave.json`);
  }

  async autosave(id: WindowId, text: string): Promise<void> {
    const w = this.win(id);
    const file = this.recoveryFileFor(w);
    const content: RecoveryFileContent = {
      format: 'impulse-recovery',
      version: 1,
      path: w.path,
      name: w.path ? projectName(w.path) : (w.title.replace(/\.impulse$/, '') || 'untitled'),
      savedAt: this.host.now(),
      text,
    };
    await fsp.mkdir(this.recoveryDir, { recursive: true });
    await writeFileAtomic(file, JSON.stringify(content));
    if (w.recoveryFile && w.recoveryFile !== file) await fsp.rm(w.recoveryFile, { force: true });
    w.recoveryFile = file;
    w.pendingRecovery = null;
  }

  /** Recovery files that no live window of this session owns, newest first. */
  async pendingRecoveries(): Promise<Array<{ file: string; info: RecoveryInfo }>> {
    let names: string[];
    try {
      names = await fsp.readdir(this.recoveryDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const owned = new Set<string>(this.claimed);
    for (const w of this.windows.values()) if (w.recoveryFile) owned.add(w.recoveryFile);
    const found: Array<{ file: string; info: RecoveryInfo }> = [];
    for (const name of names) {
      if (!name.endsWith('.autosave.json')) continue;
      const file = join(this.recoveryDir, name);
      if (owned.has(file)) continue;
      const info = await this.readRecovery(file);
      if (info) found.push({ file, info });
    }
    found.sort((a, b) => b.info.savedAt - a.info.savedAt);
    return found;
  }

  /** Parses a recovery file; an unreadable one is moved to `recovery/corrupt/` (kept, never offered again). */
  private async readRecovery(file: string): Promise<RecoveryInfo | null> {
    try {
      const c = JSON.parse(await fsp.readFile(file, 'utf8')) as RecoveryFileContent;
      if (c.format !== 'impulse-recovery' || typeof c.text !== 'string' || typeof c.savedAt !== 'number'
        || (c.path !== null && typeof c.path !== 'string') || typeof c.name !== 'string') {
        throw new Error('not an Impulse recovery file');
      }
      return { text: c.text, savedAt: c.savedAt, path: c.path, name: c.name };
    } catch {
      const corrupt = join(this.recoveryDir, 'corrupt');
      await fsp.mkdir(corrupt, { recursive: true });
      await fsp.rename(file, join(corrupt, basename(file)));
      return null;
    }
  }

  async checkRecovery(id: WindowId): Promise<RecoveryInfo | null> {
    const w = this.win(id);
    const [first] = await this.pendingRecoveries();
    if (!first) return null;
    this.claimed.add(first.file);
    // The window owns the crashed session's file now; it takes the project over when the
    // renderer reports the recovered document (setDocumentState with that path, dirty).
    if (w.recoveryFile && w.recoveryFile !== first.file) await fsp.rm(w.recoveryFile, { force: true });
    w.recoveryFile = first.file;
    w.pendingRecovery = { file: first.file, path: first.info.path };
    if (first.info.path) this.grant(first.info.path);
    return first.info;
  }

  async discardRecovery(id: WindowId): Promise<void> {
    const w = this.win(id);
    if (w.recoveryFile) await fsp.rm(w.recoveryFile, { force: true });
    w.recoveryFile = null;
    w.pendingRecovery = null;
  }

  // ---- glTF ------------------------------------------------------------------------

  async importGltf(id: WindowId): Promise<ImportedFile | null> {
    const w = this.win(id);
    const chosen = await this.host.showOpenDialog(id, {
      title: 'Import glTF',
      filters: GLTF_FILTERS,
      defaultPath: w.path ? dirname(w.path) : this.host.documentsDir,
    });
    if (chosen === null) return null;
    const path = this.grant(chosen);
    let stat;
    try {
      stat = await fsp.stat(path);
    } catch (err) {
      throw new Error(`Cannot import ${path}: ${describe(err)}`);
    }
    if (!stat.isFile()) throw new Error(`Cannot import ${path}: not a file`);
    if (stat.size > MAX_BYTES) throw new Error(`Cannot import ${path}: larger than ${MAX_BYTES} bytes`);
    const buf = await fsp.readFile(path);
    return { fileName: basename(path), bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) };
  }

  async exportGlb(id: WindowId, request: ExportRequest): Promise<{ path: string } | null> {
    const w = this.win(id);
    const suggested = withExtension(safeFileName(basename(request.suggestedName)), 'glb');
    const chosen = await this.host.showSaveDialog(id, {
      title: 'Export glTF binary',
      filters: GLB_FILTERS,
      defaultPath: join(w.path ? dirname(w.path) : this.host.documentsDir, suggested),
    });
    if (chosen === null) return null;
    const path = this.grant(withExtension(chosen, 'glb'));
    try {
      await writeFileAtomic(path, request.bytes);
    } catch (err) {
      throw new Error(`Cannot export ${path}: ${describe(err)}`);
    }
    return { path };
  }

  // ---- window state ------------------------------------------------------------------

  async setDocumentState(id: WindowId, state: DocumentState): Promise<void> {
    const w = this.win(id);
    const path = state.path === null ? null : this.requireAllowed('setDocumentState', state.path);
    const pending = w.pendingRecovery;
    if (pending) {
      // While the recovery question is open the file stays, whatever the page shows meanwhile.
      w.path = path;
      if (state.dirty && path === pending.path) w.pendingRecovery = null;
    } else if (path !== w.path) {
      await this.changeProject(w, path);
    }
    w.dirty = state.dirty;
    w.title = state.title;
    this.host.documentStateChanged(id, { dirty: state.dirty, title: state.title, path });
  }

  askUnsavedChanges(id: WindowId): Promise<UnsavedChoice> {
    const w = this.win(id);
    return this.host.askUnsavedChanges(id, w.title || 'Untitled');
  }

  async confirmClose(id: WindowId, proceed: boolean): Promise<void> {
    const w = this.win(id);
    if (!proceed) {
      this.host.closeCancelled(id);
      return;
    }
    // A clean close: nothing to recover from this window.
    if (w.recoveryFile) await fsp.rm(w.recoveryFile, { force: true });
    w.recoveryFile = null;
    this.host.closeWindow(id);
  }

  /** Whether the window has unsaved changes (main asks before closing). */
  isDirty(id: WindowId): boolean {
    return this.windows.get(id)?.dirty ?? false;
  }

  // ---- recent list ---------------------------------------------------------------------

  async listRecent(): Promise<string[]> {
    let raw: string;
    try {
      raw = await fsp.readFile(this.recentFile, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    let paths: unknown;
    try {
      paths = (JSON.parse(raw) as { paths?: unknown }).paths;
    } catch {
      paths = undefined;
    }
    if (!Array.isArray(paths)) {
      // Kept for inspection, replaced by an empty list: a broken list must not block opening files.
      await fsp.rename(this.recentFile, `${this.recentFile}.corrupt`);
      return [];
    }
    const list = paths.filter((p): p is string => typeof p === 'string' && isAbsolute(p)).slice(0, RECENT_LIMIT);
    // Files in the recent list were chosen in a dialog in an earlier session.
    for (const p of list) this.grant(p);
    return list;
  }

  private async addRecent(path: string): Promise<void> {
    const p = resolve(path);
    const list = (await this.listRecent()).filter((r) => r !== p);
    list.unshift(p);
    await this.writeRecent(list.slice(0, RECENT_LIMIT));
  }

  private async writeRecent(paths: string[]): Promise<void> {
    await fsp.mkdir(this.host.userDataDir, { recursive: true });
    await writeFileAtomic(this.recentFile, JSON.stringify({ version: 1, paths }, null, 2));
    this.host.recentChanged(paths);
  }
}
