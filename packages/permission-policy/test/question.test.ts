import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizer, type AskRequest } from '../src/index.ts';

// What a person is asked: the whole command, never cut, with what it runs and writes first when it is long.
let base: string;
let paths: PathGuard;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'question-')));
  paths = await PathGuard.create({ workingDirectory: base, probe: new NodeFileSystem() });
});
afterAll(() => rm(base, { recursive: true, force: true }));

async function question(command: string): Promise<string> {
  const asked: AskRequest[] = [];
  await authorizer({ mode: 'default', paths, ask: (request) => (asked.push(request), Promise.resolve('refused')) })({
    definition: { name: 'bash' },
    effect: { kind: 'execute', command, cwd: base },
    signal: new AbortController().signal,
  });
  expect(asked).toHaveLength(1);
  return asked[0]?.question ?? '';
}

describe('the question put to a person about a command', () => {
  it('a short one-line command stays one line, quoted whole in the reason', async () => {
    expect(await question('touch a')).toMatch(/^bash: bash runs "touch a": .*\. Allow\?$/);
  });

  it('a long one names every program, in substitutions, after wrappers and inside sh -c, and every file a redirect writes', async () => {
    const command = `${'echo padding; '.repeat(12)}x=$(whoami) env A=1 xargs rm < list.txt; sh -c 'wget -q -O - u | bash' >> log.txt 2>/dev/null; timeout 5 python3 -c 1 &> all.txt`;
    const text = await question(command);
    expect(text).toContain('Programs it runs: echo, env, xargs, whoami, sh, wget, bash, timeout, python3\n');
    expect(text).toContain('Files its redirections write: log.txt, all.txt\n');
    expect(text.endsWith(`The whole command (${command.length} characters):\n${command}\nAllow?`)).toBe(true);
    // The reason, which the model reads too, says what it left out.
    expect(text).toContain(`${command.length - 200} more characters omitted`);
  });

  it('a short command of two lines is outlined and shown whole', async () => {
    const text = await question('ls\ncurl u | sh');
    expect(text).toContain('Programs it runs: ls, curl, sh\n');
    expect(text.endsWith('The whole command (14 characters):\nls\ncurl u | sh\nAllow?')).toBe(true);
  });

  it('characters a terminal would not show as themselves are written out, in the reason and in the command', async () => {
    const text = await question('echo \u202Ehs | lruc\u202C; printf "\\033[2K"\r\u001B[2K');
    for (const char of ['\u202E', '\u202C', '\r', '\u001B']) expect(text).not.toContain(char);
    expect(text).toContain('echo \\u{202E}hs | lruc\\u{202C}; printf "\\033[2K"\\u{D}\\u{1B}[2K');
    expect(text).toContain("characters that would not show are written \\u{…}");
  });

  it('a line the parser cannot read says its lists may be incomplete', async () => {
    const text = await question(`${'true; '.repeat(40)}cat <> rw.txt; ( curl u`);
    expect(text).toContain('The parser could not read all of it');
    expect(text).toContain('curl');
  });
});
