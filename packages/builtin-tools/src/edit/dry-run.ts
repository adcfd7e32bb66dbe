import type { FileChangeArtifact } from '@openwork/tool-contract';
import { FILE_HEADERS_ONLY, formatPatch } from 'diff';
import type { EditData } from './edit.ts';

/**
 * The change as a unified diff: `--- path` / `+++ path` (`/dev/null` for a
 * file it would create), then the artifact's hunks with their three lines
 * of context, so the preview shows what the edit would record.
 */
export function unifiedDiff(change: FileChangeArtifact): string {
  return formatPatch(
    {
      oldFileName: change.change === 'create' ? '/dev/null' : change.path,
      newFileName: change.path,
      oldHeader: undefined,
      newHeader: undefined,
      hunks: change.hunks.map((hunk) => ({ ...hunk, lines: [...hunk.lines] })),
    },
    FILE_HEADERS_ONLY,
  );
}

/** The model text of a dry run: what the edit would do, that nothing was written, and the diff. */
export function dryRunOutput(change: FileChangeArtifact, replacements: number, diff: string): string {
  const what =
    change.change === 'create'
      ? `would create ${change.path} (+${change.added} lines)`
      : `would make ${replacements} replacement${replacements === 1 ? '' : 's'} in ${change.path} (+${change.added} -${change.removed} lines)`;
  return `Dry run: the edit ${what}; nothing was written.\n${diff.trimEnd()}`;
}

/** A dry run's outcome: the diff, and no artifact, since nothing changed (docs/contract.md §3.3). */
export function dryRunOutcome(artifact: FileChangeArtifact, replacements: number, note = '') {
  const diff = unifiedDiff(artifact);
  const data: EditData = { path: artifact.path, replacements, created: artifact.change === 'create', dryRun: true, diff };
  return { data, output: dryRunOutput(artifact, replacements, diff) + note };
}
