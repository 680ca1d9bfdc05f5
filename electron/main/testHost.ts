/**
 * A scripted `Host` for tests of the handlers: dialogs answer from queues the
 * test fills, a dialog the test did not expect fails loudly.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentState, UnsavedChoice } from '../ipc/contract';
import type { Host, OpenDialogOptions, SaveDialogOptions, WindowId } from './handlers';

export interface ScriptedHost extends Host {
  root: string;
  openAnswers: Array<string | null>;
  saveAnswers: Array<string | null>;
  unsavedAnswers: UnsavedChoice[];
  dialogs: Array<{ kind: 'open' | 'save'; windowId: WindowId; options: OpenDialogOptions | SaveDialogOptions }>;
  closed: WindowId[];
  cancelled: WindowId[];
  states: Array<{ windowId: WindowId; state: DocumentState }>;
  recent: string[][];
  clock: number;
}

export const SAMPLE_TEXT = JSON.stringify({ version: 2, name: 'bat-and-ball', note: 'sample' });

export function scriptedHost(): ScriptedHost {
  const root = mkdtempSync(join(tmpdir(), 'impulse-host-'));
  const userDataDir = join(root, 'userData');
  const documentsDir = join(root, 'docs');
  mkdirSync(documentsDir, { recursive: true });
  mkdirSync(join(root, 'app'), { recursive: true });
  const samplePath = join(root, 'app', 'bat-and-ball.impulse');
  writeFileSync(samplePath, SAMPLE_TEXT);
  const host: ScriptedHost = {
    root, userDataDir, documentsDir, samplePath,
    openAnswers: [], saveAnswers: [], unsavedAnswers: [], dialogs: [], closed: [], cancelled: [], states: [], recent: [],
    clock: 1_700_000_000_000,
    now: () => host.clock,
    async showOpenDialog(windowId, options) {
      host.dialogs.push({ kind: 'open', windowId, options });
      if (host.openAnswers.length === 0) throw new Error(`unexpected open dialog "${options.title}"`);
      return host.openAnswers.shift()!;
    },
    async showSaveDialog(windowId, options) {
      host.dialogs.push({ kind: 'save', windowId, options });
      if (host.saveAnswers.length === 0) throw new Error(`unexpected save dialog "${options.title}"`);
      return host.saveAnswers.shift()!;
    },
    async askUnsavedChanges() {
      if (host.unsavedAnswers.length === 0) throw new Error('unexpected unsaved-changes prompt');
      return host.unsavedAnswers.shift()!;
    },
    closeWindow: (id) => void host.closed.push(id),
    closeCancelled: (id) => void host.cancelled.push(id),
    documentStateChanged: (windowId, state) => void host.states.push({ windowId, state }),
    recentChanged: (paths) => void host.recent.push(paths),
  };
  return host;
}
