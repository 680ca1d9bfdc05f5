/**
 * Findings and bands from seeded random per-frame contacts, compared with the
 * obvious per-frame answers: a frame is in a band exactly when some visible
 * contact touches it; each finding is a maximal run of one pair.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../core/document/fixtures';
import type { IgnoreRule } from '../../../core/document/types';
import type { ContactSide, FrameCheck, FrameContact } from '../workers/protocol';
import { buildFindings, computeBands, findingMeta, findingsInPanelOrder, groupFindings, isIgnored, stepFindingFrom, pairKey, ruleForFinding, ruleMatches, visibleFindings, type Finding } from './findings';

const SIDES: ContactSide[] = [
  { object: 'hero', joint: 2, label: 'Spine' },
  { object: 'hero', joint: 7, label: 'LeftHand' },
  { object: 'hero', joint: 9, label: 'RightHand' },
  { object: 'bat', label: 'Bat' },
  { object: 'ball', label: 'Ball' },
  { object: 'table', label: 'Table' },
];

function randomFrames(seed: number, frames: number): FrameCheck[] {
  const r = mulberry32(seed);
  const out: FrameCheck[] = [];
  // A few pairs that switch on and off in runs.
  const on = new Map<string, boolean>();
  for (let f = 0; f < frames; f++) {
    const contacts: FrameContact[] = [];
    for (let i = 0; i < SIDES.length; i++)
      for (let j = i + 1; j < SIDES.length; j++) {
        const k = `${i}-${j}`;
        const cur = on.get(k) ?? false;
        const next = cur ? r() < 0.8 : r() < 0.03;
        on.set(k, next);
        if (!next) continue;
        const n = 1 + Math.floor(r() * 2);
        for (let c = 0; c < n; c++) {
          const swap = r() < 0.5;
          contacts.push({
            a: swap ? SIDES[j] : SIDES[i],
            b: swap ? SIDES[i] : SIDES[j],
            kind: r() < 0.3 ? 'ccd' : 'intersect',
            depth: r() * 0.05,
            point: [r(), r(), r()],
            normal: [0, 1, 0],
            firstContactTimeSec: r() < 0.3 ? (f - r()) / 30 : null,
          });
        }
      }
    out.push({ frame: f, contacts });
  }
  return out;
}

describe('findings', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`are the maximal per-pair runs of frames, with the deepest contact (seed ${seed})`, () => {
      const frames = randomFrames(seed, 120);
      const findings = buildFindings(frames, 30);
      // Reference: per pair, the set of frames.
      const ref = new Map<string, Map<number, number>>();
      for (const fc of frames)
        for (const c of fc.contacts) {
          const k = pairKey(c.a, c.b);
          let m = ref.get(k);
          if (!m) ref.set(k, (m = new Map()));
          m.set(fc.frame, Math.max(m.get(fc.frame) ?? -1, c.depth));
        }
      for (const [k, m] of ref) {
        const mine = findings.filter((f) => f.pair === k);
        const covered = new Set<number>();
        for (const f of mine) {
          for (let x = f.startFrame; x <= f.endFrame; x++) {
            expect(m.has(x), `finding ${f.id} covers frame ${x} with no contact`).toBe(true);
            expect(covered.has(x), `frame ${x} in two findings of ${k}`).toBe(false);
            covered.add(x);
          }
          expect(m.has(f.startFrame - 1), 'run is maximal at its start').toBe(false);
          expect(m.has(f.endFrame + 1), 'run is maximal at its end').toBe(false);
          let deepest = -1;
          for (let x = f.startFrame; x <= f.endFrame; x++) deepest = Math.max(deepest, m.get(x)!);
          expect(f.maxDepth).toBe(deepest);
          expect(m.get(f.maxDepthFrame)).toBe(deepest);
          expect(f.firstContactTimeSec).toBeLessThanOrEqual(f.startFrame / 30 + 1e-12);
          expect(f.firstContactTimeSec).toBeGreaterThan((f.startFrame - 1) / 30 - 1e-12);
        }
        expect(covered.size).toBe(m.size);
      }
    });

    it(`bands are exactly the frames with a visible contact (seed ${seed})`, () => {
      const frames = randomFrames(seed + 100, 150);
      const rules: IgnoreRule[] = [{ a: { object: 'bat' }, b: { object: 'hero', joint: 7 } }, { a: { object: 'table' }, b: { object: 'hero' } }];
      const bands = computeBands(visibleFindings(buildFindings(frames, 30), rules));
      const expected = new Set<number>();
      for (const fc of frames) if (fc.contacts.some((c) => !isIgnored(rules, c.a, c.b))) expected.add(fc.frame);
      const got = new Set<number>();
      for (let i = 0; i < bands.length; i++) {
        const b = bands[i];
        expect(b.to).toBeGreaterThanOrEqual(b.from);
        if (i > 0) expect(b.from, 'bands are separated by at least one clean frame').toBeGreaterThan(bands[i - 1].to + 1);
        for (let f = b.from; f <= b.to; f++) got.add(f);
      }
      expect([...got].sort((x, y) => x - y)).toEqual([...expected].sort((x, y) => x - y));
    });
  }
});

describe('ignore rules', () => {
  const hand: ContactSide = { object: 'hero', joint: 7, label: 'LeftHand' };
  const spine: ContactSide = { object: 'hero', joint: 2, label: 'Spine' };
  const bat: ContactSide = { object: 'bat', label: 'Bat' };
  it('match in either order; a rule without a joint covers every part of the object', () => {
    expect(ruleMatches({ a: { object: 'bat' }, b: { object: 'hero', joint: 7 } }, hand, bat)).toBe(true);
    expect(ruleMatches({ a: { object: 'bat' }, b: { object: 'hero', joint: 7 } }, bat, hand)).toBe(true);
    expect(ruleMatches({ a: { object: 'bat' }, b: { object: 'hero', joint: 7 } }, bat, spine)).toBe(false);
    expect(ruleMatches({ a: { object: 'hero' }, b: { object: 'bat' } }, spine, bat)).toBe(true);
    expect(ruleMatches({ a: { object: 'hero' }, b: { object: 'hero' } }, spine, hand), 'self-collision group rule').toBe(true);
  });
  it('the rules made from a finding cover it (pair) or its objects (group)', () => {
    const f = buildFindings([{ frame: 4, contacts: [{ a: hand, b: bat, kind: 'intersect', depth: 0.01, point: [0, 0, 0], normal: [0, 1, 0], firstContactTimeSec: null }] }], 30)[0];
    const pair = ruleForFinding(f, false);
    const group = ruleForFinding(f, true);
    expect(ruleMatches(pair, hand, bat)).toBe(true);
    expect(ruleMatches(pair, spine, bat)).toBe(false);
    expect(ruleMatches(group, spine, bat)).toBe(true);
  });
});

describe('the line under a finding', () => {
  const base = (over: Partial<Finding>): Finding => ({
    id: 'x',
    pair: 'bat|table',
    a: { object: 'bat', label: 'Bat' },
    b: { object: 'table', label: 'Table' },
    startFrame: 36,
    endFrame: 36,
    firstContactTimeSec: 35.9 / 30,
    maxDepth: 0.003,
    maxDepthFrame: 36,
    point: [0, 0, 0],
    normal: [0, 1, 0],
    kinds: ['intersect'],
    ...over,
  });

  it('an overlap: frames, first contact, deepest penetration in cm and where', () => {
    expect(findingMeta(base({}), 30)).toBe('frames 36 · first contact 35.9 · max 0.3 cm @ 36 · intersect');
    expect(findingMeta(base({ endFrame: 39 }), 30)).toBe('frames 36–39 · first contact 35.9 · max 0.3 cm @ 36 · intersect');
  });

  it('a pass-through between frames (the sample bat through the table, 38.1 to 39) names both frames, not a 0.0 cm depth', () => {
    const text = findingMeta(base({ startFrame: 39, endFrame: 39, firstContactTimeSec: 38.1 / 30, maxDepth: 0, maxDepthFrame: 39, kinds: ['tunnel'] }), 30);
    expect(text).toBe('passes through between frames 38 and 39 (first contact 38.1), no overlap on a frame · tunnel');
    expect(text).not.toMatch(/0\.0 cm/);
  });
});

describe('stepping through findings ([ and ])', () => {
  const f = (id: string, a: string, b: string, start: number, deepest: number): Finding => ({
    id,
    pair: `${a}|${b}`,
    a: { object: a, label: a },
    b: { object: b, label: b },
    startFrame: start,
    endFrame: deepest + 2,
    firstContactTimeSec: start / 30,
    maxDepth: 0.01,
    maxDepthFrame: deepest,
    point: [0, 0, 0],
    normal: [0, 1, 0],
    kinds: ['intersect'],
  });
  // Panel order: groups by their first frame (bat|ball from 5, then hero|table from 8), each group's findings in order.
  const list = [f('t1', 'hero', 'table', 8, 9), f('b1', 'bat', 'ball', 5, 6), f('t2', 'hero', 'table', 30, 31), f('b2', 'bat', 'ball', 20, 22)];
  const ordered = findingsInPanelOrder(list);

  it('follows the panel order (the groups the panel lists), and every finding is visited once per round', () => {
    expect(groupFindings(list).map((g) => g.key)).toEqual(['bat|ball', 'hero|table']);
    expect(ordered.map((x) => x.id)).toEqual(['b1', 'b2', 't1', 't2']);
    const seen: string[] = [];
    let cur: string | null = 'b1';
    for (let i = 0; i < ordered.length; i++) seen.push((cur = stepFindingFrom(ordered, cur, 1, 0)!.id));
    expect(seen).toEqual(['b2', 't1', 't2', 'b1']);
    expect(stepFindingFrom(ordered, 'b1', -1, 0)!.id, 'wraps backwards').toBe('t2');
  });

  it('with none selected, starts from the playhead: the next deepest frame at or after it, the previous one before it', () => {
    expect(stepFindingFrom(ordered, null, 1, 10)!.id).toBe('b2');
    expect(stepFindingFrom(ordered, null, 1, 22)!.id).toBe('b2');
    expect(stepFindingFrom(ordered, null, -1, 22)!.id).toBe('t1');
    expect(stepFindingFrom(ordered, 'gone', 1, 40)!.id, 'past the last: the first').toBe('b1');
    expect(stepFindingFrom(ordered, null, -1, 0)!.id, 'before the first: the last').toBe('t2');
    expect(stepFindingFrom([], null, 1, 0)).toBeNull();
  });
});
