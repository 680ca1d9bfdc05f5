/**
 * Continuous collision detection for linearly moving points (vertex–triangle
 * and edge–edge), conservative: a contact is never missed.
 *
 * Method (inclusion-based root finding, after Wang et al. 2021): both queries
 * are a root of a function that is linear in each of its three unknowns,
 *
 *   F(t, u, v) = X(t) + u·U(t) + v·V(t) = 0,   X, U, V linear in t,
 *
 *   vertex–triangle: X = p − a, U = a − b, V = a − c, u, v ≥ 0, u + v ≤ 1
 *                    (the point p(t) equals a + u(b − a) + v(c − a))
 *   edge–edge:       X = a0 − b0, U = a1 − a0, V = b0 − b1, u, v in [0, 1]
 *                    (a0 + u(a1 − a0) equals b0 + v(b1 − b0))
 *
 * A multilinear function takes its extremes over a box at the box's corners, so
 * the 8 corner values bound F over a box of (t, u, v) exactly; padding the bound
 * with a rigorous floating-point error bound makes it conservative. Boxes whose
 * bound excludes 0 are dropped; the others are bisected (along the axis that
 * moves F the most), earliest time first, until the image of a box is smaller
 * than `tolerance` (then it counts as a contact at the box's start time) or the
 * work budget runs out (then the earliest remaining box counts as a contact: a
 * false positive is allowed, a false negative is not).
 */

/** Scratch for one query (no allocation per query). */
const STACK_BOXES = 4096;
const _stack = new Float64Array(STACK_BOXES * 6);
const _X = new Float64Array(6);
const _U = new Float64Array(6);
const _V = new Float64Array(6);
const _dX = new Float64Array(3);
const _dU = new Float64Array(3);
const _dV = new Float64Array(3);
const _res = new Float64Array(4);
const _err = new Float64Array(3);

const EPS = 2 ** -52;

export interface CcdOptions {
  /** Image-box size (scene units) below which a box is a contact. Default 1e-9 × coordinate scale. */
  tolerance?: number;
  /** Maximum boxes examined before answering conservatively. Default 100 000. */
  maxBoxes?: number;
}

/** Result detail of a CCD query: time of impact and the two feature parameters. */
export interface CcdHit {
  /** Time of first contact in [0, 1]. */
  t: number;
  /** Vertex–triangle: barycentric weight of b; edge–edge: parameter along edge a. */
  u: number;
  /** Vertex–triangle: barycentric weight of c; edge–edge: parameter along edge b. */
  v: number;
  /** Contact point at time t (on the triangle, or on edge a). */
  point: [number, number, number];
}

const _uvw = new Float64Array(18);

function det3(u: Float64Array, a: number, b: number, c: number): number {
  return u[a] * (u[b + 1] * u[c + 2] - u[b + 2] * u[c + 1]) - u[a + 1] * (u[b] * u[c + 2] - u[b + 2] * u[c]) + u[a + 2] * (u[b] * u[c + 1] - u[b + 1] * u[c]);
}

/**
 * Necessary condition for contact: the four points must be coplanar at the
 * contact time. Their coplanarity determinant is a cubic in t whose Bernstein
 * coefficients bound it on [0, 1]; when all four have one strict sign (beyond
 * a rounding bound), the points are never coplanar and there is no contact.
 */
/**
 * Bernstein coefficients (into `_bern`) of the coplanarity cubic of the four
 * points of `coords` at `off` moving linearly from their first 12 numbers to
 * the next 12, by blossoming the determinant of the edge vectors at t = 0 and
 * t = 1; returns the largest |component| of those edge vectors.
 */
function coplanarityBernstein(coords: ArrayLike<number>, off: number, triangleDomain: boolean): number {
  const U = _uvw;
  // u, v, w at t = 0 (0..8) and t = 1 (9..17), relative to the base point
  for (let s = 0; s < 2; s++) {
    const o = off + s * 12, w = s * 9;
    const base = triangleDomain ? o + 3 : o;
    const i1 = triangleDomain ? o + 6 : o + 3, i2 = triangleDomain ? o + 9 : o + 6, i3 = triangleDomain ? o : o + 9;
    for (let k = 0; k < 3; k++) {
      const b = coords[base + k];
      U[w + k] = coords[i1 + k] - b;
      U[w + 3 + k] = coords[i2 + k] - b;
      U[w + 6 + k] = coords[i3 + k] - b;
    }
  }
  const d000 = det3(U, 0, 3, 6), d111 = det3(U, 9, 12, 15);
  const d100 = det3(U, 9, 3, 6), d010 = det3(U, 0, 12, 6), d001 = det3(U, 0, 3, 15);
  const d011 = det3(U, 0, 12, 15), d101 = det3(U, 9, 3, 15), d110 = det3(U, 9, 12, 6);
  const B = _bern;
  B[0] = d000; B[1] = (d100 + d010 + d001) / 3; B[2] = (d011 + d101 + d110) / 3; B[3] = d111;
  let m = 0;
  for (let i = 0; i < 18; i++) { const a = Math.abs(U[i]); if (a > m) m = a; }
  return m;
}
const _bern = new Float64Array(4);

function neverCoplanar(coords: ArrayLike<number>, off: number, triangleDomain: boolean): boolean {
  const m = coplanarityBernstein(coords, off, triangleDomain);
  const c0 = _bern[0], c1 = _bern[1], c2 = _bern[2], c3 = _bern[3];
  // each determinant: 6 products of 3 terms (each a rounded difference) and 5
  // sums: error below 16·ε·6·m³; the averages add a little more.
  const err = 128 * EPS * m * m * m;
  if (c0 > err && c1 > err && c2 > err && c3 > err) return true;
  if (c0 < -err && c1 < -err && c2 < -err && c3 < -err) return true;
  return false;
}

const _win = new Float64Array(24);

/**
 * True when no search of this query confined to the time window
 * [tFrom, tTo] (`ccdQueryFlat` with the default tolerance, tFrom, and tLimit
 * or tTo at or above tTo) can report a contact, short of running out of work:
 * the coplanarity determinant D(t) of the four points keeps one sign on the
 * window, beyond the most it can be at a time the search reports.
 *
 * A box is reported at its start (t, u, v) only when each component of
 * F = X + u·U + v·V is within δ + 2·err there (δ = 1e-9 × the largest
 * coordinate, err the rounding bound of solve), and D = ±det(U, V, X) =
 * ±det(U, V, F), so |D(t)| ≤ |U|·|V|·|F| at that time. D restricted to the
 * window is the coplanarity cubic of the points moving from their positions
 * at tFrom to those at tTo (each column stays linear in t), so its Bernstein
 * coefficients on the window come from the same blossom as `neverCoplanar`;
 * the threshold adds that bound and the rounding of the interpolated points
 * and of the determinants. On the whole step the search's own cull
 * (`neverCoplanar`, exact coplanarity) is the stronger one; on a short window
 * (backtrack.ts) this one removes most searches that would find nothing.
 */
export function ccdNoContactWithin(vertexTriangle: boolean, coords: ArrayLike<number>, off: number, tFrom: number, tTo: number): boolean {
  let M = 0;
  for (let i = 0; i < 24; i++) { const a = Math.abs(coords[off + i]); if (a > M) M = a; }
  const P = _win;
  for (let i = 0; i < 12; i++) {
    const a = coords[off + i], d = coords[off + 12 + i] - a;
    P[i] = a + tFrom * d;
    P[12 + i] = a + tTo * d;
  }
  const m = coplanarityBernstein(P, 0, vertexTriangle);
  const c0 = _bern[0], c1 = _bern[1], c2 = _bern[2], c3 = _bern[3];
  // |U|, |V| ≤ 2√3·m (components: differences of these points), |F| ≤ √3·(δ + 192·ε·M)
  // (err ≤ 16·ε·6M per component): |D| ≤ 12·√3·m²·(δ + 192·ε·M) < 24·m²·(…);
  // rounding: the determinants of these differences (as in neverCoplanar) and
  // the interpolated points (≤ 3·ε·M each, ≤ 6·ε·M per difference, 9 entries
  // with cofactors ≤ 2·m²: 108·ε·m²·M)
  const reach = 1e-9 * M * (1 + 1e-6) + 256 * EPS * M + Number.MIN_VALUE;
  const thr = 24 * m * m * reach + 128 * EPS * m * m * m + 256 * EPS * m * m * M;
  if (c0 > thr && c1 > thr && c2 > thr && c3 > thr) return true;
  if (c0 < -thr && c1 < -thr && c2 < -thr && c3 < -thr) return true;
  return false;
}

function solve(coords: ArrayLike<number>, off: number, triangleDomain: boolean, tol: number, maxBoxes: number, tLimit = Infinity, tFrom = 0, tTo = 1): boolean {
  if (neverCoplanar(coords, off, triangleDomain)) return false;
  let m = 0;
  for (let i = 0; i < 24; i++) {
    const a = Math.abs(coords[off + i]);
    if (a > m) m = a;
  }
  const X = _X, U = _U, V = _V;
  for (let s = 0; s < 2; s++) {
    const o = off + s * 12;
    for (let k = 0; k < 3; k++) {
      const q0 = coords[o + k], q1 = coords[o + 3 + k], q2 = coords[o + 6 + k], q3 = coords[o + 9 + k];
      if (triangleDomain) {
        X[s * 3 + k] = q0 - q1;
        U[s * 3 + k] = q1 - q2;
        V[s * 3 + k] = q1 - q3;
      } else {
        X[s * 3 + k] = q0 - q2;
        U[s * 3 + k] = q1 - q0;
        V[s * 3 + k] = q2 - q3;
      }
    }
  }
  // Rounding bound per component: X, U, V are differences of two inputs (one
  // rounding, relative to the difference itself), and a corner value is
  // X(t) + u·U(t) + v·V(t) with u, v, t in [0, 1]: fewer than 10 further
  // roundings of terms bounded by S = max|X| + max|U| + max|V|. 16·ε·S bounds
  // all of it (γ_n·S with n ≤ 12, unit roundoff ε/2), so a padded interval
  // that excludes 0 proves there is no root in the box.
  const err = _err;
  let errMax = 0;
  for (let k = 0; k < 3; k++) {
    const S = Math.max(Math.abs(X[k]), Math.abs(X[3 + k])) + Math.max(Math.abs(U[k]), Math.abs(U[3 + k])) + Math.max(Math.abs(V[k]), Math.abs(V[3 + k]));
    err[k] = 16 * EPS * S + Number.MIN_VALUE;
    if (err[k] > errMax) errMax = err[k];
  }
  const delta = tol > 0 ? tol : Math.max(1e-9 * m, errMax);
  // X, U, V at t: X(0) + t·(X(1) − X(0)), the differences once per query
  const dX = _dX, dU = _dU, dV = _dV;
  for (let k = 0; k < 3; k++) { dX[k] = X[3 + k] - X[k]; dU[k] = U[3 + k] - U[k]; dV[k] = V[3 + k] - V[k]; }
  const st = _stack;
  let sp = 0;
  st[0] = 0; st[1] = 1; st[2] = 0; st[3] = 1; st[4] = 0; st[5] = 1;
  sp = 1;
  // Boxes starting at or after tLimit are never explored (a caller's earlier contact).
  let best = tLimit, bestU = 0, bestV = 0;
  let boxes = 0;
  while (sp > 0) {
    sp--;
    const b = sp * 6;
    const t0 = st[b], t1 = st[b + 1], u0 = st[b + 2], u1 = st[b + 3], v0 = st[b + 4], v1 = st[b + 5];
    if (t0 >= best) continue;
    // a reported box has the two points within the reach at its start time,
    // so none lies in a box that ends before the window or starts after it
    if (t1 < tFrom || t0 > tTo) continue;
    if (triangleDomain && u0 + v0 > 1) continue;
    if (++boxes > maxBoxes) {
      // Out of budget: the earliest box still open is a (conservative) contact.
      if (t0 < best) { best = t0; bestU = u0; bestV = v0; }
      for (let i = 0; i < sp; i++) {
        const tt = st[i * 6];
        if (tt < best) { best = tt; bestU = st[i * 6 + 2]; bestV = st[i * 6 + 4]; }
      }
      break;
    }
    // Corner values f_i, index bits (t, u, v) = (i & 1, i & 2, i & 4):
    // f_i = (x + u·U) + v·V at the corner, per component; the widths of F
    // along t, u and v (largest change between corners that differ in one
    // bit) choose the split axis.
    let excluded = false;
    let wMax = 0, dt = 0, du = 0, dv = 0;
    for (let k = 0; k < 3; k++) {
      const xa = X[k] + t0 * dX[k], xb = X[k] + t1 * dX[k];
      const ua = U[k] + t0 * dU[k], ub = U[k] + t1 * dU[k];
      const va = V[k] + t0 * dV[k], vb = V[k] + t1 * dV[k];
      const a0 = xa + u0 * ua, a1 = xa + u1 * ua, b0 = xb + u0 * ub, b1 = xb + u1 * ub;
      const pa0 = v0 * va, pa1 = v1 * va, pb0 = v0 * vb, pb1 = v1 * vb;
      const f0 = a0 + pa0, f1 = b0 + pb0, f2 = a1 + pa0, f3 = b1 + pb0;
      const f4 = a0 + pa1, f5 = b0 + pb1, f6 = a1 + pa1, f7 = b1 + pb1;
      let lo = Infinity, hi = -Infinity;
      if (f0 < lo) lo = f0; if (f0 > hi) hi = f0;
      if (f1 < lo) lo = f1; if (f1 > hi) hi = f1;
      if (f2 < lo) lo = f2; if (f2 > hi) hi = f2;
      if (f3 < lo) lo = f3; if (f3 > hi) hi = f3;
      if (f4 < lo) lo = f4; if (f4 > hi) hi = f4;
      if (f5 < lo) lo = f5; if (f5 > hi) hi = f5;
      if (f6 < lo) lo = f6; if (f6 > hi) hi = f6;
      if (f7 < lo) lo = f7; if (f7 > hi) hi = f7;
      if (lo - err[k] > 0 || hi + err[k] < 0) { excluded = true; break; }
      if (hi - lo > wMax) wMax = hi - lo;
      let d = Math.abs(f1 - f0); if (d > dt) dt = d;
      d = Math.abs(f3 - f2); if (d > dt) dt = d;
      d = Math.abs(f5 - f4); if (d > dt) dt = d;
      d = Math.abs(f7 - f6); if (d > dt) dt = d;
      d = Math.abs(f2 - f0); if (d > du) du = d;
      d = Math.abs(f3 - f1); if (d > du) du = d;
      d = Math.abs(f6 - f4); if (d > du) du = d;
      d = Math.abs(f7 - f5); if (d > du) du = d;
      d = Math.abs(f4 - f0); if (d > dv) dv = d;
      d = Math.abs(f5 - f1); if (d > dv) dv = d;
      d = Math.abs(f6 - f2); if (d > dv) dv = d;
      d = Math.abs(f7 - f3); if (d > dv) dv = d;
    }
    if (excluded) continue;
    if (wMax <= delta) {
      best = t0; bestU = u0; bestV = v0;
      continue;
    }
    if (sp + 2 > STACK_BOXES) {
      // Stack exhausted (cannot happen with bisection depth < 4096): be conservative.
      if (t0 < best) { best = t0; bestU = u0; bestV = v0; }
      continue;
    }
    let w = sp * 6;
    if (dt >= du && dt >= dv && t1 - t0 > 0) {
      const tm = 0.5 * (t0 + t1);
      // Later half pushed first so the earlier half is explored first.
      st[w] = tm; st[w + 1] = t1; st[w + 2] = u0; st[w + 3] = u1; st[w + 4] = v0; st[w + 5] = v1;
      w += 6;
      st[w] = t0; st[w + 1] = tm; st[w + 2] = u0; st[w + 3] = u1; st[w + 4] = v0; st[w + 5] = v1;
    } else if (du >= dv && u1 - u0 > 0) {
      const um = 0.5 * (u0 + u1);
      st[w] = t0; st[w + 1] = t1; st[w + 2] = um; st[w + 3] = u1; st[w + 4] = v0; st[w + 5] = v1;
      w += 6;
      st[w] = t0; st[w + 1] = t1; st[w + 2] = u0; st[w + 3] = um; st[w + 4] = v0; st[w + 5] = v1;
    } else if (v1 - v0 > 0) {
      const vm = 0.5 * (v0 + v1);
      st[w] = t0; st[w + 1] = t1; st[w + 2] = u0; st[w + 3] = u1; st[w + 4] = vm; st[w + 5] = v1;
      w += 6;
      st[w] = t0; st[w + 1] = t1; st[w + 2] = u0; st[w + 3] = u1; st[w + 4] = v0; st[w + 5] = vm;
    } else {
      // Box cannot be split further: conservative contact.
      best = t0; bestU = u0; bestV = v0;
      continue;
    }
    sp += 2;
  }
  if (best === tLimit) return false;
  _res[0] = best; _res[1] = bestU; _res[2] = bestV;
  return true;
}

function resolveTol(opts?: CcdOptions): [number, number] {
  return [opts?.tolerance ?? 0, opts?.maxBoxes ?? 100_000];
}

/**
 * Earliest time in [0, 1] at which a moving point touches a moving triangle, or
 * null. `coords`: p, a, b, c at t = 0, then p, a, b, c at t = 1 (24 numbers).
 */
export function ccdVertexTriangle(coords: ArrayLike<number>, offset = 0, opts?: CcdOptions): number | null {
  const [tol, maxBoxes] = resolveTol(opts);
  return solve(coords, offset, true, tol, maxBoxes) ? _res[0] : null;
}

/**
 * Earliest time in [0, 1] at which two moving segments touch, or null.
 * `coords`: a0, a1, b0, b1 at t = 0, then a0, a1, b0, b1 at t = 1 (24 numbers).
 */
export function ccdEdgeEdge(coords: ArrayLike<number>, offset = 0, opts?: CcdOptions): number | null {
  const [tol, maxBoxes] = resolveTol(opts);
  return solve(coords, offset, false, tol, maxBoxes) ? _res[0] : null;
}

function lerpPoint(coords: ArrayLike<number>, off: number, i: number, t: number, k: number): number {
  const a = coords[off + i * 3 + k];
  return a + t * (coords[off + 12 + i * 3 + k] - a);
}

/** Vertex–triangle CCD with the contact parameters and point (on the triangle). */
export function ccdVertexTriangleHit(coords: ArrayLike<number>, offset = 0, opts?: CcdOptions): CcdHit | null {
  const [tol, maxBoxes] = resolveTol(opts);
  if (!solve(coords, offset, true, tol, maxBoxes)) return null;
  const t = _res[0], u = _res[1], v = _res[2];
  const point: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const a = lerpPoint(coords, offset, 1, t, k), b = lerpPoint(coords, offset, 2, t, k), c = lerpPoint(coords, offset, 3, t, k);
    point[k] = a + u * (b - a) + v * (c - a);
  }
  return { t, u, v, point };
}

/** Edge–edge CCD with the contact parameters and point (on edge a). */
export function ccdEdgeEdgeHit(coords: ArrayLike<number>, offset = 0, opts?: CcdOptions): CcdHit | null {
  const [tol, maxBoxes] = resolveTol(opts);
  if (!solve(coords, offset, false, tol, maxBoxes)) return null;
  const t = _res[0], u = _res[1], v = _res[2];
  const point: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const a0 = lerpPoint(coords, offset, 0, t, k), a1 = lerpPoint(coords, offset, 1, t, k);
    point[k] = a0 + u * (a1 - a0);
  }
  return { t, u, v, point };
}

/**
 * Flat form for hot loops: writes t, u, v into out[oo..oo+2] and returns true
 * on contact. `vertexTriangle` selects the query kind. With `tLimit`, only a
 * contact earlier than tLimit is looked for (the search never explores time
 * boxes from tLimit on). With `tFrom`/`tTo`, a window of times outside which
 * the two features are known to stay farther apart than the CCD's reach (e.g.
 * `backtrack.ts` bounds): time boxes wholly outside it are not explored.
 * Neither changes the answer (the same bisection of [0, 1]), only the work,
 * except where the work budget would have run out.
 */
export function ccdQueryFlat(
  vertexTriangle: boolean, coords: ArrayLike<number>, offset: number, out: Float64Array, oo: number,
  tolerance = 0, maxBoxes = 100_000, tLimit = Infinity, tFrom = 0, tTo = 1,
): boolean {
  if (!solve(coords, offset, vertexTriangle, tolerance, maxBoxes, tLimit, tFrom, tTo)) return false;
  out[oo] = _res[0]; out[oo + 1] = _res[1]; out[oo + 2] = _res[2];
  return true;
}
