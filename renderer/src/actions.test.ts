import { beforeEach, describe, expect, it } from 'vitest';
import type { ImpulseDocument } from '../../core/document/types';
import { docWithBall } from './test/fixtures';
import { docActions, getDoc } from './state/documentStore';
import { useEphemeral } from './state/ephemeral';
import { activeClip, findTrack, setKey } from './state/keys';
import { deleteSelectedKeys } from './actions';

function docWithKeyedBall(): ImpulseDocument {
  const d = docWithBall();
  const clip = activeClip(d)!;
  setKey(clip, { kind: 'prop', prop: 'ball' }, 'translation', 0, [0, 1, 0]);
  setKey(clip, { kind: 'prop', prop: 'ball' }, 'translation', 10, [0, 2, 0]);
  return d;
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
    const t = findTrack(activeClip(getDoc())!, { kind: 'prop', prop: 'ball' }, 'translation')!;
    expect(t.times.map((x) => Math.round(x * activeClip(getDoc())!.frameRate))).toEqual([0]);
    expect(useEphemeral.getState().status?.text).toBe('Deleted 1 key');
  });
});
