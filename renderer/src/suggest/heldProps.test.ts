import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SceneEvaluator } from '../../../core/anim';
import { parseDocument } from '../../../core/document';
import { heldProps } from './heldProps';

const sample = () => parseDocument(readFileSync(new URL('../../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));

describe('heldProps', () => {
  it('finds the bat the sample mannequin swings (before the start, and after it at the first frame), not the table it passes', () => {
    const doc = sample();
    for (const from of [20, 40, 0]) {
      const held = heldProps(doc, 'clip_swing', ['char_mannequin'], from);
      expect(held.map((h) => h.prop), `from frame ${from}`).toEqual(['prop_bat']);
      expect(held[0].character).toBe('char_mannequin');
      expect(held[0].joint).toMatch(/Hand$/);
    }
  });

  it('a prop already picked, or no character picked, gives nothing', () => {
    const doc = sample();
    expect(heldProps(doc, 'clip_swing', ['char_mannequin', 'prop_bat'], 20)).toEqual([]);
    expect(heldProps(doc, 'clip_swing', ['prop_ball'], 20)).toEqual([]);
  });

  it('a bat that keeps still in the hand’s reach while the hand moves is not carried', () => {
    const doc = sample();
    const clip = doc.clips.find((c) => c.id === 'clip_swing')!;
    const bat = doc.props.find((p) => p.id === 'prop_bat')!;
    // freeze the bat where its keys put it at frame 17 (inside the window before frame 20)
    const keyed = clip.tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat');
    expect(keyed.length).toBeGreaterThan(0);
    const at17 = new Float64Array(10);
    new SceneEvaluator(doc, 'clip_swing').propTransform(doc.props.indexOf(bat), 17 / 30, at17);
    const slice: Record<string, [number, number]> = { translation: [0, 3], rotation: [3, 7], scale: [7, 10] };
    for (const t of keyed) {
      t.times = [0];
      t.values = Array.from(at17.slice(...slice[t.path]));
    }
    expect(bat.physics.mode).toBe('keyframed');
    expect(heldProps(doc, 'clip_swing', ['char_mannequin'], 20)).toEqual([]);
  });
});
