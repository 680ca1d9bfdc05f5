import { describe, expect, it } from 'vitest';
import type { Skeleton } from '../../../core/document/types';
import { findLimbChains } from './limbs';

function skeleton(names: [string, string | null][]): Skeleton {
  const index = new Map<string, number>();
  return {
    joints: names.map(([name, parent], i) => {
      index.set(name, i);
      return { name, parent: parent === null ? -1 : index.get(parent)!, rest: { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] } };
    }),
  };
}

describe('findLimbChains', () => {
  it('finds the four limbs of a Mixamo rig and ignores fingers and toes', () => {
    const s = skeleton([
      ['mixamorig:Hips', null], ['mixamorig:Spine', 'mixamorig:Hips'],
      ['mixamorig:LeftArm', 'mixamorig:Spine'], ['mixamorig:LeftForeArm', 'mixamorig:LeftArm'], ['mixamorig:LeftHand', 'mixamorig:LeftForeArm'],
      ['mixamorig:LeftHandIndex1', 'mixamorig:LeftHand'], ['mixamorig:LeftHandIndex2', 'mixamorig:LeftHandIndex1'],
      ['mixamorig:RightArm', 'mixamorig:Spine'], ['mixamorig:RightForeArm', 'mixamorig:RightArm'], ['mixamorig:RightHand', 'mixamorig:RightForeArm'],
      ['mixamorig:LeftUpLeg', 'mixamorig:Hips'], ['mixamorig:LeftLeg', 'mixamorig:LeftUpLeg'], ['mixamorig:LeftFoot', 'mixamorig:LeftLeg'], ['mixamorig:LeftToeBase', 'mixamorig:LeftFoot'],
      ['mixamorig:RightUpLeg', 'mixamorig:Hips'], ['mixamorig:RightLeg', 'mixamorig:RightUpLeg'], ['mixamorig:RightFoot', 'mixamorig:RightLeg'],
    ]);
    const chains = findLimbChains(s);
    expect(chains.map((c) => c.name).sort()).toEqual(['left arm', 'left leg', 'right arm', 'right leg']);
    const la = chains.find((c) => c.name === 'left arm')!;
    expect([la.upper, la.lower, la.end]).toEqual([2, 3, 4]);
    const rl = chains.find((c) => c.name === 'right leg')!;
    expect([rl.upper, rl.lower, rl.end]).toEqual([14, 15, 16]);
  });

  it('reads Unreal and Blender side suffixes; an end without two ancestors is no chain', () => {
    const s = skeleton([
      ['pelvis', null], ['upperarm_l', 'pelvis'], ['lowerarm_l', 'upperarm_l'], ['hand_l', 'lowerarm_l'],
      ['thigh.R', 'pelvis'], ['shin.R', 'thigh.R'], ['foot.R', 'shin.R'], ['foot_ik.R', 'pelvis'], ['hand_orphan', null],
    ]);
    const chains = findLimbChains(s);
    expect(chains.map((c) => `${c.name}:${c.end}`).sort()).toEqual(['left arm:3', 'right leg:6']);
  });
});
