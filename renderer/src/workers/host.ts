/**
 * The worker side of the engine protocol, as a plain class so it runs (and is
 * tested) without a Worker: `engine.worker.ts` feeds it `onmessage` data and
 * hands it `postMessage`.
 *
 * Jobs run one after another (the machine the app targets may have two
 * cores; the UI thread keeps one). A job's abort flag is set by `cancel`; jobs
 * call `ctx.checkpoint()` between chunks, which yields to the event loop (so
 * a `cancel` message can arrive while the job runs) and throws `Cancelled`
 * once the flag is set.
 */
import type { ImpulseDocument } from '../../../core/document/types';
import type { AbortFlag, FromWorker, JobKind, JobParams, JobResult, ToWorker } from './protocol';
import { transferables } from './protocol';

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

export interface JobContext {
  readonly signal: AbortFlag;
  /** Reports progress (throttled: at most one message per `progressIntervalMs`, plus the last). */
  progress(done: number, total: number, label?: string): void;
  /** Yields to the event loop; throws `Cancelled` when the job was cancelled. */
  checkpoint(): Promise<void>;
}

export type JobHandler<K extends JobKind> = (doc: ImpulseDocument, params: JobParams<K>, ctx: JobContext) => Promise<JobResult<K>>;
export type JobHandlers = { [K in JobKind]: JobHandler<K> };

export type Post = (message: FromWorker, transfer: Transferable[]) => void;

interface Queued {
  job: number;
  kind: JobKind;
  docId: number;
  params: unknown;
  signal: AbortFlag;
}

/** The typed-array buffers a document holds (mesh data). */
export function documentBuffers(doc: ImpulseDocument): Set<ArrayBufferLike> {
  const out = new Set<ArrayBufferLike>();
  for (const c of doc.characters)
    for (const m of c.meshes)
      for (const a of [m.positions, m.normals, m.indices, m.joints, m.weights, m.skinJoints, m.inverseBindMatrices]) if (a) out.add(a.buffer);
  for (const p of doc.props) for (const a of [p.mesh.positions, p.mesh.normals, p.mesh.indices]) if (a) out.add(a.buffer);
  return out;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export class EngineHost {
  private docs = new Map<number, ImpulseDocument>();
  private latestDocId = -1;
  private queue: Queued[] = [];
  private running: Queued | null = null;
  progressIntervalMs = 50;

  constructor(
    private readonly post: Post,
    private readonly handlers: JobHandlers,
  ) {}

  handle(message: ToWorker): void {
    switch (message.type) {
      case 'setDocument':
        this.docs.set(message.docId, message.doc);
        if (message.docId > this.latestDocId) this.latestDocId = message.docId;
        this.dropUnusedDocuments();
        return;
      case 'run':
        this.queue.push({ job: message.job, kind: message.kind, docId: message.docId, params: message.params, signal: { aborted: false } });
        void this.pump();
        return;
      case 'cancel': {
        if (this.running?.job === message.job) {
          this.running.signal.aborted = true;
          return;
        }
        const i = this.queue.findIndex((q) => q.job === message.job);
        if (i >= 0) {
          this.queue.splice(i, 1);
          this.post({ type: 'cancelled', job: message.job }, []);
        }
        return;
      }
      default:
        throw new Error(`engine worker: unknown message ${JSON.stringify((message as { type?: unknown }).type)}`);
    }
  }

  /** Keeps the newest document and those queued or running jobs refer to. */
  private dropUnusedDocuments(): void {
    const keep = new Set<number>([this.latestDocId]);
    if (this.running) keep.add(this.running.docId);
    for (const q of this.queue) keep.add(q.docId);
    for (const id of [...this.docs.keys()]) if (!keep.has(id)) this.docs.delete(id);
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    const next = this.queue.shift();
    if (!next) return;
    this.running = next;
    try {
      await this.run(next);
    } finally {
      this.running = null;
      this.dropUnusedDocuments();
      void this.pump();
    }
  }

  private async run(q: Queued): Promise<void> {
    const doc = this.docs.get(q.docId);
    if (!doc) {
      this.post({ type: 'error', job: q.job, message: `document version ${q.docId} is not in the worker (setDocument first)` }, []);
      return;
    }
    const handler = this.handlers[q.kind] as JobHandler<JobKind> | undefined;
    if (!handler) {
      this.post({ type: 'error', job: q.job, message: `unknown job kind ${JSON.stringify(q.kind)}` }, []);
      return;
    }
    let lastProgress = -Infinity;
    const ctx: JobContext = {
      signal: q.signal,
      progress: (done, total, label = '') => {
        const now = Date.now();
        if (done < total && now - lastProgress < this.progressIntervalMs) return;
        lastProgress = now;
        this.post({ type: 'progress', job: q.job, done, total, label }, []);
      },
      checkpoint: async () => {
        await yieldToEventLoop();
        if (q.signal.aborted) throw new Cancelled();
      },
    };
    try {
      await yieldToEventLoop();
      if (q.signal.aborted) throw new Cancelled();
      const result = await handler(doc, q.params as never, ctx);
      if (q.signal.aborted) throw new Cancelled();
      // Buffers shared with the worker's document stay (transferring would detach them).
      this.post({ type: 'result', job: q.job, result }, transferables(result, [], documentBuffers(doc)));
    } catch (e) {
      if (e instanceof Cancelled || q.signal.aborted) this.post({ type: 'cancelled', job: q.job }, []);
      else this.post({ type: 'error', job: q.job, message: e instanceof Error ? e.message : String(e) }, []);
    }
  }
}
