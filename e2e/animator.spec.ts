/**
 * Found by using the app as an animator would (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers). Each test walks one
 * flow that was broken or confusing and checks what the animator sees.
 */
import type { Page } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, REPO_ROOT, SAMPLE_PATH, test } from './fixtures/bridge';
import { hook, ready } from './fixtures/page';

const BALL = 'prop_ball';

test.use({ viewport: { width: 1280, height: 720 } });

async function setFrame(page: Page, frame: number): Promise<void> {
  const field = page.getByTestId('timeline-frame');
  await field.fill(String(frame));
  await field.press('Enter');
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(frame);
}

/** Replaces the text of a field the way a person does: select all, then type digit by digit. */
async function typeInto(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
}

const ballTimes = async (page: Page) =>
  (await hook(page, (h) => h.document())).clips
    .find((c) => c.id === 'clip_swing')!
    .tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_ball')
    .map((t) => ({ path: t.path, frames: t.times.map((x) => x * 30) }));

test('suggest the ball over a typed range, accept, pose it on an impact frame, save and reopen', async ({ bridge }) => {
  test.setTimeout(240_000);
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('tab-suggest').click();
  // Typed digit by digit: the To field used to show the clamped value after "3" (27) and read "274" after "4" (then 60).
  await typeInto(page, 'suggest-from', '26');
  await typeInto(page, 'suggest-to', '34');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('suggest-from')).toHaveValue('26');
  await expect(page.getByTestId('suggest-to')).toHaveValue('34');
  await page.getByTestId('suggest-target-prop_box').uncheck();
  await page.getByTestId('suggest-run').click();
  await expect(page.getByTestId('suggestion')).toBeVisible({ timeout: 180_000 });
  await expect(page.getByTestId('suggestion')).toContainText('frames 26–34');
  // At 1280x720 the impacts list is long: Accept stays in sight without scrolling the dock.
  await expect(page.getByTestId('suggest-accept'), 'Accept is visible at 1280x720').toBeInViewport();
  await page.getByTestId('suggest-accept').click();
  const accepted = await ballTimes(page);
  const between = accepted.flatMap((t) => t.frames).filter((f) => Math.abs(f - Math.round(f)) > 1e-4);
  expect(between.length, `the suggestion keys impacts between frames: ${JSON.stringify(accepted)}`).toBeGreaterThan(0);

  // Pose the ball on frame 30, which also shows the impact key at 29.54: the pose is keyed on 30, the impact key stays.
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await setFrame(page, 30);
  await page.getByTestId('prop-translation-z').fill('0.5');
  await page.getByTestId('prop-translation-z').press('Enter');
  await expect(page.getByTestId('statusbar'), 'no animation error').not.toContainText('Animation error');
  const posed = await ballTimes(page);
  for (const t of posed) {
    const was = accepted.find((a) => a.path === t.path)!;
    for (const f of was.frames) if (Math.abs(f - 30) > 1e-4) expect(t.frames.some((g) => Math.abs(g - f) < 1e-9), `${t.path}: the key at frame ${f} is still there`).toBe(true);
    expect(t.frames.every((f, i) => i === 0 || f > t.frames[i - 1]), `${t.path} key times strictly increase: ${t.frames}`).toBe(true);
  }
  expect((await hook(page, (h, id) => h.propTransform(id as string), BALL))![2]).toBeCloseTo(0.5, 9);

  // Move the keys shown on frame 32 one frame later in the dope sheet: keys between frames keep their offsets.
  const diamond = page.getByTestId(`key-p:${BALL}-32`);
  await diamond.scrollIntoViewIfNeeded();
  const box = (await diamond.boundingBox())!;
  const px = Number(await page.getByTestId('dopesheet').getAttribute('data-px-per-frame'));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + px, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const moved = await ballTimes(page);
  for (const t of moved) {
    const was = posed.find((a) => a.path === t.path)!;
    // Every key that did not move keeps its exact time, every moved key is one frame later, and only a key exactly on 33 may be replaced.
    for (const f of was.frames) {
      if (Math.round(f) === 32) expect(t.frames.some((g) => Math.abs(g - (f + 1)) < 1e-4), `${t.path}: ${f} moved to ${f + 1}`).toBe(true);
      else if (Math.abs(f - 33) > 1e-4) expect(t.frames.some((g) => Math.abs(g - f) < 1e-9), `${t.path}: ${f} stayed`).toBe(true);
    }
    const on = (frames: number[], f: number) => frames.some((g) => Math.abs(g - f) < 1e-4);
    const replaced = on(was.frames, 32) && on(was.frames, 33) ? 1 : 0;
    expect(t.frames.length, `${t.path}: no key lost but the one on 33 the moved key replaced (${was.frames} -> ${t.frames})`).toBe(was.frames.length - replaced);
  }

  // Save and reopen: the file opens (it used to hold two keys on one time and failed to save at all).
  bridge.nextSavePath = 'posed-ball';
  await page.locator('body').press('Control+s');
  await expect.poll(() => bridge.exists('posed-ball.impulse')).toBe(true);
  const page2 = await bridge.relaunch({ initial: { kind: 'empty' } });
  await expect(page2.getByTestId('app')).toBeVisible();
  bridge.nextOpenPath = 'posed-ball.impulse';
  await bridge.menu('open');
  await ready(page2);
  expect(await ballTimes(page2)).toEqual(moved);
});

test('undo says what it undid, and undoing an import leaves no selection of the removed character', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  bridge.nextImportPath = join(REPO_ROOT, 'assets', 'characters', 'mannequin.glb');
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menuitem-import').click();
  await expect.poll(async () => (await hook(page, (h) => h.document())).characters.length).toBe(2);
  const added = (await hook(page, (h) => h.document())).characters[1].id;
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'character', id: added });
  await page.locator('body').press('Control+z');
  await expect(page.getByTestId('status')).toHaveText('Undid: Import mannequin.glb');
  expect(await hook(page, (h) => h.selection()), 'the removed character is not selected').toBeNull();
  await expect(page.getByTestId('properties')).toContainText('Select a character, bone or prop');
  await page.locator('body').press('Control+Shift+z');
  await expect(page.getByTestId('status')).toHaveText('Redid: Import mannequin.glb');
  await expect(page.getByTestId(`outliner-character-${added}`)).toBeVisible();
  await page.locator('body').press('Control+Shift+z');
  await expect(page.getByTestId('status')).toHaveText('Nothing to redo');
});

test('a malformed project names the file, the place (clip, bone, key) and the problem; the open work stays', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await page.getByTestId('prop-mass').fill('0.3');
  await page.getByTestId('prop-mass').press('Enter');
  // A key value that was NaN when written (JSON has no NaN: null).
  const raw = JSON.parse(readFileSync(SAMPLE_PATH, 'utf8'));
  const clip = raw.clips.findIndex((c: { id: string }) => c.id === 'clip_swing');
  const ti = raw.clips[clip].tracks.findIndex((t: { target: { kind: string } ; path: string }) => t.target.kind === 'joint' && t.path === 'rotation');
  const track = raw.clips[clip].tracks[ti];
  const jointName = raw.characters[0].skeleton.joints[track.target.joint].name;
  const stride = 4 * (track.interpolation === 'cubic' ? 3 : 1);
  track.values[stride + 2] = null;
  writeFileSync(bridge.path('nan-key.impulse'), JSON.stringify(raw));
  bridge.nextUnsavedChoice = 'discard';
  bridge.nextOpenPath = 'nan-key.impulse';
  await bridge.menu('open');
  const status = page.getByTestId('status');
  await expect(status).toContainText('Could not open nan-key.impulse:');
  await expect(status).toContainText(`clips[${clip}].tracks[${ti}].values[${stride + 2}]: expected a number, got null`);
  await expect(status).toContainText(`(clip "swing", Mannequin · ${jointName} rotation, key 2 at frame `);
  await expect(status, 'the whole message is on screen, not cut off').toBeInViewport({ ratio: 1 });
  // Nothing is lost: the open document, its edit and its unsaved mark stay.
  expect((await hook(page, (h) => h.document())).props.find((p) => p.id === BALL)!.physics.massKg).toBe(0.3);
  expect((await hook(page, (h) => h.history())).dirty).toBe(true);
});

/** Client rectangle of the viewport the unfolded dock leaves uncovered. */
async function uncovered(page: Page): Promise<{ left: number; right: number; top: number; bottom: number }> {
  const vp = (await page.getByTestId('viewport').boundingBox())!;
  const dock = (await page.getByTestId('cs-dock').boundingBox())!;
  return { left: vp.x, right: dock.x, top: vp.y, bottom: vp.y + vp.height };
}
const inside = (p: { x: number; y: number } | null, r: { left: number; right: number; top: number; bottom: number }) => !!p && p.x > r.left && p.x < r.right && p.y > r.top && p.y < r.bottom;

test('the Check / Suggest dock: the scene is framed beside it, it folds to its tabs and back, and a finding jump shows the named part', async ({ bridge }) => {
  test.setTimeout(300_000);
  const page = await bridge.open();
  await ready(page);
  await expect.poll(() => page.evaluate(() => !!window.__impulseCheckTest)).toBe(true);
  // At 1280x720 the dock covers the right 45% of the viewport: the sample (box and bat on the table's right) was under it.
  const area = await uncovered(page);
  for (const id of ['prop_box', 'prop_bat', 'prop_table', BALL]) {
    await expect.poll(async () => inside(await hook(page, (h, a) => h.projectProp(a as string), id), area), `${id} is not under the dock`).toBe(true);
  }
  // Folding keeps the tab strip (it used to vanish until Check clip or Suggest ran); a tab unfolds it.
  await page.getByTestId('dock-collapse').click();
  await expect(page.getByTestId('tab-check')).toBeVisible();
  await expect(page.getByTestId('findings-panel')).toBeHidden();
  await page.getByTestId('tab-suggest').click();
  await expect(page.getByTestId('suggest-panel')).toBeVisible();
  await page.getByTestId('tab-check').click();

  // Close up on the ball, then jump to the finding of the mannequin's thigh against the bat: the thigh comes into view.
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await page.locator('body').press('f');
  await page.getByTestId('check-clip').click();
  await expect(page.getByTestId('check-summary')).toContainText('61/61 frames checked', { timeout: 240_000 });
  const finding = page.locator('[data-testid="finding"][data-objects="char_mannequin|prop_bat"]').first();
  await finding.getByTestId('finding-jump').click();
  const sel = (await hook(page, (h) => h.selection())) as { kind: string; character: string; joint: number };
  expect(sel.kind, 'the jump selects the body part').toBe('joint');
  const joint = await hook(page, (h, a) => h.projectJoint('char_mannequin', a as number), sel.joint);
  expect(inside(joint, await uncovered(page)), `the part (joint ${sel.joint}) is in the uncovered viewport: ${JSON.stringify(joint)}`).toBe(true);
});

test('Escape closes an open menu and leaves the selection alone', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menuitem-undo')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('menuitem-undo'), 'the menu closed').toBeHidden();
  expect(await hook(page, (h) => h.selection()), 'the selection stayed (Escape used to clear it, with the menu still open)').toEqual({ kind: 'prop', id: BALL });
  await page.keyboard.press('Escape');
  await expect.poll(() => hook(page, (h) => h.selection()), 'with no menu open Escape deselects, as before').toBeNull();
});

test('shortcuts work while a drop-down has focus, and do not pick its options', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const batInterpolation = async () =>
    (await hook(page, (h) => h.document())).clips
      .find((c) => c.id === 'clip_swing')!
      .tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat')
      .map((t) => t.interpolation);
  await page.getByTestId('outliner-prop-prop_bat').click();
  await page.getByTestId('interpolation').selectOption('linear');
  const picked = await batInterpolation();
  // After a pick the drop-down keeps the focus (a mouse pick does): S must set a key, not type-ahead to "step".
  await page.getByTestId('interpolation').focus();
  await page.keyboard.press('s');
  await expect.poll(async () => (await hook(page, (h) => h.history())).labels.at(-1)).toBe('Set key at 0');
  expect((await batInterpolation()).slice(0, picked.length), 'the interpolation stayed as picked, not step').toEqual(picked);
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('status')).toHaveText('Undid: Set key at 0');
  // K on the ball's control drop-down: a key, not "keyframed".
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await page.getByTestId('prop-mode').focus();
  await page.keyboard.press('k');
  await expect.poll(async () => (await hook(page, (h) => h.history())).labels.at(-1)).toBe('Set key at 0');
  await expect(page.getByTestId('prop-mode')).toHaveValue('dynamic');
  await page.keyboard.press(' ');
  await expect.poll(() => hook(page, (h) => h.playing()), 'Space plays').toBe(true);
  await page.keyboard.press(' ');
});

test('Escape in the Suggest range puts the frame back and keeps what is picked to simulate', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-character-char_mannequin').click();
  await page.getByTestId('tab-suggest').click();
  await expect(page.getByTestId('suggest-target-char_mannequin')).toBeChecked();
  await typeInto(page, 'suggest-from', '12');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('suggest-from')).toHaveValue('0');
  expect(await hook(page, (h) => h.selection()), 'still selected').toEqual({ kind: 'character', id: 'char_mannequin' });
  await expect(page.getByTestId('suggest-target-char_mannequin'), 'the mannequin is still what Suggest simulates').toBeChecked();
});

test('selecting an object shows its row in the dope sheet', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  // The ball's row sits below the mannequin's animated bones: selecting the ball scrolls the sheet to it.
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await expect(page.getByTestId(`row-p:${BALL}`)).toBeInViewport({ ratio: 1 });
  await page.getByTestId('outliner-character-char_mannequin').click();
  await expect(page.getByTestId('row-c:char_mannequin')).toBeInViewport({ ratio: 1 });
  // A bone picked in the outliner: its row too.
  await page.getByTestId('outliner-expand-char_mannequin').click();
  await page.getByTestId('outliner-joint-char_mannequin-58').click();
  await expect(page.getByTestId('row-j:char_mannequin:58')).toBeInViewport({ ratio: 1 });
});

test('the outliner shows the selected row when the pick comes from the viewport', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('dock-collapse').click();
  // Unfold the mannequin's 67 bones: the props' rows go below the panel's bottom.
  await page.getByTestId('outliner-expand-char_mannequin').click();
  await expect(page.getByTestId(`outliner-prop-${BALL}`)).not.toBeInViewport();
  await page.evaluate(() => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok()))));
  const ball = (await hook(page, (h, id) => h.projectProp(id as string), BALL))!;
  await page.mouse.click(ball.x, ball.y);
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'prop', id: BALL });
  await expect(page.getByTestId(`outliner-prop-${BALL}`), 'the ball picked in the viewport is shown in the outliner').toBeInViewport({ ratio: 1 });
  // And back up to a bone near the top.
  await page.getByTestId(`row-j:char_mannequin:0`).locator('.row-name').click();
  await expect(page.getByTestId('outliner-joint-char_mannequin-0')).toBeInViewport({ ratio: 1 });
});

test('Escape in the bone filter clears it and keeps the selected bone', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-expand-char_mannequin').click();
  await page.getByTestId('outliner-joint-char_mannequin-11').click();
  await page.getByTestId('outliner-filter-char_mannequin').fill('hand');
  await expect(page.getByTestId('outliner-joint-char_mannequin-0')).toBeHidden();
  await page.getByTestId('outliner-filter-char_mannequin').press('Escape');
  await expect(page.getByTestId('outliner-filter-char_mannequin')).toHaveValue('');
  await expect(page.getByTestId('outliner-joint-char_mannequin-0')).toBeVisible();
  expect(await hook(page, (h) => h.selection()), 'the bone stays selected').toEqual({ kind: 'joint', character: 'char_mannequin', joint: 11 });
});

test('Ctrl+C over selected text copies the text; otherwise (even after a double-click in the outliner) it copies the pose', async ({ bridge }) => {
  const page = await bridge.open();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: bridge.url });
  await ready(page);
  await page.getByTestId(`outliner-prop-${BALL}`).dblclick();
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('status'), 'a double-click on a row selects no text: the pose is copied').toHaveText('Copied prop transform');
  // Select the words of the properties title and copy them: the clipboard gets the text.
  await page.evaluate(() => navigator.clipboard.writeText('(empty)'));
  await page.getByTestId('properties-title').click({ clickCount: 3 });
  expect(await page.evaluate(() => window.getSelection()!.toString().trim())).toBe('Ball');
  await page.keyboard.press('Control+c');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()).then((t) => t.trim()), 'the selected text was copied').toBe('Ball');
});
