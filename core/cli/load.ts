/**
 * Loading a command's input: a project (.impulse) or a glTF scene
 * (.glb/.gltf: every skin with the meshes bound to it is a character, every
 * other mesh a keyframed prop, every animation a clip). Shared by every
 * command so they accept the same files and fail the same way: anything wrong
 * with the input throws an `InputError` whose message starts with the file
 * (exit code 2 in every command).
 */
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import type { CliIo } from './io';
import { UsageError } from './args';
import type { ImpulseDocument } from '../document/types';
import { parseDocument } from '../document/parse';
import { createEmptyDocument } from '../document/defaults';
import { propMassProperties } from '../document/massProperties';
import { GltfImportError, importGltf } from '../io/importGltf';

/** The input file is missing, unreadable or malformed; the message names it and where. */
export class InputError extends UsageError {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export interface LoadedScene {
  doc: ImpulseDocument;
  /** Import warnings (open meshes, unsupported features), each naming the file. */
  warnings: string[];
}

/** External buffers of a .gltf, read next to it (only plain relative names, no `..`). */
async function gltfResources(bytes: Uint8Array, input: string, io: CliIo): Promise<Record<string, Uint8Array>> {
  let json: { buffers?: { uri?: string }[] };
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new InputError(`${input}: not valid glTF JSON: ${(e as Error).message}`);
  }
  const out: Record<string, Uint8Array> = {};
  for (const b of json.buffers ?? []) {
    const uri = b.uri;
    if (!uri || uri.startsWith('data:')) continue;
    const rel = decodeURIComponent(uri);
    if (isAbsolute(rel) || normalize(rel).split(/[\\/]/).includes('..'))
      throw new InputError(`${input}: buffer uri "${uri}" points outside the file's folder; refusing to read it`);
    try {
      out[uri] = await io.readFile(join(dirname(input), rel));
    } catch (e) {
      throw new InputError(`${input}: cannot read its buffer "${uri}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  return out;
}

/** Reads and parses (or imports) the input of a command. */
export async function loadScene(input: string, io: CliIo): Promise<LoadedScene> {
  const gltf = /\.(glb|gltf)$/i.test(input);
  if (!gltf && !/\.impulse$/i.test(input)) throw new InputError(`${input}: expected a .impulse project or a .glb/.gltf file`);
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(input);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `${input}: no such file` : `${input}: cannot read the file (${code ?? (e as Error).message})`);
  }
  if (gltf) {
    const resources = /\.gltf$/i.test(input) ? await gltfResources(bytes, input, io) : undefined;
    const name = input.split(/[\\/]/).pop() ?? input;
    let imported;
    try {
      imported = await importGltf(bytes, name, { resources });
    } catch (e) {
      // A GltfImportError's message starts with the file name it was given: name the input once.
      const m = (e as Error).message;
      throw new InputError(e instanceof GltfImportError && m.startsWith(`${name}: `) ? `${input}: ${m.slice(name.length + 2)}` : `${input}: ${m}`);
    }
    const doc = createEmptyDocument(name.replace(/\.(glb|gltf)$/i, ''));
    doc.characters = imported.characters;
    doc.props = imported.props;
    doc.clips = imported.clips;
    // Not the empty document's own clip, which is gone.
    doc.activeClip = imported.clips.length > 0 ? imported.clips[0].id : '';
    return { doc, warnings: imported.warnings };
  }
  try {
    return { doc: parseDocument(new TextDecoder().decode(bytes)), warnings: [] };
  } catch (e) {
    throw new InputError(`${input}: ${(e as Error).message}`);
  }
}

/**
 * Every name of --dynamic must name a prop or character (else the input or
 * the option is wrong: InputError), and the props among `names` must have
 * usable mass properties (a closed mesh with volume for a density, a scale
 * without zero components): otherwise the input is bad (InputError naming
 * the prop's path), not the simulation.
 */
export function checkDynamicProps(doc: ImpulseDocument, names: readonly string[], input: string): void {
  for (const name of names)
    if (!doc.props.some((p) => p.id === name || p.name === name) && !doc.characters.some((c) => c.id === name || c.name === name)) {
      const list = (xs: { name: string }[]) => xs.map((x) => `"${x.name}"`).join(', ') || 'none';
      throw new InputError(`${input}: --dynamic: no prop or character is named or has the id "${name}" (props: ${list(doc.props)}; characters: ${list(doc.characters)})`);
    }
  doc.props.forEach((prop, i) => {
    if (!names.includes(prop.id) && !names.includes(prop.name)) return;
    try {
      propMassProperties(prop);
    } catch (e) {
      throw new InputError(`${input}: props[${i}]: ${(e as Error).message}`);
    }
  });
}

/**
 * Checks an output path before anything is read or written: null when it may
 * be written, else the message (without the command name) and exit code.
 * Never over the input (the same path, or a symlink or hard link to it:
 * exit 2); never over an existing file without `force` (exit 1).
 */
export async function outputRefusal(io: CliIo, input: string, out: string, force: boolean): Promise<{ message: string; code: number } | null> {
  if (resolve(input) === resolve(out)) return { message: `--out ${out} is the input file; refusing to overwrite the input`, code: 2 };
  const outExists = await io.exists(out);
  if (outExists && io.sameFile && (await io.exists(input)) && (await io.sameFile(input, out)))
    return { message: `--out ${out} is the input file (a link to it); refusing to overwrite the input`, code: 2 };
  if (outExists && !force) return { message: `${out} already exists; use --force to overwrite it`, code: 1 };
  return null;
}
