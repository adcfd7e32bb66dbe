import { abortKind, ToolError } from '@openwork/tool-contract';
import type { ProcessExit, ProcessStatus, SpawnRequest } from '../process-backend.ts';
import type { CommandContainer } from './command-container.ts';
import { OutputSink } from './output-sink.ts';
import { makeScratchDirectory, scratchEnvironment, withScratchDirectory } from './scratch-directory.ts';
import type { ProcessTable } from './process-table.ts';
import { spawnFailed } from './spawn-failed.ts';
import type { LeaderExit, StartChild, StartedChild } from './started-child.ts';
import type { GroupFate } from './terminate-group.ts';
import { within } from './wait.ts';

export interface SupervisorDefaults {
  readonly killGraceMs: number;
  readonly drainMs: number;
}

/** How long the leader's exit may take to be reported once its group is confirmed gone. */
const EXIT_NOTICE_MS = 1_000;

/** Makes the container of the command (a cgroup, or the process group alone). */
export type PrepareContainer = () => Promise<CommandContainer>;

/**
 * One command from spawn to result, shared by the pipe and pty backends:
 * the command is registered, output drained, and everything it started
 * ended on abort or when the leader leaves processes behind (docs/design.md §9 bash: a
 * foreground command leaves no background job). The container decides what
 * "everything" reaches: the cgroup, or only the process group.
 */
export async function runSupervised(
  request: SpawnRequest,
  table: ProcessTable,
  defaults: SupervisorDefaults,
  prepare: PrepareContainer,
  start: StartChild,
): Promise<ProcessExit> {
  if (table.disposed) {
    throw new ToolError('spawn_failed', 'The process backend has been disposed; start a new session to run commands.');
  }
  if (request.argv.length === 0 || request.argv[0] === '') {
    throw new ToolError('spawn_failed', 'No program was given; pass the command as argv, program first.');
  }
  const startedAt = Date.now();
  const stop = new AbortController();
  const run = (async () => {
    const sinks = {
      stdout: new OutputSink(request.capture, request.onStdout),
      stderr: new OutputSink(request.capture, request.onStderr),
    };
    let container = await prepare();
    let env = request.env;
    if (request.scratchDirectory === true) {
      const scratch = await makeScratchDirectory().catch(async (error: unknown) => {
        await container.release();
        throw spawnFailed(request, `its scratch directory could not be made (${error instanceof Error ? error.message : String(error)})`, error);
      });
      container = withScratchDirectory(container, scratch);
      env = { ...request.env, ...scratchEnvironment(scratch) };
    }
    let child: StartedChild;
    try {
      child = await start(sinks, container.argv, env);
    } catch (error) {
      await container.release();
      throw error;
    }
    table.add(child.pid, container);
    // docs/design.md §5: a cancel that comes at once must still reach everything, so the container knows where the leader is first.
    await container.settle(child.pid, child.exited);
    const supervision = new Supervision(child, container, request, stop.signal, {
      killGraceMs: request.killGraceMs ?? defaults.killGraceMs,
      drainMs: request.drainMs ?? defaults.drainMs,
    });
    const { status, exit, fate, processesEnded } = await supervision.finish();
    // Read before the release: the counters go with the cgroup.
    const limitHit = await container.limitHit();
    if (fate === 'gone' && (await container.release())) table.remove(child.pid);
    const unplaced = container.placementFailure(exit, sinks.stderr.start() + sinks.stdout.start());
    if (unplaced !== undefined) throw spawnFailed(request, `it could not join its cgroup (writing ${unplaced} failed), so it was not run`);
    return {
      status,
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
      stdout: sinks.stdout.finish(),
      stderr: sinks.stderr.finish(),
      durationMs: Date.now() - startedAt,
      containment: container.kind,
      ...(limitHit !== undefined ? { limitHit } : {}),
      processesEndedAfterExit: processesEnded,
    } satisfies ProcessExit;
  })();
  table.track(stop, run);
  return run;
}

interface Ending {
  readonly status: ProcessStatus;
  readonly exit: LeaderExit | undefined;
  readonly fate: GroupFate;
  readonly processesEnded: number;
}

class Supervision {
  readonly #child: StartedChild;
  readonly #container: CommandContainer;
  readonly #request: SpawnRequest;
  readonly #stop: AbortSignal;
  readonly #options: SupervisorDefaults;

  constructor(child: StartedChild, container: CommandContainer, request: SpawnRequest, stop: AbortSignal, options: SupervisorDefaults) {
    this.#child = child;
    this.#container = container;
    this.#request = request;
    this.#stop = stop;
    this.#options = options;
  }

  async finish(): Promise<Ending> {
    const aborted = new AbortController();
    const onAbort = () => aborted.abort();
    this.#request.signal.addEventListener('abort', onAbort, { once: true });
    this.#stop.addEventListener('abort', onAbort, { once: true });
    if (this.#request.signal.aborted || this.#stop.aborted) onAbort();
    try {
      const ending = await this.#end(aborted.signal);
      // docs/design.md §9 bash: drain after the exit, but only for a bounded time; an escaped writer cannot hold the call.
      // A cancel during the drain of a finished command cuts the drain short.
      const drained = ending.status === 'exited' ? Promise.race([this.#child.drained, abortedPromise(aborted.signal)]) : this.#child.drained;
      await within(drained, this.#options.drainMs);
      return ending;
    } finally {
      this.#request.signal.removeEventListener('abort', onAbort);
      this.#stop.removeEventListener('abort', onAbort);
      aborted.abort();
      this.#child.release();
    }
  }

  async #end(aborted: AbortSignal): Promise<Ending> {
    const graceMs = this.#options.killGraceMs;
    const first = await Promise.race([this.#child.exited, abortedPromise(aborted).then(() => 'abort' as const)]);
    if (first === 'abort') {
      // docs/design.md §5: timeout and cancel take the same path; only the status differs.
      const status: ProcessStatus = abortKind(this.#request.signal) ?? 'cancelled';
      const ended = await this.#container.end(this.#child.pid, { graceMs });
      const exit = ended.fate === 'gone' ? await within(this.#child.exited, EXIT_NOTICE_MS) : undefined;
      return { status: ended.fate === 'gone' ? status : 'outcome_unknown', exit, ...ended };
    }
    // docs/design.md §9 bash: what the leader left behind (a daemon, a `setsid` child) ends with it.
    const ended = (await this.#container.occupied(this.#child.pid)) ? await this.#container.end(this.#child.pid, { graceMs }) : { fate: 'gone' as const, processesEnded: 0 };
    // docs/design.md §5: a kill that cannot be confirmed is reported, never hidden.
    return { status: ended.fate === 'gone' ? 'exited' : 'outcome_unknown', exit: first, ...ended };
  }
}

/** Resolves when the signal aborts; the listener goes with it (every caller aborts the signal at the end). */
function abortedPromise(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
