import { randomBytes } from 'node:crypto';
import { appendFile, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileChangeArtifact } from '@openwork/tool-contract';
import lockfile from 'proper-lockfile';
import { UsageError } from './usage-error.ts';

/** Holds the journal's lock across processes for the length of one action. */
async function withJournalLock<T>(file: string, action: () => Promise<T>): Promise<T> {
  // The lock needs the file to exist; appending nothing creates it.
  await appendFile(file, '');
  const release = await lockfile.lock(file, { retries: { retries: 200, minTimeout: 5, maxTimeout: 100 }, stale: 10_000, realpath: false });
  try {
    return await action();
  } finally {
    await release();
  }
}

/** Appends artifacts as JSON lines; serialized so concurrent calls lose no line. */
export async function appendArtifacts(file: string, artifacts: readonly FileChangeArtifact[]): Promise<void> {
  if (artifacts.length === 0) return;
  await withJournalLock(file, () => appendFile(file, artifacts.map((artifact) => `${JSON.stringify(artifact)}\n`).join('')));
}

function parseJournal(file: string, text: string): FileChangeArtifact[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        const value = JSON.parse(line) as FileChangeArtifact;
        if (value.kind !== 'file_change' || typeof value.changeId !== 'string') throw new Error('not a file_change artifact');
        return value;
      } catch (error) {
        throw new UsageError(`${file} line ${index + 1} is not a file_change artifact: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
}

/**
 * Reads the journal, lets `action` decide which changes were undone, and
 * rewrites it atomically (temp file and rename) with `undone: true` on them.
 */
export async function updateJournal<T>(file: string, action: (changes: FileChangeArtifact[]) => Promise<{ result: T; undone: readonly string[] }>): Promise<T> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new UsageError(`no journal at ${file}`);
    throw error;
  });
  parseJournal(file, text);
  return withJournalLock(file, async () => {
    const changes = parseJournal(file, await readFile(file, 'utf8'));
    const { result, undone } = await action(changes);
    const marked = new Set(undone);
    const rewritten = changes.map((change) => (marked.has(change.changeId) ? { ...change, undone: true } : change));
    const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, rewritten.map((change) => `${JSON.stringify(change)}\n`).join(''));
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
