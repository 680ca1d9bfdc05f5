/**
 * Repro: `materials[0].pbrMetallicRoughness.baseColorFactor: null` (or a
 * factor that is not a number) made the importer fail inside gltf-transform
 * with "bat.glb: file: import failed: Cannot read properties of null
 * (reading '0')": an internal error, no JSON path. Found by the CLI fuzz
 * test at FUZZ_SCALE=6 (impulse suggest, seed 0xc11006 case 74). Now a
 * GltfImportError names the field.
 */
import { readAsset } from '../../node/assets';
import { describe, expect, it } from 'vitest';
import { GltfImportError, importGltf } from '../importGltf';
import { packGlb, unpackGlb } from '../testkit';

const bat = () => unpackGlb(readAsset('props/bat.glb'));

describe('repro: malformed material factors', () => {
  for (const [field, value, where] of [
    ['baseColorFactor', null, 'materials[0].pbrMetallicRoughness.baseColorFactor'],
    ['baseColorFactor', [1, 1, 1], 'materials[0].pbrMetallicRoughness.baseColorFactor'],
    ['baseColorFactor', [1, 'x', 1, 1], 'materials[0].pbrMetallicRoughness.baseColorFactor[1]'],
    ['metallicFactor', null, 'materials[0].pbrMetallicRoughness.metallicFactor'],
    ['roughnessFactor', '0.5', 'materials[0].pbrMetallicRoughness.roughnessFactor'],
  ] as const) {
    it(`${field} = ${JSON.stringify(value)} is named at ${where}`, async () => {
      const { json, bin } = bat();
      json.materials[0].pbrMetallicRoughness[field] = value;
      const e = await importGltf(packGlb(json, bin), 'bat.glb').then(
        () => null,
        (err: unknown) => err,
      );
      expect(e, 'the import must be refused').toBeInstanceOf(GltfImportError);
      expect((e as GltfImportError).where).toBe(where);
      expect((e as GltfImportError).message).not.toMatch(/Cannot read/);
    });
  }
  it('pbrMetallicRoughness itself must be an object', async () => {
    const { json, bin } = bat();
    json.materials[0].pbrMetallicRoughness = null;
    const e = await importGltf(packGlb(json, bin), 'bat.glb').catch((err: unknown) => err);
    expect((e as GltfImportError).where).toBe('materials[0].pbrMetallicRoughness');
  });
});
