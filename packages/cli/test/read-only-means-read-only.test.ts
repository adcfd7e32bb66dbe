import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess } from './command.ts';

let base: string;
let ws: string;

interface Run {
  code: number;
  result: { status: string; output: string; error?: { kind: string; message: string }; decision?: { verdict: string; rule: string; reason: string } };
}

/** The command in this process, working in the repository; git and the bash commands are real processes. */
async function run(args: string[]): Promise<Run> {
  const { code, stdout } = await runInProcess([...args, '--json'], { cwd: ws });
  return { code, result: JSON.parse(stdout) as Run['result'] };
}

const pwned = () => join(base, 'PWNED');

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-ro-')));
  ws = join(base, 'r');
  await mkdir(ws);
  execFileSync('git', ['init', '-q', '.'], { cwd: ws });
  await writeFile(join(ws, 'a.txt'), 'hi\n');
  vi.stubEnv('HOME', base);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

describe('read-only means read-only, through the command', () => {
  it('a planted core.fsmonitor does not run on an auto-run git status', async () => {
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${pwned()}; false #`], { cwd: ws });
    try {
      const status = await run(['call', 'bash', '{"command":"git status"}']);
      expect(status.code).toBe(0);
      expect(status.result.decision).toMatchObject({ verdict: 'allow', rule: 'read_only:git status' });
      expect(status.result.decision?.reason).toContain('core.fsmonitor, overridden');
      expect(existsSync(pwned())).toBe(false);
    } finally {
      execFileSync('git', ['config', '--unset', 'core.fsmonitor'], { cwd: ws });
    }
  });

  it('acceptEdits: editing .git/config asks at the edit, so the chain never reaches git status', async () => {
    const edit = await run([
      'call',
      'edit',
      JSON.stringify({ path: '.git/config', oldText: '[core]', newText: `[core]\n\tfsmonitor = "touch ${pwned()}; false #"` }),
      '--mode',
      'acceptEdits',
    ]);
    expect(edit.code).toBe(1);
    expect(edit.result.status).toBe('denied');
    expect(edit.result.error?.message).toContain('inside .git');
    const status = await run(['call', 'bash', '{"command":"git status --short"}', '--mode', 'acceptEdits']);
    expect(status.code).toBe(0);
    expect(existsSync(pwned())).toBe(false);
  });

  it('a diff.external in the repository makes git diff ask, naming the key', async () => {
    execFileSync('git', ['config', 'diff.external', `sh -c 'touch ${pwned()}' --`], { cwd: ws });
    try {
      const diff = await run(['call', 'bash', '{"command":"git diff"}']);
      expect(diff.result.status).toBe('denied');
      expect(diff.result.error?.message).toContain('diff.external');
      expect(existsSync(pwned())).toBe(false);
    } finally {
      execFileSync('git', ['config', '--unset', 'diff.external'], { cwd: ws });
    }
  });

  it.each(['cat /etc/shadow', 'head ~/.ssh/id_rsa', 'grep -r root /etc', 'find / -maxdepth 1'])('%s asks (denied without a terminal)', async (command) => {
    const result = await run(['call', 'bash', JSON.stringify({ command })]);
    expect(result.code).toBe(1);
    expect(result.result.status).toBe('denied');
  });

  it('the same reads inside the working directory run', async () => {
    const result = await run(['call', 'bash', '{"command":"cat a.txt && grep -r hi . && find . -name a.txt"}']);
    expect(result.code).toBe(0);
    expect(result.result.output).toContain('hi');
  });
});
