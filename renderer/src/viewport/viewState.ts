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

/**
 * Pixels the Check / Suggest dock covers at the viewport's right edge when it
 * is unfolded (340 px wide, 8 px from the edge: see check/check.css).
 */
export const DOCK_COVER_PX = 348;

/**
 * How far left (pixels) the camera's centre moves so that what the camera
 * looks at sits in the middle of the part of the viewport the dock leaves
 * uncovered; 0 when the dock is folded or the viewport too narrow to share.
 */
export function dockShiftPx(viewportWidth: number, dockOpen: boolean): number {
  return dockOpen && viewportWidth - DOCK_COVER_PX >= 240 ? DOCK_COVER_PX / 2 : 0;
}

/** Width (pixels) of the part of the viewport the dock leaves uncovered (all of it when folded or too narrow to share). */
export function uncoveredWidthPx(viewportWidth: number, dockOpen: boolean): number {
  return dockShiftPx(viewportWidth, dockOpen) > 0 ? viewportWidth - DOCK_COVER_PX : viewportWidth;
}

/**
 * Camera distance at which a sphere of `radius` fits, with `margin`, in a
 * perspective view of vertical field `vFovDeg` whose visible part is
 * `visibleWidth` × `height` pixels: the narrower of the vertical and the
 * visible horizontal field decides (a tall uncovered part beside the dock cut
 * the character's arms off when only the vertical one did).
 */
export function frameDistance(radius: number, vFovDeg: number, visibleWidth: number, height: number, margin = 1.1): number {
  const tv = Math.tan((vFovDeg * Math.PI) / 360);
  const half = Math.min(Math.atan(tv), Math.atan((tv * visibleWidth) / height));
  return (radius / Math.sin(half)) * margin;
}

/** Orthographic zoom at which a sphere of `radius` fits (with the same margin as frameDistance's 1.1) in a visible part of `visibleWidth` × `height` pixels. */
export function frameZoom(radius: number, visibleWidth: number, height: number, margin = 1.1): number {
  return Math.min(height, visibleWidth) / (2 * margin * radius);
}

/** Whether a client-space point relative to the viewport's top-left is inside its uncovered part. */
export function inUncoveredViewport(x: number, y: number, width: number, height: number, dockOpen: boolean): boolean {
  const right = uncoveredWidthPx(width, dockOpen);
  return x >= 0 && y >= 0 && x <= right && y <= height;
}

/** Hooks the viewport installs (camera operations need the three.js camera); commands and panels call them. */
export const viewportCommands: {
  frameSelected: () => void;
  /** Frames the selection only when it is off screen or under the dock (a jump to a finding). */
  revealSelected: () => void;
  setView: (view: 'front' | 'right' | 'top') => void;
} = {
  frameSelected: () => undefined,
  revealSelected: () => undefined,
  setView: () => undefined,
};
