/**
 * The shell the renderer talks to: `window.impulse` (Electron preload or the
 * Playwright bridge) or, in plain Chromium, the HTTP client of `npm start`.
 */
import type { ImpulseApi } from '../../../electron/ipc/contract';

let api: ImpulseApi | null = null;
let httpFactory: (() => ImpulseApi) | null = null;

/** Installed by main.tsx when the HTTP client module is available. */
export function setHttpFallback(factory: () => ImpulseApi): void {
  httpFactory = factory;
}

export function getShell(): ImpulseApi | null {
  if (api) return api;
  if (typeof window !== 'undefined' && window.impulse) api = window.impulse;
  else if (httpFactory) api = httpFactory();
  return api;
}

export function requireShell(): ImpulseApi {
  const s = getShell();
  if (!s) throw new Error('No shell: open Impulse through Electron or `npm start` to use files');
  return s;
}
