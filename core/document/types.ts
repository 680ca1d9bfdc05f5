/**
 * The Impulse project document: what is saved, loaded, undone and exported.
 *
 * In memory, bulk mesh data lives in typed arrays; everything an animator
 * edits (transforms, physics, tracks) is plain JSON data so the renderer can
 * diff it for undo. `serialize.ts` turns typed arrays into base64 blocks on
 * disk; `schema.ts` validates and migrates what is loaded.
 *
 * Conventions: metres, seconds, right-handed Y-up (as glTF), quaternions
 * (x, y, z, w), 4x4 matrices column-major.
 */

export const DOCUMENT_VERSION = 2;

export type Vec3Tuple = [number, number, number];
export type QuatTuple = [number, number, number, number];

/** Translation, rotation and scale as a glTF node has them. */
export interface Transform {
  translation: Vec3Tuple;
  rotation: QuatTuple;
  scale: Vec3Tuple;
}

export interface Material {
  name: string;
  /** Linear RGBA base colour. */
  baseColor: QuatTuple;
  metallic: number;
  roughness: number;
}

export interface Joint {
  name: string;
  /** Index of the parent joint, or -1 for a root. Parents come before children. */
  parent: number;
  /** Rest (bind-time local) transform. */
  rest: Transform;
}

export interface Skeleton {
  joints: Joint[];
}

/**
 * A mesh skinned to its character's skeleton, laid out as glTF skins are:
 * vertex `joints` index into `skinJoints`, which index into the skeleton.
 */
export interface SkinnedMesh {
  name: string;
  /** Bind-space positions, xyz per vertex. */
  positions: Float32Array;
  /** Optional bind-space normals, xyz per vertex. */
  normals?: Float32Array;
  /** Triangle list, 3 vertex indices each. */
  indices: Uint32Array;
  /** 4 indices into `skinJoints` per vertex. */
  joints: Uint16Array;
  /** 4 weights per vertex, summing to 1. */
  weights: Float32Array;
  /** For each skin joint slot, the skeleton joint index. */
  skinJoints: Int32Array;
  /** One column-major 4x4 inverse bind matrix per skin joint slot. */
  inverseBindMatrices: Float32Array;
  material: number;
}

/** Which glTF file (and which skin or node in it) an object came from. */
export interface SourceRef {
  /** File name as the user picked it (no directories are trusted from it). */
  file: string;
  /** glTF skin index for characters, node index for props. */
  index: number;
  name: string;
}

export interface CollisionSettings {
  enabled: boolean;
  /** Bitmask of the groups this object belongs to. */
  groups: number;
  /** Bitmask of the groups this object collides with. */
  mask: number;
}

export interface CharacterCollision extends CollisionSettings {
  /** Check a character's body parts against each other. */
  selfCollision: boolean;
  /** Parts this many skeleton hops apart (or fewer) never self-collide. */
  adjacentHops: number;
}

export interface Character {
  id: string;
  name: string;
  /** Placement of the skeleton's roots in the scene. */
  transform: Transform;
  skeleton: Skeleton;
  meshes: SkinnedMesh[];
  materials: Material[];
  collision: CharacterCollision;
  /** Control mode for suggestions: a dynamic character becomes a ragdoll. */
  mode: ControlMode;
  source?: SourceRef;
}

export type ControlMode = 'keyframed' | 'dynamic';

export interface PropPhysics {
  mode: ControlMode;
  /**
   * Exactly one of `massKg` and `densityKgPerM3` is set. With density, mass and
   * inertia come from the closed mesh (`core/document/massProperties`).
   */
  massKg?: number;
  densityKgPerM3?: number;
  restitution: number;
  friction: number;
}

export interface PropMesh {
  /** Positions in the prop's local frame, xyz per vertex. */
  positions: Float32Array;
  normals?: Float32Array;
  indices: Uint32Array;
}

export interface Prop {
  id: string;
  name: string;
  /** Rest transform, used where the prop has no track. */
  transform: Transform;
  mesh: PropMesh;
  material: Material;
  physics: PropPhysics;
  collision: CollisionSettings;
  source?: SourceRef;
}

export type Interpolation = 'step' | 'linear' | 'cubic';
export type TrackPath = 'translation' | 'rotation' | 'scale';

export type TrackTarget =
  | { kind: 'joint'; character: string; joint: number }
  | { kind: 'prop'; prop: string };

/**
 * One animated channel, as a glTF sampler: `times` in seconds, strictly
 * increasing; `values` has 3 (translation, scale) or 4 (rotation) numbers per
 * key, or for `cubic` three such groups per key: in-tangent, value,
 * out-tangent (glTF CUBICSPLINE layout, tangents in units per second).
 */
export interface Track {
  target: TrackTarget;
  path: TrackPath;
  interpolation: Interpolation;
  times: number[];
  values: number[];
}

export interface Clip {
  id: string;
  name: string;
  frameRate: number;
  /** Inclusive frame range. */
  startFrame: number;
  endFrame: number;
  tracks: Track[];
}

/** One side of an ignore rule: an object, optionally narrowed to one joint. */
export interface PartRef {
  object: string;
  joint?: number;
}

export interface IgnoreRule {
  a: PartRef;
  b: PartRef;
  note?: string;
}

export interface CheckSettings {
  ignore: IgnoreRule[];
  /** Collision groups (bit index to name), for the panel. */
  groupNames: string[];
}

export interface ImpulseDocument {
  version: typeof DOCUMENT_VERSION;
  name: string;
  /** Gravity in m/s², world frame. */
  gravity: Vec3Tuple;
  /** Height of the ground plane, or null for none. */
  groundY: number | null;
  characters: Character[];
  props: Prop[];
  clips: Clip[];
  activeClip: string;
  check: CheckSettings;
}

export const IDENTITY_TRANSFORM: Readonly<Transform> = Object.freeze({
  translation: [0, 0, 0] as Vec3Tuple,
  rotation: [0, 0, 0, 1] as QuatTuple,
  scale: [1, 1, 1] as Vec3Tuple,
});
