#!/usr/bin/env node
// Launches the TypeScript CLI through tsx (installed with the project).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'core/cli/main.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
