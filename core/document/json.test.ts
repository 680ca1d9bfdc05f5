import { describe, expect, it } from 'vitest';
import { mulberry32, sampleDocument } from './fixtures';
import { findJsonSyntaxError, JsonSyntaxError, lineColumn, parseJson } from './json';
import { serializeDocument } from './serialize';

function engineAccepts(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('JSON syntax errors', () => {
  it('the scanner agrees with JSON.parse on 20000 seeded random mutations of a document (seed 4242)', () => {
    const rand = mulberry32(4242);
    const base = serializeDocument(sampleDocument()).slice(0, 3000);
    // Close the truncated text enough that most mutations hit real structure.
    const alphabet = '{}[],:"\\ \n0123456789.eE+-tfnaulrsx\u0001';
    let disagreements = 0;
    let invalid = 0;
    for (let n = 0; n < 20000; n++) {
      let text = n % 2 === 0 ? base : '{"a": [1, 2.5e-3, {"b": "c\\u00e9\\n"}], "d": null, "e": true, "f": -0}';
      const edits = 1 + Math.floor(rand() * 3);
      for (let k = 0; k < edits; k++) {
        const at = Math.floor(rand() * (text.length + 1));
        const op = rand();
        const ch = alphabet[Math.floor(rand() * alphabet.length)];
        if (op < 0.4) text = text.slice(0, at) + ch + text.slice(at);
        else if (op < 0.8) text = text.slice(0, at) + text.slice(at + 1);
        else text = text.slice(0, at) + ch + text.slice(at + 1);
      }
      const found = findJsonSyntaxError(text);
      const ok = engineAccepts(text);
      if (!ok) invalid++;
      if ((found === null) !== ok) disagreements++;
      if (found) {
        // The reported offset is a position where a valid prefix stops.
        expect(found.offset).toBeGreaterThanOrEqual(0);
        expect(found.offset).toBeLessThanOrEqual(text.length);
      }
    }
    expect(invalid, 'most mutations break the JSON').toBeGreaterThan(5000);
    expect(disagreements, 'texts where the scanner and JSON.parse disagree').toBe(0);
  });

  it('the reported offset is where the first bad character is', () => {
    expect(findJsonSyntaxError('[1, 2, x]')).toEqual({ offset: 7, message: 'expected a value, found "x"' });
    expect(findJsonSyntaxError('{"a" 1}')).toEqual({ offset: 5, message: "expected ':', found \"1\"" });
    expect(findJsonSyntaxError('[01]')).toEqual({ offset: 2, message: "expected ',' or ']', found \"1\"" });
    expect(findJsonSyntaxError('[1.]')).toEqual({ offset: 3, message: 'expected a digit, found "]"' });
    expect(findJsonSyntaxError('"\\x"')).toEqual({ offset: 2, message: 'invalid escape "x"' });
    expect(findJsonSyntaxError('tru')).toEqual({ offset: 3, message: 'unexpected end of input' });
    expect(findJsonSyntaxError('{"a": 1}')).toBeNull();
  });

  it('line and column are 1-based and count from the last newline', () => {
    expect(lineColumn('abc', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('ab\ncd\nef', 6)).toEqual({ line: 3, column: 1 });
    try {
      parseJson('{\n  "a": 1\n  "b": 2\n}');
      throw new Error('expected a syntax error');
    } catch (e) {
      expect(e).toBeInstanceOf(JsonSyntaxError);
      expect((e as JsonSyntaxError).line).toBe(3);
      expect((e as JsonSyntaxError).column).toBe(3);
      expect((e as Error).message).toBe(`line 3, column 3: expected ',' or '}', found "\\""`);
    }
  });
});
