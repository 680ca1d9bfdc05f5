/**
 * Electron main process: windows, menus, dialogs, security, timers. Thin glue
 * around `handlers.ts`, which holds the logic (and is what the tests and the
 * Chromium bridges run too).
 */
import {
  app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, screen, session,
  type IpcMainInvokeEvent, type MenuItemConstructorOptions, type WebContents,
} from 'electron';
import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CHANNELS, IPC_PREFIX, MENU_EVENT, PROJECT_EXTENSION, type MenuCommand, type MenuCommandArg,
  MENU_SHORTCUTS,
} from '../ipc/contract';
import { AUTOSAVE_INTERVAL_MS, CLOSE_ANSWER_TIMEOUT_MS, QUIT_AUTOSAVE_WAIT_MS } from './constants';
import { CONTENT_SECURITY_POLICY } from './csp';
import { Handlers, type Host, type InitialProject, type WindowId } from './handlers';
import { loadWindowBounds, MIN_SIZE, placeWindow, saveWindowBounds, type WindowBounds } from './windowState';

export const APP_SCHEME = 'app';
export const APP_HOST = 'impulse';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export interface AppPaths {
  /** Folder holding `dist/renderer`, `dist-electron` and `assets`. */
  appRoot: string;
  rendererDir: string;
  preload: string;
  samplePath: string;
}

export function appPaths(appRoot: string, bundleDir: string): AppPaths {
  return {
    appRoot,
    rendererDir: join(appRoot, 'dist', 'renderer'),
    preload: join(bundleDir, 'preload.cjs'),
    samplePath: join(appRoot, 'assets', 'sample', `bat-and-ball.${PROJECT_EXTENSION}`),
  };
}

/** `.impulse` files named on a command line (skipping Electron's and Chromium's own arguments). */
export function projectArgs(argv: string[], cwd: string): string[] {
  return argv
    .filter((a) => !a.startsWith('-') && a.toLowerCase().endsWith(`.${PROJECT_EXTENSION}`))
    .map((a) => resolve(cwd, a))
    .filter((p) => existsSync(p));
}

/** Maps `app://impulse/<path>` to a file inside the renderer folder, or null for anything else. */
export function rendererFileFor(url: string, rendererDir: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return null; // malformed percent escape: names no file
  }
  const rel = path.replace(/^\/+/, '') || 'index.html';
  const file = resolve(rendererDir, rel);
  const r = relative(rendererDir, file);
  if (r.startsWith('..') || r.includes(`..${sep}`) || resolve(rendererDir, r) !== file) return null;
  return file;
}

export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

interface Shell {
  handlers: Handlers;
  windows: Map<WindowId, BrowserWindow>;
  /** Windows whose renderer agreed to close. */
  allowClose: Set<WindowId>;
  quitting: boolean;
  /** The windows autosaved for the quit in progress. */
  quitAutosaved: boolean;
  createWindow(initial: InitialProject): Promise<BrowserWindow>;
  sendCommand(win: BrowserWindow, command: MenuCommand, arg?: MenuCommandArg): void;
  buildMenu(recent: string[]): void;
}

function windowFor(shell: Shell, id: WindowId): BrowserWindow | undefined {
  return shell.windows.get(id);
}

/** The Host the handlers see: Electron dialogs and windows. */
export function electronHost(shell: () => Shell, paths: AppPaths): Host {
  const parent = (id: WindowId) => {
    const w = windowFor(shell(), id);
    if (!w) throw new Error(`no window ${id}`);
    return w;
  };
  return {
    userDataDir: app.getPath('userData'),
    documentsDir: app.getPath('documents'),
    samplePath: paths.samplePath,
    now: () => Date.now(),
    async showOpenDialog(id, o) {
      const r = await dialog.showOpenDialog(parent(id), { title: o.title, filters: o.filters, defaultPath: o.defaultPath, properties: ['openFile'] });
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!;
    },
    async showSaveDialog(id, o) {
      const r = await dialog.showSaveDialog(parent(id), { title: o.title, filters: o.filters, defaultPath: o.defaultPath, properties: ['createDirectory', 'showOverwriteConfirmation'] });
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    async askUnsavedChanges(id, title) {
      const r = await dialog.showMessageBox(parent(id), {
        type: 'warning',
        buttons: ['Save', "Don't Save", 'Cancel'],
        defaultId: 0,
        cancelId: 2,
        noLink: true,
        message: `Do you want to save the changes you made to ${title}?`,
        detail: "Your changes will be lost if you don't save them.",
      });
      return r.response === 0 ? 'save' : r.response === 1 ? 'discard' : 'cancel';
    },
    closeWindow(id) {
      const s = shell();
      const w = windowFor(s, id);
      if (!w) return;
      s.allowClose.add(id);
      w.close();
    },
    closeCancelled() {
      const s = shell();
      s.quitting = false;
      s.quitAutosaved = false;
    },
    documentStateChanged(id, state) {
      const w = windowFor(shell(), id);
      if (!w) return;
      w.setTitle(`${state.title || 'Untitled'}${state.dirty ? ' •' : ''} — Impulse`);
      w.setDocumentEdited(state.dirty);
    },
    recentChanged(paths) {
      shell().buildMenu(paths);
    },
  };
}

type Click = (win: BrowserWindow | undefined) => void;

/** The native menus. `send` delivers a command to the window the click came from. */
export function menuTemplate(options: {
  recent: string[];
  isMac: boolean;
  isDev: boolean;
  send: (win: BrowserWindow | undefined, command: MenuCommand, arg?: MenuCommandArg) => void;
  newWindow: () => void;
}): MenuItemConstructorOptions[] {
  const { send } = options;
  // Shortcuts are handled by the renderer (they work the same in Chromium); the menu only shows them.
  const item = (label: string, command: MenuCommand, accelerator = MENU_SHORTCUTS[command]): MenuItemConstructorOptions => ({
    label,
    accelerator,
    registerAccelerator: false,
    click: ((_m: unknown, win: BrowserWindow | undefined) => send(win, command)) as unknown as MenuItemConstructorOptions['click'],
  });
  const click = (f: Click): MenuItemConstructorOptions['click'] =>
    ((_m: unknown, win: BrowserWindow | undefined) => f(win)) as unknown as MenuItemConstructorOptions['click'];
  const recentItems: MenuItemConstructorOptions[] = options.recent.length
    ? options.recent.map((path) => ({ label: path, click: click((win) => send(win, 'openRecent', { path })) }))
    : [{ label: 'No Recent Projects', enabled: false }];
  return [
    ...(options.isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        item('New', 'new'),
        { label: 'New Window', accelerator: 'CmdOrCtrl+Shift+N', click: click(() => options.newWindow()) },
        item('Open…', 'open'),
        { label: 'Open Recent', submenu: recentItems },
        item('Open Sample Scene', 'openSample'),
        { type: 'separator' },
        item('Save', 'save'),
        item('Save As…', 'saveAs'),
        { type: 'separator' },
        item('Import glTF…', 'import'),
        item('Export glTF (baked)…', 'export'),
        { type: 'separator' },
        { role: 'close' },
        ...(options.isMac ? [] : [{ role: 'quit' as const }]),
      ],
    },
    {
      label: '&Edit',
      submenu: [
        item('Undo', 'undo'),
        item('Redo', 'redo', options.isMac ? 'Cmd+Shift+Z' : undefined),
        { type: 'separator' },
        item('Set Key', 'setKey'),
        item('Delete Keys', 'deleteKeys'),
        item('Copy Pose', 'copyPose'),
        item('Paste Pose', 'pastePose'),
        item('Copy Keys (dope sheet, curves)', 'copyKeys'),
        item('Cut Keys (dope sheet, curves)', 'cutKeys'),
        item('Paste Keys at Playhead', 'pasteKeys'),
        item('Select All Keys (dope sheet)', 'selectAllKeys'),
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        item('Frame Selected', 'frameSelected'),
        item('Perspective / Orthographic', 'togglePerspective'),
        item('Front', 'viewFront'),
        item('Right', 'viewRight'),
        item('Top', 'viewTop'),
        item('Dope Sheet: Frame All', 'sheetFrameAll'),
        item('Curves / Dope Sheet', 'toggleCurves'),
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(options.isDev ? [{ role: 'toggleDevTools' as const }] : []),
      ],
    },
    {
      label: '&Clip',
      submenu: [
        item('Check Clip for Interpenetrations', 'checkClip'),
        item('Next Finding', 'nextFinding'),
        item('Previous Finding', 'previousFinding'),
        item('Suggest Motion', 'suggest'),
        { type: 'separator' },
        item('New Clip', 'newClip'),
        item('Duplicate Clip', 'duplicateClip'),
        item('Rename Clip…', 'renameClip'),
        item('Delete Clip', 'deleteClip'),
      ],
    },
    {
      role: 'help',
      label: '&Help',
      submenu: [item('Keyboard Shortcuts', 'help')],
    },
  ];
}

/** Refuses every request that is not the app's own: remote content, other schemes. */
export function isAllowedRequestUrl(url: string): boolean {
  return isAppUrl(url) || url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('devtools:');
}

/** Applies the window rules to a web contents: no new windows, no navigation, no webviews, no permissions. */
export function lockDownContents(contents: WebContents): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (url !== contents.getURL()) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The id of the window an IPC call came from, or an error if the sender is not one of our pages. */
export function senderWindowId(event: IpcMainInvokeEvent, shell: Shell): WindowId {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) throw new Error('IPC from a frame that is not the app');
  const id = event.sender.id;
  if (!shell.windows.has(id)) throw new Error('IPC from an unknown window');
  return id;
}

/** Starts the app. Returns false when another instance already runs (it gets our arguments). */
export function main(options: { bundleDir: string; appRoot?: string }): boolean {
  // A separate data folder (tests, portable use) before anything reads it; also scopes the single-instance lock.
  if (process.env.IMPULSE_USER_DATA) app.setPath('userData', resolve(process.env.IMPULSE_USER_DATA));
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  const paths = appPaths(options.appRoot ?? app.getAppPath(), options.bundleDir);
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } },
  ]);

  let savedBounds: WindowBounds | null = null;
  const quitAutosaves = new Set<WindowId>();
  let onAutosaved: (() => void) | null = null;

  const shell: Shell = {
    handlers: undefined as unknown as Handlers,
    windows: new Map(),
    allowClose: new Set(),
    quitting: false,
    quitAutosaved: false,
    sendCommand(win, command, arg) {
      if (!win.isDestroyed()) win.webContents.send(MENU_EVENT, command, arg);
    },
    buildMenu(recent) {
      Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate({
        recent,
        isMac: process.platform === 'darwin',
        isDev: !app.isPackaged,
        send: (win, command, arg) => {
          const target = win ?? BrowserWindow.getFocusedWindow() ?? undefined;
          if (target) shell.sendCommand(target, command, arg);
        },
        newWindow: () => void shell.createWindow({ kind: 'empty' }),
      })));
    },
    async createWindow(initial) {
      const workAreas = screen.getAllDisplays().map((d) => d.workArea);
      const b = placeWindow(savedBounds, workAreas, shell.windows.size);
      const win = new BrowserWindow({
        x: b.x, y: b.y, width: b.width, height: b.height, minWidth: MIN_SIZE.width, minHeight: MIN_SIZE.height,
        show: false,
        title: 'Impulse',
        backgroundColor: '#1e1f22',
        webPreferences: {
          preload: paths.preload,
          contextIsolation: true,
          sandbox: true,
          nodeIntegration: false,
          nodeIntegrationInWorker: false,
          webSecurity: true,
          allowRunningInsecureContent: false,
          webviewTag: false,
          spellcheck: false,
          navigateOnDragDrop: false,
        },
      });
      const id = win.webContents.id;
      shell.windows.set(id, win);
      shell.handlers.openWindow(id, initial);
      if (b.maximized) win.maximize();
      win.once('ready-to-show', () => win.show());
      const remember = () => {
        if (win.isDestroyed() || win.isMinimized()) return;
        savedBounds = { ...(win.isMaximized() ? savedBounds ?? win.getNormalBounds() : win.getBounds()), maximized: win.isMaximized() };
      };
      win.on('resize', remember);
      win.on('move', remember);
      win.on('close', (event) => {
        remember();
        if (savedBounds) {
          saveWindowBounds(app.getPath('userData'), savedBounds).catch((err: unknown) => {
            console.error('Impulse: could not remember the window position:', err);
          });
        }
        if (shell.allowClose.has(id)) return;
        if (!shell.handlers.isDirty(id)) {
          void shell.handlers.closedCleanly(id);
          return;
        }
        event.preventDefault();
        shell.sendCommand(win, shell.quitting ? 'quitRequested' : 'closeRequested');
        // A hung renderer cannot answer: ask the user directly.
        const timer = setTimeout(async () => {
          if (win.isDestroyed() || shell.allowClose.has(id)) return;
          const r = await dialog.showMessageBox(win, {
            type: 'warning',
            buttons: ['Close Anyway', 'Wait'],
            defaultId: 1,
            cancelId: 1,
            message: 'The window is not responding.',
            detail: 'Closing it loses the changes made since the last autosave; they can be recovered at the next start.',
          });
          if (r.response === 0) {
            shell.allowClose.add(id);
            win.close();
          } else {
            shell.quitting = false;
            shell.quitAutosaved = false;
          }
        }, CLOSE_ANSWER_TIMEOUT_MS);
        win.once('closed', () => clearTimeout(timer));
      });
      win.on('closed', () => {
        shell.windows.delete(id);
        shell.allowClose.delete(id);
        shell.handlers.forgetWindow(id);
      });
      win.webContents.on('render-process-gone', async (_e, details) => {
        if (details.reason === 'clean-exit' || win.isDestroyed()) return;
        shell.handlers.rendererRestarted(id);
        const r = await dialog.showMessageBox(win, {
          type: 'error',
          buttons: ['Reload', 'Close'],
          defaultId: 0,
          message: 'This window crashed.',
          detail: 'Reload it to recover your work from the last autosave.',
        });
        if (r.response === 0) void win.loadURL(`${APP_ORIGIN}/index.html`);
        else {
          shell.allowClose.add(id);
          win.close();
        }
      });
      await win.loadURL(`${APP_ORIGIN}/index.html`);
      return win;
    },
  };
  shell.handlers = new Handlers(electronHost(() => shell, paths));

  for (const channel of CHANNELS) {
    ipcMain.handle(IPC_PREFIX + channel, async (event, payload: unknown) => {
      const id = senderWindowId(event, shell);
      const result = await shell.handlers.invoke(id, channel, payload);
      if (channel === 'autosave' && onAutosaved) {
        quitAutosaves.delete(id);
        onAutosaved();
      }
      return result;
    });
  }

  app.on('web-contents-created', (_e, contents) => lockDownContents(contents));

  app.on('second-instance', (_e, argv, cwd) => {
    const files = projectArgs(argv.slice(1), cwd);
    if (files.length === 0) {
      const w = BrowserWindow.getFocusedWindow() ?? [...shell.windows.values()][0];
      if (w) {
        if (w.isMinimized()) w.restore();
        w.focus();
      } else void shell.createWindow({ kind: 'empty' });
      return;
    }
    for (const path of files) void shell.createWindow({ kind: 'file', path });
  });

  app.on('before-quit', (event) => {
    shell.quitting = true;
    if (shell.quitAutosaved || shell.windows.size === 0) return;
    // Autosave every window before anything closes (then the close prompts run).
    event.preventDefault();
    for (const [id, win] of shell.windows) {
      quitAutosaves.add(id);
      shell.sendCommand(win, 'autosave');
    }
    const finish = () => {
      if (shell.quitAutosaved) return;
      shell.quitAutosaved = true;
      onAutosaved = null;
      clearTimeout(timer);
      app.quit();
    };
    // Windows that are clean do not autosave; the wait is bounded.
    const timer = setTimeout(finish, QUIT_AUTOSAVE_WAIT_MS);
    onAutosaved = () => {
      for (const id of quitAutosaves) if (!shell.handlers.isDirty(id)) quitAutosaves.delete(id);
      if (quitAutosaves.size === 0) finish();
    };
    onAutosaved();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin' || shell.quitting) app.quit();
  });

  app.on('activate', () => {
    if (shell.windows.size === 0) void shell.createWindow({ kind: 'empty' });
  });

  void app.whenReady().then(async () => {
    const ses = session.defaultSession;
    protocol.handle(APP_SCHEME, async (request) => {
      const file = rendererFileFor(request.url, paths.rendererDir);
      if (!file) return new Response('Not found', { status: 404 });
      const r = await net.fetch(pathToFileURL(file).toString());
      const headers = new Headers(r.headers);
      headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      headers.set('X-Content-Type-Options', 'nosniff');
      return new Response(r.body, { status: r.status, headers });
    });
    ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequestUrl(details.url) }));
    ses.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    });
    ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    ses.setPermissionCheckHandler(() => false);

    savedBounds = await loadWindowBounds(app.getPath('userData'));
    shell.buildMenu(await shell.handlers.listRecent());
    setInterval(() => {
      for (const win of shell.windows.values()) shell.sendCommand(win, 'autosave');
    }, AUTOSAVE_INTERVAL_MS);

    const files = projectArgs(process.argv.slice(1), process.cwd());
    if (files.length === 0) await shell.createWindow({ kind: 'sample' });
    for (const path of files) await shell.createWindow({ kind: 'file', path });
  });
  return true;
}
