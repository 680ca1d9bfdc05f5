/**
 * Mass properties of closed triangle meshes by the divergence theorem
 * (Mirtich 1996, "Fast and Accurate Computation of Polyhedral Mass
 * Properties", in the form of Eberly's "Polyhedral Mass Properties
 * (Revisited)"): the volume integrals of 1, x, y, z, x², y², z², xy, yz, zx
 * become sums over the triangles. Exact for any closed, consistently wound
 * mesh, convex or not. Work is in float64 relative to a reference vertex so
 * far-from-origin meshes keep their precision.
 */
import type { Prop } from './types';
import { hypot3 } from '../math/libm';

export interface MassProperties {
  /** m³ (after scale). */
  volume: number;
  massKg: number;
  /** In the mesh's frame (after scale). */
  centerOfMass: [number, number, number];
  /** Inertia tensor about the centre of mass, kg·m², column-major 3x3. */
  inertia: number[];
  /** Whether the mesh is closed (every edge shared by exactly two oppositely wound triangles). */
  closed: boolean;
}

export interface PropMassProperties extends MassProperties {
  /**
   * `solid` for closed meshes. `shell` when a prop with `massKg` has an open
   * mesh: the mass is then spread uniformly over the surface (a thin shell),
   * the only distribution an open surface defines.
   */
  distribution: 'solid' | 'shell';
}

const _integrals = new Float64Array(10);

/**
 * Volume integrals [1, x, y, z, x², y², z², xy, yz, zx] of the solid bounded
 * by the mesh, with vertices scaled by `scale` and taken relative to `ref`.
 */
function volumeIntegrals(
  out: Float64Array,
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  sx: number,
  sy: number,
  sz: number,
  rx: number,
  ry: number,
  rz: number,
): void {
  let i0 = 0, i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0, i7 = 0, i8 = 0, i9 = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    const x0 = positions[a] * sx - rx, y0 = positions[a + 1] * sy - ry, z0 = positions[a + 2] * sz - rz;
    const x1 = positions[b] * sx - rx, y1 = positions[b + 1] * sy - ry, z1 = positions[b + 2] * sz - rz;
    const x2 = positions[c] * sx - rx, y2 = positions[c + 1] * sy - ry, z2 = positions[c + 2] * sz - rz;
    // Normal (not normalised): (p1 - p0) x (p2 - p0).
    const a1 = x1 - x0, b1 = y1 - y0, c1 = z1 - z0;
    const a2 = x2 - x0, b2 = y2 - y0, c2 = z2 - z0;
    const d0 = b1 * c2 - b2 * c1, d1 = a2 * c1 - a1 * c2, d2 = a1 * b2 - a2 * b1;

    // Subexpressions for x.
    let t0 = x0 + x1, tt1 = x0 * x0, tt2 = tt1 + x1 * t0;
    const f1x = t0 + x2, f2x = tt2 + x2 * f1x, f3x = x0 * tt1 + x1 * tt2 + x2 * f2x;
    const g0x = f2x + x0 * (f1x + x0), g1x = f2x + x1 * (f1x + x1), g2x = f2x + x2 * (f1x + x2);
    // y.
    t0 = y0 + y1; tt1 = y0 * y0; tt2 = tt1 + y1 * t0;
    const f1y = t0 + y2, f2y = tt2 + y2 * f1y, f3y = y0 * tt1 + y1 * tt2 + y2 * f2y;
    const g0y = f2y + y0 * (f1y + y0), g1y = f2y + y1 * (f1y + y1), g2y = f2y + y2 * (f1y + y2);
    // z.
    t0 = z0 + z1; tt1 = z0 * z0; tt2 = tt1 + z1 * t0;
    const f1z = t0 + z2, f2z = tt2 + z2 * f1z, f3z = z0 * tt1 + z1 * tt2 + z2 * f2z;
    const g0z = f2z + z0 * (f1z + z0), g1z = f2z + z1 * (f1z + z1), g2z = f2z + z2 * (f1z + z2);

    i0 += d0 * f1x;
    i1 += d0 * f2x;
    i2 += d1 * f2y;
    i3 += d2 * f2z;
    i4 += d0 * f3x;
    i5 += d1 * f3y;
    i6 += d2 * f3z;
    i7 += d0 * (y0 * g0x + y1 * g1x + y2 * g2x);
    i8 += d1 * (z0 * g0y + z1 * g1y + z2 * g2y);
    i9 += d2 * (x0 * g0z + x1 * g1z + x2 * g2z);
  }
  out[0] = i0 / 6;
  out[1] = i1 / 24;
  out[2] = i2 / 24;
  out[3] = i3 / 24;
  out[4] = i4 / 60;
  out[5] = i5 / 60;
  out[6] = i6 / 60;
  out[7] = i7 / 120;
  out[8] = i8 / 120;
  out[9] = i9 / 120;
}

/** Exact-position welding: for each vertex, the first vertex with bit-identical position. */
function weldMap(positions: ArrayLike<number>): Uint32Array {
  const n = Math.floor(positions.length / 3);
  const map = new Uint32Array(n);
  const seen = new Map<string, number>();
  for (let v = 0; v < n; v++) {
    // -0 and 0 are the same point.
    const key = `${positions[3 * v] + 0},${positions[3 * v + 1] + 0},${positions[3 * v + 2] + 0}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, v);
      map[v] = v;
    } else map[v] = first;
  }
  return map;
}

/**
 * True when every edge of the triangle list is used exactly once in each
 * direction, i.e. shared by exactly two triangles of opposite winding (a
 * closed, consistently oriented, edge-manifold surface). Degenerate
 * triangles (a repeated vertex) make a mesh not closed.
 *
 * With `positions`, vertices at bit-identical positions count as one, so
 * meshes split at normal or UV seams (as glTF meshes are) are recognised.
 */
export function isClosedMesh(indices: ArrayLike<number>, positions?: ArrayLike<number>): boolean {
  if (indices.length === 0 || indices.length % 3 !== 0) return false;
  const weld = positions ? weldMap(positions) : null;
  const id = (i: number) => (weld ? weld[indices[i]] : indices[i]);
  let maxIndex = 0;
  for (let i = 0; i < indices.length; i++) if (id(i) > maxIndex) maxIndex = id(i);
  const n = maxIndex + 1;
  // Directed edge (a, b) -> a * n + b while that stays an exact integer.
  const numeric = n <= 94906265;
  const edges = new Map<number | string, number>();
  const key = (a: number, b: number) => (numeric ? a * n + b : `${a},${b}`);
  for (let t = 0; t < indices.length; t += 3) {
    const a = id(t), b = id(t + 1), c = id(t + 2);
    if (a === b || b === c || c === a) return false;
    for (const [u, v] of [[a, b], [b, c], [c, a]]) {
      const k = key(u, v);
      if (edges.has(k)) return false; // the same directed edge twice: non-manifold or inconsistent winding
      edges.set(k, 1);
    }
  }
  for (const k of edges.keys()) {
    let u: number, v: number;
    if (typeof k === 'number') {
      u = Math.floor(k / n);
      v = k - u * n;
    } else {
      const [su, sv] = k.split(',');
      u = Number(su);
      v = Number(sv);
    }
    if (!edges.has(key(v, u))) return false;
  }
  return true;
}

/** Shifts volume integrals to mass properties about the centre of mass. */
function fromIntegrals(I: Float64Array, density: number, rx: number, ry: number, rz: number, closed: boolean): MassProperties {
  // A closed mesh wound inside out (or mirrored by a negative scale) has negative volume: same solid.
  const sign = I[0] < 0 ? -1 : 1;
  const volume = sign * I[0];
  const massKg = volume * density;
  const cx = I[1] / I[0], cy = I[2] / I[0], cz = I[3] / I[0];
  const k = sign * density;
  // About the reference point.
  const xx = I[4] * k, yy = I[5] * k, zz = I[6] * k, xy = I[7] * k, yz = I[8] * k, zx = I[9] * k;
  // Parallel-axis shift to the centre of mass.
  const Ixx = yy + zz - massKg * (cy * cy + cz * cz);
  const Iyy = xx + zz - massKg * (cx * cx + cz * cz);
  const Izz = xx + yy - massKg * (cx * cx + cy * cy);
  const Ixy = -xy + massKg * cx * cy;
  const Iyz = -yz + massKg * cy * cz;
  const Izx = -zx + massKg * cz * cx;
  return {
    volume,
    massKg,
    centerOfMass: [cx + rx, cy + ry, cz + rz],
    inertia: [Ixx, Ixy, Izx, Ixy, Iyy, Iyz, Izx, Iyz, Izz],
    closed,
  };
}

function referencePoint(positions: ArrayLike<number>, indices: ArrayLike<number>, sx: number, sy: number, sz: number): [number, number, number] {
  if (indices.length === 0) return [0, 0, 0];
  const a = indices[0] * 3;
  return [positions[a] * sx, positions[a + 1] * sy, positions[a + 2] * sz];
}

/**
 * Mass properties of the solid bounded by a closed triangle mesh of uniform
 * density, vertices scaled per axis by `scale` first. For an open mesh the
 * numbers are those of the surface closed by the divergence theorem's
 * implicit cone and mean nothing: check `closed`.
 */
export function massProperties(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  densityKgPerM3: number,
  scale: ArrayLike<number> = [1, 1, 1],
): MassProperties {
  const sx = scale[0], sy = scale[1], sz = scale[2];
  const [rx, ry, rz] = referencePoint(positions, indices, sx, sy, sz);
  volumeIntegrals(_integrals, positions, indices, sx, sy, sz, rx, ry, rz);
  return fromIntegrals(_integrals, densityKgPerM3, rx, ry, rz, isClosedMesh(indices, positions));
}

/**
 * Thin-shell mass properties: `massKg` spread uniformly over the surface
 * area. Uses ∫ x xᵀ dA over a triangle = A/12 (Σ vᵢvᵢᵀ + s sᵀ), s = Σ vᵢ.
 */
export function shellMassProperties(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  massKg: number,
  scale: ArrayLike<number> = [1, 1, 1],
): MassProperties & { area: number } {
  const sx = scale[0], sy = scale[1], sz = scale[2];
  const [rx, ry, rz] = referencePoint(positions, indices, sx, sy, sz);
  let area = 0, mx = 0, my = 0, mz = 0, xx = 0, yy = 0, zz = 0, xy = 0, yz = 0, zx = 0;
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = indices[t] * 3, b = indices[t + 1] * 3, c = indices[t + 2] * 3;
    const x0 = positions[a] * sx - rx, y0 = positions[a + 1] * sy - ry, z0 = positions[a + 2] * sz - rz;
    const x1 = positions[b] * sx - rx, y1 = positions[b + 1] * sy - ry, z1 = positions[b + 2] * sz - rz;
    const x2 = positions[c] * sx - rx, y2 = positions[c + 1] * sy - ry, z2 = positions[c + 2] * sz - rz;
    const ux = x1 - x0, uy = y1 - y0, uz = z1 - z0, vx = x2 - x0, vy = y2 - y0, vz = z2 - z0;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const A = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    const ssx = x0 + x1 + x2, ssy = y0 + y1 + y2, ssz = z0 + z1 + z2;
    area += A;
    mx += (A * ssx) / 3;
    my += (A * ssy) / 3;
    mz += (A * ssz) / 3;
    const w = A / 12;
    xx += w * (x0 * x0 + x1 * x1 + x2 * x2 + ssx * ssx);
    yy += w * (y0 * y0 + y1 * y1 + y2 * y2 + ssy * ssy);
    zz += w * (z0 * z0 + z1 * z1 + z2 * z2 + ssz * ssz);
    xy += w * (x0 * y0 + x1 * y1 + x2 * y2 + ssx * ssy);
    yz += w * (y0 * z0 + y1 * z1 + y2 * z2 + ssy * ssz);
    zx += w * (z0 * x0 + z1 * x1 + z2 * x2 + ssz * ssx);
  }
  const I = new Float64Array([area, mx, my, mz, xx, yy, zz, xy, yz, zx]);
  const props = fromIntegrals(I, area > 0 ? massKg / area : 0, rx, ry, rz, isClosedMesh(indices, positions));
  return { ...props, area };
}

/** Relative volume below which a mesh counts as flat (zero volume) for its size. */
const DEGENERATE_RELATIVE_VOLUME = 1e-9;

function boundingDiagonal(positions: ArrayLike<number>, indices: ArrayLike<number>, scale: ArrayLike<number>): number {
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let i = 0; i < indices.length; i++) {
    const a = indices[i] * 3;
    const x = positions[a] * scale[0], y = positions[a + 1] * scale[1], z = positions[a + 2] * scale[2];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  if (minX > maxX) return 0;
  return hypot3(maxX - minX, maxY - minY, maxZ - minZ);
}

/**
 * Mass, centre of mass (prop local frame, scale applied) and inertia about
 * the centre of mass of a prop, from `physics.massKg` or
 * `physics.densityKgPerM3` and `transform.scale`. Throws an Error naming the
 * prop when the mass cannot be determined: density on an open mesh, a mass
 * or density that is not > 0, or a zero-volume (flat or empty) mesh.
 */
export function propMassProperties(prop: Prop): PropMassProperties {
  const who = `prop ${JSON.stringify(prop.name)} (id ${JSON.stringify(prop.id)})`;
  const { positions, indices } = prop.mesh;
  const scale = prop.transform.scale;
  const { massKg, densityKgPerM3 } = prop.physics;
  if (massKg !== undefined && densityKgPerM3 !== undefined) throw new Error(`${who}: both massKg and densityKgPerM3 are set (exactly one must be)`);
  if (massKg === undefined && densityKgPerM3 === undefined) throw new Error(`${who}: neither massKg nor densityKgPerM3 is set`);
  if (massKg !== undefined && !(massKg > 0 && Number.isFinite(massKg))) throw new Error(`${who}: massKg must be > 0 (got ${massKg})`);
  if (densityKgPerM3 !== undefined && !(densityKgPerM3 > 0 && Number.isFinite(densityKgPerM3)))
    throw new Error(`${who}: densityKgPerM3 must be > 0 (got ${densityKgPerM3})`);
  if (indices.length < 3) throw new Error(`${who}: the mesh has no triangles, so it has no mass distribution`);
  if (!(scale[0] !== 0 && scale[1] !== 0 && scale[2] !== 0)) throw new Error(`${who}: scale [${scale.join(', ')}] has a zero component, so the prop has no volume`);

  const closed = isClosedMesh(indices, positions);
  if (!closed) {
    if (densityKgPerM3 !== undefined)
      throw new Error(`${who}: the mesh is not closed (some edge is not shared by exactly two oppositely wound triangles), so it has no volume to fill with densityKgPerM3; close the mesh or set massKg instead`);
    const shell = shellMassProperties(positions, indices, massKg as number, scale);
    if (!(shell.area > 0)) throw new Error(`${who}: the mesh has zero surface area`);
    return { volume: 0, massKg: shell.massKg, centerOfMass: shell.centerOfMass, inertia: shell.inertia, closed: false, distribution: 'shell' };
  }
  const unit = massProperties(positions, indices, 1, scale);
  const diag = boundingDiagonal(positions, indices, scale);
  if (!(unit.volume > DEGENERATE_RELATIVE_VOLUME * diag * diag * diag))
    throw new Error(`${who}: the closed mesh encloses no volume (${unit.volume} m³ for a ${diag} m bounding box diagonal): it is flat or degenerate`);
  const density = densityKgPerM3 ?? (massKg as number) / unit.volume;
  const inertia = unit.inertia.map((x) => x * density);
  return { volume: unit.volume, massKg: massKg ?? unit.volume * density, centerOfMass: unit.centerOfMass, inertia, closed: true, distribution: 'solid' };
}
