import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

/**
 * Redirections are where tree-sitter-bash and bash part most: `> f a b` is one
 * node with three destinations, `0>f` a word and a redirect. For every line
 * the classifier allows, bash's own argv (recorded by shell functions, as in
 * classifier-argv.property.test.ts) must be the one the classifier checked,
 * and the files bash opens for writing must be the ones it hands the gate
 * (or /dev/null): the line runs in an empty scratch directory, holding only
 * the files it reads, and only those may appear there.
 */
const PROGRAMS = ['ls', 'cat', 'wc', 'cd'] as const;

const RECORDERS = [
  ...PROGRAMS.map((program) => `${program}() { builtin printf '%s\\0' ${program} "$@" $'\\001' >&9; }`),
  `command_not_found_handle() { builtin printf '%s\\0' "$@" $'\\001' >&9; return 127; }`,
  '',
].join('\n');

const word = fc.constantFrom('a.txt', 'x', '-n', 'new.txt', '2', '0', '12', '"2"', "'x'", 'b.txt');
const redirect = fc.constantFrom(
  '> /dev/null',
  '>/dev/null',
  '2>/dev/null',
  '0>/dev/null',
  '1>/dev/null',
  '>>/dev/null',
  '&>/dev/null',
  '&>>/dev/null',
  '>|/dev/null',
  '2>&1',
  '1>&2',
  '12>&1',
  '<a.txt',
  '< a.txt',
  '0<a.txt',
  '3<a.txt',
  '<>a.txt',
  '{fd}>/dev/null',
  '> new.txt',
  '2>new.txt',
  '<<<x',
  '<<E\nhi\nE\n',
);
const gap = fc.constantFrom(' ', '', '  ');
const item = fc.oneof({ arbitrary: word, weight: 2 }, { arbitrary: redirect, weight: 2 });

const simpleCommand = fc
  .tuple(fc.constantFrom(...PROGRAMS), fc.array(fc.tuple(gap, item), { maxLength: 5 }))
  .map(([name, items]) => name + items.map(([blank, text]) => (blank === '' && /^[a-z'"-]/.test(text) ? ' ' : blank) + text).join(''));
const line = fc
  .array(fc.tuple(simpleCommand, fc.constantFrom(' && ', ' | ', '; ')), { minLength: 1, maxLength: 2 })
  .map((parts) => parts.map(([command, between], index) => (index === parts.length - 1 ? command : command + between)).join(''));

let classifier: CommandClassifier;
let base: string;
beforeAll(async () => {
  classifier = await createCommandClassifier();
  base = mkdtempSync(join(tmpdir(), 'ow-redirect-fuzz-'));
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

/** Runs the line with recorders in a fresh directory holding a.txt and b.txt: the argvs, and the names that appeared. */
function bashRun(text: string, index: number): { argvs: string[][]; created: string[]; stderr: string } {
  const directory = join(base, String(index));
  rmSync(directory, { recursive: true, force: true });
  spawnSync('/bin/mkdir', [directory]);
  writeFileSync(join(directory, 'a.txt'), 'a\n');
  writeFileSync(join(directory, 'b.txt'), 'b\n');
  const result = spawnSync('/bin/bash', ['--noprofile', '--norc', '-c', `exec 9>&3 1>/dev/null\n${RECORDERS}${text}`], {
    cwd: directory,
    env: { PATH: '/nonexistent' },
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    timeout: 5000,
    encoding: 'utf8',
  });
  const recorded = (result.output[3] as string | null) ?? '';
  const argvs = recorded
    .split('\u0001\0')
    .slice(0, -1)
    .map((record) => record.slice(0, -1).split('\0'));
  const created = readdirSync(directory).filter((name) => name !== 'a.txt' && name !== 'b.txt');
  return { argvs, created, stderr: result.stderr };
}

describe('redirections: the classifier checks what bash runs (property)', () => {
  it('for every allowed line, bash argv and written files are the classifier’s', () => {
    let allowed = 0;
    let runs = 0;
    fc.assert(
      fc.property(line, (text) => {
        const result = classifier.classify(text, { mode: 'acceptEdits' });
        if (result.verdict !== 'allow') return;
        allowed += 1;
        runs += 1;
        const bash = bashRun(text, runs);
        const ordered = !text.includes('|');
        const keys = (argvs: readonly (readonly string[])[]) => {
          const each = argvs.map((argv) => JSON.stringify(argv));
          return ordered ? each : each.sort();
        };
        const shown = keys(result.commands.map((command) => command.argv));
        // A redirect that fails (`2>&112` from a closed descriptor, `<a.txt2` that does not exist) stops that command before it
        // runs: bash runs less, never other words.
        if (/Bad file descriptor|No such file or directory/.test(bash.stderr)) {
          for (const argv of keys(bash.argvs)) expect(shown, JSON.stringify(text)).toContain(argv);
        } else {
          // cd is a recorder too, so the line never leaves the scratch directory.
          expect(keys(bash.argvs), `${JSON.stringify(text)} (bash stderr ${JSON.stringify(bash.stderr)})`).toEqual(shown);
        }
        // Every file bash made is one the gate checks, and every file a redirect names is either /dev/null or one of those.
        for (const created of bash.created) expect(result.writePaths, JSON.stringify(text)).toContain(created);
        for (const command of result.commands) {
          for (const redirection of command.redirections) {
            if (['<', '<<', '<<-', '<<<'].includes(redirection.operator) || redirection.operator.endsWith('&') || redirection.target === '/dev/null') continue;
            expect(result.writePaths, JSON.stringify(text)).toContain(redirection.target);
          }
        }
      }),
      {
        seed: Number(process.env.FC_SEED ?? 20_261_211),
        numRuns: Number(process.env.FC_RUNS ?? 400),
        examples: [['cat < a.txt x a.txt'], ['cd 0>/dev/null && ls'], ['ls 2>&1 x'], ['ls | cat >/dev/null x']],
      },
    );
    expect(allowed).toBeGreaterThan(30);
  }, 120_000);
});
