import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEnvironment, startHttpServer, stopHttpServer } from './http-server-process.ts';

// The HTTP server's bearer token is in its own environment; no command it runs, approved or not, may read it.
const token = randomBytes(24).toString('base64url');
const apiKey = `key-${randomBytes(8).toString('hex')}`;
let base: string;
let child: ChildProcess;
let url: URL;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-http-env-')));
  const ws = join(base, 'ws');
  await mkdir(ws);
  ({ child, url } = await startHttpServer(['--cwd', ws, '--yes', '--pass-env', 'MY_API_KEY'], serverEnvironment({ HOME: base, OPENWORK_MCP_TOKEN: token, MY_API_KEY: apiKey }), 'pipe'));
});

afterAll(async () => {
  await stopHttpServer(child);
  await rm(base, { recursive: true, force: true });
});

describe('mcp --http: the command environment', () => {
  it('neither an auto-run nor an approved command sees the bearer token; only an approved one sees what --pass-env names', async () => {
    const client = new Client({ name: 'mcp-http-env-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const run = async (command: string) => {
        const result = (await client.callTool({ name: 'bash', arguments: { command } })) as CallToolResult;
        return result.structuredContent as { exitCode: number; stdout: { text: string } };
      };
      const printed = await run('printenv OPENWORK_MCP_TOKEN');
      expect([printed.exitCode, printed.stdout.text]).toEqual([1, '']);
      const listed = await run('env');
      expect(listed.stdout.text).toContain('HOME=');
      expect(listed.stdout.text).not.toContain(token);
      expect(listed.stdout.text).not.toContain(apiKey);
      const approved = await run(`sh -c 'env'`);
      expect(approved.stdout.text).toContain(`MY_API_KEY=${apiKey}`);
      expect(approved.stdout.text).not.toContain(token);
    } finally {
      await client.close();
    }
  });
});
