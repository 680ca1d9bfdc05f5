#!/usr/bin/env node
// `npm start [-- project.impulse] [--port N] [--no-browser]`
// Runs Impulse in Electron when its binary is installed; otherwise serves the
// built renderer with the same handlers behind a local HTTP bridge and opens
// it in this machine's Chromium (or prints the address when there is no display).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, chromiumBinary, electronBinary } from './lib/electron.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const optionValues = new Set(['--port'].map((o) => option(o)).filter(Boolean));
const files = argv.filter((a) => !a.startsWith('--') && !optionValues.has(a)).map((a) => resolve(process.cwd(), a));
for (const f of files) {
  if (!existsSync(f)) {
    console.error(`No such project file: ${f}`);
    process.exit(1);
  }
}

const rendererDir = process.env.IMPULSE_RENDERER_DIR ? resolve(process.env.IMPULSE_RENDERER_DIR) : join(ROOT, 'dist', 'renderer');
const rendererIndex = join(rendererDir, 'index.html');
const bundles = ['main.cjs', 'preload.cjs', 'server.mjs'].map((b) => join(ROOT, 'dist-electron', b));
function build(script) {
  if (script !== 'build:electron') console.log(`Building (${script})…`);
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status || 1);
}
/** Newest modification time (ms) of the files under `dirs` (0 when there are none). */
function newestSource(dirs) {
  let newest = 0;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of dirs) if (existsSync(d)) walk(d);
  return newest;
}
// A renderer built before the sources last changed (a pull, an edit) would run old code: rebuild it.
const stale = !process.env.IMPULSE_RENDERER_DIR && existsSync(rendererIndex) && newestSource(['renderer', 'core', 'electron/ipc', 'assets'].map((d) => join(ROOT, d))) > statSync(rendererIndex).mtimeMs;
if (!existsSync(rendererIndex) || stale) build('build:renderer');
// The main/preload/bridge bundles take a second: always current with the sources.
build('build:electron');

const electron = electronBinary();
if (electron && !flag('--chromium')) {
  const child = spawn(electron, [join(ROOT, 'dist-electron', 'main.cjs'), ...files], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const { startHttpApp, defaultUserDataDir } = await import(pathToFileURL(bundles[2]).toString());
  const samplePath = join(ROOT, 'assets', 'sample', 'bat-and-ball.impulse');
  const app = await startHttpApp({
    rendererDir,
    samplePath,
    initialFile: files[0] ?? null,
    port: option('--port') ? Number(option('--port')) : Number(process.env.IMPULSE_PORT ?? 0),
  });
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    await app.autosaveAll();
    await app.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  const chromium = chromiumBinary();
  const hasDisplay = process.platform !== 'linux' || !!(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (chromium && hasDisplay && !flag('--no-browser')) {
    const profile = join(defaultUserDataDir(), 'chromium-profile');
    mkdirSync(profile, { recursive: true });
    console.log(`Impulse is running at ${app.url} (in Chromium; close the window to quit).`);
    const browser = spawn(chromium, [
      `--app=${app.url}`, `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--ignore-gpu-blocklist',
      // Chromium refuses to start as root with its sandbox on (containers, CI).
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ], { stdio: 'ignore' });
    browser.on('exit', () => void stop(0));
  } else {
    console.log(`Impulse is running at ${app.url}`);
    console.log(chromium
      ? 'No display here: open that address in Chromium on this machine. Ctrl+C stops the server.'
      : 'No Chromium found: open that address in a Chromium-based browser on this machine. Ctrl+C stops the server.');
  }
}
