/**
 * JSON.parse with a located syntax error. Engines word (and locate) JSON
 * errors differently, so on failure a small RFC 8259 scanner finds the
 * offset of the first error itself and reports it as line:column.
 */

export class JsonSyntaxError extends Error {
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  constructor(message: string, offset: number, line: number, column: number) {
    super(`line ${line}, column ${column}: ${message}`);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

/** 1-based line and column (in UTF-16 code units) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

class ScanError {
  constructor(readonly offset: number, readonly message: string) {}
}

function describeChar(text: string, i: number): string {
  return i >= text.length ? 'end of input' : JSON.stringify(text[i]);
}

/** Offset and reason of the first syntax error of `text`, or null if it is valid JSON. */
export function findJsonSyntaxError(text: string): { offset: number; message: string } | null {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (message: string): never => {
    throw new ScanError(i, message);
  };
  const expectChar = (ch: string, what: string) => {
    if (text[i] !== ch) fail(`expected ${what}, found ${describeChar(text, i)}`);
    i++;
  };
  const str = () => {
    i++; // opening quote
    while (true) {
      if (i >= n) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 32) fail('control character in string');
      if (c === 92) {
        i++;
        const e = text[i];
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) {
              i += k;
              fail('invalid \\u escape');
            }
          }
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail(`invalid escape ${describeChar(text, i)}`);
      } else i++;
    }
  };
  const digits = () => {
    const s = i;
    while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    if (i === s) fail(`expected a digit, found ${describeChar(text, i)}`);
  };
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const literal = (word: string) => {
    for (let k = 0; k < word.length; k++) {
      if (text[i] !== word[k]) fail(`unexpected ${describeChar(text, i)}`);
      i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > 2000) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      while (true) {
        ws();
        if (text[i] !== '"') fail(`expected a double-quoted property name, found ${describeChar(text, i)}`);
        str();
        ws();
        expectChar(':', "':'");
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected ',' or '}', found ${describeChar(text, i)}`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      while (true) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected ',' or ']', found ${describeChar(text, i)}`);
      }
    } else if (c === '"') str();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else fail(`expected a value, found ${describeChar(text, i)}`);
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1; // BOM is tolerated by readers; JSON.parse is not, so skip it
    value(0);
    ws();
    if (i < n) fail(`unexpected ${describeChar(text, i)} after the end of the document`);
    return null;
  } catch (e) {
    if (e instanceof ScanError) return { offset: e.offset, message: e.message };
    throw e;
  }
}

/** JSON.parse that throws a JsonSyntaxError with line and column. A leading BOM is skipped. */
export function parseJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const found = findJsonSyntaxError(text);
    // Should the scanner disagree with the engine, keep the engine's word rather than invent a location.
    if (!found) throw new JsonSyntaxError(e.message, 0, 1, 1);
    const { line, column } = lineColumn(text, found.offset);
    throw new JsonSyntaxError(found.message, found.offset, line, column);
  }
}
