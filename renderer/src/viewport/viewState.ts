/** Module-level handles on the live three.js objects, for commands and the test hook. */
import type * as THREE from 'three';
import type { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';

export interface ViewHandles {
  camera: THREE.Camera | null;
  scene: THREE.Scene | null;
  canvas: HTMLCanvasElement | null;
  /** Objects that take part in click picking. */
  pickRoot: THREE.Object3D | null;
  gizmo: TransformControls | null;
  /** Orbit target, kept across camera switches. */
  target: THREE.Vector3 | null;
}

export const view: ViewHandles = { camera: null, scene: null, canvas: null, pickRoot: null, gizmo: null, target: null };
