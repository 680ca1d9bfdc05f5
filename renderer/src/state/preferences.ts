/** Preferences: kept across sessions in localStorage, never undoable. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { Interpolation } from '../../../core/document/types';

export interface Preferences {
  autoKey: boolean;
  projection: 'perspective' | 'orthographic';
  showGrid: boolean;
  showBones: boolean;
  gizmoSpace: 'local' | 'world';
  loop: boolean;
  defaultInterpolation: Interpolation;
  /** Set after the first start (the sample opens on first launch only). */
  launched: boolean;
  /** Height of the timeline and dope sheet in px (drag the bar above it; double-click resets). */
  timelineHeight: number;
}

export const DEFAULT_TIMELINE_HEIGHT = 210;
/** Least timeline height: the transport and two rows of keys. */
export const MIN_TIMELINE_HEIGHT = 110;
/** Height kept for the menu, toolbar, viewport and status bar when the timeline grows. */
export const RESERVED_ABOVE_TIMELINE = 260;

/** The timeline height to use in a window `windowHeight` px tall: the preference, kept in bounds. */
export function clampTimelineHeight(height: number, windowHeight: number): number {
  const max = Math.max(MIN_TIMELINE_HEIGHT, windowHeight - RESERVED_ABOVE_TIMELINE);
  if (!Number.isFinite(height)) return Math.min(DEFAULT_TIMELINE_HEIGHT, max);
  return Math.round(Math.min(max, Math.max(MIN_TIMELINE_HEIGHT, height)));
}

export const defaultPreferences: Preferences = {
  autoKey: false,
  projection: 'perspective',
  showGrid: true,
  showBones: true,
  gizmoSpace: 'local',
  loop: true,
  defaultInterpolation: 'linear',
  launched: false,
  timelineHeight: DEFAULT_TIMELINE_HEIGHT,
};

export const usePrefs = create<Preferences>()(
  persist(() => ({ ...defaultPreferences }), { name: 'impulse.preferences', version: 1 }),
);

export function setPref<K extends keyof Preferences>(key: K, value: Preferences[K]): void {
  usePrefs.setState({ [key]: value } as Pick<Preferences, K>);
}
