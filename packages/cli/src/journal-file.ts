import { constants } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from './usage-error.ts';

/**
 * The `--artifacts` journal is opened without following a symlink at any
 * component (docs/contract.md §4.5): a repository that made `changes.jsonl`
 * a symlink, or a hard link, to a file elsewhere cannot have the journal
 * appended there. Refused with a usage error, nothing written.
 */
async function requireRealDirectory(file: string): Promise<void> {
  const directory = dirname(file);
  const real = await realpath(directory).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new UsageError(`the journal's directory ${directory} does not exist`);
    throw error;
  });
  if (real !== directory) throw new UsageError(`the journal ${file} is reached through a symlink (${directory} is ${real}); journals are never opened through a symlink: give its real path`);
}

function refuseLinked(file: string, links: number, kind: 'file' | 'other'): void {
  if (kind !== 'file') throw new UsageError(`the journal ${file} is not a regular file; nothing was written`);
  if (links > 1) throw new UsageError(`the journal ${file} has ${links} names (a hard link); a journal is refused where it may lead to another file; nothing was written`);
}

/** Before a command starts: a journal path that would be refused is a usage error now, not a failed write later. */
export async function checkJournalPath(file: string): Promise<void> {
  await requireRealDirectory(file);
  const stat = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (stat === undefined) return;
  if (stat.isSymbolicLink()) throw new UsageError(`the journal ${file} is a symlink; journals are never opened through a symlink; nothing was written`);
  refuseLinked(file, stat.nlink, stat.isFile() ? 'file' : 'other');
}

/** Opens the journal to append (created when missing) or to read, never through a symlink. */
export async function openJournalFile(file: string, how: 'append' | 'read'): Promise<FileHandle> {
  await requireRealDirectory(file);
  const flags = how === 'append' ? constants.O_RDWR | constants.O_APPEND | constants.O_CREAT : constants.O_RDONLY;
  const handle = await open(file, flags | constants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') throw new UsageError(`the journal ${file} is a symlink; journals are never opened through a symlink; nothing was written`);
    if (error.code === 'ENOENT' && how === 'read') throw new UsageError(`no journal at ${file}`);
    throw error;
  });
  try {
    const stat = await handle.stat();
    refuseLinked(file, stat.nlink, stat.isFile() ? 'file' : 'other');
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** The journal's whole text, read without following a symlink. */
export async function readJournalFile(file: string): Promise<string> {
  const handle = await openJournalFile(file, 'read');
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
