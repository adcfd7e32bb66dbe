import type { ContainmentReport } from '@openwork/process-backend';
import type { CliOptions } from './args.ts';
import type { CommandIo } from './call-command.ts';
import { createHost } from './session.ts';
import { UsageError } from './usage-error.ts';

/** What this host gives the tools, and why: what a person checks before trusting bash's limits. */
export interface DoctorReport {
  readonly containment: ContainmentReport;
  readonly directoryHandles: { readonly mode: string; readonly reason: string };
  readonly pty: { readonly available: boolean; readonly reason?: string };
}

function describeContainment(report: ContainmentReport): string {
  if (report.kind === 'process_group') return `process_group: each command's process group is ended; a process that leaves it (setsid) can outlive the command (${report.reason})`;
  const limits = [report.limits.processes ? 'processes' : undefined, report.limits.memory ? 'memory' : undefined].filter(Boolean).join(' and ');
  return `cgroup v${report.version}: everything a command starts is ended with it; limits on ${limits === '' ? 'nothing' : limits} (${report.reason})`;
}

/** `openwork-tools doctor [--json]`: which containment, directory handles and terminal backend this host has. */
export async function doctorCommand(options: CliOptions, io: CommandIo): Promise<number> {
  if (options.positionals.length > 0) throw new UsageError('doctor takes no arguments');
  const host = await createHost(options);
  try {
    const [containment, pty] = await Promise.all([host.processes.containment(), ptyAvailability()]);
    const report: DoctorReport = { containment, directoryHandles: host.filesystem.directoryHandles, pty };
    if (options.json) {
      io.stdout(`${JSON.stringify(report)}\n`);
    } else {
      io.stdout(`bash containment: ${describeContainment(containment)}\n`);
      io.stdout(`file system: ${report.directoryHandles.mode === 'handles' ? 'directory handles' : 'paths checked before use'} (${report.directoryHandles.reason})\n`);
      io.stdout(`--pty: ${pty.available ? 'available' : `unavailable (${pty.reason ?? 'unknown'})`}\n`);
    }
    return 0;
  } finally {
    await host.dispose();
  }
}

async function ptyAvailability(): Promise<DoctorReport['pty']> {
  const { PtyProcessBackend } = await import('@openwork/process-backend/pty');
  const backend = new PtyProcessBackend();
  try {
    const availability = await backend.availability();
    return availability.available ? { available: true } : { available: false, reason: availability.reason };
  } finally {
    await backend.dispose();
  }
}
