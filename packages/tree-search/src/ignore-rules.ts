import ignore, { type Ignore } from 'ignore';
import type { IgnoreSource } from './search-types.ts';

/** The ignore files a walk reads in each directory, each a source of its own. */
export const IGNORE_FILES: readonly (readonly [name: string, source: IgnoreSource])[] = [
  ['.rgignore', '.rgignore'],
  ['.ignore', '.ignore'],
  ['.gitignore', '.gitignore'],
];

/**
 * ripgrep's precedence, highest first: within a source the nearest file
 * with a verdict on a path decides, and the first source with a verdict
 * decides over the rest (crates/ignore/src/dir.rs, `matched_ignore`, then
 * the global excludes file).
 */
export const PRECEDENCE: readonly IgnoreSource[] = ['.rgignore', '.ignore', '.gitignore', 'info/exclude', 'global'];

/** The sources that belong to a git repository: a repository nested in the walk does not see its parent's. */
export const REPOSITORY_SOURCES: ReadonlySet<IgnoreSource> = new Set(['.gitignore', 'info/exclude']);

/**
 * The rules of one ignore file. `base` is the walk-relative directory the
 * rules apply from (with a trailing `/`, or '' at the walk root); `prefix`
 * is put before the rest of the path, for rules that sit above the walk
 * root (ripgrep reads the parents' ignore files too).
 */
export interface IgnoreLevel {
  readonly source: IgnoreSource;
  readonly rules: Ignore;
  readonly base: string;
  readonly prefix: string;
}

/**
 * `ignoreCase`: the repository's `core.ignorecase` where it is set, else
 * false, as git on Linux and ripgrep read them (`*.html` keeps `foo.HTML`);
 * the `ignore` package's own default is case-insensitive.
 */
export function parseIgnoreFile(text: string, location: { source: IgnoreSource; base: string; prefix: string; ignoreCase: boolean }): IgnoreLevel | undefined {
  if (text.trim() === '') return undefined;
  return {
    source: location.source,
    rules: ignore({ allowRelativePaths: true, ignoreCase: location.ignoreCase }).add(text),
    base: location.base,
    prefix: location.prefix,
  };
}

export type IgnoreVerdict =
  | { readonly ignored: true; readonly source: IgnoreSource }
  | {
      readonly ignored: false;
      /**
       * Levels that ignore this directory although a rule of higher
       * precedence kept it. The `ignore` package answers for a path together
       * with its parents, so below such a directory those levels would
       * ignore everything; they are left out there (docs/design.md §9: the rules stay
       * git's, never hand-written).
       */
      readonly overridden: readonly IgnoreLevel[];
    };

const KEPT: IgnoreVerdict = Object.freeze({ ignored: false, overridden: Object.freeze([]) });

function verdictOf(level: IgnoreLevel, relativePath: string, isDirectory: boolean): 'ignored' | 'kept' | undefined {
  const local = `${level.prefix}${relativePath.slice(level.base.length)}${isDirectory ? '/' : ''}`;
  let result: { ignored: boolean; unignored: boolean };
  try {
    result = level.rules.test(local);
  } catch {
    // A name the package cannot take as a relative path: no rule applies to it.
    return undefined;
  }
  return result.ignored ? 'ignored' : result.unignored ? 'kept' : undefined;
}

/**
 * Whether one entry is ignored, given every level that applies to it,
 * outermost first: the first source in PRECEDENCE with a verdict decides,
 * and within it the nearest level with one.
 */
export function checkIgnored(levels: readonly IgnoreLevel[], relativePath: string, isDirectory: boolean): IgnoreVerdict {
  if (levels.length === 0) return KEPT;
  let decided: IgnoreLevel | undefined;
  outer: for (const source of PRECEDENCE) {
    for (let index = levels.length - 1; index >= 0; index -= 1) {
      const level = levels[index] as IgnoreLevel;
      if (level.source !== source) continue;
      const verdict = verdictOf(level, relativePath, isDirectory);
      if (verdict === 'ignored') return { ignored: true, source };
      if (verdict === 'kept') {
        decided = level;
        break outer;
      }
    }
  }
  if (decided === undefined || !isDirectory) return KEPT;
  const overridden = levels.filter((level) => level !== decided && verdictOf(level, relativePath, true) === 'ignored');
  return overridden.length === 0 ? KEPT : { ignored: false, overridden };
}
