/**
 * Packaging configuration checks (no installer is built: the Electron binary
 * cannot be downloaded here). Uses electron-builder's own config loader,
 * schema validation and file matcher, and @electron/asar to pack the app
 * directory the installers would contain.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, copyFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG = join(ROOT, 'build', 'electron-builder.yml');

type Json = Record<string, any>;
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string | null, configFromOptions: Json | null): Promise<Json>;
  validateConfiguration(config: Json, debugLogger: unknown): Promise<void>;
};
const { FileMatcher } = require('app-builder-lib/out/fileMatcher.js') as {
  FileMatcher: new (from: string, to: string, macroExpander: (p: string) => string, patterns?: string[]) => {
    createFilter(): (file: string, stat: ReturnType<typeof statSync>) => boolean;
  };
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const asar = require('@electron/asar') as {
  createPackage(src: string, dest: string): Promise<unknown>;
  listPackage(archive: string, options: { isPack: boolean }): string[];
  extractFile(archive: string, file: string): Buffer;
};

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Json;
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

async function loadConfig(): Promise<Json> {
  return getConfig(ROOT, CONFIG, null);
}

/** The `files` patterns; electron-builder normalises them to one file set `{ filter: [...] }`. */
function filePatterns(c: Json): string[] {
  return (c.files as (string | Json)[]).flatMap((f) => (typeof f === 'string' ? [f] : (f.from ?? '.') === '.' ? (f.filter as string[]) : []));
}

/** Files under `dir` (relative, posix) that electron-builder's matcher for `patterns` accepts. */
function matchedFiles(dir: string, patterns: string[]): string[] {
  const filter = new FileMatcher(dir, '/', (p) => p, patterns).createFilter();
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (!filter(p, st)) continue;
      if (st.isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** Copies `files` (relative to `from`) into a fresh temporary app directory. */
function stageAppDir(from: string, files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'impulse-app-'));
  temps.push(dir);
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(from, f), join(dir, f));
  }
  return dir;
}

async function packAndList(appDir: string): Promise<string[]> {
  const archive = join(mkdtempSync(join(tmpdir(), 'impulse-asar-')), 'app.asar');
  temps.push(dirname(archive));
  await asar.createPackage(appDir, archive);
  return asar.listPackage(archive, { isPack: false }).map((p) => p.split(sep).join('/'));
}

/** Reads a PNG's size and checks its chunks' CRCs and that its pixel data inflates to the right length. */
function readPng(path: string): { width: number; height: number } {
  const b = readFileSync(path);
  expect(b.subarray(0, 8).toString('hex'), `${path}: PNG signature`).toBe('89504e470d0a1a0a');
  let o = 8, width = 0, height = 0;
  const idat: Buffer[] = [];
  const crcTable = new Uint32Array(256).map((_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const x of bytes) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  for (;;) {
    const len = b.readUInt32BE(o);
    const type = b.toString('ascii', o + 4, o + 8);
    expect(b.readUInt32BE(o + 8 + len), `${path}: CRC of ${type}`).toBe(crc(b.subarray(o + 4, o + 8 + len)));
    if (type === 'IHDR') {
      width = b.readUInt32BE(o + 8);
      height = b.readUInt32BE(o + 12);
      expect([b[o + 16], b[o + 17]], `${path}: 8-bit RGBA`).toEqual([8, 6]);
    } else if (type === 'IDAT') idat.push(b.subarray(o + 8, o + 8 + len));
    o += 12 + len;
    if (type === 'IEND') break;
  }
  expect(inflateSync(Buffer.concat(idat)).length, `${path}: pixel data size`).toBe((width * 4 + 1) * height);
  return { width, height };
}

/** A stand-in project tree with the build outputs and things that must not ship. */
function syntheticProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'impulse-proj-'));
  temps.push(dir);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'impulse', version: '0.1.0', main: pkg.main }),
    'dist/renderer/index.html': '<!doctype html>',
    'dist/renderer/assets/index-abc123.js': 'console.log(1)',
    'dist/renderer/assets/index-abc123.js.map': '{}',
    'dist-electron/main.cjs': '"use strict";',
    'dist-electron/main.cjs.map': '{}',
    'dist-electron/preload.cjs': '"use strict";',
    'dist-electron/server.mjs': 'export {}',
    'core/index.ts': 'export {}',
    'renderer/src/App.tsx': 'export {}',
    'electron/main/entry.ts': 'export {}',
    'node_modules/three/build/three.module.js': 'export {}',
    'assets/sample/bat-and-ball.impulse': '{}',
    'build/electron-builder.yml': '',
    'README.md': '# Impulse',
    'tsconfig.json': '{}',
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

const EXPECTED_APP_FILES = ['dist-electron/main.cjs', 'dist-electron/preload.cjs', 'dist/renderer/assets/index-abc123.js', 'dist/renderer/index.html', 'package.json'];

/** Libraries the renderer bundle (Vite) already contains; they must not also ship in node_modules. */
const RENDERER_ONLY = ['three', 'react', 'react-dom', '@react-three/fiber', '@react-three/drei', 'zustand', 'immer', 'three-mesh-bvh', '@dimforge/rapier3d-compat'];

/** Production dependencies electron-builder would copy into app.asar/node_modules, with their own dependencies. */
function shippedModules(): string[] {
  const seen = new Set<string>();
  const visit = (name: string, from: string) => {
    if (seen.has(name)) return;
    let pj: string;
    try {
      pj = require.resolve(`${name}/package.json`, { paths: [from] });
    } catch {
      // Packages whose exports hide package.json: find the folder by walking up from the entry.
      const entry = require.resolve(name, { paths: [from] });
      let d = dirname(entry);
      while (!existsSync(join(d, 'package.json')) || JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).name !== name) d = dirname(d);
      pj = join(d, 'package.json');
    }
    seen.add(name);
    const meta = JSON.parse(readFileSync(pj, 'utf8')) as Json;
    for (const dep of Object.keys(meta.dependencies ?? {})) visit(dep, dirname(pj));
  };
  for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, ROOT);
  return [...seen].sort();
}

describe('electron-builder configuration (build/electron-builder.yml)', () => {
  it('loads and passes electron-builder schema validation', async () => {
    const config = await loadConfig();
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.appId).toBe('app.impulse.desktop');
    expect(config.productName).toBe('Impulse');
    expect(pkg.scripts.dist).toBe('npm run build && electron-builder --config build/electron-builder.yml');
  });

  it('targets Linux AppImage + deb, Windows NSIS and macOS dmg', async () => {
    const c = await loadConfig();
    expect(c.linux.target).toEqual(['AppImage', 'deb']);
    expect(c.win.target).toEqual(['nsis']);
    expect(c.mac.target).toEqual(['dmg']);
  });

  it('associates .impulse project files with the app (and the Linux MIME type)', async () => {
    const c = await loadConfig();
    const assoc = (c.fileAssociations as Json[]).find((a) => a.ext === 'impulse');
    expect(assoc, 'a file association for .impulse').toBeDefined();
    expect(assoc!.name).toBe('Impulse Project');
    expect(assoc!.role).toBe('Editor');
    expect(c.linux.mimeTypes).toContain(assoc!.mimeType);
  });

  it('flips the Electron fuses: no run-as-node, no inspector or NODE_OPTIONS, code only from the integrity-checked asar', async () => {
    const c = await loadConfig();
    expect(c.asar).toBe(true);
    expect(c.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeCliInspectArguments: false,
      enableNodeOptionsEnvironmentVariable: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('icons exist as valid PNGs (1024² for macOS/Windows conversion, 16…512 for Linux) and the script reproduces them', async () => {
    const c = await loadConfig();
    const main = join(ROOT, 'build', c.mac.icon);
    expect(c.win.icon).toBe(c.mac.icon);
    const size = readPng(main);
    expect(size).toEqual({ width: 1024, height: 1024 });
    const linuxDir = join(ROOT, 'build', c.linux.icon);
    for (const n of [16, 32, 48, 64, 128, 256, 512]) expect(readPng(join(linuxDir, `${n}x${n}.png`))).toEqual({ width: n, height: n });
    const { encodePng, renderIcon } = (await import('./make-icons.mjs')) as {
      encodePng(w: number, h: number, rgba: Uint8Array): Buffer;
      renderIcon(size: number): Uint8Array;
    };
    expect(encodePng(64, 64, renderIcon(64)).equals(readFileSync(join(linuxDir, '64x64.png'))), 'build/icons/png/64x64.png is what make-icons.mjs draws').toBe(true);
  });

  it('app files are only dist/renderer, dist-electron (no dev server, no source maps) and package.json; the asar holds exactly those', async () => {
    const c = await loadConfig();
    const proj = syntheticProject();
    const files = matchedFiles(proj, filePatterns(c));
    expect(files).toEqual(EXPECTED_APP_FILES);
    const listed = await packAndList(stageAppDir(proj, files));
    for (const f of EXPECTED_APP_FILES) expect(listed, `asar lists /${f}`).toContain(`/${f}`);
    expect(listed.filter((p) => /\.(ts|tsx|map)$/.test(p) || p.includes('node_modules') || p.includes('server.mjs'))).toEqual([]);
  });

  it('ships the sample scene and characters as extra resources (resources/assets)', async () => {
    const c = await loadConfig();
    const set = (c.extraResources as Json[]).find((r) => r.from === 'assets');
    expect(set, 'an extraResources set from assets/').toBeDefined();
    expect(set!.to).toBe('assets');
    const proj = syntheticProject();
    mkdirSync(join(proj, 'assets', 'characters'), { recursive: true });
    writeFileSync(join(proj, 'assets', 'characters', 'mannequin.glb'), 'glb');
    writeFileSync(join(proj, 'assets', 'characters', 'notes.txt'), 'no');
    expect(matchedFiles(join(proj, 'assets'), set!.filter)).toEqual(['characters/mannequin.glb', 'sample/bat-and-ball.impulse']);
  });

  it('renderer-only libraries are not production dependencies (Vite bundles them; they would ship twice)', () => {
    const shipped = shippedModules();
    console.log(`production dependencies electron-builder would copy into app.asar/node_modules: ${shipped.join(', ') || 'none'}`);
    expect(shipped.filter((m) => RENDERER_ONLY.includes(m))).toEqual([]);
  });

  it('with real build outputs present: packs the would-be app.asar and finds main, preload, renderer and package.json', async () => {
    const haveBuild = existsSync(join(ROOT, 'dist-electron', 'main.cjs')) && existsSync(join(ROOT, 'dist', 'renderer', 'index.html'));
    const c = await loadConfig();
    if (!haveBuild) {
      // Nothing built: the synthetic-tree test above covered the file rules; check that
      // package.json's entry is one of the files the rules ship.
      expect(matchedFiles(syntheticProject(), filePatterns(c))).toContain(pkg.main);
      return;
    }
    const files = matchedFiles(ROOT, filePatterns(c));
    expect(files).toContain(pkg.main);
    expect(files).toContain('dist-electron/preload.cjs');
    expect(files).toContain('dist/renderer/index.html');
    expect(files.filter((f) => !/^(dist\/renderer\/|dist-electron\/|package\.json$)/.test(f))).toEqual([]);
    const archive = join(mkdtempSync(join(tmpdir(), 'impulse-asar-')), 'app.asar');
    temps.push(dirname(archive));
    await asar.createPackage(stageAppDir(ROOT, files), archive);
    const listed = asar.listPackage(archive, { isPack: false }).map((p) => p.split(sep).join('/'));
    console.log(`app.asar: ${listed.length} entries, e.g. ${listed.slice(0, 8).join(', ')}`);
    expect(listed).toContain(`/${pkg.main}`);
    const packedPkg = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as Json;
    expect(packedPkg.main).toBe(pkg.main);
    expect(listed.filter((p) => /\.(ts|tsx|map)$/.test(p))).toEqual([]);
  });
});
