// Allow rules and the acceptEdits filesystem gate, case by case: which words
// a rule's prefix must meet, and each operand the gate refuses to guess
// (docs/contract.md §4.3, docs/security.md). Written for the survivors of
// the classifier's mutation run (docs/testing.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

const rule = (...prefix: string[]) => ({ name: `allow:bash:${prefix.join(' ')}`, prefix });

describe('an allow rule', () => {
  it.each([
    ['npm test', [rule('npm', 'test')], 'allow'],
    ["npm 'test' --watch", [rule('npm', 'test')], 'allow'],
    ['npm publish', [rule('npm', 'test')], 'ask'],
    ['npm', [rule('npm', 'test')], 'ask'],
    ['curl https://example.com', [rule()], 'ask'],
    ['npm te*', [rule('npm', 'te*')], 'ask'],
    ['npm {test,publish}', [rule('npm', '{test,publish}')], 'ask'],
    ['~/bin/tool x', [rule('~/bin/tool')], 'ask'],
    ['npm test', [rule('npm', 'publish'), rule('npm', 'test')], 'allow'],
  ] as const)('%s with %j: %s', (command, rules, verdict) => {
    const result = classifier.classify(command, { mode: 'default', allowRules: rules });
    expect(result.verdict, result.reason).toBe(verdict);
    if (verdict === 'allow') expect(result.list).toBe('allow_rule');
  });

  it('names the program, and a git subcommand with it, in the rule an ask suggests', () => {
    const hint = (command: string) => /an allow rule "bash:([^"]+)" would let it run/.exec(classifier.classify(command, { mode: 'default' }).reason)?.[1];
    expect(hint('curl -s https://example.com')).toBe('curl');
    expect(hint('git push origin main')).toBe('git push');
    expect(hint('git --git-dir=x push')).toBe('git');
    expect(hint('$TOOL run')).toBeUndefined();
    expect(hint('py* run')).toBeUndefined();
  });
});

describe('the acceptEdits gate refuses operands only the shell knows', () => {
  it.each([
    ["mkdir ''", 'with an empty operand'],
    ['mkdir ~/x', 'has a ~ that the shell expands to a home directory'],
    ['touch {a,b}.txt', 'brace expansion'],
    ['rm *.o', 'starts with a glob, which can expand to a file name that reads as a flag'],
    ['cp --target-directory=~/out a.txt', 'has a ~ that the shell expands'],
    ['cp --target-directory= a.txt', 'with an empty operand'],
  ])('%s asks: %s', (command, reason) => {
    const result = classifier.classify(command, { mode: 'acceptEdits' });
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(reason);
  });

  // writePaths: every operand the guard checks as a write; writeThrough: what
  // cp creates inside a destination directory (checked for a symlink on the way).
  it.each([
    ['cp a.txt b.txt out/', ['a.txt', 'b.txt', 'out/'], ['out/a.txt', 'out/b.txt']],
    ['cp src/a.txt lib/ out//', ['src/a.txt', 'lib/', 'out//'], ['out/a.txt', 'out/lib']],
    ['cp a.txt b.txt', ['a.txt', 'b.txt'], ['b.txt/a.txt']],
    ['cp -T a.txt out', ['a.txt', 'out'], []],
    ['cp --no-target-directory a.txt out', ['a.txt', 'out'], []],
    ['cp -t out a.txt', ['a.txt', 'out'], ['out/a.txt']],
    ['mv a.txt out/', ['a.txt', 'out/'], []],
    ['mkdir -p x/y', ['x/y'], []],
    ['rm build/*.o', ['build'], []],
    ['rm -f /abs/file', ['/abs/file'], []],
  ])('%s writes %j, and through %j', (command, written, through) => {
    const result = classifier.classify(command, { mode: 'acceptEdits' });
    expect(result.verdict, result.reason).toBe('allow');
    expect(result.writePaths, command).toEqual(written);
    expect(result.writeThrough, command).toEqual(through);
  });

  it('a program off the gate asks in acceptEdits, naming the gate', () => {
    const result = classifier.classify('chmod 600 a.txt', { mode: 'acceptEdits' });
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain('chmod is not on the read-only list or the filesystem gate');
  });
});
