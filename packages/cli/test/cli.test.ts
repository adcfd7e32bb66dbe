import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandBundle, runCommand, runInProcess, type Run } from './command.ts';
import { markerRunning } from './live-processes.ts';

let ws: string;
let base: string;

/** The command in this process, working in the test's folder: flags, output, exit status. */
const run = (args: string[], stdin?: string): Promise<Run> => runInProcess(args, { cwd: ws, ...(stdin === undefined ? {} : { stdin }) });
/** The command in a process of its own, for what only a process shows. */
const runStarted = (args: string[], stdin?: string): Promise<Run> => runCommand(args, { cwd: ws, env: { ...process.env, HOME: base }, ...(stdin === undefined ? {} : { stdin }) });

const json = (result: Run) => JSON.parse(result.stdout) as { status: string; error?: { kind: string }; data?: Record<string, unknown>; decision?: Record<string, unknown> };

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'cli-')));
  ws = join(base, 'ws');
  await mkdir(ws);
  await writeFile(join(ws, 'a.txt'), 'one\ntwo\n');
  vi.stubEnv('HOME', base);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(base, { recursive: true, force: true });
});

describe('openwork-tools (docs/contract.md §4)', () => {
  it('tools --json prints the finalized definitions; readOnly leaves out the writing tools', async () => {
    const all = JSON.parse((await run(['tools', '--json'])).stdout) as { tools: { name: string; id: string; inputSchema: object }[] };
    expect(all.tools.map((tool) => tool.name)).toEqual(['read', 'write', 'edit', 'grep', 'glob', 'list', 'bash', 'bash_output', 'bash_kill', 'bash_write']);
    expect(all.tools[0]).toMatchObject({ name: 'read', id: 'filesystem/read', risk: 'read' });
    const readOnly = JSON.parse((await run(['tools', '--json', '--mode', 'readOnly'])).stdout) as { tools: { name: string }[] };
    expect(readOnly.tools.map((tool) => tool.name)).toEqual(['read', 'grep', 'glob', 'list']);
  });

  it('call: ok exits 0, unknown_tool and invalid_input exit 1, bad flags and non-JSON exit 2 with one line', async () => {
    const ok = await run(['call', 'read', '{"path":"a.txt"}', '--json']);
    expect(ok.code).toBe(0);
    expect(json(ok).data).toMatchObject({ path: 'a.txt', content: 'one\ntwo\n' });
    const unknown = await run(['call', 'nope', '{}', '--json']);
    expect([unknown.code, json(unknown).error?.kind]).toEqual([1, 'unknown_tool']);
    const invalid = await run(['call', 'read', '{"path":1}', '--json']);
    expect([invalid.code, json(invalid).error?.kind]).toEqual([1, 'invalid_input']);
    const notObject = await run(['call', 'read', '[1]', '--json']);
    expect([notObject.code, json(notObject).error?.kind]).toEqual([1, 'invalid_input']);
    for (const args of [['call', 'read', '{nope'], ['tools', '--bogus'], ['frobnicate'], ['call', 'read', '{}', '--mode', 'wild']]) {
      const bad = await run(args);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    }
    const stdin = await run(['call', 'read', '-', '--json'], '{"path":"a.txt","limit":1}');
    expect(json(stdin).data).toMatchObject({ content: 'one\n', truncated: true, nextOffset: 1 });
  });

  it("a started command reads INPUT from its stdin up to the end, and prints to its stdout and stderr", async () => {
    const stdin = await runStarted(['call', 'read', '-', '--json'], '{"path":"a.txt","limit":1}');
    expect(stdin.code).toBe(0);
    expect(json(stdin).data).toMatchObject({ content: 'one\n', truncated: true, nextOffset: 1 });
    const bad = await runStarted(['tools', '--bogus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('write asks in default mode and is denied without a terminal; --yes and acceptEdits run it; readOnly does not know it', async () => {
    const denied = await run(['call', 'write', '{"path":"w.txt","content":"x"}', '--json']);
    expect([denied.code, json(denied).status, json(denied).error?.kind]).toEqual([1, 'denied', 'denied']);
    await expect(readFile(join(ws, 'w.txt'))).rejects.toThrow();
    const yes = await run(['call', 'write', '{"path":"w.txt","content":"x"}', '--json', '--yes']);
    expect(json(yes).decision).toMatchObject({ verdict: 'ask', approved: true });
    const accept = await run(['call', 'write', '{"path":"w.txt","content":"y"}', '--json', '--mode', 'acceptEdits']);
    expect(json(accept).decision).toMatchObject({ verdict: 'allow' });
    expect(await readFile(join(ws, 'w.txt'), 'utf8')).toBe('y');
    const readOnly = await run(['call', 'write', '{"path":"w.txt","content":"z"}', '--json', '--mode', 'readOnly']);
    expect(json(readOnly).error?.kind).toBe('unknown_tool');
  });

  it('edit with --artifacts, then undo restores; an external change is a conflict with exit 1', async () => {
    const journal = join(base, 'changes.jsonl');
    await writeFile(join(ws, 'e.txt'), 'alpha\n');
    const edit = await run(['call', 'edit', '{"path":"e.txt","oldText":"alpha","newText":"beta"}', '--mode', 'acceptEdits', '--artifacts', journal]);
    expect(edit.code).toBe(0);
    const undo = await run(['undo', '--artifacts', journal, '--json']);
    expect(undo.code).toBe(0);
    expect((JSON.parse(undo.stdout) as { undone: string[] }).undone).toHaveLength(1);
    expect(await readFile(join(ws, 'e.txt'), 'utf8')).toBe('alpha\n');
    expect((await readFile(journal, 'utf8')).includes('"undone":true')).toBe(true);
    await run(['call', 'edit', '{"path":"e.txt","oldText":"alpha","newText":"gamma"}', '--mode', 'acceptEdits', '--artifacts', journal]);
    await writeFile(join(ws, 'e.txt'), 'someone else\n');
    const conflict = await run(['undo', '--artifacts', journal, '--json']);
    expect(conflict.code).toBe(1);
    expect(JSON.parse(conflict.stdout)).toMatchObject({ conflicts: [{ path: 'e.txt' }], skipped: [expect.any(String)] });
    expect(await readFile(join(ws, 'e.txt'), 'utf8')).toBe('someone else\n');
  });

  it('--cwd, --root and --read-root wire into the session', async () => {
    const docs = join(base, 'docs');
    await mkdir(docs, { recursive: true });
    await writeFile(join(docs, 'd.md'), 'doc');
    const read = await run(['call', 'read', JSON.stringify({ path: join(docs, 'd.md') }), '--json', '--read-root', docs]);
    expect(json(read).status).toBe('ok');
    const write = await run(['call', 'write', JSON.stringify({ path: join(docs, 'x.md'), content: 'x' }), '--json', '--read-root', docs, '--yes']);
    expect(json(write).error?.kind).toBe('protected');
    const outside = await run(['call', 'read', JSON.stringify({ path: join(docs, 'd.md') }), '--json']);
    expect(json(outside).error?.kind).toBe('outside_root');
    const elsewhere = await run(['call', 'list', '{}', '--json', '--cwd', docs]);
    expect(json(elsewhere).data).toMatchObject({ entries: [{ name: 'd.md' }] });
  });

  it('concurrent calls with --artifacts, each its own process, lose no journal line', async () => {
    const journal = join(base, 'concurrent.jsonl');
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, index) => runStarted(['call', 'write', JSON.stringify({ path: `c${index}.txt`, content: `${index}` }), '--mode', 'acceptEdits', '--artifacts', journal])),
    );
    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 0, 0]);
    const lines = (await readFile(journal, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { kind: string; path?: string });
    // Each change is its record, written before the file changed, and the mark that it completed.
    const records = lines.filter((line) => line.kind === 'file_change');
    expect(records.map((line) => line.path).sort()).toEqual(['c0.txt', 'c1.txt', 'c2.txt', 'c3.txt', 'c4.txt']);
    expect(lines.filter((line) => line.kind === 'file_change_complete')).toHaveLength(5);
  });

  it('bash asks without a whitelist match and is denied without a terminal; --yes runs it; a non-zero exit is ok', async () => {
    const denied = await run(['call', 'bash', '{"command":"touch made-by-bash"}', '--json']);
    expect([denied.code, json(denied).error?.kind]).toEqual([1, 'denied']);
    await expect(readFile(join(ws, 'made-by-bash'))).rejects.toThrow();
    const failing = await run(['call', 'bash', '{"command":"echo hi; exit 3"}', '--json', '--yes']);
    expect(failing.code).toBe(0);
    expect(json(failing).data).toMatchObject({ status: 'exited', exitCode: 3, stdout: { text: 'hi\n' } });
  });

  it('bash runs a whitelisted command on its own, and the filesystem gate in acceptEdits, each with its rule', async () => {
    const listing = await run(['call', 'bash', '{"command":"ls | head -5"}', '--json']);
    expect(listing.code).toBe(0);
    expect(json(listing).decision).toEqual({ verdict: 'allow', reason: 'every command is on the read-only list with known-safe flags', rule: 'read_only:ls, read_only:head' });
    expect(json(listing).data).toMatchObject({ stdout: { text: expect.stringContaining('a.txt') as unknown } });

    const made = await run(['call', 'bash', '{"command":"mkdir -p gate/made && touch gate/made/x"}', '--json', '--mode', 'acceptEdits']);
    expect([made.code, json(made).decision?.rule]).toEqual([0, 'filesystem_gate:mkdir, filesystem_gate:touch']);
    await expect(readFile(join(ws, 'gate', 'made', 'x'), 'utf8')).resolves.toBe('');

    const outside = await run(['call', 'bash', '{"command":"touch ../outside-by-gate"}', '--json', '--mode', 'acceptEdits']);
    expect([outside.code, json(outside).error?.kind, json(outside).decision?.rule]).toEqual([1, 'denied', 'ask']);
    await expect(readFile(join(base, 'outside-by-gate'))).rejects.toThrow();
  });

  it('SIGINT during bash cancels it, prints the cancelled result, leaves no child and exits 130', async () => {
    const child = spawn(process.execPath, [commandBundle(), 'call', 'bash', '{"command":"echo started; sleep 40.7171"}', '--yes', '--json', '--progress'], { cwd: ws, env: { ...process.env, HOME: base } });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await new Promise<void>((resolve) => child.stderr.on('data', (chunk: Buffer) => chunk.toString().includes('started') && resolve()));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(130);
    expect(JSON.parse(stdout)).toMatchObject({ status: 'ok', data: { status: 'cancelled', stdout: { text: 'started\n' } } });
    expect(await markerRunning('sleep 40.7171')).toBe(false);
  });
});
