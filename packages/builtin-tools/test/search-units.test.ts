import { describe, expect, it } from 'vitest';
import { BoundedSortedList } from '../src/search/bounded-sorted.ts';
import { compileSearchPattern, requiredLiteral } from '../src/search/regex.ts';
import { compareBytes } from '../src/shared/text.ts';

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
