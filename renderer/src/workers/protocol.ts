/**
 * The message protocol between the UI thread and the engine worker.
 *
 * The UI keeps the worker's copy of the document current with `setDocument`
 * (structured clone: typed arrays are copied once per document version, no
 * base64 round trip); jobs name the document version they run on. Every job
 * reports progress, ends with exactly one of `result`, `error` or
 * `cancelled`, and can be cancelled: the worker sets the job's abort flag,
 * which the job polls between chunks (frames, clips, steps) and which the core
 * functions poll through their `signal` argument.
 *
 * Results carry typed arrays; the worker transfers their buffers.
 */
import type { ImpulseDocument } from '../../../core/document/types';

/** An abort flag polled by long computations (the shape core functions take as `signal`). */
export interface AbortFlag {
  aborted: boolean;
}

export interface JobTypes {
  /** Whole-clip check of frames (all frames of the clip, or the listed inclusive ranges). */
  checkClip: { params: CheckClipParams; result: CheckClipResult };
  /** One frame (the playhead while scrubbing and posing). */
  checkFrame: { params: CheckFrameParams; result: CheckFrameResult };
  suggest: { params: SuggestParams; result: SuggestResult };
  export: { params: ExportParams; result: ExportResult };
}
export type JobKind = keyof JobTypes;
export type JobParams<K extends JobKind> = JobTypes[K]['params'];
export type JobResult<K extends JobKind> = JobTypes[K]['result'];

export const JOB_KINDS: readonly JobKind[] = ['checkClip', 'checkFrame', 'suggest', 'export'];

export type ToWorker =
  | { type: 'setDocument'; docId: number; doc: ImpulseDocument }
  | { type: 'run'; job: number; kind: JobKind; docId: number; params: unknown }
  | { type: 'cancel'; job: number };

export type FromWorker =
  | { type: 'progress'; job: number; done: number; total: number; label: string }
  | { type: 'result'; job: number; result: unknown }
  | { type: 'error'; job: number; message: string }
  | { type: 'cancelled'; job: number };

// ---------------------------------------------------------------- checking

/** One side of a contact: an object id and, for characters, the joint (body part). */
export interface ContactSide {
  object: string;
  /** Joint index for character body parts; absent for props. */
  joint?: number;
  /** Readable name: the prop's or the joint's. */
  label: string;
}

/**
 * What the checker found between one pair of parts at one frame (or, for
 * `ccd`, while moving into that frame from the previous one).
 */
export interface FrameContact {
  a: ContactSide;
  b: ContactSide;
  kind: string;
  /** Penetration depth in scene units (0 when only a crossing was found). */
  depth: number;
  point: [number, number, number];
  normal: [number, number, number];
  /** Sub-frame time of first contact (seconds), when the checker gave one. */
  firstContactTimeSec: number | null;
}

/** Per-frame penetrating triangles of one mesh, for the overlay tint. */
export interface TriangleSet {
  /** `character` or `prop`. */
  owner: 'character' | 'prop';
  object: string;
  /** Mesh index inside a character (0 for props). */
  mesh: number;
  triangles: Uint32Array;
}

export interface FrameCheck {
  frame: number;
  contacts: FrameContact[];
}

export interface CheckClipParams {
  clipId: string;
  /** Inclusive frame ranges to check; absent: the whole clip. */
  ranges?: [number, number][];
}

export interface CheckClipResult {
  clipId: string;
  /** One entry per checked frame (frames without contacts have an empty list). */
  frames: FrameCheck[];
  warnings: string[];
}

export interface CheckFrameParams {
  clipId: string;
  frame: number;
}

export interface CheckFrameResult {
  frame: number;
  contacts: FrameContact[];
  triangles: TriangleSet[];
}

// ---------------------------------------------------------------- suggesting

export interface SuggestParams {
  clipId: string;
  /** Ids of the dynamic objects (props or characters). */
  dynamic: string[];
  fromFrame: number;
  toFrame: number;
}

export interface SuggestImpact {
  timeSec: number;
  frame: number;
  /** Object ids (or 'ground'). */
  a: string;
  b: string;
  /** Body parts (joint names) for characters, '' for props. */
  parts: [string, string];
  /** Impulse magnitude on the first object (N·s). */
  impulse: number;
  approachSpeed: number;
}

export interface SuggestResult {
  /** core/sim `Suggestion` (tracks, impacts, per-frame trajectory): what `applySuggestion` takes and the ghost shows. */
  suggestion: unknown;
  impacts: SuggestImpact[];
  /** Keys accepting the suggestion writes, and how many one key per frame would take. */
  keyCount: number;
  denseKeyCount: number;
}

// ---------------------------------------------------------------- export

export interface ExportParams {
  mode: 'sparse' | 'every-frame';
  /** Clips to export (default all). */
  clipIds?: string[];
  /** KHR_mesh_quantization for vertex data (default true, as `impulse bake`). */
  quantize?: boolean;
  /** Nodes, skins and animations only, no meshes or materials (default false). */
  animationOnly?: boolean;
  /** Prop physics as a glTF extension (default 'none'). */
  physics?: 'none' | 'khr' | 'omi';
}

export interface ExportResult {
  bytes: Uint8Array;
  keyCount: number;
  clipCount: number;
}

export function isFromWorker(m: unknown): m is FromWorker {
  if (!m || typeof m !== 'object') return false;
  const t = (m as { type?: unknown }).type;
  return (t === 'progress' || t === 'result' || t === 'error' || t === 'cancelled') && typeof (m as { job?: unknown }).job === 'number';
}

/** The typed-array buffers in a result, to transfer instead of copy. */
export function transferables(value: unknown, out: Transferable[] = [], seen = new Set<ArrayBufferLike>()): Transferable[] {
  if (!value || typeof value !== 'object') return out;
  if (ArrayBuffer.isView(value)) {
    const buf = value.buffer;
    if (buf instanceof ArrayBuffer && !seen.has(buf)) {
      seen.add(buf);
      out.push(buf);
    }
    return out;
  }
  if (Array.isArray(value)) {
    for (const v of value) transferables(v, out, seen);
    return out;
  }
  for (const k of Object.keys(value)) transferables((value as Record<string, unknown>)[k], out, seen);
  return out;
}
