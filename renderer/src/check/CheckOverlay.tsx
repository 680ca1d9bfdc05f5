/**
 * Interpenetration overlay in the viewport, from the live check of the
 * playhead frame: the penetrating triangles of both objects tinted red (an
 * overlay mesh sharing the object's position buffer, so it follows the
 * skinned pose with no copy), contact points with their normals, and the
 * depth of a contact under the pointer.
 */
import { Html } from '@react-three/drei';
import { useFrame, type ThreeEvent } from '@react-three/fiber';
import { useEffect, useMemo, useRef, useState } from 'react';
import * as THREE from 'three';
import { useDocStore } from '../state/documentStore';
import { runtime } from '../scene/runtime';
import type { FrameContact, TriangleSet } from '../workers/protocol';
import { isIgnored } from './findings';
import { useCheck } from './checkStore';

const TINT = new THREE.MeshBasicMaterial({
  color: '#ff2a2a',
  transparent: true,
  opacity: 0.8,
  side: THREE.DoubleSide,
  polygonOffset: true,
  polygonOffsetFactor: -2,
  polygonOffsetUnits: -2,
  depthWrite: false,
});

function TintedTriangles({ set }: { set: TriangleSet }) {
  const source = set.owner === 'character' ? runtime.characters.get(set.object)?.meshes[set.mesh]?.geometry : runtime.props.get(set.object)?.geometry;
  const geometry = useMemo(() => {
    if (!source) return null;
    const src = source.index;
    if (!src) return null;
    const tri = set.triangles;
    const idx = new Uint32Array(tri.length * 3);
    for (let i = 0; i < tri.length; i++) {
      const t = tri[i] * 3;
      idx[3 * i] = src.getX(t);
      idx[3 * i + 1] = src.getX(t + 1);
      idx[3 * i + 2] = src.getX(t + 2);
    }
    const g = new THREE.BufferGeometry();
    // Same attribute object: the skinned positions written each frame show here too.
    g.setAttribute('position', source.getAttribute('position'));
    g.setIndex(new THREE.BufferAttribute(idx, 1));
    return g;
  }, [source, set]);
  useEffect(() => () => geometry?.dispose(), [geometry]);
  const mesh = useRef<THREE.Mesh>(null);
  useFrame(() => {
    if (set.owner !== 'prop' || !mesh.current) return;
    const pr = runtime.props.get(set.object);
    if (!pr) return;
    mesh.current.matrix.copy(pr.matrix);
    mesh.current.matrixWorldNeedsUpdate = true;
  });
  if (!geometry) return null;
  return <mesh ref={mesh} geometry={geometry} material={TINT} matrixAutoUpdate={set.owner !== 'prop'} frustumCulled={false} renderOrder={6} raycast={() => null} name={`tint:${set.object}:${set.mesh}`} />;
}

const POINT_GEOMETRY = new THREE.SphereGeometry(1, 10, 8);
const POINT_MATERIAL = new THREE.MeshBasicMaterial({ color: '#ffee00', depthTest: false, transparent: true });
const NORMAL_LENGTH = 0.12;

function Contacts({ contacts }: { contacts: FrameContact[] }) {
  const [hover, setHover] = useState<number | null>(null);
  const lines = useMemo(() => {
    const pos = new Float32Array(contacts.length * 6);
    contacts.forEach((c, i) => {
      pos.set(c.point, 6 * i);
      pos[6 * i + 3] = c.point[0] + c.normal[0] * NORMAL_LENGTH;
      pos[6 * i + 4] = c.point[1] + c.normal[1] * NORMAL_LENGTH;
      pos[6 * i + 5] = c.point[2] + c.normal[2] * NORMAL_LENGTH;
    });
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
    return g;
  }, [contacts]);
  useEffect(() => () => lines.dispose(), [lines]);
  const h = hover !== null ? contacts[hover] : undefined;
  return (
    <group name="contacts">
      <lineSegments geometry={lines} renderOrder={13} raycast={() => null}>
        <lineBasicMaterial color="#ffee00" depthTest={false} transparent />
      </lineSegments>
      {contacts.map((c, i) => (
        <mesh
          key={i}
          geometry={POINT_GEOMETRY}
          material={POINT_MATERIAL}
          position={c.point}
          scale={0.006}
          renderOrder={14}
          name="contact-point"
          onPointerOver={(e: ThreeEvent<PointerEvent>) => {
            e.stopPropagation();
            setHover(i);
          }}
          onPointerOut={() => setHover((cur) => (cur === i ? null : cur))}
        />
      ))}
      {h && (
        <Html position={h.point} zIndexRange={[30, 20]} style={{ pointerEvents: 'none' }}>
          <div className="contact-tip" data-testid="contact-tip">
            <b>{(h.depth * 100).toFixed(2)} cm</b> deep
            <br />
            {h.a.label} ↔ {h.b.label}
          </div>
        </Html>
      )}
    </group>
  );
}

export function CheckOverlay() {
  const live = useCheck((s) => s.live);
  const enabled = useCheck((s) => s.liveEnabled);
  const rules = useDocStore((s) => s.history.doc.check.ignore);
  // Ignore rules hide their contacts here as in the panel.
  const visible = useMemo(() => {
    if (!live) return null;
    const contacts = live.contacts.filter((c) => !isIgnored(rules, c.a, c.b));
    const objects = new Set<string>();
    for (const c of contacts) {
      objects.add(c.a.object);
      objects.add(c.b.object);
    }
    return { contacts, triangles: live.triangles.filter((t) => objects.has(t.object)) };
  }, [live, rules]);
  if (!enabled || !visible) return null;
  return (
    <group name="check-overlay">
      {visible.triangles.map((t) => (
        <TintedTriangles key={`${t.owner}:${t.object}:${t.mesh}`} set={t} />
      ))}
      <Contacts contacts={visible.contacts} />
    </group>
  );
}
