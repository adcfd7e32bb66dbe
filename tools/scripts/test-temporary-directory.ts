// The global setup of every package's tests (vitest.shared.ts): the
// temporary trees tests make go to a folder of this run on a memory file
// system where the host has one with room (Linux's /dev/shm), else to the
// usual temporary directory. The tests make hundreds of thousands of files
// and directories in temporary folders; on a disk file system creating them
// costs more system time than everything else the suite does, and on a
// memory one they are still real files, directories and symlinks.
// OPENWORK_TEST_TMPDIR names another parent (an empty value: the usual one).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/** Where a run's folders are made, one per vitest process. */
const SHARED_MEMORY = '/dev/shm/openwork-tests';
/** Less free room than this and the disk's temporary directory is used instead. */
const MIN_FREE_BYTES = 2 * 1024 ** 3;

function memoryParent(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < MIN_FREE_BYTES) return undefined;
    mkdirSync(SHARED_MEMORY, { recursive: true });
    return SHARED_MEMORY;
  } catch {
    return undefined;
  }
}

/** Folders of runs whose process is gone (a run that was killed): memory is not given back until they are removed. */
function sweepAbandoned(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = Number(/^run-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(parent, name), { recursive: true, force: true });
    }
  }
}

export default function setup(): (() => void) | undefined {
  const chosen = process.env.OPENWORK_TEST_TMPDIR;
  const parent = chosen === undefined ? memoryParent() : chosen === '' ? undefined : chosen;
  if (parent === undefined) return undefined;
  if (parent === SHARED_MEMORY) sweepAbandoned(parent);
  const folder = mkdtempSync(join(parent, `run-${process.pid}-`));
  const previous = process.env.TMPDIR;
  // The test workers start after this, with this environment; what they start inherits it.
  process.env.TMPDIR = folder;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(folder, { recursive: true, force: true });
  };
}
