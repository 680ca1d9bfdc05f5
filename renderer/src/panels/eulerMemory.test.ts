import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { eulerDegrees, rotationFromDegrees } from './eulerMemory';

/** Slow obvious reference: the rotation matrix of XYZ Euler degrees, applied to a vector. */
function rotate(deg: readonly number[], v: THREE.Vector3): THREE.Vector3 {
  const e = new THREE.Euler(...deg.map(THREE.MathUtils.degToRad) as [number, number, number], 'XYZ');
  return v.clone().applyMatrix4(new THREE.Matrix4().makeRotationFromEuler(e));
}

function qRotate(q: readonly number[], v: THREE.Vector3): THREE.Vector3 {
  return v.clone().applyQuaternion(new THREE.Quaternion(q[0], q[1], q[2], q[3]));
}

describe('eulerMemory', () => {
  it('shows the angles typed (Y = 100 reads 0, 100, 0, not -180, 80, -180) and edits the next axis from them', () => {
    const q = rotationFromDegrees('p:ball', [0, 100, 0]);
    expect(eulerDegrees('p:ball', q)).toEqual([0, 100, 0]);
    // -q is the same rotation.
    expect(eulerDegrees('p:ball', q.map((x) => -x))).toEqual([0, 100, 0]);
    const shown = eulerDegrees('p:ball', q);
    shown[0] = 10;
    const q2 = rotationFromDegrees('p:ball', shown);
    const probe = new THREE.Vector3(0.3, -0.7, 0.5);
    const want = rotate([10, 100, 0], probe), got = qRotate(q2, probe);
    expect(got.distanceTo(want), 'X = 10 after Y = 100 is the rotation (10, 100, 0)').toBeLessThan(1e-12);
  });

  it('seeded random rotations: the shown angles always describe the channel rotation (seed 11)', () => {
    let s = 11;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    const probe = new THREE.Vector3(0.2, 0.9, -0.4);
    for (let i = 0; i < 200; i++) {
      const typed = [rnd() * 360 - 180, rnd() * 360 - 180, rnd() * 360 - 180];
      const q = rotationFromDegrees('j:c:3', typed);
      // Another rotation arrives (a key on another frame, an undo): shown angles follow it.
      const other = new THREE.Quaternion().setFromEuler(new THREE.Euler(rnd() * 6 - 3, rnd() * 3 - 1.5, rnd() * 6 - 3, 'XYZ'));
      const oq = [other.x, other.y, other.z, other.w];
      for (const [rot, label] of [[q, 'typed'], [oq, 'other']] as const) {
        const deg = eulerDegrees('j:c:3', rot);
        expect(rotate(deg, probe).distanceTo(qRotate(rot, probe)), `${label} rotation ${i}`).toBeLessThan(1e-9);
      }
      expect(eulerDegrees('j:c:3', q), 'typed angles come back').toEqual(typed);
    }
  });
});
