import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/openwork-tools.js', import.meta.url));
let base: string;
let ws: string;
let outside: string;

function call(input: object): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    // The server's TMPDIR is a directory outside the roots, as on a user's machine.
    const env = { ...process.env, HOME: base, TMPDIR: outside };
    const child = execFile('node', [bin, 'call', 'bash', JSON.stringify(input), '--json', '--yes'], { cwd: ws, env }, (error, stdout) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout });
    });
    child.stdin?.end('');
  });
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
