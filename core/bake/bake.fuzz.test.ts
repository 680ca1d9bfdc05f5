/**
 * Seeded fuzzing of baking and export with adversarial documents that pass
 * validation: a prop animated by up to three tracks with keys at the
 * 1 to 3 ms apart or far apart, keys outside the clip, values
 * from 1e-6 to 1e6, rotation keys flipping sign or of non-unit length, step,
 * linear and cubic interpolation; clips of 0 to 90 frames at 0.5 to 240 fps
 * starting at negative, zero or positive frames.
 *
 * The law: bakeClip never throws on a valid document and gives finite keys
 * at increasing times inside the clip; the exported .glb imports again; and
 * the re-imported prop follows the original at every frame and half frame
 * (relative to the clip start) within the bake's tolerance for each channel
 * it reports within tolerance, plus float32 rounding of the values; at every
 * frame it is never further off than the error the bake reports (within
 * tolerance or not).
 *
 * Keys come as close as float64 neighbours (the document allows 1e-9 s
 * apart; float32 cannot tell most of these apart) and cubic tangents reach
 * 1e6 units/s, so keys that collapse into one float32 time and the value
 * shift from rounding key times to float32 are covered (repro/float32-times).
 * The file's time axis is float32: the replay compares at float32 times τ
 * (frames and half frames rounded), our evaluation at start + τ, stepped
 * keys moved to the float32 at or below them where the bake writes their
 * jump (float32StepReference).
 */
import { describe, expect, it } from 'vitest';
import { bakeClip, toleranceFor } from './bake';
import { exportGlb } from './exportGlb';
import { float32Up } from './time32';
import { float32StepReference } from './testkit';
import { SceneEvaluator } from '../anim/evaluate';
import { createEmptyDocument, defaultCollision, defaultMaterial } from '../document/defaults';
import { boxMesh } from '../document/fixtures';
import { documentProblems } from '../document/validate';
import type { ImpulseDocument, Interpolation, Track, TrackPath } from '../document/types';
import { importGltf } from '../io/importGltf';
import { mulberry32 } from '../math/random';

const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);

type Pick = (n: number) => number;

function track(r: () => number, pick: Pick, path: TrackPath, clipStart: number, clipEnd: number): Track {
  const interpolation: Interpolation = (['step', 'linear', 'cubic'] as const)[pick(3)];
  const n = 1 + pick(6);
  const spacing = pick(3);
  const span = Math.max(clipEnd - clipStart, 0.1);
  let t = clipStart + [-0.5, 0, 0.3, 1.2][pick(4)] * span;
  // Close keys (a few ms down to just over the document's 1e-9 s) where float32 steps are far wider: 54 s into a long clip.
  if (spacing === 0 && span > 60 && pick(2) === 0) t = clipStart + 54;
  const times: number[] = [];
  for (let k = 0; k < n; k++) {
    times.push(t);
    t += spacing === 0 ? [1e-3 * (1 + pick(3)), 4e-9, 1.5e-9, 1e-6][pick(4)] : spacing === 1 ? (span / n) * (0.2 + r()) : 10 * span;
  }
  const stride = path === 'rotation' ? 4 : 3;
  const groups = interpolation === 'cubic' ? 3 : 1;
  const mag = [1e-6, 1, 100, 1e6][pick(4)];
  const values: number[] = [];
  for (let k = 0; k < n; k++)
    for (let g = 0; g < groups; g++) {
      if (path === 'rotation' && (groups === 1 || g === 1)) {
        if (k > 0 && pick(3) === 0) {
          const o = values.length - stride * groups;
          for (let c = 0; c < 4; c++) values.push(-values[o + c]);
        } else {
          const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
          const l = (Math.hypot(...q) || 1) / [1, 0.5, 2][pick(3)];
          for (let c = 0; c < 4; c++) values.push(q[c] / l);
        }
      } else if (path === 'rotation') {
        const m = [2, 2e3, 2e6][pick(3)]; // tangents up to 1e6 /s
        for (let c = 0; c < 4; c++) values.push((r() - 0.5) * m);
      }
      else if (path === 'scale' && (groups === 1 || g === 1)) for (let c = 0; c < 3; c++) values.push((r() < 0.1 ? -1 : 1) * (0.01 + r() * 3));
      else if (groups === 1 || g === 1) for (let c = 0; c < 3; c++) values.push((r() * 2 - 1) * mag);
      else for (let c = 0; c < 3; c++) values.push((r() * 2 - 1) * [10, 1e3, 1e6][pick(3)]); // tangents up to 1e6 units/s
    }
  return { target: { kind: 'prop', prop: 'p' }, path, interpolation, times, values };
}

function randomDoc(r: () => number, pick: Pick): { doc: ImpulseDocument; what: string } {
  const doc = createEmptyDocument('fuzz');
  doc.props.push({
    id: 'p', name: 'p', transform: { translation: [1, 2, 3], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }, mesh: boxMesh(0.5, 0.5, 0.5),
    material: defaultMaterial(), physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 }, collision: defaultCollision(),
  });
  const clip = doc.clips[0];
  clip.frameRate = [0.5, 24, 30, 240][pick(4)];
  clip.startFrame = [-10, 0, 7][pick(3)];
  clip.endFrame = clip.startFrame + [0, 1, 30, 90][pick(4)];
  const paths = (['translation', 'rotation', 'scale'] as const).filter(() => pick(2) === 0);
  clip.tracks = paths.map((p) => track(r, pick, p, clip.startFrame / clip.frameRate, clip.endFrame / clip.frameRate));
  return { doc, what: `${clip.frameRate} fps, frames ${clip.startFrame}..${clip.endFrame}, ${clip.tracks.map((t) => `${t.path} ${t.interpolation} ×${t.times.length} at ${JSON.stringify(t.times)}`).join(', ') || 'no tracks'}` };
}

/** Largest difference at frames and half frames between the original prop and the re-imported one, per path. */
function replayError(doc: ImpulseDocument, imported: ImpulseDocument, startSec: number, frames: number, fps: number, perFrame = 2): number[] {
  const a = new SceneEvaluator(doc), b = new SceneEvaluator(imported);
  const pa = new Float64Array(10), pb = new Float64Array(10);
  const err = [0, 0, 0];
  for (let h = 0; h <= perFrame * frames; h++) {
    const t = Math.fround(h / perFrame / fps);
    a.propTransform(0, startSec + t, pa);
    b.propTransform(0, t, pb);
    // Beyond the tolerance, allow the float32 rounding of the written value (2^-24 relative, twice).
    for (let c = 0; c < 3; c++) err[0] = Math.max(err[0], Math.abs(pa[c] - pb[c]) - 1.2e-7 * Math.abs(pa[c]));
    const dot = Math.abs(pa[3] * pb[3] + pa[4] * pb[4] + pa[5] * pb[5] + pa[6] * pb[6]);
    err[1] = Math.max(err[1], 2 * Math.acos(Math.min(1, dot)));
    for (let c = 7; c < 10; c++) err[2] = Math.max(err[2], Math.abs(pa[c] - pb[c]) - 1.2e-7 * Math.abs(pa[c]));
  }
  return err;
}

describe('bake + export fuzzing with adversarial valid documents', () => {
  for (const [seed, count] of [[0xba4e01, 60], [0xba4e02, 60]] as const) {
    it(`${count} documents, seed 0x${seed.toString(16)}: bake gives finite keys in the clip, the .glb re-imports and replays the original within tolerance`, async () => {
      const r = mulberry32(seed);
      const pick: Pick = (n) => Math.floor(r() * n);
      const failures: string[] = [];
      let checked = 0;
      for (let c = 0; c < count * FUZZ_SCALE; c++) {
        const { doc, what } = randomDoc(r, pick);
        if (documentProblems(doc, 1).length) continue;
        checked++;
        const tag = `case ${c} (${what})`;
        try {
          const clip = doc.clips[0];
          const baked = bakeClip(doc, clip.id);
          for (const ch of baked.channels) {
            const { times, values } = ch.curve;
            if (!values.every(Number.isFinite) || !times.every(Number.isFinite)) throw new Error(`${ch.path}: non-finite keys`);
            for (let k = 0; k < times.length; k++)
              if (times[k] < -1e-9 || times[k] > float32Up(baked.durationSec) || (k > 0 && !(times[k] > times[k - 1]))) throw new Error(`${ch.path}: key ${k} at ${times[k]} s (clip ${baked.durationSec} s)`);
          }
          const glb = await exportGlb(doc, { baked: [baked] });
          const imp = await importGltf(glb, 'out.glb');
          const back = createEmptyDocument('back');
          back.props = imp.props;
          back.clips = imp.clips;
          back.activeClip = imp.clips[0]?.id ?? '';
          if (back.props.length !== 1) throw new Error(`re-imported ${back.props.length} props`);
          if (imp.clips.length === 0) back.clips = [];
          const ref = float32StepReference(doc, baked.startTimeSec);
          const err = replayError(ref, back, baked.startTimeSec, clip.endFrame - clip.startFrame, clip.frameRate);
          const atFrames = replayError(ref, back, baked.startTimeSec, clip.endFrame - clip.startFrame, clip.frameRate, 1);
          const paths = ['translation', 'rotation', 'scale'] as const;
          paths.forEach((p, i) => {
            const ch = baked.channels.find((x) => x.path === p)!;
            const tol = toleranceFor(p, baked.tolerance);
            // Within tolerance when the bake says so; at the frames (always among its samples) never beyond the error it reports.
            if (ch.maxError <= tol && err[i] > tol + 1e-6) failures.push(`${tag}: ${p} replays ${err[i].toExponential(2)} off (tolerance ${tol}, bake reported ${ch.maxError.toExponential(2)})`);
            else if (atFrames[i] > ch.maxError * (1 + 1e-6) + 1e-6) failures.push(`${tag}: ${p} replays ${atFrames[i].toExponential(2)} off at a frame, beyond the bake's reported ${ch.maxError.toExponential(2)} (tolerance ${tol})`);
          });
        } catch (e) {
          failures.push(`${tag}: ${(e as Error).name}: ${(e as Error).message}`);
        }
      }
      expect(checked, 'valid documents baked').toBeGreaterThan(count / 3);
      expect(failures, failures.slice(0, 10).join('\n')).toEqual([]);
    }, 120_000);
  }
});
