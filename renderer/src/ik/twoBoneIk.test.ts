import { describe, expect, it } from 'vitest';
import { mat4Compose, mat4Multiply } from '../../../core/math';
import { mulberry32, randomUnitQuat } from '../test/random';
import { createIkSolution, rotateVec, solveTwoBoneIk, twoBoneIkLocalRotations } from './twoBoneIk';

const dist = (p: ArrayLike<number>, q: ArrayLike<number>) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
const sub = (p: ArrayLike<number>, q: ArrayLike<number>) => [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
const cross = (u: number[], v: number[]) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
const dot = (u: ArrayLike<number>, v: ArrayLike<number>) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];

function randomPoint(rand: () => number, scale = 1): number[] {
  return [(rand() * 2 - 1) * scale, (rand() * 2 - 1) * scale, (rand() * 2 - 1) * scale];
}

describe('solveTwoBoneIk', () => {
  it('reaches every target within reach, keeps both lengths and bends towards the pole (seed 1234, 500 chains)', () => {
    const rand = mulberry32(1234);
    const sol = createIkSolution();
    for (let n = 0; n < 500; n++) {
      const a = randomPoint(rand);
      const b = [a[0] + randomPoint(rand)[0], a[1] + 0.5 + rand(), a[2] + randomPoint(rand)[2]];
      const c = randomPoint(rand, 2);
      const l1 = dist(a, b), l2 = dist(b, c);
      // A target strictly inside the reachable shell.
      const dir = randomPoint(rand);
      const dl = Math.hypot(dir[0], dir[1], dir[2]);
      const r = Math.abs(l1 - l2) + (0.05 + 0.9 * rand()) * (l1 + l2 - Math.abs(l1 - l2));
      const target = [a[0] + (dir[0] / dl) * r, a[1] + (dir[1] / dl) * r, a[2] + (dir[2] / dl) * r];
      const pole = randomPoint(rand, 3);
      solveTwoBoneIk(a, b, c, target, pole, sol);
      expect(sol.reached, `chain ${n} should report reached`).toBe(true);
      expect(dist(sol.end, target), `chain ${n}: end on target`).toBeLessThan(1e-9);
      expect(Math.abs(dist(a, sol.mid) - l1), `chain ${n}: upper length kept`).toBeLessThan(1e-9);
      expect(Math.abs(dist(sol.mid, sol.end) - l2), `chain ${n}: lower length kept`).toBeLessThan(1e-9);
      // The rotations move the bones where the positions say.
      const ab = sub(b, a), bc = sub(c, b);
      const rotatedAb = [0, 0, 0], rotatedBc = [0, 0, 0];
      rotateVec(rotatedAb, 0, sol.upperDelta, 0, ab[0], ab[1], ab[2]);
      rotateVec(rotatedBc, 0, sol.lowerDelta, 0, bc[0], bc[1], bc[2]);
      expect(dist(rotatedAb, sub(sol.mid, a)), `chain ${n}: upper delta`).toBeLessThan(1e-9);
      expect(dist(rotatedBc, sub(sol.end, sol.mid)), `chain ${n}: lower delta`).toBeLessThan(1e-9);
      // Mid lies in the plane (a, target, pole) on the pole's side of the reach line.
      const reach = sub(target, a);
      const normal = cross(reach, sub(pole, a));
      const nl = Math.hypot(normal[0], normal[1], normal[2]);
      if (nl > 1e-3) {
        expect(Math.abs(dot(normal, sub(sol.mid, a))) / nl, `chain ${n}: mid in pole plane`).toBeLessThan(1e-9);
        const rl = Math.hypot(reach[0], reach[1], reach[2]);
        const along = dot(sub(pole, a), reach) / (rl * rl);
        const polePerp = sub(sub(pole, a), [reach[0] * along, reach[1] * along, reach[2] * along]);
        expect(dot(polePerp, sub(sol.mid, a)), `chain ${n}: bends towards the pole`).toBeGreaterThanOrEqual(-1e-12);
      }
    }
  });

  it('straightens towards a target out of reach (seed 99)', () => {
    const rand = mulberry32(99);
    const sol = createIkSolution();
    for (let n = 0; n < 100; n++) {
      const a = randomPoint(rand), b = randomPoint(rand), c = randomPoint(rand);
      const l1 = dist(a, b), l2 = dist(b, c);
      const dir = randomPoint(rand);
      const dl = Math.hypot(dir[0], dir[1], dir[2]);
      const r = (l1 + l2) * (1.01 + rand());
      const target = [a[0] + (dir[0] / dl) * r, a[1] + (dir[1] / dl) * r, a[2] + (dir[2] / dl) * r];
      solveTwoBoneIk(a, b, c, target, randomPoint(rand, 3), sol);
      expect(sol.reached).toBe(false);
      expect(Math.abs(dist(a, sol.end) - (l1 + l2)), `chain ${n}: fully extended`).toBeLessThan(1e-9);
      // End on the segment from a to the target.
      const toEnd = sub(sol.end, a), toTarget = sub(target, a);
      const c3 = cross(toEnd, toTarget);
      expect(Math.hypot(c3[0], c3[1], c3[2]) / (r * (l1 + l2)), `chain ${n}: end on the reach line`).toBeLessThan(1e-9);
      expect(dot(toEnd, toTarget)).toBeGreaterThan(0);
    }
  });
});

describe('twoBoneIkLocalRotations on a forward-kinematics chain', () => {
  it('local rotations put the FK end on the target and keep the end world orientation (seed 7, 300 chains)', () => {
    const rand = mulberry32(7);
    const one = [1, 1, 1];
    const world = (parent: Float64Array | null, t: number[], q: number[]) => {
      const local = new Float64Array(16);
      mat4Compose(local, 0, t, 0, q, 0, one, 0);
      if (!parent) return local;
      const w = new Float64Array(16);
      mat4Multiply(w, 0, parent, 0, local, 0);
      return w;
    };
    for (let n = 0; n < 300; n++) {
      const parentT = randomPoint(rand), parentQ = randomUnitQuat(rand);
      const upperT = randomPoint(rand, 0.3), upperQ = randomUnitQuat(rand);
      const lowerT = [0, 0.3 + rand() * 0.5, 0], lowerQ = randomUnitQuat(rand);
      const endT = [0, 0.3 + rand() * 0.5, 0], endQ = randomUnitQuat(rand);
      const pw = world(null, parentT, parentQ);
      const uw = world(pw, upperT, upperQ);
      const lw = world(uw, lowerT, lowerQ);
      const ew = world(lw, endT, endQ);
      const a = [uw[12], uw[13], uw[14]];
      const l1 = lowerT[1], l2 = endT[1];
      const dir = randomPoint(rand);
      const dl = Math.hypot(dir[0], dir[1], dir[2]);
      const r = Math.abs(l1 - l2) + (0.05 + 0.9 * rand()) * (l1 + l2 - Math.abs(l1 - l2));
      const target = [a[0] + (dir[0] / dl) * r, a[1] + (dir[1] / dl) * r, a[2] + (dir[2] / dl) * r];
      const out = new Float64Array(12);
      const reached = twoBoneIkLocalRotations(pw, uw, lw, ew, target, randomPoint(rand, 3), out);
      expect(reached).toBe(true);
      const uw2 = world(pw, upperT, Array.from(out.subarray(0, 4)));
      const lw2 = world(uw2, lowerT, Array.from(out.subarray(4, 8)));
      const ew2 = world(lw2, endT, Array.from(out.subarray(8, 12)));
      expect(dist([ew2[12], ew2[13], ew2[14]], target), `chain ${n}: FK end on target`).toBeLessThan(1e-9);
      for (let i = 0; i < 12; i++) {
        if (i % 4 === 3) continue;
        expect(Math.abs(ew2[i] - ew[i]), `chain ${n}: end orientation kept (element ${i})`).toBeLessThan(1e-9);
      }
    }
  });
});
