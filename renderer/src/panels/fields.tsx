import { useEffect, useRef, useState } from 'react';

/** A number input that commits once (Enter or blur), so one edit is one undo step. Escape reverts. */
export function NumberField(props: {
  value: number;
  onCommit: (v: number) => void;
  testId: string;
  step?: number;
  min?: number;
  max?: number;
  digits?: number;
  disabled?: boolean;
  title?: string;
}) {
  const { value, onCommit, testId, step = 0.01, min, max, digits = 3, disabled, title } = props;
  const shown = Number.isFinite(value) ? String(Number(value.toFixed(digits))) : '';
  const [text, setText] = useState(shown);
  const [editing, setEditing] = useState(false);
  // Escape blurs the field; the blur handler of that render still sees the typed text, so it must
  // know the edit was cancelled (it committed the typed value: Escape applied the edit it should revert).
  const cancelled = useRef(false);
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
    const v = Number(text);
    if (text.trim() === '' || !Number.isFinite(v)) {
      setText(shown);
      return;
    }
    const clamped = Math.min(max ?? Infinity, Math.max(min ?? -Infinity, v));
    if (clamped !== value) onCommit(clamped);
    setText(String(Number(clamped.toFixed(digits))));
  };
  return (
    <input
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
