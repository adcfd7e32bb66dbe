// The warm session's searches: 20 varied greps and globs as an agent runs
// them in one session, each with the ripgrep command that does the same work
// (hidden files, .gitignore without a repository, never .git, the 4 MiB cap).

export interface WarmSearch {
  readonly name: string;
  readonly tool: 'grep' | 'glob';
  readonly arguments: Record<string, unknown>;
  readonly rg: readonly string[];
  /** rg's output closed after this many lines, as `| head -N`. */
  readonly head?: number;
}

const ALL = 1_000_000;
const rg = (...rest: string[]) => ['rg', '--hidden', '--no-require-git', '-g', '!.git', '--max-filesize', '4M', ...rest];
const grep = (name: string, input: Record<string, unknown>, rgArgs: string[], head?: number): WarmSearch => ({
  name,
  tool: 'grep',
  arguments: input,
  rg: rg(...rgArgs),
  ...(head === undefined ? {} : { head }),
});

export const WARM_SEARCHES: readonly WarmSearch[] = [
  grep('literal createElement', { pattern: 'createElement', literal: true, maxResults: ALL }, ['-l', '-F', 'createElement']),
  grep('regex function\\s+use[A-Z]\\w+', { pattern: 'function\\s+use[A-Z]\\w+', maxResults: ALL }, ['-l', 'function\\s+use[A-Z]\\w+']),
  grep('-i deprecated', { pattern: 'deprecated', caseInsensitive: true, maxResults: ALL }, ['-l', '-i', 'deprecated']),
  grep('content TODO', { pattern: 'TODO', mode: 'content', maxResults: ALL }, ['-n', 'TODO']),
  grep('early stop export (100)', { pattern: 'export' }, ['-l', 'export'], 100),
  { name: 'glob **/*.js', tool: 'glob', arguments: { pattern: '**/*.js', maxResults: 2000 }, rg: rg('--files', '-g', '*.js'), head: 2000 },
  grep('literal useState, glob *.ts', { pattern: 'useState', glob: '*.ts', maxResults: ALL }, ['-l', '-g', '*.ts', 'useState']),
  grep('-i hasOwnProperty', { pattern: 'hasOwnProperty', caseInsensitive: true, maxResults: ALL }, ['-l', '-i', 'hasOwnProperty']),
  grep('count Observable', { pattern: 'Observable', mode: 'count', maxResults: ALL }, ['-c', 'Observable']),
  grep('regex import \\{…\\} from', { pattern: 'import\\s+\\{[^}]*\\}\\s+from', maxResults: ALL }, ['-l', 'import\\s+\\{[^}]*\\}\\s+from']),
  grep('content eslint-disable-next-line', { pattern: 'eslint-disable-next-line', literal: true, mode: 'content', maxResults: ALL }, ['-n', '-F', 'eslint-disable-next-line']),
  { name: 'glob **/*.d.ts', tool: 'glob', arguments: { pattern: '**/*.d.ts', maxResults: 2000 }, rg: rg('--files', '-g', '*.d.ts'), head: 2000 },
  grep('regex TODO|FIXME', { pattern: 'TODO|FIXME', maxResults: ALL }, ['-l', 'TODO|FIXME']),
  grep('absent literal', { pattern: 'zqxjvnotinthecorpus', maxResults: ALL }, ['-l', 'zqxjvnotinthecorpus']),
  grep('querySelector, glob *.js', { pattern: 'querySelector', glob: '*.js', maxResults: ALL }, ['-l', '-g', '*.js', 'querySelector']),
  grep('regex class \\w+Error extends', { pattern: 'class\\s+\\w+Error\\s+extends', maxResults: ALL }, ['-l', 'class\\s+\\w+Error\\s+extends']),
  grep('early stop content function (50)', { pattern: 'function', mode: 'content', maxResults: 50 }, ['-n', 'function'], 50),
  grep('-i non-ASCII größe', { pattern: 'größe', caseInsensitive: true, maxResults: ALL }, ['-l', '-i', 'größe']),
  grep('type ts, literal Injectable', { pattern: 'Injectable', type: 'ts', maxResults: ALL }, ['-l', '-t', 'ts', 'Injectable']),
  grep('content -i console.warn, context 2', { pattern: 'console.warn', literal: true, caseInsensitive: true, mode: 'content', context: 2, maxResults: ALL }, ['-n', '-i', '-F', '-C2', 'console.warn']),
];
