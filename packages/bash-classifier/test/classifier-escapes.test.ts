import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

let classifier: CommandClassifier;
beforeAll(async () => {
  classifier = await createCommandClassifier();
});

const classify = (command: string, mode: 'default' | 'acceptEdits' = 'default') => classifier.classify(command, { mode });

describe('a glob in a flag position asks (it can expand to a file named like a flag)', () => {
  it.each([
    ['git log -*', '--output=pwned'],
    ['find . -newer -*', '-delete'],
    ['sort -T -*', '-oREADME.md'],
    ['rg -e -* payload.txt', '--pre=sh'],
    ['cat -*', '-n'],
    ['ls -l -?', '-R'],
    ['grep x -[a-z]*', '-r'],
    ["ls '-'*", '-R'],
    ['find . \\(* -print', '('],
  ])('%s asks', (command) => {
    const result = classify(command);
    expect(result.verdict, result.reason).toBe('ask');
    expect(result.reason).toMatch(/glob/);
  });

  it('really expands: bash hands the program a file name that is a flag', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ow-glob-flag-'));
    try {
      writeFileSync(join(directory, '--output=pwned'), '');
      const argv = execFileSync('bash', ['--noprofile', '--norc', '-c', 'printf "%s\\n" -*'], { cwd: directory, encoding: 'utf8' });
      expect(argv).toBe('--output=pwned\n');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it.each([
    ['wc -l src/*.ts', 'read_only:wc'],
    ['ls ./*', 'read_only:ls'],
    ['cat a*.txt', 'read_only:cat'],
    ['grep -n TODO src/*', 'read_only:grep'],
  ])('a glob that starts with a plain name runs: %s', (command, rule) => {
    const result = classify(command);
    expect(result.verdict, result.reason).toBe('allow');
    expect(result.rule).toBe(rule);
  });

  it.each([
    ["sed -n 1* file", 'script'],
    ['mv x* dst', 'glob'],
    ['cat ~/.ssh/id_rsa', '~'],
    ['cat --x=~/y', '~'],
    ['grep -e a{b,c} f', 'brace'],
  ])('%s asks (%s)', (command, detail) => {
    const result = classify(command, 'acceptEdits');
    expect(result.verdict, result.reason).toBe('ask');
    expect(result.reason).toContain(detail);
  });
});

/** `\` then a character, then `#`: forms where tree-sitter sees a comment and bash a command. */
const COMMENT_FORMS: readonly string[] = (() => {
  const forms: string[] = [];
  for (const before of ['\\\n', '\\\r', '\\\u000b', '\\\u000c', '\\\t', '\\ ', '\r', '\u000b', '\u000c']) {
    for (const head of ['echo x', 'ls']) forms.push(`${head}${before}#; touch P`);
  }
  forms.push('echo x\\\n#\ntouch P', 'ls\\\r\n#; touch P', 'echo x\\\\\\\n#; touch P');
  return forms;
})();

describe('tree-sitter and bash must agree on comments', () => {
  it(`has the forms (${COMMENT_FORMS.length})`, () => {
    expect(COMMENT_FORMS.length).toBeGreaterThanOrEqual(17);
  });

  it.each(COMMENT_FORMS.map((form) => [JSON.stringify(form), form]))('%s asks', (_name, form) => {
    const result = classify(form);
    expect(result.verdict, result.reason).toBe('ask');
  });

  it('the forms are real: bash runs the touch in most of them', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ow-comment-'));
    try {
      let ran = 0;
      for (const form of COMMENT_FORMS) {
        rmSync(join(directory, 'P'), { force: true });
        try {
          execFileSync('bash', ['--noprofile', '--norc', '-c', form], { cwd: directory, stdio: 'ignore', timeout: 5000 });
        } catch {
          // A form may fail after the touch ran; only the marker counts.
        }
        if (existsSync(join(directory, 'P'))) ran += 1;
      }
      expect(ran).toBeGreaterThanOrEqual(12);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it.each(['ls # a comment', 'ls; # a comment\necho hi', 'ls && echo hi # done', 'ls|cat #x', "echo '#not a comment' # but this is"])(
    'an ordinary comment still runs: %j',
    (command) => {
      expect(classify(command).verdict).toBe('allow');
    },
  );
});

describe('the classifier never allows a line whose bash parse runs a program the tree did not show (property)', () => {
  let directory: string;
  let stubs: string;
  let log: string;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'ow-parse-fuzz-'));
    stubs = join(directory, 'bin');
    log = join(directory, 'ran.log');
    execFileSync('mkdir', [stubs]);
    // Every program the tokens can name is a stub that only logs its name.
    for (const program of ['ls', 'cat', 'touch', 'rm', 'wc', 'head', 'grep']) {
      const path = join(stubs, program);
      writeFileSync(path, `#!/bin/sh\necho ${program} >> ${log}\n`);
      chmodSync(path, 0o755);
    }
  });
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('random token strings', () => {
    const token = fc.constantFrom('ls', 'cat', 'touch', 'rm', 'wc', 'x', ' ', ' ', '\t', '\n', '\\', '#', ';', '&&', '||', '|', "'", '"', '\r', '\u000b', '\u000c', '-l', 'a#b', '\\\n');
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 12 }), (tokens) => {
        const command = tokens.join('');
        const result = classify(command);
        if (result.verdict !== 'allow') return;
        rmSync(log, { force: true });
        try {
          execFileSync('/bin/bash', ['--noprofile', '--norc', '-c', command], {
            cwd: directory,
            env: { PATH: stubs },
            stdio: 'ignore',
            timeout: 5000,
          });
        } catch {
          // Exit codes do not matter; which programs ran does.
        }
        const ran = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
        const shown = new Set(result.commands.map((parsed) => parsed.argv[0]));
        for (const program of ran) expect(shown.has(program), `${JSON.stringify(command)} ran ${program}`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
