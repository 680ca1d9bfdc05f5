import { Document, NodeIO, Primitive } from '@gltf-transform/core';
import { readAsset as asset } from '../node/assets';
import { describe, expect, it } from 'vitest';
import { SceneEvaluator } from '../anim';
import { DOCUMENT_VERSION, type ImpulseDocument } from '../document/types';
import { Rig, computeSkinMatrices, skinPositions } from '../skeleton';
import { mat4Compose, mat4Multiply } from '../math/mat4';
import { GltfImportError, importGltf, type ImportResult } from './importGltf';
import { packGlb, packGltf, unpackGlb } from './testkit';


function docOf(r: ImportResult): ImpulseDocument {
  return {
    version: DOCUMENT_VERSION,
    name: 't',
    gravity: [0, -9.81, 0],
    groundY: null,
    characters: r.characters,
    props: r.props,
    clips: r.clips,
    activeClip: r.clips[0]?.id ?? '',
    check: { ignore: [], groupNames: ['default'] },
  };
}

function maxAbsDiff(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, n: number): number {
  let d = 0;
  for (let i = 0; i < n; i++) d = Math.max(d, Math.abs(a[ao + i] - b[bo + i]));
  return d;
}

async function expectImportError(bytes: Uint8Array, file: string, where: RegExp | string, what: RegExp): Promise<GltfImportError> {
  let caught: unknown = null;
  try {
    await importGltf(bytes, file);
  } catch (e) {
    caught = e;
  }
  expect(caught, 'import should fail').toBeInstanceOf(GltfImportError);
  const err = caught as GltfImportError;
  if (typeof where === 'string') expect(err.where).toBe(where);
  else expect(err.where).toMatch(where);
  expect(err.message).toMatch(what);
  expect(err.message.startsWith(`${file}: ${err.where}: `), `message names file and place: ${err.message}`).toBe(true);
  return err;
}

/**
 * A small rigged file built by hand: a rotated, translated, non-uniformly
 * scaled "Rig" node above two sibling joint chains (so the skin's joints have
 * a non-joint common parent), one skinned triangle mesh, a mesh node parented
 * to a joint, a prop under a rotated and scaled parent with a LINEAR
 * translation + rotation animation, and a joint rotation animation.
 */
async function handmade(mutate?: (doc: Document) => void): Promise<Uint8Array> {
  const doc = new Document();
  const buf = doc.createBuffer();
  const scene = doc.createScene();
  const rig = doc.createNode('Rig').setTranslation([1, 2, 3]).setRotation([0, Math.SQRT1_2, 0, Math.SQRT1_2]).setScale([0.5, 0.5, 0.5]);
  const a = doc.createNode('A').setTranslation([0, 1, 0]);
  const a1 = doc.createNode('A1').setTranslation([0, 1, 0]).setRotation([0.2, 0, 0, Math.sqrt(1 - 0.04)]);
  const mid = doc.createNode('Mid').setTranslation([0, 0.5, 0]); // not a joint, between joints
  const a2 = doc.createNode('A2').setTranslation([0, 0.5, 0]);
  const b = doc.createNode('B').setTranslation([1, 0, 0]);
  rig.addChild(a).addChild(b);
  a.addChild(a1);
  a1.addChild(mid);
  mid.addChild(a2);
  scene.addChild(rig);
  const joints = [a, a1, a2, b];
  const ibm = new Float32Array(16 * joints.length);
  // Identity IBMs are legal; use them except for one joint to exercise both.
  for (let k = 0; k < joints.length; k++) ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 16 * k);
  ibm.set([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, -1, -1, -1, 1], 16);
  const skin = doc.createSkin('skin').setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buf));
  joints.forEach((j) => skin.addJoint(j));
  const tri = doc
    .createPrimitive()
    .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])).setBuffer(buf))
    .setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(new Uint8Array([0, 1, 0, 0, 1, 2, 0, 0, 2, 3, 0, 0, 3, 0, 0, 0])).setBuffer(buf))
    .setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(new Float32Array([0.5, 0.5, 0, 0, 0.3, 0.7, 0, 0, 0.25, 0.75, 0, 0, 2, 0, 0, 0])).setBuffer(buf))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2])).setBuffer(buf));
  scene.addChild(doc.createNode('Skinned').setMesh(doc.createMesh('Body').addPrimitive(tri)).setSkin(skin));
  const cube = (s: number) =>
    doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, s, 0, 0, 0, s, 0, 0, 0, s])).setBuffer(buf))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])).setBuffer(buf));
  // A rigid mesh under joint A2 (no skin).
  const hat = doc.createNode('Hat').setTranslation([0, 0.2, 0]).setMesh(doc.createMesh('HatMesh').addPrimitive(cube(0.1)));
  a2.addChild(hat);
  // A prop under a rotated, scaled parent.
  const holder = doc.createNode('Holder').setTranslation([5, 0, 0]).setRotation([0, 0, Math.sin(0.3), Math.cos(0.3)]).setScale([2, 2, 2]);
  const prop = doc.createNode('Tetra').setTranslation([0, 1, 0]).setMesh(doc.createMesh('TetraMesh').addPrimitive(cube(1)));
  holder.addChild(prop);
  scene.addChild(holder);
  const anim = doc.createAnimation('move');
  const times = doc.createAccessor().setType('SCALAR').setArray(new Float32Array([0, 0.5, 1.25])).setBuffer(buf);
  const tOut = doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 1, 0, 1, 1, 0, 1, 2, 3])).setBuffer(buf);
  const q = (ang: number): number[] => [Math.sin(ang / 2), 0, 0, Math.cos(ang / 2)];
  const rOut = doc.createAccessor().setType('VEC4').setArray(new Float32Array([...q(0), ...q(1), ...q(2)])).setBuffer(buf);
  const s1 = doc.createAnimationSampler().setInput(times).setOutput(tOut).setInterpolation('LINEAR');
  const s2 = doc.createAnimationSampler().setInput(times).setOutput(rOut).setInterpolation('LINEAR');
  const s3 = doc.createAnimationSampler().setInput(times).setOutput(rOut).setInterpolation('STEP');
  anim.addSampler(s1).addSampler(s2).addSampler(s3);
  anim.addChannel(doc.createAnimationChannel().setTargetNode(prop).setTargetPath('translation').setSampler(s1));
  anim.addChannel(doc.createAnimationChannel().setTargetNode(prop).setTargetPath('rotation').setSampler(s2));
  anim.addChannel(doc.createAnimationChannel().setTargetNode(a1).setTargetPath('rotation').setSampler(s3));
  mutate?.(doc);
  return new NodeIO().writeBinary(doc);
}

/** glTF world matrix of every node at rest, straight from gltf-transform. */
async function gltfWorlds(bytes: Uint8Array): Promise<Map<string, number[]>> {
  const d = await new NodeIO().readBinary(bytes);
  const out = new Map<string, number[]>();
  for (const n of d.getRoot().listNodes()) if (!out.has(n.getName())) out.set(n.getName(), Array.from(n.getWorldMatrix()));
  return out;
}

describe('importGltf: the mannequin', () => {
  it('gives one 67-joint character, parents first, Armature scale in the transform, and joint worlds equal to glTF node worlds', async () => {
    const bytes = asset('characters/mannequin.glb');
    const r = await importGltf(bytes, 'mannequin.glb');
    expect(r.warnings).toEqual([]);
    expect(r.characters.length).toBe(1);
    expect(r.props.length).toBe(0);
    const c = r.characters[0];
    expect(c.skeleton.joints.length).toBe(67);
    c.skeleton.joints.forEach((j, i) => expect(j.parent, `joint ${i} parent comes first`).toBeLessThan(i));
    expect(c.transform.scale).toEqual([0.01, 0.01, 0.01]);
    expect(c.source).toEqual({ file: 'mannequin.glb', index: 0, name: 'MannequinSkin' });
    const worlds = await gltfWorlds(bytes);
    const rig = new Rig(c);
    rig.setRestPose();
    rig.computeWorld();
    c.skeleton.joints.forEach((j, i) => {
      const w = worlds.get(j.name)!;
      expect(maxAbsDiff(rig.world, 16 * i, w, 0, 16), `world of ${j.name}`).toBeLessThan(1e-9);
    });
  });

  it('skins the rest pose back to the bind positions (inverse bind matrices match the bind pose)', async () => {
    const r = await importGltf(asset('characters/mannequin.glb'), 'mannequin.glb');
    const c = r.characters[0];
    const rig = new Rig(c);
    rig.setRestPose();
    rig.computeWorld();
    for (const m of c.meshes) {
      const mats = computeSkinMatrices(m, rig.world, new Float64Array(16 * m.skinJoints.length));
      const out = skinPositions(m, mats, new Float64Array(m.positions.length));
      expect(maxAbsDiff(out, 0, m.positions, 0, out.length), `mesh ${m.name}`).toBeLessThan(1e-6);
      for (let v = 0; v < m.weights.length; v += 4) expect(Math.abs(m.weights[v] + m.weights[v + 1] + m.weights[v + 2] + m.weights[v + 3] - 1)).toBeLessThan(1e-6);
    }
  });

  it('keeps CUBICSPLINE, LINEAR and STEP keys as they are in the file', async () => {
    const bytes = asset('characters/mannequin.glb');
    const r = await importGltf(bytes, 'mannequin.glb');
    const walk = r.clips.find((c) => c.name === 'walk')!;
    const swing = r.clips.find((c) => c.name === 'swing')!;
    expect(new Set(walk.tracks.map((t) => t.interpolation))).toEqual(new Set(['cubic']));
    expect(new Set(swing.tracks.map((t) => t.interpolation))).toEqual(new Set(['linear', 'step']));
    expect([walk.frameRate, walk.startFrame, walk.endFrame]).toEqual([30, 0, 30]);
    expect([swing.startFrame, swing.endFrame]).toEqual([0, 60]);
    // Compare one channel with the raw accessor data.
    const d = await new NodeIO().readBinary(bytes);
    const anim = d.getRoot().listAnimations().find((a) => a.getName() === 'walk')!;
    const ch = anim.listChannels()[0];
    const name = ch.getTargetNode()!.getName();
    const joint = r.characters[0].skeleton.joints.findIndex((j) => j.name === name);
    const track = walk.tracks.find((t) => t.target.kind === 'joint' && t.target.joint === joint && t.path === ch.getTargetPath())!;
    expect(Float32Array.from(track.times)).toEqual(ch.getSampler()!.getInput()!.getArray());
    expect(Float32Array.from(track.values)).toEqual(ch.getSampler()!.getOutput()!.getArray());
  });
});

describe('importGltf: props', () => {
  it('imports the generated props closed and at real-world sizes', async () => {
    const size = async (name: string) => {
      const r = await importGltf(asset(`props/${name}.glb`), `${name}.glb`);
      expect(r.warnings, name).toEqual([]);
      expect(r.props.length).toBe(1);
      const p = r.props[0].mesh.positions;
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < p.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3], p[i]);
        hi[i % 3] = Math.max(hi[i % 3], p[i]);
      }
      expect(r.props[0].physics.mode).toBe('keyframed');
      return hi.map((h, i) => h - lo[i]);
    };
    const ball = await size('ball');
    ball.forEach((d) => expect(d).toBeCloseTo(0.074, 4));
    expect((await size('bat'))[1]).toBeCloseTo(0.85, 4);
    expect(await size('table')).toEqual([expect.closeTo(1.2, 5), expect.closeTo(0.8, 5), expect.closeTo(0.8, 5)]);
    expect(await size('box')).toEqual([expect.closeTo(0.3, 5), expect.closeTo(0.2, 5), expect.closeTo(0.25, 5)]);
  });
});

describe('importGltf: hand-made hierarchy', () => {
  it('takes intermediate nodes into the skeleton and the joints’ common parent into character.transform, matching glTF worlds', async () => {
    const bytes = await handmade();
    const r = await importGltf(bytes, 'hand.glb');
    const c = r.characters[0];
    expect(c.skeleton.joints.map((j) => j.name)).toEqual(['A', 'A1', 'Mid', 'A2', 'B']);
    expect(c.skeleton.joints.map((j) => j.parent)).toEqual([-1, 0, 1, 2, -1]);
    expect(c.transform.translation).toEqual([1, 2, 3]);
    expect(c.meshes[0].skinJoints).toEqual(Int32Array.of(0, 1, 3, 4));
    // Weights normalised (vertex 3 had weight 2).
    expect(Array.from(c.meshes[0].weights.subarray(12, 16))).toEqual([1, 0, 0, 0]);
    const worlds = await gltfWorlds(bytes);
    const rig = new Rig(c);
    rig.setRestPose();
    rig.computeWorld();
    c.skeleton.joints.forEach((j, i) => expect(maxAbsDiff(rig.world, 16 * i, worlds.get(j.name)!, 0, 16), j.name).toBeLessThan(1e-6));
  });

  it('binds a mesh hanging below a joint rigidly to it, and flattens a prop under a transformed parent', async () => {
    const bytes = await handmade();
    const r = await importGltf(bytes, 'hand.glb');
    const worlds = await gltfWorlds(bytes);
    const c = r.characters[0];
    const hat = c.meshes.find((m) => m.name === 'Hat')!;
    expect(hat.skinJoints).toEqual(Int32Array.of(3));
    expect(r.warnings.some((w) => /Hat.*bound rigidly/.test(w))).toBe(true);
    // At rest the hat sits where glTF puts it: positions are its rest world positions.
    const hw = worlds.get('Hat')!;
    expect(hat.positions[3]).toBeCloseTo(hw[0] * 0.1 + hw[12], 5);
    expect(r.props.map((p) => p.name)).toEqual(['Tetra']);
    const prop = r.props[0];
    const m = new Float64Array(16);
    mat4Compose(m, 0, prop.transform.translation, 0, prop.transform.rotation, 0, prop.transform.scale, 0);
    expect(maxAbsDiff(m, 0, worlds.get('Tetra')!, 0, 16)).toBeLessThan(1e-6);
  });

  it('takes float32-rounded rotations as plain TRS (no shear warning) and bakes a real shear into the vertices', async () => {
    const doc = new Document();
    const buf = doc.createBuffer();
    const tetra = (name: string) =>
      doc.createMesh(name).addPrimitive(
        doc
          .createPrimitive()
          .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])).setBuffer(buf))
          .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3])).setBuffer(buf)),
      );
    // A unit quaternion written at float32 precision is off unit length by ~1e-8: still a rotation.
    const q: [number, number, number, number] = [0.26041886, 0, 0.1503529, 0.95371693]; // as our exporter writes it (shortest float32 decimals)
    const rounded = doc.createNode('Rounded').setTranslation([0.1, 0.9, 0.4]).setRotation(q).setScale([1, 2, 1]).setMesh(tetra('A'));
    // Non-uniform scale above a child rotated 30°: a sheared world matrix.
    const sheared = doc.createNode('Sheared').setRotation([0, 0, Math.sin(Math.PI / 12), Math.cos(Math.PI / 12)]).setMesh(tetra('B'));
    const parent = doc.createNode('Squash').setScale([1, 3, 1]).addChild(sheared);
    doc.createScene('s').addChild(rounded).addChild(parent);
    const bytes = await new NodeIO().writeBinary(doc);
    const r = await importGltf(bytes, 'shear.glb');
    const warned = r.warnings.filter((w) => /shear/.test(w));
    expect(warned, 'only the sheared node').toHaveLength(1);
    expect(r.props.find((p) => p.name === 'Rounded')!.transform.scale[1]).toBeCloseTo(2, 6);
    const worlds = await gltfWorlds(bytes);
    const baked = r.props.find((p) => p.name === 'Sheared')!;
    const w = worlds.get('Sheared')!;
    // Vertex (1,0,0) of the sheared prop lands where glTF puts it.
    for (let k = 0; k < 3; k++) expect(baked.mesh.positions[3 + k]).toBeCloseTo(w[k] + w[12 + k], 6);
  });

  it('binds a mesh on a joint node itself rigidly to that joint', async () => {
    const bytes = await handmade((doc) => {
      const b = doc.getRoot().listNodes().find((n) => n.getName() === 'B')!;
      b.setMesh(doc.getRoot().listMeshes().find((m) => m.getName() === 'HatMesh')!);
    });
    const r = await importGltf(bytes, 'hand.glb');
    const c = r.characters[0];
    const onB = c.meshes.find((m) => m.name === 'B')!;
    expect(onB.skinJoints).toEqual(Int32Array.of(4));
    const rig = new Rig(c);
    rig.setRestPose();
    rig.computeWorld();
    const mats = computeSkinMatrices(onB, rig.world, new Float64Array(16));
    const out = skinPositions(onB, mats, new Float64Array(onB.positions.length));
    expect(maxAbsDiff(out, 0, onB.positions, 0, out.length)).toBeLessThan(1e-6);
    const w = (await gltfWorlds(bytes)).get('B')!;
    expect(onB.positions[3]).toBeCloseTo(w[0] * 0.1 + w[12], 5);
  });

  it('re-expresses a prop’s animation under its static parent so evaluated worlds equal glTF’s at every key', async () => {
    const bytes = await handmade();
    const r = await importGltf(bytes, 'hand.glb');
    const doc = docOf(r);
    const ev = new SceneEvaluator(doc, r.clips[0].id);
    const worlds = await gltfWorlds(bytes);
    const parent = worlds.get('Holder')!;
    const keysT = [[0, 1, 0], [1, 1, 0], [1, 2, 3]];
    const keysA = [0, 1, 2];
    [0, 0.5, 1.25].forEach((t, k) => {
      const local = new Float64Array(16);
      mat4Compose(local, 0, keysT[k], 0, [Math.sin(keysA[k] / 2), 0, 0, Math.cos(keysA[k] / 2)], 0, [1, 1, 1], 0);
      const expected = new Float64Array(16);
      mat4Multiply(expected, 0, parent, 0, local, 0);
      const got = ev.propWorldMatrix(0, t, new Float64Array(16));
      expect(maxAbsDiff(got, 0, expected, 0, 16), `t=${t}`).toBeLessThan(1e-5);
    });
    const clip = r.clips[0];
    expect([clip.name, clip.endFrame]).toEqual(['move', 38]);
    expect(clip.tracks.find((t) => t.target.kind === 'joint')!.interpolation).toBe('step');
  });

  it('reads a .gltf with an embedded data: URI like the .glb, names an unresolvable external buffer, and takes it from resources', async () => {
    const glb = await handmade();
    const { json, bin } = unpackGlb(glb);
    const fromGlb = await importGltf(glb, 'hand.glb');
    const fromGltf = await importGltf(packGltf(json, bin), 'hand.gltf');
    expect(fromGltf.characters[0].meshes[0].positions).toEqual(fromGlb.characters[0].meshes[0].positions);
    expect(fromGltf.clips[0].tracks.map((t) => t.values)).toEqual(fromGlb.clips[0].tracks.map((t) => t.values));
    await expectImportError(packGltf(json, bin, 'hand.bin'), 'hand.gltf', 'buffers[0].uri', /external buffer "hand\.bin" cannot be resolved/);
    const withRes = await importGltf(packGltf(json, bin, 'hand.bin'), 'hand.gltf', { resources: { 'hand.bin': bin! } });
    expect(withRes.characters[0].meshes[0].positions).toEqual(fromGlb.characters[0].meshes[0].positions);
  });

  it('ignores images (Impulse uses no textures), even external ones it cannot read; accepts a UTF-8 BOM', async () => {
    const { json, bin } = unpackGlb(await handmade());
    json.images = [{ uri: 'albedo.png' }];
    json.textures = [{ source: 0 }];
    json.materials = [{ name: 'skin', pbrMetallicRoughness: { baseColorTexture: { index: 0 }, baseColorFactor: [0.5, 0.25, 1, 1] } }];
    json.meshes[0].primitives[0].material = 0;
    const text = new TextDecoder().decode(packGltf(json, bin));
    const r = await importGltf(new TextEncoder().encode(`\uFEFF${text}`), 'tex.gltf');
    const withMaterial = [...r.characters[0].meshes.map((m) => r.characters[0].materials[m.material]), ...r.props.map((p) => p.material)];
    expect(withMaterial.some((m) => m.name === 'skin' && m.baseColor[1] === 0.25)).toBe(true);
  });

  it('converts triangle strips and fans to lists (winding kept) with a warning', async () => {
    const bytes = await handmade((doc) => {
      const prim = doc.getRoot().listMeshes().find((m) => m.getName() === 'TetraMesh')!.listPrimitives()[0];
      prim.setMode(Primitive.Mode.TRIANGLE_STRIP);
      prim.getIndices()!.setArray(new Uint16Array([0, 1, 2, 3]));
    });
    const r = await importGltf(bytes, 'strip.glb');
    // glTF: triangle i of a strip is (v_i, v_{i+1+i%2}, v_{i+2-i%2}).
    expect(Array.from(r.props[0].mesh.indices)).toEqual([0, 1, 2, 1, 3, 2]);
    expect(r.warnings.some((w) => /meshes\[\d\]\.primitives\[0\]\.mode: triangle strip converted/.test(w))).toBe(true);
    const fan = await handmade((doc) => {
      const prim = doc.getRoot().listMeshes().find((m) => m.getName() === 'TetraMesh')!.listPrimitives()[0];
      prim.setMode(Primitive.Mode.TRIANGLE_FAN);
      prim.getIndices()!.setArray(new Uint16Array([0, 1, 2, 3]));
    });
    expect(Array.from((await importGltf(fan, 'fan.glb')).props[0].mesh.indices)).toEqual([0, 1, 2, 0, 2, 3]);
  });
});

describe('importGltf: errors name what and where', () => {
  const tetraPrim = (doc: Document) => doc.getRoot().listMeshes().find((m) => m.getName() === 'TetraMesh')!.listPrimitives()[0];
  const bodyPrim = (doc: Document) => doc.getRoot().listMeshes().find((m) => m.getName() === 'Body')!.listPrimitives()[0];
  const meshIndex = async (name: string) => {
    const d = await new NodeIO().readBinary(await handmade());
    return d.getRoot().listMeshes().findIndex((m) => m.getName() === name);
  };

  it('points and lines', async () => {
    const mi = await meshIndex('TetraMesh');
    for (const [mode, word] of [[Primitive.Mode.POINTS, 'points'], [Primitive.Mode.LINES, 'lines'], [Primitive.Mode.LINE_STRIP, 'line strip']] as const) {
      const bytes = await handmade((doc) => tetraPrim(doc).setMode(mode));
      await expectImportError(bytes, 'p.glb', `meshes[${mi}].primitives[0].mode`, new RegExp(`${word} primitives are not supported`));
    }
  });

  it('more than 4 weights', async () => {
    const mi = await meshIndex('Body');
    const bytes = await handmade((doc) => {
      const buf = doc.getRoot().listBuffers()[0];
      bodyPrim(doc)
        .setAttribute('JOINTS_1', doc.createAccessor().setType('VEC4').setArray(new Uint8Array(16)).setBuffer(buf))
        .setAttribute('WEIGHTS_1', doc.createAccessor().setType('VEC4').setArray(new Float32Array([0, 0, 0, 0, 0, 0.1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).setBuffer(buf));
    });
    await expectImportError(bytes, 'w.glb', `meshes[${mi}].primitives[0].attributes.WEIGHTS_1`, /vertex 1 has more than 4 joint influences/);
    // All-zero WEIGHTS_1 is fine.
    const ok = await handmade((doc) => {
      const buf = doc.getRoot().listBuffers()[0];
      bodyPrim(doc)
        .setAttribute('JOINTS_1', doc.createAccessor().setType('VEC4').setArray(new Uint8Array(16)).setBuffer(buf))
        .setAttribute('WEIGHTS_1', doc.createAccessor().setType('VEC4').setArray(new Float32Array(16)).setBuffer(buf));
    });
    expect((await importGltf(ok, 'w.glb')).characters.length).toBe(1);
  });

  it('NaN and infinite values', async () => {
    const mi = await meshIndex('Body');
    const nanPos = await handmade((doc) => bodyPrim(doc).getAttribute('POSITION')!.setArray(new Float32Array([0, 0, 0, 1, NaN, 0, 0, 1, 0, 0, 0, 1])));
    await expectImportError(nanPos, 'n.glb', `meshes[${mi}].primitives[0].attributes.POSITION`, /vertex 1 is not finite \(NaN\)/);
    const infW = await handmade((doc) => bodyPrim(doc).getAttribute('WEIGHTS_0')!.setArray(new Float32Array([Infinity, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])));
    await expectImportError(infW, 'n.glb', `meshes[${mi}].primitives[0].attributes.WEIGHTS_0`, /vertex 0 weight 0 is Infinity/);
    const nanKey = await handmade((doc) => doc.getRoot().listAnimations()[0].listSamplers()[0].getOutput()!.setArray(new Float32Array([0, 1, 0, NaN, 1, 0, 1, 2, 3])));
    await expectImportError(nanKey, 'n.glb', 'animations[0].samplers[0].output', /value 1 component 0 is NaN/);
    const nanIbm = await handmade((doc) => {
      const a = doc.getRoot().listSkins()[0].getInverseBindMatrices()!;
      const arr = a.getArray()!.slice() as Float32Array;
      arr[5] = NaN;
      a.setArray(arr);
    });
    await expectImportError(nanIbm, 'n.glb', 'skins[0].inverseBindMatrices', /matrix 0 is not finite/);
    // Node transforms: NaN can only come from the JSON (gltf-transform would not write it).
    const { json, bin } = unpackGlb(await handmade());
    json.nodes[0].translation = [0, 'x', 0];
    await expectImportError(packGlb(json, bin), 'n.glb', 'nodes[0].translation[1]', /not a finite number/);
  });

  it('joint indices out of range, missing accessors, missing positions', async () => {
    const mi = await meshIndex('Body');
    const badJoint = await handmade((doc) => bodyPrim(doc).getAttribute('JOINTS_0')!.setArray(new Uint8Array([0, 1, 0, 0, 1, 9, 0, 0, 2, 3, 0, 0, 3, 0, 0, 0])));
    await expectImportError(badJoint, 'j.glb', `meshes[${mi}].primitives[0].attributes.JOINTS_0`, /vertex 1 uses joint 9, out of range \(skin has 4 joints\)/);
    const { json, bin } = unpackGlb(await handmade());
    const j1 = JSON.parse(JSON.stringify(json));
    j1.meshes[mi].primitives[0].attributes.POSITION = 999;
    await expectImportError(packGlb(j1, bin), 'a.glb', `meshes[${mi}].primitives[0].attributes.POSITION`, /accessor index 999 out of range/);
    const j2 = JSON.parse(JSON.stringify(json));
    delete j2.meshes[mi].primitives[0].attributes.POSITION;
    await expectImportError(packGlb(j2, bin), 'a.glb', `meshes[${mi}].primitives[0].attributes.POSITION`, /missing/);
    const j3 = JSON.parse(JSON.stringify(json));
    delete j3.meshes[mi].primitives[0].attributes.WEIGHTS_0;
    await expectImportError(packGlb(j3, bin), 'a.glb', `meshes[${mi}].primitives[0].attributes.WEIGHTS_0`, /missing on a skinned mesh/);
    const j4 = JSON.parse(JSON.stringify(json));
    j4.accessors[0].count = 2 ** 31;
    await expectImportError(packGlb(j4, bin), 'a.glb', 'accessors[0].count', /more than this importer accepts/);
    const j5 = JSON.parse(JSON.stringify(json));
    j5.accessors[0].count += 1000;
    await expectImportError(packGlb(j5, bin), 'a.glb', 'accessors[0]', /run past the end of bufferViews/);
  });

  it('non-increasing key times', async () => {
    const bytes = await handmade((doc) => doc.getRoot().listAnimations()[0].listSamplers()[0].getInput()!.setArray(new Float32Array([0, 0.5, 0.5])));
    await expectImportError(bytes, 't.glb', 'animations[0].samplers[0].input', /key times must increase: key 2 at 0.5s after 0.5s/);
  });

  it('truncated and corrupt containers', async () => {
    const glb = await handmade();
    await expectImportError(glb.subarray(0, glb.byteLength - 10), 'cut.glb', 'glb.length', /truncated/);
    await expectImportError(glb.subarray(0, 10), 'cut.glb', 'glb', /truncated header/);
    await expectImportError(new Uint8Array(0), 'empty.glb', 'file', /empty/);
    await expectImportError(new TextEncoder().encode('{"asset": '), 'x.gltf', 'gltf', /invalid JSON/);
    await expectImportError(new TextEncoder().encode('{"asset": {"version": "1.0"}}'), 'x.gltf', 'asset.version', /unsupported glTF version/);
    const { json, bin } = unpackGlb(glb);
    json.nodes[0].children = [0];
    await expectImportError(packGlb(json, bin), 'c.glb', 'nodes[0].children[0]', /own child/);
    const j2 = unpackGlb(glb).json;
    j2.nodes[1].children = [0];
    await expectImportError(packGlb(j2, bin), 'c.glb', /nodes\[\d+\]/, /cycle|already has parent/);
  });

  it('morph-target-only animations are skipped with a warning; unknown optional extensions warn', async () => {
    const { json, bin } = unpackGlb(await handmade());
    json.animations.push({ name: 'blink', samplers: [{ input: json.animations[0].samplers[0].input, output: json.animations[0].samplers[0].input }], channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }] });
    json.extensionsUsed = ['EXT_made_up'];
    const r = await importGltf(packGlb(json, bin), 'm.glb');
    expect(r.clips.map((c) => c.name)).toEqual(['move']);
    expect(r.warnings.some((w) => /animations\[1\] "blink" animates only morph targets/.test(w))).toBe(true);
    expect(r.warnings.some((w) => /EXT_made_up/.test(w)), r.warnings.join('\n')).toBe(true);
  });
});
