/**
 * Signed distance to a triangle surface with the sign taken from the
 * angle-weighted pseudo-normal of the closest feature (Bærentzen & Aanæs 2005,
 * "Signed distance computation using the angle weighted pseudonormal"): for a
 * closed, manifold, consistently oriented mesh, p is inside exactly when
 * (p − c)·n < 0, where c is the closest point and n the pseudo-normal of the
 * face, edge or vertex c lies on (face: its normal; edge: sum of the two face
 * normals; vertex: Σ incidentAngle·faceNormal).
 *
 * Used where parity cannot decide: against a sub-patch of a surface (one body
 * part of a character, for self-collision) and against open meshes.
 */
import { NODE_BYTES, TriangleBVH } from './bvh';
import { atan2 } from '../math/libm';

const W = NODE_BYTES / 4;

/** Vertex → incident triangles (CSR): triangles of vertex v are tris[offsets[v] .. offsets[v+1]). */
export interface VertexTriangles {
  offsets: Int32Array;
  tris: Int32Array;
}

export function vertexTriangles(indices: ArrayLike<number>, vertexCount: number): VertexTriangles {
  const offsets = new Int32Array(vertexCount + 1);
  for (let i = 0; i < indices.length; i++) offsets[indices[i] + 1]++;
  for (let v = 0; v < vertexCount; v++) offsets[v + 1] += offsets[v];
  const fill = offsets.slice(0, vertexCount);
  const tris = new Int32Array(indices.length);
  for (let i = 0; i < indices.length; i++) tris[fill[indices[i]]++] = (i / 3) | 0;
  return { offsets, tris };
}

/**
 * Region codes of the closest point on a triangle: 0 face interior, 1..3
 * vertex a, b, c, 4 edge ab, 5 edge bc, 6 edge ca.
 */
export const REGION_FACE = 0;

/** Closest point on triangle abc (Ericson 5.1.5) into out[0..2]; returns the region code. */
export function closestPointOnTriangleRegion(
  px: number, py: number, pz: number, P: ArrayLike<number>, A: number, B: number, C: number, out: Float64Array,
): number {
  const ax = P[A], ay = P[A + 1], az = P[A + 2];
  const abx = P[B] - ax, aby = P[B + 1] - ay, abz = P[B + 2] - az;
  const acx = P[C] - ax, acy = P[C + 1] - ay, acz = P[C + 2] - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) { out[0] = ax; out[1] = ay; out[2] = az; return 1; }
  const bpx = px - P[B], bpy = py - P[B + 1], bpz = pz - P[B + 2];
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) { out[0] = P[B]; out[1] = P[B + 1]; out[2] = P[B + 2]; return 2; }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    out[0] = ax + v * abx; out[1] = ay + v * aby; out[2] = az + v * abz; return 4;
  }
  const cpx = px - P[C], cpy = py - P[C + 1], cpz = pz - P[C + 2];
  const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) { out[0] = P[C]; out[1] = P[C + 1]; out[2] = P[C + 2]; return 3; }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6);
    out[0] = ax + w * acx; out[1] = ay + w * acy; out[2] = az + w * acz; return 6;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    out[0] = P[B] + w * (P[C] - P[B]); out[1] = P[B + 1] + w * (P[C + 1] - P[B + 1]); out[2] = P[B + 2] + w * (P[C + 2] - P[B + 2]);
    return 5;
  }
  const denom = 1 / (va + vb + vc);
  const v = vb * denom, w = vc * denom;
  out[0] = ax + abx * v + acx * w; out[1] = ay + aby * v + acy * w; out[2] = az + abz * v + acz * w;
  return 0;
}

const _n = new Float64Array(3);

/** Unit normal of triangle t into _n; false when degenerate. */
function faceNormal(P: ArrayLike<number>, I: ArrayLike<number>, t: number): boolean {
  const a = I[t * 3] * 3, b = I[t * 3 + 1] * 3, c = I[t * 3 + 2] * 3;
  const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
  const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (l === 0) return false;
  _n[0] = nx / l; _n[1] = ny / l; _n[2] = nz / l;
  return true;
}

/** Interior angle of triangle t at its corner vertex v (position index v·3). */
function cornerAngle(P: ArrayLike<number>, I: ArrayLike<number>, t: number, v: number): number {
  let k = 0;
  while (k < 3 && I[t * 3 + k] !== v) k++;
  const a = v * 3, b = I[t * 3 + ((k + 1) % 3)] * 3, c = I[t * 3 + ((k + 2) % 3)] * 3;
  const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
  const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
  const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
  return atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ux * vx + uy * vy + uz * vz);
}

/**
 * Pseudo-normal (not normalised) of the feature `region` of triangle `tri`
 * into out[0..2]. Returns false when the feature touches a triangle for which
 * `allowed(tri)` is false (the feature lies on the border of the sub-surface,
 * where the sign cannot be decided), or when the edge is not manifold.
 */
export function featurePseudoNormal(
  P: ArrayLike<number>, I: ArrayLike<number>, vt: VertexTriangles, tri: number, region: number, out: Float64Array,
  allowed: ((t: number) => boolean) | null,
): boolean {
  out[0] = out[1] = out[2] = 0;
  if (region === 0) {
    if (!faceNormal(P, I, tri)) return false;
    out[0] = _n[0]; out[1] = _n[1]; out[2] = _n[2];
    return true;
  }
  if (region <= 3) {
    const v = I[tri * 3 + region - 1];
    for (let i = vt.offsets[v]; i < vt.offsets[v + 1]; i++) {
      const t = vt.tris[i];
      if (allowed !== null && !allowed(t)) return false;
      if (!faceNormal(P, I, t)) continue;
      const w = cornerAngle(P, I, t, v);
      out[0] += w * _n[0]; out[1] += w * _n[1]; out[2] += w * _n[2];
    }
    return true;
  }
  const e = region - 4;
  const v0 = I[tri * 3 + e], v1 = I[tri * 3 + ((e + 1) % 3)];
  let count = 0;
  for (let i = vt.offsets[v0]; i < vt.offsets[v0 + 1]; i++) {
    const t = vt.tris[i];
    if (I[t * 3] !== v1 && I[t * 3 + 1] !== v1 && I[t * 3 + 2] !== v1) continue;
    if (allowed !== null && !allowed(t)) return false;
    count++;
    if (!faceNormal(P, I, t)) continue;
    out[0] += _n[0]; out[1] += _n[1]; out[2] += _n[2];
  }
  return count === 2;
}

const _cp = new Float64Array(3);
const _pn = new Float64Array(3);
let _stack = new Int32Array(256);

/**
 * Signed distance from p to the triangles covered by `bvh` (negative inside),
 * the sign from the pseudo-normal of the closest feature. Returns NaN when the
 * sign cannot be decided (the closest feature is on the border of the allowed
 * triangles, or not manifold), +Infinity for an empty tree. `maxDist` bounds
 * the search: farther points return +Infinity.
 */
export function signedDistance(
  bvh: TriangleBVH, P: ArrayLike<number>, vt: VertexTriangles, px: number, py: number, pz: number,
  allowed: ((t: number) => boolean) | null, maxDist = Infinity,
): number {
  const f = bvh.f32, u = bvh.u32, order = bvh.order, idx = bvh.indices;
  if (bvh.triangleCount === 0) return Infinity;
  let best = maxDist === Infinity ? Infinity : maxDist * maxDist;
  let bestTri = -1, bestRegion = 0, cx = 0, cy = 0, cz = 0;
  let st = _stack;
  let sp = 0;
  st[sp++] = 0;
  while (sp > 0) {
    const node = st[--sp];
    const o = node * W;
    const dx = Math.max(f[o] - px, 0, px - f[o + 3]);
    const dy = Math.max(f[o + 1] - py, 0, py - f[o + 4]);
    const dz = Math.max(f[o + 2] - pz, 0, pz - f[o + 5]);
    if (dx * dx + dy * dy + dz * dz > best) continue;
    if (u[o + 7] & 0x80000000) {
      const s = u[o + 6], c = u[o + 7] & 0x7fffffff;
      for (let i = s; i < s + c; i++) {
        const t = order[i];
        const r = closestPointOnTriangleRegion(px, py, pz, P, idx[t * 3] * 3, idx[t * 3 + 1] * 3, idx[t * 3 + 2] * 3, _cp);
        const ex = _cp[0] - px, ey = _cp[1] - py, ez = _cp[2] - pz;
        const d = ex * ex + ey * ey + ez * ez;
        if (d < best || (d === best && bestTri < 0)) {
          best = d; bestTri = t; bestRegion = r; cx = _cp[0]; cy = _cp[1]; cz = _cp[2];
        }
      }
      continue;
    }
    if (sp + 2 > st.length) {
      const ns = new Int32Array(st.length * 2);
      ns.set(st);
      st = _stack = ns;
    }
    if (bvh.chunkOf !== null && bvh.chunkOf[node] >= 0) bvh.ensureChunk(bvh.chunkOf[node]);
    st[sp++] = u[o + 6];
    st[sp++] = node + 1;
  }
  if (bestTri < 0) return Infinity;
  const dist = Math.sqrt(best);
  if (!featurePseudoNormal(P, idx, vt, bestTri, bestRegion, _pn, allowed)) return NaN;
  const s = (px - cx) * _pn[0] + (py - cy) * _pn[1] + (pz - cz) * _pn[2];
  return s < 0 ? -dist : dist;
}
