import { detectContainment } from '@openwork/process-backend/cgroup';
import { describe, expect, it } from 'vitest';
import { runCommand, runInProcess } from './command.ts';

// The report as the command prints it, in-process; containment detection reads the host either way.
const run = (args: string[]) => runInProcess(args, { cwd: process.cwd() });

describe('openwork-tools doctor', () => {
  it('says which containment bash gets on this host, as detection finds it', async () => {
    const expected = await detectContainment();
    const json = await run(['doctor', '--json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      containment: { kind: string; reason: string; memory?: { sessionBytes: number; commandBytes: number } };
      directoryHandles: { mode: string };
      pty: { available: boolean };
    };
    expect(report.containment.kind).toBe(expected.kind);
    expect(report.containment.reason.startsWith(expected.reason)).toBe(true);
    // The memory caps, or why there are none: a visible fallback.
    if (expected.kind === 'cgroup' && expected.limits.memory) {
      expect(report.containment.memory?.commandBytes).toBeLessThanOrEqual(report.containment.memory?.sessionBytes ?? 0);
      expect(report.containment.reason).toContain(`${report.containment.memory?.sessionBytes} bytes for all commands together`);
    } else {
      expect(report.containment.memory).toBeUndefined();
      expect(report.containment.reason).toMatch(/no memory|process group/);
    }
    expect(['handles', 'paths']).toContain(report.directoryHandles.mode);
    const text = await run(['doctor']);
    expect(text.stdout).toContain(`bash containment: ${expected.kind === 'cgroup' ? 'cgroup' : 'process_group'}`);
    // A started command is a process of its own, in its own place in the cgroup tree: it finds the same.
    const started = await runCommand(['doctor', '--json']);
    expect(started.code).toBe(0);
    expect((JSON.parse(started.stdout) as { containment: { kind: string } }).containment.kind).toBe(expected.kind);
  });

  it('takes no positional arguments', async () => {
    expect((await run(['doctor', 'extra'])).code).toBe(2);
  });
});
