// The paths a read-only command reads, as the path guard then checks them:
// find's starting points and file tests, files named by an option's value
// (attached, after `=` or in the next word), operands after grep's pattern,
// and a glob checked through the directory it lists (docs/security.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassification, CommandClassifier } from '../src/index.ts';

type ReadPath = CommandClassification['readPaths'][number];

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

describe('what a command reads', () => {
  it.each<[string, ReadPath[]]>([
    // find walks the directory it runs in without a starting point; -H and -P come before them.
    ['find', [{ path: '.' }]],
    ['find . -name x', [{ path: '.' }]],
    ['find -H src -type f', [{ path: 'src' }]],
    ['find -P a b -maxdepth 2', [{ path: 'a' }, { path: 'b' }]],
    ['find -H -P a', [{ path: 'a' }]],
    ['find src ! -name x -o -empty', [{ path: 'src' }]],
    ['find -name x', [{ path: '.' }]],
    ['find src -newer ref -samefile ./*.o', [{ path: 'src' }, { path: 'ref' }, { path: '.', glob: true }]],
    ['find src -anewer a -cnewer b -size +1k', [{ path: 'src' }, { path: 'a' }, { path: 'b' }]],
    // Values that name a file, in each spelling.
    ['grep -f pats.txt f', [{ path: 'pats.txt' }, { path: 'f' }]],
    ['grep --file=pats.txt f', [{ path: 'pats.txt' }, { path: 'f' }]],
    ['grep --file pats.txt f', [{ path: 'pats.txt' }, { path: 'f' }]],
    ['grep -fpats.txt f', [{ path: 'pats.txt' }, { path: 'f' }]],
    ['grep -if pats.txt f', [{ path: 'pats.txt' }, { path: 'f' }]],
    ['grep --exclude-from ex -r x d', [{ path: 'ex' }, { path: 'd' }]],
    ['date -f dates.txt', [{ path: 'dates.txt' }]],
    ['date --file=dates.txt +%s', [{ path: 'dates.txt' }]],
    ['sort -T tmp f', [{ path: 'tmp' }, { path: 'f' }]],
    ['rg -f pats x', [{ path: 'pats' }, { path: 'x' }]],
    // grep's first operand is the pattern unless -e or -f gave one.
    ['grep x f g', [{ path: 'f' }, { path: 'g' }]],
    ['grep -e x f g', [{ path: 'f' }, { path: 'g' }]],
    ['grep --regexp=x f', [{ path: 'f' }]],
    ['grep x', []],
    // A glob is checked through the directory it lists; a quoted one is a name.
    ['cat /*', [{ path: '/', glob: true }]],
    ['cat ./a*', [{ path: '.', glob: true }]],
    ['cat src/deep/*.ts', [{ path: 'src/deep', glob: true }]],
    ['cat "a*"', [{ path: 'a*' }]],
    ['cat -- -', [{ path: '-' }]],
  ])('%s reads %j', (line, readPaths) => {
    const result = classifier.classify(line, { mode: 'default' });
    expect(result.verdict, result.reason).toBe('allow');
    expect(result.readPaths).toEqual(readPaths);
  });

  it.each([
    ['find -L .', 'find -L follows symlinks while it walks'],
    ['find -H -L .', 'find -L follows symlinks while it walks'],
    ['find src -follow', 'find -follow follows symlinks while it walks'],
    ['find src -newer', 'find -newer expects a value'],
    ['find src -exec rm {} ;', 'find -exec runs a program on every match'],
    ['find src -execdir rm {} +', 'find -execdir runs a program on every match'],
    ['find src -ok rm {} ;', 'find -ok runs a program on every match'],
    ['find src -delete', 'find -delete removes every match'],
    ['find src -fprint out', 'find -fprint writes a file'],
    ['find src -fls out', 'find -fls writes a file'],
    ['find src -bogus', 'find -bogus is not a known-safe test or action'],
    ['find src -newer a/*/b', 'find with a glob before the last / is not classified'],
    ['find a/*/b', 'find with a glob before the last / is not classified'],
    ['cat a/*/b', 'cat with a glob before the last / is not classified'],
  ])('%s asks: %s', (line, why) => {
    const result = classifier.classify(line, { mode: 'default' });
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });
});
