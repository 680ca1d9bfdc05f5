/**
 * Click picking: a ray hits characters, props, bone markers and IK handles;
 * handles beat markers beat meshes (markers sit inside the body and are drawn
 * on top), then the nearest hit wins.
 */
import * as THREE from 'three';
import type { Selection } from '../state/ephemeral';

export interface PickInfo {
  priority: number;
  /** For instanced markers: selection per instance. */
  resolve: (instanceId: number | undefined) => Selection;
}

export function setPick(obj: THREE.Object3D, info: PickInfo): void {
  obj.userData.pick = info;
}

function pickOf(obj: THREE.Object3D | null): PickInfo | undefined {
  for (let o = obj; o; o = o.parent) if (o.userData.pick) return o.userData.pick as PickInfo;
  return undefined;
}

export function chooseSelection(intersections: readonly THREE.Intersection[]): Selection {
  let best: { info: PickInfo; hit: THREE.Intersection } | null = null;
  for (const hit of intersections) {
    const info = pickOf(hit.object);
    if (!info) continue;
    if (!best || info.priority > best.info.priority) best = { info, hit };
  }
  return best ? best.info.resolve(best.hit.instanceId) : null;
}

const _ray = new THREE.Raycaster();
const _ndc = new THREE.Vector2();

/** What a click at client pixel (x, y) on `canvas` would select. */
export function pickAt(root: THREE.Object3D, camera: THREE.Camera, canvas: HTMLCanvasElement, clientX: number, clientY: number): Selection {
  const r = canvas.getBoundingClientRect();
  _ndc.set(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
  _ray.setFromCamera(_ndc, camera);
  const hits = _ray.intersectObject(root, true).filter((h) => h.object.visible);
  return chooseSelection(hits);
}
