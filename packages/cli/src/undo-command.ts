import { resolve } from 'node:path';
import { undoChanges, type UndoReport } from '@openwork/builtin-tools';
import type { CliOptions } from './args.ts';
import type { CommandIo } from './call-command.ts';
import { updateJournal } from './journal.ts';
import { createSession } from './session.ts';
import { UsageError } from './usage-error.ts';

function describe(report: UndoReport): string {
  const lines = [
    ...report.undone.map((id) => `undone    ${id}`),
    ...report.conflicts.map((conflict) => `conflict  ${conflict.changeId}  ${conflict.path}: ${conflict.reason}`),
    ...report.skipped.map((id) => `skipped   ${id} (already undone)`),
  ];
  return lines.length > 0 ? lines.join('\n') : 'nothing to undo';
}

/** `openwork-tools undo --artifacts FILE [--change ID]...` (CONTRACT.md §4). */
export async function undoCommand(options: CliOptions, io: CommandIo): Promise<number> {
  if (options.artifacts === undefined) throw new UsageError('undo needs --artifacts FILE, the journal written by call --artifacts');
  if (options.positionals.length > 0) throw new UsageError('undo takes no positional arguments');
  const journal = resolve(options.artifacts);
  const session = await createSession(options);
  const controller = new AbortController();
  const report = await updateJournal(journal, async (changes) => {
    const wanted = new Set(options.changes);
    for (const id of wanted) {
      if (!changes.some((change) => change.changeId === id)) throw new UsageError(`no change ${id} in ${journal}`);
    }
    const selected = wanted.size === 0 ? changes : changes.filter((change) => wanted.has(change.changeId));
    const result = await undoChanges(session, selected, { signal: controller.signal });
    return { result, undone: result.undone };
  });
  await session.processes.dispose();
  io.stdout(options.json ? `${JSON.stringify(report)}\n` : `${describe(report)}\n`);
  return report.conflicts.length > 0 ? 1 : 0;
}
