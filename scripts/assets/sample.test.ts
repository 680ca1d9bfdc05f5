/**
 * The committed sample assets do what assets/README.md says, checked on the
 * files themselves (not on the generator's own bookkeeping): meshes closed and
 * at real sizes, the scene set up as described, the bat reaching the resting
 * ball exactly around frame 30, the fists dipping into the table near
 * contact, and nothing touching at frame 0.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SceneEvaluator } from '../../core/anim';
import { isClosedMesh, massProperties, parseDocument } from '../../core/document';
import { importGltf } from '../../core/io/importGltf';
import { Rig, computeSkinMatrices, skeletonHops, skinPositions } from '../../core/skeleton';
import { CollisionScene, checkFrame } from '../../core/collision';
import { BALL_RADIUS, BAT_PROFILE, TABLE } from './writeGltf';

const root = new URL('../../assets/', import.meta.url);
const read = (rel: string) => new Uint8Array(readFileSync(new URL(rel, root)));

describe('generated assets', () => {
  it('every mesh is closed with positive volume; the mannequin is 67 joints and under 1.5 MB', async () => {
    const glb = read('characters/mannequin.glb');
    expect(glb.byteLength).toBeLessThan(1.5e6);
    const man = await importGltf(glb, 'mannequin.glb');
    expect(man.characters[0].skeleton.joints.length).toBe(67);
    for (const m of man.characters[0].meshes) {
      expect(isClosedMesh(m.indices), `${m.name} closed`).toBe(true);
      expect(massProperties(m.positions, m.indices, 1000).volume, `${m.name} volume`).toBeGreaterThan(0);
    }
    for (const name of ['ball', 'bat', 'table', 'box']) {
      const p = (await importGltf(read(`props/${name}.glb`), `${name}.glb`)).props[0];
      expect(isClosedMesh(p.mesh.indices), `${name} closed`).toBe(true);
      expect(massProperties(p.mesh.positions, p.mesh.indices, 1000).volume, `${name} volume`).toBeGreaterThan(0);
    }
  });
});

describe('sample project bat-and-ball.impulse', () => {
  const doc = parseDocument(readFileSync(new URL('sample/bat-and-ball.impulse', root), 'utf8'));
  const prop = (id: string) => doc.props.findIndex((p) => p.id === id);
  const ev = new SceneEvaluator(doc);
  const m = new Float64Array(16);

  /** Ball centre in the bat's frame at a frame: axial position and distance from the bat axis. */
  const ballInBat = (frame: number) => {
    const t = frame / 30;
    const c = doc.props[prop('prop_ball')].transform.translation;
    ev.propWorldMatrix(prop('prop_bat'), t, m);
    const d = [c[0] - m[12], c[1] - m[13], c[2] - m[14]];
    const y = d[0] * m[4] + d[1] * m[5] + d[2] * m[6];
    const radial = Math.sqrt(Math.max(0, d[0] ** 2 + d[1] ** 2 + d[2] ** 2 - y * y));
    return { y, radial };
  };
  const batRadius = (y: number) => {
    for (let i = 1; i < BAT_PROFILE.length; i++) if (y <= BAT_PROFILE[i][0]) return Math.max(BAT_PROFILE[i - 1][1], BAT_PROFILE[i][1]);
    return 0;
  };

  it('is set up as the README says', () => {
    expect(doc.characters.map((c) => [c.id, c.skeleton.joints.length])).toEqual([['char_mannequin', 67]]);
    expect(doc.props.map((p) => [p.id, p.physics.mode]).sort()).toEqual([
      ['prop_ball', 'dynamic'],
      ['prop_bat', 'keyframed'],
      ['prop_box', 'dynamic'],
      ['prop_table', 'keyframed'],
    ]);
    const clip = doc.clips.find((c) => c.id === doc.activeClip)!;
    expect([clip.name, clip.frameRate, clip.startFrame, clip.endFrame]).toEqual(['swing', 30, 0, 60]);
    expect(doc.groundY).toBe(0);
    expect(doc.props[prop('prop_ball')].physics.massKg).toBe(0.145);
  });

  it('the bat passes through the resting ball at frame 30 and is clear of it at frames 29 and 31', () => {
    const hit = ballInBat(30);
    expect(hit.y).toBeGreaterThan(0.6);
    expect(hit.y).toBeLessThan(0.85);
    expect(hit.radial, 'ball centre on the bat axis at frame 30').toBeLessThan(1e-3);
    for (const f of [29, 31]) {
      const b = ballInBat(f);
      // Clear: farther from the axis than ball radius + thickest bat radius.
      expect(b.radial, `frame ${f}`).toBeGreaterThan(BALL_RADIUS + 0.033);
    }
    // First touch between frames 29 and 30 (bisection on the exact clearance).
    const gap = (f: number) => {
      const b = ballInBat(f);
      return b.radial - BALL_RADIUS - batRadius(Math.min(0.85, Math.max(0, b.y)));
    };
    let lo = 29, hi = 30;
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      if (gap(mid) > 0) lo = mid;
      else hi = mid;
    }
    expect(hi).toBeGreaterThan(29.4);
    expect(hi).toBeLessThan(29.8);
  });

  it('the fists dip into the table top near contact, and nothing touches at frame 0', () => {
    const ch = doc.characters[0];
    const rig = new Rig(ch);
    const table = doc.props[prop('prop_table')].transform.translation;
    const insideTop = (x: number, y: number, z: number) =>
      Math.abs(x - table[0]) < TABLE.halfX && Math.abs(z - table[2]) < TABLE.halfZ && y < TABLE.height && y > TABLE.height - TABLE.top;
    const count = (frame: number) => {
      const local = new Float64Array(10 * rig.jointCount);
      ev.characterLocalPose(0, frame / 30, local);
      rig.local.set(local);
      rig.computeWorld();
      let n = 0, minY = Infinity;
      for (const mesh of ch.meshes) {
        const mats = computeSkinMatrices(mesh, rig.world, new Float64Array(16 * mesh.skinJoints.length));
        const out = skinPositions(mesh, mats, new Float64Array(mesh.positions.length));
        for (let v = 0; v < out.length; v += 3) {
          if (insideTop(out[v], out[v + 1], out[v + 2])) n++;
          minY = Math.min(minY, out[v + 1]);
        }
      }
      return { n, minY };
    };
    expect(count(30).n, 'vertices of the fists inside the table top at frame 30').toBeGreaterThan(0);
    const start = count(0);
    expect(start.n).toBe(0);
    expect(start.minY, 'feet on or above the ground').toBeGreaterThanOrEqual(0);
    const ballY = doc.props[prop('prop_ball')].transform.translation[1];
    expect(ballY - BALL_RADIUS - TABLE.height, 'ball just above the table').toBeGreaterThan(0);
    expect(ballY - BALL_RADIUS - TABLE.height).toBeLessThan(1e-3);
  });

  it('the mannequin does not cross itself in the bind pose beyond adjacent joints; in the swing the fists, fingers and forearms stay apart', () => {
    const scene = new CollisionScene(doc);
    const obj = scene.objects[0];
    const T = obj.indices.length / 3;
    const bad: string[] = [];
    for (const key of obj.bindPairs) {
      const pa = scene.parts[obj.parts[obj.triPart[Math.floor(key / T)]]], pb = scene.parts[obj.parts[obj.triPart[key % T]]];
      if (pa.joint !== pb.joint && skeletonHops(obj.parents!, pa.joint, pb.joint) > 1) bad.push(`${pa.name} × ${pb.name}`);
    }
    expect(bad, 'bind-pose triangle pairs crossing between joints 2+ hops apart').toEqual([]);
    // Every third frame of the swing: no hand, finger or forearm of one side crosses the other
    // side's, no finger crosses another finger, and (up to the finish) no upper arm or shoulder
    // sinks into the torso.
    const handOrArm = /^(Left|Right)(Hand|ForeArm)/;
    const torso = /^(Hips|Spine\d?|Neck)$/, upperArm = /^(Left|Right)(Shoulder|Arm)$/;
    for (let f = 0; f <= 60; f += 3) {
      const self = checkFrame(scene, f).filter((c) => c.a.objectId === 'char_mannequin' && c.b.objectId === 'char_mannequin');
      const crossed = self.filter((c) => handOrArm.test(c.a.part) && handOrArm.test(c.b.part) && (c.a.part.slice(0, 4) !== c.b.part.slice(0, 4) || (/Hand\w/.test(c.a.part) && /Hand\w/.test(c.b.part))));
      expect(crossed.map((c) => `${c.a.part} × ${c.b.part}`), `frame ${f}`).toEqual([]);
      if (f <= 42) {
        const sunk = self.filter((c) => (torso.test(c.a.part) && upperArm.test(c.b.part)) || (torso.test(c.b.part) && upperArm.test(c.a.part)));
        expect(sunk.map((c) => `${c.a.part} × ${c.b.part}`), `frame ${f}`).toEqual([]);
      }
    }
  });
});
