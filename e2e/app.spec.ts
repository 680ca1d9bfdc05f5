/**
 * The authoring app, end to end, in Chromium on the built renderer with
 * `window.impulse` wired to the real handlers (e2e/fixtures/bridge.ts).
 * Tests drive the UI with real pointer and keyboard input; `__impulseTest`
 * is read-only (document, selection, and pixel positions of 3D things).
 */
import type { Page, TestInfo } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, REPO_ROOT, test } from './fixtures/bridge';
import { hook } from './fixtures/page';

const CHAR = 'char_mannequin';
const FOREARM = 11; // LeftForeArm in the sample's mannequin
const MANNEQUIN_GLB = join(REPO_ROOT, 'assets', 'characters', 'mannequin.glb');

async function ready(page: Page): Promise<void> {
  await expect(page.getByTestId('outliner-character-char_mannequin')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__impulseTest!.runtimeVersion())).toBeGreaterThan(0);
  // Fold away the floating check/suggest dock (if this build has it) so clicks reach the viewport.
  const collapse = page.getByTestId('dock-collapse');
  if ((await collapse.count()) && (await collapse.textContent()) === '▴') await collapse.click();
}

/** Screenshot of the viewport, checked to show more than the background, and the character where its hips are. */
async function viewportShot(page: Page, info: TestInfo, name: string, character = CHAR): Promise<void> {
  await settle(page);
  const path = info.outputPath(`${name}.png`);
  const png = await page.getByTestId('viewport').screenshot({ path });
  await info.attach(name, { body: png, contentType: 'image/png' });
  const stats = await hook(page, (h) => h.canvasStats());
  expect(stats!.nonBackground, `${name}: the viewport shows the scene, not an empty background`).toBeGreaterThan(0.05);
  expect(stats!.colours, `${name}: shaded geometry, not a flat fill`).toBeGreaterThan(30);
  // The character's body covers its hips: that pixel is lit geometry, far from the background colour.
  const hips = await hook(page, (h, c) => h.projectJoint(c as string, 0), character);
  const box = (await page.getByTestId('viewport').boundingBox())!;
  if (hips && hips.x > box.x && hips.x < box.x + box.width && hips.y > box.y && hips.y < box.y + box.height) {
    const px = (await hook(page, (h, p) => h.canvasPixel((p as { x: number }).x, (p as { y: number }).y), hips))!;
    const bg = [0x24, 0x27, 0x2d];
    expect(Math.abs(px[0] - bg[0]) + Math.abs(px[1] - bg[1]) + Math.abs(px[2] - bg[2]), `${name}: the character is drawn at its hips (pixel ${px})`).toBeGreaterThan(40);
  } else throw new Error(`${name}: the character's hips are outside the viewport`);
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

test('import a glTF character through File > Import glTF', async ({ bridge }, info) => {
  const page = await bridge.open();
  await ready(page);
  const before = await hook(page, (h) => h.document());
  bridge.nextImportPath = MANNEQUIN_GLB;
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menuitem-import').click();
  await expect.poll(async () => (await hook(page, (h) => h.document())).characters.length).toBe(before.characters.length + 1);
  const after = await hook(page, (h) => h.document());
  const added = after.characters[after.characters.length - 1];
  expect(added.joints.length, 'the 67-joint mannequin').toBe(67);
  expect(added.triangles).toBeGreaterThan(100);
  expect(after.characters.map((c) => c.id).filter((id) => id === added.id), 'a fresh id').toHaveLength(1);
  await expect(page.getByTestId(`outliner-character-${added.id}`)).toBeVisible();
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'character', id: added.id });
  // One undo step removes the whole import.
  expect((await hook(page, (h) => h.history())).labels.at(-1)).toMatch(/^Import mannequin\.glb/);
  await page.getByTestId('frame-selected').click();
  await settle(page);
  await viewportShot(page, info, 'imported-character', added.id);
  // The imported character is drawn: its hips project inside the canvas and pick to it.
  await page.locator('body').press('Escape');
  await settle(page);
  const hips = await hook(page, (h, id) => h.projectJoint(id as string, 0), added.id);
  await page.mouse.click(hips!.x, hips!.y);
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'character', id: added.id });
  await page.locator('body').press('Control+z');
  await expect.poll(async () => (await hook(page, (h) => h.document())).characters.length).toBe(before.characters.length);
});

test('recover after a crash: the autosave is offered on the next start and brings the edits back', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_ball').click();
  const mass = page.getByTestId('prop-mass');
  await mass.fill('0.3');
  await mass.press('Enter');
  await page.getByTestId('prop-mode').selectOption('keyframed');
  await expect.poll(async () => (await hook(page, (h) => h.document())).props.find((p) => p.id === 'prop_ball')!.physics).toMatchObject({ massKg: 0.3, mode: 'keyframed' });
  // The shell asks for an autosave (as Electron does every minute), then the app dies.
  const filesBefore = readdirSafe(bridge.userDataDir).length;
  await bridge.menu('autosave');
  await expect.poll(() => readdirSafe(bridge.userDataDir).length, 'the autosave wrote a recovery file').toBeGreaterThan(filesBefore);
  const page2 = await bridge.relaunch();
  await expect(page2.getByTestId('recovery-dialog')).toBeVisible();
  await page2.getByTestId('recovery-accept').click();
  await expect(page2.getByTestId('recovery-dialog')).toBeHidden();
  await expect.poll(async () => (await hook(page2, (h) => h.document())).props.find((p) => p.id === 'prop_ball')?.physics).toMatchObject({ massKg: 0.3, mode: 'keyframed' });
  expect((await hook(page2, (h) => h.history())).dirty, 'recovered work is unsaved').toBe(true);
  // Declining instead starts from the sample.
  await bridge.menu('autosave');
  const page3 = await bridge.relaunch();
  await page3.getByTestId('recovery-discard').click();
  await ready(page3);
  expect((await hook(page3, (h) => h.document())).props.find((p) => p.id === 'prop_ball')!.physics.massKg).toBe(0.145);
});

function readdirSafe(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) e.isDirectory() ? walk(join(d, e.name)) : out.push(e.name);
  };
  walk(dir);
  return out;
}

test('dope sheet: move keys by dragging, change interpolation and tangents, delete, copy and paste a pose; Escape cancels a drag', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_bat').click();
  const clipOf = async () => (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!;
  const batTimes = async () => (await clipOf()).tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat').map((t) => t.times.map((x) => Math.round(x * 30)));
  const original = await batTimes();
  const frames = [...new Set(original.flat())].sort((a, b) => a - b);
  expect(frames.length, 'the sample bat is animated').toBeGreaterThan(1);
  const f0 = frames[1];
  const diamond = page.getByTestId(`key-p:prop_bat-${f0}`);
  await expect(diamond).toBeVisible();

  // Drag the key 3 frames later (one undo step), after a cancelled attempt.
  await diamond.scrollIntoViewIfNeeded();
  const box = (await diamond.boundingBox())!;
  const px = Number(await page.getByTestId('dopesheet').getAttribute('data-px-per-frame'));
  const target = f0 + 3 < (frames[2] ?? Infinity) ? 3 : -1;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + target * px, box.y + box.height / 2, { steps: 4 });
  await page.locator('body').press('Escape');
  await page.mouse.up();
  expect(await batTimes(), 'Escape cancelled the move').toEqual(original);
  const undoBefore = (await hook(page, (h) => h.history())).undo;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + target * px, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const moved = await batTimes();
  expect(moved.every((times) => !times.includes(f0) && times.includes(f0 + target)), `key moved from ${f0} to ${f0 + target}: ${JSON.stringify(original)} -> ${JSON.stringify(moved)}`).toBe(true);
  expect((await hook(page, (h) => h.history())).undo).toBe(undoBefore + 1);
  await expect(page.getByTestId(`key-p:prop_bat-${f0 + target}`)).toBeVisible();

  // Interpolation of the selected key's channels.
  await page.getByTestId('interpolation').selectOption('step');
  expect((await clipOf()).tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat').every((t) => t.interpolation === 'step')).toBe(true);
  await page.getByTestId('interpolation').selectOption('cubic');
  const cubic = (await clipOf()).tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat');
  expect(cubic.every((t) => t.interpolation === 'cubic' && t.values.length === t.times.length * 3 * (t.path === 'rotation' ? 4 : 3))).toBe(true);

  // Flat tangents on the selected key: the bat eases into and out of it; one undo step brings the old tangents back.
  await page.getByTestId('tangents').selectOption('flat');
  const flat = (await clipOf()).tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat');
  for (const t of flat) {
    const n = t.path === 'rotation' ? 4 : 3;
    const i = t.times.findIndex((x) => Math.round(x * 30) === f0 + target);
    expect(i, `${t.path} has the selected key`).toBeGreaterThanOrEqual(0);
    const tangents = [...t.values.slice(3 * i * n, 3 * i * n + n), ...t.values.slice((3 * i + 2) * n, (3 * i + 2) * n + n)];
    expect(tangents.every((v) => v === 0), `${t.path} tangents flat: ${tangents}`).toBe(true);
  }
  await page.locator('body').press('Control+z');
  expect((await clipOf()).tracks.filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_bat'), 'undo restored the tangents').toEqual(cubic);

  // Delete the selected key.
  await page.locator('body').press('Delete');
  expect((await batTimes()).every((times) => !times.includes(f0 + target))).toBe(true);

  // Previous / next key jump between the bat's keys.
  await setFrame(page, 0);
  await page.locator('body').press('.');
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(frames[0] === 0 ? frames[2] === undefined ? frames[1] : Math.min(...(await batTimes()).flat().filter((f) => f > 0)) : frames[0]);

  // Copy the mannequin's pose at one frame, paste at another with auto-key: every joint gets the same rotation.
  await page.getByTestId(`outliner-character-${CHAR}`).click();
  await setFrame(page, 10);
  await page.locator('body').press('Control+c');
  const pose10 = await Promise.all([0, 5, 11, 58].map((j) => hook(page, (h, a) => h.jointLocal('char_mannequin', a as number), j)));
  await setFrame(page, 45);
  const before45 = await Promise.all([0, 5, 11, 58].map((j) => hook(page, (h, a) => h.jointLocal('char_mannequin', a as number), j)));
  expect(before45.some((p, i) => quatAngle(p!.slice(3, 7), pose10[i]!.slice(3, 7)) > 1e-3), 'frames 10 and 45 differ to begin with').toBe(true);
  await page.getByTestId('autokey').click();
  await page.locator('body').press('Control+v');
  const pose45 = await Promise.all([0, 5, 11, 58].map((j) => hook(page, (h, a) => h.jointLocal('char_mannequin', a as number), j)));
  pose45.forEach((p, i) => expect(quatAngle(p!.slice(3, 7), pose10[i]!.slice(3, 7)), `joint ${[0, 5, 11, 58][i]} pasted`).toBeLessThan(1e-6));
  await page.locator('body').press('Control+z');
  const unpasted = await Promise.all([0, 5, 11, 58].map((j) => hook(page, (h, a) => h.jointLocal('char_mannequin', a as number), j)));
  unpasted.forEach((p, i) => expect(quatAngle(p!.slice(3, 7), before45[i]!.slice(3, 7)), 'undo removed the paste').toBeLessThan(1e-6));
});

test('two-bone IK: dragging the foot handle moves the foot there and keeps the leg bone lengths', async ({ bridge }, info) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId(`outliner-character-${CHAR}`).click();
  const chains = await hook(page, (h) => h.limbChains('char_mannequin'));
  const arm = chains.findIndex((c) => c.name === 'left leg');
  expect(chains.map((c) => c.name).sort()).toEqual(['left arm', 'left leg', 'right arm', 'right leg']);
  const c = chains[arm];
  await setFrame(page, 15);
  const pos = (j: number) => hook(page, (h, a) => h.jointWorldPosition('char_mannequin', a as number), j) as Promise<number[]>;
  const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  const [a0, b0, e0] = await Promise.all([pos(c.upper), pos(c.lower), pos(c.end)]);
  // Click the handle (drawn over the foot) and drag the gizmo's free-move centre.
  await settle(page);
  const hand = await hook(page, (h, j) => h.projectJoint('char_mannequin', j as number), c.end);
  await page.mouse.click(hand!.x, hand!.y);
  await expect.poll(() => hook(page, (h) => h.selection())).toEqual({ kind: 'ik', character: CHAR, chain: arm });
  // Escape in the middle of a drag puts everything back and records nothing.
  const docBefore = await hook(page, (h) => h.documentText());
  const undoBefore = (await hook(page, (h) => h.history())).undo;
  await settle(page);
  const grip = (await hook(page, (h) => h.gizmoHandle('Y')))!;
  await page.mouse.move(grip.x, grip.y);
  await page.mouse.down();
  await page.mouse.move(grip.x, grip.y - 40, { steps: 5 });
  expect((await hook(page, (h) => h.history())).dragging, 'drag in progress').toBe(true);
  await page.locator('body').press('Escape');
  await page.mouse.move(grip.x, grip.y - 60, { steps: 3 });
  await page.mouse.up();
  expect(await hook(page, (h) => h.documentText()), 'Escape restored the document').toBe(docBefore);
  expect((await hook(page, (h) => h.history())).undo).toBe(undoBefore);
  await dragGizmo(page, 'Y', 0, -30);
  expect((await hook(page, (h) => h.history())).undo, 'one IK drag, one undo step').toBe(undoBefore + 1);
  const [a1, b1, e1] = await Promise.all([pos(c.upper), pos(c.lower), pos(c.end)]);
  expect(dist(e1, e0), 'the hand moved').toBeGreaterThan(0.01);
  expect(Math.abs(e1[0] - e0[0]) + Math.abs(e1[2] - e0[2]), 'along the dragged axis only').toBeLessThan(1e-6);
  expect(dist(a1, a0), 'the shoulder stayed').toBeLessThan(1e-9);
  expect(Math.abs(dist(a1, b1) - dist(a0, b0)), 'thigh length kept').toBeLessThan(1e-6);
  expect(Math.abs(dist(b1, e1) - dist(b0, e0)), 'shin length kept').toBeLessThan(1e-6);
  await viewportShot(page, info, 'ik-posed');
});

test('help panel lists the shortcuts; perspective/orthographic toggle keeps the scene in view', async ({ bridge }, info) => {
  const page = await bridge.open();
  await ready(page);
  await page.locator('body').press('?');
  await expect(page.getByTestId('help-panel')).toBeVisible();
  for (const id of ['setKey', 'undo', 'redo', 'save', 'playPause', 'nextKey', 'previousKey', 'frameSelected', 'toolTranslate', 'toolRotate', 'toolScale']) {
    await expect(page.getByTestId(`help-${id}`)).toBeVisible();
  }
  await page.locator('body').press('Escape');
  await expect(page.getByTestId('help-panel')).toBeHidden();
  await page.locator('body').press('o');
  await expect(page.getByTestId('projection')).toHaveText('Ortho');
  await settle(page);
  await viewportShot(page, info, 'orthographic');
  // Playback advances the playhead; Space again pauses.
  await page.locator('body').press(' ');
  await expect.poll(() => hook(page, (h) => h.frame())).toBeGreaterThan(2);
  await page.locator('body').press(' ');
  expect(await hook(page, (h) => h.playing())).toBe(false);
});

test('properties panel and clip fields: every change is one undo step', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  const ball = async () => (await hook(page, (h) => h.document())).props.find((p) => p.id === 'prop_ball')!;
  await page.getByTestId('outliner-prop-prop_ball').click();
  await expect(page.getByTestId('properties-title')).toHaveText('Ball');
  const start = await ball();
  const undo0 = (await hook(page, (h) => h.history())).undo;
  await page.getByTestId('prop-mode').selectOption('keyframed');
  for (const [id, v] of [['prop-mass', '0.2'], ['prop-restitution', '0.8'], ['prop-friction', '0.25']] as const) {
    await page.getByTestId(id).fill(v);
    await page.getByTestId(id).press('Enter');
  }
  await page.getByTestId('prop-collision').uncheck();
  await expect.poll(async () => (await ball()).physics).toEqual({ mode: 'keyframed', massKg: 0.2, restitution: 0.8, friction: 0.25 });
  expect((await ball()).collision.enabled).toBe(false);
  expect((await hook(page, (h) => h.history())).undo, 'five edits, five steps').toBe(undo0 + 5);
  // Restitution is a coefficient: the field clamps to [0, 1].
  await page.getByTestId('prop-restitution').fill('3');
  await page.getByTestId('prop-restitution').press('Enter');
  await expect.poll(async () => (await ball()).physics.restitution).toBe(1);
  // Location typed at the playhead (the ball is not animated: its rest position changes).
  await page.getByTestId('prop-translation-y').fill('1.5');
  await page.getByTestId('prop-translation-y').press('Enter');
  await expect.poll(async () => (await ball()).transform.translation[1]).toBe(1.5);
  for (let i = 0; i < 7; i++) await page.locator('body').press('Control+z');
  const undone = await ball();
  expect(undone.physics).toEqual(start.physics);
  expect(undone.collision).toEqual(start.collision);
  expect(undone.transform).toEqual(start.transform);

  // Frame range and rate of the clip.
  await page.getByTestId('timeline-end').fill('90');
  await page.getByTestId('timeline-end').press('Enter');
  const clip = async () => (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!;
  await expect.poll(async () => (await clip()).endFrame).toBe(90);
  await page.getByTestId('timeline-fps').fill('60');
  await page.getByTestId('timeline-fps').press('Enter');
  await expect.poll(async () => [(await clip()).frameRate, (await clip()).endFrame]).toEqual([60, 180]);
  await page.locator('body').press('Control+z');
  await page.locator('body').press('Control+z');
  expect([(await clip()).frameRate, (await clip()).endFrame]).toEqual([30, 60]);
});
