import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../document/fixtures';
import { SimWorld } from './world';
import { STATE_STRIDE } from './rigid';
import { ballPropAt, boxPropAt, sceneDoc } from './testkit';

/** The collider fields lowestY reads (SimWorld's private Collider). */
interface Chunked {
  body: number;
  lbox: Float64Array;
  local: Float64Array;
  chunkStart: Int32Array;
  chunkVerts: Uint32Array;
  chunkSphere: Float64Array;
}

/**
 * lowestY as it was before its speed-ups (row prefilter, chunk boxes, the
 * per-orientation answer): the plain chunk scan, for comparing number for
 * number. Returns the height and the vertex it leaves in lowVertex
 * (`prev` when it sets none).
 */
function lowestYReference(C: Chunked, st: Float64Array, groundY: number, limit: number, prev: number): { y: number; vertex: number } {
  const s = STATE_STRIDE * C.body;
  // orientedBoxInto's bottom of the local box turned by the pose
  const x = st[s + 3], yq = st[s + 4], z = st[s + 5], w = st[s + 6], lb = C.lbox;
  const r10 = 2 * (x * yq + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (yq * z - x * w);
  const cx = 0.5 * (lb[0] + lb[3]), cy = 0.5 * (lb[1] + lb[4]), cz = 0.5 * (lb[2] + lb[5]);
  const ex = 0.5 * (lb[3] - lb[0]), ey = 0.5 * (lb[4] - lb[1]), ez = 0.5 * (lb[5] - lb[2]);
  const pad = 1e-9 * (ex + ey + ez) + 1e-12;
  const m1 = st[s + 1] + r10 * cx + r11 * cy + r12 * cz, e1 = Math.abs(r10) * ex + Math.abs(r11) * ey + Math.abs(r12) * ez + pad;
  const bottom = m1 - e1;
  if (bottom > groundY || bottom >= limit) return { y: bottom, vertex: prev };
  const qx = x, qy = yq, qz = z, qw = w;
  const L = C.local, CV = C.chunkVerts, CS = C.chunkStart, S = C.chunkSphere;
  const nc = CS.length - 1;
  const low = new Float64Array(nc);
  let first = 0;
  for (let k = 0; k < nc; k++) {
    const o = 4 * k;
    low[k] = st[s + 1] + r10 * S[o] + r11 * S[o + 1] + r12 * S[o + 2] - S[o + 3];
    if (low[k] < low[first]) first = k;
  }
  let minY = Infinity, vertex = prev;
  const cut = limit - st[s + 1];
  for (let kk = -1; kk < nc; kk++) {
    const k = kk < 0 ? first : kk;
    if (kk === first || !(low[k] < st[s + 1] + (minY < cut ? minY : cut))) continue;
    for (let i = CS[k]; i < CS[k + 1]; i++) {
      const v = CV[i];
      const vx = L[3 * v], vy = L[3 * v + 1], vz = L[3 * v + 2];
      const tx = 2 * (qy * vz - qz * vy), tz = 2 * (qx * vy - qy * vx);
      const y = vy + qw * (2 * (qz * vx - qx * vz)) + qz * tx - qx * tz;
      if (y < minY) {
        minY = y;
        vertex = v;
      }
    }
  }
  const y = st[s + 1] + minY;
  return { y: y < limit ? y : Math.max(limit, y), vertex };
}

describe('lowestY', () => {
  it('seed 41: the same height and lowest vertex as the plain chunk scan, number for number, over random poses (orientations kept while translated, axis-aligned ones with tied vertices) and limits', () => {
    const rand = mulberry32(41);
    const doc = sceneDoc(
      [
        ballPropAt('ball', 0.1, [0, 1, 0], { massKg: 1 }, 3),
        boxPropAt('box', [0.2, 0.05, 0.1], [1, 1, 0], { massKg: 1 }),
        ballPropAt('pebble', 0.03, [2, 1, 0], { massKg: 0.1 }, 1),
      ],
      { groundY: 0 },
    );
    const w = new SimWorld(doc, { dynamic: ['ball', 'box', 'pebble'], startTimeSec: 0 });
    const W = w as unknown as { colliders: Chunked[]; lowestY(st: Float64Array, c: number, limit?: number): number; lowVertex: number };
    const st = w.bodies.state;
    const q = new Float64Array(4);
    let compared = 0, below = 0, kept = 0;
    for (let trial = 0; trial < 6000; trial++) {
      const i = Math.floor(rand() * 3);
      const s = STATE_STRIDE * i;
      const r = rand();
      if (r < 0.15) {
        // axis-aligned: quarter turns about one axis (several vertices of the box at the same height)
        const ax = Math.floor(rand() * 3), turns = Math.floor(rand() * 4);
        q.fill(0);
        q[ax] = Math.sin((turns * Math.PI) / 4);
        q[3] = Math.cos((turns * Math.PI) / 4);
        st.set(q, s + 3);
      } else if (r < 0.7) {
        // a new random orientation
        let n2 = 0;
        for (let c = 0; c < 4; c++) n2 += (q[c] = rand() - 0.5) ** 2;
        for (let c = 0; c < 4; c++) st[s + 3 + c] = q[c] / Math.sqrt(n2);
      } else kept++; // the orientation kept: only translated
      st[s] = rand() - 0.5;
      st[s + 1] = 0.35 * rand() - 0.1;
      st[s + 2] = rand() - 0.5;
      const lr = rand();
      const limit = lr < 0.3 ? 0.05 : lr < 0.5 ? -1e-5 : lr < 0.6 ? -1e-5 - 0.02 * rand() : lr < 0.7 ? Infinity : 0.2 * rand() - 0.05;
      W.lowVertex = -7;
      const y = W.lowestY(st, i, limit);
      const ref = lowestYReference(W.colliders[i], st, 0, limit, -7);
      expect(Object.is(y, ref.y), `trial ${trial}, body ${i}, limit ${limit}: height ${y} against the plain scan's ${ref.y}`).toBe(true);
      expect(W.lowVertex, `trial ${trial}, body ${i}, limit ${limit}: lowest vertex`).toBe(ref.vertex);
      compared++;
      if (ref.y < limit) below++;
    }
    expect(compared).toBe(6000);
    expect(below, 'answers below their limit (exact lowest vertex)').toBeGreaterThan(1000);
    expect(kept, 'calls with the orientation kept').toBeGreaterThan(1000);
  });
});
