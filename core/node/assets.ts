/** The bytes of a shipped asset, by its path under `assets/` (node-only: for tests, benches and tools). */
import { readFileSync } from 'node:fs';

export function readAsset(rel: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../assets/${rel}`, import.meta.url)));
}
