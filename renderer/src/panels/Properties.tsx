/**
 * Properties of the selection. Props: transform at the playhead, control mode,
 * mass (or density), restitution, friction, collision. Bones: local rotation
 * (Euler degrees) and, for roots, translation. Characters: placement and
 * collision. Every change is one undoable edit.
 */
import type { ImpulseDocument, TrackPath, TrackTarget } from '../../../core/document/types';
import { docActions, useDocStore } from '../state/documentStore';
import { useEphemeral } from '../state/ephemeral';
import { usePrefs } from '../state/preferences';
import { activeClip, findTrack, keyIndexAtFrame, targetKey, writeChannel } from '../state/keys';
import { currentValue, reportUnkeyedPose, syncRuntime } from '../actions';
import { findLimbChains } from '../scene/limbs';
import { NumberField, Row } from './fields';
import { eulerDegrees, rotationFromDegrees } from './eulerMemory';

const AXES = ['x', 'y', 'z'] as const;

function useFrameWhenIdle(): number {
  return useEphemeral((s) => (s.playing ? -1 : Math.round(s.frame)));
}

function channelState(doc: ImpulseDocument, target: TrackTarget, path: TrackPath, frame: number): 'key' | 'animated' | 'rest' {
  const clip = activeClip(doc);
  const t = clip && findTrack(clip, target, path);
  if (!t || !clip) return 'rest';
  return keyIndexAtFrame(t, frame, clip.frameRate) >= 0 ? 'key' : 'animated';
}

function TransformFields({ target, paths, testPrefix }: { target: TrackTarget; paths: TrackPath[]; testPrefix: string }) {
  const doc = useDocStore((s) => s.history.doc);
  const frame = useFrameWhenIdle();
  const playing = frame < 0;
  syncRuntime();
  const autoKey = usePrefs((s) => s.autoKey);
  const write = (path: TrackPath, value: number[], label: string) => {
    docActions.edit(label, (d) => writeChannel(d as ImpulseDocument, target, path, frame, value, autoKey));
    reportUnkeyedPose([{ target, path }]);
  };
  return (
    <>
      {paths.map((path) => {
        const v = currentValue(target, path);
        const state = channelState(doc, target, path, frame);
        const marker = <span className={`chan ${state}`} title={state === 'key' ? 'Key on this frame' : state === 'animated' ? 'Animated' : 'Not animated'} data-testid={`${testPrefix}-${path}-state`} data-state={state} />;
        if (path === 'rotation') {
          const key = targetKey(target);
          const deg = eulerDegrees(key, v);
          return (
            <Row key={path} label="Rotation °">
              {marker}
              {AXES.map((a, i) => (
                <NumberField
                  key={a}
                  testId={`${testPrefix}-rotation-${a}`}
                  label={`Rotation ${a}`}
                  value={deg[i]}
                  step={1}
                  digits={2}
                  disabled={playing}
                  onCommit={(x) => {
                    const next = [...deg];
                    next[i] = x;
                    write('rotation', rotationFromDegrees(key, next), `Rotation ${a}`);
                  }}
                />
              ))}
            </Row>
          );
        }
        return (
          <Row key={path} label={path === 'translation' ? 'Location m' : 'Scale'}>
            {marker}
            {AXES.map((a, i) => (
              <NumberField
                key={a}
                testId={`${testPrefix}-${path}-${a}`}
                label={`${path === 'translation' ? 'Location' : 'Scale'} ${a}`}
                // A scale of 0 flattens the prop to nothing: it vanished from the viewport, and Suggest and the
                // bake failed on its mass ("scale [0, 1, 1] has a zero component") long after the typing.
                refuse={path === 'scale' ? (x) => (x === 0 ? 'a scale of 0 flattens it to nothing (no volume to see, weigh or collide); type a small or negative scale instead' : null) : undefined}
                value={v[i]}
                disabled={playing}
                onCommit={(x) => {
                  const next = [...v];
                  next[i] = x;
                  write(path, next, `${path === 'translation' ? 'Location' : 'Scale'} ${a}`);
                }}
              />
            ))}
          </Row>
        );
      })}
    </>
  );
}

function PropProperties({ id }: { id: string }) {
  const prop = useDocStore((s) => s.history.doc.props.find((p) => p.id === id));
  if (!prop) return null;
  const ph = prop.physics;
  const editProp = (label: string, fn: (p: ImpulseDocument['props'][number]) => void) =>
    docActions.edit(label, (d) => {
      const p = (d as ImpulseDocument).props.find((x) => x.id === id);
      if (p) fn(p);
    });
  const useDensity = ph.massKg === undefined;
  return (
    <>
      <h4 data-testid="properties-title">{prop.name}</h4>
      <TransformFields target={{ kind: 'prop', prop: id }} paths={['translation', 'rotation', 'scale']} testPrefix="prop" />
      <h5>Physics</h5>
      <Row label="Control">
        <select data-testid="prop-mode" value={ph.mode} onChange={(e) => editProp('Control mode', (p) => void (p.physics.mode = e.target.value as 'keyframed' | 'dynamic'))}>
          <option value="keyframed">Keyframed</option>
          <option value="dynamic">Dynamic</option>
        </select>
      </Row>
      <Row label="Mass from">
        <select
          data-testid="prop-mass-source"
          value={useDensity ? 'density' : 'mass'}
          onChange={(e) =>
            editProp('Mass source', (p) => {
              if (e.target.value === 'mass') {
                p.physics.massKg = 1;
                delete p.physics.densityKgPerM3;
              } else {
                p.physics.densityKgPerM3 = 1000;
                delete p.physics.massKg;
              }
            })
          }
        >
          <option value="mass">Mass</option>
          <option value="density">Density</option>
        </select>
      </Row>
      {useDensity ? (
        <Row label="Density kg/m³">
          <NumberField testId="prop-density" label="Density kg/m³" value={ph.densityKgPerM3 ?? 0} min={1e-6} step={10} onCommit={(v) => editProp('Density', (p) => void (p.physics.densityKgPerM3 = v))} />
        </Row>
      ) : (
        <Row label="Mass kg">
          <NumberField testId="prop-mass" label="Mass kg" value={ph.massKg ?? 0} min={1e-6} step={0.01} onCommit={(v) => editProp('Mass', (p) => void (p.physics.massKg = v))} />
        </Row>
      )}
      <Row label="Restitution">
        <NumberField testId="prop-restitution" label="Restitution" value={ph.restitution} min={0} max={1} step={0.05} onCommit={(v) => editProp('Restitution', (p) => void (p.physics.restitution = v))} />
      </Row>
      <Row label="Friction">
        <NumberField testId="prop-friction" label="Friction" value={ph.friction} min={0} step={0.05} onCommit={(v) => editProp('Friction', (p) => void (p.physics.friction = v))} />
      </Row>
      <Row label="Collision">
        <input
          type="checkbox"
          data-testid="prop-collision"
          checked={prop.collision.enabled}
          onChange={(e) => editProp('Collision', (p) => void (p.collision.enabled = e.target.checked))}
        />
      </Row>
    </>
  );
}

function JointProperties({ character, joint }: { character: string; joint: number }) {
  const c = useDocStore((s) => s.history.doc.characters.find((x) => x.id === character));
  const j = c?.skeleton.joints[joint];
  if (!c || !j) return null;
  const paths: TrackPath[] = j.parent < 0 ? ['translation', 'rotation'] : ['rotation'];
  return (
    <>
      <h4 data-testid="properties-title">{j.name}</h4>
      <div className="muted">Bone of {c.name}</div>
      <TransformFields target={{ kind: 'joint', character, joint }} paths={paths} testPrefix="joint" />
    </>
  );
}

function CharacterProperties({ id }: { id: string }) {
  const c = useDocStore((s) => s.history.doc.characters.find((x) => x.id === id));
  if (!c) return null;
  const edit = (label: string, fn: (ch: ImpulseDocument['characters'][number]) => void) =>
    docActions.edit(label, (d) => {
      const ch = (d as ImpulseDocument).characters.find((x) => x.id === id);
      if (ch) fn(ch);
    });
  const chains = findLimbChains(c.skeleton);
  return (
    <>
      <h4 data-testid="properties-title">{c.name}</h4>
      <div className="muted">
        {c.skeleton.joints.length} bones, {c.meshes.reduce((n, m) => n + m.indices.length / 3, 0).toLocaleString()} triangles
        {chains.length ? `, IK: ${chains.map((ch) => ch.name).join(', ')}` : ''}
      </div>
      <Row label="Placement m">
        {AXES.map((a, i) => (
          <NumberField
            key={a}
            testId={`character-translation-${a}`}
            label={`Placement ${a}`}
            value={c.transform.translation[i]}
            onCommit={(v) => edit(`Placement ${a}`, (ch) => void (ch.transform.translation[i] = v))}
          />
        ))}
      </Row>
      <Row label="Collision">
        <input type="checkbox" data-testid="character-collision" checked={c.collision.enabled} onChange={(e) => edit('Collision', (ch) => void (ch.collision.enabled = e.target.checked))} />
      </Row>
      <Row label="Self-collision">
        <input
          type="checkbox"
          data-testid="character-self-collision"
          checked={c.collision.selfCollision}
          onChange={(e) => edit('Self-collision', (ch) => void (ch.collision.selfCollision = e.target.checked))}
        />
      </Row>
    </>
  );
}

export function Properties() {
  const sel = useEphemeral((s) => s.selection);
  const chainName = useDocStore((s) => {
    if (sel?.kind !== 'ik') return null;
    const c = s.history.doc.characters.find((x) => x.id === sel.character);
    return c ? findLimbChains(c.skeleton)[sel.chain]?.name ?? null : null;
  });
  return (
    <div className="panel properties" data-testid="properties">
      <h3>Properties</h3>
      {!sel && <div className="muted">Select a character, bone or prop.</div>}
      {sel?.kind === 'prop' && <PropProperties id={sel.id} />}
      {sel?.kind === 'joint' && <JointProperties character={sel.character} joint={sel.joint} />}
      {sel?.kind === 'character' && <CharacterProperties id={sel.id} />}
      {sel?.kind === 'ik' && (
        <>
          <h4 data-testid="properties-title">IK: {chainName}</h4>
          <div className="muted">Drag the handle: the two bones above it follow, keeping their lengths; the hand or foot keeps its orientation.</div>
        </>
      )}
    </div>
  );
}
