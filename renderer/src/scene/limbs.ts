/**
 * Finds the arm and leg chains of a skeleton for the two-bone IK handles:
 * a hand (or wrist) or foot (or ankle) joint whose parent and grandparent form
 * the lower and upper bone. Names are matched loosely so Mixamo
 * (`mixamorig:LeftHand`), Unreal (`hand_l`), Blender (`hand.L`) and plain
 * (`LeftFoot`) rigs all work; finger and toe joints are not chain ends.
 */
import type { Skeleton } from '../../../core/document/types';

export interface LimbChain {
  name: string;
  kind: 'arm' | 'leg';
  side: 'left' | 'right' | '';
  upper: number;
  lower: number;
  end: number;
}

const EXCLUDE = /(thumb|index|middle|ring|pinky|finger|toe|twist|roll|end|ik|pole|target|ctrl|socket)/i;

function sideOf(name: string): LimbChain['side'] {
  const n = name.replace(/^mixamorig[0-9]*:/i, '');
  if (/left/i.test(n) || /(^|[._\-\s])l($|[._\-\s])/i.test(n) || /^l[A-Z]/.test(n)) return 'left';
  if (/right/i.test(n) || /(^|[._\-\s])r($|[._\-\s])/i.test(n) || /^r[A-Z]/.test(n)) return 'right';
  return '';
}

export function findLimbChains(skeleton: Skeleton): LimbChain[] {
  const joints = skeleton.joints;
  const chains: LimbChain[] = [];
  for (let j = 0; j < joints.length; j++) {
    const name = joints[j].name;
    if (EXCLUDE.test(name.replace(/^mixamorig[0-9]*:/i, ''))) continue;
    const kind = /(hand|wrist)/i.test(name) ? 'arm' : /(foot|ankle)/i.test(name) ? 'leg' : null;
    if (!kind) continue;
    const lower = joints[j].parent;
    if (lower < 0) continue;
    const upper = joints[lower].parent;
    if (upper < 0) continue;
    const side = sideOf(name);
    chains.push({ name: `${side ? side + ' ' : ''}${kind}`, kind, side, upper, lower, end: j });
  }
  // One chain per limb: if a rig has both "hand" and e.g. "hand_ik" (excluded above) or nested
  // matches (a wrist under a hand), keep the chain whose end is highest in the hierarchy.
  return chains.filter((c) => !chains.some((o) => o !== c && o.kind === c.kind && o.side === c.side && isAncestor(skeleton, o.end, c.end)));
}

function isAncestor(skeleton: Skeleton, a: number, b: number): boolean {
  for (let p = skeleton.joints[b].parent; p >= 0; p = skeleton.joints[p].parent) if (p === a) return true;
  return false;
}
