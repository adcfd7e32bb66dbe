import { ToolError } from '@openwork/tool-contract';
import { DEFAULT_PROCESS_LIMITS, type ContainmentOptions, type ContainmentReport, type ProcessLimits } from '../containment.ts';
import type { SpawnRequest } from '../process-backend.ts';
import { ProcessGroupContainer, type CommandContainer } from '../shared/command-container.ts';
import { spawnFailed } from '../shared/spawn-failed.ts';
import { describeError } from './cgroup-files.ts';
import { CgroupContainer } from './cgroup-container.ts';
import { cleanAbandonedCgroups } from './clean-abandoned.ts';
import { CommandCgroup } from './command-cgroup.ts';
import { detectContainment } from './detect-containment.ts';

/** One backend's view of containment: detected once, then one container per command. */
export class ContainmentHost {
  readonly #options: ContainmentOptions;
  readonly #limits: ProcessLimits;
  #report: Promise<ContainmentReport> | undefined;

  constructor(options: ContainmentOptions) {
    this.#options = options;
    this.#limits = { ...DEFAULT_PROCESS_LIMITS, ...definedFields(options.limits) };
  }

  report(): Promise<ContainmentReport> {
    this.#report ??= this.#detect();
    return this.#report;
  }

  /** The container for one command; ToolError `invalid_input` for a bad limit, `spawn_failed` when its cgroup cannot be made. */
  async prepare(request: SpawnRequest): Promise<CommandContainer> {
    const limits = checkedLimits({ ...this.#limits, ...definedFields(request.limits) });
    const report = await this.report();
    if (report.kind !== 'cgroup') return new ProcessGroupContainer(request.argv);
    let cgroup: CommandCgroup;
    try {
      cgroup = await CommandCgroup.create(report, limits);
    } catch (error) {
      // Never run the command uncontained behind the caller's back: the report promised a cgroup.
      throw spawnFailed(request, describeError(error), error);
    }
    return new CgroupContainer(cgroup, request.argv);
  }

  async #detect(): Promise<ContainmentReport> {
    if (this.#options.containment === 'process_group') {
      return { kind: 'process_group', reason: 'process groups were asked for (containment: "process_group")' };
    }
    let report: ContainmentReport;
    try {
      report = await detectContainment({ cgroupParent: this.#options.cgroupParent });
    } catch (error) {
      return { kind: 'process_group', reason: `the cgroup detection failed (${describeError(error)}); each command is held by its process group only` };
    }
    // A crashed earlier run's cgroups are ended before this run makes its own; a failure here only leaves them for the next start.
    if (report.kind === 'cgroup' && this.#options.cleanAbandoned !== false) await cleanAbandonedCgroups(report).catch(() => undefined);
    return report;
  }
}

function definedFields(limits: ProcessLimits | undefined): ProcessLimits {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, value]) => value !== undefined));
}

function checkedLimits(limits: ProcessLimits): ProcessLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1)) {
      throw new ToolError('invalid_input', `The limit ${name} must be a whole number of at least 1; got ${String(value)}.`);
    }
  }
  return limits;
}
