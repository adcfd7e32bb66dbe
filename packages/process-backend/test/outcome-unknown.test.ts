import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { CallAborted } from '@openwork/tool-contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PipeProcessBackend } from '../src/pipe/index.ts';
import type * as Liveness from '../src/common/group-liveness.ts';

/**
 * A kill the backend cannot confirm: the liveness probe is made to report
 * the group alive after SIGKILL, as it would for a process stuck in the
 * kernel. The signals themselves are still sent.
 */
const liveness = vi.hoisted(() => ({ pretendAlive: false }));
vi.mock('../src/common/group-liveness.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Liveness>();
  return {
    ...original,
    groupAlive: async (pgid: number) => (liveness.pretendAlive ? true : original.groupAlive(pgid)),
    signalGroup: (pgid: number, signal: NodeJS.Signals | 0) => original.signalGroup(pgid, signal) || liveness.pretendAlive,
  };
});

const marker = `sleep 47.${process.pid}1`;
const running = () => execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').some((line) => line.includes(marker));

afterEach(() => {
  liveness.pretendAlive = false;
});

describe('when a kill cannot be confirmed it returns outcome_unknown and leaves no orphan process', () => {
  it('reports outcome_unknown, keeps the group in the table, and dispose still ends it', async () => {
    // The process-group path: the cgroup path has its own test in cgroup-outcome-unknown.test.ts.
    const backend = new PipeProcessBackend({ containment: 'process_group' });
    const controller = new AbortController();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const result = backend.run({ argv: ['bash', '--noprofile', '--norc', '-c', `echo started; ${marker}`], cwd: tmpdir(), env, signal: controller.signal, killGraceMs: 100 });
    await vi.waitFor(() => expect(running()).toBe(true), { timeout: 5_000 });
    liveness.pretendAlive = true;
    controller.abort(new CallAborted('cancelled'));
    const exit = await result;
    expect(exit.status).toBe('outcome_unknown');
    expect(exit.stdout.text).toBe('started\n');
    expect(backend.liveGroups()).toHaveLength(1);
    liveness.pretendAlive = false;
    await backend.dispose();
    expect(backend.liveGroups()).toEqual([]);
    expect(running()).toBe(false);
  }, 20_000);
});
