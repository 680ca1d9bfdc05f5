import { describe, expect, it } from 'vitest';
import { base64ToTypedArray, decodeBase64, encodeBase64, typedArrayToBase64 } from './base64';
import { mulberry32 } from './fixtures';

/** Slow obvious reference: bytes -> bit string -> 6-bit groups -> alphabet, then '=' padding. */
function referenceEncode(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  while (bits.length % 6 !== 0) bits += '0';
  let s = '';
  for (let i = 0; i < bits.length; i += 6) s += alphabet[parseInt(bits.slice(i, i + 6), 2)];
  while (s.length % 4 !== 0) s += '=';
  return s;
}

describe('base64', () => {
  it('encodes like a bit-by-bit reference and decodes back, seed 1234, lengths 0..200', () => {
    const rand = mulberry32(1234);
    for (let len = 0; len <= 200; len++) {
      const bytes = new Uint8Array(len);
      for (let i = 0; i < len; i++) bytes[i] = Math.floor(rand() * 256);
      const enc = encodeBase64(bytes);
      expect(enc, `encoding of ${len} bytes`).toBe(referenceEncode(bytes));
      expect(Array.from(decodeBase64(enc)), `decoding of ${len} bytes`).toEqual(Array.from(bytes));
    }
  });

  it('matches RFC 4648 test vectors', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, b64] of vectors) {
      const bytes = new Uint8Array([...plain].map((c) => c.charCodeAt(0)));
      expect(encodeBase64(bytes)).toBe(b64);
      expect(String.fromCharCode(...decodeBase64(b64))).toBe(plain);
    }
  });

  it('handles inputs larger than one String.fromCharCode chunk, seed 99', () => {
    const rand = mulberry32(99);
    const bytes = new Uint8Array(300_001);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
    const enc = encodeBase64(bytes);
    expect(enc).toBe(Buffer.from(bytes).toString('base64'));
    const back = decodeBase64(enc);
    let mismatches = 0;
    for (let i = 0; i < bytes.length; i++) if (back[i] !== bytes[i]) mismatches++;
    expect(back.length).toBe(bytes.length);
    expect(mismatches, 'bytes that differ after decoding').toBe(0);
  });

  it('rejects malformed base64 with the offending offset', () => {
    expect(() => decodeBase64('Zm9')).toThrow(/not a multiple of 4/);
    expect(() => decodeBase64('Zm9v$m9v')).toThrow(/invalid base64 character "\$" at offset 4/);
    expect(() => decodeBase64('Zg==Zg==')).toThrow(/invalid base64 character "=" at offset 2/);
    expect(() => decodeBase64('Z===')).toThrow(/offset 1/);
    expect(() => decodeBase64('Zm9\u0176')).toThrow(/offset 3/);
  });

  it('writes typed arrays little-endian regardless of platform', () => {
    expect(typedArrayToBase64(new Uint16Array([0x0102]))).toBe(encodeBase64(new Uint8Array([0x02, 0x01])));
    expect(typedArrayToBase64(new Uint32Array([0x01020304]))).toBe(encodeBase64(new Uint8Array([4, 3, 2, 1])));
    expect(typedArrayToBase64(new Int32Array([-2]))).toBe(encodeBase64(new Uint8Array([0xfe, 0xff, 0xff, 0xff])));
    // 1.0f = 0x3f800000
    expect(typedArrayToBase64(new Float32Array([1]))).toBe(encodeBase64(new Uint8Array([0, 0, 0x80, 0x3f])));
  });

  it('round-trips every dtype bit-exactly, including -0, subnormals, extremes and NaN payloads, seed 7', () => {
    const rand = mulberry32(7);
    const bits = new Uint32Array(1000);
    for (let i = 0; i < bits.length; i++) bits[i] = Math.floor(rand() * 0x100000000);
    bits.set([0x80000000, 0x00000001, 0x7f7fffff, 0x7fc00001, 0xffc12345, 0x7f800000], 0);
    const f = new Float32Array(bits.buffer);
    const back = base64ToTypedArray(typedArrayToBase64(f), 'f32');
    expect(Array.from(new Uint32Array(back.buffer)), 'f32 bits').toEqual(Array.from(bits));

    const u16 = new Uint16Array(777).map(() => Math.floor(rand() * 65536));
    expect(base64ToTypedArray(typedArrayToBase64(u16), 'u16')).toEqual(u16);
    const i32 = new Int32Array(513).map(() => Math.floor(rand() * 0x100000000) - 0x80000000);
    expect(base64ToTypedArray(typedArrayToBase64(i32), 'i32')).toEqual(i32);
    const u32 = new Uint32Array(99).map(() => Math.floor(rand() * 0x100000000));
    expect(base64ToTypedArray(typedArrayToBase64(u32), 'u32')).toEqual(u32);
  });

  it('encodes a typed array view of a larger buffer without the rest of the buffer', () => {
    const big = new Float32Array([1, 2, 3, 4, 5, 6]);
    const view = big.subarray(2, 4);
    expect(Array.from(base64ToTypedArray(typedArrayToBase64(view), 'f32'))).toEqual([3, 4]);
    const u16 = new Uint16Array([1, 2, 3, 4]).subarray(1, 3);
    expect(Array.from(base64ToTypedArray(typedArrayToBase64(u16), 'u16'))).toEqual([2, 3]);
  });

  it('rejects a block whose byte count is not a whole number of elements', () => {
    expect(() => base64ToTypedArray(encodeBase64(new Uint8Array(6)), 'f32')).toThrow(/6 bytes is not a whole number of f32/);
  });
});
