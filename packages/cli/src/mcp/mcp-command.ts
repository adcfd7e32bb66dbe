import { resolve } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CliOptions } from '../args.ts';
import type { CommandIo } from '../call-command.ts';
import { appendArtifacts } from '../journal.ts';
import { authorizer } from '../permissions.ts';
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

type Ending = 'stdin' | 'SIGINT' | 'SIGTERM';

interface EndWatch {
  readonly ended: Promise<Ending>;
  readonly stop: () => void;
}

/** The server ends when stdin closes (the client went away) or on SIGINT / SIGTERM. */
function watchEnd(server: Server): EndWatch {
  let finish: (ending: Ending) => void = () => {};
  const ended = new Promise<Ending>((resolve) => (finish = resolve));
  const onStdin = () => finish('stdin');
  const onSigint = () => finish('SIGINT');
  const onSigterm = () => finish('SIGTERM');
  process.stdin.on('end', onStdin);
  process.stdin.on('close', onStdin);
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  server.onclose = onStdin;
  return {
    ended,
    stop: () => {
      process.stdin.off('end', onStdin);
      process.stdin.off('close', onStdin);
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
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
  const session = await createSession(options);
  const toolset = finalizeFor(session, options.mode);
  const journal = options.artifacts === undefined ? undefined : resolve(options.artifacts);
  const { server, settled } = createToolServer({
    toolset,
    // Reuses the command line's policy; an ask is approved only by --yes.
    authorize: authorizer({
      mode: options.mode,
      paths: session.paths,
      ask: terminalAsk({ yes: options.yes, interactive: false }),
      refusalNote: MCP_CANNOT_ASK,
    }),
    version: VERSION,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(journal === undefined ? {} : { onResult: (result) => appendArtifacts(journal, result.artifacts) }),
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
  if (ending === 'SIGINT') return 130;
  if (ending === 'SIGTERM') return 143;
  return 0;
}
