import { randomBytes } from 'node:crypto';

/** The shell that places a command in its cgroup and then becomes the command. */
export const SHIM_SHELL = '/bin/sh';

/** The exit status of a shim that could not join the cgroup; the nonce tells it apart from a command's own 125. */
const PLACEMENT_FAILED_STATUS = 125;

/**
 * The shim writes its own pid into each cgroup, then execs the command in the
 * same process (same pid, same process group). Nothing of the command runs
 * before the last write succeeded, and every process it forks is born inside
 * the cgroup, so no fork can escape (docs/decisions/0008). A failed write ends
 * the shim with a line that holds a per-run nonce: the command never saw the
 * nonce, so it cannot fake the failure, and a real failure is never mistaken
 * for the command's own output.
 */
const SCRIPT = (nonce: string) =>
  [
    'n=$1; shift',
    'while [ "$n" -gt 0 ]; do',
    `  { echo $$ > "$1"; } 2>/dev/null || { printf '%s %s\\n' '${nonce}' "$1" >&2; exit ${PLACEMENT_FAILED_STATUS}; }`,
    '  shift; n=$((n - 1))',
    'done',
    'exec "$@"',
  ].join('\n');

export interface Placement {
  /** What to spawn instead of the command. */
  readonly argv: readonly string[];
  /** The cgroup.procs file a leader that exited this way could not write, or undefined when it was placed. */
  failedWrite(exitCode: number | null, firstOutput: string): string | undefined;
}

export function placementShim(procsFiles: readonly string[], argv: readonly string[]): Placement {
  const nonce = `openwork-placement-failed-${randomBytes(12).toString('hex')}`;
  return {
    argv: [SHIM_SHELL, '-c', SCRIPT(nonce), 'openwork-cgroup-shim', String(procsFiles.length), ...procsFiles, ...argv],
    failedWrite: (exitCode, firstOutput) => {
      if (exitCode !== PLACEMENT_FAILED_STATUS) return undefined;
      const start = firstOutput.indexOf(nonce);
      if (start < 0) return undefined;
      return firstOutput.slice(start + nonce.length + 1).split(/\r?\n/)[0] ?? '';
    },
  };
}
