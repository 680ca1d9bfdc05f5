/**
 * Runtime validation of every channel's payload (main and the bridges run
 * these before any handler). A payload that does not match its channel's
 * request type is rejected with a `PayloadError` naming the channel and field.
 */
import { z } from 'zod';
import { isChannel, type Channel, type ChannelRequest } from './contract';

/** Largest project text accepted (characters). */
export const MAX_TEXT_CHARS = 512 * 1024 * 1024;
/** Largest binary payload accepted (bytes). */
export const MAX_BYTES = 1024 * 1024 * 1024;

export class PayloadError extends Error {
  override name = 'PayloadError';
}

const pathString = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !s.includes('\0'), { message: 'path contains a NUL character' });

const text = z.string().max(MAX_TEXT_CHARS);

const bytes = z
  .instanceof(Uint8Array, { message: 'expected a Uint8Array' })
  .refine((b) => b.byteLength <= MAX_BYTES, { message: `larger than ${MAX_BYTES} bytes` });

const none = z.undefined({ message: 'this channel takes no payload' });

type Schemas = { [C in Channel]: z.ZodType<ChannelRequest<C>> };

export const requestSchemas: Schemas = {
  getInitialProject: none,
  openProject: none,
  openRecent: z.strictObject({ path: pathString }),
  listRecent: none,
  loadSample: none,
  saveProject: z.strictObject({ text, path: pathString.nullable(), saveAs: z.boolean() }),
  autosave: z.strictObject({ text }),
  checkRecovery: none,
  discardRecovery: none,
  importGltf: none,
  exportGlb: z.strictObject({
    bytes,
    suggestedName: z.string().min(1).max(255),
  }),
  setDocumentState: z.strictObject({ dirty: z.boolean(), title: z.string().max(1024), path: pathString.nullable() }),
  askUnsavedChanges: none,
  confirmClose: z.strictObject({ proceed: z.boolean() }),
};

/** Checks the channel name and its payload; throws `PayloadError` naming what is wrong. */
export function validateRequest(channel: unknown, payload: unknown): { channel: Channel; payload: unknown } {
  if (!isChannel(channel)) throw new PayloadError(`unknown channel ${JSON.stringify(String(channel)).slice(0, 80)}`);
  const result = requestSchemas[channel].safeParse(payload);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length ? issue.path.map(String).join('.') : 'payload';
    throw new PayloadError(`${channel}: ${where}: ${issue.message}`);
  }
  return { channel, payload: result.data };
}
