import { execFile, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { detectContainment } from '@openwork/process-backend/cgroup';
import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerRunning, PATIENCE_MS, until } from './live-processes.ts';
import { commandBundle } from './command.ts';
import { MCP_APPROVAL } from '../src/mcp/instructions.ts';

/** The command as shipped, bundled once for the run: started with node, no TypeScript loader. */
const bin = commandBundle();
let base: string;
let ws: string;
let journal: string;

interface Definition {
  name: string;
  id: string;
  description: string;
  risk: string;
  inputSchema: Record<string, unknown>;
}

function environment(): Record<string, string> {
  const entries = Object.entries({ ...process.env, HOME: base }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return Object.fromEntries(entries);
}

async function toolsJson(args: string[] = []): Promise<Definition[]> {
  const { stdout } = await promisify(execFile)('node', [bin, 'tools', '--json', '--cwd', ws, ...args], { env: environment() });
  return (JSON.parse(stdout) as { tools: Definition[] }).tools;
}

interface Connection {
  client: Client;
  stderr: () => string;
}

async function connect(args: string[] = []): Promise<Connection> {
  const transport = new StdioClientTransport({ command: 'node', args: [bin, 'mcp', '--cwd', ws, ...args], env: environment(), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function call(connection: Connection, name: string, input: Record<string, unknown>): Promise<CallToolResult> {
  return (await connection.client.callTool({ name, arguments: input })) as CallToolResult;
}

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');



const running = (marker: string) => () => markerRunning(marker);

let plain: Connection;
let approving: Connection;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-')));
  ws = join(base, 'ws');
  journal = join(base, 'changes.jsonl');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), 'one\ntwo\n');
  await writeFile(join(ws, 'e.txt'), 'alpha\n');
  [plain, approving] = await Promise.all([connect(), connect(['--yes', '--artifacts', journal])]);
});

afterAll(async () => {
  await Promise.all([plain.client.close(), approving.client.close()]);
  await rm(base, { recursive: true, force: true });
});

/** One call per tool, checked by its result and the files it leaves (docs/contract.md §2, §3). */
const cases: Record<string, { input: Record<string, unknown>; check: (result: CallToolResult) => void | Promise<void> }> = {
  read: {
    input: { path: 'a.txt' },
    check: (result) => {
      expect(result.structuredContent).toMatchObject({ path: 'a.txt', content: 'one\ntwo\n' });
      expect(text(result)).toContain('one');
    },
  },
  write: {
    input: { path: 'w.txt', content: 'written\n' },
    check: async (result) => {
      expect(result.structuredContent).toMatchObject({ path: 'w.txt', created: true });
      expect(await readFile(join(ws, 'w.txt'), 'utf8')).toBe('written\n');
    },
  },
  edit: {
    input: { path: 'e.txt', oldText: 'alpha', newText: 'beta' },
    check: async (result) => {
      expect(result.structuredContent).toMatchObject({ path: 'e.txt', replacements: 1 });
      expect(await readFile(join(ws, 'e.txt'), 'utf8')).toBe('beta\n');
    },
  },
  list: {
    input: {},
    check: (result) => {
      expect((result.structuredContent as { entries: { name: string }[] }).entries.map((entry) => entry.name)).toContain('a.txt');
    },
  },
  grep: {
    input: { pattern: 'two' },
    check: (result) => {
      expect(result.structuredContent).toMatchObject({ files: ['a.txt'] });
    },
  },
  glob: {
    input: { pattern: 'a.*' },
    check: (result) => {
      expect(result.structuredContent).toMatchObject({ paths: ['a.txt'] });
    },
  },
  bash: {
    input: { command: 'echo hi; echo oops >&2' },
    check: (result) => {
      expect(result.structuredContent).toMatchObject({ status: 'exited', exitCode: 0, stdout: { text: 'hi\n' }, stderr: { text: 'oops\n' } });
    },
  },
};

describe('openwork-tools mcp (docs/contract.md §5)', () => {
  it('advertises exactly the definitions of tools --json', async () => {
    const [expected, listed] = await Promise.all([toolsJson(), plain.client.listTools()]);
    expect(listed.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).toEqual(
      expected.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    );
    expect(plain.client.getServerVersion()).toMatchObject({ name: 'openwork-tools' });
    // The instructions at initialize: the command line's roots, the mode, and that an ask goes to the person through the client.
    expect(plain.client.getInstructions()?.split('\n').slice(0, 2)).toEqual([`Working directory: ${ws}`, `Writable roots: ${ws}`]);
    expect(plain.client.getInstructions()).toContain(`Mode default: `);
    expect(plain.client.getInstructions()).toContain(`Approval: ${MCP_APPROVAL}`);
    // The shapes of structured content are the contract's (§3.3), not sent with every turn's list.
    expect(listed.tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name)).toEqual([]);
  });

  it('annotates every tool with a title and the hints clients decide approval on', async () => {
    const { tools } = await approving.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_kill', 'bash_write']);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
      expect(tool.annotations?.title, tool.name).toBe(tool.title);
    }
    const hints = Object.fromEntries(tools.map(({ name, annotations }) => [name, { ...annotations, title: undefined }]));
    for (const name of ['read', 'grep', 'glob', 'list']) expect(hints[name], name).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(hints['write']).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(hints['edit']).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(hints['bash']).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });

  it('--pty runs bash on a terminal: tty prints its name', async () => {
    const terminal = await connect(['--pty', '--yes']);
    try {
      const result = await call(terminal, 'bash', { command: 'tty' });
      expect(result.isError, text(result)).toBe(false);
      expect((result.structuredContent as { stdout: { text: string } }).stdout.text).toMatch(/^\/dev\/(pts\/\d+|tty\w+)\r?\n$/);
    } finally {
      await terminal.client.close();
    }
  });

  it('runs each advertised tool: text content, structured data, no artifacts in the text', async () => {
    const { tools } = await approving.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    // bash's companions act on a background command: mcp-background.test.ts runs them.
    for (const tool of tools.filter(({ name }) => !name.startsWith('bash_'))) {
      const known = cases[tool.name];
      expect(known, `no test input for the advertised tool ${tool.name}`).toBeDefined();
      if (!known) continue;
      const result = await call(approving, tool.name, known.input);
      expect(result.isError, `${tool.name}: ${text(result)}`).toBe(false);
      expect(text(result)).not.toContain('file_change');
      await known.check(result);
    }
    // --artifacts journals the changes of write and edit, as with call: each recorded before it is made, then marked complete.
    const lines = (await readFile(journal, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { kind: string; path?: string; pending?: boolean });
    expect(lines.map((line) => [line.kind, line.path, line.pending])).toEqual([
      ['file_change', 'w.txt', true],
      ['file_change_complete', undefined, undefined],
      ['file_change', 'e.txt', true],
      ['file_change_complete', undefined, undefined],
    ]);
  });

  it('an error result is isError with the error text; an unknown tool is a result too', async () => {
    const missing = await call(plain, 'read', { path: 'missing.txt' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^Error \[not_found\]: /);
    const invalid = await call(plain, 'read', { path: 1 });
    expect([invalid.isError, text(invalid)]).toEqual([true, expect.stringMatching(/^Error \[invalid_input\]: /)]);
    const unknown = await call(plain, 'nope', {});
    expect([unknown.isError, text(unknown)]).toEqual([true, expect.stringMatching(/^Error \[unknown_tool\]: /)]);
  });

  it('an ask is denied without --yes, naming the flag, and nothing runs', async () => {
    const bash = await call(plain, 'bash', { command: 'touch made-by-bash' });
    expect(bash.isError).toBe(true);
    expect(text(bash)).toMatch(/^Error \[denied\]: /);
    expect(text(bash)).toContain('--yes');
    expect(bash.structuredContent).toBeUndefined();
    const write = await call(plain, 'write', { path: 'denied.txt', content: 'x' });
    expect([write.isError, text(write)]).toEqual([true, expect.stringContaining('--mode acceptEdits')]);
    await expect(readFile(join(ws, 'made-by-bash'))).rejects.toThrow();
    await expect(readFile(join(ws, 'denied.txt'))).rejects.toThrow();
    // A command the read-only whitelist accepts does not ask, so it runs here too.
    const listing = await call(plain, 'bash', { command: 'ls' });
    expect([listing.isError, listing.structuredContent]).toEqual([false, expect.objectContaining({ stdout: expect.objectContaining({ text: expect.stringContaining('a.txt') as unknown }) as unknown })]);
  });

  it('sends progress notifications for a request with a progress token', async () => {
    const events: Progress[] = [];
    const result = (await approving.client.callTool(
      { name: 'bash', arguments: { command: 'for i in 1 2 3; do echo $i; sleep 0.3; done' } },
      CallToolResultSchema,
      { onprogress: (event) => events.push(event) },
    )) as CallToolResult;
    expect(result.isError).toBe(false);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.map((event) => event.message).join('')).toBe('1\n2\n3\n');
    expect(events.map((event) => event.progress)).toEqual(events.map((_, index) => index + 1));
  });

  it('a cancelled request kills the bash process group; the server goes on', async () => {
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    const controller = new AbortController();
    const pending = approving.client.callTool({ name: 'bash', arguments: { command: `sleep 600; echo ${marker}` } }, CallToolResultSchema, {
      signal: controller.signal,
    });
    const settled = pending.then(
      () => 'resolved',
      () => 'rejected',
    );
    expect(await until(running(marker), PATIENCE_MS)).toBe(true);
    controller.abort('the test cancels');
    expect(await settled).toBe('rejected');
    // Polled with a wide bound: a loaded machine is slow, not wrong. The sleep outlasts the bound, so only a kill ends it in time.
    expect(await until(async () => !(await running(marker)()), PATIENCE_MS)).toBe(true);
    const after = await call(approving, 'read', { path: 'a.txt' });
    expect(after.isError).toBe(false);
  });

  it('readOnly advertises only the read-risk tools and cannot call the others', async () => {
    const readOnly = await connect(['--mode', 'readOnly', '--yes']);
    try {
      const [all, listed] = await Promise.all([toolsJson(), readOnly.client.listTools()]);
      const reading = all.filter((definition) => definition.risk === 'read').map((definition) => definition.name);
      expect(listed.tools.map((tool) => tool.name)).toEqual(reading);
      expect(reading).not.toContain('bash');
      const write = await call(readOnly, 'write', { path: 'ro.txt', content: 'x' });
      expect([write.isError, text(write)]).toEqual([true, expect.stringMatching(/^Error \[unknown_tool\]: /)]);
    } finally {
      await readOnly.client.close();
    }
  });
});

describe('openwork-tools mcp lifetime', () => {
  const handshake = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ];

  function start(args: string[] = []) {
    const child = spawn('node', [bin, 'mcp', '--cwd', ws, ...args], { env: environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    return { child, exited, send, stdout: () => stdout };
  }

  it('closing stdin ends the server, kills the running bash and leaves only protocol messages on stdout', async () => {
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    const server = start(['--yes']);
    for (const message of handshake) server.send(message);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bash', arguments: { command: `sleep 600; echo ${marker}` } } });
    expect(await until(running(marker), PATIENCE_MS)).toBe(true);
    server.child.stdin.end();
    // Behaviour, not speed: the server exits (the test's own timeout bounds it) and nothing it started remains.
    expect(await server.exited).toBe(0);
    expect(await running(marker)()).toBe(false);
    // The command was ended, not waited for: its echo never ran.
    expect(server.stdout()).not.toContain(marker);
    const lines = server.stdout().trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
  });

  it('closing stdin while a command left a setsid daemon running leaves nothing (a cgroup holds it)', async (context) => {
    const report = await detectContainment();
    if (report.kind !== 'cgroup') context.skip(`no usable cgroup here: ${report.reason}`);
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    const server = start(['--yes']);
    for (const message of handshake) server.send(message);
    const command = `setsid sh -c 'sleep 300; : ${marker}-daemon' >/dev/null 2>&1 < /dev/null & sleep 600; : ${marker}`;
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bash', arguments: { command } } });
    expect(await until(running(`${marker}-daemon`), PATIENCE_MS)).toBe(true);
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(await until(async () => !(await running(marker)()), PATIENCE_MS)).toBe(true);
  });

  it('SIGTERM ends the server with 143 and no child left', async () => {
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    const server = start(['--yes']);
    for (const message of handshake) server.send(message);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bash', arguments: { command: `sleep 600; echo ${marker}` } } });
    expect(await until(running(marker), PATIENCE_MS)).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(143);
    expect(await running(marker)()).toBe(false);
    expect(server.stdout()).not.toContain(marker);
  });

  it('rejects positional arguments as a usage error', async () => {
    const server = start(['extra']);
    server.child.stdin.end();
    expect(await server.exited).toBe(2);
    expect(server.stdout()).toBe('');
  });
});
