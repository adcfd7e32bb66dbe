import { allowRuleHint } from './allow-rules.ts';
import { refuse } from './verdict.ts';
import { abbreviates, DENIED_LONG, FILE_OPTIONS } from './git-options.ts';
import { readOperand } from './reads.ts';
import { hasGlob, joinParts, quotedPart } from './word.ts';
import type { Word } from './word.ts';
import type { ProgramCheck, ReadOperand } from './verdict.ts';

/** Options before the subcommand that change nothing but where git looks or how it prints. */
const GLOBAL_FLAGS = new Set(['--no-pager', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects', '--version']);
const GLOBAL_VALUE_FLAGS = new Set(['-C']);

const GLOBAL_DENIED: Readonly<Record<string, string>> = {
  '-c': 'git -c sets configuration, which can name a program to run (core.pager, diff.external, core.fsmonitor)',
  '--config-env': 'git --config-env sets configuration, which can name a program to run',
  '-p': 'git -p runs a pager',
  '--paginate': 'git --paginate runs a pager',
  '--exec-path': 'git --exec-path chooses where git finds the programs it runs',
  '--git-dir': 'git --git-dir points at another repository, whose configuration can run programs',
  '--work-tree': 'git --work-tree points at another tree',
  '--namespace': 'git --namespace is not classified',
  '--help': 'git --help opens the manual through a viewer the configuration can name (man.viewer, help.format)',
};

/** Subcommands that only read the repository. */
const READ_SUBCOMMANDS = new Set(['status', 'log', 'diff', 'show', 'ls-files', 'rev-parse', 'blame']);

/**
 * git status/log/diff/show/ls-files/rev-parse/blame, with no configuration
 * override before the subcommand and no flag that writes or runs anything.
 */
export const git: ProgramCheck = (program, args) => {
  let index = 0;
  let directory = '.';
  for (; index < args.length; index += 1) {
    const arg = args[index]?.value ?? '';
    if (!arg.startsWith('-')) break;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const denied = GLOBAL_DENIED[name] ?? (arg.startsWith('-c') ? GLOBAL_DENIED['-c'] : undefined);
    if (denied !== undefined) return refuse(denied);
    if (GLOBAL_FLAGS.has(arg)) continue;
    if (GLOBAL_VALUE_FLAGS.has(arg)) {
      const word = args[index + 1];
      const value = word?.value;
      if (value === undefined) return refuse(`git ${arg} expects a value`);
      // The directory whose configuration is checked must be the one git opens: a glob is only known when bash expands it.
      if (word !== undefined && hasGlob(word)) return refuse(`git ${arg} ${value}: a glob in the directory is only known when bash expands it; name the directory`);
      // Each -C is relative to the one before it.
      directory = value.startsWith('/') ? value : directory === '.' ? value : `${directory}/${value}`;
      index += 1;
      continue;
    }
    return refuse(`git ${arg} before the subcommand is not a known-safe option`);
  }
  const subcommand = args[index]?.value;
  const reads: ReadOperand[] = directory === '.' ? [] : [{ path: directory }];
  if (subcommand === undefined) return { ok: true, rule: `read_only:${program}`, readPaths: reads, git: { directory, subcommand } };
  if (!READ_SUBCOMMANDS.has(subcommand)) return refuse(`git ${subcommand} is not on the read-only list (status, log, diff, show, ls-files, rev-parse, blame); ${allowRuleHint([program, subcommand])}`);
  const rest = args.slice(index + 1);
  const fileOptions = FILE_OPTIONS[subcommand] ?? { long: [], short: '' };
  // Values of file options: git resolves some from the top of the work tree, not from where it starts, so checkGit checks them from there too.
  const files: string[] = [];
  const located = (path: string) => (directory === '.' || path.startsWith('/') ? path : `${directory}/${path}`);
  const addFile = (word: Word | undefined, what: string): string | undefined => {
    if (word === undefined || word.value === '') return `git ${subcommand} ${what} expects a file`;
    if (hasGlob(word)) return `git ${subcommand} ${what} ${word.value}: a glob in a file git reads is only known when bash expands it`;
    files.push(word.value);
    reads.push({ path: located(word.value) });
    return undefined;
  };
  let options = true;
  for (let position = 0; position < rest.length; position += 1) {
    const word = rest[position];
    const arg = word?.value ?? '';
    if (options && arg === '--') {
      options = false;
      continue;
    }
    if (options && arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const bare = arg.slice(2, equals === -1 ? undefined : equals);
      const denied = DENIED_LONG[bare];
      if (denied !== undefined) return refuse(`git ${subcommand} ${arg} ${denied}`);
      const abbreviated = abbreviates(subcommand, bare);
      if (abbreviated !== undefined) {
        return refuse(`git ${subcommand} ${arg}: git takes an unambiguous prefix of a long option as the option, and this one may be --${abbreviated}; write the option in full`);
      }
      if (fileOptions.long.includes(bare)) {
        const value = equals === -1 ? rest[(position += 1)] : { value: arg.slice(equals + 1), unquoted: (word?.unquoted ?? '').slice(equals + 1) };
        // git opens this name inside every directory it lists: a path in it can lead from any of them, not only from here.
        if (bare === 'exclude-per-directory' && value?.value.includes('/') === true) return refuse(`git ${subcommand} --${bare} takes a file name, not a path`);
        const problem = addFile(value, `--${bare}`);
        if (problem !== undefined) return refuse(problem);
      }
      continue;
    }
    if (options && arg.startsWith('-') && arg !== '-') {
      // A bundle (`-wS file`, `-wSfile`): the first file letter takes the rest of the word, or the next word.
      const letter = arg.slice(1).split('').findIndex((flag) => fileOptions.short.includes(flag));
      if (letter === -1) continue;
      const attached = arg.slice(letter + 2);
      const value = attached === '' ? rest[(position += 1)] : { value: attached, unquoted: (word?.unquoted ?? '').slice(letter + 2) };
      const problem = addFile(value, `-${arg[letter + 1] ?? ''}`);
      if (problem !== undefined) return refuse(problem);
      continue;
    }
    // Any other word may be a path: a pathspec, or (for diff) a file on the disk, which an outside path makes git compare without --no-index.
    if (word === undefined) continue;
    const prefix = located(arg).slice(0, located(arg).length - arg.length);
    const operand = readOperand(`git ${subcommand}`, joinParts([quotedPart(prefix), word]));
    if (!operand.ok) return refuse(operand.reason);
    reads.push(...operand.paths);
  }
  return { ok: true, rule: `read_only:git ${subcommand}`, readPaths: reads, git: { directory, subcommand, ...(files.length === 0 ? {} : { files }) } };
};
