import Type from 'typebox';
import type { BackgroundRead } from './background-command.ts';
import type { UnreadText } from './unread-output.ts';

const Count = Type.Integer({ minimum: 0 });
const Unread = Type.Object({ text: Type.String(), bytes: Count, droppedBytes: Count });

/** The `data` of bash_output and bash_kill (docs/contract.md §3.3). */
export const BackgroundReadOutput = Type.Object({
  backgroundId: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('exited'), Type.Literal('killed'), Type.Literal('timed_out'), Type.Literal('outcome_unknown')]),
  exitCode: Type.Union([Type.Integer(), Type.Null()]),
  signal: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Optional(Type.Number({ minimum: 0 })),
  stdout: Unread,
  stderr: Unread,
});

export interface BackgroundReadData {
  readonly backgroundId: string;
  readonly status: BackgroundRead['status'];
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs?: number;
  readonly stdout: UnreadText;
  readonly stderr: UnreadText;
}

function headline(read: BackgroundRead): string {
  const exit = read.exit;
  const stopped = exit?.containment === 'cgroup' ? 'every process it started was ended' : 'its process group was ended';
  switch (read.status) {
    case 'running':
      return `${read.backgroundId} is running; read more with bash_output, end it with bash_kill.`;
    case 'exited':
      if (exit === undefined) return `${read.backgroundId} could not run.`;
      return exit.exitCode === null ? `${read.backgroundId} ended by ${exit.signal ?? 'a signal'}.` : `${read.backgroundId} exited with code ${exit.exitCode}.`;
    case 'killed':
      return `${read.backgroundId} was killed; ${stopped}.`;
    case 'timed_out':
      return `${read.backgroundId} timed out; ${stopped}.`;
    case 'outcome_unknown':
      return `${read.backgroundId} was stopped, but not every process of its group could be confirmed gone; its effects are unknown.`;
  }
}

function stream(name: string, unread: UnreadText): string[] {
  if (unread.bytes === 0) return [];
  const dropped = unread.droppedBytes === 0 ? [] : [`(${unread.droppedBytes} bytes of ${name} were dropped unread: the buffer keeps the start and the end; read more often or print less)`];
  return [...dropped, `<${name}>`, unread.text.replace(/\n$/, ''), `</${name}>`];
}

/** A read as data and model text. */
export function describeRead(read: BackgroundRead): { readonly data: BackgroundReadData; readonly output: string } {
  const data: BackgroundReadData = {
    backgroundId: read.backgroundId,
    status: read.status,
    exitCode: read.exit?.exitCode ?? null,
    signal: read.exit?.signal ?? null,
    ...(read.exit === undefined ? {} : { durationMs: read.exit.durationMs }),
    stdout: read.stdout,
    stderr: read.stderr,
  };
  const lines = [headline(read), ...stream('stdout', read.stdout), ...stream('stderr', read.stderr)];
  if (read.stdout.bytes === 0 && read.stderr.bytes === 0) lines.push('(no new output)');
  return { data, output: lines.join('\n') };
}
