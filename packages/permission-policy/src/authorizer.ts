import type { PermissionDecision } from '@openwork/tool-contract';
import { withAnswer, type AskPerson } from './ask.ts';
import { decide, type PolicyOptions } from './decide.ts';
import { askQuestion } from './question.ts';
import type { PolicyRequest } from './request.ts';

export interface AuthorizerOptions extends PolicyOptions {
  readonly ask: AskPerson;
  /** Why nobody could be asked and what would approve the call, added to an unanswered ask's reason. */
  readonly unansweredNote?: string;
}

/**
 * A toolset's `authorize`: decides, then asks when the verdict is ask.
 * Nothing runs before it returns; an ask comes back with `approved` set.
 */
export function authorizer(options: AuthorizerOptions): (request: PolicyRequest) => Promise<PermissionDecision> {
  return async (request) => {
    const decision = await decide(request, options);
    // An ask an allow rule approved in advance needs nobody.
    if (decision.verdict !== 'ask' || decision.approved === true) return decision;
    const answer = await options.ask({
      question: await askQuestion(request, decision),
      tool: request.definition.name,
      effect: request.effect,
      decision,
      signal: request.signal,
    });
    return withAnswer(decision, answer, options.unansweredNote);
  };
}
