import { randomBytes } from 'node:crypto';
import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { BuiltinSession, ChangeJournal } from '@openwork/builtin-tools';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import lockfile from 'proper-lockfile';
import { openJournalFile, readJournalFile } from './journal-file.ts';
import { journalLine, parseJournal, type JournalLine, type ParsedJournal, type TornLine } from './journal-format.ts';

/** Holds the journal's lock across processes for the length of one action. */
async function withJournalLock<T>(file: string, action: () => Promise<T>): Promise<T> {
  // The lock needs the file to exist; opening it to append creates it (never through a symlink).
  await (await openJournalFile(file, 'append')).close();
  const release = await lockfile.lock(file, { retries: { retries: 200, minTimeout: 5, maxTimeout: 100 }, stale: 10_000, realpath: false });
  try {
    return await action();
  } finally {
    await release();
  }
}

/** Which step a line belongs to, for a test's fault. */
export type JournalStep = 'begin' | 'complete' | 'abandon' | 'append';

export interface JournalOptions {
  /**
   * Writes the text at the end of the open journal; a test replaces it to
   * fail part way, as a full disk does. Default: the whole text.
   */
  readonly write?: (handle: FileHandle, text: string, step: JournalStep) => Promise<void>;
}

const writeAll = (handle: FileHandle, text: string) => handle.appendFile(text);

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Appends whole lines and fsyncs them before it returns. A write that fails
 * part way (ENOSPC) is cut back to the old end, so the journal never keeps a
 * torn line of ours; a torn line left by a crash is closed with a newline
 * first, so the new line stands alone.
 */
async function appendDurably(file: string, text: string, step: JournalStep, options: JournalOptions, signal?: AbortSignal): Promise<void> {
  await withJournalLock(file, async () => {
    // The lock may have been a long wait; a call cancelled meanwhile records nothing.
    signal?.throwIfAborted();
    const handle = await openJournalFile(file, 'append');
    let size: number;
    try {
      size = (await handle.stat()).size;
      let prefix = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) prefix = '\n';
      }
      try {
        await (options.write ?? writeAll)(handle, prefix + text, step);
        await handle.sync();
      } catch (error) {
        await handle.truncate(size).catch(() => undefined);
        await handle.sync().catch(() => undefined);
        throw error;
      }
    } finally {
      await handle.close();
    }
    // A journal made just now is durable only once its directory entry is.
    if (size === 0) await syncDirectory(dirname(file)).catch(() => undefined);
  });
}

/** The `--artifacts` journal of `call` and `mcp`: the write-ahead hook, and the fallback for other tools' artifacts. */
export interface ArtifactJournal {
  readonly file: string;
  /** What write and edit call around each commit (docs/decisions/0002-undo-promises.md). */
  readonly changeJournal: ChangeJournal;
  /** Appends, as complete, the artifacts the hook did not see (a tool without it). */
  readonly appendUnrecorded: (artifacts: readonly FileChangeArtifact[]) => Promise<void>;
}

export function createArtifactJournal(file: string, options: JournalOptions = {}): ArtifactJournal {
  const recorded = new Set<string>();
  const mark = (kind: 'file_change_complete' | 'file_change_abandoned', change: FileChangeArtifact) =>
    appendDurably(file, journalLine({ kind, changeId: change.changeId }), kind === 'file_change_complete' ? 'complete' : 'abandon', options);
  return {
    file,
    changeJournal: {
      begin: async (change, { signal }) => {
        signal.throwIfAborted();
        recorded.add(change.changeId);
        await appendDurably(file, journalLine({ ...change, pending: true }), 'begin', options, signal);
      },
      complete: (change) => mark('file_change_complete', change),
      abandon: (change) => mark('file_change_abandoned', change),
    },
    appendUnrecorded: async (artifacts) => {
      // An id leaves the set when its result comes by, so a long MCP session does not keep them all.
      const missing = artifacts.filter((artifact) => !recorded.delete(artifact.changeId));
      if (missing.length > 0) await appendDurably(file, missing.map((artifact) => journalLine(artifact)).join(''), 'append', options);
    },
  };
}

/** The session whose write and edit record each change in the journal first, when there is one. */
export function withArtifactJournal(session: BuiltinSession, journal: ArtifactJournal | undefined): BuiltinSession {
  return journal === undefined ? session : { ...session, changeJournal: journal.changeJournal };
}

/**
 * Reads the journal, lets `action` decide which changes were undone, and
 * rewrites it atomically (temp file and rename) with `undone: true` on them;
 * every other line, a torn one too, is written back as it was.
 */
export async function updateJournal<T>(file: string, action: (journal: ParsedJournal) => Promise<{ result: T; undone: readonly string[] }>): Promise<T> {
  parseJournal(file, await readJournalFile(file));
  return withJournalLock(file, async () => {
    const journal = parseJournal(file, await readJournalFile(file));
    const { result, undone } = await action(journal);
    const marked = new Set(undone);
    const rewritten = journal.lines.map((line): JournalLine | TornLine => ('kind' in line && line.kind === 'file_change' && marked.has(line.changeId) ? { ...line, undone: true } : line));
    const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, rewritten.map((line) => journalLine(line)).join(''), { flag: 'wx' });
      const handle = await open(temp, 'r');
      await handle.sync();
      await handle.close();
      await rename(temp, file);
    } finally {
      await rm(temp, { force: true });
    }
    return result;
  });
}
