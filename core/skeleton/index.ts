export { Rig, SkeletonError, angularVelocityFromMatrix, skeletonHops } from './rig';
export { computeSkinMatrices, skinPositions, skinVelocities, skinVertex, skinVertexVelocity, dominantJointPerVertex, dominantJointPerTriangle } from './skinning';
