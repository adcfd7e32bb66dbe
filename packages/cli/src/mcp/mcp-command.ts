import { resolve } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { BuiltinSession } from '@openwork/builtin-tools';
import { approveEveryAsk, modeSelection } from '@openwork/permission-policy';
import type { CliOptions } from '../args.ts';
import type { CommandIo } from '../call-command.ts';
import { ENDING_SIGNALS, EXIT_STATUS, type EndingSignal } from '../ending-signals.ts';
import { createArtifactJournal } from '../journal.ts';
import { checkJournalPath } from '../journal-file.ts';
import { createHost } from '../session.ts';
import { createRegistry } from '../toolset.ts';
import { UsageError } from '../usage-error.ts';
import { VERSION } from '../version.ts';
import { readClientRoots, untilAborted, type RootsState } from './client-roots.ts';
import { elicitationAsk, elicitationQuestion } from './elicitation-ask.ts';
import { mcpInstructions } from './instructions.ts';
import { scopeOpener, settleWithin, SETTLE_MS } from './scope.ts';
import { commandLineServerRoots } from './start-directory.ts';
import { createToolServer, type CallScope } from './tool-server.ts';

/**
 * `client`: stdin closed or stdout broke (EPIPE), so nobody is listening any
 * more; `refused`: no root was named and the start directory is too wide.
 */
type Ending = 'client' | 'refused' | EndingSignal;

interface EndWatch {
  readonly ended: Promise<Ending>;
  readonly finish: (ending: Ending) => void;
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
    finish: (ending) => finish(ending),
    stop: () => {
      process.stdin.off('end', onClient);
      process.stdin.off('close', onClient);
      process.stdout.off('error', onClient);
      signals.forEach((off) => off());
    },
  };
}

/**
 * `openwork-tools mcp`: serves the finalized toolset over MCP on stdio
 * (docs/contract.md §5) until stdin closes or a signal arrives; then every call
 * is cancelled and no child process outlives the server (docs/design.md §5).
 *
 * The roots are the command line's when it names any (`--cwd`, `--root`);
 * otherwise the client's, when it declares the `roots` capability, asked
 * after initialize and again on every `list_changed`; otherwise the current
 * directory. The working directory is always writable, so the current
 * directory is never used when it is `/` or the home folder: the first
 * `--root` stands in, and with no root named the server refuses to serve.
 */
export async function mcpCommand(options: CliOptions, io: CommandIo): Promise<number> {
  if (options.positionals.length > 0) throw new UsageError('mcp takes no positional arguments');
  const named = options.cwd !== undefined || options.roots.length > 0;
  const { roots, tooWide } = await commandLineServerRoots(options, io.stderr);
  // With --artifacts, write and edit record each change (and its original) before they make it.
  const journal = options.artifacts === undefined ? undefined : createArtifactJournal(resolve(options.artifacts));
  // A journal that is a symlink, or reached through one, is refused before anything runs.
  if (journal !== undefined) await checkJournalPath(journal.file);
  const host = await createHost(options, { background: true, searchCache: true });
  // The server exists once the scope of the command line's roots is open; an ask comes later, during a call.
  const serving: { server?: Server } = {};
  const people = options.yes
    ? { ask: approveEveryAsk, question: undefined }
    : { ask: elicitationAsk(() => serving.server, io.stderr), question: elicitationQuestion(() => serving.server, io.stderr) };
  const open = scopeOpener(host, options, journal, people, io.stderr);
  let commandLine: CallScope<BuiltinSession>;
  try {
    // Opened at once, so a root or --read-root that does not exist is a usage error before the handshake.
    commandLine = await open(roots);
  } catch (error) {
    await host.dispose();
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }

  // The scope calls start with: settled once the client has said whether it has roots.
  let decided = named;
  let current: Promise<RootsState<BuiltinSession>> = Promise.resolve(commandLine);
  let settleRoots: (state: Promise<RootsState<BuiltinSession>>) => void = () => {};
  if (!named) current = new Promise((resolve) => (settleRoots = (state) => resolve(state)));

  const { server, settled } = createToolServer<BuiltinSession>({
    definitions: createRegistry()
      .select(modeSelection(options.mode))
      .map((entry) => entry.definition),
    scope: (signal) => untilAborted(current, signal),
    version: VERSION,
    instructions: mcpInstructions(commandLine.toolset, { mode: options.mode, yes: options.yes, roots: named ? 'command-line' : tooWide === undefined ? 'client-or-command-line' : 'client' }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(journal === undefined ? {} : { onResult: (result) => journal.appendUnrecorded(result.artifacts) }),
    log: io.stderr,
  });
  serving.server = server;
  const watch = watchEnd(server);
  const clientRoots = () => readClientRoots({ server, probe: host.filesystem, open, log: io.stderr });
  let following = false;

  server.oninitialized = () => {
    const declared = server.getClientCapabilities()?.roots !== undefined;
    if (named) {
      if (declared) io.stderr('openwork-tools mcp: the client’s roots are not followed: the command line names the roots (--cwd, --root)\n');
      return;
    }
    if (!declared && tooWide !== undefined) return watch.finish('refused');
    decided = true;
    following = declared;
    current = declared ? clientRoots() : Promise.resolve(commandLine);
    settleRoots(current);
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    // Calls already running keep the scope they started with; the next ones wait for this answer.
    if (following) current = clientRoots();
  });

  let ending: Ending;
  try {
    await server.connect(new StdioServerTransport());
    ending = await watch.ended;
    // A client that leaves before saying whether it has roots never had a root to work in either.
    if (ending === 'refused' || (ending === 'client' && !decided && tooWide !== undefined)) {
      ending = 'refused';
      io.stderr(`openwork-tools mcp: refusing to serve ${tooWide ?? 'this directory'} when no root is named: pass --cwd DIR (or --root DIR), or use a client that sends MCP roots\n`);
    }
  } finally {
    // Closing aborts every running call's signal; then the process table is emptied.
    await server.close();
    await settleWithin(settled(), SETTLE_MS);
    await host.dispose();
    watch.stop();
  }
  if (ending === 'refused') return 2;
  return ending === 'client' ? 0 : EXIT_STATUS[ending];
}
