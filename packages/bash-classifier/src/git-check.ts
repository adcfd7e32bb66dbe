import { posix } from 'node:path';
import { isToolError } from '@openwork/tool-contract';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { PathGuard } from '@openwork/path-guard';
import type { CommandClassification } from './classifier/index.ts';
import { judgeGitConfig, TRUSTED_SCOPES } from './git-config.ts';
import type { GitConfigReader, GitRepositoryConfig } from './git-config.ts';

/** Errors of the guard that mean the path leads out of the roots; the rest (a missing file) the program reports itself. */
export const LEADS_OUT = new Set(['outside_root', 'symlink_loop']);

/** The guard's reason when a path leads out of the readable roots, else undefined. */
export async function outsideReadableRoots(paths: PathGuard, path: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  try {
    await paths.resolvePath(path, 'read', 'must_exist', signal === undefined ? {} : { signal });
    return undefined;
  } catch (error) {
    if (!isToolError(error)) throw error;
    return LEADS_OUT.has(error.kind) ? error.kind : undefined;
  }
}

/**
 * Files git reads inside its directories on a read: any of them can be a
 * symlink in a repository whose directory was shipped as ordinary files
 * (a `.git` file with `gitdir:` names any directory in the work tree).
 */
const READ_INSIDE = ['HEAD', 'packed-refs', 'shallow', 'info/grafts', 'info/exclude', 'info/attributes', 'config', 'config.worktree', 'refs', 'logs', 'index', 'commondir', 'gitdir', 'objects/info/alternates'];

/** The back-link of a linked work tree's git directory: the path of that work tree's `.git` file. */
async function worktreeLink(paths: PathGuard, filesystem: AsyncFileSystem | undefined, gitDirectory: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  if (filesystem === undefined) return undefined;
  const options = signal === undefined ? {} : { signal };
  try {
    const checked = await paths.resolvePath(`${gitDirectory}/gitdir`, 'read', 'must_exist', options);
    const text = new TextDecoder().decode(await filesystem.readFile(checked, { maxBytes: 64 * 1024, ...options }));
    return text.trim() === '' ? undefined : posix.resolve(gitDirectory, text.trim());
  } catch (error) {
    if (!isToolError(error)) throw error;
    return undefined;
  }
}

/** Why the repository a git command uses lies (in part) outside the readable roots, or undefined. */
async function repositoryOutside(paths: PathGuard, config: Extract<GitRepositoryConfig, { repository: true }>, filesystem: AsyncFileSystem | undefined, signal: AbortSignal | undefined): Promise<string | undefined> {
  const places: (readonly [string, string | undefined])[] = [
    // The objects git shows come from its directory: one outside the roots (a .git symlink, a gitdir: file) is a read outside them.
    ['is kept at', config.gitDirectory],
    ['shares the objects and references of (commondir)', config.commonDirectory],
    ['reads objects from', config.objectDirectory],
    ...(config.alternates ?? []).map((alternate) => ['reads objects from the alternate', alternate] as const),
  ];
  for (const directory of new Set([config.gitDirectory, config.commonDirectory])) {
    if (directory !== undefined) places.push(...READ_INSIDE.map((name) => ['reads', `${directory}/${name}`] as const));
  }
  if (config.gitDirectory !== undefined && config.gitDirectory !== config.commonDirectory) {
    places.push(['is the linked work tree of', await worktreeLink(paths, filesystem, config.gitDirectory, signal)]);
  }
  for (const [what, place] of places) {
    if (place === undefined) continue;
    const kind = await outsideReadableRoots(paths, place, signal);
    if (kind !== undefined) return `${what} ${place}, which is outside the readable roots (${kind})`;
  }
  return undefined;
}

/**
 * Keys naming a file a read-only command opens: `blame.ignoreRevsFile`
 * prints the first line it cannot parse, the others shape what is shown.
 */
const FILE_KEYS = new Set(['blame.ignorerevsfile', 'diff.orderfile', 'mailmap.file', 'core.excludesfile', 'core.attributesfile', 'gpg.ssh.allowedsignersfile', 'gpg.ssh.revocationfile']);

/** Why a file the repository's own configuration names lies outside the roots, or undefined; git opens a relative one from the top of the work tree. */
async function configuredFileOutside(paths: PathGuard, config: Extract<GitRepositoryConfig, { repository: true }>, directory: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  for (const entry of config.entries) {
    if (TRUSTED_SCOPES.has(entry.scope) || !FILE_KEYS.has(entry.key.toLowerCase()) || entry.value === '') continue;
    if (entry.value.startsWith('~')) return `the repository's configuration names a file in a home directory: ${entry.key} = ${entry.value}`;
    for (const base of new Set([config.topLevel ?? directory, directory])) {
      const kind = await outsideReadableRoots(paths, posix.resolve(base, entry.value), signal);
      if (kind !== undefined) return `the repository's configuration names a file outside the readable roots: ${entry.key} = ${entry.value} (${kind})`;
    }
  }
  return undefined;
}

export interface GitCheckOptions {
  readonly signal?: AbortSignal;
  readonly filesystem?: AsyncFileSystem;
  readonly gitConfig?: GitConfigReader;
}

/**
 * Every repository a git command uses lies inside the readable roots, the
 * files its options name do from wherever git resolves them, and its own
 * configuration names no program git would run.
 */
export async function checkGit(paths: PathGuard, classification: CommandClassification, options: GitCheckOptions): Promise<{ ask: string } | { note: string }> {
  if (classification.git.length === 0) return { note: '' };
  if (options.gitConfig === undefined) return { ask: "git runs programs its repository's configuration names, and that configuration was not checked" };
  const neutralized = new Set<string>();
  const configs = new Map<string, GitRepositoryConfig>();
  for (const invocation of classification.git) {
    const directory = posix.resolve(paths.workingDirectory, invocation.directory);
    let config = configs.get(directory);
    if (config === undefined) {
      try {
        config = await options.gitConfig(directory, options.signal);
      } catch (error) {
        return { ask: `the repository's configuration could not be checked (${error instanceof Error ? error.message : String(error)})` };
      }
      configs.set(directory, config);
      if (config.repository) {
        const outside = await repositoryOutside(paths, config, options.filesystem, options.signal);
        if (outside !== undefined) return { ask: `the repository of ${invocation.directory} ${outside}` };
        const named = await configuredFileOutside(paths, config, directory, options.signal);
        if (named !== undefined) return { ask: named };
        const findings = judgeGitConfig(config.entries);
        if (findings.asks.length > 0) return { ask: `the repository's configuration names a program git would run: ${findings.asks.join(', ')}` };
        for (const key of findings.neutralized) neutralized.add(key);
      }
    }
    if (!config.repository) {
      // Outside a repository `git diff` compares any two files (--no-index).
      if (invocation.subcommand === 'diff') return { ask: `${invocation.directory} is not in a repository, where git diff compares any two files on the disk` };
      continue;
    }
    // git opens some files its options name from the top of the work tree; from where it starts is checked with the other reads.
    for (const file of invocation.files ?? []) {
      if (file.startsWith('/') || config.topLevel === undefined) continue;
      const kind = await outsideReadableRoots(paths, posix.resolve(config.topLevel, file), options.signal);
      if (kind !== undefined) return { ask: `git ${invocation.subcommand ?? ''} reads ${file} from the top of the work tree, ${config.topLevel}, which leads outside the readable roots (${kind})` };
    }
  }
  const set = neutralized.size === 0 ? '' : `; the repository sets ${[...neutralized].join(', ')}, overridden`;
  return { note: `; git runs with the repository's programs turned off (core.fsmonitor, core.hooksPath, pagers) and no optional locks${set}` };
}
