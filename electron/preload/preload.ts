/**
 * The narrow door: exposes exactly `ImpulseApi` as `window.impulse` (one
 * function per operation), never `ipcRenderer` itself. Calls go only to the
 * contract's channels; menu events carry only known commands.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createImpulseApi, type Transport } from '../ipc/api';
import { IPC_PREFIX, MENU_EVENT, isChannel, isMenuCommand, type ImpulseApi, type MenuCommandArg } from '../ipc/contract';

type Ipc = Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>;

/** Electron prefixes errors thrown in main; the renderer gets main's own message. */
export function cleanRemoteError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  return new Error(message.replace(/^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/, ''));
}

export function preloadTransport(ipc: Ipc): Transport {
  return {
    invoke(channel, payload) {
      if (!isChannel(channel)) return Promise.reject(new Error(`unknown channel ${String(channel)}`));
      return ipc.invoke(IPC_PREFIX + channel, payload).catch((err: unknown) => {
        throw cleanRemoteError(err);
      });
    },
    subscribe(listener) {
      const wrapped = (_event: IpcRendererEvent, command: unknown, arg: unknown) => {
        if (!isMenuCommand(command)) return;
        const a = arg as MenuCommandArg | undefined;
        listener(command, a && typeof a.path === 'string' ? { path: a.path } : undefined);
      };
      ipc.on(MENU_EVENT, wrapped);
      return () => {
        ipc.removeListener(MENU_EVENT, wrapped);
      };
    },
  };
}

export function createPreloadApi(ipc: Ipc): ImpulseApi {
  return createImpulseApi({ kind: 'electron', nativeMenus: true }, preloadTransport(ipc));
}

contextBridge.exposeInMainWorld('impulse', createPreloadApi(ipcRenderer));
