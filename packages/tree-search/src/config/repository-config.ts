import { posix } from 'node:path';
import type { CheckedPath, PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';
import type { SearchConfigFiles } from './config-files.ts';

/** A git config or `.git` file is small; one larger than this is not read. */
const MAX_GIT_FILE_BYTES = 1024 * 1024;
const decoder = new TextDecoder('utf-8');

export interface RepositoryLookup {
  readonly paths: PathGuard;
  readonly filesystem: SearchConfigFiles;
  readonly signal: AbortSignal;
}

/** The git repository that holds a directory, as display paths. */
export interface Repository {
  /** The directory that holds `.git`. */
  readonly root: string;
  /**
   * Where its config and `info/exclude` are: `.git`, or a worktree's common
   * directory; undefined for a `.git` file that names none (empty, or
   * unreadable): still a repository's root, as for git and ripgrep.
   */
  readonly gitDirectory: string | undefined;
}

/**
 * The repository that holds `directory` (a display path), found through the
 * session's file system, never a git process: the nearest `.git` at or above
 * it, as far up as the roots let the session read.
 */
export async function findRepository(lookup: RepositoryLookup, directory: string): Promise<Repository | undefined> {
  let current = directory;
  for (let depth = 0; depth < 256; depth += 1) {
    let dotGit: CheckedPath | undefined;
    try {
      dotGit = await lookup.paths.resolvePath(joinDisplay(current, '.git'), 'read', 'must_exist', { signal: lookup.signal });
    } catch (error) {
      if (!isToolError(error) || stopsTheCall(error.kind)) throw error;
      // Outside the roots, or anything but a missing entry: nothing further up can be read.
      if (error.kind !== 'not_found') return undefined;
    }
    if (dotGit !== undefined) {
      const gitDirectory = dotGit.kind === 'directory' ? joinDisplay(current, '.git') : await linkedGitDirectory(lookup, dotGit, current);
      // Any `.git` marks the repository's root: the ignore rules of the repository around it stop here.
      return { root: current, gitDirectory };
    }
    const parent = posix.isAbsolute(current) ? posix.dirname(current) : posix.join(current, '..');
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
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

/** A small text file by display path, through the guard; undefined when it cannot be read. */
export async function readSmall(lookup: RepositoryLookup, displayPath: string): Promise<string | undefined> {
  try {
    const path = await lookup.paths.resolvePath(displayPath, 'read', 'must_exist', { signal: lookup.signal });
    if (path.kind !== 'file') return undefined;
    return decoder.decode(await lookup.filesystem.readFile(path, { maxBytes: MAX_GIT_FILE_BYTES, signal: lookup.signal }));
  } catch (error) {
    if (isToolError(error) && !stopsTheCall(error.kind)) return undefined;
    throw error;
  }
}

export function stopsTheCall(kind: string): boolean {
  return kind === 'cancelled' || kind === 'timed_out';
}

export function joinDisplay(parent: string, name: string): string {
  return parent === '.' ? name : `${parent}/${name}`;
}

/**
 * `core.ignorecase` from the text of a git config file: its value where the
 * file sets it (the last setting wins, as in git), undefined where not.
 * Section and key names are case-insensitive; `[core "x"]` is another
 * section; a key alone means true.
 */
export function parseIgnoreCase(text: string): boolean | undefined {
  const raw = coreValue(text, 'ignorecase');
  if (raw === undefined) return undefined;
  return raw === true ? true : gitBoolean(raw);
}

/** `core.excludesFile` from the text of a git config file, the last setting; undefined where unset. */
export function parseExcludesFile(text: string): string | undefined {
  const raw = coreValue(text, 'excludesfile');
  if (raw === undefined || raw === true) return undefined;
  const value = gitString(raw);
  return value === '' ? undefined : value;
}

/** The last value of `core.<key>` (lower case): its raw text, or true for a key alone. */
function coreValue(text: string, key: string): string | true | undefined {
  let section = '';
  let value: string | true | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.trim();
    const header = /^\[\s*([^\]\s"]+)\s*("(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      section = header[2] === undefined ? (header[1] ?? '').toLowerCase() : '';
      line = line.slice(header[0].length).trim();
    }
    if (section !== 'core') continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!entry || entry[1]?.toLowerCase() !== key) continue;
    if (entry[2] === undefined) value = true;
    else if (key !== 'ignorecase' || gitBoolean(entry[2]) !== undefined) value = entry[2];
  }
  return value;
}

/** A value as git reads it: quotes removed, a comment cut, backslash escapes undone. */
function gitString(raw: string): string {
  let text = '';
  let quoted = false;
  const chars = [...raw.trim()];
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] as string;
    if (char === '"') quoted = !quoted;
    else if (char === '\\' && index + 1 < chars.length) {
      index += 1;
      const next = chars[index] as string;
      text += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else if (!quoted && (char === '#' || char === ';')) break;
    else text += char;
  }
  return text.trim();
}

function gitBoolean(raw: string): boolean | undefined {
  const word = gitString(raw).toLowerCase();
  if (['true', 'yes', 'on'].includes(word)) return true;
  if (['false', 'no', 'off', ''].includes(word)) return false;
  if (/^-?\d+$/.test(word)) return Number(word) !== 0;
  return undefined;
}
