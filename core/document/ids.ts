/**
 * Object ids: `<prefix>_<8 random base36 chars>`. The generator is
 * injectable so tests (and deterministic tools) can make ids reproducible.
 */

export type IdGenerator = (prefix: string) => string;

function randomChars(n: number): string {
  const cryptoObj = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
  const buf = new Uint32Array(n);
  if (cryptoObj?.getRandomValues) cryptoObj.getRandomValues(buf);
  else for (let i = 0; i < n; i++) buf[i] = Math.floor(Math.random() * 0x100000000);
  let s = '';
  for (let i = 0; i < n; i++) s += (buf[i] % 36).toString(36);
  return s;
}

export const randomIdGenerator: IdGenerator = (prefix) => `${prefix}_${randomChars(8)}`;

/** Deterministic ids `<prefix>_<n>` counting from `start`, for tests. */
export function sequentialIdGenerator(start = 1): IdGenerator {
  let n = start;
  return (prefix) => `${prefix}_${n++}`;
}

let current: IdGenerator = randomIdGenerator;

/** A new id such as `prop_k3x9q0az`. */
export function newId(prefix: string): string {
  return current(prefix);
}

/** Replaces the id generator (null restores the random one); returns the previous generator. */
export function setIdGenerator(gen: IdGenerator | null): IdGenerator {
  const prev = current;
  current = gen ?? randomIdGenerator;
  return prev;
}

/** A new id with `prefix` that is not in `taken`. */
export function newUniqueId(prefix: string, taken: ReadonlySet<string>): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const id = current(prefix);
    if (!taken.has(id)) return id;
  }
  throw new Error(`could not make a unique id with prefix "${prefix}" in 1000 attempts (is the id generator constant?)`);
}
