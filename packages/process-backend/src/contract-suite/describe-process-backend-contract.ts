import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallAborted, isToolError } from '@openwork/tool-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainmentOptions } from '../containment.ts';
import type { ProcessBackend } from '../process-backend.ts';
import { retainedArrayBufferBytes } from './array-buffer-memory.ts';
import { bash, killLeftovers, markerRunning, minimalEnv, shownBytes, startRun } from './contract-helpers.ts';
import { describeContainmentContract } from './describe-containment-contract.ts';
import { describeMemoryContract } from './describe-memory-contract.ts';
import { describeScratchContract } from './describe-scratch-contract.ts';
import { describeTerminalInputContract } from './describe-terminal-input-contract.ts';

export interface ProcessBackendTraits {
  /** A terminal: stderr joins stdout and every `\n` arrives as `\r\n`. */
  readonly terminal?: boolean;
  /**
   * The backend is made to hold commands by process group only: the cases
   * that need a cgroup are not registered (they are no promise of this
   * configuration), and the suite checks that the fallback says so instead.
   */
  readonly processGroupsOnly?: boolean;
}

/**
 * The command lines the suite starts and must not leave behind. The pid makes
 * them unique to this test process, so suites running side by side never see
 * each other's sleeps.
 */
const mark = (seconds: string) => `sleep ${seconds}${process.pid}`;
const MARKER = {
  background: mark('30.123'),
  grandchild: mark('31.234'),
  ignoresTerm: mark('32.1'),
  cancelled: mark('33.3'),
  disposed: mark('34.5'),
  disposedEscaped: mark('34.7'),
  preAborted: mark('35.6'),
  escaped: mark('37.8'),
};
const MARKERS = Object.values(MARKER);

/**
 * The ProcessBackend contract, one suite for every implementation (the pipe
 * and pty backends run the same bodies). Real bash processes; `make` gives a
 * fresh backend, disposed after, with the containment options given added
 * to its own (the memory cases set a small session cap).
 */
export function describeProcessBackendContract(
  name: string,
  make: (options?: ContainmentOptions) => ProcessBackend | Promise<ProcessBackend>,
  traits: ProcessBackendTraits = {},
): void {
  describe(`ProcessBackend contract: ${name}`, () => {
    let backend: ProcessBackend;
    let cwd: string;
    const env = minimalEnv();
    const lines = (text: string) => (traits.terminal ? text.replaceAll('\n', '\r\n') : text);

    beforeAll(async () => {
      backend = await make();
      cwd = await mkdtemp(join(tmpdir(), 'process-backend-'));
    });

    afterAll(async () => {
      await backend.dispose();
      await rm(cwd, { recursive: true, force: true });
      expect(backend.liveGroups()).toEqual([]);
      for (const marker of MARKERS) expect(markerRunning(marker), marker).toBe(false);
    });

    it('reports exit 0 and a non-zero exit as exited, with both streams', async () => {
      const ok = await startRun(backend, { argv: bash('echo fine'), cwd, env }).result;
      expect(ok).toMatchObject({ status: 'exited', exitCode: 0, signal: null, stdout: { text: lines('fine\n'), truncated: false } });
      const failed = await startRun(backend, { argv: bash('echo out; echo err >&2; exit 3'), cwd, env }).result;
      expect(failed).toMatchObject({ status: 'exited', exitCode: 3, signal: null });
      if (traits.terminal) {
        expect(failed.stdout.text).toBe(lines('out\nerr\n'));
        expect(failed.stderr).toEqual({ text: '', totalBytes: 0, omittedBytes: 0, truncated: false });
      } else {
        expect(failed.stdout).toEqual({ text: 'out\n', totalBytes: 4, omittedBytes: 0, truncated: false });
        expect(failed.stderr).toEqual({ text: 'err\n', totalBytes: 4, omittedBytes: 0, truncated: false });
      }
    });

    it('reports a leader killed by a signal with its signal name', async () => {
      const result = await startRun(backend, { argv: bash('kill -TERM $$'), cwd, env }).result;
      expect(result).toMatchObject({ status: 'exited', exitCode: null, signal: 'SIGTERM' });
    });

    it('gives the child exactly the request environment and working directory', async () => {
      process.env['OPENWORK_CONTRACT_LEAK'] = 'leaked';
      try {
        const result = await startRun(backend, { argv: bash('printf "%s:%s:%s" "$GIVEN" "${OPENWORK_CONTRACT_LEAK-unset}" "$(pwd -P)"'), cwd, env: { ...env, GIVEN: 'yes' } }).result;
        expect(result.stdout.text).toBe(`yes:unset:${cwd}`);
      } finally {
        delete process.env['OPENWORK_CONTRACT_LEAK'];
      }
    });

    it('returns as soon as the leader exits and kills what it left in the background', async () => {
      const result = await startRun(backend, { argv: bash(`${MARKER.background} & echo started`), cwd, env }).result;
      expect(result.status).toBe('exited');
      expect(result.stdout.text).toBe(lines('started\n'));
      // The background sleep lasts 30 s: returning well before proves nobody waited for it.
      expect(result.durationMs).toBeLessThan(5_000);
      // The background job is the only thing left to end; a loaded machine may see it already gone
      // (a terminal's hangup, or the group signal landing first), so the count is at most one. That the
      // count reports what was left running is pinned by the daemon cases of the containment suite.
      expect(result.processesEndedAfterExit).toBeLessThanOrEqual(1);
      expect(markerRunning(MARKER.background)).toBe(false);
      expect(backend.liveGroups()).toEqual([]);
    });

    it('ends the call when a process outside the group holds the output open: a cgroup ends it, else the drain bound', async () => {
      const contained = (await backend.containment()).kind === 'cgroup';
      try {
        const result = await startRun(backend, { argv: bash(`setsid ${MARKER.escaped} & echo $!`), cwd, env, drainMs: 300 }).result;
        expect(result.status).toBe('exited');
        // The escaped sleep would keep the output open for 37 s: its end (cgroup) or the drain bound let the call end.
        expect(result.durationMs).toBeLessThan(5_000);
        if (contained) {
          // On a terminal the hangup may end a child that has not yet reached setsid before the backend looks.
          if (!traits.terminal) expect(result.processesEndedAfterExit).toBeGreaterThanOrEqual(1);
          expect(markerRunning(MARKER.escaped)).toBe(false);
        }
      } finally {
        killLeftovers(MARKER.escaped);
      }
    });

    it('bash ends the whole process group and returns the output collected before the end: a timeout kills a grandchild and keeps the output so far', async () => {
      const run = startRun(backend, { argv: bash(`echo before; bash --noprofile --norc -c '${MARKER.grandchild}; true' & wait`), cwd, env });
      await run.seen('before');
      run.controller.abort(new CallAborted('timed_out'));
      const result = await run.result;
      expect(result.status).toBe('timed_out');
      expect(result.stdout.text).toBe(lines('before\n'));
      expect(markerRunning(MARKER.grandchild)).toBe(false);
    });

    it('kills a group that ignores SIGTERM once the grace has passed', async () => {
      const run = startRun(backend, { argv: bash(`trap '' TERM; echo armed; ${MARKER.ignoresTerm}`), cwd, env, killGraceMs: 300 });
      await run.seen('armed');
      run.controller.abort(new CallAborted('cancelled'));
      const result = await run.result;
      expect(result.status).toBe('cancelled');
      expect(result.exitCode).toBeNull();
      expect(markerRunning(MARKER.ignoresTerm)).toBe(false);
      expect(backend.liveGroups()).toEqual([]);
    });

    it('a cancel mid-command is cancelled and keeps the earlier output', async () => {
      const run = startRun(backend, { argv: bash(`echo first; ${MARKER.cancelled}; echo never`), cwd, env });
      await run.seen('first');
      run.controller.abort(new CallAborted('cancelled'));
      const result = await run.result;
      expect(result.status).toBe('cancelled');
      expect(result.stdout.text).toBe(lines('first\n'));
      expect(markerRunning(MARKER.cancelled)).toBe(false);
    });

    it('an already aborted signal ends the command at once with its kind', async () => {
      const controller = new AbortController();
      controller.abort(new CallAborted('timed_out'));
      const result = await backend.run({ argv: bash(MARKER.preAborted), cwd, env, signal: controller.signal });
      expect(result.status).toBe('timed_out');
      expect(markerRunning(MARKER.preAborted)).toBe(false);
      expect(backend.liveGroups()).toEqual([]);
    });

    it('keeps memory bounded under endless output and counts omitted bytes exactly', async () => {
      // A fixed amount of output, not a time: held chunks would show as that many bytes of buffers still reachable.
      // A terminal moves output in small reads, so it is given less.
      const enough = (traits.terminal ? 8 : 24) * 1024 * 1024;
      const before = await retainedArrayBufferBytes();
      let delivered = 0;
      let reached: () => void = () => undefined;
      const flowed = new Promise<void>((resolve) => (reached = resolve));
      const run = startRun(backend, {
        argv: ['yes'],
        cwd,
        env,
        onStdout: (chunk) => {
          delivered += chunk.length;
          if (delivered >= enough) reached();
        },
      });
      await flowed;
      // Measured while the command still writes: what the run holds now is what it would hold at any size.
      const held = (await retainedArrayBufferBytes()) - before;
      run.controller.abort(new CallAborted('timed_out'));
      const result = await run.result;
      expect(result.status).toBe('timed_out');
      expect(result.stdout.truncated).toBe(true);
      expect(result.stdout.totalBytes).toBeGreaterThanOrEqual(enough);
      expect(result.stdout.omittedBytes).toBe(result.stdout.totalBytes - shownBytes(result.stdout));
      expect(result.stdout.text).toMatch(/^[y\r\n]+\n… \[\d+ bytes omitted\] …\n[y\r\n]+$/);
      expect(held).toBeLessThan(enough / 2);
    });

    it('keeps the exact head and tail of long output and counts every byte', async () => {
      const result = await startRun(backend, { argv: ['seq', '1', '200000'], cwd, env }).result;
      const expected = lines(Array.from({ length: 200_000 }, (_, index) => `${index + 1}\n`).join(''));
      const omitted = Buffer.byteLength(expected) - 65_536;
      expect(result.stdout).toEqual({
        text: `${expected.slice(0, 32_768)}\n… [${omitted} bytes omitted] …\n${expected.slice(-32_768)}`,
        totalBytes: Buffer.byteLength(expected),
        omittedBytes: omitted,
        truncated: true,
      });
    });

    it('delivers a UTF-8 character split across writes whole', async () => {
      const chunks: string[] = [];
      const script = "printf 'a\\xc3'; sleep 0.3; printf '\\xa9b'";
      const result = await startRun(backend, { argv: bash(script), cwd, env, onStdout: (chunk) => chunks.push(chunk) }).result;
      expect(result.stdout.text).toBe('aéb');
      expect(chunks.join('')).toBe('aéb');
      expect(chunks.some((chunk) => chunk.includes('\uFFFD'))).toBe(false);
    });

    it('survives a progress callback that throws', async () => {
      const result = await startRun(backend, {
        argv: bash('echo one; sleep 0.1; echo two'),
        cwd,
        env,
        onStdout: () => {
          throw new Error('a broken listener');
        },
      }).result;
      expect(result).toMatchObject({ status: 'exited', exitCode: 0, stdout: { text: lines('one\ntwo\n') } });
    });

    it('closes input: cat with no input ends at once', async () => {
      const result = await startRun(backend, { argv: ['cat'], cwd, env }, { safetyMs: 10_000 }).result;
      expect(result).toMatchObject({ status: 'exited', exitCode: 0, signal: null });
    });

    it('a missing program or working directory is spawn_failed', async () => {
      for (const request of [
        { argv: ['openwork-no-such-program'], cwd },
        { argv: ['./not-here'], cwd },
        { argv: bash('true'), cwd: join(cwd, 'missing-directory') },
      ]) {
        const error: unknown = await backend.run({ ...request, env, signal: new AbortController().signal }).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(isToolError(error) ? error.kind : error).toBe('spawn_failed');
      }
      expect(backend.liveGroups()).toEqual([]);
    });

    it('lists the group while it runs and dispose kills it (and, under a cgroup, what left the group)', async () => {
      const own = await make();
      const contained = (await own.containment()).kind === 'cgroup';
      const run = startRun(own, { argv: bash(`setsid ${MARKER.disposedEscaped} & echo "started $TMPDIR"; ${MARKER.disposed}`), cwd, env, scratchDirectory: true });
      await run.seen('started');
      expect(own.liveGroups()).toHaveLength(1);
      await own.dispose();
      const result = await run.result;
      expect(result.status).toBe('cancelled');
      expect(own.liveGroups()).toEqual([]);
      expect(markerRunning(MARKER.disposed)).toBe(false);
      const scratch = /started (\S+)/.exec(result.stdout.text)?.[1] ?? '';
      expect(scratch).toContain('openwork-scratch-');
      expect(existsSync(scratch), 'the scratch directory goes with the disposed command').toBe(false);
      if (contained) expect(markerRunning(MARKER.disposedEscaped)).toBe(false);
      else killLeftovers(MARKER.disposedEscaped);
      const after: unknown = await own.run({ argv: bash('true'), cwd, env, signal: new AbortController().signal }).catch((caught: unknown) => caught);
      expect(isToolError(after) ? after.kind : after).toBe('spawn_failed');
    });

    describeContainmentContract(
      () => backend,
      () => cwd,
      { terminal: traits.terminal ?? false, processGroupsOnly: traits.processGroupsOnly ?? false },
    );
    describeMemoryContract(make, () => cwd, { processGroupsOnly: traits.processGroupsOnly ?? false });
    describeScratchContract(() => backend, () => cwd, { processGroupsOnly: traits.processGroupsOnly ?? false });
    describeTerminalInputContract(() => backend, () => cwd, { terminal: traits.terminal ?? false });
  });
}
