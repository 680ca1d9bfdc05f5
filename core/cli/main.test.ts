import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './io';
import { atomicWrite, main, usage } from './main';

function captureIo(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout(s: string) {
      io.out += s;
    },
    stderr(s: string) {
      io.err += s;
    },
    readFile: async () => new Uint8Array(),
    writeFile: async () => undefined,
    exists: async () => false,
    isTTY: false,
  };
  return io;
}

describe('impulse dispatcher', () => {
  it('prints usage listing check, bake and suggest; no command is a usage error (exit 2)', async () => {
    const io = captureIo();
    expect(await main([], io)).toBe(2);
    for (const c of ['check', 'bake', 'suggest']) expect(io.out).toContain(`impulse ${c}`);
    expect(usage()).toContain('usage: impulse <command>');
  });

  it('rejects an unknown command with exit 2 and names it', async () => {
    const io = captureIo();
    expect(await main(['frobnicate'], io)).toBe(2);
    expect(io.err).toContain("unknown command 'frobnicate'");
  });

  it('atomicWrite replaces the file in one step and leaves no temporary file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'impulse-cli-'));
    const p = join(dir, 'out.glb');
    writeFileSync(p, 'old');
    await atomicWrite(p, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(p)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['out.glb']);
  });
});

describe('impulse bake through the dispatcher', () => {
  it('loads the bake command module and runs it', async () => {
    const io = captureIo();
    expect(await main(['bake', '--help'], io)).toBe(0);
    expect(io.out).toContain('usage: impulse bake');
  });
});
