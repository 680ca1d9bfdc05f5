/** Check jobs (core/collision). */
import type { ImpulseDocument } from '../../../core/document/types';
import type { JobContext } from './host';
import type { CheckClipParams, CheckClipResult, CheckFrameParams, CheckFrameResult } from './protocol';

export async function runCheckClip(_doc: ImpulseDocument, _params: CheckClipParams, _ctx: JobContext): Promise<CheckClipResult> {
  throw new Error('core/collision has no clip check in this build yet');
}

export async function runCheckFrame(_doc: ImpulseDocument, _params: CheckFrameParams, _ctx: JobContext): Promise<CheckFrameResult> {
  throw new Error('core/collision has no per-frame check in this build yet');
}
