/**
 * Flat typed-array helpers shared by the layers of `ImpulseSolver` (see solver.ts): the joint kinds,
 * growing a buffer, equality bit for bit, writing a constraint row [d, r × d] and completing a contact
 * normal to a frame.
 */
import { hypot3 } from '../math/libm';

export const KIND_BALL = 0;
export const KIND_LINEAR = 1;
export const KIND_PLANAR = 2;

export const F64 = (n: number) => new Float64Array(n);
export function growF(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  return a.length >= n ? a : new Float64Array(Math.max(n, a.length * 2));
}
export function growI(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  return a.length >= n ? a : new Int32Array(Math.max(n, a.length * 2));
}
export function growU(a: Uint8Array<ArrayBuffer>, n: number): Uint8Array<ArrayBuffer> {
  return a.length >= n ? a : new Uint8Array(Math.max(n, a.length * 2));
}

/** Equal as IEEE numbers bit for bit (−0 and +0 differ). */
export function sameBits(a: number, b: number): boolean {
  return a === b ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b;
}

/** Writes the 6-vector [d, r × d]·sign at out[o]. */
export function setRow(out: Float64Array, o: number, dx: number, dy: number, dz: number, rx: number, ry: number, rz: number, sign: number): void {
  out[o] = sign * dx;
  out[o + 1] = sign * dy;
  out[o + 2] = sign * dz;
  out[o + 3] = sign * (ry * dz - rz * dy);
  out[o + 4] = sign * (rz * dx - rx * dz);
  out[o + 5] = sign * (rx * dy - ry * dx);
}

/** Unit vectors t1, t2 completing the unit normal n to a right-handed frame. */
export function tangentBasis(nx: number, ny: number, nz: number, out: Float64Array, o: number): void {
  let ax = 0, ay = 0, az = 0;
  if (Math.abs(nx) < 0.57735) ax = 1;
  else if (Math.abs(ny) < 0.57735) ay = 1;
  else az = 1;
  // t1 = normalize(a × n)
  let tx = ay * nz - az * ny, ty = az * nx - ax * nz, tz = ax * ny - ay * nx;
  const l = hypot3(tx, ty, tz);
  tx /= l;
  ty /= l;
  tz /= l;
  out[o] = tx;
  out[o + 1] = ty;
  out[o + 2] = tz;
  out[o + 3] = ny * tz - nz * ty;
  out[o + 4] = nz * tx - nx * tz;
  out[o + 5] = nx * ty - ny * tx;
}
