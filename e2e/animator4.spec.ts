/**
 * Fourth walk through the app as an animator (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers), over what came
 * after the third walk (animator3.spec.ts): cut and select all keys, stepping
 * through findings, the resizable timeline and the play range, together with
 * the rest of the app. Each test fails without its fix.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, SAMPLE_PATH, test } from './fixtures/bridge';
import { hook, ready } from './fixtures/page';

test.use({ viewport: { width: 1280, height: 720 } });

const BAT = 'p:prop_bat';

const centerX = async (l: Locator) => {
  const b = (await l.boundingBox())!;
  return b.x + b.width / 2;
};

/** The sheet's mapping as the page states it: client x of a frame. */
async function xOfFrame(page: Page, frame: number): Promise<number> {
  const sheet = page.getByTestId('dopesheet');
  const left = (await sheet.boundingBox())!.x + Number(await sheet.getAttribute('data-name-width'));
  const px = Number(await sheet.getAttribute('data-px-per-frame'));
  const origin = Number(await sheet.getAttribute('data-start'));
  return left + (frame - origin) * px;
}

test('a key between frames (an accepted impact at 9.6) is drawn at 9.6, not on frame 10, and still picked as the key on 10', async ({ bridge }) => {
  const raw = JSON.parse(readFileSync(SAMPLE_PATH, 'utf8'));
  const swing = raw.clips.find((c: { id: string }) => c.id === 'clip_swing');
  for (const t of swing.tracks) if (t.target.kind === 'prop' && t.target.prop === 'prop_bat') t.times[3] = 9.6 / 30;
  writeFileSync(bridge.path('between.impulse'), JSON.stringify(raw));
  const page = await bridge.open();
  await ready(page);
  bridge.nextOpenPath = 'between.impulse';
  await bridge.menu('open');
  await expect.poll(() => hook(page, (h) => h.project().name)).toBe('between');
  await page.getByTestId('outliner-prop-prop_bat').click();
  const k10 = page.getByTestId(`key-${BAT}-10`), k12 = page.getByTestId(`key-${BAT}-12`);
  await k10.scrollIntoViewIfNeeded();
  // Zoom in around frame 10 until a frame is wider than 20 px.
  await page.mouse.move(await centerX(k10), (await k10.boundingBox())!.y + 4);
  await page.keyboard.down('Control');
  for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -120);
  await page.keyboard.up('Control');
  await expect.poll(async () => Number(await page.getByTestId('dopesheet').getAttribute('data-px-per-frame'))).toBeGreaterThan(20);
  expect(Math.abs((await centerX(k12)) - (await xOfFrame(page, 12))), 'a whole-frame key sits on its frame').toBeLessThan(1.5);
  const at = await centerX(k10);
  expect(Math.abs(at - (await xOfFrame(page, 9.6))), `the key at 9.6 is drawn at 9.6 (x ${at}, frame 10 is at ${await xOfFrame(page, 10)})`).toBeLessThan(1.5);
  await expect(k10).toHaveAttribute('title', /9\.6/);
  // It is still the key on frame 10 for picking and deleting.
  await k10.click();
  expect(await hook(page, (h) => h.selectedKeys())).toEqual([{ target: { kind: 'prop', prop: 'prop_bat' }, frame: 10 }]);
  await page.keyboard.press('x');
  await expect(k10).toHaveCount(0);
});

test('Suggest does not take the keyframed bat from the selection (a finding jump selects it): it keeps simulating the dynamic props unless the bat is ticked', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('tab-suggest').click();
  await page.getByTestId('outliner-prop-prop_bat').click();
  await expect(page.getByTestId('suggest-target-prop_bat'), 'the selected keyframed bat is not picked').not.toBeChecked();
  await expect(page.getByTestId('suggest-target-prop_ball')).toBeChecked();
  await expect(page.getByTestId('suggest-target-prop_box')).toBeChecked();
  // The selected dynamic ball alone is still what the panel follows.
  await page.getByTestId('outliner-prop-prop_ball').click();
  await expect(page.getByTestId('suggest-target-prop_ball')).toBeChecked();
  await expect(page.getByTestId('suggest-target-prop_box')).not.toBeChecked();
  // Ticking the bat simulates it, on purpose.
  await page.getByTestId('outliner-prop-prop_bat').click();
  await page.getByTestId('suggest-target-prop_bat').check();
  await expect(page.getByTestId('suggest-target-prop_bat')).toBeChecked();
});

test('scrolled down the dope sheet (or with the timeline made taller), the playhead and the check bands still reach the bottom row', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  // Give the sheet 150 px more, then check the clip and step to a finding of the right hand: the sheet scrolls to its row.
  const bar = (await page.getByTestId('timeline-resizer').boundingBox())!;
  await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2);
  await page.mouse.down();
  await page.mouse.move(bar.x + bar.width / 2, bar.y - 150, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.press('Control+Shift+C');
  await expect(page.getByTestId('status')).toContainText('interpenetration findings in swing', { timeout: 90_000 });
  await page.keyboard.press(']');
  await expect(page.getByTestId('status')).toContainText('Finding 1 of');
  const sheet = page.getByTestId('dopesheet');
  await expect.poll(() => sheet.evaluate((el) => el.scrollTop), { message: 'the sheet scrolled down to the finding\'s row' }).toBeGreaterThan(100);
  const view = (await sheet.boundingBox())!;
  const bottom = view.y + (await sheet.evaluate((el) => el.clientHeight));
  const playhead = (await page.getByTestId('playhead').boundingBox())!;
  expect(playhead.y + playhead.height, `the playhead reaches the sheet's bottom (${bottom}); it stopped one screenful down the rows`).toBeGreaterThanOrEqual(bottom - 1);
  const bands = page.getByTestId('check-band');
  expect(await bands.count()).toBeGreaterThan(0);
  const band = (await bands.first().boundingBox())!;
  expect(band.y + band.height, 'a red band reaches the bottom row too').toBeGreaterThanOrEqual(bottom - 1);
  // Scrolled back up, the band still starts below the ruler.
  await sheet.evaluate((el) => (el.scrollTop = 0));
  const ruler = (await page.getByTestId('ruler').boundingBox())!;
  expect(Math.round((await bands.first().boundingBox())!.y)).toBeGreaterThanOrEqual(Math.round(ruler.y + ruler.height) - 1);
});

test('Ctrl+A outside the dope sheet does not select every label of the app, so the Ctrl+C after it still copies the pose; in a field it selects the text', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_bat').click();
  await page.keyboard.press('Control+a');
  const selectedText = () => page.evaluate(() => window.getSelection()?.toString() ?? '');
  expect(await selectedText(), 'no page text selected').toBe('');
  await expect(page.getByTestId('status')).toHaveText('Ctrl+A selects every key of the clip with the dope sheet focused: click the dope sheet first');
  // Ctrl+C copies the pose (the page's selected text took it before, silently).
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('status')).toHaveText('Copied prop transform');
  // A text field keeps Ctrl+A: typing replaces its whole value.
  await page.getByTestId('prop-mass').click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('0.5');
  await expect(page.getByTestId('prop-mass')).toHaveValue('0.5');
  // The dope sheet's Ctrl+A selects keys, as before.
  await page.getByTestId('dopesheet').focus();
  await page.keyboard.press('Control+a');
  await expect(page.getByTestId('status')).toContainText('Selected ');
});

test('dragging keys in the dope sheet says what moved, and how far; undo puts them and their selection back', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const HIPS = 'j:char_mannequin:0';
  const k27 = page.getByTestId(`key-${HIPS}-27`);
  await page.getByTestId(`key-${HIPS}-24`).click();
  await k27.click({ modifiers: ['Shift'] });
  await page.keyboard.press('p');
  await expect(page.getByTestId('status')).toContainText('Play range 24–27');
  await page.keyboard.press('Escape');
  await k27.click();
  expect(await hook(page, (h) => h.selectedKeys())).toHaveLength(1);
  const box = (await k27.boundingBox())!;
  const px = Number(await page.getByTestId('dopesheet').getAttribute('data-px-per-frame'));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 2 * px, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  // Hips has a rotation and a translation key on 27; the status kept the play range message.
  await expect(page.getByTestId('status')).toHaveText('Moved 2 keys 2 frames later (Ctrl+Z puts them back)');
  await expect(page.getByTestId(`key-${HIPS}-29`)).toHaveClass(/selected/);
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('status')).toHaveText('Undid: Move keys');
  await expect(k27).toHaveClass(/selected/);
  // Dragged past End, the keys stop at it, and the message says both.
  const k57 = page.getByTestId(`key-${HIPS}-57`);
  await k57.click();
  const b57 = (await k57.boundingBox())!;
  await page.mouse.move(b57.x + b57.width / 2, b57.y + b57.height / 2);
  await page.mouse.down();
  await page.mouse.move(b57.x + b57.width / 2 + 6.2 * px, b57.y + b57.height / 2, { steps: 6 });
  await page.mouse.up();
  await expect(page.getByTestId('status')).toHaveText("Moved 2 keys 3 frames later: keys stay inside the clip's range (0–60)");
});
