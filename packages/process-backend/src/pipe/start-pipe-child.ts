import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { SpawnRequest } from '../process-backend.ts';
import { preflight } from '../common/preflight.ts';
import { spawnFailed } from '../common/spawn-failed.ts';
import type { LeaderExit, OutputSinks, StartedChild } from '../common/started-child.ts';

/**
 * Spawns the command detached (setsid: the child leads a new process group,
 * pgid = pid), stdin closed, and drains both pipes into the sinks from the
 * first byte (docs/design.md §9 bash: drain continuously so the child never blocks).
 * `argv` is the request's, or the cgroup shim in front of it: then the
 * shim's shell would find a missing program only after the spawn, so the
 * program and working directory are checked first, as the pty backend does.
 */
export async function startPipeChild(request: SpawnRequest, sinks: OutputSinks, argv: readonly string[]): Promise<StartedChild> {
  if (argv !== request.argv) await preflight(request);
  return spawnPiped(request, sinks, argv);
}

function spawnPiped(request: SpawnRequest, sinks: OutputSinks, argv: readonly string[]): Promise<StartedChild> {
  const [program = '', ...args] = argv;
  let child: ChildProcess;
  try {
    child = spawn(program, args, { cwd: request.cwd, env: { ...request.env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return Promise.reject(spawnFailed(request, describe(error), error));
  }
  const stdout = child.stdout;
  const stderr = child.stderr;
  if (!stdout || !stderr) return Promise.reject(new Error('spawn gave no pipes although stdio asked for them'));
  const onStdout = (chunk: Buffer) => sinks.stdout.push(chunk);
  const onStderr = (chunk: Buffer) => sinks.stderr.push(chunk);
  stdout.on('data', onStdout);
  stderr.on('data', onStderr);
  // A read error ends that stream's drain (see `closed`); it must not crash the process.
  stdout.on('error', ignore);
  stderr.on('error', ignore);
  let onExit: (code: number | null, signal: NodeJS.Signals | null) => void = ignore;
  const exited = new Promise<LeaderExit>((resolve) => {
    onExit = (code, signal) => resolve({ exitCode: code, signal });
    child.once('exit', onExit);
  });
  return new Promise((resolve, reject) => {
    const onSpawn = () => {
      child.removeListener('error', onSpawnError);
      child.on('error', ignore);
      const pid = child.pid;
      if (pid === undefined) {
        reject(new Error('spawn succeeded without a pid'));
        return;
      }
      resolve({
        pid,
        exited,
        drained: Promise.all([closed(stdout), closed(stderr)]).then(() => undefined),
        release: () => {
          stdout.removeListener('data', onStdout);
          stderr.removeListener('data', onStderr);
          stdout.destroy();
          stderr.destroy();
          stdout.removeListener('error', ignore);
          stderr.removeListener('error', ignore);
          child.removeListener('error', ignore);
          child.removeListener('exit', onExit);
        },
      });
    };
    const onSpawnError = (error: Error) => {
      child.removeListener('spawn', onSpawn);
      child.removeListener('exit', onExit);
      stdout.removeListener('data', onStdout);
      stderr.removeListener('data', onStderr);
      stdout.destroy();
      stderr.destroy();
      reject(spawnFailed(request, describe(error), error));
    };
    child.once('spawn', onSpawn);
    child.once('error', onSpawnError);
  });
}

/** Errors from a child after it started (a failed kill) are handled by the group path, not here. */
function ignore(): void {}

function closed(stream: Readable): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('close', () => resolve());
    stream.once('error', () => resolve());
  });
}

function describe(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return `${error.code} (${error.message})`;
  return error instanceof Error ? error.message : String(error);
}
