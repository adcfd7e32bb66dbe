import { ToolError } from '@openwork/tool-contract';
import { DEFAULT_PROCESS_LIMITS, type ContainmentOptions, type ContainmentReport, type ProcessLimits } from '../containment.ts';
import type { SpawnRequest } from '../process-backend.ts';
import { ProcessGroupContainer, type CommandContainer } from '../common/command-container.ts';
import { cleanAbandonedScratch } from '../common/scratch-directory.ts';
import { spawnFailed } from '../common/spawn-failed.ts';
import { describeError } from './cgroup-files.ts';
import { CgroupContainer } from './cgroup-container.ts';
import { cleanAbandonedCgroups } from './clean-abandoned.ts';
import { CommandCgroup } from './command-cgroup.ts';
import { detectContainment } from './detect-containment.ts';
import { memoryBudget } from './memory-budget.ts';
import { SessionCgroup } from './session-cgroup.ts';

/** One backend's view of containment: detected once, then one container per command. */
export class ContainmentHost {
  readonly #options: ContainmentOptions;
  readonly #limits: ProcessLimits;
  #report: Promise<ContainmentReport> | undefined;
  /** The memory cgroup all commands share, made at the first command that needs it. */
  #session: Promise<SessionCgroup> | undefined;
  #disposed = false;

  constructor(options: ContainmentOptions) {
    checkedLimits({ sessionMemoryBytes: options.sessionMemoryBytes });
    this.#options = options;
    this.#limits = { ...DEFAULT_PROCESS_LIMITS, ...definedFields(options.limits) };
  }

  report(): Promise<ContainmentReport> {
    this.#report ??= this.#detect();
    return this.#report;
  }

  /** The container for one command; ToolError `invalid_input` for a bad limit, `spawn_failed` when its cgroup cannot be made. */
  async prepare(request: SpawnRequest): Promise<CommandContainer> {
    const report = await this.report();
    const memoryDefault = report.kind === 'cgroup' && report.memory ? { maxMemoryBytes: report.memory.commandBytes } : {};
    const limits = checkedLimits({ ...this.#limits, ...memoryDefault, ...definedFields(request.limits) });
    if (report.kind !== 'cgroup') return new ProcessGroupContainer(request.argv);
    let cgroup: CommandCgroup;
    try {
      if (this.#disposed) throw new Error('the backend has been disposed');
      const parent = report.memory ? (await this.#sessionCgroup(report, report.memory.sessionBytes)).commands : report;
      cgroup = await CommandCgroup.create(parent, limits);
    } catch (error) {
      // Never run the command uncontained behind the caller's back: the report promised a cgroup.
      throw spawnFailed(request, describeError(error), error);
    }
    return new CgroupContainer(cgroup, request.argv);
  }

  /** Removes the session's memory cgroup once the table has ended every command; false when it could not be. */
  async dispose(): Promise<boolean> {
    this.#disposed = true;
    const session = await this.#session?.catch(() => undefined);
    return session === undefined || (await session.remove());
  }

  #sessionCgroup(report: ContainmentReport & { kind: 'cgroup' }, bytes: number): Promise<SessionCgroup> {
    const made = (this.#session ??= SessionCgroup.create(report, bytes));
    // A failure is not kept: the next command tries again, and says why if it fails too.
    made.catch(() => {
      if (this.#session === made) this.#session = undefined;
    });
    return made;
  }

  async #detect(): Promise<ContainmentReport> {
    // Scratch directories a crashed earlier run left go first, whatever holds the commands.
    if (this.#options.cleanAbandoned !== false) await cleanAbandonedScratch().catch(() => undefined);
    if (this.#options.containment === 'process_group') {
      return { kind: 'process_group', reason: 'process groups were asked for (containment: "process_group")' };
    }
    let report: ContainmentReport;
    try {
      const { cgroupParent } = this.#options;
      report = await detectContainment(cgroupParent === undefined ? {} : { cgroupParent });
    } catch (error) {
      return { kind: 'process_group', reason: `the cgroup detection failed (${describeError(error)}); each command is held by its process group only` };
    }
    // A crashed earlier run's cgroups are ended before this run makes its own; a failure here only leaves them for the next start.
    if (report.kind === 'cgroup' && this.#options.cleanAbandoned !== false) await cleanAbandonedCgroups(report).catch(() => undefined);
    if (report.kind !== 'cgroup') return report;
    if (!report.limits.memory) {
      return /no memory/.test(report.reason) ? report : { ...report, reason: `${report.reason}; no memory limit: these cgroups have no memory controller` };
    }
    const { sessionMemoryBytes: sessionBytes } = this.#options;
    const { maxMemoryBytes: commandBytes } = this.#limits;
    const memory = await memoryBudget(report, { ...(sessionBytes === undefined ? {} : { sessionBytes }), ...(commandBytes === undefined ? {} : { commandBytes }) });
    return { ...report, memory, reason: `${report.reason}; memory: ${memory.sessionBytes} bytes for all commands together, ${memory.commandBytes} for each by default (${memory.reason})` };
  }
}

function definedFields(limits: ProcessLimits | undefined): ProcessLimits {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined));
}

function checkedLimits<T extends Readonly<Record<string, number | undefined>>>(limits: T): T {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) {
      throw new ToolError('invalid_input', `The limit ${name} must be a whole number of at least 1; got ${String(value)}.`);
    }
  }
  return limits;
}
