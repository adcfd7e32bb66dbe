import type { CompiledSpec } from './compiled-spec.ts';
import { IGNORE_FILES, REPOSITORY_SOURCES, type IgnoreLevel } from './ignore-rules.ts';
import type { SearchDirectory, SearchEntry } from './search-directory.ts';
import type { WireLevel } from './search-wire.ts';

/** Ignore files and git's exclude file are small; a larger one is not read as rules. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
const decoder = new TextDecoder('utf-8');

/** The rules of one ignore file as a walk holds them: parsed, and as text to hand to another walker. */
export interface WalkLevel {
  readonly compiled: IgnoreLevel;
  readonly wire: WireLevel;
}

export function compileLevels(spec: CompiledSpec, wire: readonly WireLevel[]): WalkLevel[] {
  const levels: WalkLevel[] = [];
  for (const level of wire) {
    const compiled = spec.level(level);
    if (compiled !== undefined) levels.push({ compiled, wire: level });
  }
  return levels;
}

function readText(directory: SearchDirectory, name: string): string | undefined {
  const read = directory.readFile(name, MAX_IGNORE_FILE_BYTES);
  return read.ok ? decoder.decode(read.bytes) : undefined;
}

export interface ListedDirectory {
  readonly directory: SearchDirectory;
  readonly entries: readonly SearchEntry[];
  /** Walk-relative ('' for the searched directory). */
  readonly relative: string;
  /** The levels in effect in its parent, less those a rule of higher precedence overrode for it. */
  readonly inherited: readonly WalkLevel[];
  /** The searched directory itself: its repository's rules are the coordinator's to read. */
  readonly walkRoot: boolean;
}

/**
 * The levels in effect in a directory just listed: its parent's, and its own
 * `.rgignore`, `.ignore` and `.gitignore`. A git repository nested in the
 * walk (a `.git` below the searched directory) does not see the
 * `.gitignore` and exclude rules of the repository around it, and has its
 * own `.git/info/exclude` (ripgrep's `saw_git`).
 */
export function directoryLevels(spec: CompiledSpec, listed: ListedDirectory): WalkLevel[] {
  const { directory, entries, relative, inherited, walkRoot } = listed;
  const base = relative === '' ? '' : `${relative}/`;
  let levels = [...inherited];
  const dotGit = walkRoot ? undefined : entries.find((entry) => entry.name === '.git');
  if (dotGit !== undefined) {
    levels = levels.filter((level) => !REPOSITORY_SOURCES.has(level.wire.source));
    const exclude = dotGit.kind === 'directory' ? readExclude(directory) : undefined;
    if (exclude !== undefined) levels.push(...compileLevels(spec, [{ source: 'info/exclude', text: exclude, base, prefix: '' }]));
  }
  for (const [name, source] of IGNORE_FILES) {
    if (!entries.some((entry) => entry.name === name && entry.kind === 'file')) continue;
    const text = readText(directory, name);
    if (text !== undefined) levels.push(...compileLevels(spec, [{ source, text, base, prefix: '' }]));
  }
  return levels;
}

/** `.git/info/exclude`, reached through the directories themselves, never by path. */
function readExclude(directory: SearchDirectory): string | undefined {
  let git: SearchDirectory | undefined;
  let info: SearchDirectory | undefined;
  try {
    git = directory.openDirectory('.git');
    info = git.openDirectory('info');
    return readText(info, 'exclude');
  } catch {
    return undefined;
  } finally {
    info?.close();
    git?.close();
  }
}
