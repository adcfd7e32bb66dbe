import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CallAborted } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import { parseMountInfo, v1Mount } from '../cgroup/cgroup-mounts.ts';
import type { ContainmentOptions, ContainmentReport } from '../containment.ts';
import type { ProcessBackend, ProcessExit } from '../process-backend.ts';
import { bash, killLeftovers, minimalEnv, startRun, type StartedRun } from './contract-helpers.ts';

const MIB = 1024 * 1024;

/** Where the memory hierarchy is mounted, for the command to find its own limit files from /proc/self/cgroup. */
function memoryMount(report: ContainmentReport & { kind: 'cgroup' }): string {
  const mounts = parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8'));
  const mount = report.version === 2 ? mounts.find((entry) => entry.version === 2) : v1Mount(mounts, 'memory');
  return mount?.mountPoint ?? '';
}

/**
 * A script that prints its own memory cgroup's limit and its parent's (the
 * session's) as `limits OWN PARENT at DIRECTORY`, waits for the go file, then
 * runs `then`. Nothing is allocated before the test has seen the limits.
 */
function limitedScript(report: ContainmentReport & { kind: 'cgroup' }, go: string, then: string): string {
  const pick = report.version === 2 ? `awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup` : `awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup`;
  const file = report.version === 2 ? 'memory.max' : 'memory.limit_in_bytes';
  return [
    `d=${memoryMount(report)}$(${pick})`,
    `echo "limits $(cat "$d/${file}") $(cat "$(dirname "$d")/${file}") at $d"`,
    `while [ ! -e ${go} ]; do sleep 0.02; done`,
    then,
  ].join('\n');
}

async function limitsOf(run: StartedRun, output: () => string): Promise<{ own: number; parent: number; directory: string }> {
  await run.seen(' at /');
  const match = /limits (\d+) (\d+) at (\S+)/.exec(output());
  if (!match) throw new Error(`no limits in ${JSON.stringify(output())}`);
  return { own: Number(match[1]), parent: Number(match[2]), directory: match[3] ?? '' };
}

function recorded(): { readonly text: () => string; readonly onStdout: (chunk: string) => void } {
  let text = '';
  return { text: () => text, onStdout: (chunk) => void (text = (text + chunk).slice(-8_192)) };
}

/**
 * Memory (docs/decisions/0027): one session cgroup per backend, capped, with
 * each command's cgroup inside under its own limit. Every hostile command
 * first prints the limits of its own cgroup and its parent, read from inside,
 * and allocates only once the test has seen them in force; where the host
 * has no memory controller the report must say so instead.
 */
export function describeMemoryContract(
  make: (options?: ContainmentOptions) => ProcessBackend | Promise<ProcessBackend>,
  getCwd: () => string,
  options: { readonly processGroupsOnly: boolean },
): void {
  const env = minimalEnv();

  describe('memory', () => {
    it('reports the memory caps it keeps, or that it keeps none and why', async () => {
      const backend = await make();
      try {
        const report = await backend.containment();
        if (report.kind === 'cgroup' && report.limits.memory) {
          const memory = report.memory;
          expect(memory).toBeDefined();
          expect(memory?.sessionBytes).toBe(Math.floor((memory?.availableBytes ?? 0) / 2));
          expect(memory?.commandBytes).toBe(Math.min(Math.floor((memory?.sessionBytes ?? 0) / 4), 4 * 1024 * MIB));
          expect(report.reason).toContain(`${memory?.sessionBytes} bytes for all commands together`);
        } else {
          expect(report.kind === 'cgroup' ? report.memory : undefined).toBeUndefined();
          expect(report.reason).toMatch(options.processGroupsOnly ? /process group/ : /no memory|process group/);
        }
      } finally {
        await backend.dispose();
      }
    });

    if (options.processGroupsOnly) return;

    it('a command past its own limit is ended with limitHit memory, and the backend runs the next one', async ({ skip }) => {
      const backend = await make();
      const token = `mem${process.pid}${randomInt(1_000_000, 10_000_000)}`;
      try {
        const report = await backend.containment();
        if (report.kind !== 'cgroup' || !report.memory) return skip(`no memory controller here: ${report.reason}`);
        const go = join(getCwd(), `go-${token}`);
        const out = recorded();
        const hog = `: ${token}; exec python3 -c 'b = b"x" * (400 << 20)' ${token}`;
        const run = startRun(backend, { argv: bash(limitedScript(report, go, hog)), cwd: getCwd(), env, limits: { maxMemoryBytes: 64 * MIB }, onStdout: out.onStdout }, { safetyMs: 30_000 });
        const limits = await limitsOf(run, out.text);
        expect(limits.own, 'the command runs under its own 64 MiB limit before it allocates').toBe(64 * MIB);
        expect(limits.parent).toBe(report.memory.sessionBytes);
        await writeFile(go, '');
        const result = await run.result;
        expect(result.exitCode === 0 && result.signal === null).toBe(false);
        expect(result).toMatchObject({ status: 'exited', containment: 'cgroup', limitHit: 'memory' });
        expect(existsSync(limits.directory), "the command's cgroup is removed").toBe(false);
        const next = await startRun(backend, { argv: bash('echo alive'), cwd: getCwd(), env }).result;
        expect(next).toMatchObject({ status: 'exited', exitCode: 0 });
      } finally {
        killLeftovers(token);
        await backend.dispose();
      }
    });

    it('two commands each under their limit but together over the session cap: one is ended with session_memory, the backend survives', async ({ skip }) => {
      const backend = await make({ sessionMemoryBytes: 100 * MIB, limits: { maxMemoryBytes: 80 * MIB } });
      const token = `sess${process.pid}${randomInt(1_000_000, 10_000_000)}`;
      const runs: StartedRun[] = [];
      const release = join(getCwd(), `release-${token}`);
      try {
        const report = await backend.containment();
        if (report.kind !== 'cgroup' || !report.memory) return skip(`no memory controller here: ${report.reason}`);
        expect(report.memory).toMatchObject({ sessionBytes: 100 * MIB, commandBytes: 80 * MIB });
        // Each holds 60 MiB (about 70 with python itself) until released: alone under 80, together over 100.
        const hold = `: ${token}; exec python3 -c 'import os, time
b = b"x" * (60 << 20)
print("held", flush=True)
while not os.path.exists("${release}"): time.sleep(0.05)' ${token}`;
        const gos = [0, 1].map((index) => join(getCwd(), `go-${token}-${index}`));
        const outputs = gos.map(() => recorded());
        for (const [index, go] of gos.entries()) {
          runs.push(startRun(backend, { argv: bash(limitedScript(report, go, hold)), cwd: getCwd(), env, ...(outputs[index] === undefined ? {} : { onStdout: outputs[index].onStdout }) }, { safetyMs: 40_000 }));
        }
        const limits = await Promise.all(runs.map((run, index) => limitsOf(run, outputs[index]?.text ?? (() => ''))));
        for (const seen of limits) expect(seen).toMatchObject({ own: 80 * MIB, parent: 100 * MIB });
        await writeFile(gos[0] ?? '', '');
        await runs[0]?.seen('held');
        await writeFile(gos[1] ?? '', '');
        const first = await Promise.race(runs.map((run) => run.result));
        await writeFile(release, '');
        const results: ProcessExit[] = await Promise.all(runs.map((run) => run.result));
        expect(first).toMatchObject({ status: 'exited', containment: 'cgroup', limitHit: 'session_memory' });
        const ended = results.filter((result) => result.limitHit === 'session_memory');
        expect(ended.length).toBeGreaterThanOrEqual(1);
        for (const result of ended) expect(result.exitCode === 0 && result.signal === null).toBe(false);
        const next = await startRun(backend, { argv: bash('echo alive'), cwd: getCwd(), env }).result;
        expect(next).toMatchObject({ status: 'exited', exitCode: 0 });
        const session = join(limits[0]?.directory ?? '', '..');
        expect(existsSync(session)).toBe(true);
        await backend.dispose();
        expect(existsSync(session), 'the session cgroup is removed at dispose').toBe(false);
      } finally {
        await writeFile(release, '').catch(() => undefined);
        for (const run of runs) run.controller.abort(new CallAborted('cancelled'));
        await Promise.allSettled(runs.map((run) => run.result));
        killLeftovers(token);
        await backend.dispose();
      }
    });
  });
}
