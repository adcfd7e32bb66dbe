import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isToolError } from '@openwork/tool-contract';
import { describe, expect, it, vi } from 'vitest';
import type * as Shim from '../src/cgroup/placement-shim.ts';
import { PipeProcessBackend } from '../src/pipe/index.ts';
import { PtyProcessBackend } from '../src/pty/index.ts';

/** One more cgroup file that cannot be written, as if the kernel refused the move. */
vi.mock('../src/cgroup/placement-shim.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Shim>();
  return {
    ...original,
    placementShim: (files: readonly string[], argv: readonly string[]) => original.placementShim([...files, '/proc/openwork-no-such-cgroup/cgroup.procs'], argv),
  };
});

describe('a command that cannot join its cgroup', () => {
  for (const [name, make] of [
    ['pipe', () => new PipeProcessBackend()],
    ['pty', () => new PtyProcessBackend()],
  ] as const) {
    it(`${name}: is spawn_failed, never run uncontained, and leaves no cgroup`, async ({ skip }) => {
      const backend = make();
      const report = await backend.containment();
      if (report.kind !== 'cgroup') skip(`no usable cgroup on this host: ${report.reason}`);
      const directory = await mkdtemp(join(tmpdir(), 'placement-'));
      try {
        const ran = join(directory, 'ran');
        const error: unknown = await backend
          .run({ argv: ['touch', ran], cwd: directory, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, signal: new AbortController().signal })
          .catch((caught: unknown) => caught);
        expect(isToolError(error) ? error.kind : error).toBe('spawn_failed');
        expect(isToolError(error) ? error.message : '').toMatch(/could not join its cgroup/);
        expect(existsSync(ran)).toBe(false);
        expect(backend.liveGroups()).toEqual([]);
        const parent = report.kind === 'cgroup' ? (report.parents.unified ?? report.parents.pids ?? '') : '';
        expect(readdirSync(parent).filter((entry) => entry.startsWith(`openwork-${process.pid}-`))).toEqual([]);
      } finally {
        await backend.dispose();
        await rm(directory, { recursive: true, force: true });
      }
    });
  }
});
