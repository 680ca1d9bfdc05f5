/** Seeded generator for tests and benchmarks (the core's mulberry32). */
import { atan2, cos, hypot3, sin } from '../math/libm';
export { mulberry32 } from '../math/random';

export interface TestMesh {
  positions: Float64Array;
  indices: Uint32Array;
}

/**
 * Closed, consistently oriented (outward, counter-clockwise) UV sphere with
 * poles; `bumps` scales each vertex radius by 1 + bumps·(r() − 0.5), keeping it
 * star-shaped and closed.
 */
export function uvSphere(seg: number, rings: number, cx: number, cy: number, cz: number, radius: number, r?: () => number, bumps = 0): TestMesh {
  const nv = 2 + (rings - 1) * seg;
  const pos = new Float64Array(nv * 3);
  const put = (i: number, x: number, y: number, z: number) => {
    const s = r && bumps ? 1 + bumps * (r() - 0.5) : 1;
    pos[i * 3] = cx + x * radius * s; pos[i * 3 + 1] = cy + y * radius * s; pos[i * 3 + 2] = cz + z * radius * s;
  };
  put(0, 0, 1, 0);
  put(nv - 1, 0, -1, 0);
  for (let i = 1; i < rings; i++) {
    const th = (Math.PI * i) / rings;
    for (let j = 0; j < seg; j++) {
      const ph = (2 * Math.PI * j) / seg;
      put(1 + (i - 1) * seg + j, sin(th) * cos(ph), cos(th), sin(th) * sin(ph));
    }
  }
  const idx: number[] = [];
  const v = (i: number, j: number) => 1 + (i - 1) * seg + (j % seg);
  for (let j = 0; j < seg; j++) idx.push(0, v(1, j + 1), v(1, j));
  for (let i = 1; i < rings - 1; i++) {
    for (let j = 0; j < seg; j++) {
      idx.push(v(i, j), v(i, j + 1), v(i + 1, j));
      idx.push(v(i, j + 1), v(i + 1, j + 1), v(i + 1, j));
    }
  }
  for (let j = 0; j < seg; j++) idx.push(nv - 1, v(rings - 1, j), v(rings - 1, j + 1));
  return { positions: pos, indices: new Uint32Array(idx) };
}

/** Random triangle soup in a cube of side `size` at the origin, triangles of about `triSize`. */
export function triangleSoup(n: number, size: number, triSize: number, r: () => number): TestMesh {
  const pos = new Float64Array(n * 9);
  for (let t = 0; t < n; t++) {
    const cx = r() * size, cy = r() * size, cz = r() * size;
    for (let k = 0; k < 3; k++) {
      pos[t * 9 + k * 3] = cx + (r() - 0.5) * triSize;
      pos[t * 9 + k * 3 + 1] = cy + (r() - 0.5) * triSize;
      pos[t * 9 + k * 3 + 2] = cz + (r() - 0.5) * triSize;
    }
  }
  const idx = new Uint32Array(n * 3);
  for (let i = 0; i < n * 3; i++) idx[i] = i;
  return { positions: pos, indices: idx };
}

/** Generalized winding number of a closed mesh at p (sum of signed solid angles / 4π). */
export function windingNumber(m: TestMesh, px: number, py: number, pz: number): number {
  let w = 0;
  const P = m.positions, I = m.indices;
  for (let t = 0; t < I.length; t += 3) {
    const a = [P[I[t] * 3] - px, P[I[t] * 3 + 1] - py, P[I[t] * 3 + 2] - pz];
    const b = [P[I[t + 1] * 3] - px, P[I[t + 1] * 3 + 1] - py, P[I[t + 1] * 3 + 2] - pz];
    const c = [P[I[t + 2] * 3] - px, P[I[t + 2] * 3 + 1] - py, P[I[t + 2] * 3 + 2] - pz];
    const la = hypot3(a[0], a[1], a[2]), lb = hypot3(b[0], b[1], b[2]), lc = hypot3(c[0], c[1], c[2]);
    const det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
    const ab = a[0] * b[0] + a[1] * b[1] + a[2] * b[2], bc = b[0] * c[0] + b[1] * c[1] + b[2] * c[2], ca = c[0] * a[0] + c[1] * a[1] + c[2] * a[2];
    w += 2 * atan2(det, la * lb * lc + ab * lc + bc * la + ca * lb);
  }
  return w / (4 * Math.PI);
}
