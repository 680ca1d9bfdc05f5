/**
 * Repro: glTF stores key times as float32, and the bake used to fit and
 * measure on exact (float64) times, then round them on the way out.
 *
 * 1. Keys closer than float32 can tell apart (translation keys at 54 s and
 *    54.000000004 s) were written as equal float32 times: glTF forbids it
 *    (inputs must increase) and our importer refused the file
 *    (`animations[0].samplers[0].input: key times must increase`).
 * 2. The reported error left out the rounding of key times: a cubic key at
 *    0.3 s with a 1e6 /s tangent is written at 0.30000001192 s, which moves
 *    the curve by ~4e-3 while the bake reported 8.8e-4.
 * 3. A document with nothing in it was written with a buffer without
 *    `byteLength` (glTF forbids).
 *
 * At the file's float32 times the re-imported clip is within the reported
 * error of our evaluation, a stepped key's jump sitting at the float32 at or
 * below its time (so a player at the key's own time sees it).
 *
 * Found by core/bake/bake.fuzz.test.ts (which kept keys >= 1 ms apart and
 * tangents <= 10 /s to avoid 1 and 2; it no longer does). The law checked:
 * the file validates and re-imports, key times strictly increase as float32.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { bakeClip } from '../bake';
import { exportGlb } from '../exportGlb';
import { valueError } from '../reduce';
import { float32Down } from '../time32';
import { float32StepReference } from '../testkit';
import { SceneEvaluator } from '../../anim/evaluate';
import { createEmptyDocument, defaultCollision, defaultMaterial } from '../../document/defaults';
import { boxMesh } from '../../document/fixtures';
import { documentProblems } from '../../document/validate';
import type { ImpulseDocument, Interpolation, Track } from '../../document/types';
import { importGltf } from '../../io/importGltf';

const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<{ issues: { numErrors: number; messages: { code: string; message: string; severity: number; pointer?: string }[] } }>;
};

async function validationErrors(glb: Uint8Array): Promise<string[]> {
  const report = await validator.validateBytes(glb, { maxIssues: 100, writeTimestamp: false });
  return report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
}

function propDoc(fps: number, frames: number, track: Omit<Track, 'target'>): ImpulseDocument {
  const doc = createEmptyDocument('float32');
  doc.props.push({
    id: 'p', name: 'p', transform: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }, mesh: boxMesh(0.5, 0.5, 0.5),
    material: defaultMaterial(), physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 }, collision: defaultCollision(),
  });
  const clip = doc.clips[0];
  clip.frameRate = fps;
  clip.startFrame = 0;
  clip.endFrame = frames;
  clip.tracks = [{ target: { kind: 'prop', prop: 'p' }, ...track }];
  expect(documentProblems(doc), 'the repro document is valid').toEqual([]);
  return doc;
}

/**
 * Bakes, exports, validates and re-imports; returns the largest translation
 * difference at float32 times `at` (relative seconds) and the error the bake
 * reported for the channel.
 */
async function roundTrip(doc: ImpulseDocument, at: number[]): Promise<{ measured: number; reported: number; times: Float64Array }> {
  const baked = bakeClip(doc, doc.clips[0].id);
  const ch = baked.channels.find((c) => c.target.kind === 'prop' && c.path === 'translation')!;
  const stored = Float32Array.from(ch.curve.times);
  for (let k = 1; k < stored.length; k++) expect(stored[k], `float32 key ${k} after key ${k - 1}`).toBeGreaterThan(stored[k - 1]);
  const glb = await exportGlb(doc, { baked: [baked] });
  expect(await validationErrors(glb), 'gltf-validator errors').toEqual([]);
  const imp = await importGltf(glb, 'out.glb');
  const back = createEmptyDocument('back');
  back.props = imp.props;
  back.clips = imp.clips;
  back.activeClip = imp.clips[0].id;
  // A stepped track's jump is written at the float32 at or below its key (bake.ts):
  // the reference for the file is the document with its step keys moved there.
  const ref = float32StepReference(doc, baked.startTimeSec);
  const a = new SceneEvaluator(ref), b = new SceneEvaluator(back), exact = new SceneEvaluator(doc);
  const pa = new Float64Array(10), pb = new Float64Array(10);
  let measured = 0;
  for (const t of at) {
    const t32 = Math.fround(t);
    a.propTransform(0, baked.startTimeSec + t32, pa);
    b.propTransform(0, t32, pb);
    measured = Math.max(measured, valueError('vector', pa, 0, pb, 0));
  }
  // A player at a key's own (float64) time sees the key, unless the next key shares its float32 time (merged, the later wins).
  for (const tr of doc.clips[0].tracks)
    for (const [k, t] of tr.times.entries()) {
      if (tr.interpolation !== 'step' || t - baked.startTimeSec < 0 || t - baked.startTimeSec > baked.durationSec) continue;
      if (k + 1 < tr.times.length && float32Down(tr.times[k + 1] - baked.startTimeSec) === float32Down(t - baked.startTimeSec)) continue;
      exact.propTransform(0, t, pa);
      b.propTransform(0, t - baked.startTimeSec, pb);
      measured = Math.max(measured, valueError('vector', pa, 0, pb, 0));
    }
  return { measured, reported: ch.maxError, times: ch.curve.times };
}

/** Frames and half frames (the bake's own check points) and the float32 times next to `around`. */
function replayTimes(fps: number, frames: number, around: number): number[] {
  const at: number[] = [];
  for (let h = 0; h <= 2 * frames; h++) at.push(h / 2 / fps);
  const t32 = Math.fround(around);
  const ulp = Math.fround(t32 * (1 + 2 ** -23)) - t32;
  for (let k = -1; k <= 2; k++) at.push(t32 + k * ulp);
  return at;
}

describe('repro: key times as float32', () => {
  for (const interpolation of ['linear', 'step', 'cubic'] as Interpolation[]) {
    it(`${interpolation} translation keys at 54 s and 54.000000004 s: strictly increasing float32 times, 0 validator errors, re-imports and replays within the reported error`, async () => {
      const cubic = interpolation === 'cubic';
      const v = (x: number) => (cubic ? [0, 0, 0, x, 0, 0, 0, 0, 0] : [x, 0, 0]);
      const doc = propDoc(0.5, 60, { path: 'translation', interpolation, times: [10, 54, 54.000000004, 80], values: [...v(0), ...v(1), ...v(2), ...v(3)] });
      const { measured, reported, times } = await roundTrip(doc, replayTimes(0.5, 60, 54));
      expect(times.length, 'the two keys 4 ns apart are one key in the file').toBeLessThan(2 + 4 + 3 * 60);
      // Float32 rounding of values up to 3: 2^-24 · 3 per value.
      expect(measured, `replayed error vs bake's reported ${reported}`).toBeLessThanOrEqual(reported + 2e-7);
    });
  }

  it('cubic key at 0.3 s with a 1e6 /s tangent: the reported error covers the file as written (float32 key times)', async () => {
    // x: 0 at 0 s, 1 at 0.3 s with a 1e6 /s in- and out-tangent, 0 at 0.6 s.
    const doc = propDoc(30, 18, {
      path: 'translation', interpolation: 'cubic', times: [0, 0.3, 0.6],
      values: [0, 0, 0, 0, 0, 0, 0, 0, 0, /**/ 1e6, 0, 0, 1, 0, 0, 1e6, 0, 0, /**/ 0, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    const { measured, reported, times } = await roundTrip(doc, replayTimes(30, 18, 0.3));
    expect(Array.from(times).every((t) => Math.fround(t) === t), 'key times are float32 values').toBe(true);
    // Values reach ~3e4 here: float32 rounding of a value up to 2^-24 · 3e4 ≈ 2e-3, twice.
    expect(measured, `replayed error vs bake's reported ${reported}`).toBeLessThanOrEqual(reported * (1 + 1e-6) + 4e-3);
    expect(reported, 'the reported error includes the float32 rounding of the 0.3 s key').toBeGreaterThan(1e-3);
  });

  it('an empty document exports a .glb without a buffer: 0 validator errors', async () => {
    const glb = await exportGlb(createEmptyDocument('empty'));
    expect(await validationErrors(glb), 'gltf-validator errors').toEqual([]);
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
    expect(json.buffers ?? [], 'no buffer (nothing to store)').toEqual([]);
  });
});
