/**
 * What an imported glTF adds to the open document: fresh ids where they
 * collide, names that tell the copies apart, and a placement beside what is
 * already there. Pure, so it can be tested without a shell.
 */
import { newUniqueId } from '../../core/document/ids';
import type { Character, Clip, ImpulseDocument, Prop } from '../../core/document/types';
import type { ImportResult } from '../../core/io/importGltf';

/** `name`, or `name 2`, `name 3`… the first not in `taken` (which it then joins). */
export function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  for (let n = 2; taken.has(out); n++) out = `${name} ${n}`;
  taken.add(out);
  return out;
}

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
  const offsetX = doc.characters.length + doc.props.length > 0 ? 1.5 * (doc.characters.length + 1) : 0;
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
