/**
 * JSON wire encoding for the transports that cannot carry typed arrays
 * (Playwright exposeFunction, the local HTTP bridge): a `Uint8Array` travels
 * as `{ $bytes: "<base64>" }`. Runs in browsers and in node.
 */

export interface WireBytes {
  $bytes: string;
}

const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  const B = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (B) return B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + CHUNK)));
  }
  return btoa(binary);
}

export function base64ToBytes(text: string): Uint8Array {
  const B = (globalThis as { Buffer?: typeof Buffer }).Buffer;
  if (B) {
    const b = B.from(text, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function isWireBytes(v: unknown): v is WireBytes {
  return typeof v === 'object' && v !== null && typeof (v as WireBytes).$bytes === 'string' && Object.keys(v).length === 1;
}

/** Replaces every Uint8Array in a JSON-like value by `{ $bytes }`. */
export function toWire(value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: bytesToBase64(value) };
  if (Array.isArray(value)) return value.map(toWire);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toWire(v);
    return out;
  }
  return value;
}

/** Inverse of `toWire`. */
export function fromWire(value: unknown): unknown {
  if (isWireBytes(value)) return base64ToBytes(value.$bytes);
  if (Array.isArray(value)) return value.map(fromWire);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fromWire(v);
    return out;
  }
  return value;
}
