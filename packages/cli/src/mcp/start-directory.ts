import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { CliOptions } from '../args.ts';
import { commandLineRoots, type SessionRoots } from '../session.ts';

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

/**
 * The command line's roots for a server. Without --cwd, a start directory of
 * `/` or home is `tooWide`: the working directory is always writable, so
 * the first --root stands in for it (said on `log`); with no --root,
 * `roots` still names the start directory and the caller must not serve it.
 */
export async function commandLineServerRoots(
  options: CliOptions,
  log: (text: string) => void,
): Promise<{ readonly roots: SessionRoots; readonly tooWide: string | undefined; readonly standIn: boolean }> {
  const roots = commandLineRoots(options);
  const tooWide = options.cwd === undefined ? await tooWideToServe(process.cwd()) : undefined;
  const [firstRoot, ...otherRoots] = roots.writableRoots;
  if (tooWide === undefined || firstRoot === undefined) return { roots, tooWide, standIn: false };
  log(`openwork-tools mcp: the current directory is ${tooWide}; the working directory is the first --root, ${firstRoot}\n`);
  return { roots: { workingDirectory: firstRoot, writableRoots: otherRoots }, tooWide, standIn: true };
}
