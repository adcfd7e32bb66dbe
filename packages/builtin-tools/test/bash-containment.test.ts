import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContainmentReport } from '@openwork/process-backend';
import type { BashData } from '../src/index.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let report: ContainmentReport;
beforeEach(async () => {
  h = await createHarness({ limits: { maxProcesses: 64, maxMemoryBytes: 64 * 1024 * 1024 } });
  report = await h.session.processes.containment();
});
afterEach(async () => {
  await h.session.processes.dispose();
  await h.cleanup();
});

/** Pids whose command line holds the marker (never matched by name). */
function withMarker(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) found.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

function endAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

const data = (result: { data?: unknown }) => result.data as BashData;
const usable = () => report.kind === 'cgroup' && report.limits.processes;

describe('bash under the backend\'s containment (docs/decisions/0008)', () => {
  it('says which containment held the command, in data and in tools that read it', async () => {
    const result = await h.call('bash', { command: 'true' });
    expect(data(result).containment).toBe(report.kind);
    expect(data(result).processesEndedAfterExit).toBe(0);
  });

  it('a daemon left behind is ended with the command, and the result says so', async (context) => {
    if (report.kind !== 'cgroup') context.skip(`no usable cgroup here: ${report.reason}`);
    const marker = `ow-daemon-${randomBytes(6).toString('hex')}`;
    try {
      const result = await h.call('bash', { command: `setsid sh -c 'sleep 300; : ${marker}' >/dev/null 2>&1 < /dev/null & echo started` });
      expect(data(result)).toMatchObject({ status: 'exited', exitCode: 0, containment: 'cgroup' });
      expect(data(result).processesEndedAfterExit).toBeGreaterThanOrEqual(1);
      expect(result.output).toContain('it left running');
      expect(withMarker(marker)).toEqual([]);
    } finally {
      endAll(withMarker(marker));
    }
  });

  it('a fork bomb stays under the process limit, is reported, and leaves nothing', async (context) => {
    // Armed only where the kernel enforces the limit: never under process groups.
    if (!usable()) context.skip(`no cgroup with a process limit here: ${report.reason}`);
    const marker = `ow-bomb-${randomBytes(6).toString('hex')}`;
    try {
      const result = await h.call('bash', { command: `: ${marker}; bomb() { bomb | bomb & }; bomb; sleep 30`, timeoutMs: 1500 });
      expect(data(result).limitHit).toBe('processes');
      expect(result.output).toContain('limit of 64 processes');
      expect(withMarker(marker)).toEqual([]);
    } finally {
      endAll(withMarker(marker));
    }
  });

  it('a command past its memory limit is ended and the result says so', async (context) => {
    if (report.kind !== 'cgroup' || !report.limits.memory) context.skip(`no cgroup with a memory limit here: ${report.reason}`);
    const result = await h.call('bash', { command: 'node -e "const keep = []; for (;;) keep.push(Buffer.alloc(1 << 20, 1))"', timeoutMs: 20_000 });
    expect(data(result).limitHit).toBe('memory');
    expect(result.output).toContain('memory limit of 67108864 bytes');
  });
});
