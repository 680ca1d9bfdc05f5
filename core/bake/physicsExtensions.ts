/**
 * glTF physics extensions written by the exporter, as custom gltf-transform
 * extensions that add JSON at write time.
 *
 * - `KHR_physics_rigid_bodies` (Khronos draft): motion (kinematic flag, mass,
 *   centre of mass), collider (the prop's own mesh; a convex hull for dynamic
 *   bodies) and a physics material with friction and restitution. Read by the
 *   Khronos glTF physics importers for Blender and Godot and by Babylon.js.
 * - `OMI_physics_body` + `OMI_physics_shape`: motion type, mass, centre of
 *   mass and a mesh collider. Read natively by Godot 4 (GLTFPhysicsBody).
 *   OMI has no friction or restitution.
 */
import { Extension, type Mesh, type Node, type ReaderContext, type WriterContext } from '@gltf-transform/core';

export interface BodyDescription {
  node: Node;
  /** The prop's mesh, used as collider. */
  mesh: Mesh;
  kinematic: boolean;
  massKg: number;
  centerOfMass: [number, number, number];
  friction: number;
  restitution: number;
}

type Json = Record<string, unknown>;

function extensionsOf(def: Json): Json {
  if (!def.extensions) def.extensions = {};
  return def.extensions as Json;
}

/** glTF indices of a body's node and collider mesh in the file being written. */
function writtenIndices(extensionName: string, context: WriterContext, b: BodyDescription): [node: number, mesh: number] {
  const ni = context.nodeIndexMap.get(b.node);
  const mi = context.meshIndexMap.get(b.mesh);
  if (ni === undefined || mi === undefined)
    throw new Error(`${extensionName}: node "${b.node.getName()}" or its mesh "${b.mesh.getName()}" was not written`);
  return [ni, mi];
}

export class KHRPhysicsRigidBodies extends Extension {
  static override EXTENSION_NAME = 'KHR_physics_rigid_bodies';
  override readonly extensionName = 'KHR_physics_rigid_bodies';
  readonly bodies: BodyDescription[] = [];

  read(_context: ReaderContext): this {
    return this;
  }

  write(context: WriterContext): this {
    if (this.bodies.length === 0) return this;
    const json = context.jsonDoc.json as unknown as Json;
    const nodes = json.nodes as Json[];
    const materials: Json[] = [];
    const materialIndex = new Map<string, number>();
    for (const b of this.bodies) {
      const [ni, mi] = writtenIndices(this.extensionName, context, b);
      const key = `${b.friction}/${b.restitution}`;
      let pm = materialIndex.get(key);
      if (pm === undefined) {
        pm = materials.length;
        materials.push({ staticFriction: b.friction, dynamicFriction: b.friction, restitution: b.restitution });
        materialIndex.set(key, pm);
      }
      extensionsOf(nodes[ni])[this.extensionName] = {
        motion: { isKinematic: b.kinematic, mass: b.massKg, centerOfMass: b.centerOfMass },
        collider: { geometry: { mesh: mi, convexHull: !b.kinematic }, physicsMaterial: pm },
      };
    }
    extensionsOf(json)[this.extensionName] = { physicsMaterials: materials };
    return this;
  }
}

export class OMIPhysicsBody extends Extension {
  static override EXTENSION_NAME = 'OMI_physics_body';
  override readonly extensionName = 'OMI_physics_body';
  readonly bodies: BodyDescription[] = [];

  read(_context: ReaderContext): this {
    return this;
  }

  write(context: WriterContext): this {
    if (this.bodies.length === 0) return this;
    const json = context.jsonDoc.json as unknown as Json;
    const nodes = json.nodes as Json[];
    const shapes: Json[] = [];
    for (const b of this.bodies) {
      const [ni, mi] = writtenIndices(this.extensionName, context, b);
      const type = b.kinematic ? 'trimesh' : 'convex';
      const shape = shapes.length;
      shapes.push({ type, [type]: { mesh: mi } });
      extensionsOf(nodes[ni])[this.extensionName] = {
        motion: { type: b.kinematic ? 'kinematic' : 'dynamic', mass: b.massKg, centerOfMass: b.centerOfMass },
        collider: { shape },
      };
    }
    extensionsOf(json)[OMIPhysicsShape.EXTENSION_NAME] = { shapes };
    return this;
  }
}

/** Registers `OMI_physics_shape` in extensionsUsed; its JSON is written by OMIPhysicsBody. */
export class OMIPhysicsShape extends Extension {
  static override EXTENSION_NAME = 'OMI_physics_shape';
  override readonly extensionName = 'OMI_physics_shape';
  read(_context: ReaderContext): this {
    return this;
  }
  write(_context: WriterContext): this {
    return this;
  }
}
