import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { detectContainment } from '@openwork/process-backend/cgroup';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/openwork-tools.js', import.meta.url));

function run(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('node', [bin, ...args], (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }));
  });
}

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
  });

  it('takes no positional arguments', async () => {
    expect((await run(['doctor', 'extra'])).code).toBe(2);
  });
});
