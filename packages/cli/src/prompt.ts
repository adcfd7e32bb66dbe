import { createInterface } from 'node:readline/promises';
import type { AskPerson } from './permissions.ts';

/**
 * An ask is a prompt on the terminal; with no terminal it is a refusal
 * unless --yes approved every ask up front (CONTRACT.md §4).
 */
export function terminalAsk(options: { yes: boolean; interactive: boolean }): AskPerson {
  return async (question, signal) => {
    if (options.yes) return true;
    if (!options.interactive) return false;
    const reader = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await reader.question(`${question} [y/N] `, { signal });
      return /^y(es)?$/i.test(answer.trim());
    } catch {
      return false;
    } finally {
      reader.close();
    }
  };
}

/** Why an ask became a denial, naming the flags that would let it run. */
export const NO_TERMINAL = 'there is no terminal to ask; pass --yes to approve, or --mode acceptEdits for file edits';
