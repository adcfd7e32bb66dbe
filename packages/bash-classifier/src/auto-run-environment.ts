import { absolutePath } from './command-path.ts';
import { commandEnvironment } from './environment.ts';

/**
 * git configuration set at the highest precedence (the command scope, as
 * `-c` would) for a command the classifier let run on its own: nothing the
 * repository configures may run a program. `core.hooksPath=/dev/null` makes every hook path
 * `/dev/null/<hook>`, which cannot exist.
 */
export const GIT_OVERRIDES: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ...['status', 'log', 'diff', 'show', 'blame', 'ls-files', 'rev-parse', 'branch', 'tag'].map((command) => [`pager.${command}`, 'false'] as const),
  // No transport at all: a partial clone's lazy fetch would run the remote's upload-pack, ssh command or ext:: helper.
  ['protocol.allow', 'never'],
  // Submodules are not entered: each has a configuration of its own (filters, textconv) that the check above never read.
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['submodule.recurse', 'false'],
];

/** Variables that make a listed program run another program, read a config that can, or change what a path means. */
export const DROPPED_VARIABLES: readonly string[] = [
  // git: an external diff, an ssh or askpass program, where git finds its helpers.
  'GIT_EXTERNAL_DIFF',
  'GIT_EXEC_PATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_EDITOR',
  // ripgrep reads flags (--pre) from this file.
  'RIPGREP_CONFIG_PATH',
  // less runs these as input filters (a pager, were one started).
  'LESSOPEN',
  'LESSCLOSE',
  // Old GNU grep read flags from here.
  'GREP_OPTIONS',
  // bash: cd looks in CDPATH; xtrace with PS4 runs its expansions; these import options.
  'CDPATH',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'GLOBIGNORE',
  // Option parsing without permutation reads flags differently from the classifier.
  'POSIXLY_CORRECT',
  // bash takes a logical PWD from here; the command starts in the canonical directory.
  'PWD',
  'OLDPWD',
];

export interface AutoRunEnvironmentOptions {
  /** PATH as `pathOutsideRoots` makes it for the session; without it, the host's absolute entries. */
  readonly path?: string;
}

/**
 * The environment of a command that runs without approval: the session's,
 * with the variables above and every credential-like one dropped (nothing
 * passed through reaches it), PATH absolute, no pager, git's
 * repository-configured programs off and no optional locks (no index
 * refresh, no write). An approved command runs with `commandEnvironment`.
 */
export function autoRunEnvironment(environment: Readonly<Record<string, string>>, options: AutoRunEnvironmentOptions = {}): Record<string, string> {
  const clean = commandEnvironment(environment);
  for (const name of DROPPED_VARIABLES) delete clean[name];
  clean.PATH = options.path ?? absolutePath(clean.PATH);
  clean.GIT_PAGER = 'cat';
  clean.PAGER = 'cat';
  clean.GIT_OPTIONAL_LOCKS = '0';
  clean.GIT_TERMINAL_PROMPT = '0';
  // git 2.44 and later: objects missing from a partial clone are not fetched (older ones are held by protocol.allow).
  clean.GIT_NO_LAZY_FETCH = '1';
  // Appended after any the host set: the last value of a key wins.
  const existing = Number.parseInt(clean.GIT_CONFIG_COUNT ?? '0', 10);
  const start = Number.isSafeInteger(existing) && existing > 0 ? existing : 0;
  GIT_OVERRIDES.forEach(([key, value], index) => {
    clean[`GIT_CONFIG_KEY_${start + index}`] = key;
    clean[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  clean.GIT_CONFIG_COUNT = String(start + GIT_OVERRIDES.length);
  return clean;
}
