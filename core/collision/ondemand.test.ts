import { describe, expect, it } from 'vitest';
import { createEmptyDocument } from '../document';
import { chainCharacter, icosphereMesh } from '../document/fixtures';
import type { Character, Track } from '../document/types';
import { SceneEvaluator } from '../anim';
import { Rig, computeSkinMatrices, skinPositions } from '../skeleton';
import { CollisionScene } from './scene';
import { triTriOverlap } from './tritri';
import { mulberry32 } from './testutil';

/** A chain character whose body is a stretched icosphere (1 280 triangles) with a few shared weight sets: parts of several BVH chunks. */
function ballChain(id: string, x: number): Character {
  const ch = chainCharacter(id);
  ch.transform.translation = [x, 0, 0];
  ch.collision.selfCollision = false;
  const m = ch.meshes[0];
  const ball = icosphereMesh(0.35, 3);
  const nv = ball.positions.length / 3;
  for (let v = 0; v < nv; v++) ball.positions[v * 3 + 1] = ball.positions[v * 3 + 1] * 2.2 + 0.75;
  m.positions = ball.positions;
  m.indices = ball.indices;
  m.joints = new Uint16Array(nv * 4);
  m.weights = new Float32Array(nv * 4);
  const palette = [[1, 0], [0.75, 0.25], [0.5, 0.5]];
  for (let v = 0; v < nv; v++) {
    const y = ball.positions[v * 3 + 1], j = Math.min(3, Math.max(0, Math.floor(y / 0.5))), w = palette[v % 3];
    m.joints.set([j, Math.min(3, j + 1), 0, 0], v * 4);
    m.weights.set([w[0], w[1], 0, 0], v * 4);
  }
  return ch;
}

function tracksOf(r: () => number, id: string, frames: number, sway: number): Track[] {
  const tracks: Track[] = [];
  const times = Array.from({ length: frames + 1 }, (_, f) => f / 10);
  for (let j = 1; j < 4; j++) {
    const amp = 0.6 * r(), ph = 6 * r(), values: number[] = [];
    for (const t of times) { const a = amp * Math.sin(3 * t + ph); values.push(Math.sin(a / 2), 0, 0, Math.cos(a / 2)); }
    tracks.push({ target: { kind: 'joint', character: id, joint: j }, path: 'rotation', interpolation: 'linear', times, values });
  }
  const values: number[] = [];
  for (const t of times) values.push(sway * Math.sin(2.5 * t + r()), 0.3 * (r() - 0.5), 0);
  tracks.push({ target: { kind: 'joint', character: id, joint: 0 }, path: 'translation', interpolation: 'linear', times, values });
  return tracks;
}

/** Ball chains 'a' at x = −half and 'b' at +half, swaying (±sway) through each other over `frames` frames at 10 fps, in clip 'c'. */
function twoChains(name: string, r: () => number, frames: number, half: number, sway: number) {
  const doc = createEmptyDocument(name);
  doc.characters.push(ballChain('a', -half), ballChain('b', half));
  doc.clips = [{ id: 'c', name: 'c', frameRate: 10, startFrame: 0, endFrame: frames, tracks: [...tracksOf(r, 'a', frames, sway), ...tracksOf(r, 'b', frames, -sway)] }];
  doc.activeClip = 'c';
  return doc;
}

/** Crossing triangle pairs per part pair ("a-part|b-part"), every triangle pair of the two fully skinned meshes tested. */
function bruteForce(scene: CollisionScene, P: Float64Array[]): Map<string, number> {
  const [oa, ob] = scene.objects;
  const T = new Float64Array(9), U = new Float64Array(9), count = new Map<string, number>();
  const Ia = oa.indices, Ib = ob.indices;
  for (let ta = 0; ta < Ia.length / 3; ta++) {
    for (let k = 0; k < 9; k++) T[k] = P[0][Ia[ta * 3 + Math.floor(k / 3)] * 3 + (k % 3)];
    for (let tb = 0; tb < Ib.length / 3; tb++) {
      for (let k = 0; k < 9; k++) U[k] = P[1][Ib[tb * 3 + Math.floor(k / 3)] * 3 + (k % 3)];
      if (!triTriOverlap(T, 0, U, 0)) continue;
      const key = `${scene.parts[oa.triPart[ta]].name}|${scene.parts[ob.triPart[tb]].name}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  return count;
}

describe('narrow phase with parts skinned chunk by chunk (on demand)', () => {
  for (const seed of [21, 22]) {
    it(`seed ${seed}: the crossing triangle pairs of every part pair equal a brute-force all-pairs count on fully skinned meshes, and the contacts equal those with whole-part skinning`, () => {
      const r = mulberry32(seed);
      const frames = 12;
      const doc = twoChains('ondemand', r, frames, 0.25, 0.3);
      const scene = new CollisionScene(doc, 'c');
      scene.chunkTriangles = 32; // parts of several chunks
      const whole = new CollisionScene(doc, 'c');
      whole.onDemandSkinning = false;
      const ev = new SceneEvaluator(doc, 'c');
      const rigs = doc.characters.map((c) => new Rig(c));
      const P = doc.characters.map((c) => new Float64Array(c.meshes[0].positions.length));
      const S = doc.characters.map((c) => new Float64Array(16 * c.meshes[0].skinJoints.length));
      type Demand = { chunksOf(p: number): { onDemand: { stamp: number; vstamp: Int32Array } | null }; frameStamp: number };
      let lazyParts = 0, partlySkinned = 0, crossingFrames = 0, boxed = 0;
      for (let f = 0; f <= frames; f++) {
        scene.pose(f / 10, false);
        const got = scene.detect(false);
        whole.pose(f / 10, false);
        expect(JSON.stringify(got), `frame ${f}: contacts equal those with whole-part skinning`).toBe(JSON.stringify(whole.detect(false)));
        const sd = scene as unknown as Demand;
        for (let p = 0; p < scene.parts.length; p++) {
          const od = sd.chunksOf(p).onDemand;
          if (od === null || od.stamp !== sd.frameStamp) continue;
          lazyParts++;
          if (od.vstamp.some((s) => s !== sd.frameStamp)) partlySkinned++;
        }
        // the reference: both meshes skinned whole, every triangle pair of every part pair tested
        doc.characters.forEach((c, ci) => {
          ev.characterLocalPose(ci, f / 10, rigs[ci].local);
          rigs[ci].computeWorld();
          computeSkinMatrices(c.meshes[0], rigs[ci].world, S[ci]);
          skinPositions(c.meshes[0], S[ci], P[ci]);
        });
        // every on-demand part's chunk boxes (from its influence sets) hold the chunk's skinned vertices
        for (let p = 0; p < scene.parts.length; p++) {
          const od = sd.chunksOf(p).onDemand as unknown as { stamp: number; boxes: Float64Array } | null;
          if (od === null || od.stamp !== sd.frameStamp) continue;
          const part = scene.parts[p], Pp = P[part.object];
          const { verts, offsets } = part.bvh.lazyChunks(32);
          for (let c = 0; c + 1 < offsets.length; c++) for (let q = offsets[c]; q < offsets[c + 1]; q++) for (let k = 0; k < 3; k++) {
            const x = Pp[verts[q] + k];
            expect(x >= od.boxes[c * 6 + k] && x <= od.boxes[c * 6 + 3 + k], `frame ${f} part ${p} chunk ${c} axis ${k}: ${x} in [${od.boxes[c * 6 + k]}, ${od.boxes[c * 6 + 3 + k]}]`).toBe(true);
            boxed++;
          }
        }
        const count = bruteForce(scene, P);
        const mine = new Map<string, number>();
        for (const c of got) if (c.kind === 'intersect') mine.set(c.a.objectId === 'a' ? `${c.a.part}|${c.b.part}` : `${c.b.part}|${c.a.part}`, c.trianglePairs);
        expect([...mine].sort(), `frame ${f}: crossing triangle pairs per part pair`).toEqual([...count].sort());
        if (count.size > 0) crossingFrames++;
      }
      expect(crossingFrames, 'frames with crossings to compare').toBeGreaterThan(3);
      expect(lazyParts, 'part trees skinned on demand').toBeGreaterThan(5);
      expect(boxed, 'chunk vertices checked against their boxes').toBeGreaterThan(1000);
      expect(partlySkinned, 'on-demand parts left partly unskinned (the traversal reached only some chunks)').toBeGreaterThan(0);
    });
  }
});

describe('depth with parts skinned on demand', () => {
  type Side = { stamp: number; roiList: Int32Array; roiCount: number };
  type Od = { stamp: number; vstamp: Int32Array; count: number };
  type Inner = {
    sides: Map<number, Side>; detectStamp: number; frameStamp: number;
    chunksOf(p: number): { onDemand: Od | null };
    exactBox(p: number, out: Float64Array): void;
  };
  for (const seed of [31, 32, 33]) {
    it(`seed ${seed}: parts in crossing pairs kept on demand give the contacts (depths) of whole-part skinning; their exact boxes (branch and bound over chunks) equal the boxes of the fully skinned vertices, and their regions of interest the full scan's`, () => {
      const r = mulberry32(seed);
      const frames = 12;
      // closer than the narrow-phase test: deeper crossings, larger regions
      const doc = twoChains('ondemand-depth', r, frames, 0.18, 0.25);
      const scene = new CollisionScene(doc, 'c');
      scene.onDemandShare = 1; // every part on demand, crossing or not
      scene.chunkTriangles = 32; // parts of several chunks
      const whole = new CollisionScene(doc, 'c');
      whole.onDemandSkinning = false;
      const ev = new SceneEvaluator(doc, 'c');
      const rigs = doc.characters.map((c) => new Rig(c));
      const P = doc.characters.map((c) => new Float64Array(c.meshes[0].positions.length));
      const S = doc.characters.map((c) => new Float64Array(16 * c.meshes[0].skinJoints.length));
      const sd = scene as unknown as Inner, wd = whole as unknown as Inner;
      const box = new Float64Array(6);
      let depths = 0, crossingOnDemand = 0, roiCompared = 0, boxesCompared = 0, boxesPartly = 0;
      for (let f = 0; f <= frames; f++) {
        scene.pose(f / 10, false);
        whole.pose(f / 10, false);
        const got = scene.detect(false), want = whole.detect(false);
        expect(JSON.stringify(got), `frame ${f}: contacts (depth, point, normal) equal those with whole-part skinning`).toBe(JSON.stringify(want));
        for (const c of got) if (c.kind === 'intersect' && c.depth > 0) depths++;
        // the regions of interest: the same vertices in the same order as the full scan over the part
        for (const [key, s] of sd.sides) {
          if (s.stamp !== sd.detectStamp) continue;
          const w = wd.sides.get(key);
          expect(w !== undefined && w.stamp === wd.detectStamp, `frame ${f} side ${key}: used by both scenes`).toBe(true);
          expect(Array.from(s.roiList.subarray(0, s.roiCount)), `frame ${f} side ${key}: vertices in the region of interest`).toEqual(Array.from(w!.roiList.subarray(0, w!.roiCount)));
          roiCompared += s.roiCount;
        }
        for (let p = 0; p < scene.parts.length; p++) {
          const od = sd.chunksOf(p).onDemand;
          if (od !== null && od.stamp === sd.frameStamp && scene.parts[p].skinStamp !== sd.frameStamp && got.some((c) => c.kind === 'intersect' && [c.a, c.b].some((s) => s.part === scene.parts[p].name && s.objectId === scene.objects[scene.parts[p].object].id))) crossingOnDemand++;
        }
        // exact boxes against the reference: both meshes skinned whole
        doc.characters.forEach((c, ci) => {
          ev.characterLocalPose(ci, f / 10, rigs[ci].local);
          rigs[ci].computeWorld();
          computeSkinMatrices(c.meshes[0], rigs[ci].world, S[ci]);
          skinPositions(c.meshes[0], S[ci], P[ci]);
        });
        for (let p = 0; p < scene.parts.length; p++) {
          const part = scene.parts[p], Pp = P[part.object];
          sd.exactBox(p, box);
          const ref = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
          for (const v of part.verts) for (let k = 0; k < 3; k++) { ref[k] = Math.min(ref[k], Pp[v * 3 + k]); ref[3 + k] = Math.max(ref[3 + k], Pp[v * 3 + k]); }
          for (let k = 0; k < 6; k++) expect(box[k] === ref[k], `frame ${f} part ${p} bound ${k}: ${box[k]} = ${ref[k]}`).toBe(true);
          boxesCompared++;
          const od = sd.chunksOf(p).onDemand;
          if (od !== null && od.stamp === sd.frameStamp && part.skinStamp !== sd.frameStamp && od.vstamp.some((s) => s !== sd.frameStamp)) boxesPartly++;
        }
      }
      expect(depths, 'crossing part pairs with a depth').toBeGreaterThan(5);
      expect(crossingOnDemand, 'parts of crossing pairs skinned on demand (not whole)').toBeGreaterThan(5);
      expect(roiCompared, 'region-of-interest vertices compared').toBeGreaterThan(100);
      expect(boxesPartly, 'exact boxes found with part of the part left unskinned').toBeGreaterThan(5);
      expect(boxesCompared).toBeGreaterThan(50);
    });
  }
});

describe('continuous test with swept trees skinned on demand', () => {
  type Od = { vstamp: Int32Array; pvstamp: Int32Array; boxes: Float64Array; prevBoxes: Float64Array; matStamp: number; prevMatStamp: number };
  type Inner = {
    frameStamp: number; sweptTreeStamp: Int32Array; sweptTreeDemand: Uint8Array;
    chunksOf(p: number): { onDemand: Od | null };
  };
  const skinAt = (doc: ReturnType<typeof createEmptyDocument>, ev: SceneEvaluator, rigs: Rig[], S: Float64Array[], P: Float64Array[], timeSec: number): void => {
    doc.characters.forEach((c, ci) => {
      ev.characterLocalPose(ci, timeSec, rigs[ci].local);
      rigs[ci].computeWorld();
      computeSkinMatrices(c.meshes[0], rigs[ci].world, S[ci]);
      skinPositions(c.meshes[0], S[ci], P[ci]);
    });
  };
  for (const seed of [41, 42, 44]) {
    it(`seed ${seed}: the continuous contacts (first contact times and points) equal those with whole-part skinning; the swept trees' chunk boxes hold the chunks' vertices at both samples, and the vertices they skinned at either sample equal a reference skinning there`, () => {
      const r = mulberry32(seed);
      const frames = 14;
      const doc = twoChains('ondemand-swept', r, frames, 0.3, 0.35);
      const scene = new CollisionScene(doc, 'c');
      scene.chunkTriangles = 32; // parts of several chunks
      const whole = new CollisionScene(doc, 'c');
      whole.onDemandSkinning = false;
      whole.sweptWindowTraversal = false; // and the swept traversal by boxes over the step alone
      whole.ccdMemo = false; // and every feature searched anew
      const sweptWhole = new CollisionScene(doc, 'c');
      sweptWhole.chunkTriangles = 32;
      sweptWhole.sweptOnDemandSkinning = false;
      const ev = new SceneEvaluator(doc, 'c');
      const rigs = doc.characters.map((c) => new Rig(c));
      const S = doc.characters.map((c) => new Float64Array(16 * c.meshes[0].skinJoints.length));
      const P = doc.characters.map((c) => new Float64Array(c.meshes[0].positions.length));
      const Q = doc.characters.map((c) => new Float64Array(c.meshes[0].positions.length));
      const sd = scene as unknown as Inner;
      let firstContacts = 0, sweptParts = 0, partlyBoth = 0, checkedCur = 0, checkedPrev = 0, boxed = 0;
      for (let f = 0; f <= frames; f++) {
        // frame 8 without the previous sample (a scrub jump): nothing skinned before it may count for the next step
        const keep = f > 0 && f !== 8;
        scene.pose(f / 10, keep);
        whole.pose(f / 10, keep);
        sweptWhole.pose(f / 10, keep);
        const got = scene.detect(true);
        expect(JSON.stringify(got), `frame ${f}: contacts equal those with whole-part skinning (and the traversal without node windows)`).toBe(JSON.stringify(whole.detect(true)));
        expect(JSON.stringify(got), `frame ${f}: contacts equal those with swept trees skinned whole`).toBe(JSON.stringify(sweptWhole.detect(true)));
        for (const c of got) if (c.ccdTime !== null) firstContacts++;
        if (!keep) continue;
        skinAt(doc, ev, rigs, S, P, f / 10);
        skinAt(doc, ev, rigs, S, Q, (f - 1) / 10);
        const fs = sd.frameStamp;
        for (let p = 0; p < scene.parts.length; p++) {
          if (sd.sweptTreeStamp[p] !== fs || sd.sweptTreeDemand[p] !== 1) continue;
          sweptParts++;
          const part = scene.parts[p], o = scene.objects[part.object], od = sd.chunksOf(p).onDemand!;
          expect(od.matStamp === fs && od.prevMatStamp === fs - 1, `frame ${f} part ${p}: chunk boxes of both samples current`).toBe(true);
          // the vertices skinned at either sample (on demand or whole) equal the reference skinning there
          const curWhole = part.skinStamp === fs, prevWhole = part.prevSkinStamp === fs - 1;
          let curLeft = false, prevLeft = false;
          part.verts.forEach((v, i) => {
            for (const [done, mine, ref, name] of [[curWhole || od.vstamp[i] === fs, o.positions, P[part.object], 'current'], [prevWhole || od.pvstamp[i] === fs - 1, o.prevPositions, Q[part.object], 'previous']] as const) {
              if (!done) { if (name === 'current') curLeft = true; else prevLeft = true; continue; }
              for (let k = 0; k < 3; k++) expect(mine[v * 3 + k], `frame ${f} part ${p} vertex ${v} at the ${name} sample`).toBe(ref[v * 3 + k]);
              if (name === 'current') checkedCur++; else checkedPrev++;
            }
          });
          if (curLeft && prevLeft) partlyBoth++;
          // each chunk's boxes from the influence sets hold its vertices at both samples
          const { verts, offsets } = part.bvh.lazyChunks(32);
          for (let c = 0; c + 1 < offsets.length; c++) for (let q = offsets[c]; q < offsets[c + 1]; q++) for (let k = 0; k < 3; k++) {
            const x = P[part.object][verts[q] + k], y = Q[part.object][verts[q] + k];
            expect(x >= od.boxes[c * 6 + k] && x <= od.boxes[c * 6 + 3 + k], `frame ${f} part ${p} chunk ${c} axis ${k}: current ${x} in its box`).toBe(true);
            expect(y >= od.prevBoxes[c * 6 + k] && y <= od.prevBoxes[c * 6 + 3 + k], `frame ${f} part ${p} chunk ${c} axis ${k}: previous ${y} in its box`).toBe(true);
            boxed++;
          }
        }
      }
      expect(firstContacts, 'contacts with a first contact time (continuous search ran)').toBeGreaterThan(2);
      expect(sweptParts, 'swept trees skinned on demand').toBeGreaterThan(5);
      expect(partlyBoth, 'swept trees that left part of their part unskinned at both samples').toBeGreaterThan(0);
      expect(checkedCur, 'current vertices compared').toBeGreaterThan(500);
      expect(checkedPrev, 'previous vertices compared').toBeGreaterThan(500);
      expect(boxed, 'chunk vertices checked against their boxes').toBeGreaterThan(1000);
    });
  }
});

describe('part pairs dropped by their chunk boxes before the narrow traversal', () => {
  type Inner = { chunkBoxesAtSample(p: number): Float64Array | null; _chunkDrops: number };
  for (const seed of [51, 52]) {
    it(`seed ${seed}: the crossing triangle pairs per part pair equal a brute-force all-pairs count and the contacts equal those without the test; chunk boxes shrunk to half are caught`, () => {
      const r = mulberry32(seed);
      const frames = 12;
      const doc = twoChains('chunk-prefilter', r, frames, 0.25, 0.3);
      const scene = new CollisionScene(doc, 'c');
      scene.chunkTriangles = 32; // parts of several chunks
      const plain = new CollisionScene(doc, 'c');
      plain.chunkTriangles = 32;
      plain.chunkPrefilter = false;
      // a wrong test: every chunk box shrunk to half its size about its centre
      const wrong = new CollisionScene(doc, 'c');
      wrong.chunkTriangles = 32;
      const wi = wrong as unknown as Inner, at = wi.chunkBoxesAtSample.bind(wrong);
      wi.chunkBoxesAtSample = (p: number): Float64Array | null => {
        const B = at(p);
        if (B === null) return null;
        const S = B.slice();
        for (let i = 0; i < S.length; i += 6) for (let k = 0; k < 3; k++) {
          const c = 0.5 * (B[i + k] + B[i + 3 + k]), h = 0.25 * (B[i + 3 + k] - B[i + k]);
          S[i + k] = c - h; S[i + 3 + k] = c + h;
        }
        return S;
      };
      const ev = new SceneEvaluator(doc, 'c');
      const rigs = doc.characters.map((c) => new Rig(c));
      const P = doc.characters.map((c) => new Float64Array(c.meshes[0].positions.length));
      const S = doc.characters.map((c) => new Float64Array(16 * c.meshes[0].skinJoints.length));
      let crossingFrames = 0, wrongFrames = 0;
      for (let f = 0; f <= frames; f++) {
        scene.pose(f / 10, false);
        const got = scene.detect(false);
        plain.pose(f / 10, false);
        expect(JSON.stringify(got), `frame ${f}: contacts equal those without the chunk test`).toBe(JSON.stringify(plain.detect(false)));
        wrong.pose(f / 10, false);
        const bad = wrong.detect(false);
        doc.characters.forEach((c, ci) => {
          ev.characterLocalPose(ci, f / 10, rigs[ci].local);
          rigs[ci].computeWorld();
          computeSkinMatrices(c.meshes[0], rigs[ci].world, S[ci]);
          skinPositions(c.meshes[0], S[ci], P[ci]);
        });
        const count = bruteForce(scene, P);
        const perPair = (cs: typeof got): [string, number][] => {
          const m = new Map<string, number>();
          for (const c of cs) if (c.kind === 'intersect') m.set(c.a.objectId === 'a' ? `${c.a.part}|${c.b.part}` : `${c.b.part}|${c.a.part}`, c.trianglePairs);
          return [...m].sort();
        };
        expect(perPair(got), `frame ${f}: crossing triangle pairs per part pair`).toEqual([...count].sort());
        if (JSON.stringify(perPair(bad)) !== JSON.stringify([...count].sort())) wrongFrames++;
        if (count.size > 0) crossingFrames++;
      }
      expect(crossingFrames, 'frames with crossings to compare').toBeGreaterThan(3);
      expect((scene as unknown as Inner)._chunkDrops, 'part pairs dropped by their chunk boxes').toBeGreaterThan(0);
      expect(wrongFrames, 'frames where chunk boxes shrunk to half lose crossings').toBeGreaterThan(0);
    });
  }
});
