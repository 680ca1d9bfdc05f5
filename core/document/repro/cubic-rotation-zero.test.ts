/**
 * Repro: a cubic rotation from q to -q with zero tangents passed validation,
 * and only sampling it at the middle threw `TrackError: cubic rotation
 * spline passes through zero` (in check or bake, long after loading). The
 * document now refuses it at load, naming the track and the keys: the
 * segment's unnormalised spline reaching the zero quaternion is decided
 * exactly (core/anim/quatSpline.ts).
 */
import { describe, expect, it } from 'vitest';
import { createEmptyDocument, defaultCollision, defaultMaterial } from '../defaults';
import { boxMesh } from '../fixtures';
import { documentProblems } from '../validate';
import { parseDocument } from '../parse';
import { serializeDocument } from '../serialize';
import { DocumentError } from '../errors';
import type { ImpulseDocument } from '../types';
import { TrackSampler } from '../../anim/track';

function doc(values: number[], times = [0, 1]): ImpulseDocument {
  const d = createEmptyDocument('flip');
  d.props.push({
    id: 'p', name: 'p', transform: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }, mesh: boxMesh(0.5, 0.5, 0.5),
    material: defaultMaterial(), physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.5 }, collision: defaultCollision(),
  });
  d.clips[0].tracks = [{ target: { kind: 'prop', prop: 'p' }, path: 'rotation', interpolation: 'cubic', times, values }];
  return d;
}

const Z = [0, 0, 0, 0];
const q = [0.5, 0.5, 0.5, 0.5];
const minusQ = q.map((x) => -x);

describe('repro: cubic rotation through the zero quaternion', () => {
  it('q to -q with zero tangents: the sampler throws at the middle, and parseDocument now refuses the document naming track and keys', () => {
    const d = doc([...Z, ...q, ...Z, ...Z, ...minusQ, ...Z]);
    expect(() => new TrackSampler(d.clips[0].tracks[0]).valueAt(0.5, new Float64Array(4)), 'the curve has no orientation at 0.5 s').toThrow(/passes through zero/);
    const problems = documentProblems(d);
    expect(problems.map((p) => p.path)).toEqual(['clips[0].tracks[0].values[0]']);
    expect(problems[0].detail).toMatch(/between keys 0 and 1 .*zero quaternion/);
    expect(() => parseDocument(serializeDocument(d))).toThrow(DocumentError);
    expect(() => parseDocument(serializeDocument(d))).toThrow(/clips\[0\]\.tracks\[0\]\.values\[0\]: cubic rotation between keys 0 and 1/);
  });

  it('the same segment later in a track is named by its keys', () => {
    const r = [0, 0, 0, 1];
    const d = doc([...Z, ...r, ...Z, ...Z, ...q, ...Z, ...Z, ...minusQ, ...Z], [0, 1, 1.5]);
    expect(documentProblems(d).map((p) => `${p.path}: ${p.detail}`)).toEqual([expect.stringMatching(/^clips\[0\]\.tracks\[0\]\.values\[12\]: cubic rotation between keys 1 and 2 \(1 s to 1.5 s\)/)]);
  });

  it('q to -q with a sideways tangent, and q to q, are accepted and sample finite unit quaternions', () => {
    for (const values of [[...Z, ...q, ...[1, 0, 0, 0], ...Z, ...minusQ, ...Z], [...Z, ...q, ...Z, ...Z, ...q, ...Z]]) {
      const d = doc(values);
      expect(documentProblems(d)).toEqual([]);
      const s = new TrackSampler(d.clips[0].tracks[0]);
      const out = new Float64Array(4);
      for (let k = 0; k <= 100; k++) {
        s.valueAt(k / 100, out);
        expect(Math.hypot(...out), `unit at ${k / 100} s`).toBeCloseTo(1, 12);
      }
    }
  });
});
