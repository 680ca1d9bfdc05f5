/**
 * Timeline and dope sheet: transport, frame range and rate, a ruler to scrub,
 * and a row of key diamonds per object and per animated bone. Click a diamond
 * to select it (Shift, Ctrl or Cmd add), drag over the rows to box-select,
 * drag selected diamonds to move keys in time (one undo step; Escape cancels),
 * Delete removes them.
 *
 * Zoom and pan (view state, see sheetView.ts): Ctrl+wheel, or the wheel over
 * the ruler, zooms around the mouse; middle drag, Alt+drag or Shift+wheel
 * pans; Home (with the sheet focused) or the ⇔ button fits the clip's range.
 * Every position on the sheet goes through the one view's frame <-> pixel
 * mapping. A click in the sheet gives it keyboard focus, where Ctrl+C / Ctrl+V
 * copy and paste keys (see commands.ts).
 *
 * The playhead moves every frame during playback; it is positioned by a store
 * subscription writing the DOM directly, not by React renders.
 *
 * The Dope Sheet | Curves toggle in the transport (or G) shows the Curves view
 * (CurveEditor.tsx) in the sheet's place; the sheet stays mounted, hidden.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Clip, ImpulseDocument, Interpolation, TrackTarget } from '../../../core/document/types';
import { docActions, useDocStore } from '../state/documentStore';
import { clampKeyDelta, clampView, fitView, rescaleView, frameToX, labelStep, panBy, tickFrames, wheelPixels, wheelZoomFactor, xToFrame, zoomAt, type SheetView } from './sheetView';
import { useEphemeral, select, setStatus, type SelectedKey, type Selection } from '../state/ephemeral';
import { usePrefs, setPref, clampTimelineHeight, DEFAULT_TIMELINE_HEIGHT } from '../state/preferences';
import { activeClip, findTrack, keyDrawFrames, keyFramesOf, keyIndexAtFrame, moveKeys, sameTarget, targetKey } from '../state/keys';
import { groupKeys, setFrame } from '../actions';
import { runCommand, escapeHandlers } from '../commands';
import { NumberField } from './fields';
import { followPointer } from './followPointer';
import { ClipPicker } from './ClipPicker';
import { ImpactHeads, TimelineBands } from '../check/TimelineBands';
import { findLimbChains } from '../scene/limbs';
import { makePlayRange, playBounds, withRange, type PlayRange } from '../state/playRange';
import { useCurves } from '../state/curveStore';
import { CurveEditor } from './CurveEditor';

interface RowDef {
  id: string;
  label: string;
  depth: number;
  /** Targets whose keys this row shows (several for a character's summary row). */
  targets: TrackTarget[];
  selection: Selection;
  /** The row stands for (part of) the selection: highlighted, scrolled into sight. */
  selected: boolean;
}

/** Bones of character `c` the selection stands for: the picked bone, or the three an IK handle moves. */
function selectedJoints(c: ImpulseDocument['characters'][number], sel: Selection): number[] {
  if (sel?.kind === 'joint' && sel.character === c.id) return [sel.joint];
  if (sel?.kind === 'ik' && sel.character === c.id) {
    const chain = findLimbChains(c.skeleton)[sel.chain];
    return chain ? [chain.upper, chain.lower, chain.end] : [];
  }
  return [];
}

function buildRows(doc: ImpulseDocument, clip: Clip | undefined, sel: Selection): RowDef[] {
  const rows: RowDef[] = [];
  for (const c of doc.characters) {
    const jointTargets: TrackTarget[] = c.skeleton.joints.map((_, j) => ({ kind: 'joint', character: c.id, joint: j }));
    rows.push({ id: `c:${c.id}`, label: c.name, depth: 0, targets: jointTargets, selection: { kind: 'character', id: c.id }, selected: sel?.kind === 'character' && sel.id === c.id });
    // An IK handle's bones are shown and highlighted like a picked bone: posing with IK keys them.
    const picked = selectedJoints(c, sel);
    c.skeleton.joints.forEach((j, i) => {
      const t = jointTargets[i];
      const animated = clip?.tracks.some((tr) => sameTarget(tr.target, t));
      const selected = picked.includes(i);
      if (animated || selected) rows.push({ id: targetKey(t), label: j.name, depth: 1, targets: [t], selection: { kind: 'joint', character: c.id, joint: i }, selected });
    });
  }
  for (const p of doc.props)
    rows.push({ id: targetKey({ kind: 'prop', prop: p.id }), label: p.name, depth: 0, targets: [{ kind: 'prop', prop: p.id }], selection: { kind: 'prop', id: p.id }, selected: sel?.kind === 'prop' && sel.id === p.id });
  return rows;
}

function rowFrames(clip: Clip | undefined, row: RowDef): number[] {
  if (!clip) return [];
  if (row.targets.length === 1) return keyFramesOf(clip, row.targets[0]);
  const set = new Set<number>();
  for (const t of clip.tracks) {
    if (!row.targets.some((x) => sameTarget(x, t.target))) continue;
    for (const time of t.times) set.add(Math.round(time * clip.frameRate));
  }
  return [...set].sort((a, b) => a - b);
}

function rowKeysAt(clip: Clip, row: RowDef, frame: number): SelectedKey[] {
  return row.targets.filter((t) => keyFramesOf(clip, t).includes(frame)).map((target) => ({ target, frame }));
}

function isKeySelected(selected: readonly SelectedKey[], row: RowDef, frame: number): boolean {
  return selected.some((k) => k.frame === frame && row.targets.some((t) => sameTarget(t, k.target)));
}

const NAME_WIDTH = 190;
/** Gap between the names column and the first frame (and after the last one) when the clip's range fills the sheet. */
const PAD = 10;
/** Sheet x (px from its left edge) of the view's origin line: `xOf(f) = AREA_LEFT + frameToX(view, f)`. */
const AREA_LEFT = NAME_WIDTH + PAD;

function Transport({ clip }: { clip: Clip | undefined }) {
  const playing = useEphemeral((s) => s.playing);
  const loop = usePrefs((s) => s.loop);
  const autoKey = usePrefs((s) => s.autoKey);
  const frameIdle = useEphemeral((s) => (s.playing ? null : Math.round(s.frame)));
  const playRanges = useEphemeral((s) => s.playRanges);
  const b = clip ? playBounds(clip, playRanges) : null;
  const range = b?.limited ? b : null;
  const frameLabel = useRef<HTMLSpanElement>(null);
  useEffect(
    () =>
      useEphemeral.subscribe((s) => {
        if (frameLabel.current) frameLabel.current.textContent = String(Math.round(s.frame));
      }),
    [],
  );
  const editClip = (label: string, fn: (c: Clip) => void) =>
    docActions.edit(label, (d) => {
      const c = activeClip(d as ImpulseDocument);
      if (c) fn(c);
    });
  return (
    <div className="transport">
      <button title="First frame (Shift+←)" data-testid="first-frame" onClick={() => runCommand('firstFrame')}>|◀</button>
      <button title="Previous key (, or ↓)" data-testid="prev-key" onClick={() => runCommand('previousKey')}>◆◀</button>
      <button title="Play / pause (Space)" data-testid="play" className={playing ? 'on' : ''} onClick={() => runCommand('playPause')}>
        {playing ? '❚❚' : '▶'}
      </button>
      <button title="Next key (. or ↑)" data-testid="next-key" onClick={() => runCommand('nextKey')}>▶◆</button>
      <button title="Last frame (Shift+→)" data-testid="last-frame" onClick={() => runCommand('lastFrame')}>▶|</button>
      <button title="Loop (L)" data-testid="loop" className={loop ? 'on' : ''} onClick={() => setPref('loop', !loop)}>Loop</button>
      {range && (
        <button title="Playback covers these frames (P sets them from the selected keys, Ctrl+drag on the ruler); click or Alt+P to clear" data-testid="play-range-clear" className="on" onClick={() => runCommand('clearPlayRange')}>
          Range {range.from}–{range.to} ✕
        </button>
      )}
      <span className="sep" />
      <label>Frame</label>
      {frameIdle === null ? (
        <span className="frame-readout" ref={frameLabel} data-testid="frame-readout" />
      ) : (
        // A typed frame stays in the clip's range, as scrubbing does (frame 100 of a 0-60 clip put the playhead off the sheet).
        <NumberField
          testId="timeline-frame"
          label="Frame"
          value={frameIdle}
          step={1}
          digits={0}
          min={clip?.startFrame}
          max={clip?.endFrame}
          title={clip ? `Current frame (${clip.startFrame}–${clip.endFrame})` : 'Current frame'}
          onCommit={(v) => setFrame(Math.round(v))}
        />
      )}
      <label>Start</label>
      {/* A Start at or past End (or an End at or before Start) is held one frame inside, and says so: Start 20 with End 5 became 4 without a word. */}
      <NumberField
        testId="timeline-start"
        label="Start"
        value={clip?.startFrame ?? 0}
        step={1}
        digits={0}
        disabled={!clip}
        onCommit={(v) => {
          if (clip && Math.round(v) >= clip.endFrame) setStatus(`Start stays before End (${clip.endFrame}): Start is ${clip.endFrame - 1}; raise End first to start later`);
          editClip('Start frame', (c) => void (c.startFrame = Math.min(Math.round(v), c.endFrame - 1)));
        }}
      />
      <label>End</label>
      <NumberField
        testId="timeline-end"
        label="End"
        value={clip?.endFrame ?? 0}
        step={1}
        digits={0}
        disabled={!clip}
        onCommit={(v) => {
          if (clip && Math.round(v) <= clip.startFrame) setStatus(`End stays after Start (${clip.startFrame}): End is ${clip.startFrame + 1}; lower Start first to end earlier`);
          editClip('End frame', (c) => void (c.endFrame = Math.max(Math.round(v), c.startFrame + 1)));
        }}
      />
      <label>FPS</label>
      <NumberField
        testId="timeline-fps"
        label="FPS"
        value={clip?.frameRate ?? 24}
        step={1}
        min={1}
        max={240}
        digits={3}
        disabled={!clip}
        title="Frame rate. Keys keep their time in seconds; the frame range is rescaled to the same duration."
        onCommit={(v) => {
          const before = clip?.frameRate;
          editClip('Frame rate', (c) => {
            const k = v / c.frameRate;
            c.startFrame = Math.round(c.startFrame * k);
            c.endFrame = Math.max(c.startFrame + 1, Math.round(c.endFrame * k));
            c.frameRate = v;
          });
          // The playhead keeps its time too (it kept its frame number: frame 60 of 0-60 at 30 fps became
          // frame 60 of 0-48 at 24 fps, past the end and showing another pose than before).
          const now = activeClip(useDocStore.getState().history.doc);
          if (before && now) setFrame(Math.min(now.endFrame, Math.max(now.startFrame, Math.round((useEphemeral.getState().frame * now.frameRate) / before))));
        }}
      />
      <span className="sep" />
      <ViewToggle />
      <span className="sep" />
      <ClipPicker />
      <span className="sep" />
      <button title="Auto-key (N): posing keys every channel you touch" data-testid="autokey" className={`autokey${autoKey ? ' on' : ''}`} onClick={() => setPref('autoKey', !autoKey)}>
        ● Auto-key
      </button>
      <button title="Frame all: fit the clip's range in the dope sheet (Home with the sheet focused)" data-testid="sheet-frame-all" onClick={() => runCommand('sheetFrameAll')}>⇔</button>
      <button title="Set key on the selection (S or K)" data-testid="set-key" onClick={() => runCommand('setKey')}>◆ Key</button>
      <button title="Delete selected keys (Delete)" data-testid="delete-keys" onClick={() => runCommand('deleteKeys')}>✕ Key</button>
      <select
        data-testid="interpolation"
        value=""
        title="Interpolation of the selected keys' channels (or the selection's)"
        onChange={(e) => {
          const v = e.target.value as Interpolation;
          if (v) runCommand(v === 'step' ? 'interpolationStep' : v === 'linear' ? 'interpolationLinear' : 'interpolationCubic');
        }}
      >
        <option value="">Interpolation…</option>
        <option value="step">Step</option>
        <option value="linear">Linear</option>
        <option value="cubic">Cubic</option>
      </select>
      <select
        data-testid="tangents"
        value=""
        title="Tangents of the selected keys (or the selection's key on this frame); a channel that is not cubic becomes cubic"
        onChange={(e) => {
          const v = e.target.value;
          if (v) runCommand(v === 'flat' ? 'tangentsFlat' : v === 'linear' ? 'tangentsLinear' : v === 'unify' ? 'tangentsUnify' : 'tangentsAuto');
        }}
      >
        <option value="">Tangents…</option>
        <option value="auto">Auto (smooth)</option>
        <option value="flat">Flat (ease in/out)</option>
        <option value="linear">Linear</option>
        <option value="unify">Unify (join broken)</option>
      </select>
    </div>
  );
}

/** Dope sheet or Curves in the timeline area (G). */
function ViewToggle() {
  const mode = useCurves((s) => s.mode);
  return (
    <span className="view-toggle" role="group" aria-label="Timeline view">
      <button title="Dope sheet: keys per object and bone (G toggles)" data-testid="view-dopesheet" className={mode === 'dopesheet' ? 'on' : ''} onClick={() => mode !== 'dopesheet' && runCommand('toggleCurves')}>
        Dope Sheet
      </button>
      <button title="Curves: the selected prop or bone's curves (G toggles)" data-testid="view-curves" className={mode === 'curves' ? 'on' : ''} onClick={() => mode !== 'curves' && runCommand('toggleCurves')}>
        Curves
      </button>
    </span>
  );
}

/**
 * The bar above the timeline: drag it up for more dope sheet rows, down for
 * more viewport; double-click gives the default height back. The height is a
 * preference (kept across sessions, never an undo step).
 */
function TimelineResizer() {
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const startY = e.clientY;
    const startH = clampTimelineHeight(usePrefs.getState().timelineHeight, window.innerHeight);
    followPointer((ev) => setPref('timelineHeight', clampTimelineHeight(startH - (ev.clientY - startY), window.innerHeight)));
  };
  return (
    <div
      className="timeline-resizer"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the timeline"
      title="Drag to resize the timeline; double-click for the default height"
      data-testid="timeline-resizer"
      onPointerDown={onPointerDown}
      onDoubleClick={() => setPref('timelineHeight', DEFAULT_TIMELINE_HEIGHT)}
    />
  );
}

export function Timeline() {
  const mode = useCurves((s) => s.mode);
  const doc = useDocStore((s) => s.history.doc);
  const clip = activeClip(doc);
  const sel = useEphemeral((s) => s.selection);
  const selectedKeys = useEphemeral((s) => s.selectedKeys);
  const rows = useMemo(() => buildRows(doc, clip, sel), [doc, clip, sel]);
  const drawFrames = useMemo(() => new Map(clip ? rows.map((r) => [r.id, keyDrawFrames(clip, r.targets)] as const) : []), [clip, rows]);
  const area = useRef<HTMLDivElement>(null);
  const playhead = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  const start = clip?.startFrame ?? 0;
  const end = clip?.endFrame ?? 48;
  // The view: zoomed / panned by the user, or (null) the clip's range filling the sheet.
  const storedView = useEphemeral((s) => s.sheetView);
  const areaPx = Math.max(1, width - AREA_LEFT);
  const fit = fitView(start, end, areaPx - PAD);
  const view: SheetView = storedView ?? fit;
  const pxPerFrame = view.pxPerFrame;
  const xOf = (f: number) => AREA_LEFT + frameToX(view, f);
  const frameAt = (clientX: number) => {
    const r = area.current!.getBoundingClientRect();
    return Math.round(xToFrame(view, clientX - r.left - AREA_LEFT));
  };
  /** Whether sheet x is in the key area (right of the names column, inside the sheet). */
  const visibleX = (x: number) => x >= NAME_WIDTH + 2 && x <= width + 6;
  const live = useRef({ view, fit, start, end, areaPx });
  live.current = { view, fit, start, end, areaPx };
  /** The view now, also between a store change and the render it causes (several wheel events in one frame). */
  const currentView = () => useEphemeral.getState().sheetView ?? live.current.fit;
  const setView = (v: SheetView) => useEphemeral.setState({ sheetView: clampView(v, live.current.start, live.current.end, live.current.areaPx) });

  // A project loaded or another clip picked: the sheet shows the whole range again.
  const loadCount = useDocStore((s) => s.loadCount);
  const clipId = clip?.id;
  useEffect(() => useEphemeral.setState({ sheetView: null }), [clipId, loadCount]);

  // A zoomed view follows edits of the same clip's range and rate: End typed below the frames in sight left
  // the sheet showing only frames past the end (the playhead and every key of the range out of sight), and a
  // new frame rate renumbers the keys (frame 45 at 30 fps is 36 at 24), so the same frames showed other keys.
  const fps = clip?.frameRate ?? 30;
  const followed = useRef({ clipId, loadCount, fps });
  useEffect(() => {
    const was = followed.current;
    followed.current = { clipId, loadCount, fps };
    if (was.clipId !== clipId || was.loadCount !== loadCount) return; // the effect above fits the new clip
    const stored = useEphemeral.getState().sheetView;
    if (!stored) return;
    const next = clampView(was.fps !== fps ? rescaleView(stored, was.fps, fps) : stored, start, end, areaPx);
    if (next.originFrame !== stored.originFrame || next.pxPerFrame !== stored.pxPerFrame) useEphemeral.setState({ sheetView: next });
  }, [clipId, loadCount, fps, start, end, areaPx]);

  // Wheel: Ctrl (or Cmd, or a pinch) + wheel, or the wheel over the ruler, zooms around the mouse;
  // Shift + wheel and horizontal wheels pan; the plain wheel over the rows scrolls them. A non-passive
  // listener: Ctrl+wheel must not zoom the page.
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const overRuler = e.target instanceof Element && e.target.closest('.ruler') !== null;
      const dy = wheelPixels(e.deltaY, e.deltaMode, el.clientHeight);
      const dx = wheelPixels(e.deltaX, e.deltaMode, el.clientWidth);
      const g = live.current;
      const cur = currentView();
      let next: SheetView;
      if (e.ctrlKey || e.metaKey || (overRuler && !e.shiftKey)) {
        const x = Math.max(0, e.clientX - el.getBoundingClientRect().left - AREA_LEFT);
        next = zoomAt(cur, x, wheelZoomFactor(dy || dx));
      } else if (e.shiftKey) next = panBy(cur, -(dx || dy));
      else if (Math.abs(dx) > Math.abs(dy)) next = panBy(cur, -dx);
      else return;
      e.preventDefault();
      useEphemeral.setState({ sheetView: clampView(next, g.start, g.end, g.areaPx) });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  // Pan: middle drag or Alt + left drag anywhere on the sheet (caught before keys, rows and ruler see it).
  const panDrag = useRef<{ x0: number; view0: SheetView } | null>(null);
  const onPanDown = (e: React.PointerEvent) => {
    if (!(e.button === 1 || (e.button === 0 && e.altKey))) return;
    e.preventDefault();
    e.stopPropagation();
    area.current!.focus({ preventScroll: true });
    panDrag.current = { x0: e.clientX, view0: currentView() };
    area.current!.setPointerCapture(e.pointerId);
  };
  const onPanMove = (e: React.PointerEvent) => {
    const p = panDrag.current;
    if (!p) return;
    e.stopPropagation();
    setView(panBy(p.view0, e.clientX - p.x0));
  };
  const onPanUp = (e: React.PointerEvent) => {
    if (!panDrag.current) return;
    e.stopPropagation();
    panDrag.current = null;
  };

  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    // Hidden under the Curves view the sheet measures 0: it keeps its last width (and its zoom and pan with it).
    const ro = new ResizeObserver(() => el.clientWidth > 0 && setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);

  // The playhead stays in the range when the range changes (another clip picked, End typed below the
  // playhead, an undo): frame 45 of swing stayed frame 45 after switching to walk (0-30), off the sheet.
  const hasClip = clip !== undefined;
  useEffect(() => {
    if (!hasClip) return;
    const f = useEphemeral.getState().frame;
    if (f < start || f > end) setFrame(Math.min(end, Math.max(start, Math.round(f))));
  }, [hasClip, start, end]);

  // The selected object's row scrolls into sight: a prop's row sits below every animated bone of the
  // characters, and selecting the ball showed the mannequin's rows and none of the ball's keys.
  useLayoutEffect(() => {
    const el = area.current;
    // Several rows for an IK handle (its three bones): the first to the last, as far as they fit.
    const picked = sel && el ? el.querySelectorAll<HTMLElement>('.sheet-row.selected') : null;
    if (!el || !picked || !picked.length) return;
    const row = picked[0], last = picked[picked.length - 1];
    const ruler = el.querySelector<HTMLElement>('.ruler')?.offsetHeight ?? 0;
    // In the sheet's scrolled content (the row's offsetParent is the rows box, under the ruler).
    const top = row.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
    const bottom = Math.min(top + el.clientHeight - ruler, last.getBoundingClientRect().bottom - el.getBoundingClientRect().top + el.scrollTop);
    if (top - ruler < el.scrollTop) el.scrollTop = top - ruler;
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight;
  }, [sel]);

  // Playhead: imperative, follows the store without re-rendering the sheet; hidden when panned out of sight.
  useLayoutEffect(() => {
    const place = (frame: number) => {
      const el = playhead.current;
      if (!el) return;
      const x = AREA_LEFT + frameToX(live.current.view, frame);
      el.style.transform = `translateX(${x}px)`;
      el.style.visibility = x >= NAME_WIDTH && x <= width ? '' : 'hidden';
    };
    // A zoomed sheet follows the playhead when something else moves it out of sight (playback, a typed frame,
    // a key or finding jump): it went on playing, or landed, where the sheet did not show it. Playback pages
    // (the playhead starts again near the left edge); a jump centres it. Not while the sheet itself is being
    // scrubbed, panned or dragged.
    const follow = (frame: number): boolean => {
      const stored = useEphemeral.getState().sheetView;
      if (!stored || scrubbing.current || panDrag.current || keyDrag.current?.active) return false;
      const x = AREA_LEFT + frameToX(stored, frame);
      if (x >= NAME_WIDTH && x <= width - PAD) return false;
      const span = (width - AREA_LEFT - PAD) / stored.pxPerFrame;
      const originFrame = frame - (useEphemeral.getState().playing ? 0.05 : 0.5) * span;
      setView({ originFrame, pxPerFrame: stored.pxPerFrame });
      return true;
    };
    // Only a moved playhead is followed: a pan or zoom that leaves it out of sight is the animator's choice.
    let last = useEphemeral.getState().frame;
    place(last);
    return useEphemeral.subscribe((s) => {
      if (s.frame === last) return;
      last = s.frame;
      if (!follow(s.frame)) place(s.frame);
    });
  }, [view.originFrame, view.pxPerFrame, width]);

  // Scrubbing stays inside the clip's frame range: dragging past either end of the ruler (or over the
  // names column) put the playhead on frames like -11 or 63 of a 0-60 clip, off the sheet.
  const scrubFrame = (clientX: number) => Math.min(end, Math.max(start, frameAt(clientX)));
  const scrubbing = useRef(false);
  // Ctrl (or Cmd) + drag on the ruler sets the play range instead of scrubbing: from the frame pressed to the one released.
  // Escape during the drag puts back the range there was; a Ctrl+click without a drag says how to set one.
  const ranging = useRef<{ anchor: number; before: PlayRange[] } | null>(null);
  // (a window listener, not the Escape command: Ctrl may still be held, and Ctrl+Escape is no command)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !ranging.current) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      useEphemeral.setState({ playRanges: ranging.current.before });
      ranging.current = null;
      setStatus('Play range drag cancelled');
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  const onScrubDown = (e: React.PointerEvent) => {
    if (e.button !== 0) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    if ((e.ctrlKey || e.metaKey) && clip) {
      ranging.current = { anchor: scrubFrame(e.clientX), before: useEphemeral.getState().playRanges };
      useEphemeral.setState({ playing: false });
      return;
    }
    scrubbing.current = true;
    useEphemeral.setState({ playing: false, frame: scrubFrame(e.clientX) });
    if (!e.shiftKey) useEphemeral.setState({ selectedKeys: [] });
  };
  const onScrubMove = (e: React.PointerEvent) => {
    if (ranging.current !== null && clip) {
      const r = makePlayRange(clip, ranging.current.anchor, scrubFrame(e.clientX));
      if (r) useEphemeral.setState({ playRanges: withRange(ranging.current.before, clip.id, r) });
    } else if (scrubbing.current) setFrame(scrubFrame(e.clientX));
  };
  const onScrubUp = (e: React.PointerEvent) => {
    scrubbing.current = false;
    if (ranging.current === null || !clip) return;
    const { anchor, before } = ranging.current;
    const r = makePlayRange(clip, anchor, scrubFrame(e.clientX));
    ranging.current = null;
    if (r) {
      useEphemeral.setState({ playRanges: withRange(before, clip.id, r) });
      setStatus(`Play range ${r.from}–${r.to}: playback ${usePrefs.getState().loop ? 'loops over' : 'plays'} these frames; Alt+P clears it`);
    } else {
      useEphemeral.setState({ playRanges: before });
      setStatus('Ctrl+drag along the ruler to set a play range (P: the selected keys’ frames; Alt+P clears it)');
    }
  };

  // Box select: a drag over the rows (not on a key) selects the keys inside the box (Shift, Ctrl or Cmd
  // add to the selection); a click there without a drag puts the playhead on that frame and clears the
  // key selection. Scrubbing by dragging is on the ruler.
  const box = useRef<{ x0: number; y0: number; additive: boolean; base: SelectedKey[]; before: SelectedKey[]; active: boolean } | null>(null);
  const [marquee, setMarquee] = useState<{ left: number; top: number; width: number; height: number } | null>(null);
  const keysInBox = (x0: number, y0: number, x1: number, y1: number): SelectedKey[] => {
    const el = area.current;
    if (!el || !clip) return [];
    const r = el.getBoundingClientRect();
    // Keys panned under the names column are hidden: a box reaching over it does not pick them.
    const [lx, hx] = [Math.max(r.left + NAME_WIDTH, Math.min(x0, x1)), Math.max(x0, x1)];
    const [ly, hy] = [Math.min(y0, y1), Math.max(y0, y1)];
    const out: SelectedKey[] = [];
    const rowEls = el.querySelectorAll<HTMLElement>('.sheet-row');
    rows.forEach((row, i) => {
      const rr = rowEls[i]?.getBoundingClientRect();
      if (!rr || rr.bottom < ly || rr.top > hy) return;
      for (const f of rowFrames(clip, row)) {
        const x = r.left + xOf(f);
        if (x < lx || x > hx) continue;
        for (const k of rowKeysAt(clip, row, f)) if (!out.some((o) => o.frame === k.frame && sameTarget(o.target, k.target))) out.push(k);
      }
    });
    return out;
  };
  const onRowsDown = (e: React.PointerEvent) => {
    if (e.button !== 0) return;
    const additive = e.shiftKey || e.ctrlKey || e.metaKey;
    const before = useEphemeral.getState().selectedKeys;
    box.current = { x0: e.clientX, y0: e.clientY, additive, base: additive ? before : [], before, active: false };
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onRowsMove = (e: React.PointerEvent) => {
    const b = box.current;
    if (!b) return;
    if (!b.active && Math.abs(e.clientX - b.x0) + Math.abs(e.clientY - b.y0) < 4) return;
    b.active = true;
    const inside = keysInBox(b.x0, b.y0, e.clientX, e.clientY);
    const next = [...b.base];
    for (const k of inside) if (!next.some((o) => o.frame === k.frame && sameTarget(o.target, k.target))) next.push(k);
    useEphemeral.setState({ selectedKeys: next, playing: false });
    const r = area.current!.getBoundingClientRect();
    const st = area.current!.scrollTop;
    setMarquee({ left: Math.min(b.x0, e.clientX) - r.left, top: Math.min(b.y0, e.clientY) - r.top + st, width: Math.abs(e.clientX - b.x0), height: Math.abs(e.clientY - b.y0) });
  };
  const onRowsUp = (e: React.PointerEvent) => {
    const b = box.current;
    box.current = null;
    setMarquee(null);
    if (!b || b.active) return;
    useEphemeral.setState({ playing: false, frame: scrubFrame(e.clientX) });
    if (!b.additive) useEphemeral.setState({ selectedKeys: [] });
  };
  useEffect(() => {
    const cancel = () => {
      const b = box.current;
      if (!b || !b.active) return false;
      box.current = null;
      setMarquee(null);
      useEphemeral.setState({ selectedKeys: b.before });
      return true;
    };
    escapeHandlers.push(cancel);
    return () => void escapeHandlers.splice(escapeHandlers.indexOf(cancel), 1);
  }, []);

  // Key dragging.
  const keyDrag = useRef<{ startX: number; delta: number; keys: SelectedKey[]; active: boolean; clampedSaid?: boolean } | null>(null);
  useEffect(() => {
    const cancel = () => {
      if (!keyDrag.current) return false;
      const wasActive = keyDrag.current.active;
      keyDrag.current = null;
      if (wasActive) docActions.cancelDrag();
      return wasActive;
    };
    escapeHandlers.push(cancel);
    return () => void escapeHandlers.splice(escapeHandlers.indexOf(cancel), 1);
  }, []);

  const onKeyDown = (e: React.PointerEvent, row: RowDef, frame: number) => {
    e.stopPropagation();
    if (e.button !== 0 || !clip) return;
    const here = rowKeysAt(clip, row, frame);
    const cur = useEphemeral.getState().selectedKeys;
    let next: SelectedKey[];
    // Shift, Ctrl or Cmd add or remove a key (Ctrl replaced the selection, dropping the keys picked before).
    const additive = e.shiftKey || e.ctrlKey || e.metaKey;
    if (additive) {
      const already = isKeySelected(cur, row, frame);
      next = already ? cur.filter((k) => !(k.frame === frame && row.targets.some((t) => sameTarget(t, k.target)))) : [...cur, ...here];
    } else next = isKeySelected(cur, row, frame) ? cur : here;
    useEphemeral.setState({ selectedKeys: next, playing: false });
    if (!additive) select(row.selection);
    keyDrag.current = { startX: e.clientX, delta: 0, keys: next, active: false };
    // Window listeners: the diamond element is re-created at its new frame while dragging.
    followPointer(onKeyMove, () => onKeyUp());
  };
  const onKeyMove = (e: PointerEvent) => {
    const d = keyDrag.current;
    if (!d) return;
    // The dragged keys stay inside the clip's range, as a paste does: a key dragged past End (or before Start)
    // went off the sheet (Frame All fits the range), still bending the curve into the last frames.
    const wanted = Math.round((e.clientX - d.startX) / pxPerFrame);
    const delta = clampKeyDelta(d.keys.map((k) => k.frame), wanted, live.current.start, live.current.end);
    if (delta !== wanted && !d.clampedSaid) {
      d.clampedSaid = true;
      setStatus(`Keys stay inside the clip's range (${live.current.start}–${live.current.end}); change Start or End to key outside it`);
    }
    if (delta === d.delta) return;
    if (!d.active) {
      d.active = true;
      docActions.beginDrag('Move keys');
    }
    d.delta = delta;
    const groups = groupKeys(d.keys);
    docActions.updateDrag((doc) => {
      const c = activeClip(doc as ImpulseDocument);
      if (c) for (const g of groups) moveKeys(c, g.target, g.frames, delta);
    });
  };
  const onKeyUp = () => {
    const d = keyDrag.current;
    keyDrag.current = null;
    if (!d || !d.active) return;
    const moved = d.keys.map((k) => ({ target: k.target, frame: k.frame + d.delta }));
    docActions.commitDrag({ before: d.keys, after: moved });
    if (d.delta === 0) return;
    useEphemeral.setState({ selectedKeys: moved });
    // Say what the drag did (it said nothing: the status kept whatever came before, a play range or a copy).
    const c = activeClip(useDocStore.getState().history.doc);
    let n = 0;
    if (c) for (const k of moved) for (const t of c.tracks) if (sameTarget(t.target, k.target) && keyIndexAtFrame(t, k.frame, c.frameRate) >= 0) n++;
    const by = Math.abs(d.delta);
    const moveText = `Moved ${n} key${n === 1 ? '' : 's'} ${by} frame${by === 1 ? '' : 's'} ${d.delta > 0 ? 'later' : 'earlier'}`;
    setStatus(d.clampedSaid ? `${moveText}: keys stay inside the clip's range (${live.current.start}–${live.current.end})` : `${moveText} (Ctrl+Z puts them back)`);
  };

  // Ruler labels every 1, 2, 5, 10, 20, 50, … frames (at least 40 px apart), over the whole visible span.
  const step = labelStep(pxPerFrame);
  const ticks = useMemo(
    () => tickFrames(view, NAME_WIDTH + 12 - AREA_LEFT, width - 8 - AREA_LEFT, step),
    [view.originFrame, view.pxPerFrame, width, step],
  );
  const playRanges = useEphemeral((s) => s.playRanges);
  const bounds = clip ? playBounds(clip, playRanges) : { from: start, to: end, limited: false };
  // Frames outside the clip's range are shaded.
  const shadeLeft = Math.min(width, Math.max(NAME_WIDTH, xOf(start)));
  const shadeRight = Math.max(NAME_WIDTH, Math.min(width, xOf(end)));

  return (
    <div className="panel timeline" data-testid="timeline">
      <TimelineResizer />
      <Transport clip={clip} />
      {mode === 'curves' && <CurveEditor />}
      {/* The dope sheet stays mounted (hidden) under the Curves view: its view, listeners and size observer carry on. */}
      <div
        className="sheet"
        hidden={mode === 'curves'}
        ref={area}
        tabIndex={0}
        data-dopesheet
        data-testid="dopesheet"
        data-px-per-frame={pxPerFrame}
        data-start={view.originFrame}
        data-name-width={AREA_LEFT}
        data-label-step={step}
        data-view={storedView ? 'zoomed' : 'fit'}
        onPointerDownCapture={onPanDown}
        onPointerMoveCapture={onPanMove}
        onPointerUpCapture={onPanUp}
        onAuxClick={(e) => e.preventDefault()}
      >
        {/* The content box: the playhead and the check bands span all of it (the sheet's own box is one screenful; scrolled down they stopped there). */}
        <div className="sheet-content" data-testid="sheet-content">
          <div className="ruler" data-testid="ruler" data-step={step} onPointerDown={onScrubDown} onPointerMove={onScrubMove} onPointerUp={onScrubUp}>
            {bounds.limited && (
              <div
                className="play-range"
                data-testid="play-range"
                data-from={bounds.from}
                data-to={bounds.to}
                style={{ left: Math.max(NAME_WIDTH, xOf(bounds.from)), width: Math.max(0, Math.min(width, xOf(bounds.to)) - Math.max(NAME_WIDTH, xOf(bounds.from))) }}
              />
            )}
            <div className="names-spacer" style={{ width: NAME_WIDTH }} />
            {ticks.map((f) => (
              <span key={f} className="tick" style={{ left: xOf(f) }}>
                {f}
              </span>
            ))}
            <ImpactHeads xOf={xOf} />
          </div>
          <div className="rows" data-testid="sheet-rows" onPointerDown={onRowsDown} onPointerMove={onRowsMove} onPointerUp={onRowsUp}>
            {shadeLeft > NAME_WIDTH && <div className="out-of-range" style={{ left: NAME_WIDTH, width: shadeLeft - NAME_WIDTH }} />}
            {shadeRight < width && <div className="out-of-range" style={{ left: shadeRight, width: width - shadeRight }} />}
            {rows.map((row) => {
              return (
                <div key={row.id} className={`sheet-row depth${row.depth}${row.selected ? ' selected' : ''}`} data-testid={`row-${row.id}`}>
                  <div
                    className="row-name"
                    style={{ width: NAME_WIDTH, paddingLeft: 6 + row.depth * 12 }}
                    onPointerDown={(e) => {
                      e.stopPropagation();
                      select(row.selection);
                    }}
                  >
                    {row.label}
                    {row.targets.length === 1 && clip && <InterpolationBadge clip={clip} target={row.targets[0]} />}
                  </div>
                  {rowFrames(clip, row)
                    .map((f) => ({ f, at: (clip && drawFrames.get(row.id)?.get(f)) ?? f }))
                    .filter(({ at }) => visibleX(xOf(at)))
                    .map(({ f, at }) => (
                      <div
                        key={f}
                        className={`key${isKeySelected(selectedKeys, row, f) ? ' selected' : ''}${row.targets.length > 1 ? ' summary' : ''}`}
                        style={{ left: xOf(at) }}
                        data-testid={`key-${row.id}-${f}`}
                        data-frame={f}
                        data-at={at}
                        title={at === f ? `Frame ${f}` : `Frame ${+at.toFixed(2)} (between frames; picked as ${f})`}
                        onPointerDown={(e) => onKeyDown(e, row, f)}
                      />
                    ))}
                </div>
              );
            })}
            {!rows.length && <div className="muted empty-sheet">No objects. Import a glTF or open the sample.</div>}
          </div>
          {marquee && <div className="marquee" data-testid="sheet-marquee" style={marquee} />}
          <div className="sheet-overlay" style={{ left: NAME_WIDTH }}>
            <TimelineBands view={view} left={AREA_LEFT - NAME_WIDTH} />
          </div>
          <div className="playhead" ref={playhead} data-testid="playhead" />
        </div>
      </div>
    </div>
  );
}

function InterpolationBadge({ clip, target }: { clip: Clip; target: TrackTarget }) {
  const t = findTrack(clip, target, 'rotation') ?? findTrack(clip, target, 'translation') ?? findTrack(clip, target, 'scale');
  if (!t) return null;
  return <span className={`interp ${t.interpolation}`} data-testid={`interp-${targetKey(target)}`}>{t.interpolation[0].toUpperCase()}</span>;
}

