import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../document/fixtures';
import type { Character, ImpulseDocument, Track } from '../document/types';
import { importGltf } from '../io/importGltf';
import { ballPropAt, boxPropAt, sceneDoc } from './testkit';
import { SimWorld } from './world';

/** The SimWorld internals the test reads and writes. */
interface Inside {
  charPoseStale: Uint8Array;
  charStill: Int32Array;
  stats: { steps: number };
}

async function mannequin() {
  const url = new URL('../../assets/characters/mannequin.glb', import.meta.url);
  return importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb');
}

/** Steps two worlds of doc, the second posing every character in full every step; expects the same states after every step and the same impacts. Returns the first world's held-still character steps. */
function runBoth(doc: ImpulseDocument, dynamic: string[], steps: number): { still: number; fast: SimWorld } {
  const opts = { dynamic, startTimeSec: 0, restingSolver: 'si-restitution' as const };
  const fast = new SimWorld(doc, opts), full = new SimWorld(doc, opts);
  const F = fast as unknown as Inside, U = full as unknown as Inside;
  let still = 0;
  for (let k = 0; k < steps; k++) {
    U.charPoseStale.fill(1);
    fast.step();
    full.step();
    for (let ci = 0; ci < doc.characters.length; ci++) if (F.charStill[ci] === F.stats.steps) still++;
    expect(U.charStill.every((s) => s < 0), 'the full world never holds still').toBe(true);
    const a = fast.bodies.state, b = full.bodies.state;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect.fail(`step ${k + 1}: state[${i}] ${a[i]} vs ${b[i]}`);
  }
  expect(fast.impacts).toEqual(full.impacts);
  return { still, fast };
}

/** The sim bench's scene (core/bench/sim.bench.ts): 10 props falling onto a walking, a swinging and a third (walking) mannequin; and a fourth standing. */
async function benchLikeScene(): Promise<ImpulseDocument> {
  const imported = await mannequin();
  const base = imported.characters[0];
  const walk = imported.clips.find((c) => c.name === 'walk')!, swing = imported.clips.find((c) => c.name === 'swing')!;
  const retarget = (tracks: Track[], id: string) => tracks.map((t) => (t.target.kind === 'joint' ? { ...t, target: { ...t.target, character: id } } : t));
  const place = (id: string, x: number, z: number): Character => ({ ...base, id, name: id, transform: { ...base.transform, translation: [x, 0, z] }, mode: 'keyframed' });
  const rand = mulberry32(7);
  const props = [];
  for (let i = 0; i < 10; i++) {
    const x = -1.5 + 3 * rand(), z = -0.6 + 1.2 * rand(), y = 2.1 + 1.2 * rand();
    props.push(i % 2 === 0 ? boxPropAt(`box${i}`, [0.08, 0.06, 0.1], [x, y, z], { massKg: 1, restitution: 0.3, friction: 0.5 }) : ballPropAt(`ball${i}`, 0.08, [x, y, z], { massKg: 0.5, restitution: 0.5, friction: 0.4 }, 1));
  }
  const doc = sceneDoc(props, { frames: 60, fps: 30 });
  // and a fourth without tracks, in the props' way (held from its first pose)
  doc.characters = [place('walker', -1, 0), place('swinger', 1, 0), place('mannequin', 0, -1.2), place('statue', 0, 0)];
  doc.clips[0].tracks = [...retarget(walk.tracks, 'walker'), ...retarget(swing.tracks, 'swinger'), ...retarget(walk.tracks, 'mannequin')];
  return doc;
}

/**
 * A keyframed character whose tracks all hold their keys (here: after the
 * walk clip's last key at 1 s) keeps its joint matrices, box, skin matrices
 * and joint-bounded boxes from the step before (charStill) instead of
 * computing them again. Law: the world runs exactly as one that poses every
 * character in full every step (each rig marked stale before each step, so
 * no pose is taken as held): the same body states bit for bit after every
 * step, the same impacts.
 */
describe('a keyframed character holding still', () => {
  it('the bench scene (walker and keyframed mannequin still after 1 s, a mannequin without tracks, props falling onto them) runs bit for bit as with full posing every step', async () => {
    const doc = await benchLikeScene();
    const { still, fast } = runBoth(doc, doc.props.map((p) => p.id), 480);
    expect(fast.impacts.length, 'impacts').toBeGreaterThan(10);
    // walker and mannequin hold still from 1 s (~240 steps each), the statue every step
    expect(still, 'steps the characters held still').toBeGreaterThan(880);
  }, 60_000);

  it('a ball dropped onto a mannequin without tracks (held from its first pose, the first impact of the run) runs bit for bit as with full posing every step', async () => {
    const base = (await mannequin()).characters[0];
    const doc = sceneDoc([ballPropAt('ball', 0.08, [0.05, 2.3, 0.02], { massKg: 0.5, restitution: 0.5, friction: 0.4 }, 1)], { frames: 30, fps: 30 });
    doc.characters = [{ ...base, id: 'statue', name: 'statue', mode: 'keyframed' }];
    const { still, fast } = runBoth(doc, ['ball'], 240);
    expect(fast.impacts[0]?.objects, 'the first impact: the ball on the statue').toEqual(['ball', 'statue']);
    expect(still, 'steps the statue held still (all but those after an impact re-posed it)').toBeGreaterThan(200);
  }, 60_000);
});
