/**
 * Seeded fuzzing of TrackSampler and SceneEvaluator with adversarial tracks
 * that a document may legally hold (they pass validateDocument): key times
 * one float64 step apart, values and tangents near the document's magnitude
 * bound, rotation keys flipping sign (q, -q), rotation keys of tiny length,
 * single-key tracks, key intervals at the document's minimum (2e-9 s).
 *
 * The law: a track the document accepts samples to finite values and
 * derivatives everywhere (at keys, between keys, before and after the range),
 * rotations to unit quaternions; and a SceneEvaluator over a document holding
 * it gives finite prop matrices and velocities. Failures are reported as the
 * seed, case and track, so each can become a repro.
 */
import { describe, expect, it } from 'vitest';
import { TrackSampler } from './track';
import { SceneEvaluator } from './evaluate';
import { createEmptyDocument, defaultCollision, defaultMaterial } from '../document/defaults';
import { boxMesh } from '../document/fixtures';
import { MAX_MAGNITUDE, MIN_KEY_INTERVAL_SEC, documentProblems } from '../document/validate';
import type { ImpulseDocument, Interpolation, Track, TrackPath } from '../document/types';
import { mulberry32 } from '../math/random';

const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1);

type Rand = () => number;

/** The next float64 above x (x finite). */
function nextUp(x: number): number {
  const b = new Float64Array([x]);
  const u = new BigInt64Array(b.buffer);
  if (x === 0) return Number.MIN_VALUE;
  u[0] += x > 0 ? 1n : -1n;
  return b[0];
}

function adversarialTrack(r: Rand): { track: Track; what: string } {
  const pick = (n: number) => Math.floor(r() * n);
  const path: TrackPath = (['translation', 'rotation', 'scale'] as const)[pick(3)];
  const interpolation: Interpolation = (['step', 'linear', 'cubic'] as const)[pick(3)];
  const n = 1 + pick(6);
  const spacing = pick(4); // 0 float64 steps, 1 the shortest the document allows, 2 normal, 3 huge
  const times: number[] = [];
  let t = [0, 1e-300, -5, 1e6][pick(4)];
  for (let k = 0; k < n; k++) {
    times.push(t);
    t = spacing === 0 ? nextUp(t) : spacing === 1 ? t + 2 * MIN_KEY_INTERVAL_SEC : spacing === 2 ? t + 0.01 + r() : t + 1e15;
  }
  const stride = path === 'rotation' ? 4 : 3;
  const groups = interpolation === 'cubic' ? 3 : 1;
  const mag = [1, 1e-6, 1e10, MAX_MAGNITUDE][pick(4)];
  const values: number[] = [];
  for (let k = 0; k < n; k++)
    for (let g = 0; g < groups; g++) {
      const isValue = groups === 1 || g === 1;
      if (path === 'rotation' && isValue) {
        const kind = pick(4);
        const len = [1, 1e-6, 1.0000001, 3][pick(4)];
        if (kind === 0 && k > 0) {
          // The previous key's value, negated (same rotation, opposite sign).
          const o = values.length - stride * groups;
          for (let c = 0; c < 4; c++) values.push(-values[o + c]);
        } else {
          const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
          const l = Math.hypot(...q) || 1;
          for (let c = 0; c < 4; c++) values.push((q[c] / l) * len);
        }
      } else for (let c = 0; c < stride; c++) values.push((r() * 2 - 1) * mag);
    }
  return {
    track: { target: { kind: 'prop', prop: 'p' }, path, interpolation, times, values },
    what: `${path} ${interpolation}, ${n} keys, spacing ${['1 ulp', '2e-9 s', 'normal', '1e15 s'][spacing]}, magnitude ${mag}`,
  };
}

function docWith(track: Track): ImpulseDocument {
  const doc = createEmptyDocument('fuzz');
  doc.props.push({
    id: 'p', name: 'p', transform: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }, mesh: boxMesh(0.5, 0.5, 0.5),
    material: defaultMaterial(), physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 }, collision: defaultCollision(),
  });
  doc.clips[0].tracks = [track];
  return doc;
}

function sampleTimes(times: number[], r: Rand): number[] {
  const out = [times[0] - 1, times[times.length - 1] + 1];
  for (let k = 0; k < times.length; k++) {
    out.push(times[k]);
    if (k > 0) out.push(times[k - 1] + (times[k] - times[k - 1]) * r(), (times[k] + times[k - 1]) / 2);
  }
  return out;
}

describe('TrackSampler / SceneEvaluator fuzzing with adversarial but valid tracks', () => {
  const tally = { valid: 0, refused: 0 };
  for (const [seed, count] of [[0xa1111, 400], [0xa2222, 400]] as const) {
    it(`${count} tracks, seed 0x${seed.toString(16)}: every track the document accepts samples finite, rotations unit`, () => {
      const r = mulberry32(seed);
      const failures: string[] = [];
      const out = new Float64Array(4), m = new Float64Array(16);
      const lin = { x: 0, y: 0, z: 0 }, ang = { x: 0, y: 0, z: 0 };
      for (let c = 0; c < count * FUZZ_SCALE; c++) {
        const { track, what } = adversarialTrack(r);
        const doc = docWith(track);
        if (documentProblems(doc, 1).length > 0) {
          tally.refused++;
          continue;
        }
        tally.valid++;
        const tag = `case ${c} (${what}; times ${JSON.stringify(track.times)})`;
        try {
          const s = new TrackSampler(track);
          const ev = new SceneEvaluator(doc);
          for (const t of sampleTimes(track.times, r)) {
            s.valueAt(t, out);
            const v = Array.from(out.subarray(0, s.stride));
            if (!v.every(Number.isFinite)) throw new Error(`valueAt(${t}) = ${v}`);
            if (s.stride === 4 && Math.abs(Math.hypot(...v) - 1) > 1e-9) throw new Error(`valueAt(${t}) not unit: ${v}`);
            s.derivativeAt(t, out);
            const d = Array.from(out.subarray(0, s.stride));
            if (!d.every(Number.isFinite)) throw new Error(`derivativeAt(${t}) = ${d}`);
            ev.propWorldMatrix(0, t, m);
            ev.propVelocity(0, t, lin, ang);
            if (![...m, lin.x, lin.y, lin.z, ang.x, ang.y, ang.z].every(Number.isFinite)) throw new Error(`prop matrix/velocity at ${t} not finite`);
          }
        } catch (e) {
          failures.push(`${tag}: ${(e as Error).name}: ${(e as Error).message}`);
        }
      }
      expect(failures, failures.slice(0, 12).join('\n')).toEqual([]);
    });
  }
  it('exercised both outcomes (the document accepted some tracks and refused others)', () => {
    expect(tally.valid).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(10);
  });
});
