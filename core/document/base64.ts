/**
 * Base64 (RFC 4648, standard alphabet, padded) and little-endian typed-array
 * blocks, as `.impulse` files store bulk mesh data. Pure TypeScript: no
 * Buffer, no atob/btoa, identical in the browser and node.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = new Uint8Array(64);
for (let i = 0; i < 64; i++) ENCODE[i] = ALPHABET.charCodeAt(i);
/** Char code -> 6-bit value, 255 for characters outside the alphabet. */
const DECODE = new Uint8Array(256).fill(255);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

const CHUNK = 0x8000;

export function encodeBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = ENCODE[v >>> 18];
    out[o++] = ENCODE[(v >>> 12) & 63];
    out[o++] = ENCODE[(v >>> 6) & 63];
    out[o++] = ENCODE[v & 63];
  }
  const rest = n - i;
  if (rest === 1) {
    const v = bytes[i] << 16;
    out[o++] = ENCODE[v >>> 18];
    out[o++] = ENCODE[(v >>> 12) & 63];
    out[o++] = 61; // '='
    out[o++] = 61;
  } else if (rest === 2) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out[o++] = ENCODE[v >>> 18];
    out[o++] = ENCODE[(v >>> 12) & 63];
    out[o++] = ENCODE[(v >>> 6) & 63];
    out[o++] = 61;
  }
  let s = '';
  for (let c = 0; c < out.length; c += CHUNK) {
    s += String.fromCharCode.apply(null, out.subarray(c, c + CHUNK) as unknown as number[]);
  }
  return s;
}

/**
 * Decodes standard padded base64. Throws a plain `Error` saying which
 * character (by position) is wrong; callers add the document path.
 */
export function decodeBase64(text: string): Uint8Array {
  const len = text.length;
  if (len % 4 !== 0) throw new Error(`base64 length ${len} is not a multiple of 4`);
  if (len === 0) return new Uint8Array(0);
  let pad = 0;
  if (text.charCodeAt(len - 1) === 61) pad++;
  if (text.charCodeAt(len - 2) === 61) pad++;
  const out = new Uint8Array((len / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < len; i += 4) {
    const last = i + 4 === len;
    const c0 = DECODE[text.charCodeAt(i) & 255];
    const c1 = DECODE[text.charCodeAt(i + 1) & 255];
    const c2 = last && pad === 2 ? 0 : DECODE[text.charCodeAt(i + 2) & 255];
    const c3 = last && pad >= 1 ? 0 : DECODE[text.charCodeAt(i + 3) & 255];
    if ((c0 | c1 | c2 | c3) === 255 || text.charCodeAt(i) > 255 || text.charCodeAt(i + 1) > 255 || text.charCodeAt(i + 2) > 255 || text.charCodeAt(i + 3) > 255) {
      for (let k = i; k < i + 4; k++) {
        const code = text.charCodeAt(k);
        const isPad = last && code === 61 && k >= len - pad;
        if (!isPad && (code > 255 || DECODE[code] === 255)) throw new Error(`invalid base64 character ${JSON.stringify(text[k])} at offset ${k}`);
      }
    }
    const v = (c0 << 18) | (c1 << 12) | (c2 << 6) | c3;
    out[o++] = v >>> 16;
    if (o < out.length) out[o++] = (v >>> 8) & 255;
    if (o < out.length) out[o++] = v & 255;
  }
  return out;
}

/** On-disk element types of typed-array blocks. */
export type Dtype = 'f32' | 'u32' | 'u16' | 'i32';
export const DTYPES: readonly Dtype[] = ['f32', 'u32', 'u16', 'i32'];

export type TypedArrayOf<D extends Dtype> = D extends 'f32'
  ? Float32Array
  : D extends 'u32'
    ? Uint32Array
    : D extends 'u16'
      ? Uint16Array
      : Int32Array;

export type BlockArray = Float32Array | Uint32Array | Uint16Array | Int32Array;

export function dtypeOf(a: BlockArray): Dtype {
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Int32Array) return 'i32';
  throw new Error(`not a block typed array: ${Object.prototype.toString.call(a)}`);
}

export function bytesPerElement(dtype: Dtype): number {
  return dtype === 'u16' ? 2 : 4;
}

export function allocTyped<D extends Dtype>(dtype: D, length: number): TypedArrayOf<D> {
  switch (dtype) {
    case 'f32':
      return new Float32Array(length) as TypedArrayOf<D>;
    case 'u32':
      return new Uint32Array(length) as TypedArrayOf<D>;
    case 'u16':
      return new Uint16Array(length) as TypedArrayOf<D>;
    default:
      return new Int32Array(length) as TypedArrayOf<D>;
  }
}

/** Little-endian bytes of a typed array (independent of platform byte order). */
export function typedArrayToBytes(a: BlockArray): Uint8Array {
  const dtype = dtypeOf(a);
  const bpe = bytesPerElement(dtype);
  const bytes = new Uint8Array(a.length * bpe);
  const view = new DataView(bytes.buffer);
  const n = a.length;
  switch (dtype) {
    case 'f32':
      for (let i = 0; i < n; i++) view.setFloat32(i * 4, a[i], true);
      break;
    case 'u32':
      for (let i = 0; i < n; i++) view.setUint32(i * 4, a[i], true);
      break;
    case 'u16':
      for (let i = 0; i < n; i++) view.setUint16(i * 2, a[i], true);
      break;
    case 'i32':
      for (let i = 0; i < n; i++) view.setInt32(i * 4, a[i], true);
      break;
  }
  return bytes;
}

/**
 * Float32 NaN payloads survive: DataView.setFloat32 of a value read from a
 * Float32Array may canonicalise NaN, so f32 data is copied as raw bits.
 */
function f32Bits(a: Float32Array): Uint32Array {
  return new Uint32Array(a.buffer, a.byteOffset, a.length);
}

export function typedArrayToBase64(a: BlockArray): string {
  if (a instanceof Float32Array) {
    // Copy raw bits (aligned view) so every float, NaN payloads included, is bit-exact.
    const src = a.byteOffset % 4 === 0 ? f32Bits(a) : new Uint32Array(new Float32Array(a).buffer);
    return encodeBase64(typedArrayToBytes(src));
  }
  return encodeBase64(typedArrayToBytes(a));
}

export function bytesToTypedArray<D extends Dtype>(bytes: Uint8Array, dtype: D): TypedArrayOf<D> {
  const bpe = bytesPerElement(dtype);
  if (bytes.length % bpe !== 0) throw new Error(`${bytes.length} bytes is not a whole number of ${dtype} elements`);
  const n = bytes.length / bpe;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (dtype) {
    case 'f32': {
      const bits = new Uint32Array(n);
      for (let i = 0; i < n; i++) bits[i] = view.getUint32(i * 4, true);
      return new Float32Array(bits.buffer) as TypedArrayOf<D>;
    }
    case 'u32': {
      const out = new Uint32Array(n);
      for (let i = 0; i < n; i++) out[i] = view.getUint32(i * 4, true);
      return out as TypedArrayOf<D>;
    }
    case 'u16': {
      const out = new Uint16Array(n);
      for (let i = 0; i < n; i++) out[i] = view.getUint16(i * 2, true);
      return out as TypedArrayOf<D>;
    }
    default: {
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) out[i] = view.getInt32(i * 4, true);
      return out as TypedArrayOf<D>;
    }
  }
}

export function base64ToTypedArray<D extends Dtype>(b64: string, dtype: D): TypedArrayOf<D> {
  return bytesToTypedArray(decodeBase64(b64), dtype);
}
