import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

/**
 * The classifier checks the words the tree-sitter parse shows; bash runs the
 * words its own parser makes. Where the two split a line differently (line
 * continuations, escaped blanks, comments, quotes), an allowed line could run
 * with arguments nobody checked. This property asks bash itself for the argv of
 * every simple command of each allowed line and compares it with the
 * classifier's `commands[i].argv`.
 *
 * Nothing the line names is executed: every program name in the alphabet is a
 * shell function that only records its argv (functions come before builtins
 * and PATH), any other command name lands in `command_not_found_handle`, which
 * records it too, and PATH points nowhere in an empty directory with an empty
 * environment.
 */

/** Program names in the alphabet; each becomes a recording function. */
const PROGRAMS = ['ls', 'cat', 'grep', 'wc', 'head', 'echo'] as const;

const TOKENS: readonly string[] = [
  ...PROGRAMS,
  'ls',
  'cat',
  'grep',
  '-n',
  '-e',
  '-l',
  '--output=x',
  'a.txt',
  'x',
  "'",
  '"',
  "'a b'",
  '"a b"',
  '"a\\"b"',
  '\\',
  '\\\\',
  '\\\n',
  '\\ ',
  '\\\t',
  '\\#',
  '\\"',
  "\\'",
  '#',
  'a#b',
  ' #',
  ';',
  '&&',
  '|',
  '\n',
  '\t',
  ' ',
  ' ',
  ' ',
  "$'a b'",
  "$'\\t'",
  "$'\\n'",
  "$'\\x6c\\x73'",
  "$'\\''",
  "$'\\\\'",
  "$'#'",
];

/**
 * Common choices, and rare ones the classifier mostly asks about (`\\`-newline,
 * escaped blanks, `$'…'`): rare enough that most lines still get allowed and
 * reach the bash comparison.
 */
const pick = (common: readonly string[], rare: readonly string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...common), weight: 12 }, { arbitrary: fc.constantFrom(...rare), weight: 1 });

/** Pieces a word is glued from: quotes, escapes and comment characters inside one word. */
const wordPiece = pick(
  ['a.txt', '-n', '-e', '-l', 'x', 'ls', "'a b'", '"a b"', "''", '""', '"a\\"b"', "'\\\n'", "'a\\'", '"\\\\"', '"$"', '\\#', '\\\\', '\\"', "\\'", '\\x', 'a#b', '#', "'#'", '"#"', '\\;', '\\&', '\\|', "';'", '"&&"'],
  ['--output=x', '"\\\n"', '\\ ', '\\\t', '\\\n', "$'a b'", "$'\\t'", "$'\\n'", "$'\\x6c\\x73'", "$'\\''", "$'#'", '\\'],
);

const word = fc.array(wordPiece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(''));

/** What stands between two words. */
const gap = pick([' ', ' ', '\t', '  ', ' \t '], [' \\\n', '\\\n', ' \\\n\t', '\\\n ', '\t\\\n']);

/** What stands between two commands. */
const separator = pick([';', ' ; ', ' && ', '&&', ' | ', '|', '\n', ' #c\n', '\t;\t', ' # c \\ \n', ' #\'\n', '\n\n'], [' \\\n&& ', ' &&\\\n', ' |\\\n', ';\\\n', ' # c \\\n']);

/** Ways to spell a program name. */
const programName = pick([...PROGRAMS, '"ls"', "'cat'", '\\ls', 'c\\at', 'gr""ep', "w''c", '"e"cho'], ['l\\\ns', "$'\\x6c\\x73'", '\\ ls']);

const simpleCommand = fc
  .tuple(programName, fc.array(fc.tuple(gap, word), { maxLength: 4 }))
  .map(([name, args]) => name + args.map(([blank, arg]) => blank + arg).join(''));

/** Lines built from commands, with the tricky characters inside words, gaps and separators. */
const structuredLine = fc
  .tuple(
    fc.array(fc.tuple(simpleCommand, separator), { minLength: 1, maxLength: 3 }),
    pick(['', '', ' ', ' # trailing', ';', '\n', ' #"', '\t#\\'], ['\\', '\\\n', ' \\']),
  )
  .map(([parts, tail]) =>
    parts
      .map(([command, between], index) => (index === parts.length - 1 ? command : command + between))
      .join('') + tail,
  );

/** Lines from a bare token alphabet, where quotes and escapes fall anywhere. */
const tokenLine = fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 10 }).map((tokens) => tokens.join(''));

/** Marks the end of one recorded argv; no token can produce it. */
const END = '\u0001';

const RECORDERS = [
  'exec 1>/dev/null',
  ...PROGRAMS.map((program) => `${program}() { builtin printf '%s\\0' ${program} "$@" $'\\001' >&3; }`),
  // Any other command name (a word bash took as a command): record it, run nothing.
  `command_not_found_handle() { builtin printf '%s\\0' "$@" $'\\001' >&3; return 127; }`,
  '',
].join('\n');

let classifier: CommandClassifier;
let directory: string;

beforeAll(async () => {
  classifier = await createCommandClassifier();
  directory = mkdtempSync(join(tmpdir(), 'ow-argv-fuzz-'));
});
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

interface BashRun {
  readonly argvs: string[][];
  readonly stderr: string;
  readonly status: number | null;
}

/** What bash hands each simple command of `line`, in the order they ran. */
function bashArgvs(line: string): BashRun {
  const result = spawnSync('/bin/bash', ['--noprofile', '--norc', '-c', RECORDERS + line], {
    cwd: directory,
    env: { PATH: '/nonexistent' },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    timeout: 5000,
    encoding: 'utf8',
  });
  const recorded = (result.output[3] as string | null) ?? '';
  // Each record is its fields, each ended by NUL, then END and a NUL.
  const records = recorded.split(`${END}\0`);
  const argvs = records.slice(0, -1).map((record) => record.slice(0, -1).split('\0'));
  return { argvs, stderr: result.stderr, status: result.status };
}

/** Pipeline members run concurrently, so their order in the record is not the line's. */
const canonical = (argvs: readonly (readonly string[])[], ordered: boolean): string[] => {
  const keys = argvs.map((argv) => JSON.stringify(argv));
  return ordered ? keys : [...keys].sort();
};

const classify = (command: string, mode: 'default' | 'acceptEdits') => classifier.classify(command, { mode });

/*
 * Found by this property, and now asked about (syntax.ts): tree-sitter-bash
 * split words differently from bash.
 *
 * 1. A quoted string right before a backslash escape was two sibling nodes,
 *    not a concatenation: `ls 'a'\x` was checked as [ls, a, x], bash runs
 *    [ls, ax]; `sort a.txt '-'\oREADME.md` would have overwritten README.md.
 * 2. A newline followed by a backslash escape was lexed into the next word of
 *    the same command: `ls\n\rm -rf x` was checked as one ls; bash runs rm.
 * Both stay as pinned examples.
 */
describe('the classifier checks the argv bash really runs (property)', () => {
  it('the recorder sees argv without running anything', () => {
    expect(bashArgvs("ls -n 'a b' \"\" x\\ y | grep -e z; nosuch q").argvs.map((argv) => argv.join('|'))).toEqual(
      expect.arrayContaining(['ls|-n|a b||x y', 'grep|-e|z', 'nosuch|q']),
    );
    const real = bashArgvs('ls; cat a.txt');
    expect(real.argvs).toEqual([['ls'], ['cat', 'a.txt']]);
  });

  it('random lines: for every allowed line, bash argv equals commands[i].argv', () => {
    let allowed = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: structuredLine, weight: 3 }, { arbitrary: tokenLine, weight: 1 }), (line) => {
        // `||` makes the right side depend on an exit status; the recorders all succeed, so skip it.
        fc.pre(!line.includes('||'));
        const results = [classify(line, 'default'), classify(line, 'acceptEdits')].filter((result) => result.verdict === 'allow');
        if (results.length === 0) return;
        allowed += 1;
        const bash = bashArgvs(line);
        const ordered = !line.includes('|');
        for (const result of results) {
          const shown = result.commands.map((command) => [...command.argv]);
          expect(canonical(bash.argvs, ordered), `${JSON.stringify(line)} (${result.rule}; bash stderr ${JSON.stringify(bash.stderr)})`).toEqual(
            canonical(shown, ordered),
          );
        }
      }),
      {
        // A fixed seed keeps the suite repeatable; FC_SEED and FC_RUNS explore further (10 seeds × 2000 runs found nothing more).
        seed: Number(process.env.FC_SEED ?? 20_261_204),
        numRuns: Number(process.env.FC_RUNS ?? 400),
        // Shrunk counterexamples this property found (see the note above the describe); they must now ask, or agree.
        examples: [["ls 'a'\\x"], ['ls\n\\ls']],
      },
    );
    // The property is only worth something if many lines got through the classifier.
    expect(allowed).toBeGreaterThan(30);
  });
});
