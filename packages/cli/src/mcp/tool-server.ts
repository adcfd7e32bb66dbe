import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { errorResult, TurnScope, type ToolDefinition, type ToolErrorData, type ToolProgress, type ToolResult, type ToolSessionContext } from '@openwork/tool-contract';
import type { Authorize, FinalizedToolset } from '@openwork/toolset-finalizer';
import { toolAnnotations } from './annotations.ts';
import { progressMessage, toMcpCallResult } from './call-result.ts';

/** The toolset and policy one call runs with, bound to the roots of the moment it starts. */
export interface CallScope<Session extends ToolSessionContext> {
  readonly toolset: FinalizedToolset<Session>;
  readonly authorize: Authorize;
}

export interface ToolServerOptions<Session extends ToolSessionContext> {
  /** What the server advertises; every scope's toolset has these same definitions. */
  readonly definitions: readonly ToolDefinition[];
  /**
   * The scope of a call that starts now, or why no call can run (no root).
   * A call keeps the scope it started with, whatever changes while it runs.
   */
  readonly scope: (signal: AbortSignal) => Promise<CallScope<Session> | ToolErrorData>;
  readonly version: string;
  /**
   * Sent at initialize as MCP `instructions`: the roots, the mode, how an
   * ask is answered and the guidance every tool shares (docs/contract.md §5.1).
   */
  readonly instructions?: string;
  /** The deadline of each call (`--timeout-ms`). */
  readonly timeoutMs?: number;
  /** Sees every result before it is sent, e.g. to journal its artifacts. */
  readonly onResult?: (result: ToolResult) => Promise<void>;
  /** Diagnostics; stdout carries protocol messages only. */
  readonly log: (text: string) => void;
}

export interface ToolServer {
  readonly server: Server;
  /** Resolves when every call that has started has ended. */
  readonly settled: () => Promise<void>;
  /**
   * Cancels every running call while the connection stays open: each one
   * ends with a `cancelled` result, and that result is sent to its client
   * (unlike a request the client cancelled, or a closed server: no response).
   */
  readonly cancelCalls: (reason: string) => void;
}

/**
 * The MCP tool list: the finalized definitions' names, descriptions and
 * input schemas, as `tools --json` prints them, with a title and the hints
 * clients decide approval on. The outputSchema is left out: every client
 * sends the list with each turn, and the shape of `data` (an ok result's
 * structured content) is the contract's (docs/contract.md §3.3), not the model's.
 */
function listedTools(definitions: readonly ToolDefinition[]): Tool[] {
  return definitions.map((definition) => {
    const annotations = toolAnnotations(definition);
    return {
      name: definition.name,
      title: annotations.title,
      description: definition.description,
      inputSchema: definition.inputSchema as Tool['inputSchema'],
      annotations,
    };
  });
}

/**
 * A low-level MCP server over the finalized toolset: the advertised list and
 * the dispatch are the same definitions (docs/design.md §6), each `tools/call` is one call.
 */
export function createToolServer<Session extends ToolSessionContext>(options: ToolServerOptions<Session>): ToolServer {
  const server = new Server(
    { name: 'openwork-tools', version: options.version },
    { capabilities: { tools: { listChanged: false } }, ...(options.instructions === undefined ? {} : { instructions: options.instructions }) },
  );
  const running = new Set<Promise<unknown>>();
  const turns = new Set<TurnScope>();
  const tools = listedTools(options.definitions);
  // Structured content stays the shape of an ok result's data: an error's data of such a tool stays in the text.
  const withOutputSchema = new Set(options.definitions.filter((definition) => definition.outputSchema !== undefined).map((definition) => definition.name));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));

  server.setRequestHandler(CallToolRequestSchema, (request, extra): Promise<CallToolResult> => {
    const token = request.params._meta?.progressToken;
    let sent = 0;
    const progress =
      token === undefined
        ? undefined
        : (event: ToolProgress) =>
            extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++sent, message: progressMessage(event) } });
    // docs/design.md §5: a cancelled request (or a closed connection) aborts this call's signal.
    const turn = new TurnScope(extra.signal);
    turns.add(turn);
    const active = turn.startCall({
      callId: randomUUID(),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(progress ? { progress } : {}),
    });
    const name = request.params.name;
    const call = (async () => {
      let result: ToolResult;
      try {
        const scope = await options.scope(active.context.signal);
        result =
          'toolset' in scope
            ? await scope.toolset.call(name, request.params.arguments ?? {}, active.context, { authorize: scope.authorize })
            : errorResult({ tool: name, toolId: options.definitions.find((definition) => definition.name === name)?.id ?? null, callId: active.context.callId, error: scope });
      } finally {
        active.end();
      }
      if (options.onResult) {
        await options.onResult(result).catch((error: unknown) => {
          options.log(`openwork-tools mcp: ${result.tool} ${result.callId}: ${error instanceof Error ? error.message : String(error)}\n`);
        });
      }
      return toMcpCallResult(result, { outputSchema: withOutputSchema.has(name) });
    })();
    running.add(call);
    const forget = () => {
      running.delete(call);
      turns.delete(turn);
    };
    void call.then(forget, forget);
    return call;
  });

  server.onerror = (error) => options.log(`openwork-tools mcp: ${error.message}\n`);

  return {
    server,
    settled: async () => {
      await Promise.allSettled([...running]);
    },
    cancelCalls: (reason) => {
      for (const turn of turns) turn.cancel(reason);
    },
  };
}
