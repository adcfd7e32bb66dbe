import { refuse } from './verdict.ts';
import { hasGlob } from './word.ts';
import type { ProgramCheck } from './verdict.ts';

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

/** Flags of those subcommands that write a file, run a program, or open a pager. */
const SUBCOMMAND_DENIED: ReadonlyArray<readonly [RegExp, string]> = [
  [/^--output(=|$)/, 'writes its output to a file'],
  [/^--ext-diff$/, 'runs an external diff program'],
  [/^--textconv$/, 'runs the configured textconv programs'],
  [/^--open-files-in-pager/, 'runs a pager'],
  [/^-O/, 'reads an order file from anywhere, which is not classified'],
  [/^--exec(=|$)/, 'runs a program'],
  [/^--upload-pack|^--receive-pack/, 'runs a program'],
  [/^--no-index$/, 'compares any two files on the disk, inside the roots or not'],
  [/^--help$/, 'opens the manual through a viewer the configuration can name (man.viewer, help.format)'],
];

/** Flags whose value is a file git reads. */
const FILE_VALUE_FLAGS = new Set(['--contents']);

/**
 * An operand git reads as a path on the disk rather than a revision: a
 * revision never starts with `/` or `../`. `git diff ../x a.txt` compares
 * files outside the repository without --no-index, so such an operand is
 * a read that must stay inside the roots.
 */
const looksLikeOutsidePath = (arg: string) => arg.startsWith('/') || arg === '..' || arg.startsWith('../');

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
  const reads: { path: string }[] = directory === '.' ? [] : [{ path: directory }];
  if (subcommand === undefined) return { ok: true, rule: `read_only:${program}`, readPaths: reads, git: { directory, subcommand } };
  if (!READ_SUBCOMMANDS.has(subcommand)) return refuse(`git ${subcommand} is not on the read-only list (status, log, diff, show, ls-files, rev-parse, blame)`);
  const rest = args.slice(index + 1);
  let options = true;
  for (let position = 0; position < rest.length; position += 1) {
    const arg = rest[position]?.value ?? '';
    if (options && arg === '--') {
      options = false;
      continue;
    }
    if (options) {
      for (const [pattern, why] of SUBCOMMAND_DENIED) {
        if (pattern.test(arg)) return refuse(`git ${subcommand} ${arg} ${why}`);
      }
      const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
      if (FILE_VALUE_FLAGS.has(name)) {
        const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : rest[(position += 1)]?.value;
        if (value === undefined) return refuse(`git ${subcommand} ${arg} expects a file`);
        reads.push({ path: directory === '.' || value.startsWith('/') ? value : `${directory}/${value}` });
        continue;
      }
    }
    if ((!options || !arg.startsWith('-')) && looksLikeOutsidePath(arg)) reads.push({ path: directory === '.' || arg.startsWith('/') ? arg : `${directory}/${arg}` });
  }
  return { ok: true, rule: `read_only:git ${subcommand}`, readPaths: reads, git: { directory, subcommand } };
};
