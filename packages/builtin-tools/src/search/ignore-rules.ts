import ignore, { type Ignore } from 'ignore';

/** The files whose rules a walk honours, in rising precedence within one directory (ripgrep: `.ignore` over `.gitignore`). */
export const IGNORE_FILES = ['.gitignore', '.ignore'] as const;

/**
 * The rules of one ignore file. `base` is the walk-relative directory the
 * file sits in (with a trailing `/`, or '' at the walk root); `prefix` is
 * put before the rest of the path, for a file above the walk root.
 */
export interface IgnoreLevel {
  readonly rules: Ignore;
  readonly base: string;
  readonly prefix: string;
}

/**
 * `ignoreCase`: the repository's `core.ignorecase` where it is set, else
 * false, as git on Linux and ripgrep read them (`*.html` keeps `foo.HTML`);
 * the `ignore` package's own default is case-insensitive.
 */
export function parseIgnoreFile(text: string, location: { base: string; prefix: string; ignoreCase: boolean }): IgnoreLevel | undefined {
  if (text.trim() === '') return undefined;
  return { rules: ignore({ allowRelativePaths: true, ignoreCase: location.ignoreCase }).add(text), base: location.base, prefix: location.prefix };
}

export interface IgnoreVerdict {
  readonly ignored: boolean;
  /**
   * Levels that ignore this directory although a later level re-included it.
   * The `ignore` package answers for a path together with its parents, so
   * below such a directory those levels would ignore everything; they are
   * left out there (seed §9: the rules stay git's, never hand-written).
   */
  readonly overridden: readonly IgnoreLevel[];
}

const NOT_IGNORED: IgnoreVerdict = Object.freeze({ ignored: false, overridden: [] });

/**
 * Whether one entry is ignored, given every level that applies to it from
 * the outermost in: as in git, the last level with a verdict decides.
 */
export function checkIgnored(levels: readonly IgnoreLevel[], relativePath: string, isDirectory: boolean): IgnoreVerdict {
  if (levels.length === 0) return NOT_IGNORED;
  let ignored = false;
  const saidIgnored: IgnoreLevel[] = [];
  for (const level of levels) {
    const local = `${level.prefix}${relativePath.slice(level.base.length)}${isDirectory ? '/' : ''}`;
    let verdict: { ignored: boolean; unignored: boolean };
    try {
      verdict = level.rules.test(local);
    } catch {
      // A name the package cannot take as a relative path: no rule applies to it.
      continue;
    }
    if (verdict.ignored) {
      ignored = true;
      saidIgnored.push(level);
    } else if (verdict.unignored) {
      ignored = false;
    }
  }
  if (ignored) return { ignored: true, overridden: [] };
  return isDirectory && saidIgnored.length > 0 ? { ignored: false, overridden: saidIgnored } : NOT_IGNORED;
}
