/**
 * From per-frame contacts to what the animator sees: findings (one per pair
 * of parts and run of consecutive frames), ignore-rule filtering, and the red
 * bands of the timeline. Pure functions over plain data (no React, no three).
 */
import type { IgnoreRule, PartRef } from '../../../core/document/types';
import type { ContactSide, FrameCheck, FrameContact } from '../workers/protocol';

export interface Finding {
  /** Stable id: pair key and first frame. */
  id: string;
  /** Pair key (sides in canonical order). */
  pair: string;
  a: ContactSide;
  b: ContactSide;
  startFrame: number;
  endFrame: number;
  /** First moment of contact in seconds (sub-frame when the checker found it between frames). */
  firstContactTimeSec: number;
  maxDepth: number;
  maxDepthFrame: number;
  /** Contact point and normal at the deepest frame. */
  point: [number, number, number];
  normal: [number, number, number];
  kinds: string[];
}

export interface Band {
  from: number;
  to: number;
  maxDepth: number;
  count: number;
}

const sideKey = (s: ContactSide): string => (s.joint === undefined ? s.object : `${s.object}#${s.joint}`);

/** Key of an unordered pair of parts. */
export function pairKey(a: ContactSide, b: ContactSide): string {
  const ka = sideKey(a), kb = sideKey(b);
  return ka <= kb ? `${ka}|${kb}` : `${kb}|${ka}`;
}

function ordered(c: FrameContact): [ContactSide, ContactSide] {
  return sideKey(c.a) <= sideKey(c.b) ? [c.a, c.b] : [c.b, c.a];
}

/**
 * Groups per-frame contacts into findings: one per pair of parts and maximal
 * run of consecutive checked frames where the pair touches. Several contacts
 * of one pair in one frame count as one (the deepest).
 */
export function buildFindings(frames: Iterable<FrameCheck>, frameRate: number): Finding[] {
  const byPair = new Map<string, { a: ContactSide; b: ContactSide; frames: Map<number, FrameContact> }>();
  for (const fc of frames) {
    for (const c of fc.contacts) {
      const key = pairKey(c.a, c.b);
      let e = byPair.get(key);
      if (!e) {
        const [a, b] = ordered(c);
        byPair.set(key, (e = { a, b, frames: new Map() }));
      }
      const cur = e.frames.get(fc.frame);
      if (!cur || c.depth > cur.depth || (cur.firstContactTimeSec === null && c.firstContactTimeSec !== null && c.depth === cur.depth)) {
        // Keep the earliest sub-frame contact time seen in this frame either way.
        const t = minTime(cur?.firstContactTimeSec ?? null, c.firstContactTimeSec);
        e.frames.set(fc.frame, { ...c, firstContactTimeSec: t });
      } else if (c.firstContactTimeSec !== null) {
        e.frames.set(fc.frame, { ...cur, firstContactTimeSec: minTime(cur.firstContactTimeSec, c.firstContactTimeSec) });
      }
    }
  }
  const out: Finding[] = [];
  for (const [pair, e] of byPair) {
    const frameList = [...e.frames.keys()].sort((x, y) => x - y);
    let runStart = 0;
    for (let i = 1; i <= frameList.length; i++) {
      if (i < frameList.length && frameList[i] === frameList[i - 1] + 1) continue;
      const run = frameList.slice(runStart, i);
      runStart = i;
      let worst = e.frames.get(run[0])!;
      let worstFrame = run[0];
      const kinds = new Set<string>();
      for (const f of run) {
        const c = e.frames.get(f)!;
        kinds.add(c.kind);
        if (c.depth > worst.depth) {
          worst = c;
          worstFrame = f;
        }
      }
      const first = e.frames.get(run[0])!;
      out.push({
        id: `${pair}@${run[0]}`,
        pair,
        a: e.a,
        b: e.b,
        startFrame: run[0],
        endFrame: run[run.length - 1],
        firstContactTimeSec: first.firstContactTimeSec ?? run[0] / frameRate,
        maxDepth: worst.depth,
        maxDepthFrame: worstFrame,
        point: worst.point,
        normal: worst.normal,
        kinds: [...kinds].sort(),
      });
    }
  }
  out.sort((x, y) => x.startFrame - y.startFrame || y.maxDepth - x.maxDepth || x.pair.localeCompare(y.pair));
  return out;
}

function minTime(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

function refMatches(r: PartRef, s: ContactSide): boolean {
  return r.object === s.object && (r.joint === undefined || r.joint === s.joint);
}

/** Whether an ignore rule covers this pair of parts (in either order; a rule without a joint covers the whole object). */
export function ruleMatches(rule: IgnoreRule, a: ContactSide, b: ContactSide): boolean {
  return (refMatches(rule.a, a) && refMatches(rule.b, b)) || (refMatches(rule.a, b) && refMatches(rule.b, a));
}

export function isIgnored(rules: readonly IgnoreRule[], a: ContactSide, b: ContactSide): boolean {
  for (const r of rules) if (ruleMatches(r, a, b)) return true;
  return false;
}

export function visibleFindings(findings: readonly Finding[], rules: readonly IgnoreRule[]): Finding[] {
  return findings.filter((f) => !isIgnored(rules, f.a, f.b));
}

/** The rule "ignore this pair of parts" (joint-level) or, with `wholeObjects`, "ignore these two objects". */
export function ruleForFinding(f: Finding, wholeObjects: boolean): IgnoreRule {
  const ref = (s: ContactSide): PartRef => (wholeObjects || s.joint === undefined ? { object: s.object } : { object: s.object, joint: s.joint });
  const label = wholeObjects ? `${objectLabel(f.a)} / ${objectLabel(f.b)}` : `${f.a.label} / ${f.b.label}`;
  return { a: ref(f.a), b: ref(f.b), note: `ignored from the findings panel (${label})` };
}

function objectLabel(s: ContactSide): string {
  return s.joint === undefined ? s.label : s.object;
}

/**
 * Timeline bands: the union of the findings' frame ranges, merged where they
 * overlap or touch, each with the deepest penetration and the number of
 * findings it covers.
 */
export function computeBands(findings: readonly Finding[]): Band[] {
  const sorted = [...findings].sort((x, y) => x.startFrame - y.startFrame);
  const out: Band[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (last && f.startFrame <= last.to + 1) {
      last.to = Math.max(last.to, f.endFrame);
      last.maxDepth = Math.max(last.maxDepth, f.maxDepth);
      last.count++;
    } else out.push({ from: f.startFrame, to: f.endFrame, maxDepth: f.maxDepth, count: 1 });
  }
  return out;
}

/**
 * The finding's line under its pair of parts: frames, first contact, deepest
 * penetration and kinds. A pass-through found only between frames (a tunnel:
 * no overlap on any frame) has no depth to show; it said "max 0.0 cm @ 39",
 * which reads as a graze on frame 39, where nothing touches.
 */
export function findingMeta(f: Finding, frameRate: number): string {
  const first = f.firstContactTimeSec * frameRate;
  const kinds = f.kinds.length ? ` · ${f.kinds.join(', ')}` : '';
  if (f.maxDepth === 0 && f.kinds.length > 0 && f.kinds.every((k) => k === 'tunnel')) {
    const before = Math.min(Math.floor(first + 1e-9), f.startFrame - 1);
    return `passes through between frames ${before} and ${f.endFrame} (first contact ${first.toFixed(1)}), no overlap on a frame${kinds}`;
  }
  const frames = `frames ${f.startFrame}${f.endFrame !== f.startFrame ? `–${f.endFrame}` : ''}`;
  return `${frames} · first contact ${first.toFixed(1)} · max ${(f.maxDepth * 100).toFixed(1)} cm @ ${f.maxDepthFrame}${kinds}`;
}

/** Findings of one pair of objects, as the findings panel lists them. */
export interface FindingGroup {
  key: string;
  a: string;
  b: string;
  findings: Finding[];
  startFrame: number;
  endFrame: number;
  maxDepth: number;
}

/** Findings grouped by pair of objects, in order of their first frame. */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const map = new Map<string, FindingGroup>();
  for (const f of findings) {
    const key = `${f.a.object}|${f.b.object}`;
    let g = map.get(key);
    if (!g) map.set(key, (g = { key, a: f.a.object, b: f.b.object, findings: [], startFrame: f.startFrame, endFrame: f.endFrame, maxDepth: 0 }));
    g.findings.push(f);
    g.startFrame = Math.min(g.startFrame, f.startFrame);
    g.endFrame = Math.max(g.endFrame, f.endFrame);
    g.maxDepth = Math.max(g.maxDepth, f.maxDepth);
  }
  return [...map.values()].sort((x, y) => x.startFrame - y.startFrame || x.key.localeCompare(y.key));
}

/** The findings in the panel's order: groups by first frame, each group's findings in their order. */
export function findingsInPanelOrder(findings: readonly Finding[]): Finding[] {
  return groupFindings(findings).flatMap((g) => g.findings);
}

/**
 * The finding `direction` steps (1 next, -1 previous) from `current` in the
 * panel's order, wrapping at the ends. Without a current one (or one no longer
 * listed): the first finding at or after `frame` (next), or the last one
 * before it (previous), by its deepest frame.
 */
export function stepFindingFrom(ordered: readonly Finding[], current: string | null, direction: 1 | -1, frame: number): Finding | null {
  if (!ordered.length) return null;
  const i = current === null ? -1 : ordered.findIndex((f) => f.id === current);
  if (i >= 0) return ordered[(i + direction + ordered.length) % ordered.length];
  const byFrame = [...ordered].sort((x, y) => x.maxDepthFrame - y.maxDepthFrame);
  if (direction > 0) return byFrame.find((f) => f.maxDepthFrame >= frame) ?? byFrame[0];
  for (let k = byFrame.length - 1; k >= 0; k--) if (byFrame[k].maxDepthFrame < frame) return byFrame[k];
  return byFrame[byFrame.length - 1];
}
