import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS, IPC_PREFIX, MENU_EVENT } from '../ipc/contract';

type Fn = (...args: any[]) => any;

const fake = vi.hoisted(() => {
  class Emitter {
    handlers = new Map<string, Fn[]>();
    on(name: string, f: Fn) {
      (this.handlers.get(name) ?? this.handlers.set(name, []).get(name)!).push(f);
      return this;
    }
    once(name: string, f: Fn) {
      return this.on(name, f);
    }
    emit(name: string, ...args: unknown[]) {
      for (const f of this.handlers.get(name) ?? []) f(...args);
    }
  }
  const state = {
    lock: true,
    root: '',
    quit: 0,
    windows: [] as any[],
    ipc: new Map<string, Fn>(),
    menus: [] as any[],
    protocolHandler: null as Fn | null,
    headersHook: null as Fn | null,
    beforeRequest: null as Fn | null,
    permission: null as Fn | null,
    app: new Emitter(),
    contentsCreated: [] as any[],
    ready: null as null | (() => void),
  };
  let nextId = 1;
  class FakeWebContents extends Emitter {
    id = nextId++;
    sent: unknown[][] = [];
    url = '';
    openHandler: Fn | null = null;
    send(...args: unknown[]) {
      this.sent.push(args);
    }
    setWindowOpenHandler(f: Fn) {
      this.openHandler = f;
    }
    getURL() {
      return this.url;
    }
  }
  class FakeWindow extends Emitter {
    options: any;
    webContents = new FakeWebContents();
    destroyed = false;
    title = '';
    edited = false;
    closedCount = 0;
    constructor(options: any) {
      super();
      this.options = options;
      state.windows.push(this);
      state.app.emit('web-contents-created', {}, this.webContents);
    }
    async loadURL(url: string) {
      this.webContents.url = url;
    }
    close() {
      let prevented = false;
      this.emit('close', { preventDefault: () => (prevented = true) });
      if (!prevented) {
        this.destroyed = true;
        this.closedCount++;
        this.emit('closed');
      }
      return !prevented;
    }
    isDestroyed() { return this.destroyed; }
    isMinimized() { return false; }
    isMaximized() { return false; }
    getBounds() { return { x: 1, y: 2, width: 1000, height: 700 }; }
    getNormalBounds() { return this.getBounds(); }
    maximize() {}
    show() {}
    setTitle(t: string) { this.title = t; }
    setDocumentEdited(e: boolean) { this.edited = e; }
    static getFocusedWindow() { return state.windows.find((w) => !w.destroyed) ?? null; }
  }
  return { state, FakeWindow };
});

vi.mock('electron', () => ({
  app: {
    requestSingleInstanceLock: () => fake.state.lock,
    quit: () => void fake.state.quit++,
    getPath: (name: string) => join(fake.state.root, name),
    getAppPath: () => join(fake.state.root, 'app'),
    setPath: vi.fn(),
    isPackaged: false,
    on: (name: string, f: Fn) => fake.state.app.on(name, f),
    whenReady: () => new Promise<void>((ok) => (fake.state.ready = ok)),
  },
  BrowserWindow: fake.FakeWindow,
  dialog: {
    showOpenDialog: vi.fn(), showSaveDialog: vi.fn(),
    showMessageBox: vi.fn(async () => ({ response: 2 })),
  },
  ipcMain: { handle: (channel: string, f: Fn) => fake.state.ipc.set(channel, f) },
  Menu: {
    buildFromTemplate: (t: unknown) => t,
    setApplicationMenu: (m: unknown) => fake.state.menus.push(m),
  },
  net: { fetch: async (url: string) => new Response(`file body of ${url}`, { headers: { 'Content-Type': 'text/html' } }) },
  protocol: {
    registerSchemesAsPrivileged: vi.fn(),
    handle: (_scheme: string, f: Fn) => (fake.state.protocolHandler = f),
  },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  session: {
    defaultSession: {
      webRequest: {
        onBeforeRequest: (f: Fn) => (fake.state.beforeRequest = f),
        onHeadersReceived: (f: Fn) => (fake.state.headersHook = f),
      },
      setPermissionRequestHandler: (f: Fn) => (fake.state.permission = f),
      setPermissionCheckHandler: vi.fn(),
    },
  },
}));

const mainModule = await import('./main');
const { main, rendererFileFor, projectArgs } = mainModule;
const { CONTENT_SECURITY_POLICY } = await import('./csp');

const flush = () => new Promise((ok) => setTimeout(ok, 20));

function eventFrom(win: any, url = 'app://impulse/index.html', parent: unknown = null) {
  return { sender: win.webContents, senderFrame: { url, parent } };
}

let win: any;

beforeAll(async () => {
  fake.state.root = mkdtempSync(join(tmpdir(), 'impulse-main-'));
  mkdirSync(join(fake.state.root, 'app', 'assets', 'sample'), { recursive: true });
  writeFileSync(join(fake.state.root, 'app', 'assets', 'sample', 'bat-and-ball.impulse'), '{"sample":true}');
  expect(main({ bundleDir: join(fake.state.root, 'app', 'dist-electron') })).toBe(true);
  fake.state.ready!();
  for (let i = 0; i < 50 && fake.state.windows.length === 0; i++) await flush();
  await flush();
  win = fake.state.windows[0];
});
afterAll(async () => {
  await flush();
  rmSync(fake.state.root, { recursive: true, force: true });
});

describe('main process', () => {
  it('opens one window with the locked-down web preferences on the app origin', () => {
    expect(fake.state.windows).toHaveLength(1);
    const wp = win.options.webPreferences;
    expect(wp).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(wp.preload).toBe(join(fake.state.root, 'app', 'dist-electron', 'preload.cjs'));
    expect(win.webContents.url).toBe('app://impulse/index.html');
  });

  it('registers exactly one IPC handler per contract channel', () => {
    expect([...fake.state.ipc.keys()].sort()).toEqual(CHANNELS.map((c) => IPC_PREFIX + c).sort());
  });

  it('IPC runs the handlers for the app page and refuses other frames and bad payloads', async () => {
    const call = (channel: string, payload: unknown, ev = eventFrom(win)) => fake.state.ipc.get(IPC_PREFIX + channel)!(ev, payload);
    expect(await call('getInitialProject', undefined)).toEqual({ path: null, text: '{"sample":true}', name: 'bat-and-ball' });
    await expect(call('saveProject', { text: 1, path: null, saveAs: false })).rejects.toThrow(/saveProject: text:/);
    await expect(call('listRecent', undefined, eventFrom(win, 'https://evil.example/'))).rejects.toThrow(/not the app/);
    await expect(call('listRecent', undefined, eventFrom(win, 'app://impulse/index.html', { url: 'x' }))).rejects.toThrow(/not the app/);
  });

  it('denies window.open, navigation away, webviews and every permission', () => {
    const wc = win.webContents;
    expect(wc.openHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    let prevented = false;
    wc.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://example.com/');
    expect(prevented).toBe(true);
    let attach = false;
    wc.emit('will-attach-webview', { preventDefault: () => (attach = true) });
    expect(attach).toBe(true);
    let granted: boolean | null = null;
    fake.state.permission!(wc, 'media', (g: boolean) => (granted = g));
    expect(granted).toBe(false);
  });

  it('blocks remote requests and sends the CSP with every response', async () => {
    const verdict = (url: string) => {
      let cancel: boolean | undefined;
      fake.state.beforeRequest!({ url }, (r: { cancel: boolean }) => (cancel = r.cancel));
      return cancel;
    };
    expect(verdict('https://cdn.example/three.js')).toBe(true);
    expect(verdict('file:///etc/passwd')).toBe(true);
    expect(verdict('app://impulse/assets/index.js')).toBe(false);
    let headers: any;
    fake.state.headersHook!({ responseHeaders: { A: ['b'] } }, (r: any) => (headers = r.responseHeaders));
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    const res: Response = await fake.state.protocolHandler!({ url: 'app://impulse/index.html' });
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const outside: Response = await fake.state.protocolHandler!({ url: 'app://impulse/..%2F..%2Fsecret' });
    expect(outside.status).toBe(404);
  });

  it('native menus File/Edit/View/Help with the issue\'s items; a click sends the command to the window', () => {
    const template = fake.state.menus.at(-1) as any[];
    const labels = template.map((m) => m.label ?? m.role);
    expect(labels).toEqual(expect.arrayContaining(['&File', '&Edit', '&View', '&Help']));
    const file = template.find((m) => m.label === '&File').submenu.map((i: any) => i.label ?? i.role);
    for (const l of ['New', 'Open…', 'Open Recent', 'Save', 'Save As…', 'Import glTF…', 'Export glTF (baked)…']) expect(file).toContain(l);
    const edit = template.find((m) => m.label === '&Edit').submenu.map((i: any) => i.label ?? i.role);
    expect(edit).toEqual(expect.arrayContaining(['Undo', 'Redo', 'Copy Pose', 'Paste Pose', 'Copy Keys (dope sheet, curves)', 'Paste Keys at Playhead']));
    const view = template.find((m) => m.label === '&View').submenu.map((i: any) => i.label ?? i.role);
    expect(view).toContain('Dope Sheet: Frame All');
    const save = template.find((m) => m.label === '&File').submenu.find((i: any) => i.label === 'Save');
    save.click({}, win);
    expect(win.webContents.sent.at(-1)).toEqual([MENU_EVENT, 'save', undefined]);
  });

  it('closing a window with unsaved changes asks the renderer; confirmClose(true) closes it and drops its recovery file', async () => {
    const call = (channel: string, payload: unknown) => fake.state.ipc.get(IPC_PREFIX + channel)!(eventFrom(win), payload);
    await call('setDocumentState', { dirty: true, title: 'scene.impulse', path: null });
    expect(win.title).toBe('scene.impulse • — Impulse');
    await call('autosave', { text: 'work' });
    const recovery = join(fake.state.root, 'userData', 'recovery');
    expect(readdirSync(recovery)).toHaveLength(1);
    expect(win.close(), 'the first close is held back').toBe(false);
    expect(win.webContents.sent.at(-1)).toEqual([MENU_EVENT, 'closeRequested', undefined]);
    await call('confirmClose', { proceed: true });
    expect(win.destroyed).toBe(true);
    expect(readdirSync(recovery)).toEqual([]);
  });

  it('a second instance gives up the lock and quits', () => {
    fake.state.lock = false;
    const before = fake.state.quit;
    expect(main({ bundleDir: '/x' })).toBe(false);
    expect(fake.state.quit).toBe(before + 1);
    fake.state.lock = true;
  });
});

describe('helpers', () => {
  it('maps app URLs into the renderer folder only', () => {
    expect(rendererFileFor('app://impulse/', '/r')).toBe('/r/index.html');
    expect(rendererFileFor('app://impulse/assets/a.js?x=1', '/r')).toBe('/r/assets/a.js');
    expect(rendererFileFor('app://impulse/%2e%2e/x', '/r'), 'URL parsing removes the dot segments').toBe('/r/x');
    expect(rendererFileFor('app://impulse/..%2F..%2Fetc/passwd', '/r')).toBeNull();
    expect(rendererFileFor('app://other/index.html', '/r')).toBeNull();
    expect(rendererFileFor('file:///r/index.html', '/r')).toBeNull();
  });

  it('takes existing .impulse files from a command line, skipping switches', () => {
    const dir = mkdtempSync(join(tmpdir(), 'impulse-args-'));
    writeFileSync(join(dir, 'a.impulse'), '{}');
    expect(projectArgs(['--inspect', 'a.impulse', 'missing.impulse', 'b.txt'], dir)).toEqual([join(dir, 'a.impulse')]);
    rmSync(dir, { recursive: true, force: true });
  });
});
