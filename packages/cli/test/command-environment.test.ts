import { chmod, mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { UsageError } from '../src/usage-error.ts';
import { runInProcess } from './command.ts';

// The environment a bash command runs with: PATH without entries inside the roots, and no credentials, for a command that runs
// without approval; the user's PATH and the credentials passed through by name for an approved one (docs/security.md).
let base: string;
let ws: string;
let marks: string;

interface Result {
  readonly code: number;
  readonly stdout: string;
  readonly verdict: unknown;
  readonly approved: unknown;
}

/**
 * Runs the command in this process, in the workspace, with the environment it would be started with: the session takes
 * process.env when it is created, so PATH and the variables are set for the call and restored after it. One call at a time.
 */
async function call(command: string, options: { path?: string; args?: string[]; env?: Record<string, string> } = {}): Promise<Result> {
  const env = { HOME: base, OPENWORK_CONFIG_DIR: join(base, 'config'), ...(options.path === undefined ? {} : { PATH: options.path }), ...options.env };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    const run = await runInProcess(['call', 'bash', JSON.stringify({ command }), '--json', ...(options.args ?? [])], { cwd: ws });
    const parsed = JSON.parse(run.stdout) as { data?: { exitCode?: number; stdout?: { text?: string } }; decision?: { verdict?: unknown; approved?: unknown } };
    // The command's own exit code; the CLI's is that of the call.
    const code = run.code !== 0 ? -1 : (parsed.data?.exitCode ?? -1);
    return { code, stdout: parsed.data?.stdout?.text ?? '', verdict: parsed.decision?.verdict, approved: parsed.decision?.approved };
  } finally {
    vi.unstubAllEnvs();
  }
}

/** A program the repository keeps: it leaves a mark named after itself, then runs the system's own. */
async function planted(directory: string, name: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  const file = join(directory, name);
  // The system's program is looked up without changing the PATH the rest of the command sees.
  await writeFile(file, `#!/bin/sh\n: > '${marks}/${name}'\nexec "$(PATH=/usr/local/bin:/usr/bin:/bin command -v ${name})" "$@"\n`);
  await chmod(file, 0o755);
}

const marked = async (): Promise<string[]> => (await readdir(marks)).sort();

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'command-env-')));
  ws = join(base, 'ws');
  marks = join(base, 'marks');
  await mkdir(ws);
  await mkdir(marks);
  await writeFile(join(ws, 'a.txt'), 'one\n');
  for (const name of ['ls', 'bash', 'git', 'cat']) await planted(join(ws, 'node_modules', '.bin'), name);
  await planted(ws, 'ls');
  await planted(join(base, 'readonly-root', 'bin'), 'ls');
  // Outside the roots by name, inside them once followed.
  await symlink(join(ws, 'node_modules', '.bin'), join(base, 'linked-bin'));
});
afterAll(() => rm(base, { recursive: true, force: true }));
beforeEach(async () => {
  for (const name of await readdir(marks)) await rm(join(marks, name));
});

describe('PATH of a command that runs without approval', () => {
  const system = process.env.PATH ?? '/usr/bin:/bin';
  const shapes: Record<string, () => string> = {
    'node_modules/.bin first, absolute': () => `${ws}/node_modules/.bin:${system}`,
    'a symlink outside the roots that leads into them': () => `${base}/linked-bin:${system}`,
    'a relative entry': () => `node_modules/.bin:${system}`,
    'an empty entry (the working directory)': () => `:${system}`,
    'the working directory by its absolute name': () => `${ws}:${system}`,
    'a path with .. that ends inside a root': () => `${base}/marks/../ws/node_modules/.bin:${system}`,
  };
  for (const [shape, path] of Object.entries(shapes)) {
    it(`runs the system's ls, not the repository's, with ${shape}`, async () => {
      const listed = await call('ls a.txt && cat a.txt && which ls', { path: path() });
      expect([listed.code, listed.verdict]).toEqual([0, 'allow']);
      expect(listed.stdout).toMatch(/^a\.txt\none\n\/(usr\/)?(local\/)?bin\/ls\n$/);
      expect(await marked()).toEqual([]);
    });
  }

  it('leaves out entries inside a read-only root too', async () => {
    const listed = await call('ls a.txt', { path: `${base}/readonly-root/bin:${system}`, args: ['--read-root', join(base, 'readonly-root')] });
    expect([listed.code, listed.verdict, listed.stdout]).toEqual([0, 'allow', 'a.txt\n']);
    expect(await marked()).toEqual([]);
  });

  it('the git the policy runs to read the repository’s configuration is not the repository’s either', async () => {
    const status = await call('git status --short', { path: `${ws}/node_modules/.bin:${system}` });
    expect(status.verdict).not.toBe('ask');
    expect(await marked()).toEqual([]);
  });

  it('with no entry left, nothing resolves (an empty PATH would mean the working directory)', async () => {
    const listed = await call('ls a.txt', { path: `${ws}/node_modules/.bin` });
    expect(listed.code).not.toBe(0);
    expect(await marked()).toEqual([]);
  });

  it('an approved command keeps the user’s PATH, and so runs the repository’s program', async () => {
    const approved = await call('command ls a.txt', { path: `${ws}/node_modules/.bin:${system}`, args: ['--yes'] });
    expect([approved.code, approved.verdict, approved.approved, approved.stdout]).toEqual([0, 'ask', true, 'a.txt\n']);
    expect(await marked()).toEqual(['bash', 'ls']);
  });
});

describe('credentials in the environment', () => {
  const secrets = {
    OPENWORK_MCP_TOKEN: 'tok-4f1b2c',
    OPENWORK_OTHER: 'own-9a8b',
    MY_API_KEY: 'key-17d3e9',
    GITHUB_TOKEN: 'ghp-55aa01',
    DB_PASSWORD: 'pw-0c0c0c',
    aws_secret_access_key: 'aws-3e3e3e',
    PGPASSWD: 'pg-7b7b7b',
    GOOGLE_CREDENTIALS: 'gc-8d8d8d',
  };
  const env = { ...secrets, ORDINARY_SETTING: 'plain-value' };

  it('a command that runs without approval sees none of them, and the rest of the environment', async () => {
    const listed = await call('env', { env });
    expect(listed.verdict).toBe('allow');
    expect(listed.stdout).toContain('ORDINARY_SETTING=plain-value');
    for (const value of Object.values(secrets)) expect(listed.stdout).not.toContain(value);
    const token = await call('printenv OPENWORK_MCP_TOKEN', { env });
    expect([token.verdict, token.code, token.stdout]).toEqual(['allow', 1, '']);
  });

  it('an approved command sees what --pass-env names, and nothing else of them', async () => {
    const shown = await call(`sh -c 'echo "k=$MY_API_KEY g=$GITHUB_TOKEN t=$OPENWORK_MCP_TOKEN o=$ORDINARY_SETTING"'`, { env, args: ['--pass-env', 'MY_API_KEY', '--yes'] });
    expect([shown.verdict, shown.approved, shown.stdout]).toEqual(['ask', true, 'k=key-17d3e9 g= t= o=plain-value\n']);
    const all = await call(`sh -c 'env'`, { env, args: ['--pass-env', 'MY_API_KEY', '--pass-env=DB_PASSWORD', '--yes'] });
    expect(all.stdout).toContain('MY_API_KEY=key-17d3e9');
    expect(all.stdout).toContain('DB_PASSWORD=pw-0c0c0c');
    for (const [name, value] of Object.entries(secrets)) if (name !== 'MY_API_KEY' && name !== 'DB_PASSWORD') expect(all.stdout).not.toContain(value);
  });

  it('what is passed through never reaches a command that runs without approval', async () => {
    const auto = await call('printenv MY_API_KEY', { env, args: ['--pass-env', 'MY_API_KEY', '--yes'] });
    expect([auto.verdict, auto.code, auto.stdout]).toEqual(['allow', 1, '']);
  });

  it('--pass-env takes a variable name, and never one of the tools’ own', () => {
    expect(parseArgs(['call', 'bash', '--pass-env', 'MY_API_KEY', '--pass-env=DB_PASSWORD']).passEnv).toEqual(['MY_API_KEY', 'DB_PASSWORD']);
    expect(parseArgs(['call', 'bash']).passEnv).toEqual([]);
    for (const name of ['OPENWORK_MCP_TOKEN', 'openwork_mcp_token', 'A=B', '1X']) {
      expect(() => parseArgs(['call', 'bash', '--pass-env', name])).toThrow(UsageError);
    }
  });
});
