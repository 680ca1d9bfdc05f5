/**
 * `npm start` without Electron: the built renderer and the handlers behind
 * the local HTTP bridge (bundled to `dist-electron/server.mjs`, used by
 * `scripts/start.mjs`).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AUTOSAVE_INTERVAL_MS } from '../main/constants';
import { Handlers } from '../main/handlers';
import { defaultProjectsDir, httpHost, startServer, type DialogAnswer, type RunningServer } from './httpBridge';

export { defaultProjectsDir } from './httpBridge';

/** Electron's userData folder for the app named Impulse, so both modes share recent files and recovery. */
export function defaultUserDataDir(): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Impulse');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Impulse');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Impulse');
}

export interface HttpAppOptions {
  rendererDir: string;
  samplePath: string;
  userDataDir?: string;
  projectsDir?: string;
  /** A project file to open instead of the sample. */
  initialFile?: string | null;
  port?: number;
}

export interface HttpApp extends RunningServer {
  handlers: Handlers;
  /** Asks every page to autosave (it does when dirty), then waits a moment for the writes. */
  autosaveAll(waitMs?: number): Promise<void>;
}

export async function startHttpApp(o: HttpAppOptions): Promise<HttpApp> {
  const projectsDir = o.projectsDir ?? defaultProjectsDir();
  const slot: { answer: DialogAnswer | null } = { answer: null };
  const handlers = new Handlers(httpHost({ userDataDir: o.userDataDir ?? defaultUserDataDir(), samplePath: o.samplePath, projectsDir }, slot));
  const server = await startServer({
    rootDir: o.rendererDir,
    port: o.port,
    api: { handlers, slot, projectsDir, firstInitial: o.initialFile ? { kind: 'file', path: o.initialFile } : { kind: 'sample' } },
  });
  const timer = setInterval(() => server.broadcast('autosave'), AUTOSAVE_INTERVAL_MS);
  timer.unref();
  return {
    ...server,
    handlers,
    async autosaveAll(waitMs = 1500) {
      if (server.broadcast('autosave') > 0) await new Promise((ok) => setTimeout(ok, waitMs));
    },
    async close() {
      clearInterval(timer);
      await server.close();
    },
  };
}
