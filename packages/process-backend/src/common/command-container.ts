import type { ContainmentKind, LimitKind } from '../containment.ts';
import { groupAlive, groupMembers } from './group-liveness.ts';
import type { LeaderExit } from './started-child.ts';
import { terminateGroup, type GroupFate } from './terminate-group.ts';

export interface Ending {
  readonly fate: GroupFate;
  /** Processes other than the leader that were ended (or found ending). */
  readonly processesEnded: number;
}

/**
 * What holds one command's processes (docs/decisions/0008): its cgroup, or
 * only its process group. The supervisor runs the same path over either.
 */
export interface CommandContainer {
  readonly kind: ContainmentKind;
  /** What to spawn: the request's argv, or a shim that joins the cgroup first. */
  readonly argv: readonly string[];
  /**
   * Resolves once the leader is fully inside the container (or has exited,
   * or a bound has passed): until then a signal must also go to its group.
   */
  settle(leader: number, exited: Promise<unknown>): Promise<void>;
  /** The cgroup file the leader could not join, when that is how it ended (the command never ran). */
  placementFailure(exit: LeaderExit | undefined, firstOutput: string): string | undefined;
  /** Whether anything of the command still runs besides the reaped leader. */
  occupied(leader: number): Promise<boolean>;
  /** TERM everything, wait the grace, KILL what is left, confirm it is gone. */
  end(leader: number, options: { readonly graceMs: number }): Promise<Ending>;
  limitHit(): Promise<LimitKind | undefined>;
  /** Gives the container up; false when it could not be (the caller keeps it for `dispose`). */
  release(): Promise<boolean>;
}

/** The fallback: the leader's process group, as docs/decisions/0003 describes, with nothing to release. */
export class ProcessGroupContainer implements CommandContainer {
  readonly kind = 'process_group';
  readonly argv: readonly string[];

  constructor(argv: readonly string[]) {
    this.argv = argv;
  }

  settle(): Promise<void> {
    return Promise.resolve();
  }

  placementFailure(): undefined {
    return undefined;
  }

  occupied(leader: number): Promise<boolean> {
    return groupAlive(leader);
  }

  async end(leader: number, options: { readonly graceMs: number }): Promise<Ending> {
    // Counted before the TERM: afterwards they are gone. Without /proc they cannot be counted.
    const members = ((await groupMembers(leader)) ?? []).filter((pid) => pid !== leader);
    return { fate: await terminateGroup(leader, options), processesEnded: members.length };
  }

  limitHit(): Promise<undefined> {
    return Promise.resolve(undefined);
  }

  release(): Promise<boolean> {
    return Promise.resolve(true);
  }
}
