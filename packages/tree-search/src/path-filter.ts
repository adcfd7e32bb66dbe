import { ToolError } from '@openwork/tool-contract';
import { compileGlob, withinBases } from './glob-pattern.ts';

/** A test of walk-relative paths, and which directories can hold a match. */
export interface PathFilter {
  readonly includeFile: (relativePath: string) => boolean;
  readonly enterDirectory: (relativePath: string) => boolean;
}

/**
 * glob: the pattern against the whole path relative to the tool's `path`.
 * A pattern that is itself the path of a file also finds it, so that a name
 * with glob characters in it (Next.js's `[id]`) can be given as it is.
 */
export function globFilter(pattern: string): PathFilter {
  const glob = compileGlob(pattern);
  const literalPath = pattern.replace(/^(?:\.\/)+/, '');
  const literalDirectory = literalPath.includes('/') ? literalPath.slice(0, literalPath.lastIndexOf('/')) : '';
  const bases = [...glob.bases, { base: literalDirectory, deeper: false }];
  return {
    includeFile: (relativePath) => relativePath === literalPath || glob.test(relativePath),
    enterDirectory: (relativePath) => withinBases(bases, relativePath),
  };
}

/**
 * grep's `glob`, as ripgrep's `-g` (docs/contract.md §2): one line of gitignore
 * syntax with the match inverted. A glob without `!` keeps only the files it
 * matches; `!glob` leaves out the files and directories it matches. Without
 * a `/` (other than a trailing one) it matches a name at any depth; with
 * one, or with a leading `/`, the path relative to the searched `path`. A
 * trailing `/` matches directories only, and `dir/**` what is inside `dir`.
 * Only the path itself is matched, never its parents (ripgrep's override
 * matcher): `!/foo/**` leaves out `foo/` at the searched path alone, `!asdf/`
 * the directory `asdf` and not `asdf.` (ripgrep's r405, r2990).
 * It narrows the search and nothing more: `.gitignore` and `.ignore` still
 * apply unless `includeIgnored` is true (docs/contract.md §2).
 */
export function grepGlobFilter(source: string): PathFilter {
  let line = source.endsWith('\\ ') ? source : source.trimEnd();
  let exclude = false;
  let anchored = false;
  if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  } else {
    if (line.startsWith('!')) {
      exclude = true;
      line = line.slice(1);
    }
    if (line.startsWith('/')) {
      anchored = true;
      line = line.slice(1);
    }
  }
  let directoryOnly = false;
  if (line.endsWith('/')) {
    directoryOnly = true;
    line = line.slice(0, -1);
    if (line.endsWith('\\')) line = line.slice(0, -1);
  }
  if (line === '') {
    throw new ToolError('invalid_input', `glob ${JSON.stringify(source)} names nothing; give a pattern such as "*.ts", "src/**" or "!dist/"`);
  }
  if (!anchored && !line.includes('/') && !line.startsWith('**/') && line !== '**') line = `**/${line}`;
  // ripgrep's reading of `dir/**`: what is inside the directory, not the directory itself.
  if (line.endsWith('/**')) line = `${line}/*`;
  const glob = compileGlob(line);
  const matches = (relativePath: string, isDirectory: boolean) => (isDirectory || !directoryOnly) && glob.test(relativePath);
  if (exclude) {
    return { includeFile: (relativePath) => !matches(relativePath, false), enterDirectory: (relativePath) => !matches(relativePath, true) };
  }
  return { includeFile: (relativePath) => matches(relativePath, false), enterDirectory: (relativePath) => withinBases(glob.bases, relativePath) };
}

/**
 * ripgrep's `--type`: a file passes when its name (the last component of its
 * path) matches one of the globs; every directory is entered.
 */
export function nameFilter(globs: readonly string[]): PathFilter {
  const compiled = globs.map((glob) => compileGlob(glob));
  return {
    includeFile: (relativePath) => {
      const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
      return compiled.some((glob) => glob.test(name));
    },
    enterDirectory: () => true,
  };
}

/** Both filters at once: a file passes when it passes each, a directory is entered when each would enter it. */
export function bothFilters(first: PathFilter | undefined, second: PathFilter | undefined): PathFilter | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return {
    includeFile: (relativePath) => first.includeFile(relativePath) && second.includeFile(relativePath),
    enterDirectory: (relativePath) => first.enterDirectory(relativePath) && second.enterDirectory(relativePath),
  };
}
