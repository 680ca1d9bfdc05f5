/*
 * Response solver benchmark: a chain of n links joined by ball joints, the
 * last link struck against the ground (one Coulomb contact), solved by the
 * sparse tree solver and, for comparison in the same process, by the dense
 * Gaussian elimination of the whole 9n system (the paper's formulation).
 *
 *   npx tsx core/bench/response.bench.ts            # default sizes
 *   npx tsx core/bench/response.bench.ts 2 20 200   # chosen sizes
 *
 * `responseBenchRows(sizes)` returns the rows for a combined bench runner.
 */
import { pathToFileURL } from 'node:url';
import { ImpulseSolution, ImpulseSolver } from '../response';
import type { ContactInput } from '../response';
import { makeChain, seededRandom, v3 } from '../response/fixtures';

export interface ResponseBenchRow {
  bodies: number;
  /** CPU time of one sparse solve, ms (best of samples). */
  sparseMs: number;
  /** Sparse time per body, µs (flat when the cost is linear). */
  sparseUsPerBody: number;
  /** CPU time of one dense solve, ms (NaN when skipped as too slow). */
  denseMs: number;
  /** denseMs / sparseMs. */
  ratio: number;
  /** Largest velocity difference between the two solves (m/s or rad/s). */
  maxDiff: number;
}

/**
 * CPU time of one call, ms: best of `samples` samples of `reps` calls each,
 * measured with process.cpuUsage so that waiting for a core on a shared,
 * loaded machine does not count (noise only ever adds time, hence the best).
 */
function timeSolves(fn: () => void, reps: number, samples: number): number {
  for (let i = 0; i < reps; i++) fn(); // warm-up (JIT)
  let bestUs = Infinity;
  for (let k = 0; k < samples; k++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < reps; i++) fn();
    const c = process.cpuUsage(c0);
    bestUs = Math.min(bestUs, (c.user + c.system) / reps);
  }
  return bestUs / 1000;
}

export function responseBenchRows(sizes: readonly number[], denseLimit = 200): ResponseBenchRow[] {
  const rows: ResponseBenchRow[] = [];
  const solver = new ImpulseSolver();
  const sparseOut = new ImpulseSolution();
  const denseOut = new ImpulseSolution();
  for (const n of sizes) {
    const { bodies, joints } = makeChain(n, seededRandom(n));
    const last = bodies[n - 1].centerOfMass;
    const contacts: ContactInput[] = [{ bodyA: n - 1, bodyB: -1, point: v3(last.x + 0.1, last.y - 0.05, last.z), normal: v3(0, 1, 0), restitution: 0.5, friction: 0.4 }];
    // make sure the contact approaches
    bodies[n - 1].linearVelocity = v3(0.3, -2, 0.1);
    const sparseMs = timeSolves(() => solver.solve(bodies, joints, contacts, {}, sparseOut), Math.ceil(20000 / n), 10);
    let denseMs = NaN, maxDiff = NaN;
    if (n <= denseLimit) {
      denseMs = timeSolves(() => solver.solve(bodies, joints, contacts, { linearSolver: 'dense' }, denseOut), n > 60 ? 1 : Math.ceil(200 / n), n > 60 ? 1 : 5);
      maxDiff = 0;
      for (let k = 0; k < 3 * n; k++)
        maxDiff = Math.max(maxDiff, Math.abs(sparseOut.linearVelocity[k] - denseOut.linearVelocity[k]), Math.abs(sparseOut.angularVelocity[k] - denseOut.angularVelocity[k]));
    }
    rows.push({ bodies: n, sparseMs, sparseUsPerBody: (sparseMs * 1000) / n, denseMs, ratio: denseMs / sparseMs, maxDiff });
  }
  return rows;
}

export function formatResponseBench(rows: readonly ResponseBenchRow[]): string {
  const head = 'response solve, chain + 1 Coulomb contact (CPU time, best of samples)  bodies | sparse ms | µs/body | dense ms | dense/sparse | max |Δv|';
  const lines = rows.map((r) =>
    [
      String(r.bodies).padStart(72),
      r.sparseMs.toFixed(4).padStart(9),
      r.sparseUsPerBody.toFixed(2).padStart(7),
      (Number.isNaN(r.denseMs) ? 'skipped' : r.denseMs.toFixed(2)).padStart(8),
      (Number.isNaN(r.ratio) ? '-' : r.ratio.toFixed(0) + '×').padStart(12),
      (Number.isNaN(r.maxDiff) ? '-' : r.maxDiff.toExponential(1)).padStart(9),
    ].join(' | '),
  );
  return [head, ...lines].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2).map(Number).filter((x) => x >= 2);
  const sizes = args.length ? args : [2, 15, 20, 30, 60, 120, 200, 1000];
  console.log(formatResponseBench(responseBenchRows(sizes)));
}
