/**
 * Fifth walk through the app as an animator (built renderer in Chromium at
 * 1280x720, `window.impulse` wired to the real handlers), over the parts the
 * earlier walks touched least: the Properties panel's number fields, the File
 * menu, import and export. Each test fails without its fix.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { Document, NodeIO } from '@gltf-transform/core';
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
  // Text that is no finite number is refused by name (it went back without a word).
  const start = page.getByTestId('timeline-start');
  await start.fill('1e400');
  await start.press('Enter');
  await expect(page.getByTestId('status')).toHaveText('Start: what was typed is not a number; kept 0');
  await expect(start).toHaveValue('0');
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

test('Import glTF of a .glb with several props says its warnings in the status bar, not only in the console (an open mesh gets no mass from density)', async ({ bridge }) => {
  // Two props: a closed tetrahedron and an open quad (two triangles).
  const doc = new Document();
  const buffer = doc.createBuffer();
  const scene = doc.createScene('scene');
  const prop = (name: string, positions: number[], indices: number[], x: number) => {
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(indices)).setBuffer(buffer));
    scene.addChild(doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(prim)).setTranslation([x, 0, 0]));
  };
  prop('Wedge', [0, 0, 0, 0.2, 0, 0, 0, 0.2, 0, 0, 0, 0.2], [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3], 0);
  prop('Sheet', [0, 0, 0, 0.3, 0, 0, 0.3, 0.3, 0, 0, 0.3, 0], [0, 1, 2, 0, 2, 3], 0.5);
  writeFileSync(bridge.path('two-props.glb'), await new NodeIO().writeBinary(doc));

  const page = await bridge.open();
  await ready(page);
  bridge.nextImportPath = 'two-props.glb';
  await bridge.menu('import');
  const status = page.getByTestId('status');
  await expect(status).toHaveText(/^Imported two-props\.glb: 2 props; 1 warning: prop "Sheet" \(nodes\[1\]\) is not a closed mesh; its mass cannot come from density$/);
  await expect(status, 'the whole text is in the tooltip too').toHaveAttribute('title', /not a closed mesh/);
  const names = await hook(page, (h) => h.document().props.map((p) => p.name));
  expect(names.filter((n) => n === 'Wedge' || n === 'Sheet').sort()).toEqual(['Sheet', 'Wedge']);
});

test('a scale drag through the gizmo centre stops short of 0 (and of a mirror) and says so; the table keeps a positive scale', async ({ bridge }) => {
  const page = await bridge.open();
  await ready(page);
  await page.getByTestId('outliner-prop-prop_table').click();
  await page.locator('canvas').hover();
  await page.keyboard.press('r');
  await expect.poll(() => hook(page, (h) => (h.gizmoState() as { mode: string } | null)?.mode)).toBe('scale');
  await expect.poll(() => hook(page, (h) => h.gizmoHandle('Y'))).not.toBeNull();
  const at = (await hook(page, (h) => h.gizmoHandle('Y')))!;
  // From the Y handle through the centre to as far again beyond it: the handle's scale goes 1 → 0 → −1 on the way.
  const tx = at.centreX + 1.5 * (at.centreX - at.x), ty = at.centreY + 1.5 * (at.centreY - at.y);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(at.x + ((tx - at.x) * i) / 12, at.y + ((ty - at.y) * i) / 12);
  await page.mouse.up();
  const scale = await hook(page, (h) => h.document().props.find((p) => p.id === 'prop_table')!.transform.scale);
  const keyed = await hook(page, (h) => h.document().clips.flatMap((c) => c.tracks).filter((t) => t.target.kind === 'prop' && t.target.prop === 'prop_table' && t.path === 'scale').flatMap((t) => t.values));
  for (const v of [...scale, ...keyed]) expect(v, `scale ${JSON.stringify({ scale, keyed })} stays positive`).toBeGreaterThan(0);
  await expect(page.getByTestId('status')).toContainText(/Scale held at 0\.001× .*does not pass through 0.*Not keyed: Table scale/);
});

test.describe('a small window (1024×560)', () => {
  test.use({ viewport: { width: 1024, height: 560 } });
  test('the viewport (~500 px wide) is too narrow to share with the Check / Suggest dock: it opens folded, and no joint or prop of the sample is under it; unfolded by hand it stays so', async ({ bridge }) => {
    const page = await bridge.open();
    await ready(page);
    const vp = (await page.getByTestId('viewport').boundingBox())!;
    expect(vp.width, 'narrower than the dock (348 px) and 240 px of view').toBeLessThan(348 + 240);
    await expect(page.getByTestId('cs-dock')).toHaveClass(/collapsed/);
    const dock = (await page.getByTestId('cs-dock').boundingBox())!;
    const doc = await hook(page, (h) => h.document());
    const under = async () => {
      const pts: { x: number; y: number }[] = [];
      for (const c of doc.characters)
        for (let j = 0; j < c.joints.length; j++) {
          const p = await hook(page, (h, a) => h.projectJoint((a as [string, number])[0], (a as [string, number])[1]), [c.id, j]);
          if (p) pts.push(p);
        }
      for (const pr of doc.props) {
        const p = await hook(page, (h, id) => h.projectProp(id as string), pr.id);
        if (p) pts.push(p);
      }
      expect(pts.length).toBeGreaterThan(60);
      const inView = pts.filter((p) => p.x >= vp.x && p.x <= vp.x + vp.width && p.y >= vp.y && p.y <= vp.y + vp.height);
      expect(inView.length, 'the sample is framed in the viewport').toBe(pts.length);
      return pts.filter((p) => p.x >= dock.x && p.x <= dock.x + dock.width && p.y >= dock.y && p.y <= dock.y + dock.height).length;
    };
    await expect.poll(under, { message: 'joints and props under the folded dock' }).toBe(0);
    // The animator unfolds it: it stays unfolded (no fight over it).
    await page.getByTestId('dock-collapse').click();
    await expect(page.getByTestId('cs-dock')).not.toHaveClass(/collapsed/);
    await page.waitForTimeout(300);
    await expect(page.getByTestId('cs-dock')).not.toHaveClass(/collapsed/);
  });
});
