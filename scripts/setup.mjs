#!/usr/bin/env node
// `npm run setup` (after `npm install`): tries to fetch Electron's binary
// (npm's install scripts are off in .npmrc, so it is fetched here, where a
// failure cannot break the install), then builds the renderer and the
// Electron/HTTP-bridge bundles.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, chromiumBinary, electronBinary } from './lib/electron.mjs';

const DOWNLOAD_TIMEOUT_MS = Number(process.env.IMPULSE_ELECTRON_TIMEOUT_MS ?? 120_000);

function run(label, command, args) {
  console.log(`\n> ${label}`);
  const r = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) {
    console.error(`\n${label} failed (exit code ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

if (electronBinary()) {
  console.log(`Electron's binary is installed: ${electronBinary()}`);
} else {
  const installer = join(ROOT, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) {
    console.error('node_modules/electron is missing: run `npm install` first.');
    process.exit(1);
  }
  process.stdout.write('Fetching Electron\'s binary… ');
  const r = spawnSync(process.execPath, [installer], { cwd: ROOT, encoding: 'utf8', timeout: DOWNLOAD_TIMEOUT_MS });
  if (r.status === 0 && electronBinary()) {
    console.log('done.');
  } else {
    console.log('');
    console.log(chromiumBinary()
      ? "Electron's binary could not be downloaded (no access to github.com); Impulse will run in this machine's Chromium instead."
      : "Electron's binary could not be downloaded (no access to github.com) and no Chromium was found; install one (e.g. `apt-get install chromium`) to run Impulse in it.");
    if (process.env.IMPULSE_VERBOSE) console.log((r.stderr || r.error?.message || '').trim());
  }
}

run('Building the renderer', 'npm', ['run', '--silent', 'build:renderer']);
run('Bundling the Electron main, preload and HTTP bridge', 'npm', ['run', '--silent', 'build:electron']);
console.log('\nSet-up done. `npm start` opens Impulse on the bundled sample scene.');
