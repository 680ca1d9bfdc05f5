/**
 * What a number field shows and what it makes of typed text. Pure, so the
 * rules are tested without a DOM (fields.tsx draws the input).
 */

/**
 * The value as the field shows it: `digits` decimals, except that a value
 * those decimals would round to 0 (a mass of 0.000001 kg) keeps three
 * significant digits: it showed "0", a value the field refuses to take.
 */
export function formatFieldValue(value: number, digits: number): string {
  if (!Number.isFinite(value)) return '';
  const rounded = Number(value.toFixed(digits));
  if (rounded === 0 && value !== 0) return String(Number(value.toPrecision(3)));
  return String(rounded);
}

export type FieldReading =
  /** Nothing usable typed (cleared field): the field goes back to its value. */
  | { kind: 'empty' }
  /** Not taken; `reason` says why (the field keeps its value). */
  | { kind: 'refused'; reason: string }
  /** Taken; `note` says how it differs from what was typed (held inside min/max). */
  | { kind: 'value'; value: number; note?: string };

/**
 * Reads typed text: a finite number held inside [min, max] (saying so when
 * it was outside), or refused by `refuse` (which returns why, or null).
 */
export function readFieldInput(
  text: string,
  limits: { min?: number; max?: number; digits?: number; refuse?: (v: number) => string | null } = {},
): FieldReading {
  if (text.trim() === '') return { kind: 'empty' };
  const typed = Number(text);
  if (!Number.isFinite(typed)) return { kind: 'refused', reason: `${text.trim()} is not a number` };
  const { min, max, digits = 3, refuse } = limits;
  let value = typed;
  let note: string | undefined;
  if (min !== undefined && typed < min) {
    value = min;
    note = `${text.trim()} is below the lowest value ${formatFieldValue(min, digits)}: set to ${formatFieldValue(min, digits)}`;
  } else if (max !== undefined && typed > max) {
    value = max;
    note = `${text.trim()} is above the highest value ${formatFieldValue(max, digits)}: set to ${formatFieldValue(max, digits)}`;
  }
  const reason = refuse?.(value) ?? null;
  if (reason) return { kind: 'refused', reason };
  return note ? { kind: 'value', value, note } : { kind: 'value', value };
}
