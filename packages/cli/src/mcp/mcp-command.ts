import { resolve } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CliOptions } from '../args.ts';
import type { CommandIo } from '../call-command.ts';
import { ENDING_SIGNALS, EXIT_STATUS, type EndingSignal } from '../ending-signals.ts';
import { createArtifactJournal, withArtifactJournal } from '../journal.ts';
import { authorizer, sessionPolicy } from '../permissions.ts';
import { terminalAsk } from '../prompt.ts';
import { createSession } from '../session.ts';
import { finalizeFor } from '../toolset.ts';
import { UsageError } from '../usage-error.ts';
import { VERSION } from '../version.ts';
import { createToolServer } from './tool-server.ts';

/** Why an ask became a denial: stdin is the protocol, so nobody can be asked. */
export const MCP_CANNOT_ASK = 'the MCP server cannot ask; restart it with --yes, or with --mode acceptEdits for file edits';

/** How long a cancelled call may take to end before its processes are disposed anyway. */
const SETTLE_MS = 5_000;

/** `client`: stdin closed or stdout broke (EPIPE), so nobody is listening any more. */
type Ending = 'client' | EndingSignal;

interface EndWatch {
  readonly ended: Promise<Ending>;
  readonly stop: () => void;
}

/** The server ends when the client goes away (stdin closes, stdout breaks) or on SIGINT / SIGTERM / SIGHUP. */
function watchEnd(server: Server): EndWatch {
  let finish: (ending: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => (finish = resolve));
  const onClient = () => finish('client');
  const signals = ENDING_SIGNALS.map((signal) => {
    const onSignal = () => finish(signal);
    process.on(signal, onSignal);
    return () => process.off(signal, onSignal);
  });
  process.stdin.on('end', onClient);
  process.stdin.on('close', onClient);
  // A closed stdout (EPIPE) is the client gone, not a crash with a stack trace.
  process.stdout.on('error', onClient);
  server.onclose = onClient;
  return {
    ended,
    stop: () => {
      process.stdin.off('end', onClient);
      process.stdin.off('close', onClient);
      process.stdout.off('error', onClient);
      signals.forEach((off) => off());
    },
  };
}

async function settleWithin(settled: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * `openwork-tools mcp`: serves the finalized toolset over MCP on stdio
 * (CONTRACT.md §4) until stdin closes or a signal arrives; then every call
 * is cancelled and no child process outlives the server (seed §5).
 */
export async function mcpCommand(options: CliOptions, io: CommandIo): Promise<number> {
  if (options.positionals.length > 0) throw new UsageError('mcp takes no positional arguments');
  // With --artifacts, write and edit record each change (and its original) before they make it.
  const journal = options.artifacts === undefined ? undefined : createArtifactJournal(resolve(options.artifacts));
  const session = withArtifactJournal(await createSession(options), journal);
  const toolset = finalizeFor(session, options.mode);
  const { server, settled } = createToolServer({
    toolset,
    // Reuses the command line's policy; an ask is approved only by --yes.
    authorize: authorizer({
      mode: options.mode,
      ...sessionPolicy(session),
      ask: terminalAsk({ yes: options.yes, interactive: false }),
      refusalNote: MCP_CANNOT_ASK,
    }),
    version: VERSION,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(journal === undefined ? {} : { onResult: (result) => journal.appendUnrecorded(result.artifacts) }),
    log: io.stderr,
  });
  const watch = watchEnd(server);
  let ending: Ending;
  try {
    await server.connect(new StdioServerTransport());
    ending = await watch.ended;
  } finally {
    // Closing aborts every running call's signal; then the process table is emptied.
    await server.close();
    await settleWithin(settled(), SETTLE_MS);
    await session.processes.dispose();
    watch.stop();
  }
  return ending === 'client' ? 0 : EXIT_STATUS[ending];
}
