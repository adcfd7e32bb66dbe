import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BuiltinSession } from '@openwork/builtin-tools';
import { approveEveryAsk, modeSelection } from '@openwork/permission-policy';
import { expect } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { mcpInstructions } from '../src/mcp/instructions.ts';
import { scopeOpener } from '../src/mcp/scope.ts';
import { createToolServer } from '../src/mcp/tool-server.ts';
import { commandLineRoots, createHost, type CommandHost } from '../src/session.ts';
import { createRegistry } from '../src/toolset.ts';
import { PATIENCE_MS } from './live-processes.ts';

export interface Served {
  readonly client: Client;
  readonly host: CommandHost;
  readonly tools: () => Promise<string[]>;
  readonly close: () => Promise<void>;
}

/** The MCP server of `mcp --yes` over an in-memory transport: the same host, scope and tool server, in this process. */
export async function serveIn(ws: string, flags: string[] = []): Promise<Served> {
  const options = parseArgs(['mcp', '--cwd', ws, '--yes', ...flags]);
  const host = await createHost(options, { background: true });
  const scope = await scopeOpener(host, options, undefined, { ask: approveEveryAsk, question: undefined }, () => {})(commandLineRoots(options));
  const { server, settled } = createToolServer<BuiltinSession>({
    definitions: createRegistry()
      .select(modeSelection(options.mode))
      .map((entry) => entry.definition),
    scope: () => Promise.resolve(scope),
    version: 'test',
    instructions: mcpInstructions(scope.toolset, { mode: options.mode, yes: options.yes, roots: 'command-line' }),
    log: () => {},
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'background-test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    client,
    host,
    tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    close: async () => {
      await client.close();
      await server.close();
      await settled();
      await host.dispose();
    },
  };
}

export interface Unread {
  text: string;
  bytes: number;
  droppedBytes: number;
}
export interface ReadData {
  backgroundId: string;
  status: string;
  exitCode: number | null;
  durationMs?: number;
  stdout: Unread;
  stderr: Unread;
}

export async function call(served: Served, name: string, input: Record<string, unknown>): Promise<CallToolResult> {
  return (await served.client.callTool({ name, arguments: input }, undefined, { timeout: PATIENCE_MS })) as CallToolResult;
}

export const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** Starts a background command; its id, and what it printed in its first moments. */
export async function started(served: Served, input: Record<string, unknown>): Promise<{ id: string; stdout: string }> {
  const result = await call(served, 'bash', { runInBackground: true, ...input });
  expect(result.isError, text(result)).toBeFalsy();
  const data = result.structuredContent as { status: string; backgroundId: string; stdout: { text: string } };
  expect(data.status).toBe('running');
  return { id: data.backgroundId, stdout: data.stdout.text };
}

export async function startBackground(served: Served, input: Record<string, unknown>): Promise<string> {
  return (await started(served, input)).id;
}

export async function output(served: Served, backgroundId: string, waitMs = 0): Promise<ReadData> {
  const result = await call(served, 'bash_output', { backgroundId, waitMs });
  expect(result.isError, text(result)).toBeFalsy();
  return result.structuredContent as unknown as ReadData;
}

/** Polls until the command ends; every read's stdout, in order. */
export async function readToEnd(served: Served, backgroundId: string): Promise<{ reads: ReadData[]; stdout: string }> {
  const reads: ReadData[] = [];
  for (;;) {
    const read = await output(served, backgroundId, 2_000);
    reads.push(read);
    if (read.status !== 'running') return { reads, stdout: reads.map((each) => each.stdout.text).join('') };
  }
}
