import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { request } from 'node:http';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEnvironment, startHttpServer, stopHttpServer } from './http-server-process.ts';
import { killMarked, markerRunning, PATIENCE_MS, until } from './live-processes.ts';

// What a client sees when its session ends under a running call, and the connection headers of every answer.
// Client and server on 127.0.0.1; the server runs as shipped, in a process of its own.
const token = randomBytes(24).toString('base64url');
let base: string;
let ws: string;
let child: ChildProcess;
let url: URL;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-http-ending-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), 'one\n');
  ({ child, url } = await startHttpServer(['--cwd', ws, '--yes'], serverEnvironment({ HOME: base, OPENWORK_MCP_TOKEN: token })));
});

afterAll(async () => {
  await stopHttpServer(child);
  await rm(base, { recursive: true, force: true });
});

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'mcp-http-ending-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** The status and headers of a raw request, as the server sent them. */
function raw(method: string, headers: Record<string, string>, body?: string): Promise<{ status: number | undefined; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method, headers }, (response) => {
      response.resume();
      response.once('end', () => resolve({ status: response.statusCode, headers: response.headers }));
    });
    sent.once('error', reject);
    sent.end(body);
  });
}

describe('openwork-tools mcp --http: the end of a session, and its connections', () => {
  it('a DELETE answers the session’s running calls as cancelled before it is answered, and ends their processes', async () => {
    const { client, transport } = await connect();
    const marker = `HTTPDELETE${randomInt(1_000_000_000)}`;
    try {
      const calls = [1, 2].map((index) => client.callTool({ name: 'bash', arguments: { command: `sleep 60; : ${marker}-${index}` } }, undefined, { timeout: PATIENCE_MS }) as Promise<CallToolResult>);
      expect(await until(async () => (await markerRunning(`${marker}-1`)) && (await markerRunning(`${marker}-2`)), PATIENCE_MS)).toBe(true);
      await transport.terminateSession();
      // Both calls settle with their result, the client still open: nobody waits out a timeout.
      for (const result of await Promise.all(calls)) {
        expect(result.structuredContent).toMatchObject({ status: 'cancelled' });
        expect(text(result)).toMatch(/^Cancelled; /);
      }
      expect(await markerRunning(marker)).toBe(false);
      // The session is gone.
      const after = await raw('POST', { authorization: `Bearer ${token}`, 'mcp-session-id': transport.sessionId ?? '', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, '{"jsonrpc":"2.0","id":9,"method":"tools/list"}');
      expect(after.status).toBe(404);
    } finally {
      await client.close();
      await killMarked(marker);
    }
  });

  it('every answer keeps the connection alive and says for how long: a call’s, a notification’s, a refusal’s', async () => {
    const { client, transport } = await connect();
    try {
      const session = { authorization: `Bearer ${token}`, 'mcp-session-id': transport.sessionId ?? '', 'mcp-protocol-version': '2025-06-18', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const answers = [
        await raw('POST', session, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read', arguments: { path: 'a.txt' } } })),
        await raw('POST', session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
        await raw('POST', { 'content-type': 'application/json' }, '{}'),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([200, 202, 401]);
      for (const answer of answers) expect([answer.headers.connection, answer.headers['keep-alive']]).toEqual(['keep-alive', 'timeout=60']);
      // A client that asks to close is told the connection closes.
      expect((await raw('POST', { 'content-type': 'application/json', connection: 'close' }, '{}')).headers.connection).toBe('close');
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });
});
