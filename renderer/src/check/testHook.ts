/**
 * `window.__impulseCheckTest`: a read-only window into the checking half for
 * end-to-end tests (findings, live check, suggestion, ghost objects, pixel
 * statistics of the viewport). Tests drive the app through its UI.
 */
import { getDoc } from '../state/documentStore';
import { view } from '../viewport/viewState';
import { useJobs } from '../workers/engine';
import { suggestionOf, useSuggest } from '../suggest/suggestStore';
import { isIgnored, visibleFindings } from './findings';
import { useCheck } from './checkStore';

export type Hue = 'red' | 'cyan' | 'yellow';

function hueMatch(hue: Hue, r: number, g: number, b: number): boolean {
  if (hue === 'red') return r > g + 80 && r > b + 80;
  if (hue === 'cyan') return b > r + 50 && g > r + 30;
  return r > b + 80 && g > b + 60;
}

/** Statistics of the viewport canvas: luminance variance, and the share of pixels of each hue asked for. */
function pixelStats(hues: Hue[] = []) {
  const canvas = view.canvas;
  if (!canvas) return null;
  const w = Math.min(480, canvas.width), h = Math.max(1, Math.round((w * canvas.height) / canvas.width));
  const c2 = document.createElement('canvas');
  c2.width = w;
  c2.height = h;
  const ctx = c2.getContext('2d')!;
  ctx.drawImage(canvas, 0, 0, w, h);
  const data = ctx.getImageData(0, 0, w, h).data;
  let sum = 0, sumSq = 0;
  const counts = hues.map(() => 0);
  const n = w * h;
  for (let i = 0; i < data.length; i += 4) {
    const r = data[i], g = data[i + 1], b = data[i + 2];
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += y;
    sumSq += y * y;
    for (let k = 0; k < hues.length; k++) if (hueMatch(hues[k], r, g, b)) counts[k]++;
  }
  const mean = sum / n;
  return { width: w, height: h, mean, variance: sumSq / n - mean * mean, fractions: counts.map((c) => c / n) };
}

function countNamed(prefix: string): number {
  let n = 0;
  view.scene?.traverse((o) => {
    if (o.name.startsWith(prefix) && o.visible) n++;
  });
  return n;
}

const api = {
  findings: () => {
    const s = useCheck.getState();
    return visibleFindings(s.findings, getDoc().check.ignore).map((f) => ({ ...f }));
  },
  allFindings: () => useCheck.getState().findings.map((f) => ({ ...f })),
  checkState: () => {
    const s = useCheck.getState();
    return { clipId: s.clipId, checkedFrames: s.checkedFrames, totalFrames: s.totalFrames, updating: s.updating, selectedFinding: s.selectedFinding, liveEnabled: s.liveEnabled, lastUpdate: s.lastUpdate };
  },
  live: () => {
    const l = useCheck.getState().live;
    return l ? { frame: l.frame, contacts: l.contacts.length, triangles: l.triangles.map((t) => ({ object: t.object, mesh: t.mesh, count: t.triangles.length })) } : null;
  },
  /** Contacts of the live check (after ignore rules), with their points, for hovering. */
  liveContacts: () => {
    const l = useCheck.getState().live;
    const rules = getDoc().check.ignore;
    return l ? l.contacts.filter((c) => !isIgnored(rules, c.a, c.b)).map((c) => ({ a: c.a, b: c.b, kind: c.kind, depth: c.depth, point: c.point })) : [];
  },
  job: () => {
    const a = useJobs.getState().active;
    return a ? { kind: a.kind, done: a.done, total: a.total, label: a.label } : null;
  },
  suggestion: () => {
    const s = useSuggest.getState();
    const sug = suggestionOf(s.result);
    if (!sug || !s.result) return null;
    return {
      objects: sug.objects,
      fromFrame: sug.fromFrame,
      toFrame: sug.toFrame,
      keys: s.result.keyCount,
      denseKeys: s.result.denseKeyCount,
      impacts: s.result.impacts,
      trajectory: sug.trajectory.map((e) => ({
        object: e.object,
        kind: e.kind,
        frames: e.frames.length,
        /** Last sampled values of the entry (props: origin x y z, quaternion). */
        last: Array.from(e.values.subarray(e.values.length - (e.kind === 'prop' ? 7 : 0))),
      })),
    };
  },
  /** Visible scene objects whose name starts with the prefix ('ghost:', 'tint:', 'contact-point'). */
  countNamed,
  pixelStats,
};

export type ImpulseCheckTestHook = typeof api;

declare global {
  interface Window {
    __impulseCheckTest?: ImpulseCheckTestHook;
  }
}

export function installCheckTestHook(): void {
  window.__impulseCheckTest = Object.freeze(api) as ImpulseCheckTestHook;
}
