/**
 * `window.__impulseTest`: a read-only window into the app for end-to-end
 * tests (document, selection, playhead, and pixel <-> object helpers so a
 * test can click on a bone marker or a gizmo ring it cannot see in the DOM).
 * Tests still drive the app with real pointer and keyboard events.
 */
import * as THREE from 'three';
import { serializeDocument } from '../../core/document/serialize';
import { getDoc, useDocStore } from './state/documentStore';
import { canRedo, canUndo, isDirty } from './state/history';
import { useEphemeral } from './state/ephemeral';
import { usePrefs } from './state/preferences';
import { syncRuntime } from './actions';
import { runtime } from './scene/runtime';
import { findLimbChains } from './scene/limbs';
import { view } from './viewport/viewState';
import { pickAt } from './viewport/picking';
import { autosaveNow } from './project';
import { useCurves } from './state/curveStore';

function toClient(p: THREE.Vector3): { x: number; y: number } | null {
  const cam = view.camera, canvas = view.canvas;
  if (!cam || !canvas) return null;
  cam.updateMatrixWorld();
  const v = p.clone().project(cam);
  const r = canvas.getBoundingClientRect();
  return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
}

function summary() {
  const doc = getDoc();
  return {
    name: doc.name,
    activeClip: doc.activeClip,
    groundY: doc.groundY,
    characters: doc.characters.map((c) => ({
      id: c.id,
      name: c.name,
      transform: c.transform,
      joints: c.skeleton.joints.map((j) => ({ name: j.name, parent: j.parent, rest: j.rest })),
      triangles: c.meshes.reduce((n, m) => n + m.indices.length / 3, 0),
      collision: c.collision,
    })),
    props: doc.props.map((p) => ({ id: p.id, name: p.name, transform: p.transform, physics: p.physics, collision: p.collision })),
    clips: doc.clips.map((c) => ({ ...c, tracks: c.tracks.map((t) => ({ ...t })) })),
  };
}

const api = {
  ready: () => true,
  document: summary,
  documentText: () => serializeDocument(getDoc()),
  selection: () => useEphemeral.getState().selection,
  selectedKeys: () => useEphemeral.getState().selectedKeys,
  frame: () => useEphemeral.getState().frame,
  playing: () => useEphemeral.getState().playing,
  preferences: () => usePrefs.getState(),
  project: () => ({ path: useDocStore.getState().path, name: useDocStore.getState().name }),
  history: () => {
    const h = useDocStore.getState().history;
    return { undo: h.past.length, redo: h.future.length, canUndo: canUndo(h), canRedo: canRedo(h), dirty: isDirty(h), dragging: h.drag !== null, labels: h.past.map((e) => e.label) };
  },
  jointLocal: (character: string, joint: number) => {
    syncRuntime();
    const out = new Array<number>(10);
    return runtime.jointLocal(character, joint, out) ? out : null;
  },
  jointWorldPosition: (character: string, joint: number) => {
    syncRuntime();
    const m = new THREE.Matrix4();
    if (!runtime.jointWorld(character, joint, m)) return null;
    const p = new THREE.Vector3().setFromMatrixPosition(m);
    return [p.x, p.y, p.z];
  },
  propTransform: (id: string) => {
    syncRuntime();
    const pr = runtime.props.get(id);
    return pr ? Array.from(pr.trs) : null;
  },
  limbChains: (character: string) => {
    const c = getDoc().characters.find((x) => x.id === character);
    return c ? findLimbChains(c.skeleton) : [];
  },
  /** Client pixel of a joint, a prop's origin or a world point. */
  projectJoint: (character: string, joint: number) => {
    syncRuntime();
    const m = new THREE.Matrix4();
    return runtime.jointWorld(character, joint, m) ? toClient(new THREE.Vector3().setFromMatrixPosition(m)) : null;
  },
  projectProp: (id: string) => {
    syncRuntime();
    const pr = runtime.props.get(id);
    if (!pr) return null;
    const c = pr.geometry.boundingSphere ? pr.geometry.boundingSphere.center.clone() : new THREE.Vector3();
    return toClient(c.applyMatrix4(pr.matrix));
  },
  projectPoint: (p: [number, number, number]) => toClient(new THREE.Vector3(...p)),
  /** What a click at this client pixel selects. */
  pickAt: (x: number, y: number) => {
    syncRuntime();
    if (!view.pickRoot || !view.camera || !view.canvas) return null;
    view.pickRoot.updateMatrixWorld(true);
    return pickAt(view.pickRoot, view.camera, view.canvas, x, y);
  },
  /** A client pixel on the gizmo's handle for `axis` ('X', 'Y', 'Z', 'E', 'XY', ...), found by ray-casting its pickers. */
  gizmoHandle: (axis: string) => {
    const tc = view.gizmo as unknown as { object?: THREE.Object3D; mode: string; getHelper(): THREE.Object3D; _gizmo: { picker: Record<string, THREE.Object3D> } } | null;
    if (!tc || !tc.object || !view.camera || !view.canvas) return null;
    tc.getHelper().updateMatrixWorld(true);
    const centre = toClient(new THREE.Vector3().setFromMatrixPosition(tc.object.matrixWorld));
    if (!centre) return null;
    const picker = tc._gizmo.picker[tc.mode];
    const r = view.canvas.getBoundingClientRect();
    const ray = new THREE.Raycaster();
    // Spiral outwards from the gizmo's centre; the first pixel whose first visible hit is `axis` wins.
    for (let radius = 4; radius < 220; radius += 3) {
      for (let a = 0; a < 48; a++) {
        const ang = (a / 48) * Math.PI * 2;
        const x = centre.x + Math.cos(ang) * radius, y = centre.y + Math.sin(ang) * radius;
        if (x < r.left + 2 || y < r.top + 2 || x > r.right - 2 || y > r.bottom - 2) continue;
        ray.setFromCamera(new THREE.Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1), view.camera);
        const hit = ray.intersectObject(picker, true).find((h) => h.object.visible);
        if (!hit || hit.object.name !== axis) continue;
        // Not on top of another bone marker (a click there selects that bone).
        if (view.pickRoot) {
          const pick = pickAt(view.pickRoot, view.camera, view.canvas, x, y);
          const sel = useEphemeral.getState().selection;
          if (pick && (pick.kind === 'joint' || pick.kind === 'ik') && JSON.stringify(pick) !== JSON.stringify(sel)) continue;
        }
        return { x, y, centreX: centre.x, centreY: centre.y };
      }
    }
    return null;
  },
  /** The gizmo handle the pointer would grab at this client pixel (null: none). */
  gizmoAxisAt: (x: number, y: number) => {
    const tc = view.gizmo;
    if (!tc || !tc.object || !view.canvas) return null;
    const r = view.canvas.getBoundingClientRect();
    tc.pointerHover({ x: ((x - r.left) / r.width) * 2 - 1, y: -((y - r.top) / r.height) * 2 + 1, button: 0 } as unknown as PointerEvent);
    const axis = tc.axis;
    tc.axis = null;
    return axis;
  },
  gizmoState: () => {
    const tc = view.gizmo;
    return tc ? { attached: !!tc.object, mode: tc.mode, space: tc.space, dragging: tc.dragging, enabled: tc.enabled, axis: tc.axis, connected: !!tc.domElement } : null;
  },
  /** Fraction of canvas pixels that differ from the background colour, and how many distinct colours there are. */
  canvasStats: () => {
    const canvas = view.canvas;
    if (!canvas) return null;
    const w = 160, h = Math.max(1, Math.round((160 * canvas.height) / canvas.width));
    const c2 = document.createElement('canvas');
    c2.width = w;
    c2.height = h;
    const ctx = c2.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0, w, h);
    const data = ctx.getImageData(0, 0, w, h).data;
    const bg = [data[0], data[1], data[2]];
    let differ = 0;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]) > 24) differ++;
      colours.add(((data[i] >> 3) << 10) | ((data[i + 1] >> 3) << 5) | (data[i + 2] >> 3));
    }
    return { nonBackground: differ / (w * h), colours: colours.size };
  },
  /** RGB of the viewport at a client pixel (the drawing buffer is preserved). */
  canvasPixel: (x: number, y: number) => {
    const canvas = view.canvas;
    if (!canvas) return null;
    const r = canvas.getBoundingClientRect();
    const c2 = document.createElement('canvas');
    c2.width = 1;
    c2.height = 1;
    const ctx = c2.getContext('2d')!;
    const sx = ((x - r.left) / r.width) * canvas.width, sy = ((y - r.top) / r.height) * canvas.height;
    ctx.drawImage(canvas, sx, sy, 1, 1, 0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2]];
  },
  runtimeVersion: () => runtime.version,
  /** Which view the timeline area shows, and the Curves view's zoom / pan (null: frame all). */
  curves: () => ({ mode: useCurves.getState().mode, view: useCurves.getState().view, hidden: useCurves.getState().hidden }),
  autosaveNow,
};

export type ImpulseTestHook = typeof api;

declare global {
  interface Window {
    __impulseTest?: ImpulseTestHook;
  }
}

export function installTestHook(): void {
  window.__impulseTest = Object.freeze(api) as ImpulseTestHook;
}
