import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applySuggestion, suggestMotion } from './suggest';
import { SceneEvaluator } from '../anim/evaluate';
import { parseDocument } from '../document/parse';
import { boxPropAt, linearTranslation, octahedronProp, sceneDoc } from './testkit';
import { TriangleBVH } from '../collision/bvh';
import { pointInMesh } from '../collision/query';

function quatAngle(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const d = Math.abs(a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3]);
  return 2 * Math.acos(Math.min(1, d));
}

/** A box thrown onto the ground (spinning), bouncing, sliding and coming to rest. */
function tossDoc() {
  const box = boxPropAt('crate', [0.15, 0.1, 0.2], [0, 1, 0], { restitution: 0.4, friction: 0.6, massKg: 3 }, [0.2, 0.1, 0, 0.97]);
  return sceneDoc([box], {
    frames: 90,
    tracks: [
      linearTranslation('crate', 0, [-1, 1.2, 0], 0.5, [0, 1, 0]),
      { target: { kind: 'prop', prop: 'crate' }, path: 'rotation', interpolation: 'linear', times: [0, 0.5], values: [0, 0, 0, 1, 0.2, 0.1, 0, 0.97].map((x, i, a) => (i < 4 ? x : x / Math.hypot(a[4], a[5], a[6], a[7]))) },
    ],
  });
}

describe('suggestMotion', () => {
  const doc = tossDoc();
  const opts = { dynamic: ['crate'], fromFrame: 15, toFrame: 90, positionTolerance: 1e-3, angleTolerance: 2e-3 };
  const s = suggestMotion(doc, opts);

  it('hands over without a jump: the first key is the keyed pose at fromFrame', () => {
    const ev = new SceneEvaluator(doc);
    const trs = new Float64Array(10);
    ev.propTransform(0, 15 / 30, trs);
    const tr = s.tracks.find((t) => t.path === 'translation')!;
    const rot = s.tracks.find((t) => t.path === 'rotation')!;
    expect(tr.times[0]).toBeCloseTo(0.5, 12);
    const stride = tr.interpolation === 'cubic' ? 9 : 3, off = tr.interpolation === 'cubic' ? 3 : 0;
    for (let k = 0; k < 3; k++) expect(Math.abs(tr.values[off + k] - trs[k])).toBeLessThan(1e-6);
    void stride;
    const roff = rot.interpolation === 'cubic' ? 4 : 0;
    expect(quatAngle(rot.values, roff, trs, 3)).toBeLessThan(1e-6);
  });

  it('finds the impacts with the ground and comes to rest', () => {
    expect(s.impacts.length).toBeGreaterThanOrEqual(1);
    expect(s.impacts[0].objects).toEqual(['crate', 'ground']);
    expect(s.impacts[0].preVelocity[1]).toBeLessThan(0);
    const last = s.trajectory[0].values;
    const n = s.trajectory[0].frames.length;
    // lowest point on the ground at the end: resting on one of its faces (half extents 0.1, 0.15, 0.2)
    const y = last[7 * (n - 1) + 1];
    expect([0.1, 0.15, 0.2].some((h) => Math.abs(y - h) < 2e-3), `rest height ${y}`).toBe(true);
  });

  it('has far fewer keys than frames and replays within the tolerance after applySuggestion', () => {
    expect(s.stats.keys, `${s.stats.keys} keys for ${s.stats.denseKeys} frame samples`).toBeLessThan(s.stats.denseKeys / 2);
    const applied = applySuggestion(doc, s);
    expect(doc.clips[0].tracks[0].times.length, 'the input document is not modified').toBe(2);
    const ev = new SceneEvaluator(applied);
    const trs = new Float64Array(10);
    const traj = s.trajectory[0];
    let worstPos = 0, worstAng = 0;
    traj.frames.forEach((f, i) => {
      ev.propTransform(0, f / 30, trs);
      worstPos = Math.max(worstPos, Math.hypot(trs[0] - traj.values[7 * i], trs[1] - traj.values[7 * i + 1], trs[2] - traj.values[7 * i + 2]));
      worstAng = Math.max(worstAng, quatAngle(trs, 3, traj.values, 7 * i + 3));
    });
    expect(worstPos, 'replayed positions within the position tolerance').toBeLessThanOrEqual(1e-3 * 1.0001);
    expect(worstAng, 'replayed rotations within the angle tolerance').toBeLessThanOrEqual(2e-3 * 1.0001);
  });

  it('keys on frames sit exactly on them (the sample times, not their float32 roundings)', () => {
    let onFrames = 0;
    for (const t of s.tracks)
      for (const time of t.times) {
        const f = Math.round(time * 30);
        if (Math.abs(time * 30 - f) < 1e-4) {
          expect(time, `${t.path} key near frame ${f}`).toBe(f / 30);
          onFrames++;
        }
      }
    expect(onFrames).toBeGreaterThan(2);
  });

  it('keeps the keys before fromFrame when applied', () => {
    const applied = applySuggestion(doc, s);
    const tr = applied.clips[0].tracks.find((t) => t.path === 'translation')!;
    expect(tr.times[0]).toBe(0);
    expect(tr.times.filter((t) => t < 0.5 - 1e-9)).toEqual([0]);
  });

  it('is deterministic: the same input gives identical keys and impacts', () => {
    const again = suggestMotion(tossDoc(), opts);
    expect(again.tracks).toEqual(s.tracks);
    expect(again.impacts).toEqual(s.impacts);
  });

  it("a suggestion started from another's progress callback gives the same keys as alone (each has its own sample buffers)", () => {
    const innerOpts = { ...opts, fromFrame: 30 }; // another motion into the same kind of buffers
    const alone = suggestMotion(tossDoc(), innerOpts);
    let inner: ReturnType<typeof suggestMotion> | undefined;
    const outer = suggestMotion(tossDoc(), opts, (f) => {
      if (!inner && f > 0.5) inner = suggestMotion(tossDoc(), innerOpts);
    });
    expect(inner, 'the inner suggestion ran').toBeDefined();
    expect(inner!.tracks).toEqual(alone.tracks);
    expect(outer.tracks).toEqual(s.tracks);
    expect(outer.trajectory).toEqual(s.trajectory);
  });

  it('reports progress and stops when aborted', () => {
    const seen: number[] = [];
    suggestMotion(doc, { ...opts, toFrame: 30 }, (f) => seen.push(f));
    expect(seen[seen.length - 1]).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    const signal = { aborted: false };
    expect(() => suggestMotion(doc, opts, (f) => { if (f > 0.2) signal.aborted = true; }, signal)).toThrow(/aborted/);
  });

  it('names unknown objects and bad ranges', () => {
    expect(() => suggestMotion(doc, { ...opts, dynamic: ['nope'] })).toThrow(/'nope'/);
    expect(() => suggestMotion(doc, { ...opts, fromFrame: 40, toFrame: 20 })).toThrow(/toFrame/);
  });
});

describe('the sample project', () => {
  it('bat-and-ball over the whole clip (the bat grinds the ball into the table): finishes in seconds, never through the table, bat or ground, replays within tolerance', () => {
    const doc = parseDocument(readFileSync(new URL('../../assets/sample/bat-and-ball.impulse', import.meta.url), 'utf8'));
    const clip = doc.clips.find((c) => c.id === doc.activeClip)!;
    const lastFrame = Math.round(Math.max(...clip.tracks.map((t) => t.times[t.times.length - 1])) * clip.frameRate);
    const t0 = performance.now();
    const s = suggestMotion(doc, { dynamic: ['Ball'], fromFrame: 0, toFrame: lastFrame });
    const ms = performance.now() - t0;
    expect(ms, `whole-clip suggestion took ${ms.toFixed(0)} ms`).toBeLessThan(15_000);
    expect(s.stats.elapsedSteps).toBe(lastFrame * 8);
    const hit = s.impacts.find((i) => i.objects[1] === 'Bat');
    expect(hit, 'an impact of the ball with the bat').toBeDefined();
    expect(Math.hypot(...hit!.postVelocity)).toBeGreaterThan(2);
    // no tunnelling: the ball's centre is never inside the (closed) table or bat, nor below the ground
    const ev0 = new SceneEvaluator(doc, s.clipId);
    const traj = s.trajectory[0];
    const ball = doc.props.find((p) => p.name === 'Ball')!;
    let radius = Infinity;
    for (let v = 0; v < ball.mesh.positions.length; v += 3) radius = Math.min(radius, Math.hypot(ball.mesh.positions[v], ball.mesh.positions[v + 1], ball.mesh.positions[v + 2]));
    const m = new Float64Array(16);
    for (const name of ['Table', 'Bat']) {
      const pi = doc.props.findIndex((p) => p.name === name);
      const mesh = doc.props[pi].mesh;
      const bvh = TriangleBVH.build(mesh.positions, mesh.indices);
      const world = new Float64Array(mesh.positions.length);
      traj.frames.forEach((f, i) => {
        ev0.propWorldMatrix(pi, f / clip.frameRate, m);
        for (let v = 0; v < world.length; v += 3) {
          const x = mesh.positions[v], y = mesh.positions[v + 1], z = mesh.positions[v + 2];
          for (let c = 0; c < 3; c++) world[v + c] = m[c] * x + m[4 + c] * y + m[8 + c] * z + m[12 + c];
        }
        bvh.refit(world);
        expect(pointInMesh(bvh, world, traj.values, 7 * i), `ball centre inside the ${name} at frame ${f}`).toBe(0);
      });
    }
    traj.frames.forEach((f, i) => expect(traj.values[7 * i + 1], `ball above the ground at frame ${f}`).toBeGreaterThan(doc.groundY! + radius - 2e-3));
    const applied = applySuggestion(doc, s);
    const ev = new SceneEvaluator(applied, s.clipId);
    const pi = doc.props.findIndex((p) => p.name === 'Ball');
    const trs = new Float64Array(10);
    traj.frames.forEach((f, i) => {
      ev.propTransform(pi, f / ev.clip!.frameRate, trs);
      expect(Math.hypot(trs[0] - traj.values[7 * i], trs[1] - traj.values[7 * i + 1], trs[2] - traj.values[7 * i + 2])).toBeLessThanOrEqual(1.0001e-3);
    });
  });
});

describe('octahedron drop (sanity of key reduction on a bounce)', () => {
  it('a dropped body bouncing gives keys at the impacts, not per frame', () => {
    const doc = sceneDoc([octahedronProp('o', 0.1, [0, 1, 0], { restitution: 0.5, friction: 0 })], { frames: 60 });
    const s = suggestMotion(doc, { dynamic: ['o'], fromFrame: 0, toFrame: 60 });
    const tr = s.tracks.find((t) => t.path === 'translation')!;
    expect(tr.times.length, `${tr.times.length} translation keys for 61 frames`).toBeLessThan(15);
    expect(s.stats.keys, `${s.stats.keys} keys for ${s.stats.denseKeys} frame samples`).toBeLessThan(s.stats.denseKeys / 4);
  });
});
