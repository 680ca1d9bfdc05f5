/**
 * Shortcut routing: Ctrl+C, Ctrl+V and Home act on the dope sheet while it has
 * keyboard focus (and, for Ctrl+C / Ctrl+V, keys to act on), and keep their
 * old meaning (copy / paste the pose, first frame) everywhere else.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS, commandForKey, runCommand, selectionLabel } from './commands';
import { useEphemeral } from './state/ephemeral';
import { docActions } from './state/documentStore';
import { docWithBall } from './test/fixtures';
import type { KeyClipboard } from './state/keyClipboard';

const key = (k: string, ctrl = false): KeyboardEvent => ({ key: k, code: '', ctrlKey: ctrl, metaKey: false, altKey: false, shiftKey: false }) as KeyboardEvent;
const g = globalThis as { document?: unknown };

/** Focus inside the dope sheet (`[data-dopesheet]`) or elsewhere, as `document.activeElement.closest` reports it. */
function focusIn(sheet: boolean): void {
  g.document = { activeElement: { closest: (sel: string) => (sheet && sel === '[data-dopesheet]' ? {} : null) } };
}

const CLIPBOARD: KeyClipboard = { sourceClip: 'c', frameRate: 30, baseFrame: 0, channels: [], keyCount: 0 };

describe('shortcuts shared by the dope sheet and the rest of the app', () => {
  beforeEach(() => useEphemeral.setState({ selectedKeys: [], keyClipboard: null }));
  afterEach(() => delete g.document);

  it('Ctrl+C copies keys only with the dope sheet focused and keys selected', () => {
    focusIn(true);
    expect(commandForKey(key('c', true)), 'sheet focused, no keys selected').toBe('copyPose');
    useEphemeral.setState({ selectedKeys: [{ target: { kind: 'prop', prop: 'p' }, frame: 3 }] });
    expect(commandForKey(key('c', true))).toBe('copyKeys');
    focusIn(false);
    expect(commandForKey(key('c', true)), 'focus elsewhere').toBe('copyPose');
    delete g.document;
    expect(commandForKey(key('c', true)), 'no DOM at all').toBe('copyPose');
  });

  it('Ctrl+V pastes keys only with the dope sheet focused and keys copied', () => {
    focusIn(true);
    expect(commandForKey(key('v', true))).toBe('pastePose');
    useEphemeral.setState({ keyClipboard: CLIPBOARD });
    expect(commandForKey(key('v', true))).toBe('pasteKeys');
    focusIn(false);
    expect(commandForKey(key('v', true))).toBe('pastePose');
  });

  it('Home frames the dope sheet when it has focus, and goes to the first frame elsewhere', () => {
    focusIn(true);
    expect(commandForKey(key('Home'))).toBe('sheetFrameAll');
    focusIn(false);
    expect(commandForKey(key('Home'))).toBe('firstFrame');
  });

  it('every contextual command shares its keys with a plain command, so the key does something outside the context', () => {
    // Ctrl+A and Ctrl+X outside the dope sheet are the page's own (select and cut text in a field).
    const pageKeys = ['Ctrl+A', 'Ctrl+X'];
    for (const c of COMMANDS.filter((x) => x.when))
      for (const k of c.keys) expect(pageKeys.includes(k) || COMMANDS.some((o) => !o.when && o.keys.includes(k)), `${c.id}: ${k}`).toBe(true);
  });

  it('Ctrl+X cuts and Ctrl+A selects all keys only with the dope sheet focused; elsewhere the page keeps them', () => {
    focusIn(true);
    expect(commandForKey(key('a', true))).toBe('selectAllKeys');
    expect(commandForKey(key('x', true)), 'no keys selected: Cut Keys says what to select').toBe('cutKeys');
    useEphemeral.setState({ selectedKeys: [{ target: { kind: 'prop', prop: 'p' }, frame: 3 }] });
    expect(commandForKey(key('x', true))).toBe('cutKeys');
    focusIn(false);
    expect(commandForKey(key('a', true))).toBeUndefined();
    expect(commandForKey(key('x', true))).toBeUndefined();
  });

  it('the Curves view shares the key shortcuts: Ctrl+C / Ctrl+X / Ctrl+V copy, cut and paste keys there, not the pose', () => {
    g.document = { activeElement: { closest: (sel: string) => (sel === '[data-curves]' ? {} : null) } };
    expect(commandForKey(key('c', true)), 'curves focused, no keys picked').toBe('copyPose');
    useEphemeral.setState({ selectedKeys: [{ target: { kind: 'prop', prop: 'p' }, frame: 3, channel: 'ty' } as never] });
    expect(commandForKey(key('c', true))).toBe('copyKeys');
    expect(commandForKey(key('x', true))).toBe('cutKeys');
    expect(commandForKey(key('a', true)), 'Ctrl+A there picks the shown curves’ keys').toBe('curvesSelectAllKeys');
    expect(commandForKey(key('v', true)), 'nothing copied yet: the pose').toBe('pastePose');
    useEphemeral.setState({ keyClipboard: CLIPBOARD });
    expect(commandForKey(key('v', true))).toBe('pasteKeys');
  });

  it('X and Backspace delete keys like Delete, and the help panel lists them', () => {
    expect(commandForKey(key('x'))).toBe('deleteKeys');
    expect(commandForKey(key('Backspace'))).toBe('deleteKeys');
    expect(COMMANDS.find((c) => c.id === 'deleteKeys')!.keys).toEqual(expect.arrayContaining(['Delete', 'X', 'Backspace']));
  });

  it('[ and ] step through the findings', () => {
    expect(commandForKey(key(']'))).toBe('nextFinding');
    expect(commandForKey(key('['))).toBe('previousFinding');
  });
});

describe('play range', () => {
  it('Alt+P clears the play range of the clip shown, and leaves one set on another clip', () => {
    const d = docWithBall();
    const shown = d.clips[0];
    d.clips.push({ ...shown, id: 'other', name: 'other', tracks: [] });
    docActions.load(d, null, 't');
    useEphemeral.setState({ playRanges: [{ clipId: 'other', from: 5, to: 9 }], status: null });
    runCommand('clearPlayRange');
    expect(useEphemeral.getState().playRanges, 'the range on "other" is kept: it was not in sight').toEqual([{ clipId: 'other', from: 5, to: 9 }]);
    expect(useEphemeral.getState().status?.text).toBe(`No play range set on ${shown.name}`);
    useEphemeral.setState({ playRanges: [{ clipId: 'other', from: 5, to: 9 }, { clipId: shown.id, from: 2, to: 4 }] });
    runCommand('clearPlayRange');
    expect(useEphemeral.getState().playRanges, 'only the shown clip\'s range is cleared').toEqual([{ clipId: 'other', from: 5, to: 9 }]);
    expect(useEphemeral.getState().status?.text).toBe(`Play range cleared: playback covers ${shown.name} (${shown.startFrame}–${shown.endFrame})`);
  });
});

describe('view commands say what they did (the previous message no longer stands)', () => {
  beforeEach(() => useEphemeral.setState({ selection: null, status: { text: 'Deleted 3 keys', error: false, at: 0 } }));
  const status = () => useEphemeral.getState().status?.text;

  it('1, 3, 7 name the view; O names the projection it switched to', () => {
    runCommand('viewFront');
    expect(status()).toBe('Front view (1)');
    runCommand('viewRight');
    expect(status()).toBe('Right view (3)');
    runCommand('viewTop');
    expect(status()).toBe('Top view (7)');
    runCommand('togglePerspective');
    const first = status();
    runCommand('togglePerspective');
    expect([first, status()].sort()).toEqual(['Orthographic view (O: back to perspective)', 'Perspective view (O: orthographic)']);
  });

  it('F names what it framed: the selection by the names an animator knows, or the whole scene', () => {
    const doc = docWithBall();
    docActions.load(doc, null, 'test');
    runCommand('frameSelected');
    expect(status()).toBe('Framed the whole scene (nothing selected)');
    const ball = doc.props[0];
    useEphemeral.setState({ selection: { kind: 'prop', id: ball.id } });
    runCommand('frameSelected');
    expect(status()).toBe(`Framed ${ball.name}`);
  });

  it('selectionLabel names bones and IK handles with their character', () => {
    const doc = docWithBall();
    expect(selectionLabel(doc, null)).toBeNull();
    expect(selectionLabel(doc, { kind: 'prop', id: doc.props[0].id })).toBe(doc.props[0].name);
    expect(selectionLabel({ ...doc, characters: [{ id: 'c1', name: 'Hero', skeleton: { joints: [{ name: 'Hips' }] } } as never] }, { kind: 'joint', character: 'c1', joint: 0 })).toBe('Hero: Hips');
    expect(selectionLabel({ ...doc, characters: [{ id: 'c1', name: 'Hero', skeleton: { joints: [] } } as never] }, { kind: 'ik', character: 'c1', chain: 1 })).toBe('Hero: IK handle 2');
  });
});
