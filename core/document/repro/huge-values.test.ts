/**
 * Repro: parseDocument accepted finite but absurd numbers that overflow
 * later. Found by the document fuzz test (case: a prop translation key of
 * -1e308 in bat-and-ball.impulse was accepted, and the prop's velocity from
 * SceneEvaluator was -Infinity/NaN). Likewise a clip of 1e15 frames was
 * accepted (impulse check and bake would step through it for ever) and a
 * frame rate of 1e-300 turns frames into infinite times. Now each is a
 * DocumentError naming the value.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DocumentError } from '../errors';
import { parseDocument } from '../parse';
import { MAX_CLIP_FRAMES, MAX_MAGNITUDE } from '../validate';
import { SceneEvaluator } from '../../anim/evaluate';

/* eslint-disable @typescript-eslint/no-explicit-any */
const SAMPLE: any = JSON.parse(readFileSync(new URL('../../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));

function refusal(mutate: (d: any) => void): DocumentError {
  const d = structuredClone(SAMPLE);
  mutate(d);
  let caught: unknown = null;
  try {
    parseDocument(JSON.stringify(d));
  } catch (e) {
    caught = e;
  }
  expect(caught, 'the document must be refused').toBeInstanceOf(DocumentError);
  return caught as DocumentError;
}

const propTrack = (d: any): [number, number] => {
  const ci = d.clips.findIndex((c: any) => c.tracks.some((t: any) => t.target.kind === 'prop' && t.path === 'translation'));
  return [ci, d.clips[ci].tracks.findIndex((t: any) => t.target.kind === 'prop' && t.path === 'translation')];
};

describe('repro: finite but overflowing numbers in a document', () => {
  it('the unmutated prop track evaluates to a finite velocity (the baseline)', () => {
    const doc = parseDocument(JSON.stringify(SAMPLE));
    const [ci, ti] = propTrack(SAMPLE);
    const prop = doc.props.findIndex((p) => p.id === (doc.clips[ci].tracks[ti].target as { prop: string }).prop);
    const lin = { x: 0, y: 0, z: 0 }, ang = { x: 0, y: 0, z: 0 };
    new SceneEvaluator(doc, doc.clips[ci].id).propVelocity(prop, doc.clips[ci].tracks[ti].times[0], lin, ang);
    expect([lin.x, lin.y, lin.z].every(Number.isFinite)).toBe(true);
  });

  it('a prop translation key of -1e308 is refused at its values index', () => {
    const [ci, ti] = propTrack(SAMPLE);
    const err = refusal((d) => (d.clips[ci].tracks[ti].values[1] = -1e308));
    expect(err.path).toBe(`clips[${ci}].tracks[${ti}].values[1]`);
    expect(err.detail).toMatch(/out of range/);
  });

  it(`values up to ${MAX_MAGNITUDE} are still accepted`, () => {
    const [ci, ti] = propTrack(SAMPLE);
    const d = structuredClone(SAMPLE);
    d.clips[ci].tracks[ti].values[1] = -MAX_MAGNITUDE;
    expect(() => parseDocument(JSON.stringify(d))).not.toThrow();
  });

  it('a key time of 1e300 s, gravity 1e300, massKg 1e300 are refused where they are', () => {
    const [ci, ti] = propTrack(SAMPLE);
    const n = SAMPLE.clips[ci].tracks[ti].times.length;
    expect(refusal((d) => (d.clips[ci].tracks[ti].times[n - 1] = 1e300)).path).toBe(`clips[${ci}].tracks[${ti}].times[${n - 1}]`);
    expect(refusal((d) => (d.gravity[1] = -1e300)).path).toBe('gravity[1]');
    expect(
      refusal((d) => {
        delete d.props[0].physics.densityKgPerM3;
        d.props[0].physics.massKg = 1e300;
      }).path,
    ).toBe('props[0].physics.massKg');
  });

  it(`a clip longer than ${MAX_CLIP_FRAMES} frames, and a frame rate of 1e-300, are refused`, () => {
    const err = refusal((d) => (d.clips[0].endFrame = 1e15));
    expect(err.path).toBe('clips[0].endFrame');
    expect(err.detail).toMatch(/frames long/);
    expect(refusal((d) => (d.clips[0].frameRate = 1e-300)).path).toBe('clips[0].frameRate');
  });
});
