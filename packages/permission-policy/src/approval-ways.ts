import type { PermissionDecision, ToolEffect } from '@openwork/tool-contract';
import { NOBODY_TO_ASK } from './ask.ts';
import type { PermissionMode } from './permission-mode.ts';

/**
 * What would let a call that asked run without a person, read off the ask:
 * the allow rules that would cover the command (their exact text,
 * `bash:npm test`), and whether acceptEdits mode would let it run. A
 * protected write (`.git/`, `.openwork/`) or a command on a terminal has
 * neither: only an approval lets it run.
 */
export interface ApprovalWays {
  readonly allowRules: readonly string[];
  readonly acceptEdits: boolean;
  /** A command that reads outside the readable roots, or writes outside the writable ones: a root that holds the path. */
  readonly root?: 'readable' | 'writable';
}

/** How the bash classifier names the rule that would let a command run (bash-classifier's allowRuleHint). */
const RULE_HINT = /an allow rule "(bash:[^"]+)" would let it run/g;
const ACCEPT_EDITS_HINT = /only in acceptEdits mode/;

export function approvalWays(ask: { readonly effect: ToolEffect; readonly decision: PermissionDecision; readonly mode: PermissionMode }): ApprovalWays {
  const { effect, decision, mode } = ask;
  const allowRules = effect.kind === 'execute' && effect.terminal !== true ? [...new Set([...decision.reason.matchAll(RULE_HINT)].map((match) => match[1] ?? ''))] : [];
  // A protected write asks in every mode; its reason names the directory ("writes .git/config, inside .git, …").
  const plainWrite = effect.kind === 'write' && !decision.reason.includes(', inside ');
  const acceptEdits = mode === 'default' && (plainWrite || (effect.kind === 'execute' && ACCEPT_EDITS_HINT.test(decision.reason)));
  const root = /outside the readable roots/.test(decision.reason) ? 'readable' : /is not inside a writable root/.test(decision.reason) ? 'writable' : undefined;
  return { allowRules, acceptEdits, ...(root === undefined ? {} : { root }) };
}

/**
 * The note of an ask nobody answered when the embedder gives none: what in
 * the authorizer's options would let it run (an allow rule, acceptEdits
 * mode), or an `ask` that reaches a person.
 */
export function embedderNote(ways: ApprovalWays): string {
  const options = [
    ...ways.allowRules.map((rule) => `the allow rule ${JSON.stringify(rule)} (authorizer's allow, or "permissions.allow" in settings)`),
    ...(ways.acceptEdits ? ["mode 'acceptEdits'"] : []),
    ...(ways.root === undefined ? [] : [`a ${ways.root} root that holds the path`]),
    'an ask that reaches a person (authorizer\'s ask)',
  ];
  return `${NOBODY_TO_ASK}; ${options.join(', or ')} would let it run`;
}
