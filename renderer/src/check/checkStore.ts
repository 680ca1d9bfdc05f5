/**
 * Checking state of the app (ephemeral, not undoable): the per-frame result
 * cache of the active clip, the findings built from it, the live check of
 * the playhead frame, and the finding the animator picked.
 *
 * "Check clip" checks the frames the cache lacks (all of them the first
 * time) in the worker with a progress bar. Once a clip has been checked,
 * every document change drops only the frames the edited keys influence
 * (see frameCache.ts) and rechecks those in the background. Ignore rules are
 * applied when findings are shown: the worker always checks without them, so
 * adding or undoing a rule needs no recheck.
 */
import { create } from 'zustand';
import type { ImpulseDocument } from '../../../core/document/types';
import { docActions, getDoc, useDocStore } from '../state/documentStore';
import { useEphemeral, select, setStatus } from '../state/ephemeral';
import { activeClip } from '../state/keys';
import { setFrame } from '../actions';
import { runBackground, runForeground } from '../workers/engine';
import { JobCancelled, type RunningJob } from '../workers/client';
import type { CheckClipResult, CheckFrameResult } from '../workers/protocol';
import { FrameCache } from './frameCache';
import { showDock } from './dock';
import { viewportCommands } from '../viewport/viewState';
import { buildFindings, findingMeta, findingsInPanelOrder, ruleForFinding, stepFindingFrom, visibleFindings, type Finding } from './findings';

export interface CheckState {
  /** Clip the findings belong to (null: never checked). */
  clipId: string | null;
  /** All findings of the checked frames (ignore rules not applied). */
  findings: Finding[];
  /** Frames of the clip with a result / total frames. */
  checkedFrames: number;
  totalFrames: number;
  /** A background recheck after an edit is running. */
  updating: boolean;
  selectedFinding: string | null;
  /** Live check of the playhead frame. */
  live: CheckFrameResult | null;
  liveEnabled: boolean;
  /** Why the live check stopped (shown in the panel). */
  liveError: string | null;
  /** The panel is open. */
  panelOpen: boolean;
  warnings: string[];
  /** The frames the last update after an edit rechecked (inclusive ranges), and how many it kept. */
  lastUpdate: { ranges: [number, number][]; kept: number } | null;
}

export const useCheck = create<CheckState>()(() => ({
  clipId: null,
  findings: [],
  checkedFrames: 0,
  totalFrames: 0,
  updating: false,
  selectedFinding: null,
  live: null,
  liveEnabled: true,
  liveError: null,
  panelOpen: false,
  warnings: [],
  lastUpdate: null,
}));

const cache = new FrameCache();

/** The document the worker checks: without ignore rules (they filter findings in the UI). */
const unfiltered = new WeakMap<ImpulseDocument, ImpulseDocument>();
export function documentForCheck(doc: ImpulseDocument): ImpulseDocument {
  if (!doc.check.ignore.length) return doc;
  let d = unfiltered.get(doc);
  if (!d) unfiltered.set(doc, (d = { ...doc, check: { ...doc.check, ignore: [] } }));
  return d;
}

function publish(): void {
  const doc = cache.doc;
  const clip = doc?.clips.find((c) => c.id === cache.clipId);
  if (!doc || !clip) return;
  const findings = buildFindings(cache.values(), clip.frameRate);
  const sel = useCheck.getState().selectedFinding;
  useCheck.setState({
    clipId: clip.id,
    findings,
    checkedFrames: cache.size,
    totalFrames: clip.endFrame - clip.startFrame + 1,
    selectedFinding: sel && findings.some((f) => f.id === sel) ? sel : null,
  });
}

function mergeResult(doc: ImpulseDocument, result: CheckClipResult): void {
  if (cache.store(doc, result.frames)) publish();
  if (result.warnings.length) useCheck.setState({ warnings: result.warnings });
}

/** Check clip: checks every frame the cache lacks, with progress. */
export async function checkClip(): Promise<void> {
  const doc = getDoc();
  const clip = activeClip(doc);
  if (!clip) {
    setStatus('The document has no clip to check', true);
    return;
  }
  cancelBackground();
  cache.update(doc, clip.id);
  useCheck.setState({ panelOpen: true });
  showDock('check');
  const ranges = cache.missing(clip.startFrame, clip.endFrame);
  if (ranges.length) {
    const result = await runForeground('checkClip', documentForCheck(doc), { clipId: clip.id, ranges }, `Checking ${clip.name}`);
    if (!result) {
      setStatus('Check cancelled');
      publish();
      return;
    }
    mergeResult(doc, result);
  }
  publish();
  const now = getDoc();
  const shown = visibleFindings(useCheck.getState().findings, now.check.ignore);
  const found = shown.length ? `${shown.length} interpenetration finding${shown.length === 1 ? '' : 's'} in ${clip.name}` : `${clip.name}: no interpenetrations`;
  // The clip was deleted or another picked while it ran: the panel shows the clip on screen ("Not checked yet").
  if (!now.clips.some((c) => c.id === clip.id)) setStatus(`Check of ${clip.name} finished, but that clip was deleted (Undo brings it back with its findings)`);
  else if (activeClip(now)?.id !== clip.id) setStatus(`${found} (not the clip shown: pick ${clip.name} to see them)`);
  else setStatus(found);
}

let background: RunningJob<CheckClipResult> | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

function cancelBackground(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  background?.cancel();
  background = null;
}

/** After an edit: drop what the edit influenced and recheck it in the background. */
function scheduleUpdate(): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void updateAfterEdit();
  }, 200);
}

async function updateAfterEdit(): Promise<void> {
  const doc = getDoc();
  const clip = activeClip(doc);
  if (!clip || useCheck.getState().clipId !== clip.id || cache.doc === null) return;
  if (useDocStore.getState().history.drag) return; // recheck once the drag is committed
  background?.cancel();
  cache.update(doc, clip.id);
  publish();
  const ranges = cache.missing(clip.startFrame, clip.endFrame);
  if (!ranges.length) return;
  const job = runBackground('checkClip', documentForCheck(doc), { clipId: clip.id, ranges });
  background = job;
  useCheck.setState({ updating: true, lastUpdate: { ranges, kept: cache.size } });
  try {
    mergeResult(doc, await job.promise);
  } catch (e) {
    if (!(e instanceof JobCancelled)) setStatus(`Check update: ${e instanceof Error ? e.message : String(e)}`, true);
  } finally {
    if (background === job) {
      background = null;
      useCheck.setState({ updating: false });
    }
  }
}

/** Jump to a finding: its deepest frame, and select its part (the character's joint, or the prop). */
export function jumpToFinding(f: Finding): void {
  useCheck.setState({ selectedFinding: f.id });
  useEphemeral.setState({ playing: false });
  setFrame(f.maxDepthFrame);
  const doc = getDoc();
  const side = [f.a, f.b].find((s) => s.joint !== undefined) ?? f.a;
  if (side.joint !== undefined && doc.characters.some((c) => c.id === side.object)) select({ kind: 'joint', character: side.object, joint: side.joint });
  else if (doc.props.some((p) => p.id === side.object)) select({ kind: 'prop', id: side.object });
  else if (doc.characters.some((c) => c.id === side.object)) select({ kind: 'character', id: side.object });
  // The named part must be in sight: off screen or under the dock, the view frames it.
  viewportCommands.revealSelected();
}

/**
 * Jumps to the next (1) or previous (-1) finding of the checked clip in the
 * findings panel's order (ignored pairs left out), as a click on it does:
 * the playhead on its deepest frame, its part selected and in view.
 */
export function stepFinding(direction: 1 | -1): void {
  const doc = getDoc();
  const clip = activeClip(doc);
  const s = useCheck.getState();
  if (!clip) return setStatus('The document has no clip');
  if (s.clipId !== clip.id) return setStatus(`${clip.name} is not checked yet: Check Clip (Ctrl+Shift+C) finds its interpenetrations`);
  const ordered = findingsInPanelOrder(visibleFindings(s.findings, doc.check.ignore));
  const f = stepFindingFrom(ordered, s.selectedFinding, direction, Math.round(useEphemeral.getState().frame));
  if (!f) return setStatus(s.findings.length ? `Every finding of ${clip.name} is ignored (see Ignored pairs in the findings panel)` : `No interpenetrations found in ${clip.name}`);
  jumpToFinding(f);
  const n = ordered.indexOf(f) + 1;
  setStatus(`Finding ${n} of ${ordered.length}: ${f.a.label} / ${f.b.label}, ${findingMeta(f, clip.frameRate)}`);
}

/** Adds an ignore rule for a finding's pair of parts (or, `wholeObjects`, its two objects): one undoable edit, saved with the project. */
export function ignoreFinding(f: Finding, wholeObjects: boolean): void {
  const rule = ruleForFinding(f, wholeObjects);
  docActions.edit(wholeObjects ? 'Ignore objects' : 'Ignore parts', (d) => {
    d.check.ignore.push(rule);
  });
  setStatus(`Ignoring ${wholeObjects ? 'objects' : 'parts'}: ${rule.note ?? ''}`);
}

export function removeIgnoreRule(index: number): void {
  docActions.edit('Remove ignore rule', (d) => {
    d.check.ignore.splice(index, 1);
  });
}

// ---------------------------------------------------------------- live check

let liveJob: RunningJob<CheckFrameResult> | null = null;
let liveWanted: { doc: ImpulseDocument; clipId: string; frame: number } | null = null;
let liveLast: { doc: ImpulseDocument; frame: number } | null = null;
let liveTimer: ReturnType<typeof setTimeout> | null = null;
export const LIVE_INTERVAL_MS = 120;

function requestLive(): void {
  const s = useCheck.getState();
  const eph = useEphemeral.getState();
  const doc = getDoc();
  const clip = activeClip(doc);
  if (!s.liveEnabled || !clip || eph.playing) return;
  const frame = Math.round(eph.frame);
  if (liveLast && liveLast.doc === doc && liveLast.frame === frame) return;
  liveWanted = { doc, clipId: clip.id, frame };
  if (liveTimer || liveJob) return;
  liveTimer = setTimeout(runLive, 0);
}

function runLive(): void {
  liveTimer = null;
  const want = liveWanted;
  liveWanted = null;
  if (!want) return;
  const started = Date.now();
  const job = runBackground('checkFrame', documentForCheck(want.doc), { clipId: want.clipId, frame: want.frame });
  liveJob = job;
  job.promise
    .then((r) => {
      liveLast = { doc: want.doc, frame: want.frame };
      if (getDoc() === want.doc || !liveWanted) useCheck.setState({ live: r });
    })
    .catch((e: unknown) => {
      if (!(e instanceof JobCancelled)) {
        useCheck.setState({ live: null, liveEnabled: false, liveError: e instanceof Error ? e.message : String(e) });
      }
    })
    .finally(() => {
      liveJob = null;
      // Throttle: at most one check per LIVE_INTERVAL_MS while scrubbing.
      if (liveWanted) liveTimer = setTimeout(runLive, Math.max(0, LIVE_INTERVAL_MS - (Date.now() - started)));
    });
}

export function setLiveEnabled(on: boolean): void {
  useCheck.setState({ liveEnabled: on, live: on ? useCheck.getState().live : null, liveError: null });
  liveLast = null;
  if (on) requestLive();
}

/** Subscribes the checking state to the document and the playhead. Returns the unsubscribe. */
export function installChecking(): () => void {
  let lastDoc = getDoc();
  let lastLoad = useDocStore.getState().loadCount;
  const offDoc = useDocStore.subscribe((s) => {
    if (s.loadCount !== lastLoad) {
      // Another project: forget everything.
      lastLoad = s.loadCount;
      cancelBackground();
      cache.clear();
      useCheck.setState({ clipId: null, findings: [], checkedFrames: 0, totalFrames: 0, selectedFinding: null, live: null, warnings: [], lastUpdate: null });
    }
    const doc = s.history.doc;
    if (doc === lastDoc) return;
    lastDoc = doc;
    if (useCheck.getState().clipId !== null) scheduleUpdate();
    requestLive();
  });
  let lastFrame = Math.round(useEphemeral.getState().frame);
  let lastPlaying = useEphemeral.getState().playing;
  const offEph = useEphemeral.subscribe((s) => {
    const f = Math.round(s.frame);
    if (f === lastFrame && s.playing === lastPlaying) return;
    lastFrame = f;
    lastPlaying = s.playing;
    if (s.playing) useCheck.setState({ live: null });
    else requestLive();
  });
  requestLive();
  return () => {
    offDoc();
    offEph();
    cancelBackground();
  };
}
