import { createCommandClassifier, decideBashCommand, gitConfigReader, quoteCommand } from '@openwork/builtin-tools';
import type { BuiltinSession, GitConfigReader } from '@openwork/builtin-tools';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { PathGuard } from '@openwork/path-guard';
import { isToolError } from '@openwork/tool-contract';
import type { PermissionDecision, ToolEffect } from '@openwork/tool-contract';
import type { AuthorizationRequest } from '@openwork/toolset-finalizer';
import type { PermissionMode } from './args.ts';

/** Answers an ask: true when the person (or --yes) approves. */
export type AskPerson = (question: string, signal: AbortSignal) => Promise<boolean>;

export interface PolicyOptions {
  readonly mode: PermissionMode;
  /** The session's guard: the filesystem gate checks every path a command would touch with it. */
  readonly paths?: PathGuard;
  /** Lists the directory of a glob a read-only command reads (each symlink it may expand to is checked). */
  readonly filesystem?: AsyncFileSystem;
  /** Reads a repository's configuration before a git command runs on its own; without it git asks. */
  readonly gitConfig?: GitConfigReader;
  /** Decides bash commands on their own; by default the effect classifier with `paths`. */
  readonly classifyCommand?: (effect: Extract<ToolEffect, { kind: 'execute' }>, mode: PermissionMode) => Promise<PermissionDecision>;
  readonly ask: AskPerson;
  /** Added to the reason of an ask that was not approved, e.g. which flag would approve it. */
  readonly refusalNote?: string;
}

/** What the policy needs of a session: its guard, its file system for globs, and git's configuration through its process backend. */
export function sessionPolicy(session: BuiltinSession): Pick<PolicyOptions, 'paths' | 'filesystem' | 'gitConfig'> {
  return { paths: session.paths, filesystem: session.filesystem, gitConfig: gitConfigReader(session.processes, session.environment) };
}

/** The verdict before any approval (seed §7.1, CONTRACT.md §4). */
export async function decide(request: AuthorizationRequest, options: PolicyOptions): Promise<PermissionDecision> {
  const { effect } = request;
  switch (effect.kind) {
    case 'read':
      return { verdict: 'allow', reason: 'reading is allowed', rule: 'read' };
    case 'write': {
      const gitPath = await gitDirectoryPath(effect.paths, options.paths, request.signal);
      // Approvable in every mode: the person may mean it, but a model should not change what git runs on its own.
      if (gitPath !== undefined) return { verdict: 'ask', reason: `${request.definition.name} writes ${gitPath}, inside .git, where a change alters what git runs (hooks, configuration)`, rule: 'ask' };
      return options.mode === 'acceptEdits'
        ? { verdict: 'allow', reason: 'edits are accepted in acceptEdits mode', rule: 'acceptEdits:write' }
        : { verdict: 'ask', reason: `${request.definition.name} writes ${effect.paths.join(', ')}`, rule: 'ask' };
    }
    case 'execute':
      if (options.classifyCommand) return options.classifyCommand(effect, options.mode);
      if (options.paths && options.mode !== 'readOnly') {
        return decideBashCommand(await createCommandClassifier(), options.paths, effect, options.mode, {
          signal: request.signal,
          ...(options.filesystem === undefined ? {} : { filesystem: options.filesystem }),
          ...(options.gitConfig === undefined ? {} : { gitConfig: options.gitConfig }),
        });
      }
      return { verdict: 'ask', reason: `bash runs ${quoteCommand(effect.command)}`, rule: 'ask' };
  }
}

/** The first path whose real location is inside a `.git` directory, wherever a symlink leads. */
async function gitDirectoryPath(effectPaths: readonly string[], paths: PathGuard | undefined, signal: AbortSignal): Promise<string | undefined> {
  for (const path of effectPaths) {
    if (path.split('/').includes('.git')) return path;
    if (paths === undefined) continue;
    try {
      if (paths.passesThrough(await paths.resolvePath(path, 'write', 'may_create', { signal }), '.git')) return path;
    } catch (error) {
      // The tool reports a path it cannot write with its own error.
      if (!isToolError(error)) throw error;
    }
  }
  return undefined;
}

/** Decides, then asks the person when the verdict is ask; nothing runs before this returns. */
export function authorizer(options: PolicyOptions): (request: AuthorizationRequest) => Promise<PermissionDecision> {
  return async (request) => {
    const decision = await decide(request, options);
    if (decision.verdict !== 'ask') return decision;
    const approved = await options.ask(`${request.definition.name}: ${decision.reason}. Allow?`, request.signal);
    if (approved || !options.refusalNote) return { ...decision, approved };
    return { ...decision, approved, reason: `${decision.reason}; ${options.refusalNote}` };
  };
}
