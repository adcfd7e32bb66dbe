import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CallAborted } from '@openwork/tool-contract';
import { describe, expect, it } from 'vitest';
import type { ContainmentReport } from '../containment.ts';
import type { ProcessBackend } from '../process-backend.ts';
import { bash, cgroupDirectoryOf, eventually, killLeftovers, minimalEnv, pidsWithMarker, startRun, uniqueSleep } from './contract-helpers.ts';

type Skip = (note: string) => never;

/** A sleep argument split in two, so the script that starts it does not itself hold the marker in its command line. */
function hidden(seconds: number): { readonly marker: string; readonly set: (name: string) => string; readonly use: (name: string) => string } {
  const marker = uniqueSleep(seconds);
  const cut = marker.length - 4;
  return { marker, set: (name) => `${name}=${marker.slice(0, cut)}`, use: (name) => `"\${${name}}${marker.slice(cut)}"` };
}

/**
 * Ways a command's process leaves its parent, its group or its session; each
 * gets the sleep argument. On a terminal, the hangup when the leader exits
 * already ends a process that stayed in the session (`survivesHangup: false`).
 */
const ESCAPES: readonly { readonly name: string; readonly survivesHangup: boolean; readonly start: (argument: string) => string }[] = [
  { name: 'setsid sleep &', survivesHangup: true, start: (argument) => `setsid sleep ${argument} &` },
  { name: 'a double fork', survivesHangup: false, start: (argument) => `( sleep ${argument} & )` },
  { name: 'nohup … & disown', survivesHangup: true, start: (argument) => `nohup sleep ${argument} > /dev/null 2>&1 & disown` },
  {
    name: 'a new session that ignores SIGTERM',
    survivesHangup: true,
    start: (argument) => `setsid bash --noprofile --norc -c 'trap "" TERM; exec sleep "$0"' ${argument} &`,
  },
];

/** Whether a process with the marker has become `sleep` itself: past setsid, nohup and the trap, so fully escaped. */
function sleeping(marker: string): boolean {
  return pidsWithMarker(marker).some((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
    } catch {
      return false;
    }
  });
}

const ENDINGS = ['exit', 'timeout', 'cancel'] as const;

/**
 * What a cgroup adds to the contract (docs/decisions/0008): nothing a command
 * starts outlives it, a fork bomb stays under its limit, memory past the
 * limit ends the command. Each test needs a usable cgroup and is skipped with
 * the host's reason where the backend reports process groups; the fork bomb
 * starts only after its own cgroup is seen to bound it.
 */
export function describeContainmentContract(
  getBackend: () => ProcessBackend,
  getCwd: () => string,
  options: { readonly terminal: boolean; readonly processGroupsOnly: boolean },
): void {
  const env = minimalEnv();

  async function cgroupOrSkip(skip: Skip, needs: { readonly processes?: boolean; readonly memory?: boolean } = {}): Promise<ContainmentReport & { kind: 'cgroup' }> {
    const report = await getBackend().containment();
    if (report.kind !== 'cgroup') return skip(`this backend holds commands by process group only: ${report.reason}`);
    if (needs.processes && !report.limits.processes) return skip(`this host's cgroup has no pids controller: ${report.reason}`);
    if (needs.memory && !report.limits.memory) return skip(`this host's cgroup has no memory controller: ${report.reason}`);
    return report;
  }

  describe('containment', () => {
    it('says which containment holds each command, as the backend reports it', async () => {
      const report = await getBackend().containment();
      expect(report.reason).not.toBe('');
      const result = await startRun(getBackend(), { argv: bash('true'), cwd: getCwd(), env }).result;
      expect(result.containment).toBe(report.kind);
      expect(result.processesEndedAfterExit).toBe(0);
      expect(result.limitHit).toBeUndefined();
    });

    if (options.processGroupsOnly) {
      it('reports process groups, with the reason, and no limit it cannot hold', async () => {
        const report = await getBackend().containment();
        expect(report.kind).toBe('process_group');
        expect(report.reason).not.toBe('');
        // A limit is a cgroup's: under process groups a command asking for one still runs, with nothing reported as hit.
        const result = await startRun(getBackend(), { argv: bash('echo limited'), cwd: getCwd(), env, limits: { maxProcesses: 64, maxMemoryBytes: 64 * 1024 * 1024 } }).result;
        expect(result).toMatchObject({ status: 'exited', exitCode: 0, containment: 'process_group' });
        expect(result.limitHit).toBeUndefined();
      });
    } else {
      it('places the command in its cgroup before its first instruction, with the default process limit', async ({ skip }) => {
        const report = await cgroupOrSkip(skip);
        const token = `first${process.pid}${randomInt(1_000_000, 10_000_000)}`;
        const result = await startRun(getBackend(), { argv: bash(`: ${token}; cat /proc/$$/cgroup`), cwd: getCwd(), env }).result;
        const pidsLine = report.version === 2 ? /^0::/ : /^\d+:([^:]*,)?pids(,[^:]*)?:/;
        const line = result.stdout.text.split(/\r?\n/).find((entry) => pidsLine.test(entry));
        expect(line).toMatch(/\/openwork-\d+-\d+-\d+-[0-9a-f]+$/);
        // `; :` keeps bash from exec'ing the sleep, so the leader's command line still holds the token.
        const waiting = startRun(getBackend(), { argv: bash(`: ${token}; echo up; sleep 20; :`), cwd: getCwd(), env });
        try {
          await waiting.seen('up');
          const directory = cgroupDirectoryOf(pidsWithMarker(token)[0] ?? 0, report);
          expect(directory).toBeDefined();
          if (report.limits.processes) expect(readFileSync(join(directory ?? '', 'pids.max'), 'utf8').trim()).toBe('512');
        } finally {
          waiting.controller.abort(new CallAborted('cancelled'));
          await waiting.result;
          killLeftovers(token);
        }
      });

      for (const escape of ESCAPES) {
        for (const ending of ENDINGS) {
          it(`${escape.name} leaves no survivor after ${ending === 'exit' ? 'the exit' : `a ${ending}`}`, async ({ skip }) => {
            await cgroupOrSkip(skip);
            const escaped = hidden(300);
            const waiting = hidden(301);
            const go = join(getCwd(), `go-${escaped.marker}`);
            const rest = ending === 'exit' ? 'echo done' : `echo ready; ${waiting.set('w')}; sleep ${waiting.use('w')}`;
            const script = `${escaped.set('x')}; ${escape.start(escaped.use('x'))}\nwhile [ ! -e ${go} ]; do sleep 0.02; done; ${rest}`;
            const run = startRun(getBackend(), { argv: bash(script), cwd: getCwd(), env, killGraceMs: 300 });
            try {
              await eventually(() => sleeping(escaped.marker), 10_000, `the escaped process of ${escape.name}`);
              await writeFile(go, '');
              if (ending !== 'exit') {
                await run.seen('ready');
                run.controller.abort(new CallAborted(ending === 'timeout' ? 'timed_out' : 'cancelled'));
              }
              const result = await run.result;
              expect(result.status).toBe(ending === 'exit' ? 'exited' : ending === 'timeout' ? 'timed_out' : 'cancelled');
              expect(result.containment).toBe('cgroup');
              if (ending !== 'exit' || escape.survivesHangup || !options.terminal) expect(result.processesEndedAfterExit).toBeGreaterThanOrEqual(1);
              expect(pidsWithMarker(escaped.marker)).toEqual([]);
              expect(pidsWithMarker(waiting.marker)).toEqual([]);
            } finally {
              run.controller.abort(new CallAborted('cancelled'));
              await run.result.catch(() => undefined);
              killLeftovers(escaped.marker);
              killLeftovers(waiting.marker);
            }
          });
        }
      }

      it('a fork bomb stays under its process limit and leaves nothing, while the machine can still fork', async ({ skip }) => {
        const report = await cgroupOrSkip(skip, { processes: true });
        const token = `bomb${process.pid}${randomInt(1_000_000, 10_000_000)}`;
        const go = join(getCwd(), `go-${token}`);
        // Armed only by the go file, which the test writes once it has seen pids.max on the command's own cgroup.
        // The leader stays (its own forks fail and retry at the limit like the bomb's), so the bomb can be watched at its limit.
        const script = `: ${token}; while [ ! -e ${go} ]; do sleep 0.02; done; b() { b | b & }; b; while :; do sleep 1; done`;
        const run = startRun(getBackend(), { argv: bash(script), cwd: getCwd(), env, limits: { maxProcesses: 64 }, killGraceMs: 300 }, { safetyMs: 15_000 });
        try {
          let directory: string | undefined;
          // The pid shows the token from the shim on, a moment before the shim has joined the cgroup.
          await eventually(() => (directory = cgroupDirectoryOf(pidsWithMarker(token)[0] ?? 0, report)) !== undefined, 10_000, 'the command in a cgroup of its own');
          const maxFile = join(directory ?? '', 'pids.max');
          expect(readFileSync(maxFile, 'utf8').trim(), 'pids.max is set before the bomb is armed').toBe('64');
          await writeFile(go, '');
          let most = 0;
          let forkedBeside = '';
          const until = Date.now() + 1_500;
          while (Date.now() < until) {
            const current = readFileSync(join(directory ?? '', 'pids.current'), 'utf8');
            most = Math.max(most, Number(current));
            if (forkedBeside === '' && most >= 32) forkedBeside = execFileSync('sh', ['-c', 'echo forked'], { encoding: 'utf8', timeout: 5_000 });
            await new Promise((resolve) => setTimeout(resolve, 25));
          }
          run.controller.abort(new CallAborted('timed_out'));
          const result = await run.result;
          expect(most).toBeGreaterThanOrEqual(32);
          expect(most).toBeLessThanOrEqual(64);
          expect(forkedBeside).toBe('forked\n');
          expect(result).toMatchObject({ status: 'timed_out', containment: 'cgroup', limitHit: 'processes' });
          expect(pidsWithMarker(token)).toEqual([]);
          expect(existsSync(directory ?? ''), 'the cgroup is removed').toBe(false);
        } finally {
          run.controller.abort(new CallAborted('timed_out'));
          await run.result.catch(() => undefined);
          killLeftovers(token);
        }
      });

      it('a command that allocates past its memory limit is ended and the result says memory', async ({ skip }) => {
        await cgroupOrSkip(skip, { memory: true });
        // tail keeps a line without end in memory: 200 MiB of zeros against a 64 MiB limit.
        const run = startRun(getBackend(), { argv: bash('head -c 200M /dev/zero | tail > /dev/null'), cwd: getCwd(), env, limits: { maxMemoryBytes: 64 * 1024 * 1024 } }, { safetyMs: 20_000 });
        const result = await run.result;
        expect(result.status).toBe('exited');
        expect(result.exitCode === 0 && result.signal === null).toBe(false);
        expect(result).toMatchObject({ containment: 'cgroup', limitHit: 'memory' });
      });
    }

    it('rejects a limit that is not a positive whole number', async () => {
      for (const limits of [{ maxProcesses: 0 }, { maxMemoryBytes: 1.5 }]) {
        const error: unknown = await getBackend()
          .run({ argv: bash('true'), cwd: getCwd(), env, limits, signal: new AbortController().signal })
          .catch((caught: unknown) => caught);
        expect(error).toMatchObject({ kind: 'invalid_input' });
      }
    });
  });
}
