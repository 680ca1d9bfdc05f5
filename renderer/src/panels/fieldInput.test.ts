import { describe, expect, it } from 'vitest';
import { formatFieldValue, readFieldInput } from './fieldInput';

describe('formatFieldValue', () => {
  it('shows a nonzero value that the decimals would round to 0 with significant digits, and it reads back as nonzero', () => {
    for (const v of [1e-6, -2.5e-4, 0.0004, 3e-9]) {
      const s = formatFieldValue(v, 3);
      expect(Number(s), `${v} shown as "${s}"`).not.toBe(0);
      expect(Math.abs(Number(s) - v) / Math.abs(v), `${v} shown as "${s}"`).toBeLessThan(5e-3);
    }
  });
  it('rounds ordinary values to the decimals, shows 0 as 0 and nothing for NaN', () => {
    expect(formatFieldValue(0.924311, 3)).toBe('0.924');
    expect(formatFieldValue(29.8912, 2)).toBe('29.89');
    expect(formatFieldValue(0, 3)).toBe('0');
    expect(formatFieldValue(Number.NaN, 3)).toBe('');
  });
});

describe('readFieldInput', () => {
  it('takes a number inside the limits as typed, without a note', () => {
    expect(readFieldInput(' 0.5 ', { min: 0, max: 1 })).toEqual({ kind: 'value', value: 0.5 });
  });
  it('holds a number outside the limits at the limit and says so', () => {
    const low = readFieldInput('-3', { min: 1e-6 });
    expect(low).toMatchObject({ kind: 'value', value: 1e-6 });
    expect(low.kind === 'value' && low.note, 'the note names what was typed and what was set').toMatch(/-3 is below .*0\.000001.*set to 0\.000001/);
    const high = readFieldInput('1.5', { min: 0, max: 1 });
    expect(high).toMatchObject({ kind: 'value', value: 1 });
    expect(high.kind === 'value' && high.note).toMatch(/1\.5 is above the highest value 1/);
  });
  it('refuses what is not a finite number, and what refuse() refuses, with its reason', () => {
    expect(readFieldInput('1e400')).toEqual({ kind: 'refused', reason: '1e400 is not a number' });
    expect(readFieldInput('abc').kind).toBe('refused');
    const zero = readFieldInput('0', { refuse: (v) => (v === 0 ? 'a scale of 0 flattens it' : null) });
    expect(zero).toEqual({ kind: 'refused', reason: 'a scale of 0 flattens it' });
    expect(readFieldInput('-0.000', { refuse: (v) => (v === 0 ? 'zero' : null) }).kind, '-0 is 0 too').toBe('refused');
    expect(readFieldInput('2', { refuse: (v) => (v === 0 ? 'zero' : null) })).toEqual({ kind: 'value', value: 2 });
  });
  it('leaves a cleared field empty (it goes back to its value)', () => {
    expect(readFieldInput('  ')).toEqual({ kind: 'empty' });
  });
});
