/**
 * Exports of the real assets: the imported mannequin (assets/characters/
 * mannequin.glb, through core/io) and the sample project
 * (assets/sample/bat-and-ball.impulse). Each passes gltf-validator with 0
 * errors and plays back in three.js (GLTFLoader + AnimationMixer, every
 * frame) like our own evaluation, sparse and every-frame; for the mannequin
 * the skinned vertices are compared too, against a first-order bound of what
 * the key-reduction tolerances allow.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnimationMixer, LoopOnce, type SkinnedMesh as ThreeSkinnedMesh, Vector3 } from 'three';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { ImpulseDocument, SkinnedMesh } from '../document/types';
import { createEmptyDocument } from '../document/defaults';
import { parseDocument } from '../document/parse';
import { importGltf } from '../io/importGltf';
import { SceneEvaluator, TRS_STRIDE } from '../anim';
import { Rig, computeSkinMatrices, skinPositions } from '../skeleton';
import { type ExportLayout, buildGltfDocument, exportGlb } from './exportGlb';
import { DEFAULT_TOLERANCES, bakedKeyCount } from './bake';
import { valueError } from './reduce';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<{
    issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string; severity: number; pointer?: string }[] };
  }>;
};

async function mannequinDocument(): Promise<ImpulseDocument> {
  const bytes = new Uint8Array(readFileSync(join(ROOT, 'assets/characters/mannequin.glb')));
  const r = await importGltf(bytes, 'mannequin.glb');
  const doc = createEmptyDocument('mannequin');
  doc.characters = r.characters;
  doc.props = r.props;
  doc.clips = r.clips;
  doc.activeClip = r.clips[0].id;
  return doc;
}

function sampleDocument(): ImpulseDocument {
  return parseDocument(readFileSync(join(ROOT, 'assets/sample/bat-and-ball.impulse'), 'utf8'));
}

async function loadWithThree(glb: Uint8Array): Promise<GLTF> {
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

interface Measured {
  nodeSamples: number;
  /** Largest translation error beyond float32 rounding of the value itself (relative 4e-7). */
  translation: number;
  rotationRad: number;
  scale: number;
  vertexSamples: number;
  /** Largest skinned-vertex distance (three.js against our skinning of the data as stored), and the largest ratio of distance to its allowed bound. */
  vertexError: number;
  vertexBoundRatio: number;
  /**
   * Quantisation: largest distance between our skinning of the stored
   * (quantised) mesh and of the document's mesh, and its largest ratio to the
   * analytic bound (position rounding through the skin matrix + weight rounding).
   */
  quantizationError: number;
  quantizationBoundRatio: number;
}

/** The document's mesh as the .glb stores it, read back from three.js (dequantised positions and weights, stored inverse bind matrices). */
function storedMesh(mesh: SkinnedMesh, three: ThreeSkinnedMesh): SkinnedMesh {
  const g = three.geometry;
  const pos = g.getAttribute('position'), sw = g.getAttribute('skinWeight'), si = g.getAttribute('skinIndex');
  const n = pos.count;
  const positions = new Float32Array(3 * n), weights = new Float32Array(4 * n), joints = new Uint16Array(4 * n);
  for (let i = 0; i < n; i++) {
    positions[3 * i] = pos.getX(i);
    positions[3 * i + 1] = pos.getY(i);
    positions[3 * i + 2] = pos.getZ(i);
    weights[4 * i] = sw.getX(i);
    weights[4 * i + 1] = sw.getY(i);
    weights[4 * i + 2] = sw.getZ(i);
    weights[4 * i + 3] = sw.getW(i);
    joints[4 * i] = si.getX(i);
    joints[4 * i + 1] = si.getY(i);
    joints[4 * i + 2] = si.getZ(i);
    joints[4 * i + 3] = si.getW(i);
  }
  const ibm = new Float32Array(16 * three.skeleton.boneInverses.length);
  three.skeleton.boneInverses.forEach((m, k) => ibm.set(m.elements, 16 * k));
  return { ...mesh, positions, weights, joints, inverseBindMatrices: ibm, normals: undefined };
}

/**
 * Plays every baked clip in three.js at every frame and compares joint/prop
 * node transforms with our evaluation; with `skin`, also every skinned vertex
 * of every character mesh against our linear blend skinning.
 */
function compare(gltf: GLTF, layout: ExportLayout, doc: ImpulseDocument, skin: boolean, quantized: boolean): Measured {
  const nodes = layout.document.getRoot().listNodes();
  const index = new Map(nodes.map((n, i) => [n, i]));
  const byIndex = new Map<number, import('three').Object3D>();
  gltf.scene.traverse((o) => {
    const a = gltf.parser.associations.get(o);
    if (a && a.nodes !== undefined && !byIndex.has(a.nodes)) byIndex.set(a.nodes, o);
  });
  const skinned: ThreeSkinnedMesh[] = [];
  gltf.scene.traverse((o) => {
    if ((o as ThreeSkinnedMesh).isSkinnedMesh) skinned.push(o as ThreeSkinnedMesh);
  });
  const m: Measured = { nodeSamples: 0, translation: 0, rotationRad: 0, scale: 0, vertexSamples: 0, vertexError: 0, vertexBoundRatio: 0, quantizationError: 0, quantizationBoundRatio: 0 };
  const stored = new Map<SkinnedMesh, SkinnedMesh>();
  const got = new Float64Array(10);
  const v = new Vector3();
  for (const baked of layout.clips) {
    const clip = gltf.animations.find((a) => a.name === baked.name);
    if (!clip) throw new Error(`three.js did not load animation "${baked.name}"`);
    const mixer = new AnimationMixer(gltf.scene);
    const action = mixer.clipAction(clip);
    action.setLoop(LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    const evaluator = new SceneEvaluator(doc, baked.id);
    const rigs = doc.characters.map((c) => new Rig(c));
    const tol = baked.mode === 'sparse' ? baked.tolerance : { translation: 0, rotationRad: 0, scale: 0 };
    for (let f = 0; f <= baked.endFrame - baked.startFrame; f++) {
      const tau = f / baked.frameRate;
      mixer.setTime(tau);
      gltf.scene.updateMatrixWorld(true);
      const t = baked.startTimeSec + tau;
      doc.characters.forEach((ch, ci) => {
        const rig = rigs[ci];
        evaluator.characterLocalPose(ci, t, rig.local);
        rig.computeWorld();
        for (let j = 0; j < ch.skeleton.joints.length; j++) {
          const o = byIndex.get(index.get(layout.jointNodes[ci][j])!)!;
          got.set([o.position.x, o.position.y, o.position.z, o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w, o.scale.x, o.scale.y, o.scale.z]);
          const o3 = j * TRS_STRIDE;
          const mag = Math.hypot(rig.local[o3], rig.local[o3 + 1], rig.local[o3 + 2]);
          m.translation = Math.max(m.translation, valueError('vector', got, 0, rig.local, o3) - F32_REL * mag);
          m.rotationRad = Math.max(m.rotationRad, valueError('rotation', got, 3, rig.local, j * TRS_STRIDE + 3));
          m.scale = Math.max(m.scale, valueError('vector', got, 7, rig.local, j * TRS_STRIDE + 7));
          m.nodeSamples++;
        }
        if (!skin) return;
        // First-order bound per joint: each ancestor's translation error (scaled by its
        // parent's world scale) plus its rotation error times the distance to the point.
        const joints = ch.skeleton.joints;
        const w = rig.world;
        const parentScale = (j: number) => {
          const p = joints[j].parent;
          if (p < 0) return Math.max(...ch.transform.scale.map(Math.abs));
          return Math.max(Math.hypot(w[p * 16], w[p * 16 + 1], w[p * 16 + 2]), Math.hypot(w[p * 16 + 4], w[p * 16 + 5], w[p * 16 + 6]), Math.hypot(w[p * 16 + 8], w[p * 16 + 9], w[p * 16 + 10]));
        };
        const bound = (j: number, x: number, y: number, z: number) => {
          let b = 0;
          for (let a = j; a >= 0; a = joints[a].parent) {
            const dist = Math.hypot(x - w[a * 16 + 12], y - w[a * 16 + 13], z - w[a * 16 + 14]);
            b += tol.translation * parentScale(a) + tol.rotationRad * dist + tol.scale * dist;
          }
          return b;
        };
        ch.meshes.forEach((mesh) => {
          const three = skinned.find((s) => s.name === `${ch.name}.${mesh.name}`.replace(/[\s.]/g, '') || s.geometry.getAttribute('position').count === mesh.positions.length / 3);
          if (!three) throw new Error(`skinned mesh ${mesh.name} not found in three.js scene`);
          three.skeleton.update();
          const mats = computeSkinMatrices(mesh, rig.world, new Float64Array(16 * mesh.skinJoints.length));
          const ours = skinPositions(mesh, mats, new Float64Array(mesh.positions.length));
          let st = stored.get(mesh);
          if (!st) stored.set(mesh, (st = storedMesh(mesh, three)));
          const stMats = computeSkinMatrices(st, rig.world, new Float64Array(16 * st.skinJoints.length));
          const ourStored = skinPositions(st, stMats, new Float64Array(st.positions.length));
          // Quantisation bound, exact to first order: with p̃ the dequantised position and w̃ the
          // stored weights (Σw̃ = Σw = 1), v'_stored − v' = Σ w̃_k S_k (p̃ − p) + Σ_slots Δw_s (S_s p − v').
          // |p̃ − p| ≤ √3/2 grid steps; the step (scale/32767) is read off the stored inverse bind
          // matrices (IBM' = IBM · D); ‖S_k‖ ≤ its Frobenius norm.
          const colNorm = (arr: ArrayLike<number>, k: number) => Math.hypot(arr[16 * k], arr[16 * k + 1], arr[16 * k + 2]);
          const frob = (k: number) => {
            let f = 0;
            for (const e of [0, 1, 2, 4, 5, 6, 8, 9, 10]) f += mats[16 * k + e] ** 2;
            return Math.sqrt(f);
          };
          const slots = new Map<number, number>();
          const n = mesh.positions.length / 3;
          for (let i = 0; i < n; i++) {
            three.getVertexPosition(i, v);
            v.applyMatrix4(three.matrixWorld);
            const err = Math.hypot(v.x - ourStored[3 * i], v.y - ourStored[3 * i + 1], v.z - ourStored[3 * i + 2]);
            let b = 0, qb = 0;
            slots.clear();
            for (let k = 0; k < 4; k++) {
              const wt = mesh.weights[4 * i + k];
              if (wt > 0) b += wt * bound(mesh.skinJoints[mesh.joints[4 * i + k]], ours[3 * i], ours[3 * i + 1], ours[3 * i + 2]);
              const sl = mesh.joints[4 * i + k], sw = st.joints[4 * i + k], ws = st.weights[4 * i + k];
              if (wt > 0) slots.set(sl, (slots.get(sl) ?? 0) - wt);
              if (ws > 0) {
                slots.set(sw, (slots.get(sw) ?? 0) + ws);
                const step = colNorm(st.inverseBindMatrices, sw) / colNorm(mesh.inverseBindMatrices, sw) / 32767;
                qb += ws * frob(sw) * (Math.sqrt(3) / 2) * (quantized ? step : 0);
              }
            }
            const x = mesh.positions[3 * i], y = mesh.positions[3 * i + 1], z = mesh.positions[3 * i + 2];
            for (const [sl, dw] of slots) {
              const o = 16 * sl;
              const px = mats[o] * x + mats[o + 4] * y + mats[o + 8] * z + mats[o + 12] - ours[3 * i];
              const py = mats[o + 1] * x + mats[o + 5] * y + mats[o + 9] * z + mats[o + 13] - ours[3 * i + 1];
              const pz = mats[o + 2] * x + mats[o + 6] * y + mats[o + 10] * z + mats[o + 14] - ours[3 * i + 2];
              qb += Math.abs(dw) * Math.hypot(px, py, pz);
            }
            const allowed = b * 1.05 + 2e-6; // + float32 storage of keys, IBMs and positions
            m.vertexError = Math.max(m.vertexError, err);
            m.vertexBoundRatio = Math.max(m.vertexBoundRatio, err / allowed);
            const qerr = Math.hypot(ourStored[3 * i] - ours[3 * i], ourStored[3 * i + 1] - ours[3 * i + 1], ourStored[3 * i + 2] - ours[3 * i + 2]);
            m.quantizationError = Math.max(m.quantizationError, qerr);
            m.quantizationBoundRatio = Math.max(m.quantizationBoundRatio, qerr / (qb + 2e-6));
            m.vertexSamples++;
          }
        });
      });
      doc.props.forEach((_p, pi) => {
        const o = byIndex.get(index.get(layout.propNodes[pi])!)!;
        const want = evaluator.propTransform(pi, t, new Float64Array(10));
        got.set([o.position.x, o.position.y, o.position.z, o.quaternion.x, o.quaternion.y, o.quaternion.z, o.quaternion.w, o.scale.x, o.scale.y, o.scale.z]);
        m.translation = Math.max(m.translation, valueError('vector', got, 0, want, 0) - F32_REL * Math.hypot(want[0], want[1], want[2]));
        m.rotationRad = Math.max(m.rotationRad, valueError('rotation', got, 3, want, 3));
        m.scale = Math.max(m.scale, valueError('vector', got, 7, want, 7));
        m.nodeSamples++;
      });
    }
    mixer.stopAllAction();
    mixer.uncacheRoot(gltf.scene);
  }
  return m;
}

const SLACK = 2e-6;
/** Relative rounding of a value stored as float32 and interpolated by three.js in float32. */
const F32_REL = 4e-7;

async function checkExport(doc: ImpulseDocument, mode: 'sparse' | 'every-frame', skin: boolean, label: string, physics: 'none' | 'khr' = 'none', quantize = true, includeMeshes = true) {
  const layout = buildGltfDocument(doc, { mode, physics, quantize, includeMeshes });
  const glb = await exportGlb(doc, { baked: layout.clips, physics, quantize, includeMeshes });
  const report = await validator.validateBytes(glb, { maxIssues: 100, writeTimestamp: false });
  const errors = report.issues.messages.filter((x) => x.severity === 0).map((x) => `${x.code} ${x.pointer ?? ''}: ${x.message}`);
  const measured = compare(await loadWithThree(glb), layout, doc, skin, quantize);
  console.log(
    `${label} ${mode}${physics !== 'none' ? ` +${physics}` : ''}${!includeMeshes ? ' animation-only' : quantize ? ' quantised' : ' float'}: ${glb.byteLength} bytes, ${layout.clips.map((c) => `${c.name} ${bakedKeyCount(c)} keys`).join(', ')}; ` +
      `validator ${report.issues.numErrors} errors, ${report.issues.numWarnings} warnings; three.js vs ours at every frame: ` +
      `translation ${measured.translation.toExponential(2)} m (beyond float32 rounding), rotation ${measured.rotationRad.toExponential(2)} rad, scale ${measured.scale.toExponential(2)} (${measured.nodeSamples} node samples)` +
      (skin
        ? `; skinned vertices vs our skinning of the stored mesh max ${measured.vertexError.toExponential(2)} m, ${(100 * measured.vertexBoundRatio).toFixed(1)}% of the tolerance bound (${measured.vertexSamples} samples)` +
          `; quantisation (stored vs document mesh, skinned) max ${measured.quantizationError.toExponential(2)} m, ${(100 * measured.quantizationBoundRatio).toFixed(1)}% of its bound`
        : ''),
  );
  return { errors, report, measured, glb };
}

for (const [label, load, skin] of [
  ['mannequin.glb (imported)', mannequinDocument, true],
  ['bat-and-ball.impulse', async () => sampleDocument(), true],
] as const) {
  describe(`export of ${label}`, () => {
    for (const mode of ['sparse', 'every-frame'] as const) {
      it(`--animation-only ${mode}: 0 gltf-validator errors or warnings, no mesh data; three.js loads it and plays every joint and prop like our evaluation`, async () => {
        const doc = await load();
        const { errors, measured, report, glb } = await checkExport(doc, mode, false, label, 'none', true, false);
        expect(errors).toEqual([]);
        expect(report.issues.numWarnings).toBe(0);
        const gltf = await loadWithThree(glb);
        expect(gltf.parser.json.meshes ?? []).toEqual([]);
        expect(gltf.parser.json.skins.length).toBe(doc.characters.length);
        const tol = mode === 'sparse' ? DEFAULT_TOLERANCES : { translation: 0, rotationRad: 0, scale: 0 };
        expect(measured.translation).toBeLessThanOrEqual(tol.translation + SLACK);
        expect(measured.rotationRad).toBeLessThanOrEqual(tol.rotationRad + SLACK);
        expect(measured.scale).toBeLessThanOrEqual(tol.scale + SLACK);
      });
    }

    for (const [mode, quantize] of [['sparse', true], ['every-frame', true], ['sparse', false], ['every-frame', false]] as const) {
      it(`${mode}${quantize ? ', KHR_mesh_quantization' : ', float32 meshes'}: 0 gltf-validator errors or warnings; three.js playback matches our evaluation (nodes and skinned vertices) at every frame`, async () => {
        const doc = await load();
        const { errors, measured, report } = await checkExport(doc, mode, skin, label, 'none', quantize);
        expect(errors, 'gltf-validator errors').toEqual([]);
        expect(report.issues.numWarnings, 'gltf-validator warnings').toBe(0);
        const tol = mode === 'sparse' ? DEFAULT_TOLERANCES : { translation: 0, rotationRad: 0, scale: 0 };
        expect(measured.translation).toBeLessThanOrEqual(tol.translation + SLACK);
        expect(measured.rotationRad).toBeLessThanOrEqual(tol.rotationRad + SLACK);
        expect(measured.scale).toBeLessThanOrEqual(tol.scale + SLACK);
        if (skin) {
          expect(measured.vertexSamples).toBeGreaterThan(0);
          expect(measured.vertexBoundRatio, 'skinned vertex error within the first-order tolerance bound').toBeLessThanOrEqual(1);
          expect(measured.quantizationBoundRatio, 'quantisation error within its bound').toBeLessThanOrEqual(1);
          if (quantize) expect(measured.quantizationError, 'quantised skinned vertices within 1 mm of the float mesh').toBeLessThanOrEqual(1e-3);
          else expect(measured.quantizationError, 'float export stores the mesh as it is').toBeLessThanOrEqual(2e-6);
        }
      });
    }
  });
}

it('sample project with KHR_physics_rigid_bodies: 0 validator errors, every prop is a body', async () => {
  const doc = sampleDocument();
  const { errors } = await checkExport(doc, 'sparse', false, 'bat-and-ball.impulse', 'khr');
  expect(errors).toEqual([]);
});
