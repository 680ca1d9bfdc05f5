/**
 * Dope sheet zoom / pan and key copy / paste (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers), driven with real
 * wheel, pointer and keyboard events.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/bridge';
import { type Hook, hook, ready } from './fixtures/page';

type DocClip = ReturnType<Hook['document']>['clips'][number];

test.use({ viewport: { width: 1280, height: 720 } });

const HIPS = 'j:char_mannequin:0', SPINE = 'j:char_mannequin:1', BAT = 'p:prop_bat';

const centerX = async (l: Locator) => {
  const b = (await l.boundingBox())!;
  return b.x + b.width / 2;
};

/** The sheet's mapping as the page states it: frame under client x, and client x of a frame. */
async function mapping(page: Page) {
  const sheet = page.getByTestId('dopesheet');
  const left = (await sheet.boundingBox())!.x + Number(await sheet.getAttribute('data-name-width'));
  const px = Number(await sheet.getAttribute('data-px-per-frame'));
  const origin = Number(await sheet.getAttribute('data-start'));
  return { px, frameAt: (x: number) => origin + (x - left) / px, xOf: (f: number) => left + (f - origin) * px };
}

/** Ctrl+drag along the ruler from x0 to x1 at height y; `beforeRelease` runs with the button still down. */
async function ctrlDragRuler(page: Page, x0: number, x1: number, y: number, beforeRelease?: () => Promise<void>): Promise<void> {
  await page.keyboard.down('Control');
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move(x1, y, { steps: 5 });
  if (beforeRelease) await beforeRelease();
  await page.mouse.up();
  await page.keyboard.up('Control');
}

async function rulerLabels(page: Page): Promise<number[]> {
  return (await page.locator('[data-testid="ruler"] .tick').allInnerTexts()).map(Number);
}

const clipOf = async (page: Page, id: string): Promise<DocClip> => (await hook(page, (h) => h.document())).clips.find((c) => c.id === id)!;

/** Value of the key of (target row id, path) whose time is on `frame`, or undefined. */
function keyAt(clip: DocClip, row: string, path: string, frame: number): number[] | undefined {
  const t = clip.tracks.find((tr) => tr.path === path && (tr.target.kind === 'joint' ? `j:${tr.target.character}:${tr.target.joint}` : `p:${tr.target.prop}`) === row);
  if (!t) return undefined;
  const i = t.times.findIndex((x) => Math.abs(x * clip.frameRate - frame) < 1e-6);
  if (i < 0) return undefined;
  const n = path === 'rotation' ? 4 : 3;
  const base = t.interpolation === 'cubic' ? (3 * i + 1) * n : i * n;
  // `+ 0`: a -0 pasted over a 0 stays 0 (immer skips writes that are ===), the same number for a key value.
  return t.values.slice(base, base + n).map((x) => x + 0);
}

test('zoom with Ctrl+wheel around the mouse, pan with Alt/middle drag and Shift+wheel, Home fits; playhead, scrub and box select follow', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  // Hips keys 24, 27 and 30 (the sample keys every 3 frames there); they stay in sight at the zoom below.
  const k24 = page.getByTestId(`key-${HIPS}-24`), k27 = page.getByTestId(`key-${HIPS}-27`), k30 = page.getByTestId(`key-${HIPS}-30`);
  const fitDistance = (await centerX(k27)) - (await centerX(k24));
  const fitLabels = await rulerLabels(page);
  const fitStep = fitLabels[1] - fitLabels[0];
  const row = (await page.getByTestId(`row-${HIPS}`).boundingBox())!;
  const y = row.y + row.height / 2;

  // Mouse between keys 27 and 30 (frame 28.5): Ctrl+wheel up zooms in around it.
  const mx = ((await centerX(k27)) + (await centerX(k30))) / 2;
  await page.mouse.move(mx, y);
  const frameUnder = (await mapping(page)).frameAt(mx);
  await page.keyboard.down('Control');
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -120);
  await page.keyboard.up('Control');
  await expect.poll(async () => (await centerX(k27)) - (await centerX(k24)), { message: 'keys 24 and 27 are further apart after zooming in' }).toBeGreaterThan(2 * fitDistance);
  const zoomed = await mapping(page);
  // Within a pixel (wheel events carry whole-pixel mouse positions).
  expect(Math.abs(zoomed.xOf(frameUnder) - mx), `frame ${frameUnder} stays under the mouse`).toBeLessThan(1);
  expect(Math.abs((await centerX(k27)) - zoomed.xOf(27)), 'the diamond sits where the mapping puts frame 27').toBeLessThan(1.5);
  // Ruler labels get denser: a smaller step, still at least 40 px apart.
  const labels = await rulerLabels(page);
  const step = labels[1] - labels[0];
  expect(step, `label step ${step} after zooming in (was ${fitStep})`).toBeLessThan(fitStep);
  expect(step * zoomed.px).toBeGreaterThanOrEqual(40);

  // Scrub on the ruler at key 30: the playhead goes to frame 30 and is drawn on the diamond.
  const ruler = (await page.getByTestId('ruler').boundingBox())!;
  await page.mouse.click(await centerX(k30), ruler.y + ruler.height / 2);
  expect(await hook(page, (h) => h.frame()), 'scrubbed to frame 30 at this zoom').toBe(30);
  expect(Math.abs((await centerX(page.getByTestId('playhead'))) - (await centerX(k30))), 'the playhead is drawn on key 30').toBeLessThan(1.5);

  // Box select at this zoom: from between 26 and 27 to between 30 and 31 on the Hips row picks keys 27 and 30.
  await page.mouse.move(zoomed.xOf(26.5), row.y + 3);
  await page.mouse.down();
  await page.mouse.move(zoomed.xOf(30.5), row.y + row.height - 3, { steps: 4 });
  await page.mouse.up();
  const picked = (await hook(page, (h) => h.selectedKeys())).map((k) => k.frame).sort((a, b) => a - b);
  expect(picked, 'box at the zoomed scale picks the keys drawn inside it').toEqual([27, 30]);

  // Dragging the selected keys one frame's width at this zoom moves them one frame (27, 30 -> 28, 31); undo puts them back.
  const hipsFrames = async () => {
    const c = (await hook(page, (h) => h.document())).clips.find((x) => x.id === 'clip_swing')!;
    return c.tracks.find((t) => t.path === 'rotation' && t.target.kind === 'joint' && t.target.joint === 0)!.times.map((t) => Math.round(t * 30));
  };
  const framesBefore = await hipsFrames();
  const sx = await centerX(k27);
  await page.mouse.move(sx, y);
  await page.mouse.down();
  await page.mouse.move(sx + zoomed.px * 1.1, y, { steps: 4 });
  await page.mouse.up();
  const moved = await hipsFrames();
  expect(moved.filter((f) => f >= 26 && f <= 32), 'keys 27 and 30 moved to 28 and 31').toEqual([28, 31]);
  expect((await hook(page, (h) => h.selectedKeys())).map((k) => k.frame).sort((a, b) => a - b), 'the moved keys stay selected').toEqual([28, 31]);
  await page.keyboard.press('Control+z');
  expect(await hipsFrames()).toEqual(framesBefore);
  expect((await hook(page, (h) => h.selectedKeys())).map((k) => k.frame).sort((a, b) => a - b), 'undo selects them where they are again').toEqual([27, 30]);
  await expect(page.getByTestId(`key-${HIPS}-27`)).toHaveClass(/selected/);

  // Alt+drag pans: every diamond moves with the pointer, the zoom stays.
  await page.getByTestId(`key-${HIPS}-27`).click();
  const selBefore = await hook(page, (h) => h.selectedKeys());
  const before27 = await centerX(k27);
  await page.keyboard.down('Alt');
  await page.mouse.move(mx, y);
  await page.mouse.down();
  await page.mouse.move(mx + 120, y, { steps: 5 });
  await page.mouse.up();
  await page.keyboard.up('Alt');
  await expect.poll(async () => (await centerX(k27)) - before27, { message: 'Alt+drag moved key 27 with the pointer' }).toBeCloseTo(120, 0);
  expect((await mapping(page)).px, 'panning keeps the zoom').toBeCloseTo(zoomed.px, 9);
  expect(await hook(page, (h) => h.frame()), 'panning does not scrub').toBe(30);
  expect(await hook(page, (h) => h.selectedKeys()), 'panning does not change the key selection').toEqual(selBefore);

  // Middle drag pans back.
  await page.mouse.move(mx + 120, y);
  await page.mouse.down({ button: 'middle' });
  await page.mouse.move(mx, y, { steps: 5 });
  await page.mouse.up({ button: 'middle' });
  await expect.poll(async () => (await centerX(k27)) - before27, { message: 'middle drag moved it back' }).toBeCloseTo(0, 0);

  // Shift+wheel pans too (wheel down shows later frames: the keys move left).
  await page.keyboard.down('Shift');
  await page.mouse.wheel(0, 100);
  await page.keyboard.up('Shift');
  await expect.poll(async () => (await centerX(k27)) - before27, { message: 'Shift+wheel moved the keys left' }).toBeLessThan(-20);

  // Home with the sheet focused: the clip's range fills the sheet again; the playhead stays on 30.
  await expect(page.getByTestId('dopesheet')).toBeFocused();
  await page.keyboard.press('Home');
  await expect.poll(async () => (await centerX(k27)) - (await centerX(k24)), { message: 'Home: back to the fitted spacing' }).toBeCloseTo(fitDistance, 0);
  const fit = await mapping(page);
  const sheetBox = (await page.getByTestId('dopesheet').boundingBox())!;
  expect(fit.frameAt(sheetBox.x + Number(await page.getByTestId('dopesheet').getAttribute('data-name-width'))), 'frame 0 at the left of the key area').toBeCloseTo(0, 6);
  expect(fit.frameAt(sheetBox.x + (await page.getByTestId('dopesheet').evaluate((e) => e.clientWidth)) - 10), 'frame 60 at the right end').toBeCloseTo(60, 1);
  expect(await rulerLabels(page)).toEqual(fitLabels);
  expect(await hook(page, (h) => h.frame()), 'Home in the dope sheet frames all; it does not move the playhead').toBe(30);
  // Elsewhere (focus on the outliner) Home still goes to the first frame.
  await page.getByTestId('outliner-prop-prop_bat').click();
  await page.keyboard.press('Home');
  expect(await hook(page, (h) => h.frame())).toBe(0);

  // Plain wheel over the ruler zooms as well.
  await page.mouse.move(fit.xOf(30), ruler.y + ruler.height / 2);
  await page.mouse.wheel(0, -200);
  await expect.poll(async () => (await centerX(k27)) - (await centerX(k24)), { message: 'the wheel over the ruler zoomed in' }).toBeGreaterThan(1.3 * fitDistance);
  expect(Math.abs((await mapping(page)).xOf(30) - fit.xOf(30)), 'frame 30 stays under the mouse').toBeLessThan(1);
  expect((await hook(page, (h) => h.history())).undo, 'zoom and pan are not undo steps').toBe(0);
});

test('copy keys with Ctrl+C in the dope sheet, paste at the playhead with Ctrl+V (same channels, replace, one undo step, another clip), save and reopen', async ({ bridge }) => {
  test.setTimeout(180_000);
  const page = await bridge.open();
  await ready(page);
  const status = page.getByTestId('statusbar');
  const swing0 = await clipOf(page, 'clip_swing');
  const hipsRot3 = keyAt(swing0, HIPS, 'rotation', 3)!, hipsRot6 = keyAt(swing0, HIPS, 'rotation', 6)!;
  const hipsPos3 = keyAt(swing0, HIPS, 'translation', 3)!, spineRot6 = keyAt(swing0, SPINE, 'rotation', 6)!;
  expect(keyAt(swing0, HIPS, 'rotation', 30), 'the sample has its own key on 30').not.toEqual(hipsRot3);

  // Select Hips 3 and 6 and Spine 6; Ctrl+C with the sheet focused copies the keys, not the pose.
  await page.getByTestId(`key-${HIPS}-3`).click();
  await page.getByTestId(`key-${HIPS}-6`).click({ modifiers: ['Shift'] });
  await page.getByTestId(`key-${SPINE}-6`).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('dopesheet')).toBeFocused();
  await page.keyboard.press('Control+c');
  await expect(status).toContainText('Copied 5 keys on 3 channels');

  // Playhead to 30 by a click on the ruler (the sheet keeps focus), then Ctrl+V.
  const ruler = (await page.getByTestId('ruler').boundingBox())!;
  await page.mouse.click((await mapping(page)).xOf(30), ruler.y + ruler.height / 2);
  expect(await hook(page, (h) => h.frame())).toBe(30);
  const beforeText = await hook(page, (h) => h.documentText());
  const undoBefore = (await hook(page, (h) => h.history())).undo;
  await page.keyboard.press('Control+v');
  await expect(status).toContainText('Pasted 5 keys on 3 channels at frame 30');
  const pasted = await clipOf(page, 'clip_swing');
  expect(keyAt(pasted, HIPS, 'rotation', 30), 'Hips rotation of frame 3 replaced the key on 30').toEqual(hipsRot3);
  expect(keyAt(pasted, HIPS, 'rotation', 33), 'Hips rotation of frame 6 on 33').toEqual(hipsRot6);
  expect(keyAt(pasted, HIPS, 'translation', 30), 'Hips translation too (every channel of the diamond)').toEqual(hipsPos3);
  expect(keyAt(pasted, SPINE, 'rotation', 33), 'Spine: 6 → 33, same relative timing').toEqual(spineRot6);
  expect(keyAt(pasted, SPINE, 'rotation', 30), 'Spine 30 was not in the copy: kept').toEqual(keyAt(swing0, SPINE, 'rotation', 30));
  for (const t of pasted.tracks) expect(t.times.length, 'replaced, not added: same key counts').toBe(swing0.tracks.find((o) => o.path === t.path && JSON.stringify(o.target) === JSON.stringify(t.target))!.times.length);
  const h1 = await hook(page, (h) => h.history());
  expect(h1.undo, 'one undo step').toBe(undoBefore + 1);
  expect(h1.labels[h1.labels.length - 1]).toBe('Paste keys at 30');
  expect((await hook(page, (h) => h.selectedKeys())).map((k) => k.frame).sort(), 'the pasted keys are selected').toEqual([30, 33, 33]);

  // Undo gives the document back byte for byte; redo pastes again.
  await page.keyboard.press('Control+z');
  expect(await hook(page, (h) => h.documentText()), 'undo restores the document').toBe(beforeText);
  await page.keyboard.press('Control+Shift+z');
  expect(keyAt(await clipOf(page, 'clip_swing'), HIPS, 'rotation', 30)).toEqual(hipsRot3);

  // Keys that would land past the end are refused, with where the paste fits.
  await page.mouse.click((await mapping(page)).xOf(58), ruler.y + ruler.height / 2);
  const textBeforeRefused = await hook(page, (h) => h.documentText());
  await page.keyboard.press('Control+v');
  await expect(status).toContainText('Keys not pasted');
  await expect(status).toContainText('frame 0–57');
  expect(await hook(page, (h) => h.documentText()), 'nothing changed').toBe(textBeforeRefused);

  // Outside the dope sheet Ctrl+C copies the pose, as before.
  await page.getByTestId('outliner-prop-prop_bat').click();
  await page.keyboard.press('Control+c');
  await expect(status).toContainText('Copied prop transform');

  // The bat's keys 0 and 6 into the walk clip, where the bat has no track: the tracks are created.
  await page.getByTestId(`key-${BAT}-0`).click();
  await page.getByTestId(`key-${BAT}-6`).click({ modifiers: ['Control'] });
  await page.keyboard.press('Control+c');
  await expect(status).toContainText('Copied 4 keys on 2 channels');
  const bat0 = keyAt(pasted, BAT, 'translation', 0)!, bat6 = keyAt(pasted, BAT, 'rotation', 6)!;
  await page.getByTestId('clip-select').selectOption('clip_walk');
  await expect.poll(() => hook(page, (h) => h.document().activeClip)).toBe('clip_walk');
  const walk0 = await clipOf(page, 'clip_walk');
  expect(walk0.tracks.some((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat'), 'walk has no bat track').toBe(false);
  await page.mouse.click((await mapping(page)).xOf(10), ruler.y + ruler.height / 2);
  expect(await hook(page, (h) => h.frame())).toBe(10);
  await page.keyboard.press('Control+v');
  await expect(status).toContainText('Pasted 4 keys on 2 channels at frame 10');
  const walk1 = await clipOf(page, 'clip_walk');
  expect(keyAt(walk1, BAT, 'translation', 10)).toEqual(bat0);
  expect(keyAt(walk1, BAT, 'rotation', 16)).toEqual(bat6);
  expect(walk1.tracks.length, 'two new tracks').toBe(walk0.tracks.length + 2);
  await expect(page.getByTestId(`key-${BAT}-16`), 'the walk sheet shows the pasted keys').toBeVisible();

  // Save, restart, open: both pastes are there.
  const saved = (await hook(page, (h) => h.document())).clips;
  bridge.nextSavePath = 'pasted';
  await page.keyboard.press('Control+s');
  await expect.poll(() => bridge.exists('pasted.impulse')).toBe(true);
  const page2 = await bridge.relaunch({ initial: { kind: 'empty' } });
  await expect(page2.getByTestId('app')).toBeVisible();
  bridge.nextOpenPath = 'pasted.impulse';
  await page2.getByTestId('menu-file').click();
  await page2.getByTestId('menuitem-open').click();
  await ready(page2);
  const reopened = (await hook(page2, (h) => h.document())).clips;
  expect(reopened).toEqual(saved);
  expect(keyAt(reopened.find((c) => c.id === 'clip_swing')!, HIPS, 'rotation', 30)).toEqual(hipsRot3);
  expect(keyAt(reopened.find((c) => c.id === 'clip_walk')!, BAT, 'rotation', 16)).toEqual(bat6);
});

test('Ctrl+A selects every key of the clip in the sheet, Ctrl+X cuts the selected keys (one undo step), Ctrl+V pastes them back', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const status = page.getByTestId('statusbar');
  const before = await hook(page, (h) => h.documentText());
  const swing = await clipOf(page, 'clip_swing');
  // Ground truth from the document: per object or bone, the frames with a key on any channel, within Start–End.
  // The status counts keys per channel, as Delete, Cut and Copy do.
  const perTarget = new Map<string, Set<number>>();
  let channelKeys = 0;
  for (const t of swing.tracks) {
    const id = JSON.stringify(t.target);
    const set = perTarget.get(id) ?? new Set<number>();
    for (const time of t.times) {
      const f = Math.round(time * swing.frameRate);
      if (f < swing.startFrame || f > swing.endFrame) continue;
      set.add(f);
      channelKeys++;
    }
    perTarget.set(id, set);
  }
  const total = [...perTarget.values()].reduce((n, s) => n + s.size, 0);

  // Focus the sheet with a click on a key, then Ctrl+A.
  await page.getByTestId(`key-${HIPS}-3`).click();
  await expect(page.getByTestId('dopesheet')).toBeFocused();
  await page.keyboard.press('Control+a');
  await expect(status).toContainText(`Selected ${channelKeys} keys on ${perTarget.size} dope sheet rows`);
  expect((await hook(page, (h) => h.selectedKeys())).length).toBe(total);
  await expect(page.getByTestId(`key-${BAT}-6`)).toHaveClass(/selected/);

  // Escape clears the key selection; then only the Hips keys 3 and 6, and Ctrl+X: they leave the clip, the copy stays to paste.
  await page.keyboard.press('Escape');
  expect((await hook(page, (h) => h.selectedKeys())).length).toBe(0);
  await page.getByTestId(`key-${HIPS}-3`).click();
  await page.getByTestId(`key-${HIPS}-6`).click({ modifiers: ['Shift'] });
  const hipsRot3 = keyAt(swing, HIPS, 'rotation', 3)!;
  const undoBefore = (await hook(page, (h) => h.history())).undo;
  await page.keyboard.press('Control+x');
  await expect(status).toContainText('Cut ');
  const cut = await clipOf(page, 'clip_swing');
  expect(keyAt(cut, HIPS, 'rotation', 3), 'Hips 3 cut').toBeUndefined();
  expect(keyAt(cut, HIPS, 'rotation', 6), 'Hips 6 cut').toBeUndefined();
  expect(keyAt(cut, SPINE, 'rotation', 6), 'other rows untouched').toEqual(keyAt(swing, SPINE, 'rotation', 6));
  const h1 = await hook(page, (h) => h.history());
  expect(h1.undo, 'one undo step').toBe(undoBefore + 1);
  expect(h1.labels[h1.labels.length - 1]).toBe('Cut keys');

  // The playhead back on 3 (a click on the ruler keeps the sheet focused); Ctrl+V puts them back where they were.
  const ruler = (await page.getByTestId('ruler').boundingBox())!;
  await page.mouse.click((await mapping(page)).xOf(3), ruler.y + ruler.height / 2);
  await page.keyboard.press('Control+v');
  await expect(status).toContainText('Pasted');
  expect(keyAt(await clipOf(page, 'clip_swing'), HIPS, 'rotation', 3)).toEqual(hipsRot3);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  expect(await hook(page, (h) => h.documentText()), 'two undos give the document back').toBe(before);

  // Away from the sheet Ctrl+A is not the sheet's: no keys get selected.
  await page.getByTestId('outliner-prop-prop_bat').click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+a');
  expect((await hook(page, (h) => h.selectedKeys())).length).toBe(0);
});

test('the bar above the timeline resizes it: the dope sheet gains what the viewport gives, within bounds; double-click resets', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const timeline = page.getByTestId('timeline'), viewport = page.getByTestId('viewport'), sheet = page.getByTestId('dopesheet');
  const h = async (l: Locator) => (await l.boundingBox())!.height;
  const t0 = await h(timeline), v0 = await h(viewport), s0 = await h(sheet);
  expect(t0).toBeCloseTo(210, 0);
  const bar = (await page.getByTestId('timeline-resizer').boundingBox())!;
  const x = bar.x + bar.width / 2, y = bar.y + bar.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y - 150, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => h(timeline), { message: 'the timeline grew by the drag' }).toBeCloseTo(t0 + 150, 0);
  expect(await h(sheet), 'the dope sheet gets the rows').toBeCloseTo(s0 + 150, 0);
  expect(await h(viewport), 'the viewport gave the room').toBeCloseTo(v0 - 150, 0);
  expect((await hook(page, (h) => h.history())).undo, 'a layout change is not an undo step').toBe(0);

  // Far up: the viewport keeps its room (720 - 260 px reserved = 460 px at most).
  const bar2 = (await page.getByTestId('timeline-resizer').boundingBox())!;
  await page.mouse.move(x, bar2.y + 2);
  await page.mouse.down();
  await page.mouse.move(x, 5, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => h(timeline)).toBeCloseTo(460, 0);
  expect(await h(viewport)).toBeGreaterThan(100);

  // Double-click: the default height again.
  await page.getByTestId('timeline-resizer').dblclick();
  await expect.poll(() => h(timeline)).toBeCloseTo(210, 0);
});

test('a play range: P from the selected keys or Ctrl+drag on the ruler; playback loops inside it; Alt+P clears it', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const status = page.getByTestId('statusbar');
  await page.getByTestId(`key-${HIPS}-24`).click();
  await page.getByTestId(`key-${HIPS}-30`).click({ modifiers: ['Shift'] });
  await page.keyboard.press('p');
  await expect(status).toContainText('Play range 24–30');
  const band = page.getByTestId('play-range');
  await expect(band).toHaveAttribute('data-from', '24');
  await expect(band).toHaveAttribute('data-to', '30');
  const m = await mapping(page);
  const bb = (await band.boundingBox())!;
  expect(m.frameAt(bb.x), 'the band starts on frame 24').toBeCloseTo(24, 0);
  expect(m.frameAt(bb.x + bb.width), 'and ends on 30').toBeCloseTo(30, 0);

  // Play from frame 0 (outside the range): playback enters at 24 and loops inside 24–30 (loop is on by default).
  await page.getByTestId('timeline-frame').fill('0');
  await page.getByTestId('timeline-frame').press('Enter');
  await page.getByTestId('play').click();
  const seen: number[] = [];
  for (let i = 0; i < 12; i++) {
    seen.push(await hook(page, (h) => h.frame()));
    await page.waitForTimeout(150);
  }
  await page.getByTestId('play').click();
  expect(seen.every((f) => f >= 24 && f <= 30), `playhead stayed in 24–30: ${seen.map((f) => f.toFixed(1))}`).toBe(true);
  expect(new Set(seen.map((f) => Math.round(f))).size, 'it moved').toBeGreaterThan(2);
  expect((await hook(page, (h) => h.history())).undo, 'not an undo step').toBe(0);

  // Alt+P clears it; the button in the transport says it is gone.
  await page.keyboard.press('Alt+p');
  await expect(band).toHaveCount(0);
  await expect(page.getByTestId('play-range-clear')).toHaveCount(0);

  // Ctrl+drag on the ruler from 10 to 20 sets it again, without moving the playhead.
  const frameBefore = await hook(page, (h) => h.frame());
  const ruler = (await page.getByTestId('ruler').boundingBox())!;
  const ry = ruler.y + ruler.height / 2;
  await ctrlDragRuler(page, m.xOf(10), m.xOf(20), ry);
  await expect(band).toHaveAttribute('data-from', '10');
  await expect(band).toHaveAttribute('data-to', '20');
  expect(await hook(page, (h) => h.frame())).toBe(frameBefore);
  await expect(page.getByTestId('play-range-clear')).toContainText('Range 10–20');

  // Escape during a Ctrl+drag gives back the range there was (10–20), and the release after it changes nothing.
  await ctrlDragRuler(page, m.xOf(30), m.xOf(40), ry, async () => {
    await expect(band).toHaveAttribute('data-from', '30');
    await page.keyboard.press('Escape');
    await expect(band).toHaveAttribute('data-from', '10');
  });
  await expect(band).toHaveAttribute('data-from', '10');
  await expect(band).toHaveAttribute('data-to', '20');
  await expect(page.getByTestId('status')).toContainText('Play range drag cancelled');
  // A Ctrl+click without a drag keeps the range and says how to set one.
  await page.keyboard.down('Control');
  await page.mouse.click(m.xOf(30), ry);
  await page.keyboard.up('Control');
  await expect(band).toHaveAttribute('data-to', '20');
  await expect(page.getByTestId('status')).toContainText('Ctrl+drag along the ruler to set a play range');

  // Each clip keeps its own range: the other clip has none; one set there does not replace this one's.
  const shown = await page.getByTestId('clip-select').inputValue();
  const other = shown === 'clip_walk' ? 'clip_swing' : 'clip_walk';
  await page.getByTestId('clip-select').selectOption(other);
  await expect(band).toHaveCount(0);
  const m2 = await mapping(page);
  await ctrlDragRuler(page, m2.xOf(5), m2.xOf(15), ry);
  await expect(band).toHaveAttribute('data-from', '5');
  await expect(band).toHaveAttribute('data-to', '15');
  await page.getByTestId('clip-select').selectOption(shown);
  await expect(band).toHaveAttribute('data-from', '10');
  await expect(band).toHaveAttribute('data-to', '20');
  await page.getByTestId('clip-select').selectOption(other);
  await expect(band).toHaveAttribute('data-from', '5');
  await page.getByTestId('clip-select').selectOption(shown);
  await page.getByTestId('play-range-clear').click();
  await expect(band).toHaveCount(0);
});

test('the help panel says when Ctrl+C / Ctrl+V copy keys and how to zoom and pan the dope sheet', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.locator('body').press('?');
  await expect(page.getByTestId('help-copyKeys')).toContainText('dope sheet or curves focused and keys selected');
  await expect(page.getByTestId('help-pasteKeys')).toContainText('Ctrl+V');
  await expect(page.getByTestId('help-sheetFrameAll')).toContainText('Home');
  await expect(page.getByTestId('help-sheet-view')).toContainText('Ctrl+Wheel');
});
