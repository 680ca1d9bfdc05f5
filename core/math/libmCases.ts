/**
 * Seeded inputs for checking core/math/libm against an engine's Math.*
 * (libm.test.ts in node, e2e/libm.spec.ts in Chromium): the same seed gives
 * the same inputs everywhere. Each function gets a mixture of its hard cases:
 * random bit patterns (NaN, ±Inf, subnormals, huge), log-uniform magnitudes
 * over the whole exponent range, plain ranges, points next to the breakpoints
 * of the algorithm (multiples of π/2 for the argument reduction, 7/16 and
 * 19/16 for atan, k·ln2/2 for exp, 1 for log...), and the special values.
 * Test support only: nothing in the engine uses it.
 */
import { mulberry32 } from './random';

const _f = new Float64Array(1);
const _u = new Uint32Array(_f.buffer);

/** Values every function must get right: zeros, infinities, NaN, extremes, integers, halves. */
export const SPECIAL_VALUES: readonly number[] = [
  0, -0, Infinity, -Infinity, NaN, 1, -1, 0.5, -0.5, 2, -2, 3, -3, 1.5, -1.5, 10, -10, 0.25, 1e-300, -1e-300, 1e300, -1e300,
  Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, -2.2250738585072014e-308, 2.225073858507201e-308, Number.MAX_VALUE, -Number.MAX_VALUE,
  Number.EPSILON, 1 + Number.EPSILON, 1 - Number.EPSILON / 2, -(1 + Number.EPSILON), Math.PI, -Math.PI, Math.PI / 2, -Math.PI / 2, Math.PI / 4, Math.E,
  Math.LN2, 0.975, 0.4375, 0.6875, 1.1875, 2.4375, 709.782712893384, -745.1332191019411, 710, -746, 1024, -1074, -1075, 1075, 2 ** 31, -(2 ** 31), 2 ** 53,
  2 ** 64, 2 ** 66, 2 ** -27, 2 ** -28, 2 ** -57, 2 ** 19 * Math.PI, 1e22, 2 ** 1023, 7, -7, 0.1, 1 / 3,
];

export type Rng = () => number;

function u32(r: Rng): number {
  return (r() * 4294967296) >>> 0;
}

/** Any double: a uniformly random 64-bit pattern (NaNs, infinities, subnormals included). */
export function randomBits(r: Rng): number {
  _u[0] = u32(r);
  _u[1] = u32(r);
  return _f[0];
}

/** Random sign, exponent uniform in [eMin, eMax] (unbiased; −1023 means subnormal), random mantissa. */
export function logUniform(r: Rng, eMin: number, eMax: number, positive = false): number {
  const e = eMin + Math.floor(r() * (eMax - eMin + 1));
  const field = Math.max(0, Math.min(2046, e + 1023));
  _u[0] = u32(r);
  _u[1] = (u32(r) & 0x000fffff) | (field << 20) | (!positive && r() < 0.5 ? 0x80000000 : 0);
  return _f[0];
}

/** x moved by k units in the last place (k in [−n, n]), keeping its sign. */
export function nudge(r: Rng, x: number, n: number): number {
  const k = Math.floor(r() * (2 * n + 1)) - n;
  _f[0] = x;
  let lo = _u[0] + k;
  let hi = _u[1];
  if (lo < 0) {
    lo += 4294967296;
    hi -= 1;
  } else if (lo >= 4294967296) {
    lo -= 4294967296;
    hi += 1;
  }
  _u[0] = lo;
  _u[1] = hi;
  return _f[0];
}

/** 2^e for integer e in [−1074, 1023], built from its bits. */
export function powerOfTwo(e: number): number {
  if (e >= -1022) {
    _u[0] = 0;
    _u[1] = (e + 1023) << 20;
  } else {
    const bit = e + 1074; // subnormal: one mantissa bit
    _u[0] = bit < 32 ? (1 << bit) >>> 0 : 0;
    _u[1] = bit < 32 ? 0 : 1 << (bit - 32);
  }
  return _f[0];
}

function uniform(r: Rng, a: number, b: number): number {
  return a + (b - a) * r();
}

type Gen = (r: Rng) => number;

const PIO2 = Math.PI / 2;

const UNARY: Record<string, Gen[]> = {
  sin: trig(),
  cos: trig(),
  tan: trig(),
  asin: inverseTrig(),
  acos: inverseTrig(),
  atan: [
    randomBits,
    (r) => logUniform(r, -80, 80),
    (r) => uniform(r, -3, 3),
    (r) => nudge(r, [7 / 16, 11 / 16, 19 / 16, 39 / 16, 2 ** 66, 2 ** -27][Math.floor(r() * 6)] * (r() < 0.5 ? -1 : 1), 1 << 20),
    special,
  ],
  exp: [
    randomBits,
    (r) => uniform(r, -750, 750),
    (r) => uniform(r, -1, 1),
    (r) => logUniform(r, -60, 10),
    (r) => nudge(r, (Math.floor(uniform(r, -2200, 2200)) * Math.LN2) / 2, 64),
    (r) => nudge(r, [709.782712893384, -745.1332191019411, -708.3964185322641, 0.5 * Math.LN2, 1.5 * Math.LN2, 2 ** -28][Math.floor(r() * 6)] * (r() < 0.5 ? -1 : 1), 1 << 12),
    special,
  ],
  log: logs(),
  log2: logs(),
  cbrt: [
    randomBits,
    (r) => logUniform(r, -1023, 1023),
    (r) => uniform(r, -10, 10),
    (r) => {
      const k = Math.floor(uniform(r, -2e5, 2e5));
      return nudge(r, k * k * k, 2);
    },
    special,
  ],
};

function trig(): Gen[] {
  return [
    randomBits,
    (r) => logUniform(r, -1023, 1023), // includes huge arguments (Payne–Hanek reduction)
    (r) => uniform(r, -10, 10),
    (r) => uniform(r, -1e6, 1e6),
    (r) => logUniform(r, -30, 30),
    (r) => nudge(r, Math.floor(uniform(r, -(2 ** 20), 2 ** 20)) * PIO2, 1 << 8), // medium reduction, near cancellation
    (r) => nudge(r, Math.floor(uniform(r, -64, 64)) * (Math.PI / 4), 1 << 10),
    (r) => nudge(r, Math.floor(uniform(r, 0, 2 ** 40)) * PIO2, 1 << 16),
    special,
  ];
}

function inverseTrig(): Gen[] {
  return [
    (r) => uniform(r, -1, 1),
    (r) => logUniform(r, -70, -1),
    (r) => nudge(r, [1, -1, 0.5, -0.5, 0.975, -0.975, 2 ** -27, 2 ** -57][Math.floor(r() * 8)], 1 << 16),
    (r) => uniform(r, -1.01, 1.01),
    randomBits,
    special,
  ];
}

function logs(): Gen[] {
  return [
    randomBits,
    (r) => logUniform(r, -1023, 1023, true),
    (r) => uniform(r, 0, 10),
    (r) => nudge(r, 1, 1 << 22),
    (r) => nudge(r, powerOfTwo(Math.floor(uniform(r, -1074, 1024))), 4),
    (r) => nudge(r, [Math.SQRT2, Math.SQRT1_2, 1.5, 0.75][Math.floor(r() * 4)], 1 << 16),
    special,
  ];
}

function special(r: Rng): number {
  return SPECIAL_VALUES[Math.floor(r() * SPECIAL_VALUES.length)];
}

/** The unary functions libm ports, by Math name. */
export const UNARY_NAMES = ['sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'exp', 'log', 'log2', 'cbrt'] as const;
export type UnaryName = (typeof UNARY_NAMES)[number];

/** `count` seeded inputs for Math[name], cycling through the function's generators. */
export function unaryInputs(name: UnaryName, seed: number, count: number): Float64Array {
  const r = mulberry32(seed);
  const gens = UNARY[name];
  const xs = new Float64Array(count);
  for (let i = 0; i < count; i++) xs[i] = gens[i % gens.length](r);
  return xs;
}

type Gen2 = (r: Rng, out: Float64Array, i: number) => void;

const BINARY: Record<string, Gen2[]> = {
  atan2: [
    (r, o, i) => ((o[i] = randomBits(r)), (o[i + 1] = randomBits(r))),
    (r, o, i) => ((o[i] = logUniform(r, -80, 80)), (o[i + 1] = logUniform(r, -80, 80))),
    (r, o, i) => ((o[i] = uniform(r, -10, 10)), (o[i + 1] = uniform(r, -10, 10))),
    (r, o, i) => ((o[i] = logUniform(r, -1023, 1023)), (o[i + 1] = logUniform(r, -1023, 1023))),
    (r, o, i) => ((o[i] = uniform(r, -10, 10)), (o[i + 1] = 1)),
    (r, o, i) => ((o[i] = special(r)), (o[i + 1] = special(r))),
  ],
  pow: [
    (r, o, i) => ((o[i] = randomBits(r)), (o[i + 1] = randomBits(r))),
    (r, o, i) => ((o[i] = logUniform(r, -20, 20, true)), (o[i + 1] = uniform(r, -50, 50))),
    (r, o, i) => ((o[i] = uniform(r, 0, 4)), (o[i + 1] = uniform(r, -8, 8))),
    (r, o, i) => ((o[i] = -logUniform(r, -10, 10, true)), (o[i + 1] = Math.floor(uniform(r, -80, 80)))), // negative base, integer exponent
    (r, o, i) => ((o[i] = Math.floor(uniform(r, -40, 40))), (o[i + 1] = Math.floor(uniform(r, -30, 30)))),
    (r, o, i) => ((o[i] = nudge(r, 1, 1 << 12)), (o[i + 1] = logUniform(r, 28, 70))), // |1 − x| tiny, |y| > 2^31
    (r, o, i) => ((o[i] = logUniform(r, -1074, 1023, true)), (o[i + 1] = [0.5, 2, -1, 1, -0.5, 3, 1 / 3, -2][Math.floor(r() * 8)])),
    (r, o, i) => ((o[i] = uniform(r, 1.5, 2.5)), (o[i + 1] = nudge(r, r() < 0.5 ? 1023 : -1074, 1 << 30))), // over/underflow edges
    (r, o, i) => ((o[i] = logUniform(r, -1023, 1023)), (o[i + 1] = logUniform(r, -10, 10))),
    (r, o, i) => ((o[i] = special(r)), (o[i + 1] = special(r))),
  ],
};

export const BINARY_NAMES = ['atan2', 'pow'] as const;
export type BinaryName = (typeof BINARY_NAMES)[number];

/** `count` seeded argument pairs, interleaved (a0, b0, a1, b1, ...), for Math[name](a, b). */
export function binaryInputs(name: BinaryName, seed: number, count: number): Float64Array {
  const r = mulberry32(seed);
  const gens = BINARY[name];
  const out = new Float64Array(2 * count);
  for (let i = 0; i < count; i++) gens[i % gens.length](r, out, 2 * i);
  return out;
}

/** `count` seeded tuples of `arity` arguments for Math.hypot, flat; mixtures of NaN, ±Inf, ±0 and wide magnitudes. */
export function hypotInputs(arity: number, seed: number, count: number): Float64Array {
  const r = mulberry32(seed);
  const out = new Float64Array(arity * count);
  for (let i = 0; i < count; i++) {
    const kind = i % 5;
    for (let k = 0; k < arity; k++) {
      let v: number;
      if (kind === 0) v = randomBits(r);
      else if (kind === 1) v = logUniform(r, -1023, 1023);
      else if (kind === 2) v = uniform(r, -10, 10);
      else if (kind === 3) v = logUniform(r, -5, 5);
      else v = r() < 0.3 ? special(r) : uniform(r, -2, 2);
      out[arity * i + k] = v;
    }
  }
  return out;
}

/** A function of 1 to 4 numbers. */
export type NumberFn = (...a: number[]) => number;

/**
 * Evaluates two implementations of one function over packed inputs (`arity`
 * numbers per case) into `outA` and `outB` (one value per case), and returns
 * the indices of the cases whose results differ in their bits (every NaN
 * equals every NaN; −0 differs from 0).
 */
export function evaluateBoth(a: NumberFn, b: NumberFn, arity: number, xs: Float64Array, outA: Float64Array, outB: Float64Array): number[] {
  const differ: number[] = [];
  for (let i = 0, n = xs.length / arity; i < n; i++) {
    const o = arity * i;
    let p: number, q: number;
    if (arity === 1) (p = a(xs[o])), (q = b(xs[o]));
    else if (arity === 2) (p = a(xs[o], xs[o + 1])), (q = b(xs[o], xs[o + 1]));
    else if (arity === 3) (p = a(xs[o], xs[o + 1], xs[o + 2])), (q = b(xs[o], xs[o + 1], xs[o + 2]));
    else (p = a(xs[o], xs[o + 1], xs[o + 2], xs[o + 3])), (q = b(xs[o], xs[o + 1], xs[o + 2], xs[o + 3]));
    outA[i] = p;
    outB[i] = q;
    if (!(Object.is(p, q) || (p !== p && q !== q))) differ.push(i);
  }
  return differ;
}

/** Hash of a run of doubles by their bits (every NaN counts as one NaN), hex. */
export function bitsHash(values: Float64Array): string {
  const v = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  let h1 = 0x811c9dc5,
    h2 = 0x01000193;
  for (let i = 0; i < values.length; i++) {
    let lo = v[2 * i],
      hi = v[2 * i + 1];
    if (values[i] !== values[i]) {
      lo = 0;
      hi = 0x7ff80000;
    }
    h1 = Math.imul(h1 ^ lo, 0x01000193);
    h1 = Math.imul(h1 ^ hi, 0x01000193);
    h2 = Math.imul(h2 ^ hi, 0x5bd1e995) ^ (h2 >>> 15);
    h2 = Math.imul(h2 ^ lo, 0x5bd1e995) ^ (h2 >>> 13);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** Every function the cases cover: Math name, or hypotN for Math.hypot with N arguments. */
export const CASE_NAMES = [...UNARY_NAMES, ...BINARY_NAMES, 'hypot2', 'hypot3', 'hypot4'] as const;
export const CASE_SEED = 20261126;
export const CASE_COUNTS: Record<string, number> = {
  sin: 1_000_000, cos: 1_000_000, tan: 500_000, asin: 400_000, acos: 400_000, atan: 400_000, exp: 1_000_000, log: 500_000, log2: 500_000,
  cbrt: 400_000, atan2: 1_000_000, pow: 1_000_000, hypot2: 500_000, hypot3: 500_000, hypot4: 300_000,
};

/** The arguments of Math[name] (flat, arity per call) for the pinned case set, or the first `count` of them. */
export function caseInputs(name: string, count = CASE_COUNTS[name]): Float64Array {
  const seed = CASE_SEED + name.length * 7919 + name.charCodeAt(0);
  if ((UNARY_NAMES as readonly string[]).includes(name)) return unaryInputs(name as UnaryName, seed, count);
  if ((BINARY_NAMES as readonly string[]).includes(name)) return binaryInputs(name as BinaryName, seed, count);
  const m = /^hypot([234])$/.exec(name);
  if (!m) throw new Error(`libmCases: no cases for '${name}'`);
  return hypotInputs(Number(m[1]), seed, count);
}

/**
 * bitsHash of node 20's Math.* outputs (node v20.20.2, V8 11.3.244.8, fdlibm
 * ports) on caseInputs(name): the ground truth libm must reproduce on every engine.
 */
export const NODE20_HASHES: Record<string, string> = {
  sin: '25d58901da12b606',
  cos: 'b9327b6e905b1c1a',
  tan: '43b03e4c4848f1bf',
  asin: '450665b150d7fdc0',
  acos: 'd6a40937cb8596cc',
  atan: '559f1e66101e5489',
  exp: '9c429f2c7e82d49f',
  log: 'dfb1214fb9be4cfb',
  log2: '140f45aac0de2203',
  cbrt: 'd564e45d292c3043',
  atan2: '98845c03eb599b6b',
  pow: 'f07a7cb09d48ac45',
  hypot2: '7e9ec7bfb5d76b87',
  hypot3: 'f059a2b9eaaee1a5',
  hypot4: '44a4693c859b0561',
};
