/**
 * Repro: a glTF `name` that is not a string (a number, an object, an array)
 * was carried into the imported characters, props and materials, so the
 * scene was not a valid document (`characters[0].skeleton.joints[17].name:
 * expected a string, got an object`). Found by the importer fuzz test at
 * FUZZ_SCALE=8 (mannequin.glb 'retype' seed 0x5eed05 case 76:
 * nodes[18].name = {"uri": "missing.bin"}). Now a GltfImportError names it.
 */
import { readAsset as asset } from '../../node/assets';
import { describe, expect, it } from 'vitest';
import { GltfImportError, importGltf } from '../importGltf';
import { packGlb, unpackGlb } from '../testkit';


describe('repro: non-string glTF names', () => {
  for (const [file, key, i, value] of [
    ['characters/mannequin.glb', 'nodes', 18, { uri: 'missing.bin' }],
    ['props/bat.glb', 'nodes', 0, 3.5],
    ['props/bat.glb', 'materials', 0, -0.5],
    ['props/bat.glb', 'meshes', 0, []],
    ['characters/mannequin.glb', 'animations', 1, true],
    ['characters/mannequin.glb', 'skins', 0, null],
  ] as const) {
    it(`${key}[${i}].name = ${JSON.stringify(value)} in ${file} is named`, async () => {
      const { json, bin } = unpackGlb(asset(file));
      json[key][i].name = value;
      const e = await importGltf(packGlb(json, bin), 'f.glb').then(
        () => null,
        (err: unknown) => err,
      );
      expect(e, 'the import must be refused').toBeInstanceOf(GltfImportError);
      expect((e as GltfImportError).where).toBe(`${key}[${i}].name`);
    });
  }
});
