import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

const canonical = (path: string) => realpath(path).catch(() => resolve(path));

/**
 * What a directory would open to the client if it became the working
 * directory unasked: desktop clients start stdio servers at `/` or in the
 * home folder, which would make the whole disk, or every file of the user,
 * writable without anyone choosing it.
 */
export async function tooWideToServe(directory: string): Promise<string | undefined> {
  const [start, home] = await Promise.all([canonical(directory), canonical(homedir())]);
  if (start === '/') return 'the whole disk (/)';
  if (start === home) return `the home folder (${start})`;
  return undefined;
}
