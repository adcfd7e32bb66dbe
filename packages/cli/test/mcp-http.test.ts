import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerRunning, PATIENCE_MS, until } from './live-processes.ts';
import { commandBundle } from './command.ts';

// Client and server on 127.0.0.1 only; the server picks a free port and prints it.
/** The command as shipped, bundled once for the run: started with node, no TypeScript loader. */
const bin = commandBundle();
const token = randomBytes(24).toString('base64url');
let base: string;
let ws: string;

interface Served {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

function environment(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const entries = Object.entries({ ...process.env, HOME: base, OPENWORK_MCP_TOKEN: token, ...extra }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return Object.fromEntries(entries);
}

async function serve(args: string[] = [], extra: Record<string, string | undefined> = {}): Promise<Served> {
  const child = spawn('node', [bin, 'mcp', '--http', '0', '--cwd', ws, ...args], { env: environment(extra), stdio: ['ignore', 'pipe', 'pipe'] });
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
  return { child, url, stderr: () => stderr, exited };
}

async function stop(served: Served): Promise<number | null> {
  served.child.kill('SIGTERM');
  return served.exited;
}

async function connect(served: Served, headers: Record<string, string> = { authorization: `Bearer ${token}` }): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(served.url, { requestInit: { headers } });
  const client = new Client({ name: 'mcp-http-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');


const running = markerRunning;


const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });

async function post(served: Served, headers: Record<string, string>): Promise<Response> {
  return fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: initialize });
}

let served: Served;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-http-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), 'one\ntwo\n');
  served = await serve(['--yes']);
});

afterAll(async () => {
  await stop(served);
  await rm(base, { recursive: true, force: true });
});

describe('openwork-tools mcp --http', () => {
  it('listens on loopback and serves the same tools, with a call that reads the workspace', async () => {
    expect(served.url.hostname).toBe('127.0.0.1');
    expect(served.url.pathname).toBe('/mcp');
    const { client } = await connect(served);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['bash', 'bash_kill', 'bash_output', 'bash_write', 'edit', 'glob', 'grep', 'list', 'read', 'write']);
      // Each session's instructions name the command line's roots.
      expect(client.getInstructions()?.split('\n')[0]).toBe(`Working directory: ${ws}`);
      const read = (await client.callTool({ name: 'read', arguments: { path: 'a.txt' } })) as CallToolResult;
      expect(read.isError).toBe(false);
      expect(read.structuredContent).toMatchObject({ path: 'a.txt', content: 'one\ntwo\n' });
      const outside = (await client.callTool({ name: 'read', arguments: { path: '/etc/hostname' } })) as CallToolResult;
      expect([outside.isError, text(outside)]).toEqual([true, expect.stringMatching(/^Error \[outside_root\]: /)]);
    } finally {
      await client.close();
    }
  });

  it('sends progress notifications on the call’s stream', async () => {
    const { client } = await connect(served);
    try {
      const events: Progress[] = [];
      const result = (await client.callTool({ name: 'bash', arguments: { command: 'for i in 1 2 3; do echo $i; sleep 0.3; done' } }, CallToolResultSchema, {
        onprogress: (event) => events.push(event),
      })) as CallToolResult;
      expect(result.isError).toBe(false);
      expect(events.map((event) => event.message).join('')).toBe('1\n2\n3\n');
    } finally {
      await client.close();
    }
  });

  it('a cancelled call ends its bash process; the session goes on', async () => {
    const { client } = await connect(served);
    try {
      const marker = `HTTPCANCEL${randomInt(1_000_000_000)}`;
      const controller = new AbortController();
      const settled = client.callTool({ name: 'bash', arguments: { command: `sleep 60; echo ${marker}` } }, CallToolResultSchema, { signal: controller.signal }).then(
        () => 'resolved',
        () => 'rejected',
      );
      expect(await until(() => running(marker), PATIENCE_MS)).toBe(true);
      controller.abort('the test cancels');
      expect(await settled).toBe('rejected');
      expect(await until(async () => !(await running(marker)), PATIENCE_MS)).toBe(true);
      const after = (await client.callTool({ name: 'read', arguments: { path: 'a.txt' } })) as CallToolResult;
      expect(after.isError).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('each client has a session of its own, and ending one ends its processes but not the other’s', async () => {
    const first = await connect(served);
    const second = await connect(served);
    const marker = `HTTPSESSION${randomInt(1_000_000_000)}`;
    try {
      expect(first.transport.sessionId).toBeDefined();
      expect(first.transport.sessionId).not.toBe(second.transport.sessionId);
      const pending = first.client.callTool({ name: 'bash', arguments: { command: `sleep 60; echo ${marker}` } }).catch(() => 'ended');
      expect(await until(() => running(marker), PATIENCE_MS)).toBe(true);
      // DELETE: the session, its call and its process end.
      await first.transport.terminateSession();
      expect(await until(async () => !(await running(marker)), PATIENCE_MS)).toBe(true);
      await first.client.close();
      await pending;
      const read = (await second.client.callTool({ name: 'read', arguments: { path: 'a.txt' } })) as CallToolResult;
      expect(read.isError).toBe(false);
    } finally {
      await Promise.all([first.client.close(), second.client.close()]);
    }
  });

  it('a client that disconnects during a call leaves no process behind', async () => {
    const { client } = await connect(served);
    const marker = `HTTPGONE${randomInt(1_000_000_000)}`;
    const pending = client.callTool({ name: 'bash', arguments: { command: `sleep 60; echo ${marker}` } }).catch(() => 'disconnected');
    expect(await until(() => running(marker), PATIENCE_MS)).toBe(true);
    // The connection goes away without a DELETE or a cancel.
    await client.close();
    await pending;
    expect(await until(async () => !(await running(marker)), PATIENCE_MS)).toBe(true);
  });

  it('a missing or wrong token is 401, a foreign Origin or Host is 403, and nothing else answers', async () => {
    const missing = await post(served, {});
    expect([missing.status, missing.headers.get('www-authenticate')]).toEqual([401, 'Bearer']);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('OPENWORK_MCP_TOKEN');
    expect((await post(served, { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await post(served, { authorization: `Basic ${token}` })).status).toBe(401);
    const origin = await post(served, { authorization: `Bearer ${token}`, origin: 'http://attacker.example' });
    expect(origin.status).toBe(403);
    expect(((await origin.json()) as { error: { message: string } }).error.message).toContain('--allow-origin http://attacker.example');
    // The server's own origin is accepted.
    expect((await post(served, { authorization: `Bearer ${token}`, origin: served.url.origin })).status).toBe(200);
    // A rebound name: fetch cannot change Host, so the request goes out by hand.
    const { request } = await import('node:http');
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      const sent = request(served.url, { method: 'POST', headers: { host: `rebound.example:${served.url.port}`, authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      sent.once('error', reject);
      sent.end(initialize);
    });
    expect(rebound).toBe(403);
    const elsewhere = await fetch(new URL('/other', served.url), { headers: { authorization: `Bearer ${token}` } });
    expect(elsewhere.status).toBe(404);
    const noSession = await fetch(served.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
    expect(noSession.status).toBe(400);
    const unknown = await fetch(served.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'mcp-session-id': 'no-such' }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' });
    expect(unknown.status).toBe(404);
  });

  it('an origin given by --allow-origin is accepted', async () => {
    const other = await serve(['--allow-origin', 'https://app.example.com']);
    try {
      expect((await post(other, { authorization: `Bearer ${token}`, origin: 'https://app.example.com' })).status).toBe(200);
      expect((await post(other, { authorization: `Bearer ${token}`, origin: 'https://app.example.com.attacker.example' })).status).toBe(403);
    } finally {
      expect(await stop(other)).toBe(143);
    }
  });

  it('without OPENWORK_MCP_TOKEN a token is generated, printed to stderr, and required', async () => {
    const other = await serve([], { OPENWORK_MCP_TOKEN: undefined });
    try {
      const printed = /bearer token \(set OPENWORK_MCP_TOKEN to choose one\): (\S+)/.exec(other.stderr())?.[1];
      expect(printed).toMatch(/^[\w-]{40,}$/);
      expect((await post(other, { authorization: `Bearer ${token}` })).status).toBe(401);
      expect((await post(other, { authorization: `Bearer ${printed ?? ''}` })).status).toBe(200);
    } finally {
      await stop(other);
    }
  });

  it('SIGTERM ends every session’s processes and exits 143', async () => {
    const other = await serve(['--yes']);
    const { client } = await connect(other);
    const marker = `HTTPTERM${randomInt(1_000_000_000)}`;
    const pending = client.callTool({ name: 'bash', arguments: { command: `sleep 60; echo ${marker}` } }).catch(() => 'ended');
    expect(await until(() => running(marker), PATIENCE_MS)).toBe(true);
    expect(await stop(other)).toBe(143);
    // Closing the client settles the call the server will never answer, rather than waiting out the request's timeout.
    await client.close();
    await pending;
    expect(await running(marker)).toBe(false);
  });

  it('bad listen addresses and a short token are usage errors', async () => {
    const run = (args: string[], extra: Record<string, string | undefined> = {}) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn('node', [bin, ...args], { env: environment(extra), stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('exit', (code) => resolve({ code, stderr }));
      });
    expect(await run(['mcp', '--http', 'localhost', '--cwd', ws])).toMatchObject({ code: 2, stderr: expect.stringContaining('--http takes PORT or HOST:PORT') as unknown });
    expect(await run(['mcp', '--http', '70000', '--cwd', ws])).toMatchObject({ code: 2 });
    expect(await run(['call', 'read', '{}', '--http', '8765'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--http applies to mcp') as unknown });
    expect(await run(['mcp', '--allow-origin', 'https://a.example', '--cwd', ws])).toMatchObject({ code: 2, stderr: expect.stringContaining('add --http') as unknown });
    expect(await run(['mcp', '--http', '0', '--cwd', ws], { OPENWORK_MCP_TOKEN: 'short' })).toMatchObject({ code: 2, stderr: expect.stringContaining('at least 16 characters') as unknown });
  });
});
