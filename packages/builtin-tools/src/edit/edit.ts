import { defineTool, ToolError, type FileChangeArtifact } from '@openwork/tool-contract';
import Type from 'typebox';
import { descriptions } from '../descriptions.generated.ts';
import type { BuiltinSession } from '../session.ts';
import { inChangeQueue } from '../common/change-queue.ts';
import { absoluteOf } from '../common/absolute.ts';
import { commitRecorded } from '../common/artifact-journal.ts';
import { fileChangeArtifact } from '../common/file-change.ts';
import { decodeText, encodeText, encodingField, formatBytes, sha256 } from '../common/text.ts';
import { lineEndings, toCrlf, toLf } from './line-endings.ts';
import { lineOf, nearestLines, occurrences, replaceLiteral } from './matching.ts';
import { changedElsewhere, changedLineRanges } from './since-read.ts';
import { createFile } from './create-file.ts';
import { dryRunOutcome } from './dry-run.ts';
import { EditOutput } from '../common/output-schemas.ts';
import { refuseDirectoryForm } from '../write/file-path.ts';

/** Most edits one call may carry. */
export const MAX_EDITS = 100;

export const EditInput = Type.Object({
  path: Type.String(),
  oldText: Type.Optional(Type.String({ description: 'Empty only to create a file.' })),
  newText: Type.Optional(Type.String()),
  replaceAll: Type.Optional(Type.Boolean()),
  edits: Type.Optional(
    Type.Array(
      Type.Object(
        {
          oldText: Type.String({ minLength: 1 }),
          newText: Type.String(),
          replaceAll: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: MAX_EDITS,
        description: 'Instead of oldText/newText: several, applied in order, all or none.',
      },
    ),
  ),
  dryRun: Type.Optional(Type.Boolean({ description: 'Return the unified diff the edit would apply and change nothing.' })),
});

interface Replacement {
  readonly oldText: string;
  readonly newText: string;
  readonly replaceAll?: boolean;
}

/** The call's replacements: the single form or the list, never both (invalid_input names the fix). */
function replacementsOf(input: { oldText?: string; newText?: string; replaceAll?: boolean; edits?: readonly Replacement[] }): readonly Replacement[] {
  const single = input.oldText !== undefined || input.newText !== undefined;
  if (input.edits !== undefined) {
    if (single || input.replaceAll !== undefined) {
      throw new ToolError('invalid_input', 'give either oldText/newText/replaceAll or edits, not both; put every replacement in edits');
    }
    return input.edits;
  }
  if (input.oldText === undefined || input.newText === undefined) {
    throw new ToolError('invalid_input', 'edit needs oldText and newText (or an edits list of {oldText, newText})');
  }
  return [{ oldText: input.oldText, newText: input.newText, ...(input.replaceAll === undefined ? {} : { replaceAll: input.replaceAll }) }];
}

export interface EditData {
  readonly path: string;
  readonly replacements: number;
  /** Whether the file was created (with `dryRun`, would be). */
  readonly created: boolean;
  /** Present on a dry run, which writes nothing. */
  readonly dryRun?: true;
  /** A dry run's unified diff. */
  readonly diff?: string;
}

interface Planned {
  readonly text: string;
  readonly replacements: number;
}

/** Finds oldText the way the description promises: exactly, or with the file's CRLF endings. */
function plan(text: string, oldText: string, newText: string, replaceAll: boolean, displayPath: string): Planned {
  const endings = lineEndings(text);
  const candidates: [string, string][] = [];
  if (endings === 'crlf') candidates.push([toCrlf(oldText), toCrlf(newText)]);
  // docs/contract.md §2.4: the new text takes the file's line ending, so an LF file never gets CRLF lines mixed in.
  else if (endings === 'lf') candidates.push([oldText, toLf(newText)]);
  else {
    candidates.push([oldText, newText]);
    if (endings === 'mixed' && oldText.includes('\n')) candidates.push([toCrlf(oldText), toCrlf(newText)]);
  }
  for (const [from, to] of candidates) {
    const found = occurrences(text, from);
    if (found.length === 0) continue;
    if (found.length > 1 && !replaceAll) {
      const lines = found.map((offset) => lineOf(text, offset));
      throw new ToolError(
        'ambiguous_match',
        `oldText appears ${found.length} times in ${displayPath} (lines ${lines.join(', ')}); add surrounding lines to make it unique, or set replaceAll`,
      );
    }
    return { text: replaceLiteral(text, from, to, replaceAll), replacements: replaceAll ? found.length : 1 };
  }
  const near = nearestLines(text, oldText);
  const hint = near.length > 0 ? `; the closest lines are:\n${near.map((entry) => `${String(entry.line).padStart(6)}\t${entry.text}`).join('\n')}` : '';
  throw new ToolError('no_match', `oldText was not found in ${displayPath}; it must match exactly, including whitespace${hint}\nRead the file again and copy the text exactly.`);
}

export const editTool = defineTool({
  id: 'filesystem/edit',
  name: 'edit',
  description: descriptions.edit,
  risk: 'write',
  input: EditInput,
  output: EditOutput,
  // A dry run changes nothing and shows the file's lines, as a read does (docs/contract.md §2.4).
  effect: (input) => ({ kind: input.dryRun === true ? 'read' : 'write', paths: [input.path] }),
  // docs/design.md §10: one line with the session's other changes and its undo.
  execute: (session: BuiltinSession, call, input) =>
    inChangeQueue(session, call.signal, async () => {
      const replacements = replacementsOf(input);
      replacements.forEach((replacement, index) => {
        if (replacement.oldText !== replacement.newText) return;
        const which = replacements.length === 1 ? '' : `edit ${index + 1}: `;
        throw new ToolError('no_change', `${which}oldText and newText are the same, so the edit would change nothing; give the text you want instead`);
      });
      const { signal } = call;
      const dryRun = input.dryRun === true;
      refuseDirectoryForm(input.path);
      const first = replacements[0];
      if (replacements.length === 1 && first !== undefined && first.oldText === '') {
        const path = await session.paths.resolvePath(input.path, 'write', 'may_create', { signal });
        if (path.exists) {
          throw new ToolError('already_exists', `${path.displayPath} already exists; an empty oldText only creates new files: give the text to replace, or use write`);
        }
        return createFile(session, path, first.newText, { signal, dryRun });
      }
      const path = await session.paths.resolvePath(input.path, 'write', 'must_exist', { signal });
      if (path.kind === 'directory') throw new ToolError('is_directory', `${path.displayPath} is a directory; give a file path`);
      // docs/design.md §9 edit: one write lock per canonical path; read, compute, re-check the digest, commit.
      return session.filesystem.withLock(
        path,
        async () => {
          const bytes = await session.filesystem.readFile(path, { maxBytes: session.limits.maxContentBytes, signal });
          const digest = sha256(bytes);
          const key = session.paths.canonicalKey(path);
          const seen = session.readLedger.seen(key);
          const decoded = decodeText(bytes, path.displayPath);
          let note = '';
          if (seen !== undefined && seen.sha256 !== digest) {
            // A change elsewhere in the file (a formatter, another edit) need not send the model back to read it all again.
            if (seen.text === undefined || !changedElsewhere(seen.text, decoded.text, replacements)) {
              throw new ToolError('stale', `${path.displayPath} changed on disk since you last read it, around the text you are replacing; read it again, then edit`);
            }
            note = `\nNote: ${path.displayPath} changed since you last read it (now lines ${changedLineRanges(seen.text, decoded.text)}); the lines around your edit were unchanged, so it was applied. Read the file again before you edit those lines.`;
          }
          // docs/design.md §9: still exact matching, applied in memory in order; one digest check and one write for all.
          let planned: Planned = { text: decoded.text, replacements: 0 };
          for (const [index, replacement] of replacements.entries()) {
            try {
              const step = plan(planned.text, replacement.oldText, replacement.newText, replacement.replaceAll === true, path.displayPath);
              planned = { text: step.text, replacements: planned.replacements + step.replacements };
            } catch (error) {
              if (!(error instanceof ToolError) || replacements.length === 1) throw error;
              throw new ToolError(error.kind, `edit ${index + 1} of ${replacements.length} failed, so none was applied and ${path.displayPath} is unchanged: ${error.message}`);
            }
          }
          // The file keeps its encoding and its byte-order mark (UTF-16 included).
          const afterBytes = encodeText({ ...decoded, text: planned.text });
          if (afterBytes.length > session.limits.maxContentBytes) {
            throw new ToolError('too_large', `the edited file would be ${formatBytes(afterBytes.length)}, above the ${formatBytes(session.limits.maxContentBytes)} limit`);
          }
          const afterDigest = sha256(afterBytes);
          const bom = decoded.bom ? '\uFEFF' : '';
          const artifact: FileChangeArtifact = {
            ...fileChangeArtifact({
              path: path.displayPath,
              absolutePath: absoluteOf(session.paths, path),
              before: { text: bom + decoded.text, sha256: digest },
              after: { text: bom + planned.text, sha256: afterDigest },
            }),
            // Undo writes the original back in this encoding, so it gets the exact bytes again.
            ...encodingField(decoded),
          };
          // No write, no journal entry, and the read ledger as it was: a later edit is checked as if this never ran.
          if (dryRun) return dryRunOutcome(artifact, planned.replacements, note);
          // The backend compares the digest again right before the rename: a concurrent change is `stale`.
          await commitRecorded(session, artifact, signal, () => session.filesystem.writeFile(path, afterBytes, { signal, expectedSha256: digest }));
          session.readLedger.remember(key, afterDigest, planned.text);
          const data: EditData = { path: path.displayPath, replacements: planned.replacements, created: false };
          const summary = `Edited ${path.displayPath}: ${planned.replacements} replacement${planned.replacements === 1 ? '' : 's'} (+${artifact.added} -${artifact.removed} lines)`;
          return { data, output: summary + note, artifacts: [artifact] };
        },
        { signal },
      );
    }),
});
