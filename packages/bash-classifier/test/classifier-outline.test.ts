// The outline a person sees first when asked to approve a command line:
// every program it names and every file its redirections write
// (docs/contract.md §4.3). Pure: the syntax tree only, nothing runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier } from '../src/index.ts';

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

describe('the outline of a command line', () => {
  it.each([
    // Every command of lists, pipelines, subshells, substitutions and function bodies, each program once.
    ['ls', ['ls']],
    ['ls; ls && ls | ls', ['ls']],
    ['f() { rm -rf x; }; (cd a && ls) | grep "$(whoami)" `id`', ['rm', 'cd', 'ls', 'grep', 'whoami', 'id']],
    ['for f in *; do wc -l "$f"; done', ['wc']],
    // Assignments and redirections are not the program; quotes around plain text are removed.
    ['FOO=1 BAR=2 make -j4', ['make']],
    ["'rm' -rf x", ['rm']],
    ['"rm" -rf x', ['rm']],
    ['"$TOOL" run', ['"$TOOL"']],
    ['FOO=1', []],
    // The program a wrapper runs: its first word that is no flag, assignment or duration.
    ['env -i A=1 make', ['env', 'make']],
    ['/usr/bin/env -- make', ['/usr/bin/env', 'make']],
    ['sudo rm x', ['sudo', 'rm']],
    ['doas rm x', ['doas', 'rm']],
    ['xargs -0 rm', ['xargs', 'rm']],
    ['nohup make', ['nohup', 'make']],
    ['exec make', ['exec', 'make']],
    ['command -v make', ['command', 'make']],
    ['builtin echo x', ['builtin', 'echo']],
    ['time -p make', ['time', 'make']],
    ['nice -n 5 make', ['nice', 'make']],
    ['ionice -c3 make', ['ionice', 'make']],
    ['timeout 1.5s make', ['timeout', 'make']],
    ['timeout 10 make', ['timeout', 'make']],
    ['timeout 2m make', ['timeout', 'make']],
    ['stdbuf -oL make', ['stdbuf', 'make']],
    ['setsid make', ['setsid', 'make']],
    ['unbuffer make', ['unbuffer', 'make']],
    ['xargs', ['xargs']],
    ['ls -l make', ['ls']],
    // A shell's -c operand is outlined as a command line of its own.
    ["sh -c 'rm -rf x | tee y'", ['sh', 'rm', 'tee']],
    ['bash -c "make all"', ['bash', 'make']],
    ["dash -c 'make'", ['dash', 'make']],
    ["zsh -c 'make'", ['zsh', 'make']],
    ["ksh -c 'make'", ['ksh', 'make']],
    ["mksh -c 'make'", ['mksh', 'make']],
    ['busybox sh -c ls', ['busybox', 'ls']],
    ['/bin/sh -c make', ['/bin/sh', 'make']],
    ['bash -c', ['bash']],
    ['python -c make', ['python']],
  ] as const)('%s names %j', (line, programs) => {
    expect(classifier.outline(line)).toEqual({ programs, writes: [], complete: true });
  });

  it.each([
    ['echo x > out', ['out']],
    ['echo x >> log', ['log']],
    ['make &> all.log', ['all.log']],
    ['make &>> all.log', ['all.log']],
    ['echo x >| forced', ['forced']],
    ['echo x >& out', ['out']],
    ['make 2> err > out 2>> err', ['err', 'out']],
    ["echo > 'a b'", ['a b']],
    ['echo > "a b"', ['a b']],
    ['echo > "$HOME/x"', ['"$HOME/x"']],
    ['echo > ~/x', ['~/x']],
    // Descriptors, the harmless devices and reads are not files written.
    ['make 2>&1 >&2 2>&-', []],
    ['make > /dev/null 2> /dev/stderr >> /dev/stdout', []],
    ['cat < in', []],
    ['cat <&3', []],
    ['cat <<< word', []],
    ['echo > ""', []],
    // Redirections inside a -c script are outlined too.
    ["sh -c 'echo x > inner'", ['inner']],
    ['while read l; do echo "$l"; done < in > out', ['out']],
  ] as const)('%s writes %j', (line, writes) => {
    expect(classifier.outline(line).writes).toEqual(writes);
    expect(classifier.outline(line).complete).toBe(true);
  });

  it('follows sh -c as deep as two kinds of quote nest', () => {
    expect(classifier.outline(`sh -c "bash -c 'dash -c ls'"`)).toEqual({ programs: ['sh', 'bash', 'dash', 'ls'], writes: [], complete: true });
    // A script the outline cannot unquote (a backslash in double quotes) is listed as written, for the person to read.
    expect(classifier.outline(`sh -c 'bash -c "dash -c \\"zsh -c ls\\""'`).programs).toEqual(['sh', 'bash', '"dash -c \\"zsh -c ls\\""']);
  });

  it('says it is incomplete when the parser could not read all of the line', () => {
    expect(classifier.outline("echo 'unterminated")).toMatchObject({ programs: ['echo'], complete: false });
    expect(classifier.outline('if true; then')).toMatchObject({ programs: ['true'], complete: false });
    // bash refuses `&>|` (a syntax error); the file is still listed.
    expect(classifier.outline('echo x &>| f')).toEqual({ programs: ['echo'], writes: ['f'], complete: false });
  });
});
