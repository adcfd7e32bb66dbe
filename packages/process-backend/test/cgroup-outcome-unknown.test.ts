import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { CallAborted } from '@openwork/tool-contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PipeProcessBackend } from '../src/pipe/index.ts';
import type * as CgroupKill from '../src/cgroup/cgroup-kill.ts';
import { eventually, killLeftovers, pidsWithMarker, uniqueSleep } from '../src/contract-suite/contract-helpers.ts';

/**
 * A cgroup the backend cannot empty: the kill is made to find the members
 * still there (as for a process stuck in the kernel) and sends nothing.
 */
const stuck = vi.hoisted(() => ({ pretend: false }));
vi.mock('../src/cgroup/cgroup-kill.ts', async (importOriginal) => {
  const original = await importOriginal<typeof CgroupKill>();
  return {
    ...original,
    signalMembers: async (...args: Parameters<typeof original.signalMembers>) => (stuck.pretend ? [] : original.signalMembers(...args)),
    emptied: async (...args: Parameters<typeof original.emptied>) => (stuck.pretend ? false : original.emptied(...args)),
    killMembers: async (...args: Parameters<typeof original.killMembers>) => (stuck.pretend ? false : original.killMembers(...args)),
  };
});

afterEach(() => {
  stuck.pretend = false;
});

describe('a cgroup whose end cannot be confirmed', () => {
  it('reports outcome_unknown, keeps the command listed, and dispose still ends and removes it', async ({ skip }) => {
    const backend = new PipeProcessBackend({ killGraceMs: 100 });
    const report = await backend.containment();
    if (report.kind !== 'cgroup') skip(`no usable cgroup on this host: ${report.reason}`);
    const marker = uniqueSleep(47);
    const controller = new AbortController();
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
    try {
      const result = backend.run({ argv: ['bash', '--noprofile', '--norc', '-c', `echo started; sleep ${marker}; :`], cwd: tmpdir(), env, signal: controller.signal });
      await eventually(() => pidsWithMarker(marker).length > 1, 5_000, 'the command');
      stuck.pretend = true;
      controller.abort(new CallAborted('cancelled'));
      const exit = await result;
      expect(exit).toMatchObject({ status: 'outcome_unknown', containment: 'cgroup' });
      expect(backend.liveGroups()).toHaveLength(1);
      stuck.pretend = false;
      await backend.dispose();
      expect(backend.liveGroups()).toEqual([]);
      expect(pidsWithMarker(marker)).toEqual([]);
      const parent = report.kind === 'cgroup' ? (report.parents.unified ?? report.parents.pids ?? '') : '';
      expect(readdirSync(parent).filter((name) => name.startsWith(`openwork-${process.pid}-`))).toEqual([]);
    } finally {
      killLeftovers(marker);
    }
  }, 20_000);
});
