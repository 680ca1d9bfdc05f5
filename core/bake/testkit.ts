/**
 * Test helpers for the bake (imported by tests only).
 */
import type { ImpulseDocument } from '../document/types';
import { float32Down, keyFollows } from './time32';

/**
 * What a baked file is compared with on its float32 time axis: the document
 * with every stepped key moved to the float32 at or below its time relative
 * to `startSec` (where the bake writes a stepped key's jump, see bake.ts), and
 * keys that then do not follow each other merged, the later value winning.
 * Linear and cubic tracks are unchanged (the bake measures them at float32
 * times as they are).
 */
export function float32StepReference(doc: ImpulseDocument, startSec: number): ImpulseDocument {
  const ref: ImpulseDocument = structuredClone(doc);
  for (const clip of ref.clips)
    for (const tr of clip.tracks) {
      if (tr.interpolation !== 'step') continue;
      const stride = tr.path === 'rotation' ? 4 : 3;
      const rel: number[] = [], times: number[] = [], values: number[] = [];
      tr.times.forEach((t, k) => {
        const d = t - startSec;
        const r = d >= 0 ? float32Down(d) : d;
        if (rel.length && r >= 0 && !keyFollows(rel[rel.length - 1], r)) values.length -= stride;
        else {
          rel.push(r);
          times.push(d >= 0 ? startSec + r : t);
        }
        for (let c = 0; c < stride; c++) values.push(tr.values[k * stride + c]);
      });
      // Before its first key a track holds the first key's value: keep that when the first key was merged into.
      if (tr.times[0] >= startSec) {
        times.unshift(Math.min(tr.times[0], startSec) - 1);
        values.unshift(...tr.values.slice(0, stride));
      }
      tr.times = times;
      tr.values = values;
    }
  return ref;
}
