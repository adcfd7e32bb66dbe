import { posix } from 'node:path';
import type { IgnoreRulesText, IgnoreSource, TreeSearchIgnore } from '../search-types.ts';
import type { CheckedPath } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';
import ignore from 'ignore';
import { globalExcludes } from './global-excludes.ts';
import { findRepository, joinDisplay, parseIgnoreCase, readSmall, stopsTheCall, type Repository, type RepositoryLookup } from './repository-config.ts';

/** The ignore files of a directory, each a source of its own (ripgrep's names). */
const IGNORE_FILES: readonly (readonly [string, IgnoreSource])[] = [
  ['.rgignore', '.rgignore'],
  ['.ignore', '.ignore'],
  ['.gitignore', '.gitignore'],
];

export interface IgnoreLookup extends RepositoryLookup {
  readonly environment: Readonly<Record<string, string>>;
}

/** The path from `from` down to `to` (both display paths, `to` at or below `from`), with a trailing `/`; '' when they are the same. */
function prefixBetween(from: string, to: string): string {
  const absolute = (path: string) => (posix.isAbsolute(path) ? path : posix.join('/', '.cwd', path));
  const relative = posix.relative(absolute(from), absolute(to));
  return relative === '' ? '' : `${relative}/`;
}

/**
 * Every rule ripgrep would honour for a search rooted at
 * `root`, except the ignore files the walk finds on its own way down: the
 * global excludes file, the repository's `.git/info/exclude`, and the
 * `.rgignore`, `.ignore` and `.gitignore` files of the directories between
 * the working directory and the root. The letter case of the patterns is
 * the repository's `core.ignorecase` (docs/decisions/0011). `.gitignore`
 * applies outside a git repository too, as ripgrep's `--no-require-git`.
 */
export async function searchIgnore(lookup: IgnoreLookup, root: CheckedPath): Promise<TreeSearchIgnore> {
  const directory = root.kind === 'directory' ? root.displayPath : posix.dirname(root.displayPath);
  const repository = await findRepository(lookup, directory);
  const gitDirectory = repository?.gitDirectory;
  const config = gitDirectory === undefined ? undefined : await readSmall(lookup, joinDisplay(gitDirectory, 'config'));
  const ignoreCase = config === undefined ? false : (parseIgnoreCase(config) ?? false);
  const rules: IgnoreRulesText[] = [];
  const global = await globalExcludes(lookup, config);
  // The global rules match as if they sat in the working directory.
  if (global !== undefined) rules.push({ source: 'global', text: global, prefix: startsBelowWorkingDirectory(directory) ? prefixBetween('.', directory) : '' });
  if (repository !== undefined) {
    const exclude = gitDirectory === undefined ? undefined : await readSmall(lookup, joinDisplay(gitDirectory, posix.join('info', 'exclude')));
    if (exclude !== undefined) rules.push({ source: 'info/exclude', text: exclude, prefix: prefixBetween(repository.root, directory) });
  }
  rules.push(...(await ancestorRules(lookup, directory, repository)));
  return { ignoreCase, rules: rules.filter((rule) => !ignoresItself(rule, ignoreCase)) };
}

/**
 * Rules that ignore the searched directory itself are left out: a directory
 * named explicitly is searched, and the `ignore` package would ignore
 * everything below it for that one rule (it answers for a path with its
 * parents, where ripgrep matches each path alone).
 */
function ignoresItself(rule: IgnoreRulesText, ignoreCase: boolean): boolean {
  if (rule.text.trim() === '' || rule.prefix === '') return false;
  return ignore({ allowRelativePaths: true, ignoreCase }).add(rule.text).test(rule.prefix).ignored;
}

function startsBelowWorkingDirectory(display: string): boolean {
  return display === '.' || (!posix.isAbsolute(display) && !display.startsWith('..'));
}

/**
 * The ignore files between the working directory and the searched directory
 * below it (ripgrep reads the parents' rules too), outermost first. Above
 * the repository's root, git's own files do not apply to it.
 */
async function ancestorRules(lookup: IgnoreLookup, display: string, repository: Repository | undefined): Promise<IgnoreRulesText[]> {
  if (display === '.' || !startsBelowWorkingDirectory(display)) return [];
  const parts = display.split('/');
  const rules: IgnoreRulesText[] = [];
  for (let depth = 0; depth < parts.length; depth += 1) {
    const ancestor = depth === 0 ? '.' : parts.slice(0, depth).join('/');
    const prefix = `${parts.slice(depth).join('/')}/`;
    const below = repository === undefined ? '' : prefixBetween(ancestor, repository.root);
    const aboveRepository = below !== '' && !below.startsWith('..');
    const entries = await listNames(lookup, ancestor);
    for (const [name, source] of IGNORE_FILES) {
      if (!entries.has(name)) continue;
      if (aboveRepository && source === '.gitignore') continue;
      const text = await readSmall(lookup, joinDisplay(ancestor, name));
      if (text !== undefined && text.trim() !== '') rules.push({ source, text, prefix });
    }
  }
  return rules;
}

/** The names of a directory's regular files, or none when it cannot be listed. */
async function listNames(lookup: IgnoreLookup, display: string): Promise<Set<string>> {
  try {
    const directory = await lookup.paths.resolvePath(display, 'read', 'must_exist', { signal: lookup.signal });
    if (directory.kind !== 'directory') return new Set();
    const entries = await lookup.filesystem.readDirectory(directory, { signal: lookup.signal, sizes: false });
    return new Set(entries.filter((entry) => entry.kind === 'file').map((entry) => entry.name));
  } catch (error) {
    if (isToolError(error) && !stopsTheCall(error.kind)) return new Set();
    throw error;
  }
}
