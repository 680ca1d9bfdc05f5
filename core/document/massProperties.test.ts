import { describe, expect, it } from 'vitest';
import { boxMesh, boxProp, icosphereMesh, mulberry32, tetraMesh, type TriMesh } from './fixtures';
import { isClosedMesh, massProperties, propMassProperties, shellMassProperties, type MassProperties } from './massProperties';
import type { Prop } from './types';

type M3 = number[]; // column-major 3x3

const mul = (a: M3, b: M3): M3 => {
  const r = new Array(9).fill(0);
  for (let c = 0; c < 3; c++) for (let row = 0; row < 3; row++) for (let k = 0; k < 3; k++) r[c * 3 + row] += a[k * 3 + row] * b[c * 3 + k];
  return r;
};
const transpose = (a: M3): M3 => [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
const mulVec = (a: M3, v: number[]) => [0, 1, 2].map((r) => a[r] * v[0] + a[3 + r] * v[1] + a[6 + r] * v[2]);

/** Rotation matrix (column-major) of a unit quaternion. */
function rotation(qx: number, qy: number, qz: number, qw: number): M3 {
  const l = Math.hypot(qx, qy, qz, qw);
  const [x, y, z, w] = [qx / l, qy / l, qz / l, qw / l];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
    2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
    2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y),
  ];
}

function transformMesh(m: TriMesh, R: M3, t: number[]): { positions: Float64Array; indices: Uint32Array } {
  const positions = new Float64Array(m.positions.length);
  for (let v = 0; v < m.positions.length; v += 3) {
    const p = mulVec(R, [m.positions[v], m.positions[v + 1], m.positions[v + 2]]);
    positions.set([p[0] + t[0], p[1] + t[1], p[2] + t[2]], v);
  }
  return { positions, indices: m.indices };
}

/** Star-shaped random blob: an icosphere with seeded radial noise (closed, consistently wound). */
function blob(seed: number): TriMesh {
  const rand = mulberry32(seed);
  const s = icosphereMesh(1, 2);
  for (let v = 0; v < s.positions.length; v += 3) {
    const k = 0.8 + 0.4 * rand();
    s.positions[v] *= k * 1.5;
    s.positions[v + 1] *= k;
    s.positions[v + 2] *= k * 0.7;
  }
  return s;
}

function concat(a: { positions: ArrayLike<number>; indices: ArrayLike<number> }, b: { positions: ArrayLike<number>; indices: ArrayLike<number> }) {
  const positions = new Float64Array(a.positions.length + b.positions.length);
  positions.set(Array.from(a.positions));
  positions.set(Array.from(b.positions), a.positions.length);
  const offset = a.positions.length / 3;
  const indices = new Uint32Array(a.indices.length + b.indices.length);
  indices.set(Array.from(a.indices));
  indices.set(Array.from(b.indices, (i) => i + offset), a.indices.length);
  return { positions, indices };
}

/** max |actual - expected| <= tol * scale, with scale defaulting to the largest |expected|. */
function expectClose(actual: number[], expected: number[], tol: number, what: string, scale = Math.max(...expected.map(Math.abs))) {
  expect(actual.length).toBe(expected.length);
  expect(scale, `${what}: the comparison needs a scale`).toBeGreaterThan(0);
  const worst = Math.max(...actual.map((x, i) => Math.abs(x - expected[i])));
  expect(worst / scale, `${what}: got [${actual}] expected [${expected}]`).toBeLessThanOrEqual(tol);
}

describe('massProperties: closed forms', () => {
  it('box: volume, mass, centre and inertia m/12 (b² + c²)', () => {
    const mesh = boxMesh(0.3, 0.5, 0.7);
    const [a, b, c] = [0.3, 0.5, 0.7].map((h) => 2 * Math.fround(h));
    const density = 250;
    const r = massProperties(mesh.positions, mesh.indices, density);
    const m = a * b * c * density;
    expect(r.closed).toBe(true);
    expect(r.volume).toBeCloseTo(a * b * c, 14);
    expect(r.massKg).toBeCloseTo(m, 10);
    expectClose(r.centerOfMass, [0, 0, 0], 1e-15, 'centre', 1);
    expectClose(r.inertia, [(m / 12) * (b * b + c * c), 0, 0, 0, (m / 12) * (a * a + c * c), 0, 0, 0, (m / 12) * (a * a + b * b)], 1e-13, 'inertia');
  });

  it('icosphere converges to the sphere (V = 4/3 π r³, I = 2/5 m r²), second order in the edge length', () => {
    const r = 0.37;
    const density = 1000;
    const volErr: number[] = [];
    const inertiaErr: number[] = [];
    for (let level = 0; level <= 5; level++) {
      const s = icosphereMesh(r, level);
      const p = massProperties(s.positions, s.indices, density);
      expect(p.closed, `level ${level} closed`).toBe(true);
      const V = (4 / 3) * Math.PI * r ** 3;
      expect(p.volume, 'an inscribed polyhedron is smaller than the sphere').toBeLessThan(V);
      volErr.push((V - p.volume) / V);
      const Isphere = 0.4 * p.massKg * r * r;
      for (const d of [0, 4, 8]) inertiaErr.push(Math.abs(p.inertia[d] - Isphere) / Isphere);
      expectClose(p.centerOfMass, [0, 0, 0], 1e-6, 'centre', r);
      for (const o of [1, 2, 3, 5, 6, 7]) expect(Math.abs(p.inertia[o]) / Isphere, 'off-diagonal').toBeLessThan(1e-6);
    }
    for (let i = 2; i < volErr.length; i++) {
      const ratio = volErr[i - 1] / volErr[i];
      expect(ratio, `volume error shrinks ~4x per subdivision (level ${i})`).toBeGreaterThan(3.5);
      expect(ratio).toBeLessThan(4.5);
    }
    expect(volErr[5]).toBeLessThan(1e-3);
    expect(Math.max(...inertiaErr.slice(-3))).toBeLessThan(2e-3);
  });

  it('tetrahedron volume is |det(b-a, c-a, d-a)| / 6 exactly', () => {
    const t = tetraMesh([[0, 0, 0], [2, 0, 0], [0, 3, 0], [0, 0, 4]]);
    const p = massProperties(t.positions, t.indices, 1);
    expect(p.volume).toBeCloseTo(4, 14);
    expectClose(p.centerOfMass, [0.5, 0.75, 1], 1e-15, 'centroid is the vertex mean');
  });
});

describe('massProperties: invariances and laws', () => {
  for (const seed of [11, 12]) {
    it(`translation moves only the centre, rotation turns I into R I Rᵀ, seed ${seed}`, () => {
      const mesh = blob(seed);
      const base = massProperties(mesh.positions, mesh.indices, 700);
      const R = rotation(0.3, -0.5, 0.8, 0.4);
      const t = [120.5, -40.25, 3.75];
      const moved = transformMesh(mesh, R, t);
      const p = massProperties(moved.positions, moved.indices, 700);
      expect(p.volume / base.volume).toBeCloseTo(1, 10);
      expect(p.massKg / base.massKg).toBeCloseTo(1, 10);
      const c = mulVec(R, base.centerOfMass);
      expectClose(p.centerOfMass, [c[0] + t[0], c[1] + t[1], c[2] + t[2]], 1e-9, 'moved centre');
      expectClose(p.inertia, mul(mul(R, base.inertia), transpose(R)), 1e-9, 'rotated inertia');
      // The tensor is symmetric positive definite and satisfies the triangle inequality of principal moments.
      expect(p.inertia[1]).toBeCloseTo(p.inertia[3], 12);
      expect(base.inertia[0] + base.inertia[4]).toBeGreaterThanOrEqual(base.inertia[8]);
      expect(base.inertia[4] + base.inertia[8]).toBeGreaterThanOrEqual(base.inertia[0]);
      expect(base.inertia[0] + base.inertia[8]).toBeGreaterThanOrEqual(base.inertia[4]);
    });
  }

  it('two bodies in one mesh combine by the parallel-axis theorem', () => {
    const A = transformMesh(boxMesh(0.2, 0.4, 0.1), rotation(0.1, 0.7, -0.2, 0.6), [1, 2, -0.5]);
    const B = transformMesh(blob(5), rotation(-0.4, 0.2, 0.3, 0.8), [-2, 0.5, 1.5]);
    const pa = massProperties(A.positions, A.indices, 300);
    const pb = massProperties(B.positions, B.indices, 300);
    const both = concat(A, B);
    const p = massProperties(both.positions, both.indices, 300);
    expect(p.closed).toBe(true);
    const m = pa.massKg + pb.massKg;
    expect(p.massKg / m).toBeCloseTo(1, 12);
    const c = [0, 1, 2].map((k) => (pa.massKg * pa.centerOfMass[k] + pb.massKg * pb.centerOfMass[k]) / m);
    expectClose(p.centerOfMass, c, 1e-12, 'combined centre');
    const expected = new Array(9).fill(0);
    for (const q of [pa, pb]) {
      const d = [0, 1, 2].map((k) => q.centerOfMass[k] - c[k]);
      const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      for (let col = 0; col < 3; col++)
        for (let row = 0; row < 3; row++) expected[col * 3 + row] += q.inertia[col * 3 + row] + q.massKg * ((row === col ? dd : 0) - d[row] * d[col]);
    }
    expectClose(p.inertia, expected, 1e-11, 'combined inertia');
  });

  for (const seed of [101, 202, 303]) {
    it(`matches a Monte-Carlo integration over a random tetrahedron, seed ${seed}`, () => {
      const rand = mulberry32(seed);
      const corners = Array.from({ length: 4 }, () => [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1]);
      const t = tetraMesh(corners);
      const density = 1234;
      const p = massProperties(t.positions, t.indices, density);
      const P = Array.from({ length: 4 }, (_, i) => [t.positions[3 * i], t.positions[3 * i + 1], t.positions[3 * i + 2]]);
      // Exact volume from the determinant.
      const e = [1, 2, 3].map((i) => [0, 1, 2].map((k) => P[i][k] - P[0][k]));
      const det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
      expect(p.volume / (Math.abs(det) / 6)).toBeCloseTo(1, 12);
      // Uniform samples: Dirichlet(1,1,1,1) barycentric weights.
      const N = 400_000;
      const sum = [0, 0, 0];
      const sq = new Array(9).fill(0);
      for (let n = 0; n < N; n++) {
        const w = [0, 1, 2, 3].map(() => -Math.log(1 - rand()));
        const ws = w[0] + w[1] + w[2] + w[3];
        const x = [0, 1, 2].map((k) => (w[0] * P[0][k] + w[1] * P[1][k] + w[2] * P[2][k] + w[3] * P[3][k]) / ws);
        for (let a = 0; a < 3; a++) {
          sum[a] += x[a];
          for (let b = 0; b < 3; b++) sq[a * 3 + b] += x[a] * x[b];
        }
      }
      const mean = sum.map((s) => s / N);
      const cov = sq.map((s, i) => s / N - mean[Math.floor(i / 3)] * mean[i % 3]);
      const tr = cov[0] + cov[4] + cov[8];
      const mcInertia = cov.map((c, i) => p.massKg * ((i % 4 === 0 ? tr : 0) - c));
      const size = Math.sqrt(tr);
      expectClose(p.centerOfMass.map((c) => c / size), mean.map((c) => c / size), 0.01, 'centre vs Monte Carlo');
      expectClose(p.inertia, mcInertia, 0.01, 'inertia vs Monte Carlo');
    });
  }

  it('an inside-out mesh gives the same solid', () => {
    const mesh = blob(3);
    const flipped = new Uint32Array(mesh.indices);
    for (let i = 0; i < flipped.length; i += 3) [flipped[i + 1], flipped[i + 2]] = [flipped[i + 2], flipped[i + 1]];
    const a = massProperties(mesh.positions, mesh.indices, 10);
    const b = massProperties(mesh.positions, flipped, 10);
    expect(b.volume).toBeGreaterThan(0);
    expect(b.volume / a.volume).toBeCloseTo(1, 12);
    expectClose(b.inertia, a.inertia, 1e-12, 'inertia');
    expectClose(b.centerOfMass, a.centerOfMass, 1e-12, 'centre');
  });

  it('applies a non-uniform scale like scaling the vertices', () => {
    const mesh = blob(8);
    const s = [2, 0.5, -1.5];
    const scaled = new Float64Array(mesh.positions.length);
    for (let i = 0; i < scaled.length; i++) scaled[i] = mesh.positions[i] * s[i % 3];
    const a = massProperties(mesh.positions, mesh.indices, 3, s);
    const b = massProperties(scaled, mesh.indices, 3);
    expect(a.volume / b.volume).toBeCloseTo(1, 12);
    expectClose(a.inertia, b.inertia, 1e-12, 'inertia');
  });
});

describe('isClosedMesh', () => {
  it('accepts closed consistently wound meshes', () => {
    expect(isClosedMesh(boxMesh(1, 1, 1).indices)).toBe(true);
    expect(isClosedMesh(icosphereMesh(1, 3).indices)).toBe(true);
    const two = concat(boxMesh(1, 1, 1), boxMesh(1, 2, 3));
    expect(isClosedMesh(two.indices)).toBe(true);
  });

  it('rejects holes, flipped triangles, duplicates, degenerate triangles and non-triangle lists', () => {
    const box = boxMesh(1, 1, 1).indices;
    expect(isClosedMesh(box.slice(0, 33)), 'one triangle missing').toBe(false);
    const flipped = box.slice();
    [flipped[4], flipped[5]] = [flipped[5], flipped[4]];
    expect(isClosedMesh(flipped), 'one triangle flipped').toBe(false);
    expect(isClosedMesh(new Uint32Array([...box, ...box.slice(0, 3), ...[box[0], box[2], box[1]]])), 'extra double-sided triangle (non-manifold edges)').toBe(false);
    expect(isClosedMesh(new Uint32Array([...box, 0, 0, 1])), 'degenerate triangle').toBe(false);
    expect(isClosedMesh(new Uint32Array([])), 'empty').toBe(false);
    expect(isClosedMesh(box.slice(0, 35)), 'not a triangle list').toBe(false);
  });

  it('with positions, welds vertices split at seams', () => {
    const box = boxMesh(0.5, 0.5, 0.5);
    // Every triangle gets its own three vertices (as a flat-shaded glTF mesh has).
    const positions = new Float32Array(box.indices.length * 3);
    const indices = new Uint32Array(box.indices.length);
    for (let i = 0; i < box.indices.length; i++) {
      positions.set(box.positions.subarray(box.indices[i] * 3, box.indices[i] * 3 + 3), i * 3);
      indices[i] = i;
    }
    expect(isClosedMesh(indices)).toBe(false);
    expect(isClosedMesh(indices, positions)).toBe(true);
    const p = massProperties(positions, indices, 1);
    expect(p.closed).toBe(true);
    expect(p.volume).toBeCloseTo(1, 14);
  });
});

function propWith(mesh: { positions: ArrayLike<number>; indices: ArrayLike<number> }, physics: Partial<Prop['physics']>, scale: [number, number, number] = [1, 1, 1]): Prop {
  const p = boxProp('thing');
  p.name = 'Thing';
  p.mesh = { positions: new Float32Array(mesh.positions), indices: new Uint32Array(mesh.indices) };
  p.transform.scale = scale;
  p.physics = { mode: 'dynamic', restitution: 0.5, friction: 0.5, ...physics };
  return p;
}

describe('propMassProperties', () => {
  it('uses massKg: same centre and inertia shape as unit density, scaled to the mass', () => {
    const mesh = blob(21);
    const unit = massProperties(mesh.positions, mesh.indices, 1);
    const r = propMassProperties(propWith(mesh, { massKg: 5 }));
    expect(r.distribution).toBe('solid');
    expect(r.massKg).toBe(5);
    expectClose(r.inertia, unit.inertia.map((x) => (x * 5) / unit.massKg), 1e-6, 'inertia');
    expectClose(r.centerOfMass, unit.centerOfMass, 1e-6, 'centre');
  });

  it('uses density and the prop scale: a scaled unit cube is an a×b×c box', () => {
    const mesh = boxMesh(0.5, 0.5, 0.5);
    const r = propMassProperties(propWith(mesh, { densityKgPerM3: 600 }, [2, 3, -0.5]));
    const [a, b, c] = [2, 3, 0.5];
    const m = a * b * c * 600;
    expect(r.massKg).toBeCloseTo(m, 9);
    expectClose(r.inertia, [(m / 12) * (b * b + c * c), 0, 0, 0, (m / 12) * (a * a + c * c), 0, 0, 0, (m / 12) * (a * a + b * b)], 1e-12, 'inertia');
  });

  it('refuses density on an open mesh, naming the prop', () => {
    const mesh = boxMesh(0.5, 0.5, 0.5);
    const open = { positions: mesh.positions, indices: mesh.indices.slice(0, 30) };
    expect(() => propMassProperties(propWith(open, { densityKgPerM3: 100 }))).toThrow(/^prop "Thing" \(id "thing"\): the mesh is not closed.*set massKg instead/);
  });

  it('gives an open mesh with massKg the thin-shell distribution (a closed cube shell has I = 5/18 m a²)', () => {
    const cube = boxMesh(0.5, 0.5, 0.5);
    const shell = shellMassProperties(cube.positions, cube.indices, 6);
    expect(shell.area).toBeCloseTo(6, 12);
    expectClose(shell.inertia, [5 / 3, 0, 0, 0, 5 / 3, 0, 0, 0, 5 / 3], 1e-12, 'cube shell inertia');
    const open = { positions: cube.positions, indices: cube.indices.slice(0, 30) };
    const r = propMassProperties(propWith(open, { massKg: 2 }));
    const expected = shellMassProperties(open.positions, open.indices, 2);
    expect(r.distribution).toBe('shell');
    expect(r.closed).toBe(false);
    expect(r.massKg).toBeCloseTo(2, 12);
    expectClose(r.inertia, expected.inertia, 1e-12, 'open box shell');
    // Open at one face: the centre sinks away from the missing face (area-weighted: 4 sides at the middle, 1 face at the far side).
    expect(Math.abs(r.centerOfMass[0]) + Math.abs(r.centerOfMass[1]) + Math.abs(r.centerOfMass[2])).toBeCloseTo(0.1, 6);
  });

  it('refuses zero-volume closed meshes, zero or negative mass, and zero scale', () => {
    const flat = { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2, 0, 2, 1] };
    expect(isClosedMesh(flat.indices)).toBe(true);
    expect(() => propMassProperties(propWith(flat, { densityKgPerM3: 100 }))).toThrow(/^prop "Thing" \(id "thing"\): the closed mesh encloses no volume/);
    expect(() => propMassProperties(propWith(flat, { massKg: 1 }))).toThrow(/encloses no volume/);
    const box = boxMesh(1, 1, 1);
    expect(() => propMassProperties(propWith(box, { massKg: 0 }))).toThrow('prop "Thing" (id "thing"): massKg must be > 0 (got 0)');
    expect(() => propMassProperties(propWith(box, { densityKgPerM3: -3 }))).toThrow('densityKgPerM3 must be > 0 (got -3)');
    expect(() => propMassProperties(propWith(box, { massKg: 1 }, [1, 0, 1]))).toThrow(/scale \[1, 0, 1\] has a zero component/);
    expect(() => propMassProperties(propWith(box, { massKg: 1, densityKgPerM3: 1 }))).toThrow(/both massKg and densityKgPerM3/);
    expect(() => propMassProperties(propWith({ positions: [], indices: [] }, { massKg: 1 }))).toThrow(/no triangles/);
  });

  it('agrees with massProperties for the sample props', () => {
    const p = boxProp();
    const r: MassProperties = propMassProperties(p);
    expect(r.massKg).toBe(4);
    expect(r.inertia[0]).toBeCloseTo((4 / 12) * (0.25 + 0.25), 12);
  });
});
