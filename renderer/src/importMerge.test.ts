import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../core/document/parse';
import { serializeDocument } from '../../core/document/serialize';
import type { ImpulseDocument } from '../../core/document/types';
import { importGltf } from '../../core/io/importGltf';
import { mergeImport, uniqueName } from './importMerge';

const asset = (p: string) => new Uint8Array(readFileSync(new URL(`../../assets/${p}`, import.meta.url)));
const sample = () => parseDocument(readFileSync(new URL('../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));

/** Applies a merged import the way File > Import does. */
function add(doc: ImpulseDocument, merged: ReturnType<typeof mergeImport>): ImpulseDocument {
  return { ...doc, characters: [...doc.characters, ...merged.characters], props: [...doc.props, ...merged.props], clips: [...doc.clips, ...merged.clips] };
}

describe('importing into an open document', () => {
  it('uniqueName numbers a taken name from 2 and reserves what it returns', () => {
    const taken = new Set(['Bat', 'Bat 2']);
    expect(uniqueName('Ball', taken)).toBe('Ball');
    expect(uniqueName('Bat', taken)).toBe('Bat 3');
    expect(uniqueName('Bat', taken)).toBe('Bat 4');
    expect(taken.has('Ball') && taken.has('Bat 4')).toBe(true);
  });

  it('mannequin.glb and bat.glb, twice each, next to the sample: ids and names all distinct, tracks on the new ids, the project saves and reopens', async () => {
    let doc = sample();
    for (let round = 0; round < 2; round++) {
      for (const [file, bytes] of [['mannequin.glb', asset('characters/mannequin.glb')], ['bat.glb', asset('props/bat.glb')]] as const) {
        const merged = mergeImport(doc, await importGltf(bytes, file));
        doc = add(doc, merged);
      }
    }
    const objects = [...doc.characters, ...doc.props];
    expect(new Set(objects.map((o) => o.id)).size, 'object ids').toBe(objects.length);
    expect(new Set(doc.clips.map((c) => c.id)).size, 'clip ids').toBe(doc.clips.length);
    expect(new Set(objects.map((o) => o.name)).size, `object names: ${objects.map((o) => o.name)}`).toBe(objects.length);
    expect(new Set(doc.clips.map((c) => c.name)).size, `clip names: ${doc.clips.map((c) => c.name)}`).toBe(doc.clips.length);
    expect(doc.props.map((p) => p.name).filter((n) => n.startsWith('Bat'))).toEqual(['Bat', 'Bat 2', 'Bat 3']);
    // Each imported clip animates only the character that came with it.
    const imported = doc.characters.slice(1);
    const importedClips = doc.clips.slice(sample().clips.length);
    importedClips.forEach((clip, i) => {
      const owner = imported[Math.floor(i / 2)].id;
      for (const t of clip.tracks) expect(t.target.kind === 'joint' && t.target.character, `${clip.name} animates ${owner}`).toBe(owner);
    });
    const again = parseDocument(serializeDocument(doc));
    expect(again.clips.map((c) => c.name)).toEqual(doc.clips.map((c) => c.name));
  });
});
