import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedSortedList } from '../src/bounded-sorted.ts';
import { compareUtf8 as compareBytes } from '../src/compare.ts';
import { countMatchingLines } from '../src/file-matcher.ts';
import { compileSearchPattern, requiredLiteral, requiredLiterals } from '../src/search-pattern.ts';

describe('the literal prefilter', () => {
  it('finds only literals every match must contain', () => {
    expect(requiredLiteral('needle')).toBe('needle');
    expect(requiredLiteral('foo\\.bar')).toBe('foo.bar');
    expect(requiredLiteral('import .* from')).toBe('import ');
    expect(requiredLiteral('colou?r')).toBe('colo');
    expect(requiredLiteral('ab*cdef')).toBe('cdef');
    expect(requiredLiteral('x{0,3}yz')).toBe('yz');
    expect(requiredLiteral('[abc]+tail')).toBe('tail');
    expect(requiredLiteral('\\bword\\b')).toBe('word');
    expect(requiredLiteral('a|b')).toBeUndefined();
    expect(requiredLiteral('(?i)needle')).toBeUndefined();
    expect(requiredLiteral('(foo)?bar')).toBeUndefined();
    expect(requiredLiteral('𝒳?y')).toBe('y');
  });

  it('is off for caseInsensitive, and every prefiltered pattern still agrees with the engine', () => {
    expect(compileSearchPattern('Needle', { caseInsensitive: true }).requiredLiteral).toBeUndefined();
    const lines = ['colour', 'color', 'import x from y', 'ab cdef', 'yz', 'cdtail', 'a word here'];
    for (const pattern of ['colou?r', 'import .* from', 'ab*cdef', 'x{0,3}yz', '[abc]+tail', '\\bword\\b']) {
      const compiled = compileSearchPattern(pattern, { caseInsensitive: false });
      for (const line of lines) if (compiled.test(line)) expect(line).toContain(compiled.requiredLiteral);
    }
  });
});

describe('BoundedSortedList', () => {
  it('keeps the smallest items in order whatever the arrival order', () => {
    const items = ['b', 'a/b', 'a-b', 'a', 'z', 'ä', 'A', 'a.b'];
    const expected = [...items].sort(compareBytes).slice(0, 4);
    for (let shift = 0; shift < items.length; shift += 1) {
      const list = new BoundedSortedList<string>({ capacity: 4, compare: compareBytes });
      for (const item of [...items.slice(shift), ...items.slice(0, shift)]) list.add(item);
      expect(list.items).toEqual(expected);
      expect(list.rejected).toBe(items.length - 4);
    }
  });
});

describe('countMatchingLines: the byte-level line scan agrees with splitting the decoded text', () => {
  const naive = (text: string, pattern: ReturnType<typeof compileSearchPattern>) => {
    const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.filter((line) => pattern.test(line.endsWith('\r') ? line.slice(0, -1) : line)).length;
  };

  it('for literals and regexes with a required literal, over random texts (property)', () => {
    const patterns = ['ab', 'a.b', '^ab', 'ab$', 'x?ab+', 'ab\\d', '\\bab\\b', 'é', 'ab.*ba', 'xa\\s*ab'];
    const piece = fc.constantFrom('ab', 'a', 'b', 'x', ' ', '\n', '\r\n', '\r', '1', 'é', '\uFEFF', 'abab');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom(...patterns), fc.boolean(), (pieces, source, bom) => {
        const text = (bom ? '\uFEFF' : '') + pieces.join('');
        const pattern = compileSearchPattern(source, { caseInsensitive: false });
        const literal = Buffer.from(pattern.requiredLiteral ?? '', 'utf8');
        fc.pre(literal.length > 0);
        const buffer = Buffer.from(text, 'utf8');
        const plain = pattern.requiredLiteral === source;
        expect(countMatchingLines(buffer, literal, pattern, { plain, firstOnly: false })).toBe(naive(text, pattern));
        expect(countMatchingLines(buffer, literal, pattern, { plain, firstOnly: true })).toBe(Math.min(1, naive(text, pattern)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('BoundedSortedList with a weight bound', () => {
  it('keeps the smallest items that reach the weight, one past it, whatever the arrival order (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { maxLength: 60 }), fc.integer({ min: 1, max: 200 }), (values, maxWeight) => {
        const list = new BoundedSortedList<number>({ capacity: 1000, compare: (a, b) => a - b, weight: (value) => (value % 17) + 1, maxWeight });
        for (const value of values) list.add(value);
        const sorted = [...values].sort((a, b) => a - b);
        const expected: number[] = [];
        let total = 0;
        for (const value of sorted) {
          if (total >= maxWeight) break;
          expected.push(value);
          total += (value % 17) + 1;
        }
        expect(list.items).toEqual(expected);
        expect(list.overWeight).toBe(total >= maxWeight);
      }),
      { numRuns: 300 },
    );
  });

  it('with an offset, weighs only the items after the first offset, whatever the arrival order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 30 }),
        (values, maxWeight, offset) => {
          const weight = (value: number) => (value % 17) + 1;
          const list = new BoundedSortedList<number>({ capacity: 1000, compare: (a, b) => a - b, weight, maxWeight, offset });
          for (const value of values) list.add(value);
          const sorted = [...values].sort((a, b) => a - b);
          const expected = sorted.slice(0, offset);
          let total = 0;
          for (const value of sorted.slice(offset)) {
            if (total >= maxWeight) break;
            expected.push(value);
            total += weight(value);
          }
          expect(list.items).toEqual(expected);
          expect(list.overWeight).toBe(total >= maxWeight);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the other literals of a pattern', () => {
  it('are every plain run a match must hold, longest first; none for alternation or case-insensitive search', () => {
    expect(requiredLiterals('function\\s+use[A-Z]\\w+')).toEqual(['function', 'use']);
    expect(requiredLiterals('import .* from')).toEqual(['import ', ' from']);
    expect(requiredLiterals('a|b')).toEqual([]);
    expect(compileSearchPattern('foo.*barbaz', { caseInsensitive: false }).otherLiterals.map(String)).toEqual(['foo']);
    expect(compileSearchPattern('foo.*barbaz', { caseInsensitive: true }).otherLiterals).toEqual([]);
  });
});
