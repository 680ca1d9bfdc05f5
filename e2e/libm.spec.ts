/**
 * Cross-engine determinism: core computes the same bits in the app (this
 * machine's Chromium, a newer V8 whose Math.* uses other libm code) as in the
 * CLI (node 20).
 *
 * core/math/libm and its seeded cases are bundled for the page with esbuild
 * (e2e/fixtures/libmProbe.ts) and run in a blank page; the spec runs the same
 * module in node. libm must give node 20's Math.* bits (the pinned hashes) in
 * both engines, while Chromium's own Math.* differs on some of the same
 * inputs: without libm the engines would disagree. Then the chaotic case that
 * showed the bug, the sample mannequin as a ragdoll from frame 20
 * (`impulse suggest assets/sample/bat-and-ball.impulse --dynamic Mannequin
 * --from 20`), must give the same suggestion in both.
 */
import { expect, test, type Page } from '@playwright/test';
import { buildSync } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE20_HASHES } from '../core/math/libmCases';
import { probeCases, probeSuggestion, type CaseProbe, type SuggestionProbe } from './fixtures/libmProbe';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLE = join(ROOT, 'assets', 'sample', 'bat-and-ball.impulse');
const NODE20_V8 = process.versions.v8.startsWith('11.3.');

declare global {
  interface Window {
    __libmProbe?: typeof import('./fixtures/libmProbe');
  }
}

let bundle: string | null = null;
function probeBundle(): string {
  bundle ??= buildSync({
    entryPoints: [join(ROOT, 'e2e', 'fixtures', 'libmProbe.ts')],
    bundle: true,
    format: 'iife',
    globalName: '__libmProbe',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  }).outputFiles[0]!.text;
  return bundle;
}

async function openProbe(page: Page): Promise<string> {
  await page.setContent('<!doctype html><title>libm probe</title>');
  await page.addScriptTag({ content: `${probeBundle()}\nwindow.__libmProbe = __libmProbe;` });
  const ua = await page.evaluate(() => navigator.userAgent);
  expect(ua, 'the probe runs in Chromium').toMatch(/Chrome\/\d+/);
  return ua;
}

test('libm gives node 20 Math.* bits in Chromium, where Chromium\'s own Math.* differs', async ({ page }, info) => {
  test.setTimeout(240_000);
  const ua = await openProbe(page);
  const inPage: CaseProbe[] = await page.evaluate(() => window.__libmProbe!.probeCases());
  const inNode = probeCases();
  const lines: string[] = [`Chromium: ${ua}`, `node: ${process.version} (V8 ${process.versions.v8})`];
  let chromiumDiffers = 0;
  for (const p of inPage) {
    const n = inNode.find((q) => q.name === p.name)!;
    lines.push(`${p.name.padEnd(7)} ${String(p.count).padStart(8)} inputs: Chromium Math differs on ${p.differ} (${((100 * p.differ) / p.count).toFixed(2)}%)${p.examples[0] ? `, e.g. ${p.examples[0]}` : ''}`);
    chromiumDiffers += p.differ;
    expect(p.libmHash, `libm.${p.name} in Chromium gives node 20's Math.${p.name} bits (pinned hash)`).toBe(NODE20_HASHES[p.name]);
    expect(n.libmHash, `libm.${p.name} in node gives the same bits as in Chromium`).toBe(p.libmHash);
    if (NODE20_V8) {
      expect(n.differ, `node 20's Math.${p.name} equals libm on every input: ${n.examples.join('; ')}`).toBe(0);
      expect(n.mathHash, `node 20's Math.${p.name} hash is the pinned one`).toBe(NODE20_HASHES[p.name]);
    }
  }
  await info.attach('chromium-math-vs-libm.txt', { body: lines.join('\n'), contentType: 'text/plain' });
  console.log(lines.join('\n'));
  expect(chromiumDiffers, "Chromium's own Math.* differs from node 20's on some inputs (else this test proves nothing)").toBeGreaterThan(0);
});

test('the sample mannequin as a ragdoll from frame 20 gives the same suggestion in Chromium as in node (impulse suggest)', async ({ page }, info) => {
  test.setTimeout(300_000);
  await openProbe(page);
  const text = readFileSync(SAMPLE, 'utf8');
  const inPage: SuggestionProbe = await page.evaluate((t) => window.__libmProbe!.probeSuggestion(t), text);
  const inNode = probeSuggestion(text);
  await info.attach('ragdoll-suggestion.json', { body: JSON.stringify({ chromium: inPage, node: inNode }, null, 2), contentType: 'application/json' });
  console.log(`ragdoll from frame 20: Chromium ${inPage.impacts} impacts, ${inPage.keys} keys, hash ${inPage.hash}; node ${inNode.impacts} impacts, ${inNode.keys} keys, hash ${inNode.hash}`);
  expect(inPage.impacts, 'Chromium finds impacts (the mannequin falls, hits the table and the ground)').toBeGreaterThan(10);
  expect(inPage.impacts, 'same number of impacts in Chromium and node').toBe(inNode.impacts);
  expect(inPage.keys, 'same number of keys').toBe(inNode.keys);
  expect(inPage.hash, 'same tracks, impacts and trajectory, bit for bit (hash of their JSON)').toBe(inNode.hash);
});
