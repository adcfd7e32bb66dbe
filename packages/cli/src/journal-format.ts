import type { FileChangeArtifact } from '@openwork/tool-contract';
import { UsageError } from './usage-error.ts';

/**
 * One `file_change` line: the artifact, with `pending: true` when it was
 * written ahead of its change (docs/decisions/0002-undo-promises.md). A line
 * without `pending` (every line of an older journal) is a complete change.
 */
export type JournalRecord = FileChangeArtifact & { readonly pending?: true };

/** The small line that follows a pending record: its change was made, or its commit failed. */
export interface JournalMark {
  readonly kind: 'file_change_complete' | 'file_change_abandoned';
  readonly changeId: string;
}

export type JournalLine = JournalRecord | JournalMark;

/** A line cut short by a full disk or a crash: kept as it is (it may hold part of an original), never read. */
export interface TornLine {
  readonly torn: string;
  /** Its line number, from 1. */
  readonly number: number;
}

export interface ParsedJournal {
  /** Every line, in order, for the rewrite. */
  readonly lines: readonly (JournalLine | TornLine)[];
  /** The recorded changes, oldest first. */
  readonly changes: readonly FileChangeArtifact[];
  /** Pending records with no mark: made or not, only the file's digest can tell. */
  readonly unconfirmed: ReadonlySet<string>;
  /** Pending records whose commit failed: never made. */
  readonly abandoned: ReadonlySet<string>;
  /** Lines of appends that did not finish, skipped. */
  readonly torn: readonly TornLine[];
}

/** Every line the journal writes starts with this, so a torn line is a prefix of it or starts with it. */
const LINE_START = '{"kind":"file_change';

export function journalLine(line: JournalLine | TornLine): string {
  return 'torn' in line ? `${line.torn}\n` : `${JSON.stringify(line)}\n`;
}

function isTorn(line: string): boolean {
  return line.startsWith(LINE_START) || LINE_START.startsWith(line);
}

function parseLine(file: string, line: string, number: number): JournalLine | 'torn' {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    // A journal line cut short by a full disk or a crash; anything else is not a journal.
    if (isTorn(line)) return 'torn';
    throw new UsageError(`${file} line ${number} is not a file_change artifact: ${error instanceof Error ? error.message : String(error)}`);
  }
  const candidate = value as { kind?: unknown; changeId?: unknown } | null;
  const known = candidate?.kind === 'file_change' || candidate?.kind === 'file_change_complete' || candidate?.kind === 'file_change_abandoned';
  if (!known || typeof candidate.changeId !== 'string') {
    throw new UsageError(`${file} line ${number} is not a file_change artifact (its kind is ${JSON.stringify(candidate?.kind ?? null)})`);
  }
  return value as JournalLine;
}

/** Reads the journal's lines; a torn line is skipped and counted, any other unreadable line refuses the file. */
export function parseJournal(file: string, text: string): ParsedJournal {
  const lines: (JournalLine | TornLine)[] = [];
  const whole: JournalLine[] = [];
  const torn: TornLine[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseLine(file, line, index + 1);
    if (parsed === 'torn') {
      const entry = { torn: line, number: index + 1 };
      torn.push(entry);
      lines.push(entry);
    } else {
      whole.push(parsed);
      lines.push(parsed);
    }
  });
  const changes = whole.filter((line): line is JournalRecord => line.kind === 'file_change');
  const marks = new Map<string, JournalMark['kind']>();
  for (const line of whole) {
    // A completion outranks an abandon: the file did change.
    if (line.kind !== 'file_change' && marks.get(line.changeId) !== 'file_change_complete') marks.set(line.changeId, line.kind);
  }
  const pending = changes.filter((change) => change.pending === true);
  return {
    lines,
    changes,
    unconfirmed: new Set(pending.filter((change) => !marks.has(change.changeId)).map((change) => change.changeId)),
    abandoned: new Set(pending.filter((change) => marks.get(change.changeId) === 'file_change_abandoned').map((change) => change.changeId)),
    torn,
  };
}
