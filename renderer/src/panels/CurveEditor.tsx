/**
 * The Curves view of the timeline area (a graph editor): the translation,
 * rotation (XYZ Euler degrees, unwrapped) and scale curves of the selected
 * prop or bone, sampled from the core's evaluation (state/curveData.ts), with
 * the keys as points.
 *
 * - Click a point to select it (Shift, Ctrl or Cmd add / remove); drag over
 *   the graph to box-select; a click on the graph puts the playhead there.
 * - Drag selected points: up / down changes their values, left / right moves
 *   them in time (the first movement picks which), one undo step; Escape
 *   cancels. The field under the channel list types the clicked key's value.
 * - Ctrl+wheel (or the wheel over the ruler) zooms time around the mouse, the
 *   wheel zooms values, Shift+wheel pans time, middle drag or Alt+drag pans;
 *   Home (with the graph focused) or the ⇔ button frames all.
 * - Right-click: tangents and interpolation of the selected keys.
 * - Normalize (the N button): each curve drawn scaled into −1…1 over the
 *   clip's range, so metres, degrees and scale read together; keys, the
 *   field, drags and handles keep each curve's own units (the scale is held
 *   still during a drag).
 * - Tangent handles: the clicked key of a cubic translation or scale curve
 *   shows its in- and out-handles; dragging a dot sets that slope (one undo
 *   step, Escape cancels). Both sides move together (aligned, a smooth key);
 *   Shift while dragging breaks them (the dragged side only); a key whose
 *   slopes differ stays broken (each side moves alone) until a preset joins
 *   them. Rotation keys
 *   have none: their tangents are quaternion derivatives, not the Euler
 *   slopes drawn.
 *
 * The playhead follows the store imperatively (no React render per frame).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { followPointer } from './followPointer';
import type { ImpulseDocument, TrackTarget, Transform } from '../../../core/document/types';
import { docActions, useDocStore } from '../state/documentStore';
import { useEphemeral, setStatus, type SelectedKey } from '../state/ephemeral';
import { activeClip, sameTarget } from '../state/keys';
import {
  CURVE_CHANNELS,
  applyTimeDrag,
  applyValueDrag,
  channelIndex,
  keyTangents,
  setKeyTangentSlope,
  tangentsBroken,
  curveSampleTimes,
  curveSpan,
  curveValue,
  normalizeCurves,
  sampleTargetCurves,
  targetKeyTimes,
  type CurveChannel,
  type CurveChannelId,
  type CurveKeyRef,
  type CurveNorm,
  type TargetCurves,
  type ValueDragKey,
} from '../state/curveData';
import { isCurveKeySelected, toggleCurveKey, useCurves } from '../state/curveStore';
import { clampKeyDelta, frameToX, labelStep, tickFrames, wheelPixels, wheelZoomFactor, xToFrame } from './sheetView';
import { fitCurveView, formatValue, handleOffset, slopeFromHandle, type HandleSide, panCurveView, valueStep, valueTicks, valueToY, zoomTimeAt, zoomValueAt, type CurveView } from './curveView';
import { setFrame } from '../actions';
import { escapeHandlers, runCommand, type CommandId } from '../commands';
import { NumberField } from './fields';

const LIST_WIDTH = 180;
const RULER_HEIGHT = 20;
/** Gap left of the first frame in the graph (the value labels sit there). */
const GRAPH_PAD = 44;
const KEY_RADIUS = 4;
const DASH: Record<string, string | undefined> = { translation: undefined, rotation: '6 3', scale: '2 3' };

interface Subject {
  target: TrackTarget;
  name: string;
  rest: Transform;
}

/** What the curve editor shows for the selection: an object's curves, or why there are none. */
function subjectOf(doc: ImpulseDocument, sel: ReturnType<typeof useEphemeral.getState>['selection']): Subject | string {
  if (!sel) return 'Select a prop or a bone (in the viewport or the outliner) to see its curves.';
  if (sel.kind === 'prop') {
    const p = doc.props.find((x) => x.id === sel.id);
    return p ? { target: { kind: 'prop', prop: p.id }, name: p.name, rest: p.transform } : 'Select a prop or a bone to see its curves.';
  }
  const c = doc.characters.find((x) => x.id === (sel.kind === 'character' ? sel.id : sel.character));
  if (!c) return 'Select a prop or a bone to see its curves.';
  if (sel.kind === 'joint') {
    const j = c.skeleton.joints[sel.joint];
    if (j) return { target: { kind: 'joint', character: c.id, joint: sel.joint }, name: `${c.name}: ${j.name}`, rest: j.rest };
  }
  return `${c.name}: select one of its bones (click it in the viewport or the outliner) to see that bone's curves.`;
}

interface DrawKey {
  ref: CurveKeyRef;
  x: number;
  y: number;
  value: number;
  selected: boolean;
}

/** The value channel `c` (index in CURVE_CHANNELS) is drawn at: its own, or normalized. */
function shownValue(norm: CurveNorm | null, c: number, value: number): number {
  return norm ? (value - norm.offset[c]) / norm.scale[c] : value;
}

/** Every key point of the shown channels, where it is drawn. */
function drawKeys(curves: TargetCurves, target: TrackTarget, shown: readonly CurveChannel[], view: CurveView, fps: number, selected: readonly SelectedKey[], norm: CurveNorm | null): DrawKey[] {
  const out: DrawKey[] = [];
  for (const ch of shown) {
    const c = channelIndex(ch.id);
    for (const k of curves.keys[ch.path]) {
      const value = curveValue(curves, ch.id, k.sample);
      out.push({
        ref: { target, channel: ch.id, frame: k.frame },
        x: GRAPH_PAD + frameToX(view, k.timeSec * fps),
        y: valueToY(view, shownValue(norm, c, value)),
        value,
        selected: isCurveKeySelected(selected, target, ch.id, k.frame),
      });
    }
  }
  return out;
}

/** Polyline points of channel `ch` between pixel columns 0 and `width` (one sample beyond each side). */
function polyline(curves: TargetCurves, ch: CurveChannel, view: CurveView, fps: number, width: number, norm: CurveNorm | null): string {
  const n = curves.times.length;
  const c = channelIndex(ch.id), row = c * n;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = GRAPH_PAD + frameToX(view, curves.times[i] * fps);
    if (x < 0 && i + 1 < n && GRAPH_PAD + frameToX(view, curves.times[i + 1] * fps) < 0) continue;
    parts.push(`${x.toFixed(2)},${valueToY(view, shownValue(norm, c, curves.values[row + i])).toFixed(2)}`);
    if (x > width) break;
  }
  return parts.join(' ');
}

export function CurveEditor() {
  const doc = useDocStore((s) => s.history.doc);
  const clip = activeClip(doc);
  const sel = useEphemeral((s) => s.selection);
  const selectedKeys = useEphemeral((s) => s.selectedKeys);
  const hidden = useCurves((s) => s.hidden);
  const storedView = useCurves((s) => s.view);
  const active = useCurves((s) => s.active);
  const normalized = useCurves((s) => s.normalized);
  const subject = subjectOf(doc, sel);
  const target = typeof subject === 'string' ? null : subject.target;
  const shown = useMemo(() => CURVE_CHANNELS.filter((c) => !hidden.includes(c.id)), [hidden]);

  const root = useRef<HTMLDivElement>(null);
  const graph = useRef<HTMLDivElement>(null);
  const playhead = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 600, height: 150 });
  useLayoutEffect(() => {
    const el = graph.current;
    if (!el) return;
    const read = () => setSize({ width: el.clientWidth, height: Math.max(20, el.clientHeight - RULER_HEIGHT) });
    const ro = new ResizeObserver(read);
    ro.observe(el);
    read();
    return () => ro.disconnect();
  }, []);
  const { width, height } = size;
  const fps = clip?.frameRate ?? 30;
  const start = clip?.startFrame ?? 0;
  const end = clip?.endFrame ?? 48;
  const areaPx = Math.max(1, width - GRAPH_PAD - 12);

  // Samples over the whole span of the object's keys and the clip's range (so the unwrapped rotation angles do
  // not depend on the part in sight), about two per pixel at the current zoom.
  const pxPerFrame = storedView?.pxPerFrame ?? areaPx / Math.max(1, end - start);
  const rest = typeof subject === 'string' ? null : subject.rest;
  const targetId = target ? JSON.stringify(target) : '';
  const curves = useMemo(() => {
    if (!target || !clip || !rest) return null;
    const [lo, hi] = curveSpan(clip, target);
    return sampleTargetCurves(clip, target, rest, curveSampleTimes(lo, hi, 0.5 / (pxPerFrame * fps), targetKeyTimes(clip, target)));
  }, [clip, targetId, rest, pxPerFrame, fps]);

  // Normalized: the scale of each curve, held still while a drag changes the curves under it.
  const heldNorm = useRef<CurveNorm | null>(null);
  const [, redraw] = useState(0);
  /** Ends a drag's hold on the normalized scales (they refit to the changed curves). */
  const releaseNorm = () => {
    if (!heldNorm.current) return;
    heldNorm.current = null;
    redraw((x) => x + 1);
  };
  const liveNorm = useMemo(() => (normalized && curves ? normalizeCurves(curves, fps, start, end) : null), [normalized, curves, fps, start, end]);
  const norm = normalized ? (heldNorm.current ?? liveNorm) : null;
  const normRef = useRef(norm);
  normRef.current = norm;

  // Frame all: the clip's range, and the values the shown curves take in it.
  const fit = useMemo((): CurveView => {
    let lo = Infinity, hi = -Infinity;
    if (curves) {
      const n = curves.times.length;
      for (const ch of shown) {
        const c = channelIndex(ch.id), row = c * n;
        for (let i = 0; i < n; i++) {
          const f = curves.times[i] * fps;
          if (f < start - 1e-9 || f > end + 1e-9) continue;
          const v = shownValue(norm, c, curves.values[row + i]);
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    return fitCurveView(start, end, areaPx, lo, hi, height);
  }, [curves, shown, fps, start, end, areaPx, height, norm]);
  const view = storedView ?? fit;
  const live = useRef({ view, fit, start, end, fps });
  live.current = { view, fit, start, end, fps };
  const currentView = () => useCurves.getState().view ?? live.current.fit;
  const setView = (v: CurveView) => useCurves.setState({ view: v });

  // Another project or clip: frame all again.
  const loadCount = useDocStore((s) => s.loadCount);
  const clipId = clip?.id;
  useEffect(() => useCurves.setState({ view: null }), [clipId, loadCount, targetId]);

  const keys = useMemo(() => (curves && target ? drawKeys(curves, target, shown.filter((c) => curves.keyed[c.path]), view, fps, selectedKeys, norm) : []), [curves, target, shown, view, fps, selectedKeys, norm]);

  // Wheel: Ctrl (Cmd, pinch) + wheel or the wheel over the ruler zooms time around the mouse, Shift + wheel and
  // horizontal wheels pan time, the plain wheel zooms values around the mouse. Non-passive: Ctrl+wheel must not zoom the page.
  useEffect(() => {
    const el = graph.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const r = el.getBoundingClientRect();
      const overRuler = e.clientY - r.top < RULER_HEIGHT;
      const dy = wheelPixels(e.deltaY, e.deltaMode, el.clientHeight);
      const dx = wheelPixels(e.deltaX, e.deltaMode, el.clientWidth);
      const cur = currentView();
      const x = e.clientX - r.left - GRAPH_PAD, y = e.clientY - r.top - RULER_HEIGHT;
      e.preventDefault();
      if (e.ctrlKey || e.metaKey || (overRuler && !e.shiftKey)) setView(zoomTimeAt(cur, x, wheelZoomFactor(dy || dx)));
      else if (e.shiftKey) setView(panCurveView(cur, -(dx || dy), 0));
      else if (Math.abs(dx) > Math.abs(dy)) setView(panCurveView(cur, -dx, 0));
      else setView(zoomValueAt(cur, y, wheelZoomFactor(dy)));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [target !== null]);

  /** Graph coordinates (x from the graph's left edge, y from the top of the plot under the ruler) of a client point. */
  const local = (clientX: number, clientY: number) => {
    const r = graph.current!.getBoundingClientRect();
    return { x: clientX - r.left, y: clientY - r.top - RULER_HEIGHT };
  };
  const frameAtClient = (clientX: number) => Math.min(end, Math.max(start, Math.round(xToFrame(live.current.view, local(clientX, 0).x - GRAPH_PAD))));

  // Pan: middle drag or Alt + left drag (caught before points, graph and ruler see it).
  const pan = useRef<{ x0: number; y0: number; view0: CurveView } | null>(null);
  const onPanDown = (e: React.PointerEvent) => {
    if (!(e.button === 1 || (e.button === 0 && e.altKey))) return;
    e.preventDefault();
    e.stopPropagation();
    root.current?.focus({ preventScroll: true });
    pan.current = { x0: e.clientX, y0: e.clientY, view0: currentView() };
    graph.current!.setPointerCapture(e.pointerId);
  };
  const onPanMove = (e: React.PointerEvent) => {
    const p = pan.current;
    if (!p) return;
    e.stopPropagation();
    setView(panCurveView(p.view0, e.clientX - p.x0, e.clientY - p.y0));
  };
  const onPanUp = (e: React.PointerEvent) => {
    if (!pan.current) return;
    e.stopPropagation();
    pan.current = null;
  };

  // Scrub on the ruler.
  const scrubbing = useRef(false);
  const onScrubDown = (e: React.PointerEvent) => {
    if (e.button !== 0) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    scrubbing.current = true;
    useEphemeral.setState({ playing: false });
    setFrame(frameAtClient(e.clientX));
  };
  const onScrubMove = (e: React.PointerEvent) => {
    if (scrubbing.current) setFrame(frameAtClient(e.clientX));
  };
  const onScrubUp = () => void (scrubbing.current = false);

  // Box select over the graph; a click without a drag puts the playhead there and clears the key selection.
  const box = useRef<{ x0: number; y0: number; base: SelectedKey[]; before: SelectedKey[]; additive: boolean; active: boolean } | null>(null);
  const [marquee, setMarquee] = useState<{ left: number; top: number; width: number; height: number } | null>(null);
  const keysRef = useRef(keys);
  keysRef.current = keys;
  const onGraphDown = (e: React.PointerEvent) => {
    if (e.button !== 0) return;
    root.current?.focus({ preventScroll: true });
    const additive = e.shiftKey || e.ctrlKey || e.metaKey;
    const before = useEphemeral.getState().selectedKeys;
    box.current = { x0: e.clientX, y0: e.clientY, base: additive ? before : [], before, additive, active: false };
    (e.currentTarget as Element).setPointerCapture(e.pointerId);
  };
  const onGraphMove = (e: React.PointerEvent) => {
    const b = box.current;
    if (!b) return;
    if (!b.active && Math.abs(e.clientX - b.x0) + Math.abs(e.clientY - b.y0) < 4) return;
    b.active = true;
    const p0 = local(b.x0, b.y0), p1 = local(e.clientX, e.clientY);
    const [lx, hx, ly, hy] = [Math.min(p0.x, p1.x), Math.max(p0.x, p1.x), Math.min(p0.y, p1.y), Math.max(p0.y, p1.y)];
    let next: SelectedKey[] = [...b.base];
    for (const k of keysRef.current) if (k.x >= lx && k.x <= hx && k.y >= ly && k.y <= hy && !isCurveKeySelected(next, k.ref.target, k.ref.channel, k.ref.frame)) next = toggleCurveKey(next, k.ref);
    useEphemeral.setState({ selectedKeys: next, playing: false });
    setMarquee({ left: lx, top: ly + RULER_HEIGHT, width: hx - lx, height: hy - ly });
  };
  const onGraphUp = (e: React.PointerEvent) => {
    const b = box.current;
    box.current = null;
    setMarquee(null);
    if (!b || b.active) return;
    useEphemeral.setState({ playing: false });
    setFrame(frameAtClient(e.clientX));
    if (!b.additive) useEphemeral.setState({ selectedKeys: [] });
  };

  // Key drags: the first movement picks values (up / down) or time (left / right).
  const drag = useRef<{
    x0: number;
    y0: number;
    view: CurveView;
    axis: 'value' | 'time' | null;
    values: ValueDragKey[];
    refs: CurveKeyRef[];
    before: SelectedKey[];
    delta: number;
    clampedSaid?: boolean;
  } | null>(null);
  useEffect(() => {
    const cancel = () => {
      const b = box.current;
      if (b?.active) {
        box.current = null;
        setMarquee(null);
        useEphemeral.setState({ selectedKeys: b.before });
        return true;
      }
      const hd = handleDrag.current;
      if (hd) {
        handleDrag.current = null;
        releaseNorm();
        if (hd.begun) {
          docActions.cancelDrag();
          setStatus('Tangent drag cancelled');
        }
        return hd.begun;
      }
      const d = drag.current;
      if (!d) return false;
      drag.current = null;
      releaseNorm();
      if (d.axis) {
        docActions.cancelDrag();
        setStatus('Key drag cancelled');
      }
      return d.axis !== null;
    };
    escapeHandlers.push(cancel);
    return () => void escapeHandlers.splice(escapeHandlers.indexOf(cancel), 1);
  }, []);

  /** The curve keys a drag moves: the selected points of the shown curves (a dope sheet key: every shown curve's key on that frame). */
  const dragSet = (selected: readonly SelectedKey[]): ValueDragKey[] => {
    if (!curves || !target) return [];
    const out: ValueDragKey[] = [];
    for (const ch of shown) {
      if (!curves.keyed[ch.path]) continue;
      for (const k of curves.keys[ch.path]) {
        if (!isCurveKeySelected(selected, target, ch.id, k.frame)) continue;
        const rot = ch.path === 'rotation';
        const n = normRef.current;
        out.push({
          ref: { target, channel: ch.id, frame: k.frame },
          start: curveValue(curves, ch.id, k.sample),
          startEuler: rot ? [curveValue(curves, 'rx', k.sample), curveValue(curves, 'ry', k.sample), curveValue(curves, 'rz', k.sample)] : undefined,
          scale: n ? n.scale[channelIndex(ch.id)] : 1,
        });
      }
    }
    return out;
  };

  const onKeyDown = (e: React.PointerEvent, k: DrawKey) => {
    e.stopPropagation();
    if (e.button !== 0 || !clip) return;
    root.current?.focus({ preventScroll: true });
    const cur = useEphemeral.getState().selectedKeys;
    const additive = e.shiftKey || e.ctrlKey || e.metaKey;
    const next = additive ? toggleCurveKey(cur, k.ref) : k.selected ? cur : [k.ref];
    useEphemeral.setState({ selectedKeys: next, playing: false });
    useCurves.setState({ active: k.ref });
    if (additive && !isCurveKeySelected(next, k.ref.target, k.ref.channel, k.ref.frame)) return;
    const values = dragSet(next);
    drag.current = { x0: e.clientX, y0: e.clientY, view: currentView(), axis: null, values, refs: values.map((x) => x.ref), before: next, delta: 0 };
    followPointer(onKeyMove, () => onKeyUp());
  };
  const onKeyMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x0, dy = e.clientY - d.y0;
    if (!d.axis) {
      if (Math.abs(dx) + Math.abs(dy) < 4) return;
      d.axis = Math.abs(dy) >= Math.abs(dx) ? 'value' : 'time';
      // The view (and a normalized view's scales) hold still while keys move (a fitted view would refit under the pointer).
      if (!useCurves.getState().view) setView(d.view);
      heldNorm.current = normRef.current;
      docActions.beginDrag(d.axis === 'value' ? 'Change key values' : 'Move keys');
    }
    if (d.axis === 'value') {
      const delta = -dy / d.view.pxPerUnit;
      d.delta = delta;
      docActions.updateDrag((doc) => {
        const c = activeClip(doc as ImpulseDocument);
        if (c) applyValueDrag(c, d.values, delta);
      });
      return;
    }
    const wanted = Math.round(dx / d.view.pxPerFrame);
    const frames = d.refs.map((r) => r.frame);
    const delta = clampKeyDelta(frames, wanted, live.current.start, live.current.end);
    if (delta !== wanted && !d.clampedSaid) {
      d.clampedSaid = true;
      setStatus(`Keys stay inside the clip's range (${live.current.start}–${live.current.end}); change Start or End to key outside it`);
    }
    if (delta === d.delta) return;
    d.delta = delta;
    docActions.updateDrag((doc) => {
      const c = activeClip(doc as ImpulseDocument);
      if (c) applyTimeDrag(c, d.refs, delta);
    });
  };
  const onKeyUp = () => {
    const d = drag.current;
    drag.current = null;
    releaseNorm();
    if (!d || !d.axis) return;
    if (d.axis === 'value') {
      docActions.commitDrag({ before: d.before, after: d.before });
      const n = d.values.length, first = d.values[0];
      const sign = d.delta >= 0 ? '+' : '';
      // one curve (or real values): the change in its units; several normalized curves: in shown units
      const by = !first || (d.values.some((v) => (v.scale ?? 1) !== 1) && d.values.some((v) => v.ref.channel !== first.ref.channel))
        ? `by ${sign}${+d.delta.toFixed(4)} of each curve's half-range (normalized view)`
        : `by ${sign}${+(d.delta * (first.scale ?? 1)).toFixed(4)}${channelUnit(first.ref.channel)}`;
      setStatus(`Changed ${n} key value${n === 1 ? '' : 's'} ${by} (Ctrl+Z puts them back)`);
      return;
    }
    const moved: SelectedKey[] = d.before.map((k) => (d.refs.some((r) => r.frame === k.frame && sameTarget(r.target, k.target)) ? { ...k, frame: k.frame + d.delta } : k));
    docActions.commitDrag({ before: d.before, after: moved });
    if (d.delta === 0) return;
    useEphemeral.setState({ selectedKeys: moved });
    const a = useCurves.getState().active;
    if (a) useCurves.setState({ active: { ...a, frame: a.frame + d.delta } });
    const by = Math.abs(d.delta);
    setStatus(`Moved ${d.refs.length} key${d.refs.length === 1 ? '' : 's'} ${by} frame${by === 1 ? '' : 's'} ${d.delta > 0 ? 'later' : 'earlier'} (Ctrl+Z puts them back)`);
  };

  // Tangent handle drags: the dot follows the pointer; its angle on screen is the slope (one undo step).
  const handleDrag = useRef<{
    ref: CurveKeyRef;
    side: HandleSide;
    /** The key point's graph coordinates (it holds still: a tangent drag changes no key value or time), shifted by where the dot was grabbed. */
    keyX: number;
    keyY: number;
    view: CurveView;
    before: SelectedKey[];
    begun: boolean;
    slope: number;
    aligned: boolean;
    /** The key's slopes differed when the drag began: each side moves alone (Shift or not). */
    broken: boolean;
  } | null>(null);
  const onHandleDown = (e: React.PointerEvent, k: DrawKey, side: HandleSide, dotX: number, dotY: number) => {
    e.stopPropagation();
    if (e.button !== 0 || !clip) return;
    root.current?.focus({ preventScroll: true });
    useEphemeral.setState({ playing: false });
    // Where on the dot it was grabbed: the dot's centre keeps that offset from the pointer (no jump on press).
    const p = local(e.clientX, e.clientY);
    const view = currentView();
    const broken = tangentsBroken(keyTangents(clip, k.ref));
    handleDrag.current = { ref: k.ref, side, keyX: k.x + p.x - dotX, keyY: k.y + p.y - dotY, view, before: useEphemeral.getState().selectedKeys, begun: false, slope: 0, aligned: !broken, broken };
    followPointer(onHandleMove, () => onHandleUp());
  };
  const onHandleMove = (e: PointerEvent) => {
    const d = handleDrag.current;
    if (!d) return;
    const p = local(e.clientX, e.clientY);
    if (!d.begun) {
      d.begun = true;
      // The view holds still while the curve changes under the handle (a fitted view would refit).
      if (!useCurves.getState().view) setView(d.view);
      heldNorm.current = normRef.current;
      docActions.beginDrag('Change tangent');
    }
    const hn = heldNorm.current;
    const slope = slopeFromHandle(d.view, live.current.fps, p.x - d.keyX, p.y - d.keyY, d.side) * (hn ? hn.scale[channelIndex(d.ref.channel)] : 1);
    d.slope = slope;
    d.aligned = !e.shiftKey && !d.broken;
    const { ref, side, aligned } = d;
    docActions.updateDrag((doc) => {
      const c = activeClip(doc as ImpulseDocument);
      if (c) setKeyTangentSlope(c, ref, side < 0 ? 'in' : 'out', slope, aligned);
    });
  };
  const onHandleUp = () => {
    const d = handleDrag.current;
    handleDrag.current = null;
    releaseNorm();
    if (!d || !d.begun) return;
    docActions.commitDrag({ before: d.before, after: d.before });
    const unit = channelUnit(d.ref.channel).trim() || 'units';
    const what = d.aligned ? 'In and out slopes' : d.side < 0 ? 'In slope' : 'Out slope';
    setStatus(`${what} of ${CURVE_CHANNELS[channelIndex(d.ref.channel)].label} @ ${d.ref.frame}: ${+d.slope.toFixed(4)} ${unit}/s (Ctrl+Z puts it back)`);
  };

  // Playhead: imperative, follows the store without re-rendering the graph.
  useLayoutEffect(() => {
    const place = (frame: number) => {
      const el = playhead.current;
      if (!el) return;
      const x = GRAPH_PAD + frameToX(live.current.view, frame);
      el.style.transform = `translateX(${x}px)`;
      el.style.visibility = x >= 0 && x <= width ? '' : 'hidden';
    };
    place(useEphemeral.getState().frame);
    return useEphemeral.subscribe((s, prev) => {
      if (s.frame !== prev.frame) place(s.frame);
    });
  }, [view.originFrame, view.pxPerFrame, width, target !== null]);

  // Right-click menu: tangents and interpolation of the selected keys.
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    window.addEventListener('pointerdown', close);
    return () => window.removeEventListener('pointerdown', close);
  }, [menu]);

  const step = labelStep(view.pxPerFrame);
  const ticks = tickFrames(view, -GRAPH_PAD + 24, width - GRAPH_PAD - 8, step);
  const vStep = valueStep(view.pxPerUnit);
  const vTicks = valueTicks(view, 0, height, vStep);
  const shadeLeft = Math.max(0, Math.min(width, GRAPH_PAD + frameToX(view, start)));
  const shadeRight = Math.max(0, Math.min(width, GRAPH_PAD + frameToX(view, end)));

  const activeKey = active && target && sameTarget(active.target, target) ? keys.find((k) => k.ref.channel === active.channel && k.ref.frame === active.frame) : undefined;
  const tangents = activeKey && clip ? keyTangents(clip, activeKey.ref) : null;
  const handleTip = 'Drag to set the slope; in and out move together (a smooth key). Hold Shift while dragging to break them and move this side only (a broken key keeps its sides apart). Escape cancels, Ctrl+Z undoes.';

  return (
    <div className="curves" ref={root} tabIndex={0} data-curves data-testid="curves">
      <div className="curve-channels" style={{ width: LIST_WIDTH }} data-testid="curve-channels">
        <div className="curve-subject" data-testid="curve-subject">
          {typeof subject === 'string' ? '—' : subject.name}
          <span className="curve-subject-tools">
          <button title="Frame all: the clip's range and the shown curves (Home with the graph focused)" data-testid="curves-frame-all" onClick={() => useCurves.setState({ view: null })}>
            ⇔
          </button>
          <button
            title={normalized ? 'Normalized: each curve drawn in −1…1 over the clip’s range (keys keep their units). Click for real values.' : 'Normalize: draw each curve scaled into −1…1 over the clip’s range, so metres, degrees and scale read together'}
            className={normalized ? 'on' : ''}
            aria-pressed={normalized}
            data-testid="curves-normalize"
            onClick={() => {
              useCurves.setState({ normalized: !normalized, view: null });
              setStatus(normalized ? 'Curves: real values' : 'Curves normalized: each drawn in −1…1 over the clip’s range; keys, the field and drags keep their units');
            }}
          >
            N
          </button>
          </span>
        </div>
        {CURVE_CHANNELS.map((ch) => {
          const keyed = curves?.keyed[ch.path] ?? false;
          return (
            <label key={ch.id} className={`curve-channel${keyed ? '' : ' unkeyed'}`} data-testid={`curve-channel-${ch.id}`} title={keyed ? ch.label : `${ch.label}: not keyed (a flat line at its rest value)`}>
              <input
                type="checkbox"
                checked={!hidden.includes(ch.id)}
                onChange={(e) => useCurves.setState({ hidden: e.target.checked ? hidden.filter((h) => h !== ch.id) : [...hidden, ch.id] })}
              />
              <svg width="18" height="8" className="swatch">
                <line x1="0" y1="4" x2="18" y2="4" stroke={ch.color} strokeWidth="2" strokeDasharray={DASH[ch.path]} />
              </svg>
              {ch.label}
              {!keyed && <span className="curve-rest"> rest</span>}
            </label>
          );
        })}
        {activeKey && clip && (
          <div className="curve-value" data-testid="curve-value">
            <span>
              {CURVE_CHANNELS[channelIndex(activeKey.ref.channel)].label} @ {activeKey.ref.frame}
            </span>
            <NumberField
              testId="curve-value-field"
              label={`${CURVE_CHANNELS[channelIndex(activeKey.ref.channel)].label} at frame ${activeKey.ref.frame}`}
              value={activeKey.value}
              step={activeKey.ref.channel[0] === 'r' ? 1 : 0.01}
              digits={activeKey.ref.channel[0] === 'r' ? 2 : 4}
              onCommit={(v) => {
                const [one] = dragSet([activeKey.ref]);
                if (!one) return;
                docActions.edit('Key value', (d) => {
                  const c = activeClip(d as ImpulseDocument);
                  if (c) applyValueDrag(c, [{ ...one, start: 0 }], v);
                });
              }}
            />
            {tangents?.kind === 'none' && tangents.reason === 'rotation' && (
              <div className="muted curve-tangent-hint" data-testid="curve-tangent-hint">
                No tangent handles on rotation keys: their tangents are quaternion derivatives, not the Euler slopes drawn here (use the right-click Tangents presets).
              </div>
            )}
            {tangents?.kind === 'none' && tangents.reason === 'not-cubic' && (
              <div className="muted curve-tangent-hint" data-testid="curve-tangent-hint">
                Linear and step keys have no tangent handles: right-click › Interpolation: Cubic (or a Tangents preset) to get them.
              </div>
            )}
            {tangents?.kind === 'handles' && (
              <div className="muted curve-tangent-hint" data-testid="curve-tangent-hint">
                {tangentsBroken(tangents)
                  ? 'Broken (in and out differ): each handle moves alone; right-click › Tangents: Unify joins them at their mean slope (Auto or Flat also join them).'
                  : 'Drag a handle to set the slope; Shift breaks in from out.'}
              </div>
            )}
          </div>
        )}
      </div>
      <div
        className="curve-graph"
        ref={graph}
        data-testid="curve-graph"
        data-origin-frame={view.originFrame}
        data-px-per-frame={view.pxPerFrame}
        data-top-value={view.topValue}
        data-px-per-unit={view.pxPerUnit}
        data-normalized={norm ? 'yes' : 'no'}
        data-left={GRAPH_PAD}
        data-ruler={RULER_HEIGHT}
        onPointerDownCapture={onPanDown}
        onPointerMoveCapture={onPanMove}
        onPointerUpCapture={onPanUp}
        onAuxClick={(e) => e.preventDefault()}
        onContextMenu={(e) => {
          e.preventDefault();
          const r = graph.current!.getBoundingClientRect();
          setMenu({ x: e.clientX - r.left, y: e.clientY - r.top });
        }}
      >
        <div className="ruler curve-ruler" data-testid="curve-ruler" onPointerDown={onScrubDown} onPointerMove={onScrubMove} onPointerUp={onScrubUp}>
          {ticks.map((f) => (
            <span key={f} className="tick" style={{ left: GRAPH_PAD + frameToX(view, f) }}>
              {f}
            </span>
          ))}
        </div>
        {typeof subject === 'string' || !clip ? (
          <div className="muted curve-empty" data-testid="curves-empty">
            {!clip ? 'No clip: make one (Clip > New Clip) to key and see curves.' : (subject as string)}
          </div>
        ) : (
          <svg className="curve-plot" width={width} height={height} style={{ top: RULER_HEIGHT }} onPointerDown={onGraphDown} onPointerMove={onGraphMove} onPointerUp={onGraphUp} data-testid="curve-plot">
            {shadeLeft > 0 && <rect x={0} y={0} width={shadeLeft} height={height} className="curve-out" />}
            {shadeRight < width && <rect x={shadeRight} y={0} width={width - shadeRight} height={height} className="curve-out" />}
            {vTicks.map((v) => (
              <g key={v}>
                <line x1={0} x2={width} y1={valueToY(view, v)} y2={valueToY(view, v)} className={v === 0 ? 'curve-zero' : 'curve-grid'} />
                <text x={4} y={valueToY(view, v) - 2} className="curve-label">
                  {formatValue(v, vStep)}
                </text>
              </g>
            ))}
            {curves &&
              shown.map((ch) => (
                <polyline
                  key={ch.id}
                  data-testid={`curve-${ch.id}`}
                  data-keyed={curves.keyed[ch.path] ? 'yes' : 'no'}
                  points={polyline(curves, ch, view, fps, width, norm)}
                  data-offset={norm ? norm.offset[channelIndex(ch.id)] : 0}
                  data-scale={norm ? norm.scale[channelIndex(ch.id)] : 1}
                  fill="none"
                  stroke={ch.color}
                  strokeWidth={curves.keyed[ch.path] ? 1.5 : 1}
                  strokeOpacity={curves.keyed[ch.path] ? 1 : 0.45}
                  strokeDasharray={DASH[ch.path]}
                />
              ))}
            {/* Selected points last: drawn on top, and picked first where points overlap. */}
            {keys
              .filter((k) => k.x >= -KEY_RADIUS && k.x <= width + KEY_RADIUS)
              .sort((a, b) => Number(a.selected) - Number(b.selected))
              .map((k) => (
                <circle
                  key={`${k.ref.channel}-${k.ref.frame}`}
                  cx={k.x}
                  cy={k.y}
                  r={KEY_RADIUS}
                  className={`curve-key${k.selected ? ' selected' : ''}`}
                  data-testid={`curve-key-${k.ref.channel}-${k.ref.frame}`}
                  data-value={k.value}
                  onPointerDown={(e) => onKeyDown(e, k)}
                >
                  <title>{`${CURVE_CHANNELS[channelIndex(k.ref.channel)].label}, frame ${k.ref.frame}: ${+k.value.toFixed(4)}${channelUnit(k.ref.channel)}`}</title>
                </circle>
              ))}
            {activeKey && tangents?.kind === 'handles' &&
              ([-1, 1] as const).filter((side) => (side < 0 ? tangents.hasIn : tangents.hasOut)).map((side) => {
                const slope = side < 0 ? tangents.inSlope : tangents.outSlope;
                const o = handleOffset(view, fps, norm ? slope / norm.scale[channelIndex(activeKey.ref.channel)] : slope, side);
                const name = side < 0 ? 'in' : 'out';
                const color = CURVE_CHANNELS[channelIndex(activeKey.ref.channel)].color;
                return (
                  <g key={name} data-testid={`curve-handle-${name}`} data-slope={slope} className="curve-handle">
                    <line x1={activeKey.x} y1={activeKey.y} x2={activeKey.x + o.dx} y2={activeKey.y + o.dy} stroke={color} strokeWidth={1} pointerEvents="none" />
                    <circle
                      cx={activeKey.x + o.dx}
                      cy={activeKey.y + o.dy}
                      r={KEY_RADIUS - 0.5}
                      fill="#fff"
                      stroke={color}
                      strokeWidth={1.5}
                      style={{ cursor: 'crosshair' }}
                      data-testid={`curve-handle-${name}-dot`}
                      onPointerDown={(e) => onHandleDown(e, activeKey, side, activeKey.x + o.dx, activeKey.y + o.dy)}
                    >
                      <title>{`${name === 'in' ? 'In' : 'Out'} tangent: ${+slope.toFixed(4)}${channelUnit(activeKey.ref.channel)}/s. ${handleTip}`}</title>
                    </circle>
                  </g>
                );
              })}
          </svg>
        )}
        {curves && typeof subject !== 'string' && !curves.keyed.translation && !curves.keyed.rotation && !curves.keyed.scale && (
          <div className="muted curve-hint" data-testid="curves-unkeyed">
            {subject.name} has no keys in this clip: the lines are its rest values. Pose it and press S (or K) to key it.
          </div>
        )}
        {marquee && <div className="marquee" data-testid="curve-marquee" style={marquee} />}
        <div className="playhead curve-playhead" ref={playhead} data-testid="curve-playhead" />
        {menu && (
          <div className="curve-menu menu-items" style={{ left: menu.x, top: menu.y }} data-testid="curve-menu" onPointerDown={(e) => e.stopPropagation()}>
            {(
              [
                ['tangentsAuto', 'Tangents: Auto (smooth)'],
                ['tangentsFlat', 'Tangents: Flat'],
                ['tangentsLinear', 'Tangents: Linear'],
                ['tangentsUnify', 'Tangents: Unify (join broken)'],
                ['interpolationStep', 'Interpolation: Step'],
                ['interpolationLinear', 'Interpolation: Linear'],
                ['interpolationCubic', 'Interpolation: Cubic'],
                ['curvesFrameAll', 'Frame All'],
              ] as [CommandId, string][]
            ).map(([id, label]) => (
              <button
                key={id}
                data-testid={`curve-menu-${id}`}
                onClick={() => {
                  setMenu(null);
                  runCommand(id);
                }}
              >
                {label}
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

function channelUnit(id: CurveChannelId): string {
  const u = CURVE_CHANNELS[channelIndex(id)].unit;
  return u === '°' ? '°' : u === 'm' ? ' m' : '';
}
