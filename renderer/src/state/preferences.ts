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
};

export const usePrefs = create<Preferences>()(
  persist(() => ({ ...defaultPreferences }), { name: 'impulse.preferences', version: 1 }),
);

export function setPref<K extends keyof Preferences>(key: K, value: Preferences[K]): void {
  usePrefs.setState({ [key]: value } as Pick<Preferences, K>);
}
