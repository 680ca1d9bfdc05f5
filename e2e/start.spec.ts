/**
 * `npm start` on a machine without Electron's binary: the built app served
 * with the handlers over the local HTTP bridge, as a user gets it here. The
 * page has no `window.impulse`; the renderer falls back to the HTTP client,
 * and its file dialogs become a name prompt in `~/Impulse Projects/`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, REPO_ROOT, test } from './fixtures/bridge';

let child: ChildProcess | null = null;
let home = '';

test.afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((ok) => child!.once('exit', ok));
    child.kill('SIGINT');
    await exited;
  }
  child = null;
  if (home) rmSync(home, { recursive: true, force: true });
});

test('npm start serves the app in Chromium and saves through the HTTP bridge into ~/Impulse Projects', async ({ page }) => {
  home = mkdtempSync(join(tmpdir(), 'impulse-home-'));
  child = spawn(process.execPath, [join(REPO_ROOT, 'scripts', 'start.mjs'), '--no-browser', '--chromium'], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), DISPLAY: '', WAYLAND_DISPLAY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start printed no address within 90 s:\n${output}`)), 90_000);
    child!.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const m = /running at (http:\/\/127\.0\.0\.1:\d+\/)[\s\S]*Ctrl\+C/.exec(output);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
    child!.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child!.once('exit', (code) => fail(new Error(`npm start exited (${code}):\n${output}`)));
  });
  expect(output).toContain('No display here');

  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  await page.goto(url);
  expect(await page.evaluate(() => 'impulse' in window), 'no preload in plain Chromium').toBe(false);
  await expect(page.getByTestId('app')).toBeVisible();
  // The bundled sample scene opened through the bridge.
  await expect(page.getByText('Mannequin').first()).toBeVisible();

  page.on('dialog', (d) => void (d.type() === 'prompt' ? d.accept('from-npm-start') : d.dismiss()));
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menuitem-saveAs').click();
  const saved = join(home, 'Impulse Projects', 'from-npm-start.impulse');
  await expect.poll(() => existsSync(saved), { message: `${saved} written` }).toBe(true);
  const text = readFileSync(saved, 'utf8');
  expect(JSON.parse(text).characters.length, 'the saved project is the sample scene').toBeGreaterThan(0);
  const recent = join(home, '.config', 'Impulse', 'recent.json');
  await expect.poll(() => (existsSync(recent) ? readFileSync(recent, 'utf8') : ''), { message: 'the recent list has it' }).toContain('from-npm-start.impulse');
  expect(errors).toEqual([]);
});
