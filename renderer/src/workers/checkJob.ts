/**
 * Check jobs on core/collision's `CollisionScene`: the app keeps per-frame
 * results (see check/frameCache.ts), so the worker checks frame by frame,
 * each frame with the discrete test at the frame and the continuous test of
 * the motion from the previous frame (the same two tests core's `checkClip`
 * runs per sample), and only over the ranges asked for.
 *
 * The scene (skinned vertex buffers, body-part BVHs, bind-pose pairs) is
 * built once per document version and clip and reused by later jobs, so the
 * live check while scrubbing costs one posing and one detection.
 *
 * The live check also reports which triangles cross, for the overlay tint:
 * for each part pair in contact, core's BVH-vs-BVH traversal and exact
 * triangle–triangle test over that pair's parts.
 */
import type { ImpulseDocument } from '../../../core/document/types';
import { SceneEvaluator } from '../../../core/anim';
import { CollisionScene, forEachLeafPair, triTriOverlap, type FrameContact as CoreContact, type FindingSide } from '../../../core/collision';
import type { JobContext } from './host';
import type { CheckClipParams, CheckClipResult, CheckFrameParams, CheckFrameResult, ContactSide, FrameCheck, FrameContact, TriangleSet } from './protocol';

let cached: { doc: ImpulseDocument; clipId: string; scene: CollisionScene; posedFrame: number | null } | null = null;

function sceneFor(doc: ImpulseDocument, clipId: string): NonNullable<typeof cached> {
  if (cached && cached.doc === doc && cached.clipId === clipId) return cached;
  if (cached && cached.clipId === clipId && sameGeometry(cached.doc, doc)) {
    // Posing and keying change only what the evaluator reads: keep the scene's buffers,
    // BVHs and bind-pose pairs and give it the new document's evaluator.
    const scene = cached.scene;
    Object.assign(scene as unknown as { doc: ImpulseDocument; evaluator: SceneEvaluator }, { doc, evaluator: new SceneEvaluator(doc, clipId) });
    cached = { doc, clipId, scene, posedFrame: null };
    return cached;
  }
  cached = { doc, clipId, scene: new CollisionScene(doc, clipId), posedFrame: null };
  return cached;
}

/**
 * Whether a CollisionScene built for `a` serves `b`: the same objects with the
 * same meshes, placements, skeleton hierarchy and collision settings (what the
 * scene captures when built); tracks and rest poses may differ (the evaluator
 * supplies every pose).
 */
export function sameGeometry(a: ImpulseDocument, b: ImpulseDocument): boolean {
  if (a.characters.length !== b.characters.length || a.props.length !== b.props.length) return false;
  for (let i = 0; i < a.characters.length; i++) {
    const x = a.characters[i], y = b.characters[i];
    if (x === y) continue;
    if (x.id !== y.id || x.name !== y.name || x.meshes !== y.meshes || x.transform !== y.transform || x.collision !== y.collision) return false;
    const jx = x.skeleton.joints, jy = y.skeleton.joints;
    if (jx.length !== jy.length) return false;
    for (let j = 0; j < jx.length; j++) if (jx[j].parent !== jy[j].parent || jx[j].name !== jy[j].name) return false;
  }
  for (let i = 0; i < a.props.length; i++) {
    const x = a.props[i], y = b.props[i];
    if (x === y) continue;
    if (x.id !== y.id || x.name !== y.name || x.mesh !== y.mesh || x.collision !== y.collision) return false;
  }
  return true;
}

function clipOf(doc: ImpulseDocument, clipId: string) {
  const clip = doc.clips.find((c) => c.id === clipId);
  if (!clip) throw new Error(`clip "${clipId}" is not in the document`);
  return clip;
}

function side(s: FindingSide): ContactSide {
  return s.joint >= 0 ? { object: s.objectId, joint: s.joint, label: s.part } : { object: s.objectId, label: s.part };
}

export function toFrameContact(c: CoreContact, frame: number, frameRate: number): FrameContact {
  return {
    a: side(c.a),
    b: side(c.b),
    kind: c.kind,
    depth: c.depth,
    point: c.kind === 'tunnel' && c.ccdPoint ? c.ccdPoint : c.point,
    normal: c.normal,
    firstContactTimeSec: c.ccdTime === null ? null : (frame - 1 + c.ccdTime) / frameRate,
  };
}

/** Poses the scene at `frame` with the previous frame as the start of the motion (when inside the clip) and detects. */
function detectAt(entry: NonNullable<typeof cached>, frame: number, startFrame: number, frameRate: number): CoreContact[] {
  const { scene } = entry;
  const continuous = frame > startFrame;
  if (continuous && entry.posedFrame !== frame - 1) {
    // The scene remembers which pairs were in contact at the last detection (a contact that
    // goes on has no new first-contact time): detect at the previous frame too, as a
    // sequential pass through the clip would have.
    scene.pose((frame - 1) / frameRate, false);
    scene.detect(false);
  }
  scene.pose(frame / frameRate, continuous);
  entry.posedFrame = frame;
  return scene.detect(continuous);
}

export async function runCheckClip(doc: ImpulseDocument, params: CheckClipParams, ctx: JobContext): Promise<CheckClipResult> {
  const clip = clipOf(doc, params.clipId);
  const ranges = params.ranges ?? [[clip.startFrame, clip.endFrame]];
  let total = 0;
  for (const [a, b] of ranges) total += Math.max(0, Math.min(b, clip.endFrame) - Math.max(a, clip.startFrame) + 1);
  ctx.progress(0, total, 'Preparing');
  await ctx.checkpoint();
  const entry = sceneFor(doc, clip.id);
  const frames: FrameCheck[] = [];
  let done = 0;
  let lastYield = Date.now();
  for (const [a, b] of ranges) {
    for (let f = Math.max(a, clip.startFrame); f <= Math.min(b, clip.endFrame); f++) {
      const contacts = detectAt(entry, f, clip.startFrame, clip.frameRate);
      frames.push({ frame: f, contacts: contacts.map((c) => toFrameContact(c, f, clip.frameRate)) });
      done++;
      ctx.progress(done, total, `Frame ${f}`);
      // Yield every 30 ms for messages, and at once when a cancel has landed
      // (a fast frame must not run the rest of the clip before it is seen).
      if (ctx.signal.aborted || Date.now() - lastYield > 30) {
        await ctx.checkpoint();
        lastYield = Date.now();
      }
    }
  }
  ctx.progress(total, total, 'Done');
  return { clipId: clip.id, frames, warnings: [...entry.scene.warnings] };
}

export async function runCheckFrame(doc: ImpulseDocument, params: CheckFrameParams, ctx: JobContext): Promise<CheckFrameResult> {
  const clip = clipOf(doc, params.clipId);
  const frame = Math.min(clip.endFrame, Math.max(clip.startFrame, Math.round(params.frame)));
  const entry = sceneFor(doc, clip.id);
  await ctx.checkpoint();
  const contacts = detectAt(entry, frame, clip.startFrame, clip.frameRate);
  return { frame, contacts: contacts.map((c) => toFrameContact(c, frame, clip.frameRate)), triangles: crossingTriangles(entry.scene, contacts) };
}

const _P = new Float64Array(9);
const _Q = new Float64Array(9);

function loadTri(out: Float64Array, pos: Float64Array, idx: Uint32Array, t: number): void {
  for (let j = 0; j < 3; j++) {
    const v = idx[t * 3 + j] * 3;
    out[j * 3] = pos[v];
    out[j * 3 + 1] = pos[v + 1];
    out[j * 3 + 2] = pos[v + 2];
  }
}

/**
 * The crossing triangles of the part pairs in `contacts`, per object mesh
 * (character triangles are numbered across its meshes in the scene; split
 * them back per mesh for the viewport's geometries).
 */
export function crossingTriangles(scene: CollisionScene, contacts: readonly CoreContact[]): TriangleSet[] {
  const partIndex = new Map<string, number>();
  scene.parts.forEach((p, i) => partIndex.set(`${scene.objects[p.object].id}\u0000${p.joint}`, i));
  const marked = new Map<number, Set<number>>(); // object index -> triangles
  const mark = (o: number, t: number) => {
    let s = marked.get(o);
    if (!s) marked.set(o, (s = new Set()));
    s.add(t);
  };
  for (const c of contacts) {
    if (c.kind !== 'intersect') continue;
    const pa = partIndex.get(`${c.a.objectId}\u0000${c.a.joint}`), pb = partIndex.get(`${c.b.objectId}\u0000${c.b.joint}`);
    if (pa === undefined || pb === undefined) continue;
    const A = scene.parts[pa], B = scene.parts[pb];
    const oa = scene.objects[A.object], ob = scene.objects[B.object];
    const self = A.object === B.object;
    const T = oa.indices.length / 3;
    forEachLeafPair(A.bvh, B.bvh, (ta, tb) => {
      if (self && oa.bindPairs.has(ta < tb ? ta * T + tb : tb * T + ta)) return;
      loadTri(_P, oa.positions, oa.indices, ta);
      loadTri(_Q, ob.positions, ob.indices, tb);
      if (!triTriOverlap(_P, 0, _Q, 0)) return;
      if (self && sharesVertex(oa.indices, ta, tb)) return;
      mark(A.object, ta);
      mark(B.object, tb);
    });
  }
  const out: TriangleSet[] = [];
  for (const [oi, tris] of marked) {
    const o = scene.objects[oi];
    if (o.kind === 'prop') {
      out.push({ owner: 'prop', object: o.id, mesh: 0, triangles: Uint32Array.from([...tris].sort((x, y) => x - y)) });
      continue;
    }
    const meshes = scene.doc.characters[o.index].meshes;
    let first = 0;
    meshes.forEach((m, mi) => {
      const count = m.indices.length / 3;
      const local: number[] = [];
      for (const t of tris) if (t >= first && t < first + count) local.push(t - first);
      if (local.length) out.push({ owner: 'character', object: o.id, mesh: mi, triangles: Uint32Array.from(local.sort((x, y) => x - y)) });
      first += count;
    });
  }
  return out;
}

function sharesVertex(idx: Uint32Array, a: number, b: number): boolean {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) if (idx[a * 3 + i] === idx[b * 3 + j]) return true;
  return false;
}
