import { createInterface } from 'node:readline/promises';
import { approveEveryAsk, askNobody, type AskAnswer, type AskPerson } from '@openwork/permission-policy';

/**
 * An ask is a prompt on the terminal; with no terminal nobody is asked and
 * the call is refused, unless --yes approved every ask up front (docs/contract.md §4).
 */
export function terminalAsk(options: { yes: boolean; interactive: boolean }): AskPerson {
  if (options.yes) return approveEveryAsk;
  if (!options.interactive) return askNobody;
  return ({ question, signal }) => terminalQuestion(question, signal);
}

/** Asks one yes-or-no question on the terminal; only "y" or "yes" approves. */
export async function terminalQuestion(question: string, signal: AbortSignal): Promise<AskAnswer> {
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  let interrupted = false;
  // The prompt reads the terminal raw, so Ctrl-C reaches it as a key, not a signal: raise the signal
  // itself, so that the call ends as any SIGINT ends it (its result printed, exit status 130).
  reader.on('SIGINT', () => {
    interrupted = true;
    process.kill(process.pid, 'SIGINT');
  });
  try {
    const answer = await reader.question(`${question} [y/N] `, { signal });
    return /^y(es)?$/i.test(answer.trim()) ? 'approved' : 'refused';
  } catch {
    // Ctrl-C is the person's no; otherwise the input closed, or the call was cancelled, before anyone answered.
    return interrupted ? 'refused' : 'unanswered';
  } finally {
    reader.close();
  }
}
