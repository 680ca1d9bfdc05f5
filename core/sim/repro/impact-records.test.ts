/**
 * Repro: impact records of zero impulse. In the sample project (Box and Ball
 * dynamic) the record "Box × Table approach 0.163 m/s, |J| 0.0000 N·s" said
 * the box hit the table with no impulse: the record summed only the pair's
 * contacts found by the continuous detection, while the pair's touching
 * contact (and the other keyframed-body contacts of the same pair) took the
 * impulse; the box landing on the ground on an edge likewise reported half
 * its impulse. A record's impulse is now the pair's whole impulse in the
 * solve, and a pair whose impulse is negligible is no impact.
 *
 * Laws: a body whose only contacts in a solve are with one other object
 * changes momentum by exactly that pair's impulse (m·(post − pre) = J);
 * no record has an impulse below 1 % of approach speed × the lighter mass.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { suggestMotion } from '../suggest';
import { parseDocument } from '../../document/parse';
import { propMassProperties } from '../../document/massProperties';
import type { ImpulseDocument } from '../../document/types';
import type { ImpactRecord } from '../world';
import { boxPropAt, linearTranslation, sceneDoc } from '../testkit';

function massOf(doc: ImpulseDocument, name: string): number {
  const p = doc.props.find((q) => q.name === name);
  return p ? propMassProperties(p).massKg : Infinity;
}

/** |J − m·(post − pre)| relative to max(|J|, m·approach). */
function momentumMismatch(im: ImpactRecord, m: number): number {
  let d2 = 0;
  for (let c = 0; c < 3; c++) d2 += (im.impulse[c] - m * (im.postVelocity[c] - im.preVelocity[c])) ** 2;
  return Math.sqrt(d2) / Math.max(Math.hypot(...im.impulse), m * im.approachSpeed);
}

describe('repro: impact records say what the impact did', () => {
  it('a spinning box thrown onto the ground alone: every record is its whole change of momentum (edge and face landings included)', () => {
    const box = boxPropAt('crate', [0.15, 0.1, 0.2], [0, 1, 0], { restitution: 0.4, friction: 0.6, massKg: 3 }, [0.2, 0.1, 0, 0.97]);
    const q = [0.2, 0.1, 0, 0.97].map((x, _i, a) => x / Math.hypot(...a));
    const doc = sceneDoc([box], {
      frames: 90,
      tracks: [
        linearTranslation('crate', 0, [-1, 1.2, 0], 0.5, [0, 1, 0]),
        { target: { kind: 'prop', prop: 'crate' }, path: 'rotation', interpolation: 'linear', times: [0, 0.5], values: [0, 0, 0, 1, ...q] },
      ],
    });
    const s = suggestMotion(doc, { dynamic: ['crate'], fromFrame: 15, toFrame: 90 });
    expect(s.impacts.length, 'the crate bounced').toBeGreaterThan(1);
    for (const im of s.impacts) {
      expect(im.objects).toEqual(['crate', 'ground']);
      expect(momentumMismatch(im, 3), `frame ${im.frame.toFixed(2)}: |J| ${Math.hypot(...im.impulse).toFixed(4)} N·s = m·|Δv|`).toBeLessThan(1e-6);
    }
  });

  it('the sample project with Box and Ball dynamic: no record of negligible impulse, the real impacts all there, the ground ones equal to the momentum change', () => {
    const doc = parseDocument(readFileSync(new URL('../../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));
    const s = suggestMotion(doc, { dynamic: ['Box', 'Ball'], fromFrame: 0, toFrame: 60 });
    const pairs = new Set(s.impacts.map((i) => i.objects.join(' × ')));
    for (const p of ['Ball × Bat', 'Box × Bat', 'Ball × ground', 'Box × ground']) expect(pairs.has(p), `an impact ${p} (have ${[...pairs].join(', ')})`).toBe(true);
    for (const im of s.impacts) {
      const m = Math.min(massOf(doc, im.objects[0]), massOf(doc, im.objects[1]));
      const j = Math.hypot(...im.impulse);
      const what = `frame ${im.frame.toFixed(2)} ${im.objects.join(' × ')}: |J| ${j.toFixed(4)} N·s, approach ${im.approachSpeed.toFixed(3)} m/s, lighter mass ${m.toFixed(3)} kg`;
      expect(j, `${what}: not negligible`).toBeGreaterThanOrEqual(0.01 * im.approachSpeed * m);
      // the ground impacts of this scene come in flight (nothing else touches the body then)
      if (im.objects[1] === 'ground') expect(momentumMismatch(im, massOf(doc, im.objects[0])), `${what}: J = m·Δv`).toBeLessThan(1e-6);
    }
  });
});
