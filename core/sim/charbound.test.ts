import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../document/fixtures';
import type { Character, Track } from '../document/types';
import { importGltf } from '../io/importGltf';
import { Rig } from '../skeleton/rig';
import { computeSkinMatrices, skinPositions } from '../skeleton/skinning';
import { SceneEvaluator } from '../anim/evaluate';
import { jointBoundedBox } from './characterSkin';
import type { Collider } from './collider';
import { SimWorld } from './world';
import { ballPropAt, sceneDoc } from './testkit';

/** The SimWorld internals the test reads. */
interface Inside {
  colliders: Collider[];
  charBox1: Float64Array[];
  poseKeyframed(timeSec: number, tIdx: number): void;
}

/**
 * A keyframed character's box from its joints alone (charBound: the joint
 * world matrices through joint-space boxes of the skin) is what lets the
 * world skip its skin matrices and mesh boxes in steps no dynamic body
 * reaches it. Law: it holds every vertex the skin places (brute force,
 * skinPositions of the whole mesh) and every mesh's box from its skin
 * (jointBoundedBox of the whole mesh, which the detection tests next).
 */
describe("a keyframed character's box from its joints", () => {
  it('seed 47: holds every skinned vertex and every mesh box from the skin, at random times of the walk and swing clips, placed and scaled', async () => {
    const url = new URL('../../assets/characters/mannequin.glb', import.meta.url);
    const imported = await importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb');
    const base = imported.characters[0];
    const rand = mulberry32(47);
    const retarget = (tracks: Track[], id: string) => tracks.map((t) => (t.target.kind === 'joint' ? { ...t, target: { ...t.target, character: id } } : t));
    const place = (id: string, x: number, s: number, turn: number): Character => ({
      ...base,
      id,
      name: id,
      mode: 'keyframed',
      transform: { translation: [x, 0.1, -0.3], rotation: [0, Math.sin(turn / 2), 0, Math.cos(turn / 2)], scale: [s * base.transform.scale[0], s * base.transform.scale[1], s * base.transform.scale[2]] },
    });
    const doc = sceneDoc([ballPropAt('ball', 0.05, [0, 3, 0], { massKg: 1 })], { frames: 60, fps: 30 });
    doc.characters = [place('walker', -1, 1, 0.3), place('swinger', 1, 1.7, -2)];
    const walk = imported.clips.find((c) => c.name === 'walk')!, swing = imported.clips.find((c) => c.name === 'swing')!;
    doc.clips[0].tracks = [...retarget(walk.tracks, 'walker'), ...retarget(swing.tracks, 'swinger')];
    const w = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 });
    const W = w as unknown as Inside;
    const ev = new SceneEvaluator(doc);
    let vertices = 0, boxes = 0;
    for (let trial = 0; trial < 12; trial++) {
      const t = 2 * rand();
      W.poseKeyframed(t, 1000 + trial);
      for (let ci = 0; ci < 2; ci++) {
        const ch = doc.characters[ci], B = W.charBox1[ci];
        const rig = new Rig(ch);
        ev.characterLocalPose(ci, t, rig.local);
        rig.computeWorld();
        for (let mi = 0; mi < ch.meshes.length; mi++) {
          const mesh = ch.meshes[mi];
          const S = computeSkinMatrices(mesh, rig.world, new Float64Array(16 * mesh.skinJoints.length));
          const X = skinPositions(mesh, S, new Float64Array(mesh.positions.length));
          for (let v = 0; v < X.length / 3; v++)
            for (let c = 0; c < 3; c++) {
              const x = X[3 * v + c];
              expect(x >= B[c] && x <= B[3 + c], `t ${t.toFixed(3)} s, ${ch.id} mesh ${mi} vertex ${v} axis ${c}: ${x} outside [${B[c]}, ${B[3 + c]}]`).toBe(true);
            }
          vertices += X.length / 3;
          const C = W.colliders.find((k) => k.docIndex === ci && k.mesh === mi && k.whole)!;
          const mb = new Float64Array(6);
          jointBoundedBox(C.whole!, S, mb);
          for (let c = 0; c < 3; c++) {
            expect(mb[c] >= B[c], `t ${t.toFixed(3)} s, ${ch.id} mesh ${mi}: skin box low ${mb[c]} below the joints' box ${B[c]} (axis ${c})`).toBe(true);
            expect(mb[3 + c] <= B[3 + c], `t ${t.toFixed(3)} s, ${ch.id} mesh ${mi}: skin box high ${mb[3 + c]} above the joints' box ${B[3 + c]} (axis ${c})`).toBe(true);
          }
          boxes++;
        }
      }
    }
    expect(boxes).toBe(12 * 2 * 5);
    expect(vertices).toBeGreaterThan(12 * 2 * 4000);
  });
});

describe("a keyframed character's joint groups in a world", () => {
  it('share the mesh topology (verts, slots, slot boxes, weight sums) with every other world, own their boxes and stamps, and have one field layout', async () => {
    const url = new URL('../../assets/characters/mannequin.glb', import.meta.url);
    const imported = await importGltf(new Uint8Array(readFileSync(url)), 'mannequin.glb');
    const doc = sceneDoc([ballPropAt('ball', 0.05, [0, 3, 0], { massKg: 1 })], { frames: 10, fps: 30 });
    doc.characters = [{ ...imported.characters[0], id: 'k', name: 'k', mode: 'keyframed' }];
    const a = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 }) as unknown as Inside;
    const b = new SimWorld(doc, { dynamic: ['ball'], startTimeSec: 0 }) as unknown as Inside;
    const layout = ['verts', 'box', 'slots', 'slotBox', 'slotCE', 'wsMin', 'wsMax', 'jbox0', 'jbox1', 'stamp', 'active', 'activeStamp'];
    let groups = 0;
    for (let c = 0; c < a.colliders.length; c++) {
      const GA = a.colliders[c].jointGroups, GB = b.colliders[c].jointGroups;
      expect(GA.length, `collider ${c}: as many groups in both worlds`).toBe(GB.length);
      for (let gi = 0; gi < GA.length; gi++, groups++) {
        const g = GA[gi], h = GB[gi];
        expect(Object.keys(g), `collider ${c} group ${gi}: field layout`).toEqual(layout);
        for (const k of ['verts', 'slots', 'slotBox', 'slotCE'] as const) expect(g[k], `collider ${c} group ${gi}: ${k} shared`).toBe(h[k]);
        expect([g.wsMin, g.wsMax], `collider ${c} group ${gi}: weight sums`).toEqual([h.wsMin, h.wsMax]);
        expect(g.wsMin! <= g.wsMax!, `collider ${c} group ${gi}: wsMin ≤ wsMax`).toBe(true);
        for (const k of ['box', 'jbox0', 'jbox1'] as const) {
          expect(g[k], `collider ${c} group ${gi}: ${k} its own`).not.toBe(h[k]);
          expect(Array.from(g[k]!), `collider ${c} group ${gi}: ${k} zeroed`).toEqual([0, 0, 0, 0, 0, 0]);
        }
        expect([g.stamp, g.active, g.activeStamp], `collider ${c} group ${gi}: stamps`).toEqual([-1, 0, -1]);
      }
    }
    expect(groups, 'the mannequin has joint groups').toBeGreaterThan(10);
  });
});
