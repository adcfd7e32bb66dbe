// A whole line as classifyTree reads it: characters bash reads otherwise,
// where cd moves later paths, redirections on the gate, what may follow a
// cp or mv, and the reason and rule an allowed line carries
// (docs/contract.md §4.3, docs/security.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier, PermissionMode } from '../src/index.ts';

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

const classify = (line: string, mode: PermissionMode = 'default') => classifier.classify(line, { mode });

const READ_ONLY = 'every command is on the read-only list with known-safe flags';
const WITH_GATE = 'every command is on the read-only list or the acceptEdits filesystem gate';

describe('characters bash reads otherwise', () => {
  it.each([
    ['x'.repeat(16 * 1024 + 1), 'the command is longer than 16384 characters'],
    ['ls\0x', 'the command contains a NUL character'],
    ['ls\rx', 'the control character U+000D'],
    ['ls\u000bx', 'the control character U+000B'],
    ['ls\u001fx', 'the control character U+001F'],
    ['ls\u007fx', 'the control character U+007F'],
    ['ls a\\ b', 'a backslash before a blank makes one word of two'],
    ['ls a\\\tb', 'a backslash before a blank makes one word of two'],
    ['ls \\\n-l', 'a backslash at the end of a line joins the next line to the word before it'],
  ])('%j asks: %s', (line, why) => {
    const result = classify(line);
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });

  it('tabs, line ends and a line of exactly the longest length are read as bash reads them', () => {
    expect(classify('ls\tx\nls y')).toMatchObject({ verdict: 'allow', readPaths: [{ path: 'x' }, { path: 'y' }] });
    expect(classify(`echo ${'x'.repeat(16 * 1024 - 5)}`).verdict).toBe('allow');
    // A # inside a word is no comment to bash: `x\;#c` is the word `x;#c`, `x\\;#c` the word `x\` and a comment.
    expect(classify('echo x\\;#c').commands.map((command) => command.argv)).toEqual([['echo', 'x;#c']]);
    expect(classify('echo x\\\\;#c').commands.map((command) => command.argv)).toEqual([['echo', 'x\\']]);
    expect(classify('ls #c')).toMatchObject({ verdict: 'allow', commands: [{ argv: ['ls'] }] });
  });
});

describe('paths after a cd', () => {
  it('reads each later path from every directory cd may leave', () => {
    expect(classify('cd src && cat a')).toMatchObject({ verdict: 'allow', rule: 'read_only:cd, read_only:cat', readPaths: [{ path: 'src' }, { path: 'a' }, { path: 'src/a' }] });
    expect(classify('cd src || cat a').readPaths).toEqual([{ path: 'src' }, { path: 'a' }, { path: 'src/a' }]);
    // Three cds leave eight directories, the most a line may: each later path is read from all of them.
    expect(classify('cd a && cd b && cd c && ls').readPaths).toEqual([{ path: 'a' }, { path: 'b' }, { path: 'a/b' }, { path: 'c' }, { path: 'a/c' }, { path: 'b/c' }, { path: 'a/b/c' }]);
    expect(classify('cd a && cd b && cat f').readPaths).toEqual([{ path: 'a' }, { path: 'b' }, { path: 'a/b' }, { path: 'f' }, { path: 'a/f' }, { path: 'b/f' }, { path: 'a/b/f' }]);
    expect(classify('cd /abs && cat f /etc/x').readPaths).toEqual([{ path: '/abs' }, { path: 'f' }, { path: '/etc/x' }, { path: '/abs/f' }, { path: '/etc/x' }]);
    expect(classify('cd src && cat ./*.txt').readPaths).toEqual([{ path: 'src' }, { path: '.', glob: true }, { path: 'src/.', glob: true }]);
    expect(classify('cd src && grep -R x d').readPaths).toEqual([{ path: 'src' }, { path: 'd', walk: true }, { path: 'src/d', walk: true }]);
    expect(classify('cd src && git -C sub log').git).toEqual([{ directory: 'sub', subcommand: 'log' }, { directory: 'src/sub', subcommand: 'log' }]);
    expect(classify('cd src && git blame -S revs f').git).toEqual([{ directory: '.', subcommand: 'blame', files: ['revs'] }, { directory: 'src/.', subcommand: 'blame', files: ['revs'] }]);
    expect(classify('cd src && jq -f p.jq f').jqPrograms).toEqual(['p.jq', 'src/p.jq']);
  });

  it.each([
    ['cd src && cat ../a', 'the path "../a" has a .. that the program resolves from wherever a symlink before it leads'],
    // The directory of git -C and of cd is read too, so its .. is met as a read path first.
    ['cd src && git -C ../x log', 'the path "../x" has a ..'],
    ['cd src && jq -f ../p.jq f', 'the path "../p.jq" has a ..'],
    ['cat a/../b', 'the path "a/../b" has a ..'],
    ['cat /x/../y', 'the path "/x/../y" has a ..'],
    ['cd a/../b', 'the path "a/../b" has a ..'],
    ['cd s* && ls', 'cd s*: a glob in the directory is only known when bash expands it'],
    ['cd a && cd b && cd c && cd d && ls', 'more than 8 cd targets in one line are not classified'],
    ['cd', 'cd without a directory goes to the home directory'],
    ['cd a b', 'cd takes one directory'],
    ['cd -', 'cd - goes back to a directory the classifier does not know'],
    ['cat < ./*.txt', 'a glob in a < redirect is only known when the shell runs'],
  ])('%s asks: %s', (line, why) => {
    const result = classify(line);
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });

  it('takes leading .. from the start, and reads < redirects as reads', () => {
    expect(classify('cat ../a ./.. ../../b')).toMatchObject({ verdict: 'allow', readPaths: [{ path: '../a' }, { path: './..' }, { path: '../../b' }] });
    expect(classify('cd ../x && ls')).toMatchObject({ verdict: 'allow', readPaths: [{ path: '../x' }] });
    expect(classify('cat < f < "g h"')).toMatchObject({ verdict: 'allow', readPaths: [{ path: 'f' }, { path: 'g h' }] });
  });
});

describe('redirections and the gate', () => {
  it('writes a redirect target on the gate, once per rule', () => {
    expect(classify('echo x > out; echo y >> out2', 'acceptEdits')).toMatchObject({
      verdict: 'allow',
      list: 'filesystem_gate',
      rule: 'read_only:echo, filesystem_gate:>',
      reason: WITH_GATE,
      writePaths: ['out', 'out2'],
    });
    expect(classify('echo x >> /dev/null', 'acceptEdits')).toMatchObject({ verdict: 'allow', list: 'read_only', reason: READ_ONLY, writePaths: [] });
    expect(classify('rm -r x y', 'acceptEdits')).toMatchObject({ verdict: 'allow', list: 'filesystem_gate', writePaths: ['x', 'y'], recursivePaths: ['x', 'y'] });
  });

  it.each([
    ['echo x > out', 'default', 'the redirect "> out" may write a file; it runs on its own only in acceptEdits mode'],
    ['echo x > ~/f', 'acceptEdits', 'a ~ or brace in the target is only known when the shell runs'],
    ['echo x > ""', 'acceptEdits', 'an empty target is not classified'],
    ['echo x > o*', 'acceptEdits', 'a glob in the target is only known when the shell runs'],
    ['echo x > a/../b', 'acceptEdits', 'the redirect target "a/../b" has a ..'],
    ['touch a/../b', 'acceptEdits', 'the path "a/../b" has a ..'],
    ['cp a b && cat b', 'acceptEdits', 'a command after a cp or mv in the same line may read through what that one just made'],
    ['mv a b && git status', 'acceptEdits', 'may read through what that one just made'],
    ['cp a b && echo x > c', 'acceptEdits', 'a redirect after a cp or mv in the same line may write through what that one just made'],
    ['cp a b && touch c', 'acceptEdits', 'a command after a cp or mv in the same line may act through what that one just made'],
    ['cd src && touch x', 'acceptEdits', "a cd in the same line moves where the filesystem command's paths point"],
    ['touch x && cd src', 'acceptEdits', "a cd in the same line moves where the filesystem command's paths point"],
  ] as const)('%s (%s) asks: %s', (line, mode, why) => {
    const result = classify(line, mode);
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });

  it.each([
    // cp writes each source at destination/<name> when the destination is a directory, through what is there; -r makes new trees.
    ['cp a b c/', ['a', 'b', 'c/'], ['c/a', 'c/b'], [], []],
    ['cp a dir//', ['a', 'dir//'], ['dir/a'], [], []],
    ['cp src/ dst', ['src/', 'dst'], ['dst/src'], [], []],
    ['cp -t dst a b/', ['a', 'b/', 'dst'], ['dst/a', 'dst/b'], [], []],
    ['cp --target-directory=dst a', ['a', 'dst'], ['dst/a'], [], []],
    ['cp -T a b', ['a', 'b'], [], [], []],
    ['cp -r src dst', ['src', 'dst'], ['dst/src'], ['dst/src'], []],
    ['cp -a src/x dst/', ['src/x', 'dst/'], ['dst/x'], ['dst/x'], []],
    ['cp -R src dst', ['src', 'dst'], ['dst/src'], ['dst/src'], []],
    ['cp --recursive src dst', ['src', 'dst'], ['dst/src'], ['dst/src'], []],
    ['cp --archive src dst', ['src', 'dst'], ['dst/src'], ['dst/src'], []],
    // What mv and rm -r take away must not be or hold a root.
    ['mv a b c', ['a', 'b', 'c'], [], [], ['a', 'b']],
    ['mv -t dst a b', ['a', 'b', 'dst'], [], [], ['a', 'b']],
    ['mv -T a b', ['a', 'b'], [], [], ['a']],
    ['rm a b', ['a', 'b'], [], [], []],
    ['rm -r a b', ['a', 'b'], [], [], ['a', 'b']],
    ['rm -d a', ['a'], [], [], ['a']],
    ['rm ./*.o', ['.'], [], [], []],
  ])('%s writes %j, through %j, new trees %j, taking away %j', (line, writePaths, writeThrough, newTrees, recursivePaths) => {
    expect(classify(line, 'acceptEdits')).toMatchObject({ verdict: 'allow', writePaths, writeThrough, newTrees, recursivePaths });
  });

  it('asks for cp -rT, which merges into whatever the destination holds', () => {
    expect(classify('cp -rT src dst', 'acceptEdits').reason).toContain('cp -T with a recursive copy writes into whatever entries dst already holds, symlinks included');
  });

  it('a gate command before a cp runs; echo after one, reading nothing, runs too', () => {
    expect(classify('touch a && cp a b', 'acceptEdits')).toMatchObject({ verdict: 'allow', writePaths: ['a', 'a', 'b'] });
    expect(classify('cp a b && echo done', 'acceptEdits').verdict).toBe('allow');
  });

  it('names the allow rule in the reason of a line it let run, and the gate when that was used too', () => {
    const allowRules = [{ name: 'allow:bash:npm test', prefix: ['npm', 'test'] }];
    expect(classifier.classify('npm test && ls', { mode: 'default', allowRules })).toMatchObject({
      verdict: 'allow',
      list: 'allow_rule',
      rule: 'allow:bash:npm test, read_only:ls',
      reason: 'every command matches an allow rule or is on the read-only list',
    });
    expect(classifier.classify('npm test > log', { mode: 'acceptEdits', allowRules })).toMatchObject({
      list: 'allow_rule',
      reason: 'every command matches an allow rule or is on the read-only list or the acceptEdits filesystem gate',
    });
  });
});
