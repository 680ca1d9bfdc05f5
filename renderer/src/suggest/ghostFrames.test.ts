import { describe, expect, it } from 'vitest';
import { liveSampleIndex, onionFrames } from './ghostFrames';

/** Deterministic xorshift so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

describe('liveSampleIndex', () => {
  it('picks the nearest sample (ties to the later one), -1 beyond half a frame outside: against a linear scan', () => {
    const r = rng(7);
    for (let trial = 0; trial < 400; trial++) {
      const n = 1 + Math.floor(r() * 12);
      const frames: number[] = [];
      let f = Math.floor(r() * 40) - 10;
      for (let i = 0; i < n; i++) {
        frames.push(f);
        f += 1 + Math.floor(r() * (r() < 0.7 ? 1 : 6));
      }
      for (let q = 0; q < 30; q++) {
        const playhead = frames[0] - 3 + r() * (frames[n - 1] - frames[0] + 6);
        let want = -1;
        if (playhead >= frames[0] - 0.5 && playhead <= frames[n - 1] + 0.5) {
          want = 0;
          for (let i = 1; i < n; i++) if (Math.abs(frames[i] - playhead) <= Math.abs(frames[want] - playhead)) want = i;
        }
        expect(liveSampleIndex(frames, playhead), `frames ${frames} playhead ${playhead}`).toBe(want);
      }
      // Integer playheads on samples land on them exactly.
      frames.forEach((fr, i) => expect(liveSampleIndex(frames, fr)).toBe(i));
    }
  });

  it('is -1 for no samples and for a NaN playhead', () => {
    expect(liveSampleIndex([], 3)).toBe(-1);
    expect(liveSampleIndex([1, 2, 3], Number.NaN)).toBe(-1);
  });
});

describe('onionFrames', () => {
  it('spreads at most maxCopies distinct, increasing indices over the range, first and last included', () => {
    for (let count = 1; count < 80; count++)
      for (let max = 2; max < 10; max++) {
        const c = onionFrames(count, max);
        expect(c.length).toBe(Math.min(count, max));
        expect(c[0]).toBe(0);
        expect(c[c.length - 1]).toBe(count - 1);
        for (let i = 1; i < c.length; i++) expect(c[i]).toBeGreaterThan(c[i - 1]);
      }
  });
});
