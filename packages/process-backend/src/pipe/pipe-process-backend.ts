import { ToolError } from '@openwork/tool-contract';
import { ContainmentHost } from '../cgroup/containment-host.ts';
import type { ContainmentOptions, ContainmentReport } from '../containment.ts';
import type { Availability, ProcessBackend, ProcessExit, SpawnRequest } from '../process-backend.ts';
import { ProcessTable } from '../common/process-table.ts';
import { runSupervised, type SupervisorDefaults } from '../common/supervise.ts';
import { startPipeChild } from './start-pipe-child.ts';

export interface PipeProcessBackendOptions extends ContainmentOptions {
  /** Between TERM and KILL when a request gives none; default 2000 ms. */
  readonly killGraceMs?: number;
  /** How long output is drained after the leader exits when a request gives none; default 2000 ms. */
  readonly drainMs?: number;
}

/**
 * Commands on plain pipes (node:child_process): stdin closed, stdout and
 * stderr captured apart, each command in its own process group and, where
 * the host allows, its own cgroup.
 */
export class PipeProcessBackend implements ProcessBackend {
  readonly name = 'pipe';
  readonly #table = new ProcessTable();
  readonly #defaults: SupervisorDefaults;
  readonly #containment: ContainmentHost;

  constructor(options: PipeProcessBackendOptions = {}) {
    this.#defaults = { killGraceMs: options.killGraceMs ?? 2_000, drainMs: options.drainMs ?? 2_000 };
    this.#containment = new ContainmentHost(options);
  }

  availability(): Promise<Availability> {
    return Promise.resolve({ available: true });
  }

  containment(): Promise<ContainmentReport> {
    return this.#containment.report();
  }

  run(request: SpawnRequest): Promise<ProcessExit> {
    // Pipes have no terminal to type into: a request that expects one is refused, not run with its input silently closed.
    if (request.terminalInput !== undefined) {
      return Promise.reject(new ToolError('invalid_input', 'The pipe backend has no terminal to type into: terminalInput needs the pty backend.'));
    }
    return runSupervised(
      request,
      this.#table,
      this.#defaults,
      () => this.#containment.prepare(request),
      (sinks, argv, env) => startPipeChild({ ...request, env }, sinks, argv),
    );
  }

  liveGroups(): readonly number[] {
    return this.#table.list();
  }

  async dispose(): Promise<void> {
    await this.#table.dispose({ graceMs: this.#defaults.killGraceMs });
    await this.#containment.dispose();
  }
}
