import type { IncomingMessage } from 'node:http';

/** The largest request body read: a write's content travels in it. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export type Body = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly status: number; readonly message: string };

/** Reads and parses a POST's JSON body, refusing one over 64 MiB. */
export async function readBody(request: IncomingMessage): Promise<Body> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, message: `the request body is over ${MAX_BODY_BYTES} bytes` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'the request body is not JSON' };
  }
}

/** The JSON-RPC messages a body carries: a batch, or one. */
export const messages = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

/** The ids of the requests (not notifications or responses) a POST carries. */
export function requestIds(body: unknown): (string | number)[] {
  return messages(body).flatMap((message) => {
    if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) return [];
    const id = (message as { id: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}
