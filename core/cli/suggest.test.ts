import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { WebIO } from '@gltf-transform/core';
import { runSuggest } from './suggest';
import type { CliIo } from './io';
import { serializeDocument } from '../document/serialize';
import { parseDocument } from '../document/parse';
import { octahedronProp, sceneDoc, boxPropAt, linearTranslation } from '../sim/testkit';

const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<{ issues: { numErrors: number } }>;
};

function memoryIo(files: Record<string, Uint8Array | string>) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const store = new Map<string, Uint8Array>();
  for (const [k, v] of Object.entries(files)) store.set(k, typeof v === 'string' ? new TextEncoder().encode(v) : v);
  const io: CliIo = {
    stdout: (s) => void stdout.push(s),
    stderr: (s) => void stderr.push(s),
    readFile: async (p) => {
      const f = store.get(p);
      if (!f) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return f;
    },
    writeFile: async (p, data) => void store.set(p, typeof data === 'string' ? new TextEncoder().encode(data) : data),
    exists: async (p) => store.has(p),
    isTTY: false,
  };
  return { io, store, out: () => stdout.join(''), err: () => stderr.join('') };
}

/** A keyframed paddle hits a resting octahedron "ball" along +x at frame ~10. */
function project(): string {
  const paddle = boxPropAt('paddle', [0.05, 0.3, 0.3], [-1, 0.5, 0], { mode: 'keyframed', restitution: 1, friction: 0 });
  paddle.name = 'Paddle';
  const ball = octahedronProp('ball', 0.1, [0, 0.5, 0], { restitution: 0.5, friction: 0 });
  ball.name = 'Ball';
  const doc = sceneDoc([paddle, ball], { groundY: null, gravity: [0, 0, 0], frames: 30, tracks: [linearTranslation('paddle', 0, [-1, 0.5, 0], 1, [2, 0.5, 0])] });
  return serializeDocument(doc);
}

describe('impulse suggest', () => {
  it('--json reports the impact with pre/post velocities (V + ε (V − u) for an infinitely heavy paddle)', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    const code = await runSuggest(['scene.impulse', '--dynamic', 'Ball', '--json'], m.io);
    expect(m.err()).toBe('');
    expect(code).toBe(0);
    const j = JSON.parse(m.out());
    expect(j.impacts.length).toBe(1);
    const im = j.impacts[0];
    expect(im.objects).toEqual(['Ball', 'Paddle']);
    expect(im.preVelocity[0]).toBeCloseTo(0, 6);
    expect(im.postVelocity[0]).toBeCloseTo(3 * 1.5, 5);
    expect(im.timeSec).toBeCloseTo((1 - 0.05 - 0.1) / 3, 5);
    expect(j.tracks.map((t: { path: string }) => t.path).sort()).toEqual(['rotation', 'translation']);
  });

  it('--out .impulse writes a copy with the suggested keys, never the input', async () => {
    const input = project();
    const m = memoryIo({ 'scene.impulse': input });
    expect(await runSuggest(['scene.impulse', '--dynamic', 'ball', '--from', '0', '--to', '30', '--out', 'out.impulse'], m.io)).toBe(0);
    expect(new TextDecoder().decode(m.store.get('scene.impulse')!)).toBe(input);
    const doc = parseDocument(new TextDecoder().decode(m.store.get('out.impulse')!));
    const tr = doc.clips[0].tracks.find((t) => t.target.kind === 'prop' && t.target.prop === 'ball' && t.path === 'translation')!;
    expect(tr.times.length).toBeGreaterThan(1);
    expect(tr.times.length).toBeLessThan(31);
    expect(m.out()).toMatch(/1 impact\(s\)/);
    expect(await runSuggest(['scene.impulse', '--dynamic', 'ball', '--out', 'scene.impulse'], m.io)).toBe(2);
    expect(m.err()).toMatch(/refusing to overwrite the input/);
    expect(await runSuggest(['scene.impulse', '--dynamic', 'ball', '--out', 'out.impulse'], m.io)).toBe(1);
    expect(m.err()).toMatch(/already exists/);
  });

  it('--out .glb writes a valid binary glTF', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    expect(await runSuggest(['scene.impulse', '--dynamic', 'Ball', '--out', 'out.glb'], m.io)).toBe(0);
    const glb = m.store.get('out.glb')!;
    expect((await validator.validateBytes(glb)).issues.numErrors).toBe(0);
    const back = await new WebIO().readBinary(glb);
    expect(back.getRoot().listAnimations().length).toBe(1);
  });

  it('usage errors name the problem', async () => {
    const m = memoryIo({ 'scene.impulse': project() });
    expect(await runSuggest(['scene.impulse'], m.io)).toBe(2);
    expect(m.err()).toMatch(/missing --dynamic/);
    // An unknown name is the option's fault (exit 2, like any usage error), listing what there is.
    expect(await runSuggest(['scene.impulse', '--dynamic', 'Nope'], m.io)).toBe(2);
    expect(m.err()).toMatch(/scene\.impulse: --dynamic: no prop or character is named or has the id "Nope" \(props: .*"Ball"/);
    expect(await runSuggest(['missing.impulse', '--dynamic', 'Ball'], m.io), 'bad input').toBe(2);
    expect(m.err()).toMatch(/missing\.impulse: no such file/);
    expect(await runSuggest(['--help'], m.io)).toBe(0);
  });
});
