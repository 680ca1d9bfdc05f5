/**
 * Byte-level reading and structural validation of a glTF asset, before
 * `@gltf-transform/core` sees it. gltf-transform trusts counts and offsets
 * (a mutated accessor count can ask for gigabytes, a misaligned view throws a
 * bare RangeError, a node cycle recurses forever), so every reference, range
 * and alignment is checked here and reported with the JSON path it came from.
 */

export class GltfImportError extends Error {
  /** JSON path of the offending object, e.g. `meshes[2].primitives[0].attributes.WEIGHTS_1`. */
  readonly where: string;
  /** File name as given to the importer. */
  readonly file: string;
  /**
   * `cause`: the original error when an unexpected one is wrapped (a bug in
   * the importer rather than in the file), kept so its stack reaches a report.
   */
  constructor(file: string, where: string, what: string, options?: { cause?: unknown }) {
    super(`${file}: ${where}: ${what}`, options);
    this.name = 'GltfImportError';
    this.where = where;
    this.file = file;
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export type JsonObject = Record<string, any>;

export interface GltfContainer {
  json: JsonObject;
  /** Buffer bytes keyed by the uri gltf-transform will look up. */
  resources: Record<string, Uint8Array>;
}

const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;
/** gltf-transform's key for the GLB binary chunk. */
export const GLB_BUFFER_KEY = '@glb.bin';

/** Hard caps keeping a hostile file from asking for absurd allocations. */
const MAX_ELEMENTS = 1 << 26;

const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** Extensions whose data we cannot decode without a native decoder. */
const UNDECODABLE = new Set(['KHR_draco_mesh_compression', 'EXT_meshopt_compression', 'KHR_meshopt_compression']);

const textDecoder = new TextDecoder('utf-8', { fatal: true });

export function isGlb(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

function parseJsonText(file: string, where: string, bytes: Uint8Array): JsonObject {
  let text: string;
  try {
    text = textDecoder.decode(bytes);
  } catch {
    throw new GltfImportError(file, where, 'JSON is not valid UTF-8');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new GltfImportError(file, where, `invalid JSON (${(e as Error).message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new GltfImportError(file, where, 'top level must be a JSON object');
  return json as JsonObject;
}

function decodeBase64(file: string, where: string, b64: string): Uint8Array {
  const clean = b64.replace(/[\s]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1)
    throw new GltfImportError(file, where, 'data: URI is not valid base64');
  const bin = atob(clean.length % 4 === 0 ? clean : clean + '='.repeat(4 - (clean.length % 4)));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Splits a .glb or parses a .gltf, resolving buffers from the GLB chunk, data: URIs or `resources`. */
export function readContainer(bytes: Uint8Array, file: string, external: Record<string, Uint8Array> = {}): GltfContainer {
  let json: JsonObject;
  let bin: Uint8Array | null = null;
  if (isGlb(bytes)) {
    if (bytes.byteLength < 20) throw new GltfImportError(file, 'glb', `truncated header (${bytes.byteLength} bytes)`);
    const version = u32(bytes, 4);
    if (version !== 2) throw new GltfImportError(file, 'glb.version', `unsupported GLB version ${version} (expected 2)`);
    const length = u32(bytes, 8);
    if (length > bytes.byteLength)
      throw new GltfImportError(file, 'glb.length', `header says ${length} bytes but the file has ${bytes.byteLength} (truncated)`);
    const jsonLength = u32(bytes, 12);
    if (u32(bytes, 16) !== CHUNK_JSON) throw new GltfImportError(file, 'glb.chunks[0]', 'first chunk is not JSON');
    if (20 + jsonLength > length)
      throw new GltfImportError(file, 'glb.chunks[0].length', `JSON chunk of ${jsonLength} bytes runs past the end of the file`);
    json = parseJsonText(file, 'glb.chunks[0]', bytes.subarray(20, 20 + jsonLength));
    let at = 20 + jsonLength;
    at += (4 - (at % 4)) % 4;
    if (at + 8 <= length) {
      const binLength = u32(bytes, at);
      const type = u32(bytes, at + 4);
      if (type === CHUNK_BIN) {
        if (at + 8 + binLength > length)
          throw new GltfImportError(file, 'glb.chunks[1].length', `BIN chunk of ${binLength} bytes runs past the end of the file (truncated)`);
        bin = bytes.slice(at + 8, at + 8 + binLength); // copy: aligned, independent of the caller's buffer
      }
    }
  } else {
    json = parseJsonText(file, 'gltf', bytes);
  }
  const asset = json.asset;
  if (!asset || typeof asset !== 'object') throw new GltfImportError(file, 'asset', 'missing (not a glTF 2.0 file)');
  if (typeof asset.version !== 'string' || !asset.version.startsWith('2'))
    throw new GltfImportError(file, 'asset.version', `unsupported glTF version ${JSON.stringify(asset.version)} (expected 2.x)`);
  const required = json.extensionsRequired;
  if (required !== undefined) {
    if (!Array.isArray(required)) throw new GltfImportError(file, 'extensionsRequired', 'must be an array');
    for (let i = 0; i < required.length; i++)
      if (UNDECODABLE.has(required[i]))
        throw new GltfImportError(file, `extensionsRequired[${i}]`, `${required[i]} (compressed geometry) is not supported; export without compression`);
  }

  const resources: Record<string, Uint8Array> = {};
  const buffers = arrayField(file, json, 'buffers');
  buffers.forEach((b, i) => {
    const where = `buffers[${i}]`;
    objectAt(file, where, b);
    const byteLength = b.byteLength;
    if (!Number.isInteger(byteLength) || byteLength < 1) throw new GltfImportError(file, `${where}.byteLength`, `invalid value ${JSON.stringify(byteLength)}`);
    let data: Uint8Array;
    if (b.uri === undefined) {
      if (i !== 0 || !bin) throw new GltfImportError(file, where, 'has no uri and there is no GLB binary chunk for it');
      data = bin;
      resources[GLB_BUFFER_KEY] = bin;
    } else {
      if (typeof b.uri !== 'string') throw new GltfImportError(file, `${where}.uri`, 'must be a string');
      if (b.uri.startsWith('data:')) {
        const comma = b.uri.indexOf(',');
        if (comma < 0 || !b.uri.slice(0, comma).endsWith(';base64'))
          throw new GltfImportError(file, `${where}.uri`, 'data: URI must be base64 encoded');
        data = decodeBase64(file, `${where}.uri`, b.uri.slice(comma + 1));
        const key = `__buffer${i}.bin`;
        b.uri = key;
        resources[key] = data;
      } else {
        const ext = external[b.uri] ?? external[decodeURIComponent(b.uri)];
        if (!ext)
          throw new GltfImportError(file, `${where}.uri`, `external buffer "${b.uri}" cannot be resolved; import the .glb, embed the buffer as a data: URI, or pass it in resources`);
        data = ext;
        resources[b.uri] = ext;
      }
    }
    if (data.byteLength < byteLength)
      throw new GltfImportError(file, `${where}.byteLength`, `declares ${byteLength} bytes but only ${data.byteLength} are present (truncated)`);
  });
  // Images are not used (no textures in Impulse); drop them so no external file is needed.
  if (json.images !== undefined) {
    delete json.images;
    delete json.textures;
    delete json.samplers;
    for (const m of Array.isArray(json.materials) ? json.materials : []) {
      if (m && typeof m === 'object') {
        delete m.normalTexture;
        delete m.occlusionTexture;
        delete m.emissiveTexture;
        if (m.pbrMetallicRoughness && typeof m.pbrMetallicRoughness === 'object') {
          delete m.pbrMetallicRoughness.baseColorTexture;
          delete m.pbrMetallicRoughness.metallicRoughnessTexture;
        }
        delete m.extensions;
      }
    }
  }
  validateStructure(file, json, buffers);
  return { json, resources };
}

function arrayField(file: string, json: JsonObject, key: string): any[] {
  const v = json[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new GltfImportError(file, key, 'must be an array');
  return v;
}

function objectAt(file: string, where: string, v: unknown): void {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new GltfImportError(file, where, 'must be an object');
}

function indexAt(file: string, where: string, v: unknown, length: number, what: string): number {
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) >= length)
    throw new GltfImportError(file, where, `${what} index ${JSON.stringify(v)} out of range (${length} ${what === 'mesh' ? 'meshes' : `${what}s`})`);
  return v as number;
}

function finiteArray(file: string, where: string, v: unknown, n: number): void {
  if (v === undefined) return;
  if (!Array.isArray(v) || v.length !== n) throw new GltfImportError(file, where, `must be an array of ${n} numbers`);
  for (let i = 0; i < n; i++)
    if (typeof v[i] !== 'number' || !Number.isFinite(v[i])) throw new GltfImportError(file, `${where}[${i}]`, `not a finite number (${String(v[i])})`);
}

/** Top-level arrays whose objects may carry a `name` (which becomes an Impulse name, so it must be a string). */
const NAMED = ['accessors', 'animations', 'bufferViews', 'buffers', 'cameras', 'materials', 'meshes', 'nodes', 'scenes', 'skins'];

/** Checks every index, range, alignment and the node forest before gltf-transform reads anything. */
function validateStructure(file: string, json: JsonObject, buffers: any[]): void {
  for (const key of NAMED) {
    const list = arrayField(file, json, key);
    for (let i = 0; i < list.length; i++) {
      const name = list[i]?.name;
      if (name !== undefined && typeof name !== 'string') throw new GltfImportError(file, `${key}[${i}].name`, `must be a string, got ${JSON.stringify(name)}`);
    }
  }
  const views = arrayField(file, json, 'bufferViews');
  views.forEach((v, i) => {
    const w = `bufferViews[${i}]`;
    objectAt(file, w, v);
    const b = indexAt(file, `${w}.buffer`, v.buffer, buffers.length, 'buffer');
    const off = v.byteOffset ?? 0;
    if (!Number.isInteger(off) || off < 0) throw new GltfImportError(file, `${w}.byteOffset`, `invalid value ${JSON.stringify(off)}`);
    if (!Number.isInteger(v.byteLength) || v.byteLength < 1) throw new GltfImportError(file, `${w}.byteLength`, `invalid value ${JSON.stringify(v.byteLength)}`);
    if (off + v.byteLength > buffers[b].byteLength)
      throw new GltfImportError(file, w, `bytes ${off}..${off + v.byteLength} run past the end of buffer ${b} (${buffers[b].byteLength} bytes)`);
    if (v.byteStride !== undefined && (!Number.isInteger(v.byteStride) || v.byteStride < 4 || v.byteStride > 252 || v.byteStride % 4 !== 0))
      throw new GltfImportError(file, `${w}.byteStride`, `invalid value ${JSON.stringify(v.byteStride)} (multiple of 4 in 4..252)`);
  });

  const accessors = arrayField(file, json, 'accessors');
  accessors.forEach((a, i) => {
    const w = `accessors[${i}]`;
    objectAt(file, w, a);
    // Own keys only: "5126" (a string) or "constructor" must not pass as a known component type or type.
    const cs = typeof a.componentType === 'number' && Object.hasOwn(COMPONENT_SIZE, a.componentType) ? COMPONENT_SIZE[a.componentType] : 0;
    if (!cs) throw new GltfImportError(file, `${w}.componentType`, `unsupported component type ${JSON.stringify(a.componentType)}`);
    const ts = typeof a.type === 'string' && Object.hasOwn(TYPE_SIZE, a.type) ? TYPE_SIZE[a.type] : 0;
    if (!ts) throw new GltfImportError(file, `${w}.type`, `unsupported type ${JSON.stringify(a.type)}`);
    if (!Number.isInteger(a.count) || a.count < 1) throw new GltfImportError(file, `${w}.count`, `invalid value ${JSON.stringify(a.count)}`);
    if (a.count * ts > MAX_ELEMENTS) throw new GltfImportError(file, `${w}.count`, `${a.count} elements is more than this importer accepts`);
    const elementSize = cs * ts;
    if (a.bufferView !== undefined) {
      const vi = indexAt(file, `${w}.bufferView`, a.bufferView, views.length, 'bufferView');
      const view = views[vi];
      const off = a.byteOffset ?? 0;
      if (!Number.isInteger(off) || off < 0) throw new GltfImportError(file, `${w}.byteOffset`, `invalid value ${JSON.stringify(off)}`);
      const stride = view.byteStride ?? elementSize;
      if (stride < elementSize) throw new GltfImportError(file, `${w}`, `element of ${elementSize} bytes is larger than bufferViews[${vi}].byteStride ${stride}`);
      if (off + stride * (a.count - 1) + elementSize > view.byteLength)
        throw new GltfImportError(file, w, `${a.count} elements at offset ${off} run past the end of bufferViews[${vi}] (${view.byteLength} bytes)`);
      if ((off + (view.byteOffset ?? 0)) % cs !== 0)
        throw new GltfImportError(file, `${w}.byteOffset`, `data is not aligned to its ${cs}-byte component size`);
    }
    if (a.sparse !== undefined) {
      const s = a.sparse;
      objectAt(file, `${w}.sparse`, s);
      if (!Number.isInteger(s.count) || s.count < 1 || s.count > a.count)
        throw new GltfImportError(file, `${w}.sparse.count`, `invalid value ${JSON.stringify(s.count)}`);
      for (const part of ['indices', 'values'] as const) {
        const p = s[part];
        objectAt(file, `${w}.sparse.${part}`, p);
        const vi = indexAt(file, `${w}.sparse.${part}.bufferView`, p.bufferView, views.length, 'bufferView');
        const size = part === 'indices' ? COMPONENT_SIZE[p.componentType] : elementSize;
        if (!size || (part === 'indices' && ![5121, 5123, 5125].includes(p.componentType)))
          throw new GltfImportError(file, `${w}.sparse.indices.componentType`, `invalid value ${JSON.stringify(p.componentType)}`);
        const off = p.byteOffset ?? 0;
        if (!Number.isInteger(off) || off < 0 || off + size * s.count > views[vi].byteLength)
          throw new GltfImportError(file, `${w}.sparse.${part}`, `runs past the end of bufferViews[${vi}]`);
      }
    }
  });

  const meshes = arrayField(file, json, 'meshes');
  const materials = arrayField(file, json, 'materials');
  meshes.forEach((m, i) => {
    const w = `meshes[${i}]`;
    objectAt(file, w, m);
    if (!Array.isArray(m.primitives) || m.primitives.length === 0) throw new GltfImportError(file, `${w}.primitives`, 'must be a non-empty array');
    m.primitives.forEach((p: any, j: number) => {
      const pw = `${w}.primitives[${j}]`;
      objectAt(file, pw, p);
      objectAt(file, `${pw}.attributes`, p.attributes);
      for (const [k, a] of Object.entries(p.attributes)) indexAt(file, `${pw}.attributes.${k}`, a, accessors.length, 'accessor');
      if (p.indices !== undefined) indexAt(file, `${pw}.indices`, p.indices, accessors.length, 'accessor');
      if (p.material !== undefined) indexAt(file, `${pw}.material`, p.material, materials.length, 'material');
      if (p.targets !== undefined) {
        if (!Array.isArray(p.targets)) throw new GltfImportError(file, `${pw}.targets`, 'must be an array');
        p.targets.forEach((t: any, k: number) => {
          objectAt(file, `${pw}.targets[${k}]`, t);
          for (const [n, a] of Object.entries(t)) indexAt(file, `${pw}.targets[${k}].${n}`, a, accessors.length, 'accessor');
        });
      }
    });
  });
  materials.forEach((m, i) => {
    objectAt(file, `materials[${i}]`, m);
    const pbr = m.pbrMetallicRoughness;
    if (pbr === undefined) return;
    objectAt(file, `materials[${i}].pbrMetallicRoughness`, pbr);
    // null or a wrong length here crashed the reader ("Cannot read properties of null").
    finiteArray(file, `materials[${i}].pbrMetallicRoughness.baseColorFactor`, pbr.baseColorFactor, 4);
    for (const f of ['metallicFactor', 'roughnessFactor'] as const)
      if (pbr[f] !== undefined && !(typeof pbr[f] === 'number' && Number.isFinite(pbr[f])))
        throw new GltfImportError(file, `materials[${i}].pbrMetallicRoughness.${f}`, `not a finite number (${JSON.stringify(pbr[f])})`);
  });

  const nodes = arrayField(file, json, 'nodes');
  const skins = arrayField(file, json, 'skins');
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    const w = `nodes[${i}]`;
    objectAt(file, w, n);
    if (n.mesh !== undefined) indexAt(file, `${w}.mesh`, n.mesh, meshes.length, 'mesh');
    if (n.skin !== undefined) indexAt(file, `${w}.skin`, n.skin, skins.length, 'skin');
    if (n.camera !== undefined && !Number.isInteger(n.camera)) throw new GltfImportError(file, `${w}.camera`, 'must be an index');
    finiteArray(file, `${w}.translation`, n.translation, 3);
    finiteArray(file, `${w}.rotation`, n.rotation, 4);
    finiteArray(file, `${w}.scale`, n.scale, 3);
    finiteArray(file, `${w}.matrix`, n.matrix, 16);
    if (n.children !== undefined) {
      if (!Array.isArray(n.children)) throw new GltfImportError(file, `${w}.children`, 'must be an array');
      n.children.forEach((c: unknown, k: number) => {
        const ci = indexAt(file, `${w}.children[${k}]`, c, nodes.length, 'node');
        if (parent[ci] !== -1) throw new GltfImportError(file, `${w}.children[${k}]`, `node ${ci} already has parent node ${parent[ci]}`);
        if (ci === i) throw new GltfImportError(file, `${w}.children[${k}]`, 'a node cannot be its own child');
        parent[ci] = i;
      });
    }
  });
  // Cycles: walking up from every node must reach a root. Each node is walked once
  // (state 2 = known to reach a root, 1 = on the current path).
  const state = new Uint8Array(nodes.length);
  const path: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    let p = i;
    while (p !== -1 && state[p] === 0) {
      state[p] = 1;
      path.push(p);
      p = parent[p];
    }
    if (p !== -1 && state[p] === 1) throw new GltfImportError(file, `nodes[${i}]`, 'node hierarchy has a cycle');
    for (const q of path) state[q] = 2;
    path.length = 0;
  }
  skins.forEach((s, i) => {
    const w = `skins[${i}]`;
    objectAt(file, w, s);
    if (!Array.isArray(s.joints) || s.joints.length === 0) throw new GltfImportError(file, `${w}.joints`, 'must be a non-empty array of node indices');
    s.joints.forEach((j: unknown, k: number) => indexAt(file, `${w}.joints[${k}]`, j, nodes.length, 'node'));
    if (s.inverseBindMatrices !== undefined) {
      const ai = indexAt(file, `${w}.inverseBindMatrices`, s.inverseBindMatrices, accessors.length, 'accessor');
      const a = accessors[ai];
      if (a.type !== 'MAT4' || a.componentType !== 5126)
        throw new GltfImportError(file, `${w}.inverseBindMatrices`, `accessor ${ai} must be float MAT4 (is ${a.componentType} ${a.type})`);
      if (a.count < s.joints.length)
        throw new GltfImportError(file, `${w}.inverseBindMatrices`, `accessor ${ai} has ${a.count} matrices for ${s.joints.length} joints`);
    }
    if (s.skeleton !== undefined) indexAt(file, `${w}.skeleton`, s.skeleton, nodes.length, 'node');
  });
  const scenes = arrayField(file, json, 'scenes');
  scenes.forEach((s, i) => {
    objectAt(file, `scenes[${i}]`, s);
    if (s.nodes !== undefined) {
      if (!Array.isArray(s.nodes)) throw new GltfImportError(file, `scenes[${i}].nodes`, 'must be an array');
      s.nodes.forEach((n: unknown, k: number) => indexAt(file, `scenes[${i}].nodes[${k}]`, n, nodes.length, 'node'));
    }
  });
  if (json.scene !== undefined) indexAt(file, 'scene', json.scene, scenes.length, 'scene');

  const animations = arrayField(file, json, 'animations');
  animations.forEach((anim, i) => {
    const w = `animations[${i}]`;
    objectAt(file, w, anim);
    if (!Array.isArray(anim.samplers)) throw new GltfImportError(file, `${w}.samplers`, 'must be an array');
    if (!Array.isArray(anim.channels)) throw new GltfImportError(file, `${w}.channels`, 'must be an array');
    anim.samplers.forEach((s: any, k: number) => {
      const sw = `${w}.samplers[${k}]`;
      objectAt(file, sw, s);
      indexAt(file, `${sw}.input`, s.input, accessors.length, 'accessor');
      indexAt(file, `${sw}.output`, s.output, accessors.length, 'accessor');
      if (s.interpolation !== undefined && !['LINEAR', 'STEP', 'CUBICSPLINE'].includes(s.interpolation))
        throw new GltfImportError(file, `${sw}.interpolation`, `unknown interpolation ${JSON.stringify(s.interpolation)}`);
      const input = accessors[s.input];
      if (input.type !== 'SCALAR' || input.componentType !== 5126)
        throw new GltfImportError(file, `${sw}.input`, `accessor ${s.input} must be float SCALAR times`);
    });
    anim.channels.forEach((c: any, k: number) => {
      const cw = `${w}.channels[${k}]`;
      objectAt(file, cw, c);
      indexAt(file, `${cw}.sampler`, c.sampler, anim.samplers.length, 'sampler');
      objectAt(file, `${cw}.target`, c.target);
      if (c.target.node !== undefined) indexAt(file, `${cw}.target.node`, c.target.node, nodes.length, 'node');
      if (!['translation', 'rotation', 'scale', 'weights', 'pointer'].includes(c.target.path))
        throw new GltfImportError(file, `${cw}.target.path`, `unknown path ${JSON.stringify(c.target.path)}`);
    });
  });
}
