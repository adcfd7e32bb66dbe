import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The search workers belong to the session; an idle one
// never keeps a one-shot command alive. The command as the workspace
// installs it, spawned for real: a hang shows as a missing exit.
const command = fileURLToPath(new URL('../../cli/bin/openwork-tools.js', import.meta.url));

/** Generous: the command starts through a TypeScript loader on a shared machine; a hang never ends at all. */
const EXIT_WITHIN_MS = 45_000;

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly exited: boolean;
}

function runCommand(args: readonly string[], cwd: string): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.resume();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stdout, exited: false });
    }, EXIT_WITHIN_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, exited: true });
    });
  });
}

describe('a one-shot openwork-tools call exits after printing a search result', () => {
  let base: string;
  let ws: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'one-shot-')));
    ws = join(base, 'ws');
    await mkdir(join(ws, 'src'), { recursive: true });
    await mkdir(join(base, 'outside'));
    await writeFile(join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
    await writeFile(join(base, 'outside', 'b.txt'), 'outside\n');
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['glob outside the roots', 'glob', { pattern: '../outside/*' }, /no files match/],
    ['glob that matches nothing', 'glob', { pattern: '**/*.nothing' }, /no files match/],
    ['grep that matches nothing', 'grep', { pattern: 'no-such-text-anywhere' }, /no matches/],
    ['grep that matches', 'grep', { pattern: 'export' }, /src\/a\.ts/],
  ];
  it.each(cases)('%s', { timeout: EXIT_WITHIN_MS + 15_000 }, async (_name, tool, input, printed) => {
    const finished = await runCommand(['call', tool, JSON.stringify(input), '--cwd', ws], ws);
    expect(finished.stdout).toMatch(printed);
    expect(finished.exited, `still running ${EXIT_WITHIN_MS} ms after it started; it printed ${JSON.stringify(finished.stdout)}`).toBe(true);
    expect(finished.code).toBe(0);
  });
});
