import { groupAlive, signalGroup } from './group-liveness.ts';
import { pause } from './wait.ts';

/** How often a dying group is checked. */
const POLL_MS = 20;
/** How long a group may take to vanish after SIGKILL before its fate is unknown. */
export const KILL_CONFIRM_MS = 2_000;

export type GroupFate = 'gone' | 'alive';

/**
 * docs/design.md §5: timeout, cancel and a leader that left children behind all end the
 * same way: TERM the group, wait the grace, KILL it, and confirm it is gone.
 * `alive` means the kill could not be confirmed (the caller keeps the group).
 */
export async function terminateGroup(pgid: number, options: { readonly graceMs: number }): Promise<GroupFate> {
  if (!signalGroup(pgid, 'SIGTERM')) return 'gone';
  if (await vanishes(pgid, options.graceMs)) return 'gone';
  if (!signalGroup(pgid, 'SIGKILL')) return 'gone';
  return (await vanishes(pgid, KILL_CONFIRM_MS)) ? 'gone' : 'alive';
}

async function vanishes(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!(await groupAlive(pgid))) return true;
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await pause(Math.min(POLL_MS, left));
  }
}
