import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { TurnScope, type ToolProgress, type ToolResult } from '@openwork/tool-contract';
import type { CliOptions } from './args.ts';
import { appendArtifacts } from './journal.ts';
import { authorizer } from './permissions.ts';
import { NO_TERMINAL, terminalAsk } from './prompt.ts';
import { createSession } from './session.ts';
import { finalizeFor } from './toolset.ts';
import { UsageError } from './usage-error.ts';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  readonly interactive: boolean;
}

async function readInput(options: CliOptions, io: CommandIo): Promise<unknown> {
  const [, given] = options.positionals;
  if (options.positionals.length > 2) throw new UsageError('call takes a tool name and at most one INPUT');
  const text = given === undefined || given === '-' ? await io.readStdin() : given;
  const trimmed = text.trim();
  if (trimmed === '' && given === undefined) return {};
  try {
    return JSON.parse(trimmed) as unknown;
  } catch (error) {
    throw new UsageError(`INPUT is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Which signal ended the command, for the exit status 130 / 143. */
export interface SignalWatch {
  readonly received: () => NodeJS.Signals | undefined;
  readonly stop: () => void;
}

function watchSignals(turn: TurnScope): SignalWatch {
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    received ??= signal;
    turn.cancel(`${signal} received`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    received: () => received,
    stop: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** `openwork-tools call TOOL [INPUT|-]`: one call, one result, exit status from it (CONTRACT.md §4). */
export async function callCommand(options: CliOptions, io: CommandIo): Promise<number> {
  const [name] = options.positionals;
  if (name === undefined) throw new UsageError('call needs a tool name, e.g. openwork-tools call read \'{"path":"README.md"}\'');
  const input = await readInput(options, io);
  const session = await createSession(options);
  const toolset = finalizeFor(session, options.mode);
  const turn = new TurnScope();
  const signals = watchSignals(turn);
  const progress = options.progress ? (event: ToolProgress) => io.stderr(`${JSON.stringify(event)}\n`) : undefined;
  const active = turn.startCall({
    callId: randomUUID(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(progress ? { progress } : {}),
  });
  let result: ToolResult;
  try {
    result = await toolset.call(name, input, active.context, {
      authorize: authorizer({
        mode: options.mode,
        paths: session.paths,
        ask: terminalAsk({ yes: options.yes, interactive: io.interactive }),
        refusalNote: NO_TERMINAL,
      }),
    });
  } finally {
    active.end();
    signals.stop();
    // seed §5: no child outlives the command.
    await session.processes.dispose();
  }
  if (options.artifacts !== undefined) await appendArtifacts(resolve(options.artifacts), result.artifacts);
  io.stdout(options.json ? `${JSON.stringify(result)}\n` : `${result.output}\n`);
  const received = signals.received();
  if (received === 'SIGINT') return 130;
  if (received === 'SIGTERM') return 143;
  return result.status === 'ok' ? 0 : 1;
}
