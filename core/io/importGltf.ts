/**
 * glTF 2.0 import (.glb, or .gltf with embedded data: URIs or a resource map)
 * into Impulse characters, props and clips, with glTF semantics:
 *
 * - Each skin becomes one Character. Its skeleton is the skin's joints plus the
 *   nodes between them, parents first. The world matrix of the skeleton roots'
 *   common parent (e.g. an `Armature` node scaled 0.01) becomes
 *   `character.transform`, so joint world = transform · local chain, exactly
 *   the glTF node world matrix. If that parent is animated or its world matrix
 *   is not a pure TRS (shear), it becomes a joint itself and we move up.
 * - Every mesh node bound to the skin becomes SkinnedMeshes (one per
 *   primitive). As glTF says, the skinned mesh node's own transform is ignored.
 * - A mesh node with no skin below a joint is rigidly bound to that joint
 *   (weight 1), so it moves with the skeleton. Other mesh nodes become Props,
 *   with the node's world transform as `prop.transform` (hierarchy flattened).
 * - Every animation becomes a Clip at 30 fps, frames 0..ceil(maxTime·30);
 *   STEP, LINEAR and CUBICSPLINE keys are kept as they are.
 *
 * Triangle strips and fans are converted to triangle lists (with a warning);
 * points and lines are rejected. Malformed input throws GltfImportError with
 * the JSON path of the offending object.
 */
import { Accessor, Primitive, WebIO, type ILogger, type JSONDocument, type Node, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type {
  Character,
  Clip,
  Material,
  Prop,
  PropPhysics,
  Track,
  TrackPath,
  Transform,
} from '../document/types';
import { mat4Compose, mat4Decompose, mat4Identity, mat4Invert, mat4Multiply } from '../math/mat4';
import { multiplyQuatFlat } from '../math/quat';
import { cubicRotationSegmentPassesZero } from '../anim/quatSpline';
import { newId } from '../document/ids';
import { defaultCharacterCollision, defaultCollision } from '../document/defaults';
import { isClosedMesh } from '../document/massProperties';
import { MAX_CLIP_FRAMES, MAX_MAGNITUDE, MIN_KEY_INTERVAL_SEC } from '../document/validate';
import { GltfImportError, readContainer } from './gltfContainer';
import { hypot3 } from '../math/libm';

export { GltfImportError } from './gltfContainer';

export interface ImportResult {
  characters: Character[];
  props: Prop[];
  clips: Clip[];
  warnings: string[];
}

export interface ImportOptions {
  /** External files a .gltf refers to, keyed by their uri (e.g. `scene.bin`). */
  resources?: Record<string, Uint8Array>;
  /** Frame rate for the imported clips (glTF has none). Default 30. */
  frameRate?: number;
}

export const DEFAULT_FRAME_RATE = 30;

/** Quaternions with a squared norm below this cannot be normalised (as core/document/validate.ts). */
const MIN_QUAT_NORM_SQ = 1e-12;

/** Physics of an imported prop: keyframed, with water density until the user says otherwise. */
export const DEFAULT_PROP_PHYSICS: Readonly<PropPhysics> = Object.freeze({
  mode: 'keyframed',
  densityKgPerM3: 1000,
  restitution: 0.5,
  friction: 0.5,
});

/** glTF's default material (baseColor 1, metallic 1, roughness 1). */
const GLTF_DEFAULT_MATERIAL: Readonly<Material> = Object.freeze({
  name: 'default',
  baseColor: [1, 1, 1, 1] as Material['baseColor'],
  metallic: 1,
  roughness: 1,
});

class CollectingLogger implements ILogger {
  constructor(private readonly warnings: string[], private readonly file: string) {}
  debug(): void {}
  info(): void {}
  warn(text: string): void {
    this.warnings.push(`${this.file}: ${text}`);
  }
  error(text: string): void {
    this.warnings.push(`${this.file}: ${text}`);
  }
}

/** Imports a .glb or .gltf file given as bytes. */
export async function importGltf(bytes: Uint8Array, fileName: string, options: ImportOptions = {}): Promise<ImportResult> {
  if (!(bytes instanceof Uint8Array)) throw new GltfImportError(fileName, 'file', 'expected the file contents as a Uint8Array');
  if (bytes.byteLength === 0) throw new GltfImportError(fileName, 'file', 'file is empty');
  const warnings: string[] = [];
  const container = readContainer(bytes, fileName, options.resources);
  const io = new WebIO().registerExtensions(ALL_EXTENSIONS).setLogger(new CollectingLogger(warnings, fileName));
  let doc: Document;
  try {
    doc = await io.readJSON(container as unknown as JSONDocument);
  } catch (e) {
    if (e instanceof GltfImportError) throw e;
    throw new GltfImportError(fileName, 'file', `could not be read as glTF: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
  try {
    return new Importer(doc, container.json, fileName, warnings, options.frameRate ?? DEFAULT_FRAME_RATE).run();
  } catch (e) {
    if (e instanceof GltfImportError) throw e;
    throw new GltfImportError(fileName, 'file', `import failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  }
}

// Scratch for decomposition checks.
const _m = new Float64Array(16);
const _t = new Float64Array(3);
const _q = new Float64Array(4);
const _s = new Float64Array(3);

function transformOf(m: ArrayLike<number>, mo: number): Transform {
  mat4Decompose(m, mo, _t, 0, _q, 0, _s, 0);
  return {
    translation: [_t[0], _t[1], _t[2]],
    rotation: [_q[0], _q[1], _q[2], _q[3]],
    scale: [_s[0], _s[1], _s[2]],
  };
}

/**
 * True when `m` recomposes from its TRS decomposition (no shear), to the
 * precision glTF data has: node rotations are often written at float32
 * precision (shortest float32 decimals), so a unit quaternion is off unit
 * length by ~1e-8 and its matrix by as much; a real shear is far larger.
 */
function isTrs(m: ArrayLike<number>, mo: number): boolean {
  mat4Decompose(m, mo, _t, 0, _q, 0, _s, 0);
  if (!(_s[0] !== 0 && _s[1] !== 0 && _s[2] !== 0)) return false;
  mat4Compose(_m, 0, _t, 0, _q, 0, _s, 0);
  let scale = 0;
  for (let i = 0; i < 16; i++) scale = Math.max(scale, Math.abs(m[mo + i]));
  for (let i = 0; i < 16; i++) if (!(Math.abs(_m[i] - m[mo + i]) <= 1e-6 * (1 + scale))) return false;
  return true;
}

function isIdentity(m: ArrayLike<number>, mo: number): boolean {
  for (let i = 0; i < 16; i++) if (m[mo + i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}

interface TriangleData {
  positions: Float32Array;
  normals?: Float32Array;
  indices: Uint32Array;
}

/** Where each node ended up, for routing animation channels. */
interface JointHome {
  character: Character;
  joint: number;
}

class Importer {
  private readonly nodes: Node[];
  private readonly nodeIndex = new Map<Node, number>();
  private readonly parent: Int32Array;
  private readonly local: Float64Array;
  private readonly world: Float64Array;
  private readonly inScene: Uint8Array;
  private readonly animated: Uint8Array;
  private readonly accessorIndex = new Map<Accessor, number>();
  private readonly characters: Character[] = [];
  private readonly props: Prop[] = [];
  private readonly jointHomes = new Map<number, JointHome[]>();
  private readonly propOfNode = new Map<number, Prop>();
  /** Nodes between a joint and a rigidly bound mesh (their animation cannot be honoured). */
  private readonly rigidChain = new Set<number>();
  private readonly baseName: string;

  constructor(
    private readonly doc: Document,
    private readonly json: Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
    private readonly file: string,
    private readonly warnings: string[],
    private readonly frameRate: number,
  ) {
    const root = doc.getRoot();
    this.nodes = root.listNodes();
    const n = this.nodes.length;
    this.nodes.forEach((node, i) => this.nodeIndex.set(node, i));
    root.listAccessors().forEach((a, i) => this.accessorIndex.set(a, i));
    this.baseName = file.replace(/^.*[\\/]/, '').replace(/\.(glb|gltf)$/i, '');
    this.parent = new Int32Array(n).fill(-1);
    this.local = new Float64Array(16 * n);
    this.world = new Float64Array(16 * n);
    this.inScene = new Uint8Array(n);
    this.animated = new Uint8Array(n);
  }

  run(): ImportResult {
    this.buildNodes();
    this.markAnimated();
    const skins = this.doc.getRoot().listSkins();
    skins.forEach((_, s) => this.buildCharacter(s));
    this.buildProps();
    const clips = this.buildClips();
    return { characters: this.characters, props: this.props, clips, warnings: this.warnings };
  }

  private err(where: string, what: string): never {
    throw new GltfImportError(this.file, where, what);
  }

  private nodeName(i: number): string {
    return this.nodes[i].getName() || `node${i}`;
  }

  private buildNodes(): void {
    const { nodes, parent, local, world } = this;
    nodes.forEach((node, i) => {
      for (const child of node.listChildren()) parent[this.nodeIndex.get(child)!] = i;
      const t = node.getTranslation(), r = node.getRotation(), s = node.getScale();
      for (const [what, v] of [['translation', t], ['rotation', r], ['scale', s]] as const)
        for (let k = 0; k < v.length; k++)
          if (!Number.isFinite(v[k]))
            this.err(
              this.json.nodes?.[i]?.matrix ? `nodes[${i}].matrix` : `nodes[${i}].${what}`,
              this.json.nodes?.[i]?.matrix ? `cannot be decomposed into translation, rotation and scale (its ${what} is ${v[k]}; is it singular?)` : `not finite (${v[k]})`,
            );
      for (const [what, v] of [['translation', t], ['scale', s]] as const)
        for (let k = 0; k < 3; k++)
          if (Math.abs(v[k]) > MAX_MAGNITUDE) this.err(this.json.nodes?.[i]?.matrix ? `nodes[${i}].matrix` : `nodes[${i}].${what}`, `${what} ${v[k]} is out of range (magnitude at most ${MAX_MAGNITUDE})`);
      if (!(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3] >= MIN_QUAT_NORM_SQ))
        this.err(`nodes[${i}].rotation`, `quaternion [${r.join(', ')}] has zero length (must be a unit quaternion)`);
      mat4Compose(local, 16 * i, t, 0, r, 0, s, 0);
    });
    // Parents before children, iteratively (a hierarchy can be deeper than the call stack).
    const order: number[] = [];
    for (let i = 0; i < nodes.length; i++) if (parent[i] === -1) order.push(i);
    for (let k = 0; k < order.length; k++)
      for (const child of nodes[order[k]].listChildren()) order.push(this.nodeIndex.get(child)!);
    for (const i of order) {
      const p = parent[i];
      if (p >= 0) mat4Multiply(world, 16 * i, world, 16 * p, local, 16 * i);
      else for (let k = 0; k < 16; k++) world[16 * i + k] = local[16 * i + k];
      for (let k = 0; k < 16; k++)
        if (!(Math.abs(world[16 * i + k]) <= MAX_MAGNITUDE)) this.err(`nodes[${i}]`, `world matrix is out of range (element ${world[16 * i + k]}; overflowing transforms)`);
    }

    const root = this.doc.getRoot();
    const scene = root.getDefaultScene() ?? root.listScenes()[0] ?? null;
    if (!scene) {
      this.inScene.fill(1);
    } else {
      const stack = scene.listChildren().slice();
      while (stack.length) {
        const node = stack.pop()!;
        const i = this.nodeIndex.get(node)!;
        if (this.inScene[i]) continue;
        this.inScene[i] = 1;
        for (const c of node.listChildren()) stack.push(c);
      }
    }
  }

  private markAnimated(): void {
    for (const anim of this.doc.getRoot().listAnimations())
      for (const ch of anim.listChannels()) {
        const node = ch.getTargetNode();
        const path = ch.getTargetPath();
        if (node && (path === 'translation' || path === 'rotation' || path === 'scale')) this.animated[this.nodeIndex.get(node)!] = 1;
      }
  }

  private isAncestor(a: number, b: number): boolean {
    for (let p = b; p !== -1; p = this.parent[p]) if (p === a) return true;
    return false;
  }

  private buildCharacter(s: number): void {
    const skin = this.doc.getRoot().listSkins()[s];
    const where = `skins[${s}]`;
    const joints = skin.listJoints().map((j) => this.nodeIndex.get(j)!);
    const seen = new Set<number>();
    joints.forEach((j, k) => {
      if (seen.has(j)) this.err(`${where}.joints[${k}]`, `node ${j} is listed twice`);
      seen.add(j);
    });
    // Lowest common ancestor of all joints (or -1 if they live in separate trees).
    let lca = joints[0];
    for (const j of joints) {
      while (lca !== -1 && !this.isAncestor(lca, j)) lca = this.parent[lca];
      if (lca === -1) break;
    }
    let boundary = lca !== -1 && seen.has(lca) ? this.parent[lca] : lca;
    const member = new Set<number>();
    for (const j of joints) for (let p = j; p !== -1 && p !== boundary; p = this.parent[p]) member.add(p);
    while (boundary !== -1 && (this.animated[boundary] || !isTrs(this.world, 16 * boundary))) {
      member.add(boundary);
      boundary = this.parent[boundary];
    }
    // Parents-first order: depth-first from each member root, in node order.
    const order: number[] = [];
    const stack: number[] = [];
    for (let i = this.nodes.length - 1; i >= 0; i--) if (member.has(i) && !member.has(this.parent[i])) stack.push(i);
    while (stack.length) {
      const i = stack.pop()!;
      order.push(i);
      const children = this.nodes[i].listChildren();
      for (let c = children.length - 1; c >= 0; c--) {
        const ci = this.nodeIndex.get(children[c])!;
        if (member.has(ci)) stack.push(ci);
      }
    }
    const jointOf = new Map<number, number>();
    order.forEach((n, k) => jointOf.set(n, k));

    const transform: Transform =
      boundary === -1
        ? { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] }
        : transformOf(this.world, 16 * boundary);
    const rootName = this.nodes[order[0]] ? this.nodeName(order[0]) : '';
    const character: Character = {
      id: newId('char'),
      name: skin.getName() || (boundary !== -1 ? this.nodes[boundary].getName() : '') || rootName || `${this.baseName} skin ${s}`,
      transform,
      skeleton: {
        joints: order.map((n) => {
          const node = this.nodes[n];
          const t = node.getTranslation(), r = node.getRotation(), sc = node.getScale();
          return {
            name: this.nodeName(n),
            parent: this.parent[n] === -1 || !jointOf.has(this.parent[n]) ? -1 : jointOf.get(this.parent[n])!,
            rest: { translation: [t[0], t[1], t[2]], rotation: [r[0], r[1], r[2], r[3]], scale: [sc[0], sc[1], sc[2]] },
          };
        }),
      },
      meshes: [],
      materials: [],
      collision: defaultCharacterCollision(),
      mode: 'keyframed',
      source: { file: this.baseFile(), index: s, name: skin.getName() },
    };
    for (const [n, k] of jointOf) {
      const list = this.jointHomes.get(n) ?? [];
      list.push({ character, joint: k });
      this.jointHomes.set(n, list);
    }

    // Inverse bind matrices (identity when absent).
    const ibmAcc = skin.getInverseBindMatrices();
    const ibm = new Float32Array(16 * joints.length);
    if (ibmAcc) {
      const el = new Array<number>(16);
      for (let k = 0; k < joints.length; k++) {
        ibmAcc.getElement(k, el);
        for (let c = 0; c < 16; c++) {
          if (!(Math.abs(el[c]) <= MAX_MAGNITUDE)) this.err(`${where}.inverseBindMatrices`, `matrix ${k} is not finite or out of range (element ${el[c]})`);
          ibm[16 * k + c] = el[c];
        }
      }
    } else {
      for (let k = 0; k < joints.length; k++) mat4Identity(ibm, 16 * k);
    }
    const skinJoints = Int32Array.from(joints, (j) => jointOf.get(j)!);

    const materialIndex = new Map<unknown, number>();
    const materialOf = (prim: Primitive): number => {
      const m = prim.getMaterial();
      let k = materialIndex.get(m);
      if (k === undefined) {
        k = character.materials.length;
        character.materials.push(this.material(prim));
        materialIndex.set(m, k);
      }
      return k;
    };

    const meshes = this.doc.getRoot().listMeshes();
    this.nodes.forEach((node, n) => {
      if (!this.inScene[n] || node.getSkin() !== skin) return;
      const mesh = node.getMesh();
      if (!mesh) {
        this.warnings.push(`${this.file}: nodes[${n}] has a skin but no mesh; ignored`);
        return;
      }
      const mi = meshes.indexOf(mesh);
      const prims = mesh.listPrimitives();
      prims.forEach((prim, p) => {
        const pw = `meshes[${mi}].primitives[${p}]`;
        const tri = this.triangles(prim, pw);
        if (!tri) return;
        const { joints: vj, weights: vw } = this.skinAttributes(prim, pw, tri.positions.length / 3, joints.length);
        const base = mesh.getName() || node.getName() || `mesh${mi}`;
        character.meshes.push({
          name: prims.length > 1 ? `${base}.${p}` : base,
          positions: tri.positions,
          normals: tri.normals,
          indices: tri.indices,
          joints: vj,
          weights: vw,
          skinJoints: skinJoints.slice(),
          inverseBindMatrices: ibm.slice(),
          material: materialOf(prim),
        });
      });
    });
    if (character.meshes.length === 0) this.warnings.push(`${this.file}: ${where} is used by no mesh in the scene; the character has a skeleton only`);
    this.characters.push(character);
  }

  private baseFile(): string {
    return this.file.replace(/^.*[\\/]/, '');
  }

  private material(prim: Primitive): Material {
    const m = prim.getMaterial();
    if (!m) return { ...GLTF_DEFAULT_MATERIAL, baseColor: [...GLTF_DEFAULT_MATERIAL.baseColor] };
    const c = m.getBaseColorFactor();
    const clamp = (v: number, d: number): number => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : d);
    return {
      name: m.getName() || 'material',
      baseColor: [clamp(c[0], 1), clamp(c[1], 1), clamp(c[2], 1), clamp(c[3], 1)],
      metallic: clamp(m.getMetallicFactor(), 1),
      roughness: clamp(m.getRoughnessFactor(), 1),
    };
  }

  /** Positions, normals and a triangle list of one primitive; null if it has no triangles. */
  private triangles(prim: Primitive, pw: string): TriangleData | null {
    const mode = prim.getMode();
    if (mode === Primitive.Mode.POINTS || mode === Primitive.Mode.LINES || mode === Primitive.Mode.LINE_LOOP || mode === Primitive.Mode.LINE_STRIP)
      this.err(`${pw}.mode`, `${['points', 'lines', 'line loop', 'line strip'][mode]} primitives are not supported (triangles only)`);
    if (mode !== Primitive.Mode.TRIANGLES && mode !== Primitive.Mode.TRIANGLE_STRIP && mode !== Primitive.Mode.TRIANGLE_FAN)
      this.err(`${pw}.mode`, `unknown primitive mode ${mode}`);
    const pos = prim.getAttribute('POSITION');
    if (!pos) this.err(`${pw}.attributes.POSITION`, 'missing (every primitive needs positions)');
    if (pos.getType() !== 'VEC3') this.err(`${pw}.attributes.POSITION`, `must be VEC3, is ${pos.getType()}`);
    const count = pos.getCount();
    const positions = new Float32Array(3 * count);
    const el = [0, 0, 0, 0];
    for (let v = 0; v < count; v++) {
      pos.getElement(v, el);
      for (let c = 0; c < 3; c++) {
        if (!Number.isFinite(el[c])) this.err(`${pw}.attributes.POSITION`, `vertex ${v} is not finite (${el[c]})`);
        if (Math.abs(el[c]) > MAX_MAGNITUDE) this.err(`${pw}.attributes.POSITION`, `vertex ${v} coordinate ${el[c]} is out of range (magnitude at most ${MAX_MAGNITUDE})`);
        positions[3 * v + c] = el[c];
      }
    }
    let normals: Float32Array | undefined;
    const nrm = prim.getAttribute('NORMAL');
    if (nrm && nrm.getType() === 'VEC3' && nrm.getCount() === count) {
      normals = new Float32Array(3 * count);
      for (let v = 0; v < count && normals; v++) {
        nrm.getElement(v, el);
        for (let c = 0; c < 3; c++) {
          if (!Number.isFinite(el[c])) {
            this.warnings.push(`${this.file}: ${pw}.attributes.NORMAL: vertex ${v} is not finite; normals dropped`);
            normals = undefined;
            break;
          }
          normals[3 * v + c] = el[c];
        }
      }
    } else if (nrm) {
      this.warnings.push(`${this.file}: ${pw}.attributes.NORMAL does not match POSITION; normals dropped`);
    }
    if (prim.listTargets().length > 0) this.warnings.push(`${this.file}: ${pw}.targets: morph targets are ignored`);

    const idx = prim.getIndices();
    let order: Uint32Array;
    if (idx) {
      if (idx.getType() !== 'SCALAR' || ![5121, 5123, 5125].includes(idx.getComponentType()))
        this.err(`${pw}.indices`, 'must be unsigned byte, short or int scalars');
      const arr = idx.getArray()!;
      order = new Uint32Array(arr.length);
      for (let k = 0; k < arr.length; k++) {
        const i = arr[k];
        if (i >= count) this.err(`${pw}.indices`, `index ${i} at ${k} out of range (${count} vertices)`);
        order[k] = i;
      }
    } else {
      order = new Uint32Array(count);
      for (let k = 0; k < count; k++) order[k] = k;
    }
    let indices: Uint32Array;
    if (mode === Primitive.Mode.TRIANGLES) {
      if (order.length % 3 !== 0) this.err(idx ? `${pw}.indices` : `${pw}.attributes.POSITION`, `${order.length} indices is not a multiple of 3`);
      indices = order;
    } else {
      const n = Math.max(0, order.length - 2);
      const out: number[] = [];
      for (let k = 0; k < n; k++) {
        let a: number, b: number, c: number;
        if (mode === Primitive.Mode.TRIANGLE_STRIP) {
          a = order[k];
          b = k % 2 === 0 ? order[k + 1] : order[k + 2];
          c = k % 2 === 0 ? order[k + 2] : order[k + 1];
        } else {
          a = order[0];
          b = order[k + 1];
          c = order[k + 2];
        }
        if (a !== b && b !== c && a !== c) out.push(a, b, c);
      }
      indices = Uint32Array.from(out);
      this.warnings.push(`${this.file}: ${pw}.mode: triangle ${mode === Primitive.Mode.TRIANGLE_STRIP ? 'strip' : 'fan'} converted to a triangle list`);
    }
    if (indices.length === 0) {
      this.warnings.push(`${this.file}: ${pw} has no triangles; ignored`);
      return null;
    }
    return { positions, normals, indices };
  }

  /** JOINTS_0 / WEIGHTS_0, checked and normalised (as three.js normalises them). */
  private skinAttributes(prim: Primitive, pw: string, count: number, slotCount: number): { joints: Uint16Array; weights: Float32Array } {
    const ja = prim.getAttribute('JOINTS_0');
    const wa = prim.getAttribute('WEIGHTS_0');
    if (!ja) this.err(`${pw}.attributes.JOINTS_0`, 'missing on a skinned mesh');
    if (!wa) this.err(`${pw}.attributes.WEIGHTS_0`, 'missing on a skinned mesh');
    for (const [name, a] of [['JOINTS_0', ja], ['WEIGHTS_0', wa]] as const) {
      if (a.getType() !== 'VEC4') this.err(`${pw}.attributes.${name}`, `must be VEC4, is ${a.getType()}`);
      if (a.getCount() !== count) this.err(`${pw}.attributes.${name}`, `has ${a.getCount()} elements for ${count} vertices`);
    }
    for (const semantic of prim.listSemantics()) {
      const m = /^(JOINTS|WEIGHTS)_(\d+)$/.exec(semantic);
      if (!m || m[2] === '0') continue;
      if (m[1] === 'JOINTS') continue;
      const extra = prim.getAttribute(semantic)!;
      const el = [0, 0, 0, 0];
      for (let v = 0; v < extra.getCount(); v++) {
        extra.getElement(v, el);
        if (el[0] !== 0 || el[1] !== 0 || el[2] !== 0 || el[3] !== 0)
          this.err(`${pw}.attributes.${semantic}`, `vertex ${v} has more than 4 joint influences (at most 4 are supported)`);
      }
    }
    const joints = new Uint16Array(4 * count);
    const weights = new Float32Array(4 * count);
    const je = [0, 0, 0, 0];
    const we = [0, 0, 0, 0];
    for (let v = 0; v < count; v++) {
      ja.getElement(v, je);
      wa.getElement(v, we);
      let sum = 0;
      for (let k = 0; k < 4; k++) {
        const w = we[k];
        if (!Number.isFinite(w) || w < 0) this.err(`${pw}.attributes.WEIGHTS_0`, `vertex ${v} weight ${k} is ${w} (must be finite and >= 0)`);
        const j = je[k];
        if (!Number.isInteger(j) || j < 0) this.err(`${pw}.attributes.JOINTS_0`, `vertex ${v} joint ${k} is ${j}`);
        if (j >= slotCount) {
          if (w > 0) this.err(`${pw}.attributes.JOINTS_0`, `vertex ${v} uses joint ${j}, out of range (skin has ${slotCount} joints)`);
          je[k] = 0;
        }
        sum += w;
      }
      if (!(sum > 0)) this.err(`${pw}.attributes.WEIGHTS_0`, `vertex ${v} weights sum to 0`);
      if (!Number.isFinite(sum)) this.err(`${pw}.attributes.WEIGHTS_0`, `vertex ${v} weights overflow`);
      const inv = 1 / sum;
      for (let k = 0; k < 4; k++) {
        joints[4 * v + k] = je[k];
        weights[4 * v + k] = we[k] * inv;
      }
    }
    return { joints, weights };
  }

  /** First character whose skeleton contains node `n` or its nearest ancestor joint, with that joint. */
  private owningJoint(n: number): JointHome | null {
    for (let p = n; p !== -1; p = this.parent[p]) {
      const homes = this.jointHomes.get(p);
      if (homes) return homes[0];
    }
    return null;
  }

  private buildProps(): void {
    const meshes = this.doc.getRoot().listMeshes();
    this.nodes.forEach((node, n) => {
      const mesh = node.getMesh();
      if (!mesh || node.getSkin() || !this.inScene[n]) return;
      const mi = meshes.indexOf(mesh);
      const name = node.getName() || mesh.getName() || `${this.baseName} mesh ${mi}`;
      const parts: TriangleData[] = [];
      let firstPrim: Primitive | null = null;
      mesh.listPrimitives().forEach((prim, p) => {
        const tri = this.triangles(prim, `meshes[${mi}].primitives[${p}]`);
        if (tri) {
          parts.push(tri);
          firstPrim ??= prim;
        }
      });
      if (parts.length === 0) return;
      const merged = mergeTriangles(parts);
      const home = this.owningJoint(n);
      if (home) {
        this.attachRigid(home, n, name, merged, firstPrim!);
        return;
      }
      let transform: Transform;
      if (isTrs(this.world, 16 * n)) {
        transform = transformOf(this.world, 16 * n);
      } else {
        bakeMatrix(merged, this.world, 16 * n);
        transform = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };
        this.warnings.push(`${this.file}: nodes[${n}] world matrix has shear; baked into the prop's vertices`);
      }
      const prop: Prop = {
        id: newId('prop'),
        name,
        transform,
        mesh: merged,
        material: this.material(firstPrim!),
        physics: { ...DEFAULT_PROP_PHYSICS },
        collision: defaultCollision(),
        source: { file: this.baseFile(), index: n, name: node.getName() },
      };
      if (!isClosedMesh(merged.indices, merged.positions)) this.warnings.push(`${this.file}: prop "${name}" (nodes[${n}]) is not a closed mesh; its mass cannot come from density`);
      this.props.push(prop);
      this.propOfNode.set(n, prop);
    });
  }

  /** A mesh node below a joint: bound to it with weight 1 (bind space = its rest world). */
  private attachRigid(home: JointHome, n: number, name: string, tri: TriangleData, prim: Primitive): void {
    const { character, joint } = home;
    // Joint world at rest = world of its node; find it.
    let jointNode = -1;
    for (const [node, homes] of this.jointHomes) if (homes.some((h) => h.character === character && h.joint === joint)) jointNode = node;
    const jointRestWorld = this.world.subarray(16 * jointNode, 16 * jointNode + 16);
    const ibm = new Float32Array(16);
    if (!mat4Invert(ibm, 0, jointRestWorld, 0)) {
      this.warnings.push(`${this.file}: nodes[${n}] hangs below a joint with a singular world matrix; ignored`);
      return;
    }
    for (let p = this.parent[n], q = n; q !== jointNode; q = p, p = this.parent[p]) {
      if (this.animated[q]) this.warnings.push(`${this.file}: nodes[${n}] "${name}": animation of nodes[${q}] between it and joint "${character.skeleton.joints[joint].name}" is ignored`);
      this.rigidChain.add(q);
    }
    bakeMatrix(tri, this.world, 16 * n);
    const count = tri.positions.length / 3;
    const joints = new Uint16Array(4 * count);
    const weights = new Float32Array(4 * count);
    for (let v = 0; v < count; v++) weights[4 * v] = 1;
    const mi = character.materials.length;
    character.materials.push(this.material(prim));
    character.meshes.push({
      name,
      positions: tri.positions,
      normals: tri.normals,
      indices: tri.indices,
      joints,
      weights,
      skinJoints: Int32Array.of(joint),
      inverseBindMatrices: ibm,
      material: mi,
    });
    this.warnings.push(
      `${this.file}: nodes[${n}] "${name}" has no skin but ${jointNode === n ? 'is' : 'hangs below'} joint "${character.skeleton.joints[joint].name}"; bound rigidly to it`,
    );
  }

  private buildClips(): Clip[] {
    const clips: Clip[] = [];
    const anims = this.doc.getRoot().listAnimations();
    anims.forEach((anim, a) => {
      const aw = `animations[${a}]`;
      const samplers = anim.listSamplers();
      const tracks: Track[] = [];
      let maxTime = 0;
      let morphOnly = true;
      let hasMorph = false;
      const channels = anim.listChannels();
      channels.forEach((ch, c) => {
        const cw = `${aw}.channels[${c}]`;
        const path = ch.getTargetPath();
        const node = ch.getTargetNode();
        if (path === 'weights') {
          hasMorph = true;
          return;
        }
        morphOnly = false;
        if (path !== 'translation' && path !== 'rotation' && path !== 'scale') {
          this.warnings.push(`${this.file}: ${cw}: target path ${String(path)} is not supported; ignored`);
          return;
        }
        if (!node) {
          this.warnings.push(`${this.file}: ${cw} has no target node; ignored`);
          return;
        }
        const n = this.nodeIndex.get(node)!;
        const sampler = ch.getSampler()!;
        const sw = `${aw}.samplers[${samplers.indexOf(sampler)}]`;
        const sampled = this.readSampler(sampler, sw, path);
        maxTime = Math.max(maxTime, sampled.times[sampled.times.length - 1]);
        const homes = this.jointHomes.get(n);
        const prop = this.propOfNode.get(n);
        if (homes) {
          for (const h of homes)
            tracks.push({
              target: { kind: 'joint', character: h.character.id, joint: h.joint },
              path,
              interpolation: sampled.interpolation,
              times: sampled.times.slice(),
              values: sampled.values.slice(),
            });
        } else if (prop) {
          const p = this.parent[n];
          if (p !== -1) {
            for (let q = p; q !== -1; q = this.parent[q])
              if (this.animated[q]) this.warnings.push(`${this.file}: ${cw}: prop "${prop.name}" has an animated parent nodes[${q}]; the parent's animation is ignored`);
            if (!isIdentity(this.world, 16 * p)) toParentFrame(sampled.values, path, sampled.interpolation === 'cubic', this.world, 16 * p);
          }
          tracks.push({ target: { kind: 'prop', prop: prop.id }, path, interpolation: sampled.interpolation, times: sampled.times, values: sampled.values });
        } else if (!this.rigidChain.has(n)) {
          this.warnings.push(`${this.file}: ${cw}: nodes[${n}] "${this.nodeName(n)}" is neither a joint nor a prop; its animation is ignored`);
        }
      });
      if (channels.length > 0 && morphOnly) {
        this.warnings.push(`${this.file}: ${aw} "${anim.getName()}" animates only morph targets, which are not supported; skipped`);
        return;
      }
      if (hasMorph) this.warnings.push(`${this.file}: ${aw} "${anim.getName()}": morph target weights are not supported; those channels are ignored`);
      const endFrame = Math.max(0, Math.ceil(maxTime * this.frameRate - 1e-6));
      clips.push({
        id: newId('clip'),
        name: anim.getName() || `${this.baseName} animation ${a}`,
        frameRate: this.frameRate,
        startFrame: 0,
        endFrame,
        tracks,
      });
    });
    return clips;
  }

  private readSampler(
    sampler: NonNullable<ReturnType<import('@gltf-transform/core').AnimationChannel['getSampler']>>,
    sw: string,
    path: TrackPath,
  ): { times: number[]; values: number[]; interpolation: Track['interpolation'] } {
    const input = sampler.getInput();
    const output = sampler.getOutput();
    if (!input) this.err(`${sw}.input`, 'missing accessor');
    if (!output) this.err(`${sw}.output`, 'missing accessor');
    const interp = sampler.getInterpolation();
    const interpolation = interp === 'STEP' ? 'step' : interp === 'CUBICSPLINE' ? 'cubic' : 'linear';
    const times: number[] = new Array(input.getCount());
    const el = [0];
    for (let k = 0; k < times.length; k++) {
      input.getElement(k, el);
      const t = el[0];
      if (!Number.isFinite(t)) this.err(`${sw}.input`, `key ${k} time is ${t}`);
      if (!(Math.abs(t * this.frameRate) <= MAX_CLIP_FRAMES))
        this.err(`${sw}.input`, `key ${k} at ${t}s is out of range (a clip is at most ${MAX_CLIP_FRAMES} frames, ${MAX_CLIP_FRAMES / this.frameRate}s at ${this.frameRate} fps)`);
      if (k > 0 && !(t > times[k - 1])) this.err(`${sw}.input`, `key times must increase: key ${k} at ${t}s after ${times[k - 1]}s`);
      if (k > 0 && !(t - times[k - 1] >= MIN_KEY_INTERVAL_SEC))
        this.err(`${sw}.input`, `key ${k} at ${t}s is only ${t - times[k - 1]}s after key ${k - 1} (keys must be at least ${MIN_KEY_INTERVAL_SEC}s apart)`);
      times[k] = t;
    }
    const width = path === 'rotation' ? 4 : 3;
    const type = output.getType();
    if (type !== (width === 4 ? 'VEC4' : 'VEC3')) this.err(`${sw}.output`, `${path} needs ${width === 4 ? 'VEC4' : 'VEC3'} values, got ${type}`);
    const groups = interpolation === 'cubic' ? 3 : 1;
    if (output.getCount() !== groups * times.length)
      this.err(`${sw}.output`, `${output.getCount()} values for ${times.length} keys (${interpolation} needs ${groups * times.length})`);
    const values: number[] = new Array(width * output.getCount());
    const ve = [0, 0, 0, 0];
    for (let k = 0; k < output.getCount(); k++) {
      output.getElement(k, ve);
      for (let c = 0; c < width; c++) {
        if (!Number.isFinite(ve[c])) this.err(`${sw}.output`, `value ${k} component ${c} is ${ve[c]}`);
        if (Math.abs(ve[c]) > MAX_MAGNITUDE) this.err(`${sw}.output`, `value ${k} component ${c} is ${ve[c]}, out of range (magnitude at most ${MAX_MAGNITUDE})`);
        values[width * k + c] = ve[c];
      }
      // Rotation keys must be normalisable (cubic tangents, groups 0 and 2 of each key, may be zero).
      if (width === 4 && (groups === 1 || k % 3 === 1) && !(ve[0] * ve[0] + ve[1] * ve[1] + ve[2] * ve[2] + ve[3] * ve[3] >= MIN_QUAT_NORM_SQ))
        this.err(`${sw}.output`, `key ${groups === 1 ? k : (k - 1) / 3} quaternion [${ve.join(', ')}] has zero length (must be a unit quaternion)`);
    }
    // As the document refuses it: a cubic rotation segment whose spline reaches the zero
    // quaternion has no orientation there (decided exactly, core/anim/quatSpline.ts).
    if (width === 4 && groups === 3)
      for (let k = 0; k + 1 < times.length; k++)
        if (cubicRotationSegmentPassesZero(times, values, k))
          this.err(`${sw}.output`, `cubic rotation between keys ${k} and ${k + 1} (${times[k]}s to ${times[k + 1]}s) passes through the zero quaternion, which is no rotation (e.g. q to -q with tangents along q or zero)`);
    return { times, values, interpolation };
  }
}

function mergeTriangles(parts: TriangleData[]): TriangleData {
  if (parts.length === 1) return parts[0];
  let nv = 0, ni = 0;
  let withNormals = true;
  for (const p of parts) {
    nv += p.positions.length;
    ni += p.indices.length;
    withNormals &&= !!p.normals;
  }
  const positions = new Float32Array(nv);
  const normals = withNormals ? new Float32Array(nv) : undefined;
  const indices = new Uint32Array(ni);
  let vo = 0, io = 0;
  for (const p of parts) {
    positions.set(p.positions, vo);
    if (normals) normals.set(p.normals!, vo);
    const base = vo / 3;
    for (let k = 0; k < p.indices.length; k++) indices[io + k] = p.indices[k] + base;
    vo += p.positions.length;
    io += p.indices.length;
  }
  return { positions, normals, indices };
}

/** Applies affine `m` to positions (and its inverse transpose to normals) in place. */
function bakeMatrix(tri: TriangleData, m: ArrayLike<number>, mo: number): void {
  const p = tri.positions;
  for (let v = 0; v < p.length; v += 3) {
    const x = p[v], y = p[v + 1], z = p[v + 2];
    p[v] = m[mo] * x + m[mo + 4] * y + m[mo + 8] * z + m[mo + 12];
    p[v + 1] = m[mo + 1] * x + m[mo + 5] * y + m[mo + 9] * z + m[mo + 13];
    p[v + 2] = m[mo + 2] * x + m[mo + 6] * y + m[mo + 10] * z + m[mo + 14];
  }
  const nrm = tri.normals;
  if (!nrm) return;
  const inv = new Float64Array(16);
  if (!mat4Invert(inv, 0, m, mo)) {
    tri.normals = undefined;
    return;
  }
  for (let v = 0; v < nrm.length; v += 3) {
    const x = nrm[v], y = nrm[v + 1], z = nrm[v + 2];
    // inverse transpose: row i of inv as column
    const nx = inv[0] * x + inv[1] * y + inv[2] * z;
    const ny = inv[4] * x + inv[5] * y + inv[6] * z;
    const nz = inv[8] * x + inv[9] * y + inv[10] * z;
    const len = hypot3(nx, ny, nz) || 1;
    nrm[v] = nx / len;
    nrm[v + 1] = ny / len;
    nrm[v + 2] = nz / len;
  }
  if (!(mat4DeterminantSign(m, mo) > 0)) {
    const ix = tri.indices;
    for (let k = 0; k < ix.length; k += 3) {
      const t = ix[k + 1];
      ix[k + 1] = ix[k + 2];
      ix[k + 2] = t;
    }
  }
}

function mat4DeterminantSign(m: ArrayLike<number>, mo: number): number {
  return (
    m[mo] * (m[mo + 5] * m[mo + 10] - m[mo + 9] * m[mo + 6]) -
    m[mo + 4] * (m[mo + 1] * m[mo + 10] - m[mo + 9] * m[mo + 2]) +
    m[mo + 8] * (m[mo + 1] * m[mo + 6] - m[mo + 5] * m[mo + 2])
  );
}

/**
 * Re-expresses a prop node's local track in the world frame of its static
 * parent `P`: translations (and their tangents, by the linear part) through P,
 * rotations pre-multiplied by P's rotation, scales by P's scale.
 */
function toParentFrame(values: number[], path: TrackPath, cubic: boolean, m: ArrayLike<number>, mo: number): void {
  mat4Decompose(m, mo, _t, 0, _q, 0, _s, 0);
  if (path === 'translation') {
    for (let k = 0; k < values.length; k += 3) {
      const isTangent = cubic && (k / 3) % 3 !== 1;
      const x = values[k], y = values[k + 1], z = values[k + 2];
      values[k] = m[mo] * x + m[mo + 4] * y + m[mo + 8] * z + (isTangent ? 0 : m[mo + 12]);
      values[k + 1] = m[mo + 1] * x + m[mo + 5] * y + m[mo + 9] * z + (isTangent ? 0 : m[mo + 13]);
      values[k + 2] = m[mo + 2] * x + m[mo + 6] * y + m[mo + 10] * z + (isTangent ? 0 : m[mo + 14]);
    }
  } else if (path === 'rotation') {
    for (let k = 0; k < values.length; k += 4) multiplyQuatFlat(values, k, _q, 0, values, k);
  } else {
    for (let k = 0; k < values.length; k += 3) {
      values[k] *= _s[0];
      values[k + 1] *= _s[1];
      values[k + 2] *= _s[2];
    }
  }
}
