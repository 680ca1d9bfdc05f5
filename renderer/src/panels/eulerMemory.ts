/**
 * The Euler angles a Rotation field shows. A quaternion has two XYZ Euler
 * triples (and more past ±180°); decomposing it afresh showed another one than
 * the animator typed: Y = 100° read back as (-180, 80, -180), and typing X = 10
 * next built the rotation from those numbers, (10, 80, -180), a different pose.
 * The last typed triple of each channel is remembered and shown as long as the
 * channel still holds the rotation it stands for.
 */
import * as THREE from 'three';

const remembered = new Map<string, { q: [number, number, number, number]; deg: [number, number, number] }>();
const _q = new THREE.Quaternion();
const _e = new THREE.Euler();

/** |dot| of two unit quaternions above this: the same rotation (q and -q included). */
const SAME_ROTATION = 1 - 1e-10;

function sameRotation(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) > SAME_ROTATION;
}

/** Degrees to show for rotation `q` (x, y, z, w) of channel `key`. */
export function eulerDegrees(key: string, q: ArrayLike<number>): [number, number, number] {
  _q.set(q[0], q[1], q[2], q[3]).normalize();
  const mem = remembered.get(key);
  if (mem && sameRotation(mem.q, [_q.x, _q.y, _q.z, _q.w])) return [...mem.deg];
  _e.setFromQuaternion(_q, 'XYZ');
  return [THREE.MathUtils.radToDeg(_e.x), THREE.MathUtils.radToDeg(_e.y), THREE.MathUtils.radToDeg(_e.z)];
}

/** The rotation (x, y, z, w) of XYZ Euler angles `deg`, remembered as what channel `key` shows. */
export function rotationFromDegrees(key: string, deg: readonly number[]): [number, number, number, number] {
  _e.set(THREE.MathUtils.degToRad(deg[0]), THREE.MathUtils.degToRad(deg[1]), THREE.MathUtils.degToRad(deg[2]), 'XYZ');
  _q.setFromEuler(_e);
  const q: [number, number, number, number] = [_q.x, _q.y, _q.z, _q.w];
  remembered.set(key, { q, deg: [deg[0], deg[1], deg[2]] });
  return [...q];
}
