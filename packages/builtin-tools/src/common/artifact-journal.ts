import { abortKind, ToolError, type FileChangeArtifact } from '@openwork/tool-contract';
import type { BuiltinSession } from '../session.ts';

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Runs the commit of one file change between the session's two journal
 * records (docs/decisions/0002-undo-promises.md): the change with its
 * original content is recorded first, so a failure at any step leaves either
 * the old file or the new file with its undo record, never a changed file
 * whose original is lost. Without a journal it only commits.
 */
export async function commitRecorded<T>(
  session: BuiltinSession,
  change: FileChangeArtifact,
  signal: AbortSignal,
  commit: () => Promise<T>,
): Promise<T> {
  const journal = session.changeJournal;
  if (journal === undefined) return commit();
  try {
    await journal.begin(change, { signal });
  } catch (error) {
    // A cancel while waiting for the journal is the call's cancel, not a journal failure.
    if (abortKind(signal) && !(error instanceof ToolError)) throw error;
    throw new ToolError(
      'io',
      `${change.path} was left unchanged: the undo journal could not record the change before it was made (${reasonOf(error)}); make the journal writable (free some space), then retry`,
      { cause: error },
    );
  }
  let committed: T;
  try {
    committed = await commit();
  } catch (error) {
    // The file is as it was; a failed mark only leaves a record that undo resolves by the file's digest.
    await journal.abandon(change).catch(() => undefined);
    throw error;
  }
  try {
    await journal.complete(change);
  } catch (error) {
    throw new ToolError(
      'io',
      `${change.path} was changed, but the undo journal could not mark the change complete (${reasonOf(error)}); the record written before the change keeps it undoable, so do not repeat the change`,
      { cause: error },
    );
  }
  return committed;
}
