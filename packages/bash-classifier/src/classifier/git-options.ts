/**
 * What the options of git's read-only subcommands do with files, from
 * git's own option tables (builtin/blame.c, builtin/ls-files.c,
 * builtin/rev-parse.c, and the diff options of diff.c that log, show, diff
 * and blame all take).
 */

/** Options whose value names a file git reads. */
export interface FileOptions {
  /** Long names, without the dashes. */
  readonly long: readonly string[];
  /** Short letters; each takes its value attached (`-Sfile`) or as the next word. */
  readonly short: string;
}

/** `-O <orderfile>` of the diff options: log, show, diff and blame (through its revision options) read it. */
const DIFF_FILES: FileOptions = { long: [], short: 'O' };

export const FILE_OPTIONS: Readonly<Record<string, FileOptions>> = {
  status: { long: [], short: '' },
  log: DIFF_FILES,
  show: DIFF_FILES,
  diff: DIFF_FILES,
  // `-S <revs-file>` and `--ignore-revs-file` print lines of the file they cannot parse; `--contents` prints the file.
  blame: { long: ['contents', 'ignore-revs-file'], short: 'SO' },
  'ls-files': { long: ['exclude-from', 'exclude-per-directory'], short: 'X' },
  // It reads a `.git` file at the path to print where it points.
  'rev-parse': { long: ['resolve-git-dir'], short: '' },
};

/** Long options of those subcommands that write a file, run a program, or open a pager, each with its reason. */
export const DENIED_LONG: Readonly<Record<string, string>> = {
  output: 'writes its output to a file',
  'ext-diff': 'runs an external diff program',
  textconv: 'runs the configured textconv programs',
  'open-files-in-pager': 'runs a pager',
  exec: 'runs a program',
  'upload-pack': 'runs a program',
  'receive-pack': 'runs a program',
  'no-index': 'compares any two files on the disk, inside the roots or not',
  help: 'opens the manual through a viewer the configuration can name (man.viewer, help.format)',
};

/**
 * Exact option names that are also the start of a denied or file-valued
 * one: parse-options takes an exact name before any abbreviation.
 */
const EXACT_PREFIXES = new Set(['text', 'ignore-rev', 'exclude']);

/**
 * The denied or file-valued option a long option may abbreviate, or
 * undefined. git's parse-options (blame, status, ls-files, and diff once
 * `--no-index` is implied) accepts any unambiguous prefix of a long name,
 * so `--conten=x` is `--contents=x`; any prefix of such a name asks.
 */
export function abbreviates(subcommand: string, bare: string): string | undefined {
  if (bare === '' || EXACT_PREFIXES.has(bare)) return undefined;
  const names = [...Object.keys(DENIED_LONG), ...(FILE_OPTIONS[subcommand]?.long ?? [])];
  if (names.includes(bare)) return undefined;
  return names.find((name) => name.startsWith(bare));
}
