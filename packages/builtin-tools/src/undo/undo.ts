import { ToolError, type FileChangeArtifact } from '@openwork/tool-contract';
import type { CheckedPath } from '@openwork/path-guard';
import type { BuiltinSession } from '../session.ts';
import { inChangeQueue } from '../common/change-queue.ts';
import { encodeIn, sha256 } from '../common/text.ts';
import { entryDisagreement } from './entry-check.ts';

export interface UndoConflict {
  readonly changeId: string;
  readonly path: string;
  readonly reason: string;
}

/** docs/contract.md §4: every change of the batch lands in exactly one list. */
export interface UndoReport {
  readonly undone: readonly string[];
  readonly conflicts: readonly UndoConflict[];
  readonly skipped: readonly string[];
  /** Why each change in `skipped` was left, when it is not simply undone already. */
  readonly reasons: Readonly<Record<string, string>>;
}

export interface UndoOptions {
  readonly signal: AbortSignal;
  /**
   * Changes recorded before they were made whose completion was never
   * recorded (a write-ahead journal, docs/decisions/0002-undo-promises.md).
   * One whose file still has its content from before was never made: it is
   * skipped, not a conflict.
   */
  readonly unconfirmed?: ReadonlySet<string>;
  /**
   * Decides a restore as a `write` of that file would be decided now
   * (docs/contract.md §4.5): a reason refuses it, and the change is skipped
   * with that reason. Absent: every restore the path guard passes runs.
   */
  readonly authorize?: (change: FileChangeArtifact, signal: AbortSignal) => Promise<string | undefined>;
}

/** The session parts undo needs: the guard of the undo's own roots and the file system. */
export type UndoSession = Pick<BuiltinSession, 'paths' | 'filesystem' | 'limits' | 'changeQueue'>;

async function currentDigest(session: UndoSession, path: CheckedPath, signal: AbortSignal): Promise<string | null> {
  if (!path.exists) return null;
  const bytes = await session.filesystem.readFile(path, { maxBytes: session.limits.maxContentBytes + 1, signal }).catch((error: unknown) => {
    if (error instanceof ToolError && error.kind === 'too_large') return 'too large to be the recorded content';
    // Removed since it was resolved: no content, which no recorded digest matches but a create's "before".
    if (error instanceof ToolError && error.kind === 'not_found') return null;
    // Changed while it was read (by another process): not the content undo would restore over.
    if (error instanceof ToolError && error.kind === 'stale') return 'changing while it was checked';
    throw error;
  });
  return typeof bytes === 'string' || bytes === null ? bytes : sha256(bytes);
}

/** What became of one change: restored, left alone because it was never made, or a conflict. */
type UndoOutcome =
  | { readonly kind: 'undone' }
  | { readonly kind: 'never_made' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'conflict'; readonly conflict: UndoConflict };

const UNDONE: UndoOutcome = { kind: 'undone' };
const NEVER_MADE: UndoOutcome = { kind: 'never_made' };

async function undoOne(session: UndoSession, change: FileChangeArtifact, unconfirmed: boolean, options: UndoOptions): Promise<UndoOutcome> {
  const { signal } = options;
  const conflict = (reason: string): UndoOutcome => ({ kind: 'conflict', conflict: { changeId: change.changeId, path: change.path, reason } });
  const disagreement = entryDisagreement(change);
  if (disagreement !== undefined) return { kind: 'refused', reason: `not a change undo can reverse: ${disagreement}` };
  let path: CheckedPath;
  try {
    // Through the guard of the undo's roots: a journal cannot send undo outside them.
    path = await session.paths.resolvePath(change.absolutePath, 'write', 'may_create', { signal });
  } catch (error) {
    return conflict(error instanceof ToolError ? `${error.kind}: ${error.message}` : String(error));
  }
  const refusal = await options.authorize?.(change, signal);
  if (refusal !== undefined) return { kind: 'refused', reason: refusal };
  return session.filesystem.withLock(
    path,
    async () => {
      const digest = await currentDigest(session, path, signal);
      // A change recorded ahead whose file still has the content from before never happened.
      if (unconfirmed && digest === change.beforeSha256) return NEVER_MADE;
      // docs/design.md §10: a hash mismatch is a conflict, never an overwrite.
      if (digest !== change.afterSha256) {
        if (unconfirmed) return conflict('the change may never have been made (its completion was not recorded), and the file has neither its content from before nor after it; it was left as it is');
        return conflict(digest === null ? 'the file no longer exists' : 'the file changed after this change; it was left as it is');
      }
      try {
        if (change.change === 'create') {
          await session.filesystem.removeFile(path, { expectedSha256: change.afterSha256, signal });
        } else {
          // In the encoding the original had (absent: UTF-8), so the file gets its exact bytes back.
          await session.filesystem.writeFile(path, encodeIn(change.originalContent ?? '', change.encoding), { signal, expectedSha256: change.afterSha256 });
        }
      } catch (error) {
        if (error instanceof ToolError && (error.kind === 'stale' || error.kind === 'conflict')) {
          return conflict('the file changed while it was being restored; it was left as it is');
        }
        return conflict(error instanceof ToolError ? `${error.kind}: ${error.message}` : String(error));
      }
      return UNDONE;
    },
    { signal },
  );
}

/**
 * Undoes a batch newest first (docs/design.md §10: several changes to one path undo in
 * reverse, so create-then-edit ends with the file gone). Already undone
 * changes, and unconfirmed ones that were never made, are skipped; a
 * conflict stops nothing else.
 */
export function undoChanges(session: UndoSession, changes: readonly FileChangeArtifact[], options: UndoOptions): Promise<UndoReport> {
  // docs/design.md §10: the whole batch in series with the session's new changes.
  return inChangeQueue(session, options.signal, () => undoBatch(session, changes, options));
}

async function undoBatch(session: UndoSession, changes: readonly FileChangeArtifact[], options: UndoOptions): Promise<UndoReport> {
  const undone: string[] = [];
  const conflicts: UndoConflict[] = [];
  const skipped: string[] = [];
  // A Map, then own properties: a change id such as "__proto__" is a key like any other.
  const reasons = new Map<string, string>();
  for (const change of [...changes].reverse()) {
    if (change.undone) {
      skipped.push(change.changeId);
      continue;
    }
    const outcome = await undoOne(session, change, options.unconfirmed?.has(change.changeId) ?? false, options);
    if (outcome.kind === 'conflict') conflicts.push(outcome.conflict);
    else if (outcome.kind === 'refused') {
      skipped.push(change.changeId);
      reasons.set(change.changeId, outcome.reason);
    }
    else if (outcome.kind === 'never_made') skipped.push(change.changeId);
    else undone.push(change.changeId);
  }
  return { undone, conflicts, skipped, reasons: Object.fromEntries(reasons) };
}
