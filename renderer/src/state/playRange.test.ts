import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test/random';
import { advancePlayhead, makePlayRange, playBounds, rangeOf, withRange } from './playRange';

const clip = { id: 'c', startFrame: 0, endFrame: 60 };

describe('play range', () => {
  it('bounds: the range set on this clip, cut to Start–End; another clip\'s range or an empty one is ignored', () => {
    expect(playBounds(clip, [])).toEqual({ from: 0, to: 60, limited: false });
    expect(playBounds(clip, [{ clipId: 'c', from: 20, to: 40 }])).toEqual({ from: 20, to: 40, limited: true });
    expect(playBounds(clip, [{ clipId: 'other', from: 20, to: 40 }]).limited).toBe(false);
    expect(playBounds(clip, [{ clipId: 'other', from: 2, to: 4 }, { clipId: 'c', from: 20, to: 40 }])).toEqual({ from: 20, to: 40, limited: true });
    expect(playBounds(clip, [{ clipId: 'c', from: -10, to: 80 }])).toEqual({ from: 0, to: 60, limited: true });
    expect(playBounds({ ...clip, endFrame: 15 }, [{ clipId: 'c', from: 20, to: 40 }]).limited, 'End typed below the range').toBe(false);
  });

  it('each clip keeps its own range: setting one replaces only that clip\'s, clearing removes only it', () => {
    let rs = withRange([], 'a', { clipId: 'a', from: 1, to: 5 });
    rs = withRange(rs, 'b', { clipId: 'b', from: 10, to: 20 });
    expect(rangeOf(rs, 'a')).toEqual({ clipId: 'a', from: 1, to: 5 });
    rs = withRange(rs, 'a', { clipId: 'a', from: 2, to: 6 });
    expect(rs).toEqual([{ clipId: 'b', from: 10, to: 20 }, { clipId: 'a', from: 2, to: 6 }]);
    rs = withRange(rs, 'b', null);
    expect(rs).toEqual([{ clipId: 'a', from: 2, to: 6 }]);
    expect(rangeOf(rs, 'b')).toBeNull();
    expect(rangeOf(rs, undefined)).toBeNull();
  });

  it('made from two frames in either order, whole frames, at least two frames, inside the clip', () => {
    expect(makePlayRange(clip, 40, 20)).toEqual({ clipId: 'c', from: 20, to: 40 });
    expect(makePlayRange(clip, 20.4, 39.6)).toEqual({ clipId: 'c', from: 20, to: 40 });
    expect(makePlayRange(clip, 20, 20)).toBeNull();
    expect(makePlayRange(clip, -5, 100)).toEqual({ clipId: 'c', from: 0, to: 60 });
  });

  it('playback: loops inside the bounds keeping the overshoot, stops on the last frame without loop, enters from the first', () => {
    const b = { from: 20, to: 40 };
    expect(advancePlayhead(39.5, 1 / 30, 30, b, true).frame).toBeCloseTo(20.5, 12);
    expect(advancePlayhead(39.5, 1 / 30, 30, b, false)).toEqual({ frame: 40, stop: true });
    expect(advancePlayhead(5, 1 / 30, 30, b, true).frame, 'outside: from the first frame').toBeCloseTo(21, 12);
    expect(advancePlayhead(50, 1 / 30, 30, b, true).frame).toBeCloseTo(21, 12);
    // A long hitch advances at most 0.1 s (3 frames at 30 fps), as before.
    expect(advancePlayhead(22, 5, 30, b, true).frame).toBeCloseTo(25, 12);
  });

  it('seeded: looping playback never leaves the bounds and advances by dt·fps modulo the span', () => {
    const rnd = mulberry32(7);
    for (let n = 0; n < 2000; n++) {
      const from = Math.floor(rnd() * 50), to = from + 1 + Math.floor(rnd() * 30);
      const f = from + rnd() * (to - from), dt = rnd() * 0.1, fps = [24, 30, 60][n % 3];
      const r = advancePlayhead(f, dt, fps, { from, to }, true);
      expect(r.stop).toBe(false);
      expect(r.frame).toBeGreaterThanOrEqual(from);
      expect(r.frame).toBeLessThanOrEqual(to);
      const moved = (((r.frame - f) % (to - from)) + (to - from)) % (to - from);
      const want = (dt * fps) % (to - from);
      expect(Math.min(Math.abs(moved - want), to - from - Math.abs(moved - want))).toBeLessThan(1e-9);
    }
  });
});
