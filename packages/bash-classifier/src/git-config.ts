import { posix } from 'node:path';
import { isToolError } from '@openwork/tool-contract';
import type { PathGuard } from '@openwork/path-guard';
import type { ProcessBackend } from '@openwork/process-backend';
import { autoRunEnvironment } from './auto-run-environment.ts';
import { pathOutsideRoots } from './command-path.ts';

/** One effective configuration entry, with the scope git read it from. */
export interface GitConfigEntry {
  readonly scope: string;
  readonly key: string;
  readonly value: string;
}

export type GitRepositoryConfig =
  | {
      readonly repository: true;
      readonly entries: readonly GitConfigEntry[];
      /** Where the repository's objects and configuration are (`rev-parse --absolute-git-dir`): a `.git` file or symlink can put them anywhere. */
      readonly gitDirectory?: string;
      /** Where the objects, references and configuration shared by all work trees are (`--git-common-dir`): a `commondir` file can put them anywhere. */
      readonly commonDirectory?: string;
      /** The object directory (`--git-path objects`). */
      readonly objectDirectory?: string;
      /** Other object directories git reads objects from (`objects/info/alternates`, nested ones too), as `count-objects -v` lists them. */
      readonly alternates?: readonly string[];
      /** The top of the work tree, absent in a bare repository: git resolves some file options from there. */
      readonly topLevel?: string;
    }
  | { readonly repository: false };

/** Reads the configuration git would use in a directory (absolute), includes resolved. */
export type GitConfigReader = (directory: string, signal?: AbortSignal) => Promise<GitRepositoryConfig>;

/** Scopes the person or the machine's administrator wrote; the rest ships with, or is written into, the repository. */
export const TRUSTED_SCOPES = new Set(['system', 'global', 'command']);

/** Keys whose value is a program git runs, that the overrides turn off. */
const NEUTRALIZED: readonly RegExp[] = [/^core\.fsmonitor$/, /^core\.hookspath$/, /^core\.pager$/, /^pager\./];

/** Keys whose value is a program a read-only git command may run, or that point it at another tree. */
const ASKS: readonly (readonly [RegExp, string])[] = [
  [/^diff\.external$/, 'runs an external diff program'],
  [/^diff\..+\.(textconv|command)$/, 'names a diff driver program'],
  [/^filter\..+\.(clean|smudge|process)$/, 'names a filter program that status and diff run'],
  [/^gpg(\..+)?\.program$/, 'names the signature program that log and show run'],
  [/^gpg\.ssh\.defaultkeycommand$/, 'names a program git runs for ssh signatures'],
  [/^core\.worktree$/, 'points git at a work tree elsewhere'],
  [/^core\.sshcommand$/, 'names the ssh program a fetch runs'],
  [/^remote\..+\.(uploadpack|receivepack|promisor|vcs)$/, 'names a program or a partial-clone remote a read may fetch from'],
  [/^extensions\.partialclone$/, 'makes a read fetch missing objects from a remote'],
  [/^url\..+\.(insteadof|pushinsteadof)$/, 'rewrites remote addresses, which can name a helper program'],
  [/^(man|help)\./, 'names the viewer that --help runs'],
];

export interface GitConfigFindings {
  /** Keys the repository sets that would run a program: the command asks. */
  readonly asks: readonly string[];
  /** Keys the repository sets that the overrides turn off. */
  readonly neutralized: readonly string[];
}

/** Sorts the repository-written keys by what they could run. */
export function judgeGitConfig(entries: readonly GitConfigEntry[]): GitConfigFindings {
  const asks: string[] = [];
  const neutralized: string[] = [];
  for (const entry of entries) {
    if (TRUSTED_SCOPES.has(entry.scope)) continue;
    const key = entry.key.toLowerCase();
    const asked = ASKS.find(([pattern]) => pattern.test(key));
    if (asked !== undefined) {
      const text = `${entry.key} (${entry.scope}: ${asked[1]})`;
      if (!asks.includes(text)) asks.push(text);
    } else if (NEUTRALIZED.some((pattern) => pattern.test(key)) && !neutralized.includes(entry.key)) {
      neutralized.push(entry.key);
    }
  }
  return { asks, neutralized };
}

/** `git config --list --show-scope -z`: `scope NUL key LF value NUL` per entry. */
export function parseGitConfigList(text: string): GitConfigEntry[] {
  const fields = text.split('\0');
  const entries: GitConfigEntry[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const scope = fields[index] ?? '';
    const pair = fields[index + 1] ?? '';
    const newline = pair.indexOf('\n');
    entries.push(newline === -1 ? { scope, key: pair, value: '' } : { scope, key: pair.slice(0, newline), value: pair.slice(newline + 1) });
  }
  return entries;
}

/** The `alternate:` lines of `git count-objects -v`, each an absolute directory; a quoted one (unusual characters) is not read. */
export function parseAlternates(text: string): string[] {
  const alternates: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('alternate: ')) continue;
    const path = line.slice('alternate: '.length);
    if (path.startsWith('"')) throw new Error(`git names an alternate object directory with characters it quotes: ${path}`);
    alternates.push(path);
  }
  return alternates;
}

export interface GitConfigReaderOptions {
  /** The session's guard: `git` is then found only outside its roots, as an auto-run command's is; without it, on the host's absolute PATH. */
  readonly paths?: PathGuard;
}

/**
 * Reads a repository's configuration through the session's process
 * backend, with the same environment an auto-run command gets, so that
 * what is checked is what the command would see. `git config` itself runs
 * no configured program, and the `git` that runs is not one a repository
 * keeps (its `node_modules/.bin/git`): this runs before anyone is asked.
 */
export function gitConfigReader(processes: ProcessBackend, environment: Readonly<Record<string, string>>, options: GitConfigReaderOptions = {}): GitConfigReader {
  const { paths } = options;
  const environmentFor = async (signal: AbortSignal | undefined) =>
    autoRunEnvironment(environment, paths === undefined ? {} : { path: await pathOutsideRoots(environment.PATH, paths, signal) });
  const run = async (directory: string, argv: readonly string[], env: Record<string, string>, signal: AbortSignal | undefined) => {
    try {
      return await processes.run({ argv: ['git', ...argv], cwd: directory, env, signal: signal ?? new AbortController().signal, capture: { headBytes: 4 * 1024 * 1024, tailBytes: 0 } });
    } catch (error) {
      // No git on the machine: the command itself cannot run git either.
      if (isToolError(error) && error.kind === 'spawn_failed') return undefined;
      throw error;
    }
  };
  return async (directory, signal) => {
    // PATH is resolved through the guard once for the four git runs of one reading.
    const env = await environmentFor(signal);
    const inside = await run(directory, ['rev-parse', '--absolute-git-dir', '--git-common-dir', '--git-path', 'objects'], env, signal);
    if (inside?.status !== 'exited' || inside.exitCode !== 0) return { repository: false };
    const [gitDirectory = '', common, objects] = inside.stdout.text.split('\n');
    const listed = await run(directory, ['config', '--list', '--show-scope', '-z'], env, signal);
    if (listed?.status !== 'exited' || listed.exitCode !== 0 || listed.stdout.truncated) {
      throw new Error(`git config could not be read in ${directory}: ${listed?.stderr.text.trim() ?? 'git is missing'}`);
    }
    if (common === undefined || common === '' || objects === undefined || objects === '') throw new Error(`git could not say where the repository in ${directory} keeps its objects`);
    const counted = await run(directory, ['count-objects', '-v'], env, signal);
    if (counted?.status !== 'exited' || counted.exitCode !== 0) throw new Error(`git could not list the alternate object directories in ${directory}`);
    const alternates = parseAlternates(counted.stdout.text);
    const top = await run(directory, ['rev-parse', '--show-toplevel'], env, signal);
    const topLevel = top?.status === 'exited' && top.exitCode === 0 ? top.stdout.text.replace(/\n$/, '') : '';
    return {
      repository: true,
      entries: parseGitConfigList(listed.stdout.text),
      ...(gitDirectory === '' ? {} : { gitDirectory }),
      // rev-parse prints these relative to where it ran unless they are elsewhere.
      commonDirectory: posix.resolve(directory, common),
      objectDirectory: posix.resolve(directory, objects),
      alternates,
      ...(topLevel === '' ? {} : { topLevel }),
    };
  };
}
