// The descriptor of each redirection and the words left to the program, as
// bash reads them (each case checked against bash: a function printing its
// arguments, run with the same redirections). tree-sitter reads a lone `0`
// before `>` as an argument; bash reads it as the descriptor
// (docs/security.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

const out = (descriptor: number | undefined, operator: string, target: string) => ({ ...(descriptor === undefined ? {} : { descriptor }), operator, target });

describe('redirections as bash reads them', () => {
  it.each([
    ['echo x 0>/dev/null', ['echo', 'x'], [out(0, '>', '/dev/null')]],
    ['echo x 0>>/dev/null', ['echo', 'x'], [out(0, '>>', '/dev/null')]],
    ['echo x 0 >/dev/null', ['echo', 'x', '0'], [out(1, '>', '/dev/null')]],
    ['echo x 0"1">/dev/null', ['echo', 'x', '01'], [out(1, '>', '/dev/null')]],
    ['echo x 0&>/dev/null', ['echo', 'x', '0'], [out(undefined, '&>', '/dev/null')]],
    ['echo x 2>/dev/null', ['echo', 'x'], [out(2, '>', '/dev/null')]],
    ["echo x 2>'/dev/null'", ['echo', 'x'], [out(2, '>', '/dev/null')]],
    ['echo x 10>&2 1>/dev/null', ['echo', 'x'], [out(10, '>&', '2'), out(1, '>', '/dev/null')]],
    ['echo x 2147483647>&1', ['echo', 'x'], [out(2147483647, '>&', '1')]],
    ['echo x > /dev/null y', ['echo', 'x', 'y'], [out(1, '>', '/dev/null')]],
    ['cat <f', ['cat'], [out(0, '<', 'f')]],
    ['cat 3<f', ['cat'], [out(3, '<', 'f')]],
    ['echo x >&2', ['echo', 'x'], [out(1, '>&', '2')]],
    ['echo x 2<&1', ['echo', 'x'], [out(2, '<&', '1')]],
    ['echo x &>/dev/null', ['echo', 'x'], [out(undefined, '&>', '/dev/null')]],
    ['echo x &>>/dev/null', ['echo', 'x'], [out(undefined, '&>>', '/dev/null')]],
    ['echo x >|/dev/null', ['echo', 'x'], [out(1, '>|', '/dev/null')]],
    ['echo x >>/dev/null', ['echo', 'x'], [out(1, '>>', '/dev/null')]],
    ['echo x {fd} >/dev/null', ['echo', 'x', '{fd}'], [out(1, '>', '/dev/null')]],
    ['echo x {1a}>/dev/null', ['echo', 'x', '{1a}'], [out(1, '>', '/dev/null')]],
  ])('%s', (line, argv, redirections) => {
    const result = classifier.classify(line, { mode: 'default' });
    expect(result.verdict, result.reason).toBe('allow');
    expect(result.commands).toEqual([{ argv, redirections }]);
  });

  it.each([
    // bash reads a longer run of digits as an ordinary word; the line asks rather than guess which.
    ['echo x 2147483648>/dev/null', 'the descriptor 2147483648 is too large for bash to read it as one'],
    ['echo x 99999999999999999999>/dev/null', 'the descriptor 99999999999999999999 is too large'],
    ['echo x {fd}>/dev/null', '{fd}> opens a descriptor and stores it in a variable, which is not classified'],
    ['echo x 0>&-', 'the redirect ">&-" is not classified'],
    ['echo x >/dev/nullx', 'the redirect ">/dev/nullx" may write a file'],
    ['echo x <&f', 'the redirect "<&f" may write a file'],
    ['echo x 2>f', 'the redirect "2>f" may write a file'],
    ['echo x >&f', 'the redirect ">&f" may write a file'],
  ])('%s asks: %s', (line, why) => {
    const result = classifier.classify(line, { mode: 'default' });
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });
});
