/** Baking clips to glTF keys, key reduction, and .glb export (optionally KHR_mesh_quantization, or animation only). */
export {
  type ChannelKind,
  type GltfInterpolation,
  type KeyCurve,
  type DenseSignal,
  type ReduceResult,
  type ReduceOptions,
  FIT_MARGIN,
  reduceSignal,
  evaluateCurve,
  curveError,
  curveBytes,
  valueError,
  keysAtEverySample,
  toFloat32Curve,
} from './reduce';
export {
  type Tolerances,
  type BakeMode,
  type BakeOptions,
  type BakedTarget,
  type BakedChannel,
  type BakedClip,
  DEFAULT_TOLERANCES,
  BakeError,
  bakeClip,
  bakeDocument,
  bakedKeyCount,
  pruneStaticChannels,
  holdsRest,
  withClipLength,
} from './bake';
export {
  type PhysicsExtension,
  type ExportOptions,
  type ExportLayout,
  type QuantizeOptions,
  ExportError,
  buildGltfDocument,
  exportGlb,
  shortestFloat32,
} from './exportGlb';
export { KHRPhysicsRigidBodies, OMIPhysicsBody, OMIPhysicsShape, type BodyDescription } from './physicsExtensions';
