import { describe, expect, it } from 'vitest';
import { type CcdQuery, ccdCsvFiles, readCcdQueries } from '../node/ccdGroundTruth';
import { FEATURE_EDGE_EDGE, FEATURE_VERTEX_TRIANGLE, earliestPossibleContact, featurePoint, firstContact } from './backtrack';
import { ccdEdgeEdge, ccdVertexTriangle } from './ccd';
import { mulberry32 } from './testutil';

// Ground truth of Wang et al. 2021 (MIT), as in ccd.test.ts.
const DATA = new URL('./testdata/ccd/', import.meta.url).pathname;

type Query = Omit<CcdQuery, 'kind'> & { kind: number };

const all: Query[] = ccdCsvFiles(DATA).flatMap((file) => readCcdQueries(file, DATA)).map((q) => ({ ...q, kind: q.kind === 'vertex-triangle' ? FEATURE_VERTEX_TRIANGLE : FEATURE_EDGE_EDGE }));
const ccd = (kind: number, c: ArrayLike<number>, o = 0) => (kind === FEATURE_VERTEX_TRIANGLE ? ccdVertexTriangle(c, o) : ccdEdgeEdge(c, o));

/** How much earlier than the true first contact the reported time may be (fraction of the step): the CCD reports a contact within its distance tolerance. */
const TIME_TOL = 1e-6;

describe('micro-backtracking (Zachwieja 3.5) against the CCD ground truth', () => {
  it('no ground-truth contact lies before a feature\'s earliest possible contact: the CCD over the rest of the step still finds every one', () => {
    let cut = 0, contacts = 0;
    for (const q of all) {
      if (!q.truth) continue;
      contacts++;
      const lb = earliestPossibleContact(q.coords, 0, q.kind);
      expect(lb, `${q.file} #${q.index}: contact within the step`).toBeLessThanOrEqual(1);
      if (lb === 0) continue;
      cut++;
      // the step from lb to 1 (positions at lb and at 1) as a new step
      const rest = new Float64Array(24);
      for (let i = 0; i < 12; i++) { rest[i] = q.coords[i] + lb * (q.coords[12 + i] - q.coords[i]); rest[12 + i] = q.coords[12 + i]; }
      expect(ccd(q.kind, rest), `${q.file} #${q.index}: contact after lb = ${lb}`).not.toBeNull();
    }
    console.log(`earliest possible contact: ${contacts} ground-truth contacts, ${cut} with a positive bound, all found after it`);
    expect(cut, 'queries with a positive bound were checked').toBeGreaterThan(20);
  });

  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: on feature lists drawn from the data set, a contact is found whenever the ground truth has one, and no feature that can touch earlier has a CCD contact earlier`, () => {
      const r = mulberry32(seed);
      let withContact = 0, features = 0, searches = 0;
      const out = new Float64Array(4);
      for (let l = 0; l < 60; l++) {
        // 4–16 features of both kinds: a part pair's involved features
        const n = 4 + Math.floor(r() * 13);
        const pick: Query[] = [];
        for (let i = 0; i < n; i++) pick.push(all[Math.floor(r() * all.length)]);
        const coords = new Float64Array(n * 24), kinds = new Uint8Array(n);
        pick.forEach((q, i) => { coords.set(q.coords, i * 24); kinds[i] = q.kind; });
        searches += firstContact(coords, kinds, n, out);
        features += n;
        const names = pick.map((q) => `${q.file}#${q.index}`).join(', ');
        if (pick.some((q) => q.truth)) expect(out[0], `a contact exists among ${names}`).not.toBe(Infinity);
        // No feature that can touch before the reported time has a CCD contact
        // before it (features whose earliest possible contact is later are
        // rightly not searched), and the reported feature's own CCD agrees.
        pick.forEach((q, i) => {
          const t = ccd(q.kind, q.coords), lb = earliestPossibleContact(coords, i, kinds[i]);
          if (t !== null && t < out[0]) expect(lb, `${q.file}#${q.index}: CCD contact at ${t} before the reported ${out[0]}, so it cannot be ruled out by its bound`).toBeGreaterThanOrEqual(out[0]);
        });
        if (out[0] === Infinity) continue;
        withContact++;
        expect(ccd(kinds[out[3]], coords, out[3] * 24), 'the reported feature\'s own CCD').toBe(out[0]);
      }
      console.log(`micro-backtracking seed ${seed}: 60 lists, ${withContact} with contact, ${features} features, ${searches} searches`);
      expect(withContact, 'lists with contact were checked').toBeGreaterThan(20);
    });
  }

  for (const seed of [5, 6, 7]) {
    it(`seed ${seed}: features with a known first contact: the reported time is never later than it (by more than ${TIME_TOL_LATE} of the step), within ${TIME_TOL} before it, and the point lies on both features`, () => {
      const r = mulberry32(seed);
      const out = new Float64Array(4), pt = new Float64Array(3);
      let features = 0, searches = 0;
      for (let l = 0; l < 40; l++) {
        const n = 3 + Math.floor(r() * 10);
        const coords = new Float64Array(n * 24), kinds = new Uint8Array(n), toi: number[] = [];
        for (let f = 0; f < n; f++) {
          const kind = r() < 0.5 ? FEATURE_VERTEX_TRIANGLE : FEATURE_EDGE_EDGE;
          kinds[f] = kind;
          // a third of the features move apart (no contact), the others meet at a known time
          toi.push(knownContact(r, kind, r() < 0.33 ? Infinity : 0.05 + 0.9 * r(), coords, f * 24));
        }
        searches += firstContact(coords, kinds, n, out);
        features += n;
        const first = Math.min(...toi);
        if (first === Infinity) { expect(out[0], 'no feature meets: no contact').toBe(Infinity); continue; }
        expect(out[0], `list ${l}: reported ${out[0]} not later than the first contact ${first}`).toBeLessThanOrEqual(first + TIME_TOL_LATE);
        expect(out[0], `list ${l}: reported ${out[0]} within ${TIME_TOL} before the first contact ${first}`).toBeGreaterThanOrEqual(first - TIME_TOL);
        const f = out[3];
        featurePoint(coords, f, kinds[f], out[0], out[1], out[2], pt);
        expect(gapAt(coords, f, kinds[f], out[0], pt), `list ${l}: contact point on both features`).toBeLessThan(1e-6);
      }
      console.log(`micro-backtracking seed ${seed}: 40 lists, ${features} features, ${searches} searches`);
      expect(searches, 'features that cannot precede the first contact are not searched').toBeLessThan(features);
    });
  }
});

/** Tolerances of the first-contact time (fractions of the step): never later by more than TIME_TOL_LATE, never earlier by more than TIME_TOL. */
const TIME_TOL_LATE = 1e-9;

/**
 * Writes a feature (24 numbers at o) whose parts first touch at time `toi`
 * (Infinity: they move apart and never touch): a vertex over an interior point
 * of a triangle, or an edge over a crossing point of another edge, at height
 * h along the common normal, closing at h / toi per step; the whole feature
 * also drifts by a common random motion. Returns toi.
 */
function knownContact(r: () => number, kind: number, toi: number, c: Float64Array, o: number): number {
  const rv = () => [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
  const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const unit = (a: number[]) => { const l = Math.hypot(a[0], a[1], a[2]); return [a[0] / l, a[1] / l, a[2] / l]; };
  const h = 0.1 + 0.5 * r(), drift = rv();
  const closing = toi === Infinity ? -h : h / toi; // per step, toward contact (negative: apart)
  const put = (i: number, p: number[], moving: boolean) => {
    for (let k = 0; k < 3; k++) {
      c[o + i * 3 + k] = p[k];
      c[o + 12 + i * 3 + k] = p[k] + drift[k] + (moving ? -closing * normal[k] : 0);
    }
  };
  let normal: number[];
  if (kind === FEATURE_VERTEX_TRIANGLE) {
    const a = rv(), b = rv(), cc = rv();
    normal = unit(cross([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]]));
    let wa = 0.1 + r(), wb = 0.1 + r(), wc = 0.1 + r();
    const s = wa + wb + wc; wa /= s; wb /= s; wc /= s;
    const q = [0, 1, 2].map((k) => wa * a[k] + wb * b[k] + wc * cc[k]);
    put(0, [q[0] + h * normal[0], q[1] + h * normal[1], q[2] + h * normal[2]], true);
    put(1, a, false); put(2, b, false); put(3, cc, false);
  } else {
    const q = rv(), da = unit(rv()), db = unit(rv());
    normal = unit(cross(da, db));
    const sa = 0.2 + 0.6 * r(), sb = 0.2 + 0.6 * r(), la = 0.3 + r(), lb = 0.3 + r();
    const lift = [h * normal[0], h * normal[1], h * normal[2]];
    put(0, [0, 1, 2].map((k) => q[k] - sa * la * da[k] + lift[k]), true);
    put(1, [0, 1, 2].map((k) => q[k] + (1 - sa) * la * da[k] + lift[k]), true);
    put(2, [0, 1, 2].map((k) => q[k] - sb * lb * db[k]), false);
    put(3, [0, 1, 2].map((k) => q[k] + (1 - sb) * lb * db[k]), false);
  }
  return toi;
}

/** Distance at time t from the contact point `pt` (on the triangle, or on the first edge) to the feature's other part. */
function gapAt(c: Float64Array, f: number, kind: number, t: number, pt: Float64Array): number {
  const at = (i: number, k: number) => c[f * 24 + i * 3 + k] + t * (c[f * 24 + 12 + i * 3 + k] - c[f * 24 + i * 3 + k]);
  if (kind === FEATURE_VERTEX_TRIANGLE) return Math.hypot(at(0, 0) - pt[0], at(0, 1) - pt[1], at(0, 2) - pt[2]);
  const b0 = [at(2, 0), at(2, 1), at(2, 2)], b1 = [at(3, 0), at(3, 1), at(3, 2)];
  const d = [b1[0] - b0[0], b1[1] - b0[1], b1[2] - b0[2]], dd = d[0] ** 2 + d[1] ** 2 + d[2] ** 2;
  const w = Math.min(1, Math.max(0, ((pt[0] - b0[0]) * d[0] + (pt[1] - b0[1]) * d[1] + (pt[2] - b0[2]) * d[2]) / dd));
  return Math.hypot(pt[0] - b0[0] - w * d[0], pt[1] - b0[1] - w * d[1], pt[2] - b0[2] - w * d[2]);
}
