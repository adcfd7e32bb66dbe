import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { PathGuard, type PathProbe } from '@openwork/path-guard';
import { abortKind, type ToolErrorData, type ToolSessionContext } from '@openwork/tool-contract';
import type { SessionRoots } from '../session.ts';
import type { CallScope } from './tool-server.ts';

/** The scope calls start with, or why none can start. */
export type RootsState<Session extends ToolSessionContext> = CallScope<Session> | ToolErrorData;

export interface ClientRootsOptions<Session extends ToolSessionContext> {
  readonly server: Server;
  /** Canonicalizes each root the client lists. */
  readonly probe: PathProbe;
  /** The scope of a set of canonical roots; the first is the working directory. */
  readonly open: (roots: SessionRoots) => Promise<CallScope<Session>>;
  readonly log: (text: string) => void;
}

const NO_ROOT: ToolErrorData = {
  kind: 'outside_root',
  message: 'the client lists no root this server can use (a file:// directory); add a folder to the client’s roots, or start the server with --cwd DIR',
};

/** A root's `uri`, or the root itself as JSON when it has none, to be refused by name. */
function rootUri(root: unknown): string {
  const uri = typeof root === 'object' && root !== null ? (root as { uri?: unknown }).uri : undefined;
  return typeof uri === 'string' ? uri : JSON.stringify(root);
}

/** The local path of a `file://` root URI, or why it is refused. */
export function fileRootPath(uri: string): { readonly path: string } | { readonly refused: string } {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { refused: 'it is not a URI' };
  }
  if (url.protocol !== 'file:') return { refused: `only file:// roots are served, not ${url.protocol}//` };
  try {
    return { path: fileURLToPath(url) };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The writable roots of an MCP server started without `--cwd` or `--root`,
 * from a client that declares the `roots` capability: `roots/list`, each
 * `file://` root canonicalized through the path guard, the first the working
 * directory. Anything else is refused with a log line; with no root left the
 * calls get an error result until the client lists one.
 */
export async function readClientRoots<Session extends ToolSessionContext>(options: ClientRootsOptions<Session>): Promise<RootsState<Session>> {
  const { server, log } = options;
  let listed: readonly unknown[];
  try {
    // Read loosely: the SDK's own schema rejects the whole list for one root that is not file://, which is to be refused alone.
    const result = await server.request({ method: 'roots/list' }, ResultSchema);
    if (!Array.isArray(result['roots'])) throw new Error('the result has no roots list');
    listed = result['roots'] as unknown[];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`openwork-tools mcp: roots/list failed: ${message}\n`);
    return { kind: 'io', message: `the client's roots could not be read (roots/list failed: ${message})` };
  }
  const accepted: string[] = [];
  for (const root of listed) {
    const uri = rootUri(root);
    const local = fileRootPath(uri);
    if ('refused' in local) {
      log(`openwork-tools mcp: the client's root ${uri} is refused: ${local.refused}\n`);
      continue;
    }
    try {
      // docs/design.md §8: each root canonical, a directory that exists, before any call resolves a path against it.
      const guard = await PathGuard.create({ workingDirectory: local.path, probe: options.probe });
      if (!accepted.includes(guard.workingDirectory)) accepted.push(guard.workingDirectory);
    } catch (error) {
      log(`openwork-tools mcp: the client's root ${uri} is refused: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
  const [workingDirectory, ...writableRoots] = accepted;
  if (workingDirectory === undefined) {
    log(`openwork-tools mcp: ${NO_ROOT.message}\n`);
    return NO_ROOT;
  }
  try {
    const scope = await options.open({ workingDirectory, writableRoots });
    log(`openwork-tools mcp: roots from the client: ${accepted.join(', ')}\n`);
    return scope;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`openwork-tools mcp: the client's roots could not be opened: ${message}\n`);
    return { kind: 'io', message: `the client's roots could not be opened: ${message}` };
  }
}

/** Waits for the roots a call starts with, unless the call ends first. */
export async function untilAborted<Session extends ToolSessionContext>(state: Promise<RootsState<Session>>, signal: AbortSignal): Promise<RootsState<Session>> {
  if (signal.aborted) return abortedWaiting(signal);
  let onAbort = () => {};
  const aborted = new Promise<ToolErrorData>((resolve) => {
    onAbort = () => resolve(abortedWaiting(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([state, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function abortedWaiting(signal: AbortSignal): ToolErrorData {
  const kind = abortKind(signal) ?? 'cancelled';
  return { kind, message: `the call ${kind === 'timed_out' ? 'reached its deadline' : 'was cancelled'} while the server waited for the client's roots` };
}
