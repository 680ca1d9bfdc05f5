/**
 * Managing clips from the timeline's clip picker (built renderer in Chromium,
 * `window.impulse` wired to the real handlers): new, duplicate, rename and
 * delete, each one undo step; the dope sheet shows the active clip's keys
 * after every step, undo and redo; the clips survive save and reopen.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/bridge';
import { type Hook, hook, ready } from './fixtures/page';

type DocClip = ReturnType<Hook['document']>['clips'][number];

const doc = (page: Page) => hook(page, (h) => h.document());
const active = async (page: Page): Promise<DocClip> => {
  const d = await doc(page);
  return d.clips.find((c) => c.id === d.activeClip)!;
};
const history = (page: Page) => hook(page, (h) => h.history());

/** The key diamonds the dope sheet must show for `clip`: one per track key, on its target's row (summary rows aside). */
function expectedKeys(clip: DocClip): string[] {
  const out = new Set<string>();
  for (const t of clip.tracks) {
    const row = t.target.kind === 'joint' ? `j:${t.target.character}:${t.target.joint}` : `p:${t.target.prop}`;
    for (const time of t.times) out.add(`key-${row}-${Math.round(time * clip.frameRate)}`);
  }
  return [...out].sort();
}

async function shownKeys(page: Page): Promise<string[]> {
  const ids = await page.locator('[data-testid="sheet-rows"] .key:not(.summary)').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  return ids.sort();
}

/** The picker and the dope sheet show the active clip, whose name and track count are given. */
async function expectActive(page: Page, name: string, trackCount: number): Promise<DocClip> {
  await expect.poll(async () => (await active(page)).name).toBe(name);
  const clip = await active(page);
  expect(clip.tracks, `${name} has ${trackCount} tracks`).toHaveLength(trackCount);
  await expect(page.getByTestId('clip-select')).toHaveValue(clip.id);
  await expect(page.getByTestId('clip-select').locator('option:checked')).toHaveText(name);
  await expect.poll(() => shownKeys(page), { message: `the dope sheet shows the keys of ${name}` }).toEqual(expectedKeys(clip));
  return clip;
}

test('new, duplicate, rename and delete clips, each one undo step; the dope sheet follows; save and reopen keeps them', async ({ bridge }, info) => {
  const page = await bridge.open();
  await ready(page);
  const start = await doc(page);
  const swing = start.clips.find((c) => c.id === 'clip_swing')!;
  const walk = start.clips.find((c) => c.id === 'clip_walk')!;
  await expectActive(page, 'swing', swing.tracks.length);
  expect(expectedKeys(swing).length, 'the sample swing has keys on the sheet').toBeGreaterThan(0);
  const steps0 = (await history(page)).undo;

  // New clip: empty, swing's rate and range, named "clip", active; the sheet has no keys.
  await page.getByTestId('clip-new').click();
  const fresh = await expectActive(page, 'clip', 0);
  expect([fresh.frameRate, fresh.startFrame, fresh.endFrame]).toEqual([swing.frameRate, swing.startFrame, swing.endFrame]);
  expect((await history(page)).labels.slice(steps0)).toEqual(['New clip']);
  // A second one gets the next free name.
  await page.getByTestId('clip-new').click();
  await expectActive(page, 'clip 2', 0);
  await page.locator('body').press('Control+z');
  await expectActive(page, 'clip', 0);
  expect((await doc(page)).clips.map((c) => c.name)).toEqual(['walk', 'swing', 'clip']);
  // Undo of the first New clip goes back to swing (its sheet again), redo brings the empty clip back.
  await page.locator('body').press('Control+z');
  await expectActive(page, 'swing', swing.tracks.length);
  await page.locator('body').press('Control+y');
  await expectActive(page, 'clip', 0);

  // Duplicate swing: a copy of its tracks named "swing copy", after swing, active, same keys on the sheet.
  await page.getByTestId('clip-select').selectOption('clip_swing');
  await expectActive(page, 'swing', swing.tracks.length);
  await page.getByTestId('clip-duplicate').click();
  const copy = await expectActive(page, 'swing copy', swing.tracks.length);
  expect(copy.id).not.toBe('clip_swing');
  expect(copy.tracks).toEqual(swing.tracks);
  expect((await doc(page)).clips.map((c) => c.name)).toEqual(['walk', 'swing', 'swing copy', 'clip']);
  expect((await history(page)).labels.at(-1)).toBe('Duplicate clip');
  await page.locator('body').press('Control+z');
  await expectActive(page, 'swing', swing.tracks.length);
  await page.locator('body').press('Control+Shift+z');
  await expectActive(page, 'swing copy', swing.tracks.length);

  // Rename: the field keeps the app's shortcut keys (S would key, Space play, Delete delete keys).
  const stepsBeforeRename = (await history(page)).undo;
  await page.getByTestId('clip-rename').click();
  const field = page.getByTestId('clip-rename-input');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('swing copy');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('walk');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('clip-rename-error'), 'a name another clip has is refused').toContainText('already named "walk"');
  await expect(field, 'the field stays open to fix the name').toBeVisible();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('clip-rename-error'), 'an empty name is refused').toContainText('needs a name');
  await page.getByTestId('timeline').screenshot({ path: info.outputPath('rename-refused.png') });
  // Escape cancels: the old name stays and no undo step was added.
  await page.keyboard.type('xyz');
  await page.keyboard.press('Escape');
  await expect(field).toBeHidden();
  expect((await active(page)).name).toBe('swing copy');
  expect((await history(page)).undo).toBe(stepsBeforeRename);
  // Typing S, K and Space into the field renames; it does not key, play or leave the field.
  await page.getByTestId('clip-rename').click();
  await expect(field).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('swing SK 2');
  expect(await hook(page, (h) => h.playing()), 'Space did not play').toBe(false);
  expect((await history(page)).undo, 'S and K did not set keys').toBe(stepsBeforeRename);
  await expect(field).toHaveValue('swing SK 2');
  await page.keyboard.press('Enter');
  await expect(field).toBeHidden();
  await expectActive(page, 'swing SK 2', swing.tracks.length);
  const afterRename = await history(page);
  expect(afterRename.undo).toBe(stepsBeforeRename + 1);
  expect(afterRename.labels.at(-1)).toBe('Rename clip');
  await page.locator('body').press('Control+z');
  await expectActive(page, 'swing copy', swing.tracks.length);
  await page.locator('body').press('Control+Shift+z');
  await expectActive(page, 'swing SK 2', swing.tracks.length);

  // Delete the renamed copy: the next clip ("clip", empty) becomes active. Undo brings the copy back, active.
  await page.getByTestId('clip-delete').click();
  await expectActive(page, 'clip', 0);
  expect((await doc(page)).clips.map((c) => c.name)).toEqual(['walk', 'swing', 'clip']);
  expect((await history(page)).labels.at(-1)).toBe('Delete clip');
  await page.locator('body').press('Control+z');
  await expectActive(page, 'swing SK 2', swing.tracks.length);
  await page.locator('body').press('Control+Shift+z');
  await expectActive(page, 'clip', 0);
  await page.locator('body').press('Control+z');
  await expectActive(page, 'swing SK 2', swing.tracks.length);
  // The walk clip's sheet is its own.
  await page.getByTestId('clip-select').selectOption('clip_walk');
  await expectActive(page, 'walk', walk.tracks.length);
  const saved = (await doc(page)).clips;
  expect(saved.map((c) => c.name)).toEqual(['walk', 'swing', 'swing SK 2', 'clip']);

  // Save, restart, open: the four clips with their tracks, walk active.
  bridge.nextSavePath = 'clips';
  await page.locator('body').press('Control+s');
  await expect.poll(() => bridge.exists('clips.impulse')).toBe(true);
  await expect.poll(() => hook(page, (h) => h.history().dirty)).toBe(false);
  const page2 = await bridge.relaunch({ initial: { kind: 'empty' } });
  await expect(page2.getByTestId('app')).toBeVisible();
  bridge.nextOpenPath = 'clips.impulse';
  await page2.getByTestId('menu-file').click();
  await page2.getByTestId('menuitem-open').click();
  await ready(page2);
  const reopened = await doc(page2);
  expect(reopened.clips).toEqual(saved);
  expect(reopened.activeClip).toBe('clip_walk');
  await expectActive(page2, 'walk', walk.tracks.length);
  await page2.getByTestId('clip-select').selectOption({ label: 'swing SK 2' });
  await expectActive(page2, 'swing SK 2', swing.tracks.length);

  // The Clip menu does the same: Duplicate Clip, then Rename Clip… opens the name field.
  await page2.getByTestId('menu-clip').click();
  await page2.getByTestId('menuitem-duplicateClip').click();
  await expectActive(page2, 'swing SK 2 copy', swing.tracks.length);
  await page2.getByTestId('menu-clip').click();
  await page2.getByTestId('menuitem-renameClip').click();
  await expect(page2.getByTestId('clip-rename-input')).toBeFocused();
  await page2.keyboard.press('Control+a');
  await page2.keyboard.type('from menu');
  await page2.keyboard.press('Enter');
  await expectActive(page2, 'from menu', swing.tracks.length);
  await page2.locator('body').press('Control+z');
  await page2.locator('body').press('Control+z');
  await expectActive(page2, 'swing SK 2', swing.tracks.length);

  // Delete down to one clip: the last one cannot be deleted. Undo brings them all back.
  for (const remaining of [3, 2, 1]) {
    await page2.getByTestId('clip-delete').click();
    await expect.poll(async () => (await doc(page2)).clips.length).toBe(remaining);
  }
  await expect(page2.getByTestId('clip-delete'), 'the last clip cannot be deleted').toBeDisabled();
  await page2.getByTestId('menu-clip').click();
  await expect(page2.getByTestId('menuitem-deleteClip'), 'nor from the Clip menu').toBeDisabled();
  await page2.locator('body').press('Escape');
  expect((await doc(page2)).clips).toHaveLength(1);
  for (let i = 0; i < 3; i++) await page2.locator('body').press('Control+z');
  await expect.poll(async () => (await doc(page2)).clips.map((c) => c.name)).toEqual(['walk', 'swing', 'swing SK 2', 'clip']);
  await expectActive(page2, 'swing SK 2', swing.tracks.length);
});
