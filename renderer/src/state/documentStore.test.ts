import { beforeEach, describe, expect, it } from 'vitest';
import type { ImpulseDocument } from '../../../core/document/types';
import { docWithBall } from '../test/fixtures';
import { docActions, getDoc, useDocStore } from './documentStore';
import { isDirty } from './history';
import { activeClip, findTrack, writeChannel } from './keys';

describe('document store', () => {
  beforeEach(() => docActions.load(docWithBall(), null, 't'));

  it('a gizmo-style drag (many updates) is one undo step; undo and redo restore both ends', () => {
    const start = getDoc();
    docActions.beginDrag('Move prop');
    for (let i = 1; i <= 30; i++) docActions.updateDrag((d) => writeChannel(d as ImpulseDocument, { kind: 'prop', prop: 'ball' }, 'translation', 0, [i / 10, 1, 0], false));
    expect(isDirty(useDocStore.getState().history), 'an open drag counts as unsaved').toBe(true);
    docActions.commitDrag();
    const end = getDoc();
    expect(end.props[0].transform.translation).toEqual([3, 1, 0]);
    expect(useDocStore.getState().history.past).toHaveLength(1);
    docActions.undo();
    expect(getDoc()).toEqual(start);
    docActions.redo();
    expect(getDoc()).toEqual(end);
  });

  it('Escape (cancelDrag) puts back the document from pointer-down', () => {
    const start = getDoc();
    docActions.beginDrag('Move prop');
    docActions.updateDrag((d) => void (d.props[0].transform.translation = [5, 5, 5]));
    expect(docActions.cancelDrag()).toBe(true);
    expect(getDoc()).toBe(start);
    expect(useDocStore.getState().history.past).toHaveLength(0);
    expect(docActions.cancelDrag(), 'nothing left to cancel').toBe(false);
  });

  it('posing writes rest values, keys tracked channels, and with auto-key creates tracks', () => {
    const target = { kind: 'prop', prop: 'ball' } as const;
    docActions.edit('pose', (d) => writeChannel(d as ImpulseDocument, target, 'translation', 10, [1, 2, 3], false));
    expect(getDoc().props[0].transform.translation, 'untracked, auto-key off: rest changes').toEqual([1, 2, 3]);
    expect(findTrack(activeClip(getDoc())!, target, 'translation')).toBeUndefined();
    docActions.edit('pose', (d) => writeChannel(d as ImpulseDocument, target, 'rotation', 10, [0, 0, 0.6, 0.8], true));
    const rot = findTrack(activeClip(getDoc())!, target, 'rotation')!;
    expect(rot.times, 'auto-key: a key at frame 10').toEqual([10 / activeClip(getDoc())!.frameRate]);
    expect(getDoc().props[0].transform.rotation, 'rest untouched').toEqual([0, 0, 0, 1]);
    docActions.edit('pose', (d) => writeChannel(d as ImpulseDocument, target, 'rotation', 20, [0, 0, 0, 1], false));
    expect(findTrack(activeClip(getDoc())!, target, 'rotation')!.times.length, 'tracked channel: keyed even without auto-key').toBe(2);
  });

  it('saving marks the state clean; further edits and undo back to it follow', () => {
    docActions.edit('mass', (d) => void (d.props[0].physics.massKg = 1));
    docActions.markSaved('/tmp/x.impulse', 'x');
    expect(isDirty(useDocStore.getState().history)).toBe(false);
    docActions.edit('mass', (d) => void (d.props[0].physics.massKg = 2));
    expect(isDirty(useDocStore.getState().history)).toBe(true);
    docActions.undo();
    expect(isDirty(useDocStore.getState().history)).toBe(false);
    docActions.load(getDoc(), null, 'recovered', true);
    expect(isDirty(useDocStore.getState().history), 'recovered documents start dirty').toBe(true);
  });
});
