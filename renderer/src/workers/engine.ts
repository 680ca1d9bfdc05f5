/**
 * The app's engine worker and its foreground job (the one with a progress
 * bar and a Cancel button: Check clip, Suggest motion, Export). Background
 * jobs (the live per-frame check) run on the same worker without UI.
 */
import { create } from 'zustand';
import type { ImpulseDocument } from '../../../core/document/types';
import { EngineClient, JobCancelled, type RunningJob, type WorkerLike } from './client';
import type { JobKind, JobParams, JobResult } from './protocol';

let client: EngineClient | null = null;

export function engine(): EngineClient {
  client ??= new EngineClient(
    () => new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'impulse-engine' }) as unknown as WorkerLike,
  );
  return client;
}

export interface ForegroundJob {
  id: number;
  kind: JobKind;
  title: string;
  done: number;
  total: number;
  label: string;
  startedAt: number;
  cancel: () => void;
}

export const useJobs = create<{ active: ForegroundJob | null }>()(() => ({ active: null }));

/** Runs a job on `doc` with the progress bar; resolves with its result, or null when cancelled. */
export async function runForeground<K extends JobKind>(kind: K, doc: ImpulseDocument, params: JobParams<K>, title: string): Promise<JobResult<K> | null> {
  const current = useJobs.getState().active;
  if (current) throw new Error(`${current.title} is still running`);
  const e = engine();
  e.setDocument(doc);
  let job: RunningJob<JobResult<K>> | null = null;
  job = e.run(kind, params, (p) => {
    const a = useJobs.getState().active;
    if (a && job && a.id === job.id) useJobs.setState({ active: { ...a, done: p.done, total: p.total, label: p.label } });
  });
  const running = job;
  useJobs.setState({ active: { id: running.id, kind, title, done: 0, total: 1, label: 'Starting', startedAt: Date.now(), cancel: () => running.cancel() } });
  try {
    return await running.promise;
  } catch (err) {
    if (err instanceof JobCancelled) return null;
    throw err;
  } finally {
    if (useJobs.getState().active?.id === running.id) useJobs.setState({ active: null });
  }
}

/** Runs a job without UI (live checks). */
export function runBackground<K extends JobKind>(kind: K, doc: ImpulseDocument, params: JobParams<K>): RunningJob<JobResult<K>> {
  const e = engine();
  e.setDocument(doc);
  return e.run(kind, params);
}

export function cancelForeground(): boolean {
  const a = useJobs.getState().active;
  if (!a) return false;
  a.cancel();
  return true;
}
