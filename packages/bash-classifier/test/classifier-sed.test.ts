// sed's script as the classifier reads it, command by command: each script
// allowed here is one GNU sed runs under --sandbox (which refuses the e, r
// and w commands), and each that asks names the command that writes, reads
// or runs, or what could not be read (docs/security.md).
import { beforeAll, describe, expect, it } from 'vitest';
import { createCommandClassifier } from '../src/index.ts';
import type { CommandClassifier, PermissionMode } from '../src/index.ts';

let classifier: CommandClassifier;

beforeAll(async () => {
  classifier = await createCommandClassifier();
});

const classify = (line: string, mode: PermissionMode = 'default') => classifier.classify(line, { mode });

describe('a sed script', () => {
  it.each([
    '1p',
    's/a\\/b/c/',
    '$p',
    '/a/,/c/p',
    '\\,a,p',
    '/A/Ip',
    '1,+2p',
    '0~3p',
    '2,~4p',
    '1!p',
    '1 p',
    's/a/b/g;s/c/d/2',
    's/a/b/gp',
    's/a/b/ ; p',
    's/a/b/M',
    '/a/ { s/a/b/ }',
    'y/abc/xyz/',
    // The text of a, i and c is data up to the line end, whatever it says.
    '1a x; w out',
    '1i x; r /etc/passwd',
    '$c done',
    'q5',
    'Q',
    'l5',
    '/a/{p;p}',
  ])('%j runs on its own, reading the file', (script) => {
    const result = classify(`sed -n '${script}' f`);
    expect(result.verdict, result.reason).toBe('allow');
    expect(result.readPaths).toEqual([{ path: 'f' }]);
  });

  it.each([
    ['w out', 'sed w writes a file'],
    ['W out', 'sed W writes a file'],
    ['1!w out', 'sed w writes a file'],
    ['1,~2w out', 'sed w writes a file'],
    ['0~2w out', 'sed w writes a file'],
    ['1a hello\nw out', 'sed w writes a file'],
    ['1p\nw out', 'sed w writes a file'],
    ['r /etc/passwd', 'sed r reads a file into the output'],
    ['R /etc/passwd', 'sed R reads a file into the output'],
    ['e ls', 'sed e runs a command'],
    ['s/a/b/w out', 'sed s///w writes a file'],
    ['s/a/b/gw out', 'sed s///w writes a file'],
    ['s/a/b/e', 'sed s///e runs the pattern space as a command'],
    ['s/a/b/x', 'sed s flag "x" is not classified'],
    ['s/a/b/gx', 'sed s flag "gx" is not classified'],
    ['s', 'sed s has no delimiter'],
    ['y', 'sed y has no delimiter'],
    ['s/a/b', 'sed s is not terminated'],
    ['s/a\n/b/', 'sed s is not terminated'],
    ['y/ab/x', 'sed y is not terminated'],
    ['/abc p', 'sed: an address is not terminated'],
    ['1,/abc p', 'sed: an address is not terminated'],
    ['k', 'sed command "k" is not on the classifier\'s list'],
    ['q5;w out', 'sed w writes a file'],
  ])('%j asks: %s', (script, why) => {
    const result = classify(`sed -n '${script}' f`);
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });

  it('reads every -e script and takes the operands as files', () => {
    expect(classify("sed -e 1p -e '2p' f g")).toMatchObject({ verdict: 'allow', readPaths: [{ path: 'f' }, { path: 'g' }] });
    expect(classify("sed --expression=1p f").verdict).toBe('allow');
    expect(classify("sed -e 1p -e 'w out' f").reason).toContain('sed w writes a file');
    expect(classify('sed').reason).toContain('sed without a script is not classified');
    expect(classify('sed -n').reason).toContain('sed without a script is not classified');
    expect(classify('sed -n ./*').reason).toContain('a glob where sed reads its script could make a file name the script');
  });
});

describe('sed -i on the filesystem gate', () => {
  it.each([
    ['sed -i s/a/b/ f', ['f']],
    ['sed -i.bak s/a/b/ f g', ['f', 'g', 'f.bak', 'g.bak']],
    ['sed --in-place s/a/b/ f', ['f']],
    ['sed --in-place=.orig s/a/b/ f', ['f', 'f.orig']],
    ['sed -i -i s/a/b/ f', ['f']],
    ['sed -n -i -e 1p f', ['f']],
  ])('%s writes %j', (line, writes) => {
    const result = classify(line, 'acceptEdits');
    expect(result.verdict, result.reason).toBe('allow');
    expect(result.rule).toBe('filesystem_gate:sed -i');
    expect(result.writePaths).toEqual(writes);
  });

  it.each([
    ['sed -i s/a/b/', 'sed -i without a file is not classified'],
    ['sed -i s/a/b/ ./*.txt', 'sed -i with a glob edits files only known when the shell runs'],
    ['sed -i -i.bak s/a/b/ f', 'sed -i given twice with different suffixes is not classified'],
    ['sed -i.b/ s/a/b/ f', 'a * or / in the backup suffix'],
    ["sed -i 's/a/b/w out' f", 'sed s///w writes a file'],
  ])('%s asks: %s', (line, why) => {
    const result = classify(line, 'acceptEdits');
    expect(result.verdict).toBe('ask');
    expect(result.reason).toContain(why);
  });

  it('reads -i after -- as a file, and a sed without -i as a read', () => {
    expect(classify('sed -i s/a/b/ -- -i', 'acceptEdits')).toMatchObject({ verdict: 'allow', writePaths: ['-i'] });
    expect(classify('sed s/a/b/ -- -i')).toMatchObject({ verdict: 'allow', rule: 'read_only:sed', readPaths: [{ path: '-i' }] });
    expect(classify('sed -i s/a/b/ f').reason).toContain('acceptEdits');
  });
});
