/**
 * The findings panel: Check clip, the live-check switch, one row per
 * finding (objects and body parts, frame range, first contact, deepest
 * penetration); click a row to jump to its deepest frame and select the
 * part; ignore a pair of parts or a pair of objects; the project's ignore
 * rules with a way to remove each.
 */
import { useMemo, useState } from 'react';
import type { ImpulseDocument, PartRef } from '../../../core/document/types';
import { useDocStore } from '../state/documentStore';
import { activeClip } from '../state/keys';
import { runCommand } from '../commands';
import { useJobs } from '../workers/engine';
import { findingMeta, groupFindings, isIgnored, visibleFindings, type Finding, type FindingGroup as Group } from './findings';

export { groupFindings } from './findings';
import { ignoreFinding, jumpToFinding, removeIgnoreRule, setLiveEnabled, useCheck } from './checkStore';

function partName(doc: ImpulseDocument, r: PartRef): string {
  const c = doc.characters.find((x) => x.id === r.object);
  if (c) return r.joint === undefined ? `${c.name} (all parts)` : `${c.name} · ${c.skeleton.joints[r.joint]?.name ?? `joint ${r.joint}`}`;
  return doc.props.find((p) => p.id === r.object)?.name ?? r.object;
}

function objectName(doc: ImpulseDocument, id: string): string {
  return doc.characters.find((c) => c.id === id)?.name ?? doc.props.find((p) => p.id === id)?.name ?? id;
}

function sideText(doc: ImpulseDocument, s: Finding['a']): string {
  const obj = objectName(doc, s.object);
  return s.joint === undefined ? obj : `${obj} · ${s.label}`;
}

function FindingRow({ f, doc, fps, selected }: { f: Finding; doc: ImpulseDocument; fps: number; selected: boolean }) {
  return (
    <li className={`finding${selected ? ' selected' : ''}`} data-testid="finding" data-finding={f.id} data-objects={`${f.a.object}|${f.b.object}`}>
      <button className="finding-main" data-testid="finding-jump" onClick={() => jumpToFinding(f)} title="Jump to the deepest frame and select the part">
        <span className="finding-pair">
          {sideText(doc, f.a)} <span className="muted">↔</span> {sideText(doc, f.b)}
        </span>
        <span className="finding-meta">{findingMeta(f, fps)}</span>
      </button>
      <span className="finding-actions">
        {(f.a.joint !== undefined || f.b.joint !== undefined) && (
          <button data-testid="ignore-parts" title="Ignore these two parts (saved in the project)" onClick={() => ignoreFinding(f, false)}>
            Ignore parts
          </button>
        )}
        <button data-testid="ignore-objects" title="Ignore every contact between these two objects (saved in the project)" onClick={() => ignoreFinding(f, true)}>
          Ignore objects
        </button>
      </span>
    </li>
  );
}

function FindingGroup({ group, doc, fps, selected }: { group: Group; doc: ImpulseDocument; fps: number; selected: string | null }) {
  const hasSelected = group.findings.some((f) => f.id === selected);
  const [open, setOpen] = useState(group.findings.length <= 3);
  const first = group.findings[0];
  return (
    <div className="finding-group" data-testid="finding-group" data-objects={group.key}>
      <div className="finding-group-head">
        <button className="twisty" data-testid="finding-group-toggle" onClick={() => setOpen(!(open || hasSelected))}>
          {open || hasSelected ? '▾' : '▸'}
        </button>
        <span className="finding-group-title" onClick={() => setOpen(!(open || hasSelected))}>
          {objectName(doc, group.a)} <span className="muted">↔</span> {objectName(doc, group.b)}
          <span className="finding-meta">
            {' '}
            {group.findings.length} · frames {group.startFrame}–{group.endFrame} · max {(group.maxDepth * 100).toFixed(1)} cm
          </span>
        </span>
        <button data-testid="ignore-group" title={group.a === group.b ? 'Ignore every self-contact of this character (saved in the project)' : 'Ignore every contact between these two objects (saved in the project)'} onClick={() => ignoreFinding(first, true)}>
          Ignore
        </button>
      </div>
      {(open || hasSelected) && (
        <ul>
          {group.findings.map((f) => (
            <FindingRow key={f.id} f={f} doc={doc} fps={fps} selected={f.id === selected} />
          ))}
        </ul>
      )}
    </div>
  );
}

export function FindingsPanel() {
  const doc = useDocStore((s) => s.history.doc);
  const clip = activeClip(doc);
  const { clipId, findings, checkedFrames, totalFrames, updating, selectedFinding, liveEnabled, live, liveError, warnings } = useCheck();
  const running = useJobs((s) => s.active?.kind === 'checkClip');
  const visible = useMemo(() => visibleFindings(findings, doc.check.ignore), [findings, doc.check.ignore]);
  const hidden = findings.length - visible.length;
  const groups = useMemo(() => groupFindings(visible), [visible]);
  // the viewport draws only the contacts no ignore rule hides: count those, as the summary counts findings
  const liveShown = useMemo(() => (live ? live.contacts.filter((c) => !isIgnored(doc.check.ignore, c.a, c.b)).length : 0), [live, doc.check.ignore]);
  const fps = clip?.frameRate ?? 30;
  const checked = clipId !== null && clipId === clip?.id;
  return (
    <div className="findings-panel" data-testid="findings-panel">
      <div className="panel-actions">
        <button className="primary" data-testid="check-clip" disabled={running || !clip} onClick={() => runCommand('checkClip')}>
          Check clip
        </button>
        <label title="Check the playhead frame while scrubbing and posing">
          <input type="checkbox" data-testid="live-check" checked={liveEnabled} onChange={(e) => setLiveEnabled(e.target.checked)} /> Live
        </label>
        {live && liveEnabled && (
          <span className="muted" data-testid="live-count" title="Contacts at the playhead frame; ignored ones are not drawn">
            frame {live.frame}: {liveShown} contact{liveShown === 1 ? '' : 's'}
            {live.contacts.length > liveShown ? ` (${live.contacts.length - liveShown} ignored)` : ''}
          </span>
        )}
      </div>
      {liveError && (
        <div className="muted warning" data-testid="live-error">
          Live check stopped: {liveError}
        </div>
      )}
      {checked ? (
        <div className="muted" data-testid="check-summary">
          {visible.length} finding{visible.length === 1 ? '' : 's'}
          {hidden ? ` (${hidden} ignored)` : ''} · {checkedFrames}/{totalFrames} frames checked{updating ? ' · updating…' : ''}
        </div>
      ) : (
        <div className="muted">Not checked yet. Check clip finds every interpenetration, between frames too.</div>
      )}
      {warnings.map((w, i) => (
        <div key={i} className="muted warning">
          ⚠ {w}
        </div>
      ))}
      {checked && (
        <div className="findings" data-testid="findings">
          {groups.map((g) => (
            <FindingGroup key={g.key} group={g} doc={doc} fps={fps} selected={selectedFinding} />
          ))}
        </div>
      )}
      <details className="ignore-details" data-testid="ignore-details">
        <summary>Ignore rules ({doc.check.ignore.length})</summary>
        <ul className="ignore-rules" data-testid="ignore-rules">
          {doc.check.ignore.map((r, i) => (
            <li key={i} data-testid="ignore-rule">
              <span title={r.note}>
                {partName(doc, r.a)} ↔ {partName(doc, r.b)}
              </span>
              <button title="Remove this rule" data-testid="remove-ignore-rule" onClick={() => removeIgnoreRule(i)}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
