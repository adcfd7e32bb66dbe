import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { lineTests, matchStart } from '../src/match-start.ts';
import { compileSearchPattern } from '../src/search-pattern.ts';

describe('where a match can begin', () => {
  it('is the run of plain characters a pattern opens with, or the line start', () => {
    expect(matchStart('function\\s+use[A-Z]\\w+')).toEqual({ kind: 'prefix', text: 'function' });
    expect(matchStart('import\\s+\\{[^}]*\\}\\s+from')).toEqual({ kind: 'prefix', text: 'import' });
    expect(matchStart('foo\\.bar\\(x')).toEqual({ kind: 'prefix', text: 'foo.bar(x' });
    expect(matchStart('^export')).toEqual({ kind: 'lineStart' });
    // A quantifier makes the character before it optional (or repeats it a chosen number of times)...
    expect(matchStart('colou?r')).toEqual({ kind: 'prefix', text: 'colo' });
    expect(matchStart('abcd*e')).toEqual({ kind: 'prefix', text: 'abc' });
    expect(matchStart('abcd{0,2}')).toEqual({ kind: 'prefix', text: 'abc' });
    expect(matchStart('abc\\.?d')).toEqual({ kind: 'prefix', text: 'abc' });
    // ...where + leaves at least one.
    expect(matchStart('abcd+e')).toEqual({ kind: 'prefix', text: 'abcd' });
    expect(matchStart('größe\\w')).toEqual({ kind: 'prefix', text: 'größe' });
  });

  it('is unknown for an alternation anywhere, an opening class, group, escape or flag, and runs under three bytes', () => {
    for (const pattern of ['TODO|FIXME', 'foo(bar|baz)', '[Ff]unction', '(?i)function', '\\bword', '\\Qa.b\\E', '.*x', 'ab\\s', 'abc?', 'x'])
      expect(matchStart(pattern), pattern).toBeUndefined();
    expect(matchStart('é\\w')).toBeUndefined();
    expect(matchStart('éé\\w')).toEqual({ kind: 'prefix', text: 'éé' });
  });
});

// Pieces whose combinations make lines where the prefix occurs densely, sparsely, at the very end, split by a
// multibyte character or an invalid byte, and lines long enough to take the anchored path.
const PIECES = ['function', 'functio', 'function useState', 'function  useX1', 'use', 'import { a } from', 'import', '}', 'from', ' ', '\t', 'é', '😀', 'x', 'Error extends', 'class Foo', 'class BarError extends'];
const PATTERNS = ['function\\s+use[A-Z]\\w+', 'import\\s+\\{[^}]*\\}\\s+from', 'class\\s+\\w+Error\\s+extends', '^function', '^import\\s', 'functio\\w*$', 'function\\b', 'use[A-Z]', 'éx+'];

const line = fc
  .array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 400, size: 'max' })
  .chain((pieces) => fc.tuple(fc.constant(pieces.join('')), fc.option(fc.integer({ min: 0, max: 1 << 16 }), { nil: undefined })));

describe('testing a line from where a match can begin', () => {
  it('answers as the engine does on the whole line, for text and for bytes (also invalid UTF-8)', () => {
    const engines = PATTERNS.map((pattern) => ({ pattern, engine: RE2JS.compile(pattern), compiled: compileSearchPattern(pattern, { caseInsensitive: false }) }));
    fc.assert(
      fc.property(line, fc.integer({ min: 0, max: 4 }), ([text, invalidAt], extraStarts) => {
        let bytes = Buffer.from(text, 'utf8');
        if (invalidAt !== undefined && bytes.length > 0) {
          bytes = Buffer.from(bytes);
          bytes[invalidAt % bytes.length] = 0xff;
        }
        for (const { pattern, engine, compiled } of engines) {
          expect(compiled.test(text), `${pattern} on text`).toBe(engine.test(text));
          expect(compiled.testBytes(bytes), `${pattern} on bytes`).toBe(engine.test(bytes));
          // Every line long, and the engine handed the rest of it after a few starts.
          const few = lineTests(engine, matchStart(pattern), { shortLine: 0, startsPerByte: 0, extraStarts });
          expect(few.test(text), `${pattern} on text, ${extraStarts} starts`).toBe(engine.test(text));
          expect(few.testBytes(bytes), `${pattern} on bytes, ${extraStarts} starts`).toBe(engine.test(bytes));
          // An engine without the internal anchored test: the public lookingAt answers the same.
          const publicOnly = { test: (input: string | Uint8Array) => engine.test(input), matcher: (input: string | Uint8Array) => engine.matcher(input) } as unknown as RE2JS;
          const viaPublic = lineTests(publicOnly, matchStart(pattern), { shortLine: 0, startsPerByte: 0, extraStarts });
          expect(viaPublic.testBytes(bytes), `${pattern} on bytes through lookingAt`).toBe(engine.test(bytes));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('hands a line where the prefix occurs densely to the engine from the current occurrence on', () => {
    // Two starts tried one by one; the only match begins at the third.
    const tests = lineTests(RE2JS.compile('abc\\d{5}Z'), { kind: 'prefix', text: 'abc' }, { shortLine: 0, startsPerByte: 0, extraStarts: 2 });
    expect(tests.test('abcabcabc12345Z')).toBe(true);
    expect(tests.testBytes(Buffer.from('abcabcabc12345Z'))).toBe(true);
    expect(tests.test('abcabcabc1234Z')).toBe(false);
  });
});
