/**
 * The authoring app, end to end, in Chromium on the built renderer with
 * `window.impulse` wired to the real handlers (e2e/fixtures/bridge.ts).
 * Tests drive the UI with real pointer and keyboard input; `__impulseTest`
 * is read-only (document, selection, and pixel positions of 3D things).
 */
import type { Page, TestInfo } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, REPO_ROOT, test } from './fixtures/bridge';

const CHAR = 'char_mannequin';
const FOREARM = 11; // LeftForeArm in the sample's mannequin
const MANNEQUIN_GLB = join(REPO_ROOT, 'assets', 'characters', 'mannequin.glb');

type Hook = NonNullable<Window['__impulseTest']>;

async function ready(page: Page): Promise<void> {
  await expect(page.getByTestId('outliner-character-char_mannequin')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__impulseTest!.runtimeVersion())).toBeGreaterThan(0);
  // Fold away the floating check/suggest dock (if this build has it) so clicks reach the viewport.
  const collapse = page.getByTestId('dock-collapse');
  if ((await collapse.count()) && (await collapse.textContent()) === '▴') await collapse.click();
}

function hook<T>(page: Page, fn: (h: Hook, arg: unknown) => T, arg?: unknown): Promise<T> {
  return page.evaluate(([src, a]) => new Function('h', 'a', `return (${src})(h, a)`)(window.__impulseTest, a), [fn.toString(), arg] as const) as Promise<T>;
}

/** Screenshot of the viewport, checked to show more than the background. */
async function viewportShot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  const png = await page.getByTestId('viewport').screenshot({ path });
  await info.attach(name, { body: png, contentType: 'image/png' });
  const stats = await hook(page, (h) => h.canvasStats());
  expect(stats!.nonBackground, `${name}: the viewport shows the scene, not an empty background`).toBeGreaterThan(0.05);
  expect(stats!.colours, `${name}: shaded geometry, not a flat fill`).toBeGreaterThan(30);
}

/** Waits until the viewport has drawn a frame with the current state (R3F renders in requestAnimationFrame). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => ok())))));
}

/** Clicks on a joint's marker once the viewport shows it there. */
async function clickJoint(page: Page, character: string, joint: number): Promise<void> {
  await expect
    .poll(async () => {
      await settle(page);
      const p = await hook(page, (h, a) => h.projectJoint((a as [string, number])[0], (a as [string, number])[1]), [character, joint]);
      return hook(page, (h, q) => h.pickAt((q as { x: number; y: number }).x, (q as { x: number; y: number }).y), p);
    })
    .toEqual({ kind: 'joint', character, joint });
  const p = await hook(page, (h, a) => h.projectJoint((a as [string, number])[0], (a as [string, number])[1]), [character, joint]);
  await page.mouse.click(p!.x, p!.y);
}

/** Drags a gizmo handle by (dx, dy) pixels; with `tangential`, (dx, 0) means dx pixels around the gizmo's centre. */
async function dragGizmo(page: Page, axis: string, dx: number, dy: number, tangential = false): Promise<void> {
  await settle(page);
  const at = await hook(page, (h, a) => h.gizmoHandle(a as string), axis);
  expect(at, `gizmo handle ${axis} is on screen`).not.toBeNull();
  expect(await hook(page, (h, p) => h.gizmoAxisAt((p as { x: number }).x, (p as { y: number }).y), at), 'the gizmo grabs that handle there').toBe(axis);
  if (tangential) {
    const rx = at!.x - at!.centreX, ry = at!.y - at!.centreY;
    const l = Math.hypot(rx, ry);
    [dx, dy] = [(-ry / l) * dx, (rx / l) * dx];
  }
  await page.mouse.move(at!.x, at!.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(at!.x + (dx * i) / 8, at!.y + (dy * i) / 8);
  await page.mouse.up();
}

async function setFrame(page: Page, frame: number): Promise<void> {
  const field = page.getByTestId('timeline-frame');
  await field.fill(String(frame));
  await field.press('Enter');
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(frame);
}

/** Client x of a frame on the dope sheet ruler. */
async function rulerX(page: Page, frame: number): Promise<{ x: number; y: number }> {
  const sheet = page.getByTestId('dopesheet');
  const [px, start, left] = await Promise.all(['data-px-per-frame', 'data-start', 'data-name-width'].map((a) => sheet.getAttribute(a)));
  const box = (await page.getByTestId('ruler').boundingBox())!;
  return { x: box.x + Number(left) + (frame - Number(start)) * Number(px), y: box.y + box.height / 2 };
}

const quatAngle = (a: number[], b: number[]) => 2 * Math.acos(Math.min(1, Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3])));

test('pose a bone, key it, scrub, undo/redo, move a prop, save and reopen with the same keys', async ({ bridge }, info) => {
  const page = await bridge.open();
  await ready(page);
  await viewportShot(page, info, 'sample-opened');

  // Select the character by clicking its body, then the forearm by clicking its bone marker.
  await settle(page);
  const hips = await hook(page, (h, c) => h.projectJoint(c as string, 0), CHAR);
  await page.mouse.click(hips!.x, hips!.y);
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'character', id: CHAR });
  await clickJoint(page, CHAR, FOREARM);
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'joint', character: CHAR, joint: FOREARM });
  await expect(page.getByTestId('properties-title')).toHaveText('LeftForeArm');

  // Rotate it with the gizmo at frame 20: one undo step.
  await setFrame(page, 20);
  const before = (await hook(page, (h, c) => h.jointLocal(c as string, 11), CHAR))!;
  const undoBefore = (await hook(page, (h) => h.history())).undo;
  await dragGizmo(page, 'E', 70, 0, true);
  const rotated = (await hook(page, (h, c) => h.jointLocal(c as string, 11), CHAR))!;
  const angle = quatAngle(before.slice(3, 7), rotated.slice(3, 7));
  expect(angle, 'the drag rotated the bone').toBeGreaterThan(0.05);
  expect((await hook(page, (h) => h.history())).undo, 'the whole drag is one undo step').toBe(undoBefore + 1);
  await viewportShot(page, info, 'bone-rotated');

  // Set a key (S): a diamond appears on the bone's row at frame 20.
  await page.locator('body').press('s');
  const rowKey = page.getByTestId(`key-j:${CHAR}:${FOREARM}-20`);
  await expect(rowKey).toBeVisible();

  // Scrub on the ruler to frame 5 and back: the pose follows the playhead.
  const p20 = await rulerX(page, 20), p5 = await rulerX(page, 5);
  await page.mouse.move(p20.x, p20.y);
  await page.mouse.down();
  await page.mouse.move((p20.x + p5.x) / 2, p5.y);
  await page.mouse.move(p5.x, p5.y);
  await page.mouse.up();
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(5);
  const at5 = (await hook(page, (h, c) => h.jointLocal(c as string, 11), CHAR))!;
  expect(quatAngle(at5.slice(3, 7), rotated.slice(3, 7)), 'frame 5 shows another pose').toBeGreaterThan(1e-3);
  await page.mouse.click(p20.x, p20.y);
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(20);
  const back = (await hook(page, (h, c) => h.jointLocal(c as string, 11), CHAR))!;
  expect(quatAngle(back.slice(3, 7), rotated.slice(3, 7)), 'frame 20 shows the keyed pose').toBeLessThan(1e-6);

  // Undo the key and the rotation, then redo both.
  await page.locator('body').press('Control+z');
  await page.locator('body').press('Control+z');
  const undone = (await hook(page, (h, c) => h.jointLocal(c as string, 11), CHAR))!;
  expect(quatAngle(undone.slice(3, 7), before.slice(3, 7)), 'undo restores the original pose').toBeLessThan(1e-6);
  await page.locator('body').press('Control+Shift+z');
  await page.locator('body').press('Control+Shift+z');
  const redone = (await hook(page, (h, c) => h.jointLocal(c as string, 11), CHAR))!;
  expect(quatAngle(redone.slice(3, 7), rotated.slice(3, 7)), 'redo brings the pose back').toBeLessThan(1e-6);
  await expect(rowKey).toBeVisible();

  // Move the ball: deselect (Escape), click it, W, drag the X arrow.
  await page.locator('body').press('Escape');
  await expect.poll(() => hook(page, (h) => h.selection())).toBeNull();
  const ball = await hook(page, (h) => h.projectProp('prop_ball'));
  await page.mouse.click(ball!.x, ball!.y);
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'prop', id: 'prop_ball' });
  await page.locator('body').press('w');
  const ballBefore = (await hook(page, (h) => h.propTransform('prop_ball')))!;
  await dragGizmo(page, 'X', 80, 0);
  const ballAfter = (await hook(page, (h) => h.propTransform('prop_ball')))!;
  expect(Math.abs(ballAfter[0] - ballBefore[0]), 'the ball moved along x').toBeGreaterThan(0.01);
  expect(Math.abs(ballAfter[1] - ballBefore[1]), 'and only along x').toBeLessThan(1e-9);

  // Save (Ctrl+S asks for a path: the sample has none).
  bridge.nextSavePath = 'posed';
  await page.locator('body').press('Control+s');
  await expect.poll(() => bridge.exists('posed.impulse')).toBe(true);
  await expect.poll(() => hook(page, (h) => h.history().dirty)).toBe(false);
  const savedClip = (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!;
  const savedTracks = savedClip.tracks.filter((t) => t.target.kind === 'joint' && t.target.joint === FOREARM);
  expect(JSON.parse(bridge.read('posed.impulse')).name).toBeDefined();

  // Restart and open it through File > Open: the same keys are there.
  const page2 = await bridge.relaunch({ initial: { kind: 'empty' } });
  await expect(page2.getByTestId('app')).toBeVisible();
  bridge.nextOpenPath = 'posed.impulse';
  await page2.getByTestId('menu-file').click();
  await page2.getByTestId('menuitem-open').click();
  await ready(page2);
  const reopened = (await hook(page2, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!;
  expect(reopened.tracks.filter((t) => t.target.kind === 'joint' && t.target.joint === FOREARM)).toEqual(savedTracks);
  await page2.getByTestId(`outliner-expand-${CHAR}`).click();
  await page2.getByTestId(`outliner-joint-${CHAR}-${FOREARM}`).click();
  await expect(page2.getByTestId(`key-j:${CHAR}:${FOREARM}-20`)).toBeVisible();
  await setFrame(page2, 20);
  const reopenedPose = (await hook(page2, (h, c) => h.jointLocal(c as string, 11), CHAR))!;
  expect(quatAngle(reopenedPose.slice(3, 7), rotated.slice(3, 7)), 'the reopened project has the keyed pose').toBeLessThan(1e-6);
  const ballReopened = (await hook(page2, (h) => h.propTransform('prop_ball')))!;
  expect(ballReopened[0]).toBeCloseTo(ballAfter[0], 9);
  await viewportShot(page2, info, 'reopened');
  expect(readFileSync(bridge.path('posed.impulse'), 'utf8').length).toBeGreaterThan(1000);
});
