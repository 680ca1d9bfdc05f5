/** Writes the generated mannequin and props as .glb with @gltf-transform/core. */
import { Document, NodeIO, type Accessor, type Buffer as GltfBuffer } from '@gltf-transform/core';
import { mat4Compose, mat4Invert } from '../../core/math/mat4';
import { box, lathe, signedVolume, vertexNormals, append, type MeshData } from './geometry';
import { ARMATURE_SCALE, mannequinJoints, mannequinParts, swingClip, walkClip, type ClipDef } from './mannequin';

function indicesAccessor(doc: Document, buffer: GltfBuffer, indices: number[], vertexCount: number): Accessor {
  const array = vertexCount < 65536 ? Uint16Array.from(indices) : Uint32Array.from(indices);
  return doc.createAccessor().setType('SCALAR').setArray(array).setBuffer(buffer);
}

function checkClosedOutward(name: string, m: MeshData): void {
  const v = signedVolume(m.positions, m.indices);
  if (!(v > 0)) throw new Error(`${name}: signed volume ${v} (winding is inside out)`);
}

export async function mannequinGlb(): Promise<Uint8Array> {
  const joints = mannequinJoints();
  if (joints.length !== 67) throw new Error(`mannequin has ${joints.length} joints, expected 67`);
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'Impulse scripts/make-assets.ts';
  const buffer = doc.createBuffer();
  const scene = doc.createScene('Scene');
  const armature = doc.createNode('Armature').setScale([ARMATURE_SCALE, ARMATURE_SCALE, ARMATURE_SCALE]);
  scene.addChild(armature);
  const nodes = joints.map((j) => {
    const parentPos = j.parent >= 0 ? joints[j.parent].pos : [0, 0, 0];
    return doc
      .createNode(j.name)
      .setTranslation([
        (j.pos[0] - parentPos[0]) / ARMATURE_SCALE,
        (j.pos[1] - parentPos[1]) / ARMATURE_SCALE,
        (j.pos[2] - parentPos[2]) / ARMATURE_SCALE,
      ]);
  });
  joints.forEach((j, i) => (j.parent >= 0 ? nodes[j.parent] : armature).addChild(nodes[i]));

  // Inverse bind matrices: inverse of each joint's bind world matrix (Armature scale · translation in cm).
  const ibm = new Float32Array(16 * joints.length);
  const world = new Float64Array(16);
  const inv = new Float64Array(16);
  const s = [ARMATURE_SCALE, ARMATURE_SCALE, ARMATURE_SCALE];
  joints.forEach((j, i) => {
    mat4Compose(world, 0, j.pos, 0, [0, 0, 0, 1], 0, s, 0);
    mat4Invert(inv, 0, world, 0);
    ibm.set(inv, 16 * i);
  });
  const skin = doc
    .createSkin('MannequinSkin')
    .setSkeleton(nodes[0])
    .setInverseBindMatrices(doc.createAccessor('inverseBindMatrices').setType('MAT4').setArray(ibm).setBuffer(buffer));
  for (const n of nodes) skin.addJoint(n);

  for (const part of mannequinParts(joints)) {
    checkClosedOutward(part.name, part.data);
    const count = part.data.positions.length / 3;
    const positions = Float32Array.from(part.data.positions);
    const material = doc.createMaterial(part.name).setBaseColorFactor(part.color).setMetallicFactor(0).setRoughnessFactor(0.7);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(vertexNormals(positions, part.data.indices)).setBuffer(buffer))
      .setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(Uint8Array.from(part.joints)).setBuffer(buffer))
      .setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(Float32Array.from(part.weights)).setBuffer(buffer))
      .setIndices(indicesAccessor(doc, buffer, part.data.indices, count))
      .setMaterial(material);
    const mesh = doc.createMesh(part.name).addPrimitive(prim);
    // Skinned mesh nodes sit at the scene root with identity transforms (glTF ignores them anyway).
    scene.addChild(doc.createNode(part.name).setMesh(mesh).setSkin(skin));
  }

  for (const clip of [walkClip(joints), swingClip(joints)]) addClip(doc, buffer, clip, joints.map((j) => j.name), nodes);
  return new NodeIO().writeBinary(doc);
}

function addClip(doc: Document, buffer: GltfBuffer, clip: ClipDef, names: string[], nodes: ReturnType<Document['createNode']>[]): void {
  const anim = doc.createAnimation(clip.name);
  for (const ch of clip.channels) {
    const node = nodes[names.indexOf(ch.joint)];
    const sampler = doc
      .createAnimationSampler()
      .setInput(doc.createAccessor().setType('SCALAR').setArray(Float32Array.from(ch.times)).setBuffer(buffer))
      .setOutput(doc.createAccessor().setType(ch.path === 'rotation' ? 'VEC4' : 'VEC3').setArray(Float32Array.from(ch.values)).setBuffer(buffer))
      .setInterpolation(ch.interpolation);
    anim.addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath(ch.path).setSampler(sampler));
  }
}

/** Prop dimensions in metres (shared with the sample scene builder). */
export const BALL_RADIUS = 0.037;
export const TABLE = { halfX: 0.6, halfZ: 0.4, height: 0.8, top: 0.04 };
export const BOX = { halfX: 0.15, halfY: 0.1, halfZ: 0.125 };
export const BAT_PROFILE: [number, number][] = [
  [0, 0],
  [0.002, 0.016],
  [0.008, 0.024],
  [0.016, 0.024],
  [0.024, 0.015],
  [0.03, 0.0125],
  [0.2, 0.013],
  [0.36, 0.015],
  [0.48, 0.021],
  [0.58, 0.029],
  [0.66, 0.0325],
  [0.8, 0.033],
  [0.835, 0.031],
  [0.846, 0.024],
  [0.85, 0.012],
  [0.85, 0],
];

export interface PropSpec {
  name: string;
  mesh: MeshData;
  color: [number, number, number, number];
  roughness: number;
  smooth: boolean;
}

export function propSpecs(): PropSpec[] {
  // Baseball: 7.4 cm diameter sphere, centred at the origin.
  const r = BALL_RADIUS;
  const ballProfile: [number, number][] = [];
  const rings = 16;
  for (let i = 0; i <= rings; i++) {
    const a = -Math.PI / 2 + (Math.PI * i) / rings;
    ballProfile.push([r + r * Math.sin(a), r * Math.cos(a)]);
  }
  const ball = lathe([0, -r, 0], [0, r, 0], ballProfile, 24);
  // Bat: 0.85 m along +Y from the knob (origin) to the barrel end.
  const bat = lathe([0, 0, 0], [0, 1, 0], BAT_PROFILE, 20);
  // Table: 1.2 × 0.8 m top, 0.8 m high, origin on the floor under its centre;
  // legs end under the 4 cm top (no overlaps, each part closed).
  const table: MeshData = { positions: [], indices: [], axial: [] };
  append(table, box([-TABLE.halfX, TABLE.height - TABLE.top, -TABLE.halfZ], [TABLE.halfX, TABLE.height, TABLE.halfZ]));
  for (const [x, z] of [[-0.55, -0.35], [0.55, -0.35], [-0.55, 0.35], [0.55, 0.35]])
    append(table, box([x - 0.03, 0, z - 0.03], [x + 0.03, TABLE.height - TABLE.top, z + 0.03]));
  // Cardboard box 30 × 20 × 25 cm, centred at the origin.
  const carton = box([-BOX.halfX, -BOX.halfY, -BOX.halfZ], [BOX.halfX, BOX.halfY, BOX.halfZ]);
  return [
    { name: 'Ball', mesh: ball, color: [0.95, 0.93, 0.88, 1], roughness: 0.6, smooth: true },
    { name: 'Bat', mesh: bat, color: [0.62, 0.42, 0.22, 1], roughness: 0.5, smooth: true },
    { name: 'Table', mesh: table, color: [0.45, 0.32, 0.22, 1], roughness: 0.8, smooth: false },
    { name: 'Box', mesh: carton, color: [0.7, 0.55, 0.35, 1], roughness: 0.9, smooth: false },
  ];
}

export async function propGlb(spec: PropSpec): Promise<Uint8Array> {
  checkClosedOutward(spec.name, spec.mesh);
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'Impulse scripts/make-assets.ts';
  const buffer = doc.createBuffer();
  const positions = Float32Array.from(spec.mesh.positions);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
    .setIndices(indicesAccessor(doc, buffer, spec.mesh.indices, positions.length / 3))
    .setMaterial(doc.createMaterial(spec.name).setBaseColorFactor(spec.color).setMetallicFactor(0).setRoughnessFactor(spec.roughness));
  if (spec.smooth)
    prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(vertexNormals(positions, spec.mesh.indices)).setBuffer(buffer));
  const node = doc.createNode(spec.name).setMesh(doc.createMesh(spec.name).addPrimitive(prim));
  doc.createScene('Scene').addChild(node);
  return new NodeIO().writeBinary(doc);
}
