/**
 * Suggesting state (ephemeral): what to simulate, over which frames, and the
 * suggestion being shown as a ghost until it is accepted (ordinary keys, one
 * undo step) or rejected. Changing mass, density, restitution or friction of
 * any object while a suggestion is shown runs it again.
 */
import { create } from 'zustand';
import type { ImpulseDocument } from '../../../core/document/types';
import { applySuggestion, type Suggestion } from '../../../core/sim/suggest';
import { docActions, getDoc, useDocStore } from '../state/documentStore';
import { useEphemeral, setStatus } from '../state/ephemeral';
import { activeClip } from '../state/keys';
import { runForeground } from '../workers/engine';
import { showDock } from '../check/dock';
import type { SuggestParams, SuggestResult } from '../workers/protocol';

export interface SuggestState {
  /**
   * Object ids picked in the panel; null until the animator picks (then the
   * selection, else every dynamic prop). Unpicking the last one leaves an
   * empty pick: nothing to simulate, not the defaults back.
   */
  targets: string[] | null;
  fromFrame: number | null;
  toFrame: number | null;
  params: SuggestParams | null;
  result: SuggestResult | null;
  /** The document the shown suggestion was computed on. */
  resultDoc: ImpulseDocument | null;
  panelOpen: boolean;
  running: boolean;
}

export const useSuggest = create<SuggestState>()(() => ({
  targets: null,
  fromFrame: null,
  toFrame: null,
  params: null,
  result: null,
  resultDoc: null,
  panelOpen: false,
  running: false,
}));

export function suggestionOf(r: SuggestResult | null): Suggestion | null {
  return r ? (r.suggestion as Suggestion) : null;
}

/**
 * The objects a suggestion would simulate now: the ones picked in the panel,
 * else the selected dynamic prop or character, else every dynamic prop. A
 * selected keyframed prop is not taken: selecting the bat (a finding jump
 * does) made Suggest simulate it and Accept replace its swing keys; ticking
 * it in the panel still simulates it.
 */
export function resolveTargets(doc: ImpulseDocument): string[] {
  const targets = useSuggest.getState().targets;
  if (targets) return targets.filter((id) => doc.props.some((p) => p.id === id) || doc.characters.some((c) => c.id === id));
  const sel = useEphemeral.getState().selection;
  if (sel?.kind === 'prop' && doc.props.some((p) => p.id === sel.id && p.physics.mode === 'dynamic')) return [sel.id];
  if (sel?.kind === 'character') return [sel.id];
  return doc.props.filter((p) => p.physics.mode === 'dynamic').map((p) => p.id);
}

/** Picks (on) or unpicks (off) an object in the Suggest panel, starting from what it would simulate now. */
export function toggleTarget(doc: ImpulseDocument, id: string, on: boolean): void {
  const cur = resolveTargets(doc);
  useSuggest.setState({ targets: on ? [...new Set([...cur, id])] : cur.filter((x) => x !== id) });
}

export function resolveRange(doc: ImpulseDocument): [number, number] | null {
  const clip = activeClip(doc);
  if (!clip) return null;
  const s = useSuggest.getState();
  const from = Math.max(clip.startFrame, Math.min(clip.endFrame - 1, s.fromFrame ?? clip.startFrame));
  const to = Math.min(clip.endFrame, Math.max(from + 1, s.toFrame ?? clip.endFrame));
  return [from, to];
}

/** Suggest motion: runs the simulator in the worker and shows the result as a ghost. */
export async function suggest(params?: SuggestParams): Promise<void> {
  const doc = getDoc();
  const clip = activeClip(doc);
  if (!clip) {
    setStatus('The document has no clip', true);
    return;
  }
  let p = params;
  if (!p) {
    const dynamic = resolveTargets(doc);
    const range = resolveRange(doc);
    if (!dynamic.length || !range) {
      setStatus('Nothing to simulate: select a dynamic prop or character, or pick objects in the Suggest panel', true);
      useSuggest.setState({ panelOpen: true });
      showDock('suggest');
      return;
    }
    p = { clipId: clip.id, dynamic, fromFrame: range[0], toFrame: range[1] };
  }
  useSuggest.setState({ panelOpen: true, running: true });
  showDock('suggest');
  try {
    const result = await runForeground('suggest', doc, p, `Suggesting motion (${p.fromFrame}–${p.toFrame})`);
    if (!result) {
      setStatus('Suggestion cancelled');
      return;
    }
    // Another clip became active while it ran: the result is not for the clip on screen.
    if (activeClip(getDoc())?.id !== p.clipId) {
      setStatus(`Suggestion discarded: it was for clip "${clip.id === p.clipId ? clip.name : p.clipId}", and another clip is active now`);
      return;
    }
    useSuggest.setState({ result, resultDoc: doc, params: p });
    const names = p.dynamic.map((id) => doc.props.find((x) => x.id === id)?.name ?? doc.characters.find((x) => x.id === id)?.name ?? id);
    setStatus(`Suggestion for ${names.join(', ')}: ${result.impacts.length} impact${result.impacts.length === 1 ? '' : 's'}, ${result.keyCount} keys — Accept or Reject`);
  } finally {
    useSuggest.setState({ running: false });
  }
}

/** Accept: the suggestion's keys become ordinary keys of the clip, as one undo step. */
export function acceptSuggestion(): void {
  const s = useSuggest.getState();
  const sug = suggestionOf(s.result);
  if (!sug) return;
  const doc = getDoc();
  const ci = doc.clips.findIndex((c) => c.id === sug.clipId);
  if (ci < 0 || activeClip(doc)?.id !== sug.clipId) {
    // Normally dropped when the clip changes (installSuggesting); never write keys into a clip not on screen.
    useSuggest.setState({ result: null, resultDoc: null });
    setStatus('Suggestion not accepted: it was for another clip; run Suggest motion again on this one', true);
    return;
  }
  const next = applySuggestion(doc, sug);
  docActions.edit('Accept suggestion', (d) => {
    d.clips[ci].tracks = next.clips[ci].tracks as typeof d.clips[number]['tracks'];
  });
  useSuggest.setState({ result: null, resultDoc: null });
  setStatus(`Accepted suggestion: ${sug.stats.keys} keys on ${sug.objects.length} object${sug.objects.length === 1 ? '' : 's'} (undo removes them)`);
}

export function rejectSuggestion(): void {
  if (!useSuggest.getState().result) return;
  useSuggest.setState({ result: null, resultDoc: null });
  setStatus('Suggestion discarded');
}

/** Whether mass, density, restitution, friction or control mode of any object differ. */
export function physicsChanged(a: ImpulseDocument, b: ImpulseDocument): boolean {
  if (a.props !== b.props) {
    if (a.props.length !== b.props.length) return true;
    for (let i = 0; i < a.props.length; i++) if (a.props[i].physics !== b.props[i].physics) return true;
  }
  if (a.characters !== b.characters) {
    if (a.characters.length !== b.characters.length) return true;
    for (let i = 0; i < a.characters.length; i++) if (a.characters[i].mode !== b.characters[i].mode) return true;
  }
  return a.gravity !== b.gravity || a.groundY !== b.groundY;
}

/**
 * Re-runs the shown suggestion when physics change; drops it when another
 * project loads, and when another clip becomes active (picked, created,
 * duplicated, its clip deleted, or one of these undone): a suggestion is
 * keys for the clip it was computed on, and its ghost over another clip's
 * motion (or an Accept writing into a clip not on screen, or into one that is
 * gone) would mislead.
 */
export function installSuggesting(): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastLoad = useDocStore.getState().loadCount;
  let lastClip = activeClip(useDocStore.getState().history.doc)?.id ?? null;
  const off = useDocStore.subscribe((st) => {
    const clip = activeClip(st.history.doc);
    const clipChanged = (clip?.id ?? null) !== lastClip;
    lastClip = clip?.id ?? null;
    if (st.loadCount !== lastLoad) {
      lastLoad = st.loadCount;
      useSuggest.setState({ result: null, resultDoc: null, params: null, targets: null, fromFrame: null, toFrame: null });
      return;
    }
    // A typed From / To that does not fit the clip now shown: its whole range again (frames 40-55 of swing
    // became 29-30 of walk, a one-frame suggestion). A range that fits is kept (a duplicate's same frames).
    const r = useSuggest.getState();
    if (clipChanged && clip && (r.fromFrame !== null || r.toFrame !== null)) {
      const from = r.fromFrame ?? clip.startFrame, to = r.toFrame ?? clip.endFrame;
      if (from < clip.startFrame || to > clip.endFrame || from >= to) useSuggest.setState({ fromFrame: null, toFrame: null });
    }
    const s = useSuggest.getState();
    if (s.result && s.params && !st.history.drag && activeClip(st.history.doc)?.id !== s.params.clipId) {
      const id = s.params.clipId;
      const name = (st.history.doc.clips.find((c) => c.id === id) ?? s.resultDoc?.clips.find((c) => c.id === id))?.name ?? id;
      useSuggest.setState({ result: null, resultDoc: null });
      setStatus(`Suggestion for clip "${name}" discarded: another clip is active now`);
      return;
    }
    if (!s.result || !s.resultDoc || !s.params || st.history.drag) return;
    if (!physicsChanged(s.resultDoc, st.history.doc)) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const cur = useSuggest.getState();
      if (!cur.result || !cur.params || cur.running) return;
      suggest(cur.params).catch((e: unknown) => setStatus(`Suggest: ${e instanceof Error ? e.message : String(e)}`, true));
    }, 250);
  });
  return () => {
    off();
    if (timer) clearTimeout(timer);
  };
}
