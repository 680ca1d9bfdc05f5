/**
 * Keyframed props that a picked character carries at the start of a
 * suggestion. Such a prop keeps its keys when its holder goes limp, so it
 * goes on swinging where the hand was and strikes the falling body; the
 * Suggest panel offers to simulate it too.
 *
 * A prop counts as carried by a hand when, over the few frames before the
 * start (after it, when the start is the clip's first frame), some vertex of
 * it stays within reach of the hand joint, the hand moves, and the prop's
 * point nearest the hand moves along with it: its displacement differs from
 * the hand's by at most half the hand's. Props are keyed by hand, not
 * parented, so they follow loosely; a prop the hand merely passes keeps
 * still and differs by the whole of the hand's motion.
 */
import type { ImpulseDocument } from '../../../core/document/types';
import { SceneEvaluator } from '../../../core/anim';
import { Rig } from '../../../core/skeleton';

export interface HeldProp {
  prop: string;
  character: string;
  joint: string;
}

const WINDOW_FRAMES = 6;
/** The hand must move this much over the window, else carrying cannot be told from touching (metres). */
const MOVE_M = 0.02;
/** Some vertex of the prop lies this close to the hand joint at every frame of the window (metres). */
const REACH_M = 0.15;
/** The prop's point may move differently from the hand by at most this share of the hand's motion. */
const FOLLOW = 0.5;

export function heldProps(doc: ImpulseDocument, clipId: string, picked: readonly string[], fromFrame: number): HeldProp[] {
  const clip = doc.clips.find((c) => c.id === clipId);
  if (!clip) return [];
  let f0 = Math.max(clip.startFrame, fromFrame - WINDOW_FRAMES);
  let f1 = fromFrame;
  if (f1 - f0 < 2) {
    f0 = fromFrame;
    f1 = Math.min(clip.endFrame, fromFrame + WINDOW_FRAMES);
  }
  if (f1 - f0 < 2) return [];
  const characters = doc.characters.map((c, i) => ({ c, i })).filter(({ c }) => picked.includes(c.id));
  const props = doc.props.map((p, i) => ({ p, i })).filter(({ p }) => !picked.includes(p.id));
  if (!characters.length || !props.length) return [];
  const ev = new SceneEvaluator(doc, clipId);
  const frames = f1 - f0 + 1;
  // every prop's world matrix per frame of the window
  const propWorld = props.map(({ i }) => {
    const m = new Float64Array(16 * frames);
    for (let k = 0; k < frames; k++) ev.propWorldMatrix(i, (f0 + k) / clip.frameRate, m.subarray(16 * k, 16 * k + 16));
    return m;
  });
  const out: HeldProp[] = [];
  for (const { c, i: ci } of characters) {
    const rig = new Rig(c);
    const hands = c.skeleton.joints.map((j, ji) => ({ name: j.name, ji })).filter(({ name }) => /hand$/i.test(name));
    const handAt = hands.map(() => new Float64Array(3 * frames));
    for (let k = 0; k < frames; k++) {
      ev.characterLocalPose(ci, (f0 + k) / clip.frameRate, rig.local);
      rig.computeWorld();
      hands.forEach(({ ji }, h) => handAt[h].set(rig.world.subarray(16 * ji + 12, 16 * ji + 15), 3 * k));
    }
    props.forEach(({ p }, n) => {
      const pos = p.mesh.positions, m = propWorld[n];
      for (let h = 0; h < hands.length; h++) {
        const q = handAt[h];
        let moved = 0, drift = 0, reach = true;
        const v = nearestVertex(pos, m, 0, q[0], q[1], q[2]);
        for (let k = 0; k < frames && reach; k++) {
          if (distanceToVertex(pos, m, 16 * k, nearestVertex(pos, m, 16 * k, q[3 * k], q[3 * k + 1], q[3 * k + 2]), q, 3 * k) > REACH_M) reach = false;
          const dh = [q[3 * k] - q[0], q[3 * k + 1] - q[1], q[3 * k + 2] - q[2]];
          const dp = [0, 1, 2].map((a) => place(pos, m, 16 * k, v, a) - place(pos, m, 0, v, a));
          moved = Math.max(moved, Math.hypot(dh[0], dh[1], dh[2]));
          drift = Math.max(drift, Math.hypot(dp[0] - dh[0], dp[1] - dh[1], dp[2] - dh[2]));
        }
        if (reach && moved >= MOVE_M && drift <= FOLLOW * moved) {
          out.push({ prop: p.id, character: c.id, joint: hands[h].name });
          return;
        }
      }
    });
  }
  return out;
}

/** Coordinate `a` of vertex v of a mesh placed by the world matrix at m[o..o+16]. */
function place(pos: ArrayLike<number>, m: ArrayLike<number>, o: number, v: number, a: number): number {
  return m[o + a] * pos[3 * v] + m[o + 4 + a] * pos[3 * v + 1] + m[o + 8 + a] * pos[3 * v + 2] + m[o + 12 + a];
}

function distanceToVertex(pos: ArrayLike<number>, m: ArrayLike<number>, o: number, v: number, q: ArrayLike<number>, qo: number): number {
  return Math.hypot(place(pos, m, o, v, 0) - q[qo], place(pos, m, o, v, 1) - q[qo + 1], place(pos, m, o, v, 2) - q[qo + 2]);
}

/** Index of the vertex nearest to point q of a mesh placed by the world matrix at m[o..o+16]. */
function nearestVertex(pos: ArrayLike<number>, m: ArrayLike<number>, o: number, qx: number, qy: number, qz: number): number {
  let best = Infinity, at = 0;
  for (let v = 0; 3 * v + 2 < pos.length; v++) {
    const x = place(pos, m, o, v, 0) - qx, y = place(pos, m, o, v, 1) - qy, z = place(pos, m, o, v, 2) - qz;
    const d = x * x + y * y + z * z;
    if (d < best) {
      best = d;
      at = v;
    }
  }
  return at;
}
