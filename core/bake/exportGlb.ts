/**
 * glTF 2.0 (.glb) export of a document with its baked clips, written with
 * @gltf-transform/core (no node or DOM APIs: runs in the renderer, a worker
 * or the CLI).
 *
 * Layout:
 * - one node per character carrying `character.transform`, the skeleton's
 *   joint nodes under it (rest transforms, parents as in the skeleton);
 * - one root node per skinned mesh (glTF ignores a skinned mesh node's own
 *   transform), with POSITION/NORMAL/JOINTS_0/WEIGHTS_0 and a skin whose
 *   joints are the skeleton nodes and whose inverse bind matrices are the
 *   document's; meshes with the same joints and inverse bind matrices share
 *   one skin;
 * - one node per prop with its mesh and rest transform;
 * - PBR metallic-roughness materials (base colour, metallic, roughness);
 * - one animation per baked clip, channels on joint and prop nodes; channels
 *   that hold the node's rest value in every clip are left out (the node's
 *   transform holds it), samplers with the same key times share one input
 *   accessor;
 * - optionally each prop's physics in KHR_physics_rigid_bodies or
 *   OMI_physics_body.
 *
 * Mesh quantisation (KHR_mesh_quantization, `quantize: true`, the default of
 * `impulse bake`; see quantize.ts):
 * skinned positions int16 normalised with the dequantisation in the inverse
 * bind matrices, normals int8 normalised, weights uint8 normalised, joints
 * uint8 below 256 joints, indices uint16 below 65536 vertices. Prop positions
 * stay float32: a prop node's own transform is animated, so a dequantisation
 * transform would need an extra child node, which importers would then see
 * as the prop (props are small next to characters). three.js, Blender ≥ 2.83,
 * Unity glTFast, Godot 4, Babylon.js and Unreal's glTF importer read it.
 *
 * Animation-only files (`includeMeshes: false`) hold the nodes, the skins
 * (joints and inverse bind matrices, so an engine can match the clip to its
 * own rig's bind pose) and the animations, and no mesh or material data.
 *
 * The JSON is written minimal: numbers of node transforms, material factors
 * and accessor bounds as the shortest decimal of their float32 value,
 * default-valued fields left out.
 */
import { MIN_KEY_INTERVAL_SEC } from '../document/validate';
import { keyFollows } from './time32';
import { type Accessor, type Buffer, Document, Format, type GLTF, type Material as GltfMaterial, type Node, type Skin, WebIO } from '@gltf-transform/core';
import { KHRMeshQuantization } from '@gltf-transform/extensions';
import type { Character, ImpulseDocument, Material, Prop, SkinnedMesh, Transform } from '../document/types';
import { propMassProperties } from '../document/massProperties';
import { mat4Multiply } from '../math/mat4';
import { type BakeOptions, type BakedClip, bakeDocument, pruneStaticChannels, withClipLength } from './bake';
import { type BodyDescription, KHRPhysicsRigidBodies, OMIPhysicsBody, OMIPhysicsShape } from './physicsExtensions';
import { type PositionDequant, dequantMatrix, positionDequant, quantizeNormals, quantizePositions, quantizeWeights } from './quantize';
import { hypot3 } from '../math/libm';

export type PhysicsExtension = 'none' | 'khr' | 'omi';

/** KHR_mesh_quantization settings (see quantize.ts). */
export interface QuantizeOptions {
  /** Normal components: int8 (default) or int16 normalised. */
  normalBits?: 8 | 16;
  /** Skin weights: uint8 (default) or uint16 normalised. */
  weightBits?: 8 | 16;
}

export interface ExportOptions extends BakeOptions {
  /** Already baked clips (skips baking; `clipIds`, `mode`, `tolerance` are then ignored). */
  baked?: BakedClip[];
  /** Physics extension for props. Default 'none'. */
  physics?: PhysicsExtension;
  /** Text for asset.generator. */
  generator?: string;
  /**
   * Write meshes and materials (default true). False gives an animation-only
   * file: the skeleton and prop nodes, the skins (joints and inverse bind
   * matrices) and the animations, as game pipelines import clips separately
   * from the model and re-target them onto the rig already in the engine.
   */
  includeMeshes?: boolean;
  /**
   * Quantise vertex data with KHR_mesh_quantization (true or settings; see
   * quantize.ts). Default false here, so that readers which do not register
   * the extension keep working; `impulse bake` turns it on by default
   * (`--no-quantize` turns it off). Ignored without meshes.
   */
  quantize?: boolean | QuantizeOptions;
  /** Keep channels no clip animates (constant rest values). Default false: the nodes' rest transforms hold them. */
  keepStaticChannels?: boolean;
}

export class ExportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportError';
  }
}

/** Where each exported object ended up, for callers that inspect the document. */
export interface ExportLayout {
  document: Document;
  characterNodes: Node[];
  /** jointNodes[ci][j] */
  jointNodes: Node[][];
  propNodes: Node[];
  clips: BakedClip[];
}

function applyTransform(node: Node, t: Transform): Node {
  return node
    .setTranslation([t.translation[0], t.translation[1], t.translation[2]])
    .setRotation([t.rotation[0], t.rotation[1], t.rotation[2], t.rotation[3]])
    .setScale([t.scale[0], t.scale[1], t.scale[2]]);
}

function createMaterial(doc: Document, m: Material): GltfMaterial {
  const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
  return doc
    .createMaterial(m.name)
    .setBaseColorFactor([clamp01(m.baseColor[0]), clamp01(m.baseColor[1]), clamp01(m.baseColor[2]), clamp01(m.baseColor[3])])
    .setMetallicFactor(clamp01(m.metallic))
    .setRoughnessFactor(clamp01(m.roughness))
    .setAlphaMode(m.baseColor[3] < 1 ? 'BLEND' : 'OPAQUE');
}

/** Unit normals (glTF requires them); zero normals become +Y. */
function unitNormals(normals: Float32Array): Float32Array {
  const out = new Float32Array(normals.length);
  for (let i = 0; i < normals.length; i += 3) {
    const l = hypot3(normals[i], normals[i + 1], normals[i + 2]);
    if (l > 0) {
      out[i] = normals[i] / l;
      out[i + 1] = normals[i + 1] / l;
      out[i + 2] = normals[i + 2] / l;
    } else out[i + 1] = 1;
  }
  return out;
}

/** Weights summing to 1 in float32 (glTF validator checks), unused slots' joints set to 0. */
function normalizedSkinData(mesh: SkinnedMesh, where: string): { joints: Uint8Array | Uint16Array; weights: Float32Array } {
  const n = mesh.weights.length / 4;
  const weights = new Float32Array(mesh.weights.length);
  let maxJoint = 0;
  for (let i = 0; i < mesh.joints.length; i++) if (mesh.joints[i] > maxJoint) maxJoint = mesh.joints[i];
  const joints = maxJoint < 256 ? new Uint8Array(mesh.joints.length) : new Uint16Array(mesh.joints.length);
  for (let v = 0; v < n; v++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += Math.max(0, mesh.weights[v * 4 + k]);
    if (!(sum > 0)) throw new ExportError(`${where}: vertex ${v} has no skin weight`);
    for (let k = 0; k < 4; k++) {
      const w = Math.max(0, mesh.weights[v * 4 + k]) / sum;
      const j = mesh.joints[v * 4 + k];
      // The same joint twice in one vertex: one slot with the summed weight
      // (same skinning, and glTF forbids duplicates).
      let merged = false;
      for (let e = 0; e < k; e++)
        if (weights[v * 4 + e] > 0 && joints[v * 4 + e] === j) {
          weights[v * 4 + e] += w;
          merged = true;
          break;
        }
      weights[v * 4 + k] = merged ? 0 : w;
      joints[v * 4 + k] = merged || w === 0 ? 0 : j;
    }
  }
  return { joints, weights };
}

function indexArray(indices: Uint32Array, vertexCount: number): Uint16Array | Uint32Array {
  return vertexCount <= 65535 ? Uint16Array.from(indices) : Uint32Array.from(indices);
}

/** Builds the gltf-transform Document (exposed for tests and tools); `exportGlb` writes it. */
export function buildGltfDocument(src: ImpulseDocument, options: ExportOptions = {}): ExportLayout {
  const baked = options.baked ?? bakeDocument(src, options);
  const clips = (options.keepStaticChannels ? baked : pruneStaticChannels(baked)).map(withClipLength);
  const doc = new Document();
  doc.getRoot().getAsset().generator = options.generator ?? 'Impulse';
  const buffer: Buffer = doc.createBuffer();
  const scene = doc.createScene(src.name || 'Scene');
  doc.getRoot().setDefaultScene(scene);
  const accessor = (type: 'SCALAR' | 'VEC3' | 'VEC4' | 'MAT4', array: Float32Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Uint32Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);

  const includeMeshes = options.includeMeshes ?? true;
  const quantize = includeMeshes && !!options.quantize;
  const normalBits = (typeof options.quantize === 'object' && options.quantize.normalBits) || 8;
  const weightBits = (typeof options.quantize === 'object' && options.quantize.weightBits) || 8;
  const physics = options.physics ?? 'none';
  if (!includeMeshes && physics !== 'none') throw new ExportError(`physics (${physics}) needs the prop meshes as colliders; it cannot be written with includeMeshes: false`);
  let usedQuantization = false;
  const characterNodes: Node[] = [];
  const jointNodes: Node[][] = [];
  const dq = new Float64Array(16);
  src.characters.forEach((ch: Character, ci) => {
    const where = `characters[${ci}] "${ch.name}"`;
    const root = applyTransform(doc.createNode(ch.name), ch.transform);
    scene.addChild(root);
    characterNodes.push(root);
    const nodes = ch.skeleton.joints.map((j) => applyTransform(doc.createNode(j.name), j.rest));
    ch.skeleton.joints.forEach((j, ji) => {
      if (j.parent >= ji) throw new ExportError(`${where}.skeleton.joints[${ji}].parent: ${j.parent} does not come before the joint`);
      (j.parent < 0 ? root : nodes[j.parent]).addChild(nodes[ji]);
    });
    jointNodes.push(nodes);
    // One dequantisation for all of the character's meshes, so they can share a skin.
    const dequant: PositionDequant | null = quantize && ch.meshes.length > 0 ? positionDequant(ch.meshes.map((m) => m.positions)) : null;
    if (dequant) dequantMatrix(dequant, dq);
    const skins = new Map<string, Skin>();
    const skinFor = (m: SkinnedMesh, mwhere: string): Skin => {
      const ibm = Float32Array.from(m.inverseBindMatrices);
      if (dequant) for (let s = 0; s < m.skinJoints.length; s++) mat4Multiply(ibm, 16 * s, m.inverseBindMatrices, 16 * s, dq, 0);
      const key = `${m.skinJoints.join(',')}|${new Uint8Array(ibm.buffer).join(',')}`;
      let skin = skins.get(key);
      if (skin) return skin;
      skin = doc.createSkin(skins.size === 0 ? ch.name : `${ch.name}.${m.name}`).setInverseBindMatrices(accessor('MAT4', ibm));
      for (let s = 0; s < m.skinJoints.length; s++) {
        const j = m.skinJoints[s];
        if (!nodes[j]) throw new ExportError(`${mwhere}.skinJoints[${s}]: joint ${j} out of range`);
        skin.addJoint(nodes[j]);
      }
      skins.set(key, skin);
      return skin;
    };
    if (!includeMeshes) {
      ch.meshes.forEach((m, mi) => skinFor(m, `${where}.meshes[${mi}]`));
      return;
    }
    const materials = ch.materials.map((m) => createMaterial(doc, m));
    ch.meshes.forEach((m, mi) => {
      const mwhere = `${where}.meshes[${mi}]`;
      const vertexCount = m.positions.length / 3;
      const skinData = normalizedSkinData(m, mwhere);
      const prim = doc.createPrimitive().setIndices(accessor('SCALAR', indexArray(m.indices, vertexCount)));
      if (dequant) {
        const weights = quantizeWeights(skinData.weights, weightBits);
        // A weight rounded to 0 leaves its slot unused: joint 0, as glTF asks.
        for (let i = 0; i < weights.length; i++) if (weights[i] === 0) skinData.joints[i] = 0;
        prim
          .setAttribute('POSITION', accessor('VEC3', quantizePositions(m.positions, dequant)).setNormalized(true))
          .setAttribute('JOINTS_0', accessor('VEC4', skinData.joints))
          .setAttribute('WEIGHTS_0', accessor('VEC4', weights).setNormalized(true));
        if (m.normals) prim.setAttribute('NORMAL', accessor('VEC3', quantizeNormals(m.normals, normalBits)).setNormalized(true));
        usedQuantization = true;
      } else {
        prim
          .setAttribute('POSITION', accessor('VEC3', Float32Array.from(m.positions)))
          .setAttribute('JOINTS_0', accessor('VEC4', skinData.joints))
          .setAttribute('WEIGHTS_0', accessor('VEC4', skinData.weights));
        if (m.normals) prim.setAttribute('NORMAL', accessor('VEC3', unitNormals(m.normals)));
      }
      if (materials[m.material]) prim.setMaterial(materials[m.material]);
      const mesh = doc.createMesh(m.name).addPrimitive(prim);
      scene.addChild(doc.createNode(`${ch.name}.${m.name}`).setMesh(mesh).setSkin(skinFor(m, mwhere)));
    });
  });

  const propNodes: Node[] = [];
  const bodies: BodyDescription[] = [];
  src.props.forEach((p: Prop, pi) => {
    if (!includeMeshes) {
      const node = applyTransform(doc.createNode(p.name), p.transform);
      scene.addChild(node);
      propNodes.push(node);
      return;
    }
    const vertexCount = p.mesh.positions.length / 3;
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', Float32Array.from(p.mesh.positions)))
      .setIndices(accessor('SCALAR', indexArray(p.mesh.indices, vertexCount)))
      .setMaterial(createMaterial(doc, p.material));
    if (p.mesh.normals) {
      if (quantize) {
        prim.setAttribute('NORMAL', accessor('VEC3', quantizeNormals(p.mesh.normals, normalBits)).setNormalized(true));
        usedQuantization = true;
      } else prim.setAttribute('NORMAL', accessor('VEC3', unitNormals(p.mesh.normals)));
    }
    const mesh = doc.createMesh(p.name).addPrimitive(prim);
    const node = applyTransform(doc.createNode(p.name), p.transform).setMesh(mesh);
    scene.addChild(node);
    propNodes.push(node);
    if (physics !== 'none') {
      let mass: { massKg: number; centerOfMass: [number, number, number] };
      try {
        mass = propMassProperties(p);
      } catch (e) {
        throw new ExportError(`props[${pi}]: cannot export physics: ${(e as Error).message}`);
      }
      bodies.push({
        node,
        mesh,
        kinematic: p.physics.mode === 'keyframed',
        massKg: mass.massKg,
        centerOfMass: mass.centerOfMass,
        friction: p.physics.friction,
        restitution: p.physics.restitution,
      });
    }
  });
  if (usedQuantization) doc.createExtension(KHRMeshQuantization).setRequired(true);
  if (physics === 'khr') doc.createExtension(KHRPhysicsRigidBodies).bodies.push(...bodies);
  else if (physics === 'omi') {
    doc.createExtension(OMIPhysicsBody).bodies.push(...bodies);
    doc.createExtension(OMIPhysicsShape);
  }

  // Animations: inputs shared between channels with identical key times.
  for (const clip of clips) {
    if (clip.channels.length === 0) continue; // glTF animations need at least one channel
    const anim = doc.createAnimation(clip.name);
    const inputs = new Map<string, Accessor>();
    for (const ch of clip.channels) {
      const t = ch.target;
      const node = t.kind === 'joint' ? jointNodes[t.character]?.[t.joint] : propNodes[t.prop];
      if (!node) {
        const which = t.kind === 'joint' ? `joint ${t.joint} of character ${t.character}` : `prop ${t.prop}`;
        throw new ExportError(`clip "${clip.name}": ${ch.path} channel targets ${which}, which the document does not have`);
      }
      const times = Float32Array.from(ch.curve.times);
      for (let k = 1; k < times.length; k++)
        if (!keyFollows(times[k - 1], times[k]))
          throw new ExportError(`clip "${clip.name}": ${ch.path} keys ${k - 1} and ${k} at ${ch.curve.times[k - 1]} s and ${ch.curve.times[k]} s are not ${MIN_KEY_INTERVAL_SEC} s apart as float32 (glTF needs increasing times)`);
      const key = times.join(',');
      let input = inputs.get(key);
      if (!input) {
        input = accessor('SCALAR', times);
        inputs.set(key, input);
      }
      const output = accessor(ch.path === 'rotation' ? 'VEC4' : 'VEC3', Float32Array.from(ch.curve.values));
      const sampler = doc.createAnimationSampler().setInput(input).setOutput(output).setInterpolation(ch.curve.interpolation);
      anim.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(ch.path).setSampler(sampler));
    }
  }
  // A document with nothing to write has no binary data: glTF forbids a buffer without byteLength.
  if (buffer.listParents().every((p) => p === doc.getRoot())) buffer.dispose();
  return { document: doc, characterNodes, jointNodes, propNodes, clips };
}

/** The shortest decimal that reads back as the same float32 as `x`. */
export function shortestFloat32(x: number): number {
  const f = Math.fround(x);
  if (!Number.isFinite(f) || Number.isInteger(f)) return f;
  for (let p = 1; p < 9; p++) {
    const y = Number(f.toPrecision(p));
    if (Math.fround(y) === f) return y;
  }
  return f;
}

function roundAll(xs: number[] | undefined): number[] | undefined {
  return xs?.map(shortestFloat32);
}

function isAll(xs: number[] | undefined, want: number[]): boolean {
  return !!xs && xs.length === want.length && xs.every((x, i) => x === want[i]);
}

/**
 * Minimal JSON: float32-shortest numbers in node transforms, material factors
 * and float accessor bounds (what loaders read anyway), default fields left
 * out (byteOffset 0, LINEAR interpolation, identity TRS parts).
 */
export function minimizeGltfJson(json: GLTF.IGLTF): GLTF.IGLTF {
  for (const a of json.accessors ?? []) {
    if (a.byteOffset === 0) delete a.byteOffset;
    if (a.componentType === 5126) {
      a.min = roundAll(a.min);
      a.max = roundAll(a.max);
    }
  }
  for (const v of json.bufferViews ?? []) if (v.byteOffset === 0) delete v.byteOffset;
  // glTF forbids empty arrays: a scene of an empty document has no nodes.
  for (const sc of (json.scenes ?? []) as { nodes?: number[] }[]) if (sc.nodes && sc.nodes.length === 0) delete sc.nodes;
  for (const an of json.animations ?? []) for (const s of an.samplers) if (s.interpolation === 'LINEAR') delete s.interpolation;
  for (const n of json.nodes ?? []) {
    n.translation = roundAll(n.translation) as GLTF.INode['translation'];
    n.rotation = roundAll(n.rotation) as GLTF.INode['rotation'];
    n.scale = roundAll(n.scale) as GLTF.INode['scale'];
    if (!n.translation || isAll(n.translation, [0, 0, 0])) delete n.translation;
    if (!n.rotation || isAll(n.rotation, [0, 0, 0, 1])) delete n.rotation;
    if (!n.scale || isAll(n.scale, [1, 1, 1])) delete n.scale;
  }
  for (const m of json.materials ?? []) {
    const pbr = m.pbrMetallicRoughness;
    if (!pbr) continue;
    if (pbr.baseColorFactor) pbr.baseColorFactor = roundAll(pbr.baseColorFactor) as typeof pbr.baseColorFactor;
    if (pbr.metallicFactor !== undefined) pbr.metallicFactor = shortestFloat32(pbr.metallicFactor);
    if (pbr.roughnessFactor !== undefined) pbr.roughnessFactor = shortestFloat32(pbr.roughnessFactor);
  }
  return json;
}

/** A .glb container: header, JSON chunk (space-padded), binary chunk (zero-padded). */
export function packGlb(json: GLTF.IGLTF, bin: Uint8Array | undefined): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = (text.byteLength + 3) & ~3;
  const binLength = bin && bin.byteLength > 0 ? (bin.byteLength + 3) & ~3 : 0;
  const total = 12 + 8 + jsonLength + (binLength > 0 ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, 0x46546c67, true); // 'glTF'
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLength, true);
  dv.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(text, 20);
  out.fill(0x20, 20 + text.byteLength, 20 + jsonLength);
  if (binLength > 0) {
    dv.setUint32(20 + jsonLength, binLength, true);
    dv.setUint32(24 + jsonLength, 0x004e4942, true); // 'BIN\0'
    out.set(bin!, 28 + jsonLength);
  }
  return out;
}

/** Bakes (unless `options.baked` is given) and writes a .glb. */
export async function exportGlb(src: ImpulseDocument, options: ExportOptions = {}): Promise<Uint8Array> {
  const { document } = buildGltfDocument(src, options);
  const io = new WebIO().registerExtensions([KHRPhysicsRigidBodies, OMIPhysicsBody, OMIPhysicsShape, KHRMeshQuantization]);
  const { json, resources } = await io.writeJSON(document, { format: Format.GLB });
  const buffers = Object.values(resources);
  if (buffers.length > 1) throw new ExportError(`expected one binary buffer, got ${buffers.length}`);
  return packGlb(minimizeGltfJson(json), buffers[0]);
}
