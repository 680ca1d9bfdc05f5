/**
 * Repro: `impulse bake` printed the input path twice for a broken .gltf
 * ("impulse bake: a/s.gltf: a/s.gltf: not valid glTF JSON ..."): the loader
 * put the path into its error and runBake prefixes every error with it again.
 */
import { describe, expect, it } from 'vitest';
import { runBake } from '../bake';
import type { CliIo } from '../io';

function run(files: Record<string, string>, argv: string[]): Promise<{ code: number; err: string }> {
  const err: string[] = [];
  const io: CliIo = {
    stdout: () => {},
    stderr: (s) => void err.push(s),
    readFile: async (p) => {
      if (!(p in files)) throw new Error(`ENOENT: ${p}`);
      return new TextEncoder().encode(files[p]);
    },
    writeFile: async () => {
      throw new Error('repro: nothing may be written');
    },
    exists: async (p) => p in files,
    isTTY: false,
  };
  return runBake(argv, io).then((code) => ({ code, err: err.join('') }));
}

describe('impulse bake names its input once (repro)', () => {
  it('for a .gltf that is not JSON', async () => {
    const r = await run({ 'a/s.gltf': '{ nope' }, ['a/s.gltf', '--out', 'o.glb']);
    expect(r.code, 'bad input').toBe(2);
    expect(r.err).toMatch(/^impulse bake: a\/s\.gltf: not valid glTF JSON/);
    expect(r.err, 'the path appears once').not.toMatch(/a\/s\.gltf: a\/s\.gltf/);
  });

  it('for a .gltf whose buffer points outside its folder', async () => {
    const gltf = JSON.stringify({ asset: { version: '2.0' }, buffers: [{ uri: '../secret.bin', byteLength: 4 }] });
    const r = await run({ 'a/s.gltf': gltf }, ['a/s.gltf', '--out', 'o.glb']);
    expect(r.code, 'bad input').toBe(2);
    expect(r.err).toMatch(/^impulse bake: a\/s\.gltf: buffer uri "\.\.\/secret\.bin" points outside the file's folder/);
    expect(r.err, 'the path appears once').not.toMatch(/a\/s\.gltf: a\/s\.gltf/);
  });
});
