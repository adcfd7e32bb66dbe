import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How long an idle connection is kept open for the client's next request
 * (docs/contract.md §5.2): an agent's calls come seconds apart, a model's turn
 * apart, and each new connection costs a round trip.
 */
export const KEEP_ALIVE_MS = 60_000;

/**
 * The connection headers of every response: kept alive, with the server's
 * idle timeout as the hint (`Keep-Alive: timeout=60`) so that a client closes
 * an idle connection before the server does, not while sending on it; or
 * `close` when this response ends the connection.
 */
export function connectionHeaders(response: ServerResponse): Record<string, string> {
  return response.shouldKeepAlive ? { connection: 'keep-alive', 'keep-alive': `timeout=${Math.floor(KEEP_ALIVE_MS / 1000)}` } : { connection: 'close' };
}

/** A JSON-RPC error response written by the server itself, before or instead of the transport. */
export function reject(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'content-type': 'application/json', ...headers, ...connectionHeaders(response) });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The web Request the SDK's web-standard transport reads: its method, headers and URL (a POST's body is passed parsed). */
export function webRequest(request: IncomingMessage): Request {
  const headers = new Headers();
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index] ?? '', raw[index + 1] ?? '');
  return new Request(new URL(request.url ?? '/', 'http://server'), { method: request.method ?? 'GET', headers });
}

type Read = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/** The read if it settles within a few microtasks (the stream already holds it), else undefined. */
const settledSoon = (read: Promise<Read>): Promise<Read | undefined> => Promise.race([read, Promise.resolve().then(() => Promise.resolve(undefined))]);

/** Resolves when the response can take more, or has closed. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/**
 * Writes the transport's web Response to the Node response as its events come.
 * A POST's headers wait for its first event, so that a call's answer goes out
 * with them in one write, with a Content-Length when nothing follows it; a GET
 * (the client's stream for messages the server starts) opens at once. Nothing
 * waits on a timer. A response closed by the client cancels the stream.
 */
export async function sendWebResponse(web: Response, response: ServerResponse, options: { readonly openAtOnce: boolean }): Promise<void> {
  const headers: Record<string, string> = {};
  web.headers.forEach((value, name) => (headers[name] = value));
  Object.assign(headers, connectionHeaders(response));
  if (web.body === null) {
    response.writeHead(web.status, { ...headers, 'content-length': '0' });
    response.end();
    return;
  }
  const reader = (web.body as ReadableStream<Uint8Array>).getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  response.once('close', cancel);
  try {
    if (options.openAtOnce) {
      response.writeHead(web.status, headers);
      response.flushHeaders();
    }
    let read = await reader.read();
    while (!read.done) {
      const chunk = read.value;
      const next = reader.read();
      const following = await settledSoon(next);
      if (following?.done === true && !response.headersSent) {
        response.writeHead(web.status, { ...headers, 'content-length': String(chunk.byteLength) });
        response.end(chunk);
        return;
      }
      if (response.destroyed) return;
      if (!response.headersSent) response.writeHead(web.status, headers);
      if (!response.write(chunk)) await drained(response);
      read = following ?? (await next);
    }
    if (response.destroyed) return;
    if (!response.headersSent) response.writeHead(web.status, headers);
    response.end();
  } finally {
    response.off('close', cancel);
  }
}
