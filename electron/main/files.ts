/**
 * File primitives of the shell: atomic writes (temporary file in the same
 * folder, write, fsync, rename, fsync the folder) so a crash or a killed
 * process mid-write leaves the previous file intact.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const TMP_SUFFIX = '.impulse-tmp';
const WRITE_CHUNK = 1 << 20;

export interface AtomicWriteOptions {
  /** Test hook: called after each chunk is written to the temporary file. */
  afterChunk?: (bytesWritten: number, totalBytes: number) => void | Promise<void>;
}

/** The temporary file name used for `target` (hidden, same folder, unique). */
export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}${TMP_SUFFIX}`);
}

/** Whether `name` (a file name) is a temporary file left by an interrupted write of `targetName`. */
export function isStaleTempOf(name: string, targetName: string): boolean {
  return name.startsWith(`.${targetName}.`) && name.endsWith(TMP_SUFFIX);
}

export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const tmp = tempPathFor(target);
  const fh = await fsp.open(tmp, 'wx', 0o644);
  let renamed = false;
  try {
    let written = 0;
    while (written < bytes.byteLength) {
      const n = Math.min(WRITE_CHUNK, bytes.byteLength - written);
      const { bytesWritten } = await fh.write(bytes, written, n);
      written += bytesWritten;
      if (options.afterChunk) await options.afterChunk(written, bytes.byteLength);
    }
    await fh.sync();
    await fh.close();
    await fsp.rename(tmp, target);
    renamed = true;
    await syncDirectory(dirname(target));
  } finally {
    if (!renamed) {
      await fh.close().catch(() => undefined); // already closed when the rename failed
      await fsp.rm(tmp, { force: true });
    }
  }
  await removeStaleTemps(target);
}

/** Makes the rename durable. Directories cannot be opened for fsync on Windows. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const dh = await fsp.open(dir, 'r');
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
}

/** Deletes temporary files an interrupted earlier write of `target` left behind. */
export async function removeStaleTemps(target: string): Promise<void> {
  const name = basename(target);
  // Temporary files of this process may belong to a write still in progress.
  for (const entry of await fsp.readdir(dirname(target))) {
    if (isStaleTempOf(entry, name) && !entry.includes(`.${process.pid}.`)) {
      await fsp.rm(join(dirname(target), entry), { force: true });
    }
  }
}
