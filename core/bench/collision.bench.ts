/**
 * Collision benchmark: two overlapping, animated, skinned characters of about
 * 50k triangles each, the same poses for both pipelines, in one process, on
 * two scenes: (1) seeded tube characters on an 8-joint chain swaying through
 * each other; (2) the shipped mannequin (67 joints, five overlapping skinned
 * meshes) subdivided to ~47k triangles (subdivide.ts), one walking and one
 * swinging through the other with the mannequin's own clips. Pipelines:
 *
 *   ours:  the full per-frame check of core/collision: SceneEvaluator + Rig,
 *          body-part boxes from the joints, sweep-and-prune, skinning of the
 *          parts (or, on demand, of the chunks) a test needs, lazy part-BVH
 *          refit, BVH-vs-BVH, exact
 *          triangle–triangle tests, and per crossing part pair its contact
 *          point, normal and penetration depth (plus, in the continuous row,
 *          CCD with micro-backtracking since the previous frame)
 *   three: bones posed from the same local pose, StaticGeometryGenerator
 *          (skinning), MeshBVH.refit, bvhcast collecting every intersecting
 *          triangle pair (three-mesh-bvh)
 *
 * Prints per-frame medians over all frames and, apart, over the frames with
 * an intersection (where the work is: frames without contact cost us almost
 * nothing, so the all-frames median alone would flatter us), the ratios,
 * whether both found the same set of intersecting frames, and CCD queries per
 * second.
 *
 *   npx tsx core/bench/collision.bench.ts
 */
import { pathToFileURL } from 'node:url';
import * as THREE from 'three';
import { MeshBVH, StaticGeometryGenerator } from 'three-mesh-bvh';
import { SceneEvaluator } from '../anim';
import { createEmptyDocument, defaultCharacterCollision, defaultMaterial } from '../document';
import type { Character, ImpulseDocument, Track } from '../document/types';
import { ccdEdgeEdge, ccdVertexTriangle } from '../collision/ccd';
import { CollisionScene } from '../collision/scene';
import { mulberry32 } from '../collision/testutil';
import { denseMannequins } from './subdivide';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
}

const JOINTS = 8;
const SEG = 0.25;

/** A closed tube (radius r, height JOINTS·SEG) skinned to a chain along +y. */
function tubeCharacter(id: string, around: number, rings: number, r: number, translation: [number, number, number], rotation: [number, number, number, number]): Character {
  const H = JOINTS * SEG;
  const nv = around * rings + 2;
  const pos = new Float32Array(nv * 3), jn = new Uint16Array(nv * 4), wt = new Float32Array(nv * 4);
  const setW = (v: number, y: number) => {
    const f = Math.min(JOINTS - 1 - 1e-9, Math.max(0, y / SEG - 0.5));
    const j = Math.floor(f), s = f - j;
    jn[v * 4] = j; jn[v * 4 + 1] = Math.min(JOINTS - 1, j + 1);
    wt[v * 4] = 1 - s; wt[v * 4 + 1] = s;
  };
  for (let i = 0; i < rings; i++) {
    const y = (H * i) / (rings - 1);
    for (let k = 0; k < around; k++) {
      const a = (2 * Math.PI * k) / around, v = i * around + k;
      pos[v * 3] = r * Math.cos(a); pos[v * 3 + 1] = y; pos[v * 3 + 2] = r * Math.sin(a);
      setW(v, y);
    }
  }
  const bot = around * rings, top = bot + 1;
  pos[bot * 3 + 1] = 0; setW(bot, 0);
  pos[top * 3 + 1] = H; setW(top, H);
  const idx: number[] = [];
  for (let i = 0; i < rings - 1; i++) {
    for (let k = 0; k < around; k++) {
      const a = i * around + k, b = i * around + ((k + 1) % around), c = a + around, d = b + around;
      idx.push(a, c, b, b, c, d);
    }
  }
  for (let k = 0; k < around; k++) {
    idx.push(bot, k, (k + 1) % around);
    idx.push(top, (rings - 1) * around + ((k + 1) % around), (rings - 1) * around + k);
  }
  const ibm = new Float32Array(16 * JOINTS);
  for (let j = 0; j < JOINTS; j++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -SEG * j, 0, 1], 16 * j);
  const collision = defaultCharacterCollision();
  collision.selfCollision = false;
  return {
    id, name: id, transform: { translation, rotation, scale: [1, 1, 1] },
    skeleton: { joints: Array.from({ length: JOINTS }, (_, j) => ({ name: `${id}_j${j}`, parent: j - 1, rest: { translation: [0, j === 0 ? 0 : SEG, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } })) },
    meshes: [{ name: 'tube', positions: pos, indices: new Uint32Array(idx), joints: jn, weights: wt, skinJoints: Int32Array.from({ length: JOINTS }, (_, j) => j), inverseBindMatrices: ibm, material: 0 }],
    materials: [defaultMaterial()], collision, mode: 'keyframed',
  };
}

export function benchDoc(frames: number): ImpulseDocument {
  const doc = createEmptyDocument('bench');
  const s = Math.SQRT1_2;
  // ~50k triangles each: 2·around·(rings−1) + 2·around
  doc.characters = [
    tubeCharacter('A', 100, 250, 0.12, [0, 0, 0], [0, 0, 0, 1]),
    tubeCharacter('B', 100, 250, 0.12, [-1, 1.2, 0.2], [0, 0, -s, s]),
  ];
  const r = mulberry32(7);
  const tracks: Track[] = [];
  for (const ch of doc.characters) {
    for (let j = 1; j < JOINTS; j++) {
      const amp = 0.25 * r(), w = 2 + 4 * r(), ph = 6 * r();
      const times: number[] = [], values: number[] = [];
      for (let f = 0; f <= frames; f++) {
        const a = amp * Math.sin(w * (f / 30) + ph);
        times.push(f / 30);
        values.push(0, 0, Math.sin(a / 2), Math.cos(a / 2));
      }
      tracks.push({ target: { kind: 'joint', character: ch.id, joint: j }, path: 'rotation', interpolation: 'linear', times, values });
    }
    // sway the whole character so the contact comes and goes
    const times: number[] = [], values: number[] = [];
    for (let f = 0; f <= frames; f++) {
      times.push(f / 30);
      // A sways along x, B along z (its local z is the world z): the tubes cross and part
      if (ch.id === 'A') values.push(0.3 * Math.sin(f / 9), 0, 0);
      else values.push(0, 0, 0.3 * Math.sin(f / 7 + 1));
    }
    tracks.push({ target: { kind: 'joint', character: ch.id, joint: 0 }, path: 'translation', interpolation: 'linear', times, values });
  }
  doc.clips = [{ id: 'c', name: 'bench', frameRate: 30, startFrame: 0, endFrame: frames, tracks }];
  doc.activeClip = 'c';
  return doc;
}

function median(a: number[]): number {
  const s = a.slice().sort((x, y) => x - y);
  return s[s.length >> 1];
}

/** The three-mesh-bvh pipeline for one character: a SkinnedMesh per mesh on one set of bones, merged by StaticGeometryGenerator. */
function threeCharacter(ch: Character): { holder: THREE.Object3D; bones: THREE.Bone[]; meshes: THREE.SkinnedMesh[]; gen: StaticGeometryGenerator; geom: THREE.BufferGeometry; bvh: MeshBVH | null } {
  const root = new THREE.Object3D();
  const t = ch.transform;
  root.position.fromArray(t.translation);
  root.quaternion.fromArray(t.rotation);
  root.scale.fromArray(t.scale);
  const bones = ch.skeleton.joints.map(() => new THREE.Bone());
  ch.skeleton.joints.forEach((j, i) => (j.parent < 0 ? root : bones[j.parent]).add(bones[i]));
  const holder = new THREE.Object3D();
  holder.add(root);
  const meshes = ch.meshes.map((m) => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(m.positions, 3));
    g.setAttribute('skinIndex', new THREE.BufferAttribute(m.joints, 4));
    g.setAttribute('skinWeight', new THREE.BufferAttribute(m.weights, 4));
    g.setIndex(new THREE.BufferAttribute(m.indices, 1));
    // the mesh's skin slots name skeleton joints; its inverse bind matrices are per slot
    const skeleton = new THREE.Skeleton(
      Array.from(m.skinJoints, (j) => bones[j]),
      Array.from(m.skinJoints, (_, slot) => new THREE.Matrix4().fromArray(m.inverseBindMatrices, slot * 16)),
    );
    const mesh = new THREE.SkinnedMesh(g);
    holder.add(mesh);
    mesh.bind(skeleton, new THREE.Matrix4());
    return mesh;
  });
  const gen = new StaticGeometryGenerator(meshes);
  return { holder, bones, meshes, gen, geom: new THREE.BufferGeometry(), bvh: null };
}

/** Pose of one three.js character at timeSec from the shared evaluator. */
function poseThree(c: ReturnType<typeof threeCharacter>, ev: SceneEvaluator, ci: number, timeSec: number, L: Float64Array): void {
  ev.characterLocalPose(ci, timeSec, L);
  c.bones.forEach((b, j) => {
    b.position.set(L[j * 10], L[j * 10 + 1], L[j * 10 + 2]);
    b.quaternion.set(L[j * 10 + 3], L[j * 10 + 4], L[j * 10 + 5], L[j * 10 + 6]);
    b.scale.set(L[j * 10 + 7], L[j * 10 + 8], L[j * 10 + 9]);
  });
  c.holder.updateMatrixWorld(true);
  for (const m of c.meshes) m.skeleton.update();
}

/**
 * Timing: rounds over the clip, each running the three pipelines one after
 * the other over every frame (ours discrete, ours with continuous detection,
 * three-mesh-bvh; each pipeline keeps its own data warm over a clip, as an
 * app scrubbing a clip would), so a busy machine slows them alike; the first
 * round is untimed (JIT warm-up for all three), then ROUNDS timed rounds; a
 * frame's time is its median over the rounds, and the rows give the median
 * over all frames and over the intersecting frames, and the median of the
 * per-frame ratios.
 */
const ROUNDS = 5;

/**
 * Exclusive time per stage of our discrete check over the given frames (mean
 * per frame over PROFILED_ROUNDS rounds after a warm-up), measured by wrapping
 * the scene's stage methods: a nested stage's time is not counted in its
 * caller's (skinning inside the narrow phase counts as skinning). The lazy
 * refit of a BVH chunk's nodes counts in the stage whose traversal first
 * reaches it. "other" is the rest of pose + detect (rig, part boxes,
 * sweep-and-prune, chunk-root refits, contacts). Means, so the stages sum to
 * the total; the wrappers add a little.
 */
const PROFILED_ROUNDS = 3;
const STAGES: [string, string][] = [
  ['ensureSkinned', 'skinning (parts a test needs)'],
  ['skinChunkOnDemand', 'skinning on demand (the chunks the narrow phase reaches)'],
  ['narrow', 'narrow phase: BVH-vs-BVH (incl. its chunk refits) + triangle tests'],
  ['exactBox', 'depth: exact part boxes (branch and bound over chunks, incl. their skinning)'],
  ['sideCache', 'depth: regions (crossings, breadth-first over the part)'],
  ['classifyRegion', 'depth: inside tests (one per region)'],
  ['estimateRegion', 'depth: distance bounds of inside regions'],
  ['walkCloser', 'depth: surface walks (bound tightening)'],
  ['distanceTo', 'depth: exact distance searches (incl. their chunk refits)'],
  ['pairDepth', 'depth: the rest (candidates, heap)'],
  ['containment', 'containment'],
];

function stageBreakdown(doc: ImpulseDocument, frames: number[], last: number): [string, number][] {
  const scene = new CollisionScene(doc, 'c');
  const acc = new Map<string, number>();
  const stack: number[] = [];
  const timed = <T extends object>(target: T, method: string, stage: string): (() => void) => {
    const obj = target as unknown as Record<string, (...a: unknown[]) => unknown>;
    const f = obj[method];
    if (typeof f !== 'function') throw new Error(`collision bench: ${method} not found (renamed? update STAGES)`);
    obj[method] = function (this: unknown, ...args: unknown[]) {
      const t0 = performance.now();
      stack.push(0);
      try {
        return f.apply(this, args);
      } finally {
        const ms = performance.now() - t0, nested = stack.pop()!;
        acc.set(stage, (acc.get(stage) ?? 0) + ms - nested);
        if (stack.length > 0) stack[stack.length - 1] += ms;
      }
    };
    return () => { obj[method] = f; };
  };
  const undo = STAGES.map(([m, stage]) => timed(scene, m, stage));
  const want = new Set(frames);
  let total = 0;
  try {
    for (let round = 0; round <= PROFILED_ROUNDS; round++) {
      if (round === 1) acc.clear();
      for (let f = 0; f <= last; f++) {
        const before = new Map(acc);
        const a = performance.now();
        scene.pose(f / 30, false);
        scene.detect(false);
        const ms = performance.now() - a;
        if (round === 0) continue;
        // only the intersecting frames count
        if (!want.has(f)) { acc.clear(); for (const [k, v] of before) acc.set(k, v); continue; }
        total += ms;
      }
    }
  } finally {
    for (const u of undo) u();
  }
  const n = PROFILED_ROUNDS * frames.length;
  const out: [string, number][] = [];
  let staged = 0;
  for (const [, stage] of STAGES) { const v = (acc.get(stage) ?? 0) / n; staged += v; out.push([stage, v]); }
  out.push(['other (rig, part boxes, sweep-and-prune, chunk-root refits, contacts)', total / n - staged]);
  out.push(['total (profiled, with the wrappers\' overhead)', total / n]);
  return out;
}

/** Our checker and the three-mesh-bvh pipeline on the clip 'c' (frames 0..frames at 30 fps) of `doc`'s two characters. */
export function benchCollision(doc: ImpulseDocument, frames: number, ccdThroughput: boolean): BenchRow[] {
  const triCount = doc.characters.map((c) => c.meshes.reduce((n, m) => n + m.indices.length / 3, 0));
  console.log(`characters: ${triCount.join(' + ')} triangles, ${doc.characters.map((c) => c.skeleton.joints.length).join(' + ')} joints, ${frames + 1} frames`);
  const rows: BenchRow[] = [];

  const t0 = performance.now();
  const scene = new CollisionScene(doc, 'c');
  const buildOurs = performance.now() - t0;
  const sceneCont = new CollisionScene(doc, 'c');

  const ev = new SceneEvaluator(doc, 'c');
  const tb = performance.now();
  const chars = doc.characters.map(threeCharacter);
  const local = doc.characters.map((c) => new Float64Array(c.skeleton.joints.length * 10));
  const identity = new THREE.Matrix4();
  let buildThree = 0;

  const oursMs: number[][] = [], contMs: number[][] = [], threeMs: number[][] = [];
  const oursHit: boolean[] = [], threeHit: boolean[] = [];
  let ccdSearches = 0;
  for (let f = 0; f <= frames; f++) { oursMs.push([]); contMs.push([]); threeMs.push([]); }
  for (let round = 0; round <= ROUNDS; round++) {
    // ours: skinning (of the parts a test needs) + the full discrete check
    for (let f = 0; f <= frames; f++) {
      const a = performance.now();
      scene.pose(f / 30, false);
      const contacts = scene.detect(false);
      const ms = performance.now() - a;
      if (round === 0) oursHit.push(contacts.some((c) => c.kind === 'intersect' && c.a.objectId !== c.b.objectId));
      else oursMs[f].push(ms);
    }
    // ours with continuous detection since the previous frame
    const q0 = sceneCont.stats.ccdQueries;
    for (let f = 0; f <= frames; f++) {
      const a = performance.now();
      sceneCont.pose(f / 30, f > 0);
      sceneCont.detect(true);
      const ms = performance.now() - a;
      if (round > 0) contMs[f].push(ms);
    }
    if (round === 0) ccdSearches = sceneCont.stats.ccdQueries - q0;
    // three-mesh-bvh: skinning by StaticGeometryGenerator, refit, bvhcast collecting every intersecting pair
    for (let f = 0; f <= frames; f++) {
      const a = performance.now();
      chars.forEach((c, ci) => {
        poseThree(c, ev, ci, f / 30, local[ci]);
        c.gen.generate(c.geom);
        if (c.bvh === null) {
          c.bvh = new MeshBVH(c.geom);
          buildThree = performance.now() - tb;
        } else c.bvh.refit();
      });
      let pairs = 0;
      chars[0].bvh!.bvhcast(chars[1].bvh!, identity, {
        intersectsTriangles(t1, t2) {
          if (t1.intersectsTriangle(t2)) pairs++;
          return false;
        },
      });
      const ms = performance.now() - a;
      if (round === 0) threeHit.push(pairs > 0);
      else threeMs[f].push(ms);
    }
  }
  const perFrame = (m: number[][]) => m.map(median);
  const o = perFrame(oursMs), c = perFrame(contMs), t = perFrame(threeMs);
  const hitIdx = oursHit.map((h, i) => (h || threeHit[i] ? i : -1)).filter((i) => i >= 0);
  const onHits = (a: number[]) => median(hitIdx.map((i) => a[i]));
  const same = oursHit.every((h, i) => h === threeHit[i]);
  const row = (name: string, value: number, unit: string) => rows.push({ name, value, unit });
  row('ours: skinning + full discrete check, median over all frames', median(o), 'ms');
  row(`ours: skinning + full discrete check, median over the ${hitIdx.length} intersecting frames`, onHits(o), 'ms');
  row('ours: skinning + discrete + continuous check, median over all frames', median(c), 'ms');
  row('ours: skinning + discrete + continuous check, median over the intersecting frames', onHits(c), 'ms');
  row('three-mesh-bvh: StaticGeometryGenerator + refit + bvhcast pairs, median over all frames', median(t), 'ms');
  row('three-mesh-bvh: median over the intersecting frames', onHits(t), 'ms');
  row('ratio three-mesh-bvh / ours (discrete), medians over all frames', median(t) / median(o), 'x');
  row('ratio three-mesh-bvh / ours (discrete), medians over the intersecting frames', onHits(t) / onHits(o), 'x');
  row('ratio three-mesh-bvh / ours (discrete), median of the per-frame ratios over the intersecting frames', median(hitIdx.map((i) => t[i] / o[i])), 'x');
  row('ratio three-mesh-bvh / ours (discrete + continuous), medians over the intersecting frames', onHits(t) / onHits(c), 'x');
  row(`ours: discrete, worst frame (frame ${o.indexOf(Math.max(...o))})`, Math.max(...o), 'ms');
  row(`ours: discrete + continuous, worst frame (frame ${c.indexOf(Math.max(...c))})`, Math.max(...c), 'ms');
  row('ours: CCD feature searches of the continuous pass over the clip', ccdSearches, 'searches');
  row('build: ours (scene, part BVHs)', buildOurs, 'ms');
  row('build: three-mesh-bvh (first frame incl. MeshBVH)', buildThree, 'ms');
  row(`intersecting frames: ours ${oursHit.filter(Boolean).length}, three ${threeHit.filter(Boolean).length}, same set`, same ? 1 : 0, same ? 'yes' : 'NO');

  // where our time goes: a separate profiled pass (not in the timed rounds)
  for (const [name, ms] of stageBreakdown(doc, hitIdx, frames)) row(`stage (profiled, mean over the intersecting frames, discrete): ${name}`, ms, 'ms');

  if (!ccdThroughput) return rows;
  // CCD throughput on seeded near-contact queries
  const r = mulberry32(11);
  const N = 20000;
  const q = new Float64Array(N * 24);
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < 12; k++) q[i * 24 + k] = r();
    for (let k = 0; k < 12; k++) q[i * 24 + 12 + k] = q[i * 24 + k] + (r() - 0.5) * 0.6;
  }
  for (const [name, fn] of [['vertex–triangle', ccdVertexTriangle], ['edge–edge', ccdEdgeEdge]] as const) {
    let hits = 0;
    const a = performance.now();
    for (let i = 0; i < N; i++) if (fn(q, i * 24) !== null) hits++;
    const sec = (performance.now() - a) / 1000;
    rows.push({ name: `CCD ${name} queries per second (${((100 * hits) / N).toFixed(0)}% contact)`, value: N / sec, unit: 'q/s' });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const print = (rows: BenchRow[]) => {
    for (const row of rows) console.log(`${row.name.padEnd(92)} ${row.value.toFixed(row.unit === 'q/s' ? 0 : 2).padStart(12)} ${row.unit}`);
  };
  console.log('-- scene 1: two seeded tube characters on 8-joint chains, swaying through each other');
  print(benchCollision(benchDoc(60), 60, true));
  // the shipped mannequin, subdivided: a real rig (67 joints, five overlapping skinned meshes) and its own clips
  console.log('\n-- scene 2: two shipped mannequins subdivided to ~50k triangles each, walking and swinging through each other');
  print(benchCollision(await denseMannequins(50_000, 60), 60, false));
}
