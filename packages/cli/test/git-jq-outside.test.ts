import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess } from './command.ts';

let base: string;
let ws: string;

interface Run {
  code: number;
  stdout: string;
  result: { status: string; output: string; decision?: { verdict: string } };
}

/** The command in this process, started in the workspace: one call at a time, since each changes the process's directory. */
async function run(command: string, mode: 'default' | 'acceptEdits'): Promise<Run> {
  const { code, stdout } = await runInProcess(['call', 'bash', JSON.stringify({ command }), '--mode', mode, '--json'], { cwd: ws });
  return { code, stdout, result: JSON.parse(stdout) as Run['result'] };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-gitjq-')));
  vi.stubEnv('HOME', base);
  vi.stubEnv('OPENWORK_CONFIG_DIR', join(base, 'config'));
  ws = join(base, 'ws');
  const out = join(base, 'OUT');
  await mkdir(ws);
  await mkdir(join(out, 'repo'), { recursive: true });
  await writeFile(join(out, 'secret'), 'SECRET-LINE\nSECRET-TWO\n');
  await writeFile(join(out, 'data.json'), '{"secret":"JQ-SECRET"}\n');
  git(join(out, 'repo'), 'init', '-q', '.');
  await writeFile(join(out, 'repo', 'h.txt'), 'OUTSIDE-HISTORY\n');
  git(join(out, 'repo'), 'add', '.');
  git(join(out, 'repo'), 'commit', '-qm', 'outside');

  git(ws, 'init', '-q', '.');
  await writeFile(join(ws, 'a.txt'), 'one\n');
  await writeFile(join(ws, 'a.json'), '{"a": 1}\n');
  await mkdir(join(ws, 'src'));
  await writeFile(join(ws, 'src', 'x.ts'), 'x\n');
  await writeFile(join(ws, 'prog.jq'), 'import "data" as $d {search: "../OUT"}; $d\n');
  await writeFile(join(ws, 'plain.jq'), '.a\n');
  git(ws, 'add', '.');
  git(ws, 'commit', '-qm', 'one');
  await writeFile(join(ws, 'a.txt'), 'one\ntwo\n');
  await symlink(out, join(ws, 'link'));
  // An embedded repository of ordinary, committable files whose commondir names the repository outside.
  await mkdir(join(ws, 'vendor', 'evil'), { recursive: true });
  await mkdir(join(ws, 'vendor', 'evil-gitdir'));
  await writeFile(join(ws, 'vendor', 'evil', '.git'), 'gitdir: ../evil-gitdir\n');
  await writeFile(join(ws, 'vendor', 'evil-gitdir', 'HEAD'), 'ref: refs/heads/master\n');
  await writeFile(join(ws, 'vendor', 'evil-gitdir', 'commondir'), `${join(out, 'repo', '.git')}\n`);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

describe('git and jq read nothing outside the roots on their own, through the command', () => {
  it.each([
    'git diff ./../OUT/secret a.txt',
    'git blame -S ../OUT/secret a.txt',
    'git blame --conten=../OUT/secret a.txt',
    'git blame --ignore-revs-file link/secret a.txt',
    'git -C vendor/evil log -p',
    'jq -n -f prog.jq',
    'jq -n \'import "data" as $d {search: "../OUT"}; $d\'',
    'jq -L ../OUT -n \'import "data" as $d; $d\'',
  ])('%s asks (denied without a terminal) in default and acceptEdits modes', async (command) => {
    for (const mode of ['default', 'acceptEdits'] as const) {
      const result = await run(command, mode);
      expect(result.code, `${mode}: ${command}`).toBe(1);
      expect(result.result.status).toBe('denied');
      expect(result.stdout).not.toMatch(/SECRET-LINE|SECRET-TWO|JQ-SECRET|OUTSIDE-HISTORY/);
    }
  });

  it.each([
    ['git diff a.txt', '+two'],
    ['git log -p -- src', 'src/x.ts'],
    ['git blame a.txt', 'one'],
    ['jq . a.json', '"a": 1'],
    ['jq -f plain.jq a.json', '1'],
  ])('%s still runs on its own', async (command, shown) => {
    const result = await run(command, 'default');
    expect(result.code, result.result.output).toBe(0);
    expect(result.result.decision?.verdict).toBe('allow');
    expect(result.result.output).toContain(shown);
  });
});
