/**
 * Deterministic transcendental functions: the same bits on every JavaScript
 * engine.
 *
 * `Math.sin`, `Math.exp`, `Math.pow`... are only required to be
 * "implementation-approximated", and engines differ in the last bit: node 20's
 * V8 uses fdlibm ports (v8/src/base/ieee754.cc), newer Chromium uses other libm
 * code for several of them. A chaotic simulation amplifies one bit into a
 * different suggestion, so core computes these functions itself, with nothing
 * but + − × ÷ and sqrt (which IEEE 754 rounds exactly everywhere), exact
 * operations (fabs, floor, truncation to int32) and bit access through one
 * shared Float64Array/Int32Array view (no allocation per call).
 *
 * The code is a faithful port of fdlibm as V8 ships it (ieee754.cc, FreeBSD
 * msun lineage: sin, cos, tan, asin, acos, atan, atan2, exp, log, log2, cbrt,
 * and pow as V8 computes Math.pow and `**`), and hypot follows V8's Math.hypot
 * builtin (normalize by the largest magnitude, Kahan-compensated sum of
 * squares). Each function is bit-identical to node 20's Math.* on every input
 * (libm.test.ts checks millions of seeded inputs), so results computed in node
 * did not change when core switched to these, and the app (Chromium) now gets
 * the same bits as the CLI (e2e/libm.spec.ts).
 *
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *
 * Developed at SunSoft, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this
 * software is freely granted, provided that this notice
 * is preserved.
 * ====================================================
 * (The fdlibm code was modified by the FreeBSD project and by the V8 authors;
 * this is a TypeScript port of the V8 version.)
 */

// ---------------------------------------------------------------------------
// Bit access. One shared view; words are read and written in place.
// JavaScript typed arrays use the platform's byte order; every platform
// Chromium, Electron and node run on is little-endian, so word 1 is the high
// (sign, exponent, top of mantissa) word. Checked once at load.

const _f = new Float64Array(1);
const _w = new Int32Array(_f.buffer);
_f[0] = 1;
if (_w[1] !== 0x3ff00000) throw new Error('core/math/libm: needs a little-endian platform (IEEE 754 doubles, low word first)');

/** High 32 bits of x (sign, exponent, 20 mantissa bits), signed. */
function hi(x: number): number {
  _f[0] = x;
  return _w[1];
}
/** Low 32 bits of x, as a signed int32 (compare with 0 only, or >>> 0). */
function lo(x: number): number {
  _f[0] = x;
  return _w[0];
}
function fromWords(h: number, l: number): number {
  _w[1] = h;
  _w[0] = l;
  return _f[0];
}
/** x with its low word cleared (fdlibm SET_LOW_WORD(x, 0)). */
function clearLow(x: number): number {
  _f[0] = x;
  _w[0] = 0;
  return _f[0];
}
function setHigh(x: number, h: number): number {
  _f[0] = x;
  _w[1] = h;
  return _f[0];
}

const TWO54 = 1.8014398509481984e16; // 0x43500000 00000000
const TWOM54 = 5.551115123125783e-17; // 0x3C900000 00000000
const HUGE = 1.0e300;
const TINY = 1.0e-300;

/** x · 2^n, rounded once (FreeBSD s_scalbn.c). */
export function scalbn(x: number, n: number): number {
  let hx = hi(x);
  const lx = lo(x);
  let k = (hx & 0x7ff00000) >> 20;
  if (k === 0) {
    // 0 or subnormal
    if ((lx | (hx & 0x7fffffff)) === 0) return x;
    x *= TWO54;
    hx = hi(x);
    k = ((hx & 0x7ff00000) >> 20) - 54;
    if (n < -50000) return TINY * x;
  }
  if (k === 0x7ff) return x + x; // NaN or Inf
  k = k + n;
  if (k > 0x7fe) return HUGE * (x < 0 ? -HUGE : HUGE); // overflow
  if (k > 0) return setHigh(x, (hx & 0x800fffff) | (k << 20));
  if (k <= -54) {
    if (n > 50000) return HUGE * (x < 0 ? -HUGE : HUGE);
    return TINY * (x < 0 ? -TINY : TINY); // underflow
  }
  k += 54; // subnormal result
  return setHigh(x, (hx & 0x800fffff) | (k << 20)) * TWOM54;
}

// ---------------------------------------------------------------------------
// Argument reduction for sin, cos, tan: x − n·π/2 in _y[0] + _y[1].

const TWO_OVER_PI = new Int32Array([
  0xa2f983, 0x6e4e44, 0x1529fc, 0x2757d1, 0xf534dd, 0xc0db62, 0x95993c, 0x439041, 0xfe5163, 0xabdebb, 0xc561b7, 0x246e3a, 0x424dd2, 0xe00649, 0x2eea09,
  0xd1921c, 0xfe1deb, 0x1cb129, 0xa73ee8, 0x8235f5, 0x2ebb44, 0x84e99c, 0x7026b4, 0x5f7e41, 0x3991d6, 0x398353, 0x39f49c, 0x845f8b, 0xbdf928, 0x3b1ff8,
  0x97ffde, 0x05980f, 0xef2f11, 0x8b5a0a, 0x6d1f6d, 0x367ecf, 0x27cb09, 0xb74f46, 0x3f669e, 0x5fea2d, 0x7527ba, 0xc7ebe5, 0xf17b3d, 0x0739f7, 0x8a5292,
  0xea6bfb, 0x5fb11f, 0x8d5d08, 0x560330, 0x46fc7b, 0x6babf0, 0xcfbc20, 0x9af436, 0x1da9e3, 0x91615e, 0xe61b08, 0x659985, 0x5f14a0, 0x68408d, 0xffd880,
  0x4d7327, 0x310606, 0x1556ca, 0x73a8c9, 0x60e27b, 0xc08c6b,
]);

const NPIO2_HW = new Int32Array([
  0x3ff921fb, 0x400921fb, 0x4012d97c, 0x401921fb, 0x401f6a7a, 0x4022d97c, 0x4025fdbb, 0x402921fb, 0x402c463a, 0x402f6a7a, 0x4031475c, 0x4032d97c,
  0x40346b9c, 0x4035fdbb, 0x40378fdb, 0x403921fb, 0x403ab41b, 0x403c463a, 0x403dd85a, 0x403f6a7a, 0x40407e4c, 0x4041475c, 0x4042106c, 0x4042d97c,
  0x4043a28c, 0x40446b9c, 0x404534ac, 0x4045fdbb, 0x4046c6cb, 0x40478fdb, 0x404858eb, 0x404921fb,
]);

const INVPIO2 = 6.36619772367581382433e-1; // 0x3FE45F30 6DC9C883
const PIO2_1 = 1.57079632673412561417e0; // 0x3FF921FB 54400000
const PIO2_1T = 6.07710050650619224932e-11; // 0x3DD0B461 1A626331
const PIO2_2 = 6.07710050630396597660e-11; // 0x3DD0B461 1A600000
const PIO2_2T = 2.02226624879595063154e-21; // 0x3BA3198A 2E037073
const PIO2_3 = 2.02226624871116645580e-21; // 0x3BA3198A 2E000000
const PIO2_3T = 8.47842766036889956997e-32; // 0x397B839A 252049C1
const TWO24 = 1.67772160000000000000e7; // 0x41700000 00000000
const TWON24 = 5.96046447753906250000e-8; // 0x3E700000 00000000

const _y = new Float64Array(2);
const _tx = new Float64Array(3);

/** __ieee754_rem_pio2: returns n (x ≈ n·π/2 + _y[0] + _y[1]). */
function remPio2(x: number): number {
  const hx = hi(x);
  const ix = hx & 0x7fffffff;
  let z = 0;
  if (ix <= 0x3fe921fb) {
    _y[0] = x;
    _y[1] = 0;
    return 0;
  }
  if (ix < 0x4002d97c) {
    // |x| < 3π/4, n = ±1
    if (hx > 0) {
      z = x - PIO2_1;
      if (ix !== 0x3ff921fb) {
        _y[0] = z - PIO2_1T;
        _y[1] = z - _y[0] - PIO2_1T;
      } else {
        z -= PIO2_2;
        _y[0] = z - PIO2_2T;
        _y[1] = z - _y[0] - PIO2_2T;
      }
      return 1;
    }
    z = x + PIO2_1;
    if (ix !== 0x3ff921fb) {
      _y[0] = z + PIO2_1T;
      _y[1] = z - _y[0] + PIO2_1T;
    } else {
      z += PIO2_2;
      _y[0] = z + PIO2_2T;
      _y[1] = z - _y[0] + PIO2_2T;
    }
    return -1;
  }
  if (ix <= 0x413921fb) {
    // |x| ≲ 2^19·π/2, medium size
    let t = Math.abs(x);
    const n = (t * INVPIO2 + 0.5) | 0;
    const fn = n;
    let r = t - fn * PIO2_1;
    let w = fn * PIO2_1T; // first round good to 85 bits
    if (n < 32 && ix !== NPIO2_HW[n - 1]) {
      _y[0] = r - w; // quick check: no cancellation
    } else {
      const j = ix >> 20;
      _y[0] = r - w;
      let i = j - ((hi(_y[0]) >> 20) & 0x7ff);
      if (i > 16) {
        // second iteration, good to 118 bits
        t = r;
        w = fn * PIO2_2;
        r = t - w;
        w = fn * PIO2_2T - (t - r - w);
        _y[0] = r - w;
        i = j - ((hi(_y[0]) >> 20) & 0x7ff);
        if (i > 49) {
          // third iteration, 151 bits
          t = r;
          w = fn * PIO2_3;
          r = t - w;
          w = fn * PIO2_3T - (t - r - w);
          _y[0] = r - w;
        }
      }
    }
    _y[1] = r - _y[0] - w;
    if (hx < 0) {
      _y[0] = -_y[0];
      _y[1] = -_y[1];
      return -n;
    }
    return n;
  }
  // large arguments
  if (ix >= 0x7ff00000) {
    _y[0] = _y[1] = x - x;
    return 0;
  }
  // z = scalbn(|x|, ilogb(x) − 23)
  const e0 = (ix >> 20) - 1046;
  z = fromWords(ix - (e0 << 20), lo(x));
  for (let i = 0; i < 2; i++) {
    _tx[i] = z | 0;
    z = (z - _tx[i]) * TWO24;
  }
  _tx[2] = z;
  let nx = 3;
  while (_tx[nx - 1] === 0) nx--; // skip zero terms
  const n = kernelRemPio2(_tx, _y, e0, nx, 2);
  if (hx < 0) {
    _y[0] = -_y[0];
    _y[1] = -_y[1];
    return -n;
  }
  return n;
}

const PIO2 = new Float64Array([
  1.57079625129699707031e0, // 0x3FF921FB 40000000
  7.54978941586159635335e-8, // 0x3E74442D 00000000
  5.39030252995776476554e-15, // 0x3CF84698 80000000
  3.28200341580791294123e-22, // 0x3B78CC51 60000000
  1.27065575308067607349e-29, // 0x39F01B83 80000000
  1.22933308981111328932e-36, // 0x387A2520 40000000
  2.73370053816464559624e-44, // 0x36E38222 80000000
  2.16741683877804819444e-51, // 0x3569F31D 00000000
]);
const INIT_JK = [2, 3, 4, 6];
const _iq = new Int32Array(20);
const _fk = new Float64Array(20);
const _fq = new Float64Array(20);
const _q = new Float64Array(20);

/** __kernel_rem_pio2 (prec 2 only uses y[0], y[1]); returns n mod 8. */
function kernelRemPio2(x: Float64Array, y: Float64Array, e0: number, nx: number, prec: number): number {
  const iq = _iq,
    f = _fk,
    fq = _fq,
    q = _q,
    ipio2 = TWO_OVER_PI;
  const jk = INIT_JK[prec];
  const jp = jk;
  const jx = nx - 1;
  let jv = ((e0 - 3) / 24) | 0;
  if (jv < 0) jv = 0;
  let q0 = e0 - 24 * (jv + 1);

  // f[0..jx+jk] = ipio2[jv-jx..jv+jk]
  let j = jv - jx;
  const m = jx + jk;
  for (let i = 0; i <= m; i++, j++) f[i] = j < 0 ? 0 : ipio2[j];

  // q[0..jk]
  let fw = 0;
  for (let i = 0; i <= jk; i++) {
    fw = 0;
    for (j = 0; j <= jx; j++) fw += x[j] * f[jx + i - j];
    q[i] = fw;
  }

  let jz = jk;
  let z = 0,
    n = 0,
    ih = 0,
    i = 0,
    k = 0;
  for (;;) {
    // distill q[] into iq[] reversingly
    for (i = 0, j = jz, z = q[jz]; j > 0; i++, j--) {
      fw = (TWON24 * z) | 0;
      iq[i] = (z - TWO24 * fw) | 0;
      z = q[j - 1] + fw;
    }
    // compute n
    z = scalbn(z, q0);
    z -= 8.0 * Math.floor(z * 0.125);
    n = z | 0;
    z -= n;
    ih = 0;
    if (q0 > 0) {
      i = iq[jz - 1] >> (24 - q0);
      n += i;
      iq[jz - 1] -= i << (24 - q0);
      ih = iq[jz - 1] >> (23 - q0);
    } else if (q0 === 0) {
      ih = iq[jz - 1] >> 23;
    } else if (z >= 0.5) {
      ih = 2;
    }

    if (ih > 0) {
      // q > 0.5
      n += 1;
      let carry = 0;
      for (i = 0; i < jz; i++) {
        // 1 − q
        j = iq[i];
        if (carry === 0) {
          if (j !== 0) {
            carry = 1;
            iq[i] = 0x1000000 - j;
          }
        } else {
          iq[i] = 0xffffff - j;
        }
      }
      if (q0 > 0) {
        if (q0 === 1) iq[jz - 1] &= 0x7fffff;
        else if (q0 === 2) iq[jz - 1] &= 0x3fffff;
      }
      if (ih === 2) {
        z = 1 - z;
        if (carry !== 0) z -= scalbn(1, q0);
      }
    }

    // recomputation needed?
    if (z === 0) {
      j = 0;
      for (i = jz - 1; i >= jk; i--) j |= iq[i];
      if (j === 0) {
        for (k = 1; jk >= k && iq[jk - k] === 0; k++) {
          // k = number of terms needed
        }
        for (i = jz + 1; i <= jz + k; i++) {
          f[jx + i] = ipio2[jv + i];
          fw = 0;
          for (j = 0; j <= jx; j++) fw += x[j] * f[jx + i - j];
          q[i] = fw;
        }
        jz += k;
        continue;
      }
    }
    break;
  }

  // chop off zero terms
  if (z === 0) {
    jz -= 1;
    q0 -= 24;
    while (iq[jz] === 0) {
      jz--;
      q0 -= 24;
    }
  } else {
    // break z into 24-bit pieces if necessary
    z = scalbn(z, -q0);
    if (z >= TWO24) {
      fw = (TWON24 * z) | 0;
      iq[jz] = z - TWO24 * fw;
      jz += 1;
      q0 += 24;
      iq[jz] = fw;
    } else {
      iq[jz] = z;
    }
  }

  // integer chunks to floating point
  fw = scalbn(1, q0);
  for (i = jz; i >= 0; i--) {
    q[i] = fw * iq[i];
    fw *= TWON24;
  }

  // PIo2[0..jp] · q[jz..0]
  for (i = jz; i >= 0; i--) {
    fw = 0;
    for (k = 0; k <= jp && k <= jz - i; k++) fw += PIO2[k] * q[i + k];
    fq[jz - i] = fw;
  }

  // compress fq[] into y[] (prec 1 or 2)
  fw = 0;
  for (i = jz; i >= 0; i--) fw += fq[i];
  y[0] = ih === 0 ? fw : -fw;
  fw = fq[0] - fw;
  for (i = 1; i <= jz; i++) fw += fq[i];
  y[1] = ih === 0 ? fw : -fw;
  return n & 7;
}

// ---------------------------------------------------------------------------
// Kernels on [−π/4, π/4]; y is the tail of x.

const C1 = 4.16666666666666019037e-2; // 0x3FA55555 5555554C
const C2 = -1.38888888888741095749e-3; // 0xBF56C16C 16C15177
const C3 = 2.48015872894767294178e-5; // 0x3EFA01A0 19CB1590
const C4 = -2.75573143513906633035e-7; // 0xBE927E4F 809C52AD
const C5 = 2.08757232129817482790e-9; // 0x3E21EE9E BDB4B1C4
const C6 = -1.13596475577881948265e-11; // 0xBDA8FAE9 BE8838D4

function kernelCos(x: number, y: number): number {
  const ix = hi(x) & 0x7fffffff;
  if (ix < 0x3e400000) return 1; // |x| < 2^-27
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  if (ix < 0x3fd33333) return 1 - (0.5 * z - (z * r - x * y)); // |x| < 0.3
  const qx = ix > 0x3fe90000 ? 0.28125 : fromWords(ix - 0x00200000, 0); // x/4
  const iz = 0.5 * z - qx;
  const a = 1 - qx;
  return a - (iz - (z * r - x * y));
}

const S1 = -1.66666666666666324348e-1; // 0xBFC55555 55555549
const S2 = 8.33333333332248946124e-3; // 0x3F811111 1110F8A6
const S3 = -1.98412698298579493134e-4; // 0xBF2A01A0 19C161D5
const S4 = 2.75573137070700676789e-6; // 0x3EC71DE3 57B1FE7D
const S5 = -2.50507602534068634195e-8; // 0xBE5AE5E6 8A2B9CEB
const S6 = 1.58969099521155010221e-10; // 0x3DE5D93A 5ACFD57C

function kernelSin(x: number, y: number, iy: number): number {
  const ix = hi(x) & 0x7fffffff;
  if (ix < 0x3e400000) return x; // |x| < 2^-27
  const z = x * x;
  const v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  if (iy === 0) return x + v * (S1 + z * r);
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

const T0 = 3.33333333333334091986e-1; // 3FD55555 55555563
const T1 = 1.33333333333201242699e-1; // 3FC11111 1110FE7A
const T2 = 5.39682539762260521377e-2; // 3FABA1BA 1BB341FE
const T3 = 2.18694882948595424599e-2; // 3F9664F4 8406D637
const T4 = 8.86323982359930005737e-3; // 3F8226E3 E96E8493
const T5 = 3.59207910759131235356e-3; // 3F6D6D22 C9560328
const T6 = 1.45620945432529025516e-3; // 3F57DBC8 FEE08315
const T7 = 5.88041240820264096874e-4; // 3F4344D8 F2F26501
const T8 = 2.46463134818469906812e-4; // 3F3026F7 1A8D1068
const T9 = 7.81794442939557092300e-5; // 3F147E88 A03792A6
const T10 = 7.14072491382608190305e-5; // 3F12B80F 32F0A7E9
const T11 = -1.85586374855275456654e-5; // BEF375CB DB605373
const T12 = 2.59073051863633712884e-5; // 3EFB2A70 74BF7AD4
const PIO4 = 7.85398163397448278999e-1; // 3FE921FB 54442D18
const PIO4LO = 3.06161699786838301793e-17; // 3C81A626 33145C07

/** tan(x+y) if iy = 1, −1/tan(x+y) if iy = −1. */
function kernelTan(x: number, y: number, iy: number): number {
  const hx = hi(x);
  const ix = hx & 0x7fffffff;
  let z: number, r: number, v: number, w: number, s: number;
  if (ix < 0x3e300000) {
    // |x| < 2^-28
    if (((ix | lo(x)) | (iy + 1)) === 0) return 1 / Math.abs(x);
    if (iy === 1) return x;
    // −1/(x+y) carefully
    w = x + y;
    z = clearLow(w);
    v = y - (z - x);
    const a = -1 / w;
    const t = clearLow(a);
    s = 1 + t * z;
    return t + a * (s + t * v);
  }
  if (ix >= 0x3fe59428) {
    // |x| >= 0.6744
    if (hx < 0) {
      x = -x;
      y = -y;
    }
    z = PIO4 - x;
    w = PIO4LO - y;
    x = z + w;
    y = 0.0;
  }
  z = x * x;
  w = z * z;
  r = T1 + w * (T3 + w * (T5 + w * (T7 + w * (T9 + w * T11))));
  v = z * (T2 + w * (T4 + w * (T6 + w * (T8 + w * (T10 + w * T12)))));
  s = z * x;
  r = y + z * (s * (r + v) + y);
  r += T0 * s;
  w = x + r;
  if (ix >= 0x3fe59428) {
    v = iy;
    return (1 - ((hx >> 30) & 2)) * (v - 2.0 * (x - ((w * w) / (w + v) - r)));
  }
  if (iy === 1) return w;
  // −1/(x+r) accurately
  z = clearLow(w);
  v = r - (z - x);
  const a = -1.0 / w;
  const t = clearLow(a);
  s = 1.0 + t * z;
  return t + a * (s + t * v);
}

// ---------------------------------------------------------------------------
// sin, cos, tan

/** Sine of angleRad; bit-identical to node 20's Math.sin. */
export function sin(x: number): number {
  const ix = hi(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelSin(x, 0, 0);
  if (ix >= 0x7ff00000) return x - x; // NaN
  const n = remPio2(x);
  switch (n & 3) {
    case 0:
      return kernelSin(_y[0], _y[1], 1);
    case 1:
      return kernelCos(_y[0], _y[1]);
    case 2:
      return -kernelSin(_y[0], _y[1], 1);
    default:
      return -kernelCos(_y[0], _y[1]);
  }
}

/** Cosine of angleRad; bit-identical to node 20's Math.cos. */
export function cos(x: number): number {
  const ix = hi(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelCos(x, 0);
  if (ix >= 0x7ff00000) return x - x; // NaN
  const n = remPio2(x);
  switch (n & 3) {
    case 0:
      return kernelCos(_y[0], _y[1]);
    case 1:
      return -kernelSin(_y[0], _y[1], 1);
    case 2:
      return -kernelCos(_y[0], _y[1]);
    default:
      return kernelSin(_y[0], _y[1], 1);
  }
}

/**
 * sin(x) into out[o] and cos(x) into out[o + 1]: the same numbers as `sin` and `cos`
 * (the same kernels on the same reduction), with the classification, the argument
 * reduction and, for |x| ≤ π/4, x² shared.
 */
export function sinCos(x: number, out: Float64Array, o: number): void {
  const ix = hi(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) {
    if (ix < 0x3e400000) {
      // |x| < 2^-27: kernelSin returns x, kernelCos 1
      out[o] = x;
      out[o + 1] = 1;
      return;
    }
    const z = x * x;
    const v = z * x;
    const rs = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    out[o] = x + v * (S1 + z * rs);
    const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
    if (ix < 0x3fd33333) {
      out[o + 1] = 1 - (0.5 * z - (z * r - x * 0));
      return;
    }
    const qx = ix > 0x3fe90000 ? 0.28125 : fromWords(ix - 0x00200000, 0);
    const iz = 0.5 * z - qx;
    const a = 1 - qx;
    out[o + 1] = a - (iz - (z * r - x * 0));
    return;
  }
  if (ix >= 0x7ff00000) {
    out[o] = x - x; // NaN
    out[o + 1] = x - x;
    return;
  }
  const n = remPio2(x);
  const y0 = _y[0],
    y1 = _y[1];
  const s = kernelSin(y0, y1, 1),
    c = kernelCos(y0, y1);
  switch (n & 3) {
    case 0:
      out[o] = s;
      out[o + 1] = c;
      return;
    case 1:
      out[o] = c;
      out[o + 1] = -s;
      return;
    case 2:
      out[o] = -s;
      out[o + 1] = -c;
      return;
    default:
      out[o] = -c;
      out[o + 1] = s;
  }
}

/** Tangent of angleRad; bit-identical to node 20's Math.tan. */
export function tan(x: number): number {
  const ix = hi(x) & 0x7fffffff;
  if (ix <= 0x3fe921fb) return kernelTan(x, 0, 1);
  if (ix >= 0x7ff00000) return x - x; // NaN
  const n = remPio2(x);
  return kernelTan(_y[0], _y[1], 1 - ((n & 1) << 1));
}

// ---------------------------------------------------------------------------
// asin, acos

const PI = 3.14159265358979311600e0; // 0x400921FB 54442D18
const PIO2_HI = 1.57079632679489655800e0; // 0x3FF921FB 54442D18
const PIO2_LO = 6.12323399573676603587e-17; // 0x3C91A626 33145C07
const PIO4_HI = 7.85398163397448278999e-1; // 0x3FE921FB 54442D18
const PS0 = 1.66666666666666657415e-1; // 0x3FC55555 55555555
const PS1 = -3.25565818622400915405e-1; // 0xBFD4D612 03EB6F7D
const PS2 = 2.01212532134862925881e-1; // 0x3FC9C155 0E884455
const PS3 = -4.00555345006794114027e-2; // 0xBFA48228 B5688F3B
const PS4 = 7.91534994289814532176e-4; // 0x3F49EFE0 7501B288
const PS5 = 3.47933107596021167570e-5; // 0x3F023DE1 0DFDF709
const QS1 = -2.40339491173441421878e0; // 0xC0033A27 1C8A2D4B
const QS2 = 2.02094576023350569471e0; // 0x40002AE5 9C598AC8
const QS3 = -6.88283971605453293030e-1; // 0xBFE6066C 1B8D0159
const QS4 = 7.70381505559019352791e-2; // 0x3FB3B8C5 B12E9282

/** Arc sine in radians; bit-identical to node 20's Math.asin. */
export function asin(x: number): number {
  const hx = hi(x);
  const ix = hx & 0x7fffffff;
  let t = 0,
    w: number,
    p: number,
    q: number;
  if (ix >= 0x3ff00000) {
    // |x| >= 1
    if (((ix - 0x3ff00000) | lo(x)) === 0) return x * PIO2_HI + x * PIO2_LO; // asin(±1) = ±π/2
    return NaN; // |x| > 1 or NaN
  } else if (ix < 0x3fe00000) {
    // |x| < 0.5
    if (ix < 0x3e400000) return x; // |x| < 2^-27
    t = x * x;
    p = t * (PS0 + t * (PS1 + t * (PS2 + t * (PS3 + t * (PS4 + t * PS5)))));
    q = 1 + t * (QS1 + t * (QS2 + t * (QS3 + t * QS4)));
    w = p / q;
    return x + x * w;
  }
  // 1 > |x| >= 0.5
  w = 1 - Math.abs(x);
  t = w * 0.5;
  p = t * (PS0 + t * (PS1 + t * (PS2 + t * (PS3 + t * (PS4 + t * PS5)))));
  q = 1 + t * (QS1 + t * (QS2 + t * (QS3 + t * QS4)));
  const s = Math.sqrt(t);
  if (ix >= 0x3fef3333) {
    // |x| > 0.975
    w = p / q;
    t = PIO2_HI - (2.0 * (s + s * w) - PIO2_LO);
  } else {
    w = clearLow(s);
    const c = (t - w * w) / (s + w);
    const r = p / q;
    p = 2.0 * s * r - (PIO2_LO - 2.0 * c);
    q = PIO4_HI - 2.0 * w;
    t = PIO4_HI - (p - q);
  }
  return hx > 0 ? t : -t;
}

/** Arc cosine in radians; bit-identical to node 20's Math.acos. */
export function acos(x: number): number {
  const hx = hi(x);
  const ix = hx & 0x7fffffff;
  let z: number, p: number, q: number, r: number, w: number, s: number;
  if (ix >= 0x3ff00000) {
    // |x| >= 1
    if (((ix - 0x3ff00000) | lo(x)) === 0) return hx > 0 ? 0.0 : PI + 2.0 * PIO2_LO;
    return NaN; // |x| > 1 or NaN
  }
  if (ix < 0x3fe00000) {
    // |x| < 0.5
    if (ix <= 0x3c600000) return PIO2_HI + PIO2_LO; // |x| < 2^-57
    z = x * x;
    p = z * (PS0 + z * (PS1 + z * (PS2 + z * (PS3 + z * (PS4 + z * PS5)))));
    q = 1 + z * (QS1 + z * (QS2 + z * (QS3 + z * QS4)));
    r = p / q;
    return PIO2_HI - (x - (PIO2_LO - x * r));
  } else if (hx < 0) {
    // x < −0.5
    z = (1 + x) * 0.5;
    p = z * (PS0 + z * (PS1 + z * (PS2 + z * (PS3 + z * (PS4 + z * PS5)))));
    q = 1 + z * (QS1 + z * (QS2 + z * (QS3 + z * QS4)));
    s = Math.sqrt(z);
    r = p / q;
    w = r * s - PIO2_LO;
    return PI - 2.0 * (s + w);
  }
  // x > 0.5
  z = (1 - x) * 0.5;
  s = Math.sqrt(z);
  const df = clearLow(s);
  const c = (z - df * df) / (s + df);
  p = z * (PS0 + z * (PS1 + z * (PS2 + z * (PS3 + z * (PS4 + z * PS5)))));
  q = 1 + z * (QS1 + z * (QS2 + z * (QS3 + z * QS4)));
  r = p / q;
  w = r * s + c;
  return 2.0 * (df + w);
}

// ---------------------------------------------------------------------------
// atan, atan2

const ATANHI = new Float64Array([
  4.63647609000806093515e-1, // atan(0.5)hi 0x3FDDAC67 0561BB4F
  7.85398163397448278999e-1, // atan(1.0)hi 0x3FE921FB 54442D18
  9.82793723247329054082e-1, // atan(1.5)hi 0x3FEF730B D281F69B
  1.57079632679489655800e0, // atan(inf)hi 0x3FF921FB 54442D18
]);
const ATANLO = new Float64Array([
  2.26987774529616870924e-17, // atan(0.5)lo 0x3C7A2B7F 222F65E2
  3.06161699786838301793e-17, // atan(1.0)lo 0x3C81A626 33145C07
  1.39033110312309984516e-17, // atan(1.5)lo 0x3C700788 7AF0CBBD
  6.12323399573676603587e-17, // atan(inf)lo 0x3C91A626 33145C07
]);
const AT0 = 3.33333333333329318027e-1; // 0x3FD55555 5555550D
const AT1 = -1.99999999998764832476e-1; // 0xBFC99999 9998EBC4
const AT2 = 1.42857142725034663711e-1; // 0x3FC24924 920083FF
const AT3 = -1.11111104054623557880e-1; // 0xBFBC71C6 FE231671
const AT4 = 9.09088713343650656196e-2; // 0x3FB745CD C54C206E
const AT5 = -7.69187620504482999495e-2; // 0xBFB3B0F2 AF749A6D
const AT6 = 6.66107313738753120669e-2; // 0x3FB10D66 A0D03D51
const AT7 = -5.83357013379057348645e-2; // 0xBFADDE2D 52DEFD9A
const AT8 = 4.97687799461593236017e-2; // 0x3FA97B4B 24760DEB
const AT9 = -3.65315727442169155270e-2; // 0xBFA2B444 2C6A6C2F
const AT10 = 1.62858201153657823623e-2; // 0x3F90AD3A E322DA11

/** Arc tangent in radians; bit-identical to node 20's Math.atan. */
export function atan(x: number): number {
  const hx = hi(x);
  const ix = hx & 0x7fffffff;
  let id: number;
  if (ix >= 0x44100000) {
    // |x| >= 2^66
    if (ix > 0x7ff00000 || (ix === 0x7ff00000 && lo(x) !== 0)) return x + x; // NaN
    return hx > 0 ? ATANHI[3] + ATANLO[3] : -ATANHI[3] - ATANLO[3];
  }
  if (ix < 0x3fdc0000) {
    // |x| < 0.4375
    if (ix < 0x3e400000) return x; // |x| < 2^-27
    id = -1;
  } else {
    x = Math.abs(x);
    if (ix < 0x3ff30000) {
      // |x| < 1.1875
      if (ix < 0x3fe60000) {
        // 7/16 <= |x| < 11/16
        id = 0;
        x = (2.0 * x - 1) / (2.0 + x);
      } else {
        // 11/16 <= |x| < 19/16
        id = 1;
        x = (x - 1) / (x + 1);
      }
    } else if (ix < 0x40038000) {
      // |x| < 2.4375
      id = 2;
      x = (x - 1.5) / (1 + 1.5 * x);
    } else {
      // 2.4375 <= |x| < 2^66
      id = 3;
      x = -1.0 / x;
    }
  }
  const z = x * x;
  const w = z * z;
  const s1 = z * (AT0 + w * (AT2 + w * (AT4 + w * (AT6 + w * (AT8 + w * AT10)))));
  const s2 = w * (AT1 + w * (AT3 + w * (AT5 + w * (AT7 + w * AT9))));
  if (id < 0) return x - x * (s1 + s2);
  const r = ATANHI[id] - (x * (s1 + s2) - ATANLO[id] - x);
  return hx < 0 ? -r : r;
}

const PI_O_4 = 7.8539816339744827900e-1; // 0x3FE921FB 54442D18
const PI_O_2 = 1.5707963267948965580e0; // 0x3FF921FB 54442D18
const PI_LO = 1.2246467991473531772e-16; // 0x3CA1A626 33145C07

/** Angle of the point (x, y) in radians, atan2(y, x); bit-identical to node 20's Math.atan2. */
export function atan2(y: number, x: number): number {
  const hx = hi(x);
  const lx = lo(x);
  const ix = hx & 0x7fffffff;
  const hy = hi(y);
  const ly = lo(y);
  const iy = hy & 0x7fffffff;
  if ((ix | ((lx | -lx) >>> 31)) > 0x7ff00000 || (iy | ((ly | -ly) >>> 31)) > 0x7ff00000) return x + y; // NaN
  if (((hx - 0x3ff00000) | lx) === 0) return atan(y); // x = 1
  let m = ((hy >> 31) & 1) | ((hx >> 30) & 2); // 2·sign(x) + sign(y)

  // y = 0
  if ((iy | ly) === 0) {
    switch (m) {
      case 0:
      case 1:
        return y; // atan(±0, +anything) = ±0
      case 2:
        return PI + TINY; // atan(+0, −anything) = π
      default:
        return -PI - TINY; // atan(−0, −anything) = −π
    }
  }
  // x = 0
  if ((ix | lx) === 0) return hy < 0 ? -PI_O_2 - TINY : PI_O_2 + TINY;

  // x is ±Inf
  if (ix === 0x7ff00000) {
    if (iy === 0x7ff00000) {
      switch (m) {
        case 0:
          return PI_O_4 + TINY;
        case 1:
          return -PI_O_4 - TINY;
        case 2:
          return 3.0 * PI_O_4 + TINY;
        default:
          return -3.0 * PI_O_4 - TINY;
      }
    }
    switch (m) {
      case 0:
        return 0;
      case 1:
        return -0;
      case 2:
        return PI + TINY;
      default:
        return -PI - TINY;
    }
  }
  // y is ±Inf
  if (iy === 0x7ff00000) return hy < 0 ? -PI_O_2 - TINY : PI_O_2 + TINY;

  // compute y/x
  const k = (iy - ix) >> 20;
  let z: number;
  if (k > 60) {
    // |y/x| > 2^60
    z = PI_O_2 + 0.5 * PI_LO;
    m &= 1;
  } else if (hx < 0 && k < -60) {
    z = 0.0; // 0 > |y|/x > −2^-60
  } else {
    z = atan(Math.abs(y / x));
  }
  switch (m) {
    case 0:
      return z;
    case 1:
      return -z;
    case 2:
      return PI - (z - PI_LO);
    default:
      return z - PI_LO - PI;
  }
}

// ---------------------------------------------------------------------------
// exp

const O_THRESHOLD = 7.09782712893383973096e2; // 0x40862E42 FEFA39EF
const U_THRESHOLD = -7.45133219101941108420e2; // 0xC0874910 D52D3051
const LN2HI = 6.93147180369123816490e-1; // 0x3FE62E42 FEE00000
const LN2LO = 1.90821492927058770002e-10; // 0x3DEA39EF 35793C76
const INVLN2 = 1.44269504088896338700e0; // 0x3FF71547 652B82FE
const P1 = 1.66666666666666019037e-1; // 0x3FC55555 5555553E
const P2 = -2.77777777770155933842e-3; // 0xBF66C16C 16BEBD93
const P3 = 6.61375632143793436117e-5; // 0x3F11566A AF25DE2C
const P4 = -1.65339022054652515390e-6; // 0xBEBBBD41 C5D26BF1
const P5 = 4.13813679705723846039e-8; // 0x3E663769 72BEA4D0
const E = 2.718281828459045; // 0x4005BF0A 8B145769
const TWOM1000 = 9.33263618503218878990e-302; // 2^-1000
const TWO1023 = 8.988465674311579539e307; // 2^1023

/** e^x; bit-identical to node 20's Math.exp. */
export function exp(x: number): number {
  let hx = hi(x);
  const xsb = (hx >>> 31) & 1; // sign bit of x
  hx &= 0x7fffffff;
  let hiPart = 0,
    loPart = 0,
    k = 0;

  if (hx >= 0x40862e42) {
    // |x| >= 709.78...
    if (hx >= 0x7ff00000) {
      if (((hx & 0xfffff) | lo(x)) !== 0) return x + x; // NaN
      return xsb === 0 ? x : 0.0; // exp(±Inf) = {Inf, 0}
    }
    if (x > O_THRESHOLD) return HUGE * HUGE; // overflow
    if (x < U_THRESHOLD) return TWOM1000 * TWOM1000; // underflow
  }

  // argument reduction
  if (hx > 0x3fd62e42) {
    // |x| > 0.5 ln2
    if (hx < 0x3ff0a2b2) {
      // and |x| < 1.5 ln2
      if (x === 1.0) return E;
      hiPart = xsb === 0 ? x - LN2HI : x + LN2HI;
      loPart = xsb === 0 ? LN2LO : -LN2LO;
      k = 1 - xsb - xsb;
    } else {
      k = (INVLN2 * x + (xsb === 0 ? 0.5 : -0.5)) | 0;
      const t = k;
      hiPart = x - t * LN2HI; // t·ln2HI is exact here
      loPart = t * LN2LO;
    }
    x = hiPart - loPart;
  } else if (hx < 0x3e300000) {
    // |x| < 2^-28
    return 1 + x;
  } else {
    k = 0;
  }

  // x is now in primary range
  const t = x * x;
  const twopk = k >= -1021 ? fromWords(0x3ff00000 + (k << 20), 0) : fromWords(0x3ff00000 + ((k + 1000) << 20), 0);
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((x * c) / (c - 2.0) - x);
  const y = 1 - (loPart - (x * c) / (2.0 - c) - hiPart);
  if (k >= -1021) {
    if (k === 1024) return y * 2.0 * TWO1023;
    return y * twopk;
  }
  return y * twopk * TWOM1000;
}

// ---------------------------------------------------------------------------
// log, log2

const LN2_HI = 6.93147180369123816490e-1; // 3fe62e42 fee00000
const LN2_LO = 1.90821492927058770002e-10; // 3dea39ef 35793c76
const LG1 = 6.666666666666735130e-1; // 3FE55555 55555593
const LG2 = 3.999999999940941908e-1; // 3FD99999 9997FA04
const LG3 = 2.857142874366239149e-1; // 3FD24924 94229359
const LG4 = 2.222219843214978396e-1; // 3FCC71C5 1D8E78AF
const LG5 = 1.818357216161805012e-1; // 3FC74664 96CB03DE
const LG6 = 1.531383769920937332e-1; // 3FC39A09 D078C69F
const LG7 = 1.479819860511658591e-1; // 3FC2F112 DF3E5244

/** Natural logarithm; bit-identical to node 20's Math.log. */
export function log(x: number): number {
  let hx = hi(x);
  const lx = lo(x);
  let k = 0;
  if (hx < 0x00100000) {
    // x < 2^-1022
    if (((hx & 0x7fffffff) | lx) === 0) return -Infinity; // log(±0)
    if (hx < 0) return NaN; // log(negative)
    k -= 54;
    x *= TWO54; // subnormal: scale up
    hx = hi(x);
  }
  if (hx >= 0x7ff00000) return x + x;
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  let i = (hx + 0x95f64) & 0x100000;
  x = setHigh(x, hx | (i ^ 0x3ff00000)); // normalize x or x/2
  k += i >> 20;
  const f = x - 1.0;
  let dk: number, R: number;
  if ((0x000fffff & (2 + hx)) < 3) {
    // −2^-20 <= f < 2^-20
    if (f === 0) {
      if (k === 0) return 0;
      dk = k;
      return dk * LN2_HI + dk * LN2_LO;
    }
    R = f * f * (0.5 - 0.33333333333333333 * f);
    if (k === 0) return f - R;
    dk = k;
    return dk * LN2_HI - (R - dk * LN2_LO - f);
  }
  const s = f / (2.0 + f);
  dk = k;
  const z = s * s;
  i = hx - 0x6147a;
  const w = z * z;
  const j = 0x6b851 - hx;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  i |= j;
  R = t2 + t1;
  if (i > 0) {
    const hfsq = 0.5 * f * f;
    if (k === 0) return f - (hfsq - s * (hfsq + R));
    return dk * LN2_HI - (hfsq - (s * (hfsq + R) + dk * LN2_LO) - f);
  }
  if (k === 0) return f - s * (f - R);
  return dk * LN2_HI - (s * (f - R) - dk * LN2_LO - f);
}

const IVLN2HI = 1.44269504072144627571e0; // 0x3FF71547 65200000
const IVLN2LO = 1.67517131648865118353e-10; // 0x3DE705FC 2EEFA200

/** Base-2 logarithm; bit-identical to node 20's Math.log2. */
export function log2(x: number): number {
  let hx = hi(x);
  const lx = lo(x);
  let k = 0;
  if (hx < 0x00100000) {
    // x < 2^-1022
    if (((hx & 0x7fffffff) | lx) === 0) return -Infinity;
    if (hx < 0) return NaN;
    k -= 54;
    x *= TWO54;
    hx = hi(x);
  }
  if (hx >= 0x7ff00000) return x + x;
  if (hx === 0x3ff00000 && lx === 0) return 0; // log2(1) = +0
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = setHigh(x, hx | (i ^ 0x3ff00000)); // normalize x or x/2
  k += i >> 20;
  const y = k;
  const f = x - 1.0;
  const hfsq = 0.5 * f * f;
  // k_log1p(f)
  const s = f / (2.0 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const r = s * (hfsq + (t2 + t1));

  const h = clearLow(f - hfsq);
  const l = f - h - hfsq + r;
  let valHi = h * IVLN2HI;
  let valLo = (l + h) * IVLN2LO + l * IVLN2HI;
  const ww = y + valHi;
  valLo += y - ww + valHi;
  valHi = ww;
  return valLo + valHi;
}

// ---------------------------------------------------------------------------
// cbrt (FreeBSD s_cbrt.c as in V8)

const B1 = 715094163; // (1023 − 1023/3 − 0.03306235651)·2^20
const B2 = 696219795; // (1023 − 1023/3 − 54/3 − 0.03306235651)·2^20
const CP0 = 1.87595182427177009643; // 0x3FFE03E6 0F61E692
const CP1 = -1.88497979543377169875; // 0xBFFE28E0 92F02420
const CP2 = 1.621429720105354466140; // 0x3FF9F160 4A49D6C2
const CP3 = -0.758397934778766047437; // 0xBFE844CB BEE751D9
const CP4 = 0.145996192886612446982; // 0x3FC2B000 D4E4EDD7

/** Cube root; bit-identical to node 20's Math.cbrt. */
export function cbrt(x: number): number {
  let hx = hi(x);
  const low = lo(x);
  const sign = hx & 0x80000000;
  hx ^= sign;
  if (hx >= 0x7ff00000) return x + x; // NaN, ±Inf
  let t: number;
  if (hx < 0x00100000) {
    // zero or subnormal
    if ((hx | low) === 0) return x;
    t = TWO54 * x;
    const high = hi(t);
    t = fromWords(sign | (((high & 0x7fffffff) / 3) | 0) + B2, 0);
  } else {
    t = fromWords(sign | ((hx / 3) | 0) + B1, 0);
  }
  // new cbrt to 23 bits
  let r = t * t * (t / x);
  t = t * (CP0 + r * (CP1 + r * CP2) + r * r * r * (CP3 + r * CP4));
  // round t away from zero to 23 bits: bits = (bits + 0x80000000) & ~0x3FFFFFFF
  _f[0] = t;
  const l = (_w[0] >>> 0) + 0x80000000;
  if (l >= 0x100000000) _w[1] = (_w[1] + 1) | 0;
  _w[0] = l & 0xc0000000;
  t = _f[0];
  // one Newton step to 53 bits
  const s = t * t; // exact
  r = x / s;
  const w = t + t; // exact
  r = (r - t) / (w + r);
  return t + t * r;
}

// ---------------------------------------------------------------------------
// pow (fdlibm e_pow.c as V8 computes Math.pow and **)

const BP1 = 1.5;
const DP_H1 = 5.84962487220764160156e-1; // 0x3FE2B803 40000000
const DP_L1 = 1.35003920212974897128e-8; // 0x3E4CFDEB 43CFD006
const TWO53 = 9007199254740992.0; // 0x43400000 00000000
const L1 = 5.99999999999994648725e-1; // 0x3FE33333 33333303
const L2 = 4.28571428578550184252e-1; // 0x3FDB6DB6 DB6FABFF
const L3 = 3.33333329818377432918e-1; // 0x3FD55555 518F264D
const L4 = 2.72728123808534006489e-1; // 0x3FD17460 A91D4101
const L5 = 2.30660745775561754067e-1; // 0x3FCD864A 93C9DB65
const L6 = 2.06975017800338417784e-1; // 0x3FCA7E28 4A454EEF
const LG2_ = 6.93147180559945286227e-1; // 0x3FE62E42 FEFA39EF
const LG2_H = 6.93147182464599609375e-1; // 0x3FE62E43 00000000
const LG2_L = -1.90465429995776804525e-9; // 0xBE205C61 0CA86C39
const OVT = 8.0085662595372944372e-17; // −(1024 − log2(ovfl + 0.5ulp))
const CP = 9.61796693925975554329e-1; // 0x3FEEC709 DC3A03FD = 2/(3 ln2)
const CP_H = 9.61796700954437255859e-1; // 0x3FEEC709 E0000000
const CP_L = -7.02846165095275826516e-9; // 0xBE3E2FE0 145B01F5
const IVLN2 = 1.44269504088896338700e0; // 0x3FF71547 652B82FE
const IVLN2_H = 1.44269502162933349609e0; // 0x3FF71547 60000000
const IVLN2_L = 1.92596299112661746887e-8; // 0x3E54AE0B F85DDF44

/** x raised to the power y; bit-identical to node 20's Math.pow and `**`. */
export function pow(x: number, y: number): number {
  const hx = hi(x);
  const lx = lo(x);
  const hy = hi(y);
  const ly = lo(y);
  let ix = hx & 0x7fffffff;
  const iy = hy & 0x7fffffff;
  let z: number, t1: number, t2: number, t: number, u: number, v: number, w: number, r: number;
  let i: number, j: number, k: number, n: number;

  if ((iy | ly) === 0) return 1; // x**0 = 1

  if (ix > 0x7ff00000 || (ix === 0x7ff00000 && lx !== 0) || iy > 0x7ff00000 || (iy === 0x7ff00000 && ly !== 0)) return x + y; // NaN

  // yisint: 0 not an integer, 1 odd integer, 2 even integer (only when x < 0)
  let yisint = 0;
  if (hx < 0) {
    if (iy >= 0x43400000) {
      yisint = 2;
    } else if (iy >= 0x3ff00000) {
      k = (iy >> 20) - 0x3ff;
      if (k > 20) {
        j = ly >>> (52 - k);
        if (j << (52 - k) === ly) yisint = 2 - (j & 1);
      } else if (ly === 0) {
        j = iy >> (20 - k);
        if (j << (20 - k) === iy) yisint = 2 - (j & 1);
      }
    }
  }

  // special values of y
  if (ly === 0) {
    if (iy === 0x7ff00000) {
      // y is ±Inf
      if (((ix - 0x3ff00000) | lx) === 0) return y - y; // (±1)**±Inf is NaN
      if (ix >= 0x3ff00000) return hy >= 0 ? y : 0; // (|x| > 1)**±Inf = Inf, 0
      return hy < 0 ? -y : 0; // (|x| < 1)**∓Inf = Inf, 0
    }
    if (iy === 0x3ff00000) return hy < 0 ? 1 / x : x; // y is ±1
    if (hy === 0x40000000) return x * x; // y is 2
    if (hy === 0x3fe00000 && hx >= 0) return Math.sqrt(x); // y is 0.5, x >= +0
  }

  let ax = Math.abs(x);
  // special values of x
  if (lx === 0) {
    if (ix === 0x7ff00000 || ix === 0 || ix === 0x3ff00000) {
      z = ax; // x is ±0, ±Inf, ±1
      if (hy < 0) z = 1 / z;
      if (hx < 0) {
        if (((ix - 0x3ff00000) | yisint) === 0) z = NaN; // (−1)**non-int
        else if (yisint === 1) z = -z; // (x < 0)**odd = −(|x|**odd)
      }
      return z;
    }
  }

  n = (hx >> 31) + 1;
  if ((n | yisint) === 0) return NaN; // (x < 0)**(non-int)

  let s = 1; // sign of the result
  if ((n | (yisint - 1)) === 0) s = -1; // (−ve)**(odd int)

  if (iy > 0x41e00000) {
    // |y| > 2^31
    if (iy > 0x43f00000) {
      // |y| > 2^64: must over/underflow
      if (ix <= 0x3fefffff) return hy < 0 ? HUGE * HUGE : TINY * TINY;
      if (ix >= 0x3ff00000) return hy > 0 ? HUGE * HUGE : TINY * TINY;
    }
    // over/underflow if x is not close to one
    if (ix < 0x3fefffff) return hy < 0 ? s * HUGE * HUGE : s * TINY * TINY;
    if (ix > 0x3ff00000) return hy > 0 ? s * HUGE * HUGE : s * TINY * TINY;
    // |1 − x| <= 2^-20: log(x) by x − x²/2 + x³/3 − x⁴/4
    t = ax - 1;
    w = t * t * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
    u = IVLN2_H * t;
    v = t * IVLN2_L - w * IVLN2;
    t1 = clearLow(u + v);
    t2 = v - (t1 - u);
  } else {
    n = 0;
    if (ix < 0x00100000) {
      // subnormal x
      ax *= TWO53;
      n -= 53;
      ix = hi(ax);
    }
    n += (ix >> 20) - 0x3ff;
    j = ix & 0x000fffff;
    ix = j | 0x3ff00000; // normalize ix
    if (j <= 0x3988e) k = 0; // |x| < sqrt(3/2)
    else if (j < 0xbb67a) k = 1; // |x| < sqrt(3)
    else {
      k = 0;
      n += 1;
      ix -= 0x00100000;
    }
    ax = setHigh(ax, ix);
    const bp = k === 0 ? 1.0 : BP1;
    const dpH = k === 0 ? 0.0 : DP_H1;
    const dpL = k === 0 ? 0.0 : DP_L1;

    // ss = s_h + s_l = (x − 1)/(x + 1) or (x − 1.5)/(x + 1.5)
    u = ax - bp;
    v = 1 / (ax + bp);
    const ss = u * v;
    const sH = clearLow(ss);
    // t_h = ax + bp, high part
    let tH = fromWords(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0);
    let tL = ax - (tH - bp);
    const sL = v * (u - sH * tH - sH * tL);
    // log(ax)
    let s2 = ss * ss;
    r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
    r += sL * (sH + ss);
    s2 = sH * sH;
    tH = clearLow(3.0 + s2 + r);
    tL = r - (tH - 3.0 - s2);
    // u + v = ss·(1 + ...)
    u = sH * tH;
    v = sL * tH + tL * ss;
    // 2/(3 log2)·(ss + ...)
    const pH = clearLow(u + v);
    const pL = v - (pH - u);
    const zH = CP_H * pH;
    const zL = CP_L * pH + pL * CP + dpL;
    // log2(ax) = (ss + ...)·2/(3 log2) = n + dp_h + z_h + z_l
    t = n;
    t1 = clearLow(zH + zL + dpH + t);
    t2 = zL - (t1 - t - dpH - zH);
  }

  // split y into y1 + y2 and compute (y1 + y2)·(t1 + t2)
  const y1 = clearLow(y);
  let pL = (y - y1) * t1 + y * t2;
  let pH = y1 * t1;
  z = pL + pH;
  j = hi(z);
  i = lo(z);
  if (j >= 0x40900000) {
    // z >= 1024
    if (((j - 0x40900000) | i) !== 0) return s * HUGE * HUGE; // overflow
    if (pL + OVT > z - pH) return s * HUGE * HUGE; // overflow
  } else if ((j & 0x7fffffff) >= 0x4090cc00) {
    // z <= −1075
    if (((j - 0xc090cc00) | i) !== 0) return s * TINY * TINY; // underflow
    if (pL <= z - pH) return s * TINY * TINY; // underflow
  }

  // 2**(p_h + p_l)
  i = j & 0x7fffffff;
  k = (i >> 20) - 0x3ff;
  n = 0;
  if (i > 0x3fe00000) {
    // |z| > 0.5: n = [z + 0.5]
    n = (j + (0x00100000 >> (k + 1))) | 0;
    k = ((n & 0x7fffffff) >> 20) - 0x3ff; // new k for n
    t = fromWords(n & ~(0x000fffff >> k), 0);
    n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
    if (j < 0) n = -n;
    pH -= t;
  }
  t = clearLow(pL + pH);
  u = t * LG2_H;
  v = (pL - (t - pH)) * LG2_ + t * LG2_L;
  z = u + v;
  w = v - (z - u);
  t = z * z;
  t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  r = (z * t1) / (t1 - 2 - (w + z * w));
  z = 1 - (r - z);
  j = (hi(z) + (n << 20)) | 0;
  if (j >> 20 <= 0) z = scalbn(z, n); // subnormal output
  else z = setHigh(z, (hi(z) + (n << 20)) | 0);
  return s * z;
}

// ---------------------------------------------------------------------------
// hypot, as V8's Math.hypot builtin computes it: NaN unless some argument is
// ±Inf; magnitudes normalized by the largest; Kahan-compensated sum of squares.

/** sqrt(x² + y²) without overflow; bit-identical to node 20's Math.hypot(x, y). */
export function hypot2(x: number, y: number): number {
  const a = Math.abs(x),
    b = Math.abs(y);
  if (a === Infinity || b === Infinity) return Infinity;
  if (a !== a || b !== b) return NaN;
  const max = a > b ? a : b;
  if (max === 0) return 0;
  const na = a / max,
    nb = b / max;
  return Math.sqrt(na * na + nb * nb) * max;
}

/** sqrt(x² + y² + z²) without overflow; bit-identical to node 20's Math.hypot(x, y, z). */
export function hypot3(x: number, y: number, z: number): number {
  const a = Math.abs(x),
    b = Math.abs(y),
    c = Math.abs(z);
  if (a === Infinity || b === Infinity || c === Infinity) return Infinity;
  if (a !== a || b !== b || c !== c) return NaN;
  let max = a > b ? a : b;
  if (c > max) max = c;
  if (max === 0) return 0;
  const na = a / max,
    nb = b / max,
    nc = c / max;
  const pa = na * na,
    pb = nb * nb;
  const sum = pa + pb;
  const comp = sum - pa - pb;
  return Math.sqrt(sum + (nc * nc - comp)) * max;
}

/** sqrt(x² + y² + z² + w²) without overflow; bit-identical to node 20's Math.hypot(x, y, z, w). */
export function hypot4(x: number, y: number, z: number, w: number): number {
  const a = Math.abs(x),
    b = Math.abs(y),
    c = Math.abs(z),
    d = Math.abs(w);
  if (a === Infinity || b === Infinity || c === Infinity || d === Infinity) return Infinity;
  if (a !== a || b !== b || c !== c || d !== d) return NaN;
  let max = a > b ? a : b;
  if (c > max) max = c;
  if (d > max) max = d;
  if (max === 0) return 0;
  const na = a / max,
    nb = b / max,
    nc = c / max,
    nd = d / max;
  const pa = na * na,
    pb = nb * nb;
  let sum = pa + pb;
  let comp = sum - pa - pb;
  const sc = nc * nc - comp;
  const s3 = sum + sc;
  comp = s3 - sum - sc;
  sum = s3;
  return Math.sqrt(sum + (nd * nd - comp)) * max;
}

/**
 * Math.hypot for any number of arguments (rest parameters: not for hot
 * loops; use hypot2/3/4 there).
 */
export function hypot(...values: number[]): number {
  const len = values.length;
  if (len === 0) return 0;
  let max = 0,
    anyNaN = false;
  for (let i = 0; i < len; i++) {
    const a = Math.abs(values[i]);
    if (a !== a) anyNaN = true;
    else if (a > max) max = a;
  }
  if (max === Infinity) return Infinity;
  if (anyNaN) return NaN;
  if (max === 0) return 0;
  let sum = 0,
    comp = 0;
  for (let i = 0; i < len; i++) {
    const a = Math.abs(values[i]);
    const n = a / max;
    const summand = n * n - comp;
    const pre = sum + summand;
    comp = pre - sum - summand;
    sum = pre;
  }
  return Math.sqrt(sum) * max;
}
