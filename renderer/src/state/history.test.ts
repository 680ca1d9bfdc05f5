import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test/random';
import {
  beginDrag,
  cancelDrag,
  canRedo,
  canUndo,
  commitDrag,
  createHistory,
  edit,
  isDirty,
  markSaved,
  redo,
  undo,
  updateDrag,
  type HistoryState,
} from './history';

interface Doc {
  name: string;
  items: { id: number; value: number; tags: string[] }[];
  blob: Float32Array;
}

const initial = (): Doc => ({
  name: 'doc',
  items: [
    { id: 1, value: 10, tags: ['a'] },
    { id: 2, value: 20, tags: [] },
  ],
  blob: new Float32Array([1, 2, 3]),
});

describe('history', () => {
  it('undo and redo walk the same states as the edits did (seed 42, 300 random edits)', () => {
    const rand = mulberry32(42);
    let h: HistoryState<Doc> = createHistory(initial());
    const states: Doc[] = [h.doc];
    for (let n = 0; n < 300; n++) {
      const r = rand();
      if (r < 0.4) {
        const i = Math.floor(rand() * h.doc.items.length);
        const v = Math.round(rand() * 100);
        h = edit(h, 'set', (d) => {
          if (d.items[i]) d.items[i].value = v;
        });
      } else if (r < 0.6) {
        const id = n + 100;
        h = edit(h, 'add', (d) => {
          d.items.splice(Math.floor(rand() * (d.items.length + 1)), 0, { id, value: 0, tags: [] });
        });
      } else if (r < 0.75 && h.doc.items.length > 1) {
        const i = Math.floor(rand() * h.doc.items.length);
        h = edit(h, 'remove', (d) => {
          d.items.splice(i, 1);
        });
      } else {
        const i = Math.floor(rand() * h.doc.items.length);
        const tag = String(n);
        h = edit(h, 'tag', (d) => {
          d.items[i].tags.push(tag);
        });
      }
      if (h.doc !== states[states.length - 1]) states.push(h.doc);
    }
    expect(h.past.length).toBe(states.length - 1);
    for (let i = states.length - 2; i >= 0; i--) {
      h = undo(h);
      expect(h.doc, `after undo to state ${i}`).toEqual(states[i]);
    }
    expect(canUndo(h)).toBe(false);
    for (let i = 1; i < states.length; i++) {
      h = redo(h);
      expect(h.doc, `after redo to state ${i}`).toEqual(states[i]);
    }
    expect(canRedo(h)).toBe(false);
  });

  it('records patches, not snapshots: untouched parts are shared, typed arrays are kept by reference', () => {
    let h = createHistory(initial());
    const blob = h.doc.blob;
    h = edit(h, 'set', (d) => {
      d.items[0].value = 11;
    });
    expect(h.past[0].patches).toEqual([{ op: 'replace', path: ['items', 0, 'value'], value: 11 }]);
    expect(h.past[0].inverse).toEqual([{ op: 'replace', path: ['items', 0, 'value'], value: 10 }]);
    h = undo(h);
    h = redo(h);
    expect(h.doc.blob, 'typed array is the same object after undo/redo').toBe(blob);
  });

  it('an edit that changes nothing leaves no step', () => {
    let h = createHistory(initial());
    h = edit(h, 'noop', (d) => {
      d.items[0].value = 10;
    });
    expect(h.past.length).toBe(0);
  });

  it('a drag is one undo step whatever the number of updates', () => {
    let h = createHistory(initial());
    const before = h.doc;
    h = beginDrag(h, 'drag value');
    for (let i = 1; i <= 50; i++) {
      h = updateDrag(h, (d) => {
        d.items[1].value = 20 + i;
        d.name = `moved ${i}`;
      });
      expect(h.doc.items[1].value).toBe(20 + i);
    }
    expect(canUndo(h), 'no undo while a drag is open').toBe(false);
    h = commitDrag(h);
    expect(h.past.length).toBe(1);
    expect(h.past[0].label).toBe('drag value');
    expect(h.doc.items[1].value).toBe(70);
    h = undo(h);
    expect(h.doc).toEqual(before);
    h = redo(h);
    expect(h.doc.items[1].value).toBe(70);
    expect(h.doc.name).toBe('moved 50');
  });

  it('updates are absolute: each re-runs against the base, so the preview never accumulates', () => {
    let h = beginDrag(createHistory(initial()), 'inc');
    for (let i = 0; i < 5; i++) h = updateDrag(h, (d) => void (d.items[0].value += 1));
    expect(h.doc.items[0].value, 'five updates of +1 from the base give base+1').toBe(11);
  });

  it('cancel restores the document from before the drag and records nothing', () => {
    let h = createHistory(initial());
    h = edit(h, 'first', (d) => void (d.name = 'first'));
    const before = h.doc;
    h = beginDrag(h, 'drag');
    h = updateDrag(h, (d) => void (d.items[0].value = 99));
    h = cancelDrag(h);
    expect(h.doc).toBe(before);
    expect(h.past.length).toBe(1);
    expect(h.drag).toBeNull();
  });

  it('a drag that ends where it began records nothing', () => {
    let h = beginDrag(createHistory(initial()), 'drag');
    h = updateDrag(h, (d) => void (d.items[0].value = 99));
    h = updateDrag(h, (d) => void (d.items[0].value = 10));
    h = commitDrag(h);
    expect(h.past.length).toBe(0);
  });

  it('an edit clears redo; edits during a drag are refused', () => {
    let h = createHistory(initial());
    h = edit(h, 'a', (d) => void (d.name = 'a'));
    h = undo(h);
    expect(canRedo(h)).toBe(true);
    h = edit(h, 'b', (d) => void (d.name = 'b'));
    expect(canRedo(h)).toBe(false);
    h = beginDrag(h, 'drag');
    expect(() => edit(h, 'c', (d) => void (d.name = 'c'))).toThrow(/while drag "drag"/);
  });

  it('dirty follows the saved state through undo and redo', () => {
    let h = createHistory(initial());
    expect(isDirty(h)).toBe(false);
    h = edit(h, 'a', (d) => void (d.name = 'a'));
    expect(isDirty(h)).toBe(true);
    h = markSaved(h);
    expect(isDirty(h)).toBe(false);
    h = edit(h, 'b', (d) => void (d.name = 'b'));
    expect(isDirty(h)).toBe(true);
    h = undo(h);
    expect(isDirty(h), 'back at the saved state').toBe(false);
    h = undo(h);
    expect(isDirty(h)).toBe(true);
    h = redo(h);
    expect(isDirty(h)).toBe(false);
    // Branching away from the saved state makes it unreachable.
    h = undo(h);
    h = edit(h, 'c', (d) => void (d.name = 'c'));
    h = undo(h);
    expect(isDirty(h), 'the saved state was discarded with the redo branch').toBe(true);
  });
});
