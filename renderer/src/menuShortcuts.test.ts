/**
 * The native menu shows, beside each command, a shortcut from the shared
 * table (electron/ipc/contract.ts); the renderer handles the keys. Each shown
 * shortcut must be one of the renderer command's own keys, or the menu would
 * advertise a key that does something else (it showed Ctrl+Shift+K for Check
 * Clip, Ctrl+Shift+R for Suggest and Ctrl+Shift+C for Copy Pose).
 */
import { describe, expect, it } from 'vitest';
import { MENU_COMMANDS, MENU_SHORTCUTS } from '../../electron/ipc/contract';
import { COMMANDS } from './commands';

describe('native menu shortcuts', () => {
  it('every shortcut the native menu shows is one of the command’s keys in the renderer', () => {
    const byId = new Map(COMMANDS.map((c) => [c.id as string, c]));
    for (const [id, accel] of Object.entries(MENU_SHORTCUTS)) {
      const c = byId.get(id);
      expect(c, `menu command ${id} exists in the renderer`).toBeDefined();
      expect(c!.keys, `${id}: menu shows ${accel}`).toContain(accel!.replace('CmdOrCtrl+', 'Ctrl+'));
    }
  });

  it('every menu command (but the app events) is a renderer command', () => {
    const byId = new Set(COMMANDS.map((c) => c.id as string));
    for (const id of MENU_COMMANDS) if (!['autosave', 'closeRequested', 'quitRequested', 'openRecent'].includes(id)) expect(byId.has(id), id).toBe(true);
  });
});
