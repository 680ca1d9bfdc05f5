/**
 * Evaluation of a whole document at a time: local joint poses of every
 * character, prop transforms, and their exact time derivatives (the
 * velocities of keyframed, infinite-mass bodies).
 *
 * Built once per document + clip: one `TrackSampler` per track, and a lookup
 * table from every joint/prop channel to its sampler, so evaluation at a time
 * is a flat loop with no searching and no allocation.
 */
import type { Clip, ImpulseDocument, TrackPath } from '../document/types';
import type { Vec3Like } from '../math/vec3';
import { TrackError, TrackSampler, angularVelocityFromQuat, describeTrack, type FlatOut } from './track';
import { mat4Compose } from '../math/mat4';
import { mat4ComposeDerivative } from './compose';

/** Numbers per local transform: translation xyz, rotation xyzw, scale xyz. */
export const TRS_STRIDE = 10;

const PATH_SLOT: Record<TrackPath, number> = { translation: 0, rotation: 1, scale: 2 };
const PATH_OFFSET = [0, 3, 7];
const PATH_SIZE = [3, 4, 3];

/** Time in seconds of a (possibly fractional) frame of the clip: frame / frameRate. */
export function frameToTime(clip: Pick<Clip, 'frameRate'>, frame: number): number {
  return frame / clip.frameRate;
}

/** Frame (fractional, not rounded) at a time in seconds: timeSec · frameRate. */
export function timeToFrame(clip: Pick<Clip, 'frameRate'>, timeSec: number): number {
  return timeSec * clip.frameRate;
}

/** Error in a clip's tracks (unknown target, duplicate channel, bad keys). */
export class AnimationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnimationError';
  }
}

export class SceneEvaluator {
  readonly doc: ImpulseDocument;
  /** The evaluated clip, or null when the document has no clips (rest poses). */
  readonly clip: Clip | null;
  /** Samplers in clip track order (same index as `clip.tracks`). */
  readonly samplers: TrackSampler[];
  /**
   * For character ci, joint j, path slot p (0 t, 1 r, 2 s): index into
   * `samplers` or -1, at `channels[ci][j * 3 + p]`.
   */
  readonly characterChannels: Int32Array[];
  /** For prop pi, path slot p: index into `samplers` or -1, at `propChannels[pi * 3 + p]`. */
  readonly propChannels: Int32Array;
  /** Rest local poses, TRS_STRIDE numbers per joint, per character. */
  readonly restPoses: Float64Array[];
  /** Rest transforms of props, TRS_STRIDE numbers per prop. */
  readonly propRest: Float64Array;

  /**
   * For character ci, its tracked channels as pairs (index into `samplers`,
   * offset into a pose buffer), in joint and path order: `trackedChannels[ci]`.
   */
  private readonly trackedChannels: Int32Array[];

  private readonly _trs = new Float64Array(TRS_STRIDE);
  private readonly _trsDot = new Float64Array(TRS_STRIDE);

  /**
   * @param clipId the clip to evaluate; defaults to `doc.activeClip`. A
   * document without clips evaluates to rest poses (clip null).
   */
  constructor(doc: ImpulseDocument, clipId?: string) {
    this.doc = doc;
    let clip: Clip | null = null;
    if (clipId !== undefined) {
      clip = doc.clips.find((c) => c.id === clipId) ?? null;
      if (!clip) throw new AnimationError(`clip "${clipId}" not found (document has ${doc.clips.map((c) => `"${c.id}"`).join(', ') || 'no clips'})`);
    } else if (doc.clips.length > 0) {
      clip = doc.clips.find((c) => c.id === doc.activeClip) ?? null;
      if (!clip) throw new AnimationError(`activeClip: no clip with id "${doc.activeClip}"`);
    }
    this.clip = clip;

    const charIndex = new Map<string, number>();
    doc.characters.forEach((c, i) => charIndex.set(c.id, i));
    const propIndex = new Map<string, number>();
    doc.props.forEach((p, i) => propIndex.set(p.id, i));

    this.restPoses = doc.characters.map((c) => {
      const joints = c.skeleton.joints;
      const rest = new Float64Array(joints.length * TRS_STRIDE);
      for (let j = 0; j < joints.length; j++) writeTransform(rest, j * TRS_STRIDE, joints[j].rest);
      return rest;
    });
    this.propRest = new Float64Array(doc.props.length * TRS_STRIDE);
    doc.props.forEach((p, i) => writeTransform(this.propRest, i * TRS_STRIDE, p.transform));

    this.characterChannels = doc.characters.map((c) => new Int32Array(c.skeleton.joints.length * 3).fill(-1));
    this.propChannels = new Int32Array(doc.props.length * 3).fill(-1);
    this.samplers = [];
    this.trackedChannels = doc.characters.map(() => new Int32Array(0));
    if (!clip) return;
    const clipIdx = doc.clips.indexOf(clip);
    clip.tracks.forEach((track, k) => {
      const where = `clips[${clipIdx}].tracks[${k}]`;
      const slot = PATH_SLOT[track.path];
      if (slot === undefined) throw new AnimationError(`${where}.path: unknown path "${String(track.path)}"`);
      let table: Int32Array;
      let at: number;
      const target = track.target;
      if (target.kind === 'joint') {
        const ci = charIndex.get(target.character);
        if (ci === undefined) throw new AnimationError(`${where}.target.character: no character with id "${target.character}"`);
        const n = doc.characters[ci].skeleton.joints.length;
        if (!Number.isInteger(target.joint) || target.joint < 0 || target.joint >= n)
          throw new AnimationError(`${where}.target.joint: index ${target.joint} out of range (character "${target.character}" has ${n} joints)`);
        table = this.characterChannels[ci];
        at = target.joint * 3 + slot;
      } else if (target.kind === 'prop') {
        const pi = propIndex.get(target.prop);
        if (pi === undefined) throw new AnimationError(`${where}.target.prop: no prop with id "${target.prop}"`);
        table = this.propChannels;
        at = pi * 3 + slot;
      } else throw new AnimationError(`${where}.target.kind: unknown kind "${String((target as { kind: unknown }).kind)}"`);
      if (table[at] !== -1) throw new AnimationError(`${where}: second ${describeTrack(track)} (first is tracks[${table[at]}])`);
      let sampler: TrackSampler;
      try {
        sampler = new TrackSampler(track, `${where} (${describeTrack(track)})`);
      } catch (e) {
        if (e instanceof TrackError) throw new AnimationError(e.message);
        throw e;
      }
      table[at] = k;
      this.samplers.push(sampler);
    });
    this.trackedChannels = this.characterChannels.map((ch) => {
      const pairs: number[] = [];
      for (let j = 0; j < ch.length / 3; j++) for (let p = 0; p < 3; p++) if (ch[j * 3 + p] >= 0) pairs.push(ch[j * 3 + p], j * TRS_STRIDE + PATH_OFFSET[p]);
      return Int32Array.from(pairs);
    });
  }

  /** Start of the clip in seconds (0 without a clip). */
  get startTimeSec(): number {
    return this.clip ? frameToTime(this.clip, this.clip.startFrame) : 0;
  }

  /** End of the clip in seconds (0 without a clip). */
  get endTimeSec(): number {
    return this.clip ? frameToTime(this.clip, this.clip.endFrame) : 0;
  }

  characterIndex(id: string): number {
    return this.doc.characters.findIndex((c) => c.id === id);
  }

  propIndex(id: string): number {
    return this.doc.props.findIndex((p) => p.id === id);
  }

  /**
   * Local pose of every joint of character `ci` at `timeSec`: TRS_STRIDE
   * numbers per joint (t xyz, q xyzw, s xyz); rest values where untracked.
   */
  characterLocalPose<T extends FlatOut>(ci: number, timeSec: number, out: T): T {
    const channels = this.characterChannels[ci];
    if (!channels) throw new RangeError(`character index ${ci} out of range (${this.doc.characters.length} characters)`);
    const rest = this.restPoses[ci];
    const n = channels.length / 3;
    for (let j = 0; j < n; j++) {
      const base = j * TRS_STRIDE;
      for (let p = 0; p < 3; p++) {
        const o = base + PATH_OFFSET[p];
        const k = channels[j * 3 + p];
        if (k >= 0) this.samplers[k].valueAt(timeSec, out, o);
        else for (let c = 0; c < PATH_SIZE[p]; c++) out[o + c] = rest[o + c];
      }
    }
    return out;
  }

  /**
   * `characterLocalPose` for a buffer that already holds the rest values in
   * the untracked channels (from an earlier `characterLocalPose` of the same
   * character into it, never written there since): only the tracked channels
   * are sampled, into the same places with the same numbers. For callers
   * that pose the same buffer every step.
   *
   * `held` (optional, `trackedChannelCount(ci)` numbers, -1 at first) is
   * the caller's record of the key each channel held (`TrackSampler.heldKey`:
   * before the first key, after the last, on a step) when it last sampled
   * into `out`, -1 where it interpolated; it is brought up to date. Returns
   * whether every channel held the same key as recorded there, so wrote the
   * numbers it had written then (false without a record): when nothing
   * else wrote to `out` since, `out` did not change.
   */
  characterLocalPoseTracked(ci: number, timeSec: number, out: FlatOut, held?: Int32Array): boolean {
    const pairs = this.trackedChannels[ci];
    if (!pairs) throw new RangeError(`character index ${ci} out of range (${this.doc.characters.length} characters)`);
    if (held && held.length !== pairs.length / 2)
      throw new RangeError(`held has ${held.length} numbers, expected ${pairs.length / 2} (the tracked channels of character ${ci})`);
    let same = held !== undefined;
    for (let k = 0; k < pairs.length; k += 2) {
      const s = this.samplers[pairs[k]];
      s.valueAt(timeSec, out, pairs[k + 1]);
      if (held) {
        const key = s.heldKey;
        if (key < 0 || held[k >> 1] !== key) same = false;
        held[k >> 1] = key;
      }
    }
    return same;
  }

  /** Number of tracked channels (joint × path with a track) of character ci. */
  trackedChannelCount(ci: number): number {
    const pairs = this.trackedChannels[ci];
    if (!pairs) throw new RangeError(`character index ${ci} out of range (${this.doc.characters.length} characters)`);
    return pairs.length / 2;
  }

  /**
   * `characterLocalPoseDerivative` for a buffer that already holds zeros in
   * the untracked channels (as `characterLocalPoseTracked`).
   */
  characterLocalPoseDerivativeTracked<T extends FlatOut>(ci: number, timeSec: number, out: T): T {
    const pairs = this.trackedChannels[ci];
    if (!pairs) throw new RangeError(`character index ${ci} out of range (${this.doc.characters.length} characters)`);
    for (let k = 0; k < pairs.length; k += 2) this.samplers[pairs[k]].derivativeAt(timeSec, out, pairs[k + 1]);
    return out;
  }

  /**
   * Exact time derivative of `characterLocalPose`: ṫ xyz, q̇ xyzw, ṡ xyz per
   * joint (zeros where untracked).
   */
  characterLocalPoseDerivative<T extends FlatOut>(ci: number, timeSec: number, out: T): T {
    const channels = this.characterChannels[ci];
    if (!channels) throw new RangeError(`character index ${ci} out of range (${this.doc.characters.length} characters)`);
    const n = channels.length / 3;
    for (let j = 0; j < n; j++) {
      const base = j * TRS_STRIDE;
      for (let p = 0; p < 3; p++) {
        const o = base + PATH_OFFSET[p];
        const k = channels[j * 3 + p];
        if (k >= 0) this.samplers[k].derivativeAt(timeSec, out, o);
        else for (let c = 0; c < PATH_SIZE[p]; c++) out[o + c] = 0;
      }
    }
    return out;
  }

  /** Whether joint j of character ci has any track in the clip. */
  isJointAnimated(ci: number, j: number): boolean {
    const ch = this.characterChannels[ci];
    return ch[j * 3] >= 0 || ch[j * 3 + 1] >= 0 || ch[j * 3 + 2] >= 0;
  }

  /** Whether prop pi has any track in the clip. */
  isPropAnimated(pi: number): boolean {
    const ch = this.propChannels;
    return ch[pi * 3] >= 0 || ch[pi * 3 + 1] >= 0 || ch[pi * 3 + 2] >= 0;
  }

  /** Transform of prop `pi` at `timeSec` (t xyz, q xyzw, s xyz); rest values where untracked. */
  propTransform<T extends FlatOut>(pi: number, timeSec: number, out10: T, offset = 0): T {
    this._checkProp(pi);
    const rest = this.propRest;
    for (let p = 0; p < 3; p++) {
      const o = PATH_OFFSET[p];
      const k = this.propChannels[pi * 3 + p];
      if (k >= 0) this.samplers[k].valueAt(timeSec, out10, offset + o);
      else for (let c = 0; c < PATH_SIZE[p]; c++) out10[offset + o + c] = rest[pi * TRS_STRIDE + o + c];
    }
    return out10;
  }

  /** Exact time derivative of `propTransform` (zeros where untracked). */
  propTransformDerivative<T extends FlatOut>(pi: number, timeSec: number, out10: T, offset = 0): T {
    this._checkProp(pi);
    for (let p = 0; p < 3; p++) {
      const o = PATH_OFFSET[p];
      const k = this.propChannels[pi * 3 + p];
      if (k >= 0) this.samplers[k].derivativeAt(timeSec, out10, offset + o);
      else for (let c = 0; c < PATH_SIZE[p]; c++) out10[offset + o + c] = 0;
    }
    return out10;
  }

  /** World matrix (column-major 4x4, T·R·S) of prop `pi` at `timeSec`. */
  propWorldMatrix<T extends FlatOut>(pi: number, timeSec: number, out16: T, offset = 0): T {
    const trs = this._trs;
    this.propTransform(pi, timeSec, trs);
    mat4Compose(out16, offset, trs, 0, trs, 3, trs, 7);
    return out16;
  }

  /**
   * Exact time derivative of `propWorldMatrix`. The world velocity of a point
   * p fixed in the prop is this matrix times (p, 1).
   */
  propWorldMatrixDerivative<T extends FlatOut>(pi: number, timeSec: number, out16: T, offset = 0): T {
    const trs = this._trs, dot = this._trsDot;
    this.propTransform(pi, timeSec, trs);
    this.propTransformDerivative(pi, timeSec, dot);
    mat4ComposeDerivative(out16, offset, trs, 0, dot, 0);
    return out16;
  }

  /**
   * Velocity of prop `pi`'s origin and its angular velocity (world frame,
   * rad/s) at `timeSec`, exact from the curves.
   */
  propVelocity(pi: number, timeSec: number, linear: Vec3Like, angular: Vec3Like): void {
    const trs = this._trs, dot = this._trsDot;
    this.propTransform(pi, timeSec, trs);
    this.propTransformDerivative(pi, timeSec, dot);
    linear.x = dot[0];
    linear.y = dot[1];
    linear.z = dot[2];
    angularVelocityFromQuat(trs, 3, dot, 3, trs, 0);
    angular.x = trs[0];
    angular.y = trs[1];
    angular.z = trs[2];
  }

  private _checkProp(pi: number): void {
    if (!(pi >= 0 && pi < this.doc.props.length)) throw new RangeError(`prop index ${pi} out of range (${this.doc.props.length} props)`);
  }
}

/** Writes a transform (translation, rotation, scale arrays) as TRS_STRIDE flat numbers at `o`. */
export function writeTransform(out: Float64Array, o: number, t: { translation: ArrayLike<number>; rotation: ArrayLike<number>; scale: ArrayLike<number> }): void {
  for (let c = 0; c < 3; c++) out[o + c] = t.translation[c];
  for (let c = 0; c < 4; c++) out[o + 3 + c] = t.rotation[c];
  for (let c = 0; c < 3; c++) out[o + 7 + c] = t.scale[c];
}
