export { Rig, SkeletonError, angularVelocityFromMatrix, skeletonHops } from './rig';
export { computeSkinMatrices, skinPositions, skinVelocities, dominantJointPerVertex, dominantJointPerTriangle } from './skinning';
