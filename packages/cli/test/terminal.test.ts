import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessBackend } from '@openwork/process-backend';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { terminalBackend, withTerminalSize } from '../src/terminal-backend.ts';
import { UsageError } from '../src/usage-error.ts';
import { commandBundle, runInProcess, type Run } from './command.ts';

let base: string;
let ws: string;

/** The command in this process, with no terminal of its own; bash's terminal (--pty) is a real one. */
const run = (args: string[]): Promise<Run> => runInProcess(args, { cwd: ws });

const bashStdout = (result: Run) => (JSON.parse(result.stdout) as { data: { stdout: { text: string } } }).data.stdout.text;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-pty-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  vi.stubEnv('HOME', base);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

describe('call --pty', () => {
  it('runs bash on a terminal: tty prints its name', async () => {
    const result = await run(['call', 'bash', '{"command":"tty"}', '--pty', '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(bashStdout(result)).toMatch(/^\/dev\/(pts\/\d+|tty\w+)\r?\n$/);
  });

  it('opens the terminal at --columns × --rows', async () => {
    const result = await run(['call', 'bash', '{"command":"stty size"}', '--pty', '--columns', '77', '--rows', '21', '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(bashStdout(result).trim()).toBe('21 77');
  });

  it('without --pty bash has no terminal', async () => {
    const result = await run(['call', 'bash', '{"command":"tty"}', '--yes', '--json']);
    expect(bashStdout(result)).toBe('not a tty\n');
  });

  it.each([
    [['tools', '--pty'], '--pty applies to call and mcp'],
    [['call', 'bash', '{}', '--columns', '80'], '--columns sets the size of the terminal of --pty'],
    [['call', 'bash', '{}', '--pty', '--rows', '0'], '--rows must be a whole number from 1 to 65535'],
  ])('%j is a usage error', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(message)]);
  });
});

/** A backend whose node-pty cannot be loaded, as on a host without the optional dependency. */
function unavailable(): ProcessBackend {
  return {
    name: 'pty',
    availability: () => Promise.resolve({ available: false, reason: "node-pty could not be loaded (Cannot find package 'node-pty')" }),
    containment: () => Promise.reject(new Error('not used')),
    run: () => Promise.reject(new Error('not used')),
    liveGroups: () => [],
    dispose: () => Promise.resolve(),
  };
}

describe('the --pty backend', () => {
  it('where node-pty is missing, --pty is a usage error that says so', async () => {
    const refused = terminalBackend({ columns: undefined, rows: undefined }, unavailable());
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    await expect(refused).rejects.toThrow(/^--pty needs node-pty, .* \(node-pty could not be loaded \(Cannot find package 'node-pty'\)\)$/);
  });

  it('a size wraps the command so that it starts on a resized terminal, as the same process', async () => {
    let argv: readonly string[] = [];
    const recording: ProcessBackend = { ...unavailable(), run: (request) => ((argv = request.argv), Promise.reject(new Error('recorded'))) };
    await expect(withTerminalSize(recording, { columns: 80, rows: 24 }).run({ argv: ['bash', '-c', 'ls'], cwd: '/', env: {}, signal: new AbortController().signal })).rejects.toThrow('recorded');
    expect(argv).toEqual(['sh', '-c', 'stty cols "$1" rows "$2"; shift 2; exec "$@"', 'sh', '80', '24', 'bash', '-c', 'ls']);
  });
});

describe('an ask on a terminal', () => {
  interface Answered {
    status: string;
    error?: { message: string };
    decision?: { approved?: boolean };
    exitCode: number;
  }

  /** Runs the command on a terminal, answers the prompt, and returns the JSON result it printed and the exit status. */
  async function answer(input: object, reply: string): Promise<Answered> {
    const pty = await import('node-pty');
    const terminal = pty.spawn(process.execPath, [commandBundle(), 'call', 'write', JSON.stringify(input), '--json'], { cwd: ws, env: { ...process.env, HOME: base }, cols: 400, rows: 50 });
    let output = '';
    let answered = false;
    terminal.onData((chunk) => {
      output += chunk;
      if (!answered && output.includes('Allow? [y/N]')) {
        answered = true;
        terminal.write(reply === '\x03' ? reply : `${reply}\r`);
      }
    });
    const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
    const timer = setTimeout(() => terminal.kill(), 30_000);
    const exitCode = await exited;
    clearTimeout(timer);
    const line = output.split(/\r?\n/).find((text) => text.startsWith('{"tool"'));
    expect(line, output).toBeDefined();
    return { ...(JSON.parse(line ?? '{}') as Omit<Answered, 'exitCode'>), exitCode };
  }

  it('after a person’s no the result says "not approved", with no hint about --yes', async () => {
    const result = await answer({ path: 'no.txt', content: 'x' }, 'n');
    expect(result.status).toBe('denied');
    expect(result.error?.message).toBe('write was not run: write writes no.txt; not approved');
    await expect(readFile(join(ws, 'no.txt'))).rejects.toThrow();
  });

  it('Ctrl-C at the prompt refuses the call, prints its result and exits 130, as SIGINT does', async () => {
    const result = await answer({ path: 'interrupted.txt', content: 'x' }, '\x03');
    expect([result.status, result.exitCode]).toEqual(['denied', 130]);
    expect(result.error?.message).toBe('write was not run: write writes interrupted.txt; not approved');
    await expect(readFile(join(ws, 'interrupted.txt'))).rejects.toThrow();
  });

  it('a yes runs the call', async () => {
    const result = await answer({ path: 'yes.txt', content: 'x' }, 'y');
    expect([result.status, result.decision?.approved]).toEqual(['ok', true]);
    expect(await readFile(join(ws, 'yes.txt'), 'utf8')).toBe('x');
  });

  it('with no terminal nobody is asked, and the reason names the flags that would run it: --mode acceptEdits, --yes', async () => {
    const result = await run(['call', 'write', '{"path":"none.txt","content":"x"}', '--json']);
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout) as { error: { message: string } }).error.message).toBe(
      "write was not run: write writes none.txt; there is no terminal to ask; run it again with --mode acceptEdits, or --yes to approve every ask",
    );
  });
});

describe('call TOOL - on a terminal', () => {
  it('says it waits for a JSON object on the terminal, then runs the one typed before Ctrl-D', async () => {
    await writeFile(join(ws, 'typed.txt'), 'typed on a terminal\n');
    const pty = await import('node-pty');
    const terminal = pty.spawn(process.execPath, [commandBundle(), 'call', 'read', '-', '--json'], { cwd: ws, env: { ...process.env, HOME: base }, cols: 400, rows: 50 });
    let output = '';
    let typed = false;
    terminal.onData((chunk) => {
      output += chunk;
      if (!typed && output.includes('then Ctrl-D on a line of its own')) {
        typed = true;
        terminal.write('{"path":"typed.txt"}\r\x04');
      }
    });
    const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
    const timer = setTimeout(() => terminal.kill(), 30_000);
    const exitCode = await exited;
    clearTimeout(timer);
    expect(output).toContain('openwork-tools: reading INPUT for read from the terminal: type a JSON object, then Ctrl-D on a line of its own (e.g. {"path":"README.md"})');
    const line = output.split(/\r?\n/).find((text) => text.startsWith('{"tool"'));
    expect([exitCode, (JSON.parse(line ?? '{}') as { data?: { content?: string } }).data?.content]).toEqual([0, 'typed on a terminal\n']);
  });
});
