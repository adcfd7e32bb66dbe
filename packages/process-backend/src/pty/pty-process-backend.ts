import type { Availability, ProcessBackend, ProcessExit, SpawnRequest } from '../process-backend.ts';
import { ProcessTable } from '../shared/process-table.ts';
import { runSupervised, type SupervisorDefaults } from '../shared/supervise.ts';
import { loadNodePty } from './load-node-pty.ts';
import { startPtyChild } from './start-pty-child.ts';
import { spawnFailed } from '../shared/spawn-failed.ts';

export interface PtyProcessBackendOptions {
  /** Between TERM and KILL when a request gives none; default 2000 ms. */
  readonly killGraceMs?: number;
  /** How long output is drained after the leader exits when a request gives none; default 2000 ms. */
  readonly drainMs?: number;
}

/**
 * Commands on a pseudo-terminal (node-pty, 200×50), for programs that behave
 * differently without one. stdout and stderr arrive as one stream, reported
 * as stdout; input is closed with an end-of-file at the start.
 */
export class PtyProcessBackend implements ProcessBackend {
  readonly name = 'pty';
  readonly #table = new ProcessTable();
  readonly #defaults: SupervisorDefaults;

  constructor(options: PtyProcessBackendOptions = {}) {
    this.#defaults = { killGraceMs: options.killGraceMs ?? 2_000, drainMs: options.drainMs ?? 2_000 };
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

  run(request: SpawnRequest): Promise<ProcessExit> {
    return runSupervised(request, this.#table, this.#defaults, async (sinks) => {
      const pty = await loadNodePty().catch((error: unknown) => {
        throw spawnFailed(request, `node-pty is not available (${error instanceof Error ? error.message : String(error)})`, error);
      });
      return startPtyChild(pty, request, sinks);
    });
  }

  liveGroups(): readonly number[] {
    return this.#table.list();
  }

  dispose(): Promise<void> {
    return this.#table.dispose({ graceMs: this.#defaults.killGraceMs });
  }
}
