// The read-only programs with checks of their own (git, jq) and the flag
// reader every table shares, case by case: the verdict, and for what runs,
// the paths, repositories and jq programs decideBashCommand then checks on
// the disk (docs/contract.md §4.3, docs/security.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassification, CommandClassifier } from '../src/index.ts';

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

type Facts = Partial<Pick<CommandClassification, 'rule' | 'readPaths' | 'git' | 'jqPrograms'>>;

/** An allowed line with exactly these facts (every one left out is empty), or an ask whose reason says `why`. */
function expectClassified(line: string, expected: Facts | string): void {
  const result = classifier.classify(line, { mode: 'default' });
  if (typeof expected === 'string') {
    expect(result.verdict, result.reason).toBe('ask');
    expect(result.reason).toContain(expected);
    return;
  }
  expect(result.verdict, result.reason).toBe('allow');
  expect({ rule: result.rule, readPaths: result.readPaths, git: result.git, jqPrograms: result.jqPrograms }).toEqual({ readPaths: [], git: [], jqPrograms: [], ...expected });
}

describe('git', () => {
  const here = (subcommand: string, extra: { files?: string[] } = {}) => ({ directory: '.', subcommand, ...extra });
  it.each<[string, Facts | string]>([
    ['git status', { rule: 'read_only:git status', git: [here('status')] }],
    ['git', { rule: 'read_only:git', git: [{ directory: '.', subcommand: undefined }] }],
    ['git --no-pager --no-optional-locks log -p', { rule: 'read_only:git log', git: [here('log')] }],
    // -C moves where git starts, each relative to the one before; the directory is read.
    ['git -C sub status', { rule: 'read_only:git status', readPaths: [{ path: 'sub' }], git: [{ directory: 'sub', subcommand: 'status' }] }],
    ['git -C sub -C inner log', { rule: 'read_only:git log', readPaths: [{ path: 'sub/inner' }], git: [{ directory: 'sub/inner', subcommand: 'log' }] }],
    ['git -C sub -C /abs -C rel log', { rule: 'read_only:git log', readPaths: [{ path: '/abs/rel' }], git: [{ directory: '/abs/rel', subcommand: 'log' }] }],
    ['git -C', 'git -C expects a value'],
    ['git -C s* status', 'a glob in the directory is only known when bash expands it'],
    // Configuration and other repositories before the subcommand.
    ['git -c core.pager=x log', 'git -c sets configuration'],
    ['git -ccore.pager=x log', 'git -c sets configuration'],
    ['git --config-env=core.pager=X log', 'git --config-env sets configuration'],
    ['git --git-dir=elsewhere log', 'git --git-dir points at another repository'],
    ['git -p log', 'git -p runs a pager'],
    ['git --help', 'opens the manual'],
    ['git --bare log', 'git --bare before the subcommand is not a known-safe option'],
    ['git push', 'git push is not on the read-only list'],
    // After the subcommand: options that write or run, and their abbreviations.
    ['git log --output=x', 'git log --output=x writes its output to a file'],
    ['git log --outp=x', 'this one may be --output; write the option in full'],
    ['git diff --ext-diff', 'runs an external diff program'],
    ['git log --text', { rule: 'read_only:git log', git: [here('log')] }],
    ['git log -- --output=x', { rule: 'read_only:git log', readPaths: [{ path: '--output=x' }], git: [here('log')] }],
    // Options whose value is a file git reads, in each spelling.
    ['git blame --contents f.txt g', { rule: 'read_only:git blame', readPaths: [{ path: 'f.txt' }, { path: 'g' }], git: [here('blame', { files: ['f.txt'] })] }],
    ['git blame --contents=f.txt g', { rule: 'read_only:git blame', readPaths: [{ path: 'f.txt' }, { path: 'g' }], git: [here('blame', { files: ['f.txt'] })] }],
    ['git blame --contents', 'git blame --contents expects a file'],
    ['git blame --contents ""', 'git blame --contents expects a file'],
    ['git blame --contents x*', 'a glob in a file git reads is only known when bash expands it'],
    ['git blame -S revs g', { rule: 'read_only:git blame', readPaths: [{ path: 'revs' }, { path: 'g' }], git: [here('blame', { files: ['revs'] })] }],
    ['git blame -Srevs g', { rule: 'read_only:git blame', readPaths: [{ path: 'revs' }, { path: 'g' }], git: [here('blame', { files: ['revs'] })] }],
    ['git blame -wSrevs g', { rule: 'read_only:git blame', readPaths: [{ path: 'revs' }, { path: 'g' }], git: [here('blame', { files: ['revs'] })] }],
    ['git blame -wS revs g', { rule: 'read_only:git blame', readPaths: [{ path: 'revs' }, { path: 'g' }], git: [here('blame', { files: ['revs'] })] }],
    ['git blame -S', 'git blame -S expects a file'],
    [
      'git -C sub blame --ignore-revs-file r g',
      { rule: 'read_only:git blame', readPaths: [{ path: 'sub' }, { path: 'sub/r' }, { path: 'sub/g' }], git: [{ directory: 'sub', subcommand: 'blame', files: ['r'] }] },
    ],
    ['git ls-files --exclude-per-directory=a/b', 'takes a file name, not a path'],
    ['git ls-files --exclude-per-directory=.ign', { rule: 'read_only:git ls-files', readPaths: [{ path: '.ign' }], git: [here('ls-files', { files: ['.ign'] })] }],
    ['git ls-files -X ex', { rule: 'read_only:git ls-files', readPaths: [{ path: 'ex' }], git: [here('ls-files', { files: ['ex'] })] }],
    ['git diff -O order a', { rule: 'read_only:git diff', readPaths: [{ path: 'order' }, { path: 'a' }], git: [here('diff', { files: ['order'] })] }],
    ['git rev-parse --resolve-git-dir d', { rule: 'read_only:git rev-parse', readPaths: [{ path: 'd' }], git: [here('rev-parse', { files: ['d'] })] }],
    // Any other word may be a path, from where git starts.
    ['git diff -- a b', { rule: 'read_only:git diff', readPaths: [{ path: 'a' }, { path: 'b' }], git: [here('diff')] }],
    ['git -C sub diff a /abs', { rule: 'read_only:git diff', readPaths: [{ path: 'sub' }, { path: 'sub/a' }, { path: '/abs' }], git: [{ directory: 'sub', subcommand: 'diff' }] }],
    ['git diff x*', { rule: 'read_only:git diff', readPaths: [{ path: '.', glob: true }], git: [here('diff')] }],
  ])('%s', (line, expected) => expectClassified(line, expected));
});

describe('jq', () => {
  it.each<[string, Facts | string]>([
    ['jq . a.json', { rule: 'read_only:jq', readPaths: [{ path: 'a.json' }] }],
    ['jq -nr 1', { rule: 'read_only:jq' }],
    // -f makes the first operand the program file (jq 1.6: `jq . -f prog.jq` reads the program from `.`).
    ['jq -f prog.jq a.json', { rule: 'read_only:jq', readPaths: [{ path: 'prog.jq' }, { path: 'a.json' }], jqPrograms: ['prog.jq'] }],
    ['jq --from-file prog.jq in.json', { rule: 'read_only:jq', readPaths: [{ path: 'prog.jq' }, { path: 'in.json' }], jqPrograms: ['prog.jq'] }],
    ['jq -nf prog.jq', { rule: 'read_only:jq', readPaths: [{ path: 'prog.jq' }], jqPrograms: ['prog.jq'] }],
    ['jq -n -f prog.jq', { rule: 'read_only:jq', readPaths: [{ path: 'prog.jq' }], jqPrograms: ['prog.jq'] }],
    ['jq -f', 'jq -f expects a program file'],
    ['jq -f prog.jq -f other.jq', 'write -f (or --from-file) once, right before the program file'],
    ['jq . -f prog.jq', 'write -f (or --from-file) once, right before the program file'],
    ['jq -fn prog.jq', 'write -f (or --from-file) once, right before the program file'],
    ['jq -f x*.jq', 'a glob in the program file is only known when bash expands it'],
    // An inline program that loads modules.
    ['jq \'import "a" as a; .\' f', 'loads modules from directories the program itself can name'],
    ['jq -n \'include "x"; 1\'', 'loads modules'],
    ['jq -n modulemeta', 'loads modules'],
    ['jq -L lib . f', 'jq -L adds a library directory'],
    ['jq --library-path=lib . f', 'jq --library-path adds a library directory'],
    // Files read through options, and values that are not files.
    ['jq -n --rawfile v data.txt \'$v\'', { rule: 'read_only:jq', readPaths: [{ path: 'data.txt' }] }],
    ['jq --slurpfile v data.json -n 1', { rule: 'read_only:jq', readPaths: [{ path: 'data.json' }] }],
    ['jq --arg a b . f', { rule: 'read_only:jq', readPaths: [{ path: 'f' }] }],
    ['jq --arg a', 'jq --arg expects two values'],
    ['jq --indent 2 . f', { rule: 'read_only:jq', readPaths: [{ path: 'f' }] }],
    ['jq --indent=2 . f', { rule: 'read_only:jq', readPaths: [{ path: 'f' }] }],
    ['jq --indent', 'jq --indent expects a value'],
    ['jq --tab=1 . f', 'jq --tab takes no value'],
    ['jq -- -f f', { rule: 'read_only:jq', readPaths: [{ path: 'f' }] }],
  ])('%s', (line, expected) => expectClassified(line, expected));
});

describe('the flag tables and the checks of single programs', () => {
  it.each<[string, Facts | string]>([
    ['printf -v x hi', 'printf -v assigns a shell variable'],
    ['printf %s x', { rule: 'read_only:printf' }],
    ['printf', { rule: 'read_only:printf' }],
    ['env', { rule: 'read_only:env' }],
    ['env FOO=1 ls', 'only a bare env is read-only'],
    ['date +%s', { rule: 'read_only:date' }],
    ['date 0101', 'date with an operand other than +FORMAT sets the clock'],
    ['date -r f', { rule: 'read_only:date', readPaths: [{ path: 'f' }] }],
    ['diff a b', { rule: 'read_only:diff', readPaths: [{ path: 'a' }, { path: 'b' }] }],
    ['diff -r a b', 'diff -r follows symlinks while it walks'],
    ['diff --recursive a b', 'diff -r follows symlinks while it walks'],
    ['diff -r --no-dereference a b', { rule: 'read_only:diff', readPaths: [{ path: 'a' }, { path: 'b' }] }],
    // grep -R marks each path for a walk; -r follows no symlink it meets.
    ['grep -R x', { rule: 'read_only:grep', readPaths: [{ path: '.', walk: true }] }],
    ['grep -R x a b', { rule: 'read_only:grep', readPaths: [{ path: 'a', walk: true }, { path: 'b', walk: true }] }],
    ['grep --dereference-recursive x a', { rule: 'read_only:grep', readPaths: [{ path: 'a', walk: true }] }],
    ['grep -r x a', { rule: 'read_only:grep', readPaths: [{ path: 'a' }] }],
    ['grep -R --bogus x a', 'grep --bogus is not a known-safe flag'],
    // The flag reader: numeric flags, `--`, values attached, after `=` or in the next word.
    ['grep -5 x f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['head -5 f', { rule: 'read_only:head', readPaths: [{ path: 'f' }] }],
    ['cat -- -n f', { rule: 'read_only:cat', readPaths: [{ path: '-n' }, { path: 'f' }] }],
    ['wc --total=only f', { rule: 'read_only:wc', readPaths: [{ path: 'f' }] }],
    ['wc --total only f', { rule: 'read_only:wc', readPaths: [{ path: 'f' }] }],
    ['wc --total', 'wc --total expects a value'],
    ['wc --lines=3 f', 'wc --lines takes no value'],
    ['wc --files0-from=x', 'wc --files0-from reads the names of the files to read from a file'],
    ['grep --color x f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['grep --color=always x f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['grep --context 3 x f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['grep -A3 x f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['grep -A 3 x f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['grep -eX f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['grep -e x -e y f', { rule: 'read_only:grep', readPaths: [{ path: 'f' }] }],
    ['grep -A', 'grep -A expects a value'],
    ['grep -Xq f', 'grep -X is not a known-safe flag'],
    ['od -w f', { rule: 'read_only:od', readPaths: [{ path: 'f' }] }],
    ['od -w8 f', { rule: 'read_only:od', readPaths: [{ path: 'f' }] }],
    ['uniq a', { rule: 'read_only:uniq', readPaths: [{ path: 'a' }] }],
    ['uniq a b', 'uniq writes its second operand as an output file'],
    ['uniq a*', 'uniq with a glob could receive an output file operand'],
  ])('%s', (line, expected) => expectClassified(line, expected));
});
