/**
 * Repro: importGltf accepted finite but absurd values (a node scale of 1e30,
 * a key time of 1e30 s giving a clip of 3e31 frames, animation values of
 * 3e38) that the document now refuses (core/document/repro/huge-values) and
 * that overflow or never finish downstream. Found by the importer fuzz test
 * (table.glb 'semantic' case: nodes[0] scale 1e30 loaded). Now each is a
 * GltfImportError naming the node or sampler.
 */
import { readAsset as asset } from '../../node/assets';
import { describe, expect, it } from 'vitest';
import { importRefusal, packGlb, unpackGlb } from '../testkit';


function setFloat(json: any, bin: Uint8Array, accessor: number, index: number, v: number): void { // eslint-disable-line @typescript-eslint/no-explicit-any
  const acc = json.accessors[accessor];
  const view = json.bufferViews[acc.bufferView];
  new DataView(bin.buffer, bin.byteOffset).setFloat32((view.byteOffset ?? 0) + (acc.byteOffset ?? 0) + 4 * index, v, true);
}

describe('repro: absurd but finite values in a glTF file', () => {
  it('a node scale of 1e30 names the node', async () => {
    const { json, bin } = unpackGlb(asset('props/table.glb'));
    json.nodes[0].scale = [1e30, 1e30, 1e30];
    const err = await importRefusal(packGlb(json, bin), 'table.glb');
    expect(err.where).toBe('nodes[0].scale');
  });

  it('a last key time of 1e30 s names the sampler input (the clip would be 3e31 frames)', async () => {
    const { json, bin } = unpackGlb(asset('characters/mannequin.glb'));
    const s = json.animations[0].samplers[0];
    const b = bin!.slice();
    setFloat(json, b, s.input, json.accessors[s.input].count - 1, 1e30);
    const err = await importRefusal(packGlb(json, b), 'mannequin.glb');
    expect(err.where).toBe('animations[0].samplers[0].input');
    expect(err.message).toMatch(/out of range/);
  });

  it('two keys 1e-30 s apart name the sampler input (their slope overflows; see core/document/repro/key-interval)', async () => {
    const { json, bin } = unpackGlb(asset('characters/mannequin.glb'));
    const s = json.animations[0].samplers[0];
    const b = bin!.slice();
    setFloat(json, b, s.input, 0, 0);
    setFloat(json, b, s.input, 1, 1e-30);
    const err = await importRefusal(packGlb(json, b), 'mannequin.glb');
    expect(err.where).toBe('animations[0].samplers[0].input');
    expect(err.message).toMatch(/at least 1e-9s apart/);
  });

  it('an animation value of 3e38 names the sampler output', async () => {
    const { json, bin } = unpackGlb(asset('characters/mannequin.glb'));
    const ch = json.animations[1].channels.find((c: { target: { path: string } }) => c.target.path !== 'rotation');
    const b = bin!.slice();
    setFloat(json, b, json.animations[1].samplers[ch.sampler].output, 0, 3e38);
    const err = await importRefusal(packGlb(json, b), 'mannequin.glb');
    expect(err.where).toBe(`animations[1].samplers[${ch.sampler}].output`);
  });
});
