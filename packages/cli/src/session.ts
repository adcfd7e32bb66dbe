import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { BackgroundCommands, ChangeQueue, DEFAULT_LIMITS, ReadLedger, type BuiltinSession } from '@openwork/builtin-tools';
import { CacheBudget, NodeFileSystem, SEARCH_CACHE_BYTES } from '@openwork/fs-backend/node';
import { PathGuard } from '@openwork/path-guard';
import { passThroughVariables } from '@openwork/permission-policy';
import type { ProcessBackend } from '@openwork/process-backend';
import { PipeProcessBackend } from '@openwork/process-backend/pipe';
import type { CliOptions } from './args.ts';
import { UsageError } from './usage-error.ts';
import { readUserSettings, userSettingsFile } from './user-settings-file.ts';

/** The writable roots of a session: the working directory first. */
export interface SessionRoots {
  readonly workingDirectory: string;
  readonly writableRoots: readonly string[];
}

/**
 * What every session of one command shares. The MCP server opens a new
 * session when the client's roots change; the backends stay, so disposing
 * the host ends every command any of its sessions started.
 */
export interface CommandHost {
  readonly filesystem: NodeFileSystem;
  /** Where bash runs: the pipe backend, or the pty backend with `--pty`. */
  readonly processes: ProcessBackend;
  /** Where the policy reads git's configuration: always pipes, whose output it can parse. */
  readonly gitProcesses: ProcessBackend;
  readonly environment: Readonly<Record<string, string>>;
  /** The background commands of a server's session (bash `runInBackground`); a one-shot command has none. */
  readonly background?: BackgroundCommands;
  /** Ends every command still running (docs/design.md §5) and stops the file system's worker threads. */
  readonly dispose: () => Promise<void>;
}

/** The directory the command line's relative paths start from. */
export function commandDirectory(options: CliOptions): string {
  return resolve(options.cwd ?? process.cwd());
}

/** The roots the command line gives: `--cwd` (or the current directory) and each `--root`. */
export function commandLineRoots(options: CliOptions): SessionRoots {
  const workingDirectory = commandDirectory(options);
  return { workingDirectory, writableRoots: options.roots.map((root) => resolve(workingDirectory, root)) };
}

/** The skill root of docs/design.md §8: `~/.agents/skills` when it exists, or `--skills-root`. */
function skillsRoot(options: CliOptions): string | undefined {
  if (options.skillsRoot !== undefined) return resolve(options.skillsRoot);
  const fallback = resolve(homedir(), '.agents', 'skills');
  return existsSync(fallback) ? fallback : undefined;
}

export interface HostOptions {
  /** Keeps background commands (the MCP server's sessions); they end with the host. */
  readonly background?: boolean;
  /**
   * Keeps what searches learn between calls, in the one budget every session
   * of the process shares (the MCP server's). A one-shot command keeps
   * nothing: it never reads a file twice, and the bookkeeping would only
   * slow its one search (docs/decisions/0036).
   */
  readonly searchCache?: boolean;
}

/** The memory every search cache of this process shares (docs/decisions/0036). */
let serverSearchCache: CacheBudget | undefined;

export async function createHost(options: CliOptions, hostOptions: HostOptions = {}): Promise<CommandHost> {
  const pipes = new PipeProcessBackend();
  let processes: ProcessBackend = pipes;
  if (options.pty !== undefined) {
    // Loaded only for --pty: the other commands never touch node-pty.
    const [{ PtyProcessBackend }, { terminalBackend }] = await Promise.all([import('@openwork/process-backend/pty'), import('./terminal-backend.ts')]);
    processes = await terminalBackend(options.pty, new PtyProcessBackend());
  }
  const environment = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const backends = processes === pipes ? [pipes] : [processes, pipes];
  // bash `tty`: the pty backend, loaded at the first terminal command (the --pty one when there is one).
  let terminal: Promise<ProcessBackend> | undefined;
  const openTerminal = (): Promise<ProcessBackend> =>
    (terminal ??=
      processes !== pipes
        ? Promise.resolve(processes)
        : import('@openwork/process-backend/pty').then(({ PtyProcessBackend }) => {
            const pty = new PtyProcessBackend();
            backends.push(pty);
            return pty;
          }));
  const background = hostOptions.background === true ? new BackgroundCommands({ ...backgroundLimits(options), terminal: openTerminal }) : undefined;
  // docs/contract.md §6: one budget for what every session's searches keep, whatever the number of sessions.
  let filesystem: NodeFileSystem;
  if (hostOptions.searchCache === true) {
    serverSearchCache ??= new CacheBudget({ maxBytes: options.searchCacheBytes ?? SEARCH_CACHE_BYTES });
    filesystem = new NodeFileSystem({ searchCache: { budget: serverSearchCache } });
  } else filesystem = new NodeFileSystem({ searchCache: { maxBytes: 0 } });
  return {
    filesystem,
    processes,
    gitProcesses: pipes,
    environment,
    ...(background === undefined ? {} : { background }),
    dispose: async () => {
      // docs/design.md §5: every background command, with all it started, ends with the session.
      await background?.dispose();
      await terminal?.catch(() => undefined);
      // The file system's search workers are the host's too: an HTTP session closed must not leave its threads running.
      await Promise.all([...backends.map((backend) => backend.dispose()), filesystem.close()]);
    },
  };
}

/** `--max-background` and `--background-buffer`, over the defaults. */
function backgroundLimits(options: CliOptions): { maxCommands?: number; headBytes?: number; tailBytes?: number } {
  return {
    ...(options.maxBackground === undefined ? {} : { maxCommands: options.maxBackground }),
    ...(options.backgroundBufferBytes === undefined ? {} : { headBytes: Math.floor(options.backgroundBufferBytes / 2), tailBytes: Math.ceil(options.backgroundBufferBytes / 2) }),
  };
}

/** The variables approved commands may see: `--pass-env` and the user settings' `environment.passThrough`, never the project's. */
async function passThrough(options: CliOptions): Promise<readonly string[]> {
  const settings = await readUserSettings(userSettingsFile());
  return [...new Set([...options.passEnv, ...passThroughVariables(settings)])];
}

/** A session over `roots`, canonicalized once (docs/design.md §8); `--read-root` and the skill root apply to every session. */
export async function openSession(host: CommandHost, options: CliOptions, roots: SessionRoots): Promise<BuiltinSession> {
  const base = commandDirectory(options);
  const skills = skillsRoot(options);
  const paths = await PathGuard.create({
    workingDirectory: roots.workingDirectory,
    writableRoots: roots.writableRoots,
    readOnlyRoots: options.readRoots.map((root) => resolve(base, root)),
    protectedRoots: skills ? [skills] : [],
    probe: host.filesystem,
  });
  return {
    workingDirectory: paths.workingDirectory,
    environment: host.environment,
    paths,
    filesystem: host.filesystem,
    processes: host.processes,
    limits: options.memoryLimitBytes === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, maxMemoryBytes: options.memoryLimitBytes },
    passThroughEnvironment: await passThrough(options),
    ...(host.background === undefined ? {} : { background: host.background }),
    // Keyed by each file's canonical path: a read through a symlink and an edit of the real name share one history.
    readLedger: new ReadLedger(),
    // docs/design.md §10: the MCP server serves calls concurrently; write and edit of one session take one line.
    changeQueue: new ChangeQueue(),
  };
}

/** The host and the one session of a command whose roots are the command line's. */
export async function createSession(options: CliOptions): Promise<{ readonly session: BuiltinSession; readonly host: CommandHost }> {
  const host = await createHost(options);
  try {
    return { session: await openSession(host, options, commandLineRoots(options)), host };
  } catch (error) {
    await host.dispose();
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
