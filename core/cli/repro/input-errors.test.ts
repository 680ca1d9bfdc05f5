/**
 * Repros found by the CLI fuzz test (core/cli/cli.fuzz.test.ts):
 *
 * 1. A broken .glb was named twice: "impulse check: bat.glb: bat.glb:
 *    nodes[0].rotation: ..." (the loader prefixed the input path to a
 *    GltfImportError message that already starts with the file name).
 * 2. `impulse suggest --dynamic Ball` on a project whose Ball takes its mass
 *    from a density but has an open (or flat) mesh, or a zero scale, exited
 *    1 ("simulation failed") though the input is at fault: now exit 2 naming
 *    `props[i]`.
 * 3. A .glb without animations loaded as a document whose activeClip named
 *    the empty document's discarded clip (an invalid document); suggest then
 *    said `no clip "clip_..."`. Now activeClip is '' and the document valid.
 * 4. (FUZZ_SCALE=12) `--dynamic Ball` on a project without a Ball exited 1
 *    as if the simulation had failed: now exit 2 naming the option and
 *    listing the props and characters there are.
 * 5. (FUZZ_SCALE=12) `impulse bake` of a .glb with no meshes left (box.glb
 *    with nodes[0] = {}) wrote a .glb whose empty buffer has no byteLength,
 *    which glTF forbids and the importer refuses: now exit 2, nothing to bake
 *    (the exporter's empty-scene output is reported to the bake owner).
 */
import { readAsset as asset } from '../../node/assets';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../check';
import { runSuggest } from '../suggest';
import { runBake } from '../bake';
import { loadScene } from '../load';
import type { CliIo } from '../io';
import { documentProblems } from '../../document/validate';
import { packGlb, unpackGlb } from '../../io/testkit';

/* eslint-disable @typescript-eslint/no-explicit-any */

function memoryIo(files: Record<string, Uint8Array>): { io: CliIo; err: string[] } {
  const err: string[] = [];
  return {
    err,
    io: {
      stdout: () => {},
      stderr: (s) => void err.push(s),
      readFile: async (p) => {
        if (!(p in files)) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
        return files[p];
      },
      writeFile: async () => {},
      exists: async (p) => p in files,
      isTTY: false,
    },
  };
}

function brokenBat(): Uint8Array {
  const { json, bin } = unpackGlb(asset('props/bat.glb'));
  json.nodes[0].rotation = [0, 0, 0, 0];
  return packGlb(json, bin);
}

/** The sample project without its character, the Ball's mass from density over an open mesh. */
function openBallProject(): Uint8Array {
  const d = JSON.parse(new TextDecoder().decode(asset('sample/bat-and-ball.impulse')));
  d.characters = [];
  d.clips = d.clips.filter((c: any) => c.tracks.some((t: any) => t.target.kind === 'prop'));
  for (const c of d.clips) c.tracks = c.tracks.filter((t: any) => t.target.kind === 'prop');
  d.check.ignore = [];
  d.activeClip = d.clips[0].id;
  const ball = d.props.find((p: any) => p.name === 'Ball');
  delete ball.physics.massKg;
  ball.physics.densityKgPerM3 = 1000;
  const idx = new Uint32Array(new Uint8Array(Buffer.from(ball.mesh.indices.b64, 'base64')).buffer);
  ball.mesh.indices = { dtype: 'u32', b64: Buffer.from(idx.slice(3).buffer).toString('base64') };
  return new TextEncoder().encode(JSON.stringify(d));
}

describe('repro: CLI input errors', () => {
  it('a broken .glb is named once, as the user gave it, followed by the glTF path', async () => {
    for (const input of ['bat.glb', 'some/dir/bat.glb']) {
      const { io, err } = memoryIo({ [input]: brokenBat() });
      expect(await runCheck([input], io), 'bad input').toBe(2);
      expect(err.join('')).toMatch(new RegExp(`^impulse check: ${input.replace(/[./]/g, '\\$&')}: nodes\\[0\\]\\.rotation: quaternion`));
      expect(err.join(''), 'the file name is not repeated').not.toMatch(/bat\.glb: bat\.glb/);
    }
  });

  it('suggest on a dynamic prop whose mass cannot come from its density exits 2 naming the prop', async () => {
    const { io, err } = memoryIo({ 'p.impulse': openBallProject() });
    const code = await runSuggest(['p.impulse', '--dynamic', 'Ball', '--json'], io);
    expect(code, err.join('')).toBe(2);
    expect(err.join('')).toMatch(/^impulse suggest: p\.impulse: props\[\d\]: prop "Ball" .*not closed/);
  });

  it('a .glb without animations loads as a valid document with no active clip, and suggest says it has no clips', async () => {
    const { io, err } = memoryIo({ 'bat.glb': asset('props/bat.glb') });
    const { doc } = await loadScene('bat.glb', io);
    expect(doc.activeClip).toBe('');
    expect(documentProblems(doc).map((e) => e.message)).toEqual([]);
    expect(await runSuggest(['bat.glb', '--dynamic', 'Bat'], io)).toBe(1);
    expect(err.join('')).toMatch(/bat\.glb has no clips/);
  });

  it('suggest --dynamic naming nothing in the scene exits 2, naming the option and listing what there is', async () => {
    const { io, err } = memoryIo({ 'p.impulse': openBallProject() });
    expect(await runSuggest(['p.impulse', '--dynamic', 'Nope'], io)).toBe(2);
    expect(err.join('')).toMatch(/^impulse suggest: p\.impulse: --dynamic: no prop or character is named or has the id "Nope" \(props: "Table", "Box", "Ball", "Bat"; characters: none\)/);
  });

  it('bake of a scene with no characters and no props exits 2 and writes nothing', async () => {
    const { json, bin } = unpackGlb(asset('props/box.glb'));
    json.nodes[0] = {};
    const files = { 'box.glb': packGlb(json, bin) };
    const { io, err } = memoryIo(files);
    let wrote = false;
    io.writeFile = async () => void (wrote = true);
    expect(await runBake(['box.glb', '--out', 'out.glb'], io)).toBe(2);
    expect(err.join('')).toMatch(/^impulse bake: box\.glb: props: the scene has no characters and no props; nothing to bake/);
    expect(wrote, 'nothing written').toBe(false);
  });
});
