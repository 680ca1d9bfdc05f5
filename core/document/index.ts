/** The saved scene: types, schema, parse/validate/serialize, migrations, ids, mass properties. */
export * from './types';
export { DocumentError, formatPath } from './errors';
export { encodeBase64, decodeBase64, typedArrayToBase64, base64ToTypedArray, type Dtype, type BlockArray } from './base64';
export { JsonSyntaxError, parseJson, lineColumn } from './json';
export { documentSchema, typedArrayField } from './schema';
export { MIGRATIONS, OLDEST_SUPPORTED_VERSION, migrateDocument, type Migration, type RawObject } from './migrations';
export { validateDocument, documentProblems, semanticDocumentProblems, WEIGHT_SUM_TOLERANCE, MAX_MAGNITUDE, MAX_CLIP_FRAMES, MIN_FRAME_RATE, MAX_FRAME_RATE, MIN_KEY_INTERVAL_SEC } from './validate';
export { parseDocument, documentFromJson } from './parse';
export { serializeDocument, documentToJson, type SerializeOptions } from './serialize';
export { newId, newUniqueId, setIdGenerator, randomIdGenerator, sequentialIdGenerator, type IdGenerator } from './ids';
export {
  createEmptyDocument,
  createEmptyClip,
  cloneDocument,
  identityTransform,
  defaultMaterial,
  defaultCollision,
  defaultCharacterCollision,
  defaultCheckSettings,
  DEFAULT_GRAVITY,
  DEFAULT_FRAME_RATE,
  DEFAULT_GROUPS,
  ALL_GROUPS,
} from './defaults';
export {
  massProperties,
  shellMassProperties,
  propMassProperties,
  isClosedMesh,
  type MassProperties,
  type PropMassProperties,
} from './massProperties';
