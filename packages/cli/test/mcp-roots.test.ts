import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markerRunning, PATIENCE_MS, until } from './live-processes.ts';
import { commandBundle } from './command.ts';
import { CLIENT_ROOTS_ONLY } from '../src/mcp/instructions.ts';

/** The command as shipped, bundled once for the run: started with node, no TypeScript loader. */
const bin = commandBundle();
let base: string;
let home: string;
let one: string;
let two: string;

function environment(): Record<string, string> {
  const entries = Object.entries({ ...process.env, HOME: home }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return Object.fromEntries(entries);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-roots-')));
  home = join(base, 'home');
  one = join(base, 'one');
  two = join(base, 'two');
  for (const directory of [home, one, two]) await mkdir(directory);
  await writeFile(join(one, 'a.txt'), 'in one\n');
  await writeFile(join(two, 'a.txt'), 'in two\n');
});
afterAll(() => rm(base, { recursive: true, force: true }));

interface RootsClient {
  readonly client: Client;
  readonly stderr: () => string;
  /** How many times the server has asked roots/list. */
  readonly asked: () => number;
  /** Changes the client's roots, notifies the server, and waits until it has asked again. */
  readonly setRoots: (uris: readonly string[]) => Promise<void>;
}

const uri = (path: string) => pathToFileURL(path).href;


/** A client that declares `roots` (with list_changed) and answers roots/list from a list the test changes. */
async function connectWithRoots(initial: readonly string[], options: { args?: string[]; cwd?: string } = {}): Promise<RootsClient> {
  let roots = [...initial];
  let asked = 0;
  const client = new Client({ name: 'roots-test', version: '0.0.0' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked += 1;
    return { roots: roots.map((root) => ({ uri: root })) };
  });
  const transport = new StdioClientTransport({ command: 'node', args: [bin, 'mcp', '--yes', ...(options.args ?? [])], cwd: options.cwd ?? home, env: environment(), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    asked: () => asked,
    setRoots: async (uris) => {
      const before = asked;
      roots = [...uris];
      await client.sendRootsListChanged();
      expect(await until(() => asked > before, PATIENCE_MS)).toBe(true);
    },
  };
}

const call = async (connection: RootsClient, name: string, input: Record<string, unknown>) => (await connection.client.callTool({ name, arguments: input })) as CallToolResult;
const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('openwork-tools mcp follows the client’s roots', () => {
  it('asks roots/list after initialize and works in the first root, even when started in the home folder', async () => {
    const connection = await connectWithRoots([uri(one)]);
    try {
      const read = await call(connection, 'read', { path: 'a.txt' });
      expect([read.isError, read.structuredContent]).toEqual([false, expect.objectContaining({ content: 'in one\n' })]);
      const write = await call(connection, 'write', { path: 'made.txt', content: 'x\n' });
      expect(write.isError, text(write)).toBe(false);
      expect(await readFile(join(one, 'made.txt'), 'utf8')).toBe('x\n');
      expect(connection.asked()).toBe(1);
      expect(connection.stderr()).toContain(`roots from the client: ${one}`);
      // Started in the home folder, the server serves only the client's roots, and its instructions name no other.
      expect(connection.client.getInstructions()?.split('\n')[0]).toBe(CLIENT_ROOTS_ONLY);
      expect(connection.client.getInstructions()).not.toContain(home);
    } finally {
      await connection.client.close();
    }
  });

  it('list_changed adds a root and removes one; the working directory is the first root', async () => {
    const connection = await connectWithRoots([uri(one)]);
    try {
      const before = await call(connection, 'write', { path: join(two, 'added.txt'), content: 'x\n' });
      expect(text(before)).toMatch(/^Error \[outside_root\]/);
      await connection.setRoots([uri(one), uri(two)]);
      const added = await call(connection, 'write', { path: join(two, 'added.txt'), content: 'x\n' });
      expect(added.isError, text(added)).toBe(false);
      await connection.setRoots([uri(two)]);
      const removed = await call(connection, 'write', { path: join(one, 'removed.txt'), content: 'x\n' });
      expect(text(removed)).toMatch(/^Error \[outside_root\]/);
      await expect(readFile(join(one, 'removed.txt'))).rejects.toThrow();
      const read = await call(connection, 'read', { path: 'a.txt' });
      expect(read.structuredContent).toMatchObject({ content: 'in two\n' });
    } finally {
      await connection.client.close();
    }
  });

  it('refuses a root that is not file:// (or does not exist) with a log line and uses the others', async () => {
    const connection = await connectWithRoots(['https://example.com/repo', uri(join(base, 'missing')), uri(two)]);
    try {
      const read = await call(connection, 'read', { path: 'a.txt' });
      expect(read.structuredContent, `${text(read)}\n${connection.stderr()}`).toMatchObject({ content: 'in two\n' });
      expect(connection.stderr()).toContain("the client's root https://example.com/repo is refused: only file:// roots are served");
      expect(connection.stderr()).toContain(`the client's root ${uri(join(base, 'missing'))} is refused`);
    } finally {
      await connection.client.close();
    }
  });

  it('with no usable root every call is an error that names --cwd, until the client lists one', async () => {
    const connection = await connectWithRoots([]);
    try {
      const read = await call(connection, 'read', { path: 'a.txt' });
      expect(read.isError).toBe(true);
      expect(text(read)).toMatch(/^Error \[outside_root\]: .*--cwd/);
      await connection.setRoots([uri(one)]);
      expect((await call(connection, 'read', { path: 'a.txt' })).structuredContent).toMatchObject({ content: 'in one\n' });
    } finally {
      await connection.client.close();
    }
  });

  it('a call in flight keeps the roots it started with', async () => {
    const connection = await connectWithRoots([uri(one)]);
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    try {
      const running = call(connection, 'bash', { command: `sleep 1.5; echo ${marker} > /dev/null; pwd` });
      expect(await until(() => markerRunning(marker), PATIENCE_MS)).toBe(true);
      await connection.setRoots([uri(two)]);
      const later = await call(connection, 'bash', { command: 'pwd' });
      expect(later.structuredContent).toMatchObject({ stdout: { text: `${two}\n` } });
      expect((await running).structuredContent).toMatchObject({ stdout: { text: `${one}\n` } });
    } finally {
      await connection.client.close();
    }
  });

  it('--cwd on the command line wins: the client’s roots are not asked', async () => {
    const connection = await connectWithRoots([uri(two)], { args: ['--cwd', one] });
    try {
      expect((await call(connection, 'read', { path: 'a.txt' })).structuredContent).toMatchObject({ content: 'in one\n' });
      expect(connection.asked()).toBe(0);
      expect(connection.stderr()).toContain('roots are not followed');
    } finally {
      await connection.client.close();
    }
  });

  it('started at / a client with roots is served in them', async () => {
    const connection = await connectWithRoots([uri(one)], { cwd: '/' });
    try {
      expect((await call(connection, 'read', { path: 'a.txt' })).structuredContent).toMatchObject({ content: 'in one\n' });
    } finally {
      await connection.client.close();
    }
  });
});


describe('openwork-tools mcp never serves the whole disk by accident', () => {
  const handshake = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ];

  /** The server started in `cwd`, spoken to with raw JSON lines. */
  function start(cwd: string, args: string[] = []) {
    const child = spawn('node', [bin, 'mcp', ...args], { cwd, env: environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const response = async (id: number) => {
      const find = () => stdout.split('\n').find((line) => line.includes(`"id":${id}`));
      expect(await until(() => find() !== undefined, PATIENCE_MS)).toBe(true);
      return JSON.parse(find() ?? '') as { result: CallToolResult };
    };
    return { child, exited, send, response, stderr: () => stderr };
  }

  it.each([
    ['/', () => '/', 'the whole disk (/)'],
    ['the home folder', () => home, 'the home folder'],
  ])('started at %s, a client without roots is refused with one line naming --cwd, exit 2', async (_, cwd, what) => {
    const server = start(cwd());
    for (const message of handshake) server.send(message);
    expect(await server.exited).toBe(2);
    const lines = server.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(what);
    expect(lines[0]).toContain('--cwd');
  });

  it('the official client sees the connection close, with the reason on stderr', async () => {
    const transport = new StdioClientTransport({ command: 'node', args: [bin, 'mcp'], cwd: home, env: environment(), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'no-roots', version: '0.0.0' });
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    await client.connect(transport);
    await closed;
    expect(stderr).toContain('refusing to serve the home folder');
    expect(stderr).toContain('--cwd');
  });

  it('a client that leaves before the handshake is told the same, exit 2', async () => {
    const server = start(home);
    server.child.stdin.end();
    expect(await server.exited).toBe(2);
    expect(server.stderr()).toContain('--cwd');
  });

  it('started at / with --root, the root is the working directory and / is not writable', async () => {
    const server = start('/', ['--root', one, '--yes']);
    for (const message of handshake) server.send(message);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read', arguments: { path: 'a.txt' } } });
    expect((await server.response(2)).result.structuredContent).toMatchObject({ content: 'in one\n' });
    server.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'write', arguments: { path: join(base, 'outside.txt'), content: 'x' } } });
    expect(text((await server.response(3)).result)).toMatch(/^Error \[outside_root\]/);
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain(`the working directory is the first --root, ${one}`);
  });
});
