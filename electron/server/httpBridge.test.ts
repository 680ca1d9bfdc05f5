import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHttpImpulseApi } from '../ipc/httpClient';
import { CONTENT_SECURITY_POLICY } from '../main/csp';
import { fileInside, resolveChoice } from './httpBridge';
import { startHttpApp, type HttpApp } from './serve';

let root: string;
let app: HttpApp;
let prompts: Array<string | null>;
let asked: string[];

const SAMPLE = '{"version":2,"name":"sample"}';

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'impulse-http-'));
  mkdirSync(join(root, 'renderer', 'assets'), { recursive: true });
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><html><head><title>Impulse</title></head><body></body></html>');
  writeFileSync(join(root, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'outside the renderer');
  writeFileSync(join(root, 'sample.impulse'), SAMPLE);
  app = await startHttpApp({
    rendererDir: join(root, 'renderer'), samplePath: join(root, 'sample.impulse'),
    userDataDir: join(root, 'userData'), projectsDir: join(root, 'Impulse Projects'),
  });
  prompts = [];
  asked = [];
});
afterEach(async () => {
  await app.close();
  rmSync(root, { recursive: true, force: true });
});

function client() {
  return createHttpImpulseApi({
    baseUrl: app.url.replace(/\/$/, ''),
    token: app.token!,
    fetch: (input, init) => fetch(input, init),
    prompt: (message) => {
      asked.push(message);
      if (prompts.length === 0) throw new Error(`unexpected prompt: ${message}`);
      return prompts.shift()!;
    },
    confirm: () => true,
  });
}

function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: app.port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => ok({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('HTTP bridge (npm start without Electron)', () => {
  it('serves the renderer with the CSP and the token meta, and nothing outside it', async () => {
    const index = await raw('/');
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(index.body).toContain(`<meta name="impulse-bridge" content="${app.token}">`);
    expect((await raw('/assets/app.js')).body).toBe('console.log(1)');
    expect((await raw('/../secret.txt')).status).toBe(404);
    expect((await raw('/%2e%2e/secret.txt')).status).toBe(404);
    expect((await raw('/assets/..%2f..%2fsecret.txt')).status).toBe(404);
  });

  it('refuses API calls without the token and requests for other host names', async () => {
    expect((await raw('/__impulse/call/listRecent', {}, 'POST')).status).toBe(403);
    expect((await raw('/', { Host: 'evil.example:80' })).status).toBe(421);
  });

  it('runs the real handlers: sample, save (name prompt in ~/Impulse Projects), reopen, recent', async () => {
    const api = client();
    expect(api.shell).toEqual({ kind: 'http', nativeMenus: false });
    expect(await api.getInitialProject()).toEqual({ path: null, text: SAMPLE, name: 'sample' });
    prompts.push('my scene');
    const saved = await api.saveProject({ text: 'scene text', path: null, saveAs: false });
    const target = join(root, 'Impulse Projects', 'my scene.impulse');
    expect(saved).toEqual({ path: target, name: 'my scene' });
    expect(readFileSync(target, 'utf8')).toBe('scene text');
    expect(await api.saveProject({ text: 'v2', path: target, saveAs: false })).toEqual(saved);
    expect(asked, 'the second save did not prompt').toHaveLength(1);
    prompts.push('my scene');
    expect(await api.openProject()).toEqual({ path: target, text: 'v2', name: 'my scene' });
    expect(asked[1]).toContain('my scene.impulse');
    expect(await api.listRecent()).toEqual([target]);
    prompts.push(null);
    expect(await api.openProject(), 'cancelled prompt').toBeNull();
  });

  it('imports and exports bytes unchanged', async () => {
    const api = client();
    const bytes = Uint8Array.from({ length: 70_001 }, (_, i) => (i * 7) % 256);
    prompts.push('out');
    const r = await api.exportGlb({ bytes, suggestedName: 'bake.glb' });
    expect(r).toEqual({ path: join(root, 'Impulse Projects', 'out.glb') });
    prompts.push('out.glb');
    const imported = await api.importGltf();
    expect(imported!.fileName).toBe('out.glb');
    expect(imported!.bytes).toEqual(bytes);
  });

  it('bad payloads and paths not chosen by the user are rejected with the handler\'s message', async () => {
    const api = client();
    await expect(api.saveProject({ text: 5 as unknown as string, path: join(root, 'x.impulse'), saveAs: false })).rejects.toThrow(/saveProject: text:/);
    await expect(api.saveProject({ text: 'x', path: join(root, 'secret.txt'), saveAs: false })).rejects.toThrow(/was not chosen in a dialog/);
    expect(readFileSync(join(root, 'secret.txt'), 'utf8')).toBe('outside the renderer');
  });

  it('autosave then a server restart offers the recovery', async () => {
    const api = client();
    await api.getInitialProject();
    await api.autosave('unsaved edits');
    await app.close();
    app = await startHttpApp({
      rendererDir: join(root, 'renderer'), samplePath: join(root, 'sample.impulse'),
      userDataDir: join(root, 'userData'), projectsDir: join(root, 'Impulse Projects'),
    });
    expect(await client().checkRecovery()).toMatchObject({ text: 'unsaved edits', path: null });
  });

  it('resolves typed names: plain names in the projects folder, ~ and absolute paths as typed', () => {
    expect(resolveChoice('a.impulse', '/p')).toBe('/p/a.impulse');
    expect(resolveChoice('/x/y.impulse', '/p')).toBe('/x/y.impulse');
    expect(resolveChoice('../up.impulse', '/p/q')).toBe('/p/up.impulse');
    expect(fileInside('/r', '/a/../../b')).toBeNull();
    expect(fileInside('/r', '/a/b.js')).toBe('/r/a/b.js');
  });
});
