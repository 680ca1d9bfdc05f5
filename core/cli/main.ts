#!/usr/bin/env node
/** `impulse <command> ...`: the pipeline entry point (node only). */
import { randomBytes } from 'node:crypto';
import { access, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import type { CliCommand, CliIo } from './io';

/** Each command lives in `./<name>.ts` and exports `run<Name>(argv, io)`. */
const COMMANDS: Record<string, string> = {
  check: 'find every interpenetration in a clip',
  bake: 'bake a clip to a glTF 2.0 .glb',
  suggest: 'suggest post-impact motion for dynamic objects',
};

async function loadCommand(name: string): Promise<CliCommand> {
  const mod = (await import(`./${name}.ts`)) as Record<string, unknown>;
  const fn = mod[`run${name[0].toUpperCase()}${name.slice(1)}`];
  if (typeof fn !== 'function') throw new Error(`command module ./${name}.ts does not export run${name[0].toUpperCase()}${name.slice(1)}`);
  return fn as CliCommand;
}

export function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, summary]) => `  impulse ${name.padEnd(8)} ${summary}`);
  return `usage: impulse <command> [options]\n\ncommands:\n${rows.join('\n')}\n\nRun 'impulse <command> --help' for a command's options.\n`;
}

export async function atomicWrite(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

export const nodeIo: CliIo = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  readFile: async (p) => new Uint8Array(await readFile(p)),
  writeFile: atomicWrite,
  exists: async (p) => access(p).then(
    () => true,
    () => false,
  ),
  sameFile: async (a, b) => {
    const [sa, sb] = await Promise.all([stat(a), stat(b)]);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  },
  isTTY: Boolean(process.stderr.isTTY),
};

export async function main(argv: string[], io: CliIo = nodeIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name ? 0 : 2;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    io.stderr(`impulse: unknown command '${name}'\n${usage()}`);
    return 2;
  }
  const run = await loadCommand(name);
  try {
    return await run(rest, io);
  } catch (err) {
    io.stderr(`impulse ${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

const invokedDirectly = process.argv[1] && /core[\\/]cli[\\/]main\.ts$|impulse(\.mjs)?$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
