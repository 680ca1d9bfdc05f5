import { describe, expect, it } from 'vitest';
import { createEmptyDocument, defaultCollision, defaultMaterial, serializeDocument } from '../document';
import { boxMesh, icosphereMesh } from '../document/fixtures';
import type { ImpulseDocument, Prop } from '../document/types';
import { runCheck } from './check';

function prop(id: string, mesh: { positions: Float32Array; indices: Uint32Array }, x: number): Prop {
  return {
    id, name: id, transform: { translation: [x, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }, mesh,
    material: defaultMaterial(), physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 }, collision: defaultCollision(),
  };
}

function scene(ballEndX: number): ImpulseDocument {
  const doc = createEmptyDocument('cli');
  doc.props.push(prop('wall', boxMesh(0.05, 0.5, 0.5), 0), prop('ball', icosphereMesh(0.1, 1), -1));
  doc.clips = [{ id: 'c1', name: 'throw', frameRate: 10, startFrame: 0, endFrame: 10, tracks: [
    { target: { kind: 'prop', prop: 'ball' }, path: 'translation', interpolation: 'linear', times: [0, 1], values: [-1, 0, 0, ballEndX, 0, 0] },
  ] }];
  doc.activeClip = 'c1';
  return doc;
}

function fakeIo(files: Record<string, string | Uint8Array>) {
  const out: string[] = [], err: string[] = [];
  return {
    out, err,
    io: {
      stdout: (s: string) => void out.push(s),
      stderr: (s: string) => void err.push(s),
      readFile: async (p: string) => {
        const f = files[p];
        if (f === undefined) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
        return typeof f === 'string' ? new TextEncoder().encode(f) : f;
      },
      writeFile: async () => undefined,
      exists: async (p: string) => p in files,
      isTTY: false,
    },
  };
}

describe('impulse check', () => {
  it('exit 1 and a JSON report with the documented fields when the ball hits the wall', async () => {
    const { io, out } = fakeIo({ 'a.impulse': serializeDocument(scene(1)) });
    const code = await runCheck(['a.impulse', '--json'], io);
    expect(code, 'interpenetration found').toBe(1);
    const r = JSON.parse(out.join(''));
    expect(r.fps).toBe(10);
    expect(r.frames).toBe(11);
    expect(r.findings.length).toBeGreaterThan(0);
    const f = r.findings[0];
    expect(Object.keys(f).sort()).toEqual(['a', 'b', 'endFrame', 'firstContactTime', 'kind', 'maxDepth', 'maxDepthFrame', 'normal', 'point', 'startFrame'].sort());
    expect([f.a.object, f.b.object].sort()).toEqual(['ball', 'wall']);
    // ball centre reaches x = -0.15 (surface touches the wall at -0.05) at t = 0.85/2 s = frame 4.25
    expect(f.firstContactTime).toBeGreaterThan(4.1);
    expect(f.firstContactTime).toBeLessThan(4.3);
  });
  it('exit 0 and "clean" when nothing touches', async () => {
    const { io, out } = fakeIo({ 'a.impulse': serializeDocument(scene(-0.5)) });
    expect(await runCheck(['a.impulse'], io)).toBe(0);
    expect(out.join('')).toContain('clean');
  });
  it('--fps resamples the clip', async () => {
    const { io, out } = fakeIo({ 'a.impulse': serializeDocument(scene(-0.5)) });
    expect(await runCheck(['a.impulse', '--json', '--fps', '20'], io)).toBe(0);
    expect(JSON.parse(out.join('')).frames).toBe(21);
  });
  it('--fps=N and --clip=NAME (the shared walkArgs forms)', async () => {
    const { io, out } = fakeIo({ 'a.impulse': serializeDocument(scene(-0.5)) });
    expect(await runCheck(['a.impulse', '--json', '--fps=20', '--clip=throw'], io)).toBe(0);
    const r = JSON.parse(out.join(''));
    expect(r.frames, '--fps=20 over 1 s').toBe(21);
    expect(r.clip).toBe('throw');
  });
  it('exit 2 with a clear message on bad input', async () => {
    const cases: [string[], RegExp][] = [
      [['missing.impulse'], /missing\.impulse: no such file/],
      [['bad.impulse'], /bad\.impulse/],
      [['a.impulse', '--clip', 'nope'], /no clip named "nope"/],
      [['a.impulse', '--fps', 'x'], /--fps/],
      [['a.impulse', '--clip'], /--clip needs a value/],
      [['a.impulse', '--clip', '--json'], /--clip needs a value/],
      [['a.impulse', 'b.impulse'], /one input file expected/],
      [['a.impulse', '--bogus'], /unknown option --bogus/],
      [['a.txt'], /expected a \.impulse project/],
      [[], /missing input file/],
    ];
    for (const [argv, msg] of cases) {
      const { io, err } = fakeIo({ 'a.impulse': serializeDocument(scene(1)), 'bad.impulse': '{"version": 2, "name": 5}', 'a.txt': 'x' });
      expect(await runCheck(argv, io), argv.join(' ')).toBe(2);
      expect(err.join(''), argv.join(' ')).toMatch(msg);
    }
  });
});
