import { posix } from 'node:path';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { CheckedPath, PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';

/** A git config or `.git` file is small; one larger than this is not read. */
const MAX_GIT_FILE_BYTES = 1024 * 1024;
const decoder = new TextDecoder('utf-8');

export interface RepositoryLookup {
  readonly paths: PathGuard;
  readonly filesystem: AsyncFileSystem;
  readonly signal: AbortSignal;
}

/**
 * Whether ignore rules match regardless of case: the `core.ignorecase` of
 * the repository that holds `directory` (a display path), found through the
 * session's file system, never a git process: the nearest `.git` at or
 * above it, as far up as the roots let the session read. False when there
 * is none, or it does not say, as git on Linux decides.
 */
export async function repositoryIgnoreCase(lookup: RepositoryLookup, directory: string): Promise<boolean> {
  let current = directory;
  for (let depth = 0; depth < 256; depth += 1) {
    let dotGit: CheckedPath | undefined;
    try {
      dotGit = await lookup.paths.resolvePath(joinDisplay(current, '.git'), 'read', 'must_exist', { signal: lookup.signal });
    } catch (error) {
      if (!isToolError(error) || stopsTheCall(error.kind)) throw error;
      // Outside the roots, or anything but a missing entry: nothing further up can be read.
      if (error.kind !== 'not_found') return false;
    }
    if (dotGit !== undefined) {
      const gitDirectory = dotGit.kind === 'directory' ? joinDisplay(current, '.git') : await linkedGitDirectory(lookup, dotGit, current);
      if (gitDirectory === undefined) return false;
      const config = await readSmall(lookup, joinDisplay(gitDirectory, 'config'));
      return config === undefined ? false : (parseIgnoreCase(config) ?? false);
    }
    const parent = posix.isAbsolute(current) ? posix.dirname(current) : posix.join(current, '..');
    if (parent === current) return false;
    current = parent;
  }
  return false;
}

/** A worktree's or submodule's `.git` file: `gitdir: <path>`; a worktree keeps its config in the common directory its `commondir` names. */
async function linkedGitDirectory(lookup: RepositoryLookup, dotGit: CheckedPath, directory: string): Promise<string | undefined> {
  if (dotGit.kind !== 'file') return undefined;
  const text = await readSmall(lookup, dotGit.displayPath);
  const target = text === undefined ? undefined : /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
  if (target === undefined) return undefined;
  const gitDirectory = posix.isAbsolute(target) ? target : posix.join(directory, target);
  const common = await readSmall(lookup, joinDisplay(gitDirectory, 'commondir'));
  const commonPath = common?.trim();
  if (commonPath === undefined || commonPath === '') return gitDirectory;
  return posix.isAbsolute(commonPath) ? commonPath : posix.join(gitDirectory, commonPath);
}

async function readSmall(lookup: RepositoryLookup, displayPath: string): Promise<string | undefined> {
  try {
    const path = await lookup.paths.resolvePath(displayPath, 'read', 'must_exist', { signal: lookup.signal });
    if (path.kind !== 'file') return undefined;
    return decoder.decode(await lookup.filesystem.readFile(path, { maxBytes: MAX_GIT_FILE_BYTES, signal: lookup.signal }));
  } catch (error) {
    if (isToolError(error) && !stopsTheCall(error.kind)) return undefined;
    throw error;
  }
}

function stopsTheCall(kind: string): boolean {
  return kind === 'cancelled' || kind === 'timed_out';
}

function joinDisplay(parent: string, name: string): string {
  return parent === '.' ? name : `${parent}/${name}`;
}

/**
 * `core.ignorecase` from the text of a git config file: its value where the
 * file sets it (the last setting wins, as in git), undefined where not.
 * Section and key names are case-insensitive; `[core "x"]` is another
 * section; a key alone means true.
 */
export function parseIgnoreCase(text: string): boolean | undefined {
  let section = '';
  let value: boolean | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.trim();
    const header = /^\[\s*([^\]\s"]+)\s*("(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      section = header[2] === undefined ? (header[1] ?? '').toLowerCase() : '';
      line = line.slice(header[0].length).trim();
    }
    if (section !== 'core') continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!entry || entry[1]?.toLowerCase() !== 'ignorecase') continue;
    const parsed = entry[2] === undefined ? true : gitBoolean(entry[2]);
    if (parsed !== undefined) value = parsed;
  }
  return value;
}

function gitBoolean(raw: string): boolean | undefined {
  let text = '';
  let quoted = false;
  for (const char of raw.trim()) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '#' || char === ';')) break;
    else text += char;
  }
  const word = text.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(word)) return true;
  if (['false', 'no', 'off', ''].includes(word)) return false;
  if (/^-?\d+$/.test(word)) return Number(word) !== 0;
  return undefined;
}
