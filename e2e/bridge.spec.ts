/**
 * The bridge itself: `window.impulse` in Chromium runs the real handlers
 * (files land on disk, payloads are validated, recovery survives a restart),
 * and the HTTP bridge of `npm start` does the same without Playwright.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANNELS } from '../electron/ipc/contract';
import { CONTENT_SECURITY_POLICY } from '../electron/main/csp';
import { startHttpApp } from '../electron/server/serve';
import { expect, REPO_ROOT, test } from './fixtures/bridge';

const SMOKE_DIR = join(REPO_ROOT, 'e2e', 'fixtures', 'smoke-page');
const SMOKE_SAMPLE = join(REPO_ROOT, 'e2e', 'fixtures', 'smoke-sample.impulse');

test.use({ appDir: SMOKE_DIR });

test.beforeEach(({ bridge }) => {
  bridge.samplePath = SMOKE_SAMPLE;
});

test('window.impulse is exactly the contract, and the page runs under the CSP', async ({ bridge }) => {
  const page = await bridge.open();
  const keys = await page.evaluate(() => Object.keys(window.impulse!).sort());
  expect(keys).toEqual([...CHANNELS, 'onMenuCommand', 'shell'].sort());
  expect(await page.evaluate(() => window.impulse!.shell)).toEqual({ kind: 'chromium-bridge', nativeMenus: false });
  const response = await page.request.get(bridge.url);
  expect(response.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  const inline = await page.evaluate(async () => {
    const violation = new Promise<string>((ok) => document.addEventListener('securitypolicyviolation', (e) => ok(e.violatedDirective), { once: true }));
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.appendChild(s);
    return { ran: !!(window as unknown as { __inlineRan?: boolean }).__inlineRan, directive: await violation };
  });
  expect(inline, 'the CSP blocks inline scripts').toEqual({ ran: false, directive: expect.stringMatching(/^script-src/) });
});

test('saving through the real handler writes the file; later saves go to the same path', async ({ bridge }) => {
  const page = await bridge.open();
  const initial = await page.evaluate(() => window.impulse!.getInitialProject());
  expect(initial).toEqual({ path: null, text: readFileSync(SMOKE_SAMPLE, 'utf8'), name: 'smoke-sample' });

  bridge.nextSavePath = 'my-scene';
  const saved = await page.evaluate(() => window.impulse!.saveProject({ text: '{"edited":1}', path: null, saveAs: false }));
  expect(saved).toEqual({ path: bridge.path('my-scene.impulse'), name: 'my-scene' });
  expect(bridge.read('my-scene.impulse')).toBe('{"edited":1}');
  expect(bridge.dialogs).toHaveLength(1);

  await page.evaluate((p) => window.impulse!.saveProject({ text: '{"edited":2}', path: p, saveAs: false }), saved!.path);
  expect(bridge.read('my-scene.impulse')).toBe('{"edited":2}');
  expect(bridge.dialogs, 'the second save did not ask').toHaveLength(1);
  expect(await page.evaluate(() => window.impulse!.listRecent())).toEqual([saved!.path]);

  bridge.nextOpenPath = 'my-scene.impulse';
  expect(await page.evaluate(() => window.impulse!.openProject())).toEqual({ path: saved!.path, text: '{"edited":2}', name: 'my-scene' });
  bridge.nextOpenPath = null;
  expect(await page.evaluate(() => window.impulse!.openProject())).toBeNull();
});

test('a dialog the test did not answer fails loudly; bad payloads and foreign paths are refused', async ({ bridge }) => {
  const page = await bridge.open();
  await expect(page.evaluate(() => window.impulse!.openProject())).rejects.toThrow(/bridge\.nextOpenPath/);
  await expect(page.evaluate(() => window.impulse!.saveProject({ text: 42 as unknown as string, path: '/tmp/x.impulse', saveAs: false })))
    .rejects.toThrow(/saveProject: text:/);
  await expect(page.evaluate(() => window.impulse!.saveProject({ text: 'x', path: '/etc/impulse-nope.impulse', saveAs: false })))
    .rejects.toThrow(/was not chosen in a dialog/);
  await expect(page.evaluate(() => window.impulse!.openRecent('/etc/passwd'))).rejects.toThrow(/not in the recent list/);
});

test('glTF bytes travel unchanged in both directions', async ({ bridge }) => {
  const page = await bridge.open();
  bridge.nextExportPath = 'baked';
  const exported = await page.evaluate(async () => {
    const bytes = new Uint8Array(100_003);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 255;
    return window.impulse!.exportGlb({ bytes, suggestedName: 'bat-and-ball.glb' });
  });
  expect(exported).toEqual({ path: bridge.path('baked.glb') });
  const onDisk = readFileSync(bridge.path('baked.glb'));
  expect(onDisk.length).toBe(100_003);
  expect(onDisk.every((b, i) => b === ((i * 31) & 255))).toBe(true);
  expect(bridge.dialogs[0]!.defaultPath).toBe(bridge.path('bat-and-ball.glb'));

  bridge.nextImportPath = 'baked.glb';
  const imported = await page.evaluate(async () => {
    const r = await window.impulse!.importGltf();
    let ok = r!.bytes instanceof Uint8Array && r!.bytes.length === 100_003;
    for (let i = 0; ok && i < r!.bytes.length; i++) ok = r!.bytes[i] === ((i * 31) & 255);
    return { fileName: r!.fileName, ok };
  });
  expect(imported).toEqual({ fileName: 'baked.glb', ok: true });
});

test('menu commands reach the page; closing runs the confirmClose handshake', async ({ bridge }) => {
  const page = await bridge.open();
  await expect(bridge.menu('save'), 'nobody listens yet').rejects.toThrow(/has not subscribed/);
  await page.evaluate(() => {
    (window as unknown as { got: unknown[] }).got = [];
    window.impulse!.onMenuCommand((c, a) => (window as unknown as { got: unknown[] }).got.push([c, a ?? null]));
  });
  await bridge.menu('save');
  await bridge.menu('openRecent', { path: '/p/a.impulse' });
  expect(await page.evaluate(() => (window as unknown as { got: unknown[] }).got)).toEqual([['save', null], ['openRecent', { path: '/p/a.impulse' }]]);

  await page.evaluate(() => window.impulse!.setDocumentState({ dirty: true, title: 'smoke.impulse', path: null }));
  expect(bridge.documentState).toEqual({ dirty: true, title: 'smoke.impulse', path: null });
  bridge.nextUnsavedChoice = 'cancel';
  expect(await page.evaluate(() => window.impulse!.askUnsavedChanges())).toBe('cancel');
  await page.evaluate(() => window.impulse!.confirmClose(false));
  await page.evaluate(() => window.impulse!.confirmClose(true));
  expect([bridge.closeCancelled, bridge.closed]).toEqual([1, 1]);
});

test('an autosave survives a crash: the relaunched app is offered it once', async ({ bridge }) => {
  let page = await bridge.open();
  await page.evaluate(() => window.impulse!.autosave('{"unsaved":"work"}'));
  page = await bridge.relaunch();
  const info = await page.evaluate(() => window.impulse!.checkRecovery());
  expect(info).toMatchObject({ text: '{"unsaved":"work"}', path: null });
  expect(Math.abs(info!.savedAt - Date.now())).toBeLessThan(60_000);
  await page.evaluate(() => window.impulse!.discardRecovery());
  page = await bridge.relaunch();
  expect(await page.evaluate(() => window.impulse!.checkRecovery())).toBeNull();
});

test('npm start without Electron: the HTTP bridge serves the page and runs the handlers', async ({ page }) => {
  const root = mkdtempSync(join(tmpdir(), 'impulse-http-e2e-'));
  const site = join(root, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'index.html'), '<!doctype html><html><head><title>HTTP smoke</title><script type="module" src="/client.js"></script></head><body></body></html>');
  writeFileSync(join(site, 'client.js'), buildSync({
    entryPoints: [join(REPO_ROOT, 'e2e', 'fixtures', 'httpSmokeClient.ts')], bundle: true, format: 'esm', platform: 'browser', write: false,
  }).outputFiles[0]!.text);
  const app = await startHttpApp({ rendererDir: site, samplePath: SMOKE_SAMPLE, userDataDir: join(root, 'userData'), projectsDir: join(root, 'projects') });
  try {
    page.on('dialog', (d) => void (d.type() === 'prompt' ? d.accept('http-scene') : d.dismiss()));
    await page.goto(app.url);
    await page.waitForFunction(() => !!window.impulse);
    expect(await page.evaluate(() => window.impulse!.shell.kind)).toBe('http');
    expect(await page.evaluate(() => window.impulse!.getInitialProject())).toMatchObject({ name: 'smoke-sample' });
    const saved = await page.evaluate(() => window.impulse!.saveProject({ text: 'over http', path: null, saveAs: false }));
    expect(saved).toEqual({ path: join(root, 'projects', 'http-scene.impulse'), name: 'http-scene' });
    expect(readFileSync(join(root, 'projects', 'http-scene.impulse'), 'utf8')).toBe('over http');
    await page.evaluate(() => {
      (window as unknown as { got: string[] }).got = [];
      window.impulse!.onMenuCommand((c) => (window as unknown as { got: string[] }).got.push(c));
    });
    await expect.poll(() => app.broadcast('autosave')).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => (window as unknown as { got: string[] }).got[0])).toBe('autosave');
  } finally {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  }
});
