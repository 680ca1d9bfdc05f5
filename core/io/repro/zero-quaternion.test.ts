/**
 * Repro: a zero-length quaternion (all four components 0) in an animation's
 * rotation output or in a node's rotation was accepted by importGltf; the
 * imported scene then failed document validation
 * (`clips[0].tracks[4].values[4]: key 0 quaternion [0, 0, 0, 0] has zero
 * length`) and cannot be normalised when sampled. Found by the importer fuzz
 * test (mannequin.glb, deleted accessors.35.bufferView: an accessor without a
 * bufferView reads as zeros). Now it is a GltfImportError naming the sampler
 * or node.
 */
import { readAsset as asset } from '../../node/assets';
import { describe, expect, it } from 'vitest';
import { importGltf } from '../importGltf';
import { importRefusal, packGlb, unpackGlb } from '../testkit';


describe('repro: zero-length quaternions in a glTF file', () => {
  it('a rotation sampler whose output accessor has no bufferView (all zeros) names the sampler output and key 0', async () => {
    const { json, bin } = unpackGlb(asset('characters/mannequin.glb'));
    // First rotation channel of the first animation; its output accessor loses its data.
    const anim = json.animations[0];
    const ci = anim.channels.findIndex((c: { target: { path: string } }) => c.target.path === 'rotation');
    const si = anim.channels[ci].sampler;
    delete json.accessors[anim.samplers[si].output].bufferView;
    const err = await importRefusal(packGlb(json, bin), 'mannequin.glb');
    expect(err.where).toBe(`animations[0].samplers[${si}].output`);
    expect(err.message).toMatch(/key 0 quaternion \[0, 0, 0, 0\] has zero length/);
  });

  it('a node rotation [0, 0, 0, 0] names the node', async () => {
    const { json, bin } = unpackGlb(asset('props/bat.glb'));
    json.nodes[0].rotation = [0, 0, 0, 0];
    const err = await importRefusal(packGlb(json, bin), 'bat.glb');
    expect(err.where).toBe('nodes[0].rotation');
    expect(err.message).toMatch(/zero length/);
  });

  it('a non-unit but non-zero rotation still loads (it can be normalised)', async () => {
    const { json, bin } = unpackGlb(asset('props/bat.glb'));
    json.nodes[0].rotation = [0, 0, 0, 5];
    const r = await importGltf(packGlb(json, bin), 'bat.glb');
    expect(r.props.length, 'the bat is imported').toBe(1);
  });
});
