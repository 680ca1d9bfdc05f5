import { describe, expect, it } from 'vitest';
import { ResponseInputError, solveImpulses } from './index';
import type { ContactInput, JointInput, RigidBodyInput } from './index';
import { sphereInertia, v3 } from './fixtures';

// Bad input gets an error that names the body, joint or contact.

function body(extra: Partial<RigidBodyInput> = {}): RigidBodyInput {
  return { massKg: 1, inertia: sphereInertia(1, 0.5), centerOfMass: v3(0, 0, 0), linearVelocity: v3(1, 0, 0), angularVelocity: v3(0, 0, 0), ...extra };
}
const contact = (extra: Partial<ContactInput> = {}): ContactInput => ({ bodyA: 0, bodyB: 1, point: v3(0.5, 0, 0), normal: v3(-1, 0, 0), ...extra });

function expectError(fn: () => unknown, message: RegExp) {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'an error is thrown').toBeInstanceOf(ResponseInputError);
  expect((err as Error).message).toMatch(message);
}

describe('input validation', () => {
  it('zero mass names the body', () => {
    expectError(() => solveImpulses([body(), body({ id: 'ball', massKg: 0 })], [], [contact()]), /^bodies\[1\] \("ball"\): massKg must be finite and > 0 \(got 0\)/);
  });
  it('negative mass', () => {
    expectError(() => solveImpulses([body({ massKg: -2 }), body()], [], [contact()]), /^bodies\[0\]: massKg must be finite and > 0 \(got -2\)/);
  });
  it('NaN mass, velocity, centre of mass, inertia entry', () => {
    expectError(() => solveImpulses([body({ massKg: NaN }), body()], [], []), /bodies\[0\]: massKg/);
    expectError(() => solveImpulses([body(), body({ linearVelocity: v3(0, NaN, 0) })], [], []), /bodies\[1\]: linearVelocity must be a finite/);
    expectError(() => solveImpulses([body({ angularVelocity: v3(0, 0, Infinity) })], [], []), /bodies\[0\]: angularVelocity/);
    expectError(() => solveImpulses([body({ centerOfMass: v3(NaN, 0, 0) })], [], []), /bodies\[0\]: centerOfMass/);
    expectError(() => solveImpulses([body({ inertia: [1, 0, 0, 0, NaN, 0, 0, 0, 1] })], [], []), /bodies\[0\]: inertia\[4\] is not finite/);
  });
  it('non-positive-definite, non-symmetric and wrongly sized inertia', () => {
    expectError(() => solveImpulses([body({ id: 'plank', inertia: [1, 0, 0, 0, 0, 0, 0, 0, 1] })], [], []), /bodies\[0\] \("plank"\): inertia tensor is not positive definite/);
    expectError(() => solveImpulses([body({ inertia: [1, 2, 0, 2, 1, 0, 0, 0, 1] })], [], []), /not positive definite/); // eigenvalues 3, −1, 1
    expectError(() => solveImpulses([body({ inertia: [-1, 0, 0, 0, -1, 0, 0, 0, -1] })], [], []), /not positive definite/);
    expectError(() => solveImpulses([body({ inertia: [1, 0.5, 0, 0, 1, 0, 0, 0, 1] })], [], []), /inertia tensor is not symmetric/);
    expectError(() => solveImpulses([body({ inertia: [1, 0, 0, 1] })], [], []), /inertia must have 9 numbers/);
  });
  it('restitution and friction out of range', () => {
    expectError(() => solveImpulses([body({ restitution: 1.5 }), body()], [], []), /bodies\[0\]: restitution must be in \[0, 1\]/);
    expectError(() => solveImpulses([body(), body()], [], [contact({ id: 'hit', restitution: -0.1 })]), /contacts\[0\] \("hit"\): restitution/);
    expectError(() => solveImpulses([body(), body()], [], [contact({ friction: NaN })]), /contacts\[0\]: friction must be ≥ 0/);
  });
  it('zero-length and NaN contact normal names the contact', () => {
    expectError(() => solveImpulses([body(), body()], [], [contact(), contact({ id: 'tip', normal: v3(0, 0, 0) })]), /^contacts\[1\] \("tip"\): normal has zero length/);
    expectError(() => solveImpulses([body(), body()], [], [contact({ normal: v3(NaN, 1, 0) })]), /contacts\[0\]: normal must be a finite/);
  });
  it('contacts referencing missing bodies or the same body twice', () => {
    expectError(() => solveImpulses([body(), body()], [], [contact({ bodyB: 5 })]), /contacts\[0\]: references a missing body \(index 5, 2 bodies\)/);
    expectError(() => solveImpulses([body(), body()], [], [contact({ bodyA: -1 })]), /contacts\[0\]: references a missing body \(index -1/);
    expectError(() => solveImpulses([body(), body()], [], [contact({ bodyB: 0 })]), /contacts\[0\]: bodyA and bodyB are the same body/);
  });
  it('a joint that references a missing body names the joint', () => {
    const joints: JointInput[] = [
      { kind: 'ball', bodyA: 0, bodyB: 1, point: v3(0.5, 0, 0) },
      { kind: 'ball', id: 'elbow', bodyA: 1, bodyB: 7, point: v3(1, 0, 0) },
    ];
    expectError(() => solveImpulses([body(), body()], joints, []), /^joints\[1\] \("elbow"\): references a missing body \(index 7, 2 bodies\)/);
    expectError(() => solveImpulses([body(), body()], [{ kind: 'ball', bodyA: 0.5, bodyB: 1, point: v3(0, 0, 0) }], []), /joints\[0\]: references a missing body/);
  });
  it('bad joint geometry', () => {
    expectError(() => solveImpulses([body(), body()], [{ kind: 'linearSlide', id: 'rail', bodyA: 0, bodyB: 1, point: v3(0, 0, 0), axis: v3(0, 0, 0) }], []), /joints\[0\] \("rail"\): axis has zero length/);
    expectError(() => solveImpulses([body(), body()], [{ kind: 'planarSlide', bodyA: 0, bodyB: 1, point: v3(0, 0, 0), normal: v3(NaN, 0, 0) }], []), /joints\[0\]: normal must be a finite/);
    expectError(() => solveImpulses([body(), body()], [{ kind: 'ball', bodyA: 0, bodyB: 1, point: v3(0, Infinity, 0) }], []), /joints\[0\]: point must be a finite/);
    expectError(() => solveImpulses([body(), body()], [{ kind: 'hinge', bodyA: 0, bodyB: 1, point: v3(0, 0, 0) } as unknown as JointInput], []), /joints\[0\]: unknown kind 'hinge'/);
    expectError(() => solveImpulses([body(), body()], [{ kind: 'ball', bodyA: 1, bodyB: 1, point: v3(0, 0, 0) }], []), /joints\[0\]: bodyA and bodyB are the same body/);
  });
  it('keyframed bodies need no mass or inertia, but finite velocities', () => {
    const kf = body({ keyframed: true, massKg: 0, inertia: [] });
    expect(() => solveImpulses([body(), kf], [], [contact()])).not.toThrow();
    expectError(() => solveImpulses([body(), { ...kf, linearVelocity: v3(NaN, 0, 0) }], [], [contact()]), /bodies\[1\]: linearVelocity/);
  });
  it('unknown options', () => {
    expectError(() => solveImpulses([body()], [], [], { friction: 'sticky' as 'rough' }), /options\.friction: unknown model 'sticky'/);
    expectError(() => solveImpulses([body()], [], [], { restitution: 'x' as 'paper' }), /options\.restitution: unknown model 'x'/);
    expectError(() => solveImpulses([body()], [], [], { contactGroups: 'merge' as 'auto' }), /options\.contactGroups: unknown mode 'merge'/);
  });
  it('a contact between two keyframed bodies is static: no impulse, nothing changes', () => {
    const kf = body({ keyframed: true, massKg: 0, inertia: [] });
    const sol = solveImpulses([kf, { ...kf, linearVelocity: v3(-1, 0, 0) }], [], [contact()]);
    expect(sol.contactStateName(0)).toBe('static');
    expect(Array.from(sol.contactImpulse)).toEqual([0, 0, 0]);
  });
});
