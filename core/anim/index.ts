export { TrackSampler, TrackError, angularVelocityFromQuat, slerpUnit, describeTrack, type FlatOut } from './track';
export { SceneEvaluator, AnimationError, frameToTime, timeToFrame, TRS_STRIDE } from './evaluate';
export { mat4ComposeDerivative } from './compose';
