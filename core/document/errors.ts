/**
 * A document that cannot be loaded or saved. `path` is the object path of the
 * offending value (`characters[1].skeleton.joints[12].parent`, empty for the
 * document itself) and `detail` says what is wrong with it; the message is
 * `<path>: <detail>`.
 */
export class DocumentError extends Error {
  readonly path: string;
  readonly detail: string;

  constructor(path: string, detail: string) {
    super(path ? `${path}: ${detail}` : detail);
    this.name = 'DocumentError';
    this.path = path;
    this.detail = detail;
  }
}

/** `['characters', 1, 'skeleton']` -> `characters[1].skeleton`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let s = '';
  for (const seg of segments) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg)) s += s ? `.${seg}` : seg;
    else s += `[${JSON.stringify(String(seg))}]`;
  }
  return s;
}

/** Short description of a value for error messages. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (typeof v === 'string') return v.length > 40 ? `a string (${JSON.stringify(v.slice(0, 40))}...)` : JSON.stringify(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${Object.prototype.toString.call(v).slice(8, -1)} of ${(v as unknown as ArrayLike<number>).length}`;
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
