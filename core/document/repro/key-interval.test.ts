/**
 * Repro: keys closer than any real animation (one float64 step apart:
 * times [0, 5e-324] or [1e-300, 1.0000000000000002e-300]) passed validation,
 * and the exact derivative of the curve (the keyframed body's velocity) was
 * Infinity or NaN. Found by core/anim/track.fuzz.test.ts (seed 0xa1111,
 * e.g. case 246: translation linear, 2 keys 1 ulp apart). Keys must now be
 * at least MIN_KEY_INTERVAL_SEC apart; the importer says the same of glTF
 * sampler inputs.
 */
import { describe, expect, it } from 'vitest';
import { createEmptyDocument, defaultCollision, defaultMaterial } from '../defaults';
import { boxMesh } from '../fixtures';
import { MIN_KEY_INTERVAL_SEC, documentProblems } from '../validate';
import type { ImpulseDocument } from '../types';
import { SceneEvaluator } from '../../anim/evaluate';

function doc(times: number[]): ImpulseDocument {
  const d = createEmptyDocument('keys');
  d.props.push({
    id: 'p', name: 'p', transform: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }, mesh: boxMesh(0.5, 0.5, 0.5),
    material: defaultMaterial(), physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 }, collision: defaultCollision(),
  });
  d.clips[0].tracks = [{ target: { kind: 'prop', prop: 'p' }, path: 'translation', interpolation: 'linear', times, values: [0, 0, 0, 1e10, 0, 0] }];
  return d;
}

describe('repro: keys closer than MIN_KEY_INTERVAL_SEC', () => {
  for (const times of [[0, 5e-324], [1e-300, 1.0000000000000002e-300], [1, 1 + 1e-12]]) {
    it(`times ${JSON.stringify(times)} are refused at times[1]`, () => {
      const problems = documentProblems(doc(times));
      expect(problems.map((p) => p.path)).toEqual(['clips[0].tracks[0].times[1]']);
      expect(problems[0].detail).toMatch(/at least 1e-9 s apart/);
    });
  }

  it(`keys ${2 * MIN_KEY_INTERVAL_SEC} s apart are accepted and their velocity is finite`, () => {
    const d = doc([0, 2 * MIN_KEY_INTERVAL_SEC]);
    expect(documentProblems(d)).toEqual([]);
    const lin = { x: 0, y: 0, z: 0 }, ang = { x: 0, y: 0, z: 0 };
    new SceneEvaluator(d).propVelocity(0, MIN_KEY_INTERVAL_SEC, lin, ang);
    expect(lin.x, 'slope 1e10 m / 2e-9 s').toBeCloseTo(5e18, -6);
    expect(Number.isFinite(lin.x)).toBe(true);
  });
});
