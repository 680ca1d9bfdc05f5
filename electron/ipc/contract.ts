/**
 * THE channel contract between the renderer and the shell (Electron main, the
 * Playwright Chromium bridge, or the local HTTP bridge of `npm start` without
 * Electron). Every operation the renderer may ask of the shell is typed here,
 * once. The preload exposes exactly `ImpulseApi` as `window.impulse`; main (and
 * the bridges) validate every payload with `validators.ts` before the handlers
 * in `electron/main/handlers.ts` run.
 *
 * This file has no runtime dependencies: the preload bundles it.
 *
 * Renderer usage:
 *   import type { ImpulseApi } from '../electron/ipc/contract';
 *   import { createHttpImpulseApi } from '../electron/ipc/httpClient';
 *   const api: ImpulseApi = window.impulse ?? createHttpImpulseApi();
 */

/** A project as the renderer receives it: the `.impulse` JSON text and where it lives. */
export interface OpenedProject {
  /** Absolute path of the file, or null when it has none yet (the bundled sample, a new project). */
  path: string | null;
  /** The project text (what `serializeDocument` wrote; give it to `parseDocument`). */
  text: string;
  /** Display name: the file name without `.impulse`, or the sample's name. */
  name: string;
}

export interface SaveRequest {
  text: string;
  /** The project's current path (null: never saved). Ignored when `saveAs` is true. */
  path: string | null;
  /** Always ask for a path (File > Save As). A null `path` asks too. */
  saveAs: boolean;
}

export interface SavedProject {
  /** Where the project now lives. The renderer keeps it as the project path. */
  path: string;
  name: string;
}

export interface RecoveryInfo {
  /** The autosaved project text. */
  text: string;
  /** When it was autosaved (ms since the epoch). */
  savedAt: number;
  /** The path the project had when it was autosaved (null: never saved). */
  path: string | null;
  name: string;
}

export interface ImportedFile {
  fileName: string;
  bytes: Uint8Array;
}

export interface ExportRequest {
  bytes: Uint8Array;
  /** File name proposed in the dialog, e.g. `bat-and-ball.glb`. */
  suggestedName: string;
}

export interface DocumentState {
  dirty: boolean;
  /** Window title, e.g. `bat-and-ball.impulse`. */
  title: string;
  /** The project's path as the renderer knows it (null: untitled). Must be a path the shell gave out. */
  path: string | null;
}

/** Answer to "save changes before closing?". */
export type UnsavedChoice = 'save' | 'discard' | 'cancel';

/**
 * Commands the shell sends to the renderer: native menu items, and app events
 * (`autosave` every 60 s and before quitting; `closeRequested`/`quitRequested`
 * when the window is closed while the document is dirty; the renderer answers
 * with `confirmClose`).
 */
export const MENU_COMMANDS = [
  // File
  'new', 'open', 'openRecent', 'openSample', 'save', 'saveAs', 'import', 'export',
  // Edit
  'undo', 'redo', 'setKey', 'deleteKeys', 'copyPose', 'pastePose', 'copyKeys', 'cutKeys', 'pasteKeys', 'selectAllKeys',
  // View
  'frameSelected', 'togglePerspective', 'viewFront', 'viewRight', 'viewTop', 'sheetFrameAll', 'toggleCurves',
  // Clip
  'checkClip', 'nextFinding', 'previousFinding', 'suggest', 'newClip', 'duplicateClip', 'renameClip', 'deleteClip',
  // Help
  'help',
  // App events (not menu items)
  'autosave', 'closeRequested', 'quitRequested',
] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/**
 * The shortcut a native menu shows beside each command (Electron accelerator
 * syntax; the menu does not register them: the renderer handles the keys, as
 * in Chromium). Each is one of the renderer command's own keys
 * (renderer/src/commands.ts; a renderer test holds them together), so the
 * menu never shows a shortcut that does something else. Redo shows
 * Cmd+Shift+Z on macOS.
 */
export const MENU_SHORTCUTS: Partial<Record<MenuCommand, string>> = {
  new: 'CmdOrCtrl+N',
  open: 'CmdOrCtrl+O',
  save: 'CmdOrCtrl+S',
  saveAs: 'CmdOrCtrl+Shift+S',
  import: 'CmdOrCtrl+I',
  export: 'CmdOrCtrl+E',
  undo: 'CmdOrCtrl+Z',
  redo: 'CmdOrCtrl+Y',
  setKey: 'K',
  deleteKeys: 'Delete',
  copyPose: 'CmdOrCtrl+C',
  pastePose: 'CmdOrCtrl+V',
  frameSelected: 'F',
  togglePerspective: 'O',
  viewFront: '1',
  viewRight: '3',
  viewTop: '7',
  toggleCurves: 'G',
  checkClip: 'CmdOrCtrl+Shift+C',
  nextFinding: ']',
  previousFinding: '[',
  suggest: 'CmdOrCtrl+Shift+M',
  help: 'F1',
};

/** Extra data of a command: `openRecent` carries the path chosen in File > Open Recent. */
export interface MenuCommandArg {
  path?: string;
}

export type MenuListener = (command: MenuCommand, arg?: MenuCommandArg) => void;

/** What kind of shell the renderer runs in. */
export interface ShellInfo {
  /** `electron`: the desktop app. `chromium-bridge`: Playwright tests. `http`: `npm start` in Chromium without Electron. */
  kind: 'electron' | 'chromium-bridge' | 'http';
  /** True when File/Edit/View/Help are native menus; otherwise the renderer shows its own menu bar. */
  nativeMenus: boolean;
}

/** `window.impulse`: one function per operation. Every function rejects with an Error whose message says what failed. */
export interface ImpulseApi {
  readonly shell: ShellInfo;
  /** The project this window starts with: the bundled sample on launch, a file given on the command line, or null (start empty). */
  getInitialProject(): Promise<OpenedProject | null>;
  /** File > Open: a dialog; null when cancelled. */
  openProject(): Promise<OpenedProject | null>;
  /** File > Open Recent: `path` must be one of `listRecent()`. */
  openRecent(path: string): Promise<OpenedProject>;
  /** Most recent first. */
  listRecent(): Promise<string[]>;
  /** The bundled sample scene (path null: saving asks for a new path). */
  loadSample(): Promise<OpenedProject>;
  /** Atomic save (temp file, flush, rename). Asks for a path when `saveAs` or `path` is null; null when cancelled. */
  saveProject(request: SaveRequest): Promise<SavedProject | null>;
  /** Writes the recovery file of this window's project (call it on the `autosave` command when dirty). */
  autosave(text: string): Promise<void>;
  /** A recovery file left by a crashed session (call once at start, before `getInitialProject`). */
  checkRecovery(): Promise<RecoveryInfo | null>;
  /** Deletes the recovery file `checkRecovery` returned (the user declined it). */
  discardRecovery(): Promise<void>;
  /** File > Import glTF: a dialog for `.glb`/`.gltf`; null when cancelled. */
  importGltf(): Promise<ImportedFile | null>;
  /** File > Export: a save dialog for `.glb`; null when cancelled. */
  exportGlb(request: ExportRequest): Promise<{ path: string } | null>;
  /** Tell the shell the document's dirty flag, title and path (window title, close prompt, recovery file name). */
  setDocumentState(state: DocumentState): Promise<void>;
  /** Native "save changes?" prompt. */
  askUnsavedChanges(): Promise<UnsavedChoice>;
  /** Answer to `closeRequested`/`quitRequested`: true closes the window (after you saved or discarded), false keeps it open. */
  confirmClose(proceed: boolean): Promise<void>;
  /** Subscribe to menu commands and app events; returns the unsubscribe function. */
  onMenuCommand(listener: MenuListener): () => void;
}

/**
 * Request and response type of every invoke channel. The channel name is the
 * ImpulseApi method name; `void` requests carry no payload.
 */
export interface Channels {
  getInitialProject: { request: void; response: OpenedProject | null };
  openProject: { request: void; response: OpenedProject | null };
  openRecent: { request: { path: string }; response: OpenedProject };
  listRecent: { request: void; response: string[] };
  loadSample: { request: void; response: OpenedProject };
  saveProject: { request: SaveRequest; response: SavedProject | null };
  autosave: { request: { text: string }; response: void };
  checkRecovery: { request: void; response: RecoveryInfo | null };
  discardRecovery: { request: void; response: void };
  importGltf: { request: void; response: ImportedFile | null };
  exportGlb: { request: ExportRequest; response: { path: string } | null };
  setDocumentState: { request: DocumentState; response: void };
  askUnsavedChanges: { request: void; response: UnsavedChoice };
  confirmClose: { request: { proceed: boolean }; response: void };
}
export type Channel = keyof Channels;
export type ChannelRequest<C extends Channel> = Channels[C]['request'];
export type ChannelResponse<C extends Channel> = Channels[C]['response'];

/** Every invoke channel, in one list: the preload and main refuse anything else. */
export const CHANNELS = [
  'getInitialProject', 'openProject', 'openRecent', 'listRecent', 'loadSample', 'saveProject',
  'autosave', 'checkRecovery', 'discardRecovery', 'importGltf', 'exportGlb',
  'setDocumentState', 'askUnsavedChanges', 'confirmClose',
] as const satisfies readonly Channel[];

/** IPC channel names on the wire (Electron `ipcMain.handle`). */
export const IPC_PREFIX = 'impulse:';
export const MENU_EVENT = 'impulse:menu';

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && (CHANNELS as readonly string[]).includes(name);
}

export function isMenuCommand(name: unknown): name is MenuCommand {
  return typeof name === 'string' && (MENU_COMMANDS as readonly string[]).includes(name);
}

/** Extension of project files. */
export const PROJECT_EXTENSION = 'impulse';

declare global {
  interface Window {
    /** Present in Electron (preload) and in the Playwright bridge; absent in plain Chromium (use `createHttpImpulseApi`). */
    impulse?: ImpulseApi;
  }
}
