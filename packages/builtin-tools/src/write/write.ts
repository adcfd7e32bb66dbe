import { defineTool, ToolError, type TextEncoding } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { inChangeQueue } from '../common/change-queue.ts';
import { absoluteOf } from '../common/absolute.ts';
import { commitRecorded } from '../common/artifact-journal.ts';
import { fileChangeArtifact } from '../common/file-change.ts';
import { decodeText, encodeUtf8, encodingField, formatBytes, sha256 } from '../common/text.ts';
import { WriteOutput } from '../common/output-schemas.ts';
import { refuseDirectoryForm } from './file-path.ts';

export const WriteInput = Type.Object({
  path: Type.String(),
  content: Type.String(),
});

export interface WriteData {
  readonly path: string;
  readonly created: boolean;
  readonly bytes: number;
}

export const writeTool = defineTool({
  id: 'filesystem/write',
  name: 'write',
  description: descriptions.write,
  risk: 'write',
  input: WriteInput,
  output: WriteOutput,
  effect: (input) => ({ kind: 'write', paths: [input.path] }),
  // docs/design.md §10: one line with the session's other changes and its undo.
  execute: (session: BuiltinSession, call, input) =>
    inChangeQueue(session, call.signal, async () => {
      refuseDirectoryForm(input.path);
      const bytes = encodeUtf8(input.content);
      const { maxContentBytes } = session.limits;
      if (bytes.length > maxContentBytes) {
        throw new ToolError('too_large', `content is ${formatBytes(bytes.length)}, above the ${formatBytes(maxContentBytes)} limit of one write; write a smaller file`);
      }
      // docs/design.md §9 write: MayCreate checks the real parent; parents are created one level at a time.
      const path = await session.paths.resolvePath(input.path, 'write', 'may_create', { signal: call.signal });
      if (path.kind === 'directory') throw new ToolError('is_directory', `${path.displayPath} is a directory; give a file path`);
      return session.filesystem.withLock(
        path,
        async () => {
          let before: { text: string; sha256: string } | null = null;
          let original: { readonly encoding?: TextEncoding } = {};
          if (path.exists) {
            const old = await session.filesystem.readFile(path, { maxBytes: maxContentBytes, signal: call.signal }).catch((error: unknown) => {
              if (error instanceof ToolError && error.kind === 'too_large') {
                throw new ToolError('too_large', `${path.displayPath} is larger than ${formatBytes(maxContentBytes)}; it cannot be replaced, because the change could not be undone`);
              }
              throw error;
            });
            const decoded = decodeText(old, path.displayPath);
            before = { text: decoded.bom ? `\uFEFF${decoded.text}` : decoded.text, sha256: sha256(old) };
            original = encodingField(decoded);
          }
          const after = { text: input.content, sha256: sha256(bytes) };
          const unchanged = before !== null && before.sha256 === after.sha256;
          // The artifact is made before the commit, so a journal can hold it (with the original) first.
          // The new content is UTF-8; undo writes the original back in its own encoding (a UTF-16 file replaced by write).
          const artifact = unchanged ? undefined : { ...fileChangeArtifact({ path: path.displayPath, absolutePath: absoluteOf(session.paths, path), before, after }), ...original };
          const commit = () =>
            session.filesystem.writeFile(path, bytes, {
              signal: call.signal,
              createParents: true,
              expectedSha256: before?.sha256 ?? null,
            });
          const result = artifact === undefined ? await commit() : await commitRecorded(session, artifact, call.signal, commit);
          session.readLedger.remember(session.paths.canonicalKey(path), after.sha256, input.content);
          const data: WriteData = { path: path.displayPath, created: result.created, bytes: result.bytes };
          const artifacts = artifact === undefined ? [] : [artifact];
          const verb = result.created ? 'Created' : unchanged ? 'Rewrote (unchanged)' : 'Overwrote';
          return { data, output: `${verb} ${path.displayPath} (${result.bytes} bytes)`, artifacts };
        },
        { signal: call.signal },
      );
    }),
});
