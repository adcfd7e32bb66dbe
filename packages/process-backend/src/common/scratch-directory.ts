import { rmSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentOwner, ownerAlive } from '../cgroup/cgroup-owner.ts';
import type { CommandContainer } from './command-container.ts';

/** Every scratch directory starts with this, then its owner (pid, start time, pid namespace): the clean-up can tell a dead owner's from the name. */
export const SCRATCH_PREFIX = 'openwork-scratch-';
const NAME_PATTERN = /^openwork-scratch-(\d+)-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;

/** Scratch directories not yet removed, removed when this process exits for any reason that still runs JavaScript. */
const live = new Set<string>();
let installed = false;

/**
 * A command's own temporary directory (docs/decisions/0027): made before the
 * command starts, mode 0700 under the OS temp directory, given to it as
 * TMPDIR, TMP and TEMP, and removed with its contents once everything the
 * command started has ended, so `sort`, `mktemp` and compilers write their
 * temporary files there and nothing of them outlives the command.
 */
export async function makeScratchDirectory(): Promise<string> {
  // mkdtemp makes the directory 0700 and adds six random characters, so no other user can enter it or guess it in advance.
  const owner = await currentOwner();
  const directory = await mkdtemp(join(tmpdir(), `${SCRATCH_PREFIX}${owner.pid}-${owner.startTime}-${owner.pidNamespace}-`));
  live.add(directory);
  if (!installed) {
    installed = true;
    process.on('exit', () => {
      for (const left of live) rmSync(left, { recursive: true, force: true, maxRetries: 2 });
    });
  }
  return directory;
}

/**
 * Removes the scratch directories a crashed earlier run left in the OS temp
 * directory: only names this project makes, only those whose owner, in this
 * pid namespace, no longer runs. Returns how many were removed.
 */
export async function cleanAbandonedScratch(): Promise<number> {
  const self = await currentOwner();
  let removed = 0;
  for (const name of await readdir(tmpdir()).catch(() => [])) {
    const match = NAME_PATTERN.exec(name);
    if (!match || Number(match[3]) !== self.pidNamespace) continue;
    if (await ownerAlive({ pid: Number(match[1]), startTime: Number(match[2]), pidNamespace: self.pidNamespace })) continue;
    if (await removeScratchDirectory(join(tmpdir(), name))) removed++;
  }
  return removed;
}

/** The variables programs read for their temporary directory, all pointing at the scratch directory. */
export function scratchEnvironment(directory: string): Record<string, string> {
  return { TMPDIR: directory, TMP: directory, TEMP: directory };
}

/** Removes the directory and everything in it; symbolic links inside are removed, never followed. */
export async function removeScratchDirectory(directory: string): Promise<boolean> {
  try {
    await rm(directory, { recursive: true, force: true, maxRetries: 2 });
    live.delete(directory);
    return true;
  } catch {
    return false;
  }
}

/**
 * The container with the scratch directory tied to it: the directory goes
 * when the container is released, which happens only once every process of
 * the command is confirmed gone (at its end, or at the backend's dispose),
 * so no process of the command can still be writing there.
 */
export function withScratchDirectory(container: CommandContainer, directory: string): CommandContainer {
  return {
    kind: container.kind,
    argv: container.argv,
    settle: (leader, exited) => container.settle(leader, exited),
    placementFailure: (exit, firstOutput) => container.placementFailure(exit, firstOutput),
    occupied: (leader) => container.occupied(leader),
    end: (leader, options) => container.end(leader, options),
    limitHit: () => container.limitHit(),
    release: async () => (await container.release()) && (await removeScratchDirectory(directory)),
  };
}
