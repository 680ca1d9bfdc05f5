/**
 * Reader of the Wang et al. 2021 CCD ground truth (MIT; copied to
 * core/collision/testdata/ccd, the layout of ../shared/data/ccd): every
 * `.csv` under a folder, 8 rows per query (the start then the end positions
 * of the 4 points, each coordinate an exact rational `num,den`, the 7th
 * field the truth), comment and blank lines skipped. Node-only (reads files).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface CcdQuery {
  /** 24 numbers: the 8 points in the data set's row order. */
  coords: Float64Array;
  /** Ground truth: the features touch during the step. */
  truth: boolean;
  /** `vertex-triangle` when the file lies under a `vertex-face` folder, else `edge-edge`. */
  kind: 'vertex-triangle' | 'edge-edge';
  /** The file, relative to the folder read. */
  file: string;
  /** The query's index in its file. */
  index: number;
}

/** The `.csv` files under `dir`, recursively, in sorted order. */
export function ccdCsvFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) ccdCsvFiles(p, out);
    else if (name.endsWith('.csv')) out.push(p);
  }
  return out;
}

/** The queries of one file; throws naming the file when its rows are not whole queries. */
export function readCcdQueries(file: string, root: string): CcdQuery[] {
  const rows = readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '' && !l.startsWith('#'));
  if (rows.length % 8 !== 0) throw new Error(`${file}: ${rows.length} rows is not a multiple of 8`);
  const rel = relative(root, file);
  const kind = rel.includes('vertex-face') ? 'vertex-triangle' : 'edge-edge';
  const out: CcdQuery[] = [];
  for (let q = 0; q < rows.length; q += 8) {
    const coords = new Float64Array(24);
    let truth = false;
    for (let r = 0; r < 8; r++) {
      const f = rows[q + r].split(',');
      for (let k = 0; k < 3; k++) coords[r * 3 + k] = Number(f[2 * k]) / Number(f[2 * k + 1]);
      truth = f[6].trim() === '1';
    }
    out.push({ coords, truth, kind, file: rel, index: q / 8 });
  }
  return out;
}
