/**
 * Third walk through the app as an animator (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers), over what came
 * after the first two walks (animator.spec.ts, animator2.spec.ts): dope sheet
 * zoom and key copy / paste, clips created, duplicated and deleted, and a
 * whole session (pose, key, check, suggest, undo, save, reopen, export).
 * Each test fails without its fix.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/bridge';
import { hook, ready } from './fixtures/page';

const HIPS = 'j:char_mannequin:0';

test.use({ viewport: { width: 1280, height: 720 } });

const activeClip = (page: Page) => hook(page, (h) => h.document().activeClip);

test('selected keys stay with their clip: deleting a duplicate, or switching clips, leaves no keys picked in the clip now shown', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('clip-duplicate').click();
  await expect.poll(() => activeClip(page)).not.toBe('clip_swing');
  // Pick two Hips keys in the copy, then delete the copy: swing (same keys on the same frames) comes back.
  await page.getByTestId(`key-${HIPS}-3`).click();
  await page.getByTestId(`key-${HIPS}-6`).click({ modifiers: ['Control'] });
  await expect(page.getByTestId(`key-${HIPS}-6`)).toHaveClass(/selected/);
  await page.getByTestId('clip-delete').click();
  await expect.poll(() => activeClip(page)).toBe('clip_swing');
  expect(await hook(page, (h) => h.selectedKeys()), 'nothing is picked in swing').toEqual([]);
  await expect(page.getByTestId(`key-${HIPS}-6`), 'swing shows its key on 6 unselected').not.toHaveClass(/selected/);
  // Ctrl+C in the sheet now copies no keys of the deleted clip (it copied swing's keys on 3 and 6).
  await page.getByTestId('dopesheet').focus();
  await page.keyboard.press('Control+c');
  expect(await hook(page, (h) => h.selectedKeys())).toEqual([]);
  await expect(page.getByTestId('status')).not.toContainText('Copied 2 keys');

  // Keys picked in swing are not picked in its duplicate (or back in swing after the switch is undone).
  await page.getByTestId(`key-${HIPS}-6`).click();
  await page.getByTestId('clip-duplicate').click();
  await expect.poll(() => activeClip(page)).not.toBe('clip_swing');
  await expect(page.getByTestId(`key-${HIPS}-6`)).not.toHaveClass(/selected/);
  await page.getByTestId(`key-${HIPS}-3`).click();
  await page.locator('body').press('Control+z');
  await expect.poll(() => activeClip(page)).toBe('clip_swing');
  await expect(page.getByTestId(`key-${HIPS}-3`), 'the key picked in the copy is not picked in swing').not.toHaveClass(/selected/);
});

async function typeInto(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test('a suggestion shown for a clip goes away when that clip is deleted or another is picked: no ghost over other motion, no Accept into a missing clip', async ({ bridge }) => {
  test.setTimeout(240_000);
  const page = await bridge.open();
  await ready(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.getByTestId('clip-duplicate').click();
  await expect.poll(() => activeClip(page)).not.toBe('clip_swing');
  const copy = await activeClip(page);
  await page.getByTestId('outliner-prop-prop_ball').click();
  await page.getByTestId('tab-suggest').click();
  await typeInto(page, 'suggest-from', '26');
  await typeInto(page, 'suggest-to', '34');
  await page.getByTestId('suggest-run').click();
  await expect(page.getByTestId('suggestion')).toBeVisible({ timeout: 180_000 });
  await page.getByTestId('clip-delete').click();
  await expect.poll(() => activeClip(page)).toBe('clip_swing');
  // It stayed, ghost and all, over swing; Accept then threw (applySuggestion: clip not in the document) and said nothing.
  await expect(page.getByTestId('suggestion'), 'the suggestion for the deleted clip is gone').toBeHidden();
  await expect(page.getByTestId('status')).toHaveText('Deleted clip "swing copy"; "swing" is shown (Undo brings it back). Suggestion for clip "swing copy" discarded: another clip is active now');
  const doc = await hook(page, (h) => h.documentText());
  expect(doc.includes(copy), 'the deleted clip is not back').toBe(false);

  // In swing itself: picking the walk clip drops it too (Accept wrote into swing while walk was shown).
  await page.getByTestId('suggest-run').click();
  await expect(page.getByTestId('suggestion')).toBeVisible({ timeout: 180_000 });
  const swingBefore = (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing');
  await page.getByTestId('clip-select').selectOption('clip_walk');
  await expect(page.getByTestId('suggestion')).toBeHidden();
  await page.getByTestId('clip-select').selectOption('clip_swing');
  await expect(page.getByTestId('suggestion'), 'not back either').toBeHidden();
  expect((await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing'), 'swing has no suggested keys').toEqual(swingBefore);
  expect(errors).toEqual([]);
});

test('the Export dialog keeps the keyboard: Escape cancels it, Tab goes round its controls, and shortcuts do not act on the scene behind it', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_ball').click();
  const focusedInDialog = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="export-dialog"]'));
  await bridge.menu('export');
  await expect(page.getByTestId('export-dialog')).toBeVisible();
  await expect(page.getByTestId('export-run')).toBeFocused();
  // Tab went on to the menus and tools behind the backdrop.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await focusedInDialog(), `Tab ${i + 1} stays in the dialog`).toBe(true);
  }
  await page.keyboard.press('Shift+Tab');
  expect(await focusedInDialog()).toBe(true);
  await page.getByTestId('export-run').focus();
  // Space on a focused button is the button's; S and Ctrl+Z with the dialog open are nobody's (they keyed / undid behind it).
  const history = await hook(page, (h) => h.history());
  await page.keyboard.press('s');
  await page.keyboard.press('Control+z');
  await page.getByTestId('export-sparse').focus();
  await page.keyboard.press(' ');
  expect(await hook(page, (h) => h.playing()), 'Space did not play the clip behind the dialog').toBe(false);
  expect((await hook(page, (h) => h.history())).labels, 'no key set, nothing undone').toEqual(history.labels);
  // Escape closes it and leaves the selection (it cleared the selection and the dialog stayed).
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-dialog')).toBeHidden();
  expect(await hook(page, (h) => h.selection())).toEqual({ kind: 'prop', id: 'prop_ball' });
  expect(bridge.exists('bat-and-ball.glb')).toBe(false);
  // With it closed the shortcuts are back.
  await page.locator('body').press(' ');
  await expect.poll(() => hook(page, (h) => h.playing())).toBe(true);
  await page.locator('body').press(' ');
});

async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => ok())))));
}

test('an IK handle picked in the viewport shows the rows of the bones it poses in the dope sheet, as a picked bone does', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('dock-collapse').click();
  await page.getByTestId('outliner-character-char_mannequin').click();
  const chains = await hook(page, (h) => h.limbChains('char_mannequin'));
  const arm = chains.findIndex((c) => c.name === 'right arm');
  const c = chains[arm];
  await settle(page);
  const hand = (await hook(page, (h, j) => h.projectJoint('char_mannequin', j as number), c.end))!;
  await page.mouse.click(hand.x, hand.y);
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'ik', character: 'char_mannequin', chain: arm });
  // The sheet kept showing the top of the mannequin, the arm's rows far below and nothing highlighted.
  for (const j of [c.upper, c.lower, c.end]) {
    const row = page.getByTestId(`row-j:char_mannequin:${j}`);
    await expect(row, `bone ${j} of the right arm is highlighted`).toHaveClass(/selected/);
    await expect(row, `bone ${j} of the right arm is in sight`).toBeInViewport({ ratio: 1 });
  }
  await expect(page.getByTestId('row-c:char_mannequin')).not.toHaveClass(/selected/);
  // Picking a single bone still highlights only it.
  await page.getByTestId(`row-j:char_mannequin:${c.lower}`).locator('.row-name').click();
  await expect(page.locator('.sheet-row.selected')).toHaveCount(1);
});

test('a Check still running when its clip is deleted does not report findings "in" a clip that is gone', async ({ bridge }) => {
  test.setTimeout(240_000);
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('clip-duplicate').click();
  await expect.poll(() => activeClip(page)).not.toBe('clip_swing');
  await page.getByTestId('check-clip').click();
  await expect(page.getByTestId('job-progress')).toBeVisible();
  await page.getByTestId('clip-delete').click();
  await expect(page.getByTestId('job-progress')).toBeHidden({ timeout: 200_000 });
  // It said "18 interpenetration findings in swing copy" over the panel's "Not checked yet" of swing.
  await expect(page.getByTestId('status')).toHaveText('Check of swing copy finished, but that clip was deleted (Undo brings it back with its findings)');
  await page.locator('body').press('Control+z');
  await expect.poll(() => hook(page, (h) => h.document().clips.map((c) => c.name))).toEqual(['walk', 'swing', 'swing copy']);
  await expect(page.getByTestId('check-summary')).toContainText('61/61 frames checked');
});

test('stopping playback by clicking a key leaves the playhead on a whole frame, so S keys the pose that frame shows', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`row-${HIPS}`).locator('.row-name').click();
  await page.locator('body').press(' ');
  await expect.poll(() => hook(page, (h) => h.frame()), { message: 'playing' }).toBeGreaterThan(4);
  await page.getByTestId(`key-${HIPS}-3`).click();
  expect(await hook(page, (h) => h.playing())).toBe(false);
  const frame = await hook(page, (h) => h.frame());
  // It stayed on e.g. 17.43: the viewport and Properties showed that in-between pose, the Frame field 17.
  expect(Number.isInteger(frame), `stopped on ${frame}`).toBe(true);
  await expect(page.getByTestId('timeline-frame')).toHaveValue(String(frame));
  const shown = await hook(page, (h) => h.jointLocal('char_mannequin', 0));
  await page.locator('body').press('s');
  await expect(page.getByTestId('status')).toContainText(`Key set at frame ${frame}`);
  const after = (await hook(page, (h) => h.jointLocal('char_mannequin', 0)))!;
  after.forEach((v, i) => expect(v, `hips channel ${i} keeps the pose that was shown`).toBeCloseTo(shown![i], 9));
});

test('dragging keys past End (or before Start) stops them on the end of the clip range instead of moving them off the sheet', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const hipsFrames = async () =>
    (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!.tracks
      .filter((t) => t.target.kind === 'joint' && t.target.joint === 0)
      .map((t) => t.times.map((x) => Math.round(x * 30 * 1e3) / 1e3));
  const before = await hipsFrames();
  const undo = (await hook(page, (h) => h.history())).undo;
  const px = Number(await page.getByTestId('dopesheet').getAttribute('data-px-per-frame'));
  const key = (await page.getByTestId(`key-${HIPS}-60`).boundingBox())!;
  await page.mouse.move(key.x + key.width / 2, key.y + key.height / 2);
  await page.mouse.down();
  await page.mouse.move(key.x + key.width / 2 + 3.2 * px, key.y + key.height / 2, { steps: 5 });
  await page.mouse.up();
  // Key 60 went to 63, past the sheet's right end (Frame All shows 0-60), with an undo step for it.
  expect(await hipsFrames(), 'the Hips keys did not move').toEqual(before);
  expect((await hook(page, (h) => h.history())).undo, 'no undo step for a move that did not happen').toBe(undo);
  await expect(page.getByTestId('status')).toHaveText("Keys stay inside the clip's range (0–60); change Start or End to key outside it");
  await expect(page.getByTestId(`key-${HIPS}-60`)).toBeVisible();
  // Keys 54 and 57 dragged 5 frames right stop when 57 meets 60 (57 replaces the key on 60).
  await page.getByTestId(`key-${HIPS}-54`).click();
  await page.getByTestId(`key-${HIPS}-57`).click({ modifiers: ['Shift'] });
  const k54 = (await page.getByTestId(`key-${HIPS}-54`).boundingBox())!;
  await page.mouse.move(k54.x + k54.width / 2, k54.y + k54.height / 2);
  await page.mouse.down();
  await page.mouse.move(k54.x + k54.width / 2 + 5.2 * px, k54.y + k54.height / 2, { steps: 6 });
  await page.mouse.up();
  for (const frames of await hipsFrames()) {
    expect(Math.max(...frames), 'no Hips key past 60').toBe(60);
    expect(frames.filter((f) => f > 50), 'keys 51, 57 (from 54), 60 (from 57)').toEqual([51, 57, 60]);
  }
});

async function typeField(page: Page, testId: string, value: number): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(String(value));
  await page.keyboard.press('Enter');
}

test('a zoomed dope sheet follows a new frame rate and a shorter range: the same moments stay in sight, and the range does not leave it', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const sheet = page.getByTestId('dopesheet');
  const k45 = page.getByTestId(`key-${HIPS}-45`);
  const b = (await k45.boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.keyboard.down('Control');
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await expect.poll(async () => Number(await sheet.getAttribute('data-px-per-frame'))).toBeGreaterThan(40);
  const x45 = (await k45.boundingBox())!.x;
  await typeField(page, 'timeline-frame', 45);
  // 24 fps: the key of 1.5 s is frame 36 now, drawn where it was (the sheet showed frames 31-49 of the new numbering).
  await typeField(page, 'timeline-fps', 24);
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(36);
  const k36 = page.getByTestId(`key-${HIPS}-36`);
  await expect(k36).toBeVisible();
  expect(Math.abs((await k36.boundingBox())!.x - x45), 'the same moment under the same pixel').toBeLessThan(1.5);
  await expect(page.getByTestId('playhead')).toBeVisible();
  // End 20, below every frame in sight: the view comes back over the range (it showed frames 31-49 only).
  await typeField(page, 'timeline-end', 20);
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(20);
  await expect(page.getByTestId('playhead'), 'the playhead on 20 is in sight').toBeVisible();
  const origin = Number(await sheet.getAttribute('data-start'));
  expect(origin, `the view starts at ${origin}, before the end of the range`).toBeLessThan(20);
});

test('a zoomed dope sheet keeps the playhead in sight when playback, a typed frame or First Frame moves it out; a pan is left alone', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const sheet = page.getByTestId('dopesheet');
  const playhead = page.getByTestId('playhead');
  const b = (await page.getByTestId(`key-${HIPS}-9`).boundingBox())!;
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.keyboard.down('Control');
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await expect.poll(async () => Number(await sheet.getAttribute('data-px-per-frame'))).toBeGreaterThan(40);
  const px = Number(await sheet.getAttribute('data-px-per-frame'));
  // A frame typed past the frames in sight: the sheet goes there (it stayed on frames 0-22, the playhead hidden).
  await typeField(page, 'timeline-frame', 45);
  await expect(playhead).toBeVisible();
  await expect(page.getByTestId(`key-${HIPS}-45`)).toBeInViewport();
  expect(Number(await sheet.getAttribute('data-px-per-frame')), 'the zoom stays').toBeCloseTo(px, 9);
  // First Frame and playback keep it in sight too.
  await page.getByTestId('first-frame').click();
  await expect(playhead).toBeVisible();
  await page.locator('body').press(' ');
  await expect.poll(() => hook(page, (h) => h.frame())).toBeGreaterThan(30);
  await expect(playhead, 'playing past the frames in sight').toBeVisible();
  await page.locator('body').press(' ');
  // A pan that leaves the playhead out of sight is left alone.
  const origin = Number(await sheet.getAttribute('data-start'));
  await page.keyboard.down('Shift');
  await page.mouse.move(b.x, b.y);
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 400);
  await page.keyboard.up('Shift');
  await expect.poll(async () => Number(await sheet.getAttribute('data-start'))).not.toBeCloseTo(origin, 3);
  const panned = Number(await sheet.getAttribute('data-start'));
  await page.waitForTimeout(300);
  expect(Number(await sheet.getAttribute('data-start')), 'the pan stays where the animator put it').toBeCloseTo(panned, 9);
});

test('a Start typed past End (or an End before Start) says why the field shows another frame', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await typeField(page, 'timeline-end', 5);
  await typeField(page, 'timeline-start', 20);
  // It showed 4 without a word.
  await expect(page.getByTestId('timeline-start')).toHaveValue('4');
  await expect(page.getByTestId('status')).toHaveText('Start stays before End (5): Start is 4; raise End first to start later');
  await typeField(page, 'timeline-end', 2);
  await expect(page.getByTestId('timeline-end')).toHaveValue('5');
  await expect(page.getByTestId('status')).toHaveText('End stays after Start (4): End is 5; lower Start first to end earlier');
});

test('moving an object that has no keys, with Auto-key off, says the change is its rest pose and shows in every clip', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  // In a duplicate, to try a variation: the box moved in swing as well, and nothing said so.
  await page.getByTestId('clip-duplicate').click();
  // A keyed channel says nothing of the sort (the bat is animated in the copy).
  await page.getByTestId('outliner-prop-prop_bat').click();
  await typeField(page, 'prop-translation-y', 0.5);
  await expect(page.getByTestId('status')).toHaveText('Duplicated "swing" as "swing copy", now shown');
  await page.getByTestId('outliner-prop-prop_box').click();
  await typeField(page, 'prop-translation-y', 1.2);
  await expect(page.getByTestId('status')).toHaveText('Not keyed: Box translation changed the rest pose (every clip without keys for it shows it); Auto-key (N) or S keys it on this frame');
});
