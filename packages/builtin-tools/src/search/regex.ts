import { RE2JS } from 're2js';
import { ToolError } from '@openwork/tool-contract';

/** A compiled grep pattern: the linear-time matcher and a literal every match must contain. */
export interface SearchPattern {
  readonly test: (line: string) => boolean;
  /** Bytes that every matching line contains, for a Buffer.indexOf prefilter; undefined when none is known. */
  readonly requiredLiteral: string | undefined;
  /** Case-insensitive search: an ASCII literal every match contains in some letter case. */
  readonly foldedLiteral: string | undefined;
}


const META = /[\\.^$|?*+()[\]{}]/;
const UNSUPPORTED = /\\[1-9]|\(\?[=!]|\(\?<[=!]/;

/**
 * docs/decisions/0006: RE2 syntax on a linear-time engine, so no pattern can
 * make a search take exponential time. What RE2 refuses is `invalid_input`
 * with the engine's own message.
 */
export function compileSearchPattern(pattern: string, options: { caseInsensitive: boolean }): SearchPattern {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = UNSUPPORTED.test(pattern)
      ? 'backreferences and lookahead/lookbehind are not supported (the engine is RE2, linear time); rewrite the pattern without them'
      : 'grep takes RE2 regular-expression syntax; escape metacharacters such as ( [ { . * + ? to match them literally';
    throw new ToolError('invalid_input', `invalid pattern ${JSON.stringify(pattern)}: ${message}; ${hint}`);
  }
  const found = requiredLiteral(pattern);
  const literal = found === '' ? undefined : found;
  return {
    test: (line) => compiled.test(line),
    requiredLiteral: options.caseInsensitive ? undefined : literal,
    // Only ASCII folds the same way in latin1 bytes and in the engine, and not k or s:
    // RE2 also matches them to the Kelvin sign and the long s.
    foldedLiteral: options.caseInsensitive && literal !== undefined && /^[\x20-\x7e]+$/.test(literal) && !/[ks]/i.test(literal) ? literal : undefined,
  };
}

/**
 * The longest run of plain characters that every match must contain, read
 * conservatively from the pattern: any alternation, group or flag and the
 * answer is "none known" unless the pattern has no metacharacter at all.
 */
export function requiredLiteral(pattern: string): string | undefined {
  if (!META.test(pattern)) return pattern;
  if (pattern.includes('|') || pattern.includes('(') || pattern.includes('\\Q')) return undefined;
  let best = '';
  let run = '';
  const endRun = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined) return undefined;
      index += 1;
      if (/[A-Za-z0-9]/.test(next)) endRun();
      else run += next;
      continue;
    }
    if (char === '[') {
      endRun();
      // Skip the class; a ']' first in the class is a member.
      let end = index + 1;
      if (pattern[end] === '^') end += 1;
      if (pattern[end] === ']') end += 1;
      while (end < pattern.length && pattern[end] !== ']') end += pattern[end] === '\\' ? 2 : 1;
      index = end;
      continue;
    }
    if (char === '?' || char === '*' || char === '{') {
      // The character before is optional (or repeated a chosen number of times): not required.
      run = run.replace(/[\s\S]$/u, '');
      endRun();
      if (char === '{') while (index < pattern.length && pattern[index] !== '}') index += 1;
      continue;
    }
    if (char === '+') {
      endRun();
      continue;
    }
    if (char === '.' || char === '^' || char === '$') {
      endRun();
      continue;
    }
    run += char;
  }
  endRun();
  return best === '' ? undefined : best;
}
