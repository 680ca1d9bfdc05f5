/** Seeded generator shared with the core (seed goes in the test name). */
export { mulberry32 } from '../../../core/math/random';

export function randomUnitQuat(rand: () => number, out: number[] = [0, 0, 0, 1]): number[] {
  // Shoemake's uniform random rotation.
  const u1 = rand(), u2 = rand() * 2 * Math.PI, u3 = rand() * 2 * Math.PI;
  const s1 = Math.sqrt(1 - u1), s2 = Math.sqrt(u1);
  out[0] = s1 * Math.sin(u2);
  out[1] = s1 * Math.cos(u2);
  out[2] = s2 * Math.sin(u3);
  out[3] = s2 * Math.cos(u3);
  return out;
}
