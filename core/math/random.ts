/**
 * Seeded generator for tests and benchmarks (mulberry32): the same seed gives
 * the same sequence, uniform in [0, 1). Put the seed in the test name.
 * Not for anything the app ships; it is small and fast, not strong.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
