/**
 * Fuzzing the importer with seeded mutations of real files (the mannequin and
 * the bat): byte flips, NaN/Infinity written into the binary chunk,
 * truncations, JSON field deletions and type changes, huge counts/offsets,
 * damaged GLB header and chunk headers ('container'), and targeted damage
 * ('semantic': accessor counts/offsets/types, view overruns, missing buffers,
 * skins naming missing nodes, cycles, NaN/Inf in accessors, bad key times,
 * mismatched sampler counts, negative/zero scale, zero quaternions,
 * degenerate and open meshes, bad skin weights).
 *
 * Every case must either load, and then pass a sanity check (finite numbers,
 * every index in range, strictly increasing key times, ...), be a valid
 * document, and evaluate (SceneEvaluator poses, rig world matrices, prop
 * matrices and velocities over every clip) to finite numbers; or throw a
 * GltfImportError whose message names the file and a JSON path and is not a
 * leaked internal error. Cases run in a worker thread with a per-case time
 * box, so a hang or a crash of the importer fails the test instead of
 * stalling or killing the run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { readAsset as asset } from '../node/assets';
import { clipSampleTimes } from '../document/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult } from './importGltf';
import { packGlb, unpackGlb } from './testkit';
import { mulberry32 as rng } from '../math/random';
import { createEmptyDocument } from '../document/defaults';
import { documentProblems } from '../document/validate';
import { SceneEvaluator, TRS_STRIDE } from '../anim/evaluate';
import { Rig } from '../skeleton/rig';

/** `FUZZ_SCALE=20 npx vitest run <this file>` runs 20 times the cases (same seeds, a superset) for a deeper local search. */
const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);

const CASE_TIMEOUT_MS = 10_000;

type Mutation = 'flip' | 'binary' | 'truncate' | 'delete' | 'retype' | 'huge' | 'semantic' | 'container';

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


const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_WIDTH: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** Writes component `c` of element `e` of a float accessor (no-op for other types). */
function writeFloat(json: any, bin: Uint8Array, a: number, e: number, c: number, v: number): void {
  const acc = json.accessors[a];
  if (acc.componentType !== 5126 || acc.bufferView === undefined) return;
  const view = json.bufferViews[acc.bufferView];
  const width = TYPE_WIDTH[acc.type];
  const stride = view.byteStride ?? 4 * width;
  const at = (view.byteOffset ?? 0) + (acc.byteOffset ?? 0) + stride * e + 4 * c;
  new DataView(bin.buffer, bin.byteOffset).setFloat32(at, v, true);
}

function readFloat(json: any, bin: Uint8Array, a: number, e: number, c: number): number {
  const acc = json.accessors[a];
  const view = json.bufferViews[acc.bufferView];
  const stride = view.byteStride ?? 4 * TYPE_WIDTH[acc.type];
  return new DataView(bin.buffer, bin.byteOffset).getFloat32((view.byteOffset ?? 0) + (acc.byteOffset ?? 0) + stride * e + 4 * c, true);
}

/** Writes component `c` of element `e` of an unsigned integer accessor. */
function writeIndex(json: any, bin: Uint8Array, a: number, e: number, v: number, c = 0): void {
  const acc = json.accessors[a];
  const view = json.bufferViews[acc.bufferView];
  const size = COMPONENT_BYTES[acc.componentType];
  const at = (view.byteOffset ?? 0) + (acc.byteOffset ?? 0) + (view.byteStride ?? size * TYPE_WIDTH[acc.type]) * e + size * c;
  const dv = new DataView(bin.buffer, bin.byteOffset);
  if (size === 1) dv.setUint8(at, v);
  else if (size === 2) dv.setUint16(at, v, true);
  else dv.setUint32(at, v, true);
}

/**
 * Targeted JSON/binary mutations, each a named kind of damage a real file can
 * have (the brief's list): accessor counts/offsets/types out of range, views
 * overrunning their buffer, missing buffers, skins naming missing nodes,
 * cyclic hierarchies, NaN/Infinity in accessors, bad key times, mismatched
 * sampler counts, negative/zero scale, zero quaternions, degenerate and open
 * meshes. Returns the description; mutates json/bin in place.
 */
const SEMANTIC: ((json: any, bin: Uint8Array, pick: (n: number) => number) => string)[] = [
  (json, _b, pick) => {
    const i = pick(json.accessors.length);
    const c = json.accessors[i].count;
    const v = [0, -1, c + 1, 2 * c, c - 1, 1.5, '3', null, 2 ** 31][pick(9)];
    json.accessors[i].count = v;
    return `accessors[${i}].count = ${JSON.stringify(v)} (was ${c})`;
  },
  (json, _b, pick) => {
    const i = pick(json.accessors.length);
    const view = json.bufferViews[json.accessors[i].bufferView];
    const v = [1, 2, 3, 4, view.byteLength, view.byteLength - 4, -4, 0.5][pick(8)];
    json.accessors[i].byteOffset = (json.accessors[i].byteOffset ?? 0) + v;
    return `accessors[${i}].byteOffset += ${v}`;
  },
  (json, _b, pick) => {
    const i = pick(json.accessors.length);
    const v = [5120, 5121, 5122, 5123, 5124, 5125, 5126, 5130, 0, '5126'][pick(10)];
    json.accessors[i].componentType = v;
    return `accessors[${i}].componentType = ${JSON.stringify(v)}`;
  },
  (json, _b, pick) => {
    const i = pick(json.accessors.length);
    const v = ['SCALAR', 'VEC2', 'VEC3', 'VEC4', 'MAT3', 'MAT4', 'vec3'][pick(7)];
    json.accessors[i].type = v;
    return `accessors[${i}].type = ${v}`;
  },
  (json, _b, pick) => {
    const i = pick(json.bufferViews.length);
    const v = json.bufferViews[i];
    const k = pick(3);
    if (k === 0) v.byteLength += 4 * (1 + pick(64));
    else if (k === 1) v.byteOffset = (v.byteOffset ?? 0) + 4 * (1 + pick(64));
    else v.byteStride = [4, 8, 12, 16, 2, 256][pick(6)];
    return `bufferViews[${i}] ${['byteLength grown', 'byteOffset moved', `byteStride = ${v.byteStride}`][k]}`;
  },
  (json, _b, pick) => {
    const k = pick(4);
    if (k === 0) delete json.buffers;
    else if (k === 1) json.buffers = [];
    else if (k === 2) json.bufferViews[pick(json.bufferViews.length)].buffer = 1;
    else json.buffers[0].uri = 'missing.bin';
    return ['buffers deleted', 'buffers = []', 'a bufferView names buffer 1', 'buffers[0].uri = missing.bin'][k];
  },
  (json, _b, pick) => {
    if (!json.skins) {
      json.nodes[0].skin = pick(2);
      return `nodes[0].skin = ${json.nodes[0].skin} (no skins)`;
    }
    const j = json.skins[0].joints;
    const k = pick(j.length);
    const v = [json.nodes.length, json.nodes.length + 7, -1, j[(k + 1) % j.length], 1.5][pick(5)];
    j[k] = v;
    return `skins[0].joints[${k}] = ${v}`;
  },
  (json, _b, pick) => {
    // A cycle: an ancestor becomes the child of one of its descendants (taken out of its old parent).
    const parent = new Map<number, number>();
    json.nodes.forEach((n: any, i: number) => (n.children ?? []).forEach((c: number) => parent.set(c, i)));
    const withParent = [...parent.keys()];
    if (withParent.length === 0) {
      json.nodes[0].children = [0];
      return 'nodes[0].children = [0]';
    }
    const d = withParent[pick(withParent.length)];
    const chain: number[] = [];
    for (let p = parent.get(d); p !== undefined; p = parent.get(p)) chain.push(p);
    const a = chain[pick(chain.length)];
    const pa = parent.get(a);
    if (pa !== undefined) json.nodes[pa].children = json.nodes[pa].children.filter((c: number) => c !== a);
    (json.nodes[d].children ??= []).push(a);
    return `cycle: nodes[${a}] made a child of its descendant nodes[${d}]`;
  },
  (json, bin, pick) => {
    const floats = json.accessors.map((a: any, i: number) => (a.componentType === 5126 ? i : -1)).filter((i: number) => i >= 0);
    const a = floats[pick(floats.length)];
    const acc = json.accessors[a];
    const e = pick(acc.count);
    const c = pick(TYPE_WIDTH[acc.type]);
    const v = [NaN, Infinity, -Infinity, 3e38, -3e38, 1e-45][pick(6)];
    writeFloat(json, bin, a, e, c, v);
    return `accessors[${a}] (${acc.type}) element ${e}.${c} = ${v}`;
  },
  (json, bin, pick) => {
    if (!json.animations) return 'no animations: unchanged';
    const an = pick(json.animations.length);
    const s = pick(json.animations[an].samplers.length);
    const a = json.animations[an].samplers[s].input;
    const n = json.accessors[a].count;
    const e = pick(n);
    const k = pick(5);
    const prev = e > 0 ? readFloat(json, bin, a, e - 1, 0) : 0;
    const v = [prev, prev - 0.5, NaN, -1, 1e30][k];
    writeFloat(json, bin, a, e, 0, v);
    return `animations[${an}].samplers[${s}] input key ${e} = ${v}`;
  },
  (json, _b, pick) => {
    if (!json.animations) return 'no animations: unchanged';
    const an = pick(json.animations.length);
    const s = json.animations[an].samplers[pick(json.animations[an].samplers.length)];
    const k = pick(4);
    if (k === 0) s.interpolation = s.interpolation === 'CUBICSPLINE' ? 'LINEAR' : 'CUBICSPLINE';
    else if (k === 1) s.interpolation = 'STEP';
    else if (k === 2) json.accessors[s.input].count = Math.max(1, json.accessors[s.input].count - 1);
    else s.output = s.input;
    return `animations[${an}] sampler: ${['interpolation switched', 'STEP', 'input count - 1', 'output = input'][k]}`;
  },
  (json, _b, pick) => {
    const i = pick(json.nodes.length);
    const n = json.nodes[i];
    const k = pick(7);
    if (k === 0) n.scale = [-1, 1, 1];
    else if (k === 1) n.scale = [0, 0, 0];
    else if (k === 2) n.scale = [1e-30, 1e-30, 1e-30];
    else if (k === 3) n.rotation = [0, 0, 0, 0];
    else if (k === 4) n.rotation = [0, 0, 0, 5];
    else if (k === 5) {
      delete n.translation, delete n.rotation, delete n.scale;
      n.matrix = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    } else n.scale = [1e30, 1e30, 1e30];
    return `nodes[${i}] ${['scale -1', 'scale 0', 'scale 1e-30', 'rotation 0', 'rotation |q|=5', 'singular matrix', 'scale 1e30'][k]}`;
  },
  (json, bin, pick) => {
    // Zero quaternions (all, or one key) in a rotation output.
    const rot: number[] = [];
    for (const a of json.animations ?? []) for (const c of a.channels) if (c.target.path === 'rotation') rot.push(a.samplers[c.sampler].output);
    if (rot.length === 0) return 'no rotation channels: unchanged';
    const a = rot[pick(rot.length)];
    const all = pick(2) === 0;
    const n = json.accessors[a].count;
    const first = all ? 0 : pick(n);
    const last = all ? n - 1 : first;
    for (let e = first; e <= last; e++) for (let c = 0; c < 4; c++) writeFloat(json, bin, a, e, c, 0);
    return `accessors[${a}] rotation keys zeroed (${all ? 'all' : 'one'})`;
  },
  (json, bin, pick) => {
    // Degenerate or open meshes: collapse triangles, drop triangles, or put every vertex at one point.
    const m = pick(json.meshes.length);
    const prim = json.meshes[m].primitives[pick(json.meshes[m].primitives.length)];
    const k = pick(3);
    if (k === 0 && prim.indices !== undefined) {
      const acc = json.accessors[prim.indices];
      const n = Math.min(acc.count, 3 * (1 + pick(20)));
      for (let e = 0; e < n; e++) writeIndex(json, bin, prim.indices, e, 0);
      return `meshes[${m}] first ${n / 3} triangles collapsed to vertex 0`;
    }
    if (k === 1 && prim.indices !== undefined) {
      const acc = json.accessors[prim.indices];
      acc.count = Math.max(3, acc.count - 3 * (1 + pick(4)));
      return `meshes[${m}] indices shortened to ${acc.count} (open mesh)`;
    }
    const pos = prim.attributes.POSITION;
    for (let e = 0; e < json.accessors[pos].count; e++) for (let c = 0; c < 3; c++) writeFloat(json, bin, pos, e, c, 0.25);
    delete json.accessors[pos].min, delete json.accessors[pos].max;
    return `meshes[${m}] every position at one point (zero area)`;
  },
  (json, bin, pick) => {
    // Skin weights: all zero for a vertex, negative, or a joint slot beyond the skin.
    let found: any = null;
    for (const m of json.meshes) for (const p of m.primitives) if (p.attributes.WEIGHTS_0 !== undefined) found = p;
    if (!found) return 'no skinned primitive: unchanged';
    const w = found.attributes.WEIGHTS_0;
    const e = pick(json.accessors[w].count);
    const k = pick(3);
    if (k === 0) for (let c = 0; c < 4; c++) writeFloat(json, bin, w, e, c, 0);
    else if (k === 1) writeFloat(json, bin, w, e, 0, -0.5);
    else {
      const j = found.attributes.JOINTS_0;
      writeIndex(json, bin, j, e, 200);
    }
    return `WEIGHTS_0/JOINTS_0 vertex ${e}: ${['weights zero', 'weight -0.5', 'joint slot 200'][k]}`;
  },
];

/** Damage to the GLB container itself: header fields and chunk headers. */
function mutateContainer(base: Uint8Array, pick: (n: number) => number): { bytes: Uint8Array; what: string } {
  const b = base.slice();
  const dv = new DataView(b.buffer);
  const jsonLength = dv.getUint32(12, true);
  const binAt = 20 + jsonLength;
  const fields: [number, string][] = [[0, 'magic'], [4, 'version'], [8, 'length'], [12, 'JSON chunk length'], [16, 'JSON chunk type'], [binAt, 'BIN chunk length'], [binAt + 4, 'BIN chunk type']];
  const [at, name] = fields[pick(fields.length)];
  const old = dv.getUint32(at, true);
  const v = [0, 1, old + 1, old - 1, old + 4, old - 4, old * 2, 0xffffffff, 0x7fffffff, 3][pick(10)] >>> 0;
  dv.setUint32(at, v, true);
  return { bytes: b, what: `GLB ${name} = ${v} (was ${old})` };
}

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
    case 'semantic': {
      const { json, bin } = unpackGlb(base);
      const b = bin!.slice();
      const k = pick(SEMANTIC.length);
      const what = SEMANTIC[k](json, b, pick);
      return { bytes: packGlb(json, b), what: `[${k}] ${what}` };
    }
    case 'container':
      return mutateContainer(base, pick);
  }
}

/**
 * What an accepted import must also satisfy downstream: as a document it is
 * valid, and evaluating every clip (local poses, joint world matrices, prop
 * matrices and velocities) gives finite numbers only.
 */
function downstreamProblems(r: ImportResult): string[] {
  const doc = createEmptyDocument('fuzz');
  doc.characters = r.characters;
  doc.props = r.props;
  doc.clips = r.clips;
  doc.activeClip = r.clips.length > 0 ? r.clips[0].id : '';
  const invalid = documentProblems(doc, 1);
  if (invalid.length) return [`imported scene is not a valid document: ${invalid[0].message}`];
  const p: string[] = [];
  const rigs = doc.characters.map((c) => new Rig(c));
  const m = new Float64Array(16);
  const lin = { x: 0, y: 0, z: 0 }, ang = { x: 0, y: 0, z: 0 };
  const clips = doc.clips.length ? doc.clips : [null];
  for (const clip of clips) {
    const ev = new SceneEvaluator(doc, clip?.id);
    for (const t of clip ? clipSampleTimes(clip) : [0]) {
      rigs.forEach((rig, ci) => {
        const pose = ev.characterLocalPose(ci, t, new Float64Array(TRS_STRIDE * rig.jointCount));
        for (let i = 0; i < pose.length; i++) if (!Number.isFinite(pose[i])) return void p.push(`clip "${clip?.name}" t=${t}: character ${ci} joint ${Math.floor(i / TRS_STRIDE)} local pose ${pose[i]}`);
        rig.local.set(pose);
        rig.computeWorld();
        for (let i = 0; i < rig.world.length; i++) if (!Number.isFinite(rig.world[i])) return void p.push(`clip "${clip?.name}" t=${t}: character ${ci} joint ${Math.floor(i / 16)} world ${rig.world[i]}`);
      });
      doc.props.forEach((_, pi) => {
        ev.propWorldMatrix(pi, t, m);
        ev.propVelocity(pi, t, lin, ang);
        const all = [...m, lin.x, lin.y, lin.z, ang.x, ang.y, ang.z];
        if (!all.every(Number.isFinite)) p.push(`clip "${clip?.name}" t=${t}: prop ${pi} matrix/velocity not finite`);
      });
      if (p.length) return p;
    }
  }
  return p;
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
    ['characters/mannequin.glb', 'mannequin.glb', 'semantic', 0x5eed07, 120],
    ['characters/mannequin.glb', 'mannequin.glb', 'container', 0x5eed08, 30],
    ['props/bat.glb', 'bat.glb', 'semantic', 0xba7007, 40],
    ['props/ball.glb', 'ball.glb', 'semantic', 0xba1107, 30],
    ['props/box.glb', 'box.glb', 'semantic', 0xb0c507, 30],
    ['props/table.glb', 'table.glb', 'semantic', 0x7ab107, 30],
    ['props/table.glb', 'table.glb', 'container', 0x7ab108, 20],
  ];
  const tally = { loaded: 0, rejected: 0 };

  for (const [rel, name, kind, seed, count] of plans) {
    it(`${name}: ${count} '${kind}' mutations, seed 0x${seed.toString(16)}: each loads sanely or throws a clear GltfImportError, within ${CASE_TIMEOUT_MS / 1000} s`, async () => {
      const base = asset(rel);
      const r = rng(seed);
      const failures: string[] = [];
      for (let c = 0; c < count * FUZZ_SCALE; c++) {
        const { bytes, what } = mutate(base, kind, r);
        const reply = await harness.run(bytes, name);
        const tag = `case ${c} (${what})`;
        if ('hang' in reply) failures.push(`${tag}: no answer within ${CASE_TIMEOUT_MS} ms`);
        else if ('crash' in reply) failures.push(`${tag}: worker crashed: ${reply.crash}`);
        else if (reply.ok) {
          tally.loaded++;
          let problems = sanityProblems(reply.result!);
          if (!problems.length) {
            try {
              problems = downstreamProblems(reply.result!);
            } catch (e) {
              problems = [`evaluating it threw ${(e as Error).name}: ${(e as Error).message}`];
            }
          }
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
