/**
 * The engine protocol end to end in one process: EngineClient on one end of a
 * real MessageChannel (structured clone and buffer transfer as between threads),
 * EngineHost on the other, with the real export job.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { sampleDocument } from '../../../core/document/fixtures';
import type { ImpulseDocument } from '../../../core/document/types';
import { EngineClient, JobCancelled, type Progress, type WorkerLike } from './client';
import { EngineHost, type JobHandlers } from './host';
import { runExport } from './exportJob';
import type { ToWorker } from './protocol';

interface Harness {
  client: EngineClient;
  hosts: EngineHost[];
  terminated: number;
  received: ToWorker[];
}

const clients: EngineClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) c.dispose();
});

const notUsed = async (): Promise<never> => {
  throw new Error('not used in this test');
};

function harness(handlers: Partial<JobHandlers>): Harness {
  const h: Harness = { client: null as unknown as EngineClient, hosts: [], terminated: 0, received: [] };
  const all: JobHandlers = { export: runExport, checkClip: notUsed, checkFrame: notUsed, suggest: notUsed, ...handlers };
  h.client = new EngineClient(() => {
    const { port1, port2 } = new MessageChannel();
    const host = new EngineHost((m, transfer) => port2.postMessage(m, transfer as never), all);
    host.progressIntervalMs = 0;
    h.hosts.push(host);
    port2.on('message', (m: ToWorker) => {
      h.received.push(m);
      host.handle(m);
    });
    const w: WorkerLike & { port: MessagePort } = {
      port: port1,
      onmessage: null,
      onerror: null,
      postMessage: (m, transfer) => port1.postMessage(m, (transfer ?? []) as never),
      terminate: () => {
        h.terminated++;
        port1.close();
        port2.close();
      },
    };
    port1.on('message', (data: unknown) => w.onmessage?.({ data }));
    return w;
  });
  clients.push(h.client);
  return h;
}

function twoClipDocument(): ImpulseDocument {
  const doc = sampleDocument();
  doc.clips.push({ ...doc.clips[0], id: 'swing2', name: 'Swing 2' });
  doc.clips.push({ ...doc.clips[0], id: 'swing3', name: 'Swing 3' });
  return doc;
}

describe('engine protocol', () => {
  it('exports a .glb through the worker with monotonic progress ending at the total', async () => {
    const h = harness({});
    h.client.setDocument(twoClipDocument());
    const progress: Progress[] = [];
    const result = await h.client.run('export', { mode: 'sparse' }, (p) => progress.push(p)).promise;
    const bytes = result.bytes;
    expect(bytes).toBeInstanceOf(Uint8Array);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(view.getUint32(0, true), 'glb magic "glTF"').toBe(0x46546c67);
    expect(view.getUint32(8, true), 'glb header length = file length').toBe(bytes.byteLength);
    expect(result.clipCount).toBe(3);
    expect(result.keyCount).toBeGreaterThan(0);
    expect(progress.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < progress.length; i++) expect(progress[i].done).toBeGreaterThanOrEqual(progress[i - 1].done);
    expect(progress[progress.length - 1].done).toBe(progress[progress.length - 1].total);
    // The document went over once; the result's buffer was transferred, not copied back and forth.
    expect(h.received.filter((m) => m.type === 'setDocument')).toHaveLength(1);
  });

  it('every-frame export has at least one key per frame per animated channel, more than sparse', async () => {
    const h = harness({});
    h.client.setDocument(sampleDocument());
    const sparse = await h.client.run('export', { mode: 'sparse' }).promise;
    const dense = await h.client.run('export', { mode: 'every-frame' }).promise;
    expect(dense.keyCount).toBeGreaterThan(sparse.keyCount);
    const clip = sampleDocument().clips[0];
    expect(dense.keyCount).toBeGreaterThanOrEqual(clip.tracks.length * (clip.endFrame - clip.startFrame + 1));
  });

  it('export options reach the writer: quantised meshes by default, float on request, animation only, prop physics', async () => {
    const glbJson = (bytes: Uint8Array) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const length = view.getUint32(12, true);
      return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))) as {
        meshes?: unknown[];
        skins?: unknown[];
        animations?: unknown[];
        extensionsUsed?: string[];
        extensionsRequired?: string[];
      };
    };
    const h = harness({});
    h.client.setDocument(sampleDocument());
    const byDefault = glbJson((await h.client.run('export', { mode: 'sparse' }).promise).bytes);
    expect(byDefault.extensionsRequired ?? []).toContain('KHR_mesh_quantization');
    const float = glbJson((await h.client.run('export', { mode: 'sparse', quantize: false }).promise).bytes);
    expect(float.extensionsUsed ?? []).not.toContain('KHR_mesh_quantization');
    expect(float.meshes?.length).toBe(byDefault.meshes?.length);
    const animationOnly = glbJson((await h.client.run('export', { mode: 'sparse', animationOnly: true, physics: 'khr' }).promise).bytes);
    expect(animationOnly.meshes ?? []).toEqual([]);
    expect(animationOnly.animations?.length).toBe(byDefault.animations?.length);
    expect(animationOnly.extensionsUsed ?? [], 'no colliders without meshes').not.toContain('KHR_physics_rigid_bodies');
    const physics = glbJson((await h.client.run('export', { mode: 'sparse', physics: 'khr' }).promise).bytes);
    expect(physics.extensionsUsed ?? []).toContain('KHR_physics_rigid_bodies');
  });

  it('a cooperative cancel stops the job between chunks without restarting the worker', async () => {
    const h = harness({});
    h.client.setDocument(twoClipDocument());
    let job!: ReturnType<EngineClient['run']>;
    const seen: Progress[] = [];
    job = h.client.run('export', { mode: 'every-frame' }, (p) => {
      seen.push(p);
      if (seen.length === 1) job.cancel();
    });
    await expect(job.promise).rejects.toBeInstanceOf(JobCancelled);
    expect(seen.some((p) => p.label === 'Writing .glb'), 'cancelled before writing').toBe(false);
    expect(h.terminated, 'the worker answered; no restart').toBe(0);
    // The worker keeps working.
    const after = await h.client.run('export', { mode: 'sparse', clipIds: ['swing'] }).promise;
    expect(after.clipCount).toBe(1);
    expect(h.client.started).toBe(1);
  });

  it('a job that ignores its abort flag is cancelled by restarting the worker, which gets the document again', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((r) => (started = r));
    const h = harness({
      checkClip: (_doc, params) =>
        new Promise((resolve) => {
          release = () => resolve({ clipId: params.clipId, frames: [], warnings: [] });
          started();
        }),
    });
    h.client.cancelGraceMs = 30;
    h.client.setDocument(sampleDocument());
    const stuck = h.client.run('checkClip', { clipId: 'swing' });
    const queued = h.client.run('export', { mode: 'sparse' });
    await running;
    stuck.cancel();
    await expect(stuck.promise).rejects.toBeInstanceOf(JobCancelled);
    await expect(queued.promise).rejects.toThrow(/restarted/);
    expect(h.terminated).toBe(1);
    release();
    const again = await h.client.run('export', { mode: 'sparse' }).promise;
    expect(again.clipCount).toBe(1);
    expect(h.client.started).toBe(2);
    expect(h.received.filter((m) => m.type === 'setDocument')).toHaveLength(2);
  });

  it('cancelling a queued job answers at once; the running one finishes', async () => {
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((r) => (started = r));
    const h = harness({
      checkClip: (_doc, params) =>
        new Promise((resolve) => {
          release = () => resolve({ clipId: params.clipId, frames: [{ frame: 3, contacts: [] }], warnings: [] });
          started();
        }),
    });
    h.client.setDocument(sampleDocument());
    const first = h.client.run('checkClip', { clipId: 'swing' });
    const second = h.client.run('export', { mode: 'sparse' });
    await running;
    second.cancel();
    await expect(second.promise).rejects.toBeInstanceOf(JobCancelled);
    release();
    const r = await first.promise;
    expect(r.frames[0].frame).toBe(3);
    expect(h.terminated).toBe(0);
  });

  it('handler errors reach the caller with their message; jobs see the document version they were sent with', async () => {
    const seenNames: string[] = [];
    const h = harness({
      checkFrame: async (doc, params) => {
        seenNames.push(doc.name);
        if (params.frame < 0) throw new Error(`frame ${params.frame} is before the clip`);
        return { frame: params.frame, contacts: [], triangles: [] };
      },
    });
    const a = sampleDocument();
    h.client.setDocument(a);
    const one = h.client.run('checkFrame', { clipId: 'swing', frame: 1 });
    const b = { ...a, name: 'Edited' };
    h.client.setDocument(b);
    const two = h.client.run('checkFrame', { clipId: 'swing', frame: -2 });
    await one.promise;
    await expect(two.promise).rejects.toThrow('frame -2 is before the clip');
    expect(seenNames).toEqual(['Sample', 'Edited']);
  });

  it('result buffers are transferred; the worker document keeps its mesh buffers', async () => {
    let workerDoc: ImpulseDocument | null = null;
    const h = harness({
      checkFrame: async (doc, params) => {
        workerDoc = doc;
        return { frame: params.frame, contacts: [], triangles: [{ owner: 'prop', object: 'crate', mesh: 0, triangles: new Uint32Array([1, 2, 3]) }] };
      },
    });
    h.client.setDocument(sampleDocument());
    const r = await h.client.run('checkFrame', { clipId: 'swing', frame: 0 }).promise;
    expect(Array.from(r.triangles[0].triangles)).toEqual([1, 2, 3]);
    expect(workerDoc!.props[0].mesh.positions.length, 'worker document intact').toBeGreaterThan(0);
  });
});
