/**
 * The transform gizmo (three.js TransformControls) on a proxy object that
 * mirrors the selection: a bone (proxy = the joint's local TRS inside its
 * parent's world frame, so the gizmo's rotation IS the local rotation written
 * to the document), a prop, a character's placement, or an IK handle.
 *
 * A gizmo drag is one undo step: pointer-down opens a drag on the document
 * history, every change re-runs an absolute recipe against the document
 * from pointer-down, pointer-up commits, Escape cancels.
 */
import { holdDragScale, MIN_DRAG_SCALE_RATIO } from './gizmoScale';
import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import * as THREE from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { ImpulseDocument, TrackPath, TrackTarget } from '../../../core/document/types';
import { docActions, getDoc, useDocStore } from '../state/documentStore';
import { useEphemeral, sameSelection, setStatus, type Selection, type Tool } from '../state/ephemeral';
import { usePrefs } from '../state/preferences';
import { writeChannel } from '../state/keys';
import { runtime } from '../scene/runtime';
import { findLimbChains } from '../scene/limbs';
import { twoBoneIkLocalRotations } from '../ik/twoBoneIk';
import { escapeHandlers } from '../commands';
import { reportUnkeyedPose } from '../actions';
import { view } from './viewState';
import { pickAt } from './picking';

/** Lets the click handlers ignore the click that ends a gizmo drag. */
export const gizmoInteraction = {
  downOnGizmo: false,
  consumeClick(): boolean {
    const v = this.downOnGizmo;
    this.downOnGizmo = false;
    return v;
  },
};

type Mode = 'translate' | 'rotate' | 'scale';

export function gizmoMode(sel: Selection, tool: Tool, doc: ImpulseDocument): Mode | null {
  if (!sel) return null;
  switch (sel.kind) {
    case 'prop':
      return tool;
    case 'character':
      // Placing a character is occasional; its gizmo would cover the bones one clicks next.
      return tool === 'translate' ? 'translate' : null;
    case 'ik':
      return 'translate';
    case 'joint': {
      const c = doc.characters.find((ch) => ch.id === sel.character);
      const isRoot = c?.skeleton.joints[sel.joint]?.parent === -1;
      return tool === 'translate' && isRoot ? 'translate' : 'rotate';
    }
  }
}

interface DragContext {
  sel: NonNullable<Selection>;
  mode: Mode;
  frame: number;
  autoKey: boolean;
  /** The proxy's scale when a scale drag began (a drag keeps its signs and does not reach 0). */
  scaleStart?: [number, number, number];
  /** Whether the drag was held at the smallest scale it may reach. */
  scaleHeld?: boolean;
  ik?: {
    parent: Float64Array | null;
    upper: Float64Array;
    lower: Float64Array;
    end: Float64Array;
    pole: Float64Array;
    joints: [number, number, number];
  };
}

const _local = new Float64Array(10);
const _ikOut = new Float64Array(12);

function captureIk(sel: Extract<Selection, { kind: 'ik' }>): DragContext['ik'] | undefined {
  const cr = runtime.characters.get(sel.character);
  if (!cr) return undefined;
  const chain = findLimbChains(cr.character.skeleton)[sel.chain];
  if (!chain) return undefined;
  const w = cr.rig.world;
  const mat = (j: number) => Float64Array.from(w.subarray(j * 16, j * 16 + 16));
  const parentIndex = cr.rig.parents[chain.upper];
  const parent = parentIndex >= 0 ? mat(parentIndex) : Float64Array.from(cr.rig.rootMatrix);
  const upper = mat(chain.upper), lower = mat(chain.lower), end = mat(chain.end);
  // Pole: keep the current bend plane (the elbow/knee points where it points now).
  const a = new THREE.Vector3(upper[12], upper[13], upper[14]);
  const b = new THREE.Vector3(lower[12], lower[13], lower[14]);
  const c = new THREE.Vector3(end[12], end[13], end[14]);
  const ac = c.clone().sub(a);
  const t = ac.lengthSq() > 0 ? b.clone().sub(a).dot(ac) / ac.lengthSq() : 0;
  const foot = a.clone().addScaledVector(ac, t);
  let bend = b.clone().sub(foot);
  if (bend.lengthSq() < 1e-10) {
    // Straight limb: bend forward for legs' knees / backward for elbows, in the character's frame.
    const fwd = new THREE.Vector3(0, 0, 1).applyQuaternion(new THREE.Quaternion().setFromRotationMatrix(new THREE.Matrix4().fromArray(cr.rig.rootMatrix)));
    bend = chain.kind === 'leg' ? fwd : fwd.negate();
  }
  const pole = b.clone().addScaledVector(bend.normalize(), Math.max(0.1, ac.length()));
  return { parent, upper, lower, end, pole: Float64Array.of(pole.x, pole.y, pole.z), joints: [chain.upper, chain.lower, chain.end] };
}

function labelFor(ctx: DragContext): string {
  switch (ctx.sel.kind) {
    case 'joint':
      return ctx.mode === 'translate' ? 'Move bone' : 'Rotate bone';
    case 'ik':
      return 'Move IK handle';
    case 'prop':
      return ctx.mode === 'translate' ? 'Move prop' : ctx.mode === 'rotate' ? 'Rotate prop' : 'Scale prop';
    case 'character':
      return ctx.mode === 'translate' ? 'Move character' : 'Rotate character';
  }
}

/** The channels a drag writes (a character's placement is not keyable: none). */
function draggedChannels(ctx: DragContext): { target: TrackTarget; path: TrackPath }[] {
  const { sel, mode } = ctx;
  const path: TrackPath = mode === 'translate' ? 'translation' : mode === 'rotate' ? 'rotation' : 'scale';
  if (sel.kind === 'joint') return [{ target: { kind: 'joint', character: sel.character, joint: sel.joint }, path: path === 'scale' ? 'rotation' : path }];
  if (sel.kind === 'prop') return [{ target: { kind: 'prop', prop: sel.id }, path }];
  if (sel.kind === 'ik' && ctx.ik) return ctx.ik.joints.map((joint) => ({ target: { kind: 'joint', character: sel.character, joint }, path: 'rotation' as TrackPath }));
  return [];
}

function applyProxy(ctx: DragContext, proxy: THREE.Object3D): void {
  const { sel, mode, frame, autoKey } = ctx;
  const p = proxy.position, q = proxy.quaternion, s = proxy.scale;
  docActions.updateDrag((d) => {
    const doc = d as ImpulseDocument;
    switch (sel.kind) {
      case 'joint': {
        const target: TrackTarget = { kind: 'joint', character: sel.character, joint: sel.joint };
        if (mode === 'translate') writeChannel(doc, target, 'translation', frame, [p.x, p.y, p.z], autoKey);
        else writeChannel(doc, target, 'rotation', frame, [q.x, q.y, q.z, q.w], autoKey);
        return;
      }
      case 'prop': {
        const target: TrackTarget = { kind: 'prop', prop: sel.id };
        if (mode === 'translate') writeChannel(doc, target, 'translation', frame, [p.x, p.y, p.z], autoKey);
        else if (mode === 'rotate') writeChannel(doc, target, 'rotation', frame, [q.x, q.y, q.z, q.w], autoKey);
        else {
          if (ctx.scaleStart && holdDragScale(s, ctx.scaleStart)) ctx.scaleHeld = true;
          writeChannel(doc, target, 'scale', frame, [s.x, s.y, s.z], autoKey);
        }
        return;
      }
      case 'character': {
        const c = doc.characters.find((ch) => ch.id === sel.id);
        if (!c) return;
        if (mode === 'translate') c.transform.translation = [p.x, p.y, p.z];
        else c.transform.rotation = [q.x, q.y, q.z, q.w];
        return;
      }
      case 'ik': {
        const ik = ctx.ik;
        if (!ik) return;
        twoBoneIkLocalRotations(ik.parent, ik.upper, ik.lower, ik.end, [p.x, p.y, p.z], ik.pole, _ikOut);
        ik.joints.forEach((joint, i) =>
          writeChannel(doc, { kind: 'joint', character: sel.character, joint }, 'rotation', frame, Array.from(_ikOut.subarray(i * 4, i * 4 + 4)), autoKey),
        );
        return;
      }
    }
  });
}

/** Places the proxy (and its parent frame) on the selection as evaluated now. */
function syncProxy(sel: Selection, frame: THREE.Group, proxy: THREE.Object3D): boolean {
  if (!sel) return false;
  frame.matrix.identity();
  proxy.scale.set(1, 1, 1);
  proxy.quaternion.identity();
  switch (sel.kind) {
    case 'joint': {
      if (!runtime.jointParentWorld(sel.character, sel.joint, frame.matrix)) return false;
      runtime.jointLocal(sel.character, sel.joint, _local);
      proxy.position.set(_local[0], _local[1], _local[2]);
      proxy.quaternion.set(_local[3], _local[4], _local[5], _local[6]);
      proxy.scale.set(_local[7], _local[8], _local[9]);
      break;
    }
    case 'prop': {
      const pr = runtime.props.get(sel.id);
      if (!pr) return false;
      const t = pr.trs;
      proxy.position.set(t[0], t[1], t[2]);
      proxy.quaternion.set(t[3], t[4], t[5], t[6]).normalize();
      proxy.scale.set(t[7], t[8], t[9]);
      break;
    }
    case 'character': {
      const c = runtime.characters.get(sel.id)?.character;
      if (!c) return false;
      proxy.position.fromArray(c.transform.translation);
      proxy.quaternion.fromArray(c.transform.rotation);
      break;
    }
    case 'ik': {
      const cr = runtime.characters.get(sel.character);
      const chain = cr ? findLimbChains(cr.character.skeleton)[sel.chain] : undefined;
      if (!cr || !chain) return false;
      proxy.position.set(cr.rig.world[chain.end * 16 + 12], cr.rig.world[chain.end * 16 + 13], cr.rig.world[chain.end * 16 + 14]);
      break;
    }
  }
  frame.matrixWorldNeedsUpdate = true;
  frame.updateMatrixWorld(true);
  return true;
}

const _mw = new THREE.Matrix4();
const _pv = new THREE.Vector3();

/** Whether a click lands on the centre of a bone marker or IK handle (those win over gizmo handles). */
function nearMarker(pick: Selection, x: number, y: number, width: number, height: number): boolean {
  if (!pick || !view.camera) return false;
  let joint: number | undefined;
  if (pick.kind === 'joint') joint = pick.joint;
  else if (pick.kind === 'ik') {
    const c = runtime.characters.get(pick.character)?.character;
    joint = c ? findLimbChains(c.skeleton)[pick.chain]?.end : undefined;
  }
  if (joint === undefined || pick.kind === 'prop' || pick.kind === 'character' || !runtime.jointWorld(pick.character, joint, _mw)) return false;
  _pv.setFromMatrixPosition(_mw).project(view.camera);
  const px = ((_pv.x + 1) / 2) * width, py = ((1 - _pv.y) / 2) * height;
  return Math.hypot(px - x, py - y) <= 7;
}

export function Gizmo() {
  const selection = useEphemeral((s) => s.selection);
  const tool = useEphemeral((s) => s.tool);
  const space = usePrefs((s) => s.gizmoSpace);
  const loadCount = useDocStore((s) => s.loadCount);
  const { camera, gl, scene } = useThree();
  const orbit = useThree((s) => s.controls) as unknown as { enabled: boolean } | null;
  const frameRef = useRef<THREE.Group>(null);
  const proxyRef = useRef<THREE.Object3D>(null);
  const controlsRef = useRef<TransformControls | null>(null);
  const drag = useRef<DragContext | null>(null);
  const mode = gizmoMode(selection, tool, getDoc());

  useEffect(() => {
    const tc = new TransformControls(camera, gl.domElement);
    tc.setSize(0.9);
    const helper = tc.getHelper();
    scene.add(helper);
    controlsRef.current = tc;
    view.gizmo = tc;
    const onDown = () => {
      gizmoInteraction.downOnGizmo = true;
      const sel = useEphemeral.getState().selection;
      const doc = getDoc();
      const m = gizmoMode(sel, useEphemeral.getState().tool, doc);
      if (!sel || !m) return;
      const ctx: DragContext = {
        sel,
        mode: m,
        frame: Math.round(useEphemeral.getState().frame),
        autoKey: usePrefs.getState().autoKey,
      };
      if (m === 'scale' && proxyRef.current) ctx.scaleStart = [proxyRef.current.scale.x, proxyRef.current.scale.y, proxyRef.current.scale.z];
      if (sel.kind === 'ik') {
        ctx.ik = captureIk(sel);
        if (!ctx.ik) return;
      }
      useEphemeral.setState({ playing: false });
      drag.current = ctx;
      docActions.beginDrag(labelFor(ctx));
    };
    const onChange = () => {
      if (drag.current && proxyRef.current) applyProxy(drag.current, proxyRef.current);
    };
    const onUp = () => {
      const ctx = drag.current;
      if (!ctx) return;
      drag.current = null;
      docActions.commitDrag();
      const unkeyed = reportUnkeyedPose(draggedChannels(ctx));
      if (ctx.scaleHeld)
        setStatus(`Scale held at ${MIN_DRAG_SCALE_RATIO}× its size at the start of the drag: a drag does not pass through 0 (type a negative scale in Properties to mirror)${unkeyed ? `. ${unkeyed}` : ''}`);
    };
    const cancel = () => {
      if (!drag.current) return false;
      drag.current = null;
      docActions.cancelDrag();
      tc.pointerUp(null);
      return true;
    };
    // The trackball area inside the rotate rings does not swallow selection
    // clicks: a click there on another bone, handle, character or prop selects
    // it (the rings and arrows themselves always drag).
    const host = gl.domElement.parentElement ?? gl.domElement;
    const onPointerDownCapture = (e: PointerEvent) => {
      if (e.button !== 0 || !tc.object || !view.pickRoot || !view.camera) return;
      const r = gl.domElement.getBoundingClientRect();
      tc.pointerHover({ x: ((e.clientX - r.left) / r.width) * 2 - 1, y: -((e.clientY - r.top) / r.height) * 2 + 1, button: 0 } as unknown as PointerEvent);
      if (!tc.axis) return;
      const pick = pickAt(view.pickRoot, view.camera, gl.domElement, e.clientX, e.clientY);
      const current = useEphemeral.getState().selection;
      const preferPick =
        !!pick && !sameSelection(pick, current) && (tc.axis === 'XYZE' || nearMarker(pick, e.clientX - r.left, e.clientY - r.top, r.width, r.height));
      if (!preferPick) return;
      tc.enabled = false;
      const restore = () => {
        tc.enabled = true;
        tc.axis = null;
        window.removeEventListener('pointerup', restore, true);
      };
      window.addEventListener('pointerup', restore, true);
    };
    host.addEventListener('pointerdown', onPointerDownCapture, true);
    tc.addEventListener('mouseDown', onDown);
    tc.addEventListener('objectChange', onChange);
    tc.addEventListener('mouseUp', onUp);
    escapeHandlers.push(cancel);
    return () => {
      cancel();
      host.removeEventListener('pointerdown', onPointerDownCapture, true);
      escapeHandlers.splice(escapeHandlers.indexOf(cancel), 1);
      tc.removeEventListener('mouseDown', onDown);
      tc.removeEventListener('objectChange', onChange);
      tc.removeEventListener('mouseUp', onUp);
      tc.detach();
      scene.remove(helper);
      tc.dispose();
      controlsRef.current = null;
      if (view.gizmo === tc) view.gizmo = null;
    };
  }, [camera, gl, scene]);

  useEffect(() => {
    const tc = controlsRef.current;
    if (!tc) return;
    const onDragging = (e: { value: unknown }) => {
      if (orbit) orbit.enabled = !e.value;
    };
    tc.addEventListener('dragging-changed', onDragging);
    return () => tc.removeEventListener('dragging-changed', onDragging);
  }, [orbit]);

  useEffect(() => {
    const tc = controlsRef.current;
    const proxy = proxyRef.current;
    const frame = frameRef.current;
    if (!tc || !proxy || !frame) return;
    if (!selection || !mode || !syncProxy(selection, frame, proxy)) {
      tc.detach();
      return;
    }
    tc.setMode(mode);
    tc.setSpace(selection.kind === 'ik' ? 'world' : space);
    tc.attach(proxy);
    // The camera too: a new camera (O, persp <-> ortho) makes new controls above, which start as Move in
    // world space; with only useFrame re-attaching them, the Rotate tool showed and dragged Move arrows.
  }, [selection, mode, space, loadCount, camera]);

  useFrame(() => {
    const tc = controlsRef.current;
    if (!tc || !proxyRef.current || !frameRef.current || drag.current || tc.dragging) return;
    const sel = useEphemeral.getState().selection;
    if (!syncProxy(sel, frameRef.current, proxyRef.current)) {
      if (tc.object) tc.detach();
    } else if (!tc.object && mode) tc.attach(proxyRef.current);
  }, -1);

  return (
    <group ref={frameRef} matrixAutoUpdate={false} name="gizmo-frame">
      <object3D ref={proxyRef} name="gizmo-proxy" />
    </group>
  );
}
