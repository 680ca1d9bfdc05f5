/**
 * Repro: the structural check looked component types and accessor types up
 * in plain objects, so `"componentType": "5126"` (a string) and
 * `"type": "constructor"` (an Object.prototype key) passed it; gltf-transform
 * then failed with "file: could not be read as glTF: Unexpected componentType
 * "5126"" (no JSON path), or read the string as float data. Found by the
 * importer fuzz test (bat.glb, semantic mutation of accessors[1]). A singular
 * node matrix was reported as `nodes[i].rotation: not finite (NaN)` though
 * the file has no rotation; it now names `nodes[i].matrix`.
 */
import { readAsset } from '../../node/assets';
import { describe, expect, it } from 'vitest';
import { importRefusal, packGlb, unpackGlb } from '../testkit';

const bat = (): ReturnType<typeof unpackGlb> => unpackGlb(readAsset('props/bat.glb'));

describe('repro: accessor componentType/type values that are not glTF values', () => {
  for (const [field, value] of [
    ['componentType', '5126'],
    ['componentType', 'constructor'],
    ['type', 'constructor'],
    ['type', 'toString'],
  ] as const) {
    it(`accessors[1].${field} = ${JSON.stringify(value)} names accessors[1].${field}`, async () => {
      const { json, bin } = bat();
      json.accessors[1][field] = value;
      const err = await importRefusal(packGlb(json, bin), 'bat.glb');
      expect(err.where).toBe(`accessors[1].${field}`);
      expect(err.message).toContain(JSON.stringify(value));
    });
  }

  it('a singular node matrix names nodes[0].matrix', async () => {
    const { json, bin } = bat();
    json.nodes[0].matrix = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    const err = await importRefusal(packGlb(json, bin), 'bat.glb');
    expect(err.where).toBe('nodes[0].matrix');
    expect(err.message).toMatch(/cannot be decomposed/);
  });
});
