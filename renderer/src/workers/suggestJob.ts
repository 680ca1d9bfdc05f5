/**
 * Suggest job: core/sim `suggestMotion` over the chosen frame range. The
 * simulator reports progress as a fraction and polls the job's abort flag.
 */
import type { ImpulseDocument } from '../../../core/document/types';
import { suggestMotion } from '../../../core/sim/suggest';
import type { JobContext } from './host';
import type { SuggestImpact, SuggestParams, SuggestResult } from './protocol';

export async function runSuggest(doc: ImpulseDocument, params: SuggestParams, ctx: JobContext): Promise<SuggestResult> {
  // Progress in frames of the range, as the check reports it ("Frame 30 (10/20)"); it said "Simulating (500/1000)".
  const frames = Math.max(1, params.toFrame - params.fromFrame);
  let reported = 0;
  ctx.progress(0, frames, `Frame ${params.fromFrame}`);
  await ctx.checkpoint();
  const suggestion = suggestMotion(
    doc,
    { dynamic: params.dynamic, fromFrame: params.fromFrame, toFrame: params.toFrame, clipId: params.clipId },
    (fraction) => {
      const done = Math.min(frames, Math.max(0, Math.floor(fraction * frames + 1e-9)));
      if (done === reported) return;
      reported = done;
      ctx.progress(done, frames, `Frame ${params.fromFrame + done}`);
    },
    ctx.signal,
  );
  if (suggestion.stats.aborted) await ctx.checkpoint();
  const idOf = (name: string): string =>
    doc.props.find((p) => p.name === name || p.id === name)?.id ?? doc.characters.find((c) => c.name === name || c.id === name)?.id ?? name;
  const impacts: SuggestImpact[] = suggestion.impacts.map((i) => ({
    timeSec: i.timeSec,
    frame: i.frame,
    a: idOf(i.objects[0]),
    b: idOf(i.objects[1]),
    parts: i.parts,
    impulse: Math.hypot(i.impulse[0], i.impulse[1], i.impulse[2]),
    approachSpeed: i.approachSpeed,
  }));
  ctx.progress(frames, frames, 'Done');
  return { suggestion, impacts, keyCount: suggestion.stats.keys, denseKeyCount: suggestion.stats.denseKeys };
}
