/**
 * Test helpers for the importer: pack glTF JSON + binary into .glb or into a
 * .gltf with an embedded data: URI, and unpack a .glb. Pure byte handling
 * (no node imports) so tests and fuzzers can build files by hand.
 */

import { GltfImportError, importGltf } from './importGltf';

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface GlbParts {
  json: Record<string, any>;
  bin: Uint8Array | null;
}

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

function putU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 255;
  b[at + 1] = (v >>> 8) & 255;
  b[at + 2] = (v >>> 16) & 255;
  b[at + 3] = (v >>> 24) & 255;
}

/** Splits a well-formed .glb into its JSON and BIN chunk. */
export function unpackGlb(glb: Uint8Array): GlbParts {
  const jsonLength = u32(glb, 12);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  let at = 20 + jsonLength;
  let bin: Uint8Array | null = null;
  if (at + 8 <= glb.byteLength) {
    const binLength = u32(glb, at);
    bin = glb.slice(at + 8, at + 8 + binLength);
  }
  return { json, bin };
}

/** Packs JSON (+ optional BIN) into a .glb (chunks padded to 4 bytes). */
export function packGlb(json: unknown, bin: Uint8Array | null): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonPadded = (text.byteLength + 3) & ~3;
  const binPadded = bin ? (bin.byteLength + 3) & ~3 : 0;
  const total = 12 + 8 + jsonPadded + (bin ? 8 + binPadded : 0);
  const out = new Uint8Array(total);
  putU32(out, 0, 0x46546c67);
  putU32(out, 4, 2);
  putU32(out, 8, total);
  putU32(out, 12, jsonPadded);
  putU32(out, 16, 0x4e4f534a);
  out.set(text, 20);
  for (let i = 20 + text.byteLength; i < 20 + jsonPadded; i++) out[i] = 0x20;
  if (bin) {
    const at = 20 + jsonPadded;
    putU32(out, at, binPadded);
    putU32(out, at + 4, 0x004e4942);
    out.set(bin, at + 8);
  }
  return out;
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** A .gltf text with buffer 0 embedded as a data: URI (or left external as `externalUri`). */
export function packGltf(json: Record<string, any>, bin: Uint8Array | null, externalUri?: string): Uint8Array {
  const copy = JSON.parse(JSON.stringify(json));
  if (bin && copy.buffers?.[0]) copy.buffers[0].uri = externalUri ?? `data:application/octet-stream;base64,${base64(bin)}`;
  return new TextEncoder().encode(JSON.stringify(copy));
}

/**
 * The error with which `importGltf` refuses `bytes`; throws when the import
 * succeeds or fails with anything but a GltfImportError (repro tests of bad input).
 */
export async function importRefusal(bytes: Uint8Array, file: string): Promise<GltfImportError> {
  try {
    await importGltf(bytes, file);
  } catch (err) {
    if (err instanceof GltfImportError) return err;
    throw err;
  }
  throw new Error(`${file}: the import must be refused`);
}
