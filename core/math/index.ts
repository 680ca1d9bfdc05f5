export * from './vec3';
export * from './quat';
export * from './mat3';
export * from './mat4';
export * from './libm';
