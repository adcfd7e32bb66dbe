import type { PermissionDecision, ToolEffect } from '@openwork/tool-contract';

/**
 * How an ask ended: a person said yes or no, or nobody could be asked (no
 * terminal, a server whose input is the protocol). Only the last is worth a
 * hint about what would approve the call up front.
 */
export type AskAnswer = 'approved' | 'refused' | 'unanswered';

export interface AskRequest {
  /**
   * For a person: the tool, why it asks, and "Allow?"; for a long or
   * multi-line command, also the programs it runs, the files it writes and
   * the whole command, on lines of their own.
   */
  readonly question: string;
  readonly tool: string;
  readonly effect: ToolEffect;
  /** The policy's verdict, `ask`, with its reason. */
  readonly decision: PermissionDecision;
  /** The call's signal: a cancelled call stops waiting for the answer. */
  readonly signal: AbortSignal;
}

/** Puts an ask to a person; the call waits for the answer and nothing has run yet. */
export type AskPerson = (request: AskRequest) => Promise<AskAnswer>;

/** Approves every ask, as `--yes` does: for a person who approved everything in advance. */
export const approveEveryAsk: AskPerson = () => Promise.resolve('approved');

/** Asks nobody: every ask ends unanswered, and so is not run. */
export const askNobody: AskPerson = () => Promise.resolve('unanswered');

/** Added to the reason of an ask a person refused. */
export const NOT_APPROVED = 'not approved';

/** The start of the reason's note on an ask nobody answered, when the embedder gives no note of its own. */
export const NOBODY_TO_ASK = 'nobody could be asked';

/**
 * The decision after the answer: approved, or refused with a reason that
 * says why. `unansweredNote` says why nobody could be asked and what would
 * approve the call (a flag, a setting); it is never shown after a person's no.
 */
export function withAnswer(decision: PermissionDecision, answer: AskAnswer, unansweredNote: string): PermissionDecision {
  switch (answer) {
    case 'approved':
      return { ...decision, approved: true };
    case 'refused':
      return { ...decision, approved: false, reason: `${decision.reason}; ${NOT_APPROVED}` };
    case 'unanswered':
      return { ...decision, approved: false, reason: `${decision.reason}; ${unansweredNote}` };
  }
}
