import { spawn } from 'node:child_process';
import { abortKind, ToolError } from '@openwork/tool-contract';
import { BoundedCapture, ChunkDecoder } from '../capture.ts';
import { terminateGroup } from '../group.ts';
import type { Availability, ProcessBackend, ProcessExit, ProcessStatus, SpawnRequest } from '../process-backend.ts';

export interface PipeProcessBackendOptions {
  readonly killGraceMs?: number;
  readonly drainMs?: number;
}

/** Commands over pipes (child_process), each in its own process group, stdin /dev/null. */
export class PipeProcessBackend implements ProcessBackend {
  readonly name = 'pipe';
  readonly #groups = new Set<number>();
  readonly #options: PipeProcessBackendOptions;

  constructor(options: PipeProcessBackendOptions = {}) {
    this.#options = options;
  }

  availability(): Promise<Availability> {
    return Promise.resolve({ available: true });
  }

  liveGroups(): readonly number[] {
    return [...this.#groups];
  }

  async dispose(): Promise<void> {
    const grace = this.#options.killGraceMs ?? 2000;
    await Promise.all(
      [...this.#groups].map(async (pgid) => {
        if (await terminateGroup(pgid, grace)) this.#groups.delete(pgid);
      }),
    );
  }

  async run(request: SpawnRequest): Promise<ProcessExit> {
    const started = Date.now();
    const grace = request.killGraceMs ?? this.#options.killGraceMs ?? 2000;
    const drainMs = request.drainMs ?? this.#options.drainMs ?? 2000;
    const [program, ...args] = request.argv;
    if (program === undefined) throw new TypeError('argv needs a program');
    const child = spawn(program, args, { cwd: request.cwd, env: { ...request.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => reject(new ToolError('spawn_failed', `could not start ${program} in ${request.cwd}: ${error.message}`)));
    });
    const pgid = child.pid ?? 0;
    this.#groups.add(pgid);
    const streams = [
      { stream: child.stdout, capture: new BoundedCapture(request.capture), decoder: new ChunkDecoder(), sink: request.onStdout },
      { stream: child.stderr, capture: new BoundedCapture(request.capture), decoder: new ChunkDecoder(), sink: request.onStderr },
    ];
    const drained = streams.map(
      ({ stream, capture, decoder, sink }) =>
        new Promise<void>((resolve) => {
          stream.on('data', (chunk: Buffer) => {
            capture.write(chunk);
            const text = decoder.write(chunk);
            if (sink && text !== '') {
              try {
                sink(text);
              } catch {
                // A failing observer never changes the capture.
              }
            }
          });
          stream.once('close', resolve);
          stream.once('error', () => resolve());
        }),
    );
    let aborted: ProcessStatus | undefined;
    let termination: Promise<boolean> | undefined;
    const onAbort = () => {
      aborted ??= abortKind(request.signal) ?? 'cancelled';
      termination ??= terminateGroup(pgid, grace);
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    if (request.signal.aborted) onAbort();
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    request.signal.removeEventListener('abort', onAbort);
    // The end of a command is the leader's exit; the rest of its group goes too.
    termination ??= terminateGroup(pgid, grace);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(drained), new Promise<void>((resolve) => (timer = setTimeout(resolve, drainMs)))]);
    clearTimeout(timer);
    child.stdout.destroy();
    child.stderr.destroy();
    const gone = await termination;
    if (gone) this.#groups.delete(pgid);
    const status: ProcessStatus = !gone ? 'outcome_unknown' : (aborted ?? 'exited');
    return {
      status,
      exitCode: exit.code,
      signal: exit.signal,
      stdout: streams[0]!.capture.result(),
      stderr: streams[1]!.capture.result(),
      durationMs: Date.now() - started,
    };
  }
}
