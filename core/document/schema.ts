/**
 * zod schemas of the current (v2) ImpulseDocument as saved on disk.
 *
 * On disk, bulk mesh arrays are `{ "dtype": "f32"|"u32"|"u16"|"i32", "b64": "..." }`
 * blocks of little-endian data (plain number arrays are accepted too); the
 * schemas decode them into the typed arrays of `types.ts`. The same schemas
 * accept an in-memory document (typed arrays already decoded), which is how
 * `validateDocument` checks the structure of what the app is about to save.
 *
 * The schemas check structure and types only. Ranges and cross-references
 * (parents, indices, targets, ids) are checked by `validate.ts`, which has
 * the context to say what is wrong in the document's own terms.
 */
import { z } from 'zod';
import { base64ToTypedArray, DTYPES, allocTyped, type Dtype, type TypedArrayOf } from './base64';
import { describeValue } from './errors';
import { DOCUMENT_VERSION, type ImpulseDocument } from './types';

const INT_RANGE: Record<Dtype, [number, number]> = {
  f32: [-Infinity, Infinity],
  u32: [0, 0xffffffff],
  u16: [0, 0xffff],
  i32: [-0x80000000, 0x7fffffff],
};

const CTORS = {
  f32: Float32Array,
  u32: Uint32Array,
  u16: Uint16Array,
  i32: Int32Array,
} as const;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
}

/**
 * A typed-array field stored as `dtype` in memory. Accepts an instance of the
 * in-memory type, a base64 block, or a plain number array. Integer fields
 * accept blocks of any integer dtype whose values fit; float fields accept
 * only f32 blocks (anything else would silently change precision).
 */
export function typedArrayField<D extends Dtype>(dtype: D) {
  const [lo, hi] = INT_RANGE[dtype];
  const isInt = dtype !== 'f32';
  return z.unknown().transform((v, ctx): TypedArrayOf<D> => {
    const fail = (message: string, path: PropertyKey[] = []) => {
      ctx.addIssue({ code: 'custom', message, path: path as (string | number)[], input: v });
      return z.NEVER;
    };
    if (v instanceof CTORS[dtype]) return v as TypedArrayOf<D>;
    if (ArrayBuffer.isView(v)) return fail(`expected a ${CTORS[dtype].name}, got ${describeValue(v)}`);
    if (Array.isArray(v)) {
      const out = allocTyped(dtype, v.length);
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x !== 'number' || !Number.isFinite(x)) return fail(`expected a finite number, got ${describeValue(x)}`, [i]);
        if (isInt && (!Number.isInteger(x) || x < lo || x > hi)) return fail(`expected an integer in [${lo}, ${hi}] (${dtype}), got ${x}`, [i]);
        out[i] = x;
      }
      return out;
    }
    if (!isPlainObject(v)) return fail(`expected a { dtype, b64 } block or a number array, got ${describeValue(v)}`);
    const blockDtype = v.dtype;
    if (typeof blockDtype !== 'string' || !(DTYPES as readonly string[]).includes(blockDtype))
      return fail(`expected one of ${DTYPES.join(', ')}, got ${describeValue(blockDtype)}`, ['dtype']);
    if (typeof v.b64 !== 'string') return fail(`expected a base64 string, got ${describeValue(v.b64)}`, ['b64']);
    for (const key of Object.keys(v)) if (key !== 'dtype' && key !== 'b64') return fail(`unexpected key in a data block`, [key]);
    let decoded: TypedArrayOf<Dtype>;
    try {
      decoded = base64ToTypedArray(v.b64, blockDtype as Dtype);
    } catch (e) {
      return fail((e as Error).message, ['b64']);
    }
    if (blockDtype === dtype) return decoded as TypedArrayOf<D>;
    if (!isInt || blockDtype === 'f32')
      return fail(`expected dtype ${dtype}, got ${blockDtype}`, ['dtype']);
    const out = allocTyped(dtype, decoded.length);
    for (let i = 0; i < decoded.length; i++) {
      const x = decoded[i];
      if (x < lo || x > hi) return fail(`element ${i} = ${x} does not fit ${dtype}`, ['b64']);
      out[i] = x;
    }
    return out;
  });
}

const num = z.number();
const int = z.number().int();
const vec3 = z.tuple([num, num, num]);
const quat = z.tuple([num, num, num, num]);

export const transformSchema = z.object({ translation: vec3, rotation: quat, scale: vec3 });

export const materialSchema = z.object({
  name: z.string(),
  baseColor: quat,
  metallic: num,
  roughness: num,
});

export const jointSchema = z.object({ name: z.string(), parent: int, rest: transformSchema });
export const skeletonSchema = z.object({ joints: z.array(jointSchema) });

export const skinnedMeshSchema = z.object({
  name: z.string(),
  positions: typedArrayField('f32'),
  normals: typedArrayField('f32').optional(),
  indices: typedArrayField('u32'),
  joints: typedArrayField('u16'),
  weights: typedArrayField('f32'),
  skinJoints: typedArrayField('i32'),
  inverseBindMatrices: typedArrayField('f32'),
  material: int,
});

export const sourceRefSchema = z.object({ file: z.string(), index: int, name: z.string() });

export const collisionSchema = z.object({ enabled: z.boolean(), groups: int, mask: int });
export const characterCollisionSchema = collisionSchema.extend({ selfCollision: z.boolean(), adjacentHops: int });
export const controlModeSchema = z.enum(['keyframed', 'dynamic']);

const id = z.string();

export const characterSchema = z.object({
  id,
  name: z.string(),
  transform: transformSchema,
  skeleton: skeletonSchema,
  meshes: z.array(skinnedMeshSchema),
  materials: z.array(materialSchema),
  collision: characterCollisionSchema,
  mode: controlModeSchema,
  source: sourceRefSchema.optional(),
});

export const propPhysicsSchema = z.object({
  mode: controlModeSchema,
  massKg: num.optional(),
  densityKgPerM3: num.optional(),
  restitution: num,
  friction: num,
});

export const propMeshSchema = z.object({
  positions: typedArrayField('f32'),
  normals: typedArrayField('f32').optional(),
  indices: typedArrayField('u32'),
});

export const propSchema = z.object({
  id,
  name: z.string(),
  transform: transformSchema,
  mesh: propMeshSchema,
  material: materialSchema,
  physics: propPhysicsSchema,
  collision: collisionSchema,
  source: sourceRefSchema.optional(),
});

export const trackTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('joint'), character: z.string(), joint: int }),
  z.object({ kind: z.literal('prop'), prop: z.string() }),
]);

export const trackSchema = z.object({
  target: trackTargetSchema,
  path: z.enum(['translation', 'rotation', 'scale']),
  interpolation: z.enum(['step', 'linear', 'cubic']),
  times: z.array(num),
  values: z.array(num),
});

export const clipSchema = z.object({
  id,
  name: z.string(),
  frameRate: num,
  startFrame: int,
  endFrame: int,
  tracks: z.array(trackSchema),
});

export const partRefSchema = z.object({ object: z.string(), joint: int.optional() });
export const ignoreRuleSchema = z.object({ a: partRefSchema, b: partRefSchema, note: z.string().optional() });
export const checkSettingsSchema = z.object({ ignore: z.array(ignoreRuleSchema), groupNames: z.array(z.string()) });

export const documentSchema = z.object({
  version: z.literal(DOCUMENT_VERSION),
  name: z.string(),
  gravity: vec3,
  groundY: num.nullable(),
  characters: z.array(characterSchema),
  props: z.array(propSchema),
  clips: z.array(clipSchema),
  activeClip: z.string(),
  check: checkSettingsSchema,
});

/** Compile-time proof that what the schema produces is an ImpulseDocument. */
type Parsed = z.output<typeof documentSchema>;
const _parsedIsDocument: Parsed extends ImpulseDocument ? true : never = true;
const _documentIsParsed: ImpulseDocument extends Parsed ? true : never = true;
void _parsedIsDocument;
void _documentIsParsed;
