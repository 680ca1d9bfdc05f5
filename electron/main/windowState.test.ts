import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, MIN_SIZE, loadWindowBounds, placeWindow, saveWindowBounds, windowStateFile } from './windowState';

const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

describe('window state', () => {
  it('round-trips through the data folder; a missing or broken file gives null', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'impulse-ws-'));
    expect(await loadWindowBounds(dir)).toBeNull();
    const b = { x: 10, y: 20, width: 1000, height: 700, maximized: true };
    await saveWindowBounds(dir, b);
    expect(await loadWindowBounds(dir)).toEqual(b);
    writeFileSync(windowStateFile(dir), '{"x":1');
    expect(await loadWindowBounds(dir)).toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });

  it('remembered bounds on screen are kept; cascaded windows are offset', () => {
    const b = { x: 100, y: 50, width: 1200, height: 800, maximized: false };
    expect(placeWindow(b, screen)).toEqual(b);
    expect(placeWindow(b, screen, 2)).toEqual({ ...b, x: 148, y: 98 });
  });

  it('bounds on a display that is gone are moved back to the primary display, centred', () => {
    const off = { x: 3000, y: 200, width: 1200, height: 800, maximized: true };
    const p = placeWindow(off, screen);
    expect(p).toEqual({ x: (1920 - DEFAULT_SIZE.width) / 2, y: (1080 - DEFAULT_SIZE.height) / 2, ...DEFAULT_SIZE, maximized: true });
  });

  it('never smaller than the minimum size', () => {
    const p = placeWindow({ x: 0, y: 0, width: 10, height: 10, maximized: false }, screen);
    expect(p.width).toBe(MIN_SIZE.width);
    expect(p.height).toBe(MIN_SIZE.height);
  });
});
