/**
 * The worker's check jobs against core and brute force: per-frame results of
 * partial rechecks equal those of a full pass, findings agree with core's
 * whole-clip `checkClip`, and the overlay's crossing triangles are exactly
 * the triangle pairs that intersect (all pairs tested, seeded positions).
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../core/document/fixtures';
import { CollisionScene, checkClip, triTriOverlap } from '../../../core/collision';
import type { ImpulseDocument } from '../../../core/document/types';
import { ballPropAt, boxPropAt, linearTranslation, sceneDoc } from '../../../core/sim/testkit';
import { buildFindings } from '../check/findings';
import { Cancelled, type JobContext } from './host';
import type { CheckFrameResult } from './protocol';
import { crossingTriangles, runCheckClip, runCheckFrame, sameGeometry } from './checkJob';

function ctx(abortAfter = Infinity): JobContext {
  let n = 0;
  const signal = { aborted: false };
  return {
    signal,
    progress: () => {
      if (++n > abortAfter) signal.aborted = true;
    },
    checkpoint: async () => {
      if (signal.aborted) throw new Cancelled();
    },
  };
}

/** A ball moving through a box and out again; a second ball sweeping fast past a thin slab. */
function movingScene(seed: number): ImpulseDocument {
  const r = mulberry32(seed);
  const y = 0.3 + r() * 0.1, z = (r() - 0.5) * 0.1;
  const doc = sceneDoc(
    [
      boxPropAt('box', [0.25, 0.25, 0.25], [0, 0.3, 0], { mode: 'keyframed' }),
      ballPropAt('ball', 0.11, [-1, y, z], { mode: 'keyframed' }),
      boxPropAt('slab', [0.01, 0.3, 0.3], [0, 2, 0], { mode: 'keyframed' }),
      ballPropAt('fast', 0.05, [-1, 2, 0], { mode: 'keyframed' }),
    ],
    { groundY: null, frames: 30 },
  );
  doc.clips[0].tracks = [linearTranslation('ball', 0, [-1, y, z], 1, [1, y, z]), linearTranslation('fast', 0, [-1, 2, 0], 1, [1, 2, 0])];
  return doc;
}

describe('check jobs', () => {
  for (const seed of [1, 2, 3]) {
    it(`rechecking ranges gives the same frames as a full pass (seed ${seed})`, async () => {
      const doc = movingScene(seed);
      const full = await runCheckClip(doc, { clipId: 'clip' }, ctx());
      expect(full.frames.map((f) => f.frame)).toEqual(Array.from({ length: 31 }, (_, i) => i));
      const part = await runCheckClip({ ...doc }, { clipId: 'clip', ranges: [[12, 15], [3, 4], [29, 40]] }, ctx());
      expect(part.frames.map((f) => f.frame)).toEqual([12, 13, 14, 15, 3, 4, 29, 30]);
      for (const f of part.frames) expect(f, `frame ${f.frame}`).toEqual(full.frames[f.frame]);
    });

    it(`findings agree with core's whole-clip check (seed ${seed})`, async () => {
      const doc = movingScene(seed);
      const mine = buildFindings((await runCheckClip(doc, { clipId: 'clip' }, ctx())).frames, 30);
      const report = await checkClip(doc, { clip: 'clip' });
      const key = (a: string, b: string) => [a, b].sort().join('|');
      const coreByPair = new Map<string, { start: number; end: number; first: number }>();
      for (const f of report.findings) {
        const k = key(f.a.objectId, f.b.objectId);
        const cur = coreByPair.get(k);
        coreByPair.set(k, cur ? { start: Math.min(cur.start, f.startFrame), end: Math.max(cur.end, f.endFrame), first: Math.min(cur.first, f.firstContactTime) } : { start: f.startFrame, end: f.endFrame, first: f.firstContactTime });
      }
      const mineByPair = new Map<string, { start: number; end: number; first: number }>();
      for (const f of mine) {
        const k = key(f.a.object, f.b.object);
        const cur = mineByPair.get(k);
        const first = f.firstContactTimeSec * 30;
        mineByPair.set(k, cur ? { start: Math.min(cur.start, f.startFrame), end: Math.max(cur.end, f.endFrame), first: Math.min(cur.first, first) } : { start: f.startFrame, end: f.endFrame, first });
      }
      expect([...mineByPair.keys()].sort()).toEqual([...coreByPair.keys()].sort());
      expect(mineByPair.has(key('ball', 'box')), 'the ball passes through the box').toBe(true);
      expect(mineByPair.has(key('fast', 'slab')), 'the fast ball crosses the slab between frames').toBe(true);
      for (const [k, c] of coreByPair) {
        const m = mineByPair.get(k)!;
        expect(m.start, `${k} start`).toBe(c.start);
        expect(m.end, `${k} end`).toBe(c.end);
        expect(m.first, `${k} first contact`).toBeCloseTo(c.first, 9);
      }
    });
  }

  it('crossing triangles are exactly the intersecting triangle pairs (brute force over all pairs)', async () => {
    const doc = movingScene(7);
    const res = await runCheckFrame(doc, { clipId: 'clip', frame: 12 }, ctx());
    expect(res.contacts.length).toBeGreaterThan(0);
    const scene = new CollisionScene(doc, 'clip');
    scene.pose(12 / 30, false);
    const box = scene.objects.find((o) => o.id === 'box')!, ball = scene.objects.find((o) => o.id === 'ball')!;
    const P = new Float64Array(9), Q = new Float64Array(9);
    const load = (out: Float64Array, o: typeof box, t: number) => {
      for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) out[j * 3 + k] = o.positions[o.indices[t * 3 + j] * 3 + k];
    };
    const boxTris = new Set<number>(), ballTris = new Set<number>();
    for (let a = 0; a < box.indices.length / 3; a++)
      for (let b = 0; b < ball.indices.length / 3; b++) {
        load(P, box, a);
        load(Q, ball, b);
        if (triTriOverlap(P, 0, Q, 0)) {
          boxTris.add(a);
          ballTris.add(b);
        }
      }
    expect(boxTris.size).toBeGreaterThan(0);
    const got = new Map(res.triangles.map((t) => [t.object, [...t.triangles]]));
    expect(got.get('box')).toEqual([...boxTris].sort((x, y) => x - y));
    expect(got.get('ball')).toEqual([...ballTris].sort((x, y) => x - y));
    // Same answer from the scene directly.
    const direct = crossingTriangles(scene, scene.detect(false));
    expect(new Map(direct.map((t) => [t.object, [...t.triangles]]))).toEqual(got);
  });

  it('a cancelled clip check stops between frames', async () => {
    const doc = movingScene(4);
    await expect(runCheckClip(doc, { clipId: 'clip' }, ctx(3))).rejects.toBeInstanceOf(Cancelled);
  });
});

describe('scene reuse across edits', () => {
  const sortKey = (c: { a: { object: string; joint?: number }; b: { object: string; joint?: number }; kind: string }) => `${c.a.object}#${c.a.joint}|${c.b.object}#${c.b.joint}|${c.kind}`;
  for (const seed of [21, 22, 23]) {
    it(`a scene reused for an edited pose answers as a fresh one (seed ${seed})`, async () => {
      const r = mulberry32(seed);
      const doc = movingScene(seed);
      // Edit keys (move the ball's path); meshes, placements and settings stay: the scene is reused.
      const edited: ImpulseDocument = {
        ...doc,
        clips: [{ ...doc.clips[0], tracks: [linearTranslation('ball', 0, [-1, 0.3 + r() * 0.1, 0], 1, [1, 0.25 + r() * 0.2, (r() - 0.5) * 0.2]), doc.clips[0].tracks[1]] }],
      };
      expect(sameGeometry(doc, edited)).toBe(true);
      expect(sameGeometry(doc, structuredClone(doc)), 'a copy has other mesh buffers').toBe(false);
      const frames = [10, 12, 15, 16];
      const fresh: CheckFrameResult[] = [];
      for (const frame of frames) fresh.push(await runCheckFrame(structuredClone(edited), { clipId: 'clip', frame }, ctx()));
      await runCheckFrame(doc, { clipId: 'clip', frame: 5 }, ctx());
      expect(fresh.some((f) => f.contacts.length > 0), 'the edited path still meets the box').toBe(true);
      const norm = (x: CheckFrameResult) => ({ ...x, contacts: [...x.contacts].sort((p, q) => sortKey(p).localeCompare(sortKey(q))) });
      for (let i = 0; i < frames.length; i++) {
        const reused = await runCheckFrame(edited, { clipId: 'clip', frame: frames[i] }, ctx());
        expect(norm(reused), `frame ${frames[i]}`).toEqual(norm(fresh[i]));
      }
    });
  }
});
