/**
 * Ephemeral state: selection, hover, playhead, playback, dialogs. Not saved,
 * not undoable. The playhead changes every frame during playback, so
 * per-frame readers use `useEphemeral.getState()` inside useFrame or
 * `subscribe`, not React renders.
 */
import { create } from 'zustand';
import type { RecoveryInfo } from '../../../electron/ipc/contract';
import type { Transform, TrackTarget } from '../../../core/document/types';
import type { KeyClipboard } from './keyClipboard';
import type { SheetView } from '../panels/sheetView';
import type { PlayRange } from './playRange';

export type Selection =
  | { kind: 'character'; id: string }
  | { kind: 'joint'; character: string; joint: number }
  | { kind: 'prop'; id: string }
  | { kind: 'ik'; character: string; chain: number }
  | null;

export interface SelectedKey {
  target: TrackTarget;
  frame: number;
}

export interface PoseClipboard {
  kind: 'character' | 'joint' | 'prop';
  /** Character id for joint poses, prop id for props. */
  owner: string;
  /** Joint index -> local transform (characters and single joints), or the prop's transform under key -1. */
  transforms: { joint: number; transform: Transform }[];
}

export type Tool = 'translate' | 'rotate' | 'scale';

export interface Ephemeral {
  selection: Selection;
  hover: Selection;
  /** Playhead, in frames (fractional during playback). */
  frame: number;
  playing: boolean;
  selectedKeys: SelectedKey[];
  tool: Tool;
  clipboard: PoseClipboard | null;
  /** Keys copied in the dope sheet (Ctrl+C there), apart from the pose clipboard. */
  keyClipboard: KeyClipboard | null;
  /** Dope sheet zoom and pan; null: the clip's range fills the sheet (Home, a clip switch, a load). */
  sheetView: SheetView | null;
  /** Frames playback loops over (P sets it from the selected keys, Ctrl+drag on the ruler; Alt+P clears). */
  /** Play ranges, at most one per clip (state/playRange.ts). */
  playRanges: PlayRange[];
  helpOpen: boolean;
  recovery: RecoveryInfo | null;
  status: { text: string; error: boolean; at: number } | null;
  recent: string[];
  busy: string | null;
  /** Id of the clip whose name field is open in the clip picker (Clip > Rename Clip or its button). */
  renamingClip: string | null;
}

export const useEphemeral = create<Ephemeral>()(() => ({
  selection: null,
  hover: null,
  frame: 0,
  playing: false,
  selectedKeys: [],
  tool: 'rotate',
  clipboard: null,
  keyClipboard: null,
  sheetView: null,
  playRanges: [],
  helpOpen: false,
  recovery: null,
  status: null,
  recent: [],
  busy: null,
  renamingClip: null,
}));

/**
 * Playback stops on a whole frame, whatever stops it (Space, a click on a key
 * or an impact, a box select, a gizmo grab): a fractional playhead left the
 * viewport and Properties showing the pose between two frames while the Frame
 * field said the whole one, and S then keyed that in-between pose onto it.
 */
useEphemeral.subscribe((s, prev) => {
  if (prev.playing && !s.playing && s.frame !== Math.round(s.frame)) useEphemeral.setState({ frame: Math.round(s.frame) });
});

export function select(selection: Selection): void {
  const cur = useEphemeral.getState();
  const tool: Tool =
    selection?.kind === 'ik' ? 'translate' : selection?.kind === 'joint' && cur.tool === 'scale' ? 'rotate' : cur.tool;
  useEphemeral.setState({ selection, tool });
}

export function setStatus(text: string, error = false): void {
  useEphemeral.setState({ status: { text, error, at: Date.now() } });
}

export function sameSelection(a: Selection, b: Selection): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
