import { createInterface } from 'node:readline/promises';
import { approveEveryAsk, askNobody, type AskPerson } from '@openwork/permission-policy';

/**
 * An ask is a prompt on the terminal; with no terminal nobody is asked and
 * the call is refused, unless --yes approved every ask up front (CONTRACT.md §4).
 */
export function terminalAsk(options: { yes: boolean; interactive: boolean }): AskPerson {
  if (options.yes) return approveEveryAsk;
  if (!options.interactive) return askNobody;
  return async ({ question, signal }) => {
    const reader = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await reader.question(`${question} [y/N] `, { signal });
      return /^y(es)?$/i.test(answer.trim()) ? 'approved' : 'refused';
    } catch {
      // The input closed, or the call was cancelled, before anyone answered.
      return 'unanswered';
    } finally {
      reader.close();
    }
  };
}

/** Why an ask nobody could answer was refused, naming the flags that would let it run. */
export const NO_TERMINAL = 'there is no terminal to ask; pass --yes to approve, or --mode acceptEdits for file edits';
