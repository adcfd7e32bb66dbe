import { createCommandClassifier, decideBashCommand } from '@openwork/builtin-tools';
import type { PathGuard } from '@openwork/path-guard';
import type { PermissionDecision, ToolEffect } from '@openwork/tool-contract';
import type { AuthorizationRequest } from '@openwork/toolset-finalizer';
import type { PermissionMode } from './args.ts';

/** Answers an ask: true when the person (or --yes) approves. */
export type AskPerson = (question: string, signal: AbortSignal) => Promise<boolean>;

export interface PolicyOptions {
  readonly mode: PermissionMode;
  /** The session's guard: the filesystem gate checks every path a command would touch with it. */
  readonly paths?: PathGuard;
  /** Decides bash commands on their own; by default the effect classifier with `paths`. */
  readonly classifyCommand?: (effect: Extract<ToolEffect, { kind: 'execute' }>, mode: PermissionMode) => Promise<PermissionDecision>;
  readonly ask: AskPerson;
  /** Added to the reason of an ask that was not approved, e.g. which flag would approve it. */
  readonly refusalNote?: string;
}

/** The verdict before any approval (seed §7.1, CONTRACT.md §4). */
export async function decide(request: AuthorizationRequest, options: PolicyOptions): Promise<PermissionDecision> {
  const { effect } = request;
  switch (effect.kind) {
    case 'read':
      return { verdict: 'allow', reason: 'reading is allowed', rule: 'read' };
    case 'write':
      return options.mode === 'acceptEdits'
        ? { verdict: 'allow', reason: 'edits are accepted in acceptEdits mode', rule: 'acceptEdits:write' }
        : { verdict: 'ask', reason: `${request.definition.name} writes ${effect.paths.join(', ')}`, rule: 'ask' };
    case 'execute':
      if (options.classifyCommand) return options.classifyCommand(effect, options.mode);
      if (options.paths && options.mode !== 'readOnly') {
        return decideBashCommand(await createCommandClassifier(), options.paths, effect, options.mode, { signal: request.signal });
      }
      return { verdict: 'ask', reason: `bash runs ${JSON.stringify(effect.command)}`, rule: 'ask' };
  }
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
