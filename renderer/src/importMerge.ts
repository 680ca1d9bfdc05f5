/**
 * What an imported glTF adds to the open document: fresh ids where they
 * collide, names that tell the copies apart, and a placement beside what is
 * already there. Pure, so it can be tested without a shell.
 */
import { newUniqueId } from '../../core/document/ids';
import type { Character, Clip, ImpulseDocument, Prop } from '../../core/document/types';
import type { ImportResult } from '../../core/io/importGltf';

/**
 * `name`, or `name 2`, `name 3`… the first not in `taken` (which it then joins).
 * A taken name that already ends in a number counts on from it: re-importing an
 * export that holds "Ball 2" next to "Ball 2" gives "Ball 3", not "Ball 2 2".
 */
export function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  if (taken.has(out)) {
    const numbered = /^(.*\S) (\d+)$/.exec(name);
    const base = numbered ? numbered[1] : name;
    for (let n = numbered ? Number(numbered[2]) + 1 : 2; taken.has(out); n++) out = `${base} ${n}`;
  }
  taken.add(out);
  return out;
}

/** Reach of an object around its origin in the ground plane (m): the largest x-z distance of a vertex, times its scale. */
function reachXZ(positions: ArrayLike<number>, scale: readonly number[]): number {
  const s = Math.max(Math.abs(scale[0]), Math.abs(scale[1]), Math.abs(scale[2]));
  let r2 = 0;
  for (let i = 0; i < positions.length; i += 3) r2 = Math.max(r2, positions[i] * positions[i] + positions[i + 2] * positions[i + 2]);
  return Math.sqrt(r2) * s;
}

/** [min, max] x (m) that objects reach at their rest placement (any turn about the vertical). */
function extentX(characters: readonly Character[], props: readonly Prop[]): [number, number] {
  let lo = Infinity, hi = -Infinity;
  const add = (x: number, r: number) => {
    lo = Math.min(lo, x - r);
    hi = Math.max(hi, x + r);
  };
  for (const c of characters) for (const m of c.meshes) add(c.transform.translation[0], reachXZ(m.positions, c.transform.scale));
  for (const p of props) add(p.transform.translation[0], reachXZ(p.mesh.positions, p.transform.scale));
  return [lo, hi];
}

/** Space (m) left between what is in the scene and what is imported beside it. */
const IMPORT_GAP = 0.5;

export interface MergedImport {
  characters: Character[];
  props: Prop[];
  clips: Clip[];
}

/**
 * Ids that collide get fresh ones (and tracks follow them); a name already
 * used by an object (characters and props share the findings and the Suggest
 * list) or by a clip (the clip menu) gets a number: importing bat.glb next to
 * the sample's bat gave two "Bat" in the outliner and "Bat ↔ Bat" findings,
 * and mannequin.glb's clips made the clip menu read walk, swing, walk, swing.
 */
export function mergeImport(doc: ImpulseDocument, result: ImportResult): MergedImport {
  const taken = new Set<string>([...doc.characters.map((c) => c.id), ...doc.props.map((p) => p.id), ...doc.clips.map((c) => c.id)]);
  const objectNames = new Set<string>([...doc.characters.map((c) => c.name), ...doc.props.map((p) => p.name)]);
  const clipNames = new Set<string>(doc.clips.map((c) => c.name));
  const rename = new Map<string, string>();
  const fresh = (id: string, prefix: string) => {
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
    const n = newUniqueId(prefix, taken);
    taken.add(n);
    rename.set(id, n);
    return n;
  };
  // The import goes to the right of everything there (props included): the offset counted characters
  // only, so props imported one after another, and a character after them, all landed on one spot.
  const [, sceneMax] = extentX(doc.characters, doc.props);
  const [importMin] = extentX(result.characters, result.props);
  const offsetX = Number.isFinite(sceneMax) && Number.isFinite(importMin) ? sceneMax + IMPORT_GAP - importMin : 0;
  const characters = result.characters.map((c) => ({
    ...c,
    id: fresh(c.id, 'char'),
    name: uniqueName(c.name, objectNames),
    transform: { ...c.transform, translation: [c.transform.translation[0] + offsetX, c.transform.translation[1], c.transform.translation[2]] as [number, number, number] },
  }));
  const props = result.props.map((p) => ({
    ...p,
    id: fresh(p.id, 'prop'),
    name: uniqueName(p.name, objectNames),
    transform: { ...p.transform, translation: [p.transform.translation[0] + offsetX, p.transform.translation[1], p.transform.translation[2]] as [number, number, number] },
  }));
  const clips = result.clips.map((c) => ({
    ...c,
    id: fresh(c.id, 'clip'),
    name: uniqueName(c.name, clipNames),
    tracks: c.tracks.map((t) => ({
      ...t,
      target:
        t.target.kind === 'joint'
          ? { ...t.target, character: rename.get(t.target.character) ?? t.target.character }
          : { ...t.target, prop: rename.get(t.target.prop) ?? t.target.prop },
    })),
  }));
  return { characters, props, clips };
}
