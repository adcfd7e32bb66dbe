import picomatch from 'picomatch';

/** A picomatch test of walk-relative paths, and which directories can hold a match. */
export interface PathFilter {
  readonly includeFile: (relativePath: string) => boolean;
  readonly enterDirectory: (relativePath: string) => boolean;
}

/**
 * `dot: true`: a dotfile is a file like any other here (only `.git/` is
 * special, and the walk never enters it).
 */
function compile(pattern: string, options: { basename: boolean }): PathFilter {
  const isMatch = picomatch(pattern, { dot: true, basename: options.basename });
  const scanned = picomatch.scan(pattern);
  // The pattern's literal leading directories: nothing outside them can match.
  const base = scanned.negated || scanned.base === '.' ? '' : scanned.base.replace(/^\.\//, '');
  const enterDirectory =
    base === ''
      ? () => true
      : (relativePath: string) => relativePath === base || base.startsWith(`${relativePath}/`) || relativePath.startsWith(`${base}/`);
  return { includeFile: (relativePath) => isMatch(relativePath), enterDirectory };
}

/** glob: the pattern against the path relative to the tool's `path`. */
export function globFilter(pattern: string): PathFilter {
  return compile(pattern, { basename: false });
}

/**
 * grep's `glob`, as ripgrep's `-g` (CONTRACT.md §2): without a `/` it
 * matches the file name at any depth, with one the path relative to the
 * searched `path`.
 */
export function grepGlobFilter(pattern: string): PathFilter {
  const withSlash = pattern.includes('/');
  const filter = compile(pattern, { basename: !withSlash });
  return withSlash ? filter : { includeFile: filter.includeFile, enterDirectory: () => true };
}
