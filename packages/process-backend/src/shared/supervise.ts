import { abortKind, ToolError } from '@openwork/tool-contract';
import type { ProcessExit, ProcessStatus, SpawnRequest } from '../process-backend.ts';
import { groupAlive } from './group-liveness.ts';
import { OutputSink } from './output-sink.ts';
import type { ProcessTable } from './process-table.ts';
import type { LeaderExit, StartChild, StartedChild } from './started-child.ts';
import { terminateGroup, type GroupFate } from './terminate-group.ts';
import { within } from './wait.ts';

export interface SupervisorDefaults {
  readonly killGraceMs: number;
  readonly drainMs: number;
}

/** How long the leader's exit may take to be reported once its group is confirmed gone. */
const EXIT_NOTICE_MS = 1_000;

/**
 * One command from spawn to result, shared by the pipe and pty backends:
 * the group is registered, output drained, and the group ended on abort or
 * when the leader leaves members behind (seed §9 bash: a foreground command
 * leaves no background job).
 */
export async function runSupervised(
  request: SpawnRequest,
  table: ProcessTable,
  defaults: SupervisorDefaults,
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
    const child = await start(sinks);
    table.add(child.pid);
    const supervision = new Supervision(child, request, stop.signal, {
      killGraceMs: request.killGraceMs ?? defaults.killGraceMs,
      drainMs: request.drainMs ?? defaults.drainMs,
    });
    const { status, exit, fate } = await supervision.finish();
    if (fate === 'gone') table.remove(child.pid);
    return {
      status,
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
      stdout: sinks.stdout.finish(),
      stderr: sinks.stderr.finish(),
      durationMs: Date.now() - startedAt,
    } satisfies ProcessExit;
  })();
  table.track(stop, run);
  return run;
}

interface Ending {
  readonly status: ProcessStatus;
  readonly exit: LeaderExit | undefined;
  readonly fate: GroupFate;
}

class Supervision {
  readonly #child: StartedChild;
  readonly #request: SpawnRequest;
  readonly #stop: AbortSignal;
  readonly #options: SupervisorDefaults;

  constructor(child: StartedChild, request: SpawnRequest, stop: AbortSignal, options: SupervisorDefaults) {
    this.#child = child;
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
      // seed §9 bash: drain after the exit, but only for a bounded time; an escaped writer cannot hold the call.
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
      // seed §5: timeout and cancel take the same path; only the status differs.
      const status: ProcessStatus = abortKind(this.#request.signal) ?? 'cancelled';
      const fate = await terminateGroup(this.#child.pid, { graceMs });
      const exit = fate === 'gone' ? await within(this.#child.exited, EXIT_NOTICE_MS) : undefined;
      return { status: fate === 'gone' ? status : 'outcome_unknown', exit, fate };
    }
    const fate = (await groupAlive(this.#child.pid)) ? await terminateGroup(this.#child.pid, { graceMs }) : 'gone';
    // seed §5: a kill that cannot be confirmed is reported, never hidden.
    return { status: fate === 'gone' ? 'exited' : 'outcome_unknown', exit: first, fate };
  }
}

/** Resolves when the signal aborts; the listener goes with it (every caller aborts the signal at the end). */
function abortedPromise(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
