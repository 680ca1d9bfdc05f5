// Where Electron's binary is, if it was installed (node_modules/electron/path.txt + dist/).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Absolute path of the Electron executable, or null. */
export function electronBinary(root = ROOT) {
  const pkg = join(root, 'node_modules', 'electron');
  const pathTxt = join(pkg, 'path.txt');
  if (!existsSync(pathTxt)) return null;
  const bin = join(pkg, 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

/** The machine's Chromium, or null. */
export function chromiumBinary() {
  const candidates = [process.env.IMPULSE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/snap/bin/chromium'];
  return candidates.find((c) => c && existsSync(c)) ?? null;
}
