/**
 * The Suggest panel: which objects to simulate (default: the selected dynamic
 * prop or character, else every dynamic prop), the frame range, Suggest motion, and for the shown
 * suggestion its impacts and key count with Accept / Reject.
 */
import { useMemo, useRef, useState } from 'react';
import { useDocStore } from '../state/documentStore';
import { useEphemeral } from '../state/ephemeral';
import { activeClip } from '../state/keys';
import { runCommand } from '../commands';
import { useJobs } from '../workers/engine';
import { setFrame } from '../actions';
import { groupImpacts } from './impactGroups';
import { heldProps } from './heldProps';
import { acceptSuggestion, rejectSuggestion, resolveRange, resolveTargets, suggestionOf, toggleTarget, useSuggest } from './suggestStore';

function nameOf(doc: ReturnType<typeof useDocStore.getState>['history']['doc'], id: string): string {
  if (id === 'ground') return 'Ground';
  return doc.props.find((p) => p.id === id)?.name ?? doc.characters.find((c) => c.id === id)?.name ?? id;
}

/** Stops playback and puts the playhead on the frame of an impact (rounded down: the impact happens during that frame). */
function goToFrame(frame: number): void {
  useEphemeral.setState({ playing: false });
  setFrame(Math.floor(frame + 1e-9));
}

/**
 * A frame number typed digit by digit: while the field has focus it shows what
 * is typed (each valid number is stored as typed, so Suggest uses it), and only
 * on leaving it does it show the range as Suggest will clamp it. Showing the
 * clamped value while typing turned "34" into 60: "3" became the lowest legal
 * end frame, 27, and the "4" typed after it made 274.
 */
function FrameField({ testId, value, onValue }: { testId: string; value: number; onValue: (frame: number) => void }) {
  const [text, setText] = useState<string | null>(null);
  const before = useRef(value);
  return (
    <input
      type="number"
      className="num"
      data-testid={testId}
      value={text ?? String(value)}
      step={1}
      onFocus={() => {
        before.current = value;
        setText(String(value));
      }}
      onChange={(e) => {
        setText(e.target.value);
        if (Number.isFinite(e.target.valueAsNumber)) onValue(Math.round(e.target.valueAsNumber));
      }}
      onBlur={() => setText(null)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
        if (e.key === 'Escape') {
          // Escape puts the frame back and leaves the field; it must not reach the app's Escape, which
          // deselects (and so changes what Suggest simulates).
          e.stopPropagation();
          onValue(before.current);
          e.currentTarget.blur();
        }
      }}
    />
  );
}

export function SuggestPanel() {
  const doc = useDocStore((s) => s.history.doc);
  useEphemeral((s) => s.selection); // targets follow the selection
  const { result } = useSuggest();
  const running = useJobs((s) => s.active?.kind === 'suggest');
  const clip = activeClip(doc);
  const effective = resolveTargets(doc);
  const range = resolveRange(doc);
  const toggle = (id: string, on: boolean) => toggleTarget(doc, id, on);
  const pickedKey = effective.join(',');
  const from = range?.[0];
  // Props the picked characters carry: they keep their keys and would strike the limp body.
  const held = useMemo(() => (clip && from !== undefined ? heldProps(doc, clip.id, pickedKey.split(','), from) : []), [doc, clip, pickedKey, from]);
  const sug = suggestionOf(result);
  const fps = clip?.frameRate ?? 30;
  return (
    <div className="suggest-panel" data-testid="suggest-panel">
      <h5>Simulate</h5>
      <ul className="suggest-targets">
        {doc.props.map((p) => (
          <li key={p.id}>
            <label>
              <input type="checkbox" data-testid={`suggest-target-${p.id}`} checked={effective.includes(p.id)} onChange={(e) => toggle(p.id, e.target.checked)} /> {p.name}{' '}
              <span className="muted">{p.physics.mode}</span>
            </label>
          </li>
        ))}
        {doc.characters.map((c) => (
          <li key={c.id}>
            <label>
              <input type="checkbox" data-testid={`suggest-target-${c.id}`} checked={effective.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} /> {c.name}{' '}
              <span className="muted">ragdoll</span>
            </label>
          </li>
        ))}
      </ul>
      {held.map((h) => (
        <div key={h.prop} className="suggest-held" data-testid={`suggest-held-${h.prop}`}>
          <span className="muted">
            {nameOf(doc, h.prop)} moves with {nameOf(doc, h.character)}&apos;s {h.joint} and keeps its keys: it will go on swinging and strike the limp body.
          </span>{' '}
          <button data-testid={`suggest-held-pick-${h.prop}`} onClick={() => toggle(h.prop, true)}>
            Simulate {nameOf(doc, h.prop)} too
          </button>
        </div>
      ))}
      <div className="suggest-range">
        <label>From</label>
        <FrameField testId="suggest-from" value={range?.[0] ?? 0} onValue={(v) => useSuggest.setState({ fromFrame: v })} />
        <label>To</label>
        <FrameField testId="suggest-to" value={range?.[1] ?? 0} onValue={(v) => useSuggest.setState({ toFrame: v })} />
      </div>
      <div className="panel-actions">
        <button className="primary" data-testid="suggest-run" disabled={running || !clip || !effective.length} onClick={() => runCommand('suggest')}>
          Suggest motion
        </button>
        {!effective.length && (
          <span className="muted" data-testid="suggest-none">
            Pick what to simulate
          </span>
        )}
      </div>
      {sug && result && (
        <div className="suggestion" data-testid="suggestion">
          <div>
            Ghost of {sug.objects.map((id) => nameOf(doc, id)).join(', ')}, frames {sug.fromFrame}–{sug.toFrame}: <b data-testid="suggestion-keys">{result.keyCount}</b> keys ({result.denseKeyCount} at one per
            frame)
          </div>
          <ul className="impacts" data-testid="impacts">
            {groupImpacts(result.impacts, fps).map((g, i) => (
              <li key={i} data-testid="impact" data-frame={Math.floor(g.firstFrame)} data-count={g.count}>
                <button className="impact-jump" title={g.count > 1 ? 'Go to the strongest impact of this run' : 'Go to this impact'} onClick={() => goToFrame(g.peakFrame)}>
                  {g.count > 1 ? `frames ${g.firstFrame.toFixed(1)}–${g.lastFrame.toFixed(1)}` : `frame ${g.firstFrame.toFixed(1)}`}: {nameOf(doc, g.a)}
                  {g.parts[0] ? ` · ${g.parts[0]}` : ''} ↔ {nameOf(doc, g.b)}
                  {g.parts[1] ? ` · ${g.parts[1]}` : ''} · {g.count > 1 ? `${g.count} impacts, strongest ${g.peakImpulse.toFixed(3)} N·s` : `${g.peakImpulse.toFixed(3)} N·s`}
                </button>
              </li>
            ))}
          </ul>
          <p className="muted">Changing mass, restitution or friction runs it again.</p>
          <div className="panel-actions">
            <button className="primary" data-testid="suggest-accept" onClick={acceptSuggestion}>
              Accept
            </button>
            <button data-testid="suggest-reject" onClick={rejectSuggestion}>
              Reject
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
