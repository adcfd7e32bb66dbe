import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { detectContainment } from '@openwork/process-backend/cgroup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandBundle } from './command.ts';
import { killMarked, markerRunning, PATIENCE_MS, until } from './live-processes.ts';

// The end of an HTTP session (DELETE, idle expiry) ends its background commands, a setsid child included.
const token = randomBytes(24).toString('base64url');
let base: string;
let ws: string;

interface Served {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly exited: Promise<number | null>;
}

async function serve(extra: Record<string, string> = {}): Promise<Served> {
  const env = Object.fromEntries(Object.entries({ ...process.env, HOME: base, OPENWORK_MCP_TOKEN: token, ...extra }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const child = spawn('node', [commandBundle(), 'mcp', '--http', '0', '--cwd', ws, '--yes'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.resume();
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const at = /serving MCP over HTTP at (\S+)/.exec(stderr)?.[1];
      if (at !== undefined) resolve(new URL(at));
    });
    void exited.then((code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  return { child, url, exited };
}

async function connect(served: Served): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(served.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'mcp-http-background-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Starts a background command whose setsid child leaves its process group; waits until both run. */
async function startWithDaemon(client: Client, marker: string): Promise<void> {
  const command = `setsid sh -c 'sleep 300; : ${marker}-daemon' >/dev/null 2>&1 < /dev/null & sleep 600; : ${marker}`;
  const result = (await client.callTool({ name: 'bash', arguments: { command, runInBackground: true } }, undefined, { timeout: PATIENCE_MS })) as CallToolResult;
  expect(result.isError).toBe(false);
  expect(result.structuredContent).toMatchObject({ status: 'running' });
  expect(await until(() => markerRunning(`${marker}-daemon`), PATIENCE_MS)).toBe(true);
  expect(await markerRunning(marker)).toBe(true);
}

let lasting: Served;
let brief: Served;
let contained = false;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-http-background-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  contained = (await detectContainment()).kind === 'cgroup';
  // The default idle time, and one of a second: started side by side.
  [lasting, brief] = await Promise.all([serve(), serve({ OPENWORK_MCP_IDLE_MS: '1000' })]);
});

afterAll(async () => {
  for (const served of [lasting, brief]) served.child.kill('SIGTERM');
  await Promise.all([lasting.exited, brief.exited]);
  await rm(base, { recursive: true, force: true });
});

describe('the end of an HTTP session ends its background commands', () => {
  it('a DELETE of the session ends them, a setsid child included; another session’s go on', async (context) => {
    if (!contained) context.skip('no usable cgroup here: a setsid child escapes a process group');
    const marker = `HTTPBG${randomInt(1_000_000_000)}`;
    const ended = await connect(lasting);
    const other = await connect(lasting);
    try {
      await startWithDaemon(ended.client, `${marker}-ended`);
      await startWithDaemon(other.client, `${marker}-other`);
      await ended.transport.terminateSession();
      expect(await until(async () => !(await markerRunning(`${marker}-ended`)), PATIENCE_MS)).toBe(true);
      expect(await markerRunning(`${marker}-other-daemon`)).toBe(true);
    } finally {
      await ended.client.close();
      await other.transport.terminateSession();
      await other.client.close();
      expect(await until(async () => !(await markerRunning(marker)), PATIENCE_MS)).toBe(true);
      await killMarked(marker);
    }
  });

  it('a session left idle past OPENWORK_MCP_IDLE_MS is closed with its commands, a setsid child included', async (context) => {
    if (!contained) context.skip('no usable cgroup here: a setsid child escapes a process group');
    const marker = `HTTPIDLE${randomInt(1_000_000_000)}`;
    const { client, transport } = await connect(brief);
    try {
      await startWithDaemon(client, marker);
      const id = transport.sessionId;
      // The client goes away without a DELETE: nothing is asked of the session any more.
      await client.close();
      expect(await until(async () => !(await markerRunning(marker)), PATIENCE_MS)).toBe(true);
      const after = await fetch(brief.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'mcp-session-id': id ?? '', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(after.status).toBe(404);
    } finally {
      await killMarked(marker);
    }
  });

  it('an OPENWORK_MCP_IDLE_MS that is not a positive number of milliseconds is a usage error', async () => {
    const served = spawn('node', [commandBundle(), 'mcp', '--http', '0', '--cwd', ws], { env: { ...process.env, HOME: base, OPENWORK_MCP_TOKEN: token, OPENWORK_MCP_IDLE_MS: '30m' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    served.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await new Promise((resolve) => served.once('exit', resolve))).toBe(2);
    expect(stderr).toContain('OPENWORK_MCP_IDLE_MS must be a positive integer of milliseconds');
  });
});
