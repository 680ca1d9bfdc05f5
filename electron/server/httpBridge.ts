/**
 * A small local HTTP server for running Impulse in a plain Chromium (no
 * Electron binary): it serves the built renderer and, optionally, the same
 * handlers as Electron's main behind `POST /__impulse/call/<channel>`
 * (client: `electron/ipc/httpClient.ts`). Bound to 127.0.0.1; API calls need
 * the per-launch token the server writes into `index.html`, so other local
 * web pages cannot use it.
 *
 * Dialogs: a browser page cannot show a native file dialog that yields a
 * path, so the client asks for a file name (in `~/Impulse Projects/`, or a full
 * path) and sends it along; the HTTP host answers the handlers' dialog with it.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { homedir } from 'node:os';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isMenuCommand, type MenuCommand, type MenuCommandArg } from '../ipc/contract';
import { PayloadError } from '../ipc/validators';
import { fromWire, toWire } from '../ipc/wire';
import { CONTENT_SECURITY_POLICY } from '../main/csp';
import { AccessError, Handlers, type Host, type InitialProject } from '../main/handlers';

export const API_PREFIX = '/__impulse/';
export const TOKEN_META = 'impulse-bridge';
/** Largest request body (base64 of the largest export). */
const MAX_BODY = 768 * 1024 * 1024;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.map': 'application/json', '.wasm': 'application/wasm',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
  '.webp': 'image/webp', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.txt': 'text/plain; charset=utf-8',
  '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json', '.bin': 'application/octet-stream', '.impulse': 'application/json',
  '.hdr': 'application/octet-stream', '.ktx2': 'image/ktx2',
};

/** The answer to the dialog of the call in progress (calls run one at a time). */
export interface DialogAnswer {
  /** What the user typed, or null when they cancelled. */
  name: string | null;
}

export function defaultProjectsDir(): string {
  return join(homedir(), 'Impulse Projects');
}

/** `~/x`, absolute paths, or a name inside the projects folder. */
export function resolveChoice(name: string, projectsDir: string): string {
  const n = name.trim();
  if (n === '~' || n.startsWith('~/')) return join(homedir(), n.slice(1));
  return isAbsolute(n) ? resolve(n) : resolve(projectsDir, n);
}

export interface HttpHostOptions {
  userDataDir: string;
  samplePath: string;
  projectsDir: string;
  now?: () => number;
}

/** The handlers' Host in HTTP mode: dialogs answered by the name the client sent. */
export function httpHost(o: HttpHostOptions, slot: { answer: DialogAnswer | null }): Host {
  const take = (title: string): DialogAnswer => {
    const a = slot.answer;
    slot.answer = null;
    if (!a) throw new Error(`${title}: the request carried no dialog answer`);
    return a;
  };
  return {
    userDataDir: o.userDataDir,
    samplePath: o.samplePath,
    documentsDir: o.projectsDir,
    now: o.now ?? (() => Date.now()),
    async showOpenDialog(_id, options) {
      const a = take(options.title);
      if (a.name === null || a.name.trim() === '') return null;
      const p = resolveChoice(a.name, o.projectsDir);
      if (!existsSync(p) && !extname(p)) {
        for (const ext of options.filters.flatMap((f) => f.extensions)) if (existsSync(`${p}.${ext}`)) return `${p}.${ext}`;
      }
      return p;
    },
    async showSaveDialog(_id, options) {
      const a = take(options.title);
      if (a.name === null || a.name.trim() === '') return null;
      await fsp.mkdir(o.projectsDir, { recursive: true });
      return resolveChoice(a.name, o.projectsDir);
    },
    async askUnsavedChanges() {
      throw new Error('askUnsavedChanges is answered in the page in HTTP mode');
    },
    // A browser tab closes itself; nothing to do for the server.
    closeWindow: () => undefined,
    closeCancelled: () => undefined,
    documentStateChanged: () => undefined,
    recentChanged: () => undefined,
  };
}

export interface ServerOptions {
  /** Folder of the built renderer (`dist/renderer`). */
  rootDir: string;
  port?: number;
  /** With an API: the handlers behind `/__impulse/`. Without: a static server (the Playwright bridge). */
  api?: {
    handlers: Handlers;
    slot: { answer: DialogAnswer | null };
    projectsDir: string;
    /** What the first page gets from getInitialProject; later pages start empty. */
    firstInitial: InitialProject;
    token?: string;
  };
}

export interface RunningServer {
  url: string;
  port: number;
  token: string | null;
  /** Sends a menu command / app event to every connected page. */
  broadcast(command: MenuCommand, arg?: MenuCommandArg): number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string | Buffer, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new PayloadError('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A file inside `root` for a URL path, or null when the path leaves it. */
export function fileInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  const r = relative(root, file);
  if (r === '' ) return file;
  if (r.startsWith('..') || isAbsolute(r) || r.split(sep).includes('..')) return null;
  return file;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const root = resolve(options.rootDir);
  const api = options.api;
  const token = api ? api.token ?? randomBytes(16).toString('hex') : null;
  const events = new Map<number, ServerResponse>();
  let nextWindow = 1;
  let queue: Promise<unknown> = Promise.resolve();
  let port = 0;

  const serveStatic = async (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    let file = fileInside(root, pathname === '/' ? '/index.html' : pathname);
    if (!file) return send(res, 404, 'Not found');
    let stat = await fsp.stat(file).catch(() => null);
    if (stat?.isDirectory()) {
      file = join(file, 'index.html');
      stat = await fsp.stat(file).catch(() => null);
    }
    if (!stat || !stat.isFile()) {
      // Browsers ask for a favicon on their own; an app without one is not an error.
      if (pathname === '/favicon.ico') {
        res.writeHead(204, { 'Cache-Control': 'no-store' });
        return res.end();
      }
      return send(res, 404, 'Not found');
    }
    const ext = extname(file).toLowerCase();
    let body = await fsp.readFile(file);
    if (ext === '.html' && token) {
      body = Buffer.from(body.toString('utf8').replace(/<head([^>]*)>/i, `<head$1><meta name="${TOKEN_META}" content="${token}">`));
    }
    if (req.method === 'HEAD') {
      res.writeHead(200, { 'Content-Type': MIME[ext] ?? 'application/octet-stream', 'Content-Length': body.length });
      return res.end();
    }
    send(res, 200, body, MIME[ext] ?? 'application/octet-stream');
  };

  const serveApi = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (!api || !token) return send(res, 404, 'Not found');
    const given = req.headers['x-impulse-token'] ?? url.searchParams.get('token');
    if (given !== token) return sendJson(res, 403, { error: 'missing or wrong token' });
    const route = url.pathname.slice(API_PREFIX.length);
    if (route === 'hello' && req.method === 'POST') {
      const id = nextWindow++;
      api.handlers.openWindow(id, id === 1 ? api.firstInitial : { kind: 'empty' });
      return sendJson(res, 200, { windowId: id, projectsDir: api.projectsDir });
    }
    if (route === 'folder' && req.method === 'GET') {
      const names = await fsp.readdir(api.projectsDir).catch(() => [] as string[]);
      return sendJson(res, 200, { dir: api.projectsDir, files: names.filter((n) => !n.startsWith('.')).sort() });
    }
    if (route === 'events' && req.method === 'GET') {
      const id = Number(url.searchParams.get('window'));
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      res.write(': connected\n\n');
      events.set(id, res);
      req.on('close', () => {
        if (events.get(id) === res) events.delete(id);
      });
      return;
    }
    if (route.startsWith('call/') && req.method === 'POST') {
      const channel = route.slice('call/'.length);
      const windowId = Number(req.headers['x-impulse-window']);
      let body: { payload?: unknown; dialog?: DialogAnswer };
      try {
        body = JSON.parse(await readBody(req)) as typeof body;
      } catch (err) {
        return sendJson(res, 400, { error: err instanceof PayloadError ? err.message : 'request body is not JSON' });
      }
      const run = async () => {
        api.slot.answer = body.dialog && (typeof body.dialog.name === 'string' || body.dialog.name === null) ? { name: body.dialog.name } : null;
        try {
          return await api.handlers.invoke(windowId, channel, fromWire(body.payload));
        } finally {
          api.slot.answer = null;
        }
      };
      const p = queue.then(run, run);
      queue = p.catch(() => undefined);
      try {
        const result = await p;
        return sendJson(res, 200, { result: toWire(result) ?? null });
      } catch (err) {
        const status = err instanceof PayloadError ? 400 : err instanceof AccessError ? 403 : 500;
        return sendJson(res, status, { error: err instanceof Error ? err.message : String(err) });
      }
    }
    return sendJson(res, 404, { error: `no route ${url.pathname}` });
  };

  const server = createServer((req, res) => {
    const hostHeader = req.headers.host ?? '';
    // DNS rebinding: only our own loopback names.
    if (hostHeader !== `127.0.0.1:${port}` && hostHeader !== `localhost:${port}`) return send(res, 421, 'Wrong host');
    const url = new URL(req.url ?? '/', `http://${hostHeader}`);
    const handle = url.pathname.startsWith(API_PREFIX)
      ? serveApi(req, res, url)
      : req.method === 'GET' || req.method === 'HEAD' ? serveStatic(req, res, url.pathname) : Promise.resolve(send(res, 405, 'Method not allowed'));
    handle.catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) });
      else res.destroy();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    token,
    broadcast(command, arg) {
      if (!isMenuCommand(command)) throw new Error(`unknown command ${command}`);
      const data = `data: ${JSON.stringify({ command, arg: arg ?? null })}\n\n`;
      for (const res of events.values()) res.write(data);
      return events.size;
    },
    close() {
      for (const res of events.values()) res.end();
      events.clear();
      return new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
    },
  };
}
