/**
 * `impulse bake <file> --out <out.glb> [--clip NAME] [--every-frame]
 *  [--tolerance T | --tolerance POS,ROT,SCALE] [--physics khr|omi]
 *  [--animation-only] [--no-quantize] [--force]`
 *
 * Bakes a project (.impulse) or a glTF file (.glb/.gltf) to a .glb with one
 * animation per clip. Never writes over its input; refuses an existing output
 * unless --force. Progress goes to stderr when it is a terminal.
 *
 * Exit codes: 0 written, 1 not written (the output exists, no such clip, the
 * export failed), 2 bad input (missing, unreadable or malformed file) or usage.
 */
import type { CliIo } from './io';
import { UsageError, inputArg, walkArgs } from './args';
import { InputError, loadScene, outputRefusal } from './load';
import { DEFAULT_TOLERANCES, type Tolerances, bakeClip, bakedKeyCount, pruneStaticChannels, toleranceFor, type BakedClip } from '../bake/bake';
import { type PhysicsExtension, exportGlb } from '../bake/exportGlb';

export const BAKE_USAGE = `usage: impulse bake <file> --out <out.glb> [options]

Bakes every clip (or one) of a project (.impulse) or glTF file (.glb/.gltf)
to a glTF 2.0 .glb: meshes, skins, materials and one animation per clip.

options:
  --out <out.glb>       output file (required; never the input file)
  --clip <NAME>         bake only the clip with this name (or id)
  --every-frame         one key per frame instead of reduced (sparse) keys
  --tolerance <T>       key reduction tolerance: T for all channels, or
                        POS,ROT,SCALE (metres, radians, scale units);
                        default ${DEFAULT_TOLERANCES.translation},${DEFAULT_TOLERANCES.rotationRad},${DEFAULT_TOLERANCES.scale}
  --physics <khr|omi>   write prop physics (mass, friction, restitution, kinematic
                        or dynamic) as KHR_physics_rigid_bodies or OMI_physics_body
  --animation-only      nodes, skins and animations only (no meshes or
                        materials), to re-target clips onto a rig that is
                        already in the engine
  --no-quantize         float32 vertex data instead of KHR_mesh_quantization
                        (int16 positions, int8 normals, uint8 weights; read
                        by three.js, Blender 2.83+, Unity glTFast, Godot 4)
  --force               overwrite an existing output file
  -h, --help            show this help

exit codes: 0 written, 1 not written (output exists, no such clip, export
failed), 2 bad input or usage
`;

interface BakeArgs {
  input: string;
  out: string;
  clip?: string;
  everyFrame: boolean;
  tolerance: Tolerances;
  physics: PhysicsExtension;
  animationOnly: boolean;
  quantize: boolean;
  force: boolean;
}

function parseTolerance(text: string): Tolerances {
  const parts = text.split(',').map((s) => s.trim());
  const nums = parts.map(Number);
  if (!(parts.length === 1 || parts.length === 3) || nums.some((x, i) => parts[i] === '' || !Number.isFinite(x) || x <= 0))
    throw new UsageError(`--tolerance: expected one positive number or three (POS,ROT,SCALE), got "${text}"`);
  return parts.length === 1
    ? { translation: nums[0], rotationRad: nums[0], scale: nums[0] }
    : { translation: nums[0], rotationRad: nums[1], scale: nums[2] };
}

function parseArgs(argv: string[]): BakeArgs | 'help' {
  let input: string | undefined, out: string | undefined, clip: string | undefined;
  let everyFrame = false, force = false, animationOnly = false, quantize = true;
  let tolerance: Tolerances = { ...DEFAULT_TOLERANCES };
  let physics: PhysicsExtension = 'none';
  const help = walkArgs(argv, (flag, take, arg) => {
    switch (flag) {
      case '-h':
      case '--help':
        return 'help';
      case '--out':
      case '-o':
        out = take();
        break;
      case '--clip':
        clip = take();
        break;
      case '--every-frame':
        everyFrame = true;
        break;
      case '--force':
        force = true;
        break;
      case '--animation-only':
        animationOnly = true;
        break;
      case '--no-quantize':
        quantize = false;
        break;
      case '--tolerance':
        tolerance = parseTolerance(take());
        break;
      case '--physics': {
        const p = take();
        if (p !== 'khr' && p !== 'omi' && p !== 'none') throw new UsageError(`--physics: expected khr or omi, got "${p}"`);
        physics = p;
        break;
      }
      default:
        input = inputArg(input, arg);
    }
  });
  if (help === 'help') return 'help';
  if (input === undefined) throw new UsageError('missing input file');
  if (out === undefined) throw new UsageError('missing --out <out.glb>');
  if (!/\.glb$/i.test(out)) throw new UsageError(`--out: the output is a binary glTF and must end in .glb, got "${out}"`);
  if (animationOnly && physics !== 'none') throw new UsageError('--physics needs the prop meshes (colliders); it cannot be combined with --animation-only');
  return { input, out, clip, everyFrame, tolerance, physics, animationOnly, quantize, force };
}

function describeClip(c: BakedClip): string {
  return `"${c.name}" (${c.endFrame - c.startFrame + 1} frames at ${c.frameRate} fps): ${c.channels.length} channels, ${bakedKeyCount(c)} keys`;
}

export async function runBake(argv: string[], io: CliIo): Promise<number> {
  let args: BakeArgs | 'help';
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`impulse bake: ${e.message}\n\n${BAKE_USAGE}`);
      return 2;
    }
    throw e;
  }
  if (args === 'help') {
    io.stdout(BAKE_USAGE);
    return 0;
  }
  const { input, out } = args;
  try {
    const refusal = await outputRefusal(io, input, out, args.force);
    if (refusal) {
      io.stderr(`impulse bake: ${refusal.message}\n`);
      return refusal.code;
    }
    const { doc, warnings } = await loadScene(input, io);
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    if (doc.characters.length === 0 && doc.props.length === 0) throw new InputError(`${input}: props: the scene has no characters and no props; nothing to bake`);
    let clips = doc.clips;
    if (args.clip !== undefined) {
      const wanted = args.clip;
      clips = doc.clips.filter((c) => c.name === wanted);
      if (clips.length === 0) clips = doc.clips.filter((c) => c.id === wanted);
      if (clips.length === 0) {
        const names = doc.clips.map((c) => `"${c.name}"`).join(', ') || 'none';
        io.stderr(`impulse bake: no clip named "${wanted}" in ${input} (clips: ${names})\n`);
        return 1;
      }
      if (clips.length > 1) {
        io.stderr(`impulse bake: ${clips.length} clips are named "${wanted}" in ${input}; pass the clip id instead (${clips.map((c) => c.id).join(', ')})\n`);
        return 1;
      }
    }
    const mode = args.everyFrame ? 'every-frame' : 'sparse';
    const all: BakedClip[] = [];
    const t0 = Date.now();
    clips.forEach((clip, i) => {
      if (io.isTTY) io.stderr(`\r\x1b[Kbaking clip ${i + 1}/${clips.length} "${clip.name}"...`);
      all.push(bakeClip(doc, clip.id, { mode, tolerance: args.tolerance }));
    });
    // What gets written: channels some clip animates (see pruneStaticChannels).
    const baked = pruneStaticChannels(all);
    for (const c of baked) {
      const over = c.channels.filter((ch) => ch.maxError > toleranceFor(ch.path, c.tolerance));
      if (over.length > 0) {
        const worst = over.reduce((a, b) => (b.maxError > a.maxError ? b : a));
        if (io.isTTY) io.stderr('\r\x1b[K');
        io.stderr(`warning: clip "${c.name}": ${over.length} channel(s) could not be reduced within tolerance (worst: ${worst.path} of ${worst.target.kind} ${worst.target.kind === 'joint' ? `${doc.characters[worst.target.character].skeleton.joints[worst.target.joint].name}` : doc.props[worst.target.prop].name}, error ${worst.maxError.toExponential(2)}); written with the closest keys found\n`);
      }
    }
    if (io.isTTY) io.stderr(`\r\x1b[Kwriting ${out}...`);
    const glb = await exportGlb(doc, { baked, physics: args.physics, includeMeshes: !args.animationOnly, quantize: args.quantize, generator: 'Impulse (impulse bake)' });
    await io.writeFile(out, glb);
    if (io.isTTY) io.stderr('\r\x1b[K');
    const tol = args.tolerance;
    io.stdout(
      `wrote ${out} (${glb.byteLength} bytes, ${Date.now() - t0} ms, ${mode}${args.animationOnly ? ', animation only' : args.quantize ? ', KHR_mesh_quantization' : ', float32 meshes'}` +
        (mode === 'sparse' ? `, tolerance ${tol.translation} m / ${tol.rotationRad} rad / ${tol.scale}` : '') +
        `)\n` +
        (baked.length === 0 ? '  no clips: meshes and rest pose only\n' : baked.map((c) => `  clip ${describeClip(c)}\n`).join('')),
    );
    return 0;
  } catch (e) {
    if (io.isTTY) io.stderr('\r\x1b[K');
    if (e instanceof UsageError) {
      io.stderr(`impulse bake: ${e.message}\n`);
      return 2;
    }
    const err = e as Error;
    io.stderr(`impulse bake: ${input}: ${err?.message ?? String(e)}\n`);
    return 1;
  }
}
