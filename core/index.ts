/** Impulse core: the engine, free of three, react, electron, DOM and node. */
export * from './math';
export * from './document';
export * from './anim';
export * from './skeleton';
export * from './response';
export * from './bake';
export { importGltf, GltfImportError, DEFAULT_PROP_PHYSICS, type ImportResult, type ImportOptions } from './io';
export * from './collision';
export * from './sim';
