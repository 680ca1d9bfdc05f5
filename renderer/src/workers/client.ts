/**
 * The UI side of the engine protocol: keeps the worker's document current,
 * runs jobs, routes progress, and cancels.
 *
 * Cancel first asks the worker (the job's abort flag, polled between chunks
 * and by core functions); a job stuck inside one long synchronous call does
 * not see the message, so if no answer arrives within `cancelGraceMs` the
 * worker is terminated and a fresh one started (with the current document),
 * and every job it was running or had queued ends as cancelled or failed.
 */
import type { ImpulseDocument } from '../../../core/document/types';
import type { FromWorker, JobKind, JobParams, JobResult, ToWorker } from './protocol';
import { isFromWorker } from './protocol';

/** What the client needs of a Worker (a real Worker, or a port in tests). */
export interface WorkerLike {
  postMessage(message: ToWorker, transfer?: Transferable[]): void;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: { message?: string }) => void) | null;
  terminate(): void;
}

export class JobCancelled extends Error {
  constructor(kind: string) {
    super(`${kind} cancelled`);
    this.name = 'JobCancelled';
  }
}

export interface Progress {
  done: number;
  total: number;
  label: string;
}

export interface RunningJob<R> {
  readonly id: number;
  readonly kind: JobKind;
  readonly promise: Promise<R>;
  cancel(): void;
}

interface Pending {
  kind: JobKind;
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?: (p: Progress) => void;
  cancelTimer: ReturnType<typeof setTimeout> | null;
}

export class EngineClient {
  private worker: WorkerLike | null = null;
  private pending = new Map<number, Pending>();
  private nextJob = 1;
  private docId = 0;
  private doc: ImpulseDocument | null = null;
  private sentDocId = -1;
  cancelGraceMs = 400;
  /** How many workers were started (tests and diagnostics). */
  started = 0;

  constructor(private readonly factory: () => WorkerLike) {}

  private ensureWorker(): WorkerLike {
    if (this.worker) return this.worker;
    const w = this.factory();
    this.started++;
    w.onmessage = (ev) => this.receive(ev.data);
    w.onerror = (ev) => this.fail(`engine worker failed: ${ev.message ?? 'unknown error'}`);
    this.worker = w;
    this.sentDocId = -1;
    return w;
  }

  /** Version id of the document the next job runs on. */
  get documentId(): number {
    return this.docId;
  }

  /** Makes `doc` the document of later jobs (sent once per identity). */
  setDocument(doc: ImpulseDocument): number {
    if (doc !== this.doc) {
      this.doc = doc;
      this.docId++;
    }
    return this.docId;
  }

  private syncDocument(w: WorkerLike): void {
    if (!this.doc) throw new Error('EngineClient: no document (call setDocument first)');
    if (this.sentDocId === this.docId) return;
    w.postMessage({ type: 'setDocument', docId: this.docId, doc: this.doc });
    this.sentDocId = this.docId;
  }

  run<K extends JobKind>(kind: K, params: JobParams<K>, onProgress?: (p: Progress) => void): RunningJob<JobResult<K>> {
    const w = this.ensureWorker();
    this.syncDocument(w);
    const id = this.nextJob++;
    let pending!: Pending;
    const promise = new Promise<JobResult<K>>((resolve, reject) => {
      pending = { kind, resolve: resolve as (v: unknown) => void, reject, onProgress, cancelTimer: null };
    });
    this.pending.set(id, pending);
    w.postMessage({ type: 'run', job: id, kind, docId: this.docId, params });
    return { id, kind, promise, cancel: () => this.cancel(id) };
  }

  cancel(id: number): void {
    const p = this.pending.get(id);
    if (!p || !this.worker || p.cancelTimer) return;
    this.worker.postMessage({ type: 'cancel', job: id });
    p.cancelTimer = setTimeout(() => {
      if (this.pending.get(id) !== p) return;
      // The job did not answer: it is inside one long call. Restart the worker.
      this.restart(id);
    }, this.cancelGraceMs);
  }

  private restart(cancelledJob: number): void {
    const w = this.worker;
    this.worker = null;
    w?.terminate();
    for (const [id, p] of this.pending) {
      if (p.cancelTimer) clearTimeout(p.cancelTimer);
      if (id === cancelledJob || p.cancelTimer) p.reject(new JobCancelled(p.kind));
      else p.reject(new Error(`${p.kind}: the engine worker was restarted to cancel another job; run it again`));
    }
    this.pending.clear();
  }

  private receive(data: unknown): void {
    if (!isFromWorker(data)) return;
    const m: FromWorker = data;
    const p = this.pending.get(m.job);
    if (!p) return;
    if (m.type === 'progress') {
      p.onProgress?.({ done: m.done, total: m.total, label: m.label });
      return;
    }
    this.pending.delete(m.job);
    if (p.cancelTimer) clearTimeout(p.cancelTimer);
    if (m.type === 'result') p.resolve(m.result);
    else if (m.type === 'cancelled') p.reject(new JobCancelled(p.kind));
    else p.reject(new Error(m.message));
  }

  private fail(message: string): void {
    const w = this.worker;
    this.worker = null;
    w?.terminate();
    for (const p of this.pending.values()) {
      if (p.cancelTimer) clearTimeout(p.cancelTimer);
      p.reject(new Error(message));
    }
    this.pending.clear();
  }

  /** Jobs sent and not yet answered. */
  get busy(): number {
    return this.pending.size;
  }

  dispose(): void {
    this.fail('engine disposed');
  }
}
