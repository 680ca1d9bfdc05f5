/**
 * `npm run bench`: runs every `core/bench/*.bench.ts` in its own node process,
 * one after another (so they do not disturb each other), and prints their rows.
 * Each benchmark runs its peer (three-mesh-bvh, Rapier, a dense solve...) on the
 * same input in the same process and prints the ratio: these machines are noisy,
 * so ratios, not absolute times, are what to compare across runs.
 * `npm run bench -- collision sim` runs only the named benchmarks.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

let failed = 0;
for (const f of files) {
  console.log(`\n== ${f} ==`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`!! ${f} exited with ${r.status ?? r.signal}`);
  }
}
console.log(`\n${files.length - failed}/${files.length} benchmarks ran`);
process.exit(failed ? 1 : 0);
