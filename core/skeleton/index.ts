export { Rig, SkeletonError, angularVelocityFromMatrix, jointsWithAncestors, skeletonHops } from './rig';
export { computeSkinMatrices, skinPositions, skinVelocities, skinVertex, skinVertexVelocity, dominantJointPerVertex, dominantJointPerTriangle } from './skinning';
