/** Scene tree: characters (with their bones) and props; click to select. */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Character } from '../../../core/document/types';
import { useDocStore } from '../state/documentStore';
import { useEphemeral, select, sameSelection, type Selection } from '../state/ephemeral';

/** Hovering a row highlights its object or bone in the viewport. */
function hoverProps(sel: Selection) {
  return {
    onMouseEnter: () => useEphemeral.setState({ hover: sel }),
    onMouseLeave: () => {
      if (sameSelection(useEphemeral.getState().hover, sel)) useEphemeral.setState({ hover: null });
    },
  };
}

/**
 * Rows are reachable from the keyboard: Tab focuses a row, Enter or Space selects it, Up and Down move
 * between rows. They were plain clickable boxes, so without a mouse nothing could be selected (and the
 * keys, pose and check commands had nothing to work on).
 */
/** The row focused by a click (not from the keyboard) until it loses focus. */
let clickedRow: HTMLElement | null = null;

function keyboardProps(sel: Selection) {
  return {
    tabIndex: 0,
    role: 'button',
    onPointerDown: (e: React.PointerEvent<HTMLElement>) => void (clickedRow = e.currentTarget),
    onBlur: (e: React.FocusEvent<HTMLElement>) => {
      if (clickedRow === e.currentTarget) clickedRow = null;
    },
    onKeyDown: (e: React.KeyboardEvent<HTMLElement>) => {
      // Only a row reached from the keyboard takes these keys: after a click (which focuses the row too)
      // Space still plays and Up/Down still jump between keys.
      if (e.target !== e.currentTarget || clickedRow === e.currentTarget) return;
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
        select(sel);
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        const rows = [...(e.currentTarget.closest('.outliner')?.querySelectorAll<HTMLElement>('.row[tabindex]') ?? [])];
        const next = rows[rows.indexOf(e.currentTarget) + (e.key === 'ArrowDown' ? 1 : -1)];
        e.preventDefault();
        e.stopPropagation();
        next?.focus();
      }
    },
  };
}

function boneDepths(c: Character): number[] {
  const depth: number[] = [];
  c.skeleton.joints.forEach((j, i) => (depth[i] = j.parent < 0 ? 0 : depth[j.parent] + 1));
  return depth;
}

function CharacterNode({ c }: { c: Character }) {
  const selectedHere = useEphemeral((s) => {
    const sel = s.selection;
    if (!sel) return null;
    if (sel.kind === 'character') return sel.id === c.id ? -1 : null;
    if (sel.kind === 'joint') return sel.character === c.id ? sel.joint : null;
    if (sel.kind === 'ik') return sel.character === c.id ? -2 : null;
    return null;
  });
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const depths = useMemo(() => boneDepths(c), [c.skeleton]);
  const expanded = open || (selectedHere !== null && selectedHere >= 0);
  const f = filter.trim().toLowerCase();
  return (
    <li>
      <div
        className={`row${selectedHere === -1 ? ' selected' : ''}`}
        data-testid={`outliner-character-${c.id}`}
        onClick={() => select({ kind: 'character', id: c.id })}
        {...hoverProps({ kind: 'character', id: c.id })}
        {...keyboardProps({ kind: 'character', id: c.id })}
      >
        <button
          className="twisty"
          data-testid={`outliner-expand-${c.id}`}
          onClick={(e) => {
            e.stopPropagation();
            setOpen(!expanded);
          }}
          aria-label={expanded ? 'Collapse' : 'Expand'}
        >
          {expanded ? '▾' : '▸'}
        </button>
        <span className="icon">☻</span>
        {c.name}
      </div>
      {expanded && (
        <>
          <input
            className="filter"
            placeholder="Filter bones"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={(e) => {
              // Escape clears the filter and leaves the field; it reached the app's Escape, which deselected the bone.
              if (e.key !== 'Escape') return;
              e.stopPropagation();
              setFilter('');
              e.currentTarget.blur();
            }}
            data-testid={`outliner-filter-${c.id}`}
          />
          <ul className="bones">
            {c.skeleton.joints.map((j, i) =>
              f && !j.name.toLowerCase().includes(f) ? null : (
                <li key={i}>
                  <div
                    className={`row bone${selectedHere === i ? ' selected' : ''}`}
                    style={{ paddingLeft: 8 + (f ? 0 : depths[i]) * 10 }}
                    data-testid={`outliner-joint-${c.id}-${i}`}
                    data-name={j.name}
                    onClick={() => select({ kind: 'joint', character: c.id, joint: i })}
                    {...hoverProps({ kind: 'joint', character: c.id, joint: i })}
                    {...keyboardProps({ kind: 'joint', character: c.id, joint: i })}
                  >
                    <span className="icon">◆</span>
                    {j.name}
                  </div>
                </li>
              ),
            )}
          </ul>
        </>
      )}
    </li>
  );
}

export function Outliner() {
  const characters = useDocStore((s) => s.history.doc.characters);
  const props = useDocStore((s) => s.history.doc.props);
  const selectedProp = useEphemeral((s) => (s.selection?.kind === 'prop' ? s.selection.id : null));
  const selection = useEphemeral((s) => s.selection);
  const panel = useRef<HTMLDivElement>(null);
  // The selected row scrolls into sight: with a character's 67 bones unfolded, a prop or bone picked in
  // the viewport was highlighted out of view.
  useLayoutEffect(() => {
    const el = panel.current;
    const row = selection ? el?.querySelector<HTMLElement>('.row.selected') : null;
    if (!el || !row) return;
    const box = row.getBoundingClientRect(), view = el.getBoundingClientRect();
    if (box.top < view.top) el.scrollTop -= view.top - box.top;
    else if (box.bottom > view.bottom) el.scrollTop += box.bottom - view.bottom;
  }, [selection]);
  return (
    <div className="panel outliner" data-testid="outliner" ref={panel}>
      <h3>Scene</h3>
      <ul>
        {characters.map((c) => (
          <CharacterNode key={c.id} c={c} />
        ))}
        {props.map((p) => (
          <li key={p.id}>
            <div
              className={`row${selectedProp === p.id ? ' selected' : ''}`}
              data-testid={`outliner-prop-${p.id}`}
              onClick={() => select({ kind: 'prop', id: p.id })}
              {...hoverProps({ kind: 'prop', id: p.id })}
              {...keyboardProps({ kind: 'prop', id: p.id })}
            >
              <span className="icon">◼</span>
              {p.name}
              {p.physics.mode === 'dynamic' && <span className="badge">dynamic</span>}
            </div>
          </li>
        ))}
        {!characters.length && !props.length && <li className="empty">Empty scene. File › Import glTF… adds characters and props.</li>}
      </ul>
    </div>
  );
}
