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

/**
 * The prefix an allow rule for this command would name: its program, and a
 * git subcommand with it; undefined when the program is not a literal word,
 * which no rule can match.
 */
export function ruleWords(words: readonly Word[]): readonly string[] | undefined {
  const [program, next] = words;
  if (program === undefined || !literal(program) || program.value === '') return undefined;
  if (program.value === 'git' && next !== undefined && literal(next) && /^[a-z][a-z-]*$/.test(next.value)) return [program.value, next.value];
  return [program.value];
}
