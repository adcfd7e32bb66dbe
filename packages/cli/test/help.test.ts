import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInProcess, type Run } from './command.ts';

const bin = fileURLToPath(new URL('../bin/openwork-tools.js', import.meta.url));

const run = (args: string[]): Promise<Run> => runInProcess(args, { cwd: process.cwd() });

describe('help and version', () => {
  it('--version prints the package version, in-process and from the workspace command started through its TypeScript loader', async () => {
    const manifest = JSON.parse(await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version: string };
    expect(await run(['--version'])).toEqual({ code: 0, stdout: `openwork-tools ${manifest.version}\n`, stderr: '' });
    const started = await new Promise<Run>((resolve) => {
      const child = execFile('node', [bin, '--version'], (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
      child.stdin?.end('');
    });
    expect(started).toEqual({ code: 0, stdout: `openwork-tools ${manifest.version}\n`, stderr: '' });
  });

  it('--help lists every subcommand and says where the flags are described', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const subcommand of ['tools', 'call', 'undo', 'mcp', 'doctor']) expect(help.stdout).toMatch(new RegExp(`^  ${subcommand} `, 'm'));
    expect(help.stdout).toContain('openwork-tools help TOOL (or call TOOL --help)');
  });

  it('each subcommand has its own help, with the meaning of each flag it takes', async () => {
    const [call, undo, mcp] = await Promise.all([run(['call', '--help']), run(['undo', '--help']), run(['mcp', '-h'])]);
    expect(call.stdout).toMatch(/^usage: openwork-tools call TOOL \[INPUT\|-\] \[FLAGS\]$/m);
    expect(call.stdout).toMatch(/^ {2}--yes +approve every call that would ask; a deny rule still refuses, and no$/m);
    expect(call.stdout).toMatch(/^ {2}--allow RULE +run a command without asking when it starts with these words/m);
    expect(call.stdout).toMatch(/^ {2}--progress /m);
    expect(undo.stdout).toMatch(/^ {2}--change ID +undo only this change/m);
    expect(undo.stdout).not.toContain('--yes');
    expect(mcp.stdout).toContain('elicitation');
    expect(mcp.stdout).not.toContain('--progress');
  });

  it('call TOOL --help shows the tool’s description and its input schema', async () => {
    const help = await run(['call', 'read', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('read (filesystem/read, risk read)');
    const schema = /INPUT, a JSON object of this schema:\n(\{[\s\S]*?\n\})\n/.exec(help.stdout)?.[1];
    expect(JSON.parse(schema ?? 'null')).toMatchObject({ type: 'object', required: ['path'], properties: { path: { type: 'string' } } });
    const unknown = await run(['call', 'nope', '--help']);
    expect([unknown.code, unknown.stderr]).toEqual([2, 'openwork-tools: there is no tool named "nope"; the tools are read, write, edit, grep, glob, list, bash, bash_output, bash_kill, bash_write\n']);
  });

  it('INPUT that is not JSON is one line with a call that would work', async () => {
    const [read, bash] = await Promise.all([run(['call', 'read', 'README.md']), run(['call', 'bash', 'ls -la'])]);
    expect(read.code).toBe(2);
    expect(read.stderr).toMatch(/^openwork-tools: INPUT is not JSON \(.*\); give a JSON object, e\.g\. openwork-tools call read '\{"path":"README\.md"\}'\n$/);
    expect(bash.stderr).toMatch(/e\.g\. openwork-tools call bash '\{"command":"ls -la"\}'\n$/);
  });

  it('help is a subcommand: help, help SUBCOMMAND, help TOOL and help call TOOL print what --help prints', async () => {
    const pairs: [string[], string[]][] = [
      [['help'], ['--help']],
      [['help', 'call'], ['call', '--help']],
      [['help', 'mcp'], ['mcp', '--help']],
      [['help', 'read'], ['call', 'read', '--help']],
      [['help', 'call', 'grep'], ['call', 'grep', '--help']],
    ];
    for (const [asked, flag] of pairs) {
      const [help, flagged] = [await run(asked), await run(flag)];
      expect(help).toEqual({ ...flagged, code: 0 });
    }
    expect((await run(['help'])).stdout).toMatch(/^ {2}help \[SUBCOMMAND\|TOOL\] +this help, a subcommand’s flags, or a tool’s input$/m);
    expect((await run(['help', 'read'])).stdout).toContain(`e.g. openwork-tools call read '{"path":"README.md"}'`);
    const unknown = await run(['help', 'nope']);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/^openwork-tools: there is no tool named "nope"; the tools are read, /) as unknown]);
    expect(await run(['help', 'mcp', 'read'])).toMatchObject({ code: 2, stderr: 'openwork-tools: help takes a subcommand, a tool, or call TOOL: openwork-tools help call read\n' });
    expect((await run(['nope'])).stderr).toBe('openwork-tools: unknown subcommand "nope"; use tools, call, undo, mcp, doctor or help\n');
  });

  it('arguments that do not fit the tool’s schema get a call that would, with every required property, on stderr', async () => {
    const write = await run(['call', 'write', '{"path":"never-written.txt"}']);
    expect(write.code).toBe(1);
    expect(write.stdout).toMatch(/^Error \[invalid_input\]: invalid input for write: input is missing "content"/);
    expect(write.stderr).toBe(`openwork-tools: e.g. openwork-tools call write '{"path":"README.md","content":"hello\\n"}'; openwork-tools help write shows the input write takes\n`);
    const edit = await run(['call', 'edit', 'src/main.ts']);
    expect(edit.stderr).toMatch(/e\.g\. openwork-tools call edit '\{"path":"src\/main\.ts","oldText":"old","newText":"new"\}'\n$/);
  });
});
