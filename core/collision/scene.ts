/**
 * Scene-level interpenetration checking: body-part volumes, broad phase,
 * narrow phase, continuous detection between frames, depth, contacts, and the
 * whole-clip report.
 *
 * Objects: every character (all its skinned meshes merged into one vertex
 * array) and every prop. Parts (Macagon 2003, body-part volumes): each skinned
 * triangle belongs to the skeleton joint that dominates its vertices' weights;
 * each part has its own BVH, refit (never rebuilt) every frame over the swept
 * motion from the previous frame, so one tree serves the discrete test at the
 * frame and the continuous test since the last one. A prop is one part.
 *
 * Per frame: sweep-and-prune over the parts' swept boxes (groups, masks,
 * ignore rules, self-collision rules), BVH-vs-BVH, then for each candidate
 * triangle pair the exact triangle–triangle test at the frame and, for pairs
 * that were not already intersecting at the previous frame, vertex–triangle
 * and edge–edge CCD over the linear motion between the frames. The earliest
 * contact over a part pair's candidate feature list is found by Zachwieja's
 * micro-backtracking (section 3.5, `backtrack.ts`): only the features involved
 * are searched, in order of the earliest time each could touch, each search
 * confined to the time before the earliest contact found so far, and the rest
 * discarded once they cannot precede it.
 *
 * Penetration depth (scene units) of a crossing part pair at a frame: the
 * deepest vertex penetration both ways. Only vertices inside the overlap of
 * the two parts' boxes (found through each part's BVH) can count.
 * - Different objects, other side closed: the largest distance to the other
 *   object's surface (closestPointOnMesh) of a vertex of either part that lies
 *   inside the other object (exact ray parity against its closed meshes).
 * - Other side open (a warning says so): the crossing triangles' vertices
 *   behind the other surface, sign from the angle-weighted pseudo-normal of
 *   the closest feature (Bærentzen & Aanæs), depth = their distance.
 * - Self-collision: the signed distance of each part's vertices to the OTHER
 *   part's triangles (pseudo-normals over the whole character mesh); a vertex
 *   whose closest feature lies on the border of the other part's patch is
 *   undecidable and skipped. Depth = the largest negative distance.
 * For containment without crossing: the largest such distance over all
 * vertices of the contained object.
 *
 * Bind pose: a self part pair whose surfaces already cross in the bind pose
 * (characters are often built from overlapping meshes) is reported only when
 * its depth exceeds its bind-pose depth (same measure) by more than
 * BIND_DEPTH_TOLERANCE × the character's bind-pose box diagonal.
 *
 * Contact normal: unit vector pointing from object b into object a (the
 * direction to push a out of b): the sum over crossing triangle pairs of
 * (normal of b's triangle − normal of a's triangle), normalised (summed in
 * fixed point, so the order the pairs are found in does not matter). Contact
 * point: the crossing segments' ends reduced per Zachwieja 3.8
 * (`reduceContacts`: the area centroid of a coplanar set's hull). Neither
 * depends on how the part trees are built.
 */
import type { ImpulseDocument } from '../document/types';
import { SceneEvaluator } from '../anim';
import { Rig, computeSkinMatrices, dominantJointPerTriangle, skeletonHops } from '../skeleton';
import { CHUNK_TRIANGLES, TriangleBVH } from './bvh';
import { PartSweepAndPrune, partPairIgnored as isIgnored, settingsCollide as groupsCollide } from './sap';
import { CCD_REACH, FEATURE_EDGE_EDGE, FEATURE_VERTEX_TRIANGLE, MOTION_BOX, featureWindowInto, advanceFeature, touchWindowMotion, windowAlong, touchWindowNormals, featurePoint, firstContact, motionBoxInto } from './backtrack';
import { ccdNoContactWithin, ccdQueryFlat } from './ccd';
import { reduceContacts } from './contacts';
import { convexFromMesh, convexPolyhedraIntersect, isConvexMesh, updateConvexPlanes, type ConvexPolyhedron } from './convex';
import { orient3d } from './predicates';
import { closestPointOnMesh, closestPointOnTriangle, forEachLeafNodePair, forEachLeafNodePairSwept, forEachLeafPair, pointInParts, pointInPartsLazy, verticesInBox } from './query';
import { closestPointOnTriangleRegion, signedDistance, vertexTriangles, type VertexTriangles } from './signed';
import { lastTriTriPlanes, triTriIntersect, triTriOverlap } from './tritri';
import { hypot3 } from '../math/libm';
import { mat4Multiply } from '../math';

/** Numbers per triangle motion box (a module constant: read once, not per pair). */
const MOTION_STRIDE = MOTION_BOX;
/** Vertex and triangle indices below this get a vertex–triangle key (side, vertex, triangle) below 2⁵³. */
const VT_KEY_LIMIT = 2 ** 21;
/** Per-axis reach of the swept traversal's node windows, relative to the largest coordinate of the two trees: above the CCD's (CCD_REACH, Euclidean, relative to a feature's largest coordinate). */
const SWEPT_NODE_REACH = 1e-8;

/** The crossing list of a part pair found apart before any triangle test (shared, never written). */
const NO_CROSSINGS: number[] = [];
/** Conservative-advancement steps at a feature's first look (backtrack.ts advanceFeature). */
const CA_STEPS = 8;

/** The leaf pairs of one BVH-vs-BVH traversal (node indices, flat), collected by pushLeafPair. */
let _leafPairs = new Int32Array(1024);
let _leafPairCount = 0;
function pushLeafPair(na: number, nb: number): void {
  if (_leafPairCount + 2 > _leafPairs.length) {
    const n = new Int32Array(_leafPairs.length * 2);
    n.set(_leafPairs);
    _leafPairs = n;
  }
  _leafPairs[_leafPairCount++] = na;
  _leafPairs[_leafPairCount++] = nb;
}

export interface PartInfo {
  /** Object index in `CollisionScene.objects`. */
  object: number;
  /** Skeleton joint index for a character part, -1 for a prop. */
  joint: number;
  /** Joint name, or the prop's name. */
  name: string;
  bvh: TriangleBVH;
  /** Vertices used by the part's triangles (its box comes from these). */
  verts: Uint32Array;
  /** Pose stamp of the last BVH refit: a part is refit only when a test needs it. */
  refitStamp: number;
  /**
   * Character parts: pose stamps at which the part's vertices were skinned
   * into `positions` / `prevPositions` (parts are skinned only when a test
   * needs them; see `pose`).
   */
  skinStamp: number;
  prevSkinStamp: number;
  /**
   * Character parts: per (mesh, skin slot) influencing the part's vertices,
   * the bind-space box of those vertices: mesh, slot, centre xyz, half
   * extents xyz (8 numbers each). Props: empty.
   */
  boxEntries: Float64Array;
  /** Smallest and largest weight sum of the part's vertices (1 for normalised skins). */
  weightSumMin: number;
  weightSumMax: number;
}

export interface CollisionObject {
  kind: 'character' | 'prop';
  /** Index in doc.characters or doc.props. */
  index: number;
  id: string;
  name: string;
  positions: Float64Array;
  prevPositions: Float64Array;
  indices: Uint32Array;
  /** Part index (into `parts`) per triangle. */
  triPart: Int32Array;
  parts: number[];
  /** Shell (source mesh) index per triangle, and whether each shell is closed. */
  triShell: Int32Array;
  shellClosed: boolean[];
  /** The object's part BVHs (together they cover every triangle). */
  partBvhs: TriangleBVH[];
  /** Offset (part · 6) of each of partBvhs' boxes in the scene's current part boxes (from the joints). */
  partBoxOffsets: Int32Array;
  /** For a convex closed prop: its polyhedron (planes refreshed per frame), else null. */
  convex: ConvexPolyhedron | null;
  convexStamp: number;
  closed: boolean;
  /** Self-intersecting triangle pairs of the bind pose (key triA·T + triB, triA < triB). */
  bindPairs: Set<number>;
  parents: Int32Array | null;
  selfCollision: boolean;
  adjacentHops: number;
  groups: number;
  mask: number;
  enabled: boolean;
  rig: Rig | null;
  /**
   * Skin matrices per mesh (16 per skin slot). Meshes bound to the same skin
   * (the same joints and inverse bind matrices, bit for bit) share one array;
   * only the slots some vertex weights are computed (`skinJobs`), the only
   * ones read.
   */
  skinMats: Float64Array[];
  /** The skin matrices `pose` computes: flat (mesh, slot) pairs, one per shared array and weighted slot. */
  skinJobs: Int32Array;
  /** Skin matrices of the previous sample (for skinning prevPositions on demand). */
  prevSkinMats: Float64Array[];
  meshOffsets: number[];
  vertexStamp: Uint32Array;
  /** Vertex → incident triangles, for pseudo-normals (signed distances). */
  vt: VertexTriangles;
  /**
   * Self-collision: part pairs (min·P + max, global part indices) whose
   * surfaces already cross in the bind pose, with their bind-pose depth.
   */
  bindDepth: Map<number, number>;
  /** Bind-pose box diagonal (scene units): scale of the bind-depth tolerance. */
  size: number;
  /**
   * One closed shell, every edge used once in each direction, positive
   * volume: the pseudo-normal sign decides inside (else ray parity is used).
   */
  orientedOutward: boolean;
}

export interface FindingSide {
  /** Object id. */
  objectId: string;
  /** Object name. */
  object: string;
  /** Joint name (characters) or prop name. */
  part: string;
  /** Skeleton joint index, -1 for props. */
  joint: number;
}

export type FindingKind = 'intersect' | 'tunnel' | 'contain';

/** One part pair in contact at one frame. */
export interface FrameContact {
  a: FindingSide;
  b: FindingSide;
  kind: FindingKind;
  /** Crossing triangle pairs at the frame. */
  trianglePairs: number;
  depth: number;
  point: [number, number, number];
  normal: [number, number, number];
  /** Earliest contact since the previous frame, as a fraction in [0, 1] of the step, or null. */
  ccdTime: number | null;
  ccdPoint: [number, number, number] | null;
}

export interface Finding {
  a: FindingSide;
  b: FindingSide;
  kind: FindingKind;
  startFrame: number;
  endFrame: number;
  /** First moment of contact in frames (sub-frame), e.g. 12.37. */
  firstContactTime: number;
  /** Where the first contact happened (CCD point), or the start frame's contact point. */
  firstContactPoint: [number, number, number];
  maxDepth: number;
  maxDepthFrame: number;
  /** Reduced contact point at the start frame. */
  point: [number, number, number];
  /** Contact normal at the start frame (from b into a). */
  normal: [number, number, number];
}

export interface CheckReport {
  fps: number;
  frames: number;
  startFrame: number;
  endFrame: number;
  clip: string | null;
  findings: Finding[];
  warnings: string[];
  /** Work done, for tuning and the benchmark. */
  stats: { candidatePartPairs: number; trianglePairs: number; ccdQueries: number };
}

export interface CheckOptions {
  /** Clip id or name (default: doc.activeClip, else the first clip). */
  clip?: string;
  /** Samples per second (default: the clip's frame rate). */
  fps?: number;
  /** Continuous detection between frames (default true). */
  continuous?: boolean;
  /**
   * How the part trees are split (default: by surface area). The report does
   * not depend on it (ties of the continuous search go by triangle ids, not
   * by traversal position); tests check that.
   */
  treeSplit?: 'median' | 'sah';
}

export class CheckAbortedError extends Error {
  constructor() {
    super('check aborted');
    this.name = 'CheckAbortedError';
  }
}

/** The posed scene and the acceleration structures, reused from frame to frame. */
export class CollisionScene {
  readonly doc: ImpulseDocument;
  readonly evaluator: SceneEvaluator;
  readonly objects: CollisionObject[] = [];
  readonly parts: PartInfo[] = [];
  readonly warnings: string[] = [];
  readonly stats = { candidatePartPairs: 0, trianglePairs: 0, ccdQueries: 0 };
  /**
   * Test reference for the continuous search: every candidate pair of every
   * leaf pair gathered, then taken in the plain order (plain bound, then
   * the triangle pair's ids), each searched strictly before the earliest contact
   * found, as before the search was reordered; the default search must give
   * the same contacts (scene.test.ts).
   */
  plainOrderSearch = false;
  /**
   * Whether the discrete narrow phase and the depth may skin a part chunk by
   * chunk as their traversals and scans reach it (queryTree); false refits
   * every tested part whole at its skinned positions (the test reference:
   * the same contacts, ondemand.test.ts).
   */
  onDemandSkinning = true;
  /**
   * A part in a crossing pair at the last detect is skinned on demand again
   * only if at most this share of its vertices was skinned when it last was
   * (its depth reads the region around the crossing; beyond this share,
   * skinning it whole and refitting costs less than the on-demand boxes).
   * Any value gives the same contacts; 1 keeps every part on demand (tests).
   */
  onDemandShare = 0.5;
  /** Drop a part pair of the discrete narrow phase when no chunk box of one part meets one of the other (chunkBoxesMeet). */
  chunkPrefilter = true;
  /**
   * Whether the depth's ray-parity inside tests may decide a region from a
   * decided neighbouring region across a crossing edge (the edge's crossings
   * of each closed shell, counted exactly over the other object's triangles
   * that cross the edge's triangle: carryParity) instead of casting a ray;
   * false casts a ray per region (the test reference: the same depths,
   * depth.test.ts). Counts in depthTests.
   */
  parityCarry = true;
  /**
   * Inside tests of the depth's regions by ray parity (rays), by parity
   * carried over a crossing edge (carried) and taken from a vertex shared
   * with a region of another part of the object (shared); the depth's full
   * distance searches of candidate vertices (searches) and the candidates a
   * second walk ruled out instead (rewalked); over the scene's life.
   */
  readonly depthTests = { rays: 0, carried: 0, shared: 0, searches: 0, rewalked: 0 };
  /**
   * A walked vertex is walked again from the triangle the side's last exact
   * search found before its own search (closedSideDepth); the same depths
   * without (a switch for tests).
   */
  depthRewalk = true;
  /** Triangles per chunk of the part trees' lazy refits and on-demand skinning (bvh.ts CHUNK_TRIANGLES; set before the first pose). */
  chunkTriangles = CHUNK_TRIANGLES;
  /**
   * Whether the continuous test may skin a part's swept tree chunk by chunk
   * at both samples as its traversal reaches it (sweptOnDemand; needs
   * onDemandSkinning); false skins every part it tests whole at both samples
   * (the test reference: the same contacts, ondemand.test.ts).
   */
  sweptOnDemandSkinning = true;
  /**
   * Whether the continuous test's traversal of the swept trees skips node
   * pairs that cannot come within the CCD's reach at any time of the step
   * (forEachLeafNodePairSwept, from each node's boxes at the two samples);
   * false traverses by the boxes over the step alone (the test reference:
   * the same contacts, scene.test.ts).
   */
  sweptWindowTraversal = true;
  /**
   * Whether a vertex–triangle feature that comes up again in another
   * candidate pair of the same part pair takes the answer of its earlier
   * CCD search (when that search's limit and window start allow it) instead
   * of searching again; false searches every time (the test reference: the
   * same contacts, scene.test.ts).
   */
  ccdMemo = true;
  private readonly sap = new PartSweepAndPrune();
  private partBoxes = new Float64Array(0);
  /** Unswept part boxes at the current and the previous sample. */
  private curBoxes = new Float64Array(0);
  private prevBoxes = new Float64Array(0);
  private readonly m16 = new Float64Array(16);
  private readonly pairBuf: number[] = [];
  private frameStamp = 0;
  /** Part pairs (pa·P + pb) crossing at the previous and at the current sample. */
  private prevCrossing = new Set<number>();
  private curCrossing = new Set<number>();
  /** Whether prevPositions hold the previous sample. */
  private hasPrev = false;

  /** How the part trees are split (TriangleBVH.build); the contacts do not depend on it. */
  readonly treeSplit: 'median' | 'sah';

  constructor(doc: ImpulseDocument, clipId?: string, treeSplit: 'median' | 'sah' = TREE_SPLIT) {
    this.doc = doc;
    this.treeSplit = treeSplit;
    this.evaluator = new SceneEvaluator(doc, clipId);
    doc.characters.forEach((ch, ci) => {
      let nv = 0, nt = 0;
      const meshOffsets: number[] = [];
      for (const m of ch.meshes) {
        meshOffsets.push(nv);
        nv += m.positions.length / 3;
        nt += m.indices.length / 3;
      }
      const indices = new Uint32Array(nt * 3);
      const triJoint = new Int32Array(nt);
      const bind = new Float64Array(nv * 3);
      let t0 = 0;
      const shellsTris: Uint32Array[] = [];
      const shellClosed: boolean[] = [];
      ch.meshes.forEach((m, mi) => {
        const off = meshOffsets[mi];
        const mt = m.indices.length / 3;
        for (let i = 0; i < m.indices.length; i++) indices[t0 * 3 + i] = m.indices[i] + off;
        for (let i = 0; i < m.positions.length; i++) bind[off * 3 + i] = m.positions[i];
        triJoint.set(dominantJointPerTriangle(m), t0);
        shellsTris.push(range(t0, t0 + mt));
        shellClosed.push(isClosed(m.indices));
        t0 += mt;
      });
      const objIndex = this.objects.length;
      const obj = this.makeObject('character', ci, ch.id, ch.name, bind, indices);
      obj.parents = Int32Array.from(ch.skeleton.joints.map((j) => j.parent));
      obj.selfCollision = ch.collision.selfCollision;
      obj.adjacentHops = ch.collision.adjacentHops;
      obj.groups = ch.collision.groups;
      obj.mask = ch.collision.mask;
      obj.enabled = ch.collision.enabled;
      obj.rig = new Rig(ch);
      const lead = sharedSkins(ch.meshes);
      obj.skinMats = []; obj.prevSkinMats = [];
      for (let mi = 0; mi < ch.meshes.length; mi++) {
        const m = ch.meshes[mi];
        // the joints and inverse bind matrices checked once here (pose computes the weighted slots only)
        computeSkinMatrices(m, obj.rig.world, new Float64Array(16 * m.skinJoints.length));
        obj.skinMats.push(lead[mi] === mi ? new Float64Array(16 * m.skinJoints.length) : obj.skinMats[lead[mi]]);
        obj.prevSkinMats.push(lead[mi] === mi ? new Float64Array(16 * m.skinJoints.length) : obj.prevSkinMats[lead[mi]]);
      }
      obj.skinJobs = skinJobs(ch.meshes, lead);
      obj.meshOffsets = meshOffsets;
      // parts by dominant joint
      const byJoint = new Map<number, number[]>();
      for (let t = 0; t < nt; t++) {
        const j = triJoint[t] < 0 ? 0 : triJoint[t];
        let l = byJoint.get(j);
        if (!l) byJoint.set(j, (l = []));
        l.push(t);
      }
      for (const [j, tris] of [...byJoint.entries()].sort((a, b) => a[0] - b[0])) {
        const pi = this.parts.length;
        const verts = verticesOf(indices, tris);
        const ws = [Infinity, -Infinity];
        this.parts.push({
          object: objIndex, joint: j, name: ch.skeleton.joints[j]?.name ?? `joint${j}`,
          bvh: TriangleBVH.build(bind, indices, Uint32Array.from(tris), LEAF_SIZE, this.treeSplit), verts, refitStamp: -1,
          skinStamp: -1, prevSkinStamp: -1, boxEntries: slotBoxes(ch.meshes, meshOffsets, verts, ws), weightSumMin: ws[0], weightSumMax: ws[1],
        });
        obj.parts.push(pi);
        for (const t of tris) obj.triPart[t] = obj.parts.length - 1;
      }
      shellsTris.forEach((tris, i) => { for (const t of tris) obj.triShell[t] = i; });
      obj.shellClosed = shellClosed;
      obj.partBvhs = obj.parts.map((p) => this.parts[p].bvh);
      obj.partBoxOffsets = Int32Array.from(obj.parts, (p) => p * 6);
      obj.closed = shellClosed.every((c) => c);
      obj.orientedOutward = obj.closed && ch.meshes.length === 1 && isOrientedOutward(bind, indices);
      ch.meshes.forEach((m, i) => {
        if (!shellClosed[i]) this.warnings.push(`character "${ch.name}" mesh "${m.name}" is not closed: containment and depth cannot be decided against it`);
      });
      // bind-pose self intersections: excluded from self-collision
      if (obj.selfCollision) {
        const T = nt;
        const P = new Float64Array(9), Q = new Float64Array(9);
        for (let a = 0; a < obj.parts.length; a++) {
          for (let b = a + 1; b < obj.parts.length; b++) {
            const pa = this.parts[obj.parts[a]], pb = this.parts[obj.parts[b]];
            forEachLeafPair(pa.bvh, pb.bvh, (ta, tb) => {
              loadTri(P, bind, indices, ta);
              loadTri(Q, bind, indices, tb);
              if (triTriOverlap(P, 0, Q, 0)) obj.bindPairs.add(ta < tb ? ta * T + tb : tb * T + ta);
            });
          }
        }
        // Part pairs crossing in the bind pose, and how deep (the same measure
        // as at the frames): such a pair is reported only when it goes deeper.
        this.objects.push(obj);
        obj.positions.set(bind);
        const pairsSeen = new Set<number>();
        for (const k of obj.bindPairs) {
          const ta = Math.floor(k / T), tb = k - ta * T;
          const pa = obj.parts[obj.triPart[ta]], pb = obj.parts[obj.triPart[tb]];
          if (pa === pb) continue;
          const key = pa < pb ? pa * 65536 + pb : pb * 65536 + pa;
          if (pairsSeen.has(key)) continue;
          pairsSeen.add(key);
          obj.bindDepth.set(key, this.pairDepth(pa, pb, null));
        }
        this.objects.pop();
      }
      this.objects.push(obj);
    });
    doc.props.forEach((pr, pi) => {
      const pos = Float64Array.from(pr.mesh.positions);
      const obj = this.makeObject('prop', pi, pr.id, pr.name, pos, Uint32Array.from(pr.mesh.indices));
      obj.groups = pr.collision.groups;
      obj.mask = pr.collision.mask;
      obj.enabled = pr.collision.enabled;
      const objIndex = this.objects.length;
      const part = this.parts.length;
      this.parts.push({
        object: objIndex, joint: -1, name: pr.name, bvh: TriangleBVH.build(pos, obj.indices, undefined, LEAF_SIZE, this.treeSplit),
        verts: range(0, pos.length / 3), refitStamp: -1,
        skinStamp: -1, prevSkinStamp: -1, boxEntries: new Float64Array(0), weightSumMin: 1, weightSumMax: 1,
      });
      obj.parts.push(part);
      const closed = isClosed(pr.mesh.indices);
      obj.shellClosed = [closed];
      obj.partBvhs = [this.parts[part].bvh];
      obj.partBoxOffsets = Int32Array.of(part * 6);
      if (closed && isConvexMesh(pr.mesh.positions, pr.mesh.indices, 1e-7 * meshExtent(pr.mesh.positions))) obj.convex = convexFromMesh(obj.positions, obj.indices);
      obj.closed = closed;
      obj.orientedOutward = closed && isOrientedOutward(pos, obj.indices);
      if (!closed) this.warnings.push(`prop "${pr.name}" mesh is not closed: containment and depth cannot be decided against it`);
      this.objects.push(obj);
    });
    this.partBoxes = new Float64Array(this.parts.length * 6);
    this._tight = new Float64Array(this.parts.length * 6);
    this._tightStamp = new Int32Array(this.parts.length).fill(-1);
    this._prevTight = new Float64Array(this.parts.length * 6);
    this._prevTightStamp = new Int32Array(this.parts.length).fill(-1);
    this.curBoxes = new Float64Array(this.parts.length * 6);
    this.prevBoxes = new Float64Array(this.parts.length * 6);
  }

  private makeObject(kind: 'character' | 'prop', index: number, id: string, name: string, positions: Float64Array, indices: Uint32Array): CollisionObject {
    const nv = positions.length / 3;
    return {
      kind, index, id, name,
      positions: new Float64Array(positions.length),
      prevPositions: new Float64Array(positions.length),
      indices,
      triPart: new Int32Array(indices.length / 3),
      parts: [], triShell: new Int32Array(indices.length / 3), shellClosed: [], partBvhs: [], partBoxOffsets: new Int32Array(0), convex: null, convexStamp: -1, closed: true, bindPairs: new Set(), parents: null,
      selfCollision: false, adjacentHops: 0, groups: 1, mask: 0xffffffff, enabled: true,
      rig: null, skinMats: [], skinJobs: new Int32Array(0), prevSkinMats: [], meshOffsets: [0], vertexStamp: new Uint32Array(nv),
      vt: vertexTriangles(indices, nv), bindDepth: new Map(), size: boxDiagonal(positions), orientedOutward: false,
    };
  }

  /**
   * Poses every object at `timeSec` (the old pose becomes the previous one
   * when `keepPrevious`). Props are transformed whole. Characters are not
   * skinned here: each part's box is bounded from the joints alone (an LBS
   * vertex is a convex combination of its joints' transforms of it, so a
   * part's box lies in the union over its influencing skin slots j of
   * S_j · (bind-space box of its vertices weighted to j)); the broad phase
   * runs on those boxes and a part's vertices are skinned only when a test
   * needs them (`ensureSkinned`). `skinAll()` skins everything.
   */
  pose(timeSec: number, keepPrevious: boolean): void {
    const ev = this.evaluator;
    for (const o of this.objects) {
      if (keepPrevious) {
        const t = o.prevPositions;
        o.prevPositions = o.positions;
        o.positions = t;
        const m = o.prevSkinMats;
        o.prevSkinMats = o.skinMats;
        o.skinMats = m;
      }
      if (o.kind === 'character') {
        const ch = this.doc.characters[o.index];
        const rig = o.rig!;
        ev.characterLocalPose(o.index, timeSec, rig.local);
        rig.computeWorld();
        // computeSkinMatrices' products, once per shared array and only for weighted slots
        const W = rig.world, J = o.skinJobs, S = o.skinMats;
        for (let e = 0; e < J.length; e += 2) {
          const m = ch.meshes[J[e]], k = J[e + 1];
          mat4Multiply(S[J[e]], k * 16, W, m.skinJoints[k] * 16, m.inverseBindMatrices, k * 16);
        }
      } else {
        const src = this.doc.props[o.index].mesh.positions;
        const m = this.m16;
        ev.propWorldMatrix(o.index, timeSec, m);
        const P = o.positions;
        for (let i = 0; i < src.length; i += 3) {
          const x = src[i], y = src[i + 1], z = src[i + 2];
          P[i] = m[0] * x + m[4] * y + m[8] * z + m[12];
          P[i + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
          P[i + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
        }
      }
    }
    for (const part of this.parts) {
      part.prevSkinStamp = keepPrevious ? part.skinStamp : -1;
    }
    // the chunk boxes of this sample's skinning become the previous sample's (swapped, like the positions)
    for (const ch of this.partChunks) {
      if (ch === undefined) continue;
      if (keepPrevious) {
        const b = ch.prevBox;
        ch.prevBox = ch.box; ch.box = b;
        ch.prevStamp = ch.stamp;
      } else ch.prevStamp = -1;
      // on demand: the vertices skinned (and the set matrices and chunk boxes) at this sample become the previous sample's
      const od = ch.onDemand;
      if (od !== null && keepPrevious) {
        const v = od.pvstamp; od.pvstamp = od.vstamp; od.vstamp = v;
        const m = od.prevMats; od.prevMats = od.mats; od.mats = m;
        const x = od.prevBoxes; od.prevBoxes = od.boxes; od.boxes = x;
        const s = od.prevMatStamp; od.prevMatStamp = od.matStamp; od.matStamp = s;
      }
    }
    this.hasPrev = keepPrevious;
    if (keepPrevious) {
      // the skinned boxes of this sample become the previous sample's
      const tt = this._prevTight, ts = this._prevTightStamp;
      this._prevTight = this._tight; this._prevTightStamp = this._tightStamp;
      this._tight = tt; this._tightStamp = ts;
      const sb = this._prevSetBox, ss = this._prevSetStamp;
      this._prevSetBox = this._setBox; this._prevSetStamp = this._setStamp;
      this._setBox = sb; this._setStamp = ss;
    }
    this.frameStamp++;
    const t = this.prevCrossing;
    this.prevCrossing = keepPrevious ? this.curCrossing : new Set();
    this.curCrossing = t;
    this.curCrossing.clear();
    const tb = this.prevBoxes;
    this.prevBoxes = this.curBoxes;
    this.curBoxes = tb;
    // Body-part volumes (Macagon): a part's swept box costs a few matrix-box
    // products (characters) or one pass over its vertices (props); its BVH is
    // refit, and its vertices skinned, only if the broad phase pairs it.
    const B = this.partBoxes, C = this.curBoxes, Pv = this.prevBoxes;
    for (let p = 0; p < this.parts.length; p++) {
      const part = this.parts[p];
      const o = this.objects[part.object];
      if (o.kind === 'character') partBoxFromJoints(part, o.skinMats, C, p * 6);
      else vertsBox(part.verts, o.positions, C, p * 6);
      for (let k = 0; k < 3; k++) {
        B[p * 6 + k] = keepPrevious && Pv[p * 6 + k] < C[p * 6 + k] ? Pv[p * 6 + k] : C[p * 6 + k];
        B[p * 6 + 3 + k] = keepPrevious && Pv[p * 6 + 3 + k] > C[p * 6 + 3 + k] ? Pv[p * 6 + 3 + k] : C[p * 6 + 3 + k];
      }
    }
  }

  /** Skins part p's vertices at the current (or previous) sample if not done yet. */
  private ensureSkinned(p: number, previous: boolean): void {
    const part = this.parts[p];
    const o = this.objects[part.object];
    if (o.kind !== 'character') return;
    const want = previous ? this.frameStamp - 1 : this.frameStamp;
    if ((previous ? part.prevSkinStamp : part.skinStamp) === want) return;
    if (previous) part.prevSkinStamp = want; else part.skinStamp = want;
    if (!previous && this._tightStamp.length < this.parts.length) { this._tightStamp = new Int32Array(this.parts.length).fill(-1); this._tight = new Float64Array(this.parts.length * 6); }
    const ch = this.chunksOf(p);
    if (previous && this._prevTightStamp.length < this.parts.length) { this._prevTightStamp = new Int32Array(this.parts.length).fill(-1); this._prevTight = new Float64Array(this.parts.length * 6); }
    // the skinned part's box comes with it; its BVH chunks' boxes too when
    // they were read after the part's last skinning (a part whose tree was
    // refit then likely is again), else only when a refit asks (chunkBoxes)
    const gather = ch.used;
    ch.used = false;
    skinProgram(ch.skin, previous ? o.prevSkinMats : o.skinMats, previous ? o.prevPositions : o.positions, previous ? this._prevTight : this._tight, p * 6, gather ? ch : null, previous ? ch.prevBox : ch.box);
    if (previous) this._prevTightStamp[p] = want; else this._tightStamp[p] = this.frameStamp;
    if (gather) { if (previous) ch.prevStamp = want; else ch.stamp = want; }
  }

  /**
   * Character part p's BVH chunk boxes at the current (or previous) sample,
   * from its skinned vertices, once per pose: only parts whose tree is refit
   * need them (many are skinned only for their box, and rejected by it).
   */
  private chunkBoxes(p: number, previous: boolean): ChunkBoxes {
    this.ensureSkinned(p, previous);
    const ch = this.chunksOf(p), o = this.objects[this.parts[p].object];
    const want = previous ? this.frameStamp - 1 : this.frameStamp;
    ch.used = true;
    if (previous) {
      if (ch.prevStamp !== want) { chunkVertexBoxes(ch, o.prevPositions, ch.prevBox); ch.prevStamp = want; }
    } else if (ch.stamp !== want) { chunkVertexBoxes(ch, o.positions, ch.box); ch.stamp = want; }
    return ch;
  }

  /** Per character part: its BVH chunks per vertex (local index into part.verts) and their boxes, gathered while skinning. */
  private readonly partChunks: (ChunkBoxes | undefined)[] = [];

  private chunksOf(p: number): ChunkBoxes {
    let ch = this.partChunks[p];
    if (ch !== undefined) return ch;
    const part = this.parts[p], verts = part.verts;
    const { verts: cv, offsets: cvo } = part.bvh.lazyChunks(this.chunkTriangles);
    const nc = cvo.length - 1;
    const off = new Int32Array(verts.length + 1);
    const local = new Int32Array(cv.length);
    for (let s = 0; s < cv.length; s++) { local[s] = localIndex(verts, cv[s] / 3); off[local[s] + 1]++; }
    for (let i = 0; i < verts.length; i++) off[i + 1] += off[i];
    const fill = off.slice(0, verts.length), list = new Int32Array(cv.length);
    for (let c = 0; c < nc; c++) for (let s = cvo[c]; s < cvo[c + 1]; s++) list[fill[local[s]]++] = c;
    const o = this.objects[part.object];
    const skin = o.kind === 'character' ? makeSkinProgram(this.doc.characters[o.index].meshes, o.meshOffsets, verts) : makeSkinProgram([], [0], new Uint32Array(0));
    ch = { off, list, cv, cvo, box: new Float64Array(nc * 6), stamp: -1, prevBox: new Float64Array(nc * 6), prevStamp: -1, used: true, skin, cvLocal: local, onDemand: null };
    this.partChunks[p] = ch;
    return ch;
  }

  /**
   * Part p's box at the current sample into out[0..5] (min xyz, max xyz):
   * for character parts the conservative box from the joints (see `pose`),
   * which contains every skinned vertex of the part.
   */
  partBox(p: number, out: Float64Array): void {
    for (let k = 0; k < 6; k++) out[k] = this.curBoxes[p * 6 + k];
  }

  /** Skins every character vertex at the current sample (and the previous one when kept): for callers that read `positions` whole. */
  skinAll(): void {
    for (let p = 0; p < this.parts.length; p++) {
      this.ensureSkinned(p, false);
      if (this.hasPrev) this.ensureSkinned(p, true);
    }
  }

  /**
   * Refits part p's BVH at the current sample (once per pose). The
   * continuous test traverses a second tree of the part refit over the
   * motion since the previous sample (`sweptTree`), so the discrete tests and
   * the depth searches keep the tight boxes.
   */
  private ensureRefit(p: number): void {
    const part = this.parts[p];
    if (part.refitStamp === this.frameStamp) return;
    part.refitStamp = this.frameStamp;
    this.ensureSkinned(p, false);
    const o = this.objects[part.object];
    // lazy: chunk boxes now (gathered by the skinning when it ran for this
    // pose), a chunk's inside when a traversal first reaches it
    if (o.kind === 'character') part.bvh.refitLazyBoxes(o.positions, this.chunkBoxes(p, false).box);
    else part.bvh.refitLazy(o.positions, null, this.chunkTriangles);
  }

  /** Per part: its tree for the continuous test (built on first use) and the pose stamp of its last swept refit. */
  private readonly sweptTrees: (TriangleBVH | undefined)[] = [];
  private sweptTreeStamp = new Int32Array(0);

  /** Per part: 1 when its swept tree at pose sweptTreeStamp is skinned on demand (sweptOnDemand). */
  private sweptTreeDemand = new Uint8Array(0);

  /**
   * Whether part p's swept tree (this pose) is skinned on demand: chunk roots
   * boxed from the influence sets at both samples, a chunk's vertices skinned
   * at both samples when a traversal first expands it (refitLazyBoxesSweptOnDemand).
   * For a character part whose vertices share influence sets and that is not
   * skinned whole at both samples, when on-demand skinning is on and the part
   * is not refit whole at this pose; once its swept tree is refit at this pose,
   * the way it was refit.
   */
  private sweptOnDemand(p: number): boolean {
    if (this.sweptTreeStamp.length < this.parts.length) { this.sweptTreeStamp = new Int32Array(this.parts.length).fill(-1); this.sweptTreeDemand = new Uint8Array(this.parts.length); }
    if (this.sweptTreeStamp[p] === this.frameStamp) return this.sweptTreeDemand[p] === 1;
    const part = this.parts[p], fs = this.frameStamp;
    if (!this.sweptOnDemandSkinning || !this.onDemandSkinning || this.objects[part.object].kind !== 'character') return false;
    if (part.refitStamp === fs || (part.skinStamp === fs && part.prevSkinStamp === fs - 1)) return false;
    return !this.chunksOf(p).skin.perVertex;
  }

  /** The swept tree's callback: skins chunk c of part p at the current and the previous sample (the vertices not skinned there yet). */
  private skinChunkSwept(p: number, c: number): void {
    const part = this.parts[p], ch = this.partChunks[p]!, od = ch.onDemand!, o = this.objects[part.object], fs = this.frameStamp;
    if (part.skinStamp !== fs) skinChunkAt(ch.skin, ch, od.vstamp, od.mats, c, o.positions, fs);
    if (part.prevSkinStamp !== fs - 1) skinChunkAt(ch.skin, ch, od.pvstamp, od.prevMats, c, o.prevPositions, fs - 1);
  }

  /** Part p's tree refit over the motion since the previous sample (boxes bound both samples), once per pose. */
  private sweptTree(p: number): TriangleBVH {
    const part = this.parts[p], o = this.objects[part.object];
    let t = this.sweptTrees[p];
    // the part's tree copied: the same nodes, so pairs are visited in the same order; it keeps each sample's node boxes (forEachLeafNodePairSwept)
    if (t === undefined) { t = this.sweptTrees[p] = part.bvh.clone(); t.keepSampleBoxes(); }
    if (this.sweptOnDemand(p)) {
      if (this.sweptTreeStamp[p] !== this.frameStamp) {
        const fs = this.frameStamp;
        this.sweptTreeStamp[p] = fs;
        this.sweptTreeDemand[p] = 1;
        const ch = this.chunksOf(p), od = ch.onDemand ?? (ch.onDemand = this.makeOnDemand(p, ch));
        // the chunks' boxes from the influence sets at both samples (the current one shared with the discrete on-demand refit)
        if (od.matStamp !== fs) { onDemandChunkBoxes(ch.skin, od, o.skinMats, od.mats, od.boxes); od.matStamp = fs; }
        if (od.prevMatStamp !== fs - 1) { onDemandChunkBoxes(ch.skin, od, o.prevSkinMats, od.prevMats, od.prevBoxes); od.prevMatStamp = fs - 1; }
        t.lazyChunks(this.chunkTriangles);
        t.refitLazyBoxesSweptOnDemand(o.positions, o.prevPositions, od.boxes, od.prevBoxes, od.sweptWrite);
      }
      return t;
    }
    this.ensureSkinned(p, false);
    this.ensureSkinned(p, true);
    if (this.sweptTreeStamp[p] !== this.frameStamp) {
      this.sweptTreeStamp[p] = this.frameStamp;
      this.sweptTreeDemand[p] = 0;
      // characters: the chunk roots' boxes are the unions of the chunk boxes
      // gathered by the two skinnings (no second pass over the vertices)
      if (o.kind === 'character') {
        const ch = this.chunkBoxes(p, false);
        this.chunkBoxes(p, true);
        t.lazyChunks(this.chunkTriangles);
        t.refitLazyBoxesSwept(o.positions, o.prevPositions, ch.box, ch.prevBox);
      } else t.refitLazy(o.positions, o.prevPositions, this.chunkTriangles);
    }
    return t;
  }

  /** Refits every part of an object (before inside / distance queries against it). */
  private _rayObj: CollisionObject | null = null;
  /** Makes part i (of _rayObj's parts) current: the callback of pointInPartsLazy. */
  private readonly refitPartOfRayObj = (i: number): void => { this.queryTree(this._rayObj!.parts[i]); };

  private ensureObjectRefit(oi: number): void {
    for (const p of this.objects[oi].parts) this.ensureRefit(p);
  }

  private acceptPair = (pa: number, pb: number): boolean => {
    const A = this.parts[pa], B = this.parts[pb];
    const oa = this.objects[A.object], ob = this.objects[B.object];
    if (A.object === B.object) {
      if (!oa.selfCollision || !oa.enabled || oa.parents === null) return false;
      if (skeletonHops(oa.parents, A.joint, B.joint) <= oa.adjacentHops) return false;
    } else if (!groupsCollide(oa, ob)) return false;
    if (this.doc.check.ignore.length > 0 && isIgnored(this.doc.check.ignore, oa.id, A.joint, ob.id, B.joint)) return false;
    return true;
  };

  /**
   * Discrete check at `timeSec` and, when `continuous` and the scene was posed
   * at the previous sample, the continuous check since then. Call `pose` first.
   */
  detect(continuous: boolean): FrameContact[] {
    const pairs = this.pairBuf;
    pairs.length = 0;
    this.sap.pairs(this.partBoxes, this.parts.length, this.acceptPair, pairs);
    this.stats.candidatePartPairs += pairs.length / 2;
    const found: (FrameContact | null)[] = [];
    const crossingObjects = new Set<number>();
    this.crossLists.clear();
    this.detectStamp++;
    const crossingPairs = this.crossingBuf;
    crossingPairs.length = 0;
    for (let k = 0; k < pairs.length; k += 2) {
      const c = this.narrow(pairs[k], pairs[k + 1], continuous && this.hasPrev);
      if (c !== null) {
        found.push(c);
        if (c.kind === 'intersect') {
          crossingPairs.push(found.length - 1, pairs[k], pairs[k + 1]);
          const A = this.parts[pairs[k]].object, B = this.parts[pairs[k + 1]].object;
          crossingObjects.add(A < B ? A * 65536 + B : B * 65536 + A);
        }
      }
    }
    // Depths once every crossing part pair of the frame is known: the inside
    // regions of a part are bounded by its triangles crossing any part of the
    // other object (see closedSideDepth).
    const P = this.parts.length;
    for (let k = 0; k < crossingPairs.length; k += 3) {
      const i = crossingPairs[k], pa = crossingPairs[k + 1], pb = crossingPairs[k + 2];
      const depth = this.pairDepth(pa, pb, this.crossLists.get(pa * P + pb)!);
      const oa = this.objects[this.parts[pa].object];
      if (this.parts[pa].object === this.parts[pb].object) {
        // crossing already in the bind pose: reported only when it goes deeper
        const bd = oa.bindDepth.get(pa < pb ? pa * 65536 + pb : pb * 65536 + pa);
        if (bd !== undefined && depth <= bd + BIND_DEPTH_TOLERANCE * oa.size) { found[i] = null; continue; }
      }
      found[i]!.depth = depth;
    }
    if (this._crossedLast.length < P) this._crossedLast = new Uint8Array(P);
    this._crossedLast.fill(0);
    for (let k = 0; k < crossingPairs.length; k += 3) { this._crossedLast[crossingPairs[k + 1]] = 1; this._crossedLast[crossingPairs[k + 2]] = 1; }
    const out: FrameContact[] = [];
    for (const c of found) if (c !== null) out.push(c);
    this.containment(crossingObjects, out);
    return out;
  }

  /**
   * Crossing triangle pairs of the frame per part pair (key pa·P + pb, flat
   * [ta, tb, ...] with pa's triangle first), filled by `narrow` and on demand.
   */
  private readonly crossLists = new Map<number, number[]>();
  /** Per part pair key: its crossing list's array, kept from frame to frame (emptied when reused: no allocation per frame). */
  private readonly crossArrays = new Map<number, number[]>();

  private crossList(key: number): number[] {
    let l = this.crossArrays.get(key);
    if (l === undefined) this.crossArrays.set(key, (l = []));
    l.length = 0;
    return l;
  }
  private readonly crossingBuf: number[] = [];

  private side(p: number): FindingSide {
    const part = this.parts[p], o = this.objects[part.object];
    return { objectId: o.id, object: o.name, part: part.name, joint: part.joint };
  }

  private readonly _P = new Float64Array(9);
  private readonly _Q = new Float64Array(9);
  private readonly _seg = new Float64Array(6);
  private readonly _hit = new Float64Array(3);
  private readonly _cp = new Float64Array(3);
  private _pts = new Float64Array(3 * 256);
  /** Per triangle of a B leaf: inside A's leaf box (leaves hold at most LEAF_SIZE triangles). */
  private readonly _leafKeep = new Int32Array(64);

  private narrow(pa: number, pb: number, continuous: boolean): FrameContact | null {
    const A = this.parts[pa], B = this.parts[pb];
    const pairKey = pa * this.parts.length + pb;
    const doCcd = continuous && !this.prevCrossing.has(pairKey);
    if (doCcd ? !this.sweptTightBoxesOverlap(pa, pb) : !this.narrowBoxesOverlap(pa, pb) || (this.chunkPrefilter && !this.chunkBoxesMeet(pa, pb))) {
      // the joint-bounded boxes met, the skinned parts do not (at this sample,
      // or over the step for the continuous test), or no chunk of one meets a
      // chunk of the other: no refit needed
      this.crossLists.set(pairKey, NO_CROSSINGS);
      return null;
    }
    // the continuous test traverses the trees over the motion, the discrete one the trees at the sample
    let treeA: TriangleBVH, treeB: TriangleBVH;
    if (doCcd) { treeA = this.sweptTree(pa); treeB = this.sweptTree(pb); } else { this.queryTree(pa); this.queryTree(pb); treeA = A.bvh; treeB = B.bvh; }
    const oa = this.objects[A.object], ob = this.objects[B.object];
    const self = A.object === B.object;
    const Pa = oa.positions, Pb = ob.positions, Qa = oa.prevPositions, Qb = ob.prevPositions;
    const P = this._P, Q = this._Q;
    let best = Infinity;
    let bestTa = -1, bestTb = -1;
    const bestPoint = this._hit;
    const crossTris = this.crossList(pairKey);
    this._npts = 0;
    this._nfx = this._nfy = this._nfz = 0;
    // Continuous detection (doCcd) matters only where the parts were apart at
    // the previous sample (a new contact's first moment, or a pass-through); a
    // contact that persists needs none. All triangle pairs were apart then.
    // Fast path (Moore & Wilhelms 2.2): two convex props whose solids are
    // apart cannot have crossing triangles; only the continuous test remains.
    this.crossLists.set(pairKey, crossTris);
    if (!doCcd && oa.convex !== null && ob.convex !== null && !convexPolyhedraIntersect(this.convexOf(oa), this.convexOf(ob), this.convexTol)) return null;
    const ua = treeA.u32, ub = treeB.u32, fa = treeA.f32, fb = treeB.f32, orderA = treeA.order, orderB = treeB.order;
    const keepB = this._leafKeep, Ia = oa.indices, Ib = ob.indices;
    const cA = this.triBoxes(pa), cB = this.triBoxes(pb), tbA = cA.box, tbB = cB.box, stA = cA.stamp, stB = cB.stamp, fs = this.frameStamp;
    const mcA = doCcd ? this.motionBoxes(pa) : this.emptyMotion, mcB = doCcd ? this.motionBoxes(pb) : this.emptyMotion;
    // the overlapping leaf pairs in traversal order, then each pair's triangles
    _leafPairCount = 0;
    if (doCcd && this.sweptWindowTraversal) {
      // node pairs that cannot come within the CCD's reach at any time of the step are skipped (at the sample too: the same crossing tests)
      const fa = treeA.f32, fb = treeB.f32;
      let scale = 0;
      for (let k = 0; k < 6; k++) { const x = Math.abs(fa[k]), y = Math.abs(fb[k]); if (x > scale) scale = x; if (y > scale) scale = y; }
      forEachLeafNodePairSwept(treeA, treeB, SWEPT_NODE_REACH * scale + Number.MIN_VALUE, pushLeafPair);
    } else forEachLeafNodePair(treeA, treeB, pushLeafPair);
    const lp = _leafPairs, nlp = _leafPairCount;
    let tested = 0;
    for (let q = 0; q < nlp; q += 2) {
      const na = lp[q], nb = lp[q + 1];
      const pa = na * 8, pb = nb * 8;
      const sa = ua[pa + 6], ea = sa + (ua[pa + 7] & 0x7fffffff), sb = ub[pb + 6], eb = sb + (ub[pb + 7] & 0x7fffffff);
      if (doCcd) {
        // swept: the trees bound both samples. Here only the crossing test at
        // the sample (a triangle pair crosses only where the boxes at the
        // sample meet, so the same pairs in the same order as a traversal of
        // the trees at the sample) and the leaf pair's bound; its candidate
        // triangle pairs are gathered only when the bound could precede the
        // earliest contact found (below). Each leaf's triangle boxes (over
        // the motion, at the sample), motion boxes and their leaf summary
        // are computed once per pose (by slot) and shared by its leaf pairs.
        if (mcA.stamp[na] !== fs) { mcA.stamp[na] = fs; motionLeaf(Qa, Pa, Ia, orderA, sa, ea, mcA, na); }
        if (mcB.stamp[nb] !== fs) { mcB.stamp[nb] = fs; motionLeaf(Qb, Pb, Ib, orderB, sb, eb, mcB, nb); }
        const bxA = mcA.box, bxB = mcB.box, lfA = mcA.leaf, lfB = mcB.leaf, la = na * LEAF_SUMMARY, lb = nb * LEAF_SUMMARY;
        if (!(lfB[lb + 13] > lfA[la + 16] || lfB[lb + 14] > lfA[la + 17] || lfB[lb + 15] > lfA[la + 18] || lfA[la + 13] > lfB[lb + 16] || lfA[la + 14] > lfB[lb + 17] || lfA[la + 15] > lfB[lb + 18])) {
          let nk = 0;
          for (let j = sb; j < eb; j++) if (boxMeetsBox(bxB, j * 6, lfA, la + 13)) keepB[nk++] = j;
          if (nk > 0) {
            for (let i = sa; i < ea; i++) {
              const ia = i * 6;
              if (!boxMeetsBox(bxA, ia, lfB, lb + 13)) continue;
              const ta = orderA[i];
              for (let m = 0; m < nk; m++) {
                const j = keepB[m], tb = orderB[j];
                if (self && sharesVertex(Ia, ta, tb)) continue;
                tested++;
                const o = j * 6;
                if (!(bxB[o] > bxA[ia + 3] || bxB[o + 1] > bxA[ia + 4] || bxB[o + 2] > bxA[ia + 5] || bxA[ia] > bxB[o + 3] || bxA[ia + 1] > bxB[o + 4] || bxA[ia + 2] > bxB[o + 5])) this.crossTest(Pa, Ia, ta, Pb, Ib, tb, crossTris);
              }
            }
          }
        }
        // no triangle pair of the leaves can touch before the step's end
        const lbl = leafEarliestTouch(lfA, la, lfB, lb);
        if (lbl <= 1) this.addLeafPair(q, lbl);
        continue;
      }
      // discrete only: a triangle outside the other leaf's box meets none of
      // its triangles; each leaf's triangle boxes are computed once per pose
      // (by slot, so a leaf's are contiguous) and shared by its leaf pairs
      if (stB[nb] !== fs) { stB[nb] = fs; for (let j = sb; j < eb; j++) triBoxInto(Pb, Ib, orderB[j], tbB, j * 6); }
      // each leaf's node box read once for its filter (not per triangle)
      let nk = 0;
      const nlx = fa[pa], nly = fa[pa + 1], nlz = fa[pa + 2], nhx = fa[pa + 3], nhy = fa[pa + 4], nhz = fa[pa + 5];
      for (let j = sb, o = sb * 6; j < eb; j++, o += 6) {
        if (!(tbB[o] > nhx || tbB[o + 1] > nhy || tbB[o + 2] > nhz || tbB[o + 3] < nlx || tbB[o + 4] < nly || tbB[o + 5] < nlz)) keepB[nk++] = j;
      }
      if (nk === 0) continue;
      if (stA[na] !== fs) { stA[na] = fs; for (let i = sa; i < ea; i++) triBoxInto(Pa, Ia, orderA[i], tbA, i * 6); }
      const mlx = fb[pb], mly = fb[pb + 1], mlz = fb[pb + 2], mhx = fb[pb + 3], mhy = fb[pb + 4], mhz = fb[pb + 5];
      for (let i = sa; i < ea; i++) {
        const ia = i * 6;
        if (tbA[ia] > mhx || tbA[ia + 1] > mhy || tbA[ia + 2] > mhz || tbA[ia + 3] < mlx || tbA[ia + 4] < mly || tbA[ia + 5] < mlz) continue;
        const ta = orderA[i];
        const alx = tbA[ia], aly = tbA[ia + 1], alz = tbA[ia + 2], ahx = tbA[ia + 3], ahy = tbA[ia + 4], ahz = tbA[ia + 5];
        // A's triangle copied into _P once, at its first pair whose boxes meet (not once per pair)
        let loaded = false;
        for (let m = 0; m < nk; m++) {
          const j = keepB[m], tb = orderB[j];
          if (self && sharesVertex(Ia, ta, tb)) continue;
          tested++;
          const o = j * 6;
          if (tbB[o] > ahx || tbB[o + 1] > ahy || tbB[o + 2] > ahz || alx > tbB[o + 3] || aly > tbB[o + 4] || alz > tbB[o + 5]) continue;
          if (!loaded) { loadTri(P, Pa, Ia, ta); loaded = true; }
          this.crossTestLoaded(ta, Pb, Ib, tb, crossTris);
        }
      }
    }
    this.stats.trianglePairs += tested;
    // the contact normal over the crossing pairs, summed in fixed point (steps of 2⁻³², every
    // partial sum an exact integer in a double below 2⁵³ for up to 2¹⁹ pairs): the same bits in
    // whatever order a traversal finds the pairs, also where opposite faces all but cancel (a box
    // through a thin floor), where a floating-point sum's direction is its rounding
    // (each crossing pair's share is added by crossTestLoaded as the pair is found)
    const crossings = crossTris.length >> 1, npts = this._npts;
    const nx = this._nfx, ny = this._nfy, nz = this._nfz;
    if (doCcd && this._nLeaf > 0 && this.plainOrderSearch) {
      this._nCand = 0;
      this._candCount = 0;
      for (let k = 0; k < this._nLeaf; k++) {
        const q = this._leafQ[k];
        this.gatherCandidates(lp[q], lp[q + 1], treeA, treeB, mcA, mcB, Qa, Pa, Ia, Qb, Pb, Ib, self, Infinity);
      }
      const n = this._candCount, lbs = this._candLb, ords = this._candOrd, r = this._fc;
      const byPlain = Array.from({ length: n }, (_, k) => k).sort((x, y) => lbs[x] - lbs[y] || ords[x] - ords[y]);
      for (const i of byPlain) {
        if (lbs[i] >= best) break;
        if (touchWindowMotion(mcA.motion, this._candSlots[i * 2] * MOTION_STRIDE, mcB.motion, this._candSlots[i * 2 + 1] * MOTION_STRIDE) >= best) continue;
        const ta = this._candTris[i * 2], tb = this._candTris[i * 2 + 1];
        this._nFeat = 0;
        this.addFeatures(oa, ta, ob, tb);
        this.stats.ccdQueries += firstContact(this._feat, this._featKind, this._nFeat, r, best);
        if (r[0] < best) {
          best = r[0];
          bestTa = ta; bestTb = tb;
          featurePoint(this._feat, r[3], this._featKind[r[3]], best, r[1], r[2], bestPoint);
        }
      }
      this._nCand = 0;
      this._candCount = 0;
      this._nLeaf = 0;
    }
    if (doCcd && this._nLeaf > 0) {
      // Micro-backtracking (Zachwieja 3.5): the earliest contact over the
      // features of the candidate triangle pairs. The result is that of
      // taking the pairs in order of their plain bound (ties by the
      // triangle pair's ids, A's triangle then B's, never by a position in
      // the traversal, so the result does not depend on the trees' shape:
      // the "canonical" order), each pair's features in order of
      // their own plain bound (ties in feature order), and keeping the first
      // that reaches the earliest CCD time. They are searched instead
      // best-first over three levels in one time order: leaf pairs (their
      // candidates gathered when their bound comes up), candidate pairs
      // (their window taken when their plain bound comes up, their features
      // bounded when the later of the two does) and features (searched by
      // the CCD, confined to the time before the earliest contact found, when
      // their bound comes up), so a feature is searched only once every
      // bound below its own has been looked at: fewer searches find a
      // contact that a later one supersedes. A feature canonically before the
      // one holding the earliest contact found may still take it at the same
      // time, so its search includes that time, a later one's does not.
      // Whatever is left once every bound lies after the earliest contact
      // found is never searched.
      const r = this._fc;
      this._memoKey.clear();
      let nl = this._nLeaf;
      for (let k = (nl >> 1) - 1; k >= 0; k--) siftDownMin(this._leafHeap, nl, k, this._leafLb);
      this._nCand = 0;
      this._candCount = 0;
      let nf = 0;
      this._gCount = 0;
      // the canonical position of the holder of the earliest contact: its pair's plain bound and triangle ids (_candOrd), its feature's plain bound and index
      let winLb = Infinity, winOrd = Infinity, winFlb = Infinity, winFi = Infinity;
      for (;;) {
        const lk = nl > 0 ? this._leafLb[this._leafHeap[0]] : Infinity;
        const ck = this._nCand > 0 ? this._candKey[this._candHeap[0]] : Infinity;
        const fk = nf > 0 ? this._gKey[this._gHeap[0]] : Infinity;
        if (nl === 0 && this._nCand === 0 && nf === 0) break;
        if (lk <= ck && lk <= fk) {
          // a leaf pair: its candidates (or, at the first look, the leaves' window as a tighter bound)
          if (lk > best) break; // every bound left lies after the contact found
          const lheap = this._leafHeap, lkey = this._leafLb;
          const lq = lheap[0];
          lheap[0] = lheap[--nl];
          siftDownMin(lheap, nl, 0, lkey);
          const q = this._leafQ[lq];
          if (this._leafRef[lq] === 0) {
            let w = touchWindowMotion(mcA.leaf, lp[q] * LEAF_SUMMARY, mcB.leaf, lp[q + 1] * LEAF_SUMMARY);
            if (w > best || w === Infinity) continue;
            // and along each leaf's normal (its triangles' summed cross products at the start)
            const wn = leafNormalsWindow(lp[q], lp[q + 1], treeA, treeB, mcA, mcB, Qa, Pa, Ia, Qb, Pb, Ib, this.frameStamp);
            if (wn > best || wn === Infinity) continue;
            if (wn > w) w = wn;
            this._leafRef[lq] = 1;
            if (w > lk) { lkey[lq] = w; siftUpMin(lheap, nl++, lq, lkey); continue; }
          }
          this.gatherCandidates(lp[q], lp[q + 1], treeA, treeB, mcA, mcB, Qa, Pa, Ia, Qb, Pb, Ib, self, best);
          continue;
        }
        if (ck <= fk) {
          if (ck > best) break;
          const heap = this._candHeap, key = this._candKey, lbs = this._candLb, ords = this._candOrd;
          const i = heap[0];
          const m = --this._nCand;
          heap[0] = heap[m];
          siftDownMin(heap, m, 0, key);
          const before = lbs[i] < winLb || (lbs[i] === winLb && ords[i] < winOrd);
          if (!before && ck >= best) continue;
          const sl = this._candSlots;
          if (this._candRef[i] === 0) {
            // first look: its window (and along the two triangles' normals; Infinity when empty)
            this._candRef[i] = 1;
            const w = touchWindowNormals(mcA.motion, sl[i * 2] * MOTION_STRIDE, mcB.motion, sl[i * 2 + 1] * MOTION_STRIDE, Qa, Pa, Ia, this._candTris[i * 2], Qb, Pb, Ib, this._candTris[i * 2 + 1]);
            if (w === Infinity || w > best || (!before && w >= best)) continue;
            if (w > ck) { key[i] = w; siftUpMin(heap, this._nCand++, i, key); continue; }
          }
          // its features, each with its bounds, into the feature heap
          const g0 = this._gCount;
          this.growFeatures(g0 + 15);
          const g1 = this.addFeaturesInto(this._gFeat, this._gKind, g0, oa, this._candTris[i * 2], ob, this._candTris[i * 2 + 1], this._gVt);
          const gw = this._gWin, gkey = this._gKey;
          for (let g = g0; g < g1; g++) {
            featureWindowInto(this._gFeat, g, this._gKind[g], gw, g * 3);
            const t = gw[g * 3], wl = gw[g * 3 + 1];
            if (t > 1 || wl === Infinity) continue; // cannot touch within the step
            const kk = t > wl ? t : wl;
            if (kk > best || (!before && kk >= best)) continue;
            gkey[g] = kk;
            this._gRef[g] = 0;
            this._gCand[g] = i;
            this._gIdx[g] = g - g0;
            siftUpMin(this._gHeap, nf++, g, gkey);
          }
          this._gCount = g1;
          continue;
        }
        // a feature: its CCD search before the earliest contact found (up to and including it when canonically before its holder)
        if (fk > best) break;
        const gheap = this._gHeap, gkey = this._gKey;
        const g = gheap[0];
        gheap[0] = gheap[--nf];
        siftDownMin(gheap, nf, 0, gkey);
        const i = this._gCand[g], cl = this._candLb[i], co = this._candOrd[i];
        const gw = this._gWin, flb = gw[g * 3], fi = this._gIdx[g];
        const before = cl < winLb || (cl === winLb && (co < winOrd || (co === winOrd && (flb < winFlb || (flb === winFlb && fi < winFi)))));
        if (!before && fk >= best) continue;
        const limit = before ? nextUp(best) : best;
        const vt = this._gKind[g] === FEATURE_VERTEX_TRIANGLE, wh = gw[g * 3 + 2];
        let wl = gw[g * 3 + 1];
        if (this._gRef[g] === 0) {
          // first look: conservative advancement from the window's start (no contact before it) as a tighter bound
          this._gRef[g] = 1;
          wl = gw[g * 3 + 1] = advanceFeature(this._gFeat, g, this._gKind[g], wl, wh < limit ? wh : limit, CA_STEPS);
          if (wl >= limit || wl > wh) continue;
          if (wl > fk) { gkey[g] = wl; siftUpMin(gheap, nf++, g, gkey); continue; }
        }
        // nor one whose coplanarity determinant keeps its sign on its window (up to the limit)
        if (ccdNoContactWithin(vt, this._gFeat, g * 24, wl, wh < limit ? wh : limit)) continue;
        // a vertex–triangle feature searched before in this part pair with a limit at least this one and a window starting no later: its answer
        // (the same 24 numbers, the same bisection: the earliest reported box before the limit does not depend on the limit or the window start)
        const vk = this.ccdMemo && vt ? this._gVt[g] : -1;
        const ms = vk >= 0 ? this._memoKey.get(vk) : undefined;
        let hit: boolean;
        if (ms !== undefined && limit <= this._memo[ms * 5 + 3] && wl >= this._memo[ms * 5 + 4]) {
          const M = this._memo, t = M[ms * 5];
          hit = t < limit; // NaN (no contact before its limit) is not
          if (hit) { r[0] = t; r[1] = M[ms * 5 + 1]; r[2] = M[ms * 5 + 2]; }
        } else {
          this.stats.ccdQueries++;
          hit = ccdQueryFlat(vt, this._gFeat, g * 24, r, 0, 0, 100_000, limit, wl, wh);
          if (vk >= 0) {
            let slot = ms;
            if (slot === undefined) {
              slot = this._memoKey.size;
              if ((slot + 1) * 5 > this._memo.length) { const nm = new Float64Array(this._memo.length * 2); nm.set(this._memo); this._memo = nm; }
              this._memoKey.set(vk, slot);
            }
            const M = this._memo;
            M[slot * 5] = hit ? r[0] : NaN; M[slot * 5 + 1] = r[1]; M[slot * 5 + 2] = r[2]; M[slot * 5 + 3] = limit; M[slot * 5 + 4] = wl;
          }
        }
        if (hit) {
          best = r[0];
          winLb = cl; winOrd = co; winFlb = flb; winFi = fi;
          bestTa = this._candTris[i * 2]; bestTb = this._candTris[i * 2 + 1];
          featurePoint(this._gFeat, g, this._gKind[g], best, r[1], r[2], bestPoint);
        }
      }
      this._nCand = 0;
      this._candCount = 0;
      this._nLeaf = 0;
      this._gCount = 0;
    }
    if (crossings > 0) this.curCrossing.add(pairKey);
    if (crossings === 0 && best === Infinity) return null;
    const point: [number, number, number] = [0, 0, 0];
    const normal: [number, number, number] = [0, 0, 0];
    let depth = 0;
    if (crossings > 0) {
      reduceContacts(this._pts, npts, point);
      const l = hypot3(nx, ny, nz);
      if (l > 0) { normal[0] = nx / l; normal[1] = ny / l; normal[2] = nz / l; }
      // depth: set by detect once every crossing pair of the frame is known
    } else {
      point[0] = bestPoint[0]; point[1] = bestPoint[1]; point[2] = bestPoint[2];
      // normal of the first contact: the two triangles at the contact time
      const t = best;
      for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) {
        const va = oa.indices[bestTa * 3 + j] * 3 + k, vb = ob.indices[bestTb * 3 + j] * 3 + k;
        P[j * 3 + k] = Qa[va] + t * (Pa[va] - Qa[va]);
        Q[j * 3 + k] = Qb[vb] + t * (Pb[vb] - Qb[vb]);
      }
      accumulateNormal(P, Q, this._cp);
      const l = hypot3(this._cp[0], this._cp[1], this._cp[2]);
      if (l > 0) { normal[0] = this._cp[0] / l; normal[1] = this._cp[1] / l; normal[2] = this._cp[2] / l; }
    }
    return {
      a: this.side(pa), b: this.side(pb),
      kind: crossings > 0 ? 'intersect' : 'tunnel',
      trianglePairs: crossings, depth, point, normal,
      ccdTime: best === Infinity ? null : best,
      ccdPoint: best === Infinity ? null : [bestPoint[0], bestPoint[1], bestPoint[2]],
    };
  }

  private _npts = 0;

  /**
   * The exact test of a triangle pair whose boxes meet: when they cross, the
   * pair goes to `crossTris` and the ends of their crossing segment to _pts.
   */
  private crossTest(Pa: Float64Array, Ia: Uint32Array, ta: number, Pb: Float64Array, Ib: Uint32Array, tb: number, crossTris: number[]): void {
    loadTri(this._P, Pa, Ia, ta);
    this.crossTestLoaded(ta, Pb, Ib, tb, crossTris);
  }

  /** crossTest with A's triangle ta already in _P (the discrete leaf-pair loop copies it once for all of its pairs). */
  private crossTestLoaded(ta: number, Pb: Float64Array, Ib: Uint32Array, tb: number, crossTris: number[]): void {
    const P = this._P, Q = this._Q, seg = this._seg;
    loadTri(Q, Pb, Ib, tb);
    if (!triTriIntersect(P, 0, Q, 0, seg, 0)) return;
    let npts = this._npts;
    if (npts + 2 > this._pts.length / 3) {
      const np = new Float64Array(this._pts.length * 2);
      np.set(this._pts);
      this._pts = np;
    }
    const pts = this._pts;
    for (let k = 0; k < 6; k++) pts[npts * 3 + k] = seg[k];
    this._npts = npts + 2;
    crossTris.push(ta, tb);
    // the pair's share of the contact normal in fixed point: accumulateNormal's arithmetic on the
    // normals the exact test just took (its planes are the same cross products: the same bits)
    const qn = _triPlanes.q, pn = _triPlanes.p;
    let cx = 0, cy = 0, cz = 0;
    for (let s = 0; s < 2; s++) {
      const n = s === 0 ? qn : pn, sign = s === 0 ? 1 : -1;
      const nx = n[0], ny = n[1], nz = n[2];
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      if (l === 0) continue;
      cx += sign * nx / l; cy += sign * ny / l; cz += sign * nz / l;
    }
    this._nfx += Math.round(cx * NORMAL_FIXED); this._nfy += Math.round(cy * NORMAL_FIXED); this._nfz += Math.round(cz * NORMAL_FIXED);
  }
  /** The fixed-point sum of the crossing pairs' normals of the part pair being tested (crossTestLoaded). */
  private _nfx = 0;
  private _nfy = 0;
  private _nfz = 0;

  private _tightStamp = new Int32Array(0);
  private _tight = new Float64Array(0);

  /** Per part: its triangles' boxes at the current pose by slot (part.bvh.order), valid per leaf node where stamp[leaf] is the pose stamp. */
  private readonly partTriBoxes: ({ box: Float64Array; stamp: Int32Array } | undefined)[] = [];

  /** Per part: its triangles' boxes over the motion and at the sample, and motion boxes, by slot (part.bvh.order), valid per leaf node where stamp[leaf] is the pose stamp. */
  private readonly partMotionBoxes: (MotionCache | undefined)[] = [];
  private readonly emptyMotion: MotionCache = { swept: new Float64Array(0), box: new Float64Array(0), motion: new Float64Array(0), leaf: new Float64Array(0), stamp: new Int32Array(0), sweptStamp: new Int32Array(0), normalStamp: new Int32Array(0) };

  private motionBoxes(p: number): MotionCache {
    let c = this.partMotionBoxes[p];
    if (c === undefined) {
      const bvh = this.parts[p].bvh, n = bvh.order.length;
      c = this.partMotionBoxes[p] = { swept: new Float64Array(n * 6), box: new Float64Array(n * 6), motion: new Float64Array(n * MOTION_STRIDE), leaf: new Float64Array(bvh.nodeCount * LEAF_SUMMARY), stamp: new Int32Array(bvh.nodeCount).fill(-1), sweptStamp: new Int32Array(bvh.nodeCount).fill(-1), normalStamp: new Int32Array(bvh.nodeCount).fill(-1) };
    }
    return c;
  }

  private triBoxes(p: number): { box: Float64Array; stamp: Int32Array } {
    let c = this.partTriBoxes[p];
    if (c === undefined) {
      const bvh = this.parts[p].bvh;
      c = this.partTriBoxes[p] = { box: new Float64Array(bvh.order.length * 6), stamp: new Int32Array(bvh.nodeCount).fill(-1) };
    }
    return c;
  }

  /**
   * Whether part p's tree for the discrete queries (narrow phase, depth) is
   * skinned on demand (chunk by chunk as a traversal reaches it,
   * refitLazyBoxesOnDemand): a character part not skinned nor refit at this
   * pose, whose vertices share influence sets.
   */
  private onDemandCandidate(p: number): boolean {
    const part = this.parts[p];
    if (part.refitStamp === this.frameStamp || part.skinStamp === this.frameStamp) return false;
    if (!this.onDemandSkinning || this.objects[part.object].kind !== 'character') return false;
    const ch = this.partChunks[p] ?? this.chunksOf(p);
    if (ch.skin.perVertex) return false;
    // in a crossing pair at the last detect, and most of it skinned when last on demand: whole is cheaper
    const od = ch.onDemand;
    return !(this._crossedLast.length > p && this._crossedLast[p] === 1 && od !== null && od.lastShare > this.onDemandShare);
  }

  /** Parts in a crossing pair at the last detect (any pose). */
  private _crossedLast = new Uint8Array(0);

  /**
   * Part p's tree for the discrete queries at the current sample (narrow
   * phase, crossing lists, inside tests and distance searches of the depth):
   * refit at the skinned positions (ensureRefit) or, for an on-demand
   * candidate, its chunk roots boxed from the influence sets (each set's
   * blended matrix over the bind box of the chunk's vertices in it) and each
   * chunk skinned when a traversal first expands it. A query's answer is the
   * same either way: every node box contains its triangles, and the
   * triangles a query reads are those of the chunks it expanded (the narrow
   * phase tests the same triangle pairs in the same order: a pair is tested
   * where the triangles' own boxes meet). Code that reads a part's positions
   * outside a traversal skins what it reads first (demandOf, skinLocal,
   * triCurrent).
   */
  private queryTree(p: number): void {
    const part = this.parts[p];
    if (part.refitStamp === this.frameStamp) return;
    const ch = this.chunksOf(p);
    if (ch.onDemand !== null && ch.onDemand.stamp === this.frameStamp) return;
    if (!this.onDemandCandidate(p)) { this.ensureRefit(p); return; }
    const od = ch.onDemand ?? (ch.onDemand = this.makeOnDemand(p, ch));
    if (od.stamp >= 0) od.lastShare = od.count / od.vstamp.length;
    od.count = 0;
    od.stamp = this.frameStamp;
    const o = this.objects[part.object];
    // (the same numbers when chunkBoxesMeet or the continuous test took them at this pose)
    if (od.matStamp !== this.frameStamp) onDemandChunkBoxes(ch.skin, od, o.skinMats, od.mats, od.boxes);
    od.matStamp = this.frameStamp;
    part.bvh.refitLazyBoxesOnDemand(o.positions, od.boxes, od.write);
  }

  /**
   * Whether some chunk of character part pa meets some chunk of part pb at
   * the current sample, by the chunk boxes the discrete traversal's trees get
   * (queryTree): from the influence sets for a part on demand
   * (onDemandChunkBoxes, kept for its refit), else of the skinned vertices
   * (chunkBoxes, which its refit reads). Each holds its chunk's vertices, so
   * where no two meet no two triangles' boxes do and the narrow phase would
   * test no triangle pair: the pair is dropped before its trees are set up
   * or traversed. True for props (not tested).
   */
  private chunkBoxesMeet(pa: number, pb: number): boolean {
    const A = this.chunkBoxesAtSample(pa), B = this.chunkBoxesAtSample(pb);
    if (A === null || B === null) return true;
    const U = this._chunkUnion;
    unionOfBoxes(A, U, 0);
    unionOfBoxes(B, U, 6);
    // B's chunks that meet A's union, then A's chunks that meet B's union against those
    if (this._chunkKeep.length < B.length / 6) this._chunkKeep = new Int32Array(B.length / 6);
    const keep = this._chunkKeep;
    let nk = 0;
    for (let j = 0; j < B.length; j += 6) if (boxesOverlap(B, j, U, 0)) keep[nk++] = j;
    if (nk > 0) {
      for (let i = 0; i < A.length; i += 6) {
        if (!boxesOverlap(A, i, U, 6)) continue;
        for (let m = 0; m < nk; m++) if (boxesOverlap(A, i, B, keep[m])) return true;
      }
    }
    this._chunkDrops++;
    return false;
  }

  /** Part pairs dropped by chunkBoxesMeet (for tests). */
  private _chunkDrops = 0;

  private _chunkUnion = new Float64Array(12);
  private _chunkKeep = new Int32Array(0);

  /** Character part p's chunk boxes as queryTree's refit will take them at this pose (see chunkBoxesMeet); null for a prop. */
  private chunkBoxesAtSample(p: number): Float64Array | null {
    const part = this.parts[p], fs = this.frameStamp, o = this.objects[part.object];
    if (o.kind !== 'character') return null;
    const ch = this.chunksOf(p);
    if (part.refitStamp === fs) return this.chunkBoxes(p, false).box;
    if (ch.onDemand !== null && ch.onDemand.stamp === fs) return ch.onDemand.boxes;
    if (!this.onDemandCandidate(p)) return this.chunkBoxes(p, false).box;
    const od = ch.onDemand ?? (ch.onDemand = this.makeOnDemand(p, ch));
    if (od.matStamp !== fs) { onDemandChunkBoxes(ch.skin, od, o.skinMats, od.mats, od.boxes); od.matStamp = fs; }
    return od.boxes;
  }

  private makeOnDemand(p: number, ch: ChunkBoxes): OnDemandSkin {
    const sp = ch.skin, cvo = ch.cvo, L = ch.cvLocal, nc = cvo.length - 1;
    const off = new Int32Array(nc + 1), sets: number[] = [], bind: number[] = [];
    const at = new Map<number, number>();
    for (let c = 0; c < nc; c++) {
      at.clear();
      for (let q = cvo[c]; q < cvo[c + 1]; q++) {
        const i = L[q], st = sp.set[i];
        let e = at.get(st);
        if (e === undefined) { at.set(st, (e = sets.length)); sets.push(st); bind.push(Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity); }
        for (let k = 0; k < 3; k++) {
          const x = sp.bind[i * 3 + k];
          if (x < bind[e * 6 + k]) bind[e * 6 + k] = x;
          if (x > bind[e * 6 + 3 + k]) bind[e * 6 + 3 + k] = x;
        }
      }
      off[c + 1] = sets.length;
    }
    const od: OnDemandSkin = {
      off, set: Int32Array.from(sets), bind: Float64Array.from(bind), mats: new Float64Array(sp.mesh.length * 12), boxes: new Float64Array(nc * 6), pad: new Float64Array(sp.mesh.length * 3),
      vstamp: new Int32Array(sp.set.length).fill(-1), stamp: -1,
      write: (c: number): void => this.skinChunkOnDemand(p, c),
      ebox: new Float64Array(nc * 6), estamp: new Int32Array(nc).fill(-1), count: 0, lastShare: 0,
      matStamp: -1, prevMats: new Float64Array(sp.mesh.length * 12), prevBoxes: new Float64Array(nc * 6), prevMatStamp: -1,
      pvstamp: new Int32Array(sp.set.length).fill(-1),
      sweptWrite: (c: number): void => this.skinChunkSwept(p, c),
    };
    return od;
  }

  /** Part p's on-demand skinning when its positions are written on demand at this pose (its tree on demand, the part not skinned whole), else null. */
  private demandOf(p: number): OnDemandSkin | null {
    const part = this.parts[p], fs = this.frameStamp;
    if (part.skinStamp === fs) return null;
    const ch = this.partChunks[p];
    const od = ch === undefined ? null : ch.onDemand;
    return od !== null && od.stamp === fs ? od : null;
  }

  /** Skins chunk c of on-demand part p (the vertices not skinned yet) and boxes its vertices exactly into od.ebox, once per pose. */
  private chunkExact(p: number, od: OnDemandSkin, c: number): void {
    const fs = this.frameStamp;
    if (od.estamp[c] === fs) return;
    od.estamp[c] = fs;
    const ch = this.partChunks[p]!, P = this.objects[this.parts[p].object].positions;
    skinChunk(ch.skin, ch, od, c, P, fs);
    chunkVertexBox(ch, c, P, od.ebox);
  }

  /**
   * The box of part p's skinned vertices at the current sample (the same
   * numbers as tightBoxInto: each bound is one vertex's coordinate) into
   * out[0..5]. For a part skinned on demand, without skinning it whole: per
   * bound, branch and bound over its chunks, the chunk whose box from the
   * influence sets (which contains its vertices) reaches furthest skinned
   * and boxed first, until no unskinned chunk's box reaches beyond the
   * bound found; cached for the pose like a skinned box.
   */
  private exactBox(p: number, out: Float64Array): void {
    if (this._tightStamp.length < this.parts.length) { this._tightStamp = new Int32Array(this.parts.length).fill(-1); this._tight = new Float64Array(this.parts.length * 6); }
    const fs = this.frameStamp, T = this._tight, b = p * 6;
    if (this._tightStamp[p] !== fs) {
      this.queryTree(p);
      const od = this.demandOf(p);
      if (od === null) this.tightBox(p);
      else {
        const L = od.boxes, E = od.ebox, es = od.estamp, nc = es.length;
        // first per bound the chunk whose box reaches furthest, then every
        // chunk whose box still reaches beyond a bound found so far
        for (let k = 0; k < 6; k++) {
          let pick = 0;
          for (let c = 1; c < nc; c++) if (k < 3 ? L[c * 6 + k] < L[pick * 6 + k] : L[c * 6 + k] > L[pick * 6 + k]) pick = c;
          this.chunkExact(p, od, pick);
        }
        let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
        for (let c = 0; c < nc; c++) {
          if (es[c] !== fs) continue;
          const o = c * 6;
          if (E[o] < lx) lx = E[o]; if (E[o + 1] < ly) ly = E[o + 1]; if (E[o + 2] < lz) lz = E[o + 2];
          if (E[o + 3] > hx) hx = E[o + 3]; if (E[o + 4] > hy) hy = E[o + 4]; if (E[o + 5] > hz) hz = E[o + 5];
        }
        for (let c = 0; c < nc; c++) {
          const o = c * 6;
          if (es[c] === fs || !(L[o] < lx || L[o + 1] < ly || L[o + 2] < lz || L[o + 3] > hx || L[o + 4] > hy || L[o + 5] > hz)) continue;
          this.chunkExact(p, od, c);
          if (E[o] < lx) lx = E[o]; if (E[o + 1] < ly) ly = E[o + 1]; if (E[o + 2] < lz) lz = E[o + 2];
          if (E[o + 3] > hx) hx = E[o + 3]; if (E[o + 4] > hy) hy = E[o + 4]; if (E[o + 5] > hz) hz = E[o + 5];
        }
        T[b] = lx; T[b + 1] = ly; T[b + 2] = lz; T[b + 3] = hx; T[b + 4] = hy; T[b + 5] = hz;
        this._tightStamp[p] = fs;
      }
    }
    for (let k = 0; k < 6; k++) out[k] = T[b + k];
  }

  /**
   * Whether triangle t of object o is at its current position: its part
   * skinned at this pose, or skinned on demand (then its three vertices are
   * skinned now if not yet). False for a triangle of a part not skinned at
   * all at this pose.
   */
  private triCurrent(o: CollisionObject, t: number): boolean {
    const q = o.parts[o.triPart[t]], fs = this.frameStamp;
    if (this.parts[q].skinStamp === fs) return true;
    const od = this.demandOf(q);
    if (od === null) return false;
    const topo = this.topoOf(q), s = topo.triSlot[t] * 3, L = topo.triLocal, sp = this.partChunks[q]!.skin;
    skinLocal(sp, od, L[s], o.positions, fs);
    skinLocal(sp, od, L[s + 1], o.positions, fs);
    skinLocal(sp, od, L[s + 2], o.positions, fs);
    return true;
  }

  /** The on-demand tree's callback: skins chunk c of part p (its vertices not skinned yet at this pose). */
  private skinChunkOnDemand(p: number, c: number): void {
    const part = this.parts[p], ch = this.partChunks[p]!, od = ch.onDemand!;
    // skinned whole since (positions current), or a tree left from an earlier pose
    if (part.skinStamp === this.frameStamp || od.stamp !== this.frameStamp) return;
    skinChunk(ch.skin, ch, od, c, this.objects[part.object].positions, this.frameStamp);
  }

  /** Whether parts pa and pb can meet at the current sample, before the discrete narrow phase: their boxes without skinning (looseBox), then the skinned boxes of the parts not skinned on demand. */
  private narrowBoxesOverlap(pa: number, pb: number): boolean {
    const demandA = this.onDemandCandidate(pa), demandB = this.onDemandCandidate(pb);
    if (!demandA && !demandB) return this.tightBoxesOverlap(pa, pb);
    const L = this._looseT;
    this.looseBox(pa, false, L, 0);
    this.looseBox(pb, false, L, 6);
    if (L[0] > L[9] || L[6] > L[3] || L[1] > L[10] || L[7] > L[4] || L[2] > L[11] || L[8] > L[5]) return false;
    if (demandA && demandB) return true;
    // the other part's skinned box
    const q = demandA ? pb : pa, o = demandA ? 6 : 0;
    this.tightBoxInto(q, this._tightQ);
    for (let k = 0; k < 6; k++) L[o + k] = this._tightQ[k];
    return !(L[0] > L[9] || L[6] > L[3] || L[1] > L[10] || L[7] > L[4] || L[2] > L[11] || L[8] > L[5]);
  }

  /** Whether the boxes of the skinned vertices of parts pa and pb (at the current sample) overlap. */
  private tightBoxesOverlap(pa: number, pb: number): boolean {
    if (this._tightStamp.length < this.parts.length) { this._tightStamp = new Int32Array(this.parts.length).fill(-1); this._tight = new Float64Array(this.parts.length * 6); }
    // first the boxes that contain the skinned vertices without skinning
    // them (looseBox): a pair they keep apart is apart, unskinned
    const L = this._looseT;
    this.looseBox(pa, false, L, 0);
    this.looseBox(pb, false, L, 6);
    if (L[0] > L[9] || L[6] > L[3] || L[1] > L[10] || L[7] > L[4] || L[2] > L[11] || L[8] > L[5]) return false;
    const T = this._tight;
    this.tightBox(pa);
    this.tightBox(pb);
    const a = pa * 6, b = pb * 6;
    return !(T[a] > T[b + 3] || T[b] > T[a + 3] || T[a + 1] > T[b + 4] || T[b + 1] > T[a + 4] || T[a + 2] > T[b + 5] || T[b + 2] > T[a + 5]);
  }

  private _prevTightStamp = new Int32Array(0);
  private _prevTight = new Float64Array(0);

  /**
   * Whether the boxes of parts pa and pb over the step from the previous
   * sample (each the box of its vertices at both samples) overlap: moving
   * linearly, every point of a part stays in its box, so parts whose boxes
   * miss can neither cross at this sample nor touch between the samples.
   */
  private sweptTightBoxesOverlap(pa: number, pb: number): boolean {
    const T = this._sweptT;
    // first the boxes over the step that contain the skinned vertices at both
    // samples without skinning them (looseBox at each sample)
    this.sweptLooserBox(pa, T, 0);
    this.sweptLooserBox(pb, T, 6);
    if (T[0] > T[9] || T[6] > T[3] || T[1] > T[10] || T[7] > T[4] || T[2] > T[11] || T[8] > T[5]) return false;
    // a part whose swept tree is skinned on demand keeps that box (its
    // chunk roots' boxes prune the traversal); the other one's skinned box
    const demandA = this.sweptOnDemand(pa), demandB = this.sweptOnDemand(pb);
    if (demandA && demandB) return true;
    if (demandA || demandB) {
      this.sweptTightBox(demandA ? pb : pa, T, demandA ? 6 : 0);
      return !(T[0] > T[9] || T[6] > T[3] || T[1] > T[10] || T[7] > T[4] || T[2] > T[11] || T[8] > T[5]);
    }
    // a character part not skinned at the previous sample: first its box from
    // the joints there (it contains every skinned vertex), so pairs that miss
    // anyway skip skinning the previous sample
    if (this.prevUnskinned(pa) || this.prevUnskinned(pb)) {
      this.sweptLooseBox(pa, T, 0);
      this.sweptLooseBox(pb, T, 6);
      if (T[0] > T[9] || T[6] > T[3] || T[1] > T[10] || T[7] > T[4] || T[2] > T[11] || T[8] > T[5]) return false;
    }
    this.sweptTightBox(pa, T, 0);
    this.sweptTightBox(pb, T, 6);
    return !(T[0] > T[9] || T[6] > T[3] || T[1] > T[10] || T[7] > T[4] || T[2] > T[11] || T[8] > T[5]);
  }

  private readonly _sweptT = new Float64Array(12);
  private readonly _looseT = new Float64Array(12);
  /** Per part: setsBox at the current and at the previous sample, valid where the stamp is that sample's pose stamp (swapped by pose like the skinned boxes). */
  private _setBox = new Float64Array(0);
  private _setStamp = new Int32Array(0);
  private _prevSetBox = new Float64Array(0);
  private _prevSetStamp = new Int32Array(0);

  /**
   * A box containing part p's skinned vertices at the current (or previous)
   * sample, without skinning: the skinned box when the part is skinned there,
   * else for a character part whose vertices share influence sets the union
   * of the sets' mapped bind boxes (setsBox, once per pose), else its box
   * from the joints (props: the box of its vertices). Into out[o..o+5].
   */
  private looseBox(p: number, previous: boolean, out: Float64Array, o: number): void {
    const part = this.parts[p], ob = this.objects[part.object], b = p * 6;
    let src: Float64Array;
    if (ob.kind !== 'character') src = previous ? this.prevBoxes : this.curBoxes;
    else if (previous ? (this._prevTightStamp.length > p && this._prevTightStamp[p] === this.frameStamp - 1) : (this._tightStamp.length > p && this._tightStamp[p] === this.frameStamp)) src = previous ? this._prevTight : this._tight;
    else {
      const sp = this.chunksOf(p).skin;
      if (sp.perVertex) src = previous ? this.prevBoxes : this.curBoxes;
      else {
        if (this._setStamp.length < this.parts.length) {
          this._setStamp = new Int32Array(this.parts.length).fill(-1); this._setBox = new Float64Array(this.parts.length * 6);
          this._prevSetStamp = new Int32Array(this.parts.length).fill(-1); this._prevSetBox = new Float64Array(this.parts.length * 6);
        }
        const want = previous ? this.frameStamp - 1 : this.frameStamp;
        const st = previous ? this._prevSetStamp : this._setStamp;
        src = previous ? this._prevSetBox : this._setBox;
        if (st[p] !== want) { st[p] = want; setsBox(sp, previous ? ob.prevSkinMats : ob.skinMats, src, b); }
      }
    }
    for (let k = 0; k < 6; k++) out[o + k] = src[b + k];
  }

  /** Per part: looseBox at the current sample (at the pose stamp in _looseAllStamp), for the searches and inside tests against an object's parts. */
  private _looseAll = new Float64Array(0);
  private _looseAllStamp = new Int32Array(0);

  /** Makes _looseAll current for part p (once per pose) and returns it (p's box at p·6). */
  private looseOf(p: number): Float64Array {
    if (this._looseAllStamp.length < this.parts.length) { this._looseAllStamp = new Int32Array(this.parts.length).fill(-1); this._looseAll = new Float64Array(this.parts.length * 6); }
    if (this._looseAllStamp[p] !== this.frameStamp) { this._looseAllStamp[p] = this.frameStamp; this.looseBox(p, false, this._looseAll, p * 6); }
    return this._looseAll;
  }

  /** looseBox at the previous sample united with looseBox at the current one, into out[o..o+5]. */
  private sweptLooserBox(p: number, out: Float64Array, o: number): void {
    const L = this._looseT;
    this.looseBox(p, true, L, 0);
    this.looseBox(p, false, L, 6);
    for (let k = 0; k < 3; k++) {
      out[o + k] = L[k] < L[6 + k] ? L[k] : L[6 + k];
      out[o + 3 + k] = L[3 + k] > L[9 + k] ? L[3 + k] : L[9 + k];
    }
  }

  private prevUnskinned(p: number): boolean {
    const part = this.parts[p];
    return this.objects[part.object].kind === 'character' && part.prevSkinStamp !== this.frameStamp - 1;
  }

  /** Box of part p's vertices at the current sample united with its box from the joints at the previous one (or its vertices' box there when skinned), into out[o..o+5]. */
  private sweptLooseBox(p: number, out: Float64Array, o: number): void {
    this.tightBox(p);
    const T = this._tight, b = p * 6;
    const Q = this.prevUnskinned(p) ? this.prevBoxes : null;
    if (Q === null) { this.sweptTightBox(p, out, o); return; }
    for (let k = 0; k < 3; k++) {
      out[o + k] = T[b + k] < Q[b + k] ? T[b + k] : Q[b + k];
      out[o + 3 + k] = T[b + 3 + k] > Q[b + 3 + k] ? T[b + 3 + k] : Q[b + 3 + k];
    }
  }

  /** Box of part p's vertices at the current and the previous sample into out[o..o+5]. */
  private sweptTightBox(p: number, out: Float64Array, o: number): void {
    this.tightBox(p);
    const part = this.parts[p], ob = this.objects[part.object];
    if (this._prevTightStamp.length < this.parts.length) { this._prevTightStamp = new Int32Array(this.parts.length).fill(-1); this._prevTight = new Float64Array(this.parts.length * 6); }
    // characters: the previous skinning (now, or at the previous pose) keeps its box
    if (ob.kind === 'character') this.ensureSkinned(p, true);
    if (this._prevTightStamp[p] !== this.frameStamp - 1) {
      vertsBox(part.verts, ob.prevPositions, this._prevTight, p * 6);
      this._prevTightStamp[p] = this.frameStamp - 1;
    }
    const T = this._tight, Q = this._prevTight, b = p * 6;
    for (let k = 0; k < 3; k++) {
      out[o + k] = T[b + k] < Q[b + k] ? T[b + k] : Q[b + k];
      out[o + 3 + k] = T[b + 3 + k] > Q[b + 3 + k] ? T[b + 3 + k] : Q[b + 3 + k];
    }
  }

  /** Box of part p's skinned vertices at the current sample (cached per pose) into out[0..5]. */
  private tightBoxInto(p: number, out: Float64Array): void {
    if (this._tightStamp.length < this.parts.length) { this._tightStamp = new Int32Array(this.parts.length).fill(-1); this._tight = new Float64Array(this.parts.length * 6); }
    this.tightBox(p);
    for (let k = 0; k < 6; k++) out[k] = this._tight[p * 6 + k];
  }

  private tightBox(p: number): void {
    if (this._tightStamp[p] === this.frameStamp) return;
    this.ensureSkinned(p, false); // a character part's box comes with its skinning
    if (this._tightStamp[p] === this.frameStamp) return;
    this._tightStamp[p] = this.frameStamp;
    vertsBox(this.parts[p].verts, this.objects[this.parts[p].object].positions, this._tight, p * 6);
  }

  /** Half-space widening for the convex fast path: never reject touching solids. */
  private readonly convexTol = 1e-9;
  private convexOf(o: CollisionObject): ConvexPolyhedron {
    const c = o.convex!;
    if (o.convexStamp !== this.frameStamp) {
      o.convexStamp = this.frameStamp;
      c.positions = o.positions; // the buffers swap between samples
      updateConvexPlanes(c, o.indices);
    }
    return c;
  }

  // candidate triangle pairs of the step (triangles, slots, earliest possible
  // contact, tie key: the triangle ids ta·(B's triangle count) + tb, heap)
  private _candTris = new Int32Array(256);
  private _candSlots = new Int32Array(256);
  private _candLb = new Float64Array(128);
  private _candOrd = new Float64Array(128);
  /** The bound the candidate heap is ordered by (the plain bound, tightened on a first look), and whether it was tightened. */
  private _candKey = new Float64Array(128);
  private _candRef = new Uint8Array(128);
  private _candHeap = new Int32Array(128);
  /** Candidates gathered for the part pair (storage), and how many are in the heap. */
  private _candCount = 0;
  private _nCand = 0;
  // leaf pairs of the step that could hold a candidate (index into the leaf-pair list, bound, heap)
  private _leafQ = new Int32Array(128);
  private _leafLb = new Float64Array(128);
  private _leafRef = new Uint8Array(128);
  private _leafHeap = new Int32Array(128);
  private _nLeaf = 0;
  // features of one triangle pair (24 numbers each) and their kinds
  private readonly _feat = new Float64Array(24 * 15);
  private readonly _featKind = new Uint8Array(15);
  private _nFeat = 0;
  private readonly _fc = new Float64Array(4);

  private addLeafPair(q: number, lb: number): void {
    if (this._nLeaf === this._leafLb.length) {
      const cap = this._nLeaf * 2;
      const nq = new Int32Array(cap); nq.set(this._leafQ); this._leafQ = nq;
      const nl = new Float64Array(cap); nl.set(this._leafLb); this._leafLb = nl;
      const nr = new Uint8Array(cap); nr.set(this._leafRef); this._leafRef = nr;
      const nh = new Int32Array(cap); nh.set(this._leafHeap); this._leafHeap = nh;
    }
    this._leafQ[this._nLeaf] = q;
    this._leafRef[this._nLeaf] = 0;
    this._leafHeap[this._nLeaf] = this._nLeaf;
    this._leafLb[this._nLeaf++] = lb;
  }

  /**
   * The candidate triangle pairs of leaf pair (na, nb) of the swept trees:
   * pairs whose boxes over the motion meet and
   * that could touch within the step before `best`, into the candidate heap
   * (a min-heap by key alone: the result does not depend on the order in
   * which candidates of equal key are searched, only their plain bound and
   * triangle ids decide ties, see narrow).
   */
  private gatherCandidates(
    na: number, nb: number, treeA: TriangleBVH, treeB: TriangleBVH, mcA: MotionCache, mcB: MotionCache,
    Qa: Float64Array, Pa: Float64Array, Ia: Uint32Array, Qb: Float64Array, Pb: Float64Array, Ib: Uint32Array, self: boolean, best: number,
  ): void {
    const ua = treeA.u32, ub = treeB.u32, fa = treeA.f32, fb = treeB.f32, orderA = treeA.order, orderB = treeB.order;
    const pa = na * 8, pb = nb * 8;
    const sa = ua[pa + 6], ea = sa + (ua[pa + 7] & 0x7fffffff), sb = ub[pb + 6], eb = sb + (ub[pb + 7] & 0x7fffffff);
    const fs = this.frameStamp;
    sweptLeaf(Qa, Pa, Ia, orderA, sa, ea, mcA, na, fs);
    sweptLeaf(Qb, Pb, Ib, orderB, sb, eb, mcB, nb, fs);
    const swA = mcA.swept, swB = mcB.swept, mtA = mcA.motion, mtB = mcB.motion, keepB = this._leafKeep, ntB = Ib.length / 3;
    let nk = 0;
    for (let j = sb; j < eb; j++) if (boxMeetsNode(swB, j * 6, fa, pa)) keepB[nk++] = j;
    if (nk === 0) return;
    let tested = 0;
    for (let i = sa; i < ea; i++) {
      const ia = i * 6;
      if (!boxMeetsNode(swA, ia, fb, pb)) continue;
      const ta = orderA[i];
      for (let m = 0; m < nk; m++) {
        const j = keepB[m], tb = orderB[j];
        if (self && sharesVertex(Ia, ta, tb)) continue;
        tested++;
        const o = j * 6;
        if (swB[o] > swA[ia + 3] || swB[o + 1] > swA[ia + 4] || swB[o + 2] > swA[ia + 5] || swA[ia] > swB[o + 3] || swA[ia + 1] > swB[o + 4] || swA[ia + 2] > swB[o + 5]) continue;
        const lb = earliestTouch(mtA, i * MOTION_STRIDE, mtB, j * MOTION_STRIDE, Qa, Pa, Ia, ta, Qb, Pb, Ib, tb);
        if (!(lb <= 1 && lb <= best)) continue;
        // the tighter key: its window (Infinity when empty: then no feature can touch)
        // (and along the two triangles' normals, except in the plain-order reference search, which checks that it cuts nothing)
        // the tie key after the plain bound: the triangle pair's ids (A's triangle, then B's), not its position in the traversal,
        // so the winner of a tie (and the reported point and normal) does not depend on the trees' shape
        const ord = ta * ntB + tb;
        if (this.plainOrderSearch) {
          const w = touchWindowMotion(mtA, i * MOTION_STRIDE, mtB, j * MOTION_STRIDE);
          if (w > best || w === Infinity) continue;
          this.pushCandidate(ta, tb, i, j, lb, ord, w > lb ? w : lb);
        } else {
          // the window of the moving intervals now (most pairs' is empty); along the triangles' normals at its first look (narrow)
          const w = touchWindowMotion(mtA, i * MOTION_STRIDE, mtB, j * MOTION_STRIDE);
          if (w > best || w === Infinity) continue;
          this.pushCandidate(ta, tb, i, j, lb, ord, w > lb ? w : lb);
        }
      }
    }
    this.stats.trianglePairs += tested;
  }

  private pushCandidate(ta: number, tb: number, i: number, j: number, lb: number, ord: number, key: number): void {
    if (this._candCount === this._candLb.length) {
      const cap = this._candCount * 2;
      const nt = new Int32Array(cap * 2); nt.set(this._candTris); this._candTris = nt;
      const ns = new Int32Array(cap * 2); ns.set(this._candSlots); this._candSlots = ns;
      const nl = new Float64Array(cap); nl.set(this._candLb); this._candLb = nl;
      const no = new Float64Array(cap); no.set(this._candOrd); this._candOrd = no;
      const nkk = new Float64Array(cap); nkk.set(this._candKey); this._candKey = nkk;
      const nrf = new Uint8Array(cap); nrf.set(this._candRef); this._candRef = nrf;
      const nh = new Int32Array(cap); nh.set(this._candHeap); this._candHeap = nh;
    }
    const c = this._candCount++, n = this._nCand++;
    this._candTris[c * 2] = ta; this._candTris[c * 2 + 1] = tb;
    this._candSlots[c * 2] = i; this._candSlots[c * 2 + 1] = j;
    this._candLb[c] = lb; this._candOrd[c] = ord; this._candKey[c] = key; this._candRef[c] = 0;
    siftUpMin(this._candHeap, n, c, this._candKey);
  }

  /** The features (6 vertex–triangle, 9 edge–edge) of a triangle pair whose swept boxes overlap, into _feat. */
  private addFeatures(oa: CollisionObject, ta: number, ob: CollisionObject, tb: number): void {
    this._nFeat = this.addFeaturesInto(this._feat, this._featKind, this._nFeat, oa, ta, ob, tb);
  }

  /** Feature store of the best-first search (per part pair): 24 coordinates, kind, bounds (plain, window start, end), key, candidate, index in its pair; min-heap by key. */
  private _gFeat = new Float64Array(24 * 256);
  private _gKind = new Uint8Array(256);
  private _gWin = new Float64Array(3 * 256);
  private _gKey = new Float64Array(256);
  private _gCand = new Int32Array(256);
  private _gIdx = new Uint8Array(256);
  /** Per feature: its vertex–triangle key (side, vertex, triangle), −1 for edge–edge (ccdMemo). */
  private _gVt = new Float64Array(256);
  /**
   * Vertex–triangle CCD searches of the part pair by key: a slot in _memo
   * (time, u, v of the contact or NaN, the limit and window start it was
   * searched with). A vertex lies in several triangles, so the same feature
   * comes up in several candidate pairs (mannequins: 57 of frame 1's 73
   * vertex–triangle searches were repeats).
   */
  private readonly _memoKey = new Map<number, number>();
  private _memo = new Float64Array(5 * 64);
  private _gRef = new Uint8Array(256);
  private _gHeap = new Int32Array(256);
  private _gCount = 0;

  private growFeatures(n: number): void {
    if (n <= this._gKey.length) return;
    const cap = Math.max(n, this._gKey.length * 2), k = this._gCount;
    const f = new Float64Array(24 * cap); f.set(this._gFeat.subarray(0, 24 * k)); this._gFeat = f;
    const kd = new Uint8Array(cap); kd.set(this._gKind.subarray(0, k)); this._gKind = kd;
    const w = new Float64Array(3 * cap); w.set(this._gWin.subarray(0, 3 * k)); this._gWin = w;
    const ky = new Float64Array(cap); ky.set(this._gKey.subarray(0, k)); this._gKey = ky;
    const c = new Int32Array(cap); c.set(this._gCand.subarray(0, k)); this._gCand = c;
    const ix = new Uint8Array(cap); ix.set(this._gIdx.subarray(0, k)); this._gIdx = ix;
    const rf = new Uint8Array(cap); rf.set(this._gRef.subarray(0, k)); this._gRef = rf;
    const h = new Int32Array(cap); h.set(this._gHeap.subarray(0, k)); this._gHeap = h;
    const vk = new Float64Array(cap); vk.set(this._gVt.subarray(0, k)); this._gVt = vk;
  }

  /** The features of triangle pair (ta of oa, tb of ob) whose swept boxes overlap, into c and kinds from feature n on; returns the new count. */
  private addFeaturesInto(c: Float64Array, kinds: Uint8Array, n: number, oa: CollisionObject, ta: number, ob: CollisionObject, tb: number, vtKeys: Float64Array | null = null): number {
    const Ia = oa.indices, Ib = ob.indices;
    for (let pass = 0; pass < 2; pass++) {
      const ov = pass === 0 ? oa : ob, ot = pass === 0 ? ob : oa;
      const tv = pass === 0 ? ta : tb, tt = pass === 0 ? tb : ta;
      const Iv = pass === 0 ? Ia : Ib, It = pass === 0 ? Ib : Ia;
      for (let v = 0; v < 3; v++) {
        const o = n * 24;
        const vi = Iv[tv * 3 + v] * 3;
        putPoint(c, o, ov.prevPositions, vi); putPoint(c, o + 12, ov.positions, vi);
        for (let j = 0; j < 3; j++) {
          const ti = It[tt * 3 + j] * 3;
          putPoint(c, o + 3 + j * 3, ot.prevPositions, ti); putPoint(c, o + 15 + j * 3, ot.positions, ti);
        }
        if (!sweptBoxesOverlap(c, o, true)) continue;
        // the same vertex against the same triangle (the same 24 numbers) in every triangle pair that holds them: one key
        if (vtKeys !== null) { const vv = Iv[tv * 3 + v]; vtKeys[n] = vv < VT_KEY_LIMIT && tt < VT_KEY_LIMIT ? (pass * VT_KEY_LIMIT + vv) * VT_KEY_LIMIT + tt : -1; }
        kinds[n++] = FEATURE_VERTEX_TRIANGLE;
      }
    }
    for (let ea = 0; ea < 3; ea++) {
      const a0 = Ia[ta * 3 + ea] * 3, a1 = Ia[ta * 3 + ((ea + 1) % 3)] * 3;
      for (let eb = 0; eb < 3; eb++) {
        const o = n * 24;
        const b0 = Ib[tb * 3 + eb] * 3, b1 = Ib[tb * 3 + ((eb + 1) % 3)] * 3;
        putPoint(c, o, oa.prevPositions, a0); putPoint(c, o + 3, oa.prevPositions, a1);
        putPoint(c, o + 6, ob.prevPositions, b0); putPoint(c, o + 9, ob.prevPositions, b1);
        putPoint(c, o + 12, oa.positions, a0); putPoint(c, o + 15, oa.positions, a1);
        putPoint(c, o + 18, ob.positions, b0); putPoint(c, o + 21, ob.positions, b1);
        if (!sweptBoxesOverlap(c, o, false)) continue;
        if (vtKeys !== null) vtKeys[n] = -1;
        kinds[n++] = FEATURE_EDGE_EDGE;
      }
    }
    return n;
  }

  private readonly _box = new Float64Array(6);
  private readonly _boxA = new Float64Array(6);
  private readonly _boxB = new Float64Array(6);
  private readonly _boxM = new Float64Array(6);
  private readonly _roi = new Float64Array(6);
  private readonly _tightQ = new Float64Array(6);
  private _vbuf = new Int32Array(0);
  private _allowObj: CollisionObject | null = null;
  private _allowPart = -1;
  /** Triangle filter of the self-collision signed distance: triangles of the other part only. */
  private readonly allowTri = (t: number): boolean => this._allowObj!.triPart[t] === this._allowPart;

  /**
   * Penetration depth of part pair (pa, pb) at the current positions (see the
   * file comment): the deepest vertex of either part, among those in the
   * overlap of the parts' boxes, inside the other side. `crossTris` (pairs
   * ta, tb) is used only against open meshes.
   */
  private pairDepth(pa: number, pb: number, crossTris: number[] | null): number {
    const A = this.parts[pa], B = this.parts[pb];
    const oa = this.objects[A.object], ob = this.objects[B.object];
    const box = this._box, ba = this._boxA, bb = this._boxB;
    if (A.verts.length === 0 || B.verts.length === 0) return 0;
    if (crossTris === null) {
      // bind pose (constructor): positions set directly
      vertsBox(A.verts, oa.positions, ba);
      vertsBox(B.verts, ob.positions, bb);
    } else {
      // the trees at the sample (a pair found by the continuous test traversed
      // the swept trees only): refit whole for self-collision and open meshes,
      // else as the queries reach them (closedSideDepth)
      if (oa === ob || !oa.closed || !ob.closed) {
        this.ensureRefit(pa);
        this.ensureRefit(pb);
      }
      this.exactBox(pa, ba);
      this.exactBox(pb, bb);
    }
    for (let k = 0; k < 3; k++) {
      box[k] = ba[k] > bb[k] ? ba[k] : bb[k];
      box[3 + k] = ba[3 + k] < bb[3 + k] ? ba[3 + k] : bb[3 + k];
      if (box[k] > box[3 + k]) return 0;
    }
    const self = oa === ob;
    let depth = 0;
    if (!self && oa.closed && ob.closed) {
      // both sides' regions with an unbounded crossing bound first, then the rest (closedSideDepth)
      depth = this.closedSideDepth(pa, B.object, depth, 1);
      depth = this.closedSideDepth(pb, A.object, depth, 1);
      depth = this.closedSideDepth(pa, B.object, depth, 2);
      return this.closedSideDepth(pb, A.object, depth, 2);
    }
    for (let side = 0; side < 2; side++) {
      const me = side === 0 ? A : B, other = side === 0 ? B : A;
      const om = side === 0 ? oa : ob, oo = side === 0 ? ob : oa;
      const P = om.positions;
      if (self) {
        const n = this.boxVertices(me, om);
        this._allowObj = oo;
        this._allowPart = oo.parts.indexOf(side === 0 ? pb : pa);
        for (let i = 0; i < n; i++) {
          const v = this._vbuf[i] * 3;
          const sd = signedDistance(other.bvh, P, oo.vt, P[v], P[v + 1], P[v + 2], this.allowTri);
          if (sd < 0 && -sd > depth) depth = -sd;
        }
        this._allowObj = null;
      } else if (oo.closed) {
        depth = this.closedSideDepth(side === 0 ? pa : pb, other.object, depth);
      } else if (crossTris !== null) {
        // open: the crossing triangles' vertices behind the other surface (pseudo-normal sign)
        this.ensureObjectRefit(other.object);
        const stamp = ++_vstamp;
        for (let k = side; k < crossTris.length; k += 2) {
          const t = crossTris[k];
          for (let j = 0; j < 3; j++) {
            const v = om.indices[t * 3 + j];
            if (om.vertexStamp[v] === stamp) continue;
            om.vertexStamp[v] = stamp;
            let best = Infinity, sd = 0;
            for (const b of oo.partBvhs) {
              const d = signedDistance(b, oo.positions, oo.vt, P[v * 3], P[v * 3 + 1], P[v * 3 + 2], null, best);
              if (d === d && Math.abs(d) < best) { best = Math.abs(d); sd = d; }
            }
            if (sd < 0 && -sd > depth) depth = -sd;
          }
        }
      }
    }
    return depth;
  }

  private _order = new Int32Array(0);
  private _orderD = new Float64Array(0);

  /** Called before an incident triangle is read for a pseudo-normal: skins it (its vertices, or its whole part when not skinned on demand). */
  private readonly ensureTriSkinned = (t: number): boolean => {
    const o = this._allowObj!;
    if (!this.triCurrent(o, t)) this.ensureSkinned(o.parts[o.triPart[t]], false);
    return true;
  };

  /** Static edge structure of each part (built on first use). */
  private readonly topos: (PartTopo | undefined)[] = [];
  /** Per object: each triangle's slot in its part's triangle list (part.bvh.order). */
  private readonly triSlots: (Int32Array | undefined)[] = [];
  /** Per (part, other object): the frame's regions and distance bounds, reused by every pair of the frame. */
  private readonly sides = new Map<number, SideCache>();
  private detectStamp = 0;
  private _triStamp = new Uint32Array(0);
  private _localCross = new Uint8Array(0);
  private _crossBuf = new Int32Array(0);
  private _cand = new Int32Array(0);
  private _at = new Int32Array(0);
  private readonly _tri1 = new Int32Array(1);

  /**
   * Deepest penetration into closed object `ooi` of the vertices of part
   * `pmi` inside `this._box` (at least `depth`): the largest distance to
   * ooi's surface of such a vertex inside ooi. Exact: the same maximum as an
   * inside test and a full closest-point search per vertex, found with far
   * fewer of either.
   *
   * Inside/outside by regions: an edge of a triangle of the part that crosses
   * no triangle of ooi cannot cross ooi's surface, so its two ends lie on the
   * same side. The part's vertices, joined by such edges, fall into regions
   * that are wholly inside or wholly outside: one inside test per region
   * (exact ray parity, or the pseudo-normal sign at a vertex clearly off the
   * surface), made only when the region could matter. The crossing triangles
   * are those of the frame's narrow phase against every part of ooi within
   * reach (computed here for pairs it did not test).
   *
   * Distances: a vertex of a crossing triangle is within that triangle's
   * reach of ooi's surface (the crossing lies on both), a region made only of
   * such vertices, all within the running maximum, needs no inside test.
   * In an inside region each vertex gets an upper bound (its distance to a
   * triangle of ooi found by walking over ooi's surface from its neighbour's
   * triangle, in breadth-first order from the crossings); the vertex with the
   * largest bound gets a full search, which sets the maximum, and only
   * vertices whose bound still exceeds it are searched (each search stops at
   * the first triangle within the maximum). Regions and bounds are kept for
   * the frame, so every pair with the same part and object shares them.
   *
   * Regions made only of crossing triangles' vertices (a finite crossing
   * bound) wait for a second pass (`passes`: 1 the first, 2 the second, 3
   * both; a pair of closed objects runs both sides' first passes before
   * their second), where the maximum found meanwhile rules most of them out
   * without an inside test. The same maximum: a region is skipped only when
   * its bound is at most the maximum.
   */
  private closedSideDepth(pmi: number, ooi: number, depth: number, passes = 3): number {
    const me = this.parts[pmi], om = this.objects[me.object], oo = this.objects[ooi];
    const sc = this.sideCache(pmi, ooi);
    const box = this._box, P = om.positions, verts = me.verts;
    const lx = box[0], ly = box[1], lz = box[2], hx = box[3], hy = box[4], hz = box[5];
    const ubc = sc.ubc, est = sc.est;
    if (this._cand.length < verts.length) this._cand = new Int32Array(verts.length);
    const cand = this._cand, dst = sc.defer;
    if ((passes & 1) !== 0) { sc.deferMark = ++_dstamp; sc.deferCount = 0; }
    const ds = sc.deferMark;
    const tol = 1e-9 * (oo.size + om.size);
    const exact = sc.exact, hint = sc.hint, topo = this.topoOf(pmi);
    // Two passes: regions whose every vertex is a crossing triangle's (a
    // finite crossing bound) are left to the second, where the maximum found
    // over the others usually rules them out without an inside test.
    for (let pass = (passes & 1) !== 0 ? 0 : 1; pass < ((passes & 2) !== 0 ? 2 : 1); pass++) {
      if (pass === 1 && sc.deferCount === 0) break;
      let nc = 0;
      // region by region: one decided outside, or whose every vertex is
      // within the maximum of a crossing, is passed over whole
      const q = sc.compQueue, cs = sc.compStart, inside = sc.compInside, bound = sc.compBound;
      for (let c = 0; c < sc.compCount; c++) {
        if (inside[c] === 0 || bound[c] <= depth || (pass === 1 && dst[c] !== ds)) continue;
        for (let h = cs[c], he = cs[c + 1]; h < he; h++) {
          const i = q[h];
          if (ubc[i] <= depth) continue; // near a crossing: cannot raise the maximum
          // only vertices in the pair's box count
          const v = verts[i] * 3;
          const x = P[v], y = P[v + 1], z = P[v + 2];
          if (x < lx || x > hx || y < ly || y > hy || z < lz || z > hz) continue;
          if (inside[c] < 0) {
            if (pass === 0 && bound[c] !== Infinity) {
              if (dst[c] !== ds) { dst[c] = ds; sc.deferCount++; }
              break;
            }
            this.classifyRegion(sc, pmi, ooi, c);
            if (inside[c] !== 1) break;
          }
          if (sc.compEst[c] === 0) this.estimateRegion(sc, pmi, ooi, c);
          if (est[i] > depth) cand[nc++] = i;
        }
      }
      // Largest bound first: tightened by a walk over ooi's surface, then a full
      // search there sets the maximum, which rules out most of the rest.
      // max-heap of the candidates by bound
      for (let k = (nc >> 1) - 1; k >= 0; k--) siftDown(cand, nc, k, est);
      while (nc > 0) {
        const bi = cand[0];
        if (est[bi] <= depth) break;
        cand[0] = cand[--nc];
        siftDown(cand, nc, 0, est);
        const v = verts[bi] * 3;
        if (exact[bi] === 0 && hint[bi] >= 0) {
          const d = this.walkCloser(oo, P[v], P[v + 1], P[v + 2], hint[bi]);
          exact[bi] = 1;
          const t = this._tri1[0];
          if (d < est[bi]) est[bi] = d;
          hint[bi] = t;
          // neighbours not yet walked start their walks here
          for (let k = topo.adjOff[bi]; k < topo.adjOff[bi + 1]; k++) { const j = topo.adjV[k]; if (exact[j] === 0) hint[j] = t; }
          // back into the heap with its tighter bound
          siftUp(cand, nc++, bi, est);
          continue;
        }
        if (exact[bi] === 2) { depth = est[bi]; continue; }
        if (exact[bi] === 1 && this.depthRewalk) {
          // Before a full search, a second walk from the triangle the side's
          // last search found: a walk ends in a local minimum of the distance
          // over the surface (inside a limb, on the near side), the searched
          // vertices are near each other, and their nearest triangles too.
          exact[bi] = 3;
          const lt = sc.lastTri;
          if (lt >= 0 && lt !== hint[bi]) {
            const d = this.walkCloser(oo, P[v], P[v + 1], P[v + 2], lt);
            if (d < est[bi]) {
              est[bi] = d;
              const t = hint[bi] = this._tri1[0];
              for (let k = topo.adjOff[bi]; k < topo.adjOff[bi + 1]; k++) { const j = topo.adjV[k]; if (exact[j] === 0) hint[j] = t; }
              if (d <= depth) { this.depthTests.rewalked++; continue; } // ruled out without a search
              siftUp(cand, nc++, bi, est);
              continue;
            }
          }
        }
        // inflated so the bound's own triangle is found again
        this.depthTests.searches++;
        const d = this.distanceTo(oo, P[v], P[v + 1], P[v + 2], est[bi] * (1 + 1e-9) + tol, depth);
        if (d === Infinity) throw new Error(`collision: no triangle of "${oo.name}" within a proven distance bound (internal error)`);
        hint[bi] = sc.lastTri = this._tri1[0];
        est[bi] = d;
        if (d > depth) { exact[bi] = 2; depth = d; }
      }
    }
    return depth;
  }

  /** The frame's regions of part pmi against object ooi (computed on first use in a detect). */
  private sideCache(pmi: number, ooi: number): SideCache {
    const key = pmi * this.objects.length + ooi;
    const me = this.parts[pmi], om = this.objects[me.object];
    const nv = me.verts.length;
    let sc = this.sides.get(key);
    if (sc === undefined) {
      sc = {
        stamp: -1, comp: new Int32Array(nv), compStart: new Int32Array(nv + 1), compCount: 0, compQueue: new Int32Array(nv + 1),
        compBound: new Float64Array(nv), compInside: new Int8Array(nv), compEst: new Uint8Array(nv), compParity: new Int32Array(nv),
        xPairs: new Int32Array(64), xCount: 0, xHead: new Int32Array(me.bvh.order.length), xHeadStamp: new Int32Array(me.bvh.order.length).fill(-1), xNext: new Int32Array(32), xStamp: -1,
        ubc: new Float64Array(nv), seed: new Int32Array(nv), est: new Float64Array(nv), hint: new Int32Array(nv), exact: new Uint8Array(nv),
        prev: new Int32Array(nv), roiList: new Int32Array(nv + 1), roiCount: 0, seen: new Int32Array(nv),
        defer: new Int32Array(nv), deferMark: 0, deferCount: 0, lastTri: -1,
      };
      sc.comp.fill(-3);
      this.sides.set(key, sc);
    }
    if (sc.stamp === this.detectStamp) return sc;
    sc.stamp = this.detectStamp;
    sc.lastTri = -1;
    const topo = this.topoOf(pmi);
    const I = om.indices, P = om.positions, verts = me.verts;
    this.queryTree(pmi);
    // crossing triangles of the part (with an ooi triangle each crosses)
    if (this._triStamp.length < I.length / 3) this._triStamp = new Uint32Array(I.length / 3);
    const stamp = ++_sstamp;
    const nx = this.markCrossing(pmi, ooi, stamp, sc);
    const X = this._crossBuf;
    const { comp, compStart, compQueue, compBound, compInside, compEst, ubc, seed, est, exact } = sc;
    // coherence: the triangles found nearest to each vertex at the side's last use
    const prev = sc.prev, hint = sc.hint;
    // Only vertices in the part's box and the box of the parts of ooi it
    // crosses can count in a pair (regions are found within it; a region cut
    // by it is still all on one side). Every per-vertex array below is read
    // for these vertices only, so only theirs are reset.
    const roi = this._roi, meBox = this._boxM;
    for (let k = 0; k < 3; k++) {
      if (meBox[k] > roi[k]) roi[k] = meBox[k];
      if (meBox[3 + k] < roi[3 + k]) roi[3 + k] = meBox[3 + k];
    }
    const roiList = sc.roiList;
    // comp is -3 (outside) but for the vertices of the last use's list
    for (let r = 0; r < sc.roiCount; r++) comp[roiList[r]] = -3;
    let nr = 0;
    const od = this.demandOf(pmi);
    if (od === null) {
      // each vertex written and kept (nr advanced) when inside: no branch on its coordinates
      const r0 = roi[0], r1 = roi[1], r2 = roi[2], r3 = roi[3], r4 = roi[4], r5 = roi[5];
      for (let i = 0; i < nv; i++) {
        const v = verts[i] * 3, x = P[v], y = P[v + 1], z = P[v + 2];
        roiList[nr] = i;
        nr += 1 - (+(x < r0) | +(x > r3) | +(y < r1) | +(y > r4) | +(z < r2) | +(z > r5));
      }
    } else {
      // skinned on demand: only the chunks whose box meets the box (the
      // exact box of a chunk skinned already, else its box from the influence
      // sets), each skinned if not yet; the same vertices in the same order
      const ch = this.partChunks[pmi]!, cvo = ch.cvo, cv = ch.cv, L = ch.cvLocal, nch = cvo.length - 1, fs = this.frameStamp;
      const seen = sc.seen, mark = ++_vstamp;
      for (let c = 0; c < nch; c++) {
        const B = od.estamp[c] === fs ? od.ebox : od.boxes, b = c * 6;
        if (B[b] > roi[3] || B[b + 3] < roi[0] || B[b + 1] > roi[4] || B[b + 4] < roi[1] || B[b + 2] > roi[5] || B[b + 5] < roi[2]) continue;
        skinChunk(ch.skin, ch, od, c, P, fs);
        for (let q = cvo[c], qe = cvo[c + 1]; q < qe; q++) {
          const i = L[q];
          if (seen[i] === mark) continue;
          seen[i] = mark;
          const v = cv[q], x = P[v], y = P[v + 1], z = P[v + 2];
          roiList[nr] = i;
          nr += 1 - (+(x < roi[0]) | +(x > roi[3]) | +(y < roi[1]) | +(y > roi[4]) | +(z < roi[2]) | +(z > roi[5]));
        }
      }
      roiList.subarray(0, nr).sort();
    }
    for (let r = 0; r < nr; r++) {
      const i = roiList[r];
      comp[i] = -1;
      // the nearest triangle found at an earlier use (any triangle of ooi bounds the distance)
      prev[i] = exact[i] !== 0 ? hint[i] : -1;
      ubc[i] = Infinity;
      seed[i] = -1;
      est[i] = Infinity;
      exact[i] = 0;
    }
    sc.roiCount = nr;
    for (let k = 0; k < nx; k += 2) {
      const ta = X[k], tb = X[k + 1];
      for (let j = 0; j < 3; j++) {
        const v = I[ta * 3 + j], i = topo.triLocal[topo.triSlot[ta] * 3 + j];
        if (comp[i] === -3) continue;
        let r = 0;
        for (let jj = 0; jj < 3; jj++) {
          const w = I[ta * 3 + jj] * 3;
          const dx = P[w] - P[v * 3], dy = P[w + 1] - P[v * 3 + 1], dz = P[w + 2] - P[v * 3 + 2];
          const d = dx * dx + dy * dy + dz * dz;
          if (d > r) r = d;
        }
        r = Math.sqrt(r);
        if (r < ubc[i]) { ubc[i] = r; seed[i] = tb; }
      }
    }
    // regions: breadth-first over edges of non-crossing triangles
    const adjOff = topo.adjOff, adjV = topo.adjV, adjS = topo.adjS, adjS2 = topo.adjS2;
    // crossing flags by the part's triangle slot (a small array the walk reads per edge)
    const ntp = me.bvh.order.length;
    if (this._localCross.length < ntp) this._localCross = new Uint8Array(ntp);
    const lc = this._localCross;
    lc.fill(0, 0, ntp);
    for (let k = 0; k < nx; k += 2) lc[topo.triSlot[X[k]]] = 1;
    let qn = 0, nc = 0;
    for (let r = 0; r < nr; r++) {
      const s = roiList[r];
      if (comp[s] !== -1) continue;
      compStart[nc] = qn;
      compQueue[qn++] = s;
      comp[s] = nc;
      let bound = 0;
      for (let h = compStart[nc]; h < qn; h++) {
        const i = compQueue[h], u = ubc[i];
        if (u === Infinity) {
          // in no crossing triangle: every edge of it is safe
          for (let k = adjOff[i]; k < adjOff[i + 1]; k++) {
            const j = adjV[k];
            // taken into the region without a branch: comp[j] set and the queue advanced when unassigned
            const cj = comp[j], take = +(cj === -1);
            comp[j] = cj + (nc - cj) * take; compQueue[qn] = j; qn += take;
          }
          bound = Infinity;
          continue;
        }
        if (u > bound) bound = u;
        for (let k = adjOff[i]; k < adjOff[i + 1]; k++) {
          const j = adjV[k];
          // the edge is safe when a triangle on it crosses nothing
          const cj = comp[j], take = +(cj === -1) & (+(lc[adjS[k]] === 0) | +(lc[adjS2[k]] === 0));
          comp[j] = cj + (nc - cj) * take; compQueue[qn] = j; qn += take;
        }
      }
      compBound[nc] = bound;
      compInside[nc] = -1;
      sc.compParity[nc] = -1;
      compEst[nc] = 0;
      nc++;
    }
    compStart[nc] = qn;
    sc.compCount = nc;
    return sc;
  }

  /** Inside test of region c (one vertex clearly off the surface decides); compInside[c] = 1 inside, 0 not. */
  private classifyRegion(sc: SideCache, pmi: number, ooi: number, c: number): void {
    const me = this.parts[pmi], om = this.objects[me.object], oo = this.objects[ooi];
    const P = om.positions, verts = me.verts, q = sc.compQueue, ubc = sc.ubc;
    const c0 = sc.compStart[c], c1 = sc.compStart[c + 1];
    const tol = 1e-9 * (oo.size + om.size);
    let inside = 0;
    if (oo.orientedOutward) {
      // the vertex nearest a crossing first: its crossing bound confines the search
      let hb = c0;
      for (let h = c0 + 1; h < c1; h++) if (ubc[q[h]] < ubc[q[hb]]) hb = h;
      for (let k = 0; k < c1 - c0; k++) {
        const i = q[k === 0 ? hb : c0 + k - (c0 + k <= hb ? 1 : 0)];
        const v = verts[i] * 3;
        const sd = this.signedDistTo(oo, P[v], P[v + 1], P[v + 2], ubc[i] * (1 + 1e-9) + tol);
        if (sd === sd && Math.abs(sd) > tol) { inside = sd < 0 ? 1 : 0; break; }
        // within rounding of the surface (or undecidable): the next vertex
      }
    } else {
      const carry = this.parityCarry && oo.shellClosed.length <= 31;
      if (carry) {
        let m = this.carryParity(sc, pmi, ooi, c);
        if (m >= 0) this.depthTests.carried++;
        else if ((m = this.sharedParity(sc, pmi, ooi, c, false)) >= 0) this.depthTests.shared++;
        if (m >= 0) {
          sc.compParity[c] = m;
          sc.compInside[c] = m !== 0 ? 1 : 0;
          this.sharedParity(sc, pmi, ooi, c, true);
          return;
        }
      }
      // only the parts whose box (from the joints) the ray meets are skinned and refit
      this._rayObj = oo;
      const par = this._parity1;
      for (let h = c0; h < c1; h++) {
        this.depthTests.rays++;
        const r = pointInPartsLazy(oo.partBvhs, this.curBoxes, oo.partBoxOffsets, this.refitPartOfRayObj, oo.positions, oo.triShell, oo.shellClosed, P, verts[q[h]] * 3, par);
        if (r !== 2) {
          inside = r;
          sc.compParity[c] = par[0];
          if (carry) { sc.compInside[c] = inside; this.sharedParity(sc, pmi, ooi, c, true); }
          break;
        }
      }
      this._rayObj = null;
    }
    sc.compInside[c] = inside;
  }

  /** Per object: its vertices that belong to more than one part, by part (local indices into part.verts). */
  private readonly sharedVerts: (Int32Array | undefined)[] = [];
  /** Per (object, other object): a vertex's parity bits against the other (sharedParity), valid where its stamp is the detect's. */
  private readonly vertexParity = new Map<number, { val: Int32Array; stamp: Int32Array }>();

  /**
   * Parity shared between the parts of one object: a vertex on the border of
   * two parts is a vertex of both, at the same position, so its closed shells
   * of ooi are the same seen from either part's regions. record = false: the
   * parity of region c from such a vertex of it that a region of another part
   * (this detect) has decided, or -1; record = true: writes region c's parity
   * (decided) to its shared vertices.
   */
  private sharedParity(sc: SideCache, pmi: number, ooi: number, c: number, record: boolean): number {
    let sv = this.sharedVerts[pmi];
    const me = this.parts[pmi], om = this.objects[me.object];
    if (sv === undefined) {
      const count = new Uint8Array(om.positions.length / 3);
      for (const p of om.parts) for (const v of this.parts[p].verts) if (count[v] < 2) count[v]++;
      const l: number[] = [];
      me.verts.forEach((v, i) => { if (count[v] > 1) l.push(i); });
      sv = this.sharedVerts[pmi] = Int32Array.from(l);
    }
    if (sv.length === 0) return -1;
    const key = me.object * this.objects.length + ooi;
    let vp = this.vertexParity.get(key);
    if (vp === undefined) {
      const n = om.positions.length / 3;
      vp = { val: new Int32Array(n), stamp: new Int32Array(n).fill(-1) };
      this.vertexParity.set(key, vp);
    }
    const comp = sc.comp, verts = me.verts, val = vp.val, st = vp.stamp, ds = this.detectStamp;
    if (record) {
      const m = sc.compParity[c];
      for (let k = 0; k < sv.length; k++) { const i = sv[k]; if (comp[i] === c) { val[verts[i]] = m; st[verts[i]] = ds; } }
      return m;
    }
    for (let k = 0; k < sv.length; k++) { const i = sv[k]; if (comp[i] === c && st[verts[i]] === ds) return val[verts[i]]; }
    return -1;
  }

  private readonly _parity1 = new Int32Array(1);

  /**
   * Region c's closed shells of ooi it is inside of (bits, as pointInPartsLazy
   * gives them), carried from a neighbouring region already decided by
   * parity, or -1 when none can be used. An edge (i, j) between two regions
   * lies in a crossing triangle ta of the part (else they would be one
   * region); an ooi triangle the segment meets meets ta, so it is among ta's
   * crossing partners (sc.xPairs: the narrow phase's exact lists against every
   * part of ooi within reach). Per closed shell, the parity at j is that at i
   * flipped by each proper crossing of the segment with the shell's triangles
   * (exact orient3d: the ends strictly on either side of the triangle's plane,
   * the segment strictly inside the triangle's three edges); an edge with any
   * touching case (an end in a plane, the segment through an edge or vertex)
   * is not used.
   */
  private carryParity(sc: SideCache, pmi: number, ooi: number, c: number): number {
    const me = this.parts[pmi], om = this.objects[me.object], oo = this.objects[ooi];
    const P = om.positions, verts = me.verts, Po = oo.positions, Io = oo.indices, shell = oo.triShell;
    const topo = this.topoOf(pmi), adjOff = topo.adjOff, adjV = topo.adjV, adjS = topo.adjS;
    const q = sc.compQueue, comp = sc.comp, par = sc.compParity, ubc = sc.ubc;
    const c0 = sc.compStart[c], c1 = sc.compStart[c + 1];
    let built = sc.xStamp === this.detectStamp;
    for (let h = c0; h < c1; h++) {
      const i = q[h];
      if (ubc[i] === Infinity) continue; // not a crossing triangle's vertex: no edge to another region
      const pi = verts[i] * 3;
      for (let k = adjOff[i]; k < adjOff[i + 1]; k++) {
        const j = adjV[k], cj = comp[j];
        if (cj < 0 || cj === c || par[cj] < 0) continue;
        if (!built) { this.crossIndex(sc, pmi, oo); built = true; }
        const pj = verts[j] * 3, X = sc.xPairs, next = sc.xNext, sl = adjS[k];
        let m = 0;
        for (let e = sc.xHeadStamp[sl] === this.detectStamp ? sc.xHead[sl] : -1; e >= 0; e = next[e]) {
          const tb = X[2 * e + 1], t = tb * 3, A = Io[t] * 3, B = Io[t + 1] * 3, C = Io[t + 2] * 3;
          const s0 = orient3d(Po, A, Po, B, Po, C, P, pi), s1 = orient3d(Po, A, Po, B, Po, C, P, pj);
          if (s0 === 0 || s1 === 0) { m = -1; break; }
          if (s0 === s1) continue;
          const o1 = orient3d(P, pi, P, pj, Po, A, Po, B), o2 = orient3d(P, pi, P, pj, Po, B, Po, C), o3 = orient3d(P, pi, P, pj, Po, C, Po, A);
          if (o1 === 0 || o2 === 0 || o3 === 0) {
            if ((o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)) { m = -1; break; } // through an edge or vertex
            continue;
          }
          if (o1 === o2 && o2 === o3) m ^= 1 << shell[tb];
        }
        if (m >= 0) return par[cj] ^ m;
      }
    }
    return -1;
  }

  /** sc.xHead / sc.xNext: the crossing partners in closed shells of ooi of each of part pmi's triangles (by slot), as lists over sc.xPairs. */
  private crossIndex(sc: SideCache, pmi: number, oo: CollisionObject): void {
    const stamp = sc.xStamp = this.detectStamp;
    const slot = this.topoOf(pmi).triSlot, shell = oo.triShell, closed = oo.shellClosed;
    const X = sc.xPairs, n = sc.xCount, head = sc.xHead, hs = sc.xHeadStamp;
    if (sc.xNext.length < n >> 1) sc.xNext = new Int32Array(Math.max(n >> 1, 2 * sc.xNext.length));
    const next = sc.xNext;
    for (let e = (n >> 1) - 1; e >= 0; e--) {
      if (!closed[shell[X[2 * e + 1]]]) continue;
      const sl = slot[X[2 * e]];
      next[e] = hs[sl] === stamp ? head[sl] : -1;
      head[sl] = e;
      hs[sl] = stamp;
    }
  }

  /**
   * Upper bounds of the distance to ooi's surface for the vertices of inside
   * region c, by paths: a vertex of a crossing triangle is within its
   * crossing bound (ubc) of the surface, and a vertex is within (a
   * neighbour's bound + the edge between them) — breadth-first from the
   * crossing vertices, relaxing over the region's edges. Each vertex also
   * inherits a nearby triangle of ooi (the one its crossing meets, else its
   * predecessor's) for the surface walk that tightens the bound on demand.
   * A region without a crossing vertex starts from one full search.
   */
  private estimateRegion(sc: SideCache, pmi: number, ooi: number, c: number): void {
    sc.compEst[c] = 1;
    const me = this.parts[pmi], om = this.objects[me.object], oo = this.objects[ooi];
    const P = om.positions, verts = me.verts, topo = this.topoOf(pmi);
    const q = sc.compQueue, c0 = sc.compStart[c], c1 = sc.compStart[c + 1];
    const { seed, est, hint, comp, exact, ubc } = sc;
    const adjOff = topo.adjOff, adjV = topo.adjV;
    if (this._at.length < verts.length) this._at = new Int32Array(verts.length);
    const bfs = this._at;
    // visited: comp = -2 - c (restored at the end)
    const mark = -2 - c;
    let w = 0;
    for (let h = c0; h < c1; h++) {
      const i = q[h];
      if (seed[i] >= 0) { bfs[w++] = i; comp[i] = mark; hint[i] = seed[i]; est[i] = ubc[i]; }
    }
    if (w === 0) {
      const i = q[c0], v = verts[i] * 3;
      const d = this.distanceTo(oo, P[v], P[v + 1], P[v + 2], Infinity, -1);
      if (d === Infinity) return;
      hint[i] = this._tri1[0];
      est[i] = d;
      exact[i] = 2;
      comp[i] = mark;
      bfs[w++] = i;
    }
    const Po = oo.positions, Io = oo.indices, cp = this._cp, prev = sc.prev, ooChar = oo.kind === 'character';
    for (let h = 0; h < w; h++) {
      const i = bfs[h], v = verts[i] * 3;
      const x = P[v], y = P[v + 1], z = P[v + 2];
      const t = prev[i];
      if (t >= 0 && exact[i] !== 2 && (!ooChar || this.triCurrent(oo, t))) {
        // last frame's nearest triangle, where it is now: usually the nearest again
        closestPointOnTriangle(x, y, z, Po, Io[t * 3] * 3, Io[t * 3 + 1] * 3, Io[t * 3 + 2] * 3, cp);
        const ex = cp[0] - x, ey = cp[1] - y, ez = cp[2] - z;
        const d = Math.sqrt(ex * ex + ey * ey + ez * ez);
        if (d < est[i]) { est[i] = d; hint[i] = t; }
      }
      const e = est[i];
      for (let k = adjOff[i]; k < adjOff[i + 1]; k++) {
        const j = adjV[k];
        const cj = comp[j];
        if (cj !== c && cj !== mark) continue; // another region
        const u = verts[j] * 3;
        const dx = P[u] - x, dy = P[u + 1] - y, dz = P[u + 2] - z;
        const g = e + Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (g < est[j] && exact[j] !== 2) { est[j] = g; hint[j] = hint[i]; }
        if (cj === c) { comp[j] = mark; bfs[w++] = j; }
      }
      if (h === w - 1 && w < c1 - c0) {
        // a part of the region not reached over its own edges: start it afresh
        let r = c0;
        while (comp[q[r]] !== c) r++;
        const i2 = q[r], v2 = verts[i2] * 3;
        const d = this.distanceTo(oo, P[v2], P[v2 + 1], P[v2 + 2], Infinity, -1);
        if (d === Infinity) break;
        hint[i2] = this._tri1[0];
        est[i2] = d;
        exact[i2] = 2;
        comp[i2] = mark;
        bfs[w++] = i2;
      }
    }
    for (let h = c0; h < c1; h++) comp[q[h]] = c;
  }

  /**
   * Upper bound of the distance from a point to object o's surface: from
   * triangle t, over the triangles across the feature (edge or vertex) its
   * closest point lies on, while they get nearer. Only triangles of parts
   * skinned at this sample, whole or on demand (then the triangle's vertices
   * are skinned as the walk reaches it), count (others' positions are
   * stale). The triangle into _tri1.
   */
  private walkCloser(o: CollisionObject, x: number, y: number, z: number, t: number): number {
    const I = o.indices, P = o.positions, vt = o.vt, cp = this._cp;
    const local = o.kind === 'character';
    let region = closestPointOnTriangleRegion(x, y, z, P, I[t * 3] * 3, I[t * 3 + 1] * 3, I[t * 3 + 2] * 3, cp);
    let ex = cp[0] - x, ey = cp[1] - y, ez = cp[2] - z;
    let d = Math.sqrt(ex * ex + ey * ey + ez * ez);
    for (let step = 0; step < 64 && region !== 0; step++) {
      // the feature's vertices: one (vertex region) or two (edge region)
      const a = region <= 3 ? I[t * 3 + region - 1] : I[t * 3 + region - 4];
      const b = region <= 3 ? -1 : I[t * 3 + ((region - 3) % 3)];
      let bt = t, br = 0, bd = d;
      for (let k = vt.offsets[a]; k < vt.offsets[a + 1]; k++) {
        const u = vt.tris[k];
        if (u === t || (b >= 0 && I[u * 3] !== b && I[u * 3 + 1] !== b && I[u * 3 + 2] !== b)) continue;
        if (local && !this.triCurrent(o, u)) continue;
        const r = closestPointOnTriangleRegion(x, y, z, P, I[u * 3] * 3, I[u * 3 + 1] * 3, I[u * 3 + 2] * 3, cp);
        ex = cp[0] - x; ey = cp[1] - y; ez = cp[2] - z;
        const du = Math.sqrt(ex * ex + ey * ey + ez * ez);
        if (du < bd) { bd = du; bt = u; br = r; }
      }
      if (bt === t) break;
      t = bt; d = bd; region = br;
    }
    this._tri1[0] = t;
    return d;
  }

  /** Static edge structure of part p: per vertex (index into part.verts), its neighbours over the part's triangles, with the triangle. */
  private topoOf(p: number): PartTopo {
    let topo = this.topos[p];
    if (topo !== undefined) return topo;
    const part = this.parts[p], o = this.objects[part.object], verts = part.verts, I = o.indices;
    const tris = part.bvh.order;
    const deg = new Int32Array(verts.length + 1);
    const li = new Int32Array(tris.length * 3);
    for (let k = 0; k < tris.length; k++) for (let j = 0; j < 3; j++) { const i = localIndex(verts, I[tris[k] * 3 + j]); li[k * 3 + j] = i; deg[i + 1] += 2; }
    for (let i = 0; i < verts.length; i++) deg[i + 1] += deg[i];
    const fill = deg.slice(0, verts.length);
    const adjV = new Int32Array(deg[verts.length]), adjT = new Int32Array(deg[verts.length]);
    for (let k = 0; k < tris.length; k++) {
      for (let j = 0; j < 3; j++) {
        const i = li[k * 3 + j];
        for (let jj = 1; jj < 3; jj++) { adjV[fill[i]] = li[k * 3 + ((j + jj) % 3)]; adjT[fill[i]++] = tris[k]; }
      }
    }
    // one entry per edge: its neighbour and the (one or two) triangles of the part on it
    const off = new Int32Array(verts.length + 1);
    const V2 = new Int32Array(adjV.length), T1 = new Int32Array(adjV.length), T2 = new Int32Array(adjV.length);
    let m = 0;
    for (let i = 0; i < verts.length; i++) {
      off[i] = m;
      for (let k = deg[i]; k < deg[i + 1]; k++) {
        let e = off[i];
        while (e < m && V2[e] !== adjV[k]) e++;
        if (e < m) { T2[e] = adjT[k]; continue; }
        V2[m] = adjV[k]; T1[m] = adjT[k]; T2[m] = adjT[k]; m++;
      }
    }
    off[verts.length] = m;
    let triSlot = this.triSlots[part.object];
    if (triSlot === undefined) triSlot = this.triSlots[part.object] = new Int32Array(I.length / 3);
    for (let k = 0; k < tris.length; k++) triSlot[tris[k]] = k;
    const S1 = new Int32Array(m), S2 = new Int32Array(m);
    for (let e = 0; e < m; e++) { S1[e] = triSlot[T1[e]]; S2[e] = triSlot[T2[e]]; }
    topo = { adjOff: off, adjV: V2.slice(0, m), adjT: T1.slice(0, m), adjT2: T2.slice(0, m), adjS: S1, adjS2: S2, triLocal: li, triSlot };
    this.topos[p] = topo;
    return topo;
  }

  /**
   * Marks (triStamp = stamp) the triangles of part pmi that meet a triangle of
   * object ooi, from the frame's crossing lists (computed here for part pairs
   * within reach that the narrow phase did not test), and lists each with one
   * ooi triangle it crosses in _crossBuf (pairs); returns the list length.
   * Every crossing pair goes to sc.xPairs (for carryParity).
   * _boxM gets the part's box, _roi the box of the ooi parts it crosses.
   */
  private markCrossing(pmi: number, ooi: number, stamp: number, sc: SideCache): number {
    const me = this.parts[pmi], om = this.objects[me.object];
    const meBox = this._boxM;
    this.exactBox(pmi, meBox);
    const oo = this.objects[ooi], C = this.curBoxes, NP = this.parts.length, ts = this._triStamp;
    const roi = this._roi;
    roi[0] = roi[1] = roi[2] = Infinity;
    roi[3] = roi[4] = roi[5] = -Infinity;
    let nx = 0, na = 0;
    for (const q of oo.parts) {
      const o = q * 6;
      if (C[o] > meBox[3] || C[o + 3] < meBox[0] || C[o + 1] > meBox[4] || C[o + 4] < meBox[1] || C[o + 2] > meBox[5] || C[o + 5] < meBox[2]) continue;
      let list = this.crossLists.get(pmi * NP + q), first = 0;
      if (list === undefined) { list = this.crossLists.get(q * NP + pmi); first = 1; }
      if (list === undefined) {
        this.queryTree(pmi);
        this.queryTree(q);
        const Pm = om.positions, Po = oo.positions, Im = om.indices, Io = oo.indices;
        const Pt = this._P, Qt = this._Q;
        const l = this.crossList(pmi * NP + q);
        forEachLeafPair(me.bvh, this.parts[q].bvh, (ta, tb) => {
          if (!trisBoxesOverlapAt(Pm, Im, ta, Po, Io, tb)) return;
          loadTri(Pt, Pm, Im, ta);
          loadTri(Qt, Po, Io, tb);
          if (triTriOverlap(Pt, 0, Qt, 0)) l.push(ta, tb);
        });
        this.crossLists.set(pmi * NP + q, l);
        list = l;
        first = 0;
      }
      if (list.length > 0) {
        // the box of q's skinned vertices (q was skinned to find the crossings)
        const T = this._tightQ;
        this.exactBox(q, T);
        for (let k = 0; k < 3; k++) {
          if (T[k] < roi[k]) roi[k] = T[k];
          if (T[3 + k] > roi[3 + k]) roi[3 + k] = T[3 + k];
        }
      }
      if (na + list.length > sc.xPairs.length) {
        const nb = new Int32Array(Math.max(2 * sc.xPairs.length, na + list.length));
        nb.set(sc.xPairs.subarray(0, na));
        sc.xPairs = nb;
      }
      const xp = sc.xPairs;
      for (let k = first; k < list.length; k += 2) { xp[na++] = list[k]; xp[na++] = list[k + 1 - 2 * first]; }
      for (let k = first; k < list.length; k += 2) {
        const t = list[k];
        if (ts[t] === stamp) continue;
        ts[t] = stamp;
        if (nx + 2 > this._crossBuf.length) {
          const nb = new Int32Array(Math.max(64, this._crossBuf.length * 2));
          nb.set(this._crossBuf);
          this._crossBuf = nb;
        }
        this._crossBuf[nx++] = t;
        this._crossBuf[nx++] = list[k + 1 - 2 * first];
      }
    }
    sc.xCount = na;
    return nx;
  }

  /** Object o's parts in order of box distance from a point: into _order/_orderD, returns the count. */
  private partsByDistance(o: CollisionObject, x: number, y: number, z: number, bound: number): number {
    const C = this.curBoxes;
    const np = o.parts.length;
    if (this._order.length < np) { this._order = new Int32Array(np); this._orderD = new Float64Array(np); }
    const ord = this._order, od = this._orderD;
    // parts at least `bound` away are never searched (the callers stop at the
    // first part whose box distance reaches their best, which starts at bound)
    const limit = bound * bound;
    let n = 0;
    for (let i = 0; i < np; i++) {
      const q = o.parts[i], d = boxDistSq(C, q * 6, x, y, z);
      if (d >= limit) continue;
      let k = n++;
      while (k > 0 && od[k - 1] > d) { od[k] = od[k - 1]; ord[k] = ord[k - 1]; k--; }
      od[k] = d; ord[k] = q;
    }
    return n;
  }

  /**
   * Distance from a point to object o's surface when some triangle is nearer
   * than `bound` (else Infinity); the triangle into _tri1. Stops at the first
   * triangle within `stopAt` (the result is then only known to be ≤ stopAt).
   * Parts are skinned and refit when within reach.
   */
  private distanceTo(o: CollisionObject, x: number, y: number, z: number, bound: number, stopAt: number): number {
    const np = this.partsByDistance(o, x, y, z, bound);
    const ord = this._order, od = this._orderD, tri = this._tri1;
    let best = bound, found = -1;
    for (let i = 0; i < np; i++) {
      if (od[i] >= best * best) break;
      const q = ord[i];
      // not refit yet: first its box without skinning (no triangle nearer than best in it: nothing to find)
      if (this.parts[q].refitStamp !== this.frameStamp && boxDistSq(this.looseOf(q), q * 6, x, y, z) >= best * best) continue;
      this.queryTree(q);
      const d = closestPointOnMesh(this.parts[q].bvh, o.positions, x, y, z, this._cp, tri, best, stopAt);
      if (d < best) { best = d; found = tri[0]; if (best <= stopAt) break; }
    }
    if (found < 0) return Infinity;
    tri[0] = found;
    return best;
  }

  /**
   * Signed distance to object o (one closed outward shell): pseudo-normal
   * sign, parts nearest first; NaN when undecidable or nothing is nearer than
   * `bound` (which must exceed the distance for a result).
   */
  private signedDistTo(o: CollisionObject, x: number, y: number, z: number, bound = Infinity): number {
    const np = this.partsByDistance(o, x, y, z, bound);
    const ord = this._order, od = this._orderD;
    let best = bound, sd = NaN;
    this._allowObj = o;
    for (let i = 0; i < np; i++) {
      const q = ord[i];
      if (od[i] >= best * best) break;
      if (this.parts[q].refitStamp !== this.frameStamp && boxDistSq(this.looseOf(q), q * 6, x, y, z) >= best * best) continue;
      this.queryTree(q);
      const d = signedDistance(this.parts[q].bvh, o.positions, o.vt, x, y, z, this.ensureTriSkinned, best);
      if (d === d && Math.abs(d) < best) { best = Math.abs(d); sd = d; }
    }
    this._allowObj = null;
    return sd;
  }

  /** Vertices of part `me` inside `this._box` into `this._vbuf`; returns the count. */
  private boxVertices(me: PartInfo, om: CollisionObject): number {
    if (this._vbuf.length < om.vertexStamp.length) this._vbuf = new Int32Array(om.vertexStamp.length);
    return verticesInBox(me.bvh, om.positions, this._box, om.vertexStamp, ++_vstamp, this._vbuf);
  }

  /**
   * Distance from a point to `o`'s surface if the point is inside one of o's
   * closed shells, else 0. With `atLeast`, a point nearer the surface than
   * that returns 0 without the inside test (it cannot raise a maximum).
   */
  private insideDepth(o: CollisionObject, P: Float64Array, po: number, atLeast = -1): number {
    const x = P[po], y = P[po + 1], z = P[po + 2];
    if (atLeast > 0) {
      // a triangle within atLeast? (a search confined to that ball)
      for (const b of o.partBvhs) if (closestPointOnMesh(b, o.positions, x, y, z, this._cp, undefined, atLeast, atLeast) <= atLeast) return 0;
    }
    if (pointInParts(o.partBvhs, o.positions, o.triShell, o.shellClosed, P, po) !== 1) return 0;
    let d = Infinity;
    for (const b of o.partBvhs) {
      const dd = closestPointOnMesh(b, o.positions, x, y, z, this._cp, undefined, d);
      if (dd < d) d = dd;
    }
    return d === Infinity ? 0 : d;
  }

  private readonly objBox2 = new Float64Array(6);

  /** Containment without crossing, between different objects whose boxes overlap. */
  private containment(crossingObjects: Set<number>, out: FrameContact[]): void {
    const n = this.objects.length;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const inner = this.objects[i], outer = this.objects[j];
        if (!outer.closed || !groupsCollide(inner, outer)) continue;
        if (crossingObjects.has(i < j ? i * 65536 + j : j * 65536 + i)) continue;
        if (inner.positions.length === 0) continue;
        // inner's vertex 0 inside outer's (conservative) box is necessary
        this.skinVertex0(inner);
        const ob = this.objBox2;
        this.objectBox(j, ob);
        const q = inner.positions;
        if (q[0] < ob[0] || q[1] < ob[1] || q[2] < ob[2] || q[0] > ob[3] || q[1] > ob[4] || q[2] > ob[5]) continue;
        // vertex 0 inside outer is necessary too: first by rays that skin and refit only the parts they meet
        this._rayObj = outer;
        const in0 = pointInPartsLazy(outer.partBvhs, this.curBoxes, outer.partBoxOffsets, this.refitPartOfRayObj, outer.positions, outer.triShell, outer.shellClosed, q, 0);
        this._rayObj = null;
        if (in0 !== 1) continue;
        this.ensureObjectRefit(j);
        if (this.insideDepth(outer, inner.positions, 0) <= 0) continue;
        this.ensureObjectRefit(i);
        // contained: deepest vertex, and the parts involved
        let depth = 0, deepV = 0;
        for (let v = 0; v < inner.positions.length / 3; v++) {
          const d = this.insideDepth(outer, inner.positions, v * 3);
          if (d > depth) { depth = d; deepV = v; }
        }
        // outer part: the part of the surface triangle nearest the deepest vertex
        const tri = new Int32Array(1);
        let bestD = Infinity, bestTri = 0;
        for (const b of outer.partBvhs) {
          const d = closestPointOnMesh(b, outer.positions, inner.positions[deepV * 3], inner.positions[deepV * 3 + 1], inner.positions[deepV * 3 + 2], this._cp, tri, bestD);
          if (d < bestD) { bestD = d; bestTri = tri[0]; }
        }
        const innerPart = inner.parts[inner.kind === 'prop' ? 0 : inner.triPart[firstTriOfVertex(inner.indices, deepV)]];
        const outerPart = outer.parts[outer.triPart[bestTri]];
        if (this.doc.check.ignore.length > 0 && isIgnored(this.doc.check.ignore, inner.id, this.parts[innerPart].joint, outer.id, this.parts[outerPart].joint)) continue;
        const p = inner.positions;
        out.push({
          a: this.side(innerPart), b: this.side(outerPart), kind: 'contain', trianglePairs: 0, depth,
          point: [p[deepV * 3], p[deepV * 3 + 1], p[deepV * 3 + 2]], normal: [0, 0, 0], ccdTime: null, ccdPoint: null,
        });
      }
    }
  }

  /** Union of the current (unswept) part boxes of object oi. */
  private objectBox(oi: number, out: Float64Array): void {
    out[0] = out[1] = out[2] = Infinity;
    out[3] = out[4] = out[5] = -Infinity;
    const C = this.curBoxes;
    for (const p of this.objects[oi].parts) {
      for (let k = 0; k < 3; k++) {
        if (C[p * 6 + k] < out[k]) out[k] = C[p * 6 + k];
        if (C[p * 6 + 3 + k] > out[3 + k]) out[3 + k] = C[p * 6 + 3 + k];
      }
    }
  }

  private readonly _v0 = new Uint32Array(1);
  /** Skins vertex 0 of a character at the current sample (props are posed whole). */
  private skinVertex0(o: CollisionObject): void {
    if (o.kind !== 'character') return;
    skinVertices(this.doc.characters[o.index].meshes, o.meshOffsets, o.skinMats, this._v0, o.positions);
  }
}

/** Edges of a part's triangles per vertex, each once (CSR; vertices are indices into part.verts). */
/** A character part's BVH chunks per vertex (CSR over part.verts) and the chunks' vertex boxes at pose `stamp`. */
interface ChunkBoxes {
  off: Int32Array;
  list: Int32Array;
  /** Per chunk its vertices (position offsets, vertex · 3; CSR by cvo): the BVH's lazy chunk lists. */
  cv: Int32Array;
  cvo: Int32Array;
  /** Whether the chunk boxes were read (by a refit) since the part's last skinning: the next skinning gathers them. */
  used: boolean;
  box: Float64Array;
  stamp: number;
  /** The chunks' vertex boxes at the previous sample (pose `prevStamp`): kept from that pose's skinning, or gathered when the previous sample is skinned late. */
  prevBox: Float64Array;
  prevStamp: number;
  /** The part's vertices' skinning data, compacted (see makeSkinProgram). */
  skin: SkinProgram;
  /** Per entry of cv: the vertex's local index (into part.verts). */
  cvLocal: Int32Array;
  /** Skinning on demand per chunk (narrow phase), built on first use. */
  onDemand: OnDemandSkin | null;
}

/**
 * A part skinned chunk by chunk as the narrow phase's traversal reaches its
 * chunks (refitLazyBoxesOnDemand): the chunk roots boxed from the influence
 * sets, a chunk's vertices skinned when the traversal first expands it.
 */
interface OnDemandSkin {
  /** Per chunk (CSR by off): the influence sets of its vertices, each with the bind-space box of the chunk's vertices in that set (6 numbers). */
  off: Int32Array;
  set: Int32Array;
  bind: Float64Array;
  /** The sets' blended matrices at the current sample (as in skinProgram) and the chunk root boxes from them. */
  mats: Float64Array;
  boxes: Float64Array;
  /** Per set and axis: the rounding pad of its mapped boxes at the current sample. */
  pad: Float64Array;
  /** Pose stamp at which each vertex (local index) was skinned on demand. */
  vstamp: Int32Array;
  /** Pose stamp of the on-demand refit (the tree is in that state until another refit). */
  stamp: number;
  write: (c: number) => void;
  /** Per chunk: the exact box of its skinned vertices (chunkExact), valid where estamp is the pose stamp. */
  ebox: Float64Array;
  estamp: Int32Array;
  /** Vertices skinned on demand at pose `stamp`, and the share of the part's vertices they were at the last pose before. */
  count: number;
  lastShare: number;
  /** Pose stamp at which `mats` and `boxes` were last computed (by the discrete on-demand refit or the continuous test's). */
  matStamp: number;
  /**
   * The previous sample, for the continuous test's swept tree on demand
   * (sweptTree): the sets' blended matrices and chunk boxes there (valid at
   * pose stamp prevMatStamp) and the pose stamp at which each vertex was
   * skinned into prevPositions. `pose` swaps them with the current sample's
   * when it keeps the previous sample, like the positions.
   */
  prevMats: Float64Array;
  prevBoxes: Float64Array;
  prevMatStamp: number;
  pvstamp: Int32Array;
  /** The swept tree's callback: skins chunk c at both samples (the vertices not skinned there yet). */
  sweptWrite: (c: number) => void;
}

/**
 * A part's linear blend skinning, compacted once. Its vertices' influence
 * sets (mesh, nonzero weights in slot order, their skin slots) are listed
 * once each: rigs share them widely (rigidly bound vertices, rings of a
 * limb), so each set's blended matrix is computed once per skinning and
 * every vertex with that set is transformed by it. The arithmetic is that
 * of skinPositions in the same order (the blended matrix summed over the
 * weights from 0, then applied to the bind position): bit-identical
 * positions. A part with few shared sets blends per vertex (`perVertex`).
 */
interface SkinProgram {
  /** Influence set per vertex (in part.verts order). */
  set: Int32Array;
  /** Per set: its mesh, and its weights (CSR by first) with their skin matrix offsets (slot · 16). */
  mesh: Int32Array;
  first: Int32Array;
  w: Float64Array;
  jo: Int32Array;
  /** Bind position per vertex (3 each). */
  bind: Float64Array;
  /** Output offset (merged vertex · 3) per vertex. */
  out: Int32Array;
  /** Per set, its blended matrix (the 12 entries m0 m1 m2 m4 m5 m6 m8 m9 m10 m12 m13 m14) at the last skinning. */
  mats: Float64Array;
  perVertex: boolean;
  /** Per set, the bind-space box of its vertices in this part (min xyz, max xyz): the set's blended matrix maps it over all of them (setsBox). */
  setBind: Float64Array;
}

function makeSkinProgram(meshes: SkinMeshes, meshOffsets: number[], verts: Uint32Array): SkinProgram {
  const n = verts.length;
  const set = new Int32Array(n), bind = new Float64Array(n * 3), out = new Int32Array(n);
  const ids = new Map<string, number>(), mesh: number[] = [], first: number[] = [], w: number[] = [], jo: number[] = [];
  for (let i = 0; i < n; i++) {
    const vv = verts[i], mi = meshOf(meshOffsets, vv), v = vv - meshOffsets[mi], m = meshes[mi];
    let key = `${mi}`;
    for (let k = 0; k < 4; k++) {
      const wk = m.weights[v * 4 + k];
      if (wk === 0) continue;
      const slot = m.joints[v * 4 + k];
      if (slot >= m.skinJoints.length) throw new RangeError(`mesh "${m.name}": vertex ${v} uses skin joint slot ${slot}, mesh has ${m.skinJoints.length}`);
      key += ` ${slot}:${wk}`;
    }
    let id = ids.get(key);
    if (id === undefined) {
      ids.set(key, (id = mesh.length));
      mesh.push(mi);
      first.push(w.length);
      for (let k = 0; k < 4; k++) {
        const wk = m.weights[v * 4 + k];
        if (wk !== 0) { w.push(wk); jo.push(m.joints[v * 4 + k] * 16); }
      }
    }
    set[i] = id;
    for (let k = 0; k < 3; k++) bind[i * 3 + k] = m.positions[v * 3 + k];
    out[i] = vv * 3;
  }
  first.push(w.length);
  const setBind = new Float64Array(mesh.length * 6);
  for (let c = 0; c < mesh.length; c++) { setBind.fill(Infinity, c * 6, c * 6 + 3); setBind.fill(-Infinity, c * 6 + 3, c * 6 + 6); }
  for (let i = 0; i < n; i++) {
    const b = set[i] * 6;
    for (let k = 0; k < 3; k++) {
      const x = bind[i * 3 + k];
      if (x < setBind[b + k]) setBind[b + k] = x;
      if (x > setBind[b + 3 + k]) setBind[b + 3 + k] = x;
    }
  }
  return {
    set, mesh: Int32Array.from(mesh), first: Int32Array.from(first), w: Float64Array.from(w), jo: Int32Array.from(jo), bind, out,
    mats: new Float64Array(mesh.length * 12), perVertex: mesh.length * 2 > n, setBind,
  };
}

/**
 * Skins a part by its program into outP, with the box of its vertices into
 * box[bo..bo+5] and each BVH chunk's vertex box into chunkBox.
 */
function skinProgram(sp: SkinProgram, skinMats: Float64Array[], outP: Float64Array, box: Float64Array, bo: number, chunks: ChunkBoxes | null, cb: Float64Array): void {
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  const sets = sp.set, mesh = sp.mesh, first = sp.first, W = sp.w, JO = sp.jo, B = sp.bind, O = sp.out, M = sp.mats, perVertex = sp.perVertex;
  if (!perVertex) for (let c = 0; c < mesh.length; c++) blendInto(M, c * 12, skinMats[mesh[c]], W, JO, first[c], first[c + 1]);
  const n = sets.length;
  if (chunks === null) {
    // the part's box only
    for (let i = 0; i < n; i++) {
      let m = sets[i] * 12;
      if (perVertex) { const c = sets[i]; blendInto(M, 0, skinMats[mesh[c]], W, JO, first[c], first[c + 1]); m = 0; }
      const i3 = i * 3, x = B[i3], y = B[i3 + 1], z = B[i3 + 2], o3 = O[i];
      const X = M[m] * x + M[m + 3] * y + M[m + 6] * z + M[m + 9];
      const Y = M[m + 1] * x + M[m + 4] * y + M[m + 7] * z + M[m + 10];
      const Z = M[m + 2] * x + M[m + 5] * y + M[m + 8] * z + M[m + 11];
      outP[o3] = X; outP[o3 + 1] = Y; outP[o3 + 2] = Z;
      if (X < lx) lx = X; if (X > hx) hx = X;
      if (Y < ly) ly = Y; if (Y > hy) hy = Y;
      if (Z < lz) lz = Z; if (Z > hz) hz = Z;
    }
    box[bo] = lx; box[bo + 1] = ly; box[bo + 2] = lz; box[bo + 3] = hx; box[bo + 4] = hy; box[bo + 5] = hz;
    return;
  }
  // each BVH chunk's vertex box too (each vertex updates the chunks it belongs to)
  const cOff = chunks.off, cList = chunks.list;
  for (let b = 0; b < cb.length; b += 6) { cb[b] = cb[b + 1] = cb[b + 2] = Infinity; cb[b + 3] = cb[b + 4] = cb[b + 5] = -Infinity; }
  for (let i = 0; i < n; i++) {
    let m = sets[i] * 12;
    if (perVertex) { const c = sets[i]; blendInto(M, 0, skinMats[mesh[c]], W, JO, first[c], first[c + 1]); m = 0; }
    const i3 = i * 3, x = B[i3], y = B[i3 + 1], z = B[i3 + 2], o3 = O[i];
    const X = M[m] * x + M[m + 3] * y + M[m + 6] * z + M[m + 9];
    const Y = M[m + 1] * x + M[m + 4] * y + M[m + 7] * z + M[m + 10];
    const Z = M[m + 2] * x + M[m + 5] * y + M[m + 8] * z + M[m + 11];
    outP[o3] = X; outP[o3 + 1] = Y; outP[o3 + 2] = Z;
    for (let q = cOff[i], qe = cOff[i + 1]; q < qe; q++) {
      const b = cList[q] * 6;
      if (X < cb[b]) cb[b] = X; if (X > cb[b + 3]) cb[b + 3] = X;
      if (Y < cb[b + 1]) cb[b + 1] = Y; if (Y > cb[b + 4]) cb[b + 4] = Y;
      if (Z < cb[b + 2]) cb[b + 2] = Z; if (Z > cb[b + 5]) cb[b + 5] = Z;
    }
  }
  // the part's box: the union of its chunks' (every vertex is in a chunk)
  for (let b = 0; b < cb.length; b += 6) {
    if (cb[b] < lx) lx = cb[b]; if (cb[b + 3] > hx) hx = cb[b + 3];
    if (cb[b + 1] < ly) ly = cb[b + 1]; if (cb[b + 4] > hy) hy = cb[b + 4];
    if (cb[b + 2] < lz) lz = cb[b + 2]; if (cb[b + 5] > hz) hz = cb[b + 5];
  }
  box[bo] = lx; box[bo + 1] = ly; box[bo + 2] = lz; box[bo + 3] = hx; box[bo + 4] = hy; box[bo + 5] = hz;
}

/** Each BVH chunk's vertex box (min xyz, max xyz, in the order of `lazyChunks`) from positions P, in registers over its vertex list. */
function chunkVertexBoxes(chunks: ChunkBoxes, P: Float64Array, cb: Float64Array): void {
  for (let c = 0, nc = chunks.cvo.length - 1; c < nc; c++) chunkVertexBox(chunks, c, P, cb);
}

/** Chunk c's vertex box (min xyz, max xyz) from positions P into cb[6c..6c+5], in registers over its vertex list. */
function chunkVertexBox(chunks: ChunkBoxes, c: number, P: Float64Array, cb: Float64Array): void {
  const cv = chunks.cv;
  let ax = Infinity, ay = Infinity, az = Infinity, bx = -Infinity, by = -Infinity, bz = -Infinity;
  for (let q = chunks.cvo[c], qe = chunks.cvo[c + 1]; q < qe; q++) {
    const v = cv[q], X = P[v], Y = P[v + 1], Z = P[v + 2];
    if (X < ax) ax = X; if (X > bx) bx = X;
    if (Y < ay) ay = Y; if (Y > by) by = Y;
    if (Z < az) az = Z; if (Z > bz) bz = Z;
  }
  const b = c * 6;
  cb[b] = ax; cb[b + 1] = ay; cb[b + 2] = az; cb[b + 3] = bx; cb[b + 4] = by; cb[b + 5] = bz;
}

const _setM = new Float64Array(12);

/**
 * A box around every vertex the program would skin, without skinning them:
 * the union over its influence sets of the set's blended matrix applied to
 * the set's bind-space box (an affine map of a box, bounded per row by the
 * least and largest of each term), padded by 1e-9 of the terms' magnitude
 * for the rounding of the blend and of the skinning sums (relative errors of
 * a few 1e-16). Contains every skinned position (seeded test), so a pair
 * these boxes keep apart is apart by the skinned boxes too. Into
 * out[oo..oo+5]. One blend per set: cheap where sets are shared widely.
 */
function setsBox(sp: SkinProgram, skinMats: Float64Array[], out: Float64Array, oo: number): void {
  const mesh = sp.mesh, first = sp.first, W = sp.w, JO = sp.jo, SB = sp.setBind, M = _setM;
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let c = 0; c < mesh.length; c++) {
    blendInto(M, 0, skinMats[mesh[c]], W, JO, first[c], first[c + 1]);
    const b = c * 6;
    const ax = SB[b], ay = SB[b + 1], az = SB[b + 2], bx = SB[b + 3], by = SB[b + 4], bz = SB[b + 5];
    for (let r = 0; r < 3; r++) {
      const m0 = M[r], m1 = M[r + 3], m2 = M[r + 6], t = M[r + 9];
      const p0 = m0 * ax, q0 = m0 * bx, p1 = m1 * ay, q1 = m1 * by, p2 = m2 * az, q2 = m2 * bz;
      const lo = t + (p0 < q0 ? p0 : q0) + (p1 < q1 ? p1 : q1) + (p2 < q2 ? p2 : q2);
      const hi = t + (p0 > q0 ? p0 : q0) + (p1 > q1 ? p1 : q1) + (p2 > q2 ? p2 : q2);
      const mag = Math.abs(t) + Math.abs(p0) + Math.abs(q0) + Math.abs(p1) + Math.abs(q1) + Math.abs(p2) + Math.abs(q2);
      const pad = 1e-9 * (mag + 1e-3);
      if (r === 0) { if (lo - pad < lx) lx = lo - pad; if (hi + pad > hx) hx = hi + pad; }
      else if (r === 1) { if (lo - pad < ly) ly = lo - pad; if (hi + pad > hy) hy = hi + pad; }
      else { if (lo - pad < lz) lz = lo - pad; if (hi + pad > hz) hz = hi + pad; }
    }
  }
  out[oo] = lx; out[oo + 1] = ly; out[oo + 2] = lz; out[oo + 3] = hx; out[oo + 4] = hy; out[oo + 5] = hz;
}

/**
 * The chunk root boxes of an on-demand part at a sample (skin matrices
 * `skinMats`) into `out`: per chunk the union over its influence sets of the
 * set's blended matrix (blended as skinProgram does, into M, kept for
 * skinChunk) applied to the bind box of the chunk's vertices in that set,
 * padded as in setsBox.
 */
function onDemandChunkBoxes(sp: SkinProgram, od: OnDemandSkin, skinMats: Float64Array[], M: Float64Array, out: Float64Array): void {
  const mesh = sp.mesh, first = sp.first, W = sp.w, JO = sp.jo, SP = od.pad, SB0 = sp.setBind;
  for (let c = 0; c < mesh.length; c++) {
    blendInto(M, c * 12, skinMats[mesh[c]], W, JO, first[c], first[c + 1]);
    // the rounding pad of every chunk's part of this set: from the set's whole bind box (its terms bound the chunks')
    const m = c * 12, b = c * 6;
    const ex = Math.max(Math.abs(SB0[b]), Math.abs(SB0[b + 3])), ey = Math.max(Math.abs(SB0[b + 1]), Math.abs(SB0[b + 4])), ez = Math.max(Math.abs(SB0[b + 2]), Math.abs(SB0[b + 5]));
    for (let r = 0; r < 3; r++) SP[c * 3 + r] = 1e-9 * (Math.abs(M[m + r + 9]) + 2 * (Math.abs(M[m + r]) * ex + Math.abs(M[m + r + 3]) * ey + Math.abs(M[m + r + 6]) * ez) + 1e-3);
  }
  const off = od.off, sets = od.set, SB = od.bind, nc = off.length - 1;
  for (let c = 0; c < nc; c++) {
    let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let e = off[c]; e < off[c + 1]; e++) {
      const st = sets[e], m = st * 12, b = e * 6, pd = st * 3;
      const ax = SB[b], ay = SB[b + 1], az = SB[b + 2], bx = SB[b + 3], by = SB[b + 4], bz = SB[b + 5];
      let m0 = M[m], m1 = M[m + 3], m2 = M[m + 6];
      let p0 = m0 * ax, q0 = m0 * bx, p1 = m1 * ay, q1 = m1 * by, p2 = m2 * az, q2 = m2 * bz;
      let t = M[m + 9], pad = SP[pd];
      let lo = t + (p0 < q0 ? p0 : q0) + (p1 < q1 ? p1 : q1) + (p2 < q2 ? p2 : q2) - pad;
      let hi = t + (p0 > q0 ? p0 : q0) + (p1 > q1 ? p1 : q1) + (p2 > q2 ? p2 : q2) + pad;
      if (lo < lx) lx = lo; if (hi > hx) hx = hi;
      m0 = M[m + 1]; m1 = M[m + 4]; m2 = M[m + 7];
      p0 = m0 * ax; q0 = m0 * bx; p1 = m1 * ay; q1 = m1 * by; p2 = m2 * az; q2 = m2 * bz;
      t = M[m + 10]; pad = SP[pd + 1];
      lo = t + (p0 < q0 ? p0 : q0) + (p1 < q1 ? p1 : q1) + (p2 < q2 ? p2 : q2) - pad;
      hi = t + (p0 > q0 ? p0 : q0) + (p1 > q1 ? p1 : q1) + (p2 > q2 ? p2 : q2) + pad;
      if (lo < ly) ly = lo; if (hi > hy) hy = hi;
      m0 = M[m + 2]; m1 = M[m + 5]; m2 = M[m + 8];
      p0 = m0 * ax; q0 = m0 * bx; p1 = m1 * ay; q1 = m1 * by; p2 = m2 * az; q2 = m2 * bz;
      t = M[m + 11]; pad = SP[pd + 2];
      lo = t + (p0 < q0 ? p0 : q0) + (p1 < q1 ? p1 : q1) + (p2 < q2 ? p2 : q2) - pad;
      hi = t + (p0 > q0 ? p0 : q0) + (p1 > q1 ? p1 : q1) + (p2 > q2 ? p2 : q2) + pad;
      if (lo < lz) lz = lo; if (hi > hz) hz = hi;
    }
    const b = c * 6;
    out[b] = lx; out[b + 1] = ly; out[b + 2] = lz; out[b + 3] = hx; out[b + 4] = hy; out[b + 5] = hz;
  }
}

/** Closed boxes X[i..i+5] and Y[j..j+5] (min xyz, max xyz) overlap. */
function boxesOverlap(X: Float64Array, i: number, Y: Float64Array, j: number): boolean {
  return !(X[i] > Y[j + 3] || Y[j] > X[i + 3] || X[i + 1] > Y[j + 4] || Y[j + 1] > X[i + 4] || X[i + 2] > Y[j + 5] || Y[j + 2] > X[i + 5]);
}

/** The union of the boxes in X (6 numbers each) into out[o..o+5]. */
function unionOfBoxes(X: Float64Array, out: Float64Array, o: number): void {
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let i = 0; i < X.length; i += 6) {
    if (X[i] < lx) lx = X[i]; if (X[i + 1] < ly) ly = X[i + 1]; if (X[i + 2] < lz) lz = X[i + 2];
    if (X[i + 3] > hx) hx = X[i + 3]; if (X[i + 4] > hy) hy = X[i + 4]; if (X[i + 5] > hz) hz = X[i + 5];
  }
  out[o] = lx; out[o + 1] = ly; out[o + 2] = lz; out[o + 3] = hx; out[o + 4] = hy; out[o + 5] = hz;
}

/** Skins chunk c's vertices not yet skinned at pose `stamp` into P, by the blended matrices of onDemandChunkBoxes (the arithmetic of skinProgram: bit-identical positions). */
function skinChunk(sp: SkinProgram, ch: ChunkBoxes, od: OnDemandSkin, c: number, P: Float64Array, stamp: number): void {
  const L = ch.cvLocal, cvo = ch.cvo, vst = od.vstamp, M = od.mats, sets = sp.set, B = sp.bind, O = sp.out;
  for (let q = cvo[c], qe = cvo[c + 1]; q < qe; q++) {
    const i = L[q];
    if (vst[i] === stamp) continue;
    vst[i] = stamp;
    od.count++;
    const m = sets[i] * 12, i3 = i * 3, x = B[i3], y = B[i3 + 1], z = B[i3 + 2], o3 = O[i];
    P[o3] = M[m] * x + M[m + 3] * y + M[m + 6] * z + M[m + 9];
    P[o3 + 1] = M[m + 1] * x + M[m + 4] * y + M[m + 7] * z + M[m + 10];
    P[o3 + 2] = M[m + 2] * x + M[m + 5] * y + M[m + 8] * z + M[m + 11];
  }
}

/**
 * Skins chunk c's vertices not yet skinned at pose `stamp` (per vertex stamps
 * `vst`) into P by the blended matrices M (the arithmetic of skinChunk:
 * bit-identical positions), without counting them as skinned by the
 * discrete on-demand refit: the continuous test's swept tree at either sample.
 */
function skinChunkAt(sp: SkinProgram, ch: ChunkBoxes, vst: Int32Array, M: Float64Array, c: number, P: Float64Array, stamp: number): void {
  const L = ch.cvLocal, cvo = ch.cvo, sets = sp.set, B = sp.bind, O = sp.out;
  for (let q = cvo[c], qe = cvo[c + 1]; q < qe; q++) {
    const i = L[q];
    if (vst[i] === stamp) continue;
    vst[i] = stamp;
    const m = sets[i] * 12, i3 = i * 3, x = B[i3], y = B[i3 + 1], z = B[i3 + 2], o3 = O[i];
    P[o3] = M[m] * x + M[m + 3] * y + M[m + 6] * z + M[m + 9];
    P[o3 + 1] = M[m + 1] * x + M[m + 4] * y + M[m + 7] * z + M[m + 10];
    P[o3 + 2] = M[m + 2] * x + M[m + 5] * y + M[m + 8] * z + M[m + 11];
  }
}

/** Skins the part's vertex of local index i at pose `stamp` into P if not yet (the arithmetic of skinChunk). */
function skinLocal(sp: SkinProgram, od: OnDemandSkin, i: number, P: Float64Array, stamp: number): void {
  const vst = od.vstamp;
  if (vst[i] === stamp) return;
  vst[i] = stamp;
  od.count++;
  const M = od.mats, B = sp.bind, m = sp.set[i] * 12, i3 = i * 3, x = B[i3], y = B[i3 + 1], z = B[i3 + 2], o3 = sp.out[i];
  P[o3] = M[m] * x + M[m + 3] * y + M[m + 6] * z + M[m + 9];
  P[o3 + 1] = M[m + 1] * x + M[m + 4] * y + M[m + 7] * z + M[m + 10];
  P[o3 + 2] = M[m + 2] * x + M[m + 5] * y + M[m + 8] * z + M[m + 11];
}

/** The blended skin matrix Σ w·S[slot] over weights k0..k1 (summed from 0 in that order, as skinPositions does) into M[mo..mo+11]. */
function blendInto(M: Float64Array, mo: number, S: Float64Array, W: Float64Array, JO: Int32Array, k0: number, k1: number): void {
  let m0 = 0, m1 = 0, m2 = 0, m4 = 0, m5 = 0, m6 = 0, m8 = 0, m9 = 0, m10 = 0, m12 = 0, m13 = 0, m14 = 0;
  for (let k = k0; k < k1; k++) {
    const w = W[k], o = JO[k];
    m0 += w * S[o]; m1 += w * S[o + 1]; m2 += w * S[o + 2];
    m4 += w * S[o + 4]; m5 += w * S[o + 5]; m6 += w * S[o + 6];
    m8 += w * S[o + 8]; m9 += w * S[o + 9]; m10 += w * S[o + 10];
    m12 += w * S[o + 12]; m13 += w * S[o + 13]; m14 += w * S[o + 14];
  }
  M[mo] = m0; M[mo + 1] = m1; M[mo + 2] = m2; M[mo + 3] = m4; M[mo + 4] = m5; M[mo + 5] = m6;
  M[mo + 6] = m8; M[mo + 7] = m9; M[mo + 8] = m10; M[mo + 9] = m12; M[mo + 10] = m13; M[mo + 11] = m14;
}

interface PartTopo {
  adjOff: Int32Array;
  adjV: Int32Array;
  /** The part's triangles on each entry's edge (the same twice for an edge on the part's border). */
  adjT: Int32Array;
  adjT2: Int32Array;
  /** The same triangles by their slot in the part's triangle list. */
  adjS: Int32Array;
  adjS2: Int32Array;
  /** Local indices of the vertices of the part's triangles, by slot (3 per triangle). */
  triLocal: Int32Array;
  /** The object's triangle → slot in its part's triangle list (shared by the object's parts). */
  triSlot: Int32Array;
}

/** One part against one closed object in one detect: regions and distance bounds (per vertex of part.verts). */
interface SideCache {
  stamp: number;
  comp: Int32Array;
  /** Region c's vertices are compQueue[compStart[c] .. compStart[c + 1]), for c below compCount. */
  compStart: Int32Array;
  compCount: number;
  compQueue: Int32Array;
  /** Largest crossing bound over the region (Infinity when a vertex has none). */
  compBound: Float64Array;
  /** -1 not tested, 0 outside, 1 inside. */
  compInside: Int8Array;
  /** Per region decided by ray parity (or carried from one): the closed shells of the other object it is inside of, as bits (-1: unknown). */
  compParity: Int32Array;
  /** Every crossing pair of the part's triangles with the other object's (part triangle, other triangle), xCount numbers. */
  xPairs: Int32Array;
  xCount: number;
  /** By the part's triangle slot, its crossing partners in closed shells: pairs xHead[s], xNext[xHead[s]], … (-1 ends; xHeadStamp[s] ≠ xStamp: none), built on first use in a detect (xStamp). */
  xHead: Int32Array;
  xHeadStamp: Int32Array;
  xNext: Int32Array;
  xStamp: number;
  compEst: Uint8Array;
  /** Distance bound from the vertex's crossing triangles (Infinity: none), and the ooi triangle crossed. */
  ubc: Float64Array;
  seed: Int32Array;
  /** Upper bound of the distance to the other surface, and a nearby triangle of it. */
  est: Float64Array;
  hint: Int32Array;
  /** 0: est from paths, 1: tightened by a surface walk, 3: and by a second walk from the side's last search (closedSideDepth), 2: exact. */
  exact: Uint8Array;
  /** The triangle nearest each vertex at the side's previous use (-1: none): a start for this one. */
  prev: Int32Array;
  /** Vertices in the box of the part and the other object's parts it crosses (the only ones a pair can count). */
  roiList: Int32Array;
  /** Per region: deferMark when closedSideDepth's first pass left it to the second (deferCount of them). */
  defer: Int32Array;
  deferMark: number;
  deferCount: number;
  /** The triangle of the other object the side's last exact distance search found this detect (-1: none): a second start for walks. */
  lastTri: number;
  roiCount: number;
  /** Per vertex: the stamp of the last on-demand scan that looked at it. */
  seen: Int32Array;
}

/** Min-heap by key[h[i]] over h[0..n): restores the order below slot k. */
function siftDownMin(h: Int32Array, n: number, k: number, key: Float64Array): void {
  const x = h[k], kx = key[x];
  for (;;) {
    let c = 2 * k + 1;
    if (c >= n) break;
    if (c + 1 < n && key[h[c + 1]] < key[h[c]]) c++;
    if (key[h[c]] >= kx) break;
    h[k] = h[c];
    k = c;
  }
  h[k] = x;
}

/** Adds x at slot k (= the heap's old size) of the min-heap h by key[x]. */
function siftUpMin(h: Int32Array, k: number, x: number, key: Float64Array): void {
  const kx = key[x];
  while (k > 0) {
    const up = (k - 1) >> 1;
    if (key[h[up]] <= kx) break;
    h[k] = h[up];
    k = up;
  }
  h[k] = x;
}

const _nextF = new Float64Array(1);
const _nextU = new Uint32Array(_nextF.buffer);
const _lowWord = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

/** The smallest double above x (x ≥ 0; Infinity stays): a search limit that includes x. */
function nextUp(x: number): number {
  if (!(x < Infinity)) return x;
  if (x === 0) return Number.MIN_VALUE;
  _nextF[0] = x;
  const lo = _lowWord, hi = 1 - _lowWord;
  if (_nextU[lo] === 0xffffffff) { _nextU[lo] = 0; _nextU[hi]++; } else _nextU[lo]++;
  return _nextF[0];
}

/** Max-heap by key[h[i]] over h[0..n): restores the order below slot k. */
function siftDown(h: Int32Array, n: number, k: number, key: Float64Array): void {
  const x = h[k], kx = key[x];
  for (;;) {
    let c = 2 * k + 1;
    if (c >= n) break;
    if (c + 1 < n && key[h[c + 1]] > key[h[c]]) c++;
    if (key[h[c]] <= kx) break;
    h[k] = h[c];
    k = c;
  }
  h[k] = x;
}

/** Adds x at slot k (= the heap's old size) of the max-heap h by key[x]. */
function siftUp(h: Int32Array, k: number, x: number, key: Float64Array): void {
  const kx = key[x];
  while (k > 0) {
    const up = (k - 1) >> 1;
    if (key[h[up]] >= kx) break;
    h[k] = h[up];
    k = up;
  }
  h[k] = x;
}

/** Index of vertex v in the sorted list `verts`. */
function localIndex(verts: Uint32Array, v: number): number {
  let lo = 0, hi = verts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (verts[mid] < v) lo = mid + 1; else hi = mid;
  }
  return lo;
}

let _vstamp = 0;
let _dstamp = 0;
/** Stamps of closedSideDepth's scratch (vertex and triangle marks). */
let _sstamp = 0;
/**
 * Slack of the bind-pose rule, relative to the character's bind-pose box
 * diagonal: skinning moves a crossing that exists in the bind pose a little
 * even when it does not get worse.
 */
const BIND_DEPTH_TOLERANCE = 1e-3;

function boxDistSq(B: Float64Array, o: number, x: number, y: number, z: number): number {
  const dx = Math.max(B[o] - x, 0, x - B[o + 3]);
  const dy = Math.max(B[o + 1] - y, 0, y - B[o + 4]);
  const dz = Math.max(B[o + 2] - z, 0, z - B[o + 5]);
  return dx * dx + dy * dy + dz * dz;
}

/** Box (min xyz, max xyz) of the listed vertices. */
function vertsBox(V: Uint32Array, P: Float64Array, out: Float64Array, oo = 0): void {
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let i = 0; i < V.length; i++) {
    const v = V[i] * 3;
    const x = P[v], y = P[v + 1], z = P[v + 2];
    if (x < lx) lx = x; if (x > hx) hx = x;
    if (y < ly) ly = y; if (y > hy) hy = y;
    if (z < lz) lz = z; if (z > hz) hz = z;
  }
  out[oo] = lx; out[oo + 1] = ly; out[oo + 2] = lz; out[oo + 3] = hx; out[oo + 4] = hy; out[oo + 5] = hz;
}

type SkinMeshes = ImpulseDocument['characters'][number]['meshes'];

/** Mesh of a merged vertex index (meshOffsets ascending). */
function meshOf(meshOffsets: number[], v: number): number {
  let mi = 0;
  while (mi + 1 < meshOffsets.length && v >= meshOffsets[mi + 1]) mi++;
  return mi;
}

/**
 * Per (mesh, slot) with nonzero weight on the part's vertices: the bind-space
 * box of those vertices (mesh, slot, centre, half extents). ws gets the
 * smallest and largest weight sum.
 */
function slotBoxes(meshes: SkinMeshes, meshOffsets: number[], verts: Uint32Array, ws: number[]): Float64Array {
  const boxes = new Map<number, number[]>();
  for (let i = 0; i < verts.length; i++) {
    const v = verts[i], mi = meshOf(meshOffsets, v), m = meshes[mi], lv = v - meshOffsets[mi];
    let sum = 0;
    for (let k = 0; k < 4; k++) {
      const w = m.weights[lv * 4 + k];
      if (w === 0) continue;
      sum += w;
      const key = mi * 65536 + m.joints[lv * 4 + k];
      let b = boxes.get(key);
      if (!b) boxes.set(key, (b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]));
      for (let c = 0; c < 3; c++) {
        const x = m.positions[lv * 3 + c];
        if (x < b[c]) b[c] = x;
        if (x > b[3 + c]) b[3 + c] = x;
      }
    }
    if (sum < ws[0]) ws[0] = sum;
    if (sum > ws[1]) ws[1] = sum;
  }
  const out = new Float64Array(boxes.size * 8);
  let e = 0;
  for (const [key, b] of boxes) {
    out[e] = Math.floor(key / 65536); out[e + 1] = key % 65536;
    for (let c = 0; c < 3; c++) { out[e + 2 + c] = (b[c] + b[3 + c]) / 2; out[e + 5 + c] = (b[3 + c] - b[c]) / 2; }
    e += 8;
  }
  return out;
}

export function sharedSkins(meshes: SkinMeshes): Int32Array {
  const lead = new Int32Array(meshes.length);
  for (let mi = 0; mi < meshes.length; mi++) {
    lead[mi] = mi;
    const a = meshes[mi];
    for (let mj = 0; mj < mi; mj++) {
      const b = meshes[mj];
      if (lead[mj] !== mj || a.skinJoints.length !== b.skinJoints.length || a.inverseBindMatrices.length !== b.inverseBindMatrices.length) continue;
      let same = true;
      for (let k = 0; same && k < a.skinJoints.length; k++) same = a.skinJoints[k] === b.skinJoints[k];
      for (let k = 0; same && k < a.inverseBindMatrices.length; k++) same = Object.is(a.inverseBindMatrices[k], b.inverseBindMatrices[k]);
      if (same) { lead[mi] = mj; break; }
    }
  }
  return lead;
}

/** The (mesh, slot) pairs whose skin matrix is read: per shared array (its first mesh), each slot a vertex of one of its meshes weights. */
function skinJobs(meshes: SkinMeshes, lead: Int32Array): Int32Array {
  const jobs: number[] = [];
  for (let mi = 0; mi < meshes.length; mi++) {
    if (lead[mi] !== mi) continue;
    const used = new Uint8Array(meshes[mi].skinJoints.length);
    for (let mj = mi; mj < meshes.length; mj++) {
      if (lead[mj] !== mi) continue;
      const J = meshes[mj].joints, W = meshes[mj].weights;
      for (let k = 0; k < W.length; k++) if (W[k] !== 0) used[J[k]] = 1;
    }
    for (let k = 0; k < used.length; k++) if (used[k] !== 0) jobs.push(mi, k);
  }
  return Int32Array.from(jobs);
}

/**
 * Conservative box of a character part from its skin matrices alone: the
 * union over (mesh, slot) entries of the box of S·(bind box), scaled by the
 * weight-sum range, padded for rounding.
 */
function partBoxFromJoints(part: PartInfo, skinMats: Float64Array[], out: Float64Array, oo: number): void {
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  const E = part.boxEntries;
  for (let e = 0; e < E.length; e += 8) {
    const S = skinMats[E[e]], o = E[e + 1] * 16;
    const cx = E[e + 2], cy = E[e + 3], cz = E[e + 4], ex = E[e + 5], ey = E[e + 6], ez = E[e + 7];
    const x = S[o] * cx + S[o + 4] * cy + S[o + 8] * cz + S[o + 12];
    const y = S[o + 1] * cx + S[o + 5] * cy + S[o + 9] * cz + S[o + 13];
    const z = S[o + 2] * cx + S[o + 6] * cy + S[o + 10] * cz + S[o + 14];
    const rx = Math.abs(S[o]) * ex + Math.abs(S[o + 4]) * ey + Math.abs(S[o + 8]) * ez;
    const ry = Math.abs(S[o + 1]) * ex + Math.abs(S[o + 5]) * ey + Math.abs(S[o + 9]) * ez;
    const rz = Math.abs(S[o + 2]) * ex + Math.abs(S[o + 6]) * ey + Math.abs(S[o + 10]) * ez;
    if (x - rx < lx) lx = x - rx; if (x + rx > hx) hx = x + rx;
    if (y - ry < ly) ly = y - ry; if (y + ry > hy) hy = y + ry;
    if (z - rz < lz) lz = z - rz; if (z + rz > hz) hz = z + rz;
  }
  const s0 = part.weightSumMin, s1 = part.weightSumMax;
  for (let c = 0; c < 3; c++) {
    let a = c === 0 ? lx : c === 1 ? ly : lz, b = c === 0 ? hx : c === 1 ? hy : hz;
    if (s0 !== 1 || s1 !== 1) {
      a = Math.min(a * s0, a * s1);
      b = Math.max(b * s0, b * s1);
    }
    // rounding of the skinning sums: far below any geometric scale
    const pad = 1e-9 * (Math.abs(a) + Math.abs(b) + 1e-3);
    out[oo + c] = a - pad;
    out[oo + 3 + c] = b + pad;
  }
}

/** Linear blend skinning of the listed merged vertices (the arithmetic of skeleton's skinPositions, so results are bit-identical). */
function skinVertices(meshes: SkinMeshes, meshOffsets: number[], skinMats: Float64Array[], verts: Uint32Array, out: Float64Array): void {
  // verts are sorted: one run per mesh, the mesh's arrays hoisted out of the loop
  let i = 0;
  const n = verts.length;
  while (i < n) {
    let mi = 0;
    const v0 = verts[i];
    while (mi + 1 < meshOffsets.length && v0 >= meshOffsets[mi + 1]) mi++;
    const end = mi + 1 < meshOffsets.length ? meshOffsets[mi + 1] : Infinity, off = meshOffsets[mi];
    const mesh = meshes[mi], S = skinMats[mi];
    const P = mesh.positions, J = mesh.joints, W = mesh.weights;
    for (; i < n; i++) {
      const vv = verts[i];
      if (vv >= end) break;
      const v = vv - off;
      let m0 = 0, m1 = 0, m2 = 0, m4 = 0, m5 = 0, m6 = 0, m8 = 0, m9 = 0, m10 = 0, m12 = 0, m13 = 0, m14 = 0;
      const v4 = v * 4;
      for (let k = 0; k < 4; k++) {
        const w = W[v4 + k];
        if (w === 0) continue;
        const o = J[v4 + k] * 16;
        m0 += w * S[o]; m1 += w * S[o + 1]; m2 += w * S[o + 2];
        m4 += w * S[o + 4]; m5 += w * S[o + 5]; m6 += w * S[o + 6];
        m8 += w * S[o + 8]; m9 += w * S[o + 9]; m10 += w * S[o + 10];
        m12 += w * S[o + 12]; m13 += w * S[o + 13]; m14 += w * S[o + 14];
      }
      const v3 = v * 3, x = P[v3], y = P[v3 + 1], z = P[v3 + 2], o3 = vv * 3;
      const X = m0 * x + m4 * y + m8 * z + m12, Y = m1 * x + m5 * y + m9 * z + m13, Z = m2 * x + m6 * y + m10 * z + m14;
      out[o3] = X; out[o3 + 1] = Y; out[o3 + 2] = Z;
    }
  }
}

function boxDiagonal(P: ArrayLike<number>): number {
  let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
  for (let i = 0; i < P.length; i += 3) {
    if (P[i] < lx) lx = P[i]; if (P[i] > hx) hx = P[i];
    if (P[i + 1] < ly) ly = P[i + 1]; if (P[i + 1] > hy) hy = P[i + 1];
    if (P[i + 2] < lz) lz = P[i + 2]; if (P[i + 2] > hz) hz = P[i + 2];
  }
  return P.length === 0 ? 0 : hypot3(hx - lx, hy - ly, hz - lz);
}
/** Triangles per BVH leaf: small leaves prune more triangle pairs in BVH-vs-BVH. */
const LEAF_SIZE = 4;
/** The planes of the last exact triangle test (tritri.ts), read for the crossing pairs' normals. */
const _triPlanes = lastTriTriPlanes();
/**
 * Part trees split by surface area (binned SAH over the bind pose) rather than
 * at the centroid median: fewer overlapping node pairs as the meshes deform
 * (mannequins' discrete contact frames 0.84–0.86× the CPU time).
 */
const TREE_SPLIT: 'median' | 'sah' = 'sah';

function meshExtent(P: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < P.length; i++) { const a = Math.abs(P[i]); if (a > m) m = a; }
  return Math.max(m, 1e-12);
}

function verticesOf(indices: Uint32Array, tris: number[]): Uint32Array {
  const set = new Set<number>();
  for (const t of tris) for (let j = 0; j < 3; j++) set.add(indices[t * 3 + j]);
  return Uint32Array.from([...set].sort((a, b) => a - b));
}

function range(a: number, b: number): Uint32Array {
  const r = new Uint32Array(b - a);
  for (let i = 0; i < r.length; i++) r[i] = a + i;
  return r;
}

/** Every directed edge used once and its reverse once, and positive signed volume. */
function isOrientedOutward(P: ArrayLike<number>, I: ArrayLike<number>): boolean {
  let maxV = 0;
  for (let i = 0; i < I.length; i++) if (I[i] > maxV) maxV = I[i];
  const N = maxV + 1;
  const seen = new Set<number>();
  for (let t = 0; t < I.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const k = I[t + e] * N + I[t + ((e + 1) % 3)];
      if (seen.has(k)) return false;
      seen.add(k);
    }
  }
  for (const k of seen) {
    const a = Math.floor(k / N), b = k - a * N;
    if (!seen.has(b * N + a)) return false;
  }
  let vol = 0;
  for (let t = 0; t < I.length; t += 3) {
    const a = I[t] * 3, b = I[t + 1] * 3, c = I[t + 2] * 3;
    vol += P[a] * (P[b + 1] * P[c + 2] - P[b + 2] * P[c + 1]) - P[a + 1] * (P[b] * P[c + 2] - P[b + 2] * P[c]) + P[a + 2] * (P[b] * P[c + 1] - P[b + 1] * P[c]);
  }
  return vol > 0;
}

/** Closed: every undirected edge used exactly twice. */
export function isClosed(indices: ArrayLike<number>): boolean {
  const count = new Map<number, number>();
  let maxV = 0;
  for (let i = 0; i < indices.length; i++) if (indices[i] > maxV) maxV = indices[i];
  const N = maxV + 1;
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e], b = indices[t + ((e + 1) % 3)];
      const k = a < b ? a * N + b : b * N + a;
      count.set(k, (count.get(k) ?? 0) + 1);
    }
  }
  if (count.size === 0) return false;
  for (const c of count.values()) if (c !== 2) return false;
  return true;
}

function loadTri(out: Float64Array, P: ArrayLike<number>, I: Uint32Array, t: number): void {
  const a = I[t * 3] * 3, b = I[t * 3 + 1] * 3, c = I[t * 3 + 2] * 3;
  out[0] = P[a]; out[1] = P[a + 1]; out[2] = P[a + 2];
  out[3] = P[b]; out[4] = P[b + 1]; out[5] = P[b + 2];
  out[6] = P[c]; out[7] = P[c + 1]; out[8] = P[c + 2];
}

/**
 * Earliest time in the step at which two linearly moving triangles can touch
 * (conservative): every point of a linearly moving triangle moves by a convex
 * combination of its vertices' displacements, so the distance between any two
 * points of the triangles shrinks at most at max_i |Δa_i − c| + max_j |Δb_j − c|
 * per step (any c; here Δb_0); they cannot touch before the gap between their
 * boxes at the start is closed. 0 when the boxes overlap; above 1 when the
 * triangles stay apart during the step (the start boxes and the scale from
 * the triangles' motion boxes). Orders the candidates (see
 * `touchWindowMotion` for the tighter window that skips them).
 */
function earliestTouch(
  mA: Float64Array, oa: number, mB: Float64Array, ob: number,
  A0: Float64Array, A1: Float64Array, IA: Uint32Array, ta: number, B0: Float64Array, B1: Float64Array, IB: Uint32Array, tb: number,
): number {
  // the boxes at the start and the scale come from the two motion boxes (motionBoxInto)
  let gap2 = 0;
  for (let k = 0; k < 12; k += 4) {
    const alo = mA[oa + k], ahi = mA[oa + k + 1], blo = mB[ob + k], bhi = mB[ob + k + 1];
    const g = blo > ahi ? blo - ahi : alo > bhi ? alo - bhi : 0;
    gap2 += g * g;
  }
  if (gap2 === 0) return 0;
  const c0 = IB[tb * 3] * 3;
  const cx = B1[c0] - B0[c0], cy = B1[c0 + 1] - B0[c0 + 1], cz = B1[c0 + 2] - B0[c0 + 2];
  let ma = 0, mb = 0;
  for (let j = 0; j < 3; j++) {
    const a = IA[ta * 3 + j] * 3, b = IB[tb * 3 + j] * 3;
    const ax = A1[a] - A0[a] - cx, ay = A1[a + 1] - A0[a + 1] - cy, az = A1[a + 2] - A0[a + 2] - cz;
    const bx = B1[b] - B0[b] - cx, by = B1[b + 1] - B0[b + 1] - cy, bz = B1[b + 2] - B0[b + 2] - cz;
    const da = Math.sqrt(ax * ax + ay * ay + az * az), db = Math.sqrt(bx * bx + by * by + bz * bz);
    if (da > ma) ma = da;
    if (db > mb) mb = db;
  }
  // less the distance within which the CCD reports a contact (relative to the
  // coordinates, end positions included), so no reported contact is cut
  const s1 = mA[oa + 12] > mB[ob + 12] ? mA[oa + 12] : mB[ob + 12];
  const gap = Math.sqrt(gap2) - CCD_REACH * (s1 + 1e-300);
  if (gap <= 0) return 0;
  const reach = (ma + mb) * (1 + 1e-12) + 1e-12 * (s1 + 1);
  return gap / reach;
}

/**
 * Per-slot triangle boxes of a part for the continuous test (see
 * CollisionScene.motionBoxes), and per leaf node a summary of its triangles
 * (LEAF_SUMMARY numbers at leaf[node·LEAF_SUMMARY], see `motionLeaf`).
 */
interface MotionCache { swept: Float64Array; box: Float64Array; motion: Float64Array; leaf: Float64Array; stamp: Int32Array; sweptStamp: Int32Array; normalStamp: Int32Array }

/**
 * Numbers per leaf in a motion cache's summary: the union of its triangles'
 * motion boxes in the same layout (per axis the least and largest start
 * coordinate and displacement, then the largest scale: 0..12), the box of its
 * triangles at the sample (13..18), the centre of its displacements' box
 * (19..21) and that box's half diagonal (22); at 24..26 the sum of its
 * triangles' cross products at the start and at 27..30 the leaf's moving
 * interval along it (`leafNormal`, when first needed).
 */
const LEAF_SUMMARY = 32;

/** Motion slots sa..ea of a leaf (node) and its summary. */
function motionLeaf(P0: Float64Array, P1: Float64Array, I: Uint32Array, order: Uint32Array, sa: number, ea: number, c: MotionCache, node: number): void {
  const L = c.leaf, l = node * LEAF_SUMMARY, M = c.motion, B = c.box;
  for (let k = 0; k < 3; k++) {
    L[l + k * 4] = Infinity; L[l + k * 4 + 1] = -Infinity; L[l + k * 4 + 2] = Infinity; L[l + k * 4 + 3] = -Infinity;
    L[l + 13 + k] = Infinity; L[l + 16 + k] = -Infinity;
  }
  let s = 0;
  for (let i = sa; i < ea; i++) {
    motionSlot(P0, P1, I, order[i], c, i);
    const m = i * MOTION_STRIDE, b = i * 6;
    for (let k = 0; k < 3; k++) {
      const o = l + k * 4, mk = m + k * 4;
      if (M[mk] < L[o]) L[o] = M[mk];
      if (M[mk + 1] > L[o + 1]) L[o + 1] = M[mk + 1];
      if (M[mk + 2] < L[o + 2]) L[o + 2] = M[mk + 2];
      if (M[mk + 3] > L[o + 3]) L[o + 3] = M[mk + 3];
      if (B[b + k] < L[l + 13 + k]) L[l + 13 + k] = B[b + k];
      if (B[b + 3 + k] > L[l + 16 + k]) L[l + 16 + k] = B[b + 3 + k];
    }
    if (M[m + 12] > s) s = M[m + 12];
  }
  L[l + 12] = s;
  let h2 = 0;
  for (let k = 0; k < 3; k++) {
    const lo = L[l + k * 4 + 2], hi = L[l + k * 4 + 3];
    L[l + 19 + k] = 0.5 * (lo + hi);
    h2 += (hi - lo) * (hi - lo);
  }
  L[l + 22] = 0.5 * Math.sqrt(h2);
}

/**
 * A lower bound of `earliestTouch` over every triangle pair of two leaves
 * (summaries at LA[la..], LB[lb..]): the gap between the leaves' start boxes
 * is at most each pair's, and with c_A, c_B the centres and r_A, r_B the
 * half diagonals of the leaves' displacement boxes, a pair's closing-speed
 * bound max_i |Δa_i − c| + max_j |Δb_j − c| (c = Δ of a vertex of B's
 * triangle, within r_B of c_B) is at most (r_A + |c_A − c_B| + r_B) + 2·r_B;
 * padded well beyond rounding. Above 1 when no pair can touch in the step.
 */
function leafEarliestTouch(LA: Float64Array, la: number, LB: Float64Array, lb: number): number {
  let gap2 = 0;
  for (let k = 0; k < 12; k += 4) {
    const alo = LA[la + k], ahi = LA[la + k + 1], blo = LB[lb + k], bhi = LB[lb + k + 1];
    const g = blo > ahi ? blo - ahi : alo > bhi ? alo - bhi : 0;
    gap2 += g * g;
  }
  if (gap2 === 0) return 0;
  const s = LA[la + 12] > LB[lb + 12] ? LA[la + 12] : LB[lb + 12];
  const gap = Math.sqrt(gap2) - CCD_REACH * (s + 1e-300);
  if (gap <= 0) return 0;
  const dx = LA[la + 19] - LB[lb + 19], dy = LA[la + 20] - LB[lb + 20], dz = LA[la + 21] - LB[lb + 21];
  const reach = (LA[la + 22] + Math.sqrt(dx * dx + dy * dy + dz * dz) + 3 * LB[lb + 22]) * (1 + 1e-9) + 2e-12 * (s + 1);
  return gap / reach;
}

/** The sum of leaf `node`'s triangles' cross products at the start (P0) into its summary (24..26) and its own moving interval along it (27..30: least and largest n·x, n·Δx), once per pose. */
function leafNormal(P0: Float64Array, P1: Float64Array, I: Uint32Array, order: Uint32Array, sa: number, ea: number, c: MotionCache, node: number, fs: number): void {
  if (c.normalStamp[node] === fs) return;
  c.normalStamp[node] = fs;
  let nx = 0, ny = 0, nz = 0;
  for (let i = sa; i < ea; i++) {
    const t = order[i], a = I[t * 3] * 3, b = I[t * 3 + 1] * 3, d = I[t * 3 + 2] * 3;
    const ux = P0[b] - P0[a], uy = P0[b + 1] - P0[a + 1], uz = P0[b + 2] - P0[a + 2];
    const vx = P0[d] - P0[a], vy = P0[d + 1] - P0[a + 1], vz = P0[d + 2] - P0[a + 2];
    nx += uy * vz - uz * vy; ny += uz * vx - ux * vz; nz += ux * vy - uy * vx;
  }
  const l = node * LEAF_SUMMARY, L = c.leaf;
  L[l + 24] = nx; L[l + 25] = ny; L[l + 26] = nz;
  // the leaf's own moving interval along it
  projectLeaf(nx, ny, nz, P0, P1, I, order, sa, ea);
  L[l + 27] = _plo; L[l + 28] = _phi; L[l + 29] = _pdlo; L[l + 30] = _pdhi;
}

let _plo = 0, _phi = 0, _pdlo = 0, _pdhi = 0;

/** Least and largest n·x at the start and n·Δx of the vertices of a leaf's triangles (slots sa..ea) into _plo, _phi, _pdlo, _pdhi. */
function projectLeaf(nx: number, ny: number, nz: number, P0: Float64Array, P1: Float64Array, I: Uint32Array, order: Uint32Array, sa: number, ea: number): void {
  let lo = Infinity, hi = -Infinity, dlo = Infinity, dhi = -Infinity;
  for (let i = sa; i < ea; i++) {
    const t = order[i] * 3;
    for (let j = 0; j < 3; j++) {
      const v = I[t + j] * 3;
      const x = P0[v] * nx + P0[v + 1] * ny + P0[v + 2] * nz;
      const d = (P1[v] - P0[v]) * nx + (P1[v + 1] - P0[v + 1]) * ny + (P1[v + 2] - P0[v + 2]) * nz;
      if (x < lo) lo = x; if (x > hi) hi = x;
      if (d < dlo) dlo = d; if (d > dhi) dhi = d;
    }
  }
  _plo = lo; _phi = hi; _pdlo = dlo; _pdhi = dhi;
}

/**
 * The later of the windows of the moving intervals of leaves na (of A) and
 * nb (of B) along each leaf's normal (`windowAlong`: every feature of their
 * triangle pairs lies in the hulls of the two leaves' vertices, so none of
 * their CCD contacts lies before it); Infinity when either is empty. Where a
 * leaf's patch is nearly flat and the other approaches it face-on, this is
 * far tighter than the axes' window.
 */
function leafNormalsWindow(
  na: number, nb: number, treeA: TriangleBVH, treeB: TriangleBVH, mcA: MotionCache, mcB: MotionCache,
  A0: Float64Array, A1: Float64Array, IA: Uint32Array, B0: Float64Array, B1: Float64Array, IB: Uint32Array, fs: number,
): number {
  const ua = treeA.u32, ub = treeB.u32, orderA = treeA.order, orderB = treeB.order;
  const sa = ua[na * 8 + 6], ea = sa + (ua[na * 8 + 7] & 0x7fffffff), sb = ub[nb * 8 + 6], eb = sb + (ub[nb * 8 + 7] & 0x7fffffff);
  leafNormal(A0, A1, IA, orderA, sa, ea, mcA, na, fs);
  leafNormal(B0, B1, IB, orderB, sb, eb, mcB, nb, fs);
  const la = na * LEAF_SUMMARY, lb = nb * LEAF_SUMMARY;
  const scale = mcA.leaf[la + 12] > mcB.leaf[lb + 12] ? mcA.leaf[la + 12] : mcB.leaf[lb + 12];
  let w = 0;
  for (let pass = 0; pass < 2; pass++) {
    const L = pass === 0 ? mcA.leaf : mcB.leaf, o = pass === 0 ? la : lb;
    const nx = L[o + 24], ny = L[o + 25], nz = L[o + 26];
    const n = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(n > 0)) continue;
    // this leaf's interval kept, the other leaf's projected on this leaf's normal
    if (pass === 0) projectLeaf(nx, ny, nz, B0, B1, IB, orderB, sb, eb); else projectLeaf(nx, ny, nz, A0, A1, IA, orderA, sa, ea);
    const t = pass === 0
      ? windowAlong(L[o + 27], L[o + 28], L[o + 29], L[o + 30], _plo, _phi, _pdlo, _pdhi, scale, n)
      : windowAlong(_plo, _phi, _pdlo, _pdhi, L[o + 27], L[o + 28], L[o + 29], L[o + 30], scale, n);
    if (t === Infinity) return Infinity;
    if (t > w) w = t;
  }
  return w;
}

/** Closed box B[o..o+5] meets the box L[l..l+5] (min xyz, max xyz). */
function boxMeetsBox(B: Float64Array, o: number, L: Float64Array, l: number): boolean {
  return !(B[o] > L[l + 3] || B[o + 1] > L[l + 4] || B[o + 2] > L[l + 5] || B[o + 3] < L[l] || B[o + 4] < L[l + 1] || B[o + 5] < L[l + 2]);
}

/** Slot i of a motion cache: triangle t's box at the sample (P1) and its motion box (its box over the motion: `sweptLeaf`, when its leaf pairs are gathered). */
function motionSlot(P0: Float64Array, P1: Float64Array, I: Uint32Array, t: number, c: MotionCache, i: number): void {
  triBoxInto(P1, I, t, c.box, i * 6);
  motionBoxInto(P0, P1, I, t, c.motion, i * MOTION_STRIDE);
}

/** The boxes over the motion (P0 → P1) of slots sa..ea of a leaf (node), once per pose (stamp fs). */
function sweptLeaf(P0: Float64Array, P1: Float64Array, I: Uint32Array, order: Uint32Array, sa: number, ea: number, c: MotionCache, node: number, fs: number): void {
  if (c.sweptStamp[node] === fs) return;
  c.sweptStamp[node] = fs;
  for (let i = sa; i < ea; i++) sweptTriBoxInto(P0, P1, I, order[i], c.swept, i * 6);
}

/** Axis-aligned box of triangle t (positions P, indices I) into out[o..o+5] (min xyz, max xyz). */
function triBoxInto(P: Float64Array, I: Uint32Array, t: number, out: Float64Array, o: number): void {
  const a = I[t * 3] * 3, b = I[t * 3 + 1] * 3, c = I[t * 3 + 2] * 3;
  // the vertex that gives each bound chosen by index arithmetic, not by
  // branches on the coordinates (which mispredict): the same choice as
  // p0 < p1 ? (p0 < p2 ? p0 : p2) : (p1 < p2 ? p1 : p2), and likewise for the
  // largest, so the same numbers (signed zeros included)
  const ab = a - b;
  for (let k = 0; k < 3; k++) {
    const p0 = P[a + k], p1 = P[b + k], p2 = P[c + k];
    const il = b + ab * +(p0 < p1), ih = b + ab * +(p0 > p1);
    const vl = P[il + k], vh = P[ih + k];
    out[o + k] = P[c + (il - c) * +(vl < p2) + k];
    out[o + 3 + k] = P[c + (ih - c) * +(vh > p2) + k];
  }
}

/** Box of triangle t over its motion (positions at both samples P0, P1) into out[o..o+5]. */
function sweptTriBoxInto(P0: Float64Array, P1: Float64Array, I: Uint32Array, t: number, out: Float64Array, o: number): void {
  const a = I[t * 3] * 3, b = I[t * 3 + 1] * 3, c = I[t * 3 + 2] * 3;
  for (let k = 0; k < 3; k++) {
    const p0 = P0[a + k], p1 = P0[b + k], p2 = P0[c + k], q0 = P1[a + k], q1 = P1[b + k], q2 = P1[c + k];
    let lo = p0 < p1 ? (p0 < p2 ? p0 : p2) : p1 < p2 ? p1 : p2;
    let hi = p0 > p1 ? (p0 > p2 ? p0 : p2) : p1 > p2 ? p1 : p2;
    const lq = q0 < q1 ? (q0 < q2 ? q0 : q2) : q1 < q2 ? q1 : q2;
    const hq = q0 > q1 ? (q0 > q2 ? q0 : q2) : q1 > q2 ? q1 : q2;
    if (lq < lo) lo = lq;
    if (hq > hi) hi = hq;
    out[o + k] = lo;
    out[o + 3 + k] = hi;
  }
}

/** Closed box B[o..o+5] meets the float32 box of node offset no in f. */
function boxMeetsNode(B: Float64Array, o: number, f: Float32Array, no: number): boolean {
  return !(B[o] > f[no + 3] || B[o + 1] > f[no + 4] || B[o + 2] > f[no + 5] || B[o + 3] < f[no] || B[o + 4] < f[no + 1] || B[o + 5] < f[no + 2]);
}

/** Axis-aligned boxes of triangle ta (positions A, indices IA) and tb overlap; read in place, axis by axis. */
function trisBoxesOverlapAt(A: Float64Array, IA: Uint32Array, ta: number, B: Float64Array, IB: Uint32Array, tb: number): boolean {
  const a0 = IA[ta * 3] * 3, a1 = IA[ta * 3 + 1] * 3, a2 = IA[ta * 3 + 2] * 3;
  const b0 = IB[tb * 3] * 3, b1 = IB[tb * 3 + 1] * 3, b2 = IB[tb * 3 + 2] * 3;
  for (let k = 0; k < 3; k++) {
    const p0 = A[a0 + k], p1 = A[a1 + k], p2 = A[a2 + k], q0 = B[b0 + k], q1 = B[b1 + k], q2 = B[b2 + k];
    const pmax = p0 > p1 ? (p0 > p2 ? p0 : p2) : p1 > p2 ? p1 : p2;
    const qmin = q0 < q1 ? (q0 < q2 ? q0 : q2) : q1 < q2 ? q1 : q2;
    if (qmin > pmax) return false;
    const pmin = p0 < p1 ? (p0 < p2 ? p0 : p2) : p1 < p2 ? p1 : p2;
    const qmax = q0 > q1 ? (q0 > q2 ? q0 : q2) : q1 > q2 ? q1 : q2;
    if (pmin > qmax) return false;
  }
  return true;
}

function sharesVertex(I: Uint32Array, a: number, b: number): boolean {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) if (I[a * 3 + i] === I[b * 3 + j]) return true;
  return false;
}

function firstTriOfVertex(I: Uint32Array, v: number): number {
  for (let i = 0; i < I.length; i++) if (I[i] === v) return (i / 3) | 0;
  return 0;
}

function putPoint(c: Float64Array, o: number, P: Float64Array, i: number): void {
  c[o] = P[i]; c[o + 1] = P[i + 1]; c[o + 2] = P[i + 2];
}

/** Swept boxes of the two features of a CCD query overlap (necessary for contact). */
function sweptBoxesOverlap(c: Float64Array, o: number, vf: boolean): boolean {
  // feature 1: points 0 (and 1 for an edge); feature 2: the others
  const n1 = vf ? 1 : 2;
  for (let k = 0; k < 3; k++) {
    let lo1 = Infinity, hi1 = -Infinity, lo2 = Infinity, hi2 = -Infinity;
    for (let i = 0; i < 4; i++) {
      const x0 = c[o + i * 3 + k], x1 = c[o + 12 + i * 3 + k];
      const lo = x0 < x1 ? x0 : x1, hi = x0 < x1 ? x1 : x0;
      if (i < n1) { if (lo < lo1) lo1 = lo; if (hi > hi1) hi1 = hi; } else { if (lo < lo2) lo2 = lo; if (hi > hi2) hi2 = hi; }
    }
    if (lo1 > hi2 || lo2 > hi1) return false;
  }
  return true;
}


/** (unit normal of Q) − (unit normal of P): points from Q's object into P's. */
/** Fixed-point scale of the summed contact normal (2³²). */
const NORMAL_FIXED = 4294967296;

function accumulateNormal(P: Float64Array, Q: Float64Array, out: Float64Array): void {
  out[0] = out[1] = out[2] = 0;
  for (let s = 0; s < 2; s++) {
    const T = s === 0 ? Q : P, sign = s === 0 ? 1 : -1;
    const ux = T[3] - T[0], uy = T[4] - T[1], uz = T[5] - T[2], vx = T[6] - T[0], vy = T[7] - T[1], vz = T[8] - T[2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l === 0) continue;
    out[0] += sign * nx / l; out[1] += sign * ny / l; out[2] += sign * nz / l;
  }
}

function findClip(doc: ImpulseDocument, clip?: string): ImpulseDocument['clips'][number] | null {
  if (doc.clips.length === 0) return null;
  if (clip !== undefined) {
    const c = doc.clips.find((c) => c.id === clip) ?? doc.clips.find((c) => c.name === clip);
    if (!c) throw new Error(`clip "${clip}" not found (clips: ${doc.clips.map((c) => c.name).join(', ')})`);
    return c;
  }
  return doc.clips.find((c) => c.id === doc.activeClip) ?? doc.clips[0];
}

/**
 * Discrete check of one frame (for scrubbing): every part pair in contact at
 * `frame` of the scene's clip, with depth, point and normal. Reuses the scene's
 * structures; no continuous detection (there is no previous sample).
 */
export function checkFrame(scene: CollisionScene, frame: number): FrameContact[] {
  const clip = scene.evaluator.clip;
  const rate = clip ? clip.frameRate : 30;
  scene.pose(frame / rate, false);
  return scene.detect(false);
}

function keyOf(c: FrameContact): string {
  return `${c.a.objectId}\u0000${c.a.joint}\u0000${c.b.objectId}\u0000${c.b.joint}\u0000${c.kind === 'contain' ? 'c' : 'x'}`;
}

/**
 * Whole-clip check: samples the clip at `fps` (default its frame rate), runs
 * the discrete check at every sample and the continuous check between
 * consecutive samples, and merges per part pair into frame intervals.
 * Frames in the report count samples at `fps` from the clip's start time.
 */
export async function checkClip(
  doc: ImpulseDocument, options: CheckOptions = {}, onProgress?: (done: number, total: number) => void, signal?: AbortSignal,
): Promise<CheckReport> {
  const clip = findClip(doc, options.clip);
  const scene = new CollisionScene(doc, clip?.id, options.treeSplit);
  const rate = clip ? clip.frameRate : 30;
  const fps = options.fps ?? rate;
  if (!(fps > 0) || !Number.isFinite(fps)) throw new Error(`fps must be a positive number, got ${fps}`);
  const t0 = clip ? clip.startFrame / rate : 0, t1 = clip ? clip.endFrame / rate : 0;
  const first = Math.round(t0 * fps), last = Math.max(first, Math.round(t1 * fps));
  const frames = last - first + 1;
  const continuous = options.continuous ?? true;
  const open = new Map<string, Finding>();
  const findings: Finding[] = [];
  let lastYield = Date.now();
  for (let f = first; f <= last; f++) {
    if (signal?.aborted) throw new CheckAbortedError();
    scene.pose(f / fps, f > first);
    const contacts = scene.detect(continuous);
    for (const c of contacts) {
      const key = keyOf(c);
      const cur = open.get(key);
      if (c.kind === 'tunnel') {
        // contact between the samples only: a finding of its own unless the pair is already in contact
        if (cur && cur.endFrame === f - 1) continue;
        const ft = f - 1 + (c.ccdTime ?? 0);
        const fnd: Finding = {
          a: c.a, b: c.b, kind: 'tunnel', startFrame: f - 1, endFrame: f, firstContactTime: ft,
          firstContactPoint: c.ccdPoint ?? c.point, maxDepth: 0, maxDepthFrame: f - 1, point: c.ccdPoint ?? c.point, normal: c.normal,
        };
        findings.push(fnd);
        continue;
      }
      if (cur && cur.endFrame === f - 1 && cur.kind === c.kind) {
        cur.endFrame = f;
        if (c.depth > cur.maxDepth) { cur.maxDepth = c.depth; cur.maxDepthFrame = f; }
      } else {
        const ft = c.ccdTime !== null && f > first ? f - 1 + c.ccdTime : f;
        const fnd: Finding = {
          a: c.a, b: c.b, kind: c.kind, startFrame: f, endFrame: f, firstContactTime: ft,
          firstContactPoint: c.ccdPoint ?? c.point, maxDepth: c.depth, maxDepthFrame: f, point: c.point, normal: c.normal,
        };
        open.set(key, fnd);
        findings.push(fnd);
      }
    }
    onProgress?.(f - first + 1, frames);
    if (Date.now() - lastYield > 50) {
      lastYield = Date.now();
      await new Promise<void>((r) => setTimeout(r, 0));
    }
  }
  findings.sort((x, y) => x.startFrame - y.startFrame || x.firstContactTime - y.firstContactTime);
  return {
    fps, frames, startFrame: first, endFrame: last, clip: clip ? clip.name : null, findings,
    warnings: scene.warnings.slice(), stats: { ...scene.stats },
  };
}
