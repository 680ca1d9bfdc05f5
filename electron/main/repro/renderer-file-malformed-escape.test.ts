/**
 * Repro: `rendererFileFor` promises "a file inside the renderer folder, or
 * null for anything else", but a malformed percent escape in the path made
 * `decodeURIComponent` throw a URIError out of the `app://` protocol handler
 * (httpBridge's `fileInside` already returned null for the same input).
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ app: {}, BrowserWindow: class {}, dialog: {}, ipcMain: {}, Menu: {}, net: {}, protocol: {}, screen: {}, session: {}, shell: {} }));

const { rendererFileFor } = await import('../main');

describe('rendererFileFor with a malformed escape (repro)', () => {
  it('returns null instead of throwing', () => {
    expect(() => rendererFileFor('app://impulse/%E0%A4%A', '/r'), 'no URIError escapes').not.toThrow();
    expect(rendererFileFor('app://impulse/%E0%A4%A', '/r')).toBeNull();
    expect(rendererFileFor('app://impulse/a%ZZ.js', '/r')).toBeNull();
  });

  it('still maps well-formed escapes', () => {
    expect(rendererFileFor('app://impulse/assets/a%20b.js', '/r')).toBe('/r/assets/a b.js');
  });
});
