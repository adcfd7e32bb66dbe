import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainmentReport } from '@openwork/process-backend';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import { parseArgs } from '../src/args.ts';
import { UsageError } from '../src/usage-error.ts';
import { runInProcess } from './command.ts';

// An auto-run `jq -n "[range(1e8)]"` grows until the memory it is given runs out: each command has a limit of its own
// (--memory-limit), which ends it alone, and the command goes on answering.

const MIB = 1024 * 1024;
let ws: string;
let report: ContainmentReport;

beforeAll(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'cli-memory-')));
  const probe = new PipeProcessBackend();
  report = await probe.containment();
  await probe.dispose();
});
afterAll(() => rm(ws, { recursive: true, force: true }));

/** Shell text that sets `l` to the memory limit of the cgroup the command runs in, read from inside it. */
function ownLimit(containment: ContainmentReport & { kind: 'cgroup' }): string {
  const v2 = containment.version === 2;
  const mount = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').find((line) => (v2 ? / - cgroup2 / : / - cgroup .*[ ,]memory(,|$)/).test(line))?.split(' ')[4] ?? '';
  const pick = v2 ? `awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup` : `awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup`;
  return `l=$(cat "${mount}$(${pick})/${v2 ? 'memory.max' : 'memory.limit_in_bytes'}"); echo "limit=$l"`;
}

describe('--memory-limit', () => {
  it('ends a command that grows past it, checked in force first, and the next call runs', async () => {
    if (report.kind !== 'cgroup' || report.memory === undefined) {
      // Without a memory controller the fallback says so, and no limit is promised.
      expect(report.reason).toMatch(/no memory|process group/);
      return;
    }
    const command = `${ownLimit(report)}; [ "$l" = ${64 * MIB} ] && jq -n "[range(1e8)]" > /dev/null`;
    const ended = await runInProcess(['call', 'bash', JSON.stringify({ command, timeoutMs: 60_000 }), '--json', '--yes', '--memory-limit', '64M'], { cwd: ws });
    const result = JSON.parse(ended.stdout) as { status: string; output: string; data: { limitHit?: string; containment: string } };
    expect(result.output).toContain(`limit=${64 * MIB}`);
    expect(result.data).toMatchObject({ containment: 'cgroup', limitHit: 'memory' });
    expect(result.output).toContain(`own memory limit of ${64 * MIB} bytes`);
    const next = await runInProcess(['call', 'bash', '{"command":"echo alive"}', '--json', '--memory-limit', '64M'], { cwd: ws });
    expect(JSON.parse(next.stdout)).toMatchObject({ status: 'ok', data: { status: 'exited', exitCode: 0 } });
  });

  it('takes a size in bytes or with K, M or G, at least 4M', () => {
    expect(parseArgs(['call', 'bash', '--memory-limit', '512M']).memoryLimitBytes).toBe(512 * MIB);
    expect(parseArgs(['call', 'bash', '--memory-limit', '2g']).memoryLimitBytes).toBe(2 * 1024 * MIB);
    expect(parseArgs(['call', 'bash', '--memory-limit', String(8 * MIB)]).memoryLimitBytes).toBe(8 * MIB);
    expect(parseArgs(['call', 'bash']).memoryLimitBytes).toBeUndefined();
    for (const bad of ['1M', '12X', '-5M', '1.5G', '']) expect(() => parseArgs(['call', 'bash', '--memory-limit', bad])).toThrow(UsageError);
  });
});
