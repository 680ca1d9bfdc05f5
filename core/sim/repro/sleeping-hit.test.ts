import { describe, expect, it } from 'vitest';
import { SimWorld } from '../world';
import { ballPropAt, boxPropAt, sceneDoc } from '../testkit';

// Bug: a body asleep on the ground that was hit met the hit without its ground contacts (asleep, it
// had no gravity kick, so its touching vertices were not approaching and were left out): it took the
// hit as a free body and the ball rebounded at 0.3 m/s instead of ε·4.4 = 1.33 m/s.

describe('repro: a sleeping body that is hit', () => {
  it('a sleeping box wakes when a falling ball hits it and meets the hit supported by the ground (rebound ε v, as awake), without sinking', () => {
    // the box starts at rest on the ground and sleeps after 0.3 s; the ball arrives at ~0.45 s
    const doc = sceneDoc([
      boxPropAt('box', [0.08, 0.06, 0.1], [0, 0.06, 0], { massKg: 1, restitution: 0.3, friction: 0.5 }),
      ballPropAt('ball', 0.05, [0.03, 1.17, 0], { massKg: 0.5, restitution: 0.5, friction: 0.4 }, 1),
    ]);
    const w = new SimWorld(doc, { dynamic: ['box', 'ball'], startTimeSec: 0 });
    let sleptBeforeHit = false, wokeAtHit = false, minY = Infinity, hit = -1;
    for (let k = 0; k < Math.round(1.2 / w.stepSec); k++) {
      w.step();
      const hits = w.impacts.filter((i) => i.objects.includes('box') && i.objects.includes('ball'));
      if (hits.length === 0 && w.awake[0] === 0) sleptBeforeHit = true;
      if (hits.length > 0 && hit < 0) {
        hit = w.timeSec;
        wokeAtHit = w.awake[0] === 1;
      }
      const v = w.bodyVertices(0);
      for (let i = 1; i < v.length; i += 3) minY = Math.min(minY, v[i]);
    }
    expect(sleptBeforeHit, 'the box slept before the ball arrived').toBe(true);
    expect(hit, 'the ball hit the box').toBeGreaterThan(0.35);
    expect(wokeAtHit, 'the hit woke the box').toBe(true);
    expect(minY, 'the box never sank into the ground').toBeGreaterThan(-1e-4);
    // the box meets the hit supported by the ground, as it would awake: the ball leaves at ε = min(0.5, 0.3) times its approach
    const im = w.impacts.find((i) => i.objects[0] === 'ball' && i.objects[1] === 'box');
    expect(im, 'impact reported ball on box').toBeTruthy();
    expect(im!.postVelocity[1] / im!.preVelocity[1], 'ball rebound ratio off the sleeping box').toBeCloseTo(-0.3, 2);
  });
});
