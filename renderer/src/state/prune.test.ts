import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from '../../../core/document/parse';
import type { ImpulseDocument } from '../../../core/document/types';
import { docActions, getDoc } from './documentStore';
import { useEphemeral } from './ephemeral';
import { activeClip, keyFramesOf, moveKeys, setKey } from './keys';
import { deleteClipRecipe, duplicateClipRecipe } from './clips';
import { installPruning, pruneEphemeral } from './prune';
import { findLimbChains } from '../scene/limbs';

const sample = () => parseDocument(readFileSync(new URL('../../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));
const CHAR = 'char_mannequin';

/** Each test starts from the sample with nothing selected and the pruning installed (removed after it). */
function withPrunedSample(): void {
  let off: () => void = () => undefined;
  beforeEach(() => {
    docActions.load(sample(), null, 'sample');
    useEphemeral.setState({ selection: null, hover: null, selectedKeys: [] });
    off = installPruning();
  });
  afterEach(() => off());
}

describe('ephemeral state follows the document', () => {
  withPrunedSample();

  it('undoing the import of the selected character clears the selection (and the hover); redo does not bring back a stale one', () => {
    const copy = structuredClone(getDoc().characters[0]);
    copy.id = 'char_imported';
    docActions.edit('Import mannequin.glb', (d) => void d.characters.push(copy as never));
    useEphemeral.setState({ selection: { kind: 'joint', character: 'char_imported', joint: 11 }, hover: { kind: 'character', id: 'char_imported' } });
    docActions.undo();
    expect(useEphemeral.getState().selection, 'the selected bone went with its character').toBeNull();
    expect(useEphemeral.getState().hover).toBeNull();
    docActions.redo();
    expect(useEphemeral.getState().selection).toBeNull();
  });

  it('a selection of something that is still there is left alone, whatever else changes', () => {
    const chains = findLimbChains(getDoc().characters[0].skeleton);
    for (const selection of [
      { kind: 'prop', id: 'prop_ball' },
      { kind: 'character', id: CHAR },
      { kind: 'joint', character: CHAR, joint: 66 },
      { kind: 'ik', character: CHAR, chain: chains.length - 1 },
    ] as const) {
      useEphemeral.setState({ selection });
      docActions.edit('Friction', (d) => void (d.props[0].physics.friction += 0.01));
      expect(useEphemeral.getState().selection, JSON.stringify(selection)).toEqual(selection);
    }
    const doc = getDoc();
    expect(pruneEphemeral(doc, { selection: { kind: 'joint', character: CHAR, joint: 67 }, hover: null, selectedKeys: [] }), 'joint 67 of a 67-joint skeleton').toEqual({ selection: null });
    expect(pruneEphemeral(doc, { selection: { kind: 'ik', character: CHAR, chain: chains.length }, hover: null, selectedKeys: [] })).toEqual({ selection: null });
    expect(pruneEphemeral(doc, { selection: { kind: 'prop', id: 'prop_gone' }, hover: null, selectedKeys: [] })).toEqual({ selection: null });
  });

  it('selected keys that an undo removed are dropped; the ones still there stay selected', () => {
    const ball = { kind: 'prop', prop: 'prop_ball' } as const;
    docActions.edit('Set key at 7', (d) => {
      setKey(activeClip(d as ImpulseDocument)!, ball, 'translation', 7, [0, 1, 0]);
      setKey(activeClip(d as ImpulseDocument)!, ball, 'translation', 9, [0, 1, 0]);
    });
    docActions.edit('Set key at 12', (d) => setKey(activeClip(d as ImpulseDocument)!, ball, 'translation', 12, [0, 1, 0]));
    useEphemeral.setState({ selectedKeys: [{ target: ball, frame: 7 }, { target: ball, frame: 12 }] });
    docActions.undo();
    expect(useEphemeral.getState().selectedKeys, 'frame 12 is gone, frame 7 stays').toEqual([{ target: ball, frame: 7 }]);
  });

  it('a key drag in progress does not lose the selected keys (its preview moves them); the commit prunes', () => {
    const ball = { kind: 'prop', prop: 'prop_ball' } as const;
    docActions.edit('Set key at 7', (d) => setKey(activeClip(d as ImpulseDocument)!, ball, 'translation', 7, [0, 1, 0]));
    useEphemeral.setState({ selectedKeys: [{ target: ball, frame: 7 }] });
    docActions.beginDrag('Move keys');
    docActions.updateDrag((d) => moveKeys(activeClip(d as ImpulseDocument)!, ball, [7], 3));
    expect(useEphemeral.getState().selectedKeys).toEqual([{ target: ball, frame: 7 }]);
    docActions.commitDrag();
    expect(useEphemeral.getState().selectedKeys, 'no key left on frame 7').toEqual([]);
  });
});

describe('selected keys belong to the active clip', () => {
  withPrunedSample();
  const hips = { kind: 'joint', character: CHAR, joint: 0 } as const;
  const picked = [{ target: hips, frame: 3 }, { target: hips, frame: 6 }];

  it('another clip with keys on the same frames (a duplicate) does not inherit the selection; neither does its undo', () => {
    docActions.edit('Duplicate clip', (d) => void duplicateClipRecipe(d));
    useEphemeral.setState({ selectedKeys: picked });
    // The copy has the same keys: switching back to the original keeps nothing selected there.
    docActions.edit('Active clip', (d) => void (d.activeClip = 'clip_swing'));
    expect(activeClip(getDoc())!.id).toBe('clip_swing');
    expect(useEphemeral.getState().selectedKeys, 'keys picked in the copy are not selected in swing').toEqual([]);
    useEphemeral.setState({ selectedKeys: picked });
    docActions.undo();
    expect(activeClip(getDoc())!.name).toBe('swing copy');
    expect(useEphemeral.getState().selectedKeys, 'undoing the switch goes back to a clip where nothing was picked').toEqual([]);
  });

  it('deleting the active clip clears its selected keys: the next clip has keys on those frames but none of them is picked', () => {
    docActions.edit('Duplicate clip', (d) => void duplicateClipRecipe(d));
    useEphemeral.setState({ selectedKeys: picked });
    docActions.edit('Delete clip', (d) => deleteClipRecipe(d));
    const now = activeClip(getDoc())!;
    expect(now.id, 'the clip after the copy').not.toMatch(/copy/);
    expect(keyFramesOf(now, hips)).toEqual(expect.arrayContaining([3, 6]));
    expect(useEphemeral.getState().selectedKeys).toEqual([]);
  });

  it('edits inside one clip keep the selection', () => {
    useEphemeral.setState({ selectedKeys: picked });
    docActions.edit('Friction', (d) => void (d.props[0].physics.friction += 0.01));
    docActions.edit('Set key at 40', (d) => setKey(activeClip(d as ImpulseDocument)!, { kind: 'prop', prop: 'prop_ball' }, 'translation', 40, [0, 1, 0]));
    docActions.undo();
    expect(useEphemeral.getState().selectedKeys).toEqual(picked);
  });
});

describe('a frame rate change renumbers the selected keys and the play range with the keys', () => {
  withPrunedSample();
  const hips = { kind: 'joint', character: CHAR, joint: 0 } as const;
  const setRate = (fps: number) =>
    docActions.edit('Frame rate', (d) => {
      const c = activeClip(d as ImpulseDocument)!;
      const k = fps / c.frameRate;
      c.startFrame = Math.round(c.startFrame * k);
      c.endFrame = Math.round(c.endFrame * k);
      c.frameRate = fps;
    });

  it('30 -> 24 fps: the keys picked on 24 and 30 are picked on 19 and 24 (where they are now), the range 24-30 becomes 19-24; undo gives both back', () => {
    const clip = activeClip(getDoc())!;
    expect(clip.frameRate).toBe(30);
    useEphemeral.setState({ selectedKeys: [{ target: hips, frame: 24 }, { target: hips, frame: 30 }], playRanges: [{ clipId: clip.id, from: 24, to: 30 }] });
    // The key picked on 30 (time 1 s) is on 24 at 24 fps: with its old number the selection named it and dropped the one picked on 24.
    setRate(24);
    expect(keyFramesOf(activeClip(getDoc())!, hips)).toEqual(expect.arrayContaining([19, 24]));
    expect(useEphemeral.getState().selectedKeys, 'the same two keys, renumbered').toEqual([{ target: hips, frame: 19 }, { target: hips, frame: 24 }]);
    expect(useEphemeral.getState().playRanges, 'the same 0.8 s to 1 s').toEqual([{ clipId: clip.id, from: 19, to: 24 }]);
    docActions.undo();
    expect(useEphemeral.getState().selectedKeys).toEqual([{ target: hips, frame: 24 }, { target: hips, frame: 30 }]);
    expect(useEphemeral.getState().playRanges).toEqual([{ clipId: clip.id, from: 24, to: 30 }]);
  });

  it('a range on another clip is left to that clip\'s own frame rate', () => {
    const clip = activeClip(getDoc())!;
    useEphemeral.setState({ playRanges: [{ clipId: 'clip_walk', from: 6, to: 12 }, { clipId: clip.id, from: 24, to: 30 }] });
    setRate(24);
    expect(useEphemeral.getState().playRanges).toEqual([{ clipId: 'clip_walk', from: 6, to: 12 }, { clipId: clip.id, from: 19, to: 24 }]);
  });
});
