import type { CommandAllowRule } from './types.ts';
import { firstGlob, hasBraceExpansion, hasTildeExpansion } from './word.ts';
import type { Word } from './word.ts';

/** A word the program receives exactly as written: no glob, brace or tilde the shell would expand. */
function literal(word: Word): boolean {
  return firstGlob(word) === -1 && !hasBraceExpansion(word) && !hasTildeExpansion(word);
}

/**
 * The first rule whose prefix is the start of this simple command, word for
 * word after quote removal. The prefix words must be literal, since an
 * expansion there could make them other words; what follows the prefix is
 * whatever the person allowed, expansions included.
 */
export function matchingAllowRule(words: readonly Word[], rules: readonly CommandAllowRule[]): CommandAllowRule | undefined {
  return rules.find(
    (rule) =>
      rule.prefix.length > 0 &&
      rule.prefix.length <= words.length &&
      rule.prefix.every((part, index) => {
        const word = words[index];
        return word !== undefined && word.value === part && literal(word);
      }),
  );
}

/** What would make a command the lists refuse run on its own: a person's allow rule for its first words (docs/contract.md §4.3). */
export function allowRuleHint(words: readonly string[]): string {
  return `an allow rule ${JSON.stringify(`bash:${words.join(' ')}`)} would let it run`;
}
