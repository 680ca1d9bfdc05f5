/** Small documents for the renderer's unit tests. */
import type { ImpulseDocument } from '../../../core/document/types';
import { createEmptyDocument } from '../../../core/document/defaults';

/** An empty document with one dynamic prop, the one-triangle ball 'ball' ("Ball") at (0, 1, 0). */
export function docWithBall(): ImpulseDocument {
  const d = createEmptyDocument('t');
  d.props.push({
    id: 'ball',
    name: 'Ball',
    transform: { translation: [0, 1, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] },
    mesh: { positions: new Float32Array(9), indices: new Uint32Array([0, 1, 2]) },
    material: { name: 'm', baseColor: [1, 1, 1, 1], metallic: 0, roughness: 1 },
    physics: { mode: 'dynamic', massKg: 0.145, restitution: 0.5, friction: 0.4 },
    collision: { enabled: true, groups: 1, mask: 1 },
  });
  return d;
}
