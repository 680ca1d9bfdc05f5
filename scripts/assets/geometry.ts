/**
 * Closed (watertight) triangle meshes for the generated assets: lathed
 * capsules and ellipsoids (rings of vertices between two single-vertex poles)
 * and boxes with 8 shared corners. Every edge is shared by exactly two
 * triangles with opposite orientation, and triangles wind counter-clockwise
 * seen from outside.
 */

export type V3 = [number, number, number];

export interface MeshData {
  positions: number[];
  indices: number[];
  /** Per-vertex axial parameter (0 at the start of the axis, 1 at its end, clamped). */
  axial: number[];
}

export function sub(a: V3, b: V3): V3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
export function add(a: V3, b: V3): V3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}
export function scale(a: V3, s: number): V3 {
  return [a[0] * s, a[1] * s, a[2] * s];
}
export function dot(a: V3, b: V3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
export function cross(a: V3, b: V3): V3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
export function len(a: V3): number {
  return Math.hypot(a[0], a[1], a[2]);
}
export function norm(a: V3): V3 {
  return scale(a, 1 / len(a));
}

/** Two unit vectors perpendicular to unit `d` (and to each other), right-handed: u × v = d. */
function basis(d: V3): [V3, V3] {
  const helper: V3 = Math.abs(d[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const u = norm(cross(helper, d));
  const v = cross(d, u);
  return [u, v];
}

/**
 * A lathed closed surface around the axis `p0 → p1`: `profile` lists
 * (axial distance from p0 in metres, radius) from pole to pole; the first and
 * last entries are the poles (radius ignored). `squash` scales the radius in
 * the two perpendicular directions (for ellipsoids).
 */
export function lathe(p0: V3, p1: V3, profile: [number, number][], around: number, squash: [number, number] = [1, 1], up?: V3): MeshData {
  const axis = sub(p1, p0);
  const L = len(axis);
  const d = scale(axis, 1 / L);
  let [u, v] = basis(d);
  if (up) {
    // Orient the first perpendicular along `up` projected off the axis.
    u = norm(sub(up, scale(d, dot(up, d))));
    v = cross(d, u);
  }
  const positions: number[] = [];
  const axial: number[] = [];
  const push = (p: V3, s: number): void => {
    positions.push(p[0], p[1], p[2]);
    axial.push(Math.min(1, Math.max(0, s / L)));
  };
  push(add(p0, scale(d, profile[0][0])), profile[0][0]);
  for (let r = 1; r < profile.length - 1; r++) {
    const [s, rad] = profile[r];
    const c = add(p0, scale(d, s));
    for (let k = 0; k < around; k++) {
      const a = (2 * Math.PI * k) / around;
      const off = add(scale(u, Math.cos(a) * rad * squash[0]), scale(v, Math.sin(a) * rad * squash[1]));
      push(add(c, off), s);
    }
  }
  const last = profile[profile.length - 1][0];
  push(add(p0, scale(d, last)), last);
  const rings = profile.length - 2;
  const ring = (r: number, k: number): number => 1 + r * around + (k % around);
  const top = positions.length / 3 - 1;
  const indices: number[] = [];
  // Seen from outside, the ring goes u → v counter-clockwise around +d; the start pole looks along -d.
  for (let k = 0; k < around; k++) indices.push(0, ring(0, k + 1), ring(0, k));
  for (let r = 0; r < rings - 1; r++)
    for (let k = 0; k < around; k++) {
      const a = ring(r, k), b = ring(r, k + 1), c = ring(r + 1, k), e = ring(r + 1, k + 1);
      indices.push(a, b, e, a, e, c);
    }
  for (let k = 0; k < around; k++) indices.push(top, ring(rings - 1, k), ring(rings - 1, k + 1));
  return { positions, indices, axial };
}

/** A capsule from `p0` to `p1` with end radii `r0`, `r1` (hemispherical caps beyond the ends). */
export function capsule(p0: V3, p1: V3, r0: number, r1: number, around = 14, capRings = 4, bodyRings = 4, squash: [number, number] = [1, 1], up?: V3): MeshData {
  const L = len(sub(p1, p0));
  const profile: [number, number][] = [[-r0, 0]];
  for (let i = 1; i <= capRings; i++) {
    const a = -Math.PI / 2 + (Math.PI / 2) * (i / capRings);
    profile.push([r0 * Math.sin(a), r0 * Math.cos(a)]);
  }
  for (let i = 1; i < bodyRings; i++) {
    const t = i / bodyRings;
    profile.push([t * L, r0 + (r1 - r0) * t]);
  }
  for (let i = 0; i < capRings; i++) {
    const a = (Math.PI / 2) * (i / capRings);
    profile.push([L + r1 * Math.sin(a), r1 * Math.cos(a)]);
  }
  profile.push([L + r1, 0]);
  return lathe(p0, p1, profile, around, squash, up);
}

/** An ellipsoid centred at `c` with semi-axis `a` along `dir` and `b`, `cc` across it. */
export function ellipsoid(c: V3, dir: V3, a: number, b: number, cc: number, around = 16, rings = 10, up?: V3): MeshData {
  const d = norm(dir);
  const p0 = sub(c, scale(d, a));
  const p1 = add(c, scale(d, a));
  const profile: [number, number][] = [];
  for (let i = 0; i <= rings; i++) {
    const t = -Math.PI / 2 + (Math.PI * i) / rings;
    profile.push([a + a * Math.sin(t), Math.cos(t)]);
  }
  return lathe(p0, p1, profile, around, [b, cc], up);
}

/** An axis-aligned box from `min` to `max` with 8 shared corners (closed). */
export function box(min: V3, max: V3): MeshData {
  const positions: number[] = [];
  for (let i = 0; i < 8; i++) positions.push(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]);
  // Faces as corner quads, counter-clockwise from outside.
  const quads = [
    [0, 2, 3, 1], // z-
    [4, 5, 7, 6], // z+
    [0, 1, 5, 4], // y-
    [2, 6, 7, 3], // y+
    [0, 4, 6, 2], // x-
    [1, 3, 7, 5], // x+
  ];
  const indices: number[] = [];
  for (const [a, b, c, d] of quads) indices.push(a, b, c, a, c, d);
  return { positions, indices, axial: new Array(8).fill(0) };
}

/** Signed volume by the divergence theorem (positive for outward winding). */
export function signedVolume(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let v = 0;
  for (let k = 0; k < indices.length; k += 3) {
    const a = 3 * indices[k], b = 3 * indices[k + 1], c = 3 * indices[k + 2];
    const ax = positions[a], ay = positions[a + 1], az = positions[a + 2];
    const bx = positions[b], by = positions[b + 1], bz = positions[b + 2];
    const cx = positions[c], cy = positions[c + 1], cz = positions[c + 2];
    v += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  }
  return v / 6;
}

/** Area-weighted smooth vertex normals. */
export function vertexNormals(positions: ArrayLike<number>, indices: ArrayLike<number>): Float32Array {
  const n = new Float64Array(positions.length);
  for (let k = 0; k < indices.length; k += 3) {
    const a = indices[k], b = indices[k + 1], c = indices[k + 2];
    const e1: V3 = [positions[3 * b] - positions[3 * a], positions[3 * b + 1] - positions[3 * a + 1], positions[3 * b + 2] - positions[3 * a + 2]];
    const e2: V3 = [positions[3 * c] - positions[3 * a], positions[3 * c + 1] - positions[3 * a + 1], positions[3 * c + 2] - positions[3 * a + 2]];
    const f = cross(e1, e2);
    for (const i of [a, b, c]) for (let j = 0; j < 3; j++) n[3 * i + j] += f[j];
  }
  const out = new Float32Array(positions.length);
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.hypot(n[i], n[i + 1], n[i + 2]) || 1;
    out[i] = n[i] / l;
    out[i + 1] = n[i + 1] / l;
    out[i + 2] = n[i + 2] / l;
  }
  return out;
}

/** Appends `b` to `a` (indices offset). */
export function append(a: MeshData, b: MeshData): void {
  const base = a.positions.length / 3;
  for (const p of b.positions) a.positions.push(p);
  for (const i of b.indices) a.indices.push(i + base);
  for (const s of b.axial) a.axial.push(s);
}
