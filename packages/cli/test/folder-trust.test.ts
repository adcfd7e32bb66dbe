import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandBundle, runInProcess } from './command.ts';

// The terminal question and the MCP server need a process of their own; the bundled command starts fastest.
const bin = commandBundle();
const REPRODUCTION = JSON.stringify({ permissions: { allow: ['bash:sh'] } });
const TOUCH_M = { command: "sh -c 'touch M'" };
let base: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
interface Result {
  status: string;
  error?: { kind: string; message: string };
  decision?: { verdict: string; rule: string; approved?: boolean; reason: string };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const exists = (path: string) => stat(path).then(
  () => true,
  () => false,
);

/** The environment of a run whose user settings live in `config`. */
function environment(config: string): Record<string, string> {
  return Object.fromEntries(Object.entries({ ...process.env, HOME: base, OPENWORK_CONFIG_DIR: config }).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * Runs `call bash` through runCli in this process, started in `cwd` with the user settings in `config`: HOME and the
 * settings folder are set for the call and restored after it, so calls run one at a time.
 */
async function call(cwd: string, config: string, input: object, args: string[] = []): Promise<Run & { result: Result }> {
  vi.stubEnv('HOME', base);
  vi.stubEnv('OPENWORK_CONFIG_DIR', config);
  try {
    const { code, stdout, stderr } = await runInProcess(['call', 'bash', JSON.stringify(input), '--json', ...args], { cwd });
    return { code, stdout, stderr, result: (stdout.trim() === '' ? {} : JSON.parse(stdout)) as Result };
  } finally {
    vi.unstubAllEnvs();
  }
}

/** A project folder with its settings file, and a user settings folder of its own. */
async function project(name: string, settings: string, user?: object): Promise<{ ws: string; config: string }> {
  const ws = join(base, name);
  const config = join(base, `${name}-config`);
  await mkdir(join(ws, '.openwork'), { recursive: true });
  await writeFile(join(ws, '.openwork', 'settings.json'), settings);
  await mkdir(config);
  if (user !== undefined) await writeFile(join(config, 'settings.json'), JSON.stringify(user));
  return { ws, config };
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-trust-')));
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('a cloned repository cannot approve its own commands', () => {
  it('its allow rules are ignored until the folder is trusted, with a notice; --trust-project trusts only the file of that digest', async () => {
    const [untrusted, right, wrong] = await Promise.all([project('untrusted', REPRODUCTION), project('right', REPRODUCTION), project('wrong', REPRODUCTION)]);
    const refused = await call(untrusted.ws, untrusted.config, TOUCH_M);
    const trusted = await call(right.ws, right.config, TOUCH_M, ['--trust-project', sha256(REPRODUCTION)]);
    const mismatched = await call(wrong.ws, wrong.config, TOUCH_M, ['--trust-project', sha256(`${REPRODUCTION}\n`)]);
    expect([refused.code, refused.result.status, await exists(join(untrusted.ws, 'M'))]).toEqual([1, 'denied', false]);
    expect(refused.stderr).toContain(`the allow rules of ${untrusted.ws}/.openwork/settings.json (bash:sh) were ignored: this folder is not trusted with this file`);
    expect(refused.result.error?.message).toContain('were ignored');
    expect(refused.result.error?.message).toContain('--trust-project');
    expect([trusted.code, trusted.result.decision?.rule, await exists(join(right.ws, 'M'))]).toEqual([0, 'allow:bash:sh', true]);
    expect([mismatched.code, await exists(join(wrong.ws, 'M'))]).toEqual([1, false]);
    expect(mismatched.stderr).toContain('--trust-project names another digest');
    // Nothing was recorded: --trust-project trusts for one run.
    expect(await exists(join(right.config, 'settings.json'))).toBe(false);
  });

  it('a trust recorded in the user settings holds for that file only: a changed file asks again', async () => {
    const { ws, config } = await project('recorded', REPRODUCTION);
    await writeFile(join(config, 'settings.json'), JSON.stringify({ trustedProjects: { [ws]: { sha256: sha256(REPRODUCTION), trustedAt: '2025-01-01T00:00:00.000Z' } } }));
    const first = await call(ws, config, TOUCH_M);
    expect([first.code, first.result.decision?.rule, await exists(join(ws, 'M'))]).toEqual([0, 'allow:bash:sh', true]);
    await rm(join(ws, 'M'));
    await writeFile(join(ws, '.openwork', 'settings.json'), JSON.stringify({ permissions: { allow: ['bash:sh', 'bash:curl'] } }));
    const changed = await call(ws, config, TOUCH_M);
    expect([changed.code, await exists(join(ws, 'M'))]).toEqual([1, false]);
    expect(changed.stderr).toContain('(bash:sh, bash:curl) were ignored');
  });

  it('deny rules of the user and of the project refuse even with --yes, naming the rule and its file', async () => {
    const { ws, config } = await project('denied', JSON.stringify({ permissions: { deny: ['bash:touch'] } }), { permissions: { deny: ['bash:rm'] } });
    await writeFile(join(ws, 'keep.txt'), 'x');
    const removed = await call(ws, config, { command: 'ls && /bin/rm keep.txt' }, ['--yes']);
    const touched = await call(ws, config, { command: "sh -c 'true' && touch made" }, ['--yes']);
    const listed = await call(ws, config, { command: 'ls' }, ['--yes']);
    expect([removed.code, removed.result.decision?.rule, removed.result.decision?.verdict]).toEqual([1, 'deny:bash:rm', 'deny']);
    expect(removed.result.error?.message).toContain(`the deny rule "bash:rm" in ${config}/settings.json refuses`);
    expect([touched.code, touched.result.decision?.rule]).toEqual([1, 'deny:bash:touch']);
    expect(touched.result.error?.message).toContain(`in ${ws}/.openwork/settings.json refuses`);
    expect(listed.code).toBe(0);
    expect([await exists(join(ws, 'keep.txt')), await exists(join(ws, 'made'))]).toEqual([true, false]);
  });

  it('a user settings file that cannot be read is a usage error naming it and the key', async () => {
    const { ws, config } = await project('malformed', '{}', { permissions: { allow: ['bash:ls'], ask: ['bash:rm'] } });
    const result = await call(ws, config, { command: 'ls' });
    expect([result.code, result.stdout, result.stderr]).toEqual([2, '', expect.stringMatching(new RegExp(`^openwork-tools: ${config}/settings\\.json: unknown key "permissions\\.ask"; the user settings are .*\\n$`)) as unknown]);
  });

  it('on a terminal the person is asked once; a yes is recorded in the user settings (mode 0600) and the command runs', async () => {
    const { ws, config } = await project('terminal', REPRODUCTION);
    const pty = await import('node-pty');
    const terminal = pty.spawn(process.execPath, [bin, 'call', 'bash', JSON.stringify(TOUCH_M), '--json'], { cwd: ws, env: environment(config), cols: 400, rows: 50 });
    let output = '';
    const questions: string[] = [];
    terminal.onData((chunk) => {
      output += chunk;
      const asked = output.match(/This project's [^\n]*\[y\/N\] /g) ?? [];
      if (asked.length > questions.length) {
        questions.push(...asked.slice(questions.length));
        terminal.write('y\r');
      }
    });
    const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
    const timer = setTimeout(() => terminal.kill(), 60_000);
    const exitCode = await exited;
    clearTimeout(timer);
    expect(questions).toEqual([`This project's .openwork/settings.json (${ws}/.openwork/settings.json) allows without asking: bash:sh. Trust this folder with this file (sha256 ${sha256(REPRODUCTION)})? [y/N] `]);
    expect([exitCode, await exists(join(ws, 'M'))]).toEqual([0, true]);
    const recorded = JSON.parse(await readFile(join(config, 'settings.json'), 'utf8')) as { trustedProjects: Record<string, { sha256: string }> };
    expect(recorded.trustedProjects[ws]?.sha256).toBe(sha256(REPRODUCTION));
    expect((await stat(join(config, 'settings.json'))).mode & 0o777).toBe(0o600);
  });
});

describe('folder trust over MCP', () => {
  async function connect(ws: string, config: string, accept: boolean): Promise<{ client: Client; asked: ElicitRequest['params'][] }> {
    const transport = new StdioClientTransport({ command: 'node', args: [bin, 'mcp', '--cwd', ws], env: environment(config), stderr: 'pipe' });
    const client = new Client({ name: 'trust-test', version: '0.0.0' }, accept ? { capabilities: { elicitation: {} } } : {});
    const asked: ElicitRequest['params'][] = [];
    if (accept) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        return { action: 'accept' };
      });
    }
    await client.connect(transport);
    return { client, asked };
  }
  const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

  it('a client without elicitation gets the project’s allow rules ignored, with the notice in the result', async () => {
    const { ws, config } = await project('mcp-without', REPRODUCTION);
    const { client } = await connect(ws, config, false);
    try {
      const result = (await client.callTool({ name: 'bash', arguments: TOUCH_M })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('(bash:sh) were ignored: this folder is not trusted with this file');
      expect(await exists(join(ws, 'M'))).toBe(false);
    } finally {
      await client.close();
    }
  });

  it('a client whose person accepts trusts the folder at the first call a rule approves; the trust is recorded and asked no more', async () => {
    const { ws, config } = await project('mcp-accept', REPRODUCTION);
    const { client, asked } = await connect(ws, config, true);
    try {
      expect(((await client.callTool({ name: 'bash', arguments: { command: 'ls' } })) as CallToolResult).isError ?? false).toBe(false);
      expect(asked).toEqual([]);
      const first = (await client.callTool({ name: 'bash', arguments: TOUCH_M })) as CallToolResult;
      const second = (await client.callTool({ name: 'bash', arguments: { command: "sh -c 'touch N'" } })) as CallToolResult;
      expect([first.isError ?? false, second.isError ?? false]).toEqual([false, false]);
      expect(asked.map((request) => request.message)).toEqual([expect.stringMatching(/^This project's \.openwork\/settings\.json .* allows without asking: bash:sh\. Trust this folder/) as unknown]);
      expect([await exists(join(ws, 'M')), await exists(join(ws, 'N'))]).toEqual([true, true]);
      const recorded = JSON.parse(await readFile(join(config, 'settings.json'), 'utf8')) as { trustedProjects: Record<string, { sha256: string }> };
      expect(recorded.trustedProjects[ws]?.sha256).toBe(sha256(REPRODUCTION));
    } finally {
      await client.close();
    }
  });
});
