import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStaleTempOf, writeFileAtomic } from './files';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'impulse-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ROOT = resolve(__dirname, '../..');

/** Runs a child node process that starts an atomic write of `bytes` bytes and stops after its 2nd chunk. */
function childWritingThenStuck(target: string, bytes: number): Promise<{ killedMidWrite: boolean }> {
  const script = `
    import { writeFileAtomic } from ${JSON.stringify(join(ROOT, 'electron/main/files.ts'))};
    const data = new Uint8Array(${bytes}).fill(120);
    await writeFileAtomic(${JSON.stringify(target)}, data, {
      afterChunk: (written) => {
        if (written >= 2 * (1 << 20)) {
          process.stdout.write('MID-WRITE ' + written + '\\n');
          return new Promise(() => undefined); // hang until killed
        }
      },
    });
    process.stdout.write('FINISHED\\n');
  `;
  return new Promise((resolveP, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killedMidWrite = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('MID-WRITE') && !killedMidWrite) {
        killedMidWrite = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (!killedMidWrite) reject(new Error(`child was not killed mid-write (code ${code}, signal ${signal}): ${out}${err}`));
      else resolveP({ killedMidWrite });
    });
  });
}

describe('writeFileAtomic', () => {
  it('writes the exact bytes and leaves no temporary file', async () => {
    const target = join(dir, 'a.impulse');
    const text = 'héllo ' + 'x'.repeat(3 * (1 << 20) + 17);
    await writeFileAtomic(target, text);
    expect(readFileSync(target, 'utf8')).toBe(text);
    expect(readdirSync(dir), 'only the target remains').toEqual(['a.impulse']);
  });

  it('replaces an existing file', async () => {
    const target = join(dir, 'a.impulse');
    writeFileSync(target, 'old');
    await writeFileAtomic(target, 'new');
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('a process killed mid-write leaves the old file intact, and the next save cleans up its temp file', async () => {
    const target = join(dir, 'project.impulse');
    const old = JSON.stringify({ version: 2, note: 'the old, complete project' });
    writeFileSync(target, old);
    const total = 8 * (1 << 20);
    const { killedMidWrite } = await childWritingThenStuck(target, total);
    expect(killedMidWrite).toBe(true);
    expect(readFileSync(target, 'utf8'), 'target still holds the old project').toBe(old);
    const temps = readdirSync(dir).filter((n) => isStaleTempOf(n, 'project.impulse'));
    expect(temps.length, 'the interrupted write left its temp file').toBe(1);
    const partial = statSync(join(dir, temps[0]!)).size;
    expect(partial, 'the temp file was only partly written when the process died').toBeGreaterThanOrEqual(2 * (1 << 20));
    expect(partial).toBeLessThan(total);
    await writeFileAtomic(target, 'fresh');
    expect(readFileSync(target, 'utf8')).toBe('fresh');
    expect(readdirSync(dir), 'stale temp files of the dead process were removed').toEqual(['project.impulse']);
  });

  it('a failing write removes its temp file and keeps the old file', async () => {
    const target = join(dir, 'b.impulse');
    writeFileSync(target, 'old');
    await expect(
      writeFileAtomic(target, new Uint8Array(3 << 20), {
        afterChunk: () => {
          throw new Error('disk full (simulated)');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['b.impulse']);
  });
});
