/**
 * Semantic checks of an ImpulseDocument: everything the zod schema cannot
 * say (cross-references, ranges, array lengths, finiteness of typed-array
 * data, key order). Each problem is a `DocumentError` with the object path.
 */
import { cubicRotationSegmentPassesZero } from '../anim/quatSpline';
import { DocumentError, describeValue } from './errors';
import { documentSchema } from './schema';
import { zodErrorToDocumentError } from './zodIssues';
import type {
  CharacterCollision,
  CollisionSettings,
  ImpulseDocument,
  Material,
  PartRef,
  SkinnedMesh,
  SourceRef,
  Track,
  Transform,
} from './types';

/** Tolerance on the per-vertex sum of skin weights (8-bit quantised weights are off by up to 4 * 0.5/255). */
export const WEIGHT_SUM_TOLERANCE = 0.01;
/** Quaternions with a squared norm below this cannot be normalised reliably. */
const MIN_QUAT_NORM_SQ = 1e-12;
const MAX_U32 = 0xffffffff;
const MAX_GROUPS = 32;

class Stop {}

class Problems {
  readonly list: DocumentError[] = [];
  constructor(private readonly limit: number) {}
  add(path: string, detail: string): void {
    this.list.push(new DocumentError(path, detail));
    if (this.list.length >= this.limit) throw new Stop();
  }
}

function componentCount(path: Track['path']): number {
  return path === 'rotation' ? 4 : 3;
}

function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/**
 * Largest magnitude accepted for transforms, key times and values, gravity,
 * masses and the like: far beyond any scene in metres, seconds and
 * kilograms, and small enough that squares, products and differences of a
 * few such values stay finite (1e308 is finite but overflows the first
 * velocity or quaternion norm). Bulk mesh data (float32) is not bounded.
 */
export const MAX_MAGNITUDE = 1e20;
/** Longest clip, in frames (about 92 hours at 30 fps); a longer one is a typo that would make checking and baking endless. */
export const MAX_CLIP_FRAMES = 1e7;
/**
 * Shortest interval between two keys of a track, in seconds: closer keys make
 * the curve's exact derivative (velocities of keyframed bodies) overflow
 * (keys one float64 step apart at 1e-300 s give infinite slopes).
 */
export const MIN_KEY_INTERVAL_SEC = 1e-9;
/** Accepted frame rates, frames per second. */
export const MIN_FRAME_RATE = 1e-3;
export const MAX_FRAME_RATE = 1e5;

/** Finite numbers; `bounded`: also of magnitude at most MAX_MAGNITUDE (not asked of bulk mesh data, stored bit for bit). */
function checkFinite(p: Problems, path: string, a: ArrayLike<number>, bounded = true): boolean {
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i])) {
      p.add(`${path}[${i}]`, `expected a finite number, got ${describeValue(a[i])}`);
      return false;
    }
    if (bounded && Math.abs(a[i]) > MAX_MAGNITUDE) {
      p.add(`${path}[${i}]`, `${a[i]} is out of range (magnitude at most ${MAX_MAGNITUDE})`);
      return false;
    }
  }
  return true;
}

function isBounded(x: unknown): x is number {
  return isFiniteNumber(x) && Math.abs(x) <= MAX_MAGNITUDE;
}

function checkQuatNonZero(p: Problems, path: string, q: ArrayLike<number>, offset = 0, what = 'quaternion'): void {
  const x = q[offset], y = q[offset + 1], z = q[offset + 2], w = q[offset + 3];
  const n = x * x + y * y + z * z + w * w;
  if (!(n >= MIN_QUAT_NORM_SQ)) p.add(path, `${what} [${x}, ${y}, ${z}, ${w}] has zero length (cannot be normalised)`);
}

function checkTransform(p: Problems, path: string, t: Transform): void {
  checkFinite(p, `${path}.translation`, t.translation);
  checkFinite(p, `${path}.scale`, t.scale);
  if (checkFinite(p, `${path}.rotation`, t.rotation)) checkQuatNonZero(p, `${path}.rotation`, t.rotation);
}

function checkUnit(p: Problems, path: string, x: number): void {
  if (!isFiniteNumber(x) || x < 0 || x > 1) p.add(path, `must be in [0, 1] (got ${describeValue(x)})`);
}

function checkMaterial(p: Problems, path: string, m: Material): void {
  for (let i = 0; i < 4; i++) checkUnit(p, `${path}.baseColor[${i}]`, m.baseColor[i]);
  checkUnit(p, `${path}.metallic`, m.metallic);
  checkUnit(p, `${path}.roughness`, m.roughness);
}

function checkBitmask(p: Problems, path: string, v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > MAX_U32) p.add(path, `must be a 32-bit mask, an integer in [0, ${MAX_U32}] (got ${describeValue(v)})`);
}

function checkCollision(p: Problems, path: string, c: CollisionSettings): void {
  checkBitmask(p, `${path}.groups`, c.groups);
  checkBitmask(p, `${path}.mask`, c.mask);
}

function checkCharacterCollision(p: Problems, path: string, c: CharacterCollision): void {
  checkCollision(p, path, c);
  if (!Number.isInteger(c.adjacentHops) || c.adjacentHops < 0) p.add(`${path}.adjacentHops`, `must be an integer >= 0 (got ${describeValue(c.adjacentHops)})`);
}

function checkSource(p: Problems, path: string, s: SourceRef | undefined): void {
  if (s && (!Number.isInteger(s.index) || s.index < 0)) p.add(`${path}.index`, `must be an integer >= 0 (got ${describeValue(s.index)})`);
}

type TypedCtor = Float32ArrayConstructor | Uint32ArrayConstructor | Uint16ArrayConstructor | Int32ArrayConstructor;

/** In memory, bulk data must be the typed array `types.ts` names (the schema also accepts plain arrays on disk). */
function checkTyped(p: Problems, path: string, a: unknown, ctor: TypedCtor): boolean {
  if (a instanceof ctor) return true;
  p.add(path, `expected a ${ctor.name}, got ${describeValue(a)}`);
  return false;
}

/** Checks positions/normals/indices; returns the vertex count, or -1 when positions are unusable. */
function checkTriangles(
  p: Problems,
  path: string,
  positions: ArrayLike<number>,
  normals: ArrayLike<number> | undefined,
  indices: ArrayLike<number>,
): number {
  if (!checkTyped(p, `${path}.positions`, positions, Float32Array)) return -1;
  if (normals !== undefined && !checkTyped(p, `${path}.normals`, normals, Float32Array)) return -1;
  if (!checkTyped(p, `${path}.indices`, indices, Uint32Array)) return -1;
  if (positions.length % 3 !== 0) {
    p.add(`${path}.positions`, `length ${positions.length} is not a multiple of 3 (xyz per vertex)`);
    return -1;
  }
  const vertexCount = positions.length / 3;
  checkFinite(p, `${path}.positions`, positions, false);
  if (normals) {
    if (normals.length !== positions.length)
      p.add(`${path}.normals`, `length ${normals.length} does not match positions (${positions.length}, ${vertexCount} vertices)`);
    else checkFinite(p, `${path}.normals`, normals, false);
  }
  if (indices.length % 3 !== 0) p.add(`${path}.indices`, `length ${indices.length} is not a multiple of 3 (triangle list)`);
  for (let i = 0; i < indices.length; i++) {
    if (indices[i] >= vertexCount) {
      p.add(`${path}.indices[${i}]`, `vertex ${indices[i]} out of range (mesh has ${vertexCount} vertices)`);
      break;
    }
  }
  return vertexCount;
}

function checkSkinnedMesh(p: Problems, path: string, m: SkinnedMesh, jointCount: number, materialCount: number): void {
  const vertexCount = checkTriangles(p, path, m.positions, m.normals, m.indices);
  if (
    !checkTyped(p, `${path}.joints`, m.joints, Uint16Array) ||
    !checkTyped(p, `${path}.weights`, m.weights, Float32Array) ||
    !checkTyped(p, `${path}.skinJoints`, m.skinJoints, Int32Array) ||
    !checkTyped(p, `${path}.inverseBindMatrices`, m.inverseBindMatrices, Float32Array)
  )
    return;
  if (!Number.isInteger(m.material) || m.material < 0 || m.material >= materialCount)
    p.add(`${path}.material`, `index ${describeValue(m.material)} out of range (character has ${materialCount} materials)`);
  const slots = m.skinJoints.length;
  for (let i = 0; i < slots; i++) {
    const j = m.skinJoints[i];
    if (j < 0 || j >= jointCount) {
      p.add(`${path}.skinJoints[${i}]`, `joint ${j} out of range (skeleton has ${jointCount} joints)`);
      break;
    }
  }
  if (m.inverseBindMatrices.length !== 16 * slots)
    p.add(`${path}.inverseBindMatrices`, `length ${m.inverseBindMatrices.length}, expected ${16 * slots} (16 per skin joint, ${slots} skin joints)`);
  else checkFinite(p, `${path}.inverseBindMatrices`, m.inverseBindMatrices, false);
  if (vertexCount < 0) return;
  if (m.joints.length !== 4 * vertexCount)
    p.add(`${path}.joints`, `length ${m.joints.length}, expected ${4 * vertexCount} (4 per vertex, ${vertexCount} vertices)`);
  else {
    for (let i = 0; i < m.joints.length; i++) {
      if (m.joints[i] >= slots) {
        p.add(`${path}.joints[${i}]`, `skin joint slot ${m.joints[i]} out of range (mesh has ${slots} skin joints)`);
        break;
      }
    }
  }
  if (m.weights.length !== 4 * vertexCount) {
    p.add(`${path}.weights`, `length ${m.weights.length}, expected ${4 * vertexCount} (4 per vertex, ${vertexCount} vertices)`);
    return;
  }
  const w = m.weights;
  for (let v = 0; v < vertexCount; v++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) {
      const x = w[4 * v + k];
      if (!Number.isFinite(x) || x < 0) {
        p.add(`${path}.weights[${4 * v + k}]`, `weight must be finite and >= 0 (got ${describeValue(x)})`);
        return;
      }
      sum += x;
    }
    if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
      p.add(`${path}.weights[${4 * v}]`, `weights of vertex ${v} sum to ${sum}, expected 1 (±${WEIGHT_SUM_TOLERANCE})`);
      return;
    }
  }
}

function channelName(t: Track): string {
  return t.target.kind === 'joint' ? `joint ${t.target.joint} of "${t.target.character}" ${t.path}` : `prop "${t.target.prop}" ${t.path}`;
}

function checkTrack(p: Problems, path: string, t: Track, jointCounts: Map<string, number>, propIds: Set<string>): void {
  const target = t.target;
  if (target.kind === 'joint') {
    const n = jointCounts.get(target.character);
    if (n === undefined) p.add(`${path}.target.character`, `no character with id ${JSON.stringify(target.character)}`);
    else if (!Number.isInteger(target.joint) || target.joint < 0 || target.joint >= n)
      p.add(`${path}.target.joint`, `index ${describeValue(target.joint)} out of range (character ${JSON.stringify(target.character)} has ${n} joints)`);
  } else if (!propIds.has(target.prop)) {
    p.add(`${path}.target.prop`, `no prop with id ${JSON.stringify(target.prop)}`);
  }
  const times = t.times;
  if (times.length === 0) p.add(`${path}.times`, 'a track needs at least one key');
  let timesOk = true;
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i])) {
      p.add(`${path}.times[${i}]`, `expected a finite number, got ${describeValue(times[i])}`);
      timesOk = false;
      break;
    }
    if (Math.abs(times[i]) > MAX_MAGNITUDE) {
      p.add(`${path}.times[${i}]`, `${times[i]} s is out of range (magnitude at most ${MAX_MAGNITUDE})`);
      timesOk = false;
      break;
    }
    if (i > 0 && !(times[i] > times[i - 1])) {
      p.add(`${path}.times[${i}]`, `not strictly increasing (${times[i]} after ${times[i - 1]})`);
      timesOk = false;
      break;
    }
    if (i > 0 && !(times[i] - times[i - 1] >= MIN_KEY_INTERVAL_SEC)) {
      p.add(`${path}.times[${i}]`, `${times[i]} s is only ${times[i] - times[i - 1]} s after the previous key (keys must be at least ${MIN_KEY_INTERVAL_SEC} s apart)`);
      timesOk = false;
      break;
    }
  }
  const comps = componentCount(t.path);
  const groups = t.interpolation === 'cubic' ? 3 : 1;
  const stride = comps * groups;
  const expected = times.length * stride;
  if (t.values.length !== expected) {
    p.add(
      `${path}.values`,
      `length ${t.values.length}, expected ${expected} (${times.length} keys × ${comps} for ${t.path}${groups === 3 ? ' × 3 for cubic: in-tangent, value, out-tangent' : ''})`,
    );
    return;
  }
  if (!checkFinite(p, `${path}.values`, t.values)) return;
  if (t.path === 'rotation') {
    const valueOffset = groups === 3 ? 4 : 0;
    for (let k = 0; k < times.length; k++) {
      const o = k * stride + valueOffset;
      const v = t.values;
      const n = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2] + v[o + 3] * v[o + 3];
      if (!(n >= MIN_QUAT_NORM_SQ)) {
        checkQuatNonZero(p, `${path}.values[${o}]`, v, o, `key ${k} quaternion`);
        return;
      }
    }
    // A cubic rotation segment whose (unnormalised) spline reaches the zero
    // quaternion has no orientation there: refused here, exactly, instead of
    // failing when sampled (core/anim/quatSpline.ts).
    if (groups === 3 && timesOk)
      for (let k = 0; k + 1 < times.length; k++)
        if (cubicRotationSegmentPassesZero(times, t.values, k)) {
          p.add(`${path}.values[${k * stride}]`, `cubic rotation between keys ${k} and ${k + 1} (${times[k]} s to ${times[k + 1]} s) passes through the zero quaternion, which is no rotation (e.g. q to -q with tangents along q or zero): flip key ${k + 1}'s sign or change a tangent`);
          return;
        }
  }
}

function checkPartRef(p: Problems, path: string, r: PartRef, jointCounts: Map<string, number>, propIds: Set<string>): void {
  const n = jointCounts.get(r.object);
  if (n === undefined && !propIds.has(r.object)) {
    p.add(`${path}.object`, `no character or prop with id ${JSON.stringify(r.object)}`);
    return;
  }
  if (r.joint === undefined) return;
  if (n === undefined) p.add(`${path}.joint`, `${JSON.stringify(r.object)} is a prop, which has no joints`);
  else if (!Number.isInteger(r.joint) || r.joint < 0 || r.joint >= n)
    p.add(`${path}.joint`, `index ${describeValue(r.joint)} out of range (character ${JSON.stringify(r.object)} has ${n} joints)`);
}

function semanticProblems(doc: ImpulseDocument, p: Problems): void {
  checkFinite(p, 'gravity', doc.gravity);
  if (doc.groundY !== null && !isBounded(doc.groundY)) p.add('groundY', `expected a finite number (magnitude at most ${MAX_MAGNITUDE}) or null, got ${describeValue(doc.groundY)}`);

  // Ids: one namespace for characters, props and clips (tracks and ignore rules refer to them).
  const seen = new Map<string, string>();
  const claim = (path: string, id: string) => {
    if (id.length === 0) p.add(path, 'id must not be empty');
    const first = seen.get(id);
    if (first !== undefined) p.add(path, `duplicate id ${JSON.stringify(id)} (also ${first})`);
    else seen.set(id, path);
  };
  doc.characters.forEach((c, i) => claim(`characters[${i}].id`, c.id));
  doc.props.forEach((pr, i) => claim(`props[${i}].id`, pr.id));
  doc.clips.forEach((c, i) => claim(`clips[${i}].id`, c.id));

  const jointCounts = new Map<string, number>();
  doc.characters.forEach((c, ci) => {
    const path = `characters[${ci}]`;
    jointCounts.set(c.id, c.skeleton.joints.length);
    checkTransform(p, `${path}.transform`, c.transform);
    const joints = c.skeleton.joints;
    if (joints.length === 0) p.add(`${path}.skeleton.joints`, 'a character needs at least one joint');
    joints.forEach((j, ji) => {
      const jp = `${path}.skeleton.joints[${ji}]`;
      if (!Number.isInteger(j.parent) || j.parent < -1 || j.parent >= joints.length)
        p.add(`${jp}.parent`, `index ${describeValue(j.parent)} out of range (skeleton has ${joints.length} joints)`);
      else if (j.parent >= ji) p.add(`${jp}.parent`, `parent ${j.parent} does not come before joint ${ji} (parents must come first)`);
      checkTransform(p, `${jp}.rest`, j.rest);
    });
    c.materials.forEach((m, mi) => checkMaterial(p, `${path}.materials[${mi}]`, m));
    c.meshes.forEach((m, mi) => checkSkinnedMesh(p, `${path}.meshes[${mi}]`, m, joints.length, c.materials.length));
    checkCharacterCollision(p, `${path}.collision`, c.collision);
    checkSource(p, `${path}.source`, c.source);
  });

  const propIds = new Set<string>();
  doc.props.forEach((pr, pi) => {
    const path = `props[${pi}]`;
    propIds.add(pr.id);
    checkTransform(p, `${path}.transform`, pr.transform);
    checkTriangles(p, `${path}.mesh`, pr.mesh.positions, pr.mesh.normals, pr.mesh.indices);
    checkMaterial(p, `${path}.material`, pr.material);
    const ph = pr.physics;
    const hasMass = ph.massKg !== undefined;
    const hasDensity = ph.densityKgPerM3 !== undefined;
    if (hasMass && hasDensity) p.add(`${path}.physics`, 'both massKg and densityKgPerM3 are set (exactly one must be)');
    else if (!hasMass && !hasDensity) p.add(`${path}.physics`, 'neither massKg nor densityKgPerM3 is set (exactly one must be)');
    else if (hasMass && !(isFiniteNumber(ph.massKg) && ph.massKg > 0)) p.add(`${path}.physics.massKg`, `must be a finite number > 0 (got ${describeValue(ph.massKg)})`);
    else if (hasMass && !isBounded(ph.massKg)) p.add(`${path}.physics.massKg`, `${ph.massKg} is out of range (at most ${MAX_MAGNITUDE})`);
    else if (hasDensity && !(isFiniteNumber(ph.densityKgPerM3) && ph.densityKgPerM3 > 0))
      p.add(`${path}.physics.densityKgPerM3`, `must be a finite number > 0 (got ${describeValue(ph.densityKgPerM3)})`);
    else if (hasDensity && !isBounded(ph.densityKgPerM3)) p.add(`${path}.physics.densityKgPerM3`, `${ph.densityKgPerM3} is out of range (at most ${MAX_MAGNITUDE})`);
    checkUnit(p, `${path}.physics.restitution`, ph.restitution);
    if (!(isFiniteNumber(ph.friction) && ph.friction >= 0)) p.add(`${path}.physics.friction`, `must be a finite number >= 0 (got ${describeValue(ph.friction)})`);
    else if (!isBounded(ph.friction)) p.add(`${path}.physics.friction`, `${ph.friction} is out of range (at most ${MAX_MAGNITUDE})`);
    checkCollision(p, `${path}.collision`, pr.collision);
    checkSource(p, `${path}.source`, pr.source);
  });

  doc.clips.forEach((clip, ci) => {
    const path = `clips[${ci}]`;
    if (!(isFiniteNumber(clip.frameRate) && clip.frameRate > 0)) p.add(`${path}.frameRate`, `must be a finite number > 0 (got ${describeValue(clip.frameRate)})`);
    else if (!(clip.frameRate >= MIN_FRAME_RATE && clip.frameRate <= MAX_FRAME_RATE))
      p.add(`${path}.frameRate`, `${clip.frameRate} frames per second is out of range [${MIN_FRAME_RATE}, ${MAX_FRAME_RATE}]`);
    if (!Number.isInteger(clip.startFrame) || !isBounded(clip.startFrame)) p.add(`${path}.startFrame`, `must be an integer of magnitude at most ${MAX_MAGNITUDE} (got ${describeValue(clip.startFrame)})`);
    if (!Number.isInteger(clip.endFrame) || !isBounded(clip.endFrame)) p.add(`${path}.endFrame`, `must be an integer of magnitude at most ${MAX_MAGNITUDE} (got ${describeValue(clip.endFrame)})`);
    else if (clip.endFrame < clip.startFrame) p.add(`${path}.endFrame`, `${clip.endFrame} is before startFrame ${clip.startFrame}`);
    else if (clip.endFrame - clip.startFrame > MAX_CLIP_FRAMES)
      p.add(`${path}.endFrame`, `the clip is ${clip.endFrame - clip.startFrame} frames long (${clip.startFrame}..${clip.endFrame}); at most ${MAX_CLIP_FRAMES} frames`);
    const channels = new Map<string, number>();
    clip.tracks.forEach((t, ti) => {
      const tp = `${path}.tracks[${ti}]`;
      checkTrack(p, tp, t, jointCounts, propIds);
      const key = t.target.kind === 'joint' ? `j\u0000${t.target.character}\u0000${t.target.joint}\u0000${t.path}` : `p\u0000${t.target.prop}\u0000${t.path}`;
      const other = channels.get(key);
      if (other !== undefined) p.add(tp, `animates the same channel as tracks[${other}] (${channelName(t)})`);
      else channels.set(key, ti);
    });
  });

  if (doc.clips.length === 0) {
    if (doc.activeClip !== '') p.add('activeClip', `no clip with id ${JSON.stringify(doc.activeClip)} (the document has no clips)`);
  } else if (!doc.clips.some((c) => c.id === doc.activeClip)) {
    p.add('activeClip', `no clip with id ${JSON.stringify(doc.activeClip)}`);
  }

  doc.check.ignore.forEach((rule, ri) => {
    checkPartRef(p, `check.ignore[${ri}].a`, rule.a, jointCounts, propIds);
    checkPartRef(p, `check.ignore[${ri}].b`, rule.b, jointCounts, propIds);
  });
  if (doc.check.groupNames.length > MAX_GROUPS) p.add('check.groupNames', `${doc.check.groupNames.length} names, at most ${MAX_GROUPS} collision groups exist`);
}

/**
 * Every problem of a structurally valid document (at most `limit`), in
 * document order. The document must already satisfy the schema.
 */
export function semanticDocumentProblems(doc: ImpulseDocument, limit = Infinity): DocumentError[] {
  const p = new Problems(limit);
  try {
    semanticProblems(doc, p);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  return p.list;
}

/**
 * Problems of an in-memory document: structure (the schema, typed arrays of
 * the right kind) first, then the semantic checks. Empty when valid.
 */
export function documentProblems(doc: unknown, limit = Infinity): DocumentError[] {
  const parsed = documentSchema.safeParse(doc, { reportInput: true });
  if (!parsed.success) return [zodErrorToDocumentError(parsed.error)];
  return semanticDocumentProblems(doc as ImpulseDocument, limit);
}

/** Throws the first problem of an in-memory document (used before saving or exporting). */
export function validateDocument(doc: ImpulseDocument): void {
  const problems = documentProblems(doc, 1);
  if (problems.length > 0) throw problems[0];
}
