/**
 * Posing helper of the ragdoll repro tests (limit-mesh, character-limits):
 * turns a ragdoll part and the parts below it past a joint limit, so the
 * next step's limit corrections have to turn it back.
 */
import type { SimWorld } from '../world';
import { STATE_STRIDE, normalizeQuat, quatMul, rotate } from '../rigid';
import { cos, hypot2, sin } from '../../math/libm';

/**
 * Turns the part of skeleton joint `jointName` and the parts below it about
 * its joint point by `angleRad`: about the horizontal axis that lifts the
 * part's far end (cone) or about the part's own axis (twist).
 */
export function bend(w: SimWorld, jointName: string, mode: 'cone' | 'twist', angleRad: number): void {
  const st = w.bodies.state;
  const bi = w.bodies.names.findIndex((n) => n.endsWith(`:${jointName}`));
  const j = w.joints.find((jj) => jj.bodyB === bi);
  if (!j) throw new Error(`no joint with child part ${jointName}`);
  const below = new Set([bi]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const jj of w.joints)
      if (below.has(jj.bodyA) && !below.has(jj.bodyB)) {
        below.add(jj.bodyB);
        grew = true;
      }
  }
  const r = new Float64Array(3), d = new Float64Array(3), e = new Float64Array(3);
  const s = STATE_STRIDE * bi;
  rotate(r, 0, st, s + 3, j.rB[0], j.rB[1], j.rB[2]);
  const px = st[s] + r[0], py = st[s + 1] + r[1], pz = st[s + 2] + r[2];
  rotate(d, 0, st, s + 3, j.axisB[0], j.axisB[1], j.axisB[2]);
  let n: number[];
  if (mode === 'twist') n = [d[0], d[1], d[2]];
  else {
    const l = hypot2(d[0], d[2]);
    n = [-d[2] / l, 0, d[0] / l];
    if (n[2] * d[0] - n[0] * d[2] < 0) n = [-n[0], 0, -n[2]]; // (n × d)_y > 0: the far end rises
  }
  const h = 0.5 * angleRad, q = Float64Array.of(n[0] * sin(h), n[1] * sin(h), n[2] * sin(h), cos(h));
  for (const i of below) {
    const o = STATE_STRIDE * i;
    rotate(e, 0, q, 0, st[o] - px, st[o + 1] - py, st[o + 2] - pz);
    st[o] = px + e[0];
    st[o + 1] = py + e[1];
    st[o + 2] = pz + e[2];
    quatMul(st, o + 3, q, 0, st, o + 3);
    normalizeQuat(st, o + 3);
  }
}
