import { posix } from 'node:path';
import { isToolError } from '@openwork/tool-contract';
import type { PermissionDecision, ToolEffect } from '@openwork/tool-contract';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { CheckedPath, PathGuard } from '@openwork/path-guard';
import type { CommandAllowRule, CommandClassification, CommandClassifier, PermissionMode } from './classifier/index.ts';
import { checkGit, LEADS_OUT } from './git-check.ts';
import type { GitConfigReader } from './git-config.ts';
import { checkJqPrograms } from './jq-programs.ts';
import type { BashReader } from './bash-reading.ts';
import { bashDisagreement } from './reads-like-bash.ts';

export interface BashDecisionOptions {
  readonly signal?: AbortSignal;
  /** Lists the directory of a glob a command reads, so each symlink it could expand to is checked; without it such a glob asks. */
  readonly filesystem?: AsyncFileSystem;
  /** Reads the configuration of the repository a git command reads; without it a git command asks. */
  readonly gitConfig?: GitConfigReader;
  /** Command prefixes a person allowed; a line that needs one is an ask those rules approved. */
  readonly allowRules?: readonly CommandAllowRule[];
  /**
   * Asks bash how it reads the line; a line runs without asking only when bash
   * reads the same commands, words and redirections as the classifier.
   * Without it every line asks.
   */
  readonly bashReader?: BashReader;
  /** Directory names, besides `.git`, inside which a gate command asks: a change there alters what runs. */
  readonly protectedDirectories?: readonly string[];
}

/** The longest part of a command quoted back in a reason; a denied 2 MB command is not echoed whole. */
const MAX_ECHO_CHARS = 200;

/**
 * The command as a reason quotes it: whole, or its start with the rest
 * said to be left out, never silently. A person asked to approve it is
 * shown the whole command besides (the permission policy's question).
 */
export function quoteCommand(command: string): string {
  if (command.length <= MAX_ECHO_CHARS) return JSON.stringify(command);
  return `${JSON.stringify(command.slice(0, MAX_ECHO_CHARS))} … ${command.length - MAX_ECHO_CHARS} more characters omitted … (${command.length} characters in all)`;
}

const asking = (command: string, why: string): PermissionDecision => ({ verdict: 'ask', reason: `bash runs ${quoteCommand(command)}: ${why}`, rule: 'ask' });

/**
 * The classification's paths seen from the working directory when the
 * command starts elsewhere (bash's `workdir`): the start must be inside a
 * readable root, and a relative `..` asks, since the program climbs from
 * wherever a symlink on the way to the start led.
 */
async function fromWorkdir(
  paths: PathGuard,
  cwd: string,
  classification: CommandClassification,
  signal: { signal?: AbortSignal },
): Promise<CommandClassification | string> {
  if (cwd === paths.workingDirectory || cwd === '.') return classification;
  try {
    await paths.resolvePath(cwd, 'read', 'must_exist', signal);
  } catch (error) {
    if (!isToolError(error)) throw error;
    return `it would start in ${cwd} (${error.kind})`;
  }
  const relative = posix.relative(paths.workingDirectory, cwd);
  const base = relative === '' ? '.' : relative.startsWith('..') ? cwd : relative;
  let problem: string | undefined;
  const move = (path: string): string => {
    if (path.startsWith('/')) return path;
    if (path.split('/').includes('..')) problem ??= `${path} has a .. that the program resolves from where the command starts; write the path from the working directory`;
    return path === '.' ? base : `${base}/${path}`;
  };
  const moved: CommandClassification = {
    ...classification,
    writePaths: classification.writePaths.map(move),
    writeThrough: classification.writeThrough.map(move),
    newTrees: classification.newTrees.map(move),
    recursivePaths: classification.recursivePaths.map(move),
    readPaths: classification.readPaths.map((read) => ({ ...read, path: move(read.path) })),
    git: classification.git.map((invocation) => ({ ...invocation, directory: move(invocation.directory) })),
    jqPrograms: classification.jqPrograms.map(move),
  };
  return problem ?? moved;
}


/** The most directories a walk looks at before it asks: a tree that large is searched with the grep tool. */
const MAX_WALKED_DIRECTORIES = 2_000;

/**
 * A program that follows every symlink while it walks (`grep -R`) stays in
 * the roots when every symlink under the start leads inside them; one that
 * leads to a directory is walked too, as the program will.
 */
async function walkProblem(
  start: string,
  resolve: (path: string) => Promise<CheckedPath | string | undefined>,
  options: BashDecisionOptions,
): Promise<string | undefined> {
  const filesystem = options.filesystem;
  if (filesystem === undefined) return `the walk under ${start} follows symlinks, and its directories were not listed`;
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const pending = [start];
  let walked = 0;
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    walked += 1;
    if (walked > MAX_WALKED_DIRECTORIES) return `the walk under ${start} follows symlinks through more than ${MAX_WALKED_DIRECTORIES} directories, too many to check first; use the grep tool, or grep -r`;
    const checked = await resolve(directory);
    if (typeof checked === 'string') return `${checked}; grep -R under ${start} follows a symlink to it`;
    if (checked === undefined) continue;
    let entries;
    try {
      entries = await filesystem.readDirectory(checked, { ...signal });
    } catch (error) {
      if (!isToolError(error)) throw error;
      continue;
    }
    for (const entry of entries) {
      const path = `${directory === '/' ? '' : directory}/${entry.name}`;
      if (entry.kind === 'directory') pending.push(path);
      if (entry.kind !== 'symlink') continue;
      const through = await resolve(path);
      if (typeof through === 'string') return `${through}; grep -R under ${start} follows the symlink`;
      if (through === undefined) continue;
      const info = await filesystem.stat(through, { ...signal }).catch(() => undefined);
      if (info?.kind === 'directory') pending.push(path);
    }
  }
  return undefined;
}

async function checkReads(paths: PathGuard, classification: CommandClassification, options: BashDecisionOptions): Promise<string | undefined> {
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const resolve = async (path: string): Promise<CheckedPath | string | undefined> => {
    try {
      return await paths.resolvePath(path, 'read', 'must_exist', signal);
    } catch (error) {
      if (!isToolError(error)) throw error;
      return LEADS_OUT.has(error.kind) ? `it reads ${path}, which is outside the readable roots (${error.kind}); a person's approval, or a readable root that holds it, would let it run` : undefined;
    }
  };
  for (const read of classification.readPaths) {
    const checked = await resolve(read.path);
    if (typeof checked === 'string') return checked;
    if (read.walk === true && checked !== undefined) {
      const problem = await walkProblem(read.path, resolve, options);
      if (problem !== undefined) return problem;
    }
    if (read.glob !== true || checked === undefined) continue;
    if (options.filesystem === undefined) return `the glob in ${read.path} may expand to a symlink that leads outside the roots`;
    let entries;
    try {
      entries = await options.filesystem.readDirectory(checked, { ...signal });
    } catch (error) {
      if (!isToolError(error)) throw error;
      continue;
    }
    for (const entry of entries) {
      if (entry.kind !== 'symlink') continue;
      const through = await resolve(read.path === '/' ? `/${entry.name}` : `${read.path}/${entry.name}`);
      if (typeof through === 'string') return `${through}; a glob in ${read.path} can expand to it`;
    }
  }
  return undefined;
}

/**
 * The permission verdict for one bash command (docs/design.md §8): allow when the
 * classifier accepts it, every path it reads is inside a readable root,
 * the repository a git command reads names no program git would run, and,
 * for the filesystem gate, every path it touches is inside a writable root
 * and outside `.git`; ask otherwise, with the reason.
 */
export async function decideBashCommand(
  classifier: CommandClassifier,
  paths: PathGuard,
  effect: Extract<ToolEffect, { kind: 'execute' }>,
  mode: PermissionMode,
  options: BashDecisionOptions = {},
): Promise<PermissionDecision> {
  const classifyOptions = { mode, ...(options.allowRules === undefined ? {} : { allowRules: options.allowRules }) };
  const classified = classifier.classify(effect.command, classifyOptions);
  if (classified.verdict === 'ask') return asking(effect.command, classified.reason);
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const started = await fromWorkdir(paths, effect.cwd, classified, signal);
  if (typeof started === 'string') return asking(effect.command, started);
  const classification = started;
  const readProblem = await checkReads(paths, classification, options);
  if (readProblem !== undefined) return asking(effect.command, readProblem);
  // What git and jq will read is checked on the disk as it is before the line runs; a copy, move or removal before them changes it.
  if (classification.list === 'filesystem_gate' && (classification.git.length > 0 || classification.jqPrograms.length > 0)) {
    return asking(effect.command, 'a filesystem command in the same line may change the repository or program git or jq reads after it was checked; run them one at a time');
  }
  const jqProblem = await checkJqPrograms(paths, classification.jqPrograms, options);
  if (jqProblem !== undefined) return asking(effect.command, jqProblem);
  const through = new Set(classification.writeThrough);
  for (const path of [...classification.writePaths, ...classification.writeThrough]) {
    let checked: CheckedPath;
    try {
      checked = await paths.resolvePath(path, 'write', through.has(path) ? 'must_exist' : 'may_create', signal);
    } catch (error) {
      if (!isToolError(error)) throw error;
      // `cp a dst/` when dst/a does not exist (or dst is a file) writes nothing through it.
      if (through.has(path) && !LEADS_OUT.has(error.kind) && error.kind !== 'protected') continue;
      return asking(effect.command, `${path} is not inside a writable root (${error.kind}); a person's approval, or a writable root that holds it, would let it run`);
    }
    if (paths.passesThrough(checked, '.git')) {
      return asking(effect.command, `${path} is inside .git, where a change alters what git runs (hooks, configuration)`);
    }
    const inside = (options.protectedDirectories ?? []).find((name) => paths.passesThrough(checked, name));
    if (inside !== undefined) return asking(effect.command, `${path} is inside ${inside}, where a change alters what runs without asking`);
    if (classification.recursivePaths.includes(path) && paths.coversRoot(checked)) {
      return asking(effect.command, `${path} is or holds a root, which the command would move or remove`);
    }
  }
  for (const path of classification.newTrees) {
    try {
      await paths.resolvePath(path, 'read', 'must_exist', signal);
    } catch (error) {
      if (!isToolError(error)) throw error;
      continue;
    }
    return asking(effect.command, `${path} exists: cp -r into an existing tree writes through any symlink inside it`);
  }
  const git = await checkGit(paths, classification, options);
  if ('ask' in git) return asking(effect.command, git.ask);
  // Last, so that a line that asks anyway costs no bash start.
  const disagreement = await bashDisagreement(classifier, effect.command, classified.commands, { ...classifyOptions, reader: options.bashReader, ...signal });
  if (disagreement !== undefined) return asking(effect.command, disagreement);
  // A person's rule approved the line in advance: it runs as an approved command does, as written (git hooks included).
  if (classification.list === 'allow_rule') return { verdict: 'ask', approved: true, reason: `bash runs ${quoteCommand(effect.command)}: ${classification.reason}`, rule: classification.rule };
  return { verdict: 'allow', reason: `${classification.reason}${git.note}`, rule: classification.rule };
}
