import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TurnScope, type ToolProgress } from '@openwork/tool-contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools, type BashData } from '../src/index.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.session.processes.dispose();
  await h.cleanup();
});

const data = (result: { data?: unknown }) => result.data as BashData;
const running = (marker: string) => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').some((line) => line.includes(marker) && !line.includes('ps -eo'));

describe('bash (docs/design.md §9, §11)', () => {
  it('a non-zero bash exit is a normal tool result, not an infrastructure error', async () => {
    const result = await h.call('bash', { command: 'echo out; echo err >&2; exit 4' });
    expect(result.status).toBe('ok');
    expect(data(result)).toMatchObject({ status: 'exited', exitCode: 4, stdout: { text: 'out\n' }, stderr: { text: 'err\n' } });
    expect(result.output).toContain('Exit code 4');
  });

  it('runs in the working directory; sleep 30 & echo started returns at once and leaves no sleep', async () => {
    await writeFile(join(h.ws, 'here.txt'), 'x');
    expect(data(await h.call('bash', { command: 'ls' })).stdout.text).toBe('here.txt\n');
    const result = await h.call('bash', { command: 'sleep 30.4242 & echo started' });
    expect(data(result).stdout.text).toBe('started\n');
    expect(running('sleep 30.4242')).toBe(false);
  });

  // The times leave bash a second and a half to print its first line: on a
  // loaded machine the command's start (bash's own reading of the line
  // first) can take longer than the 300 ms these cases once gave it.
  it('timeout and user cancel take the same termination path: timeoutMs ends as timed_out with partial output; a turn cancel as cancelled', async () => {
    const timedOut = await h.call('bash', { command: 'echo before; sleep 33.4242', timeoutMs: 1500 });
    expect(timedOut.status).toBe('ok');
    expect(data(timedOut)).toMatchObject({ status: 'timed_out', stdout: { text: 'before\n' } });
    expect(timedOut.output).toMatch(/Timed out after 1.5 s/);
    const [bash] = builtinTools().filter((tool) => tool.definition.name === 'bash');
    const turn = new TurnScope();
    const active = turn.startCall({ callId: 'c' });
    const prepared = bash!.prepare(h.session, { command: 'echo go; sleep 34.4242' }, 'c');
    if (!('run' in prepared)) throw new Error('invalid');
    setTimeout(() => turn.cancel(), 1500);
    const cancelled = await prepared.run(active.context);
    active.end();
    expect(data(cancelled)).toMatchObject({ status: 'cancelled', stdout: { text: 'go\n' } });
    expect(running('sleep 33.4242') || running('sleep 34.4242')).toBe(false);
  });

  it('a call deadline sooner than timeoutMs is named as the call’s, with the time it ran, not the default timeout', async () => {
    const [bash] = builtinTools().filter((tool) => tool.definition.name === 'bash');
    const turn = new TurnScope();
    const active = turn.startCall({ callId: 'd', timeoutMs: 1500 });
    const prepared = bash!.prepare(h.session, { command: 'echo early; sleep 35.4242' }, 'd');
    if (!('run' in prepared)) throw new Error('invalid');
    const result = await prepared.run(active.context);
    active.end();
    expect(data(result)).toMatchObject({ status: 'timed_out', stdout: { text: 'early\n' } });
    expect(result.output).toMatch(/^Timed out: the call's deadline passed after \d+\.\d s, before its timeoutMs;/);
    expect(result.output).not.toContain('120 s');
    expect(running('sleep 35.4242')).toBe(false);
  });

  it('a command of unbounded output such as yes does not exhaust memory: output stays bounded with the omitted byte count', async () => {
    const result = await h.call('bash', { command: 'yes', timeoutMs: 1000 });
    const stdout = data(result).stdout;
    expect(stdout.truncated).toBe(true);
    expect(stdout.totalBytes).toBeGreaterThan(1024 * 1024);
    expect(Buffer.byteLength(stdout.text)).toBeLessThan(70 * 1024);
    expect(result.output).toContain(`[${stdout.omittedBytes} bytes omitted]`);
  });

  it('BASH_ENV and exported functions have no effect', async () => {
    await writeFile(join(h.root, 'evil.sh'), 'echo INJECTED\n');
    const session = { ...h.session, environment: { ...h.session.environment, BASH_ENV: join(h.root, 'evil.sh'), ENV: join(h.root, 'evil.sh'), 'BASH_FUNC_ls%%': '() { echo HIJACKED; }' } };
    const [bash] = builtinTools().filter((tool) => tool.definition.name === 'bash');
    const active = new TurnScope().startCall({ callId: 'e' });
    const prepared = bash!.prepare(session, { command: 'ls /; echo done' }, 'e');
    if (!('run' in prepared)) throw new Error('invalid');
    const result = await prepared.run(active.context);
    active.end();
    expect(data(result).stdout.text).not.toMatch(/INJECTED|HIJACKED/);
    expect(data(result).stdout.text).toMatch(/done\n$/);
  });

  it('streams progress while it runs, and a failing progress sink changes nothing', async () => {
    const [bash] = builtinTools().filter((tool) => tool.definition.name === 'bash');
    const events: ToolProgress[] = [];
    for (const progress of [(event: ToolProgress) => void events.push(event), () => { throw new Error('sink gone'); }]) {
      const active = new TurnScope().startCall({ callId: 'p', progress });
      const prepared = bash!.prepare(h.session, { command: 'echo a; echo b >&2' }, 'p');
      if (!('run' in prepared)) throw new Error('invalid');
      const result = await prepared.run(active.context);
      active.end();
      expect(data(result)).toMatchObject({ exitCode: 0, stdout: { text: 'a\n' }, stderr: { text: 'b\n' } });
    }
    expect(events).toEqual(expect.arrayContaining([{ kind: 'stdout', chunk: 'a\n' }, { kind: 'stderr', chunk: 'b\n' }]));
  });

  it('rejects a timeout above 600000 as invalid_input', async () => {
    const result = await h.call('bash', { command: 'true', timeoutMs: 600_001 });
    expect(result.status === 'error' && result.error.kind).toBe('invalid_input');
  });
});
