/** Fixed-step rigid-body simulation, ragdolls and motion suggestions. */
export { RigidBodySet, STATE_STRIDE, quatMul, rotate, rotateInv, normalizeQuat, type Integrator, type RigidBodyInit } from './rigid';
export { principalAxes, type PrincipalAxes } from './principal';
export { SimWorld, SimulationError, type WorldOptions, type SimObject, type ImpactRecord, type WorldStats, type SimJoint } from './world';
export { buildRagdoll, ragdollPose, type Ragdoll, type RagdollOptions, type RagdollPart, type RagdollJoint } from './ragdoll';
export { suggestMotion, applySuggestion, type SuggestOptions, type Suggestion, type SuggestStats, type TrajectoryEntry, type ProgressCallback } from './suggest';
