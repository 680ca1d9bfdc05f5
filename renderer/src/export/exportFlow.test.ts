import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseDocument } from '../../../core/document/parse';
import type { ImpulseDocument } from '../../../core/document/types';
import { exportNotes } from './exportFlow';

/** The bundled sample scene: a keyframed bat, a dynamic ball with no keys, a table, a mannequin. */
function sample(): ImpulseDocument {
  return parseDocument(readFileSync(new URL('../../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));
}

describe('exportNotes: what the export will not hold', () => {
  it('names a dynamic prop no clip keys (it is exported where it stands), and nothing once it has keys', () => {
    const doc = sample();
    const dyn = doc.props.filter((p) => p.physics.mode === 'dynamic');
    expect(dyn.length).toBeGreaterThan(0);
    const notes = exportNotes(doc, null);
    expect(notes).toHaveLength(1);
    for (const p of dyn) expect(notes[0]).toContain(p.name);
    expect(notes[0]).toMatch(/exported where (it stands|they stand)/);
    // keyed in some clip: no note
    for (const p of dyn) doc.clips[0].tracks.push({ target: { kind: 'prop', prop: p.id }, path: 'translation', interpolation: 'linear', times: [0], values: [0, 0, 0] });
    expect(exportNotes(doc, null)).toEqual([]);
  });

  it('a suggestion on screen that is not accepted is named first, and its objects are not listed twice', () => {
    const doc = sample();
    const ball = doc.props.find((p) => p.physics.mode === 'dynamic')!;
    const notes = exportNotes(doc, [ball.id]);
    expect(notes[0]).toContain(`suggestion shown for ${ball.name} is not accepted`);
    expect(notes.slice(1).join(' ')).not.toContain(ball.name);
  });

  it('a dynamic character with no joint keys is named; keyframed objects never are', () => {
    const doc = sample();
    const ch = doc.characters[0];
    doc.clips.forEach((c) => (c.tracks = c.tracks.filter((t) => !(t.target.kind === 'joint' && t.target.character === ch.id))));
    expect(exportNotes(doc, null).join(' ')).not.toContain(ch.name);
    ch.mode = 'dynamic';
    expect(exportNotes(doc, null).join(' ')).toContain(ch.name);
  });

  it('long lists are cut to three names and a count', () => {
    const doc = sample();
    const ball = doc.props.find((p) => p.physics.mode === 'dynamic')!;
    for (let i = 0; i < 4; i++) doc.props.push({ ...structuredClone(ball), id: `extra${i}`, name: `extra${i}` });
    const n = doc.props.filter((p) => p.physics.mode === 'dynamic').length;
    expect(exportNotes(doc, null)[0]).toContain(`and ${n - 3} more`);
  });
});
