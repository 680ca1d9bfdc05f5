/**
 * Small geometric helpers of the simulator: unique edges of a triangle list,
 * closest points between segments, point–triangle plane distance, swept boxes.
 */

/** Unique undirected edges of a triangle list (pairs of vertex indices, smaller first, in first-seen order). */
export function uniqueEdges(indices: ArrayLike<number>, triangles?: ArrayLike<number>): Uint32Array {
  const seen = new Set<number>();
  const out: number[] = [];
  const add = (a: number, b: number) => {
    const lo = a < b ? a : b, hi = a < b ? b : a;
    const key = lo * 4294967296 + hi;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(lo, hi);
  };
  if (triangles) {
    for (let k = 0; k < triangles.length; k++) {
      const t = 3 * triangles[k];
      add(indices[t], indices[t + 1]);
      add(indices[t + 1], indices[t + 2]);
      add(indices[t + 2], indices[t]);
    }
  } else {
    for (let t = 0; t < indices.length; t += 3) {
      add(indices[t], indices[t + 1]);
      add(indices[t + 1], indices[t + 2]);
      add(indices[t + 2], indices[t]);
    }
  }
  return new Uint32Array(out);
}

/**
 * Closest points of segments p0p1 and q0q1: writes s, t (parameters) into
 * out[0..1] and returns the squared distance (Ericson, Real-Time Collision
 * Detection 5.1.9).
 */
export function segmentSegmentClosest(
  P: ArrayLike<number>, p0: number, p1: number, Q: ArrayLike<number>, q0: number, q1: number, out: Float64Array,
): number {
  const d1x = P[p1] - P[p0], d1y = P[p1 + 1] - P[p0 + 1], d1z = P[p1 + 2] - P[p0 + 2];
  const d2x = Q[q1] - Q[q0], d2y = Q[q1 + 1] - Q[q0 + 1], d2z = Q[q1 + 2] - Q[q0 + 2];
  const rx = P[p0] - Q[q0], ry = P[p0 + 1] - Q[q0 + 1], rz = P[p0 + 2] - Q[q0 + 2];
  const a = d1x * d1x + d1y * d1y + d1z * d1z, e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s = 0, t = 0;
  if (a <= 1e-30 && e <= 1e-30) {
    s = 0;
    t = 0;
  } else if (a <= 1e-30) {
    t = clamp01(f / e);
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 1e-30) {
      s = clamp01(-c / a);
    } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b;
      s = denom > 1e-30 ? clamp01((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  out[0] = s;
  out[1] = t;
  const dx = rx + d1x * s - d2x * t, dy = ry + d1y * s - d2y * t, dz = rz + d1z * s - d2z * t;
  return dx * dx + dy * dy + dz * dz;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/**
 * Signed distance of point p from the plane of triangle abc (positive on the
 * side of (b−a)×(c−a)) and the barycentric weights (u of b, v of c) of its
 * projection: writes [dist, u, v, nx, ny, nz] into out. Returns false for a
 * degenerate triangle.
 */
export function pointTrianglePlane(X: ArrayLike<number>, p: number, a: number, b: number, c: number, out: Float64Array): boolean {
  const ax = X[a], ay = X[a + 1], az = X[a + 2];
  const ux = X[b] - ax, uy = X[b + 1] - ay, uz = X[b + 2] - az;
  const vx = X[c] - ax, vy = X[c + 1] - ay, vz = X[c + 2] - az;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(l > 1e-20)) return false;
  nx /= l;
  ny /= l;
  nz /= l;
  const wx = X[p] - ax, wy = X[p + 1] - ay, wz = X[p + 2] - az;
  const d = wx * nx + wy * ny + wz * nz;
  // barycentrics of the projection
  const uu = ux * ux + uy * uy + uz * uz, uv = ux * vx + uy * vy + uz * vz, vv = vx * vx + vy * vy + vz * vz;
  const wu = wx * ux + wy * uy + wz * uz, wv = wx * vx + wy * vy + wz * vz;
  const den = uu * vv - uv * uv;
  out[0] = d;
  out[1] = (vv * wu - uv * wv) / den;
  out[2] = (uu * wv - uv * wu) / den;
  out[3] = nx;
  out[4] = ny;
  out[5] = nz;
  return true;
}

/** Box [minx, miny, minz, maxx, maxy, maxz] at out[o] of vertex i in A and B (start and end). */
export function sweptPointBox(A: ArrayLike<number>, B: ArrayLike<number>, i: number, out: Float64Array, o: number): void {
  const k = 3 * i;
  for (let c = 0; c < 3; c++) {
    const a = A[k + c], b = B[k + c];
    out[o + c] = a < b ? a : b;
    out[o + 3 + c] = a < b ? b : a;
  }
}

export function boxesOverlap(X: ArrayLike<number>, xo: number, Y: ArrayLike<number>, yo: number, pad: number): boolean {
  return (
    X[xo] <= Y[yo + 3] + pad && Y[yo] <= X[xo + 3] + pad &&
    X[xo + 1] <= Y[yo + 4] + pad && Y[yo + 1] <= X[xo + 4] + pad &&
    X[xo + 2] <= Y[yo + 5] + pad && Y[yo + 2] <= X[xo + 5] + pad
  );
}

/**
 * Squared distance from point p to triangle abc (all offsets into X), after
 * Ericson, Real-Time Collision Detection 5.1.5.
 */
export function pointTriangleDistanceSq(X: ArrayLike<number>, p: number, a: number, b: number, c: number): number {
  const ax = X[a], ay = X[a + 1], az = X[a + 2];
  const abx = X[b] - ax, aby = X[b + 1] - ay, abz = X[b + 2] - az;
  const acx = X[c] - ax, acy = X[c + 1] - ay, acz = X[c + 2] - az;
  const apx = X[p] - ax, apy = X[p + 1] - ay, apz = X[p + 2] - az;
  const d1 = abx * apx + aby * apy + abz * apz, d2 = acx * apx + acy * apy + acz * apz;
  let qx: number, qy: number, qz: number;
  if (d1 <= 0 && d2 <= 0) return apx * apx + apy * apy + apz * apz;
  const bpx = X[p] - X[b], bpy = X[p + 1] - X[b + 1], bpz = X[p + 2] - X[b + 2];
  const d3 = abx * bpx + aby * bpy + abz * bpz, d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return bpx * bpx + bpy * bpy + bpz * bpz;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3);
    qx = ax + v * abx;
    qy = ay + v * aby;
    qz = az + v * abz;
  } else {
    const cpx = X[p] - X[c], cpy = X[p + 1] - X[c + 1], cpz = X[p + 2] - X[c + 2];
    const d5 = abx * cpx + aby * cpy + abz * cpz, d6 = acx * cpx + acy * cpy + acz * cpz;
    if (d6 >= 0 && d5 <= d6) return cpx * cpx + cpy * cpy + cpz * cpz;
    const vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      const w = d2 / (d2 - d6);
      qx = ax + w * acx;
      qy = ay + w * acy;
      qz = az + w * acz;
    } else {
      const va = d3 * d6 - d5 * d4;
      if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
        qx = X[b] + w * (X[c] - X[b]);
        qy = X[b + 1] + w * (X[c + 1] - X[b + 1]);
        qz = X[b + 2] + w * (X[c + 2] - X[b + 2]);
      } else {
        const denom = 1 / (va + vb + vc);
        const v = vb * denom, w = vc * denom;
        qx = ax + abx * v + acx * w;
        qy = ay + aby * v + acy * w;
        qz = az + abz * v + acz * w;
      }
    }
  }
  const dx = X[p] - qx, dy = X[p + 1] - qy, dz = X[p + 2] - qz;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Whether a triangle list is a closed, consistently wound 2-manifold by its
 * indices (every directed edge once, each with its reverse): the same answer
 * as `isClosedMesh(indices)` of core/document, over sorted typed arrays.
 */
export function isClosedTriangles(indices: ArrayLike<number>): boolean {
  const m = indices.length;
  if (m === 0 || m % 3 !== 0) return false;
  let n = 0;
  for (let i = 0; i < m; i++) if (indices[i] + 1 > n) n = indices[i] + 1;
  // necessary condition in O(n): every directed edge (a, b) pairs with (b, a), so the sum of
  // ab(a − b) over directed edges vanishes (computed modulo a prime, exactly): an open mesh
  // (a skin piece) is almost always told at once, without the sort
  const PR = 1_000_003;
  let sum = 0;
  for (let t = 0; t < m; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    sum = (sum + (((a * b) % PR) * ((a - b) % PR) + ((b * c) % PR) * ((b - c) % PR) + ((c * a) % PR) * ((c - a) % PR))) % PR;
  }
  if (sum !== 0) return false;
  const keys = new Float64Array(m);
  for (let t = 0; t < m; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    if (a === b || b === c || c === a) return false;
    keys[t] = a * n + b;
    keys[t + 1] = b * n + c;
    keys[t + 2] = c * n + a;
  }
  keys.sort();
  for (let k = 1; k < m; k++) if (keys[k] === keys[k - 1]) return false;
  for (let k = 0; k < m; k++) {
    const u = Math.floor(keys[k] / n), v = keys[k] - u * n;
    const r = v * n + u;
    let lo = 0, hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    if (keys[lo] !== r) return false;
  }
  return true;
}
