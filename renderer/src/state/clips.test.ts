import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clip, ImpulseDocument, Track } from '../../../core/document/types';
import { createEmptyDocument } from '../../../core/document/defaults';
import { serializeDocument } from '../../../core/document/serialize';
import { parseDocument } from '../../../core/document/parse';
import { sequentialIdGenerator, setIdGenerator, type IdGenerator } from '../../../core/document/ids';
import { docActions, getDoc, useDocStore } from './documentStore';
import { clipActions, clipNameError, deleteClipRecipe, duplicateClipRecipe, newClipRecipe, renameClipRecipe, uniqueClipName } from './clips';
import * as H from './history';
import { activeClip } from './keys';
import { setStatus, useEphemeral } from './ephemeral';
import { mulberry32 } from '../test/random';

function track(seed: number, n: number): Track {
  const rnd = mulberry32(seed);
  const times: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    times.push(i / 30);
    values.push(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5);
  }
  return { target: { kind: 'prop', prop: `prop_${seed}` }, path: 'translation', interpolation: 'linear', times, values };
}

/** Two clips like the sample: walk (0-30 @ 30, one track) and swing (0-60 @ 24, two tracks), swing active. */
function twoClips(): ImpulseDocument {
  const d = createEmptyDocument('t');
  for (const n of [1, 2, 3]) {
    d.props.push({
      id: `prop_${n}`,
      name: `Prop ${n}`,
      transform: { translation: [0, 1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
      mesh: { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) },
      material: { name: 'm', baseColor: [1, 1, 1, 1], metallic: 0, roughness: 1 },
      physics: { mode: 'keyframed', massKg: 1, restitution: 0.5, friction: 0.4 },
      collision: { enabled: true, groups: 1, mask: 1 },
    });
  }
  const walk: Clip = { id: 'clip_walk', name: 'walk', frameRate: 30, startFrame: 0, endFrame: 30, tracks: [track(1, 4)] };
  const swing: Clip = { id: 'clip_swing', name: 'swing', frameRate: 24, startFrame: 5, endFrame: 60, tracks: [track(2, 6), track(3, 3)] };
  d.clips = [walk, swing];
  d.activeClip = 'clip_swing';
  return d;
}

let prevGen: IdGenerator;
beforeEach(() => {
  prevGen = setIdGenerator(sequentialIdGenerator(1));
  docActions.load(twoClips(), null, 't');
});
afterEach(() => setIdGenerator(prevGen));

const past = () => useDocStore.getState().history.past;

describe('uniqueClipName', () => {
  it('returns the base when free, else the first free "base n"', () => {
    expect(uniqueClipName([{ name: 'walk' }], 'clip')).toBe('clip');
    expect(uniqueClipName([{ name: 'clip' }, { name: 'clip 3' }], 'clip')).toBe('clip 2');
    expect(uniqueClipName([{ name: 'clip' }, { name: 'clip 2' }, { name: 'clip 3' }], 'clip')).toBe('clip 4');
  });
});

describe('clip actions: one undo step each, and the clip they touch becomes active', () => {
  it('New clip: empty, the active clip\'s rate and range, a unique name, active; undo/redo restore both documents', () => {
    const before = getDoc();
    clipActions.create();
    const after = getDoc();
    expect(past()).toHaveLength(1);
    expect(past()[0].label).toBe('New clip');
    const c = activeClip(after)!;
    expect(after.clips).toHaveLength(3);
    expect(c.id).toBe(after.activeClip);
    expect(c.id).not.toBe('clip_swing');
    expect({ name: c.name, frameRate: c.frameRate, startFrame: c.startFrame, endFrame: c.endFrame, tracks: c.tracks }).toEqual({ name: 'clip', frameRate: 24, startFrame: 5, endFrame: 60, tracks: [] });
    clipActions.create();
    expect(activeClip(getDoc())!.name).toBe('clip 2');
    expect(new Set(getDoc().clips.map((x) => x.id)).size, 'ids are unique').toBe(4);
    docActions.undo();
    expect(getDoc()).toEqual(after);
    docActions.undo();
    expect(getDoc()).toEqual(before);
    docActions.redo();
    expect(getDoc()).toEqual(after);
  });

  it('Duplicate: a deep copy of the tracks named "<name> copy", right after the original, active; editing the copy leaves the original', () => {
    const before = getDoc();
    clipActions.duplicate();
    const after = getDoc();
    expect(past()).toHaveLength(1);
    expect(after.clips.map((c) => c.name)).toEqual(['walk', 'swing', 'swing copy']);
    const copy = activeClip(after)!;
    const swing = after.clips[1];
    expect(copy.name).toBe('swing copy');
    expect(copy.id).not.toBe(swing.id);
    expect({ ...copy, id: swing.id, name: swing.name }).toEqual(swing);
    for (let i = 0; i < swing.tracks.length; i++) {
      expect(copy.tracks[i]).not.toBe(swing.tracks[i]);
      expect(copy.tracks[i].values).not.toBe(swing.tracks[i].values);
    }
    // A second duplicate of the copy, then of swing again, gets a fresh name.
    docActions.edit('Active clip', (d) => void (d.activeClip = 'clip_swing'));
    clipActions.duplicate();
    expect(activeClip(getDoc())!.name).toBe('swing copy 2');
    // Keying on the copy does not move the original's keys.
    docActions.edit('key', (d) => void (activeClip(d as ImpulseDocument)!.tracks[0].values[0] = 99));
    expect(getDoc().clips.find((c) => c.id === 'clip_swing')!.tracks[0].values[0]).toBe(before.clips[1].tracks[0].values[0]);
    docActions.undo();
    docActions.undo();
    docActions.undo();
    docActions.undo();
    expect(getDoc()).toEqual(before);
  });

  it('Rename: trims, refuses empty and duplicate names with a message and no undo step; one step when accepted', () => {
    expect(clipActions.rename('clip_swing', '   ')).toBe('A clip needs a name.');
    expect(clipActions.rename('clip_swing', 'walk')).toBe('Another clip is already named "walk".');
    expect(clipActions.rename('clip_swing', ' walk ')).toMatch(/already named "walk"/);
    expect(past()).toHaveLength(0);
    expect(clipActions.rename('clip_swing', 'swing')).toBeNull();
    expect(past(), 'the same name changes nothing and adds no step').toHaveLength(0);
    expect(clipActions.rename('clip_swing', '  bat swing ')).toBeNull();
    expect(getDoc().clips[1].name).toBe('bat swing');
    expect(past()).toHaveLength(1);
    expect(getDoc().activeClip).toBe('clip_swing');
    docActions.undo();
    expect(getDoc().clips[1].name).toBe('swing');
    expect(() => useDocStore.setState({ history: H.edit(useDocStore.getState().history, 'x', (d) => renameClipRecipe(d, 'clip_swing', '')) })).toThrow(/needs a name/);
  });

  it('Delete: the next clip becomes active (the previous for the last one); the last clip is refused; undo brings it back active', () => {
    const before = getDoc();
    docActions.edit('Active clip', (d) => void (d.activeClip = 'clip_walk'));
    const withWalk = getDoc();
    expect(clipActions.remove()).toBeNull();
    expect(getDoc().clips.map((c) => c.id)).toEqual(['clip_swing']);
    expect(getDoc().activeClip, 'the clip after walk').toBe('clip_swing');
    expect(clipActions.remove()).toMatch(/last clip cannot be deleted/);
    expect(getDoc().clips).toHaveLength(1);
    expect(past()).toHaveLength(2);
    docActions.undo();
    expect(getDoc()).toEqual(withWalk);
    docActions.undo();
    expect(getDoc()).toEqual(before);
    // swing is last in the list: deleting it makes walk (before it) active.
    expect(clipActions.remove()).toBeNull();
    expect(getDoc().activeClip).toBe('clip_walk');
  });

  it('recipes against a fresh history agree with the store, and every state survives save and reopen', () => {
    let h = H.createHistory(twoClips());
    const states: ImpulseDocument[] = [h.doc];
    h = H.edit(h, 'New clip', (d) => void newClipRecipe(d));
    states.push(h.doc);
    h = H.edit(h, 'Duplicate clip', (d) => void duplicateClipRecipe(d));
    states.push(h.doc);
    h = H.edit(h, 'Rename clip', (d) => renameClipRecipe(d, h.doc.activeClip, 'swing 2'));
    states.push(h.doc);
    h = H.edit(h, 'Delete clip', (d) => deleteClipRecipe(d));
    states.push(h.doc);
    expect(h.past.map((e) => e.label)).toEqual(['New clip', 'Duplicate clip', 'Rename clip', 'Delete clip']);
    for (let i = states.length - 1; i > 0; i--) {
      expect(h.doc).toEqual(states[i]);
      h = H.undo(h);
    }
    expect(h.doc).toEqual(states[0]);
    for (const s of states) {
      const back = parseDocument(serializeDocument(s));
      expect(back.clips).toEqual(s.clips);
      expect(back.activeClip).toBe(s.activeClip);
    }
  });

  it('clipNameError checks against the other clips only', () => {
    const d = twoClips();
    expect(clipNameError(d, 'clip_walk', 'walk')).toBeNull();
    expect(clipNameError(d, 'clip_walk', 'swing')).not.toBeNull();
  });
});

describe('clip actions say what they did (the status line kept the message before: a clip vanished without a word)', () => {
  const status = () => useEphemeral.getState().status;
  it('new, duplicate, rename and delete each name the clips', () => {
    setStatus('before');
    clipActions.create();
    expect(status()?.text).toBe('New clip "clip": empty, frames 5–60 at 24 fps');
    docActions.edit('Active clip', (d) => void (d.activeClip = 'clip_swing'));
    clipActions.duplicate();
    expect(status()?.text).toBe('Duplicated "swing" as "swing copy", now shown');
    const copy = getDoc().activeClip;
    setStatus('before');
    expect(clipActions.rename(copy, 'swing copy')).toBeNull();
    expect(status()?.text, 'an unchanged name says nothing').toBe('before');
    clipActions.rename(copy, ' hit ');
    expect(status()?.text).toBe('Renamed clip "swing copy" to "hit"');
    clipActions.remove();
    expect(activeClip(getDoc())!.name).toBe('clip');
    expect(status()).toMatchObject({ text: 'Deleted clip "hit"; "clip" is shown (Undo brings it back)', error: false });
  });

  it('what the edit made others say follows the message (a suggestion discarded with its clip)', () => {
    const off = useDocStore.subscribe(() => setStatus('Suggestion for clip "swing" discarded: another clip is active now'));
    try {
      clipActions.remove();
    } finally {
      off();
    }
    expect(status()?.text).toBe('Deleted clip "swing"; "walk" is shown (Undo brings it back). Suggestion for clip "swing" discarded: another clip is active now');
  });
});
