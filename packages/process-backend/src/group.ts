/** Sends a signal to a whole process group; false when the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: a member we may not signal; the group still exists.
    return true;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until the group has no member left, or the time is up. */
export async function waitGroupGone(pgid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (signalGroup(pgid, 0)) {
    if (Date.now() >= until) return false;
    await sleep(20);
  }
  return true;
}

/**
 * seed §5: TERM the group, KILL after the grace period, then confirm it is
 * gone; false means the outcome is unknown and the caller keeps the group.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<boolean> {
  if (!signalGroup(pgid, 'SIGTERM')) return true;
  if (await waitGroupGone(pgid, graceMs)) return true;
  signalGroup(pgid, 'SIGKILL');
  return waitGroupGone(pgid, 2000);
}
