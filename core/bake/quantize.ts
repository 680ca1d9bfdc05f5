/**
 * Vertex quantisation for KHR_mesh_quantization exports (flat functions over
 * typed arrays).
 *
 * - Positions: int16 normalised, v = offset + scale · q / 32767 with one
 *   offset and one *uniform* scale per character. Skinned meshes ignore their
 *   node's transform, so the dequantisation goes into the inverse bind
 *   matrices (IBM' = IBM · D); a uniform scale keeps skinned normals
 *   pointing the right way (three.js and most engines transform normals by
 *   the skin matrix itself, not its inverse transpose). All meshes of a
 *   character share D, so they can share one skin.
 * - Normals: int8 (or int16) normalised, rounded from unit vectors.
 * - Weights: uint8 (or uint16) normalised, rounded so that each vertex's
 *   integer weights sum exactly to 255 (65535): largest remainder rounding,
 *   each weight within one step of its float value.
 */

import { hypot3 } from '../math/libm';
export interface PositionDequant {
  /** Centre of the positions' bounding box. */
  offset: [number, number, number];
  /** Half the largest bounding box side (> 0). */
  scale: number;
}

const I16 = 32767;

/** One dequantisation for all given position arrays (xyz triples). */
export function positionDequant(positionArrays: ArrayLike<number>[]): PositionDequant {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const p of positionArrays)
    for (let i = 0; i < p.length; i += 3)
      for (let c = 0; c < 3; c++) {
        const x = p[i + c];
        if (x < lo[c]) lo[c] = x;
        if (x > hi[c]) hi[c] = x;
      }
  if (!(lo[0] <= hi[0])) return { offset: [0, 0, 0], scale: 1 };
  const offset: [number, number, number] = [0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])];
  const half = 0.5 * Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  // Float32 storage of the offset and scale must still cover every vertex: a hair of margin.
  return { offset, scale: half > 0 ? half * (1 + 1e-6) : 1 };
}

/** D as a column-major 4×4: q ↦ offset + scale · q (q already divided by 32767). */
export function dequantMatrix(dq: PositionDequant, out: Float64Array = new Float64Array(16)): Float64Array {
  out.fill(0);
  out[0] = out[5] = out[10] = dq.scale;
  out[12] = dq.offset[0];
  out[13] = dq.offset[1];
  out[14] = dq.offset[2];
  out[15] = 1;
  return out;
}

/** int16 normalised positions. */
export function quantizePositions(positions: ArrayLike<number>, dq: PositionDequant): Int16Array {
  const out = new Int16Array(positions.length);
  const inv = I16 / dq.scale;
  for (let i = 0; i < positions.length; i += 3)
    for (let c = 0; c < 3; c++) {
      const q = Math.round((positions[i + c] - dq.offset[c]) * inv);
      out[i + c] = q > I16 ? I16 : q < -I16 ? -I16 : q;
    }
  return out;
}

/** What a loader reads back from a quantised position (float64). */
export function dequantizePosition(q: ArrayLike<number>, i: number, dq: PositionDequant, out: Float64Array, oo = 0): void {
  for (let c = 0; c < 3; c++) out[oo + c] = dq.offset[c] + dq.scale * Math.max(q[i + c] / I16, -1);
}

/** Normalised signed normals (bits 8 or 16) from any normals (zero normals become +Y). */
export function quantizeNormals(normals: ArrayLike<number>, bits: 8 | 16): Int8Array | Int16Array {
  const max = bits === 8 ? 127 : I16;
  const out = bits === 8 ? new Int8Array(normals.length) : new Int16Array(normals.length);
  for (let i = 0; i < normals.length; i += 3) {
    const l = hypot3(normals[i], normals[i + 1], normals[i + 2]);
    if (!(l > 0)) {
      out[i + 1] = max;
      continue;
    }
    const s = max / l;
    out[i] = Math.round(normals[i] * s);
    out[i + 1] = Math.round(normals[i + 1] * s);
    out[i + 2] = Math.round(normals[i + 2] * s);
  }
  return out;
}

/**
 * Normalised unsigned weights (bits 8 or 16), 4 per vertex, from float
 * weights that sum to 1 per vertex. Integer sums are exactly 255 / 65535.
 */
export function quantizeWeights(weights: ArrayLike<number>, bits: 8 | 16): Uint8Array | Uint16Array {
  const max = bits === 8 ? 255 : 65535;
  const out = bits === 8 ? new Uint8Array(weights.length) : new Uint16Array(weights.length);
  const frac = [0, 0, 0, 0];
  for (let v = 0; v < weights.length; v += 4) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += Math.max(0, weights[v + k]);
    const s = sum > 0 ? max / sum : 0;
    let given = 0;
    for (let k = 0; k < 4; k++) {
      const x = Math.max(0, weights[v + k]) * s;
      const f = Math.floor(x);
      out[v + k] = f;
      frac[k] = x - f;
      given += f;
    }
    // Hand the missing units to the largest remainders.
    for (let left = sum > 0 ? max - given : 0; left > 0; left--) {
      let best = 0;
      for (let k = 1; k < 4; k++) if (frac[k] > frac[best]) best = k;
      out[v + best]++;
      frac[best] = -1;
    }
  }
  return out;
}
