import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContainmentReport } from '@openwork/process-backend';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import type { BashData } from '../src/index.ts';
import { createHarness, type Harness } from './harness.ts';

const MIB = 1024 * 1024;
let h: Harness;
let outside: string;
let report: ContainmentReport;
beforeEach(async () => {
  outside = await mkdtemp(join(tmpdir(), 'outside-tmp-'));
  // The server's own TMPDIR lies outside every root: commands must not write there.
  h = await createHarness({ limits: { maxMemoryBytes: 64 * MIB }, environment: { TMPDIR: outside } });
  report = await h.session.processes.containment();
});
afterEach(async () => {
  await h.session.processes.dispose();
  await h.cleanup();
  await rm(outside, { recursive: true, force: true });
});

const data = (result: { data?: unknown }) => result.data as BashData;

/** A line that prints the command's own memory limit and its parent's (the session's), read from inside it, as `limit=N session=M`. */
function ownLimitLine(containment: ContainmentReport & { kind: 'cgroup' }): string {
  const mountinfo = readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
  const mount = mountinfo.find((line) => (containment.version === 2 ? / - cgroup2 / : / - cgroup .*[ ,]memory(,|$)/).test(line))?.split(' ')[4] ?? '';
  const pick = containment.version === 2 ? `awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup` : `awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup`;
  const file = containment.version === 2 ? 'memory.max' : 'memory.limit_in_bytes';
  return `d="${mount}$(${pick})"; l=$(cat "$d/${file}"); s=$(cat "$(dirname "$d")/${file}"); echo "limit=$l session=$s"`;
}

describe('bash: memory of its own (docs/decisions/0027)', () => {
  it('jq building a huge array is ended at the command limit, checked in force first, and the server goes on', async (context) => {
    if (report.kind !== 'cgroup' || !report.memory) {
      // The fallback is visible: the report says there is no memory limit.
      expect(report.reason).toMatch(/no memory|process group/);
      return context.skip(`no memory controller here: ${report.reason}`);
    }
    const command = `${ownLimitLine(report)}; [ "$l" = ${64 * MIB} ] && jq -n "[range(1e8)]" > /dev/null`;
    const result = await h.call('bash', { command, timeoutMs: 60_000 });
    expect(result.output).toContain(`limit=${64 * MIB}`);
    expect(data(result)).toMatchObject({ status: 'exited', containment: 'cgroup', limitHit: 'memory' });
    expect(result.output).toContain(`own memory limit of ${64 * MIB} bytes`);
    const after = await h.call('bash', { command: 'echo alive' });
    expect(data(after)).toMatchObject({ status: 'exited', exitCode: 0 });
  });

  it('two commands over the shared cap together: the one ended is told it was the session limit', async (context) => {
    const processes = new PipeProcessBackend({ sessionMemoryBytes: 100 * MIB, limits: { maxMemoryBytes: 80 * MIB } });
    const shared = await createHarness({ processes });
    try {
      const own = await processes.containment();
      if (own.kind !== 'cgroup' || !own.memory) return context.skip(`no memory controller here: ${own.reason}`);
      const hold = (name: string) =>
        [
          ownLimitLine(own),
          // Allocates only under both limits, read from inside: its own 80 MiB, and the 100 MiB its parent (the session) has.
          `[ "$l" = ${80 * MIB} ] && [ "$s" = ${100 * MIB} ] && exec python3 -c 'import os, time
b = b"x" * (60 << 20)
open("held-${name}", "w").close()
while not os.path.exists("release"): time.sleep(0.05)'`,
        ].join('\n');
      const first = shared.call('bash', { command: hold('a'), timeoutMs: 60_000 });
      for (let tries = 0; !existsSync(join(shared.ws, 'held-a')) && tries < 1_500; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
      const second = shared.call('bash', { command: hold('b'), timeoutMs: 60_000 });
      const ended = await Promise.race([first, second]);
      await writeFile(join(shared.ws, 'release'), '');
      const results = await Promise.all([first, second]);
      expect(ended.output).toContain(`limit=${80 * MIB}`);
      expect(data(ended).limitHit).toBe('session_memory');
      expect(ended.output).toContain(`shared memory limit of ${100 * MIB} bytes`);
      expect(results.filter((result) => data(result).limitHit === 'session_memory').length).toBeGreaterThanOrEqual(1);
    } finally {
      await writeFile(join(shared.ws, 'release'), '').catch(() => undefined);
      await processes.dispose();
      await shared.cleanup();
    }
  });

  it('the report names the shared cap and the per-command default, or why there is none', () => {
    if (report.kind === 'cgroup' && report.memory) {
      expect(report.memory.commandBytes).toBeLessThanOrEqual(report.memory.sessionBytes);
      expect(report.memory.sessionBytes).toBeLessThan(report.memory.availableBytes);
    } else {
      expect(report.reason).toMatch(/no memory|process group/);
    }
  });
});

describe('bash: temporary files stay in a scratch directory of the command (docs/decisions/0027)', () => {
  it('sort -S 1K spills its runs into the scratch directory, not the TMPDIR outside, and the directory is gone afterwards', async () => {
    await writeFile(join(h.ws, 'big.txt'), Array.from({ length: 20_000 }, (_, index) => `${(index * 7919) % 20_000}\n`).join(''));
    // The input stays open until a run file is seen, so the spill is observed while sort is still running.
    const command = [
      'echo "tmpdir=$TMPDIR"',
      '( cat big.txt; while [ ! -e "$TMPDIR/go" ]; do sleep 0.02; done ) | sort -S 1K > sorted.txt &',
      'n=0; until ls "$TMPDIR" | grep -q "^sort" || [ $n -gt 500 ]; do sleep 0.02; n=$((n+1)); done',
      'echo "run=$(ls "$TMPDIR" | grep "^sort" | head -1)"; touch "$TMPDIR/go"; wait',
      'sort -S 1K big.txt | head -1; mktemp',
    ].join('\n');
    const result = await h.call('bash', { command, timeoutMs: 60_000 });
    expect(data(result)).toMatchObject({ status: 'exited', exitCode: 0 });
    const scratch = /tmpdir=(\S+)/.exec(result.output)?.[1] ?? '';
    expect(scratch.startsWith(join(tmpdir(), 'openwork-scratch-'))).toBe(true);
    expect(result.output).toMatch(/run=sort\S+/);
    expect(result.output).toContain(`${scratch}/tmp.`);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(scratch)).toBe(false);
  });

  it('each call gets its own, and a TMPDIR the command sets itself is its own choice', async () => {
    const first = await h.call('bash', { command: 'echo "$TMPDIR"' });
    const second = await h.call('bash', { command: 'echo "$TMPDIR"' });
    expect(first.output).not.toBe(second.output);
    await mkdir(join(h.ws, 'mine'));
    const chosen = await h.call('bash', { command: 'TMPDIR=mine mktemp' });
    expect(chosen.output).toContain('mine/tmp.');
  });
});
