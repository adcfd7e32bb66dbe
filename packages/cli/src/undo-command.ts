import { resolve } from 'node:path';
import { undoChanges, type BuiltinSession, type UndoReport } from '@openwork/builtin-tools';
import type { CliOptions } from './args.ts';
import type { CommandIo } from './call-command.ts';
import type { ParsedJournal } from './journal-format.ts';
import { updateJournal } from './journal.ts';
import { terminalQuestion } from './prompt.ts';
import { createSession } from './session.ts';
import { requireTrustedJournal, undoAuthorizer } from './undo-decisions.ts';
import { UsageError } from './usage-error.ts';

/** Why a change was skipped, when it is not simply already undone. */
const NEVER_MADE = 'never made: its write failed, so there is nothing to undo';
const NOT_COMPLETED = 'never completed: the file still has its content from before the change, so there is nothing to undo';

interface Outcome {
  readonly report: UndoReport;
  /** Skipped change → why, for changes skipped for another reason than being undone already. */
  readonly reasons: ReadonlyMap<string, string>;
  /** What the person should know about the journal itself (torn lines). */
  readonly notes: readonly string[];
}

function describe(outcome: Outcome): string {
  const { report, reasons } = outcome;
  const lines = [
    ...report.undone.map((id) => `undone    ${id}`),
    ...report.conflicts.map((conflict) => `conflict  ${conflict.changeId}  ${conflict.path}: ${conflict.reason}`),
    ...report.skipped.map((id) => `skipped   ${id} (${reasons.get(id) ?? 'already undone'})`),
  ];
  return lines.length > 0 ? lines.join('\n') : 'nothing to undo';
}

type Authorize = NonNullable<Parameters<typeof undoChanges>[2]['authorize']>;

async function undoFrom(journal: ParsedJournal, file: string, options: CliOptions, session: BuiltinSession, authorize: Authorize): Promise<Outcome> {
  const wanted = new Set(options.changes);
  for (const id of wanted) {
    if (!journal.changes.some((change) => change.changeId === id)) throw new UsageError(`no change ${id} in ${file}`);
  }
  const selected = wanted.size === 0 ? journal.changes : journal.changes.filter((change) => wanted.has(change.changeId));
  // A change whose commit failed was never made: nothing on disk to compare, nothing to restore.
  const abandoned = selected.filter((change) => !change.undone && journal.abandoned.has(change.changeId)).map((change) => change.changeId);
  const attempted = selected.filter((change) => !abandoned.includes(change.changeId));
  const result = await undoChanges(session, attempted, { signal: new AbortController().signal, unconfirmed: journal.unconfirmed, authorize });
  const reasons = new Map<string, string>([...abandoned.map((id): [string, string] => [id, NEVER_MADE]), ...Object.entries(result.reasons)]);
  const previouslyUndone = new Set(selected.filter((change) => change.undone).map((change) => change.changeId));
  for (const id of result.skipped) {
    if (!previouslyUndone.has(id) && journal.unconfirmed.has(id)) reasons.set(id, NOT_COMPLETED);
  }
  const notes = journal.torn.map((line) => `line ${line.number} of ${file} is torn (an append that never finished); it was skipped, and kept in the journal as it is`);
  return { report: { ...result, skipped: [...result.skipped, ...abandoned], reasons: Object.fromEntries(reasons) }, reasons, notes };
}

/** `openwork-tools undo --artifacts FILE [--change ID]...` (docs/contract.md §4). */
export async function undoCommand(options: CliOptions, io: CommandIo): Promise<number> {
  if (options.artifacts === undefined) throw new UsageError('undo needs --artifacts FILE, the journal written by call --artifacts');
  if (options.positionals.length > 0) throw new UsageError('undo takes no positional arguments');
  const file = resolve(options.artifacts);
  const { session, host } = await createSession(options);
  // Asks go to a person on the terminal; --yes approves none of them (docs/contract.md §4.5).
  const question = io.interactive ? terminalQuestion : undefined;
  let outcome: Outcome;
  try {
    await requireTrustedJournal(session, file, { trustJournal: options.trustJournal, question });
    const authorize = await undoAuthorizer(session, { mode: options.mode, question });
    outcome = await updateJournal(file, async (journal) => {
      const done = await undoFrom(journal, file, options, session, authorize);
      return { result: done, undone: done.report.undone };
    });
  } finally {
    await host.dispose();
  }
  for (const note of outcome.notes) io.stderr(`openwork-tools: note: ${note}\n`);
  // The JSON report keeps the contract's fields exactly (docs/contract.md §4), so its reasons go to stderr; the text report has them inline.
  if (options.json) for (const [id, reason] of outcome.reasons) io.stderr(`openwork-tools: note: change ${id} was skipped: ${reason}\n`);
  const { undone, conflicts, skipped } = outcome.report;
  io.stdout(options.json ? `${JSON.stringify({ undone, conflicts, skipped })}\n` : `${describe(outcome)}\n`);
  return conflicts.length > 0 ? 1 : 0;
}
