import { UsageError } from '../usage-error.ts';

/** The variable that sets how long an HTTP session may stay idle before it is closed (docs/contract.md §5.2). */
export const IDLE_VARIABLE = 'OPENWORK_MCP_IDLE_MS';
/** A session with no request for this long, and none running, is closed as a client that went away. */
const DEFAULT_IDLE_MS = 30 * 60_000;

/** `OPENWORK_MCP_IDLE_MS` when set (a positive whole number of milliseconds), else 30 minutes. */
export function idleSessionMs(environment: NodeJS.ProcessEnv): number {
  const given = environment[IDLE_VARIABLE];
  if (given === undefined || given === '') return DEFAULT_IDLE_MS;
  const value = Number(given);
  if (!/^\d+$/.test(given) || !Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${IDLE_VARIABLE} must be a positive integer of milliseconds, not ${JSON.stringify(given)}`);
  }
  return value;
}

/** What the watch needs of a session: when it was last asked something, and how many requests are still open. */
export interface IdleTracked {
  readonly lastSeen: number;
  readonly inFlight: number;
}

/**
 * Closes every session idle for longer than `idleMs` with no request open,
 * checked every minute or, for a shorter idle time, four times within it.
 * Returns the function that stops the watch.
 */
export function watchIdleSessions<Session extends IdleTracked>(sessions: ReadonlyMap<string, Session>, idleMs: number, close: (id: string, session: Session) => void): () => void {
  const every = Math.min(60_000, Math.max(50, Math.floor(idleMs / 4)));
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [id, session] of sessions) if (session.inFlight === 0 && now - session.lastSeen > idleMs) close(id, session);
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
