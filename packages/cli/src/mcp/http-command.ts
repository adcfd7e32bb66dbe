import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { BuiltinSession } from '@openwork/builtin-tools';
import { approveEveryAsk, modeSelection } from '@openwork/permission-policy';
import type { CliOptions, HttpListen } from '../args.ts';
import type { CommandIo } from '../call-command.ts';
import { ENDING_SIGNALS, EXIT_STATUS, type EndingSignal } from '../ending-signals.ts';
import { createArtifactJournal, type ArtifactJournal } from '../journal.ts';
import { checkJournalPath } from '../journal-file.ts';
import { createHost } from '../session.ts';
import { createRegistry } from '../toolset.ts';
import { UsageError } from '../usage-error.ts';
import { VERSION } from '../version.ts';
import { elicitationAsk, elicitationQuestion } from './elicitation-ask.ts';
import { messages, readBody } from './http-body.ts';
import { allowedHosts, bearerMatches, hostPort, isLoopback, serverToken, TOKEN_VARIABLE } from './http-guard.ts';
import { endSession, watchResponse, type HttpSession } from './http-session.ts';
import { mcpInstructions } from './instructions.ts';
import { idleSessionMs, watchIdleSessions } from './idle-sessions.ts';
import { scopeOpener } from './scope.ts';
import { commandLineServerRoots } from './start-directory.ts';
import { createToolServer, type CallScope } from './tool-server.ts';
import { connectionHeaders, KEEP_ALIVE_MS, reject, sendWebResponse, webRequest } from './web-exchange.ts';

/** The one path the server answers on. */
export const MCP_PATH = '/mcp';

async function listen(server: HttpServer, at: HttpListen): Promise<number> {
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(at.port, at.host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : at.port;
}

/**
 * `openwork-tools mcp --http [HOST:]PORT`: the same toolset over MCP
 * Streamable HTTP, for an agent on another machine driving this workspace.
 * Every request needs the bearer token; the Host header must name this
 * server and an Origin, when sent, must be the server's own or one given by
 * --allow-origin. Each client that initializes gets a session of its own
 * (a server, a read ledger, a process backend) over the command line's
 * roots; the client's MCP roots name paths of its own machine and are not
 * followed. A session ends on DELETE, when it has been idle for 30 minutes
 * (`OPENWORK_MCP_IDLE_MS`), or with the server; ending it answers its
 * running calls as cancelled and ends their processes (docs/contract.md §5.2).
 * A call whose HTTP response closes before it is answered (the client went
 * away) is cancelled. Every response keeps its connection alive for 60 s.
 */
export async function mcpHttpCommand(options: CliOptions, io: CommandIo): Promise<number> {
  if (options.positionals.length > 0) throw new UsageError('mcp takes no positional arguments');
  const at = options.http;
  if (at === undefined) throw new Error('mcpHttpCommand needs --http');
  const secret = serverToken(io.stderr);
  const idleMs = idleSessionMs(process.env);
  const { roots, tooWide, standIn } = await commandLineServerRoots(options, io.stderr);
  if (tooWide !== undefined && !standIn) throw new UsageError(`refusing to serve ${tooWide} when no root is named: pass --cwd DIR (or --root DIR)`);
  const journal: ArtifactJournal | undefined = options.artifacts === undefined ? undefined : createArtifactJournal(resolve(options.artifacts));
  // A journal that is a symlink, or reached through one, is refused before anything runs.
  if (journal !== undefined) await checkJournalPath(journal.file);
  // Checked once before listening, so that a root that does not exist is a usage error, not a failure of the first client.
  const probeHost = await createHost(options);
  try {
    await scopeOpener(probeHost, options, journal, { ask: approveEveryAsk, question: undefined }, () => {})(roots);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  } finally {
    await probeHost.dispose();
  }
  // Loaded only here: the stdio command never loads the SDK's HTTP stack.
  // The SDK's web-standard transport, written to Node's response here (web-exchange.ts): no adapter waits on a timer.
  const { WebStandardStreamableHTTPServerTransport: Transport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
  const definitions = createRegistry()
    .select(modeSelection(options.mode))
    .map((entry) => entry.definition);
  const sessions = new Map<string, HttpSession>();

  const closeSession = (id: string, session: HttpSession): Promise<void> => {
    // Set before it runs: closing the server closes the transport, whose onclose comes back here.
    session.closing ??= Promise.resolve().then(() => {
      sessions.delete(id);
      return endSession(session);
    });
    return session.closing;
  };

  const openHttpSession = async (): Promise<HttpSession> => {
    const host = await createHost(options, { background: true, searchCache: true });
    const serving: { server?: Server } = {};
    const people = options.yes
      ? { ask: approveEveryAsk, question: undefined }
      : { ask: elicitationAsk(() => serving.server, io.stderr), question: elicitationQuestion(() => serving.server, io.stderr) };
    let scope: CallScope<BuiltinSession>;
    try {
      scope = await scopeOpener(host, options, journal, people, io.stderr)(roots);
    } catch (error) {
      await host.dispose();
      throw error;
    }
    const { server, settled, cancelCalls } = createToolServer<BuiltinSession>({
      definitions,
      scope: () => Promise.resolve(scope),
      version: VERSION,
      instructions: mcpInstructions(scope.toolset, { mode: options.mode, yes: options.yes, roots: 'command-line' }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(journal === undefined ? {} : { onResult: (result) => journal.appendUnrecorded(result.artifacts) }),
      log: io.stderr,
    });
    serving.server = server;
    const transport: WebStandardStreamableHTTPServerTransport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
    });
    const session: HttpSession = { transport, server, settled, cancelCalls, host, answering: new Set(), lastSeen: Date.now(), inFlight: 0 };
    server.oninitialized = () => {
      if (server.getClientCapabilities()?.roots !== undefined) io.stderr('openwork-tools mcp: over HTTP the client’s roots are not followed: the command line names the roots\n');
    };
    // The server closing the transport: the session ends with its calls and processes.
    server.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined) void closeSession(id, session);
      else void host.dispose();
    };
    await server.connect(transport);
    return session;
  };

  const exchange = async (session: HttpSession, request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> => {
    const answer = await session.transport.handleRequest(webRequest(request), { parsedBody: body });
    await sendWebResponse(answer, response, { openAtOnce: request.method === 'GET' });
  };

  let hosts = new Set<string>();
  let ownOrigins = new Set<string>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const hostHeader = (request.headers.host ?? '').toLowerCase();
    if (!hosts.has(hostHeader)) return reject(response, 403, `Host ${JSON.stringify(request.headers.host ?? '')} is not this server`);
    const origin = request.headers.origin;
    if (origin !== undefined && !ownOrigins.has(origin) && !options.allowOrigins.includes(origin)) {
      return reject(response, 403, `Origin ${JSON.stringify(origin)} is not allowed; start the server with --allow-origin ${origin} to accept it`);
    }
    const path = new URL(request.url ?? '/', 'http://server').pathname;
    if (path !== MCP_PATH) return reject(response, 404, `MCP is served at ${MCP_PATH}`);
    if (!bearerMatches(request.headers.authorization, secret)) {
      return reject(response, 401, `a bearer token is required: Authorization: Bearer <the token of ${TOKEN_VARIABLE}, or the one printed at start>`, { 'www-authenticate': 'Bearer' });
    }
    let body: unknown;
    if (request.method === 'POST') {
      const read = await readBody(request);
      if (!read.ok) return reject(response, read.status, read.message);
      body = read.value;
    }
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (session === undefined || session.closing !== undefined) return reject(response, 404, 'no such session: initialize a new one');
      session.lastSeen = Date.now();
      if (request.method === 'DELETE') {
        // The session's calls are answered as cancelled before the DELETE is.
        await closeSession(id, session);
        response.writeHead(200, { ...connectionHeaders(response), 'content-length': '0' });
        response.end();
        return;
      }
      watchResponse(response, session, body);
      return exchange(session, request, response, body);
    }
    if (request.method !== 'POST' || !messages(body).some((message) => isInitializeRequest(message))) {
      return reject(response, 400, 'no Mcp-Session-Id: send initialize first');
    }
    const session = await openHttpSession();
    watchResponse(response, session, body);
    await exchange(session, request, response, body);
    // An initialize the transport refused leaves a session nobody can name.
    if (session.transport.sessionId === undefined || !sessions.has(session.transport.sessionId)) await session.server.close();
  };

  const http = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      io.stderr(`openwork-tools mcp: ${error instanceof Error ? error.message : String(error)}\n`);
      reject(response, 500, 'the request failed on the server');
    });
  });
  let port: number;
  try {
    port = await listen(http, at);
  } catch (error) {
    throw new UsageError(`cannot listen on ${hostPort(at.host, at.port)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  hosts = allowedHosts(at, port);
  ownOrigins = new Set([...hosts].map((host) => `http://${host}`));
  if (!isLoopback(at.host)) io.stderr(`openwork-tools mcp: listening beyond this machine: whoever reaches ${hostPort(at.host, port)} with the token runs these tools\n`);
  io.stderr(`openwork-tools mcp: serving MCP over HTTP at http://${hostPort(at.host, port)}${MCP_PATH}\n`);

  const stopIdle = watchIdleSessions(sessions, idleMs, (id, session) => void closeSession(id, session));

  let stop: (signal: EndingSignal) => void = () => {};
  const ended = new Promise<EndingSignal>((resolveEnd) => (stop = resolveEnd));
  const offs = ENDING_SIGNALS.map((signal) => {
    const onSignal = () => stop(signal);
    process.on(signal, onSignal);
    return () => process.off(signal, onSignal);
  });
  const signal = await ended;
  stopIdle();
  const closed = new Promise<void>((resolveClose) => http.close(() => resolveClose()));
  await Promise.all([...sessions].map(([id, session]) => closeSession(id, session)));
  http.closeAllConnections();
  await closed;
  offs.forEach((off) => off());
  return EXIT_STATUS[signal];
}
