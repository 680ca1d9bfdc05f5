/**
 * Generates the licence-clean sample assets (CC0, made entirely by this
 * script): the mannequin, four props and the sample project.
 *
 *   npx tsx scripts/make-assets.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mannequinGlb, propGlb, propSpecs } from './assets/writeGltf';
import { buildSample } from './assets/sample';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function write(rel: string, data: Uint8Array | string): void {
  const path = join(ROOT, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  console.log(`${rel}  ${(size / 1024).toFixed(1)} KiB`);
}

async function main(): Promise<void> {
  const files: Record<string, Uint8Array> = {};
  files['mannequin.glb'] = await mannequinGlb();
  write('assets/characters/mannequin.glb', files['mannequin.glb']);
  for (const spec of propSpecs()) {
    const name = `${spec.name.toLowerCase()}.glb`;
    files[name] = await propGlb(spec);
    write(`assets/props/${name}`, files[name]);
  }
  const sample = await buildSample(files);
  write('assets/sample/bat-and-ball.impulse', sample.text);
  console.log(sample.summary);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
