/** Default values shared by new documents, importers and migrations. */
import { newId } from './ids';
import {
  DOCUMENT_VERSION,
  type CharacterCollision,
  type CheckSettings,
  type Clip,
  type CollisionSettings,
  type ImpulseDocument,
  type Material,
  type Transform,
  type Vec3Tuple,
} from './types';

export const DEFAULT_GRAVITY: Readonly<Vec3Tuple> = Object.freeze([0, -9.81, 0]) as Readonly<Vec3Tuple>;
export const DEFAULT_FRAME_RATE = 30;
/** Every object is in group 0 and collides with every group. */
export const DEFAULT_GROUPS = 1;
export const ALL_GROUPS = 0xffffffff;

export function identityTransform(): Transform {
  return { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
}

export function defaultMaterial(name = 'default'): Material {
  return { name, baseColor: [0.8, 0.8, 0.8, 1], metallic: 0, roughness: 0.6 };
}

export function defaultCollision(): CollisionSettings {
  return { enabled: true, groups: DEFAULT_GROUPS, mask: ALL_GROUPS };
}

export function defaultCharacterCollision(): CharacterCollision {
  return { ...defaultCollision(), selfCollision: true, adjacentHops: 1 };
}

export function defaultCheckSettings(): CheckSettings {
  return { ignore: [], groupNames: ['default'] };
}

export function createEmptyClip(name = 'Clip', frameRate = DEFAULT_FRAME_RATE, startFrame = 0, endFrame = 120): Clip {
  return { id: newId('clip'), name, frameRate, startFrame, endFrame, tracks: [] };
}

/** A valid document with no objects and one empty clip (0..120 at 30 fps), gravity and a ground at y = 0. */
export function createEmptyDocument(name = 'Untitled'): ImpulseDocument {
  const clip = createEmptyClip();
  return {
    version: DOCUMENT_VERSION,
    name,
    gravity: [DEFAULT_GRAVITY[0], DEFAULT_GRAVITY[1], DEFAULT_GRAVITY[2]],
    groundY: 0,
    characters: [],
    props: [],
    clips: [clip],
    activeClip: clip.id,
    check: defaultCheckSettings(),
  };
}

/** Deep copy, typed arrays included (no buffer is shared with the original). */
export function cloneDocument(doc: ImpulseDocument): ImpulseDocument {
  return structuredClone(doc);
}
