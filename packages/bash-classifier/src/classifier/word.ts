/**
 * A shell word after quote removal. `value` is what the program receives;
 * `unquoted` is aligned with it character by character and holds the
 * character where the shell would still interpret it (glob, brace, tilde)
 * and a NUL where it was quoted or escaped.
 */
export interface Word {
  readonly value: string;
  readonly unquoted: string;
}

const QUOTED = '\u0000';

export function quotedPart(text: string): Word {
  return { value: text, unquoted: QUOTED.repeat(text.length) };
}

/** Quote removal for an unquoted word: a backslash quotes the next character. */
export function unquotedPart(text: string): Word {
  let value = '';
  let unquoted = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (char === '\\') {
      const next = text[index + 1];
      index += 1;
      // A backslash-newline is a line continuation and vanishes.
      if (next === undefined || next === '\n') continue;
      value += next;
      unquoted += QUOTED;
      continue;
    }
    value += char;
    unquoted += char;
  }
  return { value, unquoted };
}

/** Quote removal inside double quotes: backslash only quotes $ ` " \ and newline. */
export function doubleQuotedPart(text: string): Word {
  let value = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    const next = text[index + 1];
    if (char === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      index += 1;
      if (next !== '\n') value += next;
      continue;
    }
    value += char;
  }
  return quotedPart(value);
}

export function joinParts(parts: readonly Word[]): Word {
  return { value: parts.map((part) => part.value).join(''), unquoted: parts.map((part) => part.unquoted).join('') };
}

const GLOB_CHARS = new Set(['*', '?', '[']);

/** Index of the first character the shell would treat as a glob, or -1. */
export function firstGlob(word: Word): number {
  for (let index = 0; index < word.unquoted.length; index += 1) {
    if (GLOB_CHARS.has(word.unquoted[index] ?? '')) return index;
  }
  return -1;
}

export function hasGlob(word: Word): boolean {
  return firstGlob(word) !== -1;
}

/** Brace expansion needs an unquoted `{` followed by a comma or `..` before its `}`. */
export function hasBraceExpansion(word: Word): boolean {
  return /\{[^}]*(,|\.\.)[^}]*\}/.test(word.unquoted);
}

export function hasUnquotedTilde(word: Word): boolean {
  return word.unquoted.includes('~');
}

/**
 * A tilde the shell would expand to a home directory: at the start of the
 * word, or after `=` or `:` (bash expands `a=~/x` even as an argument).
 */
export function hasTildeExpansion(word: Word): boolean {
  for (let index = 0; index < word.unquoted.length; index += 1) {
    if (word.unquoted[index] !== '~') continue;
    const before = index === 0 ? '' : (word.unquoted[index - 1] ?? '');
    if (index === 0 || before === '=' || before === ':') return true;
  }
  return false;
}

/** A first character that no expansion of a glob can turn into a flag or a find operator. */
const PLAIN_FIRST = /^[A-Za-z0-9._/+@%:=^]/;

/**
 * Why a glob in this word could reach the program as something other than
 * file names it reads, or undefined when it cannot: every expansion starts
 * with the same literal, which is no `-` (a file named `-delete` or
 * `--output=x` would be a flag) nor a find operator.
 */
export function globProblem(word: Word): string | undefined {
  const glob = firstGlob(word);
  if (glob === -1) return undefined;
  if (glob === 0) return `${JSON.stringify(word.value)} starts with a glob, which can expand to a file name that reads as a flag; prefix it with ./`;
  if (!PLAIN_FIRST.test(word.value)) {
    return `${JSON.stringify(word.value)} is a glob that can expand to a file name that reads as a flag; start it with ./ or a directory name`;
  }
  return undefined;
}
