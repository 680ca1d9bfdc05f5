import { describe, expect, it } from 'vitest';
import { hasCurvePicks, isCurveKeySelected, toggleCurveKey } from './curveStore';
import type { SelectedKey } from './ephemeral';

const BAT = { kind: 'prop', prop: 'bat' } as const;
const BALL = { kind: 'prop', prop: 'ball' } as const;

describe('curve key selection (shared with the dope sheet)', () => {
  it('a key picked on a curve selects that curve\'s key only; a dope sheet key every curve\'s key of its object on its frame', () => {
    const picked: SelectedKey[] = [{ target: BAT, channel: 'ty', frame: 12 } as SelectedKey];
    expect(isCurveKeySelected(picked, BAT, 'ty', 12)).toBe(true);
    expect(isCurveKeySelected(picked, BAT, 'tx', 12), 'another channel on the frame').toBe(false);
    expect(isCurveKeySelected(picked, BAT, 'ty', 13)).toBe(false);
    expect(isCurveKeySelected(picked, BALL, 'ty', 12), 'another object').toBe(false);
    const sheet: SelectedKey[] = [{ target: BAT, frame: 12 }];
    for (const ch of ['tx', 'ry', 'sz'] as const) expect(isCurveKeySelected(sheet, BAT, ch, 12), ch).toBe(true);
    expect(hasCurvePicks(sheet)).toBe(false);
    expect(hasCurvePicks(picked)).toBe(true);
  });

  it('toggling adds a curve key once and takes the same one out again', () => {
    const ref = { target: BAT, channel: 'rx' as const, frame: 3 };
    const one = toggleCurveKey([], ref);
    expect(one).toHaveLength(1);
    const two = toggleCurveKey(one, { target: BAT, channel: 'ry', frame: 3 });
    expect(two).toHaveLength(2);
    expect(toggleCurveKey(two, { ...ref })).toEqual([{ target: BAT, channel: 'ry', frame: 3 }]);
  });
});
