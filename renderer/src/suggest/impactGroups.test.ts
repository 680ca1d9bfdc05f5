import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../core/document/fixtures';
import type { SuggestImpact } from '../workers/protocol';
import { groupImpacts } from './impactGroups';

const FPS = 30;
function impact(frame: number, a: string, b: string, impulse: number, parts: [string, string] = ['', '']): SuggestImpact {
  return { timeSec: frame / FPS, frame: Math.floor(frame), a, b, parts, impulse, approachSpeed: 1 };
}

describe('groupImpacts', () => {
  it('keeps separate impacts separate and merges a run between the same parts', () => {
    const g = groupImpacts(
      [impact(10, 'ball', 'bat', 1.5), impact(12.4, 'box', 'ground', 2), impact(30, 'rag', 'bat', 0.2, ['LeftForeArm', '']), impact(30.5, 'rag', 'bat', 3, ['LeftForeArm', '']), impact(31.2, 'rag', 'bat', 0.1, ['LeftForeArm', '']), impact(31.3, 'rag', 'bat', 9, ['Head', ''])],
      FPS,
    );
    expect(g.map((x) => [x.a, x.parts[0], x.b, x.count, ...[x.firstFrame, x.lastFrame].map((f) => Math.round(f * 1e9) / 1e9), x.peakImpulse, Math.round(x.peakFrame * 1e9) / 1e9])).toEqual([
      ['ball', '', 'bat', 1, 10, 10, 1.5, 10],
      ['box', '', 'ground', 1, 12.4, 12.4, 2, 12.4],
      ['rag', 'LeftForeArm', 'bat', 3, 30, 31.2, 3, 30.5],
      ['rag', 'Head', 'bat', 1, 31.3, 31.3, 9, 31.3],
    ]);
  });

  it('a gap of a frame or more starts a new run', () => {
    const g = groupImpacts([impact(5, 'box', 'ground', 1), impact(6, 'box', 'ground', 1), impact(6.9, 'box', 'ground', 1)], FPS);
    expect(g.map((x) => [x.firstFrame, x.count])).toEqual([[5, 1], [6, 2]]);
  });

  it('seeded: every impact lands in exactly one run of its pair, runs hold the brute-force gap rule, any input order', () => {
    const rand = mulberry32(5);
    const pairs: [string, string, [string, string]][] = [['rag', 'bat', ['LeftForeArm', '']], ['rag', 'bat', ['Head', '']], ['box', 'ground', ['', '']], ['rag', 'table', ['Hips', '']]];
    for (let trial = 0; trial < 50; trial++) {
      const ims: SuggestImpact[] = [];
      const n = 1 + Math.floor(rand() * 60);
      for (let i = 0; i < n; i++) {
        const [a, b, parts] = pairs[Math.floor(rand() * pairs.length)];
        ims.push(impact(rand() * 60, a, b, rand() * 5, parts));
      }
      const shuffled = [...ims].sort(() => rand() - 0.5);
      const g = groupImpacts(shuffled, FPS);
      expect(g.reduce((s, x) => s + x.count, 0)).toBe(n);
      for (let k = 1; k < g.length; k++) expect(g[k].firstFrame).toBeGreaterThanOrEqual(g[k - 1].firstFrame);
      for (const [a, b, parts] of pairs) {
        // brute force: sort this pair's frames, cut where the gap is 1 frame or more
        const frames = ims.filter((im) => im.a === a && im.b === b && im.parts[0] === parts[0]).map((im) => im.timeSec * FPS).sort((x, y) => x - y);
        const runs: number[][] = [];
        for (const f of frames) {
          if (runs.length && f - runs[runs.length - 1][runs[runs.length - 1].length - 1] < 1) runs[runs.length - 1].push(f);
          else runs.push([f]);
        }
        const mine = g.filter((x) => x.a === a && x.b === b && x.parts[0] === parts[0]);
        expect(mine.map((x) => [x.firstFrame, x.lastFrame, x.count])).toEqual(runs.map((r) => [r[0], r[r.length - 1], r.length]));
        for (const x of mine) {
          const inRun = ims.filter((im) => im.a === a && im.b === b && im.parts[0] === parts[0] && im.timeSec * FPS >= x.firstFrame && im.timeSec * FPS <= x.lastFrame);
          expect(x.peakImpulse).toBe(Math.max(...inRun.map((im) => im.impulse)));
        }
      }
    }
  });
});
