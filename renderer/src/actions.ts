/**
 * Editing commands of the app: they read the selection and the playhead,
 * the evaluated pose (runtime), and change the document through one undoable
 * edit each.
 */
import type { ImpulseDocument, Interpolation, TrackPath, TrackTarget } from '../../core/document/types';
import { docActions, getDoc } from './state/documentStore';
import { useEphemeral, setStatus, type Selection, type SelectedKey } from './state/ephemeral';
import { usePrefs } from './state/preferences';
import {
  activeClip,
  allKeyFrames,
  deleteKeys,
  findTrack,
  keyFramesOf,
  nextKeyFrame,
  previousKeyFrame,
  sameTarget,
  setInterpolation,
  setKey,
  setKeyTangents,
  targetKey,
  writeChannel,
  type TangentMode,
} from './state/keys';
import { copyKeys, describeKeys, pasteKeys, pasteRange } from './state/keyClipboard';
import { deletePickedCurveKeys, hasCurvePicks } from './state/curveStore';
import { runtime } from './scene/runtime';
import { findLimbChains } from './scene/limbs';

export const currentFrame = (): number => Math.round(useEphemeral.getState().frame);

export function setFrame(frame: number): void {
  useEphemeral.setState({ frame });
}

/** The channels (target, path) a key on the selection writes. */
export function selectionChannels(doc: ImpulseDocument, sel: Selection): { target: TrackTarget; path: TrackPath }[] {
  if (!sel) return [];
  const clip = activeClip(doc);
  const jointChannels = (character: string, joint: number, parent: number) => {
    const target: TrackTarget = { kind: 'joint', character, joint };
    const out: { target: TrackTarget; path: TrackPath }[] = [{ target, path: 'rotation' }];
    if (parent < 0 || (clip && findTrack(clip, target, 'translation'))) out.unshift({ target, path: 'translation' });
    if (clip && findTrack(clip, target, 'scale')) out.push({ target, path: 'scale' });
    return out;
  };
  switch (sel.kind) {
    case 'prop': {
      const target: TrackTarget = { kind: 'prop', prop: sel.id };
      return (['translation', 'rotation', 'scale'] as TrackPath[]).map((path) => ({ target, path }));
    }
    case 'joint': {
      const c = doc.characters.find((ch) => ch.id === sel.character);
      if (!c || !c.skeleton.joints[sel.joint]) return [];
      return jointChannels(c.id, sel.joint, c.skeleton.joints[sel.joint].parent);
    }
    case 'character': {
      const c = doc.characters.find((ch) => ch.id === sel.id);
      if (!c) return [];
      return c.skeleton.joints.flatMap((j, i) => jointChannels(c.id, i, j.parent));
    }
    case 'ik': {
      const c = doc.characters.find((ch) => ch.id === sel.character);
      const chain = c ? findLimbChains(c.skeleton)[sel.chain] : undefined;
      if (!c || !chain) return [];
      return [chain.upper, chain.lower, chain.end].flatMap((j) => jointChannels(c.id, j, c.skeleton.joints[j].parent));
    }
  }
}

/** Targets (objects and joints) the selection stands for. */
export function selectionTargets(doc: ImpulseDocument, sel: Selection): TrackTarget[] {
  const out: TrackTarget[] = [];
  for (const ch of selectionChannels(doc, sel)) if (!out.some((t) => sameTarget(t, ch.target))) out.push(ch.target);
  return out;
}

const _local = new Float64Array(10);
const PATH_SLICE: Record<TrackPath, [number, number]> = { translation: [0, 3], rotation: [3, 7], scale: [7, 10] };

/** The evaluated value of a channel at the playhead (what is on screen). */
export function currentValue(target: TrackTarget, path: TrackPath): number[] {
  const [a, b] = PATH_SLICE[path];
  if (target.kind === 'joint') {
    if (!runtime.jointLocal(target.character, target.joint, _local)) throw new Error(`no joint ${target.joint} of ${target.character}`);
    return Array.from(_local.subarray(a, b));
  }
  const pr = runtime.props.get(target.prop);
  if (!pr) throw new Error(`no prop ${target.prop}`);
  return Array.from(pr.trs.subarray(a, b));
}

/** Makes sure the runtime shows the current document at the current frame (for reads outside useFrame). */
export function syncRuntime(): void {
  const doc = getDoc();
  const clip = activeClip(doc);
  runtime.sync(doc, clip ? useEphemeral.getState().frame / clip.frameRate : 0);
}

export function setKeyOnSelection(): void {
  syncRuntime();
  const doc = getDoc();
  const sel = useEphemeral.getState().selection;
  const channels = selectionChannels(doc, sel);
  if (!channels.length) {
    setStatus('Select a bone, character or prop to set a key');
    return;
  }
  if (!activeClip(doc)) {
    setStatus('The document has no clip to key', true);
    return;
  }
  const frame = currentFrame();
  const values = channels.map((c) => currentValue(c.target, c.path));
  const interpolation = usePrefs.getState().defaultInterpolation;
  docActions.edit(`Set key at ${frame}`, (d) => {
    const clip = activeClip(d as ImpulseDocument)!;
    channels.forEach((c, i) => setKey(clip, c.target, c.path, frame, values[i], interpolation));
  });
  setStatus(`Key set at frame ${frame} on ${channels.length} channel${channels.length === 1 ? '' : 's'}`);
}

export function deleteSelectedKeys(verb: 'Delete' | 'Cut' = 'Delete'): void {
  const doc = getDoc();
  const eph = useEphemeral.getState();
  let groups: { target: TrackTarget; frames: number[] }[];
  const fromKeys = eph.selectedKeys.length > 0;
  if (fromKeys) groups = groupKeys(eph.selectedKeys);
  else groups = selectionTargets(doc, eph.selection).map((target) => ({ target, frames: [currentFrame()] }));
  // Say why nothing happened: the Delete button and key did nothing at all without a selection.
  if (!groups.length) return setStatus('Select keys in the dope sheet, or an object with a key on this frame, to delete keys');
  let removed = 0;
  docActions.edit(
    `${verb} keys`,
    (d) => {
      const clip = activeClip(d as ImpulseDocument);
      if (!clip) return;
      for (const g of groups) removed += deleteKeys(clip, g.target, g.frames);
    },
    fromKeys ? { before: eph.selectedKeys, after: [] } : undefined,
  );
  useEphemeral.setState({ selectedKeys: [] });
  // Whose keys: selected keys win over the object picked afterwards and may be scrolled out of the sheet.
  const who = actedOn(doc, groups.map((g) => g.target), fromKeys);
  setStatus(removed ? `${verb === 'Cut' ? 'Cut' : 'Deleted'} ${removed} key${removed === 1 ? '' : 's'} of ${who}` : `No keys of ${who} to delete${fromKeys ? '' : ` on frame ${currentFrame()}`}`);
}

export function groupKeys(keys: readonly SelectedKey[]): { target: TrackTarget; frames: number[] }[] {
  const groups = new Map<string, { target: TrackTarget; frames: number[] }>();
  for (const k of keys) {
    const id = targetKey(k.target);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { target: k.target, frames: [] }));
    if (!g.frames.includes(k.frame)) g.frames.push(k.frame);
  }
  return [...groups.values()];
}

const TANGENT_LABEL: Record<TangentMode, string> = { auto: 'auto', flat: 'flat', linear: 'linear', unify: 'unified' };

/** The name an animator knows an object or bone by ("Ball", "Hips"). */
export function targetName(doc: ImpulseDocument, t: TrackTarget): string {
  if (t.kind === 'prop') return doc.props.find((p) => p.id === t.prop)?.name ?? t.prop;
  return doc.characters.find((c) => c.id === t.character)?.skeleton.joints[t.joint]?.name ?? `joint ${t.joint}`;
}

/**
 * What a key command acts on, for its status line: the selected keys' bones and
 * objects when keys are selected in the dope sheet (they win over the outliner /
 * viewport selection, and may be scrolled out of sight), else the selection.
 */
function actedOn(doc: ImpulseDocument, targets: readonly TrackTarget[], fromKeys: boolean): string {
  const sel = useEphemeral.getState().selection;
  let names: string;
  if (!fromKeys && sel?.kind === 'character') names = doc.characters.find((c) => c.id === sel.id)?.name ?? sel.id;
  else {
    const all = targets.map((t) => targetName(doc, t));
    names = all.length > 3 ? `${all.slice(0, 2).join(', ')} and ${all.length - 2} more` : all.join(', ');
  }
  return fromKeys ? `${names} (the selected keys)` : names;
}

/** Tangents of the selected keys (or the selection's keys on the current frame); non-cubic channels become cubic. */
export function setTangentsOnSelection(mode: TangentMode): void {
  const doc = getDoc();
  const eph = useEphemeral.getState();
  const fromKeys = eph.selectedKeys.length > 0;
  const groups = fromKeys
    ? groupKeys(eph.selectedKeys)
    : selectionTargets(doc, eph.selection).map((target) => ({ target, frames: [currentFrame()] }));
  if (!groups.length) return setStatus('Select keys (or an object with a key on this frame) to set tangents');
  let changed = 0;
  docActions.edit(`Tangents ${TANGENT_LABEL[mode]}`, (d) => {
    const clip = activeClip(d as ImpulseDocument);
    if (!clip) return;
    for (const g of groups) changed += setKeyTangents(clip, g.target, g.frames, mode);
  });
  const who = actedOn(doc, groups.map((g) => g.target), fromKeys);
  setStatus(changed ? `Tangents ${TANGENT_LABEL[mode]}: ${changed} key${changed === 1 ? '' : 's'} of ${who}` : `No keys of ${who} there to set tangents on`);
}

export function setInterpolationOnSelection(interpolation: Interpolation): void {
  const doc = getDoc();
  const eph = useEphemeral.getState();
  const fromKeys = eph.selectedKeys.length > 0;
  const targets = fromKeys ? groupKeys(eph.selectedKeys).map((g) => g.target) : selectionTargets(doc, eph.selection);
  if (!targets.length) {
    setStatus('Select keys or an object to change interpolation');
    return;
  }
  let changed = 0;
  docActions.edit(`Interpolation ${interpolation}`, (d) => {
    const clip = activeClip(d as ImpulseDocument);
    if (!clip) return;
    for (const t of targets) changed += setInterpolation(clip, t, interpolation);
  });
  // Say what changed: with keys selected in the dope sheet the change goes to their channels, not to the
  // object picked in the outliner afterwards (it said "Interpolation: step" either way, and nothing when
  // every channel already was).
  const who = actedOn(doc, targets, fromKeys);
  const animated = activeClip(doc)?.tracks.some((t) => targets.some((x) => sameTarget(x, t.target))) ?? false;
  if (changed) setStatus(`Interpolation ${interpolation}: ${changed} channel${changed === 1 ? '' : 's'} of ${who}`);
  else setStatus(animated ? `No change: the channels of ${who} are already ${interpolation}` : `No change: there are no keys of ${who} in this clip`);
}

export function copyPose(): void {
  syncRuntime();
  const doc = getDoc();
  const sel = useEphemeral.getState().selection;
  if (!sel) return setStatus('Select a character, bone or prop to copy its pose');
  if (sel.kind === 'prop') {
    const v = (p: TrackPath) => currentValue({ kind: 'prop', prop: sel.id }, p);
    useEphemeral.setState({
      clipboard: {
        kind: 'prop',
        owner: sel.id,
        transforms: [{ joint: -1, transform: { translation: v('translation') as never, rotation: v('rotation') as never, scale: v('scale') as never } }],
      },
    });
    return setStatus('Copied prop transform');
  }
  const character = sel.kind === 'character' ? sel.id : sel.character;
  const c = doc.characters.find((ch) => ch.id === character);
  if (!c) return;
  const joints = sel.kind === 'joint' ? [sel.joint] : c.skeleton.joints.map((_, i) => i);
  const transforms = joints.map((j) => {
    const t: TrackTarget = { kind: 'joint', character, joint: j };
    return {
      joint: j,
      transform: {
        translation: currentValue(t, 'translation') as [number, number, number],
        rotation: currentValue(t, 'rotation') as [number, number, number, number],
        scale: currentValue(t, 'scale') as [number, number, number],
      },
    };
  });
  useEphemeral.setState({ clipboard: { kind: sel.kind === 'joint' ? 'joint' : 'character', owner: character, transforms } });
  setStatus(`Copied pose of ${joints.length} joint${joints.length === 1 ? '' : 's'}`);
}

/**
 * Pastes the copied pose onto the selected character (same joint indices; the
 * joint count must match) or prop, keyed at the playhead when auto-key is on
 * or the channel is animated, as a manual pose would be.
 */
export function pastePose(): void {
  const eph = useEphemeral.getState();
  const clip = eph.clipboard;
  const sel = eph.selection;
  if (!clip) {
    // Keys copied in the dope sheet paste with Ctrl+V there: away from it, Ctrl+V said "Nothing copied".
    if (eph.keyClipboard) return setStatus(`No pose copied. The ${describeKeys(eph.keyClipboard.keyCount, eph.keyClipboard.channels.length)} copied in the dope sheet paste with Ctrl+V there (click the sheet first) or Edit > Paste Keys at Playhead`);
    return setStatus('Nothing copied: select a character, bone or prop and press Ctrl+C to copy its pose, or copy keys in the dope sheet');
  }
  if (!sel) return setStatus('Select where to paste the pose');
  const doc = getDoc();
  const frame = currentFrame();
  const autoKey = usePrefs.getState().autoKey;
  if (clip.kind === 'prop') {
    if (sel.kind !== 'prop') return setStatus('A prop transform pastes onto a prop', true);
    const tr = clip.transforms[0].transform;
    docActions.edit('Paste transform', (d) => {
      for (const path of ['translation', 'rotation', 'scale'] as TrackPath[])
        writeChannel(d as ImpulseDocument, { kind: 'prop', prop: sel.id }, path, frame, tr[path], autoKey);
    });
    return setStatus('Pasted transform');
  }
  if (sel.kind === 'prop') return setStatus('A pose pastes onto a character', true);
  const character = sel.kind === 'character' ? sel.id : sel.character;
  const c = doc.characters.find((ch) => ch.id === character);
  if (!c) return;
  const src = doc.characters.find((ch) => ch.id === clip.owner);
  const joints = clip.kind === 'joint' && sel.kind === 'joint' ? [{ joint: sel.joint, transform: clip.transforms[0].transform }] : clip.transforms;
  if (clip.kind === 'character' && src && src.skeleton.joints.length !== c.skeleton.joints.length)
    return setStatus(`Pose has ${src.skeleton.joints.length} joints, ${c.name} has ${c.skeleton.joints.length}`, true);
  docActions.edit('Paste pose', (d) => {
    for (const { joint, transform } of joints) {
      if (joint >= c.skeleton.joints.length) continue;
      const target: TrackTarget = { kind: 'joint', character, joint };
      // Translation only for roots (the rest keep their bone lengths) unless animated.
      const cl = activeClip(d as ImpulseDocument);
      const paths: TrackPath[] = ['rotation'];
      if (c.skeleton.joints[joint].parent < 0 || (cl && findTrack(cl, target, 'translation'))) paths.push('translation');
      if (cl && findTrack(cl, target, 'scale')) paths.push('scale');
      for (const p of paths) writeChannel(d as ImpulseDocument, target, p, frame, transform[p], autoKey);
    }
  });
  setStatus(`Pasted pose of ${joints.length} joint${joints.length === 1 ? '' : 's'}`);
}

/**
 * After a pose edit (Properties field, gizmo drag): when it changed channels
 * that are not keyed in the active clip with Auto-key off, the edit went to the
 * rest pose, which every clip without keys for them shows (moving the box in a
 * duplicate moved it in the original too, without a word). Says so, and returns what it said (null: nothing).
 */
export function reportUnkeyedPose(channels: readonly { target: TrackTarget; path: TrackPath }[]): string | null {
  if (usePrefs.getState().autoKey || !channels.length) return null;
  const doc = getDoc();
  const clip = activeClip(doc);
  const loose = channels.filter((c) => !clip || !findTrack(clip, c.target, c.path));
  if (!loose.length) return null;
  const names = [...new Set(loose.map((c) => targetName(doc, c.target)))];
  const who = names.length > 2 ? `${names.slice(0, 2).join(', ')} and ${names.length - 2} more` : names.join(' and ');
  const others = doc.clips.length > 1 ? ' (every clip without keys for it shows it)' : '';
  const text = `Not keyed: ${who} ${loose.length === 1 ? loose[0].path : 'pose'} changed the rest pose${others}; Auto-key (N) or S keys it on this frame`;
  setStatus(text);
  return text;
}

/** Copies the keys selected in the dope sheet (every channel of each selected diamond) to the key clipboard. */
export function copySelectedKeys(): void {
  const clip = activeClip(getDoc());
  const selected = useEphemeral.getState().selectedKeys;
  if (!clip) return setStatus('The document has no clip');
  if (!selected.length) return setStatus('Select keys in the dope sheet to copy them (click, Ctrl+click or drag a box)');
  const cb = copyKeys(clip, selected);
  if (!cb) return setStatus('No keys on the selected frames to copy');
  useEphemeral.setState({ keyClipboard: cb });
  setStatus(`Copied ${describeKeys(cb.keyCount, cb.channels.length)}`);
}

/** Copies the keys selected in the dope sheet, then deletes them (one undo step; the copy stays to paste). */
export function cutSelectedKeys(): void {
  if (activeClip(getDoc()) && !useEphemeral.getState().selectedKeys.length) return setStatus('Select keys in the dope sheet to cut them (click, Ctrl+click or drag a box)');
  const before = useEphemeral.getState().keyClipboard;
  copySelectedKeys();
  const after = useEphemeral.getState().keyClipboard;
  if (after === before) return; // nothing copied: copySelectedKeys said why
  // keys picked on curves: only those curves' tracks lose their keys (as Copy took only those)
  if (hasCurvePicks(useEphemeral.getState().selectedKeys)) deletePickedCurveKeys('Cut');
  else deleteSelectedKeys('Cut');
}

/** Selects every key of the active clip inside its frame range (the keys the dope sheet shows). */
export function selectAllKeys(): void {
  const clip = activeClip(getDoc());
  if (!clip) return setStatus('The document has no clip');
  const seen = new Set<string>();
  const keys: SelectedKey[] = [];
  for (const t of clip.tracks) {
    const id = targetKey(t.target);
    if (seen.has(id)) continue;
    seen.add(id);
    for (const frame of keyFramesOf(clip, t.target)) if (frame >= clip.startFrame && frame <= clip.endFrame) keys.push({ target: t.target, frame });
  }
  // Counted per channel, as Delete, Cut and Copy count them: "Selected 1181 keys" was followed by "Deleted 1226 keys"
  // (a diamond holds a translation and a rotation key).
  let channelKeys = 0;
  for (const t of clip.tracks)
    for (const time of t.times) {
      const frame = Math.round(time * clip.frameRate);
      if (frame >= clip.startFrame && frame <= clip.endFrame) channelKeys++;
    }
  useEphemeral.setState({ selectedKeys: keys, playing: false });
  setStatus(keys.length ? `Selected ${channelKeys} key${channelKeys === 1 ? '' : 's'} on ${seen.size} dope sheet row${seen.size === 1 ? '' : 's'} of ${clip.name}` : `${clip.name} has no keys in frames ${clip.startFrame}–${clip.endFrame}`);
}

/**
 * Pastes the copied keys with their first frame on the playhead, in the active
 * clip (the one they came from or any other), replacing keys on the same
 * times; one undo step. Keys that would land outside the clip's frame range
 * are refused with a message saying where the paste fits (the range is the
 * clip's, the animator sets it; a paste does not change it).
 */
export function pasteCopiedKeys(): void {
  const cb = useEphemeral.getState().keyClipboard;
  if (!cb) return setStatus('No keys copied: select keys in the dope sheet and press Ctrl+C there');
  const doc = getDoc();
  const clip = activeClip(doc);
  if (!clip) return setStatus('The document has no clip to paste keys into', true);
  const frame = currentFrame();
  const { first, last } = pasteRange(cb, frame);
  const eps = 1e-6;
  if (first < clip.startFrame - eps || last > clip.endFrame + eps) {
    const lo = Math.ceil(clip.startFrame + (frame - first) - eps), hi = Math.floor(clip.endFrame - (last - frame) + eps);
    const fmt = (f: number) => (Math.abs(f - Math.round(f)) < eps ? String(Math.round(f)) : f.toFixed(2));
    const where = lo <= hi ? `put the playhead on frame ${lo === hi ? lo : `${lo}–${hi}`}` : `the copied keys span ${fmt(last - first)} frames, more than the clip's range`;
    return setStatus(`Keys not pasted: at frame ${frame} they would cover frames ${fmt(first)}–${fmt(last)}, outside ${clip.name} (${clip.startFrame}–${clip.endFrame}); ${where}`, true);
  }
  let result: ReturnType<typeof pasteKeys> | null = null;
  // Undo gives back the selection before the paste, redo the pasted keys (known once the recipe ran).
  const selection = { before: useEphemeral.getState().selectedKeys, after: [] as SelectedKey[] };
  docActions.edit(
    `Paste keys at ${frame}`,
    (d) => {
      const c = activeClip(d as ImpulseDocument);
      if (c) result = pasteKeys(d as ImpulseDocument, c, cb, frame);
    },
    selection,
  );
  const r = result as ReturnType<typeof pasteKeys> | null;
  if (!r || r.pasted === 0) return setStatus('Keys not pasted: the objects and bones they were copied from are not in this document', true);
  selection.after = r.selection;
  useEphemeral.setState({ selectedKeys: r.selection });
  const skipped = r.skipped ? ` (${r.skipped} skipped: their object or bone is not in this document)` : '';
  setStatus(`Pasted ${describeKeys(r.pasted, r.channels)} at frame ${frame}${skipped}`);
}

/** Previous/next key of the selection (or of the whole clip when nothing is selected or it has no keys). */
export function jumpToKey(direction: 1 | -1): void {
  const doc = getDoc();
  const clip = activeClip(doc);
  if (!clip) return;
  const targets = selectionTargets(doc, useEphemeral.getState().selection);
  let frames = targets.length ? [...new Set(targets.flatMap((t) => keyFramesOf(clip, t)))].sort((a, b) => a - b) : [];
  if (!frames.length) frames = allKeyFrames(clip);
  const f = currentFrame();
  const next = direction > 0 ? nextKeyFrame(frames, f) : previousKeyFrame(frames, f);
  if (next !== undefined) setFrame(next);
}

export function stepFrame(delta: number): void {
  const doc = getDoc();
  const clip = activeClip(doc);
  const f = currentFrame() + delta;
  if (!clip) return setFrame(f);
  setFrame(Math.min(clip.endFrame, Math.max(clip.startFrame, f)));
}
