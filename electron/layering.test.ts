/**
 * The narrow door, enforced: which electron/ folders may import what.
 *  - ipc/: the contract and its clients run in the renderer and the preload: no node, no electron, nothing of ours outside ipc/.
 *  - preload/: only `electron` and ipc/.
 *  - main/ handlers and everything but main.ts/entry.ts: no `electron` (the Chromium bridges run them).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = __dirname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p);
    return n.endsWith('.ts') && !n.endsWith('.test.ts') ? [p] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

const rel = (f: string) => relative(ROOT, f);

describe('electron layering', () => {
  it('ipc/ imports nothing but ipc/ (and zod for the validators)', () => {
    const bad: string[] = [];
    for (const f of sources(join(ROOT, 'ipc'))) {
      for (const s of imports(f)) {
        const ok = s.startsWith('./') || (s === 'zod' && rel(f) === join('ipc', 'validators.ts'));
        if (!ok) bad.push(`${rel(f)} imports ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('preload/ imports only electron and ipc/', () => {
    const bad: string[] = [];
    for (const f of sources(join(ROOT, 'preload'))) {
      for (const s of imports(f)) if (s !== 'electron' && !s.startsWith('../ipc/')) bad.push(`${rel(f)} imports ${s}`);
    }
    expect(bad).toEqual([]);
  });

  it('only main.ts and entry.ts import electron in main/ and server/', () => {
    const bad: string[] = [];
    for (const f of [...sources(join(ROOT, 'main')), ...sources(join(ROOT, 'server'))]) {
      if (['main.ts', 'entry.ts'].includes(rel(f).split('/').pop()!)) continue;
      for (const s of imports(f)) if (s === 'electron' || s.startsWith('electron/')) bad.push(`${rel(f)} imports ${s}`);
    }
    expect(bad).toEqual([]);
  });

  it('the checks see imports at all (the scanner is not blind)', () => {
    expect(imports(join(ROOT, 'preload', 'preload.ts'))).toContain('electron');
    expect(imports(join(ROOT, 'main', 'handlers.ts'))).toContain('../ipc/contract');
  });
});
