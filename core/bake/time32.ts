/**
 * glTF stores key times as float32. The bake works on that time axis: every
 * time it writes or measures at is a float32 value, so the keys it checks are
 * the keys a loader reads (no two collapse into one time, no cubic segment
 * changes length on the way to the file). Written keys are also at least
 * MIN_KEY_INTERVAL_SEC apart, the document's (and our importer's) rule.
 */
import { MIN_KEY_INTERVAL_SEC } from '../document/validate';

/** True when key time `t` may follow key time `prev` (both float32 values). */
export function keyFollows(prev: number, t: number): boolean {
  return t - prev >= MIN_KEY_INTERVAL_SEC;
}

const _f = new Float32Array(1);
const _i = new Int32Array(_f.buffer);

/** The float32 right above a non-negative float32 `f`. */
export function nextUp32(f: number): number {
  _f[0] = f;
  _i[0] += 1;
  return _f[0];
}

/** The float32 right below a positive float32 `f`. */
function nextDown32(f: number): number {
  _f[0] = f;
  _i[0] -= 1;
  return _f[0];
}

/** Largest float32 <= x (x >= 0). */
export function float32Down(x: number): number {
  const f = Math.fround(x);
  return f > x ? nextDown32(f) : f;
}

/** Smallest float32 >= x (x >= 0). */
export function float32Up(x: number): number {
  const f = Math.fround(x);
  return f < x ? nextUp32(f) : f;
}

/**
 * The first time after float32 key time `t` that a key may take: the next
 * float32, at least MIN_KEY_INTERVAL_SEC later.
 */
export function nextKeyTime32(t: number): number {
  const a = nextUp32(t);
  return keyFollows(t, a) ? a : float32Up(t + MIN_KEY_INTERVAL_SEC);
}
