/**
 * Seeded fuzzing of the command line (`impulse check`, `bake`, `suggest`,
 * run in-process through runCheck/runBake/runSuggest with an in-memory io)
 * on damaged inputs: the shipped sample project cut down to its props (the
 * bat swinging into the ball; fast enough for hundreds of runs), and the
 * shipped bat and box .glb files.
 *
 * The law for every run:
 * - exit 2: stderr is one line `impulse <cmd>: <file>: <where>: <what>` that
 *   names the input and a place in it (a document or glTF path), and no
 *   internal error text leaked (TypeError wording, "undefined", ...);
 * - exit 0/1: the command did its job (check printed a JSON report whose
 *   numbers are finite; bake wrote a .glb that imports again; suggest wrote
 *   a project that parses) and stderr carries no error line, or (exit 1
 *   only) says why it could not, without internal error text;
 * - never a throw out of the command, never a hang (each run is timed).
 */
import { readAsset as asset } from '../node/assets';
import { describe, expect, it } from 'vitest';
import { runBake } from './bake';
import { runCheck } from './check';
import { runSuggest } from './suggest';
import type { CliIo } from './io';
import { parseDocument } from '../document/parse';
import { importGltf } from '../io/importGltf';
import { packGlb, unpackGlb } from '../io/testkit';
import { mulberry32 } from '../math/random';

/** `FUZZ_SCALE=20 npx vitest run <this file>` runs 20 times the cases (same seeds, a superset) for a deeper local search. */
const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);

/* eslint-disable @typescript-eslint/no-explicit-any */

/** The sample without its character (and what refers to it): the bat, ball, box and table, the swing clip. */
function propsProject(): any {
  const d = JSON.parse(new TextDecoder().decode(asset('sample/bat-and-ball.impulse')));
  const charIds = new Set(d.characters.map((c: any) => c.id));
  d.characters = [];
  d.clips = d.clips.filter((c: any) => c.tracks.some((t: any) => t.target.kind === 'prop'));
  for (const c of d.clips) c.tracks = c.tracks.filter((t: any) => t.target.kind === 'prop');
  d.check.ignore = d.check.ignore.filter((r: any) => !charIds.has(r.a.object) && !charIds.has(r.b.object));
  d.activeClip = d.clips[0].id;
  return d;
}
const PROJECT = propsProject();

const LEAKED = /Cannot read propert|is not a function|is not iterable|undefined is not|of undefined|of null|Maximum call stack|Invalid typed array length|\bNaN\b.*\bNaN\b|TypeError|RangeError/;

type Pick = (n: number) => number;

const WEIRD: unknown[] = [null, 'x', -1, 0, 1.5, 1e300, [], {}, true, ''];

function paths(v: any, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v && typeof v === 'object')
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      out.push([...path, k]);
      const c = v[k];
      if (c && typeof c === 'object' && typeof c.b64 !== 'string') paths(c, [...path, k], out);
    }
  return out;
}

/** Damage to the project; returns the description. */
function damageProject(d: any, pick: Pick): string {
  const ball = d.props.findIndex((p: any) => p.name === 'Ball');
  const swing = d.clips[0];
  switch (pick(8)) {
    case 0: {
      const ps = paths(d);
      const p = ps[pick(ps.length)];
      let o = d;
      for (let i = 0; i < p.length - 1; i++) o = o[p[i]];
      const v = WEIRD[pick(WEIRD.length)];
      o[p[p.length - 1]] = v;
      return `${p.join('.')} = ${JSON.stringify(v)}`;
    }
    case 1: {
      const ps = paths(d);
      const p = ps[pick(ps.length)];
      let o = d;
      for (let i = 0; i < p.length - 1; i++) o = o[p[i]];
      if (Array.isArray(o)) o.splice(p[p.length - 1] as number, 1);
      else delete o[p[p.length - 1]];
      return `deleted ${p.join('.')}`;
    }
    case 2: {
      const ph = d.props[ball].physics;
      const k = pick(4);
      delete ph.massKg;
      if (k === 0) ph.massKg = 0;
      else if (k === 1) ph.massKg = -1;
      else if (k === 2) ph.densityKgPerM3 = 0;
      else ph.densityKgPerM3 = 1000; // density from the mesh (fine when closed)
      return `Ball physics: ${['massKg 0', 'massKg -1', 'density 0', 'density 1000'][k]}`;
    }
    case 3: {
      // Degenerate or open dynamic mesh, with mass from density.
      const m = d.props[ball].mesh;
      delete d.props[ball].physics.massKg;
      d.props[ball].physics.densityKgPerM3 = 1000;
      const k = pick(2);
      if (k === 0) m.positions = { dtype: 'f32', b64: Buffer.from(new Float32Array(Buffer.from(m.positions.b64, 'base64').byteLength / 4).fill(0.1).buffer).toString('base64') };
      else {
        const idx = new Uint32Array(new Uint8Array(Buffer.from(m.indices.b64, 'base64')).buffer);
        m.indices = { dtype: 'u32', b64: Buffer.from(idx.slice(3).buffer).toString('base64') };
      }
      return `Ball mesh ${['flattened to a point', 'opened (first triangle removed)'][k]}, density 1000`;
    }
    case 4: {
      const t = swing.tracks[pick(swing.tracks.length)];
      const k = pick(t.times.length);
      const v = [null, 'NaN', -1e300, t.times[k - 1] ?? -1][pick(4)];
      t.times[k] = v;
      return `swing track key ${k} time = ${JSON.stringify(v)}`;
    }
    case 5: {
      const t = swing.tracks[pick(swing.tracks.length)];
      const k = pick(t.values.length);
      const v = [null, 'Infinity', 1e300][pick(3)];
      t.values[k] = v;
      return `swing track value ${k} = ${JSON.stringify(v)}`;
    }
    case 6: {
      const k = pick(4);
      if (k === 0) swing.tracks = [];
      else if (k === 1) swing.endFrame = 1e13;
      else if (k === 2) swing.frameRate = 0;
      else d.props[ball].transform.scale = [0, 0, 0];
      return ['swing has no tracks', 'swing endFrame 1e13', 'swing frameRate 0', 'Ball scale 0'][k];
    }
    default: {
      const k = pick(3);
      if (k === 0) d.props[pick(d.props.length)].id = d.props[ball].id;
      else if (k === 1) swing.tracks[0].target.prop = 'nope';
      else d.props[ball].transform.rotation = [0, 0, 0, 0];
      return ['duplicate prop id', 'track targets a missing prop', 'Ball rotation 0'][k];
    }
  }
}

/** Damage to a .glb: byte flips, JSON retypes, or targeted damage. */
function damageGlb(base: Uint8Array, pick: Pick): { bytes: Uint8Array; what: string } {
  const k = pick(3);
  if (k === 0) {
    const b = base.slice();
    const n = 1 + pick(4);
    for (let i = 0; i < n; i++) b[pick(b.length)] ^= 1 + pick(255);
    return { bytes: b, what: `${n} bytes flipped` };
  }
  const { json, bin } = unpackGlb(base);
  if (k === 1) {
    const ps = paths(json);
    const p = ps[pick(ps.length)];
    let o = json;
    for (let i = 0; i < p.length - 1; i++) o = o[p[i]];
    const v = WEIRD[pick(WEIRD.length)];
    o[p[p.length - 1]] = v;
    return { bytes: packGlb(json, bin), what: `${p.join('.')} = ${JSON.stringify(v)}` };
  }
  const j = pick(4);
  if (j === 0) json.nodes[0].scale = [0, 0, 0];
  else if (j === 1) json.nodes[0].rotation = [0, 0, 0, 0];
  else if (j === 2) json.accessors[0].count += 1;
  else json.meshes[0].primitives[0].indices = 99;
  return { bytes: packGlb(json, bin), what: ['node scale 0', 'node rotation 0', 'accessors[0].count + 1', 'indices = 99'][j] };
}

interface Run {
  code: number;
  out: string;
  err: string;
  written: Map<string, Uint8Array | string>;
  ms: number;
}

async function run(cmd: 'check' | 'bake' | 'suggest', file: string, bytes: Uint8Array): Promise<Run> {
  const out: string[] = [], err: string[] = [];
  const written = new Map<string, Uint8Array | string>();
  const io: CliIo = {
    stdout: (s) => void out.push(s),
    stderr: (s) => void err.push(s),
    readFile: async (p) => {
      if (p !== file) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return bytes;
    },
    writeFile: async (p, data) => void written.set(p, data),
    exists: async (p) => p === file || written.has(p),
    isTTY: false,
  };
  const argv =
    cmd === 'check' ? [file, '--json'] : cmd === 'bake' ? [file, '--out', 'out.glb'] : [file, '--dynamic', file.endsWith('.impulse') ? 'Ball' : 'Box', '--out', 'out.impulse', '--json'];
  const fn = cmd === 'check' ? runCheck : cmd === 'bake' ? runBake : runSuggest;
  const t = performance.now();
  const code = await fn(argv, io);
  return { code, out: out.join(''), err: err.join(''), written, ms: performance.now() - t };
}

/** What is wrong with one run (empty when it obeys the law). */
async function problems(cmd: 'check' | 'bake' | 'suggest', file: string, r: Run): Promise<string[]> {
  const p: string[] = [];
  const errLines = r.err.split('\n').filter((l) => l.startsWith('impulse '));
  if (LEAKED.test(r.err)) p.push(`internal error text on stderr: ${r.err.trim()}`);
  if (r.code === 2) {
    if (errLines.length !== 1) p.push(`exit 2 with ${errLines.length} error lines: ${r.err.trim()}`);
    else {
      const m = new RegExp(`^impulse ${cmd}: ${file.replace('.', '\\.')}: ([^:]+): .+`).exec(errLines[0]);
      // <where>: a document or glTF path (props[2].physics.massKg, accessors[1].count, glb.chunks[0])
      // or the option at fault (--dynamic), not the file again.
      if (!m || m[1] === file || !/^([A-Za-z_][\w]*(\[\d+\]|\.[A-Za-z_]\w*|\["[^"]*"\])*|--[a-z-]+)$/.test(m[1]))
        p.push(`exit 2 without "<file>: <where>: <what>": ${errLines[0]}`);
    }
    return p;
  }
  if (r.code !== 0 && r.code !== 1) return [`exit code ${r.code}`];
  if (cmd === 'check') {
    if (errLines.length) return [`exit ${r.code} with an error: ${errLines.join(' | ')}`];
    const report = JSON.parse(r.out);
    for (const f of report.findings)
      if (![f.firstContactTime, f.maxDepth, ...f.point, ...f.normal].every(Number.isFinite)) p.push(`finding with non-finite numbers: ${JSON.stringify(f)}`);
    if ((report.findings.length > 0 ? 1 : 0) !== r.code) p.push(`exit ${r.code} with ${report.findings.length} findings`);
    return p;
  }
  // Nothing here makes bake or suggest fail for another reason than the input (the output never
  // exists), except suggest on a .glb without animations (documented exit 1: no clip).
  if (r.code === 1 && !(cmd === 'suggest' && errLines.length === 1 && / has no clips /.test(errLines[0])))
    return [`exit 1 (bad input must be exit 2): ${errLines.join(' | ')}`];
  if (r.code === 1) return p;
  if (errLines.length) p.push(`exit 0 with an error line: ${errLines.join(' | ')}`);
  if (cmd === 'bake') {
    const glb = r.written.get('out.glb');
    if (!(glb instanceof Uint8Array)) return [...p, 'exit 0 but no .glb written'];
    try {
      await importGltf(glb, 'out.glb');
    } catch (e) {
      p.push(`the baked .glb does not import again: ${(e as Error).message}`);
    }
  } else {
    const text = r.written.get('out.impulse');
    if (typeof text !== 'string') return [...p, 'exit 0 but no project written'];
    try {
      parseDocument(text);
    } catch (e) {
      p.push(`the written project does not parse: ${(e as Error).message}`);
    }
  }
  return p;
}

const SLOW_MS = 15_000;

describe('impulse check / bake / suggest on damaged inputs', () => {
  it('the undamaged inputs run cleanly (exit 0 or 1 with a report; so every exit 2 below comes from the damage)', async () => {
    const text = new TextEncoder().encode(JSON.stringify(PROJECT));
    for (const cmd of ['check', 'bake', 'suggest'] as const) {
      const r = await run(cmd, 'p.impulse', text);
      expect(await problems(cmd, 'p.impulse', r), `${cmd} on the props project`).toEqual([]);
      expect(r.code, `${cmd}: ${r.err}`).toBeLessThan(2);
    }
    for (const cmd of ['check', 'bake'] as const) {
      const r = await run(cmd, 'box.glb', asset('props/box.glb'));
      expect(r.code, `${cmd} box.glb: ${r.err}`).toBeLessThan(2);
    }
  });

  const plans: ['check' | 'bake' | 'suggest', 'impulse' | 'glb', number, number][] = [
    ['check', 'impulse', 0xc11001, 60],
    ['bake', 'impulse', 0xc11002, 60],
    ['suggest', 'impulse', 0xc11003, 50],
    ['check', 'glb', 0xc11004, 40],
    ['bake', 'glb', 0xc11005, 40],
    ['suggest', 'glb', 0xc11006, 30],
  ];
  for (const [cmd, kind, seed, count] of plans) {
    it(`impulse ${cmd}: ${count} damaged .${kind} inputs, seed 0x${seed.toString(16)}: exit 2 naming file and place, or a sound result`, async () => {
      const r = mulberry32(seed);
      const pick: Pick = (n) => Math.floor(r() * n);
      const failures: string[] = [];
      const codes = [0, 0, 0];
      for (let c = 0; c < count * FUZZ_SCALE; c++) {
        let bytes: Uint8Array, what: string, file: string;
        if (kind === 'impulse') {
          const d = structuredClone(PROJECT);
          what = damageProject(d, pick);
          bytes = new TextEncoder().encode(JSON.stringify(d));
          file = 'p.impulse';
        } else {
          file = pick(2) ? 'box.glb' : 'bat.glb';
          ({ bytes, what } = damageGlb(asset(`props/${file}`), pick));
        }
        const tag = `case ${c} (${file}: ${what})`;
        let res: Run;
        try {
          res = await run(cmd, file, bytes);
        } catch (e) {
          failures.push(`${tag}: the command threw ${(e as Error).name}: ${(e as Error).message}`);
          continue;
        }
        codes[res.code] = (codes[res.code] ?? 0) + 1;
        if (res.ms > SLOW_MS) failures.push(`${tag}: took ${res.ms.toFixed(0)} ms`);
        for (const q of await problems(cmd, file, res)) failures.push(`${tag}: exit ${res.code}: ${q}`);
      }
      expect(failures, failures.join('\n')).toEqual([]);
      expect(codes[2], 'some inputs were refused with exit 2').toBeGreaterThan(0);
    }, 60_000);
  }
});
