/**
 * `impulse suggest <file> --dynamic NAME[,NAME] [--from F] [--to F] [--clip NAME]
 *  [--out out.glb|project.impulse] [--json] [--step-hz N] [--tolerance POS,ROT] [--force]`
 *
 * Simulates the named props / characters from frame F over the clip (the
 * keyframed objects drive them as infinite masses), writes the suggested keys
 * into a copy of the scene (never over the input) and prints a summary of
 * the impacts found (JSON with --json).
 *
 * Exit codes: 0 done, 1 not done (the output exists, no such clip, the
 * simulation failed), 2 bad input (missing, unreadable or malformed file) or usage.
 */
import type { CliIo } from './io';
import { UsageError, inputArg, walkArgs } from './args';
import { serializeDocument } from '../document/serialize';
import { checkDynamicProps, loadScene, outputRefusal } from './load';
import { bakeClip } from '../bake/bake';
import { exportGlb } from '../bake/exportGlb';
import { applySuggestion, suggestMotion, type Suggestion } from '../sim/suggest';

export const SUGGEST_USAGE = `usage: impulse suggest <file> --dynamic NAME[,NAME] [options]

Suggests post-impact motion: the named props and characters become dynamic
(characters become ragdolls) from --from on; keyframed objects hit them with
infinite mass. Writes the suggested keys into a copy of the scene and prints
the impacts found.

options:
  --dynamic <NAMES>     comma-separated prop / character names or ids (required)
  --from <F>            first simulated frame (default: the clip's start)
  --to <F>              last simulated frame (default: the clip's end)
  --clip <NAME>         clip name or id (default: the project's active clip)
  --out <FILE>          write the scene with the suggested keys: .impulse (project)
                        or .glb (baked glTF); never the input file
  --json                print the summary (impacts, keys, stats) as JSON
  --step-hz <N>         simulation step rate (default 240)
  --tolerance <P,R>     key reduction tolerance, metres and radians (default 0.001,0.002)
  --force               overwrite an existing output file
  -h, --help            show this help

exit codes: 0 done, 1 not done (output exists, no such clip, simulation
failed), 2 bad input or usage
`;

interface SuggestArgs {
  input: string;
  dynamic: string[];
  from?: number;
  to?: number;
  clip?: string;
  out?: string;
  json: boolean;
  stepHz?: number;
  posTol?: number;
  angTol?: number;
  force: boolean;
}

function num(text: string, flag: string): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new UsageError(`${flag}: expected a number, got "${text}"`);
  return v;
}

function parseArgs(argv: string[]): SuggestArgs | 'help' {
  const a: SuggestArgs = { input: '', dynamic: [], json: false, force: false };
  let input: string | undefined;
  const help = walkArgs(argv, (flag, take, arg) => {
    switch (flag) {
      case '-h':
      case '--help':
        return 'help';
      case '--dynamic':
        a.dynamic.push(...take().split(',').map((s) => s.trim()).filter((s) => s.length > 0));
        break;
      case '--from':
        a.from = num(take(), flag);
        break;
      case '--to':
        a.to = num(take(), flag);
        break;
      case '--clip':
        a.clip = take();
        break;
      case '--out':
      case '-o':
        a.out = take();
        break;
      case '--json':
        a.json = true;
        break;
      case '--force':
        a.force = true;
        break;
      case '--step-hz':
        a.stepHz = num(take(), flag);
        if (!(a.stepHz > 0)) throw new UsageError(`--step-hz: must be > 0`);
        break;
      case '--tolerance': {
        const parts = take().split(',');
        if (parts.length !== 2) throw new UsageError('--tolerance: expected POS,ROT (metres, radians)');
        a.posTol = num(parts[0], flag);
        a.angTol = num(parts[1], flag);
        if (!(a.posTol > 0 && a.angTol > 0)) throw new UsageError('--tolerance: both values must be > 0');
        break;
      }
      default:
        input = inputArg(input, arg);
    }
  });
  if (help) return 'help';
  if (input === undefined) throw new UsageError('missing input file');
  if (a.dynamic.length === 0) throw new UsageError('missing --dynamic NAME[,NAME]');
  if (a.out !== undefined && !/\.(glb|impulse)$/i.test(a.out)) throw new UsageError(`--out: expected a .glb or .impulse file, got "${a.out}"`);
  a.input = input;
  return a;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const v6 = (v: ArrayLike<number>) => Array.from(v, r6);

/** The JSON summary of a suggestion (impacts rounded to micro-units). */
export function suggestionSummary(s: Suggestion, input: string, out: string | null): object {
  return {
    input,
    output: out,
    clip: s.clipId,
    fromFrame: s.fromFrame,
    toFrame: s.toFrame,
    objects: s.objects,
    impacts: s.impacts.map((i) => ({
      timeSec: r6(i.timeSec),
      frame: r6(i.frame),
      objects: i.objects,
      parts: i.parts,
      point: v6(i.point),
      normal: v6(i.normal),
      impulse: v6(i.impulse),
      preVelocity: v6(i.preVelocity),
      postVelocity: v6(i.postVelocity),
      approachSpeed: r6(i.approachSpeed),
    })),
    tracks: s.tracks.map((t) => ({ target: t.target, path: t.path, interpolation: t.interpolation, keys: t.times.length })),
    stats: { ...s.stats },
  };
}

export async function runSuggest(argv: string[], io: CliIo): Promise<number> {
  let args: SuggestArgs | 'help';
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`impulse suggest: ${e.message}\n\n${SUGGEST_USAGE}`);
      return 2;
    }
    throw e;
  }
  if (args === 'help') {
    io.stdout(SUGGEST_USAGE);
    return 0;
  }
  const { input, out } = args;
  try {
    const refusal = out === undefined ? null : await outputRefusal(io, input, out, args.force);
    if (refusal) {
      io.stderr(`impulse suggest: ${refusal.message}\n`);
      return refusal.code;
    }
    const { doc, warnings } = await loadScene(input, io);
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    checkDynamicProps(doc, args.dynamic, input);
    const clipKey = args.clip ?? doc.activeClip;
    const clip = doc.clips.find((c) => c.id === clipKey) ?? doc.clips.find((c) => c.name === clipKey);
    if (!clip) {
      if (doc.clips.length === 0) io.stderr(`impulse suggest: ${input} has no clips (no animation to simulate along)\n`);
      else io.stderr(`impulse suggest: no clip "${clipKey}" in ${input} (clips: ${doc.clips.map((c) => `"${c.name}"`).join(', ')})\n`);
      return 1;
    }
    const fromFrame = args.from ?? clip.startFrame;
    const toFrame = args.to ?? clip.endFrame;
    const t0 = Date.now();
    const s = suggestMotion(
      doc,
      { dynamic: args.dynamic, fromFrame, toFrame, clipId: clip.id, stepHz: args.stepHz, positionTolerance: args.posTol, angleTolerance: args.angTol },
      io.isTTY ? (f) => io.stderr(`\r\x1b[Ksimulating ${(100 * f).toFixed(0)}%`) : undefined,
    );
    if (io.isTTY) io.stderr('\r\x1b[K');
    if (out !== undefined) {
      const applied = applySuggestion(doc, s);
      if (/\.impulse$/i.test(out)) await io.writeFile(out, serializeDocument(applied));
      else {
        const baked = bakeClip(applied, clip.id, { mode: 'sparse' });
        await io.writeFile(out, await exportGlb(applied, { baked: [baked], generator: 'Impulse (impulse suggest)' }));
      }
    }
    if (args.json) io.stdout(JSON.stringify(suggestionSummary(s, input, out ?? null), null, 2) + '\n');
    else {
      io.stdout(
        `simulated ${s.objects.join(', ')} over frames ${fromFrame}..${toFrame} of "${clip.name}" in ${Date.now() - t0} ms: ` +
          `${s.impacts.length} impact(s), ${s.stats.keys} keys (${s.stats.denseKeys} frame samples)\n`,
      );
      for (const i of s.impacts)
        io.stdout(
          `  frame ${i.frame.toFixed(2)}: ${i.objects[0]}${i.parts[0] ? `.${i.parts[0]}` : ''} × ${i.objects[1]}${i.parts[1] ? `.${i.parts[1]}` : ''}` +
            ` approach ${i.approachSpeed.toFixed(3)} m/s, |J| ${Math.hypot(...i.impulse).toFixed(4)} N·s,` +
            ` v ${v6(i.preVelocity).map((x) => x.toFixed(3)).join(',')} -> ${v6(i.postVelocity).map((x) => x.toFixed(3)).join(',')}\n`,
        );
      if (out !== undefined) io.stdout(`wrote ${out}\n`);
    }
    return 0;
  } catch (e) {
    if (io.isTTY) io.stderr('\r\x1b[K');
    if (e instanceof UsageError) {
      io.stderr(`impulse suggest: ${e.message}\n`);
      return 2;
    }
    io.stderr(`impulse suggest: ${input}: ${(e as Error)?.message ?? String(e)}\n`);
    return 1;
  }
}
