import { beforeEach, describe, expect, it } from 'vitest';
import type { ImpulseDocument } from '../../core/document/types';
import { docWithBall } from './test/fixtures';
import { serializeDocument } from '../../core/document/serialize';
import { docActions, getDoc, useDocStore } from './state/documentStore';
import { useEphemeral } from './state/ephemeral';
import { activeClip, findTrack, setKey } from './state/keys';
import { copySelectedKeys, cutSelectedKeys, deleteSelectedKeys, selectAllKeys, pasteCopiedKeys, pastePose, reportUnkeyedPose, setInterpolationOnSelection, setTangentsOnSelection } from './actions';
import { usePrefs } from './state/preferences';
import { undoRedo } from './commands';

/** The ball's track target (the fixture's prop 'ball'). */
const BALL = { kind: 'prop', prop: 'ball' } as const;

function docWithKeyedBall(): ImpulseDocument {
  const d = docWithBall();
  const clip = activeClip(d)!;
  setKey(clip, BALL, 'translation', 0, [0, 1, 0]);
  setKey(clip, BALL, 'translation', 10, [0, 2, 0]);
  return d;
}

/** The keyed ball plus a rotation key on 10 (keys on two channels there), loaded, nothing selected or copied, playhead on 0. */
function loadBallWithRotationKey(): void {
  const d = docWithKeyedBall();
  setKey(activeClip(d)!, BALL, 'rotation', 10, [0, 0, 0, 1]);
  docActions.load(d, null, 't');
  useEphemeral.setState({ selection: null, selectedKeys: [], keyClipboard: null, frame: 0, status: null });
}

describe('delete keys', () => {
  beforeEach(() => {
    docActions.load(docWithKeyedBall(), null, 't');
    useEphemeral.setState({ selection: null, selectedKeys: [], frame: 10, status: null });
  });

  it('with nothing selected it changes nothing and says what to select (it was silent)', () => {
    const before = getDoc();
    deleteSelectedKeys();
    expect(getDoc()).toBe(before);
    expect(useEphemeral.getState().status?.text).toBe('Select keys in the dope sheet, or an object with a key on this frame, to delete keys');
  });

  it('with the ball selected it deletes the ball key on the playhead frame, one undo step', () => {
    useEphemeral.setState({ selection: { kind: 'prop', id: 'ball' } });
    deleteSelectedKeys();
    const t = findTrack(activeClip(getDoc())!, BALL, 'translation')!;
    expect(t.times.map((x) => Math.round(x * activeClip(getDoc())!.frameRate))).toEqual([0]);
    expect(useEphemeral.getState().status?.text).toBe('Deleted 1 key of Ball');
  });
});

describe('copy and paste keys (store, status line, undo)', () => {
  beforeEach(loadBallWithRotationKey);
  const status = () => useEphemeral.getState().status;

  it('copies the selected keys and says how many on how many channels', () => {
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 0 }, { target: BALL, frame: 10 }] });
    copySelectedKeys();
    expect(status()?.text).toBe('Copied 3 keys on 2 channels');
    expect(useEphemeral.getState().keyClipboard?.keyCount).toBe(3);
  });

  it('without selected keys it copies nothing and says how to select', () => {
    copySelectedKeys();
    expect(useEphemeral.getState().keyClipboard).toBeNull();
    expect(status()?.text).toContain('Select keys in the dope sheet');
  });

  it('pastes at the playhead as one undo step named after the frame, selecting the pasted keys', () => {
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 0 }, { target: BALL, frame: 10 }] });
    copySelectedKeys();
    useEphemeral.setState({ frame: 30 });
    const before = serializeDocument(getDoc());
    pasteCopiedKeys();
    expect(status()?.text).toBe('Pasted 3 keys on 2 channels at frame 30');
    const h = useDocStore.getState().history;
    expect(h.past.map((e) => e.label)).toEqual(['Paste keys at 30']);
    const t = findTrack(activeClip(getDoc())!, BALL, 'translation')!;
    expect(t.times.map((x) => Math.round(x * 30))).toEqual([0, 10, 30, 40]);
    expect(useEphemeral.getState().selectedKeys.map((k) => k.frame).sort((a, b) => a - b)).toEqual([30, 40]);
    docActions.undo();
    expect(serializeDocument(getDoc())).toBe(before);
  });

  it('refuses keys that would land past the clip end, says where the paste fits, and changes nothing', () => {
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 0 }, { target: BALL, frame: 10 }] });
    copySelectedKeys();
    const end = activeClip(getDoc())!.endFrame;
    useEphemeral.setState({ frame: end - 5 });
    const before = getDoc();
    pasteCopiedKeys();
    expect(getDoc()).toBe(before);
    expect(useDocStore.getState().history.past).toHaveLength(0);
    expect(status()?.error).toBe(true);
    expect(status()?.text).toContain(`put the playhead on frame 0–${end - 10}`);
  });

  it('a key between frames that would land before the clip start is refused too (it rounds onto the start frame)', () => {
    // An impact-like key at 9.6 shows on frame 10: copied with frame 10 it sits 0.4 frames before it.
    docActions.edit('impact', (d) => setKey(activeClip(d as ImpulseDocument)!, BALL, 'scale', 9.6, [1, 1, 1]));
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 10 }] });
    copySelectedKeys();
    useEphemeral.setState({ frame: 0 });
    const before = getDoc();
    pasteCopiedKeys();
    expect(getDoc()).toBe(before);
    expect(status()?.text).toContain('frames -0.40–0');
    expect(status()?.text).toContain('put the playhead on frame 1–120');
  });

  it('with nothing copied it says how to copy keys', () => {
    pasteCopiedKeys();
    expect(status()?.text).toContain('No keys copied');
  });
});

describe('interpolation and tangents say what they changed', () => {
  beforeEach(() => {
    const d = docWithKeyedBall();
    d.props.push({ ...structuredClone(d.props[0]), id: 'crate', name: 'Crate' });
    docActions.load(d, null, 't');
    useEphemeral.setState({ selection: null, selectedKeys: [], frame: 10, status: null });
  });
  const interp = () => findTrack(activeClip(getDoc())!, BALL, 'translation')!.interpolation;

  it('selected keys win over the object picked afterwards, and the status line names whose channels changed', () => {
    // Keys of the ball picked in the dope sheet, then the crate picked in the outliner (the ball's row may be scrolled away).
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 10 }], selection: { kind: 'prop', id: 'crate' } });
    setInterpolationOnSelection('step');
    expect(interp()).toBe('step');
    expect(useEphemeral.getState().status?.text).toBe('Interpolation step: 1 channel of Ball (the selected keys)');
    setTangentsOnSelection('flat');
    expect(useEphemeral.getState().status?.text).toBe('Tangents flat: 1 key of Ball (the selected keys)');
  });

  it('a choice that changes nothing says so instead of naming the interpolation as if it were applied', () => {
    useEphemeral.setState({ selection: { kind: 'prop', id: 'ball' } });
    const steps = useDocStore.getState().history.past.length;
    setInterpolationOnSelection('linear');
    expect(interp()).toBe('linear');
    expect(useEphemeral.getState().status?.text).toBe('No change: the channels of Ball are already linear');
    expect(useDocStore.getState().history.past.length, 'no undo step').toBe(steps);
    useEphemeral.setState({ selection: { kind: 'prop', id: 'crate' } });
    setInterpolationOnSelection('step');
    expect(useEphemeral.getState().status?.text).toBe('No change: there are no keys of Crate in this clip');
    useEphemeral.setState({ selection: { kind: 'prop', id: 'ball' } });
    setInterpolationOnSelection('cubic');
    expect(interp()).toBe('cubic');
    expect(useEphemeral.getState().status?.text).toBe('Interpolation cubic: 1 channel of Ball');
  });
});

describe('Ctrl+V away from the dope sheet with keys copied', () => {
  beforeEach(() => {
    docActions.load(docWithKeyedBall(), null, 't');
    useEphemeral.setState({ selection: { kind: 'prop', id: 'ball' }, selectedKeys: [{ target: BALL, frame: 10 }], frame: 5, status: null, clipboard: null, keyClipboard: null });
  });

  it('says the keys paste in the dope sheet instead of "Nothing copied", and changes nothing', () => {
    copySelectedKeys();
    const before = getDoc();
    pastePose();
    expect(getDoc()).toBe(before);
    expect(useEphemeral.getState().status?.text).toBe('No pose copied. The 1 key on 1 channel copied in the dope sheet paste with Ctrl+V there (click the sheet first) or Edit > Paste Keys at Playhead');
  });

  it('with nothing copied at all it says how to copy', () => {
    pastePose();
    expect(useEphemeral.getState().status?.text).toMatch(/^Nothing copied: select a character, bone or prop and press Ctrl\+C/);
  });
});

describe('a pose edit that is not keyed says it changed the rest pose', () => {
  beforeEach(() => {
    const d = docWithKeyedBall();
    d.clips.push({ ...structuredClone(d.clips[0]), id: 'other', name: 'other' });
    docActions.load(d, null, 't');
    useEphemeral.setState({ status: null });
    usePrefs.setState({ autoKey: false });
  });

  it('names the object and the channel, and that other clips show it', () => {
    reportUnkeyedPose([{ target: BALL, path: 'rotation' }]);
    expect(useEphemeral.getState().status?.text).toBe('Not keyed: Ball rotation changed the rest pose (every clip without keys for it shows it); Auto-key (N) or S keys it on this frame');
  });

  it('says nothing for keyed channels, or with Auto-key on', () => {
    reportUnkeyedPose([{ target: BALL, path: 'translation' }]);
    expect(useEphemeral.getState().status).toBeNull();
    usePrefs.setState({ autoKey: true });
    reportUnkeyedPose([{ target: BALL, path: 'rotation' }]);
    expect(useEphemeral.getState().status).toBeNull();
    usePrefs.setState({ autoKey: false });
  });
});

describe('Delete says whose keys it deleted', () => {
  beforeEach(() => {
    const d = docWithKeyedBall();
    d.props.push({ ...structuredClone(d.props[0]), id: 'crate', name: 'Crate' });
    docActions.load(d, null, 't');
    useEphemeral.setState({ selection: null, selectedKeys: [], frame: 10, status: null });
  });

  it("selected keys of the ball, the crate picked afterwards: the ball's key goes, and the status line says so", () => {
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 10 }], selection: { kind: 'prop', id: 'crate' } });
    deleteSelectedKeys();
    expect(findTrack(activeClip(getDoc())!, BALL, 'translation')!.times.length).toBe(1);
    expect(useEphemeral.getState().status?.text).toBe('Deleted 1 key of Ball (the selected keys)');
  });

  it('the crate picked, no key on this frame: says so instead of "No keys to delete"', () => {
    useEphemeral.setState({ selection: { kind: 'prop', id: 'crate' } });
    deleteSelectedKeys();
    expect(useEphemeral.getState().status?.text).toBe('No keys of Crate to delete on frame 10');
  });
});

describe('cut and select all keys (dope sheet)', () => {
  beforeEach(loadBallWithRotationKey);
  const status = () => useEphemeral.getState().status;
  const ballFrames = (path: 'translation' | 'rotation') => findTrack(activeClip(getDoc())!, BALL, path)?.times.map((x) => Math.round(x * 30)) ?? [];

  it('cut copies the selected keys and deletes them as one undo step; paste brings them back elsewhere', () => {
    const before = serializeDocument(getDoc());
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 10 }] });
    cutSelectedKeys();
    expect(status()?.text).toBe('Cut 2 keys of Ball (the selected keys)');
    expect(ballFrames('translation')).toEqual([0]);
    expect(ballFrames('rotation')).toEqual([]);
    expect(useDocStore.getState().history.past.map((e) => e.label)).toEqual(['Cut keys']);
    expect(useEphemeral.getState().keyClipboard?.keyCount).toBe(2);
    useEphemeral.setState({ frame: 20 });
    pasteCopiedKeys();
    expect(ballFrames('translation')).toEqual([0, 20]);
    docActions.undo();
    docActions.undo();
    expect(serializeDocument(getDoc())).toBe(before);
  });

  it('cut without selected keys changes nothing, keeps the clipboard and says how to select', () => {
    const before = getDoc();
    cutSelectedKeys();
    expect(getDoc()).toBe(before);
    expect(useEphemeral.getState().keyClipboard).toBeNull();
    expect(status()?.text, 'a cut, not a copy').toBe('Select keys in the dope sheet to cut them (click, Ctrl+click or drag a box)');
  });

  it('select all picks every key in the clip range, on every row, and nothing outside the range', () => {
    docActions.edit('outside', (d) => {
      const c = activeClip(d as ImpulseDocument)!;
      c.startFrame = 5;
    });
    selectAllKeys();
    const picked = useEphemeral.getState().selectedKeys.map((k) => `${k.target.kind}:${k.frame}`).sort();
    expect(picked).toEqual(['prop:10']); // frame 0 lies before Start (5); the ball's row has one diamond at 10
    // That diamond holds a translation and a rotation key: the count Delete gives next.
    expect(status()?.text).toBe('Selected 2 keys on 1 dope sheet row of ' + activeClip(getDoc())!.name);
    deleteSelectedKeys();
    expect(status()?.text, 'the same count as the selection').toMatch(/^Deleted 2 keys /);
    expect(ballFrames('translation')).toEqual([0]);
  });
});

describe('undo and redo give back the key selection of key edits', () => {
  beforeEach(() => {
    docActions.load(docWithKeyedBall(), null, 't');
    useEphemeral.setState({ selection: null, selectedKeys: [], keyClipboard: null, frame: 0, status: null });
  });
  const picked = () => useEphemeral.getState().selectedKeys.map((k) => k.frame).sort((a, b) => a - b);

  it('a key move (a drag): undo selects the keys at their old frames, redo at the new ones', () => {
    const before = [{ target: BALL, frame: 10 }];
    useEphemeral.setState({ selectedKeys: before });
    docActions.beginDrag('Move keys');
    docActions.updateDrag((d) => {
      const t = findTrack(activeClip(d as ImpulseDocument)!, BALL, 'translation')!;
      t.times[1] = 14 / 30;
    });
    const moved = [{ target: BALL, frame: 14 }];
    docActions.commitDrag({ before, after: moved });
    useEphemeral.setState({ selectedKeys: moved });
    undoRedo(-1);
    expect(picked(), 'undo: the key is selected where it is again').toEqual([10]);
    undoRedo(1);
    expect(picked(), 'redo: selected at 14').toEqual([14]);
  });

  it('delete: undo brings the deleted keys back selected', () => {
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 0 }, { target: BALL, frame: 10 }] });
    deleteSelectedKeys();
    expect(picked()).toEqual([]);
    undoRedo(-1);
    expect(picked()).toEqual([0, 10]);
    undoRedo(1);
    expect(picked()).toEqual([]);
  });

  it('paste: undo gives back the selection before it, redo selects the pasted keys', () => {
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 10 }] });
    copySelectedKeys();
    useEphemeral.setState({ frame: 20 });
    pasteCopiedKeys();
    expect(picked()).toEqual([20]);
    undoRedo(-1);
    expect(picked()).toEqual([10]);
    undoRedo(1);
    expect(picked()).toEqual([20]);
  });

  it('an edit that is not a key edit leaves the key selection to the pruning (keys that still exist stay selected)', () => {
    useEphemeral.setState({ selectedKeys: [{ target: BALL, frame: 10 }] });
    docActions.edit('rename', (d) => {
      (d as ImpulseDocument).props[0].name = 'Renamed';
    });
    undoRedo(-1);
    expect(picked()).toEqual([10]);
  });
});
