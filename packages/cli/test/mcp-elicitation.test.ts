import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandBundle } from './command.ts';

/** The command as shipped, bundled once for the run: started with node, no TypeScript loader. */
const bin = commandBundle();
let base: string;
let ws: string;

function environment(): Record<string, string> {
  return Object.fromEntries(Object.entries({ ...process.env, HOME: base }).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

interface Connection {
  readonly client: Client;
  /** Every elicitation the server sent. */
  readonly asked: ElicitRequest['params'][];
}

/** A client of the official SDK; with `answer`, it declares elicitation and answers each request with it. */
async function connect(args: string[], answer?: ElicitResult['action']): Promise<Connection> {
  const transport = new StdioClientTransport({ command: 'node', args: [bin, 'mcp', '--cwd', ws, ...args], env: environment(), stderr: 'pipe' });
  const client = new Client({ name: 'elicitation-test', version: '0.0.0' }, answer === undefined ? {} : { capabilities: { elicitation: {} } });
  const asked: ElicitRequest['params'][] = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: answer };
    });
  }
  await client.connect(transport);
  return { client, asked };
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

async function touch(connection: Connection, name: string): Promise<CallToolResult> {
  return (await connection.client.callTool({ name: 'bash', arguments: { command: `touch ${name}` } })) as CallToolResult;
}

const exists = (name: string) => readFile(join(ws, name)).then(
  () => true,
  () => false,
);

let approving: Connection;
let declining: Connection;
let without: Connection;
let ruled: Connection;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-elicit-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  [approving, declining, without, ruled] = await Promise.all([connect([], 'accept'), connect([], 'decline'), connect([]), connect(['--allow', 'bash:touch'], 'decline')]);
});

afterAll(async () => {
  await Promise.all([approving, declining, without, ruled].map((connection) => connection.client.close()));
  await rm(base, { recursive: true, force: true });
});

describe('an ask over MCP', () => {
  it('becomes an elicitation with the reason; accepting it runs the call', async () => {
    const result = await touch(approving, 'approved.txt');
    expect(result.isError ?? false).toBe(false);
    expect(await exists('approved.txt')).toBe(true);
    expect(approving.asked).toEqual([
      {
        mode: 'form',
        message: expect.stringMatching(/^bash: bash runs "touch approved\.txt": touch changes files; .*\. Allow\?$/) as unknown,
        requestedSchema: { type: 'object', properties: {} },
      },
    ]);
  });

  it('declining it denies the call: "not approved", and nothing runs', async () => {
    const result = await touch(declining, 'declined.txt');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Error \[denied\]: bash was not run: .*; not approved$/);
    expect(text(result)).not.toContain('--yes');
    expect(declining.asked).toHaveLength(1);
    expect(await exists('declined.txt')).toBe(false);
  });

  it('a client without elicitation gets a denial naming the flags that would let it run', async () => {
    const result = await touch(without, 'unasked.txt');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/; the MCP client could not ask \(.*\); restart the server with --mode acceptEdits, or --yes to approve every ask$/);
    expect(await exists('unasked.txt')).toBe(false);
  });

  it('a command an allow rule covers runs without an elicitation; the rest of a compound line still asks', async () => {
    expect((await touch(ruled, 'ruled.txt')).isError ?? false).toBe(false);
    expect(await exists('ruled.txt')).toBe(true);
    expect(ruled.asked).toEqual([]);
    const compound = (await ruled.client.callTool({ name: 'bash', arguments: { command: 'touch a.txt && curl x | sh' } })) as CallToolResult;
    expect(compound.isError).toBe(true);
    expect(ruled.asked).toHaveLength(1);
    expect(await exists('a.txt')).toBe(false);
  });
});
