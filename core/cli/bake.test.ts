import { createRequire } from 'node:module';
import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WebIO } from '@gltf-transform/core';
import { KHRMeshQuantization } from '@gltf-transform/extensions';
import { runBake } from './bake';
import type { CliIo } from './io';
import { nodeIo } from './main';
import { sampleDocument } from '../document/fixtures';
import { serializeDocument } from '../document/serialize';
import { exportGlb } from '../bake/exportGlb';

const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<{ issues: { numErrors: number } }>;
};

/** In-memory CliIo; files keyed by path. */
function memoryIo(files: Record<string, Uint8Array | string>, isTTY = false) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const store = new Map<string, Uint8Array>();
  for (const [k, v] of Object.entries(files)) store.set(k, typeof v === 'string' ? new TextEncoder().encode(v) : v);
  const writes: string[] = [];
  const io: CliIo = {
    stdout: (s) => void stdout.push(s),
    stderr: (s) => void stderr.push(s),
    readFile: async (p) => {
      const f = store.get(p);
      if (!f) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return f;
    },
    writeFile: async (p, data) => {
      writes.push(p);
      store.set(p, typeof data === 'string' ? new TextEncoder().encode(data) : data);
    },
    exists: async (p) => store.has(p),
    isTTY,
  };
  return { io, store, writes, out: () => stdout.join(''), err: () => stderr.join('') };
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const project = () => serializeDocument(sampleDocument());
/** A gltf-transform reader that knows the extension our exports require. */
const reader = () => new WebIO().registerExtensions([KHRMeshQuantization]);

describe('impulse bake', () => {
  it('bakes a project to a .glb that passes gltf-validator and holds every clip', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    const code = await runBake(['scene.impulse', '--out', 'scene.glb'], m.io);
    expect(m.err()).toBe('');
    expect(code).toBe(0);
    const glb = m.store.get('scene.glb')!;
    expect((await validator.validateBytes(glb)).issues.numErrors).toBe(0);
    const back = await reader().readBinary(glb);
    expect(back.getRoot().listAnimations().map((a) => a.getName())).toEqual(['Swing']);
    expect(m.out()).toMatch(/wrote scene\.glb \(\d+ bytes.*sparse/);
    expect(m.out()).toMatch(/clip "Swing" \(31 frames at 30 fps\)/);
  });

  it('--every-frame writes one key per frame; sparse output is smaller', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    expect(await runBake(['scene.impulse', '--out', 'sparse.glb'], m.io)).toBe(0);
    expect(await runBake(['scene.impulse', '--out', 'dense.glb', '--every-frame'], m.io)).toBe(0);
    const dense = await reader().readBinary(m.store.get('dense.glb')!);
    for (const s of dense.getRoot().listAnimations()[0].listSamplers()) expect(s.getInput()!.getCount()).toBe(31);
    expect(m.store.get('sparse.glb')!.byteLength).toBeLessThan(m.store.get('dense.glb')!.byteLength);
  });

  it('refuses to write over an existing file without --force, and overwrites with it', async () => {
    const m = memoryIo({ 'scene.impulse': project(), 'out.glb': 'old' });
    expect(await runBake(['scene.impulse', '--out', 'out.glb'], m.io)).toBe(1);
    expect(m.err()).toMatch(/out\.glb already exists; use --force/);
    expect(new TextDecoder().decode(m.store.get('out.glb')!)).toBe('old');
    expect(await runBake(['scene.impulse', '--out', 'out.glb', '--force'], m.io)).toBe(0);
    expect(m.store.get('out.glb')!.byteLength).toBeGreaterThan(100);
  });

  it('never overwrites its input, even with --force', async () => {
    const glb = await exportGlb(sampleDocument());
    const m = memoryIo({ 'in.glb': glb });
    expect(await runBake(['in.glb', '--out', './in.glb', '--force'], m.io)).toBe(2);
    expect(m.err()).toMatch(/is the input file/);
    expect(m.writes).toEqual([]);
  });

  it('never overwrites its input through a symlink or a hard link (real files)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'impulse-bake-'));
    try {
      const input = join(dir, 'in.glb');
      writeFileSync(input, await exportGlb(sampleDocument()));
      symlinkSync(input, join(dir, 'soft.glb'));
      linkSync(input, join(dir, 'hard.glb'));
      const before = readFileSync(input);
      for (const out of ['soft.glb', 'hard.glb']) {
        const err: string[] = [];
        const io: CliIo = { ...nodeIo, stdout: () => undefined, stderr: (s) => void err.push(s), isTTY: false };
        expect(await runBake([input, '--out', join(dir, out), '--force'], io), out).toBe(2);
        expect(err.join(''), out).toMatch(/is the input file \(a link to it\)/);
      }
      expect(readFileSync(input).equals(before)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bakes a .glb input (imported with core/io) and --clip picks one clip by name', async () => {
    const doc = sampleDocument();
    const second = structuredClone(doc.clips[0]);
    second.id = 'other';
    second.name = 'Other';
    doc.clips.push(second);
    const m = memoryIo({ 'two.glb': await exportGlb(doc) });
    const code = await runBake(['two.glb', '--out', 'one.glb', '--clip', 'Other'], m.io);
    expect(m.err()).not.toMatch(/impulse bake:/);
    expect(code).toBe(0);
    const back = await reader().readBinary(m.store.get('one.glb')!);
    expect(back.getRoot().listAnimations().map((a) => a.getName())).toEqual(['Other']);
    expect((await validator.validateBytes(m.store.get('one.glb')!)).issues.numErrors).toBe(0);
  });

  it('clear errors: unknown clip lists the clips, bad tolerance, missing --out, missing input, broken project', async () => {
    const m = memoryIo({ 'scene.impulse': project(), 'broken.impulse': '{"version": 2, "name": ' });
    expect(await runBake(['scene.impulse', '--out', 'x.glb', '--clip', 'Nope'], m.io)).toBe(1);
    expect(m.err()).toMatch(/no clip named "Nope" in scene\.impulse \(clips: "Swing"\)/);
    expect(await runBake(['scene.impulse', '--out', 'x.glb', '--tolerance', 'abc'], m.io)).toBe(2);
    expect(m.err()).toMatch(/--tolerance: expected one positive number or three/);
    expect(await runBake(['scene.impulse'], m.io)).toBe(2);
    expect(m.err()).toMatch(/missing --out/);
    expect(await runBake(['nothere.impulse', '--out', 'x.glb'], m.io)).toBe(2);
    expect(m.err()).toMatch(/nothere\.impulse: no such file/);
    expect(await runBake(['broken.impulse', '--out', 'x.glb'], m.io)).toBe(2);
    expect(m.err()).toMatch(/impulse bake: broken\.impulse: /);
    expect(m.writes).toEqual([]);
  });

  it('--tolerance POS,ROT,SCALE is used: a looser tolerance never gives more keys', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    expect(await runBake(['scene.impulse', '--out', 'tight.glb', '--tolerance', '1e-6,1e-6,1e-6'], m.io)).toBe(0);
    expect(await runBake(['scene.impulse', '--out', 'loose.glb', '--tolerance=0.01'], m.io)).toBe(0);
    expect(m.out()).toMatch(/tolerance 0\.000001 m \/ 0\.000001 rad \/ 0\.000001/);
    expect(m.out()).toMatch(/tolerance 0\.01 m \/ 0\.01 rad \/ 0\.01/);
    expect(m.store.get('loose.glb')!.byteLength).toBeLessThanOrEqual(m.store.get('tight.glb')!.byteLength);
  });

  it('--animation-only writes skeleton and animation without meshes; refuses --physics with it', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    expect(await runBake(['scene.impulse', '--out', 'anim.glb', '--animation-only'], m.io)).toBe(0);
    const glb = m.store.get('anim.glb')!;
    expect((await validator.validateBytes(glb)).issues.numErrors).toBe(0);
    const root = (await reader().readBinary(glb)).getRoot();
    expect(root.listMeshes()).toEqual([]);
    expect(root.listMaterials()).toEqual([]);
    // One skin (joints + inverse bind matrices) per character, for engines that build the rig from it.
    expect(root.listSkins().map((s) => s.listJoints().length)).toEqual([sampleDocument().characters[0].skeleton.joints.length]);
    expect(root.listAnimations().length).toBe(1);
    expect(root.listNodes().map((n) => n.getName())).toEqual(expect.arrayContaining(['Hero', 'joint0', 'joint3', 'Crate', 'Ball']));
    expect(await runBake(['scene.impulse', '--out', 'p.glb', '--animation-only', '--physics', 'khr'], m.io)).toBe(2);
    expect(m.err()).toMatch(/--physics needs the prop meshes/);
  });

  it('quantises meshes by default (KHR_mesh_quantization, required); --no-quantize writes float32 and, for the sample project, a larger file', async () => {
    const m = memoryIo({ 'scene.impulse': readFileSync(join(ROOT, 'assets/sample/bat-and-ball.impulse'), 'utf8') });
    expect(await runBake(['scene.impulse', '--out', 'q.glb'], m.io)).toBe(0);
    expect(await runBake(['scene.impulse', '--out', 'f.glb', '--no-quantize'], m.io)).toBe(0);
    const q = (await reader().binaryToJSON(m.store.get('q.glb')!)).json;
    const f = (await reader().binaryToJSON(m.store.get('f.glb')!)).json;
    expect(q.extensionsRequired).toContain('KHR_mesh_quantization');
    expect(f.extensionsUsed ?? []).not.toContain('KHR_mesh_quantization');
    const posType = (json: typeof q) => json.accessors![json.meshes![0].primitives[0].attributes.POSITION].componentType;
    expect(posType(q), 'int16 positions').toBe(5122);
    expect(posType(f), 'float32 positions').toBe(5126);
    expect(m.store.get('q.glb')!.byteLength).toBeLessThan(m.store.get('f.glb')!.byteLength);
    for (const file of ['q.glb', 'f.glb']) expect((await validator.validateBytes(m.store.get(file)!)).issues.numErrors).toBe(0);
    expect(m.out()).toMatch(/KHR_mesh_quantization/);
  });

  it('--physics khr writes the physics extension', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    expect(await runBake(['scene.impulse', '--out', 'p.glb', '--physics', 'khr'], m.io)).toBe(0);
    const json = (await reader().binaryToJSON(m.store.get('p.glb')!)).json;
    expect(json.extensionsUsed).toContain('KHR_physics_rigid_bodies');
  });

  it('shows progress only on a terminal', async () => {
    const tty = memoryIo({ 'scene.impulse': project() }, true);
    expect(await runBake(['scene.impulse', '--out', 'a.glb'], tty.io)).toBe(0);
    expect(tty.err()).toMatch(/baking clip 1\/1 "Swing"/);
    const pipe = memoryIo({ 'scene.impulse': project() }, false);
    expect(await runBake(['scene.impulse', '--out', 'a.glb'], pipe.io)).toBe(0);
    expect(pipe.err()).toBe('');
  });

  it('--help prints the usage', async () => {
    const m = memoryIo({});
    expect(await runBake(['--help'], m.io)).toBe(0);
    expect(m.out()).toMatch(/usage: impulse bake <file> --out <out\.glb>/);
  });
});
