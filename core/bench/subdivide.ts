/**
 * Dense real characters for the benchmarks: the shipped mannequin (67 joints,
 * five skinned meshes, 9,324 triangles) with its meshes split 1 → 4 at edge
 * midpoints until a character has about the wanted triangle count.
 *
 * Midpoint subdivision keeps the bind-pose surface exactly (each new vertex is
 * on an edge of the original triangle), keeps a mesh closed (an edge's
 * midpoint is shared by both triangles on it) and gives each new vertex the
 * mean of its edge ends' skin weights, the four largest kept and renormalised,
 * so the skinned surface bends like the original.
 */
import type { Character, ImpulseDocument, SkinnedMesh, Track } from '../document/types';
import { createEmptyDocument } from '../document';
import { importGltf } from '../io/importGltf';
import { readAsset } from '../node/assets';

/** One level of midpoint subdivision: every triangle becomes four. */
export function subdivideSkinnedMesh(m: SkinnedMesh): SkinnedMesh {
  const nv = m.positions.length / 3, nt = m.indices.length / 3;
  const edgeVertex = new Map<number, number>();
  // at most one new vertex per edge: ≤ 3 nt / 2 for a closed mesh, ≤ 3 nt in general
  const cap = nv + 3 * nt;
  const pos = new Float32Array(cap * 3), nor = m.normals ? new Float32Array(cap * 3) : undefined;
  const jn = new Uint16Array(cap * 4), wt = new Float32Array(cap * 4);
  pos.set(m.positions);
  if (nor && m.normals) nor.set(m.normals);
  jn.set(m.joints);
  wt.set(m.weights);
  let count = nv;
  const slot = new Int32Array(8), w = new Float64Array(8);
  const midpoint = (a: number, b: number): number => {
    const key = a < b ? a * nv + b : b * nv + a;
    const known = edgeVertex.get(key);
    if (known !== undefined) return known;
    const v = count++;
    edgeVertex.set(key, v);
    for (let c = 0; c < 3; c++) pos[v * 3 + c] = 0.5 * (pos[a * 3 + c] + pos[b * 3 + c]);
    if (nor) {
      const x = nor[a * 3] + nor[b * 3], y = nor[a * 3 + 1] + nor[b * 3 + 1], z = nor[a * 3 + 2] + nor[b * 3 + 2];
      const len = Math.hypot(x, y, z);
      if (len > 0) { nor[v * 3] = x / len; nor[v * 3 + 1] = y / len; nor[v * 3 + 2] = z / len; }
      else for (let c = 0; c < 3; c++) nor[v * 3 + c] = nor[a * 3 + c];
    }
    // merge the two ends' influences (same slot: weights add), keep the four largest
    let n = 0;
    for (const [src, s] of [[a, 0.5], [b, 0.5]] as const) {
      for (let k = 0; k < 4; k++) {
        const ww = wt[src * 4 + k] * s;
        if (ww === 0) continue;
        const j = jn[src * 4 + k];
        let i = 0;
        while (i < n && slot[i] !== j) i++;
        if (i === n) { slot[n] = j; w[n] = 0; n++; }
        w[i] += ww;
      }
    }
    let sum = 0;
    for (let k = 0; k < 4; k++) {
      let best = -1;
      for (let i = 0; i < n; i++) if (w[i] > 0 && (best < 0 || w[i] > w[best])) best = i;
      if (best < 0) { jn[v * 4 + k] = 0; wt[v * 4 + k] = 0; continue; }
      jn[v * 4 + k] = slot[best];
      wt[v * 4 + k] = w[best];
      sum += w[best];
      w[best] = 0;
    }
    for (let k = 0; k < 4; k++) wt[v * 4 + k] /= sum;
    return v;
  };
  const idx = new Uint32Array(nt * 12);
  for (let t = 0; t < nt; t++) {
    const a = m.indices[t * 3], b = m.indices[t * 3 + 1], c = m.indices[t * 3 + 2];
    const ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
    idx.set([a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca], t * 12);
  }
  return {
    ...m,
    positions: pos.slice(0, count * 3),
    normals: nor?.slice(0, count * 3),
    indices: idx,
    joints: jn.slice(0, count * 4),
    weights: wt.slice(0, count * 4),
  };
}

/** Bind-pose surface area of a mesh. */
export function surfaceArea(m: SkinnedMesh): number {
  let s = 0;
  const p = m.positions, ix = m.indices;
  for (let t = 0; t < ix.length; t += 3) {
    const a = ix[t] * 3, b = ix[t + 1] * 3, c = ix[t + 2] * 3;
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
    s += 0.5 * Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx);
  }
  return s;
}

/**
 * Subdivides a character's meshes, always the one with the largest mean
 * triangle area next, to the triangle count nearest `targetTriangles`.
 */
export function densify(ch: Character, targetTriangles: number): Character {
  const meshes = ch.meshes.slice();
  const area = (m: SkinnedMesh) => surfaceArea(m) / (m.indices.length / 3);
  const triangles = () => meshes.reduce((s, m) => s + m.indices.length / 3, 0);
  for (;;) {
    const have = triangles();
    let best = 0;
    for (let i = 1; i < meshes.length; i++) if (area(meshes[i]) > area(meshes[best])) best = i;
    // splitting a mesh adds three times its triangles: stop where the count is nearest the target
    const after = have + 3 * (meshes[best].indices.length / 3);
    if (have >= targetTriangles || after - targetTriangles > targetTriangles - have) break;
    meshes[best] = subdivideSkinnedMesh(meshes[best]);
  }
  return { ...ch, meshes };
}

/**
 * Two shipped mannequins, subdivided to about `targetTriangles` each, one
 * walking and one swinging (the mannequin's own clips, `frames` frames at
 * 30 fps, looped), placed so that their bodies and arms pass through each
 * other in part of the clip. Self-collision is off: the peer pipeline checks
 * only one character against the other.
 */
export async function denseMannequins(targetTriangles: number, frames: number): Promise<ImpulseDocument> {
  const imported = await importGltf(readAsset('characters/mannequin.glb'), 'mannequin.glb');
  const base = densify(imported.characters[0], targetTriangles);
  const clip = (name: string) => {
    const c = imported.clips.find((x) => x.name === name);
    if (!c) throw new Error(`mannequin.glb has no clip "${name}"`);
    return c;
  };
  const place = (id: string, translation: [number, number, number], rotation: [number, number, number, number]): Character => ({
    ...base,
    id,
    name: id,
    transform: { ...base.transform, translation, rotation },
    collision: { ...base.collision, selfCollision: false },
    mode: 'keyframed',
  });
  const doc = createEmptyDocument('dense mannequins');
  // face to face, a little less than an arm's length apart
  doc.characters = [place('walker', [0, 0, 0], [0, 0, 0, 1]), place('swinger', [0.1, 0, 0.45], [0, 1, 0, 0])];
  const loop = (name: string, character: string): Track[] => {
    const c = clip(name);
    const period = (c.endFrame - c.startFrame) / c.frameRate;
    return c.tracks.map((t) => {
      const times: number[] = [], values: number[] = [];
      const stride = t.values.length / t.times.length;
      for (let rep = 0; rep * period <= frames / 30 + period; rep++) {
        for (let k = 0; k < t.times.length; k++) {
          const time = t.times[k] + rep * period;
          if (times.length > 0 && time <= times[times.length - 1]) continue;
          times.push(time);
          for (let q = 0; q < stride; q++) values.push(t.values[k * stride + q]);
        }
      }
      return { ...t, target: { ...t.target, character }, times, values } as Track;
    });
  };
  doc.clips = [{ id: 'c', name: 'bench', frameRate: 30, startFrame: 0, endFrame: frames, tracks: [...loop('walk', 'walker'), ...loop('swing', 'swinger')] }];
  doc.activeClip = 'c';
  return doc;
}
