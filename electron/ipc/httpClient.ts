/**
 * `ImpulseApi` over the local HTTP bridge of `npm start` (plain Chromium, no
 * Electron): the renderer uses it when `window.impulse` is absent.
 *
 *   const api = window.impulse ?? createHttpImpulseApi();
 *
 * Dialogs: the page asks for a file name with `prompt()` (or the `prompt`
 * option): a name is looked up in `~/Impulse Projects/`, `~/...` and absolute
 * paths are taken as typed. "Save changes?" uses `confirm()` twice (save? if
 * not, discard?). There are no native menus (`shell.nativeMenus` is false);
 * the server sends `autosave` every 60 s and before it stops.
 */
import { createImpulseApi, type Transport } from './api';
import { isMenuCommand, type Channel, type ImpulseApi, type MenuListener, type UnsavedChoice } from './contract';
import { fromWire, toWire } from './wire';

export const BRIDGE_PATH = '/__impulse/';
export const TOKEN_META_NAME = 'impulse-bridge';

export interface HttpClientOptions {
  /** Origin of the bridge; default: this page's origin. */
  baseUrl?: string;
  /** Default: the `<meta name="impulse-bridge">` the server put into index.html. */
  token?: string;
  /** Asks for a file name; null when cancelled. Default: `window.prompt`. */
  prompt?: (message: string, defaultValue: string) => string | null | Promise<string | null>;
  /** Yes/no question. Default: `window.confirm`. */
  confirm?: (message: string) => boolean | Promise<boolean>;
  fetch?: typeof fetch;
}

/** True when this page was served by the HTTP bridge (so `createHttpImpulseApi` can work). */
export function hasHttpBridge(doc: Document = document): boolean {
  return !!doc.querySelector(`meta[name="${TOKEN_META_NAME}"]`);
}

export function createHttpImpulseApi(options: HttpClientOptions = {}): ImpulseApi {
  const base = options.baseUrl ?? window.location.origin;
  const token = options.token ?? document.querySelector<HTMLMetaElement>(`meta[name="${TOKEN_META_NAME}"]`)?.content;
  if (!token) {
    throw new Error('No Impulse shell: window.impulse is absent and this page was not served by the Impulse HTTP bridge (run `npm start`).');
  }
  const doFetch = options.fetch ?? window.fetch.bind(window);
  const ask = options.prompt ?? ((m: string, d: string) => window.prompt(m, d));
  const confirmQ = options.confirm ?? ((m: string) => window.confirm(m));

  let hello: Promise<{ windowId: number; projectsDir: string }> | null = null;
  const session = () => {
    hello ??= doFetch(`${base}${BRIDGE_PATH}hello`, { method: 'POST', headers: { 'X-Impulse-Token': token } }).then(async (r) => {
      if (!r.ok) throw new Error(`Impulse bridge: ${r.status} ${await r.text()}`);
      return (await r.json()) as { windowId: number; projectsDir: string };
    });
    return hello;
  };

  const folderListing = async (extensions: string[]): Promise<string> => {
    const r = await doFetch(`${base}${BRIDGE_PATH}folder`, { headers: { 'X-Impulse-Token': token } });
    if (!r.ok) return '';
    const { files } = (await r.json()) as { files: string[] };
    const matching = files.filter((f) => extensions.some((e) => f.toLowerCase().endsWith(`.${e}`)));
    return matching.length ? `\nIn the folder: ${matching.slice(0, 30).join(', ')}${matching.length > 30 ? ', …' : ''}` : '\n(The folder has no matching files yet.)';
  };

  /** The name the user typed for the dialog this call opens, or undefined when the call opens none. */
  const dialogFor = async (channel: Channel, payload: unknown): Promise<{ name: string | null } | undefined> => {
    const { projectsDir } = await session();
    const where = `a name in ${projectsDir}, or a full path`;
    switch (channel) {
      case 'openProject':
        return { name: await ask(`Open project (${where}):${await folderListing(['impulse'])}`, '') };
      case 'importGltf':
        return { name: await ask(`Import glTF (${where}):${await folderListing(['glb', 'gltf'])}`, '') };
      case 'saveProject': {
        const p = payload as { path: string | null; saveAs: boolean };
        if (!p.saveAs && p.path !== null) return undefined;
        const current = p.path ? p.path.split(/[\\/]/).pop()! : 'untitled.impulse';
        return { name: await ask(`Save project as (${where}):`, current) };
      }
      case 'exportGlb':
        return { name: await ask(`Export glTF binary as (${where}):`, (payload as { suggestedName: string }).suggestedName) };
      default:
        return undefined;
    }
  };

  const call = async (channel: Channel, payload: unknown): Promise<unknown> => {
    const { windowId } = await session();
    const dialog = await dialogFor(channel, payload);
    const r = await doFetch(`${base}${BRIDGE_PATH}call/${channel}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Impulse-Token': token, 'X-Impulse-Window': String(windowId) },
      body: JSON.stringify({ payload: toWire(payload), dialog }),
    });
    const body = (await r.json()) as { result?: unknown; error?: string };
    if (!r.ok) throw new Error(body.error ?? `Impulse bridge: HTTP ${r.status}`);
    return fromWire(body.result ?? null);
  };

  const listeners = new Set<MenuListener>();
  let source: EventSource | null = null;
  const connect = async () => {
    const { windowId } = await session();
    if (source || listeners.size === 0) return;
    source = new EventSource(`${base}${BRIDGE_PATH}events?token=${encodeURIComponent(token)}&window=${windowId}`);
    source.onmessage = (e: MessageEvent<string>) => {
      const m = JSON.parse(e.data) as { command: unknown; arg: { path?: unknown } | null };
      if (!isMenuCommand(m.command)) return;
      const arg = m.arg && typeof m.arg.path === 'string' ? { path: m.arg.path } : undefined;
      for (const l of [...listeners]) l(m.command, arg);
    };
  };

  const transport: Transport = {
    invoke: ((channel: Channel, payload: unknown) => {
      if (channel === 'askUnsavedChanges') return askUnsaved();
      return call(channel, payload);
    }) as Transport['invoke'],
    subscribe(listener) {
      listeners.add(listener);
      void connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
  };

  const askUnsaved = async (): Promise<UnsavedChoice> => {
    if (await confirmQ('Save the changes to this project first?\n\nOK: save. Cancel: more choices.')) return 'save';
    return (await confirmQ("Discard the unsaved changes?\n\nOK: discard them. Cancel: keep working.")) ? 'discard' : 'cancel';
  };

  return createImpulseApi({ kind: 'http', nativeMenus: false }, transport);
}
