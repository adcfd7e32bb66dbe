import { randomUUID } from 'node:crypto';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import { structuredPatch } from 'diff';

const BOM = '\uFEFF';

export interface FileChangeInput {
  readonly path: string;
  readonly absolutePath: string;
  /** null for a file that did not exist. */
  readonly before: { readonly text: string; readonly sha256: string } | null;
  readonly after: { readonly text: string; readonly sha256: string };
}

/**
 * The record of one write or edit (docs/design.md §10): exact counts, hunks with three
 * lines of context, both digests and what undo needs to restore.
 */
export function fileChangeArtifact(input: FileChangeInput): FileChangeArtifact {
  const beforeText = input.before?.text ?? '';
  // A byte-order mark both sides keep is not content (docs/contract.md §3.4): the hunks show the text as read shows it; one added or removed is a change and shows.
  const keptMark = beforeText.startsWith(BOM) && input.after.text.startsWith(BOM) ? 1 : 0;
  const patch = structuredPatch(input.path, input.path, beforeText.slice(keptMark), input.after.text.slice(keptMark), '', '', { context: 3 });
  let added = 0;
  let removed = 0;
  const hunks = patch.hunks.map((hunk) => {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
    return { oldStart: hunk.oldStart, oldLines: hunk.oldLines, newStart: hunk.newStart, newLines: hunk.newLines, lines: [...hunk.lines] };
  });
  return {
    kind: 'file_change',
    changeId: randomUUID(),
    path: input.path,
    absolutePath: input.absolutePath,
    change: input.before ? 'modify' : 'create',
    added,
    removed,
    hunks,
    beforeSha256: input.before?.sha256 ?? null,
    afterSha256: input.after.sha256,
    originalContent: input.before?.text ?? null,
    undone: false,
  };
}
