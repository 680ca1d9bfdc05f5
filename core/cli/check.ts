/**
 * `impulse check <file> [--clip NAME] [--json] [--fps N] [--no-continuous]`
 *
 * Finds every interpenetration in a clip of a project (.impulse) or a glTF
 * scene (.glb/.gltf: every skin with the meshes bound to it is a character,
 * every other mesh a keyframed prop, the chosen animation plays on all nodes).
 *
 * Exit codes: 0 clean, 1 something interpenetrates, 2 bad input.
 *
 * JSON report (--json), on stdout:
 *   { fps, frames, startFrame, endFrame, clip, warnings: string[],
 *     findings: [{ a: { object, part }, b: { object, part },
 *       kind: 'intersect' | 'tunnel' | 'contain', startFrame, endFrame,
 *       firstContactTime, maxDepth, maxDepthFrame, point: [x,y,z], normal: [x,y,z] }] }
 * Frames count samples at `fps` (default the clip's frame rate). `part` is the
 * joint name (characters) or the prop name. `firstContactTime` is in frames
 * (sub-frame); `maxDepth` in scene units (metres); `normal` points from b into a.
 * `tunnel`: contact only between two frames (found by continuous detection);
 * `contain`: a inside closed b with no surface crossing.
 */
import type { CliIo } from './io';
import { UsageError, inputArg, walkArgs } from './args';
import { loadScene } from './load';
import { checkClip, type CheckReport, type Finding } from '../collision/scene';

export const CHECK_USAGE = `usage: impulse check <file> [options]

Finds every interpenetration in a clip of a project (.impulse) or a glTF
scene (.glb/.gltf): character against character, character against prop,
prop against prop, a character's body parts against each other, and anything
that passes through something between two frames.

options:
  --clip <NAME>       the clip to check (name or id; default: the active clip)
  --fps <N>           samples per second (default: the clip's frame rate)
  --json              print the JSON report instead of the readable one
  --no-continuous     skip the between-frames (continuous) check
  -h, --help          show this help

exit codes: 0 clean, 1 interpenetrations found, 2 bad input
`;

interface Args { input: string; clip?: string; fps?: number; json: boolean; continuous: boolean }

function parseArgs(argv: string[]): Args | 'help' {
  let input: string | undefined, clip: string | undefined, fps: number | undefined;
  let json = false, continuous = true;
  const help = walkArgs(argv, (flag, take, arg) => {
    switch (flag) {
      case '-h': case '--help': return 'help';
      case '--json': json = true; break;
      case '--no-continuous': continuous = false; break;
      case '--clip': clip = take(); break;
      case '--fps': {
        const v = take();
        const n = Number(v);
        if (!/^\s*[0-9.eE+]+\s*$/.test(v) || !(n > 0) || !Number.isFinite(n)) throw new UsageError(`--fps: expected a positive number, got "${v}"`);
        fps = n;
        break;
      }
      default:
        input = inputArg(input, arg);
    }
  });
  if (help === 'help') return 'help';
  if (input === undefined) throw new UsageError('missing input file');
  return { input, clip, fps, json, continuous };
}

const fmt = (x: number, d = 3) => (Object.is(x, -0) ? 0 : x).toFixed(d);
const vec = (v: number[]) => `(${v.map((x) => fmt(x)).join(', ')})`;

function side(s: Finding['a']): string {
  return s.part === s.object ? s.object : `${s.object} / ${s.part}`;
}

/** The readable report. */
export function formatReport(r: CheckReport, input: string): string {
  const lines: string[] = [];
  lines.push(`${input}: clip ${r.clip === null ? '(none)' : `"${r.clip}"`}, ${r.frames} frame${r.frames === 1 ? '' : 's'} (${r.startFrame}–${r.endFrame}) at ${r.fps} fps`);
  if (r.findings.length === 0) lines.push('clean: no interpenetrations');
  else lines.push(`${r.findings.length} interpenetration${r.findings.length === 1 ? '' : 's'}:`);
  r.findings.forEach((f, i) => {
    const frames = f.startFrame === f.endFrame ? `frame ${f.startFrame}` : `frames ${f.startFrame}–${f.endFrame}`;
    const what = f.kind === 'intersect' ? 'intersect' : f.kind === 'tunnel' ? 'pass through between frames' : 'inside';
    lines.push(`${String(i + 1).padStart(3)}. ${side(f.a)}  ×  ${side(f.b)}: ${what}, ${frames}`);
    lines.push(`     first contact at frame ${fmt(f.firstContactTime, 2)}; max depth ${fmt(f.maxDepth, 4)} at frame ${f.maxDepthFrame}`);
    lines.push(`     contact point ${vec(f.point)}, normal ${vec(f.normal)}`);
  });
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n') + '\n';
}

/** The documented JSON report. */
export function jsonReport(r: CheckReport): object {
  return {
    fps: r.fps, frames: r.frames, startFrame: r.startFrame, endFrame: r.endFrame, clip: r.clip, warnings: r.warnings,
    findings: r.findings.map((f) => ({
      a: { object: f.a.object, part: f.a.part }, b: { object: f.b.object, part: f.b.part }, kind: f.kind,
      startFrame: f.startFrame, endFrame: f.endFrame, firstContactTime: f.firstContactTime,
      maxDepth: f.maxDepth, maxDepthFrame: f.maxDepthFrame, point: f.point, normal: f.normal,
    })),
  };
}

function progressBar(done: number, total: number): string {
  const w = 30, k = Math.round((w * done) / total);
  return `\r[${'#'.repeat(k)}${'-'.repeat(w - k)}] ${String(Math.round((100 * done) / total)).padStart(3)}%  frame ${done}/${total}`;
}

export async function runCheck(argv: string[], io: Pick<CliIo, 'stdout' | 'stderr' | 'readFile' | 'isTTY'> & Partial<CliIo>): Promise<number> {
  let args: Args | 'help';
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.stderr(`impulse check: ${(e as Error).message}\n\n${CHECK_USAGE}`);
    return 2;
  }
  if (args === 'help') {
    io.stdout(CHECK_USAGE);
    return 0;
  }
  let report: CheckReport;
  try {
    const { doc, warnings } = await loadScene(args.input, io as CliIo);
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    if (args.clip !== undefined && !doc.clips.some((c) => c.name === args.clip || c.id === args.clip)) {
      const names = doc.clips.map((c) => `"${c.name}"`).join(', ') || 'none';
      throw new UsageError(`no clip named "${args.clip}" in ${args.input} (clips: ${names})`);
    }
    let lastDraw = 0;
    const showProgress = io.isTTY;
    report = await checkClip(doc, { clip: args.clip, fps: args.fps, continuous: args.continuous }, showProgress ? (done, total) => {
      const now = Date.now();
      if (total < 30 || (now - lastDraw < 100 && done < total)) return;
      lastDraw = now;
      io.stderr(progressBar(done, total));
      if (done === total) io.stderr('\n');
    } : undefined);
  } catch (e) {
    io.stderr(`impulse check: ${(e as Error).message}\n`);
    return e instanceof UsageError || (e as Error).name === 'DocumentError' || (e as Error).name === 'GltfImportError' ? 2 : 1;
  }
  if (args.json) io.stdout(JSON.stringify(jsonReport(report), null, 2) + '\n');
  else io.stdout(formatReport(report, args.input));
  return report.findings.length > 0 ? 1 : 0;
}
