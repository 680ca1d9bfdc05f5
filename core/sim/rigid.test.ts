import { describe, expect, it } from 'vitest';
import { principalAxes } from './principal';
import { RigidBodySet, STATE_STRIDE, quatMul, quatMulF64, rotate, rotateF64, rotateInv, rotateInvF64, turnAboutAxis, type Integrator } from './rigid';
import { mulberry32 } from '../document/fixtures';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const diag = (a: number, b: number, c: number) => [a, 0, 0, 0, b, 0, 0, 0, c];

describe('rotateF64, rotateInvF64 and quatMulF64', () => {
  it('give rotate, rotateInv and quatMul bit for bit on random unit and non-unit quaternions (seed 31)', () => {
    const r = mulberry32(31);
    const q = new Float64Array(8), a = new Float64Array(4), b = new Float64Array(4);
    for (let n = 0; n < 500; n++) {
      for (let k = 0; k < 8; k++) q[k] = 2 * r() - 1;
      const x = 4 * r() - 2, y = 4 * r() - 2, z = 4 * r() - 2;
      rotate(a, 1, q, 4, x, y, z);
      rotateF64(b, 1, q, 4, x, y, z);
      expect(Array.from(b), `rotate, case ${n}`).toEqual(Array.from(a));
      rotateInv(a, q, 4, x, y, z);
      rotateInvF64(b, q, 4, x, y, z);
      expect(Array.from(b), `rotateInv, case ${n}`).toEqual(Array.from(a));
      quatMul(a, 0, q, 0, q, 4);
      quatMulF64(b, 0, q, 0, q, 4);
      expect(Array.from(b), `quatMul, case ${n}`).toEqual(Array.from(a));
    }
  });
});

describe('turnAboutAxis (the drift\'s turn about a principal axis)', () => {
  it('gives quatMulF64(q, q, (sn e_axis, c)) bit for bit: zeros of both signs, cancelling products, non-finite components (seed 37)', () => {
    const r = mulberry32(37);
    const pick = [0, -0, 0.5, -0.5, 1, -1, Infinity, -Infinity, NaN, 2 ** -600, -(2 ** -600)];
    const val = () => (r() < 0.45 ? pick[Math.floor(r() * pick.length)] : 2 * r() - 1);
    const q = new Float64Array(5), want = new Float64Array(5), b = new Float64Array(4);
    let zeros = 0;
    for (let n = 0; n < 40000; n++) {
      for (let k = 1; k < 5; k++) q[k] = val();
      const axis = (n % 3) as 0 | 1 | 2;
      const sn = r() < 0.3 ? [0, -0, 0.5, -0.5, 1][n % 5] : val(), c = r() < 0.3 ? [0, -0, 0.5, 1, -1][n % 5] : val();
      b.fill(0);
      b[axis] = sn;
      b[3] = c;
      quatMulF64(want, 1, q, 1, b, 0);
      turnAboutAxis(q, 1, axis, sn, c);
      for (let k = 1; k < 5; k++) {
        if (want[k] === 0) zeros++;
        if (!Object.is(q[k], want[k])) expect([n, axis, k, q[k]], 'turnAboutAxis').toEqual([n, axis, k, want[k]]);
      }
    }
    expect(zeros).toBeGreaterThan(1000);
  });
});

describe('principalAxes', () => {
  it('recovers moments and frame of a rotated diagonal tensor (seed 3)', () => {
    const r = rng(3);
    for (let n = 0; n < 50; n++) {
      const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
      const l = Math.hypot(...q);
      for (let k = 0; k < 4; k++) q[k] /= l;
      const d = [0.5 + r(), 1.6 + r(), 2.7 + r()];
      // I = R D Rᵀ, built column by column
      const I = new Array(9).fill(0);
      const col = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        const e = [0, 0, 0];
        e[c] = 1;
        rotateInv(col, q, 0, e[0], e[1], e[2]);
        rotate(col, 0, q, 0, col[0] * d[0], col[1] * d[1], col[2] * d[2]);
        for (let rr = 0; rr < 3; rr++) I[c * 3 + rr] = col[rr];
      }
      const pa = principalAxes(I);
      for (let k = 0; k < 3; k++) expect(pa.moments[k]).toBeCloseTo(d[k], 10);
      // R_pa diag(m) R_paᵀ must reproduce I
      for (let c = 0; c < 3; c++) {
        const e = [0, 0, 0];
        e[c] = 1;
        rotateInv(col, pa.rotation, 0, e[0], e[1], e[2]);
        rotate(col, 0, pa.rotation, 0, col[0] * pa.moments[0], col[1] * pa.moments[1], col[2] * pa.moments[2]);
        for (let rr = 0; rr < 3; rr++) expect(col[rr]).toBeCloseTo(I[c * 3 + rr], 10);
      }
    }
  });

  it('rejects non-symmetric, indefinite and NaN tensors, naming the body', () => {
    expect(() => principalAxes([1, 0.5, 0, 0, 1, 0, 0, 0, 1], "body 'crate'")).toThrow(/crate.*not symmetric/);
    expect(() => principalAxes(diag(1, -1, 1), "body 'crate'")).toThrow(/not positive definite/);
    expect(() => principalAxes(diag(1, NaN, 1))).toThrow(/not a finite number/);
    expect(
      () => new RigidBodySet([{ name: 'ball', massKg: 0, inertiaLocal: diag(1, 1, 1), position: [0, 0, 0], orientation: [0, 0, 0, 1] }]),
    ).toThrow(/body 'ball': mass must be a positive/);
  });
});

describe('rigid-body integration', () => {
  it.each<Integrator>(['midpoint', 'rk4', 'symplectic'])('a thrown ball follows the parabola to 1e-6 (%s)', (method) => {
    const v0: [number, number, number] = [3, 7, -1];
    const p0: [number, number, number] = [0.5, 1, 2];
    const set = new RigidBodySet([
      { name: 'ball', massKg: 0.145, inertiaLocal: diag(8e-5, 8e-5, 8e-5), position: p0, orientation: [0, 0, 0, 1], linearVelocity: v0 },
    ]);
    const h = 1 / 240;
    const g = set.gravity;
    for (let k = 1; k <= 480; k++) {
      set.step(h, method);
      const t = k * h;
      for (let a = 0; a < 3; a++) expect(Math.abs(set.state[a] - (p0[a] + v0[a] * t + 0.5 * g[a] * t * t))).toBeLessThan(1e-6);
    }
  });

  it('explicit Euler drifts from the parabola at first order (it is the reference for step doubling)', () => {
    const set = new RigidBodySet([
      { name: 'ball', massKg: 1, inertiaLocal: diag(1, 1, 1), position: [0, 0, 0], orientation: [0, 0, 0, 1], linearVelocity: [0, 5, 0] },
    ]);
    const h = 0.01;
    for (let k = 0; k < 100; k++) set.step(h, 'euler');
    // Euler: y_n = v t + g h² n(n-1)/2 = exact + (-g) h t / 2
    const exact = 5 * 1 - 0.5 * 9.81;
    expect(set.state[1] - exact).toBeCloseTo((9.81 * h * 1) / 2, 9);
  });

  it.each<[Integrator, number]>([
    ['symplectic', 1 / 240],
    ['rk4', 1 / 240],
  ])('a spinning asymmetric body keeps its energy and angular momentum (%s, seed 11)', (method, h) => {
    const r = rng(11);
    const set = new RigidBodySet([
      {
        name: 'book',
        massKg: 1.2,
        inertiaLocal: diag(0.01, 0.025, 0.032),
        position: [0, 2, 0],
        orientation: [0, 0, 0, 1],
        // near the unstable intermediate axis: the tumbling (Dzhanibekov) case
        angularVelocity: [0.05 + r() * 0.01, 12, 0.04],
      },
    ]);
    set.gravity = [0, 0, 0];
    const E0 = set.kineticEnergy(set.state, 0);
    const L0 = Array.from(set.state.subarray(10, 13));
    let maxRel = 0;
    for (let k = 0; k < 240 * 20; k++) {
      set.step(h, method);
      maxRel = Math.max(maxRel, Math.abs(set.kineticEnergy(set.state, 0) - E0) / E0);
    }
    for (let a = 0; a < 3; a++) expect(set.state[10 + a]).toBeCloseTo(L0[a], 12);
    expect(maxRel, `relative energy error over 20 s (${method})`).toBeLessThan(method === 'symplectic' ? 2e-3 : 1e-4);
  });

  it('an axisymmetric top precesses at the closed-form rate (I3 − I1)/I1 · ω3 in the body frame', () => {
    const I1 = 0.02, I3 = 0.05, w3 = 10, w1 = 1;
    const set = new RigidBodySet([
      { name: 'top', massKg: 1, inertiaLocal: diag(I1, I1, I3), position: [0, 0, 0], orientation: [0, 0, 0, 1], angularVelocity: [w1, 0, w3] },
    ]);
    set.gravity = [0, 0, 0];
    const Omega = ((I3 - I1) / I1) * w3;
    const h = 1 / 480;
    const Lb = [0, 0, 0];
    for (let k = 1; k <= 480; k++) {
      set.step(h, 'rk4');
      const t = k * h;
      rotateInv(Lb, set.state, 3, set.state[10], set.state[11], set.state[12]);
      // body-frame ω1 = w1 cos(Ω t), ω2 = w1 sin(Ω t) (Euler's equations for a symmetric top)
      expect(Lb[0] / I1).toBeCloseTo(w1 * Math.cos(Omega * t), 5);
      expect(Lb[1] / I1).toBeCloseTo(w1 * Math.sin(Omega * t), 5);
    }
  });

  it('adaptive step doubling: the error falls with the tolerance, with far fewer steps than a fixed step of equal accuracy', () => {
    const run = (tol: number) => {
      const set = new RigidBodySet([
        { name: 'ball', massKg: 1, inertiaLocal: diag(1, 1, 1), position: [0, 0, 0], orientation: [0, 0, 0, 1], linearVelocity: [1, 4, 0] },
      ]);
      let t = 0,
        h = 0.5,
        steps = 0;
      while (t < 1 - 1e-12) {
        const r = set.stepAdaptive(set.state, Math.min(h, 1 - t), 'euler', tol);
        t += r.taken;
        h = r.next;
        steps++;
      }
      return { err: Math.abs(set.state[1] - (4 - 0.5 * 9.81)), steps };
    };
    const coarse = run(1e-4),
      fine = run(1e-6);
    expect(fine.err, 'a 100x tighter tolerance must cut the error').toBeLessThan(coarse.err / 5);
    expect(coarse.err).toBeLessThan(0.02);
    expect(STATE_STRIDE).toBe(13);
  });
});
