/**
 * The imperative side of the viewport: evaluates the document at the playhead
 * with core (SceneEvaluator -> Rig FK -> linear blend skinning) and writes the
 * results straight into three.js buffers. Nothing here goes through React
 * state; `useFrame` calls `sync()` once per frame, which does work only when
 * the document or the playhead changed.
 *
 * Skinning is done on the CPU by core's `skinPositions`, so the pixels show
 * exactly the triangles the interpenetration checker tests (the overlays of
 * the checking half tint these same vertex buffers), picking works on the
 * posed mesh with a plain raycast, and there is one skinning implementation.
 * Geometry is built once per mesh; a frame only rewrites the position and
 * normal arrays in place (a 50k-triangle character skins in a few ms, and
 * only while the pose changes).
 */
import * as THREE from 'three';
import { SceneEvaluator } from '../../../core/anim';
import type { Character, ImpulseDocument, Prop, SkinnedMesh } from '../../../core/document/types';
import { Rig } from '../../../core/skeleton/rig';
import { computeSkinMatrices, skinPositions } from '../../../core/skeleton/skinning';
import { TRS_STRIDE } from '../../../core/anim';

export interface SkinnedMeshRuntime {
  mesh: SkinnedMesh;
  geometry: THREE.BufferGeometry;
  positions: Float32Array;
  normals: Float32Array | undefined;
  skinMatrices: Float64Array;
}

export interface CharacterRuntime {
  character: Character;
  rig: Rig;
  meshes: SkinnedMeshRuntime[];
}

export interface PropRuntime {
  prop: Prop;
  geometry: THREE.BufferGeometry;
  /** t xyz, q xyzw, s xyz at the playhead. */
  trs: Float64Array;
  matrix: THREE.Matrix4;
}

function buildSkinnedGeometry(mesh: SkinnedMesh): SkinnedMeshRuntime {
  const geometry = new THREE.BufferGeometry();
  const positions = new Float32Array(mesh.positions);
  const posAttr = new THREE.BufferAttribute(positions, 3);
  posAttr.setUsage(THREE.DynamicDrawUsage);
  geometry.setAttribute('position', posAttr);
  geometry.setIndex(new THREE.BufferAttribute(mesh.indices, 1));
  let normals: Float32Array | undefined;
  if (mesh.normals) {
    normals = new Float32Array(mesh.normals);
    const nAttr = new THREE.BufferAttribute(normals, 3);
    nAttr.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('normal', nAttr);
  }
  const skinMatrices = new Float64Array(16 * mesh.skinJoints.length);
  return { mesh, geometry, positions, normals, skinMatrices };
}

export class SceneRuntime {
  doc: ImpulseDocument | null = null;
  evaluator: SceneEvaluator | null = null;
  /** Why the document could not be evaluated (bad tracks), shown in the status bar. */
  error: string | null = null;
  timeSec = -1;
  /** Bumped on every evaluation; views compare it to know when to re-read. */
  version = 0;
  readonly characters = new Map<string, CharacterRuntime>();
  readonly props = new Map<string, PropRuntime>();

  /** Document last evaluated by `sync` (structure may be newer, see `prepare`). */
  private evaluatedDoc: ImpulseDocument | null = null;

  /**
   * Brings characters, props and their geometry up to date with `doc` without
   * evaluating a pose (views call it while rendering so the objects they show
   * exist). Cheap when nothing structural changed.
   */
  prepare(doc: ImpulseDocument): void {
    if (doc !== this.doc) this.setDocument(doc);
  }

  private setDocument(doc: ImpulseDocument): void {
    this.doc = doc;
    try {
      this.evaluator = new SceneEvaluator(doc);
      this.error = null;
    } catch (e) {
      // Keep showing the last good evaluation's structure at rest; say why.
      this.evaluator = null;
      this.error = (e as Error).message;
    }
    const seen = new Set<string>();
    for (const c of doc.characters) {
      seen.add(c.id);
      const cur = this.characters.get(c.id);
      if (cur && cur.character === c) continue;
      const rig = new Rig(c);
      let meshes: SkinnedMeshRuntime[];
      if (cur && cur.character.meshes === c.meshes) meshes = cur.meshes;
      else {
        cur?.meshes.forEach((m) => m.geometry.dispose());
        meshes = c.meshes.map(buildSkinnedGeometry);
      }
      this.characters.set(c.id, { character: c, rig, meshes });
    }
    for (const [id, cr] of this.characters) {
      if (seen.has(id)) continue;
      cr.meshes.forEach((m) => m.geometry.dispose());
      this.characters.delete(id);
    }
    seen.clear();
    for (const p of doc.props) {
      seen.add(p.id);
      const cur = this.props.get(p.id);
      if (cur && cur.prop.mesh === p.mesh) {
        cur.prop = p;
        continue;
      }
      cur?.geometry.dispose();
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(p.mesh.positions, 3));
      if (p.mesh.normals) geometry.setAttribute('normal', new THREE.BufferAttribute(p.mesh.normals, 3));
      geometry.setIndex(new THREE.BufferAttribute(p.mesh.indices, 1));
      if (!p.mesh.normals) geometry.computeVertexNormals();
      geometry.computeBoundingSphere();
      this.props.set(p.id, { prop: p, geometry, trs: new Float64Array(TRS_STRIDE), matrix: new THREE.Matrix4() });
    }
    for (const [id, pr] of this.props) {
      if (seen.has(id)) continue;
      pr.geometry.dispose();
      this.props.delete(id);
    }
  }

  /** Evaluates `doc` at `timeSec` if either changed. Returns whether anything was recomputed. */
  sync(doc: ImpulseDocument, timeSec: number): boolean {
    if (doc === this.evaluatedDoc && timeSec === this.timeSec) return false;
    this.prepare(doc);
    this.evaluatedDoc = doc;
    this.timeSec = timeSec;
    const ev = this.evaluator;
    let ci = 0;
    for (const c of doc.characters) {
      const cr = this.characters.get(c.id)!;
      if (ev) ev.characterLocalPose(ci, timeSec, cr.rig.local);
      else cr.rig.setRestPose();
      cr.rig.computeWorld();
      for (const m of cr.meshes) {
        computeSkinMatrices(m.mesh, cr.rig.world, m.skinMatrices);
        skinPositions(m.mesh, m.skinMatrices, m.positions, m.normals);
        m.geometry.attributes.position.needsUpdate = true;
        if (m.normals) m.geometry.attributes.normal.needsUpdate = true;
        else m.geometry.computeVertexNormals();
        // Bounds are recomputed lazily by the next raycast (meshes are not frustum-culled).
        m.geometry.boundingSphere = null;
        m.geometry.boundingBox = null;
      }
      ci++;
    }
    let pi = 0;
    for (const p of doc.props) {
      const pr = this.props.get(p.id)!;
      if (ev) ev.propTransform(pi, timeSec, pr.trs);
      else {
        const t = p.transform;
        pr.trs.set([...t.translation, ...t.rotation, ...t.scale]);
      }
      const s = pr.trs;
      pr.matrix.compose(
        _p.set(s[0], s[1], s[2]),
        _q.set(s[3], s[4], s[5], s[6]).normalize(),
        _s.set(s[7], s[8], s[9]),
      );
      pi++;
    }
    this.version++;
    return true;
  }

  characterIndex(id: string): number {
    return this.doc ? this.doc.characters.findIndex((c) => c.id === id) : -1;
  }

  /** Local pose (10 numbers) of a joint at the playhead, copied into `out`. */
  jointLocal(characterId: string, joint: number, out: Float64Array | number[]): boolean {
    const cr = this.characters.get(characterId);
    if (!cr || joint < 0 || joint >= cr.rig.jointCount) return false;
    for (let k = 0; k < TRS_STRIDE; k++) out[k] = cr.rig.local[joint * TRS_STRIDE + k];
    return true;
  }

  /** World matrix of a joint at the playhead. */
  jointWorld(characterId: string, joint: number, out: THREE.Matrix4): boolean {
    const cr = this.characters.get(characterId);
    if (!cr || joint < 0 || joint >= cr.rig.jointCount) return false;
    out.fromArray(cr.rig.world, joint * 16);
    return true;
  }

  /** World matrix of a joint's parent frame (the character placement for roots). */
  jointParentWorld(characterId: string, joint: number, out: THREE.Matrix4): boolean {
    const cr = this.characters.get(characterId);
    if (!cr || joint < 0 || joint >= cr.rig.jointCount) return false;
    const p = cr.rig.parents[joint];
    if (p < 0) out.fromArray(cr.rig.rootMatrix);
    else out.fromArray(cr.rig.world, p * 16);
    return true;
  }

  /** Bounding sphere (world) of a character's skinned meshes, or of its joints when it has none. */
  characterBounds(characterId: string, out: THREE.Sphere): boolean {
    const cr = this.characters.get(characterId);
    if (!cr) return false;
    _box.makeEmpty();
    if (cr.meshes.length) {
      for (const m of cr.meshes) {
        m.geometry.computeBoundingBox();
        _box.union(m.geometry.boundingBox!);
      }
    } else {
      for (let j = 0; j < cr.rig.jointCount; j++) _box.expandByPoint(_p.fromArray(cr.rig.world, j * 16 + 12));
    }
    if (_box.isEmpty()) return false;
    _box.getBoundingSphere(out);
    out.radius = Math.max(out.radius, 0.05);
    return true;
  }
}

const _p = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _s = new THREE.Vector3();
const _box = new THREE.Box3();

export const runtime = new SceneRuntime();
