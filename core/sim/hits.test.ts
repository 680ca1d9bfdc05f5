import { describe, expect, it } from 'vitest';
import type { ImpulseDocument, Prop } from '../document/types';
import { mulberry32 } from '../document/fixtures';
import { benchScene } from '../bench/sim.bench';
import { disp } from './meshGeometry';
import { STATE_STRIDE } from './rigid';
import { ballPropAt, boxPropAt, linearTranslation, octahedronProp, sceneDoc } from './testkit';
import { SimWorld } from './world';

/**
 * Work the continuous detection's part pairs pass over (eleventh round of
 * core/sim/README.md), checked against the same world doing the work in full:
 * the hit list of every detection pass (kinds, features, times, normals,
 * approach speeds) and the states after every step must be the same bit for bit.
 *
 * - partPair makes each part's side masks against the other part's box once
 *   (they were made twice), and returns at once when every vertex of a part
 *   lies outside one side of the other's box;
 * - vertexTriangles passes over a vertex with a side bit before its swept box,
 *   and gathers the triangles near the other part only when some vertex's swept
 *   box meets that part's box;
 * - edgeEdges makes the edges' swept boxes only when both parts have edges near
 *   the other's box;
 * - the Lipschitz filters read each vertex's move length once per pass (dispOf).
 *
 * The reference world has no side masks at all (every vertex's mask 0: every
 * triangle and edge of a part is near, every vertex goes to its box test) and
 * measures every move length where it is used: the feature pairs left to the
 * exact swept-box tests, the brute force the masks stand in for.
 */

interface Internals {
  sideMasks: (C: { vOff: number }, p: { verts: Uint32Array }, Q: Float64Array) => number;
  dispOf: (g: number) => number;
  findHits: (hs: number) => number;
  vMask: Uint8Array;
  P0: Float64Array;
  P1: Float64Array;
  hitCount: number;
  hitKind: Int32Array;
  hitI: Int32Array;
  hitF: Float64Array;
}

const internals = (w: SimWorld): Internals => w as unknown as Internals;

/** The reference: no masks (every primitive near), every move length measured where read. */
function fullWork(w: SimWorld): SimWorld {
  const R = internals(w);
  R.sideMasks = function (this: Internals, C, p) {
    const M = this.vMask;
    for (let k = 0; k < p.verts.length; k++) M[C.vOff + p.verts[k]] = 0;
    return 0;
  };
  R.dispOf = function (this: Internals, g) {
    return disp(this.P0, this.P1, 3 * g);
  };
  return w;
}

/** Records every detection pass's answer and hit list (numbers in order) of a world. */
function recordHits(w: SimWorld): number[][] {
  const W = internals(w), find = W.findHits, log: number[][] = [];
  W.findHits = function (this: Internals, hs: number): number {
    const t = find.call(this, hs), n = this.hitCount;
    log.push([t, n, ...this.hitKind.subarray(0, n), ...this.hitI.subarray(0, 4 * n), ...this.hitF.subarray(0, 7 * n)]);
    return t;
  };
  return log;
}

interface Compared {
  /** Step after which the states or the hit lists first differ, -1 if never. */
  firstDifference: number;
  /** Detection passes compared. */
  passes: number;
  /** Vertex–triangle and edge–edge hits in the reference's passes. */
  partHits: number;
}

/** Steps both worlds `steps` times, comparing each step's detection passes and the states after it (Object.is per number). */
function compare(a: SimWorld, b: SimWorld, steps: number): Compared {
  const la = recordHits(a), lb = recordHits(b);
  let passes = 0, partHits = 0;
  for (let s = 0; s < steps; s++) {
    la.length = 0;
    lb.length = 0;
    a.step();
    b.step();
    const same = (x: ArrayLike<number>, y: ArrayLike<number>): boolean => x.length === y.length && Array.prototype.every.call(x, (v: number, k: number) => Object.is(v, y[k]));
    if (la.length !== lb.length || !la.every((h, k) => same(h, lb[k])) || !same(a.bodies.state, b.bodies.state)) return { firstDifference: s, passes, partHits };
    passes += lb.length;
    for (const h of lb) for (let k = 0; k < h[1]; k++) if (h[2 + k] !== 2) partHits++;
  }
  return { firstDifference: -1, passes, partHits };
}

/**
 * Seeded random scene: boxes, balls and octahedra thrown at one another and at
 * two keyframed props (a closed box sweeping through, a slab), rotated and spinning.
 */
function thrown(seed: number): { doc: ImpulseDocument; momenta: number[][] } {
  const rand = mulberry32(seed), props: Prop[] = [], momenta: number[][] = [];
  const n = 6 + Math.floor(rand() * 4);
  for (let k = 0; k < n; k++) {
    const p: [number, number, number] = [rand() - 0.5, 0.2 + rand() * 0.8, rand() - 0.5];
    const kind = Math.floor(rand() * 3), s = 0.06 + 0.08 * rand();
    const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5], ql = Math.hypot(...q);
    const rot = q.map((c) => c / ql) as [number, number, number, number];
    props.push(kind === 0 ? boxPropAt(`b${k}`, [s, 0.6 * s, 0.8 * s], p, { restitution: rand() }, rot) : kind === 1 ? ballPropAt(`b${k}`, s, p, {}, 1) : octahedronProp(`b${k}`, s, p));
    // towards the middle at up to 4 m/s, spinning (momenta per kg: mass 1)
    const v = 1 + 3 * rand();
    momenta.push([-p[0] * v, (0.5 - rand()) * v, -p[2] * v, 0.05 * (rand() - 0.5), 0.05 * (rand() - 0.5), 0.05 * (rand() - 0.5)]);
  }
  props.push(boxPropAt('sweep', [0.25, 0.1, 0.1], [-1, 0.4, 0], { mode: 'keyframed' }));
  props.push(boxPropAt('slab', [0.6, 0.04, 0.6], [0, 0.05, 0], { mode: 'keyframed' }));
  const doc = sceneDoc(props, { frames: 30, fps: 30, tracks: [linearTranslation('sweep', 0, [-1, 0.4, 0], 1, [1, 0.45, 0.1]), linearTranslation('slab', 0, [0, 0.05, 0], 1, [0, 0.05, 0])] });
  return { doc, momenta };
}

function thrownWorld(seed: number): SimWorld {
  const { doc, momenta } = thrown(seed);
  const dynamic = doc.props.filter((p) => p.physics.mode === 'dynamic').map((p) => p.id);
  const w = new SimWorld(doc, { dynamic, startTimeSec: 0 });
  dynamic.forEach((_, i) => {
    const s = STATE_STRIDE * i, m = momenta[i], st = w.bodies.state, kg = w.bodies.massKg[i];
    for (let c = 0; c < 6; c++) st[s + 7 + c] = kg * m[c];
  });
  return w;
}

describe('continuous detection: part-pair work passed over (eleventh round)', () => {
  it.each([11, 23, 37, 41, 59])('seed %i: thrown boxes, balls and octahedra give the full detection\'s hits and states, bit for bit', (seed) => {
    const r = compare(thrownWorld(seed), fullWork(thrownWorld(seed)), 150);
    expect(r.firstDifference, `first step whose hits or states differ (seed ${seed})`).toBe(-1);
    expect(r.passes).toBeGreaterThan(150);
    expect(r.partHits, 'vertex–triangle and edge–edge hits compared').toBeGreaterThan(0);
  });

  it('the bench scene (10 props against the 2 keyframed characters): the full detection\'s hits and states, bit for bit', async () => {
    const doc = await benchScene();
    const opts = { dynamic: doc.props.map((p) => p.id), startTimeSec: 0, clipId: doc.clips[0].id, restingSolver: 'si-restitution' as const };
    const r = compare(new SimWorld(doc, opts), fullWork(new SimWorld(doc, opts)), 480);
    expect(r.firstDifference, 'first step whose hits or states differ').toBe(-1);
    expect(r.partHits, 'vertex–triangle and edge–edge hits compared').toBeGreaterThan(10);
  });

  it('the comparison sees a wrong pass-over: masks that claim every part lies outside the other\'s box lose the part hits', () => {
    const seed = 11, wrong = thrownWorld(seed), W = internals(wrong), masks = W.sideMasks;
    W.sideMasks = function (this: Internals, C, p, Q) {
      masks.call(this, C, p, Q);
      return 1;
    };
    expect(compare(wrong, fullWork(thrownWorld(seed)), 150).firstDifference).toBeGreaterThanOrEqual(0);
  });
});
