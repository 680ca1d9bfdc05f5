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

  it('uniqueName counts on from a number the name already has (Ball 2 next to Ball 2 is Ball 3, not Ball 2 2)', () => {
    const taken = new Set(['Ball', 'Ball 2', 'swing 2', 'Table 10']);
    expect(uniqueName('Ball 2', taken)).toBe('Ball 3');
    expect(uniqueName('swing 2', taken)).toBe('swing 3');
    expect(uniqueName('Table 10', taken)).toBe('Table 11');
    expect(uniqueName('Ball 3', taken)).toBe('Ball 4');
    expect(uniqueName('Box 2', taken), 'a free numbered name stays').toBe('Box 2');
  });

  it('each prop and the mannequin imported one after another land clear of the scene and of each other', async () => {
    // Brute-force world box of an object at rest: every vertex through scale, rotation and translation.
    const worldX = (positions: Float32Array, t: { translation: number[]; rotation: number[]; scale: number[] }): [number, number] => {
      const [qx, qy, qz, qw] = t.rotation;
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < positions.length; i += 3) {
        const x = positions[i] * t.scale[0], y = positions[i + 1] * t.scale[1], z = positions[i + 2] * t.scale[2];
        // v' = q v q*, x component.
        const ix = qw * x + qy * z - qz * y, iy = qw * y + qz * x - qx * z, iz = qw * z + qx * y - qy * x, iw = -qx * x - qy * y - qz * z;
        const wx = ix * qw + iw * -qx + iy * -qz - iz * -qy + t.translation[0];
        lo = Math.min(lo, wx);
        hi = Math.max(hi, wx);
      }
      return [lo, hi];
    };
    let doc = sample();
    const spans: { name: string; x: [number, number] }[] = [];
    const span = (o: { name: string; transform: { translation: number[]; rotation: number[]; scale: number[] } }, positions: Float32Array[]) => {
      const xs = positions.map((p) => worldX(p, o.transform));
      return { name: o.name, x: [Math.min(...xs.map((x) => x[0])), Math.max(...xs.map((x) => x[1]))] as [number, number] };
    };
    const sceneHi = Math.max(...doc.props.map((p) => span(p, [p.mesh.positions]).x[1]), ...doc.characters.map((c) => span(c, c.meshes.map((m) => m.positions)).x[1]));
    for (const file of ['props/ball.glb', 'props/bat.glb', 'props/box.glb', 'props/table.glb', 'characters/mannequin.glb']) {
      const merged = mergeImport(doc, await importGltf(asset(file), file));
      for (const p of merged.props) spans.push(span(p, [p.mesh.positions]));
      for (const c of merged.characters) spans.push(span(c, c.meshes.map((m) => m.positions)));
      doc = add(doc, merged);
    }
    for (const s of spans) expect(s.x[0], `${s.name} (x ${s.x}) starts right of the sample scene (to ${sceneHi})`).toBeGreaterThan(sceneHi);
    for (let i = 0; i < spans.length; i++)
      for (let j = i + 1; j < spans.length; j++) {
        const [a, b] = [spans[i], spans[j]];
        expect(a.x[1] < b.x[0] || b.x[1] < a.x[0], `${a.name} (x ${a.x}) and ${b.name} (x ${b.x}) do not overlap`).toBe(true);
      }
  });
});
