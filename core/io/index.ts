export { importGltf, GltfImportError, DEFAULT_PROP_PHYSICS, DEFAULT_FRAME_RATE, type ImportResult, type ImportOptions } from './importGltf';
