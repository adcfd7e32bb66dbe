import { ToolError } from '@openwork/tool-contract';
import type { CheckedPath } from '@openwork/path-guard';
import type { BuiltinSession } from '../session.ts';
import { absoluteOf } from '../common/absolute.ts';
import { commitRecorded } from '../common/artifact-journal.ts';
import { fileChangeArtifact } from '../common/file-change.ts';
import { encodeUtf8, formatBytes, sha256 } from '../common/text.ts';
import { dryRunOutcome } from './dry-run.ts';
import type { EditData } from './edit.ts';

/** Whether a file is at the path now, checked afresh through the guard. */
async function existsNow(session: BuiltinSession, displayPath: string, signal: AbortSignal): Promise<boolean> {
  try {
    return (await session.paths.resolvePath(displayPath, 'read', 'must_exist', { signal })).exists;
  } catch {
    return false;
  }
}

/** edit with an empty oldText: creates the file with newText, or with `dryRun` shows the diff that would. */
export async function createFile(session: BuiltinSession, path: CheckedPath, newText: string, options: { readonly signal: AbortSignal; readonly dryRun: boolean }) {
  const { signal } = options;
  const bytes = encodeUtf8(newText);
  if (bytes.length > session.limits.maxContentBytes) {
    throw new ToolError('too_large', `newText is ${formatBytes(bytes.length)}, above the ${formatBytes(session.limits.maxContentBytes)} limit`);
  }
  if (options.dryRun) {
    const after = { text: newText, sha256: sha256(bytes) };
    return dryRunOutcome(fileChangeArtifact({ path: path.displayPath, absolutePath: absoluteOf(session.paths, path), before: null, after }), 0);
  }
  return session.filesystem.withLock(
    path,
    async () => {
      const after = { text: newText, sha256: sha256(bytes) };
      const artifact = fileChangeArtifact({ path: path.displayPath, absolutePath: absoluteOf(session.paths, path), before: null, after });
      const commit = () =>
        session.filesystem.writeFile(path, bytes, { signal, createParents: true, expectedSha256: null }).catch(async (error: unknown) => {
          // `stale` is also a directory swapped or a root replaced: only a file that now exists was created by someone else.
          if (error instanceof ToolError && error.kind === 'stale' && (await existsNow(session, path.displayPath, signal))) {
            throw new ToolError('already_exists', `${path.displayPath} was created by someone else just now; read it, then edit it with a non-empty oldText`);
          }
          throw error;
        });
      const result = await commitRecorded(session, artifact, signal, commit);
      session.readLedger.remember(session.paths.canonicalKey(path), after.sha256, newText);
      const data: EditData = { path: path.displayPath, replacements: 0, created: result.created };
      return { data, output: `Created ${path.displayPath} (${result.bytes} bytes)`, artifacts: [artifact] };
    },
    { signal },
  );
}
