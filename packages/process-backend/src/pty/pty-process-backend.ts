import { ContainmentHost } from '../cgroup/containment-host.ts';
import type { ContainmentOptions, ContainmentReport } from '../containment.ts';
import type { Availability, ProcessBackend, ProcessExit, SpawnRequest } from '../process-backend.ts';
import { ProcessTable } from '../common/process-table.ts';
import { runSupervised, type SupervisorDefaults } from '../common/supervise.ts';
import { loadNodePty } from './load-node-pty.ts';
import { startPtyChild } from './start-pty-child.ts';
import { spawnFailed } from '../common/spawn-failed.ts';

export interface PtyProcessBackendOptions extends ContainmentOptions {
  /** Between TERM and KILL when a request gives none; default 2000 ms. */
  readonly killGraceMs?: number;
  /** How long output is drained after the leader exits when a request gives none; default 2000 ms. */
  readonly drainMs?: number;
}

/**
 * Commands on a pseudo-terminal (node-pty, 200×50), for programs that behave
 * differently without one. stdout and stderr arrive as one stream, reported
 * as stdout; input is closed with an end-of-file at the start. Contained
 * like the pipe backend's commands: own process group, own cgroup where the
 * host allows.
 */
export class PtyProcessBackend implements ProcessBackend {
  readonly name = 'pty';
  readonly #table = new ProcessTable();
  readonly #defaults: SupervisorDefaults;
  readonly #containment: ContainmentHost;

  constructor(options: PtyProcessBackendOptions = {}) {
    this.#defaults = { killGraceMs: options.killGraceMs ?? 2_000, drainMs: options.drainMs ?? 2_000 };
    this.#containment = new ContainmentHost(options);
  }

  async availability(): Promise<Availability> {
    try {
      await loadNodePty();
      return { available: true };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { available: false, reason: `node-pty could not be loaded (${message}); use the pipe backend.` };
    }
  }

  containment(): Promise<ContainmentReport> {
    return this.#containment.report();
  }

  run(request: SpawnRequest): Promise<ProcessExit> {
    return runSupervised(
      request,
      this.#table,
      this.#defaults,
      () => this.#containment.prepare(request),
      async (sinks, argv, env) => {
        const pty = await loadNodePty().catch((error: unknown) => {
          throw spawnFailed(request, `node-pty is not available (${error instanceof Error ? error.message : String(error)})`, error);
        });
        return startPtyChild(pty, { ...request, env }, sinks, argv);
      },
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
