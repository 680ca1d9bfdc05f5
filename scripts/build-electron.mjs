#!/usr/bin/env node
// Bundles the Electron main process and preload (and the Chromium HTTP bridge
// server used by `npm start` without Electron) with esbuild:
//   dist-electron/main.cjs, dist-electron/preload.cjs, dist-electron/server.mjs
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist-electron');

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  absWorkingDir: root,
};

await Promise.all([
  build({ ...common, entryPoints: ['electron/main/entry.ts'], outfile: join(out, 'main.cjs'), format: 'cjs', external: ['electron'] }),
  // Sandboxed preloads may only require('electron'): everything else is bundled in.
  build({ ...common, entryPoints: ['electron/preload/preload.ts'], outfile: join(out, 'preload.cjs'), format: 'cjs', external: ['electron'] }),
  build({ ...common, entryPoints: ['electron/server/serve.ts'], outfile: join(out, 'server.mjs'), format: 'esm',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } }),
]);
console.log('Built dist-electron/main.cjs, dist-electron/preload.cjs, dist-electron/server.mjs');
