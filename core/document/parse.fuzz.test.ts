/**
 * Seeded fuzzing of parseDocument with mutations of the shipped sample
 * project (assets/sample/bat-and-ball.impulse): random retypes and deletions
 * anywhere, and targeted damage a saved file can have (NaN keys written as
 * null or strings, out-of-range joint/parent/track indices, zero and negative
 * mass or density, empty clips and tracks, duplicate ids, unsorted or equal
 * key times, zero quaternions and scales, broken base64 blocks, wrong
 * versions).
 *
 * The law: every case either throws a DocumentError whose message is
 * `<path>: <what>` with a path that names where (for targeted damage: at or
 * inside the damaged object), never another error type; or it is accepted,
 * and then evaluating every clip (SceneEvaluator local poses, rig world
 * matrices, prop matrices and velocities at frames, keys and midpoints) gives
 * finite numbers, and every prop's mass properties are finite and positive or
 * refused with an error naming the prop.
 */
import { readFileSync } from 'node:fs';
import { clipSampleTimes } from './fixtures';
import { describe, expect, it } from 'vitest';
import { DocumentError } from './errors';
import { parseDocument } from './parse';
import { propMassProperties } from './massProperties';
import { encodeBase64 } from './base64';
import type { ImpulseDocument } from './types';
import { SceneEvaluator, TRS_STRIDE } from '../anim/evaluate';
import { Rig } from '../skeleton/rig';
import { mulberry32 } from '../math/random';

/** `FUZZ_SCALE=20 npx vitest run <this file>` runs 20 times the cases (same seeds, a superset) for a deeper local search. */
const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);

/* eslint-disable @typescript-eslint/no-explicit-any */
const SAMPLE_TEXT = readFileSync(new URL('../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8');
const SAMPLE: any = JSON.parse(SAMPLE_TEXT);
/** The sample without its meshes' bulk data blocks walked (they are leaves). */
const copy = (): any => structuredClone(SAMPLE);

type Path = (string | number)[];

function fmt(path: Path): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
  return s;
}

function jsonPaths(v: any, path: Path = [], out: Path[] = []): Path[] {
  if (v && typeof v === 'object') {
    // A base64 block is one value: mutate it whole or its two fields, never walk further.
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      out.push([...path, k]);
      const c = v[k];
      if (c && typeof c === 'object' && !(typeof c.b64 === 'string') && !(Array.isArray(c) && c.length > 64)) jsonPaths(c, [...path, k], out);
    }
  }
  return out;
}

function at(v: any, path: Path): { parent: any; key: string | number } {
  let p = v;
  for (let i = 0; i < path.length - 1; i++) p = p[path[i]];
  return { parent: p, key: path[path.length - 1] };
}

const WEIRD: unknown[] = [null, 'x', 'NaN', -1, 0, 1.5, 1e308, -1e308, [], {}, true, [1, 2, 3], '', { dtype: 'f32', b64: '' }];

interface Case {
  /** The document text. */
  text: string;
  what: string;
  /** For targeted damage: the error path must start with this (when the case is refused). */
  within?: string;
}

type Pick = (n: number) => number;

/** Targeted damage; each returns a description and the object path it damaged. */
const TARGETED: ((d: any, pick: Pick) => { what: string; within?: string; raw?: (text: string) => string })[] = [
  (d, pick) => {
    const c = d.clips[pick(d.clips.length)];
    const ci = d.clips.indexOf(c);
    const ti = pick(c.tracks.length);
    const t = c.tracks[ti];
    const k = pick(t.times.length);
    const v = [null, 'NaN', 'Infinity', '0.5', -Infinity][pick(5)];
    t.times[k] = v;
    return { what: `clips[${ci}].tracks[${ti}].times[${k}] = ${String(v)}`, within: `clips[${ci}].tracks[${ti}]` };
  },
  (d, pick) => {
    const c = d.clips[pick(d.clips.length)];
    const ci = d.clips.indexOf(c);
    const ti = pick(c.tracks.length);
    const t = c.tracks[ti];
    const k = pick(t.values.length);
    const v = [null, 'NaN', '-Infinity', 'x'][pick(4)];
    t.values[k] = v;
    return { what: `clips[${ci}].tracks[${ti}].values[${k}] = ${String(v)}`, within: `clips[${ci}].tracks[${ti}]` };
  },
  (d, pick) => {
    // A value JSON can only write as an overflowing literal: 1e999 parses to Infinity.
    const c = d.clips[pick(d.clips.length)];
    const ci = d.clips.indexOf(c);
    const ti = pick(c.tracks.length);
    const k = pick(c.tracks[ti].times.length);
    c.tracks[ti].times[k] = 123456.789012;
    return { what: `clips[${ci}].tracks[${ti}].times[${k}] = 1e999`, within: `clips[${ci}].tracks[${ti}]`, raw: (s) => s.replace('123456.789012', '1e999') };
  },
  (d, pick) => {
    const joints = d.characters[0].skeleton.joints;
    const j = pick(joints.length);
    const v = [j, j + 1, joints.length, joints.length + 5, -2, 0.5, '0', null][pick(8)];
    joints[j].parent = v;
    // parent 0 for joint 0 is "itself"; any other value after it may be fine only when it is < j.
    return { what: `characters[0].skeleton.joints[${j}].parent = ${JSON.stringify(v)}`, within: `characters[0].skeleton.joints[${j}]` };
  },
  (d, pick) => {
    const c = d.clips[pick(d.clips.length)];
    const ci = d.clips.indexOf(c);
    const ts = c.tracks.map((t: any, i: number) => (t.target.kind === 'joint' ? i : -1)).filter((i: number) => i >= 0);
    if (!ts.length) return { what: 'no joint track: unchanged' };
    const ti = ts[pick(ts.length)];
    const v = [67, 1000, -1, 2.5, '3'][pick(5)];
    c.tracks[ti].target.joint = v;
    return { what: `clips[${ci}].tracks[${ti}].target.joint = ${JSON.stringify(v)}`, within: `clips[${ci}].tracks[${ti}]` };
  },
  (d, pick) => {
    const pi = pick(d.props.length);
    const ph = d.props[pi].physics;
    const k = pick(7);
    delete ph.massKg;
    delete ph.densityKgPerM3;
    if (k === 0) ph.massKg = 0;
    else if (k === 1) ph.massKg = -2;
    else if (k === 2) ph.densityKgPerM3 = 0;
    else if (k === 3) ph.densityKgPerM3 = -700;
    else if (k === 4) ph.massKg = 5e-324;
    else if (k === 5) (ph.massKg = 1), (ph.densityKgPerM3 = 1000);
    return { what: `props[${pi}].physics: ${['massKg 0', 'massKg -2', 'density 0', 'density -700', 'massKg 5e-324', 'both set', 'neither set'][k]}`, within: `props[${pi}]` };
  },
  (d, pick) => {
    const ci = pick(d.clips.length);
    const k = pick(4);
    if (k === 0) d.clips[ci].tracks = [];
    else if (k === 1) d.clips = [];
    else if (k === 2) {
      const t = d.clips[ci].tracks[pick(d.clips[ci].tracks.length)];
      t.times = [];
      t.values = [];
    } else (d.clips[ci].endFrame = d.clips[ci].startFrame - 1);
    return { what: ['clip with no tracks', 'no clips (activeClip left)', 'a track with no keys', 'endFrame before startFrame'][k], within: k === 1 ? 'activeClip' : `clips[${ci}]` };
  },
  (d, pick) => {
    const ids: [string, any][] = [];
    d.characters.forEach((c: any, i: number) => ids.push([`characters[${i}]`, c]));
    d.props.forEach((p: any, i: number) => ids.push([`props[${i}]`, p]));
    d.clips.forEach((c: any, i: number) => ids.push([`clips[${i}]`, c]));
    const a = pick(ids.length);
    let b = pick(ids.length - 1);
    if (b >= a) b++;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    ids[hi][1].id = ids[lo][1].id;
    return { what: `${ids[hi][0]}.id = ${ids[lo][0]}.id`, within: ids[hi][0] };
  },
  (d, pick) => {
    const c = d.clips[pick(d.clips.length)];
    const ci = d.clips.indexOf(c);
    const ts = c.tracks.map((t: any, i: number) => (t.times.length > 1 ? i : -1)).filter((i: number) => i >= 0);
    const ti = ts[pick(ts.length)];
    const t = c.tracks[ti];
    const k = 1 + pick(t.times.length - 1);
    if (pick(2)) [t.times[k - 1], t.times[k]] = [t.times[k], t.times[k - 1]];
    else t.times[k] = t.times[k - 1];
    return { what: `clips[${ci}].tracks[${ti}] times ${k - 1}, ${k} swapped or equal`, within: `clips[${ci}].tracks[${ti}]` };
  },
  (d, pick) => {
    const targets: [string, any][] = [['characters[0].transform', d.characters[0].transform]];
    d.props.forEach((p: any, i: number) => targets.push([`props[${i}].transform`, p.transform]));
    const j = pick(d.characters[0].skeleton.joints.length);
    targets.push([`characters[0].skeleton.joints[${j}].rest`, d.characters[0].skeleton.joints[j].rest]);
    const [w, t] = targets[pick(targets.length)];
    const k = pick(5);
    if (k === 0) t.rotation = [0, 0, 0, 0];
    else if (k === 1) t.scale = [0, 0, 0];
    else if (k === 2) t.scale = [-1, 1, 1];
    else if (k === 3) t.translation = [null, 0, 0];
    else t.rotation = [0, 0, 1];
    return { what: `${w}: ${['rotation 0', 'scale 0', 'scale -1', 'translation null', 'rotation of 3'][k]}`, within: w };
  },
  (d, pick) => {
    // Rotation keys all zero in one track.
    const c = d.clips[pick(d.clips.length)];
    const ci = d.clips.indexOf(c);
    const ts = c.tracks.map((t: any, i: number) => (t.path === 'rotation' ? i : -1)).filter((i: number) => i >= 0);
    const ti = ts[pick(ts.length)];
    c.tracks[ti].values = c.tracks[ti].values.map(() => 0);
    return { what: `clips[${ci}].tracks[${ti}] rotation values all 0`, within: `clips[${ci}].tracks[${ti}]` };
  },
  (d, pick) => {
    // Bulk blocks: truncated or invalid base64, wrong dtype, indices out of range.
    const owners: [string, any][] = d.props.map((p: any, i: number) => [`props[${i}].mesh`, p.mesh]);
    d.characters[0].meshes.forEach((m: any, i: number) => owners.push([`characters[0].meshes[${i}]`, m]));
    const [w, m] = owners[pick(owners.length)];
    const fields = Object.keys(m).filter((k) => m[k] && typeof m[k].b64 === 'string');
    const f = fields[pick(fields.length)];
    const k = pick(5);
    if (k === 0) m[f].b64 = m[f].b64.slice(0, Math.max(0, m[f].b64.length - 4 * (1 + pick(8))));
    else if (k === 1) m[f].b64 = m[f].b64.slice(0, 10) + '!' + m[f].b64.slice(11);
    else if (k === 2) m[f].dtype = ['f64', 'u8', 'i32', 'f16', 'f32'][pick(5)];
    else if (k === 3) m[f] = { dtype: 'u32', b64: encodeBase64(new Uint8Array(Uint32Array.of(0, 1, 2, 1e9).buffer)) };
    else m[f].b64 = m[f].b64.slice(0, 5);
    return { what: `${w}.${f}: ${['b64 truncated', 'b64 invalid char', `dtype ${m[f].dtype}`, 'replaced by 4 u32 (one 1e9)', 'b64 of 5 chars'][k]}`, within: w };
  },
  (d, pick) => {
    const k = pick(6);
    if (k === 0) d.version = [0, 1, 3, 99, '2', null][pick(6)];
    else if (k === 1) d.gravity = [0, null, 0];
    else if (k === 2) d.groundY = 'floor';
    else if (k === 3) d.activeClip = 'nope';
    else if (k === 4) d.check.ignore[pick(d.check.ignore.length)].b.joint = 99;
    else d.characters[0].meshes[0].skinJoints = { dtype: 'i32', b64: encodeBase64(new Uint8Array(Int32Array.of(0, 99).buffer)) };
    return { what: ['version', 'gravity null', 'groundY string', 'activeClip missing', 'ignore rule joint 99', 'skinJoints [0, 99]'][k], within: [undefined, 'gravity', 'groundY', 'activeClip', 'check.ignore', 'characters[0].meshes[0]'][k] };
  },
];

function mutate(kind: 'retype' | 'delete' | 'targeted', pick: Pick): Case {
  const d = copy();
  if (kind === 'targeted') {
    const k = pick(TARGETED.length);
    const { what, within, raw } = TARGETED[k](d, pick);
    const text = JSON.stringify(d);
    return { text: raw ? raw(text) : text, what: `[${k}] ${what}`, within };
  }
  const paths = jsonPaths(d);
  const path = paths[pick(paths.length)];
  const { parent, key } = at(d, path);
  if (kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return { text: JSON.stringify(d), what: `deleted ${fmt(path)}` };
  }
  const v = WEIRD[pick(WEIRD.length)];
  parent[key] = v;
  return { text: JSON.stringify(d), what: `${fmt(path)} = ${JSON.stringify(v)}` };
}

/** Problems downstream of an accepted document: non-finite poses or velocities, unusable mass. */
function downstreamProblems(doc: ImpulseDocument): string[] {
  const p: string[] = [];
  const rigs = doc.characters.map((c) => new Rig(c));
  const m = new Float64Array(16);
  const lin = { x: 0, y: 0, z: 0 }, ang = { x: 0, y: 0, z: 0 };
  for (const clip of doc.clips.length ? doc.clips : [null]) {
    const ev = new SceneEvaluator(doc, clip?.id);
    for (const t of clip ? clipSampleTimes(clip) : [0]) {
      rigs.forEach((rig, ci) => {
        const pose = ev.characterLocalPose(ci, t, new Float64Array(TRS_STRIDE * rig.jointCount));
        if (!pose.every(Number.isFinite)) return void p.push(`clip "${clip?.name}" t=${t}: character ${ci} local pose not finite`);
        rig.local.set(pose);
        rig.computeWorld();
        if (!rig.world.every(Number.isFinite)) p.push(`clip "${clip?.name}" t=${t}: character ${ci} world matrices not finite`);
      });
      doc.props.forEach((_, pi) => {
        ev.propWorldMatrix(pi, t, m);
        ev.propVelocity(pi, t, lin, ang);
        if (![...m, lin.x, lin.y, lin.z, ang.x, ang.y, ang.z].every(Number.isFinite)) p.push(`clip "${clip?.name}" t=${t}: prop ${pi} matrix/velocity not finite`);
      });
      if (p.length) return p;
    }
  }
  doc.props.forEach((prop, pi) => {
    let mp;
    try {
      mp = propMassProperties(prop);
    } catch (e) {
      // Refusing is fine when it says which prop.
      if (!(e as Error).message.includes(prop.name) && !(e as Error).message.includes(prop.id)) p.push(`props[${pi}] mass refused without naming the prop: ${(e as Error).message}`);
      return;
    }
    if (!(mp.massKg > 0 && Number.isFinite(mp.massKg)) || ![...mp.centerOfMass, ...mp.inertia].every(Number.isFinite))
      p.push(`props[${pi}] mass properties not usable: massKg ${mp.massKg}, com ${mp.centerOfMass}`);
  });
  return p;
}

describe('parseDocument fuzzing (bat-and-ball.impulse)', () => {
  it('accepts the unmutated sample and it evaluates finite (so every refusal below comes from the damage)', () => {
    const doc = parseDocument(SAMPLE_TEXT);
    expect(downstreamProblems(doc)).toEqual([]);
  });

  const tally = { accepted: 0, refused: 0 };
  const plans: ['retype' | 'delete' | 'targeted', number, number][] = [
    ['targeted', 0xd0c001, 260],
    ['retype', 0xd0c002, 80],
    ['delete', 0xd0c003, 60],
  ];
  for (const [kind, seed, count] of plans) {
    it(`${count} '${kind}' mutations, seed 0x${seed.toString(16)}: each is refused with a DocumentError naming where, or evaluates finite`, () => {
      const r = mulberry32(seed);
      const pick: Pick = (n) => Math.floor(r() * n);
      const failures: string[] = [];
      for (let c = 0; c < count * FUZZ_SCALE; c++) {
        const { text, what, within } = mutate(kind, pick);
        const tag = `case ${c} (${what})`;
        let doc: ImpulseDocument;
        try {
          doc = parseDocument(text);
        } catch (e) {
          tally.refused++;
          if (!(e instanceof DocumentError)) failures.push(`${tag}: threw ${(e as Error).name}: ${(e as Error).message}`);
          else if (!e.message.startsWith(e.path ? `${e.path}: ` : '')) failures.push(`${tag}: message does not start with its path: ${e.message}`);
          else if (within !== undefined && !e.path.startsWith(within)) failures.push(`${tag}: error names ${e.path || '(the document)'}, expected a place within ${within}: ${e.message}`);
          continue;
        }
        tally.accepted++;
        try {
          const problems = downstreamProblems(doc);
          if (problems.length) failures.push(`${tag}: accepted but ${problems.slice(0, 2).join('; ')}`);
        } catch (e) {
          failures.push(`${tag}: accepted, then evaluating threw ${(e as Error).name}: ${(e as Error).message}`);
        }
      }
      expect(failures, failures.join('\n')).toEqual([]);
    });
  }

  it('exercised both outcomes', () => {
    expect(tally.accepted, 'accepted cases').toBeGreaterThan(10);
    expect(tally.refused, 'refused cases').toBeGreaterThan(100);
  });
});
