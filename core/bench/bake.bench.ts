/**
 * Bake benchmark (plain script: `npx tsx core/bench/bake.bench.ts`).
 *
 * 1. Baking a 300-frame clip of two 67-joint characters (the mannequin, twice)
 *    and 10 props: goal ≤ 1 s. One character has mocap-like linear keys on
 *    every frame of every joint, the other animator-like cubic keys every 8
 *    frames; props have linear keys every 5 frames.
 * 2. Sparse vs every-frame .glb size on the sample clip
 *    (assets/sample/bat-and-ball.impulse): goal sparse ≤ 1/3. The goal is
 *    judged on what the mode changes: the bytes the baked animation adds to
 *    the .glb (the file minus the same export without any clip: samplers,
 *    channels, their accessors and key data). The whole files are printed
 *    too, with JSON and binary chunk sizes: the full file with `impulse
 *    bake`'s default options (meshes quantised), with float32 meshes
 *    (--no-quantize, exportGlb's default) and the animation-only file
 *    (--animation-only). Both files of a row carry the same meshes, skins
 *    and nodes, which on this 2-second clip outweigh even the every-frame
 *    animation, so their ratios stay above the animation's. The every-frame
 *    file is always one key per frame for every channel the clip animates
 *    (the same channels in every row).
 */
import { readFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Character, ImpulseDocument, Prop, Track } from '../document/types';
import { createEmptyDocument } from '../document/defaults';
import { parseDocument } from '../document/parse';
import { boxProp } from '../document/fixtures';
import { importGltf } from '../io/importGltf';
import { bakeDocument, bakedKeyCount, pruneStaticChannels } from '../bake/bake';
import { type ExportOptions, exportGlb } from '../bake/exportGlb';
import { mulberry32 } from '../math/random';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Smooth random rotation about a random axis, times the rest rotation: q(t) = rest · axisAngle(a sin(ωt+φ)). */
function rotationKeys(r: () => number, rest: number[], times: number[], cubic: boolean): number[] {
  const z = r() * 2 - 1, phi = r() * 2 * Math.PI, s = Math.sqrt(1 - z * z);
  const ax = s * Math.cos(phi), ay = s * Math.sin(phi), az = z;
  const amp = 0.1 + r() * 0.6, w = 2 * Math.PI * (0.2 + r() * 0.8), ph = r() * 6.28;
  const q = (t: number, out: number[]) => {
    const ang = amp * Math.sin(w * t + ph);
    const sh = Math.sin(ang / 2), ch = Math.cos(ang / 2);
    const bx = ax * sh, by = ay * sh, bz = az * sh, bw = ch;
    const [x, y, zz, ww] = rest;
    out[0] = ww * bx + x * bw + y * bz - zz * by;
    out[1] = ww * by + y * bw + zz * bx - x * bz;
    out[2] = ww * bz + zz * bw + x * by - y * bx;
    out[3] = ww * bw - x * bx - y * by - zz * bz;
  };
  const values: number[] = [];
  const a = [0, 0, 0, 0], b = [0, 0, 0, 0], c = [0, 0, 0, 0];
  const h = 1e-5;
  for (const t of times) {
    q(t, a);
    if (!cubic) values.push(...a);
    else {
      q(t - h, b);
      q(t + h, c);
      const d = [0, 1, 2, 3].map((i) => (c[i] - b[i]) / (2 * h));
      values.push(...d, ...a, ...d);
    }
  }
  return values;
}

function benchScene(mannequin: Character): ImpulseDocument {
  const r = mulberry32(42);
  const doc = createEmptyDocument('bench');
  const fps = 30, frames = 300;
  const a = structuredClone(mannequin);
  a.id = 'mocap';
  a.name = 'Mocap';
  const b = structuredClone(mannequin);
  b.id = 'keyed';
  b.name = 'Keyed';
  b.transform.translation = [1.5, 0, 0];
  doc.characters = [a, b];
  const props: Prop[] = [];
  for (let i = 0; i < 10; i++) {
    const p = boxProp(`prop${i}`);
    p.name = `Prop ${i}`;
    props.push(p);
  }
  doc.props = props;
  const tracks: Track[] = [];
  const every = Array.from({ length: frames + 1 }, (_, k) => k / fps);
  const every8 = Array.from({ length: frames / 8 + 2 }, (_, k) => Math.min(frames, k * 8) / fps).filter((t, i, arr) => i === 0 || t > arr[i - 1]);
  const every5 = Array.from({ length: frames / 5 + 1 }, (_, k) => (k * 5) / fps);
  for (const [ch, times, cubic] of [[a, every, false], [b, every8, true]] as const) {
    ch.skeleton.joints.forEach((j, ji) => {
      tracks.push({
        target: { kind: 'joint', character: ch.id, joint: ji },
        path: 'rotation',
        interpolation: cubic ? 'cubic' : 'linear',
        times: [...times],
        values: rotationKeys(r, j.rest.rotation, times, cubic),
      });
    });
    const root = ch.skeleton.joints.findIndex((j) => j.parent < 0);
    tracks.push({
      target: { kind: 'joint', character: ch.id, joint: root },
      path: 'translation',
      interpolation: 'linear',
      times: [...every],
      values: every.flatMap((t) => [0.3 * Math.sin(t), ch.skeleton.joints[root].rest.translation[1] + 0.02 * Math.sin(6 * t), 0.5 * t]),
    });
  }
  for (const p of props) {
    const x0 = r() * 4 - 2, w = 1 + r() * 2;
    tracks.push({
      target: { kind: 'prop', prop: p.id },
      path: 'translation',
      interpolation: 'linear',
      times: [...every5],
      values: every5.flatMap((t) => [x0 + 0.5 * Math.sin(w * t), 0.5 + 0.3 * Math.abs(Math.sin(2 * w * t)), 0.2 * t]),
    });
    tracks.push({
      target: { kind: 'prop', prop: p.id },
      path: 'rotation',
      interpolation: 'linear',
      times: [...every5],
      values: every5.flatMap((t) => [0, Math.sin(w * t / 2), 0, Math.cos(w * t / 2)]),
    });
  }
  doc.clips = [{ id: 'bench', name: 'Bench', frameRate: fps, startFrame: 0, endFrame: frames, tracks }];
  doc.activeClip = 'bench';
  return doc;
}

function median(xs: number[]): number {
  const s = [...xs].sort((p, q) => p - q);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const mannequinPath = join(ROOT, 'assets/characters/mannequin.glb');
  const imported = await importGltf(new Uint8Array(readFileSync(mannequinPath)), 'mannequin.glb');
  const mannequin = imported.characters[0];
  const doc = benchScene(mannequin);
  const channels = doc.characters.reduce((n, c) => n + 3 * c.skeleton.joints.length, 0) + 3 * doc.props.length;
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores (wall times grow with load; CPU time does not)`);
  console.log(`bake bench: 300-frame clip, ${doc.characters.length} characters × ${mannequin.skeleton.joints.length} joints, ${doc.props.length} props (${channels} channels, ${doc.clips[0].tracks.length} tracks)`);
  const rows: string[] = [];
  for (const mode of ['sparse', 'every-frame'] as const) {
    const times: number[] = [];
    const cpu: number[] = [];
    let keys = 0;
    for (let run = 0; run < 5; run++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const baked = bakeDocument(doc, { mode });
      times.push(performance.now() - t0);
      const c1 = process.cpuUsage(c0);
      cpu.push((c1.user + c1.system) / 1000);
      keys = baked.reduce((n, c) => n + bakedKeyCount(c), 0);
    }
    const t0 = performance.now();
    const glb = await exportGlb(doc, { mode });
    const total = performance.now() - t0;
    const ms = median(times);
    rows.push(
      `  ${mode.padEnd(12)} bake ${ms.toFixed(0).padStart(5)} ms wall, ${median(cpu).toFixed(0).padStart(5)} ms CPU (medians of 5; goal ≤ 1000 ms: wall ${ms <= 1000 ? 'PASS' : 'FAIL'}, CPU ${median(cpu) <= 1000 ? 'PASS' : 'FAIL'})  ` +
        `bake+write ${total.toFixed(0)} ms  ${keys} keys  ${(glb.byteLength / 1024).toFixed(0)} KiB`,
    );
  }
  console.log(rows.join('\n'));

  const samplePath = join(ROOT, 'assets/sample/bat-and-ball.impulse');
  if (!existsSync(samplePath)) {
    console.log(`sample clip: ${samplePath} not found, size comparison not run`);
    return;
  }
  const sample = parseDocument(readFileSync(samplePath, 'utf8'));
  const clip = sample.clips.find((c) => c.id === sample.activeClip) ?? sample.clips[0];
  /** JSON and binary chunk sizes of a .glb. */
  const chunks = (glb: Uint8Array) => {
    const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
    const json = dv.getUint32(12, true);
    const bin = 20 + json < glb.byteLength ? dv.getUint32(20 + json, true) : 0;
    return { total: glb.byteLength, json, bin };
  };
  type Sizes = ReturnType<typeof chunks>;
  const files: { label: string; options: ExportOptions; note: string }[] = [
    { label: 'full .glb (impulse bake default)', options: { quantize: true }, note: 'meshes (KHR_mesh_quantization), skins, materials, animation' },
    { label: 'full .glb, --no-quantize', options: { quantize: false }, note: 'float32 meshes (exportGlb default)' },
    { label: '--animation-only .glb', options: { includeMeshes: false }, note: 'nodes, skins, animation; no mesh buffers' },
  ];
  const sizes: Record<string, Sizes>[] = [];
  let keys: Record<string, number> = {};
  for (const f of files) {
    const row: Record<string, Sizes> = {};
    for (const mode of ['sparse', 'every-frame'] as const) {
      const baked = bakeDocument(sample, { mode, clipIds: [clip.id] });
      row[mode] = chunks(await exportGlb(sample, { ...f.options, baked }));
      keys[mode] = pruneStaticChannels(baked).reduce((n, c) => n + bakedKeyCount(c), 0);
    }
    sizes.push(row);
  }
  const everyFrameChannels = pruneStaticChannels(bakeDocument(sample, { mode: 'every-frame', clipIds: [clip.id] }))[0].channels.length;
  const sparseChannels = pruneStaticChannels(bakeDocument(sample, { clipIds: [clip.id] }))[0].channels.length;
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`.padStart(9);
  const verdict = (r: number) => `${r.toFixed(3)} (goal ≤ 1/3: ${r <= 1 / 3 ? 'MET' : 'NOT MET'})`;
  // The same export with no clip: what both modes share.
  const base = chunks(await exportGlb(sample, { ...files[0].options, baked: [] }));
  const animBytes = { sparse: sizes[0].sparse.total - base.total, every: sizes[0]['every-frame'].total - base.total };
  console.log(
    `sample clip "${clip.name}" (${clip.endFrame - clip.startFrame + 1} frames at ${clip.frameRate} fps): sparse ${sparseChannels} channels / ${keys.sparse} keys, ` +
      `every-frame ${everyFrameChannels} channels / ${keys['every-frame']} keys (one per frame for every channel the clip animates). Sparse / every-frame size:`,
  );
  console.log(
    `  animation in the .glb (file minus the same export without clips, ${kib(base.total)}): sparse ${kib(animBytes.sparse)}, every-frame ${kib(animBytes.every)}: ratio ${verdict(animBytes.sparse / animBytes.every)}`,
  );
  files.forEach((f, i) => {
    const s = sizes[i].sparse, e = sizes[i]['every-frame'];
    console.log(
      `  ${f.label.padEnd(31)} sparse ${kib(s.total)} (JSON ${kib(s.json)} + BIN ${kib(s.bin)}), every-frame ${kib(e.total)} (JSON ${kib(e.json)} + BIN ${kib(e.bin)}): ratio ${(s.total / e.total).toFixed(3)}  [${f.note}]`,
    );
  });
  const anim = sizes[2];
  const ibm = 64 * sample.characters.reduce((n, c) => n + c.skeleton.joints.length, 0);
  console.log(
    `  key data only (animation-only BIN minus ${ibm} B of inverse bind matrices): sparse ${kib(anim.sparse.bin - ibm)}, every-frame ${kib(anim['every-frame'].bin - ibm)}, ratio ${((anim.sparse.bin - ibm) / (anim['every-frame'].bin - ibm)).toFixed(3)}`,
  );
  console.log(
    `  both files of a row carry the same meshes, skins and nodes (${kib(base.total)} in the default full file), more than the whole every-frame animation (${kib(animBytes.every)}), ` +
      `so a whole file's ratio is at least ${(base.total / (base.total + animBytes.every)).toFixed(3)} on this clip whatever the key reduction does`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
