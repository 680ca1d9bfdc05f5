/**
 * Articulated bodies (Moore & Wilhelms §3.2, joints), layer `ArticulatedTree` of `ImpulseSolver`: the
 * spanning forest of primary joints, the constraint rows of joints and contacts with their targets,
 * and the block-tree LDLᵀ factorization and solve of [M Jᵀ; J 0] that every linear solve runs on.
 *
 * Sparse solve (Baraff 1996, "Linear-time dynamics using Lagrange
 * multipliers"): the bodies and the joints of a spanning forest form a tree of
 * blocks (bodies 6×6, joints 1..3); ordering children before parents, a block
 * LDLᵀ factorisation of [M Jᵀ; J 0] has no fill-in, so factor and solve cost
 * O(n). Joints that close loops, joints beyond the first one to a keyframed
 * body in a tree, and all contacts are "secondary" rows handled by a small
 * dense Schur complement of size s (s tree solves, O(n·s + s³)).
 */
import { invertDefinite } from './linalg';
import { ContactState, ResponseInputError } from './types';
import { KIND_BALL, KIND_LINEAR, F64, growF, growI, setRow } from './flat';
import { SolverInputs } from './inputs';

export abstract class ArticulatedTree extends SolverInputs {
  // ---------------------------------------------------------------- tree

  private find(i: number): number {
    const p = this.ufParent;
    while (p[i] !== i) {
      p[i] = p[p[i]];
      i = p[i];
    }
    return i;
  }

  /** Chooses the primary joints (a spanning forest) and orders the tree nodes children-first. */
  protected buildForest(): void {
    this.pcValid = false;
    this.x0Valid = false;
    const nd = this.nd, nj = this.nj;
    this.ufParent = growI(this.ufParent, nd);
    this.compRoot = growI(this.compRoot, nd);
    for (let i = 0; i < nd; i++) {
      this.ufParent[i] = i;
      this.compRoot[i] = -1;
    }
    let np = 0;
    // joints between two dynamic bodies: primary unless they close a loop
    for (let j = 0; j < nj; j++) {
      const a = this.cA[j], b = this.cB[j];
      const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
      this.cPrimary[j] = 0;
      if (da < 0 || db < 0) continue;
      if (this.conBody[da] || this.conBody[db]) continue;
      const ra = this.find(da), rb = this.find(db);
      if (ra === rb) continue;
      this.ufParent[ra] = rb;
      this.cPrimary[j] = 1;
      np++;
    }
    // joints to a keyframed body or the world: the first per tree becomes its root
    for (let j = 0; j < nj; j++) {
      const a = this.cA[j], b = this.cB[j];
      const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
      if ((da < 0) === (db < 0)) continue;
      if (this.conBody[da >= 0 ? da : db]) continue;
      const r = this.find(da >= 0 ? da : db);
      if (this.compRoot[r] >= 0) continue;
      this.compRoot[r] = j;
      this.cPrimary[j] = 1;
      np++;
    }
    const N = nd + np;
    this.nNodes = N;
    this.nodeDim = growI(this.nodeDim, N);
    this.nodeOff = growI(this.nodeOff, N);
    this.nodeParent = growI(this.nodeParent, N);
    this.nodeRef = growI(this.nodeRef, N);
    this.post = growI(this.post, N);
    this.queue = growI(this.queue, N);
    // joint nodes are numbered nd.. ; jointNode maps a joint to its node (-1: secondary), in the secRows scratch buffer
    const jointNode = this.secRows = growI(this.secRows, Math.max(nj, 1));
    let q = nd;
    for (let j = 0; j < nj; j++) {
      if (this.cPrimary[j]) {
        jointNode[j] = q;
        this.nodeRef[q] = j;
        this.nodeDim[q] = this.jointKind[j] === KIND_BALL ? 3 : this.jointKind[j] === KIND_LINEAR ? 2 : 1;
        q++;
      } else jointNode[j] = -1;
    }
    for (let i = 0; i < nd; i++) {
      this.nodeRef[i] = i;
      this.nodeDim[i] = 6;
    }
    // adjacency: dynamic body -> incident primary joints (CSR)
    this.adjStart = growI(this.adjStart, nd + 1);
    this.adjList = growI(this.adjList, 2 * np + 1);
    const st = this.adjStart;
    st.fill(0, 0, nd + 1);
    for (let j = 0; j < nj; j++) {
      if (!this.cPrimary[j]) continue;
      const a = this.cA[j], b = this.cB[j];
      if (a >= 0 && this.dyn[a] >= 0) st[this.dyn[a] + 1]++;
      if (b >= 0 && this.dyn[b] >= 0) st[this.dyn[b] + 1]++;
    }
    for (let i = 0; i < nd; i++) st[i + 1] += st[i];
    const fill = this.ufParent; // reuse as insertion cursor (union-find no longer needed)
    for (let i = 0; i < nd; i++) fill[i] = st[i];
    for (let j = 0; j < nj; j++) {
      if (!this.cPrimary[j]) continue;
      const a = this.cA[j], b = this.cB[j];
      if (a >= 0 && this.dyn[a] >= 0) this.adjList[fill[this.dyn[a]]++] = jointNode[j];
      if (b >= 0 && this.dyn[b] >= 0) this.adjList[fill[this.dyn[b]]++] = jointNode[j];
    }
    // BFS from each tree root; post-order = reverse BFS order
    const parent = this.nodeParent;
    for (let i = 0; i < N; i++) parent[i] = -2; // unvisited
    const queue = this.queue;
    let head = 0, tail = 0;
    const visit = (root: number) => {
      parent[root] = -1;
      queue[tail++] = root;
      while (head < tail) {
        const u = queue[head++];
        if (u < nd) {
          for (let e = st[u]; e < st[u + 1]; e++) {
            const w = this.adjList[e];
            if (parent[w] !== -2) continue;
            parent[w] = u;
            queue[tail++] = w;
          }
        } else {
          const j = this.nodeRef[u];
          const a = this.cA[j], b = this.cB[j];
          const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
          if (da >= 0 && parent[da] === -2) {
            parent[da] = u;
            queue[tail++] = da;
          }
          if (db >= 0 && parent[db] === -2) {
            parent[db] = u;
            queue[tail++] = db;
          }
        }
      }
    };
    // roots: joints to keyframed/world first, then any unvisited body
    for (let j = 0; j < nj; j++) {
      const node = jointNode[j];
      if (node < 0) continue;
      const a = this.cA[j], b = this.cB[j];
      const da = a >= 0 ? this.dyn[a] : -1, db = b >= 0 ? this.dyn[b] : -1;
      if ((da < 0) !== (db < 0) && parent[node] === -2) visit(node);
    }
    for (let i = 0; i < nd; i++) if (parent[i] === -2) visit(i);
    for (let t = 0; t < N; t++) this.post[t] = queue[N - 1 - t];
    let off = 0;
    for (let t = 0; t < N; t++) {
      this.nodeOff[t] = off;
      off += this.nodeDim[t];
    }
    this.totalDim = off;
    this.x = growF(this.x, off);
    this.x0 = growF(this.x0, off);
    this.ufree = growF(this.ufree, 6 * nd);
    this.blkD = growF(this.blkD, 36 * N);
    this.blkDinv = growF(this.blkDinv, 36 * N);
    this.blkW = growF(this.blkW, 36 * N);
  }

  /** Rows of joint j (velocity direction = impulse direction). Written at row r0. */
  private writeJointRows(j: number, r0: number): number {
    const n = this.jointKind[j] === KIND_BALL ? 3 : this.jointKind[j] === KIND_LINEAR ? 2 : 1;
    const a = this.cA[j], b = this.cB[j];
    for (let k = 0; k < n; k++) {
      const o = 9 * j + 3 * k;
      this.writeRowPair(r0 + k, a, b, this.jointPoint, 3 * j, this.jointDirs, o, this.jointDirs, o);
      this.rowOwner[r0 + k] = j;
      this.rowC[r0 + k] = -this.kfVelocity(r0 + k); // target 0
    }
    return n;
  }

  /**
   * J rows along D[do..do+2], G rows along G[go..go+2], both at the point P[po..po+2], for sides
   * a (+) and b (−). (Arrays and offsets, not the nine numbers: a call with number arguments that
   * is not inlined boxes each of them.)
   */
  private writeRowPair(r: number, a: number, b: number, P: Float64Array, po: number, D: Float64Array, dO: number, G: Float64Array, gO: number): void {
    const c = this.com, o = 6 * r;
    const px = P[po], py = P[po + 1], pz = P[po + 2];
    const dx = D[dO], dy = D[dO + 1], dz = D[dO + 2], gx = G[gO], gy = G[gO + 1], gz = G[gO + 2];
    if (a >= 0) {
      const rx = px - c[3 * a], ry = py - c[3 * a + 1], rz = pz - c[3 * a + 2];
      setRow(this.rowJA, o, dx, dy, dz, rx, ry, rz, 1);
      setRow(this.rowGA, o, gx, gy, gz, rx, ry, rz, 1);
      this.rowDA[r] = this.dyn[a];
    } else {
      setRow(this.rowJA, o, dx, dy, dz, 0, 0, 0, 1);
      setRow(this.rowGA, o, gx, gy, gz, 0, 0, 0, 1);
      this.rowDA[r] = -1;
    }
    if (b >= 0) {
      const rx = px - c[3 * b], ry = py - c[3 * b + 1], rz = pz - c[3 * b + 2];
      setRow(this.rowJB, o, dx, dy, dz, rx, ry, rz, -1);
      setRow(this.rowGB, o, gx, gy, gz, rx, ry, rz, -1);
      this.rowDB[r] = this.dyn[b];
    } else {
      setRow(this.rowJB, o, dx, dy, dz, 0, 0, 0, -1);
      setRow(this.rowGB, o, gx, gy, gz, 0, 0, 0, -1);
      this.rowDB[r] = -1;
    }
  }

  /** rowC[r] = factor · J_r·u⁻ − (the keyframed part of J_r·u⁻): `rowVelocity` and `kfVelocity` in one call that returns no number. */
  private writeRowTarget(r: number, factor: number): void {
    const k = this.rowOwner[r], a = this.cA[k], b = this.cB[k];
    const rv = this.sideVelocity(this.rowJA, r, a) + this.sideVelocity(this.rowJB, r, b);
    let kv = 0;
    if (a >= 0 && this.kf[a]) kv += this.sideVelocity(this.rowJA, r, a);
    if (b >= 0 && this.kf[b]) kv += this.sideVelocity(this.rowJB, r, b);
    this.rowC[r] = factor * rv - kv;
  }

  /** J_r·u⁻ over all sides (dynamic and keyframed): the row's relative velocity before the impact. */
  protected rowVelocity(r: number): number {
    const k = this.rowOwner[r];
    return this.sideVelocity(this.rowJA, r, this.cA[k]) + this.sideVelocity(this.rowJB, r, this.cB[k]);
  }

  /** The part of J_r·u⁻ that comes from keyframed bodies (fixed, moved to the right-hand side). */
  private kfVelocity(r: number): number {
    const k = this.rowOwner[r];
    const a = this.cA[k], b = this.cB[k];
    let s = 0;
    if (a >= 0 && this.kf[a]) s += this.sideVelocity(this.rowJA, r, a);
    if (b >= 0 && this.kf[b]) s += this.sideVelocity(this.rowJB, r, b);
    return s;
  }

  private sideVelocity(J: Float64Array, r: number, body: number): number {
    if (body < 0) return 0;
    const o = 6 * r, v = this.vel, vo = 6 * body;
    return J[o] * v[vo] + J[o + 1] * v[vo + 1] + J[o + 2] * v[vo + 2] + J[o + 3] * v[vo + 3] + J[o + 4] * v[vo + 4] + J[o + 5] * v[vo + 5];
  }

  /**
   * Writes the joint rows (first in the row order) and returns their count. They depend on the
   * bodies, the joints and the keyframed velocities only, none of which a contact-state loop
   * changes: written once per loop (`runContactStates` clears `jointRowsReady`) and kept by
   * its later passes, bit for bit what writing them again gives.
   */
  private jointRows(): number {
    if (this.jointRowsReady) return this.jointRowsEnd;
    let r = 0;
    for (let j = 0; j < this.nj; j++) {
      this.cRow0[j] = r;
      const a = this.cA[j], b = this.cB[j];
      const anyDyn = (a >= 0 && this.dyn[a] >= 0) || (b >= 0 && this.dyn[b] >= 0);
      const n = anyDyn ? this.writeJointRows(j, r) : 0;
      this.cRows[j] = n;
      r += n;
    }
    this.jointRowsEnd = r;
    this.jointRowsReady = true;
    return r;
  }
  protected jointRowsReady = false;
  private jointRowsEnd = 0;

  private ensureRows(n: number): void {
    if (this.rowOwner.length >= n) return;
    this.jointRowsReady = false;
    const m = Math.max(n, 2 * this.rowOwner.length);
    this.rowOwner = new Int32Array(m);
    this.rowJA = F64(6 * m);
    this.rowJB = F64(6 * m);
    this.rowGA = F64(6 * m);
    this.rowGB = F64(6 * m);
    this.rowDA = new Int32Array(m);
    this.rowDB = new Int32Array(m);
    this.rowC = F64(m);
    this.rowLambda = F64(m);
  }

  protected buildRows(restModel: string): void {
    const nj = this.nj, nc = this.nc;
    // room for the virtual rows of compressed contact groups (never more than the rows they replace)
    this.ensureRows(6 * (nj + nc) + 2);
    let r = this.jointRows();
    for (let c = 0; c < nc; c++) {
      const k = nj + c;
      this.cRow0[k] = r;
      const st = this.contactState[c];
      const a = this.cA[k], b = this.cB[k];
      const P = this.contactPoint;
      const f = this.contactFrame, o = 9 * c;
      const eps = this.epsOn * this.contactEps[c];
      let n = 0;
      // (`slideFree`: the contacts with finite friction as frictionless ones)
      const free = this.slideFree && this.slFree[c] === 1 && this.contactGamma[c] !== Infinity;
      if (st === ContactState.Frictionless || st === ContactState.Stick || free) {
        n = st === ContactState.Stick && !free ? 3 : 1;
        for (let q = 0; q < n; q++) {
          this.writeRowPair(r + q, a, b, P, 3 * c, f, o + 3 * q, f, o + 3 * q);
          this.rowOwner[r + q] = k;
          this.writeRowTarget(r + q, q === 0 || restModel === 'paper' ? -eps : 0);
        }
      } else if (st === ContactState.Slide) {
        n = 1;
        const g = this.contactGamma[c], S = this.contactSlide, G = this.vec3;
        G[0] = f[o] + g * S[3 * c];
        G[1] = f[o + 1] + g * S[3 * c + 1];
        G[2] = f[o + 2] + g * S[3 * c + 2];
        this.writeRowPair(r, a, b, P, 3 * c, f, o, G, 0);
        this.rowOwner[r] = k;
        this.writeRowTarget(r, -eps);
      }
      this.cRows[k] = n;
      r += n;
    }
    this.nRows = r;
  }

  // ---------------------------------------------------------------- sparse

  /** Fills hScratch (row-major, stride 6) with H_ip, the block coupling node i to its parent p (d_i × d_p). */
  private couplingBlock(i: number, p: number): void {
    const H = this.hScratch, nd = this.nd;
    if (i < nd) {
      // i body, p joint: H_ip = J_{p,i}ᵀ (6 × dp)
      const j = this.nodeRef[p], r0 = this.cRow0[j], dp = this.nodeDim[p];
      const side = this.cA[j] >= 0 && this.dyn[this.cA[j]] === i ? this.rowJA : this.rowJB;
      for (let c = 0; c < dp; c++) for (let rr = 0; rr < 6; rr++) H[rr * 6 + c] = side[6 * (r0 + c) + rr];
    } else {
      // i joint, p body: H_ip = J_{i,p} (di × 6)
      const j = this.nodeRef[i], r0 = this.cRow0[j], di = this.nodeDim[i];
      const side = this.cA[j] >= 0 && this.dyn[this.cA[j]] === p ? this.rowJA : this.rowJB;
      for (let rr = 0; rr < di; rr++) for (let c = 0; c < 6; c++) H[rr * 6 + c] = side[6 * (r0 + rr) + c];
    }
  }

  /** Block LDLᵀ of the tree part of [M Jᵀ; J 0], children first (no fill-in). */
  protected factor(): void {
    this.pcValid = false;
    this.x0Valid = false;
    this.csValid = false;
    // joint rows are needed for the coupling blocks; contact rows are not
    this.ensureRows(3 * this.nj + 1);
    this.jointRows();
    const N = this.nNodes, nd = this.nd, D = this.blkD, Dinv = this.blkDinv, W = this.blkW, H = this.hScratch;
    for (let i = 0; i < N; i++) {
      const o = 36 * i;
      D.fill(0, o, o + 36);
      if (i < nd) {
        const b = this.dynBody[i], m = this.mass[b], I = this.inertia;
        D[o] = m;
        D[o + 7] = m;
        D[o + 14] = m;
        for (let rr = 0; rr < 3; rr++) for (let c = 0; c < 3; c++) D[o + (3 + rr) * 6 + 3 + c] = I[9 * b + c * 3 + rr];
      }
    }
    for (let t = 0; t < N; t++) {
      const i = this.post[t], di = this.nodeDim[i], o = 36 * i;
      const sign = i < nd ? 1 : -1;
      if (!invertDefinite(D, o, 6, di, sign, Dinv, o, this.work36)) {
        if (i < nd) throw new ResponseInputError(`bodies[${this.dynBody[i]}]: singular body block in the impulse system`);
        throw new ResponseInputError(`joints[${this.nodeRef[i]}]: degenerate joint constraint (rows are not independent)`);
      }
      const p = this.nodeParent[i];
      if (p < 0) continue;
      const dp = this.nodeDim[p], op = 36 * p;
      this.couplingBlock(i, p);
      // W_i = Dinv_i · H_ip  (di × dp)
      for (let rr = 0; rr < di; rr++)
        for (let c = 0; c < dp; c++) {
          let s = 0;
          for (let k = 0; k < di; k++) s += Dinv[o + rr * 6 + k] * H[k * 6 + c];
          W[o + rr * 6 + c] = s;
        }
      // D_p −= H_ipᵀ W_i
      for (let rr = 0; rr < dp; rr++)
        for (let c = 0; c < dp; c++) {
          let s = 0;
          for (let k = 0; k < di; k++) s += H[k * 6 + rr] * W[o + k * 6 + c];
          D[op + rr * 6 + c] -= s;
        }
    }
  }

  /** Solves the factored tree system in place: x holds b on entry (node-ordered blocks), the solution on exit. */
  protected treeSolve(x: Float64Array): void {
    const N = this.nNodes, W = this.blkW, Dinv = this.blkDinv, off = this.nodeOff, dim = this.nodeDim, par = this.nodeParent;
    for (let t = 0; t < N; t++) {
      const i = this.post[t], p = par[i];
      if (p < 0) continue;
      const di = dim[i], dp = dim[p], oi = off[i], op = off[p], o = 36 * i;
      let nz = false;
      for (let rr = 0; rr < di; rr++) if (x[oi + rr] !== 0) nz = true;
      if (!nz) continue; // sparse right-hand sides (one impulse): nothing to pass up
      for (let c = 0; c < dp; c++) {
        let s = 0;
        for (let rr = 0; rr < di; rr++) s += W[o + rr * 6 + c] * x[oi + rr];
        x[op + c] -= s;
      }
    }
    const tmp = this.work36;
    for (let i = 0; i < N; i++) {
      const di = dim[i], oi = off[i], o = 36 * i;
      let nz = false;
      for (let rr = 0; rr < di; rr++) if (x[oi + rr] !== 0) nz = true;
      if (!nz) continue;
      for (let rr = 0; rr < di; rr++) {
        let s = 0;
        for (let k = 0; k < di; k++) s += Dinv[o + rr * 6 + k] * x[oi + k];
        tmp[rr] = s;
      }
      for (let rr = 0; rr < di; rr++) x[oi + rr] = tmp[rr];
    }
    for (let t = N - 1; t >= 0; t--) {
      const i = this.post[t], p = par[i];
      if (p < 0) continue;
      const di = dim[i], dp = dim[p], oi = off[i], op = off[p], o = 36 * i;
      for (let rr = 0; rr < di; rr++) {
        let s = 0;
        for (let c = 0; c < dp; c++) s += W[o + rr * 6 + c] * x[op + c];
        x[oi + rr] -= s;
      }
    }
  }

  /** x ← [M u⁻ on bodies; c on primary joint rows]. */
  protected fillBaseRhs(x: Float64Array): void {
    const nd = this.nd, N = this.nNodes;
    for (let i = 0; i < nd; i++) {
      const b = this.dynBody[i], o = this.nodeOff[i], m = this.mass[b], v = this.vel, vo = 6 * b, I = this.inertia, io = 9 * b;
      const wx = v[vo + 3], wy = v[vo + 4], wz = v[vo + 5];
      x[o] = m * v[vo];
      x[o + 1] = m * v[vo + 1];
      x[o + 2] = m * v[vo + 2];
      x[o + 3] = I[io] * wx + I[io + 3] * wy + I[io + 6] * wz;
      x[o + 4] = I[io + 1] * wx + I[io + 4] * wy + I[io + 7] * wz;
      x[o + 5] = I[io + 2] * wx + I[io + 5] * wy + I[io + 8] * wz;
    }
    for (let i = nd; i < N; i++) {
      const j = this.nodeRef[i], r0 = this.cRow0[j], o = this.nodeOff[i];
      for (let k = 0; k < this.nodeDim[i]; k++) x[o + k] = this.rowC[r0 + k];
    }
  }

  /** x[body blocks] += μ·G_rᵀ. */
  protected addImpulse(x: Float64Array, r: number, mu: number): void {
    const da = this.rowDA[r], db = this.rowDB[r], o = 6 * r;
    if (da >= 0) {
      const xo = this.nodeOff[da];
      for (let k = 0; k < 6; k++) x[xo + k] += mu * this.rowGA[o + k];
    }
    if (db >= 0) {
      const xo = this.nodeOff[db];
      for (let k = 0; k < 6; k++) x[xo + k] += mu * this.rowGB[o + k];
    }
  }

  /** J_r · u over dynamic sides, u read from node blocks of x. */
  protected rowDot(x: Float64Array, r: number): number {
    const da = this.rowDA[r], db = this.rowDB[r], o = 6 * r;
    let s = 0;
    if (da >= 0) {
      const xo = this.nodeOff[da];
      for (let k = 0; k < 6; k++) s += this.rowJA[o + k] * x[xo + k];
    }
    if (db >= 0) {
      const xo = this.nodeOff[db];
      for (let k = 0; k < 6; k++) s += this.rowJB[o + k] * x[xo + k];
    }
    return s;
  }
}
