import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bashReader, createCommandClassifier, decideBashCommand } from '@openwork/bash-classifier';
import type { BashReader, CommandClassifier } from '@openwork/bash-classifier';
import { createHarness, type Harness } from './harness.ts';

let classifier: CommandClassifier;
beforeAll(async () => {
  classifier = await createCommandClassifier();
});

let h: Harness;
let out: string;
let reader: BashReader;
beforeEach(async () => {
  h = await createHarness();
  out = join(h.root, 'OUT');
  await mkdir(join(out, 'dir'), { recursive: true });
  await writeFile(join(out, 'secret'), 'secret\n');
  await writeFile(join(h.ws, 'a.txt'), 'a\n');
  await writeFile(join(h.ws, 'x'), 'x\n');
  reader = bashReader(h.session.processes, h.session.environment);
});
afterEach(async () => {
  await h.session.processes.dispose();
  await h.cleanup();
});

const decide = (command: string, mode: 'default' | 'acceptEdits' = 'default', withReader = true) =>
  decideBashCommand(classifier, h.session.paths, { kind: 'execute', command, cwd: h.ws }, mode, {
    filesystem: h.session.filesystem,
    ...(withReader ? { bashReader: reader } : {}),
  });

const argvs = (command: string) => classifier.classify(command, { mode: 'acceptEdits' }).commands;

describe('words after a redirect are arguments, digits before < or > a descriptor', () => {
  it('reads each shape as bash does', () => {
    expect(argvs('cat < a.txt OUT/secret a.txt')).toEqual([{ argv: ['cat', 'OUT/secret', 'a.txt'], redirections: [{ descriptor: 0, operator: '<', target: 'a.txt' }] }]);
    expect(argvs('rm x < a.txt -rf OUT a.txt')[0]?.argv).toEqual(['rm', 'x', '-rf', 'OUT', 'a.txt']);
    expect(argvs('cd 0>/dev/null && ls')[0]).toEqual({ argv: ['cd'], redirections: [{ descriptor: 0, operator: '>', target: '/dev/null' }] });
    expect(argvs('ls 2>&1 x')[0]).toEqual({ argv: ['ls', 'x'], redirections: [{ descriptor: 2, operator: '>&', target: '1' }] });
    expect(argvs('ls >/dev/null 2>&1 x y')[0]?.argv).toEqual(['ls', 'x', 'y']);
    expect(argvs('ls 12</dev/null x')[0]).toEqual({ argv: ['ls', 'x'], redirections: [{ descriptor: 12, operator: '<', target: '/dev/null' }] });
    // The redirect that ends a pipeline or a list belongs to its last command.
    expect(argvs('ls | cat > /dev/null x')).toEqual([
      { argv: ['ls'], redirections: [] },
      { argv: ['cat', 'x'], redirections: [{ descriptor: 1, operator: '>', target: '/dev/null' }] },
    ]);
    expect(argvs('ls && cat 3< a.txt x')[1]).toEqual({ argv: ['cat', 'x'], redirections: [{ descriptor: 3, operator: '<', target: 'a.txt' }] });
    // Spaced or quoted digits stay words.
    expect(argvs('ls 2 >/dev/null')[0]?.argv).toEqual(['ls', '2']);
    expect(argvs('ls "2">/dev/null')[0]?.argv).toEqual(['ls', '2']);
  });

  it.each([
    ['printf X > OUT/f /dev/null', 'not inside a writable root'],
    ['true > OUT/f /dev/null', 'not inside a writable root'],
    ['ls >| OUT/f /dev/null', 'outside the readable roots'],
    ['ls &> OUT/f /dev/null', 'outside the readable roots'],
    ['ls &>> OUT/f /dev/null', 'outside the readable roots'],
    ['ls <> OUT/f', 'could not read'],
    ['ls 3<> a.txt', 'could not read'],
    ['ls {fd}>/dev/null', 'stores it in a variable'],
    ['ls 2147483648>/dev/null', 'too large'],
    ['cat <<EOF x\nhi\nEOF', 'here-document'],
    ['cat <<< a.txt OUT/secret', 'outside the readable roots'],
    ['{ ls; } > /dev/null', '{ …; } group'],
    ['ls 2>&- x', 'may write a file'],
  ])('%j asks', async (command, reason) => {
    const decision = await decide(command.replaceAll('OUT', out), 'acceptEdits');
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain(reason);
  });

  it('the reproductions ask, and the outside is untouched', async () => {
    expect((await decide(`cat < a.txt ${out}/secret a.txt`)).reason).toContain('outside the readable roots');
    expect((await decide(`rm x < a.txt -rf ${out}/dir a.txt`, 'acceptEdits')).reason).toContain('not inside a writable root');
    await writeFile(join(h.root, 'home-secret.txt'), 'home\n');
    expect((await decide('cd 0>/dev/null && cat home-secret.txt')).reason).toContain('cd without a directory');
    expect(await readdir(out)).toEqual(['dir', 'secret']);
  });

  it('a line bash reads like the classifier runs on its own', async () => {
    for (const command of ['cat < a.txt x a.txt', 'ls 2>&1 x', 'cat a.txt 2>/dev/null | wc -l', 'ls >/dev/null 2>&1 x && cat 3< a.txt x']) {
      const decision = await decide(command);
      expect(decision.verdict, `${command}: ${decision.reason}`).toBe('allow');
    }
    expect((await decide('rm x < a.txt a.txt', 'acceptEdits')).verdict).toBe('allow');
  });

  it('without a bash reader an allowed line asks', async () => {
    expect((await decide('ls', 'default', false)).reason).toContain('bash was not asked');
  });
});

describe("bash's reading is compared with the classifier's", () => {
  it('bash prints the redirections after the words, descriptors attached', async () => {
    const text = async (command: string) => {
      const reading = await reader(command);
      return reading.ok ? reading.text.trim() : reading.reason;
    };
    expect(await text('printf X > OUT/f /dev/null')).toBe('printf X /dev/null > OUT/f');
    expect(await text('cd 0>/dev/null')).toBe('cd 0> /dev/null');
    expect(await text('rm x < a.txt -rf OUT a.txt')).toBe('rm x -rf OUT a.txt < a.txt');
  });

  it('a reading that differs asks, naming the word', async () => {
    // A reader standing for a parser that disagreed: the classifier checked `cat a.txt`, bash would pass another word.
    const other: BashReader = () => Promise.resolve({ ok: true, text: `cat ${out}/secret\n` });
    const decision = await decideBashCommand(classifier, h.session.paths, { kind: 'execute', command: 'cat a.txt', cwd: h.ws }, 'default', { bashReader: other });
    expect(decision.verdict).toBe('ask');
    expect(decision.reason).toContain(`bash passes ${JSON.stringify(`${out}/secret`)} as word 1 of "cat"`);
    const redirected: BashReader = () => Promise.resolve({ ok: true, text: 'cat a.txt > /dev/null\n' });
    const second = await decideBashCommand(classifier, h.session.paths, { kind: 'execute', command: 'cat a.txt', cwd: h.ws }, 'default', { bashReader: redirected });
    expect(second.reason).toContain('bash applies the redirection "1> /dev/null"');
  });

  it.each([
    ['closing the wrapper', 'ls\n}\ntouch MARK; f() {'],
    ['a brace after a comment', 'ls # }\ntouch MARK'],
    ['command substitution', 'ls $(touch MARK) `touch MARK`'],
    ['process substitution', 'cat <(touch MARK)'],
    ['a here-document that closes a wrapper', 'cat <<E\n}\nE\ntouch MARK'],
    ['a function that runs itself', 'f() { touch MARK; }; f'],
    ['an unbalanced line', 'ls; touch MARK; )'],
  ])('reading a line runs none of it: %s', async (_name, command) => {
    const marker = join(h.ws, 'MARK');
    const text = command.replaceAll('MARK', marker);
    await reader(text);
    await decide(text);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join('/', 'MARK'))).toBe(false);
  });

  it('an unbalanced line is not read', async () => {
    const reading = await reader('ls; )');
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.reason).toContain('syntax error');
  });

  it('when bash cannot be started, the line asks', async () => {
    const missing = bashReader(h.session.processes, { PATH: join(h.root, 'nowhere') });
    expect(await missing('ls')).toEqual({ ok: false, reason: 'bash could not be started to read the line' });
  });
});
