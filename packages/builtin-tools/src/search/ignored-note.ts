import type { IgnoreSource, TreeSearchIgnored } from '@openwork/tree-search';

const SOURCE_NAMES: Record<IgnoreSource, string> = {
  '.rgignore': '.rgignore',
  '.ignore': '.ignore',
  '.gitignore': '.gitignore',
  'info/exclude': '.git/info/exclude',
  global: 'the global git excludes file',
};

function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * An empty result says what the ignore rules left out, so
 * that "no matches" is not read as "not there" (peers' users report that
 * silent ignores do exactly that). Undefined when nothing was left out.
 */
export function ignoredNote(ignored: TreeSearchIgnored, verb: 'search' | 'list'): string | undefined {
  const { files, directories } = ignored;
  if (files + directories === 0) return undefined;
  const what = [files > 0 ? counted(files, 'file', 'files') : '', directories > 0 ? counted(directories, 'directory', 'directories') : ''].filter((part) => part !== '').join(' and ');
  const rules = ignored.sources.map((source) => SOURCE_NAMES[source]).join(', ');
  return `${what} ${files + directories === 1 ? 'was' : 'were'} skipped by ignore rules (${rules}); pass includeIgnored: true to ${verb} them too`;
}
