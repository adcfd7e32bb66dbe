import type { PathGuard } from '@openwork/path-guard';

/**
 * What a tree search returns: `paths` the files themselves (glob), `files`
 * the files with a matching line, `count` those with their number of
 * matching lines, `content` the matching lines.
 */
export type TreeSearchMode = 'paths' | 'files' | 'count' | 'content';

/** Where a rule that ignored something came from; ripgrep's sources, highest precedence first. */
export type IgnoreSource = '.rgignore' | '.ignore' | '.gitignore' | 'info/exclude' | 'global';

/**
 * Ignore rules the walk cannot find on its own way down: the global
 * excludes file, the repository's `.git/info/exclude`, the ignore files of
 * the directories above the searched one.
 */
export interface IgnoreRulesText {
  readonly source: IgnoreSource;
  readonly text: string;
  /**
   * The path from the directory these rules apply from down to the searched
   * directory, with a trailing `/`; '' when they apply from the searched
   * directory itself.
   */
  readonly prefix: string;
}

export interface TreeSearchIgnore {
  /** Letter case in the rules' patterns: the repository's `core.ignorecase`, false where unset. */
  readonly ignoreCase: boolean;
  readonly rules: readonly IgnoreRulesText[];
}

/**
 * Which files a search looks at, by their path relative to the searched
 * directory. `glob`: the contract's glob against the whole path (the glob
 * tool); `override`: ripgrep's `-g`, one line of gitignore syntax with the
 * match inverted (grep's filter). docs/decisions/0011.
 */
export interface TreeSearchFilter {
  readonly syntax: 'glob' | 'override';
  readonly pattern: string;
}

/** The most bytes of a file one multiline match reports: its lines past this are not returned (`spanBytes` says how many it covers). */
export const MAX_SPAN_BYTES = 64 * 1024;

/** What is searched for. */
export interface TreeSearchPattern {
  readonly source: string;
  readonly caseInsensitive: boolean;
  /** `source` is text, not a regular expression. */
  readonly literal?: boolean;
  /**
   * The pattern may match across lines (ripgrep's `-U`): `^` and `$` match at
   * line boundaries, `.` does not match a newline unless the pattern says
   * `(?s)`, and `\n` or a class such as `\s` does. A hit is the match's
   * first line, with `endLine` and `lines` for the rest of it.
   */
  readonly multiline?: boolean;
}

export interface TreeSearchRequest {
  readonly mode: TreeSearchMode;
  /** RE2 syntax (docs/decisions/0006); required except in `paths` mode. */
  readonly pattern?: TreeSearchPattern;
  /** content mode: lines kept before and after each match. */
  readonly context?: number;
  /** content mode: lines kept before each match; default `context`. */
  readonly before?: number;
  /** content mode: lines kept after each match; default `context`. */
  readonly after?: number;
  readonly filter?: TreeSearchFilter;
  /**
   * Only files whose name (the last path component) matches one of these
   * globs, as ripgrep's `--type`; with `filter` too, a file must pass both.
   */
  readonly nameGlobs?: readonly string[];
  /** The ignore rules to honour; absent, no ignore file is read (`.git/` is never entered either way). */
  readonly ignore?: TreeSearchIgnore;
  /** Results returned at most; one more is looked for, to know that the result was cut. */
  readonly maxResults: number;
  /**
   * The caller shows the results from this index on (a page; default 0):
   * they are still returned and counted in maxResults, but maxResultBytes
   * weighs only the results after them, so a later page is as full as the
   * first.
   */
  readonly offset?: number;
  /**
   * Results counted and dropped before the first one returned (a page far
   * into the set; default 0): none of them is held, so what the search holds
   * is bounded by maxResults whatever `skip` is. The tasks run one at a
   * time in key order until that many are dropped.
   */
  readonly skip?: number;
  /**
   * Bytes the results may take (as a hit's path and lines, each line cut to
   * maxLineChars, plus a few bytes each): the smallest results that reach it
   * are kept, one past it, and no more.
   */
  readonly maxResultBytes?: number;
  /** Characters kept of a returned line. */
  readonly maxLineChars: number;
  /** Files larger than this are not read (`skipped.tooLarge`). */
  readonly maxFileBytes: number;
  /** A NUL byte in the first this many bytes makes a file binary (`skipped.binary`). */
  readonly binarySniffBytes: number;
}

export interface TreeSearchProgress {
  readonly files: number;
  readonly directories: number;
  /** Results held so far, at most maxResults + 1. */
  readonly results: number;
}

export interface TreeSearchOptions {
  /** Checks each directory the walk hands to another worker, and resolves symlinks the walk finds (docs/decisions/0012). */
  readonly guard: PathGuard;
  readonly signal?: AbortSignal;
  /** Told as the counts grow, often (every few dozen files): the caller throttles. */
  readonly onProgress?: (progress: TreeSearchProgress) => void;
}

/** A line of a file: 1-based, cut to maxLineChars; `fullLength` is its length before the cut, when it was cut. */
export interface SearchLine {
  readonly line: number;
  readonly text: string;
  readonly fullLength?: number;
}

/** A matching line, with its context when asked for. */
export interface SearchLineMatch extends SearchLine {
  readonly before?: readonly SearchLine[];
  readonly after?: readonly SearchLine[];
  /** multiline: the last line of the match, when it ends on a later line than it starts. */
  readonly endLine?: number;
  /** multiline: the match's lines after the first, up to endLine or as far as MAX_SPAN_BYTES reaches. */
  readonly lines?: readonly SearchLine[];
  /** multiline: the bytes of the match's lines (first to endLine), present when they exceed MAX_SPAN_BYTES and `lines` stops short. */
  readonly spanBytes?: number;
}

/** One result: a path (`paths`, `files`), a path and its count (`count`), or a line of it (`content`). */
export interface TreeSearchHit {
  /** The path for results (docs/contract.md §2): results sort by its UTF-8 bytes. */
  readonly path: string;
  readonly count?: number;
  readonly match?: SearchLineMatch;
}

export interface TreeSearchSkipped {
  readonly binary: number;
  readonly tooLarge: number;
  readonly unreadable: number;
}

/** Entries the ignore rules left out (a directory once, never what is in it), and by which sources. */
export interface TreeSearchIgnored {
  readonly files: number;
  readonly directories: number;
  readonly sources: readonly IgnoreSource[];
}

/**
 * The outcome, the same at any number of workers: hits in path order (then
 * line), and what was left out among the entries that sort before the
 * first result not returned.
 */
export interface TreeSearchResult {
  readonly hits: readonly TreeSearchHit[];
  /** More results exist than were returned (by count or by bytes). */
  readonly truncated: boolean;
  /** Results dropped before `hits` by the request's `skip`: fewer than it when the whole set has fewer. */
  readonly skippedResults: number;
  readonly skipped: TreeSearchSkipped;
  readonly ignored: TreeSearchIgnored;
}
