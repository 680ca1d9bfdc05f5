/*
 * Response solver benchmark: large redundant contact sets (a ragdoll lying on
 * the ground, a box flat on a plane), then a chain of n links joined by ball joints, the
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
import type { ContactInput, RigidBodyInput, SolveOptions } from '../response';
import type { JointInput } from '../response';
import { makeBoxOnPlane, makeChain, makeLyingRagdoll, seededRandom, v3 } from '../response/fixtures';

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
  // a slow case (one call over 50 ms) is timed once, after one warm-up call
  const c00 = process.cpuUsage();
  fn();
  const first = process.cpuUsage(c00);
  if ((first.user + first.system) / 1000 > 50) {
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  }
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

export interface ContactBenchRow {
  scene: string;
  bodies: number;
  contacts: number;
  friction: string;
  /** CPU time of one solve, ms (best of samples). */
  ms: number;
  /** Linear solves inside the call (`ImpulseSolution.iterations`). */
  iterations: number;
  /** Final contact states: stick / slide / frictionless / separated. */
  states: string;
  /** Largest pulling normal impulse / largest normal impulse (0 = none pulls). */
  pull: number;
  /** Kinetic energy after / before. */
  energyRatio: number;
}

/**
 * Large redundant contact sets: a 20-part ragdoll (19 ball joints) lying on
 * the ground with 2 or 4 contacts per part (40 or 80, collinear or coplanar
 * per part), landing (ε = 0.3, 0.5 m/s, drift and spin) or resting (ε = 0,
 * the approach of one 240 Hz step of gravity) or landing with ε 0 or 0.3 per
 * contact (contradictory equations), and a box landing flat on 4 coplanar
 * corners; frictionless and Coulomb (γ = 0.5).
 */
export function contactBenchRows(): ContactBenchRow[] {
  const rows: ContactBenchRow[] = [];
  const solver = new ImpulseSolver();
  const out = new ImpulseSolution();
  const scenes: Array<{ scene: string; bodies: RigidBodyInput[]; joints: ReturnType<typeof makeLyingRagdoll>['joints']; contacts: ContactInput[] }> = [];
  const jointsOnly = (b: RigidBodyInput[], j: ReturnType<typeof makeLyingRagdoll>['joints']) => new ImpulseSolver().solve(b, j, []);
  for (const k of [2, 4] as const) {
    const r = makeLyingRagdoll(seededRandom(20 + k), k, { restitution: 0.3, friction: 0.5, solveJoints: jointsOnly });
    scenes.push({ scene: 'ragdoll landing flat, 0.5 m/s', ...r });
  }
  for (const k of [2, 4] as const) {
    // as in a simulation step once the ragdoll lies still: gravity·dt of approach, little drift
    const r = makeLyingRagdoll(seededRandom(40 + k), k, { restitution: 0, friction: 0.5, approachMps: 0.04, driftMps: 0.01, spinRadPerSec: 0.02, solveJoints: jointsOnly });
    scenes.push({ scene: 'ragdoll resting (ε = 0, 4 cm/s)', ...r });
  }
  {
    // ε per contact, 0 or 0.3 at random (a restitution threshold on the approach speed does
    // this): jointed parts pinned by contacts with different ε make the equations contradict
    // each other, and the solve falls back to the least-squares contact Schur complement
    const r = makeLyingRagdoll(seededRandom(24), 4, { restitution: 0.3, friction: 0.5, solveJoints: jointsOnly });
    const rand = seededRandom(99);
    for (const c of r.contacts) c.restitution = rand() < 0.5 ? 0 : 0.3;
    scenes.push({ scene: 'ragdoll landing, ε 0 or 0.3 per contact', ...r });
  }
  const box = makeBoxOnPlane(0.3, 0.1, 0.2, -2, 0.3, 0.5);
  scenes.push({ scene: 'box flat on plane', bodies: box.bodies, joints: [], contacts: box.contacts });
  for (const sc of scenes)
    for (const friction of ['frictionless', 'coulomb'] as const) {
      const opts: SolveOptions = { friction };
      const ms = timeSolves(() => solver.solve(sc.bodies, sc.joints, sc.contacts, opts, out), 20, 5);
      const counts = [0, 0, 0, 0, 0];
      let maxN = 0, minN = 0;
      for (let c = 0; c < out.contactCount; c++) {
        counts[out.contactState[c]]++;
        const n = out.contactImpulse[3 * c + 1]; // every normal here is +y
        maxN = Math.max(maxN, n);
        minN = Math.min(minN, n);
      }
      rows.push({
        scene: sc.scene,
        bodies: sc.bodies.length,
        contacts: sc.contacts.length,
        friction,
        ms,
        iterations: out.iterations,
        states: `${counts[1]}/${counts[2]}/${counts[0]}/${counts[3]}`,
        pull: maxN > 0 ? -minN / maxN : 0,
        energyRatio: out.kineticEnergyAfter / out.kineticEnergyBefore,
      });
    }
  return rows;
}

export function formatContactBench(rows: readonly ContactBenchRow[]): string {
  const head = 'response solve, many contacts (CPU time, best of samples)  scene | bodies | contacts | friction | ms | solves | stick/slide/frictionless/separated | max pull | E after/before';
  const lines = rows.map((r) =>
    [
      r.scene.padStart(59),
      String(r.bodies).padStart(6),
      String(r.contacts).padStart(8),
      r.friction.padStart(12),
      r.ms.toFixed(3).padStart(8),
      String(r.iterations).padStart(6),
      r.states.padStart(12),
      r.pull.toExponential(1).padStart(8),
      r.energyRatio.toFixed(4).padStart(6),
    ].join(' | '),
  );
  return [head, ...lines].join('\n');
}

export interface IslandBenchRow {
  contacts: number;
  mode: string;
  /** CPU time per solve over the sequence, ms. */
  msPerSolve: number;
  /** Mean linear solves per call. */
  iterations: number;
  /** Largest velocity difference from the cold solves of the same sequence (m/s or rad/s). */
  maxDiff: number;
}

/**
 * The simulator's ragdoll island: 20 bodies, 19 ball joints, 40–60 Coulomb
 * ground contacts (2 or 3 per part), solved once per 240 Hz sub-step while the
 * ragdoll settles: each solve's velocities plus one step of gravity are the
 * next solve's input; positions stay (they barely move between sub-steps).
 * Cold: every solve from scratch; warm: `warmStart: true` (contact states
 * from the previous solve of the same island).
 */
export function islandBenchRows(steps = 48): IslandBenchRow[] {
  const rows: IslandBenchRow[] = [];
  const jointsOnly = (b: RigidBodyInput[], j: ReturnType<typeof makeLyingRagdoll>['joints']) => new ImpulseSolver().solve(b, j, []);
  for (const perPart of [2, 2.5, 3]) {
    const r = makeLyingRagdoll(seededRandom(700 + 2 * perPart), 4, { restitution: 0, friction: 0.5, approachMps: 0.3, driftMps: 0.1, spinRadPerSec: 0.3, solveJoints: jointsOnly });
    // 4 corners per part → keep 2 (diagonal) or 3 per part (alternating for 2.5)
    const keep = r.contacts.filter((_, i) => {
      const part = i >> 2, q = i & 3;
      const k = perPart === 2 ? 2 : perPart === 3 ? 3 : part % 2 ? 3 : 2;
      return k === 2 ? q === 0 || q === 3 : q !== 3;
    });
    // one trajectory (the cold solves'); the warm solver sees the same inputs in the same order
    const cold = new ImpulseSolver(), warm = new ImpulseSolver();
    const outC = new ImpulseSolution(), outW = new ImpulseSolution();
    const run = () => {
      const bodies = r.bodies.map((b) => ({ ...b, linearVelocity: { ...b.linearVelocity }, angularVelocity: { ...b.angularVelocity } }));
      let cpuC = 0, cpuW = 0, itC = 0, itW = 0, maxDiff = 0;
      for (let k = 0; k < steps; k++) {
        let c0 = process.cpuUsage();
        cold.solve(bodies, r.joints, keep, {}, outC);
        let c = process.cpuUsage(c0);
        cpuC += c.user + c.system;
        c0 = process.cpuUsage();
        warm.solve(bodies, r.joints, keep, { warmStart: true }, outW);
        c = process.cpuUsage(c0);
        cpuW += c.user + c.system;
        itC += outC.iterations;
        itW += outW.iterations;
        for (let q = 0; q < outC.linearVelocity.length; q++)
          maxDiff = Math.max(maxDiff, Math.abs(outC.linearVelocity[q] - outW.linearVelocity[q]), Math.abs(outC.angularVelocity[q] - outW.angularVelocity[q]));
        for (let i = 0; i < bodies.length; i++) {
          bodies[i].linearVelocity = v3(outC.linearVelocity[3 * i], outC.linearVelocity[3 * i + 1] - 9.81 / 240, outC.linearVelocity[3 * i + 2]);
          bodies[i].angularVelocity = v3(outC.angularVelocity[3 * i], outC.angularVelocity[3 * i + 1], outC.angularVelocity[3 * i + 2]);
        }
      }
      return { cpuC, cpuW, itC, itW, maxDiff };
    };
    run(); // JIT warm-up
    let best = run();
    for (let k = 0; k < 4; k++) {
      // best of 5 (noise on a shared machine only adds time)
      const b = run();
      best = { ...best, cpuC: Math.min(best.cpuC, b.cpuC), cpuW: Math.min(best.cpuW, b.cpuW) };
    }
    rows.push({ contacts: keep.length, mode: 'cold', msPerSolve: best.cpuC / 1000 / steps, iterations: best.itC / steps, maxDiff: 0 });
    rows.push({ contacts: keep.length, mode: 'warm', msPerSolve: best.cpuW / 1000 / steps, iterations: best.itW / steps, maxDiff: best.maxDiff });
  }
  return rows;
}

export function formatIslandBench(rows: readonly IslandBenchRow[]): string {
  const head = 'response solve, the sim ragdoll island settling (20 bodies, 19 joints, Coulomb, 48 sub-steps at 240 Hz)  contacts | mode | ms/solve | solves/call | max |Δv| vs cold';
  const lines = rows.map((r) =>
    [String(r.contacts).padStart(104), r.mode.padStart(4), r.msPerSolve.toFixed(3).padStart(8), r.iterations.toFixed(2).padStart(11), r.maxDiff.toExponential(1).padStart(9)].join(' | '),
  );
  return [head, ...lines].join('\n');
}

/** One solve call as the simulator made it (deep copies of its inputs). */
export interface RecordedSolve {
  bodies: RigidBodyInput[];
  joints: JointInput[];
  contacts: ContactInput[];
  options: SolveOptions;
}

const copy3 = (v: { x: number; y: number; z: number }) => ({ x: v.x, y: v.y, z: v.z });

/**
 * Records every `ImpulseSolver.solve` call of the simulator on the sim
 * bench scene (`benchScene()`, full suggestion: 10 props + ragdoll), by
 * wrapping the prototype method for the duration of one suggestion. The
 * scene and the simulator are deterministic, so this is a replayable set.
 * Each call's options carry the solver's own `slidingFriction` (the
 * simulator's is 'coulomb'; a replay on a fresh solver would otherwise use
 * 'paper' and skip the Coulomb layer, ~31% of a ragdoll solve).
 */
export async function recordSimSolves(): Promise<RecordedSolve[]> {
  const { benchScene } = await import('./sim.bench');
  const { suggestMotion } = await import('../sim/suggest');
  const doc = await benchScene();
  const rec: RecordedSolve[] = [];
  const proto = ImpulseSolver.prototype;
  const orig = proto.solve;
  proto.solve = function (this: ImpulseSolver, bodies, joints, contacts, options = {}, out) {
    rec.push({
      bodies: bodies.map((b) => ({ ...b, inertia: Array.from(b.inertia), centerOfMass: copy3(b.centerOfMass), linearVelocity: copy3(b.linearVelocity), angularVelocity: copy3(b.angularVelocity) })),
      joints: joints.map((j) => ({ ...j, point: copy3(j.point), ...('axis' in j ? { axis: copy3(j.axis) } : {}), ...('normal' in j ? { normal: copy3(j.normal) } : {}) }) as JointInput),
      contacts: contacts.map((c) => ({ ...c, point: copy3(c.point), normal: copy3(c.normal) })),
      // the simulator sets its sliding rule on the solver ('coulomb'), not per call: the replay must carry it
      options: { slidingFriction: this.slidingFriction, ...options },
    });
    return orig.call(this, bodies, joints, contacts, options, out);
  };
  try {
    suggestMotion(doc, { dynamic: [...doc.props.map((p) => p.id), 'ragdoll'], fromFrame: 0, toFrame: 60 });
  } finally {
    proto.solve = orig;
  }
  return rec;
}

export interface RecordedBenchRow {
  solves: number;
  /** CPU time of all solves, ms (best of samples). */
  totalMs: number;
  /** Mean linear solves per call. */
  solvesPerCall: number;
  /** Slowest single call, ms, with its linear solves, bodies and contacts. */
  worstMs: number;
  worstLinear: number;
  worstBodies: number;
  worstContacts: number;
  /** Calls over 10 ms. */
  over10: number;
}

/**
 * Replays recorded solves with one solver (as the simulator has one).
 * `contactSpace: false` replays them with the compressed tree-built Schur
 * complement every pass (the solver before the contact-space solve), for the
 * ratio in the same process.
 */
export function recordedBenchRow(rec: readonly RecordedSolve[], samples = 3, contactSpace = true): RecordedBenchRow {
  const solver = new ImpulseSolver(), out = new ImpulseSolution();
  solver.contactSpace = contactSpace;
  const per = new Float64Array(rec.length).fill(Infinity);
  const lin = new Int32Array(rec.length);
  let totalMs = Infinity;
  for (let s = 0; s < samples + 1; s++) {
    let tot = 0;
    for (let i = 0; i < rec.length; i++) {
      const r = rec[i];
      const l0 = solver.linearSolves;
      const t0 = performance.now();
      solver.solve(r.bodies, r.joints, r.contacts, r.options, out);
      const dt = performance.now() - t0;
      lin[i] = solver.linearSolves - l0;
      tot += dt;
      if (s > 0) per[i] = Math.min(per[i], dt);
    }
    if (s > 0) totalMs = Math.min(totalMs, tot);
  }
  let worst = 0, linSum = 0, over10 = 0;
  for (let i = 0; i < rec.length; i++) {
    linSum += lin[i];
    if (per[i] > per[worst]) worst = i;
    if (per[i] > 10) over10++;
  }
  return {
    solves: rec.length,
    totalMs,
    solvesPerCall: linSum / Math.max(1, rec.length),
    worstMs: rec.length ? per[worst] : 0,
    worstLinear: rec.length ? lin[worst] : 0,
    worstBodies: rec.length ? rec[worst].bodies.length : 0,
    worstContacts: rec.length ? rec[worst].contacts.length : 0,
    over10,
  };
}

/**
 * How the contact-space passes of the recorded calls change from one pass to the
 * next (one replay, fresh solver): what an incremental factorization of the
 * pass's system could save. A pass whose rows mostly differ from the pass before
 * (a contact's three rows become one when it slides, Poisson phases reset the
 * states) gains nothing from O(k²) updates per changed row against one O(k³)
 * factorization; the first pass of a tree factorization has nothing to update.
 */
export function contactSpacePassRow(rec: readonly RecordedSolve[]): string {
  const solver = new ImpulseSolver(), out = new ImpulseSolution();
  for (const r of rec) solver.solve(r.bodies, r.joints, r.contacts, r.options, out);
  const st = solver.contactSpaceStats, later = Math.max(1, st.passes - st.firstPasses);
  const row = (label: string, value: string) => `${label.padEnd(60)} ${value.padStart(10)}`;
  return [
    `contact-space passes of the recorded sim solves (one replay)`,
    row('  passes (first of their tree factorization)', `${st.passes} (${st.firstPasses})`),
    row('  mean rows k per pass', (st.rows / Math.max(1, st.passes)).toFixed(1)),
    row('  rows added + removed per later pass, mean', ((st.rowsAdded + st.rowsRemoved) / later).toFixed(1)),
    row('  share of Σk³ in first passes', `${((100 * st.rowsCubedFirst) / Math.max(1, st.rowsCubed)).toFixed(0)} %`),
  ].join('\n');
}

/**
 * Where the restitution of the recorded calls goes (one replay, fresh solver): Newton
 * attempts kept, given up at their first contradiction with eliminated bodies, or solved
 * to the end and not kept; the Poisson phases that follow, and the bisection solves saved by
 * keeping the result solved at the kept scale.
 */
export function restitutionPathRow(rec: readonly RecordedSolve[]): string {
  const solver = new ImpulseSolver(), out = new ImpulseSolution();
  for (const r of rec) solver.solve(r.bodies, r.joints, r.contacts, r.options, out);
  const st = solver.restitutionStats, lin = Math.max(1, solver.linearSolves);
  const row = (label: string, value: string) => `${label.padEnd(60)} ${value.padStart(10)}`;
  const pct = (n: number) => `${((100 * n) / lin).toFixed(1)} %`;
  return [
    `restitution paths of the recorded sim solves (one replay, ${solver.linearSolves} linear solves)`,
    row('  Newton attempts (given up at a contradiction / not kept)', `${st.newtonAttempts} (${st.newtonGivenUp} / ${st.newtonNotKept})`),
    row('  linear solves of discarded Newton attempts', `${st.newtonDiscardedSolves} (${pct(st.newtonDiscardedSolves)})`),
    row('  Poisson calls, linear solves per call', `${st.poissonCalls}, ${(st.poissonSolves / Math.max(1, st.poissonCalls)).toFixed(1)}`),
    row('  linear solves in the Poisson phases', `${st.poissonSolves} (${pct(st.poissonSolves)})`),
    row('  bisection re-solves saved (result kept at the kept scale)', String(st.bisectionSolvesSaved)),
  ].join('\n');
}

/**
 * Where the linear solves and the time of the recorded ragdoll calls (calls with joints) go, by
 * phase (one warm-up replay, then one measured, fresh solver each): the first contact-state loop
 * (one phase, or the Newton attempt of 'paper' restitution), the Coulomb layer's restick loops and
 * `frictionLaw` rounds, the Poisson compression and restitution phases, the energy guard's extra
 * solves. Exclusive counts and wall time per ragdoll call, by wrapping the layers' methods on the
 * prototype for the replay (the wrappers add some time of their own).
 */
export function linearSolvePhaseRow(rec: readonly RecordedSolve[]): string {
  type Frame = { name: string; lin: number; t0: number; childLin: number; childMs: number };
  const proto = ImpulseSolver.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names: Array<[string, string]> = [
    ['solveOnce', ''],
    ['runContactStates', 'contact-state loop'],
    ['frictionLawFirst', 'Coulomb layer'],
    ['frictionLaw', 'frictionLaw rounds'],
    ['solvePoisson', 'Poisson'],
    ['restitutionPhase', 'restitution phase'],
  ];
  const stack: Frame[] = [];
  const lin = new Map<string, number>(), ms = new Map<string, number>();
  let counting = false, onceN = 0;
  const saved = names.map(([m]) => [m, proto[m]] as const);
  for (const [m, label] of names) {
    const orig = proto[m];
    proto[m] = function (this: ImpulseSolver, ...args: unknown[]) {
      const name = m === 'solveOnce' ? (onceN++ === 0 ? 'solve' : 'energy guard (solve again)') : label;
      stack.push({ name, lin: this.linearSolves, t0: performance.now(), childLin: 0, childMs: 0 });
      try {
        return orig.apply(this, args);
      } finally {
        const f = stack.pop()!;
        const dl = this.linearSolves - f.lin, dt = performance.now() - f.t0;
        if (counting) {
          const key = [...stack.map((x) => x.name), f.name].join(' > ');
          lin.set(key, (lin.get(key) ?? 0) + dl - f.childLin);
          ms.set(key, (ms.get(key) ?? 0) + dt - f.childMs);
        }
        if (stack.length) {
          stack[stack.length - 1].childLin += dl;
          stack[stack.length - 1].childMs += dt;
        }
      }
    };
  }
  let calls = 0, total = 0;
  try {
    for (let k = 0; k < 2; k++) {
      const solver = new ImpulseSolver(), out = new ImpulseSolution();
      for (const r of rec) {
        counting = k === 1 && r.joints.length > 0;
        onceN = 0;
        const l0 = solver.linearSolves;
        solver.solve(r.bodies, r.joints, r.contacts, r.options, out);
        if (counting) {
          calls++;
          total += solver.linearSolves - l0;
        }
      }
    }
  } finally {
    for (const [m, f] of saved) proto[m] = f;
  }
  const n = Math.max(1, calls);
  const row = (l: string, v: string) => `${l.padEnd(60)} ${v.padStart(22)}`;
  return [
    `linear solves of the recorded ragdoll calls by phase (${calls} calls, ${(total / n).toFixed(2)} per call; exclusive)`,
    row('  phase', 'solves | ms per call'),
    ...[...lin]
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => row(`  ${k}`, `${(v / n).toFixed(2)} | ${((ms.get(k) ?? 0) / n).toFixed(3)}`)),
  ].join('\n');
}

/**
 * Replays the recorded calls with a switch of the solver on and off, interleaved in one process
 * (fresh solver per replay, CPU time, median of `rounds`), and returns the row: both times, their
 * ratio, and what `stats` reads from the solver with the switch on.
 */
export function switchRow(rec: readonly RecordedSolve[], label: string, off: (s: ImpulseSolver) => void, stats: (s: ImpulseSolver) => string, rounds = 5): string {
  const once = (on: boolean) => {
    const solver = new ImpulseSolver(), out = new ImpulseSolution();
    if (!on) off(solver);
    const c0 = process.cpuUsage();
    for (const r of rec) solver.solve(r.bodies, r.joints, r.contacts, r.options, out);
    const c = process.cpuUsage(c0);
    return { ms: (c.user + c.system) / 1000, solver };
  };
  const tOn: number[] = [], tOff: number[] = [];
  let last: ImpulseSolver | null = null;
  for (let k = 0; k < rounds; k++) {
    const first = k % 2 === 0;
    const a = once(first), b = once(!first);
    (first ? tOn : tOff).push(a.ms);
    (first ? tOff : tOn).push(b.ms);
    last = first ? a.solver : b.solver;
  }
  const med = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1];
  const row = (l: string, v: string) => `${l.padEnd(60)} ${v.padStart(10)}`;
  const cmp = compareReplays(rec, () => new ImpulseSolver(), () => {
    const s = new ImpulseSolver();
    off(s);
    return s;
  });
  return [
    `${label} (recorded sim solves, CPU ms, median of ${rounds} interleaved replays)`,
    row('  on / off', `${med(tOn).toFixed(0)} / ${med(tOff).toFixed(0)}`),
    row('  ratio on / off', `${(med(tOn) / med(tOff)).toFixed(3)} ×`),
    row('  calls not bit-identical / final contact states differing', `${cmp.notIdentical} / ${cmp.statesDiffer}`),
    row('  with it on', last ? stats(last) : ''),
  ].join('\n');
}

/**
 * Replays the recorded calls with two solvers (one each, as the simulator has one) and compares
 * every output bit for bit: velocities, impulses, energies and scales (`notIdentical`), final
 * contact states (`statesDiffer`), and the largest difference relative to the largest entry of
 * its array (`maxRel`). For a change that must keep the results, or one that may change the
 * round-off but not the solution.
 */
export function compareReplays(rec: readonly RecordedSolve[], makeA: () => ImpulseSolver, makeB: () => ImpulseSolver): { notIdentical: number; statesDiffer: number; maxRel: number } {
  const a = makeA(), b = makeB(), oa = new ImpulseSolution(), ob = new ImpulseSolution();
  let notIdentical = 0, statesDiffer = 0, maxRel = 0;
  for (const r of rec) {
    a.solve(r.bodies, r.joints, r.contacts, r.options, oa);
    b.solve(r.bodies, r.joints, r.contacts, r.options, ob);
    let same = Object.is(oa.kineticEnergyAfter, ob.kineticEnergyAfter) && Object.is(oa.frictionScale, ob.frictionScale) && Object.is(oa.restitutionScale, ob.restitutionScale) && oa.iterations === ob.iterations;
    for (const [x, y] of [
      [oa.linearVelocity, ob.linearVelocity],
      [oa.angularVelocity, ob.angularVelocity],
      [oa.contactImpulse, ob.contactImpulse],
      [oa.jointImpulse, ob.jointImpulse],
    ]) {
      let scale = 0, diff = 0;
      for (let i = 0; i < x.length; i++) {
        scale = Math.max(scale, Math.abs(x[i]));
        diff = Math.max(diff, Math.abs(x[i] - y[i]));
        if (!Object.is(x[i], y[i])) same = false;
      }
      if (diff > 0) maxRel = Math.max(maxRel, diff / scale);
    }
    let states = true;
    for (let c = 0; c < r.contacts.length; c++) if (oa.contactState[c] !== ob.contactState[c]) states = false;
    if (!same) notIdentical++;
    if (!states) statesDiffer++;
  }
  return { notIdentical, statesDiffer, maxRel };
}

export function formatRecordedBench(r: RecordedBenchRow, label = ''): string {
  return [
    `recorded sim solves${label} (sim bench scene, full suggestion, ${r.solves} calls replayed, best of 3)`,
    `${'  total ms'.padEnd(60)} ${r.totalMs.toFixed(1).padStart(10)} ms`,
    `${'  linear solves per call'.padEnd(60)} ${r.solvesPerCall.toFixed(2).padStart(10)}`,
    `${`  worst call (${r.worstLinear} linear solves, ${r.worstBodies} bodies, ${r.worstContacts} contacts)`.padEnd(60)} ${r.worstMs.toFixed(2).padStart(10)} ms`,
    `${'  calls over 10 ms'.padEnd(60)} ${String(r.over10).padStart(10)}`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2).map(Number).filter((x) => x >= 2);
  const sizes = args.length ? args : [2, 15, 20, 30, 60, 120, 200, 1000];
  const rec = await recordSimSolves();
  const cs = recordedBenchRow(rec), compressed = recordedBenchRow(rec, 3, false);
  console.log(formatRecordedBench(cs));
  console.log(formatRecordedBench(compressed, ', compressed Schur every pass (contactSpace: false)'));
  console.log(`${'  ratio compressed / contact space'.padEnd(60)} ${(compressed.totalMs / cs.totalMs).toFixed(2).padStart(10)} ×`);
  console.log(contactSpacePassRow(rec));
  console.log(restitutionPathRow(rec));
  console.log(linearSolvePhaseRow(rec));
  console.log(
    switchRow(rec, 'pass factor cache (reusePassFactors)', (s) => (s.reusePassFactors = false), (s) => {
      const st = s.passCacheStats;
      return `${st.factorsReused} of ${st.lookups} passes factored from it, ${st.solvesReused} solved`;
    }),
  );
  console.log(formatContactBench(contactBenchRows()));
  console.log(formatIslandBench(islandBenchRows()));
  console.log(formatResponseBench(responseBenchRows(sizes)));
}
