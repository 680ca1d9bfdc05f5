import { afterEach, describe, expect, it } from 'vitest';
import { createEmptyDocument } from './defaults';
import { newId, newUniqueId, sequentialIdGenerator, setIdGenerator } from './ids';
import { parseDocument } from './parse';
import { serializeDocument } from './serialize';
import { validateDocument } from './validate';

afterEach(() => {
  setIdGenerator(null);
});

describe('newId', () => {
  it('makes prefixed ids, 10000 of them without a collision', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 10000; i++) {
      const id = newId('prop');
      expect(id).toMatch(/^prop_[0-9a-z]{8}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(10000);
  });

  it('uses an injected generator, and restores the random one', () => {
    const previous = setIdGenerator(sequentialIdGenerator());
    expect([newId('clip'), newId('prop'), newId('prop')]).toEqual(['clip_1', 'prop_2', 'prop_3']);
    expect(setIdGenerator(previous)).not.toBe(previous);
    expect(newId('clip')).toMatch(/^clip_[0-9a-z]{8}$/);
  });

  it('newUniqueId avoids taken ids and gives up on a constant generator', () => {
    setIdGenerator(sequentialIdGenerator());
    expect(newUniqueId('p', new Set(['p_1', 'p_2']))).toBe('p_3');
    setIdGenerator(() => 'same');
    expect(() => newUniqueId('p', new Set(['same']))).toThrow(/could not make a unique id/);
  });
});

describe('createEmptyDocument', () => {
  it('is valid, named, has one active empty clip, and survives a round trip', () => {
    setIdGenerator(sequentialIdGenerator(7));
    const doc = createEmptyDocument('Scene');
    expect(() => validateDocument(doc)).not.toThrow();
    expect(doc.name).toBe('Scene');
    expect(doc.clips).toHaveLength(1);
    expect(doc.activeClip).toBe('clip_7');
    expect(doc.clips[0].frameRate).toBeGreaterThan(0);
    expect(parseDocument(serializeDocument(doc))).toEqual(doc);
    expect(createEmptyDocument().name).toBe('Untitled');
  });

  it('returns independent documents', () => {
    const a = createEmptyDocument();
    const b = createEmptyDocument();
    a.gravity[1] = 0;
    a.check.groupNames.push('x');
    expect(b.gravity[1]).toBe(-9.81);
    expect(b.check.groupNames).toEqual(['default']);
  });
});
