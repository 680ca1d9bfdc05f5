import { Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { Quat, Vec3, mat3FromQuat, mat3Invert, mat3Multiply, mat4Compose, mat4Decompose, mat4Invert, mat4Multiply, slerpFlat } from './index';
import { mulberry32 as rng } from './random';

// three.js is the reference users trust; our flat functions must agree with it.
function randQuat(r: () => number): Quaternion {
  return new Quaternion(r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5).normalize();
}

describe('math vs three.js (seed 7)', () => {
  const r = rng(7);
  it('mat4Compose, mat4Multiply, mat4Invert and mat4Decompose match Matrix4', () => {
    for (let i = 0; i < 200; i++) {
      const t = new Vector3(r() * 4 - 2, r() * 4 - 2, r() * 4 - 2);
      const q = randQuat(r);
      const s = new Vector3(0.2 + r(), 0.2 + r(), 0.2 + r());
      const ref = new Matrix4().compose(t, q, s);
      const m = new Float64Array(16);
      mat4Compose(m, 0, t.toArray(), 0, q.toArray(), 0, s.toArray(), 0);
      for (let k = 0; k < 16; k++) expect(m[k]).toBeCloseTo(ref.elements[k], 12);

      const ref2 = new Matrix4().compose(new Vector3(r(), r(), r()), randQuat(r), new Vector3(1, 2, 0.5));
      const prod = new Float64Array(16);
      mat4Multiply(prod, 0, m, 0, ref2.elements, 0);
      const refProd = new Matrix4().multiplyMatrices(ref, ref2);
      for (let k = 0; k < 16; k++) expect(prod[k]).toBeCloseTo(refProd.elements[k], 10);

      const inv = new Float64Array(16);
      expect(mat4Invert(inv, 0, m, 0)).toBe(true);
      const refInv = ref.clone().invert();
      for (let k = 0; k < 16; k++) expect(inv[k]).toBeCloseTo(refInv.elements[k], 9);

      const tt = [0, 0, 0], qq = [0, 0, 0, 0], ss = [0, 0, 0];
      mat4Decompose(m, 0, tt, 0, qq, 0, ss, 0);
      const sign = Math.sign(qq[3] * q.w + qq[0] * q.x + qq[1] * q.y + qq[2] * q.z);
      expect(tt[0]).toBeCloseTo(t.x, 12);
      expect(ss[1]).toBeCloseTo(s.y, 10);
      expect(qq[0] * sign).toBeCloseTo(q.x, 9);
      expect(qq[3] * sign).toBeCloseTo(q.w, 9);
    }
  });

  it('slerpFlat, Quat.multiply and Vec3.applyQuat match Quaternion', () => {
    for (let i = 0; i < 200; i++) {
      const a = randQuat(r), b = randQuat(r), t = r();
      const out = [0, 0, 0, 0];
      slerpFlat(out, 0, a.toArray(), 0, b.toArray(), 0, t);
      const ref = a.clone().slerp(b, t);
      const sign = Math.sign(out[3] * ref.w + out[0] * ref.x + out[1] * ref.y + out[2] * ref.z);
      expect(out[0] * sign).toBeCloseTo(ref.x, 9);
      expect(out[3] * sign).toBeCloseTo(ref.w, 9);

      const p = new Quat(a.x, a.y, a.z, a.w).multiply(b);
      const refP = a.clone().multiply(b);
      expect(p.x).toBeCloseTo(refP.x, 12);
      expect(p.w).toBeCloseTo(refP.w, 12);

      const v = new Vec3(r(), r(), r()).applyQuat(a);
      // rotating three's inverse-rotated vector by a must give v back
      const v0 = new Vector3(v.x, v.y, v.z).applyQuaternion(a.clone().invert());
      const back = new Vec3(v0.x, v0.y, v0.z).applyQuat(a);
      expect(back.distanceTo(v)).toBeLessThan(1e-12);
    }
  });

  it('mat3FromQuat agrees with Matrix4.makeRotationFromQuaternion and mat3Invert inverts', () => {
    for (let i = 0; i < 100; i++) {
      const q = randQuat(r);
      const m3 = new Float64Array(9);
      mat3FromQuat(m3, 0, q.toArray(), 0);
      const ref = new Matrix4().makeRotationFromQuaternion(q).elements;
      for (let c = 0; c < 3; c++) for (let rr = 0; rr < 3; rr++) expect(m3[c * 3 + rr]).toBeCloseTo(ref[c * 4 + rr], 12);
      const a = [r() + 2, r(), r(), r(), r() + 2, r(), r(), r(), r() + 2];
      const inv = new Float64Array(9), id = new Float64Array(9);
      expect(mat3Invert(inv, 0, a, 0)).toBe(true);
      mat3Multiply(id, 0, a, 0, inv, 0);
      for (let k = 0; k < 9; k++) expect(id[k]).toBeCloseTo(k % 4 === 0 ? 1 : 0, 12);
    }
  });
});
