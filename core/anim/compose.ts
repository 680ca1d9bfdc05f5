/**
 * The exact time derivative of a glTF TRS matrix M = T·R(q)·S, given the
 * transform (t, q, s) and its derivative (ṫ, q̇, ṡ), 10 numbers each.
 *
 * R(q) is differentiated in the same algebraic form `mat4Compose` evaluates
 * (1 − 2(y² + z²), 2(xy + wz), ...), so the result is the derivative of the
 * matrix actually computed, even for slightly non-unit q.
 */
import type { FlatOut } from './track';

export function mat4ComposeDerivative(
  out: FlatOut,
  oo: number,
  trs: ArrayLike<number>,
  to: number,
  dot: ArrayLike<number>,
  doo: number,
): void {
  const x = trs[to + 3], y = trs[to + 4], z = trs[to + 5], w = trs[to + 6];
  const sx = trs[to + 7], sy = trs[to + 8], sz = trs[to + 9];
  const dx = dot[doo + 3], dy = dot[doo + 4], dz = dot[doo + 5], dw = dot[doo + 6];
  const dsx = dot[doo + 7], dsy = dot[doo + 8], dsz = dot[doo + 9];
  // R (rows r, columns c)
  const r00 = 1 - 2 * (y * y + z * z), r10 = 2 * (x * y + w * z), r20 = 2 * (x * z - w * y);
  const r01 = 2 * (x * y - w * z), r11 = 1 - 2 * (x * x + z * z), r21 = 2 * (y * z + w * x);
  const r02 = 2 * (x * z + w * y), r12 = 2 * (y * z - w * x), r22 = 1 - 2 * (x * x + y * y);
  // Ṙ
  const d00 = -4 * (y * dy + z * dz), d10 = 2 * (dx * y + x * dy + dw * z + w * dz), d20 = 2 * (dx * z + x * dz - dw * y - w * dy);
  const d01 = 2 * (dx * y + x * dy - dw * z - w * dz), d11 = -4 * (x * dx + z * dz), d21 = 2 * (dy * z + y * dz + dw * x + w * dx);
  const d02 = 2 * (dx * z + x * dz + dw * y + w * dy), d12 = 2 * (dy * z + y * dz - dw * x - w * dx), d22 = -4 * (x * dx + y * dy);
  // d(R S)/dt = Ṙ S + R Ṡ, column by column.
  out[oo] = d00 * sx + r00 * dsx;
  out[oo + 1] = d10 * sx + r10 * dsx;
  out[oo + 2] = d20 * sx + r20 * dsx;
  out[oo + 3] = 0;
  out[oo + 4] = d01 * sy + r01 * dsy;
  out[oo + 5] = d11 * sy + r11 * dsy;
  out[oo + 6] = d21 * sy + r21 * dsy;
  out[oo + 7] = 0;
  out[oo + 8] = d02 * sz + r02 * dsz;
  out[oo + 9] = d12 * sz + r12 * dsz;
  out[oo + 10] = d22 * sz + r22 * dsz;
  out[oo + 11] = 0;
  out[oo + 12] = dot[doo];
  out[oo + 13] = dot[doo + 1];
  out[oo + 14] = dot[doo + 2];
  out[oo + 15] = 0;
}
