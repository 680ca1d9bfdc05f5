/**
 * Exact test of whether a cubic rotation segment passes through the zero
 * quaternion, where it has no orientation (the sampler then throws
 * TrackError 'cubic rotation spline passes through zero').
 *
 * The segment is the glTF CUBICSPLINE polynomial, before normalising:
 *   P(u) = h00(u) p0 + h10(u) dt m0 + h01(u) p1 + h11(u) dt m1,  u in [0, 1],
 * with dt = t1 - t0 as the sampler computes it (float64). Its four
 * components are cubics in u whose coefficients are exact sums of products
 * of float64 numbers, i.e. dyadic rationals: scaled by one power of two they
 * are integers (BigInt). P passes through zero exactly when the four
 * polynomials share a real root in [0, 1], i.e. when their greatest common
 * divisor g (over the rationals; Euclid with pseudo-remainders, integer
 * arithmetic throughout) has a root there, which a Sturm sequence of g
 * evaluated at 0 and 1 counts exactly. Degrees are at most 3, so this is a
 * handful of big-integer operations per segment (~40 µs), and most segments
 * never get there: a component whose Bézier control points share one sign
 * cannot vanish (a float test with a wide margin, ~0.1 µs).
 *
 * Only exact zeros are found: a segment that comes close to zero without
 * reaching it is a valid (if abrupt) curve; the sampler normalises it.
 */

const _dv = new DataView(new ArrayBuffer(8));

/** x = mant · 2^exp exactly (x finite). */
function exact(x: number): { mant: bigint; exp: number } {
  _dv.setFloat64(0, x);
  const bits = _dv.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  const f = bits & 0xfffffffffffffn;
  const mant = e === 0 ? f : f | 0x10000000000000n;
  return { mant: x < 0 ? -mant : mant, exp: e === 0 ? -1074 : e - 1075 };
}

type Poly = bigint[]; // coefficients, lowest degree first, no trailing zeros

function trim(p: bigint[]): Poly {
  let n = p.length;
  while (n > 0 && p[n - 1] === 0n) n--;
  return p.slice(0, n);
}

const abs = (x: bigint) => (x < 0n ? -x : x);

function gcdInt(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** p divided by the gcd of its coefficients (sign kept). */
function primitive(p: Poly): Poly {
  let c = 0n;
  for (const x of p) c = gcdInt(c, x);
  return c > 1n ? p.map((x) => x / c) : p;
}

/**
 * A positive multiple of the remainder of a by b (b non-zero): lc(b)^k · a
 * reduced by multiples of b, sign corrected so the result is a positive
 * multiple of the true remainder (Sturm sequences need the sign).
 */
function remainder(a: Poly, b: Poly): Poly {
  let r = a.slice();
  const db = b.length - 1;
  const lb = b[db];
  let steps = 0;
  while (r.length - 1 >= db && r.length > 0) {
    const dr = r.length - 1;
    const lr = r[dr];
    const next = r.map((x) => x * lb);
    for (let i = 0; i <= db; i++) next[i + dr - db] -= lr * b[i];
    r = trim(next);
    steps++;
  }
  if (lb < 0n && steps % 2 === 1) r = r.map((x) => -x);
  return primitive(r);
}

function gcdPoly(a: Poly, b: Poly): Poly {
  while (b.length > 0) [a, b] = [b, remainder(a, b)];
  return primitive(a);
}

function signAt0(p: Poly): number {
  return p.length === 0 || p[0] === 0n ? 0 : p[0] > 0n ? 1 : -1;
}

function signAt1(p: Poly): number {
  let s = 0n;
  for (const x of p) s += x;
  return s === 0n ? 0 : s > 0n ? 1 : -1;
}

function signChanges(seq: Poly[], signAt: (p: Poly) => number): number {
  let changes = 0, last = 0;
  for (const p of seq) {
    const s = signAt(p);
    if (s === 0) continue;
    if (last !== 0 && s !== last) changes++;
    last = s;
  }
  return changes;
}

/** Number of distinct real roots of p in (0, 1], p non-constant and p(0) != 0. */
function rootsIn01(p: Poly): number {
  const seq: Poly[] = [p, trim(p.slice(1).map((x, i) => x * BigInt(i + 1)))];
  while (seq[seq.length - 1].length > 0) {
    const r = remainder(seq[seq.length - 2], seq[seq.length - 1]);
    seq.push(r.map((x) => -x));
  }
  seq.pop();
  return signChanges(seq, signAt0) - signChanges(seq, signAt1);
}

/**
 * True when the cubic rotation segment from key k to key k + 1 of a track
 * (glTF layout: per key in-tangent, value, out-tangent, 4 numbers each; all
 * finite) passes through the zero quaternion for some u in [0, 1].
 */
export function cubicRotationSegmentPassesZero(times: ArrayLike<number>, values: ArrayLike<number>, k: number): boolean {
  const dt = times[k + 1] - times[k];
  const p0 = 12 * k + 4, m0 = 12 * k + 8, m1 = 12 * k + 12, p1 = 12 * k + 16;
  // Fast sound exit: a component whose Bézier control points (P0, P0 + dt m0 / 3,
  // P1 - dt m1 / 3, P1) are all of one sign, by far more than float rounding, has
  // no root in [0, 1] (convex hull property), so neither has P.
  for (let c = 0; c < 4; c++) {
    const a = values[p0 + c], d = values[p1 + c], ta = dt * values[m0 + c], td = dt * values[m1 + c];
    const b = a + ta / 3, e = d - td / 3;
    const margin = 1e-9 * (Math.abs(a) + Math.abs(d) + Math.abs(ta) + Math.abs(td)) + 1e-300;
    if ((a > margin && b > margin && e > margin && d > margin) || (a < -margin && b < -margin && e < -margin && d < -margin)) return false;
  }
  // Terms of each coefficient as exact dyadics: coefficient = Σ factor · term.
  const d = exact(dt);
  const terms: { mant: bigint; exp: number }[] = [];
  for (let c = 0; c < 4; c++) {
    const a = exact(values[m0 + c]), b = exact(values[m1 + c]);
    terms.push(exact(values[p0 + c]), exact(values[p1 + c]), { mant: a.mant * d.mant, exp: a.exp + d.exp }, { mant: b.mant * d.mant, exp: b.exp + d.exp });
  }
  let minExp = Infinity;
  for (const t of terms) if (t.mant !== 0n && t.exp < minExp) minExp = t.exp;
  if (minExp === Infinity) return true; // every key value and tangent is zero
  const ints = terms.map((t) => (t.mant === 0n ? 0n : t.mant << BigInt(t.exp - minExp)));
  let g: Poly | null = null;
  for (let c = 0; c < 4; c++) {
    const [P0, P1, D0, D1] = ints.slice(4 * c, 4 * c + 4);
    // Monomial coefficients of h00 P0 + h10 D0 + h01 P1 + h11 D1.
    const poly = trim([P0, D0, -3n * P0 - 2n * D0 + 3n * P1 - D1, 2n * P0 + D0 - 2n * P1 + D1]);
    if (poly.length === 0) continue;
    g = g === null ? primitive(poly) : gcdPoly(g, poly);
    if (g.length === 1) return false; // constant gcd: no common root
  }
  if (g === null) return true; // identically zero
  if (g[0] === 0n) return true; // root at u = 0 (zero key value)
  if (signAt1(g) === 0) return true; // root at u = 1
  return rootsIn01(g) > 0;
}
