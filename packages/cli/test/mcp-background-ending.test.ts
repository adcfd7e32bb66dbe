import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectContainment } from '@openwork/process-backend/cgroup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandBundle } from './command.ts';
import { markerRunning, PATIENCE_MS, until } from './live-processes.ts';

let base: string;
let ws: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-background-ending-')));
  ws = join(base, 'ws');
  await mkdir(ws);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const marked = (marker: string) => () => markerRunning(marker);

describe('background commands and the end of the server process', () => {
  const handshake = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ];

  function start() {
    const env = Object.fromEntries(Object.entries({ ...process.env, HOME: base }).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const child = spawn('node', [commandBundle(), 'mcp', '--cwd', ws, '--yes'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    return { child, exited, send };
  }

  it.for([['stdin closing', 0], ['SIGTERM', 143], ['SIGHUP', 129], ['SIGINT', 130]] as const)('%s ends every background command, a setsid child included', async ([how, status], context) => {
    const report = await detectContainment();
    if (report.kind !== 'cgroup') context.skip(`no usable cgroup here: ${report.reason}`);
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    const server = start();
    for (const message of handshake) server.send(message);
    const command = `setsid sh -c 'sleep 300; : ${marker}-daemon' >/dev/null 2>&1 < /dev/null & sleep 600; : ${marker}`;
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bash', arguments: { command, runInBackground: true } } });
    server.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'bash', arguments: { command: `sleep 600; : ${marker}-second`, runInBackground: true } } });
    expect(await until(marked(`${marker}-daemon`), PATIENCE_MS)).toBe(true);
    expect(await until(marked(`${marker}-second`), PATIENCE_MS)).toBe(true);
    if (how !== 'stdin closing') server.child.kill(how);
    else server.child.stdin.end();
    expect(await server.exited).toBe(status);
    expect(await markerRunning(marker)).toBe(false);
  });
});
