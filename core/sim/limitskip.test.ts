import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Track } from '../document/types';
import { importGltf } from '../io/importGltf';
import { SimWorld } from './world';
import { sceneDoc } from './testkit';

/**
 * correctJoints passes over the limit check of a joint whose last check found
 * both limits held while no limit turn has moved either of its bodies since
 * (the check reads only the two orientations). Checked against the same world
 * with every check made (correctLimits never answering "held", so nothing is
 * passed over, as before the skip): the mannequin dropped as a ragdoll onto
 * the ground, its limits violated and corrected on most steps, gives the same
 * state bit for bit after every step, with fewer checks.
 */
describe('joint limit checks passed over while both limits hold', () => {
  it('the ragdoll drop: the same states bit for bit as with every check made, fewer checks', async () => {
    const url = new URL('../../assets/characters/mannequin.glb', import.meta.url);
    const imported = await importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb');
    const walk = imported.clips.find((c) => c.name === 'walk')!;
    const doc = sceneDoc([], { frames: 120, fps: 30 });
    doc.characters = [{ ...imported.characters[0], id: 'ragdoll', name: 'ragdoll', mode: 'dynamic' as const }];
    doc.clips[0].tracks = walk.tracks.map((t): Track => (t.target.kind === 'joint' ? { ...t, target: { ...t.target, character: 'ragdoll' } } : t));
    const skip = new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0 });
    const every = new SimWorld(doc, { dynamic: ['ragdoll'], startTimeSec: 0 });
    const counted = (w: SimWorld, held: boolean): { checks: number; held: number } => {
      const n = { checks: 0, held: 0 };
      const W = w as unknown as { correctLimits: (...a: unknown[]) => number };
      const orig = W.correctLimits;
      W.correctLimits = function (this: unknown, ...a: unknown[]): number {
        n.checks++;
        const r = orig.apply(this, a);
        if (r === 0) n.held++;
        // 0: both limits held; 2: neither turned nor held (never passed over)
        return held || r !== 0 ? r : 2;
      };
      return n;
    };
    const a = counted(skip, true), b = counted(every, false);
    let same = true, firstDiff = -1;
    for (let s = 0; s < 300; s++) {
      skip.step();
      every.step();
      const x = skip.bodies.state, y = every.bodies.state;
      for (let k = 0; k < x.length; k++) if (!Object.is(x[k], y[k])) same = false;
      if (!same && firstDiff < 0) firstDiff = s;
    }
    expect(firstDiff).toBe(-1);
    // the skip was exercised: held answers came up and later checks were passed over
    expect(b.held).toBeGreaterThan(1000);
    expect(a.checks).toBeLessThan(b.checks);
  }, 60_000);
});
