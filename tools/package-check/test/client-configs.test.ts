import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it, inject } from 'vitest';

// The README's client configurations are files of docs/clients/, copied into
// it block for block; each is parsed as its client would, and the command it
// names, the one the tarballs installed, is started and asked for its tools.

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const clients = join(repository, 'docs', 'clients');
/** The README's placeholders: where the tarballs are installed, and the project the tools work in. */
const INSTALL = '/path/to/openwork';
const PROJECT = '/path/to/project';

const project = inject('packageCheckProject');
const base = inject('packageCheckBase');
let workspace: string;
let readme: string;

interface StdioServer {
  readonly type?: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** Each stdio configuration: its file, and where the client keeps the server in it. */
const STDIO: readonly { readonly file: string; readonly server: (parsed: Record<string, Record<string, StdioServer> | undefined>) => StdioServer | undefined }[] = [
  { file: 'vscode-mcp.json', server: (parsed) => parsed.servers?.['openwork-tools'] },
  { file: 'codex-config.toml', server: (parsed) => parsed.mcp_servers?.['openwork-tools'] },
  { file: 'claude-desktop-config.json', server: (parsed) => parsed.mcpServers?.['openwork-tools'] },
  { file: 'cursor-mcp.json', server: (parsed) => parsed.mcpServers?.['openwork-tools'] },
];

const blocks = (markdown: string, language: string) => [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1] ?? '');
const here = (text: string) => text.replaceAll(INSTALL, project).replaceAll(PROJECT, workspace).replaceAll('${workspaceFolder}', workspace);
const clientFile = (file: string) => readFile(join(clients, file), 'utf8');
const parseFile = async (file: string) => (file.endsWith('.toml') ? parseToml(await clientFile(file)) : JSON.parse(await clientFile(file))) as Record<string, Record<string, StdioServer> | undefined>;

/** Starts a stdio server, initializes, lists its tools and closes its stdin; its tool names and exit status. */
async function listOverStdio(command: string, args: readonly string[]): Promise<{ names: string[]; code: number | null }> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let output = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const listed = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((entry) => entry.includes('"id":2'));
      if (line !== undefined) resolve(line);
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'package-check', version: '0' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const response = JSON.parse(await listed) as { result: { tools: { name: string }[] } };
  child.stdin.end();
  return { names: response.result.tools.map((tool) => tool.name), code: await exited };
}

beforeAll(async () => {
  readme = await readFile(join(repository, 'README.md'), 'utf8');
  workspace = await mkdtemp(join(base, 'client-project-'));
});

describe('the README configures each client with a file of docs/clients that a test starts', () => {
  it('every file of docs/clients is a block of the README, as it is written', async () => {
    const files = ['vscode-mcp.json', 'codex-config.toml', 'claude-desktop-config.json', 'cursor-mcp.json', 'http-server.sh', 'http-client.json'];
    for (const file of files) {
      const language = { json: 'json', toml: 'toml', sh: 'sh' }[file.split('.').at(-1) ?? ''] ?? '';
      expect(blocks(readme, language), file).toContain(await clientFile(file));
      expect(readme, file).toContain(`docs/clients/${file}`);
    }
  });

  it("the README's install is the one package-check makes: every package packed at once, every tarball installed at once with npm", async () => {
    const install = blocks(readme, 'sh').find((block) => block.includes('pnpm -r pack'));
    expect(install).toMatch(/^pnpm -r build && pnpm -r pack --pack-destination (\S+) .*\n.*npm install \1\/\*\.tgz\n$/);
    // src/pack.ts packs and installs the same way.
    const pack = await readFile(fileURLToPath(new URL('../src/pack.ts', import.meta.url)), 'utf8');
    expect(pack).toContain("['-r', 'pack', '--pack-destination', destination]");
    expect(pack).toContain('[...[...tarballs.values()].sort(), ...extra]');
  });

  it.each(STDIO.map((entry) => [entry.file, entry] as const))('%s starts the installed command, which lists the tools over stdio', async (_file, { file, server: find }) => {
    const server = find(await parseFile(file));
    expect(server?.type ?? 'stdio').toBe('stdio');
    expect(server?.command).toBe(`${INSTALL}/node_modules/.bin/openwork-tools`);
    const { names, code } = await listOverStdio(here(server?.command ?? ''), (server?.args ?? []).map(here));
    expect(names).toEqual(expect.arrayContaining(['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash']));
    expect(code).toBe(0);
  }, 60_000);

  it('http-server.sh serves over HTTP with a token; http-client.json reaches it with that token as a bearer', async () => {
    // The script as written, with one line that shows the test the token it made.
    const script = here(await clientFile('http-server.sh')).replace(/\n/, '\nprintf "token %s\\n" "$OPENWORK_MCP_TOKEN" >&2\n').replace('--http 8765', '--http 0');
    const child = spawn('bash', ['-c', script], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      let stderr = '';
      const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const served = /serving MCP over HTTP at (\S+)/.exec(stderr)?.[1];
          const made = /^token (\S+)$/m.exec(stderr)?.[1];
          if (served !== undefined && made !== undefined) resolve({ url: served, token: made });
        });
        void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      const entry = (JSON.parse(await clientFile('http-client.json')) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> }).mcpServers['openwork-tools'];
      expect(entry?.url.replace(':8765/', `:${new URL(url).port}/`)).toBe(url);
      const headers = Object.fromEntries(Object.entries(entry?.headers ?? {}).map(([name, value]) => [name, value.replace('${env:OPENWORK_MCP_TOKEN}', token)]));
      const post = (body: object, session?: string) =>
        fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) }, body: JSON.stringify(body) });
      const initialized = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'package-check', version: '0' } } });
      expect(initialized.status).toBe(200);
      expect(await initialized.text()).toContain('"serverInfo":{"name":"openwork-tools"');
      const session = initialized.headers.get('mcp-session-id') ?? '';
      expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
      const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
      expect(await listed.text()).toContain('"name":"read"');
      // Without the token, nothing.
      expect((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
  }, 60_000);
});
