/**
 * The desktop app itself, through Playwright's Electron driver. Runs only
 * where Electron's binary was installed (`npm run setup` downloads it from
 * github.com); everywhere else the Chromium bridge specs cover the renderer
 * and the handlers.
 */
import { _electron as electron, expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANNELS } from '../electron/ipc/contract';
import { REPO_ROOT } from './fixtures/bridge';

/** Path of the Electron binary, or null when it is not installed. */
function electronBinary(): string | null {
  const pathTxt = join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathTxt)) return null;
  const bin = join(REPO_ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathTxt, 'utf8').trim());
  if (!existsSync(bin)) return null;
  // The package resolves the same binary; its absence means a broken install.
  return createRequire(import.meta.url)('electron') as unknown as string;
}

const binary = electronBinary();
const bundle = join(REPO_ROOT, 'dist-electron', 'main.cjs');

test.describe('Electron app', () => {
  test.skip(binary === null, 'Electron binary not installed (it cannot be downloaded on this machine); the Chromium bridge specs cover the renderer');

  test.beforeAll(() => {
    // `npm run test:e2e` builds the renderer; the main/preload bundles are built here (esbuild, about a second).
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-electron.mjs')], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build-electron failed: ${r.stderr}`);
  });

  test('opens the sample in a sandboxed window whose preload exposes exactly the contract', async () => {
    expect(existsSync(bundle), 'dist-electron/main.cjs exists (npm run build:electron)').toBe(true);
    const userData = mkdtempSync(join(tmpdir(), 'impulse-electron-'));
    const app = await electron.launch({
      executablePath: binary!,
      args: [bundle],
      cwd: REPO_ROOT,
      env: { ...process.env, IMPULSE_USER_DATA: userData } as Record<string, string>,
    });
    try {
      const win = await app.firstWindow();
      expect(win.url()).toBe('app://impulse/index.html');
      const keys = await win.evaluate(() => Object.keys(window.impulse!).sort());
      expect(keys).toEqual([...CHANNELS, 'onMenuCommand', 'shell'].sort());
      expect(await win.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
      const sample = await win.evaluate(() => window.impulse!.getInitialProject());
      expect(sample!.text).toBe(readFileSync(join(REPO_ROOT, 'assets', 'sample', 'bat-and-ball.impulse'), 'utf8'));
      const nodeInPage = await win.evaluate(() => typeof (globalThis as { process?: unknown }).process);
      expect(nodeInPage, 'no node in the page (nodeIntegration off, sandboxed, context-isolated)').toBe('undefined');
      const opened = await win.evaluate(() => window.open('https://example.com') === null);
      expect(opened, 'window.open is denied').toBe(true);
    } finally {
      await app.close();
      rmSync(userData, { recursive: true, force: true });
    }
  });
});
