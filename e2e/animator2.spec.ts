/**
 * Second walk through the app as an animator (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers), in the flows the
 * first walk (animator.spec.ts) did not cover: the timeline and dope sheet,
 * the Properties panel's number fields, clips, the check after edits. Each
 * test fails without its fix.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/bridge';

type Hook = NonNullable<Window['__impulseTest']>;
const BALL = 'prop_ball';

test.use({ viewport: { width: 1280, height: 720 } });

function hook<T>(page: Page, fn: (h: Hook, arg: unknown) => T, arg?: unknown): Promise<T> {
  return page.evaluate(([src, a]) => new Function('h', 'a', `return (${src})(h, a)`)(window.__impulseTest, a), [fn.toString(), arg] as const) as Promise<T>;
}

async function ready(page: Page): Promise<void> {
  await expect(page.getByTestId('outliner-character-char_mannequin')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__impulseTest!.runtimeVersion())).toBeGreaterThan(0);
}

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
