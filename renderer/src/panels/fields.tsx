import { useEffect, useRef, useState } from 'react';
import { setStatus } from '../state/ephemeral';
import { formatFieldValue, readFieldInput } from './fieldInput';

/**
 * A number input that commits once (Enter or blur), so one edit is one undo step. Escape reverts.
 * A typed value outside min/max is held at the limit, and one `refuse` turns down is not taken;
 * either way the status bar says so, naming the field by `label` (both happened without a word:
 * a mass of -3 became 0.000001 kg, shown as "0").
 */
export function NumberField(props: {
  value: number;
  /** How the status bar names the field ("Mass kg", "Scale x"). */
  label?: string;
  /** Why a value is not taken (null: it is). */
  refuse?: (v: number) => string | null;
  onCommit: (v: number) => void;
  testId: string;
  step?: number;
  min?: number;
  max?: number;
  digits?: number;
  disabled?: boolean;
  title?: string;
}) {
  const { value, onCommit, testId, step = 0.01, min, max, digits = 3, disabled, title, label, refuse } = props;
  const shown = formatFieldValue(value, digits);
  const [text, setText] = useState(shown);
  const [editing, setEditing] = useState(false);
  // Escape blurs the field; the blur handler of that render still sees the typed text, so it must
  // know the edit was cancelled (it committed the typed value: Escape applied the edit it should revert).
  const cancelled = useRef(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!editing) setText(shown);
  }, [shown, editing]);
  const commit = () => {
    setEditing(false);
    if (cancelled.current) {
      cancelled.current = false;
      setText(shown);
      return;
    }
    // A number input hands over '' for text it cannot read as a number ("abc", "1e400"): badInput tells it from a cleared field.
    const read = text.trim() === '' && input.current?.validity.badInput ? ({ kind: 'refused', reason: 'what was typed is not a number' } as const) : readFieldInput(text, { min, max, digits, refuse });
    const name = label ?? title ?? testId;
    if (read.kind !== 'value') {
      if (read.kind === 'refused') setStatus(`${name}: ${read.reason}; kept ${shown}`, true);
      setText(shown);
      return;
    }
    if (read.value !== value) onCommit(read.value);
    if (read.note) setStatus(`${name}: ${read.note}`);
    setText(formatFieldValue(read.value, digits));
  };
  return (
    <input
      ref={input}
      className="num"
      type="number"
      data-testid={testId}
      value={editing ? text : shown}
      step={step}
      min={min}
      max={max}
      disabled={disabled}
      title={title}
      onFocus={() => {
        cancelled.current = false;
        setEditing(true);
        setText(shown);
      }}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
        if (e.key === 'Escape') {
          cancelled.current = true;
          setText(shown);
          setEditing(false);
          (e.target as HTMLInputElement).blur();
        }
        e.stopPropagation();
      }}
    />
  );
}

export function Row(props: { label: string; children: React.ReactNode }) {
  return (
    <div className="prop-row">
      <label>{props.label}</label>
      <div className="prop-value">{props.children}</div>
    </div>
  );
}
