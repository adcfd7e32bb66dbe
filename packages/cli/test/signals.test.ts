import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandBundle } from './command.ts';
import { PATIENCE_MS } from './live-processes.ts';

/** The command as shipped, bundled once for the run: started with node, no TypeScript loader. */
const bin = commandBundle();
let base: string;
let ws: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'signals-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  // Far more than a pipe holds (64 KiB), so the output is still being written when the reader goes.
  await writeFile(join(ws, 'big.txt'), `${'x'.repeat(100)}\n`.repeat(9000));
});
afterAll(() => rm(base, { recursive: true, force: true }));

interface Started {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  readonly stdout: () => string;
  readonly stderr: () => string;
}

function start(args: string[]): Started {
  const child = spawn('node', [bin, ...args], { cwd: ws, env: { ...process.env, HOME: base }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Whether a live process has the marker in its command line, read from /proc (never by program name). */
async function survives(marker: string): Promise<boolean> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const line = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (line.replaceAll('\0', ' ').includes(marker)) return true;
  }
  return false;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

const handshake = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];
const send = (started: Started, message: object) => started.child.stdin.write(`${JSON.stringify(message)}\n`);

describe('SIGHUP is handled as SIGTERM', () => {
  it('call: the bash call is cancelled, its result printed, no child left, exit 129', async () => {
    const marker = `${randomInt(1_000_000_000)}`;
    const call = start(['call', 'bash', JSON.stringify({ command: `echo started; sleep 40.${marker}` }), '--yes', '--json', '--progress']);
    expect(await until(() => call.stderr().includes('started'), PATIENCE_MS)).toBe(true);
    expect(await survives(`sleep 40.${marker}`)).toBe(true);
    call.child.kill('SIGHUP');
    expect(await call.exited).toBe(129);
    expect(JSON.parse(call.stdout())).toMatchObject({ status: 'ok', data: { status: 'cancelled', stdout: { text: 'started\n' } } });
    expect(await survives(`sleep 40.${marker}`)).toBe(false);
  });

  it('mcp: the server ends, the running bash is killed, exit 129', async () => {
    const marker = `${randomInt(1_000_000_000)}`;
    const server = start(['mcp', '--cwd', ws, '--yes']);
    for (const message of handshake) send(server, message);
    send(server, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bash', arguments: { command: `sleep 40.${marker}` } } });
    expect(await until(() => survives(`sleep 40.${marker}`), PATIENCE_MS)).toBe(true);
    server.child.kill('SIGHUP');
    expect(await server.exited).toBe(129);
    expect(await survives(`sleep 40.${marker}`)).toBe(false);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  });
});

describe('a closed stdout (EPIPE) ends the command quietly', () => {
  /** Reads `bytes` of stdout, then closes the pipe, as `| head -c 100` does. */
  function readThenClose(started: Started, bytes: number): Promise<string> {
    return new Promise((resolve) => {
      let seen = '';
      const onData = (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.length < bytes) return;
        started.child.stdout.off('data', onData);
        started.child.stdout.destroy();
        resolve(seen.slice(0, bytes));
      };
      started.child.stdout.on('data', onData);
    });
  }

  it.each([
    ['--json', 0],
    ['text', 0],
  ])('call read %s | head -c 100: the usual exit status, no stack trace', async (mode, status) => {
    const call = start(['call', 'read', '{"path":"big.txt"}', ...(mode === '--json' ? ['--json'] : [])]);
    const head = await readThenClose(call, 100);
    expect(head.length).toBe(100);
    expect(await call.exited).toBe(status);
    expect(call.stderr()).toBe('');
  });

  it('a stdout closed before the result: an error result still exits 1, quietly', async () => {
    const call = start(['call', 'read', '{"path":"missing.txt"}', '--json']);
    call.child.stdout.destroy();
    expect(await call.exited).toBe(1);
    expect(call.stderr()).toBe('');
  });

  it('mcp: a client that closed its end of stdout ends the server with 0 and no stack trace', async () => {
    const server = start(['mcp', '--cwd', ws]);
    server.child.stdout.destroy();
    for (const message of handshake) send(server, message);
    send(server, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read', arguments: { path: 'big.txt' } } });
    expect(await server.exited).toBe(0);
    expect(server.stderr()).not.toMatch(/\n\s+at |EPIPE/);
  });
});
