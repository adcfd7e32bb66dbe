import { execFileSync } from 'node:child_process';
import { CallAborted } from '@openwork/tool-contract';
import { afterAll, describe, expect, it } from 'vitest';
import { BoundedCapture } from '../src/index.ts';
import { PipeProcessBackend } from '../src/pipe/index.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };
const bash = (script: string) => ['bash', '--noprofile', '--norc', '-c', script];

function running(marker: string): boolean {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').some((line) => line.includes(marker) && !line.includes('ps -eo'));
}

describe('PipeProcessBackend', () => {
  const backend = new PipeProcessBackend({ killGraceMs: 500 });
  afterAll(async () => {
    await backend.dispose();
    for (const marker of ['sleep 30.123', 'sleep 31.234', 'sleep 32.1']) expect(running(marker)).toBe(false);
  });

  it('a non-zero exit is a normal exit with both streams', async () => {
    const result = await backend.run({ argv: bash('echo out; echo err >&2; exit 3'), cwd: '/tmp', env, signal: new AbortController().signal });
    expect(result).toMatchObject({ status: 'exited', exitCode: 3, stdout: { text: 'out\n' }, stderr: { text: 'err\n' } });
  });

  it('sleep 30 & echo started returns at once and leaves no sleep', async () => {
    const result = await backend.run({ argv: bash('sleep 30.123 & echo started'), cwd: '/tmp', env, signal: new AbortController().signal });
    expect(result.stdout.text).toBe('started\n');
    expect(result.durationMs).toBeLessThan(10_000);
    expect(running('sleep 30.123')).toBe(false);
  });

  it('a timeout kills a grandchild and keeps the output so far', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new CallAborted('timed_out')), 300);
    const result = await backend.run({ argv: bash("echo before; bash -c 'sleep 31.234' & wait"), cwd: '/tmp', env, signal: controller.signal });
    expect(result.status).toBe('timed_out');
    expect(result.stdout.text).toBe('before\n');
    expect(running('sleep 31.234')).toBe(false);
  });

  it("trap '' TERM is killed by the escalation, and a cancel is cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new CallAborted('cancelled')), 300);
    const result = await backend.run({ argv: bash("trap '' TERM; sleep 32.1"), cwd: '/tmp', env, signal: controller.signal });
    expect(result.status).toBe('cancelled');
    expect(running('sleep 32.1')).toBe(false);
  });

  it('yes under a deadline keeps memory bounded and counts omitted bytes exactly', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new CallAborted('timed_out')), 1000);
    const before = process.memoryUsage().rss;
    const result = await backend.run({ argv: ['yes'], cwd: '/tmp', env, signal: controller.signal });
    expect(result.stdout.totalBytes).toBeGreaterThan(1024 * 1024);
    expect(result.stdout.truncated).toBe(true);
    const shown = Buffer.byteLength(result.stdout.text) - Buffer.byteLength(`\n… [${result.stdout.omittedBytes} bytes omitted] …\n`);
    expect(result.stdout.omittedBytes).toBe(result.stdout.totalBytes - shown);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('seq 1 200000 keeps the exact head, tail and count', async () => {
    const result = await backend.run({ argv: ['seq', '1', '200000'], cwd: '/tmp', env, signal: new AbortController().signal });
    const expected = Array.from({ length: 200000 }, (_, index) => `${index + 1}\n`).join('');
    expect(result.stdout.totalBytes).toBe(Buffer.byteLength(expected));
    expect(result.stdout.text.startsWith('1\n2\n')).toBe(true);
    expect(result.stdout.text.endsWith('199999\n200000\n')).toBe(true);
  });

  it('a UTF-8 character split across writes arrives whole', async () => {
    const chunks: string[] = [];
    const result = await backend.run({ argv: bash("printf '\\xc3'; sleep 0.2; printf '\\xa9'"), cwd: '/tmp', env, signal: new AbortController().signal, onStdout: (chunk) => chunks.push(chunk) });
    expect(result.stdout.text).toBe('é');
    expect(chunks.join('')).toBe('é');
  });

  it('cat with no input ends at once; a missing program is spawn_failed', async () => {
    const cat = await backend.run({ argv: ['cat'], cwd: '/tmp', env, signal: new AbortController().signal });
    expect(cat).toMatchObject({ status: 'exited', exitCode: 0 });
    await expect(backend.run({ argv: ['no-such-program-x'], cwd: '/tmp', env, signal: new AbortController().signal })).rejects.toMatchObject({ kind: 'spawn_failed' });
  });
});

describe('BoundedCapture', () => {
  it('never splits a character and counts every omitted byte', () => {
    for (let head = 1; head < 6; head += 1) {
      const capture = new BoundedCapture({ headBytes: head, tailBytes: head });
      const text = 'éé€€𝄞𝄞abcé€𝄞';
      capture.write(Buffer.from(text));
      const result = capture.result();
      expect(result.text).not.toContain('\uFFFD');
      const marker = `\n… [${result.omittedBytes} bytes omitted] …\n`;
      expect(Buffer.byteLength(result.text) - Buffer.byteLength(marker) + result.omittedBytes).toBe(Buffer.byteLength(text));
    }
    const small = new BoundedCapture({ headBytes: 4, tailBytes: 4 });
    small.write(Buffer.from('abc'));
    small.write(Buffer.from('def'));
    expect(small.result()).toEqual({ text: 'abcdef', totalBytes: 6, omittedBytes: 0, truncated: false });
  });
});
