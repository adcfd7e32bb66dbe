import { posix } from 'node:path';
import { deriveSignal, defineTool, safeProgress, ToolError } from '@openwork/tool-contract';
import type { CapturedOutput, ProcessExit } from '@openwork/process-backend';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { runEnvironment } from './run-environment.ts';
import { BashOutput } from '../common/output-schemas.ts';
import { absoluteOf } from '../common/absolute.ts';
import { backgroundStarted, checkBackgroundInput } from './background/background-started.ts';
import { startBackground } from './background/start-background.ts';
import { recordUndoTargets, undoTargetsBefore } from './undo-targets.ts';

/** A foreground command's `timeoutMs` when none is given. */
export const DEFAULT_TIMEOUT_MS = 120_000;

export const BashInput = Type.Object({
  command: Type.String({ minLength: 1 }),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000, description: `Default ${DEFAULT_TIMEOUT_MS}; in the background, none.` })),
  description: Type.Optional(Type.String({ description: 'A few words on what it does, for the person asked.' })),
  workdir: Type.Optional(
    Type.String({ minLength: 1, description: 'Default: the working directory.' }),
  ),
  runInBackground: Type.Optional(Type.Boolean()),
  tty: Type.Optional(Type.Boolean({ description: 'With runInBackground: on a terminal, for bash_write; always asks.' })),
});

/** The checked directory a command starts in, as the path the process is given. */
async function startDirectory(session: BuiltinSession, workdir: string, signal: AbortSignal): Promise<string> {
  const checked = await session.paths.resolvePath(workdir, 'read', 'must_exist', { signal });
  const info = await session.filesystem.stat(checked, { signal });
  if (info.kind !== 'directory') throw new ToolError('not_a_directory', `workdir ${workdir} is not a directory; give a directory, or leave workdir out to start in the working directory`);
  return absoluteOf(session.paths, checked);
}

/** A command's end, or (`runInBackground`) `status: "running"` with its `backgroundId` and its first output. */
export type BashData = Omit<ProcessExit, 'status'> & { readonly status: ProcessExit['status'] | 'running'; readonly backgroundId?: string };

const DEFAULT_MAX_PROCESSES = 512;

/** The memory limits a command ran under: its own, and the cap all commands of the session share (from the backend's report). */
interface MemoryLimits {
  readonly command?: number;
  readonly session?: number;
}

/** What the model should know beyond the exit: a limit the command ran into, and what it left running. */
function notes(exit: ProcessExit, limits: { maxProcesses: number }, memory: MemoryLimits): string[] {
  const lines: string[] = [];
  if (exit.limitHit === 'processes') lines.push(`The command reached its limit of ${limits.maxProcesses} processes; forks past it failed.`);
  if (exit.limitHit === 'memory') {
    lines.push(`The command was ended for going past its own memory limit${memory.command === undefined ? '' : ` of ${memory.command} bytes`}; use less memory (stream, or work in smaller parts).`);
  }
  if (exit.limitHit === 'session_memory') {
    lines.push(
      `The command was ended because the commands of this session together went past their shared memory limit${memory.session === undefined ? '' : ` of ${memory.session} bytes`}; run fewer or smaller commands at once.`,
    );
  }
  if (exit.status === 'exited' && exit.processesEndedAfterExit > 0) {
    const count = exit.processesEndedAfterExit;
    lines.push(`${count} process${count === 1 ? '' : 'es'} it left running ${count === 1 ? 'was' : 'were'} ended when it exited; commands cannot leave anything running in the background.`);
  }
  return lines;
}

/** The limits to name in a memory note: the request's own, else the backend's default and shared cap. */
async function memoryLimits(session: BuiltinSession, exit: ProcessExit): Promise<MemoryLimits> {
  const own = session.limits.maxMemoryBytes;
  if (exit.limitHit !== 'memory' && exit.limitHit !== 'session_memory') return {};
  const report = await session.processes.containment().catch(() => undefined);
  const caps = report?.kind === 'cgroup' ? report.memory : undefined;
  const command = own ?? caps?.commandBytes;
  const shared = caps?.sessionBytes;
  return { ...(command === undefined ? {} : { command }), ...(shared === undefined ? {} : { session: shared }) };
}

function stream(name: string, output: CapturedOutput): string[] {
  if (output.totalBytes === 0) return [];
  return [`<${name}>`, output.text.replace(/\n$/, ''), `</${name}>`];
}

/** Which deadline ended a command that timed out: its own `timeoutMs`, or the call's, which the host sets and may be the sooner. */
type Deadline = { readonly kind: 'own'; readonly timeoutMs: number } | { readonly kind: 'call' };

function headline(exit: ProcessExit, deadline: Deadline): string {
  const stopped = exit.containment === 'cgroup' ? 'every process it started was stopped' : 'its process group was stopped';
  switch (exit.status) {
    case 'exited':
      return exit.exitCode === null ? `Ended by ${exit.signal ?? 'a signal'}` : `Exit code ${exit.exitCode}`;
    case 'timed_out':
      return deadline.kind === 'own'
        ? `Timed out after ${deadline.timeoutMs / 1000} s; ${stopped}. Output so far:`
        : `Timed out: the call's deadline passed after ${(exit.durationMs / 1000).toFixed(1)} s, before its timeoutMs; ${stopped}. Output so far:`;
    case 'cancelled':
      return `Cancelled; ${stopped}. Output so far:`;
    case 'outcome_unknown':
      return 'The command was stopped, but not every process of its group could be confirmed gone; its effects are unknown.';
  }
}

export const bashTool = defineTool({
  id: 'process/bash',
  name: 'bash',
  description: descriptions.bash,
  risk: 'execute',
  input: BashInput,
  output: BashOutput,
  effect: (input, session: BuiltinSession) => {
    // Refused before anyone is asked: a person should not approve a call that cannot run.
    checkBackgroundInput(input, session);
    return {
      kind: 'execute',
      command: input.command,
      cwd: input.workdir === undefined ? session.workingDirectory : posix.resolve(session.workingDirectory, input.workdir),
      ...(input.tty === true ? { terminal: true } : {}),
    };
  },
  execute: async (session: BuiltinSession, call, input, authorization) => {
    const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // docs/design.md §5: the tool's timeout and the call's cancel end in the same signal.
    const own = deriveSignal(call.signal, Date.now() + timeoutMs);
    const progress = safeProgress(call.progress);
    const limits = {
      maxProcesses: session.limits.maxProcesses ?? DEFAULT_MAX_PROCESSES,
      ...(session.limits.maxMemoryBytes === undefined ? {} : { maxMemoryBytes: session.limits.maxMemoryBytes }),
    };
    // Released on every path, errors before the start included: its timer would otherwise keep a one-shot command alive.
    try {
      const cwd = input.workdir === undefined ? session.workingDirectory : await startDirectory(session, input.workdir, call.signal);
      // A command the classifier let run on its own gets an environment in which nothing the repository configures or keeps runs;
      // one a person approved runs as written.
      const env = await runEnvironment(session, authorization.decision?.verdict === 'allow', call.signal);
      if (input.runInBackground === true) {
        const timeout = input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs };
        const entry = await startBackground(session, { command: input.command, cwd, env, limits, ...timeout, terminal: input.tty === true, signal: call.signal });
        return backgroundStarted(session, entry);
      }
      // docs/contract.md §4.5: what the filesystem gate let the line write is kept first, so undo can restore it.
      const undo = await undoTargetsBefore(session, input.command, cwd, authorization.decision, call.signal);
      const exit = await session.processes.run({
        argv: ['bash', '--noprofile', '--norc', '-c', input.command],
        cwd,
        limits,
        env,
        // Temporary files (sort's runs, mktemp, compilers) go to a directory of the command's own, removed once it has ended.
        scratchDirectory: true,
        signal: own.signal,
        // Decoding for progress costs as much as the capture itself: only when someone listens.
        ...(call.progress === undefined
          ? {}
          : { onStdout: (chunk: string) => progress({ kind: 'stdout', chunk }), onStderr: (chunk: string) => progress({ kind: 'stderr', chunk }) }),
      });
      // The call's own signal aborted first: the host's deadline, not this command's timeoutMs, ended it.
      const deadline: Deadline = exit.status === 'timed_out' && call.signal.aborted ? { kind: 'call' } : { kind: 'own', timeoutMs };
      const lines = [headline(exit, deadline), ...notes(exit, limits, await memoryLimits(session, exit)), ...stream('stdout', exit.stdout), ...stream('stderr', exit.stderr)];
      if (exit.stdout.totalBytes === 0 && exit.stderr.totalBytes === 0) lines.push('(no output)');
      if (undo === undefined) return { data: { ...exit }, output: lines.join('\n') };
      // Recorded whatever ended the command, a cancel included: the files changed either way.
      const recorded = await recordUndoTargets(session, undo, new AbortController().signal);
      if (recorded.notes.length > 0) lines.push(`Not recorded for undo: ${recorded.notes.join(', ')}.`);
      return { data: { ...exit }, output: lines.join('\n'), artifacts: recorded.artifacts };
    } finally {
      own.release();
    }
  },
});
