/**
 * Export tests. Helpers first:
 * gltf-validator, and a round trip through three.js's GLTFLoader +
 * AnimationMixer compared against our own evaluation.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { WebIO } from '@gltf-transform/core';
import { KHRMeshQuantization } from '@gltf-transform/extensions';
import { sampleDocument } from '../document/fixtures';
import { AnimationMixer, LoopOnce, type Object3D } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { ImpulseDocument } from '../document/types';
import { SceneEvaluator, TRS_STRIDE } from '../anim';
import { valueError } from './reduce';
import { type ExportLayout, type ExportOptions, buildGltfDocument, exportGlb } from './exportGlb';
import { DEFAULT_TOLERANCES, bakedKeyCount } from './bake';
import { mulberry32 } from '../math/random';

export interface ValidationReport {
  issues: {
    numErrors: number;
    numWarnings: number;
    messages: { code: string; message: string; severity: number; pointer?: string }[];
  };
}

const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidationReport>;
};

export async function validateGlb(glb: Uint8Array): Promise<ValidationReport> {
  return validator.validateBytes(glb, { maxIssues: 200, writeTimestamp: false });
}

/** Error messages of a report, for assertion messages. */
export function errorsOf(report: ValidationReport): string[] {
  return report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
}

export async function loadWithThree(glb: Uint8Array): Promise<GLTF> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

/** three.js object of every glTF node index. */
export function objectsByNodeIndex(gltf: GLTF): Map<number, Object3D> {
  const map = new Map<number, Object3D>();
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (a && a.nodes !== undefined) map.set(a.nodes, o);
  });
  return map;
}

export interface RoundTripResult {
  samples: number;
  /** Largest differences between three.js playback and our evaluation. */
  translation: number;
  rotationRad: number;
  scale: number;
}

/**
 * Plays each baked clip in three.js at `times` (relative to the clip start)
 * and compares every joint and prop node's local transform with our
 * SceneEvaluator at the same document time.
 */
export function compareWithThree(gltf: GLTF, layout: ExportLayout, doc: ImpulseDocument, timesFor: (clipIndex: number) => number[]): RoundTripResult {
  const nodes = layout.document.getRoot().listNodes();
  const index = new Map(nodes.map((n, i) => [n, i]));
  const objects = objectsByNodeIndex(gltf);
  const res: RoundTripResult = { samples: 0, translation: 0, rotationRad: 0, scale: 0 };
  const pose = new Float64Array(10 * 256);
  const got = new Float64Array(10);
  layout.clips.forEach((baked, ci) => {
    const clip = gltf.animations.find((a) => a.name === baked.name);
    if (!clip) throw new Error(`three.js did not load animation "${baked.name}" (has ${gltf.animations.map((a) => a.name).join(', ')})`);
    const mixer = new AnimationMixer(gltf.scene);
    const action = mixer.clipAction(clip);
    action.setLoop(LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    const evaluator = new SceneEvaluator(doc, baked.id);
    const compare = (obj: Object3D, want: ArrayLike<number>, wo: number) => {
      got[0] = obj.position.x;
      got[1] = obj.position.y;
      got[2] = obj.position.z;
      got[3] = obj.quaternion.x;
      got[4] = obj.quaternion.y;
      got[5] = obj.quaternion.z;
      got[6] = obj.quaternion.w;
      got[7] = obj.scale.x;
      got[8] = obj.scale.y;
      got[9] = obj.scale.z;
      res.translation = Math.max(res.translation, valueError('vector', got, 0, want, wo));
      res.rotationRad = Math.max(res.rotationRad, valueError('rotation', got, 3, want, wo + 3));
      res.scale = Math.max(res.scale, valueError('vector', got, 7, want, wo + 7));
      res.samples++;
    };
    for (const tau of timesFor(ci)) {
      mixer.setTime(tau);
      const t = baked.startTimeSec + tau;
      doc.characters.forEach((ch, c) => {
        const p = ch.skeleton.joints.length > 256 ? new Float64Array(10 * ch.skeleton.joints.length) : pose;
        evaluator.characterLocalPose(c, t, p);
        for (let j = 0; j < ch.skeleton.joints.length; j++) {
          const obj = objects.get(index.get(layout.jointNodes[c][j])!);
          if (!obj) throw new Error(`joint node ${j} of character ${c} not loaded by three.js`);
          compare(obj, p, j * TRS_STRIDE);
        }
      });
      doc.props.forEach((_p, pi) => {
        evaluator.propTransform(pi, t, pose);
        const obj = objects.get(index.get(layout.propNodes[pi])!);
        if (!obj) throw new Error(`prop node ${pi} not loaded by three.js`);
        compare(obj, pose, 0);
      });
    }
    mixer.stopAllAction();
    mixer.uncacheRoot(gltf.scene);
  });
  return res;
}

/** Frame times of a baked clip relative to its start, and `perFrame` seeded sub-frame times. */
export function clipTimes(layout: ExportLayout, ci: number, subPerFrame: number, seed = 1): number[] {
  const c = layout.clips[ci];
  const out: number[] = [];
  const r = mulberry32(seed);
  const frames = c.endFrame - c.startFrame;
  for (let k = 0; k <= frames; k++) {
    out.push(k / c.frameRate);
    if (k < frames) for (let s = 0; s < subPerFrame; s++) out.push((k + r()) / c.frameRate);
  }
  return out;
}

/** Exports, validates, reloads in three.js and compares; returns what it measured. */
async function exportAndCheck(doc: ImpulseDocument, options: ExportOptions, subPerFrame: number, label: string) {
  const layout = buildGltfDocument(doc, options);
  const glb = await exportGlb(doc, { ...options, baked: layout.clips });
  const report = await validateGlb(glb);
  const gltf = await loadWithThree(glb);
  const rt = compareWithThree(gltf, layout, doc, (ci) => clipTimes(layout, ci, subPerFrame));
  const keys = layout.clips.reduce((n, c) => n + bakedKeyCount(c), 0);
  console.log(
    `${label}: ${glb.byteLength} bytes, ${keys} keys, validator ${report.issues.numErrors} errors / ${report.issues.numWarnings} warnings, ` +
      `three.js vs ours over ${rt.samples} node samples: translation ${rt.translation.toExponential(2)} m, rotation ${rt.rotationRad.toExponential(2)} rad, scale ${rt.scale.toExponential(2)}`,
  );
  return { layout, glb, report, rt };
}

/** Float32 storage adds this much on top of the reduction tolerance. */
const STORAGE_SLACK = 2e-6;

describe('exportGlb on the fixture document (every interpolation: step, linear, cubic)', () => {
  it('sparse export: 0 validator errors; three.js playback matches our evaluation within tolerance at frames and between them', async () => {
    const doc = sampleDocument();
    const { report, rt } = await exportAndCheck(doc, {}, 4, 'fixture sparse');
    expect(errorsOf(report), 'gltf-validator errors').toEqual([]);
    expect(report.issues.numErrors).toBe(0);
    expect(rt.translation).toBeLessThanOrEqual(DEFAULT_TOLERANCES.translation + STORAGE_SLACK);
    expect(rt.rotationRad).toBeLessThanOrEqual(DEFAULT_TOLERANCES.rotationRad + STORAGE_SLACK);
    expect(rt.scale).toBeLessThanOrEqual(DEFAULT_TOLERANCES.scale + STORAGE_SLACK);
  });

  it('every-frame export: one key per frame per channel, 0 validator errors, matches at every frame', async () => {
    const doc = sampleDocument();
    const { report, rt, layout } = await exportAndCheck(doc, { mode: 'every-frame' }, 0, 'fixture every-frame');
    expect(errorsOf(report)).toEqual([]);
    const frames = doc.clips[0].endFrame - doc.clips[0].startFrame + 1;
    for (const ch of layout.clips[0].channels) expect(ch.curve.times.length).toBe(frames);
    expect(rt.translation).toBeLessThanOrEqual(STORAGE_SLACK);
    expect(rt.rotationRad).toBeLessThanOrEqual(STORAGE_SLACK);
    expect(rt.scale).toBeLessThanOrEqual(STORAGE_SLACK);
  });

  it('tight tolerance export still matches between frames (1e-5 m, 1e-5 rad)', async () => {
    const doc = sampleDocument();
    const tolerance = { translation: 1e-5, rotationRad: 1e-5, scale: 1e-5 };
    const { report, rt } = await exportAndCheck(doc, { tolerance }, 4, 'fixture tight');
    expect(errorsOf(report)).toEqual([]);
    expect(rt.translation).toBeLessThanOrEqual(1e-5 + STORAGE_SLACK);
    expect(rt.rotationRad).toBeLessThanOrEqual(1e-5 + STORAGE_SLACK);
  });

  it('several clips become several glTF animations, each matching its own clip', async () => {
    const doc = sampleDocument();
    const second = structuredClone(doc.clips[0]);
    second.id = 'swing-back';
    second.name = 'Swing back';
    second.startFrame = 10;
    second.endFrame = 40;
    for (const t of second.tracks) t.times = t.times.map((x) => x * 1.3);
    doc.clips.push(second);
    const { report, rt, layout } = await exportAndCheck(doc, {}, 2, 'fixture two clips');
    expect(errorsOf(report)).toEqual([]);
    expect(layout.document.getRoot().listAnimations().map((a) => a.getName())).toEqual(['Swing', 'Swing back']);
    expect(rt.rotationRad).toBeLessThanOrEqual(DEFAULT_TOLERANCES.rotationRad + STORAGE_SLACK);
    expect(rt.translation).toBeLessThanOrEqual(DEFAULT_TOLERANCES.translation + STORAGE_SLACK);
  });

  it('a one-frame clip (a pose) exports as one key per channel with 0 validator errors, in both modes', async () => {
    const doc = sampleDocument();
    doc.clips[0].startFrame = 12;
    doc.clips[0].endFrame = 12;
    for (const mode of ['sparse', 'every-frame'] as const) {
      const { report, rt, layout } = await exportAndCheck(doc, { mode }, 0, `fixture one-frame ${mode}`);
      expect(errorsOf(report)).toEqual([]);
      for (const ch of layout.clips[0].channels) expect(ch.curve.times.length).toBe(1);
      expect(Math.max(rt.translation, rt.rotationRad, rt.scale)).toBeLessThanOrEqual(STORAGE_SLACK);
    }
  });

  it('exportGlb writes float32 meshes unless asked to quantise (bare readers keep working)', async () => {
    const glb = await exportGlb(sampleDocument());
    const back = await new WebIO().readBinary(glb);
    expect(back.getRoot().listExtensionsUsed()).toEqual([]);
    expect(back.getRoot().listMeshes()[0].listPrimitives()[0].getAttribute('POSITION')!.getComponentType()).toBe(5126);
  });

  it('meshes, skin and materials survive (float32 meshes): skin joints, inverse bind matrices, positions and material factors as in the document', async () => {
    const doc = sampleDocument();
    doc.characters[0].materials[0] = { name: 'skin', baseColor: [0.8, 0.5, 0.3, 1], metallic: 0.1, roughness: 0.7 };
    const glb = await exportGlb(doc, { quantize: false });
    const io = new WebIO();
    const back = await io.readBinary(glb);
    const root = back.getRoot();
    expect(root.listSkins().length).toBe(1);
    expect(root.listSkins()[0].listJoints().map((j) => j.getName())).toEqual(doc.characters[0].skeleton.joints.map((j) => j.name));
    const ibm = root.listSkins()[0].getInverseBindMatrices()!.getArray()!;
    expect(Array.from(ibm)).toEqual(Array.from(doc.characters[0].meshes[0].inverseBindMatrices));
    const skinMat = root.listMaterials().find((m) => m.getName() === 'skin')!;
    expect(skinMat.getBaseColorFactor().map((x) => Math.fround(x))).toEqual([0.8, 0.5, 0.3, 1].map(Math.fround));
    expect(skinMat.getRoughnessFactor()).toBeCloseTo(0.7, 6);
    const prim = root.listMeshes().find((m) => m.getName() === 'body')!.listPrimitives()[0];
    expect(Array.from(prim.getAttribute('POSITION')!.getArray()!)).toEqual(Array.from(doc.characters[0].meshes[0].positions));
    expect(prim.getAttribute('JOINTS_0')).not.toBeNull();
    expect(prim.getAttribute('WEIGHTS_0')).not.toBeNull();
    // Joint hierarchy sits under the character node.
    const hero = root.listNodes().find((n) => n.getName() === 'Hero')!;
    expect(hero.listChildren().map((n) => n.getName())).toEqual(['joint0']);
  });

  it('quantised export: KHR_mesh_quantization required, int16/int8/uint8 normalised attributes, weights summing exactly to 255, bind pose reproduced through the dequantising inverse bind matrices', async () => {
    const doc = sampleDocument();
    const mesh = doc.characters[0].meshes[0];
    // Outward-ish normals (any non-zero vectors will do; the exporter normalises them).
    mesh.normals = Float32Array.from(mesh.positions, (x, i) => x + (i % 3 === 1 ? 0.01 : 0));
    const glb = await exportGlb(doc, { quantize: true });
    const report = await validateGlb(glb);
    expect(errorsOf(report)).toEqual([]);
    expect(report.issues.numWarnings).toBe(0);
    const io = new WebIO().registerExtensions([KHRMeshQuantization]);
    const json = (await io.binaryToJSON(glb)).json;
    expect(json.extensionsRequired).toEqual(['KHR_mesh_quantization']);
    const root = (await io.readBinary(glb)).getRoot();
    const prim = root.listMeshes().find((m) => m.getName() === mesh.name)!.listPrimitives()[0];
    const pos = prim.getAttribute('POSITION')!, nrm = prim.getAttribute('NORMAL')!, w = prim.getAttribute('WEIGHTS_0')!, j = prim.getAttribute('JOINTS_0')!;
    expect([pos.getComponentType(), pos.getNormalized()]).toEqual([5122, true]);
    expect([nrm.getComponentType(), nrm.getNormalized()]).toEqual([5120, true]);
    expect([w.getComponentType(), w.getNormalized()]).toEqual([5121, true]);
    expect(j.getComponentType()).toBe(5121);
    expect(prim.getIndices()!.getComponentType()).toBe(5123);
    const wa = w.getArray()!;
    for (let v = 0; v < wa.length / 4; v++) expect(wa[4 * v] + wa[4 * v + 1] + wa[4 * v + 2] + wa[4 * v + 3]).toBe(255);
    // Bind pose: for every vertex and every joint slot it uses, IBM'·q̃ = IBM·p within half a grid step (through IBM).
    const ibmQ = root.listSkins()[0].getInverseBindMatrices()!.getArray()!;
    const q = pos.getArray()!;
    const scale = Math.hypot(ibmQ[0], ibmQ[1], ibmQ[2]) / Math.hypot(mesh.inverseBindMatrices[0], mesh.inverseBindMatrices[1], mesh.inverseBindMatrices[2]);
    let worst = 0;
    for (let v = 0; v < q.length / 3; v++)
      for (let k = 0; k < 4; k++) {
        if (!(mesh.weights[4 * v + k] > 0)) continue;
        const o = 16 * mesh.joints[4 * v + k];
        const a = [q[3 * v] / 32767, q[3 * v + 1] / 32767, q[3 * v + 2] / 32767];
        const p = [mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]];
        for (let c = 0; c < 3; c++) {
          const got = ibmQ[o + c] * a[0] + ibmQ[o + 4 + c] * a[1] + ibmQ[o + 8 + c] * a[2] + ibmQ[o + 12 + c];
          const want = mesh.inverseBindMatrices[o + c] * p[0] + mesh.inverseBindMatrices[o + 4 + c] * p[1] + mesh.inverseBindMatrices[o + 8 + c] * p[2] + mesh.inverseBindMatrices[o + 12 + c];
          const ibmNorm = Math.hypot(mesh.inverseBindMatrices[o + c], mesh.inverseBindMatrices[o + 4 + c], mesh.inverseBindMatrices[o + 8 + c]);
          worst = Math.max(worst, Math.abs(got - want) / (ibmNorm * (Math.sqrt(3) / 2) * (scale / 32767) + 1e-6));
        }
      }
    expect(worst, 'bind-space error / half-step bound').toBeLessThanOrEqual(1);
    // three.js reads it and plays the clip like our evaluation.
    const layout = buildGltfDocument(doc, { quantize: true });
    const rt = compareWithThree(await loadWithThree(glb), layout, doc, (ci) => clipTimes(layout, ci, 2));
    expect(rt.rotationRad).toBeLessThanOrEqual(DEFAULT_TOLERANCES.rotationRad + STORAGE_SLACK);
    expect(rt.translation).toBeLessThanOrEqual(DEFAULT_TOLERANCES.translation + STORAGE_SLACK);
  });

  for (const mode of ['sparse', 'every-frame'] as const) {
    it(`animation-only export (${mode}): nodes, one skin, animation and nothing else; 0 validator errors or warnings; three.js plays it like our evaluation`, async () => {
      const doc = sampleDocument();
      // Every-frame keys are checked at the frames (between them they are a lerp of the frames).
      const { report, rt, glb } = await exportAndCheck(doc, { mode, includeMeshes: false }, mode === 'sparse' ? 2 : 0, `fixture animation-only ${mode}`);
      expect(errorsOf(report)).toEqual([]);
      expect(report.issues.numWarnings).toBe(0);
      const tol = mode === 'sparse' ? DEFAULT_TOLERANCES : { translation: 0, rotationRad: 0, scale: 0 };
      expect(rt.translation).toBeLessThanOrEqual(tol.translation + STORAGE_SLACK);
      expect(rt.rotationRad).toBeLessThanOrEqual(tol.rotationRad + STORAGE_SLACK);
      const json = (await new WebIO().binaryToJSON(glb)).json;
      expect(json.meshes ?? []).toEqual([]);
      expect(json.materials ?? []).toEqual([]);
      expect(json.extensionsUsed ?? []).toEqual([]);
      expect(json.skins!.length).toBe(1);
      // Every accessor is the skin's inverse bind matrices or animation data.
      const used = new Set<number>([json.skins![0].inverseBindMatrices!]);
      for (const a of json.animations!) for (const smp of a.samplers) used.add(smp.input).add(smp.output);
      expect(json.accessors!.length).toBe(used.size);
      const ibm = (await new WebIO().readBinary(glb)).getRoot().listSkins()[0].getInverseBindMatrices()!.getArray()!;
      expect(Array.from(ibm)).toEqual(Array.from(doc.characters[0].meshes[0].inverseBindMatrices));
    });
  }

  it('minimal JSON: no default fields, node transforms as the shortest float32 decimals', async () => {
    const doc = sampleDocument();
    doc.characters[0].skeleton.joints[1].rest.translation = [0.1 + 0.2, 0, 1 / 3];
    const json = (await new WebIO().registerExtensions([KHRMeshQuantization]).binaryToJSON(await exportGlb(doc, { quantize: true }))).json;
    const text = JSON.stringify(json);
    expect(text).not.toMatch(/"byteOffset":0[,}]/);
    expect(text).not.toMatch(/"interpolation":"LINEAR"/);
    expect(text).not.toMatch(/"scale":\[1,1,1\]|"rotation":\[0,0,0,1\]|"translation":\[0,0,0\]/);
    const joint1 = json.nodes!.find((n) => n.name === doc.characters[0].skeleton.joints[1].name)!;
    expect(joint1.translation).toEqual([0.3, 0, 0.33333334]);
    expect(Math.fround(joint1.translation![0])).toBe(Math.fround(0.1 + 0.2));
  });

  for (const physics of ['khr', 'omi'] as const) {
    it(`physics extension ${physics}: props carry mass, friction/restitution (khr), kinematic vs dynamic; 0 validator errors`, async () => {
      const doc = sampleDocument();
      const glb = await exportGlb(doc, { physics });
      const report = await validateGlb(glb);
      expect(errorsOf(report)).toEqual([]);
      const json = (await new WebIO().binaryToJSON(glb)).json;
      const used = json.extensionsUsed ?? [];
      const nodes = json.nodes ?? [];
      const crate = nodes.find((n) => n.name === 'Crate')!;
      const ball = nodes.find((n) => n.name === 'Ball')!;
      if (physics === 'khr') {
        expect(used).toContain('KHR_physics_rigid_bodies');
        const c = (crate.extensions as Record<string, any>).KHR_physics_rigid_bodies;
        const b = (ball.extensions as Record<string, any>).KHR_physics_rigid_bodies;
        expect(c.motion.isKinematic).toBe(true);
        expect(c.motion.mass).toBeCloseTo(4, 9);
        expect(b.motion.isKinematic).toBe(false);
        // Ball: density 200 kg/m³ on an icosphere of radius 0.11 m: a bit under the sphere's 4/3 π r³ ρ.
        expect(b.motion.mass).toBeLessThan((4 / 3) * Math.PI * 0.11 ** 3 * 200);
        expect(b.motion.mass).toBeGreaterThan(0.9 * (4 / 3) * Math.PI * 0.11 ** 3 * 200);
        const mats = (json.extensions as Record<string, any>).KHR_physics_rigid_bodies.physicsMaterials;
        expect(mats[b.collider.physicsMaterial]).toEqual({ staticFriction: 0.4, dynamicFriction: 0.4, restitution: 0.8 });
        expect(mats[c.collider.physicsMaterial]).toEqual({ staticFriction: 0.6, dynamicFriction: 0.6, restitution: 0.3 });
        expect(json.meshes![b.collider.geometry.mesh].name).toBe('Ball');
      } else {
        expect(used).toEqual(expect.arrayContaining(['OMI_physics_body', 'OMI_physics_shape']));
        const c = (crate.extensions as Record<string, any>).OMI_physics_body;
        const b = (ball.extensions as Record<string, any>).OMI_physics_body;
        expect(c.motion.type).toBe('kinematic');
        expect(b.motion.type).toBe('dynamic');
        expect(c.motion.mass).toBeCloseTo(4, 9);
        const shapes = (json.extensions as Record<string, any>).OMI_physics_shape.shapes;
        expect(json.meshes![shapes[b.collider.shape].convex.mesh].name).toBe('Ball');
      }
    });
  }
});
