import type { LimitKind } from '../containment.ts';
import type { CommandContainer, Ending } from '../common/command-container.ts';
import type { LeaderExit } from '../common/started-child.ts';
import { groupAlive, signalGroup } from '../common/group-liveness.ts';
import { KILL_CONFIRM_MS } from '../common/terminate-group.ts';
import { pause, within } from '../common/wait.ts';
import type { CommandCgroup } from './command-cgroup.ts';
import type { Placement } from './placement-shim.ts';

/** How long the shim may take to join the cgroup before the supervisor stops waiting for it. */
const SETTLE_MS = 2_000;
const SETTLE_POLL_MS = 2;

/**
 * A command held by its own cgroup: whatever its processes do with sessions
 * and groups, they stay members, so the end reaches them all (docs/design.md §5: no
 * child without an owner; docs/design.md §9 bash: no background lifetimes).
 */
export class CgroupContainer implements CommandContainer {
  readonly kind = 'cgroup';
  readonly argv: readonly string[];
  readonly #cgroup: CommandCgroup;
  readonly #placement: Placement;
  /** Whether the leader was seen in the cgroup; before that, between spawn and the shim's write, only its group reaches it. */
  #placed = false;

  constructor(cgroup: CommandCgroup, argv: readonly string[]) {
    this.#cgroup = cgroup;
    this.#placement = cgroup.placement(argv);
    this.argv = this.#placement.argv;
  }

  async settle(leader: number, exited: Promise<unknown>): Promise<void> {
    let over = false;
    const watch = (async () => {
      while (!over && !(await this.#cgroup.holds(leader))) await pause(SETTLE_POLL_MS);
      if (!over) this.#placed = true;
    })();
    await within(Promise.race([watch, exited]), SETTLE_MS);
    over = true;
    await watch;
  }

  placementFailure(exit: LeaderExit | undefined, firstOutput: string): string | undefined {
    return this.#placement.failedWrite(exit?.exitCode ?? null, firstOutput);
  }

  async occupied(leader: number): Promise<boolean> {
    return (await this.#cgroup.members()).length > 0 || (!this.#placed && (await groupAlive(leader)));
  }

  async end(leader: number, options: { readonly graceMs: number }): Promise<Ending> {
    const seen = new Set<number>();
    // A leader not yet seen inside (the shim before its write) is reached through its group.
    if (!this.#placed) signalGroup(leader, 'SIGTERM');
    // TERM first, to every member, daemons included: a program that cleans up on TERM gets the chance.
    for (const pid of await this.#cgroup.signalAll('SIGTERM')) seen.add(pid);
    let gone = (await this.#cgroup.emptied(options.graceMs, seen)) && (await this.#groupGone(leader));
    if (!gone) {
      if (!this.#placed) signalGroup(leader, 'SIGKILL');
      gone = (await this.#cgroup.kill({ withinMs: KILL_CONFIRM_MS, seen })) && (await this.#groupGone(leader));
    }
    seen.delete(leader);
    return { fate: gone ? 'gone' : 'alive', processesEnded: seen.size };
  }

  async #groupGone(leader: number): Promise<boolean> {
    if (this.#placed) return true;
    const deadline = Date.now() + KILL_CONFIRM_MS;
    while (await groupAlive(leader)) {
      if (Date.now() >= deadline) return false;
      await pause(20);
    }
    return true;
  }

  limitHit(): Promise<LimitKind | undefined> {
    return this.#cgroup.limitHit();
  }

  release(): Promise<boolean> {
    return this.#cgroup.remove();
  }
}
