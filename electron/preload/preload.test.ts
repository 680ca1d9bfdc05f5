import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS, IPC_PREFIX, MENU_EVENT, type ImpulseApi, type MenuCommand } from '../ipc/contract';

type Listener = (event: unknown, ...args: unknown[]) => void;

const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<Listener>>();
  return {
    listeners,
    exposed: new Map<string, unknown>(),
    invoke: vi.fn<(channel: string, payload: unknown) => Promise<unknown>>(),
  };
});

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => electron.exposed.set(key, value),
  },
  ipcRenderer: {
    invoke: (channel: string, payload: unknown) => electron.invoke(channel, payload),
    on: (channel: string, l: Listener) => {
      if (!electron.listeners.has(channel)) electron.listeners.set(channel, new Set());
      electron.listeners.get(channel)!.add(l);
    },
    removeListener: (channel: string, l: Listener) => electron.listeners.get(channel)?.delete(l),
  },
}));

const { preloadTransport } = await import('./preload');
const api = electron.exposed.get('impulse') as ImpulseApi;

function emit(...args: unknown[]) {
  for (const l of electron.listeners.get(MENU_EVENT) ?? []) l({ sender: 'main' }, ...args);
}

beforeEach(() => {
  electron.invoke.mockReset();
  electron.invoke.mockResolvedValue('ok');
});

describe('preload', () => {
  it('exposes exactly the contract as window.impulse: one function per operation, no ipcRenderer', () => {
    expect([...electron.exposed.keys()]).toEqual(['impulse']);
    const expected = [...CHANNELS, 'onMenuCommand', 'shell'].sort();
    expect(Object.keys(api).sort()).toEqual(expected);
    for (const k of Object.keys(api)) if (k !== 'shell') expect(typeof (api as unknown as Record<string, unknown>)[k], k).toBe('function');
    expect(api.shell).toEqual({ kind: 'electron', nativeMenus: true });
    expect(Object.isFrozen(api)).toBe(true);
    expect(JSON.stringify(Object.keys(api))).not.toMatch(/ipc|send|invoke/i);
  });

  it('each function calls its own channel with a payload built from its arguments only', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    await api.openProject();
    await api.openRecent('/p/a.impulse');
    await api.saveProject({ text: 't', path: null, saveAs: true, extra: 'dropped' } as never);
    await api.exportGlb({ bytes, suggestedName: 'a.glb' });
    await api.confirmClose(true);
    await api.setDocumentState({ dirty: true, title: 'x', path: null });
    expect(electron.invoke.mock.calls).toEqual([
      [`${IPC_PREFIX}openProject`, undefined],
      [`${IPC_PREFIX}openRecent`, { path: '/p/a.impulse' }],
      [`${IPC_PREFIX}saveProject`, { text: 't', path: null, saveAs: true }],
      [`${IPC_PREFIX}exportGlb`, { bytes, suggestedName: 'a.glb' }],
      [`${IPC_PREFIX}confirmClose`, { proceed: true }],
      [`${IPC_PREFIX}setDocumentState`, { dirty: true, title: 'x', path: null }],
    ]);
  });

  it('refuses unknown channels without touching IPC', async () => {
    const t = preloadTransport({ invoke: electron.invoke as never, on: vi.fn() as never, removeListener: vi.fn() as never });
    for (const bad of ['readFile', 'impulse:openProject', '__proto__', 'toString']) {
      await expect(t.invoke(bad as never, undefined as never)).rejects.toThrow(/unknown channel/);
    }
    expect(electron.invoke).not.toHaveBeenCalled();
  });

  it('passes main\'s error message through without Electron\'s prefix', async () => {
    electron.invoke.mockRejectedValueOnce(new Error("Error invoking remote method 'impulse:saveProject': PayloadError: saveProject: text: Invalid input"));
    await expect(api.saveProject({ text: 1 as never, path: null, saveAs: false })).rejects.toThrow(/^saveProject: text: Invalid input$/);
  });

  it('menu commands reach subscribers; unknown commands are dropped; unsubscribe stops them', () => {
    const got: Array<[MenuCommand, unknown]> = [];
    const off = api.onMenuCommand((c, a) => got.push([c, a]));
    emit('save');
    emit('openRecent', { path: '/p/a.impulse', evil: 1 });
    emit('rm -rf');
    emit({ command: 'save' });
    off();
    emit('undo');
    expect(got).toEqual([['save', undefined], ['openRecent', { path: '/p/a.impulse' }]]);
    expect(electron.listeners.get(MENU_EVENT)!.size).toBe(0);
    expect(() => api.onMenuCommand('nope' as never)).toThrow(/listener must be a function/);
  });
});
