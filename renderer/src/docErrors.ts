/**
 * Messages for project files that do not open. Core's `DocumentError` names
 * the place as a path into the file (`clips[0].tracks[3].values[5]: expected
 * a number, got null`); an animator also needs the file, and the clip, object
 * and key the path points at, which the raw JSON still tells when the
 * document itself cannot be built.
 */
import { DocumentError } from '../../core/document/errors';

const STRIDE: Record<string, number> = { translation: 3, rotation: 4, scale: 3 };

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function objectName(root: Json, target: Json): string | null {
  const list = (key: string) => (Array.isArray(root[key]) ? (root[key] as unknown[]).map(obj) : []);
  if (target.kind === 'prop') {
    const p = list('props').find((x) => x && x.id === target.prop);
    return str(p?.name) ?? str(target.prop);
  }
  if (target.kind === 'joint') {
    const c = list('characters').find((x) => x && x.id === target.character);
    const joints = obj(c?.skeleton)?.joints;
    const j = Array.isArray(joints) && typeof target.joint === 'number' ? obj(joints[target.joint]) : null;
    const who = str(c?.name) ?? str(target.character) ?? 'character';
    return `${who} · ${str(j?.name) ?? `joint ${String(target.joint)}`}`;
  }
  return null;
}

/** What a document path (`clips[0].tracks[3].values[5]`) points at, in words, from the raw project text; '' when unknown. */
export function describeDocumentPath(text: string, path: string): string {
  let root: Json | null;
  try {
    root = obj(JSON.parse(text));
  } catch {
    return ''; // not JSON: the parser's message (line and column) is all there is
  }
  if (!root) return '';
  const parts: string[] = [];
  const idx = (name: string) => {
    const m = new RegExp(`(?:^|\\.)${name}\\[(\\d+)\\]`).exec(path);
    return m ? Number(m[1]) : -1;
  };
  const ci = idx('clips'), chi = idx('characters'), pi = idx('props');
  if (ci >= 0 && Array.isArray(root.clips)) {
    const clip = obj(root.clips[ci]);
    if (clip) {
      parts.push(`clip "${str(clip.name) ?? str(clip.id) ?? ci}"`);
      const ti = idx('tracks');
      const track = ti >= 0 && Array.isArray(clip.tracks) ? obj(clip.tracks[ti]) : null;
      const target = obj(track?.target);
      if (track && target) {
        const who = objectName(root, target);
        parts.push(`${who ?? 'track'} ${str(track.path) ?? ''}`.trim());
        // The key: times[i] is key i; values[k] belongs to key k / (stride, ×3 for cubic in/value/out).
        const times = Array.isArray(track.times) ? track.times : [];
        const fps = typeof clip.frameRate === 'number' && clip.frameRate > 0 ? clip.frameRate : null;
        let key = -1;
        const ti2 = /\.times\[(\d+)\]/.exec(path), vi = /\.values\[(\d+)\]/.exec(path);
        if (ti2) key = Number(ti2[1]);
        else if (vi && typeof track.path === 'string' && STRIDE[track.path]) key = Math.floor(Number(vi[1]) / (STRIDE[track.path] * (track.interpolation === 'cubic' ? 3 : 1)));
        if (key >= 0) {
          const t = times[key];
          parts.push(typeof t === 'number' && Number.isFinite(t) && fps ? `key ${key + 1} at frame ${+(t * fps).toFixed(3)}` : `key ${key + 1}`);
        }
      }
    }
  } else if (chi >= 0 && Array.isArray(root.characters)) {
    const c = obj(root.characters[chi]);
    if (c) parts.push(`character "${str(c.name) ?? str(c.id) ?? chi}"`);
    const ji = idx('joints');
    const joints = obj(c?.skeleton)?.joints;
    const j = ji >= 0 && Array.isArray(joints) ? obj(joints[ji]) : null;
    if (j && str(j.name)) parts.push(`joint ${str(j.name)}`);
  } else if (pi >= 0 && Array.isArray(root.props)) {
    const p = obj(root.props[pi]);
    if (p) parts.push(`prop "${str(p.name) ?? str(p.id) ?? pi}"`);
  }
  return parts.join(', ');
}

/** The message for a project text that could not be read: which file, where in it (in words too), and what was wrong. */
export function projectErrorMessage(fileName: string, text: string, e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const where = e instanceof DocumentError && e.path ? describeDocumentPath(text, e.path) : '';
  return `${fileName}: ${message}${where ? ` (${where})` : ''}`;
}
