/**
 * The checking half of the app, end to end on the sample scene (built
 * renderer in Chromium, `window.impulse` wired to the real handlers):
 * check the clip, findings and red bands, jump to a finding, ignore it;
 * suggest motion for the ball the bat hits, see the ghost, accept, find the
 * ball's keys, undo; export a .glb and validate it with gltf-validator.
 *
 * `__impulseTest` / `__impulseCheckTest` are read-only views into the app;
 * the tests act through menus, buttons and the timeline.
 */
import type { Page, TestInfo } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from './fixtures/bridge';

const CHAR = 'char_mannequin';
const BAT = 'prop_bat';
const BALL = 'prop_ball';
const TABLE = 'prop_table';

interface ValidationReport {
  issues: { numErrors: number; numWarnings: number; messages: { code: string; message: string; severity: number; pointer?: string }[] };
}
const validator = createRequire(import.meta.url)('gltf-validator') as {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidationReport>;
};

type CheckHook = NonNullable<Window['__impulseCheckTest']>;
type AppHook = NonNullable<Window['__impulseTest']>;

function check<T>(page: Page, fn: (h: CheckHook, arg: unknown) => T, arg?: unknown): Promise<T> {
  return page.evaluate(([src, a]) => new Function('h', 'a', `return (${src})(h, a)`)(window.__impulseCheckTest, a), [fn.toString(), arg] as const) as Promise<T>;
}
function app<T>(page: Page, fn: (h: AppHook, arg: unknown) => T, arg?: unknown): Promise<T> {
  return page.evaluate(([src, a]) => new Function('h', 'a', `return (${src})(h, a)`)(window.__impulseTest, a), [fn.toString(), arg] as const) as Promise<T>;
}

async function ready(page: Page): Promise<void> {
  await expect(page.getByTestId(`outliner-character-${CHAR}`)).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__impulseTest!.runtimeVersion())).toBeGreaterThan(0);
  await expect.poll(() => page.evaluate(() => !!window.__impulseCheckTest)).toBe(true);
}

async function setFrame(page: Page, frame: number): Promise<void> {
  const field = page.getByTestId('timeline-frame');
  await field.fill(String(frame));
  await field.press('Enter');
  await expect.poll(() => app(page, (h) => h.frame())).toBe(frame);
}

/**
 * Screenshot of the viewport, checked not blank by its pixels: luminance
 * variance over the canvas, and the share of pixels of a hue (the
 * overlay's red, the ghost's cyan) above `minFraction`.
 */
async function viewportShot(page: Page, info: TestInfo, name: string, hue: 'red' | 'cyan', minFraction: number): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  const png = await page.getByTestId('viewport').screenshot({ path });
  await info.attach(name, { body: png, contentType: 'image/png' });
  expect(png.byteLength).toBeGreaterThan(10_000);
  const stats = await check(page, (h, c) => h.pixelStats([c as 'red']), hue);
  expect(stats, 'the viewport canvas exists').not.toBeNull();
  expect(stats!.variance, `${name}: pixel variance (a blank image has ~0)`).toBeGreaterThan(100);
  expect(stats!.fractions[0], `${name}: share of ${hue} pixels`).toBeGreaterThan(minFraction);
}

test.describe.configure({ timeout: 240_000 });

test('check the clip: red bands, findings, jump to one, ignore it (saved, undoable)', async ({ bridge }, info) => {
  // The whole-clip check of the sample (a 67-joint character with self-collision, 61 frames) takes a while on SwiftShader machines.
  test.setTimeout(900_000);
  const page = await bridge.open();
  await ready(page);
  // A check can be cancelled from its progress bar.
  await bridge.menu('checkClip');
  await expect(page.getByTestId('job-progress')).toBeVisible();
  await page.getByTestId('job-cancel').click();
  await expect(page.getByTestId('job-progress')).toBeHidden({ timeout: 30_000 });
  await expect(page.locator('.statusbar')).toContainText('Check cancelled');
  await bridge.menu('checkClip');
  await expect(page.getByTestId('job-progress')).toBeVisible();
  await expect(page.getByTestId('job-progress')).toBeHidden({ timeout: 800_000 });
  await expect(page.getByTestId('findings')).toBeVisible();
  const st = await check(page, (h) => h.checkState());
  expect(st.checkedFrames).toBe(st.totalFrames);

  const findings = await check(page, (h) => h.findings());
  const between = (a: string, b: string) => findings.filter((f) => (f.a.object === a && f.b.object === b) || (f.a.object === b && f.b.object === a));
  // The sample's expected contacts (assets/README.md): the hit, and the fists through the table.
  const hit = between(BAT, BALL);
  expect(hit.length, 'bat ↔ ball finding').toBeGreaterThan(0);
  expect(hit[0].startFrame).toBeGreaterThanOrEqual(29);
  expect(hit[0].startFrame).toBeLessThanOrEqual(30);
  expect(hit[0].firstContactTimeSec * 30).toBeGreaterThan(28.9);
  expect(hit[0].firstContactTimeSec * 30).toBeLessThan(30.1);
  expect(hit[0].maxDepth, 'the bat is inside the ball at the hit').toBeGreaterThan(0);
  const table = between(CHAR, TABLE);
  expect(table.length, 'mannequin ↔ table findings').toBeGreaterThan(0);
  // Ignored pairs of the sample (the hands hold the bat) are not listed.
  expect(findings.some((f) => [f.a, f.b].some((s) => s.object === CHAR && s.label === 'LeftHand') && [f.a, f.b].some((s) => s.object === BAT))).toBe(false);

  // Red bands over those frames on the timeline.
  const bands = page.getByTestId('check-band');
  await expect(bands.first()).toBeVisible();
  const ranges = await bands.evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-from')), Number(e.getAttribute('data-to'))]));
  expect(ranges.some(([a, b]) => a <= 30 && b >= 30), `a band covers frame 30: ${JSON.stringify(ranges)}`).toBe(true);
  const bandBox = await bands.first().boundingBox();
  expect(bandBox!.width).toBeGreaterThan(1);
  // Scrolled down, the sticky ruler stays on top of the bands: its background over a band is the colour it has
  // beside the band (the bands tinted it red before). Pixels of a screenshot of the ruler, read in the page.
  const sheet = page.getByTestId('dopesheet');
  await sheet.evaluate((el) => (el.scrollTop = 60));
  expect(await sheet.evaluate((el) => el.scrollTop), 'the sheet scrolls (more rows than fit)').toBeGreaterThan(0);
  const ruler = (await page.getByTestId('ruler').boundingBox())!;
  const band0 = (await bands.first().boundingBox())!;
  const shot = await page.screenshot({ clip: { x: ruler.x, y: ruler.y, width: ruler.width, height: ruler.height } });
  const bandMid = Math.round(band0.x + band0.width / 2 - ruler.x);
  const px = await page.evaluate(async ({ b64, xs, y }) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    return xs.map((x) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3)));
  }, { b64: shot.toString('base64'), xs: [bandMid, Math.round(ruler.width - 4)], y: Math.round(ruler.height - 3) });
  expect(Math.max(...px[0].map((v, i) => Math.abs(v - px[1][i]))), `ruler pixel over the band ${px[0]} vs beside it ${px[1]}`).toBeLessThan(4);
  await sheet.evaluate((el) => (el.scrollTop = 0));
  // The panel groups findings by pair of objects.
  const pairsOf = (fs: typeof findings) => new Set(fs.map((f) => `${f.a.object}|${f.b.object}`));
  const groups = page.getByTestId('finding-group');
  await expect(groups).toHaveCount(pairsOf(findings).size);

  // Jump to a mannequin ↔ table finding: playhead at its worst frame, its body part selected.
  const target = table.sort((x, y) => y.maxDepth - x.maxDepth)[0];
  const group = page.locator(`[data-testid="finding-group"][data-objects="${target.a.object}|${target.b.object}"]`);
  if (!(await page.locator(`[data-finding="${target.id}"]`).isVisible())) await group.getByTestId('finding-group-toggle').click();
  await expect(group.getByTestId('finding')).toHaveCount(table.length);
  await page.locator(`[data-finding="${target.id}"] [data-testid="finding-jump"]`).click();
  await expect.poll(() => app(page, (h) => h.frame())).toBe(target.maxDepthFrame);
  const side = target.a.object === CHAR ? target.a : target.b;
  await expect.poll(() => app(page, (h) => h.selection())).toEqual({ kind: 'joint', character: CHAR, joint: side.joint });
  await expect(page.locator(`[data-finding="${target.id}"]`)).toHaveClass(/selected/);
  // ] goes to the next finding in the panel (its deepest frame, its part), [ comes back, as clicks do.
  await page.keyboard.press(']');
  await expect(page.locator('.statusbar')).toContainText(new RegExp(`Finding \\d+ of ${findings.length}: `));
  const next = await check(page, (h) => h.checkState().selectedFinding);
  expect(next, '] selected another finding').not.toBe(target.id);
  const nextFinding = findings.find((f) => f.id === next)!;
  await expect.poll(() => app(page, (h) => h.frame())).toBe(nextFinding.maxDepthFrame);
  await expect(page.locator(`[data-finding="${next}"]`)).toHaveClass(/selected/);
  await page.keyboard.press('[');
  await expect.poll(() => check(page, (h) => h.checkState().selectedFinding)).toBe(target.id);
  await expect.poll(() => app(page, (h) => h.frame())).toBe(target.maxDepthFrame);

  // The live check at that frame tints the penetrating triangles and marks the contacts.
  await expect.poll(() => check(page, (h) => h.live()?.frame ?? -1), { timeout: 60_000 }).toBe(target.maxDepthFrame);
  const live = await check(page, (h) => h.live());
  expect(live!.contacts).toBeGreaterThan(0);
  expect(live!.triangles.some((t) => t.object === TABLE && t.count > 0), 'table triangles tinted').toBe(true);
  expect(live!.triangles.some((t) => t.object === CHAR && t.count > 0), 'mannequin triangles tinted').toBe(true);
  await expect.poll(() => check(page, (h) => h.countNamed('tint:'))).toBeGreaterThan(1);
  await expect.poll(() => check(page, (h) => h.countNamed('contact-point'))).toBeGreaterThan(0);
  await page.getByTestId('frame-selected').click();
  await page.getByTestId('dock-collapse').click();
  await page.waitForTimeout(300);
  await viewportShot(page, info, 'interpenetration-overlay', 'red', 0.002);
  // Hovering a contact point shows its depth.
  const contacts = await check(page, (h) => h.liveContacts());
  const deepest = contacts.filter((c) => c.kind === 'intersect').sort((x, y) => y.depth - x.depth)[0];
  const at = await app(page, (h, p) => h.projectPoint(p as [number, number, number]), deepest.point);
  await page.mouse.move(at!.x + 3, at!.y + 3);
  await page.mouse.move(at!.x, at!.y);
  await expect(page.getByTestId('contact-tip')).toBeVisible();
  await expect(page.getByTestId('contact-tip')).toContainText(/\d+\.\d\d cm deep/);
  await page.getByTestId('dock-collapse').click();

  // Ignore the two objects: every mannequin ↔ table finding goes; the rule is in the document (undoable, saved).
  const rulesBefore = await page.getByTestId('ignore-rule').count();
  await page.locator(`[data-finding="${target.id}"] [data-testid="ignore-objects"]`).click();
  await expect(page.getByTestId('ignore-rule')).toHaveCount(rulesBefore + 1);
  await expect.poll(async () => (await check(page, (h) => h.findings())).filter((f) => [f.a.object, f.b.object].includes(TABLE) && [f.a.object, f.b.object].includes(CHAR)).length).toBe(0);
  await expect(page.locator(`[data-finding="${target.id}"]`)).toHaveCount(0);
  await expect(group).toHaveCount(0);
  await expect(groups).toHaveCount(pairsOf(findings).size - 1);
  // The live count at the playhead counts what the viewport draws and says how many the rules hide.
  await expect(page.getByTestId('live-count')).toContainText(/contacts? \(\d+ ignored\)/);
  const hist = await app(page, (h) => h.history());
  expect(hist.labels[hist.labels.length - 1]).toBe('Ignore objects');
  bridge.nextSavePath = 'checked.impulse';
  await bridge.menu('save');
  await expect.poll(() => bridge.exists('checked.impulse')).toBe(true);
  const saved = JSON.parse(bridge.read('checked.impulse')) as { check: { ignore: { a: { object: string; joint?: number }; b: { object: string; joint?: number } }[] } };
  expect(saved.check.ignore.some((r) => !('joint' in r.a) && !('joint' in r.b) && [r.a.object, r.b.object].sort().join() === [CHAR, TABLE].sort().join())).toBe(true);
  // Undo brings the findings back without a recheck.
  await page.keyboard.press('Control+z');
  await expect(groups).toHaveCount(pairsOf(findings).size);
  expect(await check(page, (h) => h.findings().length)).toBe(findings.length);
  expect((await check(page, (h) => h.checkState())).checkedFrames).toBe(st.totalFrames);
  expect((await check(page, (h) => h.checkState())).lastUpdate, 'ignore rules and undoing them recheck nothing').toBeNull();

  // Edit the bat at frame 51 (keys every 3 frames): only the frames around that key are checked again.
  await page.getByTestId(`outliner-prop-${BAT}`).click();
  await setFrame(page, 51);
  const y = page.getByTestId('prop-translation-y');
  const y0 = Number(await y.inputValue());
  await y.fill(String(y0 + 0.05));
  await y.press('Enter');
  await expect.poll(() => check(page, (h) => h.checkState().lastUpdate)).not.toBeNull();
  const update = (await check(page, (h) => h.checkState())).lastUpdate!;
  const rechecked = update.ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
  expect(update.ranges.some(([a, b]) => a <= 51 && b >= 51), `frame 51 rechecked: ${JSON.stringify(update.ranges)}`).toBe(true);
  expect(rechecked, `only the edited key's neighbourhood: ${JSON.stringify(update.ranges)}`).toBeLessThanOrEqual(8);
  expect(update.kept).toBe(st.totalFrames - rechecked);
  await expect.poll(() => check(page, (h) => h.checkState().updating), { timeout: 120_000 }).toBe(false);
  expect((await check(page, (h) => h.checkState())).checkedFrames).toBe(st.totalFrames);
});

test('suggest motion for the ball the bat hits: ghost, impact marker, accept as keys, undo', async ({ bridge }, info) => {
  // Two simulations of the swing (the second after a restitution change) on a shared 2-core machine.
  test.setTimeout(900_000);
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await expect.poll(() => app(page, (h) => h.selection())).toEqual({ kind: 'prop', id: BALL });
  const keysBefore = (await app(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!.tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_ball').length;
  expect(keysBefore, 'the ball has no keys in the sample').toBe(0);

  // The whole clip (the bat reaches the ball at frame 29.6, then grinds it into the table).
  await page.getByTestId('tab-suggest').click();
  await page.getByTestId('suggest-from').fill('0');
  await page.getByTestId('suggest-to').fill('60');
  await expect(page.getByTestId(`suggest-target-${BALL}`)).toBeChecked();
  await bridge.menu('suggest');
  await expect(page.getByTestId('job-progress')).toBeVisible();
  await expect(page.getByTestId('suggestion')).toBeVisible({ timeout: 400_000 });
  const sug = await check(page, (h) => h.suggestion());
  expect(sug!.objects).toEqual([BALL]);
  expect([sug!.fromFrame, sug!.toFrame]).toEqual([0, 60]);
  const hit = sug!.impacts.find((i) => [i.a, i.b].includes(BAT) && [i.a, i.b].includes(BALL));
  expect(hit, `the bat hits the ball: ${JSON.stringify(sug!.impacts)}`).toBeTruthy();
  expect(hit!.timeSec * 30).toBeGreaterThan(28.5);
  expect(hit!.timeSec * 30).toBeLessThan(31);
  expect(sug!.keys, 'the suggestion has keys').toBeGreaterThan(0);
  // File > Export says the ghost is not in the file until it is accepted (and does not export).
  await bridge.menu('export');
  await expect(page.getByTestId('export-note').first()).toContainText('suggestion shown for Ball is not accepted');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-dialog')).toHaveCount(0);

  // Ghost copies along the trajectory, impacts on the timeline.
  await expect.poll(() => check(page, (h) => h.countNamed(`ghost:`))).toBeGreaterThan(0);
  const markers = page.getByTestId('impact-marker');
  await expect(markers.first()).toBeVisible();
  const frames = await markers.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-frame'))));
  expect(frames.some((f) => f >= 29 && f <= 31)).toBe(true);
  // Each marker's head sits in the ruler (which stays above the bands and lines when the sheet scrolls), over its line.
  const heads = page.getByTestId('ruler').getByTestId('impact-head');
  await expect(heads).toHaveCount(frames.length);
  const lineX = await markers.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left + e.getBoundingClientRect().width / 2));
  const headX = await heads.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left + e.getBoundingClientRect().width / 2));
  headX.forEach((x, i) => expect(Math.abs(x - lineX[i]), `head ${i} over its line`).toBeLessThan(1.5));
  await setFrame(page, 32);
  await page.getByTestId('dock-collapse').click();
  // Zoom towards the table (the orbit target) so the onion skin fills more of the view.
  const vp = (await page.getByTestId('viewport').boundingBox())!;
  await page.mouse.move(vp.x + vp.width / 2, vp.y + vp.height / 2);
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -300);
  await page.waitForTimeout(400);
  await viewportShot(page, info, 'ghost-trajectory', 'cyan', 0.0003);

  await page.getByTestId('dock-collapse').click();

  // Changing the ball's restitution runs the suggestion again: the ball ends somewhere else
  // (lowered: a pair's restitution may be the smaller of the two, and the bat's and table's are lower).
  const end0 = (await check(page, (h) => h.suggestion()))!.trajectory[0].last;
  const restitution = page.getByTestId('prop-restitution');
  await restitution.fill('0.1');
  await restitution.press('Enter');
  await expect.poll(() => app(page, (h, id) => h.document().props.find((p) => p.id === id)!.physics.restitution, BALL)).toBe(0.1);
  await expect
    .poll(async () => JSON.stringify((await check(page, (h) => h.suggestion()))?.trajectory[0].last), { timeout: 400_000 })
    .not.toBe(JSON.stringify(end0));
  await expect(page.getByTestId('job-progress')).toBeHidden({ timeout: 400_000 });
  await expect(page.getByTestId('suggestion')).toBeVisible();

  // Accept: ordinary keys, one undo step.
  const undoBefore = (await app(page, (h) => h.history())).undo;
  await page.getByTestId('suggest-accept').click();
  await expect(page.getByTestId('suggestion')).toHaveCount(0);
  const hist = await app(page, (h) => h.history());
  expect(hist.undo).toBe(undoBefore + 1);
  expect(hist.labels[hist.labels.length - 1]).toBe('Accept suggestion');
  expect(await check(page, (h) => h.countNamed('ghost:'))).toBe(0);
  const ballTracks = (await app(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!.tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === BALL);
  expect(ballTracks.map((t) => t.path).sort()).toEqual(['rotation', 'translation']);
  const nKeys = ballTracks[0].times.length;
  expect(nKeys).toBeGreaterThan(2);
  // The dope sheet shows them; scrubbing moves the ball.
  await expect(page.locator(`[data-testid^="key-p:${BALL}-"]`).first()).toBeVisible();
  await setFrame(page, 20);
  const before = await app(page, (h, id) => h.propTransform(id as string), BALL);
  await setFrame(page, 34);
  const after = await app(page, (h, id) => h.propTransform(id as string), BALL);
  const moved = Math.hypot(after![0] - before![0], after![1] - before![1], after![2] - before![2]);
  expect(moved, 'the hit ball flies off').toBeGreaterThan(0.1);
  await setFrame(page, 27);
  await page.getByTestId('next-key').click();
  const next = await app(page, (h) => h.frame());
  expect(next, 'the next key of the ball').toBeGreaterThan(27);
  expect(next).toBeLessThanOrEqual(60);

  // Undo the acceptance: the ball has no keys again.
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await app(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!.tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === BALL).length).toBe(0);
  await expect(page.locator(`[data-testid^="key-p:${BALL}-"]`)).toHaveCount(0);
});

test('File > Export writes a .glb that gltf-validator accepts (sparse and every frame)', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const sizes: number[] = [];
  for (const mode of ['sparse', 'every-frame'] as const) {
    await bridge.menu('export');
    await expect(page.getByTestId('export-dialog')).toBeVisible();
    // the sample's dynamic Box and Ball have no keys: the dialog says they stay where they stand
    await expect(page.getByTestId('export-note')).toHaveText(/Dynamic, with no keys in any clip: Box, Ball\. They are exported where they stand/);
    await page.getByTestId(mode === 'sparse' ? 'export-sparse' : 'export-every-frame').check();
    bridge.nextExportPath = `scene-${mode}.glb`;
    await page.getByTestId('export-run').click();
    await expect.poll(() => bridge.exists(`scene-${mode}.glb`), { timeout: 120_000 }).toBe(true);
    const bytes = new Uint8Array(readFileSync(bridge.path(`scene-${mode}.glb`)));
    sizes.push(bytes.byteLength);
    const report = await validator.validateBytes(bytes, { maxIssues: 100, writeTimestamp: false });
    const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => `${m.code} ${m.pointer ?? ''} ${m.message}`);
    expect(errors, `${mode}: gltf-validator errors`).toEqual([]);
    expect(report.issues.numErrors).toBe(0);
    const dialog = bridge.dialogs[bridge.dialogs.length - 1];
    expect(dialog.defaultPath ?? '').toMatch(/\.glb$/);
  }
  expect(sizes[0], 'sparse is smaller than every frame').toBeLessThan(sizes[1]);
  expect(bridge.errors).toEqual([]);
});
