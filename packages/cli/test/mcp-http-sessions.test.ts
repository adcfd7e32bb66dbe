import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEnvironment, startHttpServer, stopHttpServer } from './http-server-process.ts';
import { PATIENCE_MS, until } from './live-processes.ts';

// A server that serves many HTTP sessions one after another must not keep what each closed session started: a
// search starts the session's worker threads, and the DELETE that ends the session must stop them. The server
// runs as shipped, in a process of its own, and its threads and memory are read from /proc.

const token = randomBytes(24).toString('base64url');
const SESSIONS = 30;
/** Node grows its own pools once (libuv, the HTTP parser); a pool of search workers per session would add one thread per worker each time. */
const THREAD_SLACK = 2;
/** Memory settles after the first sessions; a session whose workers stay costs some 13 MB more, each time (380 MB over thirty). */
const RSS_SLACK_KIB = 64 * 1024;

let base: string;
let ws: string;
let child: ChildProcess;
let url: URL;

async function status(pid: number): Promise<{ threads: number; rssKib: number }> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1]);
  return { threads: field('Threads'), rssKib: field('VmRSS') };
}

/** Opens a session, searches, and ends it with a DELETE; gives the server's threads while the session was open, its workers running. */
async function session(pid: number): Promise<number> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'mcp-http-sessions-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    // A search that may keep more than ten thousand results starts the workers at once, whatever the tree's size.
    const found = (await client.callTool({ name: 'grep', arguments: { pattern: 'needle', maxResults: 20_000 } })) as CallToolResult;
    expect(found.isError).toBe(false);
    expect((found.structuredContent as { files?: unknown[] }).files).toHaveLength(400);
    const open = (await status(pid)).threads;
    await transport.terminateSession();
    return open;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-http-sessions-')));
  ws = join(base, 'ws');
  for (let directory = 0; directory < 8; directory += 1) {
    await mkdir(join(ws, `d${directory}`), { recursive: true });
    await Promise.all(Array.from({ length: 50 }, (_, file) => writeFile(join(ws, `d${directory}`, `f${file}.txt`), `needle ${file}\n`)));
  }
  ({ child, url } = await startHttpServer(['--cwd', ws, '--yes'], serverEnvironment({ HOME: base, OPENWORK_MCP_TOKEN: token })));
});

afterAll(async () => {
  await stopHttpServer(child);
  await rm(base, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('openwork-tools mcp --http, session after session', () => {
  it(`${SESSIONS} sessions that search and end leave the threads and memory where the first left them`, async () => {
    const pid = child.pid ?? 0;
    const before = await status(pid);
    const open = await session(pid);
    // The search did start workers: without them this test would prove nothing.
    expect(open).toBeGreaterThan(before.threads);
    // The first session's workers stop once its DELETE is served; what is left is the server's own.
    expect(await until(async () => (await status(pid)).threads <= before.threads + THREAD_SLACK, PATIENCE_MS)).toBe(true);
    const first = await status(pid);
    for (let round = 1; round < SESSIONS; round += 1) await session(pid);
    // Each DELETE is answered before its workers have quite stopped: wait for the last ones, then read.
    await until(async () => (await status(pid)).threads <= first.threads + THREAD_SLACK, PATIENCE_MS);
    const last = await status(pid);
    expect(last.threads).toBeLessThanOrEqual(first.threads + THREAD_SLACK);
    expect(last.rssKib).toBeLessThanOrEqual(first.rssKib + RSS_SLACK_KIB);
    // The server still answers.
    await session(pid);
  });
});
