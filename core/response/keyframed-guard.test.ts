import { describe, expect, it } from 'vitest';
import { ImpulseSolver } from './index';
import type { ContactInput, RigidBodyInput } from './index';
import { approachingContact, kineticEnergy, randomBody, randomVec, seededRandom, v3 } from './fixtures';

// Galilean invariance with a keyframed body: a ball hit by a bat moving at V
// (pure translation) must leave exactly as in the bat's frame (ball arriving
// at −V relative, bat at rest), plus V. The energy guards compare energies;
// a swung bat adds energy by law (E⁺ − E⁻ = ΔE' + V·ΣR), so they must only
// count what the response itself adds (ΔE' ≤ 0). Before, a moving bat made
// every guard scale the friction to 0.

describe('energy guards and moving keyframed bodies', () => {
  it('the answer with the bat moving equals the bat-frame answer plus V (seed 7300, 300 cases, 1-3 Coulomb contacts, ε 0-0.8)', () => {
    const rand = seededRandom(7300);
    const solver = new ImpulseSolver();
    let scaledInRest = 0, addedByBat = 0;
    for (let n = 0; n < 300; n++) {
      const V = randomVec(rand, 3);
      const ball = randomBody(rand, v3(0, 0, 0));
      ball.restitution = 0.8 * rand();
      ball.friction = 0.1 + rand();
      const bat: RigidBodyInput = { ...randomBody(rand, v3(0.3, 0, 0)), keyframed: true, linearVelocity: V, angularVelocity: v3(0, 0, 0), restitution: 1, friction: 0 };
      // bat frame: ball at u − V, bat at rest
      const ballRel: RigidBodyInput = { ...ball, linearVelocity: v3(ball.linearVelocity.x - V.x, ball.linearVelocity.y - V.y, ball.linearVelocity.z - V.z) };
      const batRest: RigidBodyInput = { ...bat, linearVelocity: v3(0, 0, 0) };
      const rest = [ballRel, batRest];
      const k = 1 + Math.floor(rand() * 3);
      const contacts: ContactInput[] = [];
      for (let c = 0; c < k; c++) contacts.push(approachingContact(rest, 0, 1, rand));
      const a = solver.solve(rest, [], contacts);
      const lin = Array.from(a.linearVelocity.subarray(0, 3)), ang = Array.from(a.angularVelocity.subarray(0, 3)), fs = a.frictionScale;
      if (fs < 1) scaledInRest++;
      const b = solver.solve([ball, bat], [], contacts);
      const scale = Math.hypot(ball.linearVelocity.x, ball.linearVelocity.y, ball.linearVelocity.z) + Math.hypot(V.x, V.y, V.z) + 1;
      // the moving-bat answer seen from the bat adds no energy
      const back: RigidBodyInput = { ...ballRel, linearVelocity: v3(b.linearVelocity[0] - V.x, b.linearVelocity[1] - V.y, b.linearVelocity[2] - V.z), angularVelocity: v3(b.angularVelocity[0], b.angularVelocity[1], b.angularVelocity[2]) };
      expect(kineticEnergy([back], null), `case ${n}: bat-frame energy of the moving-bat answer`).toBeLessThanOrEqual(kineticEnergy(rest, null) * (1 + 1e-9));
      expect(kineticEnergy(rest, a), `case ${n}: bat-frame energy`).toBeLessThanOrEqual(kineticEnergy(rest, null) * (1 + 1e-12));
      if (fs < 1) {
        // (both guards search a scale; they stop within their tolerance of the energy bound, which differs by frame)
        scaledInRest++;
        continue;
      }
      if (kineticEnergy([ball, bat], b) > kineticEnergy([ball, bat], null) * (1 + 1e-12)) addedByBat++;
      expect(b.frictionScale, `case ${n}: no friction scaling with the bat moving when none in its frame`).toBe(1);
      for (let i = 0; i < 3; i++) {
        expect(Math.abs(b.linearVelocity[i] - [V.x, V.y, V.z][i] - lin[i]) / scale, `case ${n}: linear ${i} = bat frame + V`).toBeLessThan(1e-9);
        expect(Math.abs(b.angularVelocity[i] - ang[i]) / scale, `case ${n}: angular ${i} = bat frame`).toBeLessThan(1e-9);
      }
    }
    // (the comparison means something only when the moving bat did add energy, which the old guards scaled away)
    expect(addedByBat, 'cases where the moving bat added energy').toBeGreaterThan(50);
    expect(scaledInRest, 'cases with the guard engaged in the bat frame (laws only)').toBeLessThan(300);
  });
});
