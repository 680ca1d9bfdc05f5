/**
 * Builds the `ImpulseApi` object from a transport: one function per
 * operation, each bound to its own channel. Used by the preload (Electron
 * IPC), the Playwright bridge (exposeFunction) and the HTTP client, so all
 * three expose the same surface.
 */
import type {
  Channel, ChannelRequest, ChannelResponse, ImpulseApi, MenuListener, ShellInfo,
} from './contract';

export interface Transport {
  invoke<C extends Channel>(channel: C, payload: ChannelRequest<C>): Promise<ChannelResponse<C>>;
  /** Registers a listener for menu commands; returns the unsubscribe function. */
  subscribe(listener: MenuListener): () => void;
}

export function createImpulseApi(shell: ShellInfo, transport: Transport): ImpulseApi {
  const t = transport;
  return Object.freeze({
    shell: Object.freeze({ ...shell }),
    getInitialProject: () => t.invoke('getInitialProject', undefined),
    openProject: () => t.invoke('openProject', undefined),
    openRecent: (path: string) => t.invoke('openRecent', { path }),
    listRecent: () => t.invoke('listRecent', undefined),
    loadSample: () => t.invoke('loadSample', undefined),
    saveProject: (request) => t.invoke('saveProject', { text: request.text, path: request.path, saveAs: request.saveAs }),
    autosave: (text: string) => t.invoke('autosave', { text }),
    checkRecovery: () => t.invoke('checkRecovery', undefined),
    discardRecovery: () => t.invoke('discardRecovery', undefined),
    importGltf: () => t.invoke('importGltf', undefined),
    exportGlb: (request) => t.invoke('exportGlb', { bytes: request.bytes, suggestedName: request.suggestedName }),
    setDocumentState: (state) => t.invoke('setDocumentState', { dirty: state.dirty, title: state.title, path: state.path }),
    askUnsavedChanges: () => t.invoke('askUnsavedChanges', undefined),
    confirmClose: (proceed: boolean) => t.invoke('confirmClose', { proceed }),
    onMenuCommand: (listener: MenuListener) => {
      if (typeof listener !== 'function') throw new TypeError('onMenuCommand: listener must be a function');
      return t.subscribe(listener);
    },
  } satisfies ImpulseApi);
}
