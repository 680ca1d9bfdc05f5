/** Which tab of the Check / Suggest dock shows, and whether it is folded. */
import { create } from 'zustand';

export type DockTab = 'check' | 'suggest';
export const useDock = create<{ tab: DockTab; collapsed: boolean }>()(() => ({ tab: 'check', collapsed: false }));

export function showDock(tab: DockTab): void {
  useDock.setState({ tab, collapsed: false });
}
