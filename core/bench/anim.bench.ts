/**
 * Benchmarks of animation evaluation, forward kinematics and skinning on a
 * seeded random 67-joint character (the mannequin's joint count).
 *
 *   npx tsx core/bench/anim.bench.ts
 *
 * `benchAnim()` returns the rows for a bench runner.
 */
import { pathToFileURL } from 'node:url';
import type { ImpulseDocument, Interpolation, Track } from '../document/types';
import { SceneEvaluator } from '../anim/evaluate';
import { randomTrack, rng } from '../anim/testkit';
import { Rig } from '../skeleton/rig';
import { computeSkinMatrices, skinPositions, skinVelocities } from '../skeleton/skinning';
import { randomCharacter, randomSkinnedMesh } from '../skeleton/testkit';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
}

function time(fn: () => void, minMs = 300): number {
  fn(); // warm-up
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) {
    fn();
    n++;
    t = performance.now();
  }
  return (t - t0) / n;
}

export function benchAnim(): BenchRow[] {
  const r = rng(2024);
  const JOINTS = 67;
  const character = randomCharacter(r, JOINTS);
  const mesh = randomSkinnedMesh(r, character, 20000);
  const interps: Interpolation[] = ['linear', 'cubic'];
  const tracks: Track[] = [];
  for (let j = 0; j < JOINTS; j++)
    for (const path of ['translation', 'rotation'] as const)
      tracks.push(randomTrack(r, path, interps[j % 2], { keys: 120, target: { kind: 'joint', character: character.id, joint: j } }));
  const doc: ImpulseDocument = {
    version: 2,
    name: 'bench',
    gravity: [0, -9.81, 0],
    groundY: 0,
    characters: [character],
    props: [],
    clips: [{ id: 'c', name: 'c', frameRate: 30, startFrame: 0, endFrame: 900, tracks }],
    activeClip: 'c',
    check: { ignore: [], groupNames: [] },
  };
  const ev = new SceneEvaluator(doc);
  const rig = new Rig(character);
  const localDot = new Float64Array(JOINTS * 10);
  const S = new Float64Array(mesh.skinJoints.length * 16);
  const Sd = new Float64Array(S.length);
  const pos = new Float32Array(mesh.positions.length);
  const nrm = new Float32Array(mesh.positions.length);
  const vel = new Float32Array(mesh.positions.length);
  const FRAMES = 240;
  let frame = 0;
  const nextTime = () => (frame++ % FRAMES) / 120;

  const rows: BenchRow[] = [];
  rows.push({ name: `anim: local pose, ${JOINTS} joints × 2 tracks, sequential 120 Hz`, value: time(() => ev.characterLocalPose(0, nextTime(), rig.local)) * 1000, unit: 'µs/pose' });
  rows.push({ name: `anim: local pose derivative, ${JOINTS} joints`, value: time(() => ev.characterLocalPoseDerivative(0, nextTime(), localDot)) * 1000, unit: 'µs/pose' });
  rows.push({ name: `skeleton: forward kinematics, ${JOINTS} joints`, value: time(() => rig.computeWorld()) * 1000, unit: 'µs/pose' });
  rows.push({ name: `skeleton: FK + world derivative, ${JOINTS} joints`, value: time(() => rig.computeWorldDerivative(localDot)) * 1000, unit: 'µs/pose' });
  computeSkinMatrices(mesh, rig.world, S);
  computeSkinMatrices(mesh, rig.worldDot, Sd);
  const nv = mesh.positions.length / 3;
  rows.push({ name: `skinning: positions, ${nv} vertices`, value: time(() => skinPositions(mesh, S, pos)), unit: 'ms/mesh' });
  rows.push({ name: `skinning: positions + normals, ${nv} vertices`, value: time(() => skinPositions(mesh, S, pos, nrm)), unit: 'ms/mesh' });
  rows.push({ name: `skinning: velocities, ${nv} vertices`, value: time(() => skinVelocities(mesh, Sd, vel)), unit: 'ms/mesh' });
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of benchAnim()) console.log(`${row.name.padEnd(60)} ${row.value.toFixed(3).padStart(10)} ${row.unit}`);
}
