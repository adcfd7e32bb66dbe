import type { PermissionDecision } from '@openwork/tool-contract';
import type { AllowRule } from './allow-rules.ts';
import { approvalWays, embedderNote, type ApprovalWays } from './approval-ways.ts';
import { withAnswer, type AskAnswer, type AskPerson, type AskRequest } from './ask.ts';
import { decide, type PolicyOptions } from './decide.ts';
import { askQuestion } from './question.ts';
import type { PolicyRequest } from './request.ts';

/**
 * A project's allow rules that wait for a person to trust the folder: they
 * apply once `trust` is approved, and are ignored (with `ignoredNote` in the
 * reason) while it is not. See docs/security.md, "Settings and folder trust".
 */
export interface UntrustedRules {
  readonly allow: readonly AllowRule[];
  /** Asks the person whether to trust the folder and records the answer; asked at the first call a rule would approve. */
  readonly trust: (signal: AbortSignal) => Promise<AskAnswer>;
  /** Why the rules were ignored and what would trust the folder, added to the reason of a call they would have approved. */
  readonly ignoredNote: string;
}

export interface AuthorizerOptions extends PolicyOptions {
  readonly ask: AskPerson;
  /**
   * Why nobody could be asked and what would approve the call, added to an
   * unanswered ask's reason: a text, or one made for this ask from what
   * would let it run (the exact allow rule, acceptEdits mode). By default it
   * names the authorizer's own options.
   */
  readonly unansweredNote?: string | ((ways: ApprovalWays, ask: AskRequest) => string);
  /** The project's allow rules, when its folder is not trusted yet. */
  readonly untrusted?: UntrustedRules;
}

/**
 * A toolset's `authorize`: decides, then asks when the verdict is ask.
 * Nothing runs before it returns; an ask comes back with `approved` set.
 */
export function authorizer(options: AuthorizerOptions): (request: PolicyRequest) => Promise<PermissionDecision> {
  const { untrusted } = options;
  let trusted = false;
  let declined = false;
  // Calls running at once share one question.
  let asking: Promise<AskAnswer> | undefined;
  const allowWith = (project: boolean) => (project && untrusted !== undefined ? [...(options.allow ?? []), ...untrusted.allow] : options.allow);
  /** The options with the allow rules that apply: the project's too once its folder is trusted. */
  const optionsWith = (project: boolean) => {
    const allow = allowWith(project);
    const { allow: _given, ...rest } = options;
    return allow === undefined ? rest : { ...rest, allow };
  };

  const withProjectRules = async (request: PolicyRequest, decision: PermissionDecision): Promise<PermissionDecision> => {
    if (untrusted === undefined || trusted || declined || untrusted.allow.length === 0) return decision;
    const covered = await decide(request, optionsWith(true));
    if (covered.approved !== true) return decision;
    const pending = (asking ??= untrusted.trust(request.signal));
    const answer = await pending;
    if (asking === pending) asking = undefined;
    if (answer === 'approved') {
      trusted = true;
      return covered;
    }
    // A person's no holds for the session; with nobody to ask, the next call may find someone.
    if (answer === 'refused') declined = true;
    return { ...decision, reason: `${decision.reason}; ${untrusted.ignoredNote}` };
  };

  return async (request) => {
    let decision = await decide(request, optionsWith(trusted));
    // An ask an allow rule approved in advance needs nobody.
    if (decision.verdict !== 'ask' || decision.approved === true) return decision;
    decision = await withProjectRules(request, decision);
    if (decision.approved === true) return decision;
    const ask: AskRequest = {
      question: await askQuestion(request, decision),
      tool: request.definition.name,
      effect: request.effect,
      decision,
      signal: request.signal,
    };
    const answer = await options.ask(ask);
    if (answer !== 'unanswered') return withAnswer(decision, answer, '');
    const ways = approvalWays({ effect: request.effect, decision, mode: options.mode });
    const note = options.unansweredNote ?? embedderNote;
    return withAnswer(decision, answer, typeof note === 'string' ? note : note(ways, ask));
  };
}
