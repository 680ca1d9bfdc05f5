/**
 * The collision records of the simulated world (SimWorld): a collider (a
 * triangle mesh that collides), its body parts and a character's joint
 * groups. Shared by world.ts and the helper modules.
 */

/**
 * Characters only: skin slots influencing a set of vertices (a part or a
 * joint group), the bind-space box of the vertices weighted to each slot,
 * and the range of the vertices' weight sums. An LBS vertex is (weight sum)
 * × a convex combination of its slots' transforms of it, so the posed
 * vertices lie in the box union over slots of S_slot · slotBox, scaled by
 * that range: they are bounded from the joints alone, without skinning.
 */
export interface JointBounds {
  slots?: Int32Array;
  slotBox?: Float64Array;
  /** Per slot: the centre and half extent of its slotBox (6 numbers). */
  slotCE?: Float64Array;
  wsMin?: number;
  wsMax?: number;
  /** Joint-bounded boxes at the start and end of the step. */
  jbox0?: Float64Array;
  jbox1?: Float64Array;
}

export interface Part extends JointBounds {
  /** Skeleton joint (characters) or -1. */
  joint: number;
  tris: Uint32Array;
  verts: Uint32Array;
  edges: Uint32Array;
  /** Vertices this part tests against other triangles (characters: each vertex in one part only). */
  vtVerts: Uint32Array;
  /** Swept box of the part over the current sub-step (characters: bounded from the joints until the part is skinned). */
  box: Float64Array;
  /** Characters: time index of the step the part was last skinned for (-1 never). */
  skinned: number;
  /** Characters: its joint group (Collider.jointGroups) and the step its jbox0/jbox1 are for. */
  group: number;
  jstamp: number;
}

/** A triangle mesh that collides: a dynamic body's surface, a keyframed prop, or a character mesh. */
export interface Collider {
  /** Index in the world's collider list (= body index for dynamic colliders). */
  index: number;
  kind: number;
  /** Dynamic body index (KIND_DYNAMIC) or -1. */
  body: number;
  /** Prop or character index in the document. */
  docIndex: number;
  /** Mesh index for characters. */
  mesh: number;
  objectId: string;
  objectName: string;
  partName: string;
  /** Index of the dynamic object (world.objects) or -1. */
  object: number;
  vOff: number;
  nv: number;
  tris: Uint32Array;
  edges: Uint32Array;
  parts: Part[];
  /** Dynamic: vertex coordinates in the body's principal frame relative to its centre of mass. Prop: mesh positions. */
  local: Float64Array;
  triBox: Float64Array;
  edgeBox: Float64Array;
  /** Detection pass each triangle's / edge's swept box (triBox, edgeBox) was computed in (-1 never). */
  triStamp: Int32Array;
  edgeStamp: Int32Array;
  restitution: number;
  friction: number;
  groups: number;
  mask: number;
  box: Float64Array;
  /** Closed, consistently wound mesh (back-face culling applies). */
  closed: boolean;
  /**
   * Closed and wound outward (props: as `closed`; character meshes: in the
   * bind pose, outwardMesh): its faces are one-sided limits of the ragdoll
   * position corrections and of the push-out.
   */
  outward: boolean;
  /** Keyframed: moves during the current step. */
  moving: boolean;
  /** Dynamic: box of `local` (principal frame, about the centre of mass). */
  lbox: Float64Array;
  /**
   * Dynamic: the vertices split into compact chunks (median splits of
   * `local`): chunk k holds chunkVerts[chunkStart[k] .. chunkStart[k+1]]
   * (ascending), inside the sphere chunkSphere[4k..4k+3] (centre, radius;
   * principal frame). Ground scans bound a chunk's height from the pose
   * alone and read only the vertices of chunks that can be low enough.
   */
  /** Dynamic: largest distance of a vertex from the centre of mass. */
  radius: number;
  chunkStart: Int32Array;
  chunkVerts: Uint32Array;
  chunkSphere: Float64Array;
  /**
   * The chunks' boxes (centre, half extents: 6 numbers each; principal
   * frame, padded like the spheres): tighter than the spheres for flat
   * chunks, they skip chunks that cannot hold a low enough vertex.
   */
  chunkBox: Float64Array;
  /** `local` in chunk order: the coordinates of vertex chunkVerts[i] at 3i (the ground scans read them in that order). */
  chunkLocal: Float64Array;
  /** Chunk of each vertex. */
  chunkOf: Int32Array;
  /**
   * Characters: the skin of each joint (all its clusters) bounded from the
   * joints every step (`box`: swept over the step); a cluster's own bound is
   * computed only when its group's box is reached.
   */
  jointGroups: JointGroup[];
  /** Characters: the parts skinned in the current step (activatePart), so boxes are refreshed for those only. */
  activeParts: Part[];
  /** Characters: union of the active parts' boxes (activeBox) and the part-box version (boxVersion) it is for. */
  activeUnion: Float64Array;
  activeUnionStamp: number;
  /**
   * Characters: the whole mesh as one joint group, bounded from the joints
   * at both ends of every step (the character's box, `box`); the groups of
   * single joints are bounded only when a dynamic body's box reaches it.
   */
  whole?: JointGroup;
  /** Characters: time index of the step `box` is for. */
  boxStamp: number;
  /**
   * Characters: the whole mesh's swept box over the step from its skin
   * (`whole`'s jbox0 / jbox1, made only when the character's box from its
   * joints, `box`, is reached), the step it is for, and the steps jbox0 and
   * jbox1 are for (-1000 never).
   */
  meshBox: Float64Array;
  meshBoxStamp: number;
  wholeT0: number;
  wholeT1: number;
  /** Characters: the step `moving` is for (made when a test reads it; -1000 never). */
  movingStamp: number;
  /** Characters: first part of each joint group (jointGroups), and the part count at the end. */
  groupStart?: Int32Array;
}

export interface JointGroup extends JointBounds {
  verts: Uint32Array;
  box: Float64Array;
  /** Time index of the step `box` (and jbox0 / jbox1) is for; -1 never. */
  stamp?: number;
  /** Parts of the group skinned (activatePart) in the step activeStamp. */
  active?: number;
  activeStamp?: number;
}
