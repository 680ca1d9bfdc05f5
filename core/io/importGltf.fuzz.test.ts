/**
 * Fuzzing the importer with seeded mutations of real files (the mannequin and
 * the bat): byte flips, NaN/Infinity written into the binary chunk,
 * truncations, JSON field deletions and type changes, huge counts/offsets.
 *
 * Every case must either load, and then pass a sanity check (finite numbers,
 * every index in range, strictly increasing key times, ...), or throw a
 * GltfImportError whose message names the file and a JSON path and is not a
 * leaked internal error. Cases run in a worker thread with a per-case time
 * box, so a hang or a crash of the importer fails the test instead of
 * stalling or killing the run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from './importGltf';
import { packGlb, unpackGlb } from './testkit';
import { mulberry32 as rng } from '../math/random';

const CASE_TIMEOUT_MS = 10_000;
const asset = (rel: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../assets/${rel}`, import.meta.url)));

type Mutation = 'flip' | 'binary' | 'truncate' | 'delete' | 'retype' | 'huge';

/* eslint-disable @typescript-eslint/no-explicit-any */
function jsonPaths(v: any, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v && typeof v === 'object') {
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      out.push([...path, k]);
      jsonPaths(v[k], [...path, k], out);
    }
  }
  return out;
}

function at(v: any, path: (string | number)[]): { parent: any; key: string | number } {
  let p = v;
  for (let i = 0; i < path.length - 1; i++) p = p[path[i]];
  return { parent: p, key: path[path.length - 1] };
}

const WEIRD: unknown[] = [null, 'x', -1, 0, 1e9, 2 ** 32, 3.5, [], {}, true, [1, 2, 3], -0.5, 'data:,', { uri: 'missing.bin' }];

/** Applies one seeded mutation; returns the bytes and a description for failure messages. */
function mutate(base: Uint8Array, kind: Mutation, r: () => number): { bytes: Uint8Array; what: string } {
  const pick = (n: number) => Math.floor(r() * n);
  switch (kind) {
    case 'flip': {
      const bytes = base.slice();
      const n = 1 + pick(8);
      const where: number[] = [];
      for (let i = 0; i < n; i++) {
        const p = pick(bytes.length);
        bytes[p] ^= 1 + pick(255);
        where.push(p);
      }
      return { bytes, what: `flipped bytes ${where.join(',')}` };
    }
    case 'binary': {
      const { json, bin } = unpackGlb(base);
      const b = bin!.slice();
      const dv = new DataView(b.buffer);
      const n = 1 + pick(6);
      const where: string[] = [];
      for (let i = 0; i < n; i++) {
        const p = 4 * pick(b.length / 4);
        const v = [NaN, Infinity, -Infinity, 1e38, -1e38, 0, 65535, 4294967295][pick(8)];
        if (Number.isFinite(v) && v > 1e6) dv.setUint32(p, v >>> 0, true);
        else dv.setFloat32(p, v, true);
        where.push(`${p}=${v}`);
      }
      return { bytes: packGlb(json, b), what: `binary chunk ${where.join(',')}` };
    }
    case 'truncate': {
      const n = pick(base.length);
      return { bytes: base.slice(0, n), what: `truncated to ${n} bytes` };
    }
    case 'delete': {
      const { json, bin } = unpackGlb(base);
      const paths = jsonPaths(json);
      const path = paths[pick(paths.length)];
      const { parent, key } = at(json, path);
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      return { bytes: packGlb(json, bin), what: `deleted ${path.join('.')}` };
    }
    case 'retype': {
      const { json, bin } = unpackGlb(base);
      const paths = jsonPaths(json);
      const path = paths[pick(paths.length)];
      const { parent, key } = at(json, path);
      const v = WEIRD[pick(WEIRD.length)];
      parent[key] = v;
      return { bytes: packGlb(json, bin), what: `set ${path.join('.')} = ${JSON.stringify(v)}` };
    }
    case 'huge': {
      const { json, bin } = unpackGlb(base);
      const targets: [string, number, string][] = [];
      json.accessors.forEach((_: unknown, i: number) => targets.push(['accessors', i, 'count'], ['accessors', i, 'byteOffset']));
      json.bufferViews.forEach((_: unknown, i: number) => targets.push(['bufferViews', i, 'byteLength'], ['bufferViews', i, 'byteOffset'], ['bufferViews', i, 'byteStride']));
      targets.push(['buffers', 0, 'byteLength']);
      const [arr, i, field] = targets[pick(targets.length)];
      const v = [2 ** 31, 1e9, 2 ** 26 + 1, 2 ** 53, 4096, (json[arr][i][field] ?? 1) * 1000, 2 ** 32 - 4][pick(7)];
      json[arr][i][field] = v;
      return { bytes: packGlb(json, bin), what: `${arr}[${i}].${field} = ${v}` };
    }
  }
}

/** Problems with a loaded result (empty when it is sane). */
function sanityProblems(r: ImportResult): string[] {
  const p: string[] = [];
  const finite = (what: string, a: ArrayLike<number>) => {
    for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return void p.push(`${what}[${i}] = ${a[i]}`);
  };
  const indicesOk = (what: string, idx: ArrayLike<number>, n: number) => {
    if (idx.length % 3 !== 0) p.push(`${what}: ${idx.length} indices`);
    for (let i = 0; i < idx.length; i++) if (!(idx[i] < n)) return void p.push(`${what}[${i}] = ${idx[i]} >= ${n}`);
  };
  const transform = (what: string, t: { translation: number[]; rotation: number[]; scale: number[] }) => {
    finite(`${what}.translation`, t.translation);
    finite(`${what}.rotation`, t.rotation);
    finite(`${what}.scale`, t.scale);
  };
  const charIds = new Map<string, number>();
  r.characters.forEach((c, ci) => {
    charIds.set(c.id, c.skeleton.joints.length);
    transform(`characters[${ci}].transform`, c.transform);
    c.skeleton.joints.forEach((j, k) => {
      if (!(j.parent >= -1 && j.parent < k)) p.push(`characters[${ci}].joints[${k}].parent = ${j.parent}`);
      transform(`characters[${ci}].joints[${k}].rest`, j.rest);
    });
    c.meshes.forEach((m, mi) => {
      const w = `characters[${ci}].meshes[${mi}]`;
      const n = m.positions.length / 3;
      finite(`${w}.positions`, m.positions);
      if (m.normals) finite(`${w}.normals`, m.normals);
      indicesOk(`${w}.indices`, m.indices, n);
      finite(`${w}.weights`, m.weights);
      finite(`${w}.inverseBindMatrices`, m.inverseBindMatrices);
      if (m.joints.length !== 4 * n || m.weights.length !== 4 * n) p.push(`${w}: joints/weights length`);
      if (m.inverseBindMatrices.length !== 16 * m.skinJoints.length) p.push(`${w}: ${m.inverseBindMatrices.length / 16} IBMs for ${m.skinJoints.length} slots`);
      for (const s of m.skinJoints) if (!(s >= 0 && s < c.skeleton.joints.length)) p.push(`${w}.skinJoints has ${s}`);
      for (let v = 0; v < n; v++) {
        let sum = 0;
        for (let k = 0; k < 4; k++) {
          const wt = m.weights[4 * v + k];
          if (wt < 0) p.push(`${w} vertex ${v} negative weight`);
          if (wt > 0 && !(m.joints[4 * v + k] < m.skinJoints.length)) p.push(`${w} vertex ${v} slot ${m.joints[4 * v + k]} out of range`);
          sum += wt;
        }
        if (!(Math.abs(sum - 1) < 1e-5)) {
          p.push(`${w} vertex ${v} weights sum to ${sum}`);
          break;
        }
      }
      if (!(m.material >= 0 && m.material < c.materials.length)) p.push(`${w}.material = ${m.material}`);
    });
  });
  const propIds = new Set<string>();
  r.props.forEach((pr, i) => {
    propIds.add(pr.id);
    transform(`props[${i}].transform`, pr.transform);
    finite(`props[${i}].positions`, pr.mesh.positions);
    indicesOk(`props[${i}].indices`, pr.mesh.indices, pr.mesh.positions.length / 3);
  });
  r.clips.forEach((c, ci) => {
    if (!(c.endFrame >= c.startFrame && Number.isFinite(c.endFrame))) p.push(`clips[${ci}] frames ${c.startFrame}..${c.endFrame}`);
    c.tracks.forEach((t, ti) => {
      const w = `clips[${ci}].tracks[${ti}]`;
      finite(`${w}.times`, t.times);
      finite(`${w}.values`, t.values);
      for (let k = 1; k < t.times.length; k++) if (!(t.times[k] > t.times[k - 1])) p.push(`${w} times not increasing at ${k}`);
      const width = (t.path === 'rotation' ? 4 : 3) * (t.interpolation === 'cubic' ? 3 : 1);
      if (t.values.length !== width * t.times.length) p.push(`${w}: ${t.values.length} values for ${t.times.length} keys`);
      if (t.target.kind === 'joint') {
        const n = charIds.get(t.target.character);
        if (n === undefined || !(t.target.joint >= 0 && t.target.joint < n)) p.push(`${w} targets a missing joint`);
      } else if (!propIds.has(t.target.prop)) p.push(`${w} targets a missing prop`);
    });
  });
  return p;
}

interface Reply {
  id: number;
  ok: boolean;
  result?: ImportResult;
  name?: string;
  message?: string;
  where?: string;
  isImportError?: boolean;
}

/** The importer bundled (esbuild) and run in a worker, one case at a time with a time box. */
class Harness {
  private worker: Worker | null = null;
  private nextId = 1;
  constructor(private readonly dir: string) {}

  private start(): Promise<void> {
    const w = new Worker(join(this.dir, 'worker.mjs'), { workerData: { bundle: join(this.dir, 'importGltf.mjs') }, resourceLimits: { maxOldGenerationSizeMb: 768 } });
    this.worker = w;
    return new Promise((resolve, reject) => {
      w.once('message', () => resolve());
      w.once('error', reject);
    });
  }

  async run(bytes: Uint8Array, name: string): Promise<Reply | { hang: true } | { crash: string }> {
    if (!this.worker) await this.start();
    const w = this.worker!;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const done = (v: Reply | { hang: true } | { crash: string }) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        resolve(v);
      };
      const onMessage = (m: Reply) => m.id === id && done(m);
      const onError = (e: Error) => {
        this.worker = null;
        done({ crash: String(e?.message ?? e) });
      };
      const onExit = (code: number) => {
        this.worker = null;
        done({ crash: `worker exited with code ${code}` });
      };
      const timer = setTimeout(() => {
        this.worker = null;
        void w.terminate();
        done({ hang: true });
      }, CASE_TIMEOUT_MS);
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      w.postMessage({ id, bytes, name });
    });
  }

  async stop(): Promise<void> {
    await this.worker?.terminate();
  }
}

const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
const mod = await import(pathToFileURL(workerData.bundle).href);
parentPort.on('message', async ({ id, bytes, name }) => {
  try {
    const result = await mod.importGltf(bytes, name);
    parentPort.postMessage({ id, ok: true, result });
  } catch (e) {
    parentPort.postMessage({ id, ok: false, name: e?.name, message: String(e?.message ?? e), where: e?.where, isImportError: e instanceof mod.GltfImportError });
  }
});
parentPort.postMessage({ ready: true });
`;

/** Messages that mean an internal error leaked through instead of a diagnosis. */
const LEAKED = /Cannot read propert|is not a function|is not iterable|undefined is not|of undefined|of null|Maximum call stack|Invalid typed array length|out of memory/i;

describe('importGltf fuzzing', () => {
  let dir = '';
  let harness: Harness;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'impulse-gltf-fuzz-'));
    await build({
      entryPoints: [new URL('./importGltf.ts', import.meta.url).pathname],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: join(dir, 'importGltf.mjs'),
      logLevel: 'silent',
    });
    writeFileSync(join(dir, 'worker.mjs'), WORKER);
    harness = new Harness(dir);
  });
  afterAll(async () => {
    await harness?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const plans: [string, string, Mutation, number, number][] = [
    ['characters/mannequin.glb', 'mannequin.glb', 'flip', 0x5eed01, 40],
    ['characters/mannequin.glb', 'mannequin.glb', 'binary', 0x5eed02, 40],
    ['characters/mannequin.glb', 'mannequin.glb', 'truncate', 0x5eed03, 25],
    ['characters/mannequin.glb', 'mannequin.glb', 'delete', 0x5eed04, 40],
    ['characters/mannequin.glb', 'mannequin.glb', 'retype', 0x5eed05, 40],
    ['characters/mannequin.glb', 'mannequin.glb', 'huge', 0x5eed06, 30],
    ['props/bat.glb', 'bat.glb', 'flip', 0xba7001, 30],
    ['props/bat.glb', 'bat.glb', 'binary', 0xba7002, 30],
    ['props/bat.glb', 'bat.glb', 'truncate', 0xba7003, 20],
    ['props/bat.glb', 'bat.glb', 'delete', 0xba7004, 30],
    ['props/bat.glb', 'bat.glb', 'retype', 0xba7005, 30],
    ['props/bat.glb', 'bat.glb', 'huge', 0xba7006, 20],
  ];
  const tally = { loaded: 0, rejected: 0 };

  for (const [rel, name, kind, seed, count] of plans) {
    it(`${name}: ${count} '${kind}' mutations, seed 0x${seed.toString(16)}: each loads sanely or throws a clear GltfImportError, within ${CASE_TIMEOUT_MS / 1000} s`, async () => {
      const base = asset(rel);
      const r = rng(seed);
      const failures: string[] = [];
      for (let c = 0; c < count; c++) {
        const { bytes, what } = mutate(base, kind, r);
        const reply = await harness.run(bytes, name);
        const tag = `case ${c} (${what})`;
        if ('hang' in reply) failures.push(`${tag}: no answer within ${CASE_TIMEOUT_MS} ms`);
        else if ('crash' in reply) failures.push(`${tag}: worker crashed: ${reply.crash}`);
        else if (reply.ok) {
          tally.loaded++;
          const problems = sanityProblems(reply.result!);
          if (problems.length) failures.push(`${tag}: loaded but ${problems.slice(0, 3).join('; ')}`);
        } else {
          tally.rejected++;
          if (!reply.isImportError) failures.push(`${tag}: threw ${reply.name}: ${reply.message}`);
          else if (!reply.where || !reply.message!.startsWith(`${name}: ${reply.where}: `)) failures.push(`${tag}: unclear message "${reply.message}"`);
          else if (LEAKED.test(reply.message!)) failures.push(`${tag}: internal error leaked: "${reply.message}"`);
        }
      }
      expect(failures, failures.join('\n')).toEqual([]);
    });
  }

  it('exercised both outcomes (some mutations load, some are rejected)', () => {
    expect(tally.loaded, 'loaded cases').toBeGreaterThan(10);
    expect(tally.rejected, 'rejected cases').toBeGreaterThan(10);
  });
});
