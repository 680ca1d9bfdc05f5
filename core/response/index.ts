export { ImpulseSolver, ImpulseSolution, solveImpulses } from './solver';
export { baraffImpulse, baraffResponse } from './baraff';
export type { BaraffOutput } from './baraff';
export { penaltyStiffness, penaltySpringForce, inverseSpringForce, penaltyContactForce } from './penalty';
export { ContactState, CONTACT_STATE_NAMES, ResponseInputError } from './types';
export type {
  RigidBodyInput,
  JointInput,
  ContactInput,
  SolveOptions,
  FrictionModel,
  RestitutionModel,
  ContactStateValue,
} from './types';
