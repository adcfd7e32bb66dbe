import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandBundle } from './command.ts';

// A one-shot command whose call ends in an error prints its result and exits: nothing the call started (a backend,
// a cgroup, a deadline's timer) keeps the process alive. The bound below catches a hang; it measures nothing.
const HANG_MS = 60_000;

let base: string;
let ws: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-error-exit-')));
  ws = join(base, 'ws');
  await mkdir(join(ws, 'dir'), { recursive: true });
  await writeFile(join(ws, 'a.txt'), 'alpha\n');
  await writeFile(join(base, 'outside.txt'), 'outside\n');
});
afterAll(() => rm(base, { recursive: true, force: true }));

function call(tool: string, input: unknown): Promise<{ code: number | null; killed: boolean; kind: string | undefined }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [commandBundle(), 'call', tool, JSON.stringify(input), '--json', '--yes', '--mode', 'acceptEdits'], { cwd: ws, timeout: HANG_MS }, (error, stdout) => {
      const parsed = (() => {
        try {
          return JSON.parse(stdout) as { error?: { kind: string } };
        } catch {
          return {};
        }
      })();
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, killed: error?.killed === true || error?.signal != null, kind: parsed.error?.kind });
    });
    child.stdin?.end();
  });
}

const cases: readonly (readonly [string, unknown, string])[] = [
  ['bash', { command: 'pwd', workdir: 'nope' }, 'not_found'],
  ['bash', { command: 'pwd', workdir: '/etc' }, 'outside_root'],
  ['bash', { command: 'pwd', workdir: '../outside.txt' }, 'outside_root'],
  ['bash', { command: 'pwd', workdir: 'a.txt' }, 'not_a_directory'],
  ['read', { path: 'missing.txt' }, 'not_found'],
  ['read', { path: '../outside.txt' }, 'outside_root'],
  ['write', { path: '/etc/x', content: 'x' }, 'outside_root'],
  ['edit', { path: 'a.txt', oldText: 'absent', newText: 'x' }, 'no_match'],
  ['grep', { pattern: '(' }, 'invalid_input'],
  ['glob', { pattern: '**', path: 'missing' }, 'not_found'],
  ['list', { path: 'a.txt' }, 'not_a_directory'],
];

describe('a one-shot call that ends in an error exits by itself', () => {
  it.each(cases)('%s %j: %s, exit status 1', async (tool, input, kind) => {
    const ended = await call(tool, input);
    expect(ended).toEqual({ code: 1, killed: false, kind });
  });
});
