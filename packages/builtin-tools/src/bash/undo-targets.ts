import { posix } from 'node:path';
import { createCommandClassifier } from '@openwork/bash-classifier';
import { ToolError, type FileChangeArtifact, type PermissionDecision, type TextEncoding } from '@openwork/tool-contract';
import type { CheckedPath } from '@openwork/path-guard';
import type { BuiltinSession } from '../session.ts';
import { absoluteOf } from '../common/absolute.ts';
import { commitRecorded } from '../common/artifact-journal.ts';
import { fileChangeArtifact } from '../common/file-change.ts';
import { decodeText, encodingField, sha256 } from '../common/text.ts';

/** One file a gate command may write, with its content from before the command ran; null when it did not exist. */
interface TargetBefore {
  readonly path: CheckedPath;
  readonly before: { readonly text: string; readonly sha256: string; readonly encoding?: TextEncoding } | null;
}

/** The files a line the filesystem gate let run may write, and what the command left alone for undo. */
export interface UndoTargets {
  readonly targets: readonly TargetBefore[];
  /** Targets whose state from before could not be kept (a directory, a binary or too large file): undo cannot restore them. */
  readonly notes: readonly string[];
}

type FileState = TargetBefore['before'] | string;

/** The file's text and digest, null when it does not exist, or why it cannot be kept as text. */
async function fileState(session: BuiltinSession, path: CheckedPath, signal: AbortSignal): Promise<FileState> {
  let bytes: Uint8Array;
  try {
    bytes = await session.filesystem.readFile(path, { maxBytes: session.limits.maxContentBytes, signal });
  } catch (error) {
    if (error instanceof ToolError && error.kind === 'not_found') return null;
    if (error instanceof ToolError) return `${path.displayPath} (${error.kind})`;
    throw error;
  }
  try {
    const decoded = decodeText(bytes, path.displayPath);
    return { text: decoded.bom ? `\uFEFF${decoded.text}` : decoded.text, sha256: sha256(bytes), ...encodingField(decoded) };
  } catch (error) {
    if (error instanceof ToolError) return `${path.displayPath} (${error.kind})`;
    throw error;
  }
}

/**
 * Before a line the acceptEdits filesystem gate let run: the state of every
 * file it names as a target (`sed -i`, redirections, `cp`, `mv`, `touch`),
 * so its changes can be recorded as `write` records them (docs/contract.md §4.5).
 */
export async function undoTargetsBefore(
  session: BuiltinSession,
  command: string,
  cwd: string,
  decision: PermissionDecision | undefined,
  signal: AbortSignal,
): Promise<UndoTargets | undefined> {

  if (decision?.verdict !== 'allow' || !decision.rule.includes('filesystem_gate:')) return undefined;
  const classification = (await createCommandClassifier()).classify(command, { mode: 'acceptEdits' });
  if (classification.list !== 'filesystem_gate') return undefined;
  const targets: TargetBefore[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const written of [...classification.writePaths, ...classification.writeThrough]) {
    let path: CheckedPath;
    try {
      path = await session.paths.resolvePath(posix.resolve(cwd, written), 'write', 'may_create', { signal });
    } catch (error) {
      if (error instanceof ToolError) continue;
      throw error;
    }
    const key = session.paths.canonicalKey(path);
    if (seen.has(key) || path.kind === 'directory' || written === '/dev/null') continue;
    seen.add(key);
    const before = await fileState(session, path, signal);
    if (typeof before === 'string') notes.push(before);
    else targets.push({ path, before });
  }
  return { targets, notes };
}

/**
 * After the line ran: a file_change artifact for every target whose content
 * changed, recorded in the session's journal as write records its change.
 * A line that removed a target records nothing: undo restores files, not
 * removals, and undoing only the rest (the destination of an `mv`) would
 * lose the only copy of what the removed file held.
 */
export async function recordUndoTargets(session: BuiltinSession, undo: UndoTargets, signal: AbortSignal): Promise<{ artifacts: FileChangeArtifact[]; notes: string[] }> {
  const artifacts: FileChangeArtifact[] = [];
  const notes = [...undo.notes];
  const changed: FileChangeArtifact[] = [];
  const removed: string[] = [];
  for (const target of undo.targets) {
    const { before } = target;
    // Resolved again: sed -i, mv and cp put a new file in the old one's place.
    let path: CheckedPath;
    try {
      path = await session.paths.resolvePath(absoluteOf(session.paths, target.path), 'write', 'may_create', { signal });
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      notes.push(`${target.path.displayPath} (${error.kind})`);
      continue;
    }
    const after = await fileState(session, path, signal);
    if (typeof after === 'string') {
      notes.push(after);
      continue;
    }
    if (after === null) {
      if (before !== null) removed.push(path.displayPath);
      continue;
    }
    if (before !== null && before.sha256 === after.sha256) continue;
    const original = before?.encoding === undefined ? {} : { encoding: before.encoding };
    changed.push({ ...fileChangeArtifact({ path: path.displayPath, absolutePath: absoluteOf(session.paths, path), before, after }), ...original });
  }
  // Undoing the rest of a line that removed a file (`mv a b`) would remove or overwrite the only copy of what it held.
  if (removed.length > 0) {
    notes.push(...removed.map((path) => `${path} (removed)`), ...changed.map((change) => `${change.path} (the line also removed a file, which undo cannot bring back)`));
    return { artifacts, notes };
  }
  for (const artifact of changed) {
    await commitRecorded(session, artifact, signal, () => Promise.resolve());
    artifacts.push(artifact);
  }
  return { artifacts, notes };
}
