/**
 * The suggestion as a ghost in the viewport: translucent copies of each
 * simulated object along its trajectory (onion skin: evenly spaced frames,
 * fading with distance from the playhead), the path of its origin as a line,
 * and a marker at every impact point.
 *
 * Props reuse the runtime's geometry with one matrix per copy. Characters are
 * skinned by core (Rig + skinPositions) once per copy from the suggested
 * local pose, into geometry built when the suggestion arrives.
 */
import { useFrame } from '@react-three/fiber';
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import type { Suggestion, TrajectoryEntry } from '../../../core/sim/suggest';
import { Rig } from '../../../core/skeleton/rig';
import { computeSkinMatrices, skinPositions } from '../../../core/skeleton/skinning';
import { getDoc } from '../state/documentStore';
import { useEphemeral } from '../state/ephemeral';
import { runtime } from '../scene/runtime';
import { liveSampleIndex, onionFrames } from './ghostFrames';
import { suggestionOf, useSuggest } from './suggestStore';

const GHOST_COLOR = new THREE.Color('#5fd0ff');
const MAX_PROP_COPIES = 14;
const MAX_CHARACTER_COPIES = 4;

function PropGhost({ entry }: { entry: TrajectoryEntry }) {
  const prop = getDoc().props.find((p) => p.id === entry.object || p.name === entry.object);
  const pr = prop ? runtime.props.get(prop.id) : undefined;
  const copies = useMemo(() => onionFrames(entry.frames.length, MAX_PROP_COPIES), [entry]);
  const materials = useMemo(
    () =>
      copies.map(
        () =>
          // Drawn over the scene (an onion skin must stay visible behind the table or a character).
          new THREE.MeshBasicMaterial({
            color: GHOST_COLOR,
            transparent: true,
            opacity: 0.6,
            depthWrite: false,
            depthTest: false,
          }),
      ),
    [copies],
  );
  useEffect(() => () => materials.forEach((m) => m.dispose()), [materials]);
  const line = useMemo(() => {
    const n = entry.frames.length;
    const pos = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) pos[3 * i + k] = entry.values[7 * i + k];
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
    return g;
  }, [entry]);
  useEffect(() => () => line.dispose(), [line]);
  const group = useRef<THREE.Group>(null);
  const scale = prop?.transform.scale ?? [1, 1, 1];
  useEffect(() => {
    const g = group.current;
    if (!g) return;
    copies.forEach((fi, k) => {
      const m = g.children[k] as THREE.Mesh | undefined;
      if (!m) return;
      const v = entry.values;
      m.matrix.compose(
        new THREE.Vector3(v[7 * fi], v[7 * fi + 1], v[7 * fi + 2]),
        new THREE.Quaternion(v[7 * fi + 3], v[7 * fi + 4], v[7 * fi + 5], v[7 * fi + 6]).normalize(),
        new THREE.Vector3(scale[0], scale[1], scale[2]),
      );
      m.matrixWorldNeedsUpdate = true;
    });
  }, [copies, entry, scale]);
  // Copies near the playhead are more opaque.
  useFrame(() => {
    const f = useEphemeral.getState().frame;
    copies.forEach((fi, k) => {
      const d = Math.abs(entry.frames[fi] - f);
      materials[k].opacity = 0.55 + 0.35 * Math.exp(-d / 6);
    });
  });
  if (!pr) return null;
  return (
    <group name={`ghost:${entry.object}`}>
      <group ref={group}>
        {copies.map((fi, k) => (
          <mesh key={fi} geometry={pr.geometry} material={materials[k]} matrixAutoUpdate={false} renderOrder={15} raycast={() => null} />
        ))}
      </group>
      <line>
        <primitive object={line} attach="geometry" />
        <lineBasicMaterial color={GHOST_COLOR} transparent opacity={0.9} depthTest={false} />
      </line>
    </group>
  );
}

/**
 * A simulated character: the suggested pose at the playhead, drawn solid
 * enough to read as one body (it writes depth, so its own far side does not
 * show through), plus a few faint onion copies for the shape of the motion.
 * Many overlapping half-transparent copies of a tumbling body read as a
 * cloud, so the copies stay faint and the playhead pose carries the detail.
 */
function CharacterGhost({ entry }: { entry: TrajectoryEntry }) {
  const character = getDoc().characters.find((c) => c.id === entry.object || c.name === entry.object);
  const copies = useMemo(() => onionFrames(entry.frames.length, MAX_CHARACTER_COPIES), [entry]);
  const built = useMemo(() => {
    if (!character) return null;
    const rig = new Rig(character);
    const nj = character.skeleton.joints.length;
    const skins = character.meshes.map((mesh) => new Float64Array(16 * mesh.skinJoints.length));
    const geometryAt = (fi: number, out?: THREE.BufferGeometry[]): THREE.BufferGeometry[] => {
      rig.local.set(entry.values.subarray(fi * 10 * nj, (fi + 1) * 10 * nj));
      rig.computeWorld();
      return character.meshes.map((mesh, k) => {
        computeSkinMatrices(mesh, rig.world, skins[k]);
        let g = out?.[k];
        if (!g) {
          g = new THREE.BufferGeometry();
          g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(mesh.positions.length), 3));
          g.setIndex(new THREE.BufferAttribute(mesh.indices, 1));
        }
        const position = g.getAttribute('position') as THREE.BufferAttribute;
        skinPositions(mesh, skins[k], position.array as Float32Array);
        position.needsUpdate = true;
        g.computeVertexNormals();
        g.computeBoundingSphere();
        return g;
      });
    };
    const onion = copies.flatMap((fi) => geometryAt(fi));
    const live = geometryAt(0);
    const onionMaterial = new THREE.MeshStandardMaterial({ color: GHOST_COLOR, transparent: true, opacity: 0.1, depthWrite: false });
    const liveMaterial = new THREE.MeshStandardMaterial({ color: GHOST_COLOR, transparent: true, opacity: 0.55, depthWrite: true });
    return { onion, live, onionMaterial, liveMaterial, geometryAt };
  }, [character, copies, entry]);
  useEffect(
    () => () => {
      if (!built) return;
      built.onionMaterial.dispose();
      built.liveMaterial.dispose();
      built.onion.forEach((g) => g.dispose());
      built.live.forEach((g) => g.dispose());
    },
    [built],
  );
  const liveGroup = useRef<THREE.Group>(null);
  const shown = useRef(-2);
  useFrame(() => {
    const g = liveGroup.current;
    if (!built || !g) return;
    const i = liveSampleIndex(entry.frames, useEphemeral.getState().frame);
    g.visible = i >= 0;
    if (i >= 0 && i !== shown.current) built.geometryAt(i, built.live);
    shown.current = i;
  });
  if (!built) return null;
  return (
    <group name={`ghost:${entry.object}`}>
      {built.onion.map((g, i) => (
        <mesh key={i} geometry={g} material={built.onionMaterial} frustumCulled={false} renderOrder={5} raycast={() => null} />
      ))}
      <group ref={liveGroup} name={`ghost-live:${entry.object}`}>
        {built.live.map((g, i) => (
          <mesh key={i} geometry={g} material={built.liveMaterial} frustumCulled={false} renderOrder={6} raycast={() => null} />
        ))}
      </group>
    </group>
  );
}

const IMPACT_GEOMETRY = new THREE.SphereGeometry(1, 12, 8);

/** Impact points, one marker per cluster (a rolling or resting contact reports many impacts at nearly one place). */
export function impactMarkers(points: readonly (readonly [number, number, number])[], minDistance: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const p of points) {
    if (out.some((q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) < minDistance)) continue;
    out.push([p[0], p[1], p[2]]);
  }
  return out;
}

function Impacts({ suggestion }: { suggestion: Suggestion }) {
  const material = useMemo(() => new THREE.MeshBasicMaterial({ color: '#ffb020' }), []);
  useEffect(() => () => material.dispose(), [material]);
  const points = useMemo(() => impactMarkers(suggestion.impacts.map((i) => i.point), 0.03), [suggestion]);
  return (
    <group name="ghost-impacts">
      {points.map((p, i) => (
        <mesh key={i} geometry={IMPACT_GEOMETRY} material={material} position={p} scale={0.01} renderOrder={12} raycast={() => null} />
      ))}
    </group>
  );
}

export function SuggestGhost() {
  const result = useSuggest((s) => s.result);
  const suggestion = suggestionOf(result);
  if (!suggestion) return null;
  return (
    <group name="suggestion-ghost">
      {suggestion.trajectory.map((e) => (e.kind === 'prop' ? <PropGhost key={e.object} entry={e} /> : <CharacterGhost key={e.object} entry={e} />))}
      <Impacts suggestion={suggestion} />
    </group>
  );
}
