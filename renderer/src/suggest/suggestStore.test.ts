/**
 * Accepting a suggestion is one undoable edit that writes exactly what core's
 * `applySuggestion` gives, and undo restores the clip; the re-run trigger
 * fires for physics changes only.
 */
import { describe, expect, it } from 'vitest';
import { produce } from 'immer';
import { applySuggestion, type Suggestion } from '../../../core/sim/suggest';
import { ballPropAt, boxPropAt, sceneDoc } from '../../../core/sim/testkit';
import { docActions, getDoc, useDocStore } from '../state/documentStore';
import { Cancelled, type JobContext } from '../workers/host';
import { runSuggest } from '../workers/suggestJob';
import { useEphemeral } from '../state/ephemeral';
import { acceptSuggestion, installSuggesting, physicsChanged, rejectSuggestion, resolveRange, resolveTargets, toggleTarget, useSuggest } from './suggestStore';
import { deleteClipRecipe, duplicateClipRecipe } from '../state/clips';

const ctx: JobContext = {
  signal: { aborted: false },
  progress: () => undefined,
  checkpoint: async () => {
    if (ctx.signal.aborted) throw new Cancelled();
  },
};

function dropScene() {
  return sceneDoc([ballPropAt('ball', 0.1, [0, 1, 0], { restitution: 0.5 }), boxPropAt('crate', [0.2, 0.2, 0.2], [1, 0.2, 0], { mode: 'keyframed' })], { frames: 30 });
}

describe('suggest store', () => {
  it('accept writes applySuggestion as one undo step; undo restores the clip', async () => {
    const doc = dropScene();
    docActions.load(doc, null, 'drop');
    const result = await runSuggest(getDoc(), { clipId: 'clip', dynamic: ['ball'], fromFrame: 0, toFrame: 30 }, ctx);
    expect(result.impacts.some((i) => [i.a, i.b].includes('ground')), 'the ball hits the ground').toBe(true);
    useSuggest.setState({ result, resultDoc: getDoc() });
    const expected = applySuggestion(getDoc(), result.suggestion as Suggestion);
    const before = getDoc();
    const steps = useDocStore.getState().history.past.length;
    acceptSuggestion();
    const h = useDocStore.getState().history;
    expect(h.past.length).toBe(steps + 1);
    expect(h.past[h.past.length - 1].label).toBe('Accept suggestion');
    expect(getDoc().clips[0].tracks).toEqual(expected.clips[0].tracks);
    expect(getDoc().clips[0].tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'ball').map((t) => t.path).sort()).toEqual(['rotation', 'translation']);
    expect(useSuggest.getState().result, 'the ghost is gone').toBeNull();
    docActions.undo();
    expect(getDoc().clips[0].tracks).toEqual(before.clips[0].tracks);
  });

  it('suggest progress counts frames of the range: labels name frames inside it, the count rises to the range length', async () => {
    docActions.load(dropScene(), null, 'drop');
    const calls: { done: number; total: number; label?: string }[] = [];
    const counting: JobContext = { ...ctx, progress: (done, total, label) => void calls.push({ done, total, label }) };
    await runSuggest(getDoc(), { clipId: 'clip', dynamic: ['ball'], fromFrame: 5, toFrame: 25 }, counting);
    expect(calls.length, 'progress reported along the way').toBeGreaterThan(5);
    expect(calls.every((c) => c.total === 20), `total is the 20 frames of 5-25: ${calls.map((c) => c.total)}`).toBe(true);
    calls.forEach((c, i) => i > 0 && expect(c.done, 'never goes back').toBeGreaterThanOrEqual(calls[i - 1].done));
    expect(calls.at(-1)!.done).toBe(20);
    for (const c of calls.slice(0, -1)) expect(c.label, 'names the frame being simulated').toBe(`Frame ${5 + c.done}`);
  });

  it('reject leaves the document alone', async () => {
    docActions.load(dropScene(), null, 'drop');
    const result = await runSuggest(getDoc(), { clipId: 'clip', dynamic: ['ball'], fromFrame: 0, toFrame: 20 }, ctx);
    useSuggest.setState({ result, resultDoc: getDoc() });
    const before = getDoc();
    rejectSuggestion();
    expect(getDoc()).toBe(before);
    expect(useSuggest.getState().result).toBeNull();
  });

  it('physicsChanged: mass, restitution, friction, mode and gravity count; keys and placement do not', () => {
    const doc = dropScene();
    expect(physicsChanged(doc, produce(doc, (d) => void (d.props[0].physics.restitution = 0.9)))).toBe(true);
    expect(physicsChanged(doc, produce(doc, (d) => void (d.props[0].physics.massKg = 3)))).toBe(true);
    expect(physicsChanged(doc, produce(doc, (d) => void (d.props[1].physics.friction = 0.1)))).toBe(true);
    expect(physicsChanged(doc, produce(doc, (d) => void (d.props[1].physics.mode = 'dynamic')))).toBe(true);
    expect(physicsChanged(doc, produce(doc, (d) => void (d.gravity = [0, -1.6, 0])))).toBe(true);
    expect(physicsChanged(doc, produce(doc, (d) => void (d.props[0].transform.translation[0] = 2)))).toBe(false);
    expect(physicsChanged(doc, produce(doc, (d) => void d.clips[0].tracks.push({ target: { kind: 'prop', prop: 'crate' }, path: 'translation', interpolation: 'linear', times: [0], values: [1, 0.2, 0] })))).toBe(false);
  });
});

describe('suggest targets', () => {
  it('start from the dynamic props; picking adds, unpicking the last leaves nothing picked (the defaults do not come back)', () => {
    const doc = dropScene();
    docActions.load(produce(doc, (d) => void (d.props[1].physics.mode = 'dynamic')), null, 'drop');
    useSuggest.setState({ targets: null });
    useEphemeral.setState({ selection: null });
    expect(resolveTargets(getDoc())).toEqual(['ball', 'crate']);
    toggleTarget(getDoc(), 'ball', false);
    expect(resolveTargets(getDoc())).toEqual(['crate']);
    toggleTarget(getDoc(), 'crate', false);
    expect(resolveTargets(getDoc()), 'nothing picked').toEqual([]);
    toggleTarget(getDoc(), 'crate', true);
    expect(resolveTargets(getDoc())).toEqual(['crate']);
    // a picked id that is no longer in the document is dropped
    useSuggest.setState({ targets: ['crate', 'gone'] });
    expect(resolveTargets(getDoc())).toEqual(['crate']);
  });

  it('follow the selection of a dynamic prop until the animator picks', () => {
    docActions.load(produce(dropScene(), (d) => void (d.props[1].physics.mode = 'dynamic')), null, 'drop');
    useSuggest.setState({ targets: null });
    useEphemeral.setState({ selection: { kind: 'prop', id: 'crate' } });
    expect(resolveTargets(getDoc())).toEqual(['crate']);
    useEphemeral.setState({ selection: null });
    expect(resolveTargets(getDoc())).toEqual(['ball', 'crate']);
  });

  it('a selected keyframed prop is not simulated unless ticked: its keys are the animator\'s', () => {
    docActions.load(dropScene(), null, 'drop');
    expect(getDoc().props.find((p) => p.id === 'crate')!.physics.mode, 'the crate is keyframed in this scene').toBe('keyframed');
    useSuggest.setState({ targets: null });
    useEphemeral.setState({ selection: { kind: 'prop', id: 'crate' } });
    expect(resolveTargets(getDoc()), 'the dynamic props, not the selected keyframed crate').toEqual(['ball']);
    toggleTarget(getDoc(), 'crate', true);
    expect(resolveTargets(getDoc()), 'ticked: simulated').toEqual(['ball', 'crate']);
  });

  it('a suggestion belongs to its clip: another clip becoming active drops it, and Accept never writes into a clip that is gone or not shown', async () => {
    docActions.load(dropScene(), null, 'drop');
    const params = { clipId: 'clip', dynamic: ['ball'], fromFrame: 0, toFrame: 20 };
    const result = await runSuggest(getDoc(), params, ctx);
    const off = installSuggesting();
    try {
      useSuggest.setState({ result, resultDoc: getDoc(), params });
      // An edit inside the clip keeps it (it is only re-run on physics changes).
      docActions.edit('Rename clip', (d) => void (d.clips[0].name = 'drop'));
      expect(useSuggest.getState().result).toBe(result);
      docActions.edit('Duplicate clip', (d) => void duplicateClipRecipe(d));
      expect(useSuggest.getState().result, 'dropped when the copy became active').toBeNull();
      expect(useEphemeral.getState().status?.text).toBe('Suggestion for clip "drop" discarded: another clip is active now');
    } finally {
      off();
    }
    // Without the subscription (a result that arrived late): the clip it was for was deleted.
    useSuggest.setState({ result, resultDoc: getDoc(), params });
    docActions.undo();
    docActions.edit('Duplicate clip', (d) => void duplicateClipRecipe(d));
    const copyId = getDoc().activeClip;
    useSuggest.setState({ result: { ...result, suggestion: { ...(result.suggestion as Suggestion), clipId: copyId } }, resultDoc: getDoc(), params: { ...params, clipId: copyId } });
    docActions.edit('Delete clip', (d) => deleteClipRecipe(d));
    const before = getDoc();
    expect(() => acceptSuggestion()).not.toThrow();
    expect(getDoc(), 'no clip changed').toBe(before);
    expect(useSuggest.getState().result).toBeNull();
    expect(useEphemeral.getState().status).toMatchObject({ error: true, text: expect.stringContaining('Suggestion not accepted') });
  });

  it('a typed From / To that does not fit the clip picked next gives way to its whole range; one that fits stays', () => {
    const doc = dropScene();
    doc.clips[0].endFrame = 60;
    doc.clips.push({ id: 'short', name: 'short', frameRate: 30, startFrame: 0, endFrame: 30, tracks: [] });
    docActions.load(doc, null, 'drop');
    const off = installSuggesting();
    try {
      useSuggest.setState({ fromFrame: 12, toFrame: 20 });
      docActions.edit('Active clip', (d) => void (d.activeClip = 'short'));
      expect(resolveRange(getDoc()), 'frames 12-20 fit 0-30: kept').toEqual([12, 20]);
      docActions.undo();
      useSuggest.setState({ fromFrame: 20, toFrame: 28 });
      expect(resolveRange(getDoc())).toEqual([20, 28]);
      useSuggest.setState({ fromFrame: 40, toFrame: 55 });
      docActions.edit('Active clip', (d) => void (d.activeClip = 'short'));
      // It was 29-30.
      expect(resolveRange(getDoc()), 'frames 40-55 do not fit 0-30: the whole clip').toEqual([0, 30]);
      expect(useSuggest.getState()).toMatchObject({ fromFrame: null, toFrame: null });
    } finally {
      off();
    }
  });
});
