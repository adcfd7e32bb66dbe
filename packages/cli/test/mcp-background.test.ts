import { randomInt } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectContainment } from '@openwork/process-backend/cgroup';
import { PtyProcessBackend } from '@openwork/process-backend/pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../src/args.ts';
import { scopeOpener } from '../src/mcp/scope.ts';
import { commandLineRoots, createHost } from '../src/session.ts';
import { createRegistry } from '../src/toolset.ts';
import { call, output, readToEnd, serveIn, started, startBackground, text, type Served } from './background-server.ts';
import { runInProcess } from './command.ts';
import { markerRunning, PATIENCE_MS, until } from './live-processes.ts';

let base: string;
let ws: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'mcp-background-')));
  ws = join(base, 'ws');
  await mkdir(ws);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const serve = (flags: string[] = []): Promise<Served> => serveIn(ws, flags);

const marked = (marker: string) => () => markerRunning(marker);

describe('background commands through the MCP server', () => {
  it('collects a loop’s output in order across polls, reports its exit code, and then forgets the id', async () => {
    const served = await serve();
    try {
      const start = await started(served, { command: 'for i in $(seq 1 30); do echo "line $i"; sleep 0.05; done; echo oops >&2; exit 3' });
      const { reads, stdout: rest } = await readToEnd(served, start.id);
      const id = start.id;
      const stdout = start.stdout + rest;
      expect(reads.length).toBeGreaterThan(1);
      expect(stdout.trim().split('\n')).toEqual(Array.from({ length: 30 }, (_, index) => `line ${index + 1}`));
      const last = reads.at(-1);
      expect(last).toMatchObject({ status: 'exited', exitCode: 3 });
      expect(reads.map((each) => each.stderr.text).join('')).toBe('oops\n');
      expect(last?.durationMs).toBeGreaterThan(0);
      const again = await call(served, 'bash_output', { backgroundId: id });
      expect(again.isError).toBe(true);
      expect(text(again)).toContain('no background command');
    } finally {
      await served.close();
    }
  });

  it('an unknown id is an error result naming the ids there are', async () => {
    const served = await serve();
    try {
      const id = await startBackground(served, { command: 'sleep 600' });
      const result = await call(served, 'bash_output', { backgroundId: 'bg-999' });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`${id} (running)`);
      expect((await call(served, 'bash_kill', { backgroundId: id })).structuredContent).toMatchObject({ status: 'killed' });
    } finally {
      await served.close();
    }
  });

  it('bash_kill ends the command and everything it started, a setsid child included', async (context) => {
    const report = await detectContainment();
    if (report.kind !== 'cgroup') context.skip(`no usable cgroup here: ${report.reason}`);
    const served = await serve();
    try {
      const marker = `MARKER-${randomInt(1_000_000_000)}`;
      const id = await startBackground(served, { command: `setsid sh -c 'sleep 300; : ${marker}-daemon' >/dev/null 2>&1 < /dev/null & sleep 600; : ${marker}` });
      expect(await until(marked(`${marker}-daemon`), PATIENCE_MS)).toBe(true);
      const killed = await call(served, 'bash_kill', { backgroundId: id });
      expect(killed.structuredContent).toMatchObject({ backgroundId: id, status: 'killed' });
      expect(await markerRunning(marker)).toBe(false);
    } finally {
      await served.close();
    }
  });

  it('refuses the ninth command, saying to end one with bash_kill; --max-background changes the bound', async () => {
    const served = await serve();
    try {
      const marker = `MARKER-${randomInt(1_000_000_000)}`;
      const ids: string[] = [];
      for (let index = 0; index < 8; index += 1) ids.push(await startBackground(served, { command: `sleep 600; : ${marker}` }));
      const ninth = await call(served, 'bash', { command: `sleep 600; : ${marker}-ninth`, runInBackground: true });
      expect(ninth.isError).toBe(true);
      expect(text(ninth)).toContain('bash_kill');
      expect(await markerRunning(`${marker}-ninth`)).toBe(false);
      await call(served, 'bash_kill', { backgroundId: ids[0] });
      ids.push(await startBackground(served, { command: `sleep 600; : ${marker}` }));
    } finally {
      await served.close();
    }
    const two = await serve(['--max-background', '2']);
    try {
      await startBackground(two, { command: 'sleep 600' });
      await startBackground(two, { command: 'sleep 600' });
      expect((await call(two, 'bash', { command: 'sleep 600', runInBackground: true })).isError).toBe(true);
    } finally {
      await two.close();
    }
  });

  it('keeps what yes prints bounded, and says how many bytes were dropped', async () => {
    const served = await serve(['--background-buffer', '64K']);
    try {
      const id = await startBackground(served, { command: 'yes' });
      // Until it has printed well past the buffer, the dropped count grows.
      let dropped = 0;
      let kept = 0;
      for (let polls = 0; polls < 600 && dropped === 0; polls += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const read = await output(served, id);
        dropped = read.stdout.droppedBytes;
        kept = read.stdout.bytes - read.stdout.droppedBytes;
        if (dropped > 0) expect(text(await call(served, 'bash_kill', { backgroundId: id }))).toContain('killed');
      }
      expect(dropped).toBeGreaterThan(0);
      expect(kept).toBeLessThanOrEqual(64 * 1024);
    } finally {
      await served.close();
    }
  });

  it('a command on a terminal answers a prompt typed with bash_write', async (context) => {
    const availability = await new PtyProcessBackend().availability();
    if (!availability.available) context.skip(availability.reason);
    const served = await serve();
    try {
      const start = await started(served, { command: 'read -r -p "name? " name; echo "hello, $name"', tty: true });
      const id = start.id;
      let seen = start.stdout;
      for (let polls = 0; polls < 30 && !seen.includes('name?'); polls += 1) {
        const read = await output(served, id, 2_000);
        seen += read.stdout.text;
        expect(read.status, seen).toBe('running');
      }
      expect(seen).toContain('name?');
      const written = await call(served, 'bash_write', { backgroundId: id, input: 'openwork\n' });
      expect(written.structuredContent).toEqual({ backgroundId: id, bytes: 9 });
      const { reads, stdout } = await readToEnd(served, id);
      expect(stdout).toContain('hello, openwork\n');
      expect(stdout).not.toContain('\r');
      expect(reads.at(-1)).toMatchObject({ status: 'exited', exitCode: 0 });
    } finally {
      await served.close();
    }
  });

  it('bash_write to a command without a terminal, and tty without runInBackground, are invalid_input', async () => {
    const served = await serve();
    try {
      const id = await startBackground(served, { command: 'sleep 600' });
      const written = await call(served, 'bash_write', { backgroundId: id, input: 'x' });
      expect(written.isError).toBe(true);
      expect(text(written)).toContain('invalid_input');
      const tty = await call(served, 'bash', { command: 'true', tty: true });
      expect(text(tty)).toContain('invalid_input');
    } finally {
      await served.close();
    }
  });

  it('the companions are listed only beside bash: readOnly has none of them', async () => {
    const served = await serve();
    const readOnly = await serve(['--mode', 'readOnly']);
    try {
      expect(await served.tools()).toEqual(expect.arrayContaining(['bash', 'bash_output', 'bash_kill', 'bash_write']));
      const names = await readOnly.tools();
      for (const name of ['bash', 'bash_output', 'bash_kill', 'bash_write']) expect(names).not.toContain(name);
      expect(createRegistry().select({ names: ['read', 'bash_output'] }).map((entry) => entry.definition.name)).toEqual(['read']);
    } finally {
      await Promise.all([served.close(), readOnly.close()]);
    }
  });

  it('the session’s end (the library’s dispose) ends every background command', async () => {
    const served = await serve();
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    await startBackground(served, { command: `sleep 600; : ${marker}-a` });
    await startBackground(served, { command: `sleep 600; : ${marker}-b` });
    expect(await until(marked(`${marker}-b`), PATIENCE_MS)).toBe(true);
    await served.close();
    expect(await markerRunning(marker)).toBe(false);
  });
});

describe('background commands without a session', () => {
  it('a one-shot call with runInBackground is invalid_input, and nothing runs', async () => {
    const marker = `MARKER-${randomInt(1_000_000_000)}`;
    const run = await runInProcess(['call', 'bash', JSON.stringify({ command: `sleep 600; : ${marker}`, runInBackground: true }), '--yes', '--json'], { cwd: ws });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'error', error: { kind: 'invalid_input' } });
    expect(await markerRunning(marker)).toBe(false);
  });

  it('asks a person before a tty command, saying that what is typed later is not checked; its companions ask nobody', async () => {
    const options = parseArgs(['mcp', '--cwd', ws, '--allow', 'bash:cat']);
    const host = await createHost(options, { background: true });
    const questions: string[] = [];
    try {
      const scope = await scopeOpener(host, options, undefined, { ask: (ask) => (questions.push(ask.question), Promise.resolve('refused' as const)), question: undefined }, () => {})(commandLineRoots(options));
      const result = await scope.toolset.call('bash', { command: 'cat', runInBackground: true, tty: true }, { callId: 'tty', signal: new AbortController().signal }, { authorize: scope.authorize });
      expect(result.status).toBe('denied');
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain('input written to it later with bash_write is not checked');
      // Its companions ask nobody: they act only on a command this session already started.
      const context = () => ({ callId: 'companion', signal: new AbortController().signal });
      const started = await scope.toolset.call('bash', { command: 'cat', runInBackground: true }, context(), { authorize: scope.authorize });
      expect(started.status).toBe('ok');
      const id = started.status === 'ok' ? (started.data as { backgroundId: string }).backgroundId : '';
      const read = await scope.toolset.call('bash_output', { backgroundId: id }, context(), { authorize: scope.authorize });
      expect([read.status, read.decision]).toEqual(['ok', { verdict: 'allow', reason: `bash_output acts only on ${id}, a command this session already started; it was decided when it started`, rule: 'background' }]);
      const killed = await scope.toolset.call('bash_kill', { backgroundId: id }, context(), { authorize: scope.authorize });
      // cat, its input closed, may have ended and been collected by the read: the kill is decided alike either way.
      expect(killed.decision?.rule).toBe('background');
      expect(questions).toHaveLength(1);
    } finally {
      await host.dispose();
    }
  });
});
