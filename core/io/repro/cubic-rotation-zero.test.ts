/**
 * Repro: a glTF CUBICSPLINE rotation sampler from q to -q with zero tangents
 * was imported, although its spline passes through the zero quaternion (no
 * orientation there); the document then refused it
 * (core/document/repro/cubic-rotation-zero) or, without validation, sampling
 * threw at check or bake time. Now the importer names the sampler.
 */
import { describe, expect, it } from 'vitest';
import { readAsset } from '../../node/assets';
import { importGltf } from '../importGltf';
import { importRefusal, packGlb, unpackGlb } from '../testkit';

/** bat.glb with one animation rotating node 0 by a cubic sampler over keys at 0 s and 1 s (glTF order per key: in-tangent, value, out-tangent). */
function batWithCubicRotation(output: number[]): Uint8Array {
  const { json, bin } = unpackGlb(readAsset('props/bat.glb'));
  const base = (bin!.length + 3) & ~3;
  const data = new Float32Array([0, 1, ...output]);
  const out = new Uint8Array(base + data.byteLength);
  out.set(bin!, 0);
  out.set(new Uint8Array(data.buffer), base);
  json.buffers[0].byteLength = out.length;
  const views = json.bufferViews.length, accessors = json.accessors.length;
  json.bufferViews.push({ buffer: 0, byteOffset: base, byteLength: 8 }, { buffer: 0, byteOffset: base + 8, byteLength: 4 * output.length });
  json.accessors.push(
    { bufferView: views, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
    { bufferView: views + 1, componentType: 5126, count: output.length / 4, type: 'VEC4' },
  );
  json.animations = [{ name: 'turn', samplers: [{ input: accessors, output: accessors + 1, interpolation: 'CUBICSPLINE' }], channels: [{ sampler: 0, target: { node: 0, path: 'rotation' } }] }];
  return packGlb(json, out);
}

const Z = [0, 0, 0, 0];

describe('repro: an imported cubic rotation through the zero quaternion', () => {
  it('q to -q with zero tangents is refused, naming the sampler output and the keys', async () => {
    const err = await importRefusal(batWithCubicRotation([...Z, 0, 0, 0, 1, ...Z, ...Z, 0, 0, 0, -1, ...Z]), 'bat.glb');
    expect(err.where).toBe('animations[0].samplers[0].output');
    expect(err.message).toMatch(/cubic rotation between keys 0 and 1 .* passes through the zero quaternion/);
  });

  it('q to -q with a tangent that turns it through 180° is imported', async () => {
    // out-tangent of key 0 along x: the spline runs through (±x, w) combinations, never all zero
    const r = await importGltf(batWithCubicRotation([...Z, 0, 0, 0, 1, 3, 0, 0, 0, ...Z, 0, 0, 0, -1, ...Z]), 'bat.glb');
    expect(r.clips.length).toBe(1);
    expect(r.clips[0].tracks.some((t) => t.path === 'rotation' && t.interpolation === 'cubic')).toBe(true);
  });
});
