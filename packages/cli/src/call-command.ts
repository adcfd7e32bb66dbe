import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { authorizer, sessionPolicy } from '@openwork/permission-policy';
import { TurnScope, type ToolProgress, type ToolResult } from '@openwork/tool-contract';
import type { CliOptions } from './args.ts';
import { ENDING_SIGNALS, EXIT_STATUS, type EndingSignal } from './ending-signals.ts';
import { createArtifactJournal, withArtifactJournal } from './journal.ts';
import { checkJournalPath } from './journal-file.ts';
import { sessionRules } from './folder-trust.ts';
import { approvalHint } from './approval-hint.ts';
import { terminalAsk, terminalQuestion } from './prompt.ts';
import { createSession } from './session.ts';
import { exampleCall, exampleInput } from './tool-help.ts';
import { finalizeFor } from './toolset.ts';
import { UsageError } from './usage-error.ts';
import { userSettingsFile } from './user-settings-file.ts';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  readonly interactive: boolean;
  /** Whether stdin is a terminal: an absent INPUT is then {}, and `-` is typed by a person, who is told so. */
  readonly stdinTerminal?: boolean;
}

async function readInput(options: CliOptions, io: CommandIo): Promise<unknown> {
  const [name = '', given] = options.positionals;
  if (options.positionals.length > 2) throw new UsageError('call takes a tool name and at most one INPUT');
  if (given === undefined && io.stdinTerminal === true) return {};
  // `-` on a terminal waits for a person to type the JSON: a silent wait would look like a hang.
  if (given === '-' && io.stdinTerminal === true) io.stderr(`openwork-tools: reading INPUT for ${name} from the terminal: type a JSON object, then Ctrl-D on a line of its own (e.g. ${exampleInput(name)})\n`);
  const text = given === undefined || given === '-' ? await io.readStdin() : given;
  const trimmed = text.trim();
  if (trimmed === '' && given === undefined) return {};
  try {
    return JSON.parse(trimmed) as unknown;
  } catch (error) {
    const example = exampleCall(name, given === undefined || given === '-' ? undefined : given);
    throw new UsageError(`INPUT is not JSON (${error instanceof Error ? error.message : String(error)}); give a JSON object, e.g. ${example}`);
  }
}

/** Which signal ended the command, for the exit status 130 / 143 / 129. */
export interface SignalWatch {
  readonly received: () => EndingSignal | undefined;
  readonly stop: () => void;
}

function watchSignals(turn: TurnScope): SignalWatch {
  let received: EndingSignal | undefined;
  const handlers = ENDING_SIGNALS.map((signal) => {
    const onSignal = () => {
      received ??= signal;
      turn.cancel(`${signal} received`);
    };
    process.on(signal, onSignal);
    return () => process.off(signal, onSignal);
  });
  return {
    received: () => received,
    stop: () => handlers.forEach((off) => off()),
  };
}

/** `openwork-tools call TOOL [INPUT|-]`: one call, one result, exit status from it (docs/contract.md §4). */
export async function callCommand(options: CliOptions, io: CommandIo): Promise<number> {
  const [name] = options.positionals;
  if (name === undefined) throw new UsageError('call needs a tool name, e.g. openwork-tools call read \'{"path":"README.md"}\'');
  const input = await readInput(options, io);
  // With --artifacts, write and edit record each change (and its original) before they make it.
  const journal = options.artifacts === undefined ? undefined : createArtifactJournal(resolve(options.artifacts));
  // A journal that is a symlink, or reached through one, is refused before anything runs.
  if (journal !== undefined) await checkJournalPath(journal.file);
  const { session: created, host } = await createSession(options);
  // The settings are read once, when the session opens; a file that cannot be read is a usage error.
  const rules = await sessionRules({
    commandLine: options.allow,
    workingDirectory: created.workingDirectory,
    userFile: userSettingsFile(),
    trustProject: options.trustProject,
    // --yes approves asks, never a folder: trusting one outlasts this call.
    question: io.interactive && !options.yes ? terminalQuestion : undefined,
    howToTrust: 'run the command on a terminal, without --yes, to be asked',
    log: io.stderr,
  }).catch(async (error: unknown) => {
    await host.dispose();
    throw error instanceof UsageError ? error : new UsageError(error instanceof Error ? error.message : String(error));
  });
  if (rules.notice !== undefined) io.stderr(`openwork-tools: ${rules.notice}\n`);
  const session = withArtifactJournal(created, journal);
  const toolset = finalizeFor(session, options.mode);
  const turn = new TurnScope();
  const signals = watchSignals(turn);
  const progress = options.progress ? (event: ToolProgress) => io.stderr(`${JSON.stringify(event)}\n`) : undefined;
  const active = turn.startCall({
    callId: randomUUID(),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(progress ? { progress } : {}),
  });
  try {
    let result: ToolResult;
    try {
      result = await toolset.call(name, input, active.context, {
        authorize: authorizer({
          mode: options.mode,
          ...sessionPolicy(session, { gitProcesses: host.gitProcesses }),
          allow: rules.allow,
          deny: rules.deny,
          ...(rules.untrusted === undefined ? {} : { untrusted: rules.untrusted }),
          ask: terminalAsk({ yes: options.yes, interactive: io.interactive }),
          unansweredNote: (ways) => approvalHint(ways, 'no-terminal', userSettingsFile()),
        }),
      });
    } finally {
      active.end();
      // docs/design.md §5: no child outlives the command.
      await host.dispose();
    }
    if (journal !== undefined) {
      await journal.appendUnrecorded(result.artifacts).catch((error: unknown) => {
        io.stderr(`openwork-tools: the artifacts of this call could not be appended to ${journal.file}: ${error instanceof Error ? error.message : String(error)}\n`);
      });
    }
    io.stdout(options.json ? `${JSON.stringify(result)}\n` : `${result.output}\n`);
    // Arguments that do not fit the schema: a call that would, on stderr, so that stdout stays the result.
    if (result.status === 'error' && result.error.kind === 'invalid_input') io.stderr(`openwork-tools: e.g. ${exampleCall(name)}; openwork-tools help ${name} shows the input ${name} takes\n`);
    const received = signals.received();
    if (received !== undefined) return EXIT_STATUS[received];
    return result.status === 'ok' ? 0 : 1;
  } finally {
    // Still watched while the result is printed: a second SIGHUP must not kill the command half way.
    signals.stop();
  }
}
