import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// core/ is the engine: no framework or platform imports outside the node-only
// folders (cli/, node/, bench/) and tests.
const CORE = new URL('.', import.meta.url).pathname;
const NODE_ONLY = /^(cli|node|bench)\//;
const FORBIDDEN = /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](three(?:\/[^'"]*)?|react(?:-dom)?(?:\/[^'"]*)?|@react-three\/[^'"]*|electron|node:[^'"]*|fs|path|os|url|child_process|worker_threads|crypto|zlib|stream)['"]/g;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe('core purity', () => {
  it('core/ imports no three, react, electron, DOM or node modules outside cli/, node/, bench/ and tests', () => {
    const offenders: string[] = [];
    for (const file of walk(CORE)) {
      const rel = relative(CORE, file);
      if (NODE_ONLY.test(rel) || /\.test\.tsx?$/.test(rel)) continue;
      const src = readFileSync(file, 'utf8');
      for (const m of src.matchAll(FORBIDDEN)) offenders.push(`${rel}: imports '${m[1]}'`);
      if (/\b(window|navigator|localStorage|sessionStorage)\.\w/.test(src.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
        offenders.push(`${rel}: touches a DOM global`);
    }
    expect(offenders, 'core must stay free of framework and platform imports').toEqual([]);
  });

  it('core/ computes no engine-dependent transcendental (Math.sin, cos, tan, asin, acos, atan, atan2, exp, log, log2, pow, cbrt, hypot..., `**`) outside cli/, node/, bench/ and tests', () => {
    // Engines differ in the last bit of these (node 20's V8 uses fdlibm, Chromium
    // other libm code), and a chaotic simulation turns one bit into another
    // suggestion. core/math/libm has ports that give the same bits everywhere.
    const offenders: string[] = [];
    for (const file of walk(CORE)) {
      const rel = relative(CORE, file);
      if (NODE_ONLY.test(rel) || /\.test\.tsx?$/.test(rel)) continue;
      offenders.push(...engineMathUses(rel, readFileSync(file, 'utf8')));
    }
    expect(offenders, 'use the functions of core/math/libm (run `node /work/notes/math-codemod.mjs` to rewrite them)').toEqual([]);
  });

  it('the engine-math guard catches every form it forbids (and allows x ** 2 and literal ** literal)', () => {
    const src = [
      'const a = Math.sin(x) + Math.hypot(a, b, c);',
      'const f = Math.cos;',
      'const p = x ** y, q = 2 ** k, r = x ** 2, s = 2 ** -53, t = (x + 1) ** 0.5;',
      'z **= 3;',
      '// Math.exp(1) in a comment is fine',
      "const str = 'Math.log(2)';",
      'const m = Math.max(a, b) + Math.sqrt(c) + Math.abs(d);',
      'const w = Math.log10(x) + Math.sinh(y);',
    ].join('\n');
    expect(engineMathUses('x.ts', src)).toEqual([
      'x.ts:1: Math.sin (use sin from core/math/libm)',
      'x.ts:1: Math.hypot (use hypot3 from core/math/libm)',
      'x.ts:2: Math.cos (use cos from core/math/libm)',
      "x.ts:3: x ** y (the engine's pow; use pow from core/math/libm)",
      "x.ts:3: 2 ** k (the engine's pow; use pow from core/math/libm)",
      "x.ts:3: (x + 1) ** 0.5 (the engine's pow; use pow from core/math/libm)",
      "x.ts:4: z **= 3 (the engine's pow; use pow from core/math/libm)",
      'x.ts:8: Math.log10 (no port in core/math/libm yet: port it from fdlibm, v8/src/base/ieee754.cc)',
      'x.ts:8: Math.sinh (no port in core/math/libm yet: port it from fdlibm, v8/src/base/ieee754.cc)',
    ]);
  });
});

const PORTED = new Set(['sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2', 'exp', 'log', 'log2', 'pow', 'cbrt', 'hypot']);
const UNPORTED = new Set(['sinh', 'cosh', 'tanh', 'asinh', 'acosh', 'atanh', 'expm1', 'log1p', 'log10']);

function isNumber(n: ts.Expression): boolean {
  while (ts.isParenthesizedExpression(n)) n = n.expression;
  if (ts.isPrefixUnaryExpression(n) && (n.operator === ts.SyntaxKind.MinusToken || n.operator === ts.SyntaxKind.PlusToken)) n = n.operand;
  return ts.isNumericLiteral(n);
}

/** `file:line: what` for every engine-dependent transcendental in a source text. */
function engineMathUses(rel: string, src: string): string[] {
  const sf = ts.createSourceFile(rel, src, ts.ScriptTarget.Latest, true, /\.tsx$/.test(rel) ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const at = (n: ts.Node) => `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'Math') {
      const fn = n.name.text;
      if (PORTED.has(fn)) {
        let use = fn;
        if (fn === 'hypot') {
          const call = ts.isCallExpression(n.parent) && n.parent.expression === n ? n.parent : null;
          const k = call && !call.arguments.some(ts.isSpreadElement) ? call.arguments.length : -1;
          use = k >= 2 && k <= 4 ? `hypot${k}` : 'hypot';
        }
        out.push(`${at(n)}: Math.${fn} (use ${use} from core/math/libm)`);
      } else if (UNPORTED.has(fn)) out.push(`${at(n)}: Math.${fn} (no port in core/math/libm yet: port it from fdlibm, v8/src/base/ieee754.cc)`);
    }
    if (ts.isBinaryExpression(n)) {
      const op = n.operatorToken.kind;
      const pow = op === ts.SyntaxKind.AsteriskAsteriskToken && !(isNumber(n.right) && Number(n.right.getText(sf).replace(/[()\s]/g, '')) === 2) && !(isNumber(n.left) && isNumber(n.right));
      if (pow || op === ts.SyntaxKind.AsteriskAsteriskEqualsToken) out.push(`${at(n)}: ${n.getText(sf)} (the engine's pow; use pow from core/math/libm)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}
