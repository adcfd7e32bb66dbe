import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runInProcess } from './command.ts';

let base: string;
let ws: string;
let outside: string;

/** Runs `call bash` through runCli in this process, with the environment stubbed for the call and restored after it. */
async function call(input: object): Promise<{ code: number; stdout: string }> {
  vi.stubEnv('HOME', base);
  vi.stubEnv('OPENWORK_CONFIG_DIR', join(base, 'config'));
  // The server's TMPDIR is a directory outside the roots, as on a user's machine.
  vi.stubEnv('TMPDIR', outside);
  try {
    return await runInProcess(['call', 'bash', JSON.stringify(input), '--json', '--yes'], { cwd: ws });
  } finally {
    vi.unstubAllEnvs();
  }
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-scratch-')));
  ws = join(base, 'ws');
  outside = join(base, 'outside-tmp');
  await mkdir(ws);
  await mkdir(outside);
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('openwork-tools call bash: temporary files (docs/decisions/0027)', () => {
  it("mktemp lands in the command's own scratch directory, not the server's TMPDIR, and the directory is gone after the call", async () => {
    const result = await call({ command: 'echo "tmpdir=$TMPDIR"; mktemp; mktemp -d' });
    expect(result.code).toBe(0);
    const data = (JSON.parse(result.stdout) as { data: { stdout: { text: string } } }).data;
    const scratch = /tmpdir=(\S+)/.exec(data.stdout.text)?.[1] ?? '';
    expect(scratch.startsWith(join(outside, 'openwork-scratch-'))).toBe(true);
    expect(data.stdout.text.split('\n').filter((line) => line.startsWith(`${scratch}/tmp.`))).toHaveLength(2);
    expect(existsSync(scratch)).toBe(false);
    // Only the scratch directories, now removed, were ever made in the server's TMPDIR by the commands.
    expect(readdirSync(outside).filter((name) => name.startsWith('tmp.'))).toEqual([]);
  });
});
