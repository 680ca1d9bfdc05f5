import { describe, expect, it } from 'vitest';
import * as libm from './libm';
import { CASE_COUNTS, CASE_SEED, NODE20_HASHES, SPECIAL_VALUES, UNARY_NAMES, bitsHash, caseInputs, evaluateBoth, logUniform, type NumberFn } from './libmCases';
import { mulberry32 } from './random';

// Ground truth: node 20's Math.* (V8 11.3, fdlibm ports in v8/src/base/ieee754.cc),
// which every CLI result so far was computed with. On that engine every input is
// compared one by one; the hashes of node 20's outputs are also pinned below, so
// the port stays checked on any engine (e2e/libm.spec.ts runs them in Chromium).
const NODE20_V8 = process.versions.v8.startsWith('11.3.');
const ENGINE = `node ${process.version}, V8 ${process.versions.v8}`;

const _a = new Float64Array(1);
const _b = new Uint32Array(_a.buffer);
function bits(x: number): string {
  _a[0] = x;
  return `0x${_b[1].toString(16).padStart(8, '0')}${_b[0].toString(16).padStart(8, '0')}`;
}
function same(a: number, b: number): boolean {
  return Object.is(a, b) || (a !== a && b !== b);
}
function show(args: ArrayLike<number>, got: number, want: number): string {
  return `(${Array.from(args, (v) => `${v} [${bits(v)}]`).join(', ')}) -> ${got} [${bits(got)}], node 20 Math: ${want} [${bits(want)}]`;
}

type Fn = NumberFn;
const IMPLS: Record<string, { ours: Fn; math: Fn; arity: number }> = {
  ...Object.fromEntries(UNARY_NAMES.map((n) => [n, { ours: libm[n] as Fn, math: Math[n] as Fn, arity: 1 }])),
  atan2: { ours: libm.atan2, math: Math.atan2, arity: 2 },
  pow: { ours: libm.pow, math: Math.pow, arity: 2 },
  hypot2: { ours: libm.hypot2, math: Math.hypot, arity: 2 },
  hypot3: { ours: libm.hypot3, math: Math.hypot, arity: 3 },
  hypot4: { ours: libm.hypot4, math: Math.hypot, arity: 4 },
};

/** Runs ours (and node's Math when this is node 20) over the inputs; returns hashes and the first mismatches. */
function run(name: string, xs: Float64Array): { ours: string; math: string; mismatches: string[]; count: number } {
  const { ours, math, arity } = IMPLS[name];
  const n = xs.length / arity;
  const outOurs = new Float64Array(n);
  const outMath = new Float64Array(n);
  const differ = evaluateBoth(ours, math, arity, xs, outOurs, outMath);
  const mismatches = differ.slice(0, 5).map((i) => show(xs.subarray(arity * i, arity * i + arity), outOurs[i], outMath[i]));
  if (differ.length > 5) mismatches.push(`... ${differ.length} of ${n} inputs differ`);
  return { ours: bitsHash(outOurs), math: bitsHash(outMath), mismatches, count: n };
}

describe(`libm is bit-identical to node 20's Math.* (seed ${CASE_SEED}; ${ENGINE})`, () => {
  for (const name of Object.keys(IMPLS)) {
    it(`${name}: ${CASE_COUNTS[name].toLocaleString('en')} seeded inputs (bit patterns, wide and narrow ranges, breakpoints, specials)`, () => {
      const r = run(name, caseInputs(name));
      if (NODE20_V8) {
        expect(r.mismatches, `${name} must return exactly node 20's Math bits on every input`).toEqual([]);
        expect(r.math, `pinned hash of node 20's Math.${name} outputs`).toBe(NODE20_HASHES[name]);
      }
      expect(r.ours, `hash of libm.${name} outputs must equal node 20's Math.${name} hash`).toBe(NODE20_HASHES[name]);
    });
  }
});

describe('libm special cases, every pair of special values', () => {
  const S = SPECIAL_VALUES;
  it('pow and atan2 on all pairs, also one ulp away', () => {
    const r = mulberry32(91);
    const pairs: number[] = [];
    for (const a of S) for (const b of S) pairs.push(a, b);
    for (let i = 0; i < 20000; i++) {
      const a = S[Math.floor(r() * S.length)] * (1 + (r() < 0.5 ? -1 : 1) * 2 ** -52);
      const b = S[Math.floor(r() * S.length)];
      pairs.push(a, b, b, a);
    }
    const xs = new Float64Array(pairs);
    for (const name of ['pow', 'atan2']) {
      const res = run(name, xs);
      expect(res.mismatches, `${name} on special pairs`).toEqual([]);
    }
  });
  it('hypot2/3/4 on special tuples: Inf beats NaN, −0 is 0, argument order does not matter', () => {
    const t3: number[] = [];
    for (const a of S) for (const b of S) for (const c of [0, -0, NaN, Infinity, -Infinity, 1, 3e-320, 1e308]) t3.push(a, b, c);
    const xs3 = new Float64Array(t3);
    expect(run('hypot3', xs3).mismatches).toEqual([]);
    const t2: number[] = [];
    for (const a of S) for (const b of S) t2.push(a, b);
    expect(run('hypot2', new Float64Array(t2)).mismatches).toEqual([]);
    const t4: number[] = [];
    for (const a of S) for (const b of [0, NaN, -Infinity, 2, 1e-310]) for (const c of [-0, 5, 1e200]) for (const d of [NaN, 1, -3]) t4.push(a, b, c, d);
    expect(run('hypot4', new Float64Array(t4)).mismatches).toEqual([]);
    expect(libm.hypot3(NaN, Infinity, 1)).toBe(Infinity);
    expect(libm.hypot3(NaN, 1, 1)).toBeNaN();
    expect(Object.is(libm.hypot2(-0, -0), 0)).toBe(true);
  });
  it('the variadic hypot equals hypot2/3/4 and node 20 Math.hypot for 0 to 6 arguments', () => {
    const r = mulberry32(5);
    const bad: string[] = [];
    for (let i = 0; i < 50000; i++) {
      const k = i % 7;
      const args: number[] = [];
      for (let j = 0; j < k; j++) args.push(r() < 0.1 ? S[Math.floor(r() * S.length)] : logUniform(r, -600, 600));
      const got = libm.hypot(...args);
      const fixed = k === 2 ? libm.hypot2(args[0], args[1]) : k === 3 ? libm.hypot3(args[0], args[1], args[2]) : k === 4 ? libm.hypot4(args[0], args[1], args[2], args[3]) : got;
      if (!same(got, fixed) || (NODE20_V8 && !same(got, Math.hypot(...args)))) bad.push(show(args, got, Math.hypot(...args)));
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
  it('sinCos gives sin and cos bit for bit: special values, every range of the reduction, the kernels\' branch edges', () => {
    const r = mulberry32(29);
    const xs: number[] = [...SPECIAL_VALUES];
    for (const e of [2 ** -27, 0.3, 0.78125, Math.PI / 4]) for (const d of [-2, -1, 0, 1, 2]) xs.push(e + d * 2 ** -52 * e, -(e + d * 2 ** -52 * e));
    for (let k = 0; k < 40000; k++) xs.push(k % 4 === 0 ? (r() - 0.5) * 0.02 : k % 4 === 1 ? (r() - 0.5) * 8 : logUniform(r, -40, k % 4 === 2 ? 3 : 1100));
    const out = new Float64Array(3);
    const bad: string[] = [];
    for (const x of xs) {
      libm.sinCos(x, out, 1);
      if (!Object.is(out[1], libm.sin(x)) || !Object.is(out[2], libm.cos(x))) bad.push(`${x}: ${out[1]}, ${out[2]} vs ${libm.sin(x)}, ${libm.cos(x)}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
  it('exact values: the special cases fdlibm and ECMAScript fix', () => {
    expect(Object.is(libm.sin(-0), -0)).toBe(true);
    expect(Object.is(libm.tan(-0), -0)).toBe(true);
    expect(libm.cos(0)).toBe(1);
    expect(libm.sin(Infinity)).toBeNaN();
    expect(libm.exp(1)).toBe(Math.E);
    expect(libm.exp(-Infinity)).toBe(0);
    expect(libm.exp(Infinity)).toBe(Infinity);
    expect(libm.log(0)).toBe(-Infinity);
    expect(libm.log(-1)).toBeNaN();
    expect(libm.log(1)).toBe(0);
    expect(libm.log2(8)).toBe(3);
    expect(libm.log2(2 ** -1074)).toBe(-1074);
    expect(libm.cbrt(-27)).toBe(-3);
    expect(Object.is(libm.cbrt(-0), -0)).toBe(true);
    expect(libm.acos(-1)).toBe(Math.PI);
    expect(libm.asin(1)).toBe(Math.PI / 2);
    expect(libm.asin(1.0000000000000002)).toBeNaN();
    expect(libm.atan2(0, -0)).toBe(Math.PI);
    expect(Object.is(libm.atan2(-0, 0), -0)).toBe(true);
    expect(libm.atan2(-Infinity, -Infinity)).toBe((-3 * Math.PI) / 4);
    // ECMAScript's pow: (±1)**±Inf and x**NaN are NaN; x**±0 is 1 even for NaN
    expect(libm.pow(1, Infinity)).toBeNaN();
    expect(libm.pow(-1, -Infinity)).toBeNaN();
    expect(libm.pow(1, NaN)).toBeNaN();
    expect(libm.pow(NaN, 0)).toBe(1);
    expect(libm.pow(-8, 1 / 3)).toBeNaN();
    expect(Object.is(libm.pow(-0, 3), -0)).toBe(true);
    expect(libm.pow(-0, -3)).toBe(-Infinity);
    expect(libm.pow(-0, 0.5)).toBe(0);
    expect(libm.pow(-Infinity, 0.5)).toBe(Infinity);
    expect(libm.pow(2, -1074)).toBe(Number.MIN_VALUE);
    expect(libm.pow(2, -1075)).toBe(0);
    expect(libm.pow(2, 1023)).toBe(2 ** 1023);
    expect(libm.pow(2, 1024)).toBe(Infinity);
    expect(libm.pow(-2, 1025)).toBe(-Infinity);
    for (let b = -12; b <= 12; b++) for (let e = 0; e <= 15; e++) expect(libm.pow(b, e), `${b}**${e} is an exact integer`).toBe(Number(BigInt(b) ** BigInt(e)));
  });
});

describe('libm laws (seed 17)', () => {
  it('identities hold to a few ulps: sin²+cos² = 1, tan = sin/cos, exp(log x) = x, cbrt(x)³ = x, pow(x, y) = exp(y log x), atan2(y, x) = atan(y/x) for x > 0', () => {
    const r = mulberry32(17);
    for (let i = 0; i < 20000; i++) {
      const a = (r() * 2 - 1) * 100;
      const s = libm.sin(a),
        c = libm.cos(a);
      expect(Math.abs(s * s + c * c - 1)).toBeLessThan(4e-16);
      if (Math.abs(c) > 1e-3) expect(Math.abs(libm.tan(a) - s / c)).toBeLessThan(1e-15 * Math.max(1, Math.abs(s / c)) * 8);
      const x = r() * 50 + 1e-3;
      expect(Math.abs(libm.exp(libm.log(x)) - x)).toBeLessThan(8e-16 * x * 40);
      expect(Math.abs(libm.cbrt(x) ** 3 - x)).toBeLessThan(1e-15 * x * 4);
      const y = (r() * 2 - 1) * 5;
      expect(Math.abs(libm.pow(x, y) - libm.exp(y * libm.log(x)))).toBeLessThan(1e-12 * libm.pow(x, y));
      const py = (r() * 2 - 1) * 10;
      expect(Math.abs(libm.atan2(py, x) - libm.atan(py / x))).toBeLessThan(4e-16 * 4);
      const u = r() * 2 - 1;
      expect(Math.abs(libm.asin(u) + libm.acos(u) - Math.PI / 2)).toBeLessThan(1e-15);
    }
  });
  it('scalbn rounds once: equals multiplication by an exact power of two', () => {
    const r = mulberry32(3);
    for (let i = 0; i < 100000; i++) {
      const x = logUniform(r, -30, 30);
      const n = Math.floor(r() * 2200) - 1100;
      // reference: two exact steps, the second one rounding (or overflowing) once
      const ref = n < -1000 ? x * 2 ** (n + 200) * 2 ** -200 : n > 1000 ? x * 2 ** (n - 100) * 2 ** 100 : x * 2 ** n;
      expect(same(libm.scalbn(x, n), ref), `scalbn(${x}, ${n})`).toBe(true);
    }
  });
});
