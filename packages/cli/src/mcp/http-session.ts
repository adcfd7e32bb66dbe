import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CommandHost } from '../session.ts';
import { requestIds } from './http-body.ts';
import { settleWithin, SETTLE_MS } from './scope.ts';

/** One client's MCP session over HTTP: its own server, calls, read ledger and processes. */
export interface HttpSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  readonly settled: () => Promise<void>;
  readonly cancelCalls: (reason: string) => void;
  readonly host: CommandHost;
  /** The open responses of POSTs that carry requests: each settles when its response has been written or closed. */
  readonly answering: Set<Promise<void>>;
  lastSeen: number;
  inFlight: number;
  closing?: Promise<void>;
}

/**
 * Counts the response as open while it is, and settles it in `answering`
 * once written. A call whose response closes before it was answered (the
 * client went away) is cancelled, as if the client had sent `notifications/cancelled`.
 */
export function watchResponse(response: ServerResponse, session: HttpSession, body: unknown): void {
  const ids = requestIds(body);
  session.inFlight += 1;
  let answered = () => {};
  if (ids.length > 0) {
    const written = new Promise<void>((resolve) => (answered = resolve));
    session.answering.add(written);
    void written.then(() => session.answering.delete(written));
  }
  response.once('close', () => {
    answered();
    session.inFlight -= 1;
    session.lastSeen = Date.now();
    if (response.writableFinished || session.closing !== undefined) return;
    for (const requestId of ids) {
      const cancel: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the client disconnected' } };
      session.transport.onmessage?.(cancel);
    }
  });
}

/**
 * Ends a session (a DELETE, idle expiry, the server's end): its running calls
 * are cancelled while their streams are still open, so that each client gets
 * its call's `cancelled` result; once they are answered (or after 5 seconds)
 * the server closes, aborting whatever is left, and the session's processes are ended.
 */
export async function endSession(session: HttpSession): Promise<void> {
  session.cancelCalls('the session ended');
  // One bound for both: the calls ending, then their answers written.
  await settleWithin(
    session.settled().then(async () => {
      await Promise.all(session.answering);
    }),
    SETTLE_MS,
  );
  await session.server.close();
  await session.host.dispose();
}
