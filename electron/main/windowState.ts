/**
 * Remembered window bounds (`<userData>/window-state.json`), kept on screen
 * when the displays changed since.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './files';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowBounds extends Rect {
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1440, height: 900 };
export const MIN_SIZE = { width: 800, height: 560 };

export function windowStateFile(userDataDir: string): string {
  return join(userDataDir, 'window-state.json');
}

function isRect(v: unknown): v is WindowBounds {
  const r = v as WindowBounds;
  return !!r && [r.x, r.y, r.width, r.height].every((n) => typeof n === 'number' && Number.isFinite(n)) && typeof r.maximized === 'boolean';
}

export async function loadWindowBounds(userDataDir: string): Promise<WindowBounds | null> {
  try {
    const v: unknown = JSON.parse(await fsp.readFile(windowStateFile(userDataDir), 'utf8'));
    return isRect(v) ? v : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError) return null;
    throw err;
  }
}

export async function saveWindowBounds(userDataDir: string, bounds: WindowBounds): Promise<void> {
  await fsp.mkdir(userDataDir, { recursive: true });
  await writeFileAtomic(windowStateFile(userDataDir), JSON.stringify(bounds));
}

/**
 * Bounds for a new window: the remembered ones if at least a 100 px square of
 * the title area is on a display, otherwise centred on the primary display.
 * `cascade` offsets the n-th extra window so windows do not stack exactly.
 */
export function placeWindow(saved: WindowBounds | null, workAreas: Rect[], cascade = 0): WindowBounds {
  const primary = workAreas[0] ?? { x: 0, y: 0, ...DEFAULT_SIZE };
  const fallback = (): WindowBounds => {
    const width = Math.min(DEFAULT_SIZE.width, primary.width);
    const height = Math.min(DEFAULT_SIZE.height, primary.height);
    return {
      x: Math.round(primary.x + (primary.width - width) / 2), y: Math.round(primary.y + (primary.height - height) / 2),
      width, height, maximized: false,
    };
  };
  const base = saved ?? fallback();
  const b: WindowBounds = {
    x: base.x + 24 * cascade, y: base.y + 24 * cascade,
    width: Math.max(MIN_SIZE.width, Math.round(base.width)), height: Math.max(MIN_SIZE.height, Math.round(base.height)),
    maximized: base.maximized,
  };
  const visible = workAreas.some((a) => {
    const ix = Math.min(b.x + b.width, a.x + a.width) - Math.max(b.x, a.x);
    const iy = Math.min(b.y + 100, a.y + a.height) - Math.max(b.y, a.y);
    return ix >= 100 && iy >= 50;
  });
  return visible ? b : { ...fallback(), maximized: b.maximized };
}
