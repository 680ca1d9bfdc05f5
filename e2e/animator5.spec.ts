/**
 * Fifth walk through the app as an animator (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers), over the parts the
 * earlier walks touched least: the Properties panel's number fields, the File
 * menu, import and export. Each test fails without its fix.
 */
import { rmSync } from 'node:fs';
import { expect, test } from './fixtures/bridge';
import { hook, ready } from './fixtures/page';

test.use({ viewport: { width: 1280, height: 720 } });

test('a scale of 0 typed in Properties is refused and said; a mass below its lowest value is held there, said and shown as it is (not "0")', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_bat').click();
  const sx = page.getByTestId('prop-scale-x');
  const steps = await hook(page, (h) => h.history().undo);
  await sx.fill('0');
  await sx.press('Enter');
  await expect(page.getByTestId('status')).toHaveText(/Scale x: a scale of 0 flattens it to nothing.*kept 1/);
  await expect(sx).toHaveValue('1');
  expect(await hook(page, (h) => h.document().props.find((p) => p.id === 'prop_bat')!.transform.scale), 'the bat keeps its scale').toEqual([1, 1, 1]);
  expect(await hook(page, (h) => h.history().undo), 'no undo step for a refused value').toBe(steps);
  // A negative scale (a mirror) is still taken.
  await sx.fill('-1');
  await sx.press('Enter');
  await expect(sx).toHaveValue('-1');

  await page.getByTestId('outliner-prop-prop_ball').click();
  const mass = page.getByTestId('prop-mass');
  await mass.fill('-3');
  await mass.press('Enter');
  await expect(page.getByTestId('status')).toHaveText(/Mass kg: -3 is below the lowest value 0\.000001: set to 0\.000001/);
  await expect(mass, 'the field shows the mass it holds, not 0').toHaveValue('0.000001');
  expect(await hook(page, (h) => h.document().props.find((p) => p.id === 'prop_ball')!.physics.massKg)).toBe(1e-6);
  const rest = page.getByTestId('prop-restitution');
  await rest.fill('1.5');
  await rest.press('Enter');
  await expect(page.getByTestId('status')).toHaveText(/Restitution: 1\.5 is above the highest value 1: set to 1/);
  await expect(rest).toHaveValue('1');
});

test('O (orthographic and back) keeps the gizmo of the tool and space in use: the Rotate tool showed Move arrows in world space after O', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_bat').click();
  const gizmo = () => hook(page, (h) => {
    const g = h.gizmoState() as { attached: boolean; mode: string; space: string } | null;
    return g && { attached: g.attached, mode: g.mode, space: g.space };
  });
  const space = await hook(page, (h) => h.preferences().gizmoSpace);
  expect(space, 'the default space is local').toBe('local');
  await expect(page.getByTestId('statusbar')).toContainText('Tool: rotate');
  await expect.poll(gizmo).toEqual({ attached: true, mode: 'rotate', space: 'local' });
  await page.locator('canvas').hover();
  await page.keyboard.press('o');
  await expect(page.getByTestId('projection')).toHaveText('Ortho');
  await expect.poll(gizmo, 'orthographic: still the rotate rings, in local space').toEqual({ attached: true, mode: 'rotate', space: 'local' });
  await page.keyboard.press('o');
  await expect(page.getByTestId('projection')).toHaveText('Persp');
  await expect.poll(gizmo, 'perspective again').toEqual({ attached: true, mode: 'rotate', space: 'local' });
});

test('Open Recent of a file deleted since: the status says it is gone from the list, and the File menu no longer offers it', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  bridge.nextSavePath = 'gone.impulse';
  await bridge.menu('saveAs');
  await expect(page.getByTestId('status')).toHaveText(/Saved .*gone\.impulse/);
  await page.getByTestId('menu-file').click();
  await expect(page.getByTestId('menuitem-recent').filter({ hasText: 'gone.impulse' })).toHaveCount(1);
  await page.getByTestId('menu-file').click();
  rmSync(bridge.path('gone.impulse'));
  await bridge.menu('openRecent', { path: bridge.path('gone.impulse') });
  await expect(page.getByTestId('status')).toHaveText(/gone\.impulse: file not found \(removed from Open Recent\)/);
  await expect(page.getByTestId('status')).toHaveClass(/error/);
  await page.getByTestId('menu-file').click();
  await expect(page.getByTestId('menuitem-recent').filter({ hasText: 'gone.impulse' }), 'the File menu drops the deleted file').toHaveCount(0);
  expect(await hook(page, (h) => h.project().name), 'the open project stays').toBe('gone');
});
