import { expect, it } from 'vitest';
import { parseAlternates } from '../src/git-config.ts';

it('count-objects -v: each alternate line is read, and a quoted one is refused rather than guessed', () => {
  expect(parseAlternates('count: 0\nalternate: /a/objects\nalternate: /b c/objects\n')).toEqual(['/a/objects', '/b c/objects']);
  expect(() => parseAlternates('alternate: "/a\\nb/objects"\n')).toThrow('quotes');
});
