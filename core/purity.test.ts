import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// core/ is the engine: no framework or platform imports outside the node-only
// folders (cli/, node/, bench/) and tests.
const CORE = new URL('.', import.meta.url).pathname;
const NODE_ONLY = /^(cli|node|bench)\//;
const FORBIDDEN = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](three(?:\/[^'"]*)?|react(?:-dom)?(?:\/[^'"]*)?|@react-three\/[^'"]*|electron|node:[^'"]*|fs|path|os|url|child_process|worker_threads|crypto|zlib|stream)['"]/g;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe('core purity', () => {
  it('core/ imports no three, react, electron, DOM or node modules outside cli/, node/, bench/ and tests', () => {
    const offenders: string[] = [];
    for (const file of walk(CORE)) {
      const rel = relative(CORE, file);
      if (NODE_ONLY.test(rel) || /\.test\.tsx?$/.test(rel)) continue;
      const src = readFileSync(file, 'utf8');
      for (const m of src.matchAll(FORBIDDEN)) offenders.push(`${rel}: imports '${m[1]}'`);
      if (/\b(window|navigator|localStorage|sessionStorage)\.\w/.test(src.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
        offenders.push(`${rel}: touches a DOM global`);
    }
    expect(offenders, 'core must stay free of framework and platform imports').toEqual([]);
  });
});
