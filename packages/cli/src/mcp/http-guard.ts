import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { HttpListen } from '../args.ts';
import { UsageError } from '../usage-error.ts';

/** Where the token comes from when it is chosen; unset, one is generated and printed to stderr. */
export const TOKEN_VARIABLE = 'OPENWORK_MCP_TOKEN';
const MIN_TOKEN_LENGTH = 16;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || (isIP(host) === 4 && host.startsWith('127.'));
}

export const hostPort = (host: string, port: number) => (isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`);

/**
 * The Host headers the server answers (DNS rebinding: a page whose name now
 * resolves to this machine still sends its own name): the address it listens
 * on, and on loopback the usual names of this machine.
 */
export function allowedHosts(listen: HttpListen, port: number): Set<string> {
  const hosts = new Set([hostPort(listen.host, port).toLowerCase()]);
  if (isLoopback(listen.host)) for (const name of LOOPBACK_NAMES) hosts.add(hostPort(name, port));
  return hosts;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares the Authorization header with the token in constant time (the digests have one length whatever was sent). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/** The token of `OPENWORK_MCP_TOKEN`, or a generated one, printed to stderr. */
export function serverToken(stderr: (text: string) => void): string {
  const chosen = process.env[TOKEN_VARIABLE];
  if (chosen !== undefined && chosen !== '') {
    if (chosen.length < MIN_TOKEN_LENGTH) throw new UsageError(`${TOKEN_VARIABLE} must hold at least ${MIN_TOKEN_LENGTH} characters`);
    return chosen;
  }
  const generated = randomBytes(32).toString('base64url');
  stderr(`openwork-tools mcp: bearer token (set ${TOKEN_VARIABLE} to choose one): ${generated}\n`);
  return generated;
}
