/**
 * The Curves view (built renderer in Chromium, `window.impulse` wired to the
 * real handlers): the bat's curves and key points, value drags of a
 * translation key and a rotation key with their effect on the document and
 * the viewport, undo, Escape, the empty states. Driven with real pointer and
 * keyboard events.
 */
import type { Page } from '@playwright/test';
import * as THREE from 'three';
import { TrackSampler } from '../core/anim/track';
import { expect, test } from './fixtures/bridge';
import { type Hook, hook, ready } from './fixtures/page';

type DocClip = ReturnType<Hook['document']>['clips'][number];

test.use({ viewport: { width: 1280, height: 800 } });

const BAT = 'prop_bat';

const swing = async (page: Page): Promise<DocClip> => (await hook(page, (h) => h.document())).clips.find((c) => c.id === 'clip_swing')!;

/** The bat's key value of `path` on `frame` (the value group of a cubic key). */
function batKey(clip: DocClip, path: string, frame: number): number[] {
  const t = clip.tracks.find((tr) => tr.path === path && tr.target.kind === 'prop' && tr.target.prop === BAT)!;
  const i = t.times.findIndex((x) => Math.abs(x * clip.frameRate - frame) < 1e-6);
  expect(i, `the bat has a ${path} key on frame ${frame}`).toBeGreaterThanOrEqual(0);
  const n = path === 'rotation' ? 4 : 3;
  const base = t.interpolation === 'cubic' ? (3 * i + 1) * n : i * n;
  return t.values.slice(base, base + n);
}

/** The graph's mapping as the page states it. */
async function graphMapping(page: Page) {
  const g = page.getByTestId('curve-graph');
  const box = (await g.boundingBox())!;
  const num = async (a: string) => Number(await g.getAttribute(a));
  const origin = await num('data-origin-frame'), ppf = await num('data-px-per-frame'), top = await num('data-top-value'), ppu = await num('data-px-per-unit');
  const left = box.x + (await num('data-left')), plotTop = box.y + (await num('data-ruler'));
  return { ppu, xOf: (f: number) => left + (f - origin) * ppf, yOf: (v: number) => plotTop + (top - v) * ppu };
}

const centre = async (page: Page, testId: string) => {
  const b = (await page.getByTestId(testId).boundingBox())!;
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
};

/** Presses on a key point (on a whole pixel inside it) and drags it `dy` pixels down (negative: up). */
async function dragKeyVertically(page: Page, testId: string, dy: number, finish = true): Promise<void> {
  const c = await centre(page, testId);
  const x = Math.round(c.x), y = Math.round(c.y);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y + dy / 2, { steps: 3 });
  await page.mouse.move(x, y + dy, { steps: 3 });
  if (finish) await page.mouse.up();
}

/** More room for the graph: the bar above the timeline dragged 200 px up. */
async function tallTimeline(page: Page): Promise<void> {
  const bar = (await page.getByTestId('timeline-resizer').boundingBox())!;
  await page.mouse.move(bar.x + 300, bar.y + bar.height / 2);
  await page.mouse.down();
  await page.mouse.move(bar.x + 300, bar.y - 200, { steps: 4 });
  await page.mouse.up();
}

/** The sample opened, the timeline enlarged, the Curves view (G) showing the bat's curves. */
async function batCurves(bridge: { open(): Promise<Page> }): Promise<Page> {
  const page = await bridge.open();
  await ready(page);
  await tallTimeline(page);
  await page.keyboard.press('Escape');
  await page.keyboard.press('g');
  await page.getByTestId(`outliner-prop-${BAT}`).click();
  await expect(page.getByTestId('curve-subject')).toContainText('Bat');
  return page;
}

/** Only the translation and scale curves: the rotation channels unticked in the list. */
async function hideRotation(page: Page): Promise<void> {
  for (const id of ['rx', 'ry', 'rz']) await page.getByTestId(`curve-channel-${id}`).locator('input').uncheck();
}

test('the bat’s curves: exact key points, a translation key dragged up changes that value (and the bat at that frame), undo restores; a rotation key drag changes that angle only', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await tallTimeline(page);

  // Nothing selected: the Curves view says what to select. G switches to it.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.keyboard.press('g');
  await expect(page.getByTestId('curves')).toBeVisible();
  await expect(page.getByTestId('dopesheet')).toBeHidden();
  if ((await hook(page, (h) => h.selection())) === null) await expect(page.getByTestId('curves-empty')).toContainText('Select a prop or a bone');
  // A character without a bone: say to pick a bone.
  await page.getByTestId('outliner-character-char_mannequin').click();
  await expect(page.getByTestId('curves-empty')).toContainText('select one of its bones');

  // The table has no keys: flat lines at its rest values, no points, and a word on how to key it.
  await page.getByTestId('outliner-prop-prop_table').click();
  await expect(page.getByTestId('curves-unkeyed')).toContainText('Table has no keys');
  await expect(page.locator('[data-testid^="curve-key-"]')).toHaveCount(0);
  const tableZ = (await hook(page, (h) => h.document())).props.find((p) => p.id === 'prop_table')!.transform.translation[2];
  const mt = await graphMapping(page);
  const plotTop = (await page.getByTestId('curve-plot').boundingBox())!.y;
  const ys = ((await page.getByTestId('curve-tz').getAttribute('points')) ?? '').split(' ').map((p) => Number(p.split(',')[1]));
  expect(ys.length).toBeGreaterThan(1);
  for (const y of ys) expect(Math.abs(plotTop + y - mt.yOf(tableZ)), 'Translate Z is flat at the rest value').toBeLessThan(0.01);

  // The bat: nine curves, translation and rotation keyed (points), scale not (a flat line at its rest value, no points).
  await page.getByTestId(`outliner-prop-${BAT}`).click();
  await expect(page.getByTestId('curve-subject')).toContainText('Bat');
  for (const id of ['tx', 'ty', 'tz', 'rx', 'ry', 'rz']) await expect(page.getByTestId(`curve-${id}`)).toHaveAttribute('data-keyed', 'yes');
  for (const id of ['sx', 'sy', 'sz']) await expect(page.getByTestId(`curve-${id}`)).toHaveAttribute('data-keyed', 'no');
  await expect(page.locator('[data-testid^="curve-key-sx-"]')).toHaveCount(0);
  const clip0 = await swing(page);
  const batT = clip0.tracks.find((t) => t.path === 'translation' && t.target.kind === 'prop' && t.target.prop === BAT)!;
  await expect(page.locator('[data-testid^="curve-key-ty-"]'), 'one point per translation key').toHaveCount(batT.times.length);

  // Only the translation curves, framed: hide the rotation channels in the list, Home with the graph focused.
  await hideRotation(page);
  await expect(page.getByTestId('curve-rx')).toHaveCount(0);
  await expect(page.locator('[data-testid^="curve-key-rx-"]')).toHaveCount(0);
  await page.getByTestId('curve-graph').click({ position: { x: 300, y: 5 } });
  await page.keyboard.press('Home');

  // Key points sit on the document's key values where the mapping puts them.
  const FRAME = 30;
  const ty0 = batKey(clip0, 'translation', FRAME);
  const m0 = await graphMapping(page);
  const keyId = `curve-key-ty-${FRAME}`;
  expect(Number(await page.getByTestId(keyId).getAttribute('data-value')), 'the point shows the key value').toBeCloseTo(ty0[1], 12);
  const c0 = await centre(page, keyId);
  expect(Math.abs(c0.x - m0.xOf(FRAME)), 'point at frame 30').toBeLessThan(1);
  expect(Math.abs(c0.y - m0.yOf(ty0[1])), 'point at its value').toBeLessThan(1);

  // Put the playhead on frame 30 (scrub on the ruler): the viewport shows the bat there.
  const ruler = (await page.getByTestId('curve-ruler').boundingBox())!;
  await page.mouse.click(m0.xOf(FRAME), ruler.y + ruler.height / 2);
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(FRAME);
  const batAt = async () => (await hook(page, (h, id) => h.propTransform(id as string), BAT))!;
  const before = await batAt();
  expect(before[1], 'the bat at frame 30 stands on its key').toBeCloseTo(ty0[1], 9);
  const undoBefore = (await hook(page, (h) => h.history())).undo;

  // Escape during a drag puts the key back and leaves no undo step.
  await dragKeyVertically(page, keyId, -40, false);
  expect((await hook(page, (h) => h.history())).dragging, 'a drag is open').toBe(true);
  await page.keyboard.press('Escape');
  await page.mouse.up();
  expect(batKey(await swing(page), 'translation', FRAME)).toEqual(ty0);
  expect((await hook(page, (h) => h.history())).undo, 'a cancelled drag is no undo step').toBe(undoBefore);

  // Drag the Translate Y key 60 px up: its value rises by 60 px / (px per metre); nothing else changes.
  const m1 = await graphMapping(page);
  await dragKeyVertically(page, keyId, -60);
  const clip1 = await swing(page);
  const ty1 = batKey(clip1, 'translation', FRAME);
  const want = 60 / m1.ppu;
  expect(ty1[1] - ty0[1], `Y rose by 60 px at ${m1.ppu} px/m`).toBeCloseTo(want, 9);
  expect(ty1[0], 'X kept').toBe(ty0[0]);
  expect(ty1[2], 'Z kept').toBe(ty0[2]);
  const t0 = clip0.tracks, t1 = clip1.tracks;
  expect(t1.length).toBe(t0.length);
  for (let i = 0; i < t0.length; i++) {
    expect(t1[i].times, `track ${i} times`).toEqual(t0[i].times);
    if (t1[i] === t1.find((t) => t.path === 'translation' && t.target.kind === 'prop' && t.target.prop === BAT)) {
      const changed = t1[i].values.map((v, j) => (v !== t0[i].values[j] ? j : -1)).filter((j) => j >= 0);
      expect(changed.length, 'one number of the bat translation track changed').toBe(1);
    } else expect(t1[i].values, `track ${i} values`).toEqual(t0[i].values);
  }
  const h1 = await hook(page, (h) => h.history());
  expect(h1.undo, 'the drag is one undo step').toBe(undoBefore + 1);
  expect(h1.labels[h1.labels.length - 1]).toBe('Change key values');
  // The viewport's bat moved with it at frame 30 (and only up).
  await expect.poll(async () => (await batAt())[1] - before[1], { message: 'the bat at frame 30 rose by the key change' }).toBeCloseTo(want, 9);
  const after = await batAt();
  expect(after[0]).toBeCloseTo(before[0], 12);
  expect(after[2]).toBeCloseTo(before[2], 12);
  // The point follows its key.
  await expect.poll(async () => Math.abs((await centre(page, keyId)).y - (c0.y - 60)), { message: 'the point sits 60 px higher' }).toBeLessThan(1);

  // Undo restores the key and the bat.
  await page.keyboard.press('Control+z');
  expect(batKey(await swing(page), 'translation', FRAME)).toEqual(ty0);
  await expect.poll(async () => (await batAt())[1]).toBeCloseTo(before[1], 12);

  // Rotate X key on frame 30 dragged 30 px up: that angle grows by 30 px / (px per degree), the other two stay;
  // the key's quaternion is the rotation of the three angles.
  for (const id of ['rx', 'ry', 'rz']) await page.getByTestId(`curve-channel-${id}`).locator('input').check();
  for (const id of ['tx', 'ty', 'tz']) await page.getByTestId(`curve-channel-${id}`).locator('input').uncheck();
  await page.getByTestId('curves-frame-all').click();
  const rxId = `curve-key-rx-${FRAME}`;
  const deg = async () => Promise.all(['rx', 'ry', 'rz'].map(async (c) => Number(await page.getByTestId(`curve-key-${c}-${FRAME}`).getAttribute('data-value'))));
  const deg0 = await deg();
  const q0 = batKey(await swing(page), 'rotation', FRAME);
  // The angles shown are the document's rotation.
  const qShown = new THREE.Quaternion().setFromEuler(new THREE.Euler(...deg0.map((d) => THREE.MathUtils.degToRad(d)) as [number, number, number], 'XYZ'));
  expect(Math.abs(qShown.dot(new THREE.Quaternion(q0[0], q0[1], q0[2], q0[3]))), 'the three angles shown are the key’s rotation').toBeGreaterThan(1 - 1e-9);
  const m2 = await graphMapping(page);
  await dragKeyVertically(page, rxId, -30);
  const q1 = batKey(await swing(page), 'rotation', FRAME);
  const wantDeg = [deg0[0] + 30 / m2.ppu, deg0[1], deg0[2]];
  const qWant = new THREE.Quaternion().setFromEuler(new THREE.Euler(...wantDeg.map((d) => THREE.MathUtils.degToRad(d)) as [number, number, number], 'XYZ'));
  expect(Math.abs(qWant.dot(new THREE.Quaternion(q1[0], q1[1], q1[2], q1[3]))), `the key is X ${wantDeg[0].toFixed(3)}°, Y and Z kept`).toBeGreaterThan(1 - 1e-9);
  const deg1 = await deg();
  expect(deg1[0] - deg0[0], 'Rotate X changed by the drag').toBeCloseTo(30 / m2.ppu, 6);
  expect(deg1[1], 'Rotate Y kept').toBeCloseTo(deg0[1], 6);
  expect(deg1[2], 'Rotate Z kept').toBeCloseTo(deg0[2], 6);
  expect(batKey(await swing(page), 'translation', FRAME), 'translation untouched by a rotation drag').toEqual(ty0);
  await page.keyboard.press('Control+z');
  expect(batKey(await swing(page), 'rotation', FRAME)).toEqual(q0);

  // Time: Translate Y's key on 30 dragged one frame and a bit to the right lands on 31 (whole frames); the
  // rotation key on 30 stays. Undo puts it back.
  for (const id of ['tx', 'ty', 'tz']) await page.getByTestId(`curve-channel-${id}`).locator('input').check();
  await hideRotation(page);
  await page.getByTestId('curves-frame-all').click();
  const frames = async (path: string) => {
    const c = await swing(page);
    return c.tracks.find((t) => t.path === path && t.target.kind === 'prop' && t.target.prop === BAT)!.times.map((t) => Math.round(t * c.frameRate));
  };
  const tFrames0 = await frames('translation'), rFrames0 = await frames('rotation');
  const m3 = await graphMapping(page);
  const k = await centre(page, keyId);
  await page.mouse.move(Math.round(k.x), Math.round(k.y));
  await page.mouse.down();
  const oneFrame = m3.xOf(31) - m3.xOf(30);
  await page.mouse.move(Math.round(k.x + oneFrame * 0.6), Math.round(k.y), { steps: 3 });
  await page.mouse.move(Math.round(k.x + oneFrame * 1.2), Math.round(k.y), { steps: 3 });
  await page.mouse.up();
  const tFrames1 = await frames('translation');
  expect(tFrames1, 'the translation key moved from 30 to 31').toEqual(tFrames0.map((f) => (f === 30 ? 31 : f)));
  expect(await frames('rotation'), 'the rotation key on 30 stays').toEqual(rFrames0);
  expect(batKey(await swing(page), 'translation', 31), 'with its value').toEqual(ty0);
  await page.keyboard.press('Control+z');
  expect(await frames('translation')).toEqual(tFrames0);

  // Delete with a point picked removes that channel's key only (the rotation key on 30 stays); undo.
  await page.getByTestId(keyId).click();
  await page.keyboard.press('Delete');
  expect(await frames('translation')).toEqual(tFrames0.filter((f) => f !== 30));
  expect(await frames('rotation')).toEqual(rFrames0);
  await page.keyboard.press('Control+z');
  expect(await frames('translation')).toEqual(tFrames0);

  // Right-click menu: Tangents: Flat on the picked key makes the channel cubic with flat tangents on 30; undo.
  await page.getByTestId(keyId).click();
  const g = (await page.getByTestId('curve-graph').boundingBox())!;
  await page.mouse.click(g.x + g.width - 60, g.y + 60, { button: 'right' });
  await page.getByTestId('curve-menu-tangentsFlat').click();
  const cubic = (await swing(page)).tracks.find((t) => t.path === 'translation' && t.target.kind === 'prop' && t.target.prop === BAT)!;
  expect(cubic.interpolation).toBe('cubic');
  const i30 = cubic.times.findIndex((t) => Math.round(t * 30) === 30);
  expect([...cubic.values.slice(9 * i30, 9 * i30 + 3), ...cubic.values.slice(9 * i30 + 6, 9 * i30 + 9)], 'in- and out-tangents of key 30 flat').toEqual([0, 0, 0, 0, 0, 0]);
  expect(batKey(await swing(page), 'translation', FRAME), 'the key keeps its value').toEqual(ty0);
  await page.keyboard.press('Control+z');
  expect((await swing(page)).tracks.find((t) => t.path === 'translation' && t.target.kind === 'prop' && t.target.prop === BAT)!.interpolation).toBe('linear');

  // The value field types the picked key's value (one undo step).
  await page.getByTestId(keyId).click();
  const field = page.getByTestId('curve-value-field');
  await field.fill('1.25');
  await field.press('Enter');
  expect(batKey(await swing(page), 'translation', FRAME), 'Y typed, X and Z kept').toEqual([ty0[0], 1.25, ty0[2]]);
  await page.keyboard.press('Control+z');
  expect(batKey(await swing(page), 'translation', FRAME)).toEqual(ty0);

  // The wheel zooms the values, Ctrl+wheel the time; Home (graph focused) frames all again.
  await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
  await page.mouse.wheel(0, -200);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -200);
  await page.keyboard.up('Control');
  const zoomed = (await hook(page, (h) => h.curves())).view!;
  expect(zoomed, 'zoomed').not.toBeNull();
  expect(zoomed.pxPerUnit, 'values zoomed in').toBeGreaterThan(m3.ppu * 1.2);
  expect(zoomed.pxPerFrame, 'time zoomed in').toBeGreaterThan(oneFrame * 1.2);
  await page.getByTestId(keyId).click();
  await page.keyboard.press('Home');
  expect((await hook(page, (h) => h.curves())).view, 'Home frames all').toBeNull();
  expect(await hook(page, (h) => h.frame()), 'Home in the graph does not move the playhead').toBe(FRAME);

  // Box select: a drag over frames 29.5–33.5 picks the points drawn there (X, Y and Z of keys 30 and 33);
  // Ctrl+A picks every key of the shown curves.
  const m4 = await graphMapping(page);
  const plot = (await page.getByTestId('curve-plot').boundingBox())!;
  await page.mouse.move(Math.round(m4.xOf(29.5)), plot.y + 2);
  await page.mouse.down();
  await page.mouse.move(Math.round(m4.xOf(33.5)), plot.y + plot.height - 2, { steps: 4 });
  await page.mouse.up();
  const boxed = (await hook(page, (h) => h.selectedKeys())) as { frame: number; channel?: string }[];
  expect(boxed.map((k) => `${k.channel}@${k.frame}`).sort()).toEqual(['tx@30', 'tx@33', 'ty@30', 'ty@33', 'tz@30', 'tz@33']);
  await expect(page.getByTestId('curve-key-ty-33')).toHaveClass(/selected/);
  await page.keyboard.press('Control+a');
  expect((await hook(page, (h) => h.selectedKeys())).length, 'every translation key, three curves').toBe(3 * batT.times.length);

  // Back to the dope sheet with the toggle.
  await page.getByTestId('view-dopesheet').click();
  await expect(page.getByTestId('dopesheet')).toBeVisible();
  await expect(page.getByTestId('curves')).toHaveCount(0);
});

test('tangent handles: a rotation key says why it has none; the bat’s Translate Y key on 30 made cubic shows handles; its out handle dragged sets in = out to the slope the dot shows, the curve’s slope at the key; Shift breaks; one undo step each, Escape cancels', async ({ bridge }) => {
  const page = await batCurves(bridge);
  const FRAME = 30;

  // A rotation key: no handles, and the hint says why.
  await page.getByTestId(`curve-key-rx-${FRAME}`).click();
  await expect(page.getByTestId('curve-tangent-hint')).toContainText('quaternion derivatives');
  await expect(page.getByTestId('curve-handle-out')).toHaveCount(0);

  // Translation only, framed. The bat's translation is linear in the sample: no handles, the hint says how to get them.
  await hideRotation(page);
  const keyId = `curve-key-ty-${FRAME}`;
  await page.getByTestId(keyId).click();
  const batTrack = (c: DocClip) => c.tracks.find((t) => t.path === 'translation' && t.target.kind === 'prop' && t.target.prop === BAT)!;
  expect(batTrack(await swing(page)).interpolation).toBe('linear');
  await expect(page.getByTestId('curve-tangent-hint')).toContainText('Linear and step keys');
  await expect(page.getByTestId('curve-handle-out')).toHaveCount(0);

  // Right-click > Tangents: Auto makes the channel cubic: the key shows its two handles.
  const g = (await page.getByTestId('curve-graph').boundingBox())!;
  await page.mouse.click(g.x + g.width - 60, g.y + 60, { button: 'right' });
  await page.getByTestId('curve-menu-tangentsAuto').click();
  const clip0 = await swing(page);
  const track0 = batTrack(clip0);
  expect(track0.interpolation).toBe('cubic');
  await expect(page.getByTestId('curve-handle-out-dot')).toBeVisible();
  await expect(page.getByTestId('curve-handle-in-dot')).toBeVisible();
  const i30 = track0.times.findIndex((t) => Math.round(t * clip0.frameRate) === FRAME);
  const fps = clip0.frameRate;
  const IN = 9 * i30 + 1, OUT = 9 * i30 + 6 + 1; // Y of the in- and out-tangent of key 30

  /** Centre of an SVG circle in page pixels, from its cx / cy (exact, not the rounded box). */
  const circleAt = async (testId: string) => {
    const plot = (await page.getByTestId('curve-plot').boundingBox())!;
    const el = page.getByTestId(testId);
    return { x: plot.x + Number(await el.getAttribute('cx')), y: plot.y + Number(await el.getAttribute('cy')) };
  };
  /** Presses on the dot (a whole pixel in it), moves by (dx, dy), releases: the slope the dot is left at (units / s). */
  const dragDot = async (testId: string, dx: number, dy: number, opts: { shift?: boolean; escape?: boolean } = {}) => {
    const m = await graphMapping(page);
    const ppf = m.xOf(1) - m.xOf(0);
    const dot = await circleAt(testId);
    const key = await circleAt(keyId);
    const px = Math.round(dot.x), py = Math.round(dot.y);
    await page.mouse.move(px, py);
    await page.mouse.down();
    if (opts.shift) await page.keyboard.down('Shift');
    await page.mouse.move(px + dx / 2, py + dy / 2, { steps: 3 });
    await page.mouse.move(px + dx, py + dy, { steps: 3 });
    if (opts.escape) await page.keyboard.press('Escape');
    await page.mouse.up();
    if (opts.shift) await page.keyboard.up('Shift');
    // The dot keeps where it was grabbed: it ends at its start moved by the pointer's movement.
    const runPx = dot.x + dx - key.x, risePx = -(dot.y + dy - key.y);
    return (risePx / m.ppu / (runPx / ppf)) * fps;
  };
  const undo0 = (await hook(page, (h) => h.history())).undo;
  const out0 = await circleAt('curve-handle-out-dot');
  const down = out0.y < g.y + g.height / 2 ? 1 : -1;

  // Escape during a handle drag: nothing changes, no undo step.
  await dragDot('curve-handle-out-dot', 6, 20 * down, { escape: true });
  expect(batTrack(await swing(page)).values).toEqual(track0.values);
  expect((await hook(page, (h) => h.history())).undo).toBe(undo0);

  // The out dot dragged 6 px right and 20 px towards the middle: in and out Y slopes both become the dot's slope.
  const want = await dragDot('curve-handle-out-dot', 6, 20 * down);
  const clip1 = await swing(page);
  const track1 = batTrack(clip1);
  expect(Math.abs(track1.values[OUT] - want), `out-tangent ${track1.values[OUT]} vs the dot's ${want} m/s`).toBeLessThan(1e-6 * Math.max(1, Math.abs(want)));
  expect(track1.values[OUT], 'the out-tangent changed').not.toBe(track0.values[OUT]);
  expect(track1.values[IN], 'aligned: in = out').toBe(track1.values[OUT]);
  const changed = track1.values.map((v, j) => (v !== track0.values[j] ? j : -1)).filter((j) => j >= 0);
  for (const j of changed) expect([IN, OUT], `value ${j} of the bat translation changed`).toContain(j);
  for (let t = 0; t < clip0.tracks.length; t++) if (clip0.tracks[t] !== track0) expect(clip1.tracks[t], `track ${t}`).toEqual(clip0.tracks[t]);
  // The curve's slope at the key (the core's sampler, both sides) is the dot's.
  const d = new Float64Array(3);
  const s = new TrackSampler(track1);
  const t30 = track1.times[i30];
  for (const at of [t30, t30 - 1e-10]) {
    s.derivativeAt(at, d);
    expect(Math.abs(d[1] - want), `dY/dt at ${at === t30 ? 'and after' : 'just before'} the key`).toBeLessThan(1e-6 * Math.max(1, Math.abs(want)));
  }
  const h1 = await hook(page, (h) => h.history());
  expect(h1.undo, 'one undo step').toBe(undo0 + 1);
  expect(h1.labels[h1.labels.length - 1]).toBe('Change tangent');
  await expect(page.getByTestId('curve-handle-out')).toHaveAttribute('data-slope', String(track1.values[OUT]));

  // Shift breaks: the in dot dragged with Shift changes the in slope only.
  const wantIn = await dragDot('curve-handle-in-dot', -4, 15 * down, { shift: true });
  const track2 = batTrack(await swing(page));
  expect(Math.abs(track2.values[IN] - wantIn)).toBeLessThan(1e-6 * Math.max(1, Math.abs(wantIn)));
  expect(track2.values[OUT], 'broken: the out slope stays').toBe(track1.values[OUT]);
  expect((await hook(page, (h) => h.history())).undo).toBe(undo0 + 2);

  // The key stays broken: the hint says so, and a plain drag of the out dot moves the out slope only.
  await expect(page.getByTestId('curve-tangent-hint')).toContainText('Broken');
  const wantOut = await dragDot('curve-handle-out-dot', 5, 10 * down);
  const track3 = batTrack(await swing(page));
  expect(Math.abs(track3.values[OUT] - wantOut)).toBeLessThan(1e-6 * Math.max(1, Math.abs(wantOut)));
  expect(track3.values[IN], 'broken remembered: the in slope stays').toBe(track2.values[IN]);

  // Right-click › Tangents: Unify joins them at the mean of the two slopes; the hint no longer says Broken.
  await page.mouse.click(g.x + g.width - 60, g.y + 60, { button: 'right' });
  await page.getByTestId('curve-menu-tangentsUnify').click();
  const track4 = batTrack(await swing(page));
  const mean = 0.5 * (track3.values[IN] + track3.values[OUT]);
  expect(track4.values[IN], 'unified: in = out').toBe(track4.values[OUT]);
  expect(Math.abs(track4.values[OUT] - mean), 'unified at the mean slope').toBeLessThan(1e-12 * Math.max(1, Math.abs(mean)));
  await expect(page.getByTestId('curve-tangent-hint')).not.toContainText('Broken');
  const h4 = await hook(page, (h) => h.history());
  expect(h4.labels[h4.labels.length - 1]).toBe('Tangents unified');
  await page.keyboard.press('Control+z');
  expect(batTrack(await swing(page)).values).toEqual(track3.values);
  await page.keyboard.press('Control+z');
  expect(batTrack(await swing(page)).values).toEqual(track2.values);

  // Undo twice restores the auto tangents exactly.
  await page.keyboard.press('Control+z');
  expect(batTrack(await swing(page)).values).toEqual(track1.values);
  await page.keyboard.press('Control+z');
  expect(batTrack(await swing(page)).values).toEqual(track0.values);
});

test('copy, cut and paste in the Curves view: a key picked on Translate Y copies the bat’s translation key only (not its rotation on that frame), Ctrl+V puts it on the playhead, Ctrl+X removes that key only; one undo step each', async ({ bridge }) => {
  const page = await batCurves(bridge);
  const FRAME = 30;
  const clip0 = await swing(page);
  const track = (c: DocClip, path: string) => c.tracks.find((t) => t.path === path && t.target.kind === 'prop' && t.target.prop === BAT)!;
  const framesOf = (c: DocClip, path: string) => track(c, path).times.map((t) => Math.round(t * c.frameRate));
  expect(framesOf(clip0, 'rotation'), 'the bat has a rotation key on 30 too').toContain(FRAME);
  // a frame of the clip with neither a translation nor a rotation key of the bat
  const keyed = new Set([...framesOf(clip0, 'translation'), ...framesOf(clip0, 'rotation')]);
  let target = -1;
  for (let f = clip0.startFrame + 1; f < clip0.endFrame && target < 0; f++) if (!keyed.has(f)) target = f;
  expect(target).toBeGreaterThan(0);

  // Only the translation curves (rotation points can sit on top of them). Pick the Translate Y key on 30
  // and copy it (the graph has focus from the click).
  await hideRotation(page);
  await page.getByTestId(`curve-key-ty-${FRAME}`).click();
  await page.keyboard.press('Control+c');
  await expect(page.getByTestId('status')).toContainText('Copied 1 key on 1 channel');

  // Playhead on the free frame (a click on the Curves ruler keeps the focus there), paste.
  const m = await graphMapping(page);
  const ruler = (await page.getByTestId('curve-ruler').boundingBox())!;
  await page.mouse.click(m.xOf(target), ruler.y + ruler.height / 2);
  await expect.poll(() => hook(page, (h) => h.frame())).toBe(target);
  const undo0 = (await hook(page, (h) => h.history())).undo;
  await page.keyboard.press('Control+v');
  const pasted = await swing(page);
  expect(framesOf(pasted, 'translation'), 'a translation key on the playhead').toContain(target);
  expect(batKey(pasted, 'translation', target)).toEqual(batKey(clip0, 'translation', FRAME));
  expect(framesOf(pasted, 'rotation'), 'no rotation key pasted: it was not picked').toEqual(framesOf(clip0, 'rotation'));
  expect((await hook(page, (h) => h.history())).undo, 'one undo step').toBe(undo0 + 1);
  await page.keyboard.press('Control+z');
  expect(framesOf(await swing(page), 'translation')).toEqual(framesOf(clip0, 'translation'));

  // Cut the picked key: the translation key on 30 goes, the rotation key on 30 stays.
  await page.getByTestId(`curve-key-ty-${FRAME}`).click();
  await page.keyboard.press('Control+x');
  const cut = await swing(page);
  expect(framesOf(cut, 'translation')).not.toContain(FRAME);
  expect(framesOf(cut, 'translation').length).toBe(framesOf(clip0, 'translation').length - 1);
  expect(framesOf(cut, 'rotation'), 'the rotation key on 30 is not cut').toEqual(framesOf(clip0, 'rotation'));
  await page.keyboard.press('Control+z');
  expect(framesOf(await swing(page), 'translation')).toEqual(framesOf(clip0, 'translation'));
  expect(batKey(await swing(page), 'translation', FRAME)).toEqual(batKey(clip0, 'translation', FRAME));
});

test('Normalize: each curve drawn in −1…1 over the clip’s range (Translate Y and Rotate X of the bat), key points where the normalized value puts them; a key dragged 60 px up rises by 60 px / px-per-unit × its curve’s scale, in metres; N again shows real values', async ({ bridge }) => {
  const page = await batCurves(bridge);
  await page.getByTestId('curves-normalize').click();
  await expect(page.getByTestId('curve-graph')).toHaveAttribute('data-normalized', 'yes');
  await expect(page.getByTestId('curves-normalize')).toHaveAttribute('aria-pressed', 'true');

  const m = await graphMapping(page);
  const plot = (await page.getByTestId('curve-plot').boundingBox())!;
  for (const id of ['ty', 'rx']) {
    const line = page.getByTestId(`curve-${id}`);
    const scale = Number(await line.getAttribute('data-scale')), offset = Number(await line.getAttribute('data-offset'));
    expect(scale, `${id} is not flat`).toBeGreaterThan(0);
    const ys = ((await line.getAttribute('points')) ?? '').split(' ').map((p) => plot.y + Number(p.split(',')[1]));
    // the frame-all view shows the whole clip: the curve's extremes sit on the rows of +1 and −1 (to the 2-decimal points)
    expect(Math.abs(Math.min(...ys) - m.yOf(1)), `${id}: highest sample on +1`).toBeLessThan(0.02);
    expect(Math.abs(Math.max(...ys) - m.yOf(-1)), `${id}: lowest sample on −1`).toBeLessThan(0.02);
    if (id === 'ty') {
      const v = Number(await page.getByTestId('curve-key-ty-30').getAttribute('data-value'));
      const c = await centre(page, 'curve-key-ty-30');
      expect(Math.abs(c.y - m.yOf((v - offset) / scale)), 'key point at its normalized value').toBeLessThan(1);
    }
  }

  // Drag the Translate Y key on 30 up 60 px (rotation hidden so no point sits on it).
  await hideRotation(page);
  const m1 = await graphMapping(page);
  const scale = Number(await page.getByTestId('curve-ty').getAttribute('data-scale'));
  const ty0 = batKey(await swing(page), 'translation', 30);
  const undo0 = (await hook(page, (h) => h.history())).undo;
  await dragKeyVertically(page, 'curve-key-ty-30', -60);
  const ty1 = batKey(await swing(page), 'translation', 30);
  expect(ty1[1] - ty0[1], 'rise in metres: 60 px / px-per-unit × scale').toBeCloseTo((60 / m1.ppu) * scale, 6);
  expect([ty1[0], ty1[2]]).toEqual([ty0[0], ty0[2]]);
  expect((await hook(page, (h) => h.history())).undo).toBe(undo0 + 1);
  await expect(page.getByTestId('status')).toContainText(`by +${+((60 / m1.ppu) * scale).toFixed(4)} m`);

  await page.getByTestId('curves-normalize').click();
  await expect(page.getByTestId('curve-graph')).toHaveAttribute('data-normalized', 'no');
  await expect(page.getByTestId('curve-ty')).toHaveAttribute('data-scale', '1');
});
