/**
 * Second walk through the app as an animator (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers), in the flows the
 * first walk (animator.spec.ts) did not cover: the timeline and dope sheet,
 * the Properties panel's number fields, clips, the check after edits. Each
 * test fails without its fix.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/bridge';
import { hook, ready } from './fixtures/page';

const BALL = 'prop_ball';

test.use({ viewport: { width: 1280, height: 720 } });

test('Escape in a number field puts the value back instead of applying what was typed', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  const before = (await hook(page, (h, id) => h.propTransform(id as string), BALL))![2];
  const undoBefore = (await hook(page, (h) => h.history())).undo;
  const field = page.getByTestId('prop-translation-z');
  await field.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('2.5');
  await page.keyboard.press('Escape');
  await expect(field, 'the field shows the old value again').toHaveValue(String(Number(before.toFixed(3))));
  expect((await hook(page, (h, id) => h.propTransform(id as string), BALL))![2], 'the ball did not move').toBeCloseTo(before, 9);
  expect((await hook(page, (h) => h.history())).undo, 'no undo step was added').toBe(undoBefore);
  // The timeline's frame field too: Escape keeps the playhead where it was.
  const frame = page.getByTestId('timeline-frame');
  await frame.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('45');
  await page.keyboard.press('Escape');
  expect(await hook(page, (h) => h.frame()), 'the playhead stayed on frame 0').toBe(0);
  // And Enter still commits.
  await field.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('0.5');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await hook(page, (h, id) => h.propTransform(id as string), BALL))![2]).toBeCloseTo(0.5, 9);
});

test('dragging the ruler past either end keeps the playhead inside the clip range', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const clip = (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!;
  const ruler = (await page.getByTestId('ruler').boundingBox())!;
  await page.mouse.move(ruler.x + ruler.width / 2, ruler.y + ruler.height / 2);
  await page.mouse.down();
  await page.mouse.move(ruler.x + 5, ruler.y + ruler.height / 2, { steps: 6 });
  expect(await hook(page, (h) => h.frame()), 'dragged over the names column: the first frame').toBe(clip.startFrame);
  await page.mouse.move(ruler.x + ruler.width + 60, ruler.y + ruler.height / 2, { steps: 6 });
  expect(await hook(page, (h) => h.frame()), 'dragged past the right end: the last frame').toBe(clip.endFrame);
  await page.mouse.up();
  await expect(page.getByTestId('timeline-frame')).toHaveValue(String(clip.endFrame));
});

async function typeField(page: Page, testId: string, value: number): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.press('Control+a');
  await page.keyboard.type(String(value));
  await page.keyboard.press('Enter');
}

test('Play from the last frame without loop, or from before Start, plays the clip range from Start', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  if ((await hook(page, (h) => h.preferences())).loop) await page.getByTestId('loop').click();
  expect((await hook(page, (h) => h.preferences())).loop).toBe(false);
  // At the last frame: Play did nothing (it set Start, then put the old frame back, and playback stopped at End).
  await page.getByTestId('last-frame').click();
  expect(await hook(page, (h) => h.frame())).toBe(60);
  await page.getByTestId('play').click();
  await expect.poll(() => hook(page, (h) => h.frame()), { message: 'playback restarted from Start' }).toBeLessThan(30);
  await page.getByTestId('play').click();
  // Start raised past the playhead: playback went through frames 0-19, outside the range.
  await typeField(page, 'timeline-frame', 0);
  await typeField(page, 'timeline-start', 20);
  await page.getByTestId('play').click();
  await expect.poll(() => hook(page, (h) => h.playing())).toBe(true);
  const seen: number[] = [];
  for (let i = 0; i < 5; i++) {
    seen.push(await hook(page, (h) => h.frame()));
    await page.waitForTimeout(40);
  }
  await page.getByTestId('play').click();
  expect(Math.min(...seen), `frames during playback ${seen.join(', ')} stay inside 20-60`).toBeGreaterThanOrEqual(20);
});

test('Rotation fields keep the angles typed, so editing a second axis builds on the first', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  await typeField(page, 'prop-rotation-y', 100);
  // It read back as -180, 80, -180 (the same rotation, not what was typed).
  await expect(page.getByTestId('prop-rotation-y')).toHaveValue('100');
  await expect(page.getByTestId('prop-rotation-x')).toHaveValue('0');
  await typeField(page, 'prop-rotation-x', 10);
  await expect(page.getByTestId('prop-rotation-x')).toHaveValue('10');
  await expect(page.getByTestId('prop-rotation-y')).toHaveValue('100');
  const q = (await hook(page, (h, id) => h.propTransform(id as string), BALL))!.slice(3, 7);
  // Rotation XYZ (10°, 100°, 0°) = qx(10°)·qy(100°).
  const [hx, hy] = [(10 * Math.PI) / 360, (100 * Math.PI) / 360];
  const want = [Math.sin(hx) * Math.cos(hy), Math.cos(hx) * Math.sin(hy), Math.sin(hx) * Math.sin(hy), Math.cos(hx) * Math.cos(hy)];
  const dot = Math.abs(q.reduce((s, x, i) => s + x * want[i], 0));
  expect(dot, `ball rotation ${q} is XYZ (10, 100, 0) = ${want}`).toBeGreaterThan(1 - 1e-9);
});

test('dope sheet: Ctrl-click adds a key, a drag over the rows box-selects keys, Escape puts the selection back, a click clears it', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const hips = 'j:char_mannequin:0', spine = 'j:char_mannequin:1', spine1 = 'j:char_mannequin:2';
  await page.getByTestId(`key-${hips}-3`).click();
  await page.getByTestId(`key-${spine}-6`).click({ modifiers: ['Control'] });
  const sel = async () => (await hook(page, (h) => h.selectedKeys())).map((k) => `${k.target.kind === 'joint' ? k.target.joint : k.target.prop}@${k.frame}`).sort();
  // Ctrl replaced the selection with the clicked key.
  expect(await sel(), 'Ctrl-click adds').toEqual(['0@3', '1@6']);
  await page.getByTestId(`key-${spine}-6`).click({ modifiers: ['Control'] });
  expect(await sel(), 'Ctrl-click on a selected key removes it').toEqual(['0@3']);

  // Box from between frames 4 and 5 on the Spine row to between 10 and 11 on the Spine1 row: keys 6 and 9 of both.
  const sheet = page.getByTestId('dopesheet');
  const px = Number(await sheet.getAttribute('data-px-per-frame'));
  const left = (await sheet.boundingBox())!.x + Number(await sheet.getAttribute('data-name-width'));
  const rowA = (await page.getByTestId(`row-${spine}`).boundingBox())!;
  const rowB = (await page.getByTestId(`row-${spine1}`).boundingBox())!;
  const frameBefore = await hook(page, (h) => h.frame());
  await page.mouse.move(left + 4.5 * px, rowA.y + 3);
  await page.mouse.down();
  await page.mouse.move(left + 7 * px, rowA.y + 12, { steps: 3 });
  await page.mouse.move(left + 10.5 * px, rowB.y + rowB.height - 3, { steps: 3 });
  await expect(page.getByTestId('sheet-marquee')).toBeVisible();
  expect(await sel(), 'the box replaced the selection with the keys inside it').toEqual(['1@6', '1@9', '2@6', '2@9']);
  await page.keyboard.press('Escape');
  expect(await sel(), 'Escape during the box puts the selection back').toEqual(['0@3']);
  await page.mouse.up();
  await expect(page.getByTestId('sheet-marquee')).toHaveCount(0);
  expect(await hook(page, (h) => h.frame()), 'a box does not move the playhead').toBe(frameBefore);

  // Shift-box adds to the selection; then the selected keys move together.
  await page.mouse.move(left + 4.5 * px, rowA.y + 3);
  await page.keyboard.down('Shift');
  await page.mouse.down();
  await page.mouse.move(left + 10.5 * px, rowB.y + rowB.height - 3, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  expect(await sel()).toEqual(['0@3', '1@6', '1@9', '2@6', '2@9']);
  await page.keyboard.press('Delete');
  const tracks = (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!.tracks;
  const frames = (joint: number) => [...new Set(tracks.filter((t) => t.target.kind === 'joint' && t.target.joint === joint).flatMap((t) => t.times.map((x) => Math.round(x * 30))))];
  expect(frames(1).filter((f) => f === 6 || f === 9), 'Spine keys 6 and 9 deleted').toEqual([]);
  expect(frames(2).filter((f) => f === 6 || f === 9), 'Spine1 keys 6 and 9 deleted').toEqual([]);
  expect(frames(0).includes(3), 'Hips key 3 deleted').toBe(false);
  expect(frames(0).includes(6), 'Hips key 6 was not in the box').toBe(true);

  // A click on the rows (no drag) puts the playhead there.
  await page.mouse.click(left + 20 * px, rowA.y + 10);
  expect(await hook(page, (h) => h.frame())).toBe(20);
});

test('Properties name the units of lengths (m), as they do for angles, mass and density', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`outliner-prop-${BALL}`).click();
  const labels = () => page.locator('.prop-row > label').allInnerTexts();
  expect(await labels(), 'prop rows').toEqual(expect.arrayContaining(['Location m', 'Rotation °', 'Mass kg']));
  await page.getByTestId('outliner-character-char_mannequin').click();
  expect(await labels(), 'character rows').toContain('Placement m');
});

test('a frame typed outside the clip range goes to the nearest end of the range', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await typeField(page, 'timeline-frame', 100);
  expect(await hook(page, (h) => h.frame()), 'frame 100 of 0-60').toBe(60);
  await expect(page.getByTestId('timeline-frame')).toHaveValue('60');
  await typeField(page, 'timeline-frame', -5);
  expect(await hook(page, (h) => h.frame()), 'frame -5 of 0-60').toBe(0);
  await typeField(page, 'timeline-frame', 42);
  expect(await hook(page, (h) => h.frame())).toBe(42);
});

test('changing the frame rate keeps the playhead on the same time, inside the rescaled range', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('last-frame').click();
  expect(await hook(page, (h) => h.frame())).toBe(60);
  await typeField(page, 'timeline-fps', 24);
  await expect.poll(() => hook(page, (h) => h.document().clips.find((c) => c.id === 'clip_swing')!.frameRate)).toBe(24);
  expect(await hook(page, (h) => h.frame()), '2 s: frame 60 at 30 fps is frame 48 at 24 fps, the new end').toBe(48);
  await typeField(page, 'timeline-frame', 24);
  await typeField(page, 'timeline-fps', 60);
  expect(await hook(page, (h) => h.frame()), '1 s: frame 24 at 24 fps is frame 60 at 60 fps').toBe(60);
  await expect(page.getByTestId('timeline-frame')).toHaveValue('60');
});

test('keyboard only: Tab reaches the outliner, Enter selects, Up and Down move between rows, then S keys the selection', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);
  let tabs = 0;
  while ((await focused()) !== `outliner-prop-${BALL}` && tabs < 40) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  expect(await focused(), 'Tab reaches the Ball row of the outliner').toBe(`outliner-prop-${BALL}`);
  await page.keyboard.press('Enter');
  expect(await hook(page, (h) => h.selection())).toEqual({ kind: 'prop', id: BALL });
  // Up goes to the Box row above (and does not jump the playhead to a key, as Up does elsewhere).
  await page.keyboard.press('ArrowUp');
  expect(await focused()).toBe('outliner-prop-prop_box');
  expect(await hook(page, (h) => h.frame())).toBe(0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  expect(await focused()).toBe('outliner-prop-prop_bat');
  await page.keyboard.press(' ');
  expect(await hook(page, (h) => h.selection()), 'Space on a row selects it').toEqual({ kind: 'prop', id: 'prop_bat' });
  expect(await hook(page, (h) => h.playing()), 'Space on a row does not start playback').toBe(false);
  // The app's shortcuts still work with a row focused: S keys the bat on frame 0 (it has keys every 3 frames: one more key, same count).
  await page.keyboard.press('ArrowRight');
  expect(await hook(page, (h) => h.frame()), 'Right steps a frame').toBe(1);
  await page.keyboard.press('s');
  const frames = (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!.tracks
    .filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat')
    .map((t) => t.times.some((x) => Math.abs(x * 30 - 1) < 1e-6));
  expect(frames.every(Boolean), 'every bat channel has a key on frame 1').toBe(true);
});

test('a row clicked in the outliner leaves Space to play and Up/Down to jump between keys', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_bat').click();
  await page.keyboard.press('ArrowUp');
  expect(await hook(page, (h) => h.frame()), 'Up: next key of the bat (keys every 3 frames)').toBe(3);
  await page.keyboard.press(' ');
  await expect.poll(() => hook(page, (h) => h.playing()), { message: 'Space plays' }).toBe(true);
  await page.keyboard.press(' ');
  await expect.poll(() => hook(page, (h) => h.playing())).toBe(false);
});

test('the help panel tells how to pick keys (box select, Ctrl/Shift-click), scrub on the ruler and use the outliner from the keyboard', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.locator('body').press('?');
  await expect(page.getByTestId('help-select-keys')).toContainText('box-select');
  await expect(page.getByTestId('help-panel')).toContainText('frame ruler');
  await expect(page.getByTestId('help-panel')).toContainText('Outliner from the keyboard');
});

test('switching to a shorter clip, or typing End below the playhead, keeps the playhead on the sheet', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await typeField(page, 'timeline-frame', 45);
  await page.getByTestId('clip-select').selectOption('clip_walk');
  await expect.poll(() => hook(page, (h) => h.document().activeClip)).toBe('clip_walk');
  await expect.poll(() => hook(page, (h) => h.frame()), { message: 'walk is 0-30: the playhead goes to its last frame' }).toBe(30);
  await page.locator('body').press('Control+z');
  await expect.poll(() => hook(page, (h) => h.document().activeClip)).toBe('clip_swing');
  expect(await hook(page, (h) => h.frame())).toBe(30);
  await typeField(page, 'timeline-end', 20);
  await expect.poll(() => hook(page, (h) => h.frame()), { message: 'End 20 below the playhead at 30' }).toBe(20);
  await expect(page.getByTestId('timeline-frame')).toHaveValue('20');
});
