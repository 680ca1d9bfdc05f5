/**
 * The 3D viewport: camera and orbit controls, ground grid, characters
 * (CPU-skinned by core, see scene/runtime.ts), props, bone markers, IK
 * handles and the transform gizmo. Per-frame work happens in useFrame on refs
 * and buffers; React renders only when the scene's structure or the
 * selection changes.
 */
import { Canvas, useFrame, useThree, type ThreeEvent } from '@react-three/fiber';
import { Grid, OrbitControls, OrthographicCamera, PerspectiveCamera } from '@react-three/drei';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import type { OrbitControls as OrbitControlsImpl } from 'three-stdlib';
import { useDocStore, getDoc } from '../state/documentStore';
import { useEphemeral, select, sameSelection, type Selection } from '../state/ephemeral';
import { usePrefs } from '../state/preferences';
import { activeClip } from '../state/keys';
import { runtime } from '../scene/runtime';
import { findLimbChains } from '../scene/limbs';
import { viewportCommands } from '../commands';
import { syncRuntime } from '../actions';
import { dockShiftPx, frameDistance, frameZoom, inUncoveredViewport, uncoveredWidthPx, view } from './viewState';
import { useDock } from '../check/dock';
import { chooseSelection, setPick } from './picking';
import { Gizmo, gizmoInteraction } from './Gizmo';
import { CheckViewportLayer } from '../check/ViewportLayer';
import { advancePlayhead, playBounds } from '../state/playRange';

const DEFAULT_TARGET = new THREE.Vector3(0, 0.9, 0);
const DEFAULT_POSITION = new THREE.Vector3(2.6, 1.8, 3.6);
const FOV = 40;

/** Advances playback and evaluates the scene before anything reads it this frame. */
function Driver() {
  useFrame((_, dt) => {
    const doc = getDoc();
    const clip = activeClip(doc);
    const eph = useEphemeral.getState();
    if (eph.playing && clip) {
      // Over the play range when one is set, else Start–End; a range changed during playback (Start typed
      // past the playhead) plays on from its first frame.
      const next = advancePlayhead(eph.frame, dt, clip.frameRate, playBounds(clip, eph.playRanges), usePrefs.getState().loop);
      useEphemeral.setState(next.stop ? { frame: next.frame, playing: false } : { frame: next.frame });
    }
    runtime.sync(doc, clip ? useEphemeral.getState().frame / clip.frameRate : 0);
  }, -2);
  return null;
}

function CameraRig() {
  const projection = usePrefs((s) => s.projection);
  const controls = useRef<OrbitControlsImpl>(null);
  const { camera, size } = useThree();
  const saved = useRef({ position: DEFAULT_POSITION.clone(), target: DEFAULT_TARGET.clone() });

  useLayoutEffect(() => {
    // Carry the view over when the projection changes.
    const c = controls.current;
    camera.position.copy(saved.current.position);
    if (camera instanceof THREE.OrthographicCamera) {
      const d = saved.current.position.distanceTo(saved.current.target);
      camera.zoom = size.height / (2 * d * Math.tan(THREE.MathUtils.degToRad(FOV / 2)));
      camera.updateProjectionMatrix();
    }
    if (c) {
      c.target.copy(saved.current.target);
      c.update();
    }
    view.camera = camera;
    view.target = c ? c.target : null;
  }, [camera, projection, size.height]);

  // With the Check / Suggest dock unfolded over the right of the viewport, the view's centre (the orbit
  // target, what Frame puts in the middle) is the middle of the part the dock leaves uncovered.
  const dockOpen = useDock((s) => !s.collapsed);
  // A viewport too narrow to share with the dock (a 1024×560 window leaves ~500 px) folds it to its tab
  // strip when it becomes so (at start too): unfolded it covered most of the character. Unfolding it
  // again (a click, Check clip, Suggest) is the animator's choice and stays until the next narrowing.
  const narrow = dockShiftPx(size.width, true) === 0;
  const wasNarrow = useRef(false);
  useLayoutEffect(() => {
    if (narrow && !wasNarrow.current) useDock.setState({ collapsed: true });
    wasNarrow.current = narrow;
  }, [narrow]);
  useLayoutEffect(() => {
    const shift = dockShiftPx(size.width, dockOpen);
    const cam = camera as THREE.PerspectiveCamera | THREE.OrthographicCamera;
    if (shift > 0) cam.setViewOffset(size.width, size.height, shift, 0, size.width, size.height);
    else cam.clearViewOffset();
  }, [camera, dockOpen, size.width, size.height]);

  useFrame(() => {
    const c = controls.current;
    if (!c) return;
    saved.current.position.copy(camera.position);
    saved.current.target.copy(c.target);
  });

  useEffect(() => {
    const sphere = new THREE.Sphere();
    const m = new THREE.Matrix4();
    viewportCommands.frameSelected = () => {
      const c = controls.current;
      if (!c) return;
      const sel = useEphemeral.getState().selection;
      if (!selectionBounds(sel, sphere, m)) {
        // Nothing selected: frame everything.
        const box = new THREE.Box3();
        for (const id of runtime.characters.keys()) if (runtime.characterBounds(id, sphere)) box.union(new THREE.Box3().setFromCenterAndSize(sphere.center, new THREE.Vector3().setScalar(sphere.radius * 2)));
        for (const pr of runtime.props.values()) {
          const s = pr.geometry.boundingSphere!.clone().applyMatrix4(pr.matrix);
          box.union(new THREE.Box3().setFromCenterAndSize(s.center, new THREE.Vector3().setScalar(s.radius * 2)));
        }
        if (box.isEmpty()) return;
        box.getBoundingSphere(sphere);
      }
      const dir = camera.position.clone().sub(c.target).normalize();
      const visible = uncoveredWidthPx(size.width, !useDock.getState().collapsed);
      const dist = frameDistance(sphere.radius, FOV, visible, size.height);
      c.target.copy(sphere.center);
      camera.position.copy(sphere.center).addScaledVector(dir, dist);
      if (camera instanceof THREE.OrthographicCamera) {
        camera.zoom = frameZoom(sphere.radius, visible, size.height);
        camera.updateProjectionMatrix();
      }
      c.update();
    };
    viewportCommands.revealSelected = () => {
      syncRuntime();
      const sel = useEphemeral.getState().selection;
      if (!selectionBounds(sel, sphere, m)) return;
      camera.updateMatrixWorld();
      const p = sphere.center.clone().project(camera);
      const x = ((p.x + 1) / 2) * size.width, y = ((1 - p.y) / 2) * size.height;
      if (p.z > 1 || p.z < -1 || !inUncoveredViewport(x, y, size.width, size.height, !useDock.getState().collapsed)) viewportCommands.frameSelected();
    };
    viewportCommands.setView = (which) => {
      const c = controls.current;
      if (!c) return;
      const d = camera.position.distanceTo(c.target);
      const dir = which === 'front' ? new THREE.Vector3(0, 0, 1) : which === 'right' ? new THREE.Vector3(1, 0, 0) : new THREE.Vector3(0, 1, 0.0001);
      camera.position.copy(c.target).addScaledVector(dir.normalize(), d);
      c.update();
    };
  }, [camera, size.width, size.height]);

  // Frame the whole scene when a project is loaded.
  const loadCount = useDocStore((s) => s.loadCount);
  useEffect(() => {
    if (loadCount === 0) return;
    const id = requestAnimationFrame(() => {
      syncRuntime();
      if (!useEphemeral.getState().selection) viewportCommands.frameSelected();
    });
    return () => cancelAnimationFrame(id);
  }, [loadCount]);

  return (
    <>
      {projection === 'perspective' ? (
        <PerspectiveCamera makeDefault fov={FOV} near={0.01} far={500} />
      ) : (
        <OrthographicCamera makeDefault near={-500} far={500} />
      )}
      <OrbitControls ref={controls} makeDefault enableDamping={false} />
    </>
  );
}

const _bounds = new THREE.Sphere();
function selectionBounds(sel: Selection, out: THREE.Sphere, m: THREE.Matrix4): boolean {
  if (!sel) return false;
  if (sel.kind === 'character') return runtime.characterBounds(sel.id, out);
  if (sel.kind === 'prop') {
    const pr = runtime.props.get(sel.id);
    if (!pr || !pr.geometry.boundingSphere) return false;
    out.copy(pr.geometry.boundingSphere).applyMatrix4(pr.matrix);
    return true;
  }
  const character = sel.character;
  const joint = sel.kind === 'joint' ? sel.joint : findLimbChains(runtime.characters.get(character)?.character.skeleton ?? { joints: [] })[sel.chain]?.end;
  if (joint === undefined || !runtime.jointWorld(character, joint, m)) return false;
  const hasBody = runtime.characterBounds(character, _bounds);
  out.center.setFromMatrixPosition(m);
  out.radius = hasBody ? Math.max(0.15, _bounds.radius * 0.25) : 0.3;
  return true;
}

function linearColor(rgba: ArrayLike<number>): THREE.Color {
  return new THREE.Color().setRGB(rgba[0], rgba[1], rgba[2], THREE.LinearSRGBColorSpace);
}

const SELECTED_EMISSIVE = new THREE.Color('#2a4a80');
const HOVER_EMISSIVE = new THREE.Color('#3a3a20');
const BLACK = new THREE.Color(0, 0, 0);

function CharacterView({ id }: { id: string }) {
  const character = useDocStore((s) => s.history.doc.characters.find((c) => c.id === id));
  const selected = useEphemeral((s) => (s.selection?.kind === 'character' && s.selection.id === id) || ((s.selection?.kind === 'joint' || s.selection?.kind === 'ik') && s.selection.character === id));
  const hovered = useEphemeral((s) => s.hover?.kind === 'character' && s.hover.id === id);
  const cr = character ? runtime.characters.get(id) : undefined;
  const materials = useMemo(
    () =>
      (character?.materials.length ? character.materials : [{ name: 'default', baseColor: [0.6, 0.6, 0.62, 1], metallic: 0, roughness: 0.7 }]).map(
        (m) =>
          new THREE.MeshStandardMaterial({
            color: linearColor(m.baseColor),
            metalness: Math.min(m.metallic, 0.3),
            roughness: Math.max(m.roughness, 0.4),
            transparent: m.baseColor[3] < 1,
            opacity: m.baseColor[3],
            side: THREE.DoubleSide,
          }),
      ),
    [character?.materials],
  );
  useEffect(() => () => materials.forEach((m) => m.dispose()), [materials]);
  useEffect(() => {
    for (const m of materials) m.emissive.copy(selected ? SELECTED_EMISSIVE : hovered ? HOVER_EMISSIVE : BLACK);
  }, [materials, selected, hovered]);
  const group = useRef<THREE.Group>(null);
  useLayoutEffect(() => {
    if (group.current) setPick(group.current, { priority: 1, resolve: () => ({ kind: 'character', id }) });
  }, [id]);
  if (!cr) return null;
  return (
    <group ref={group} name={`character:${id}`}>
      {cr.meshes.map((m, i) => (
        <mesh key={i} geometry={m.geometry} material={materials[Math.min(m.mesh.material, materials.length - 1)] ?? materials[0]} frustumCulled={false} castShadow />
      ))}
    </group>
  );
}

function PropView({ id }: { id: string }) {
  const prop = useDocStore((s) => s.history.doc.props.find((p) => p.id === id));
  const selected = useEphemeral((s) => s.selection?.kind === 'prop' && s.selection.id === id);
  const hovered = useEphemeral((s) => s.hover?.kind === 'prop' && s.hover.id === id);
  const pr = prop ? runtime.props.get(id) : undefined;
  const mesh = useRef<THREE.Mesh>(null);
  const material = useMemo(
    () =>
      prop
        ? new THREE.MeshStandardMaterial({
            color: linearColor(prop.material.baseColor),
            metalness: Math.min(prop.material.metallic, 0.3),
            roughness: Math.max(prop.material.roughness, 0.35),
          })
        : null,
    [prop?.material],
  );
  useEffect(() => () => material?.dispose(), [material]);
  useEffect(() => {
    material?.emissive.copy(selected ? SELECTED_EMISSIVE : hovered ? HOVER_EMISSIVE : BLACK);
  }, [material, selected, hovered]);
  useLayoutEffect(() => {
    if (mesh.current) setPick(mesh.current, { priority: 1, resolve: () => ({ kind: 'prop', id }) });
  }, [id, pr]);
  useFrame(() => {
    const m = mesh.current;
    const p = runtime.props.get(id);
    if (!m || !p) return;
    m.matrix.copy(p.matrix);
    m.matrixWorldNeedsUpdate = true;
  });
  if (!pr || !material) return null;
  return <mesh ref={mesh} name={`prop:${id}`} geometry={pr.geometry} material={material} matrixAutoUpdate={false} castShadow />;
}

const MARKER_GEOMETRY = new THREE.OctahedronGeometry(1, 0);
const HANDLE_GEOMETRY = new THREE.BoxGeometry(1, 1, 1);
const MARKER_COLOR = new THREE.Color('#ffcc33');
const MARKER_SELECTED = new THREE.Color('#ff3366');
const MARKER_HOVER = new THREE.Color('#ffffff');

/** Pickable joint markers and bone lines of the selected character. */
function BoneOverlay({ id }: { id: string }) {
  const character = useDocStore((s) => s.history.doc.characters.find((c) => c.id === id));
  const n = character?.skeleton.joints.length ?? 0;
  const markers = useRef<THREE.InstancedMesh>(null);
  const lines = useRef<THREE.LineSegments>(null);
  const material = useMemo(() => new THREE.MeshBasicMaterial({ depthTest: false, transparent: true, opacity: 0.9 }), []);
  const lineGeometry = useMemo(() => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(Math.max(1, n) * 6), 3));
    return g;
  }, [n]);
  useEffect(() => () => lineGeometry.dispose(), [lineGeometry]);
  useEffect(() => () => material.dispose(), [material]);
  useLayoutEffect(() => {
    if (markers.current) setPick(markers.current, { priority: 2, resolve: (i) => (i === undefined ? null : { kind: 'joint', character: id, joint: i }) });
  }, [id, n]);
  const lastVersion = useRef(-1);
  const lastSel = useRef<Selection>(null);
  const lastHover = useRef<Selection>(null);
  const m = useMemo(() => new THREE.Matrix4(), []);
  const v = useMemo(() => new THREE.Vector3(), []);
  useFrame(() => {
    const im = markers.current;
    const cr = runtime.characters.get(id);
    if (!im || !cr || cr.rig.jointCount !== n) return;
    const { selection: sel, hover } = useEphemeral.getState();
    if (lastVersion.current === runtime.version && sameSelection(sel, lastSel.current) && sameSelection(hover, lastHover.current)) return;
    lastVersion.current = runtime.version;
    lastSel.current = sel;
    lastHover.current = hover;
    const sphere = _bounds;
    const size = runtime.characterBounds(id, sphere) ? Math.min(0.03, Math.max(0.008, sphere.radius * 0.018)) : 0.02;
    const w = cr.rig.world;
    const pos = lineGeometry.attributes.position.array as Float32Array;
    for (let j = 0; j < n; j++) {
      v.set(w[j * 16 + 12], w[j * 16 + 13], w[j * 16 + 14]);
      m.makeScale(size, size, size).setPosition(v);
      im.setMatrixAt(j, m);
      im.setColorAt(
        j,
        sel?.kind === 'joint' && sel.joint === j ? MARKER_SELECTED : hover?.kind === 'joint' && hover.character === id && hover.joint === j ? MARKER_HOVER : MARKER_COLOR,
      );
      const p = cr.rig.parents[j];
      const po = p >= 0 ? p * 16 : j * 16;
      pos[j * 6] = w[po + 12];
      pos[j * 6 + 1] = w[po + 13];
      pos[j * 6 + 2] = w[po + 14];
      pos[j * 6 + 3] = v.x;
      pos[j * 6 + 4] = v.y;
      pos[j * 6 + 5] = v.z;
    }
    im.instanceMatrix.needsUpdate = true;
    if (im.instanceColor) im.instanceColor.needsUpdate = true;
    im.boundingSphere = null;
    im.boundingBox = null;
    lineGeometry.attributes.position.needsUpdate = true;
    lineGeometry.boundingSphere = null;
  });
  if (!n) return null;
  return (
    <group name={`bones:${id}`}>
      <lineSegments ref={lines} geometry={lineGeometry} renderOrder={9} frustumCulled={false} raycast={() => null}>
        <lineBasicMaterial color="#ffdd88" depthTest={false} transparent opacity={0.6} />
      </lineSegments>
      <instancedMesh key={n} ref={markers} args={[MARKER_GEOMETRY, material, n]} renderOrder={10} frustumCulled={false} />
    </group>
  );
}

const IK_COLOR = new THREE.Color('#33ddff');

/** Hand and foot handles of the selected character; dragging one runs two-bone IK (see Gizmo). */
function IkHandles({ id }: { id: string }) {
  const skeleton = useDocStore((s) => s.history.doc.characters.find((c) => c.id === id)?.skeleton);
  const chains = useMemo(() => (skeleton ? findLimbChains(skeleton) : []), [skeleton]);
  const handles = useRef<THREE.InstancedMesh>(null);
  const material = useMemo(() => new THREE.MeshBasicMaterial({ color: IK_COLOR, depthTest: false, transparent: true, opacity: 0.85, wireframe: false }), []);
  useEffect(() => () => material.dispose(), [material]);
  useLayoutEffect(() => {
    if (handles.current) setPick(handles.current, { priority: 3, resolve: (i) => (i === undefined ? null : { kind: 'ik', character: id, chain: i }) });
  }, [id, chains]);
  const m = useMemo(() => new THREE.Matrix4(), []);
  useFrame(() => {
    const im = handles.current;
    const cr = runtime.characters.get(id);
    if (!im || !cr) return;
    const size = runtime.characterBounds(id, _bounds) ? Math.min(0.07, Math.max(0.02, _bounds.radius * 0.045)) : 0.05;
    chains.forEach((c, i) => {
      if (c.end >= cr.rig.jointCount) return;
      m.makeScale(size, size, size).setPosition(cr.rig.world[c.end * 16 + 12], cr.rig.world[c.end * 16 + 13], cr.rig.world[c.end * 16 + 14]);
      im.setMatrixAt(i, m);
    });
    im.instanceMatrix.needsUpdate = true;
    im.boundingSphere = null;
  });
  if (!chains.length) return null;
  return <instancedMesh key={chains.length} ref={handles} args={[HANDLE_GEOMETRY, material, chains.length]} renderOrder={11} frustumCulled={false} />;
}

function SceneObjects() {
  const characters = useDocStore((s) => s.history.doc.characters);
  const props = useDocStore((s) => s.history.doc.props);
  runtime.prepare(getDoc());
  const overlayFor = useEphemeral((s) => {
    const sel = s.selection ?? (s.hover?.kind === 'joint' ? s.hover : null);
    return sel && sel.kind !== 'prop' ? (sel.kind === 'character' ? sel.id : sel.character) : null;
  });
  const showBones = usePrefs((s) => s.showBones);
  const root = useRef<THREE.Group>(null);
  useLayoutEffect(() => {
    view.pickRoot = root.current;
  }, []);
  const onClick = (e: ThreeEvent<MouseEvent>) => {
    e.stopPropagation();
    if (gizmoInteraction.consumeClick()) return;
    if (e.delta > 4) return;
    select(chooseSelection(e.intersections));
  };
  return (
    <group ref={root} onClick={onClick}>
      {characters.map((c) => (
        <CharacterView key={c.id} id={c.id} />
      ))}
      {props.map((p) => (
        <PropView key={p.id} id={p.id} />
      ))}
      {overlayFor && characters.some((c) => c.id === overlayFor) && (
        <>
          {showBones && <BoneOverlay id={overlayFor} />}
          <IkHandles id={overlayFor} />
        </>
      )}
    </group>
  );
}

function Ground() {
  const groundY = useDocStore((s) => s.history.doc.groundY);
  const showGrid = usePrefs((s) => s.showGrid);
  if (!showGrid) return null;
  return (
    <Grid
      position={[0, groundY ?? 0, 0]}
      args={[20, 20]}
      cellSize={0.25}
      cellThickness={0.6}
      cellColor="#4a4f58"
      sectionSize={1}
      sectionThickness={1.2}
      sectionColor="#6b7280"
      fadeDistance={40}
      infiniteGrid
      raycast={() => null}
    />
  );
}

function Handles() {
  const { scene, gl } = useThree();
  useEffect(() => {
    view.scene = scene;
    view.canvas = gl.domElement;
  }, [scene, gl]);
  return null;
}

export function Viewport() {
  return (
    <div className="viewport" data-testid="viewport">
      <Canvas
        gl={{ preserveDrawingBuffer: true, antialias: true }}
        dpr={[1, 2]}
        onPointerMissed={(e) => {
          if (gizmoInteraction.consumeClick()) return;
          if (e.type === 'click') select(null);
        }}
      >
        <color attach="background" args={['#24272d']} />
        <Handles />
        <Driver />
        <CameraRig />
        <hemisphereLight args={['#dfe6f0', '#3a3530', 1.2]} />
        <directionalLight position={[3, 6, 4]} intensity={1.6} />
        <directionalLight position={[-4, 3, -2]} intensity={0.5} />
        <Ground />
        <SceneObjects />
        <CheckViewportLayer />
        <Gizmo />
      </Canvas>
    </div>
  );
}
