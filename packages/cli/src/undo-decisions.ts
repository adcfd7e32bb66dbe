import type { BuiltinSession } from '@openwork/builtin-tools';
import { decide, type PermissionMode } from '@openwork/permission-policy';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import { isToolError } from '@openwork/tool-contract';
import type { PutQuestion } from './folder-trust.ts';
import { readProjectSettings } from './project-settings.ts';
import { UsageError } from './usage-error.ts';
import { readUserSettings, userSettingsFile } from './user-settings-file.ts';

export interface UndoDecisionOptions {
  readonly mode: PermissionMode;
  /** Who is asked about a protected directory or a journal inside a root; undefined when nobody can be. */
  readonly question: PutQuestion | undefined;
}

/**
 * Each restore decided as a `write` of that file would be now
 * (docs/contract.md §4.5): the deny rules apply, readOnly restores nothing,
 * and a file in `.git/` or `.openwork/` is restored only when a person on
 * the terminal says so. Running undo is the person's approval of the
 * ordinary edits it makes, as `acceptEdits` would give.
 */
export async function undoAuthorizer(session: BuiltinSession, options: UndoDecisionOptions): Promise<(change: FileChangeArtifact, signal: AbortSignal) => Promise<string | undefined>> {
  const user = await readUserSettings(userSettingsFile());
  const project = await readProjectSettings(session.workingDirectory);
  const deny = [...user.deny, ...(project?.settings.deny ?? [])];
  const mode: PermissionMode = options.mode === 'readOnly' ? 'readOnly' : 'acceptEdits';
  return async (change, signal) => {
    const request = { definition: { name: 'write' }, effect: { kind: 'write', paths: [change.absolutePath] }, signal } as const;
    const decision = await decide(request, { mode, paths: session.paths, deny });
    if (decision.verdict === 'allow') return undefined;
    if (decision.verdict === 'deny') return `refused as a write would be: ${decision.reason}`;
    const asked = options.question === undefined ? 'unanswered' : await options.question(`Undo writes ${change.absolutePath}: ${decision.reason}. Restore it?`, signal);
    if (asked === 'approved') return undefined;
    const why = asked === 'refused' ? 'you said no' : 'there is no terminal to ask; run undo on a terminal to be asked';
    return `not restored: ${decision.reason} (${why})`;
  };
}

/**
 * A journal the tools could have written (inside a writable root) is a script
 * for undo: it is used only when the person says so, by `--trust-journal`
 * or on the terminal.
 */
export async function requireTrustedJournal(session: BuiltinSession, file: string, options: { trustJournal: boolean; question: PutQuestion | undefined }): Promise<void> {
  if (options.trustJournal) return;
  const writable = await session.paths.resolvePath(file, 'write', 'may_create').then(
    (checked) => checked,
    (error: unknown) => {
      if (isToolError(error)) return undefined;
      throw error;
    },
  );
  if (writable === undefined) return;
  const why = `the journal ${file} is inside a writable root, where the tools (and so the model) can change it, and a changed journal would make undo write what it says`;
  const answer = options.question === undefined ? 'unanswered' : await options.question(`${why}. Undo from it?`, new AbortController().signal);
  if (answer === 'approved') return;
  throw new UsageError(`${why}; pass --trust-journal if you know it is the one call --artifacts wrote${answer === 'refused' ? '' : ', or run undo on a terminal to be asked'}`);
}
