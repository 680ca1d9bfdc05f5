/**
 * Speed of core's deterministic transcendental functions (core/math/libm.ts)
 * against the engine's Math.* on the same seeded inputs, in the ranges the
 * engine uses them (angles of a few radians, cosines in [−1, 1], moderate
 * exponents, vector components). Rounds alternate libm and Math (interleaved,
 * so machine noise hits both); each row is the median over rounds and the ratio.
 *
 *   npx tsx core/bench/math.bench.ts
 *
 * `benchMath()` returns the rows for a bench runner.
 */
import { pathToFileURL } from 'node:url';
import { acos, asin, atan, atan2, cbrt, cos, exp, hypot2, hypot3, hypot4, log, pow, sin, tan } from '../math/libm';
import { mulberry32 } from '../math/random';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
}

const N = 1 << 16;
const ROUNDS = 15;

function inputs(seed: number, a: number, b: number): Float64Array {
  const r = mulberry32(seed);
  const xs = new Float64Array(N);
  for (let i = 0; i < N; i++) xs[i] = a + (b - a) * r();
  return xs;
}

type Loop = () => number;

function median(v: number[]): number {
  const s = v.slice().sort((x, y) => x - y);
  return s[s.length >> 1];
}

/** ns per call of `ours` and `theirs` (each a loop over N inputs), interleaved rounds. */
function pair(ours: Loop, theirs: Loop): [number, number] {
  let sink = 0;
  for (let w = 0; w < 5; w++) sink += ours() + theirs(); // warm-up (optimize both)
  const a: number[] = [],
    b: number[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    let t0 = performance.now();
    sink += ours();
    a.push(performance.now() - t0);
    t0 = performance.now();
    sink += theirs();
    b.push(performance.now() - t0);
  }
  if (sink === 0.123456789) console.log(sink); // keep the results alive
  return [(median(a) * 1e6) / N, (median(b) * 1e6) / N];
}

export function benchMath(): BenchRow[] {
  const ang = inputs(1, -8, 8);
  const big = inputs(2, -1e4, 1e4);
  const unit = inputs(3, -1, 1);
  const ex = inputs(4, -20, 20);
  const pos = inputs(5, 1e-3, 1e3);
  const ys = inputs(6, -3, 3);
  const v1 = inputs(7, -5, 5),
    v2 = inputs(8, -5, 5),
    v3 = inputs(9, -5, 5),
    v4 = inputs(10, -5, 5);
  const cases: [string, Loop, Loop][] = [];
  const unary = (name: string, f: (x: number) => number, g: (x: number) => number, xs: Float64Array) =>
    cases.push([
      name,
      () => {
        let s = 0;
        for (let i = 0; i < N; i++) s += f(xs[i]);
        return s;
      },
      () => {
        let s = 0;
        for (let i = 0; i < N; i++) s += g(xs[i]);
        return s;
      },
    ]);
  unary('sin, |x| < 8', sin, Math.sin, ang);
  unary('cos, |x| < 8', cos, Math.cos, ang);
  unary('sin, |x| < 1e4', sin, Math.sin, big);
  unary('tan, |x| < 8', tan, Math.tan, ang);
  unary('asin, [−1, 1]', asin, Math.asin, unit);
  unary('acos, [−1, 1]', acos, Math.acos, unit);
  unary('atan, |x| < 8', atan, Math.atan, ang);
  unary('exp, |x| < 20', exp, Math.exp, ex);
  unary('log, (1e-3, 1e3)', log, Math.log, pos);
  unary('cbrt, (1e-3, 1e3)', cbrt, Math.cbrt, pos);
  cases.push([
    'atan2',
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += atan2(v1[i], v2[i]);
      return s;
    },
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += Math.atan2(v1[i], v2[i]);
      return s;
    },
  ]);
  cases.push([
    'pow, x in (1e-3, 1e3), |y| < 3',
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += pow(pos[i], ys[i]);
      return s;
    },
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += Math.pow(pos[i], ys[i]);
      return s;
    },
  ]);
  cases.push([
    'hypot, 2 arguments',
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += hypot2(v1[i], v2[i]);
      return s;
    },
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += Math.hypot(v1[i], v2[i]);
      return s;
    },
  ]);
  cases.push([
    'hypot, 3 arguments',
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += hypot3(v1[i], v2[i], v3[i]);
      return s;
    },
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += Math.hypot(v1[i], v2[i], v3[i]);
      return s;
    },
  ]);
  cases.push([
    'hypot, 4 arguments',
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += hypot4(v1[i], v2[i], v3[i], v4[i]);
      return s;
    },
    () => {
      let s = 0;
      for (let i = 0; i < N; i++) s += Math.hypot(v1[i], v2[i], v3[i], v4[i]);
      return s;
    },
  ]);

  const rows: BenchRow[] = [];
  for (const [name, ours, theirs] of cases) {
    const [a, b] = pair(ours, theirs);
    rows.push({ name: `math: libm ${name} (Math.* ${b.toFixed(1)} ns, ratio ${(a / b).toFixed(2)})`, value: a, unit: 'ns/call' });
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of benchMath()) console.log(`${row.name.padEnd(72)} ${row.value.toFixed(1).padStart(8)} ${row.unit}`);
}
