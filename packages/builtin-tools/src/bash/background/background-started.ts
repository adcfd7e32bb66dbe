import { ToolError } from '@openwork/tool-contract';
import type { BuiltinSession } from '../../session.ts';
import type { BashData } from '../bash.ts';
import type { BackgroundCommand } from './background-command.ts';
import type { UnreadText } from './unread-output.ts';

/** Refuses `tty` without `runInBackground`, and `runInBackground` where no session outlives the call. */
export function checkBackgroundInput(input: { readonly runInBackground?: boolean; readonly tty?: boolean }, session: BuiltinSession): void {
  if (input.tty === true && input.runInBackground !== true) {
    throw new ToolError('invalid_input', 'tty needs runInBackground: a terminal command runs in the background and takes input through bash_write; add "runInBackground": true');
  }
  if (input.runInBackground === true && session.background === undefined) {
    throw new ToolError(
      'invalid_input',
      'runInBackground needs a session that outlives the call (the MCP server, or a library session with background commands); a one-shot call ends with its command: leave runInBackground out',
    );
  }
}

function captured(unread: UnreadText): BashData['stdout'] {
  return { text: unread.text, totalBytes: unread.bytes, omittedBytes: unread.droppedBytes, truncated: unread.droppedBytes > 0 };
}

/** The result of a start: `running`, the id, and what the command printed in its first moments. */
export async function backgroundStarted(session: BuiltinSession, entry: BackgroundCommand): Promise<{ readonly data: BashData; readonly output: string }> {
  const backend = entry.terminal ? await session.background?.terminal() : session.processes;
  const containment = (await backend?.containment().catch(() => undefined))?.kind ?? 'process_group';
  const read = entry.read();
  const data: BashData = {
    status: 'running',
    backgroundId: entry.id,
    exitCode: null,
    signal: null,
    stdout: captured(read.stdout),
    stderr: captured(read.stderr),
    durationMs: Date.now() - entry.startedAt,
    containment,
    processesEndedAfterExit: 0,
  };
  const lines = [
    `Started in the background as ${entry.id}${entry.terminal ? ', on a terminal' : ''}. Read its output with bash_output {"backgroundId":"${entry.id}"}${entry.terminal ? ', type into it with bash_write' : ''}, end it with bash_kill.`,
  ];
  if (read.stdout.bytes > 0) lines.push('<stdout>', read.stdout.text.replace(/\n$/, ''), '</stdout>');
  if (read.stderr.bytes > 0) lines.push('<stderr>', read.stderr.text.replace(/\n$/, ''), '</stderr>');
  return { data, output: lines.join('\n') };
}
