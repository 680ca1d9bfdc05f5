/**
 * Export job: bakes each clip with core/bake (one clip per chunk, so progress
 * moves and a cancel lands between clips), then writes the .glb with the
 * already-baked clips.
 */
import type { ImpulseDocument } from '../../../core/document/types';
import { bakeClip, bakedKeyCount, exportGlb, type BakedClip } from '../../../core/bake';
import type { JobContext } from './host';
import type { ExportParams, ExportResult } from './protocol';

export async function runExport(doc: ImpulseDocument, params: ExportParams, ctx: JobContext): Promise<ExportResult> {
  const ids = params.clipIds ?? doc.clips.map((c) => c.id);
  const total = ids.length + 1;
  const baked: BakedClip[] = [];
  for (let i = 0; i < ids.length; i++) {
    const clip = doc.clips.find((c) => c.id === ids[i]);
    ctx.progress(i, total, `Baking ${clip?.name ?? ids[i]}`);
    await ctx.checkpoint();
    baked.push(bakeClip(doc, ids[i], { mode: params.mode }));
  }
  ctx.progress(ids.length, total, 'Writing .glb');
  await ctx.checkpoint();
  const animationOnly = params.animationOnly ?? false;
  const bytes = await exportGlb(doc, {
    baked,
    generator: 'Impulse',
    includeMeshes: !animationOnly,
    quantize: params.quantize ?? true,
    physics: animationOnly ? 'none' : (params.physics ?? 'none'),
  });
  ctx.progress(total, total, 'Done');
  return { bytes, keyCount: baked.reduce((n, c) => n + bakedKeyCount(c), 0), clipCount: baked.length };
}
