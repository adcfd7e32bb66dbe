import { RE2JS } from 're2js';
import { ToolError } from '@openwork/tool-contract';
import { foldedLiteral, foldVariants, type FoldedLiteral } from './case-fold.ts';
import { trigramsOf } from './content-summary.ts';
import { lineTests, matchStart, type LineTests } from './match-start.ts';

/** A compiled grep pattern: the linear-time matcher and the literal every matching line holds. */
export interface SearchPattern {
  readonly test: (line: string) => boolean;
  /** The same test on a line's UTF-8 bytes (without its newline), with no decoding: RE2 matches bytes as they are. */
  readonly testBytes: (line: Uint8Array) => boolean;
  /** Case-sensitive: text every matching line contains as it is, for a byte search (`Buffer.indexOf`); undefined when none is known. */
  readonly requiredLiteral: string | undefined;
  /** Case-sensitive: more text every matching line contains, as UTF-8 bytes; a line without all of it is never handed to the engine. */
  readonly otherLiterals: readonly Buffer[];
  /**
   * Case-sensitive: the pattern is a choice of literals (`TODO|FIXME`), each
   * without a line break: a line matches when it holds one of them.
   */
  readonly anyOf: readonly Buffer[] | undefined;
  /** Case-insensitive: the literal every matching line contains in some folded form, and the tests for it. */
  readonly folded: FoldedLiteral | undefined;
  /**
   * The pattern is its literal and nothing else: a line that holds the
   * literal (in a folded form, case-insensitively) is a match, with no
   * engine run. Never for a literal with a line break or a byte-order mark
   * in it, which a line cannot hold the way the bytes do.
   */
  readonly plain: boolean;
  /** The pattern may match across lines (multiline): matches are found in the whole text with `spans`. */
  readonly multiline: boolean;
  /** multiline: the [start, end) UTF-16 offsets of each match in the text, in order, left to right. */
  readonly spans: (text: string) => Iterable<readonly [number, number]>;
  /**
   * Trigrams (content-summary.ts), ASCII folded: a file with a match holds
   * every trigram of at least one of these sets (one set per top-level
   * alternative); empty when nothing is known.
   */
  readonly trigrams: readonly (readonly number[])[];
}

const META = /[\\.^$|?*+()[\]{}]/;
const UNSUPPORTED = /\\[1-9]|\(\?[=!]|\(\?<[=!]/;

/**
 * docs/decisions/0006: RE2 syntax on a linear-time engine, so no pattern can
 * make a search take exponential time. What RE2 refuses is `invalid_input`
 * with the engine's own message.
 */
export function compileSearchPattern(pattern: string, options: { caseInsensitive: boolean; literal?: boolean; multiline?: boolean }): SearchPattern {
  const literalText = options.literal ?? false;
  const multiline = options.multiline ?? false;
  // A literal is the regex that matches its text and nothing else; its prefilter is the text itself.
  const source = literalText ? escapeRegex(pattern) : pattern;
  const flags = (options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0) | (multiline ? RE2JS.MULTILINE : 0);
  // A pattern without a metacharacter always compiles, and a plain literal never needs the engine: the first
  // compile of a process costs tens of milliseconds, which a search for a word should not pay.
  let compiled: RE2JS | undefined;
  if (!literalText && (META.test(pattern) || /[\uD800-\uDFFF]/.test(pattern))) compiled = compileOrRefuse(pattern, flags);
  const engine = () => (compiled ??= compileOrRefuse(source, flags));
  // Line by line, the engine tries only where a match can begin (match-start.ts); a folded prefix is not a byte string.
  const start = multiline ? undefined : matchStart(source);
  let tests: LineTests | undefined;
  const lines = () => (tests ??= lineTests(engine(), options.caseInsensitive && start?.kind === 'prefix' ? undefined : start));
  const literals = literalText ? (pattern === '' ? [] : [pattern]) : requiredLiterals(pattern);
  const literal = literals[0];
  const choices = literalText || options.caseInsensitive || multiline ? [pattern] : alternatives(pattern);
  const anyOf = choices.length > 1 && choices.every((choice) => choice.length > 0 && !META.test(choice) && !/[\r\n\uFEFF\uD800-\uDFFF]/.test(choice)) ? choices.map((choice) => Buffer.from(choice, 'utf8')) : undefined;
  const plain = anyOf !== undefined || (literal !== undefined && (literalText || literal === pattern) && !/[\r\n\uFEFF]/.test(literal));
  return {
    test: (line) => lines().test(line),
    testBytes: (line) => lines().testBytes(line),
    multiline,
    spans: (text) => spansOf(engine(), text),
    requiredLiteral: options.caseInsensitive ? undefined : literal,
    anyOf,
    otherLiterals: options.caseInsensitive ? [] : literals.slice(1).map((text) => Buffer.from(text, 'utf8')),
    // Every literal keeps its prefilter, k and s (the Kelvin sign, the long s) and non-ASCII letters included.
    folded: options.caseInsensitive && literal !== undefined ? foldedLiteral(literal) : undefined,
    plain,
    trigrams: literalText ? trigramQuery([[pattern]], options.caseInsensitive) : trigramQuery(alternatives(pattern).map(requiredLiterals), options.caseInsensitive),
  };
}

/** One trigram set per alternative; none at all when some alternative leaves no trigram to require. */
function trigramQuery(alternativeLiterals: readonly (readonly string[])[], caseInsensitive: boolean): number[][] {
  const sets = alternativeLiterals.map((literals) => {
    if (literals.length === 0) return [];
    if (caseInsensitive) return foldedTrigrams(literals[0] as string);
    return [...new Set(literals.flatMap((text) => trigramsOf(Buffer.from(text, 'utf8'))))];
  });
  return sets.some((set) => set.length === 0) ? [] : sets;
}

/** The top-level alternatives of a pattern without groups or classes (`TODO|FIXME`); the pattern itself otherwise. */
function alternatives(pattern: string): string[] {
  if (!pattern.includes('|') || /[([]|\\Q/.test(pattern)) return [pattern];
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    if (pattern[index] === '\\') index += 1;
    else if (pattern[index] === '|') {
      parts.push(pattern.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts;
}

/**
 * The trigrams a case-insensitive literal is sure to leave in a file: those
 * of its runs of bytes that every folded form of its characters has at the
 * same place, ASCII letters folded as the summaries fold them. A character
 * whose forms differ in length (`k` and the Kelvin sign, `s` and the long s,
 * `ß` and `ẞ`) ends a run; one whose forms share a length keeps the bytes
 * they share (the lead byte of `ö` and `Ö`) and ends the run where they
 * differ.
 */
function foldedTrigrams(literal: string): number[] {
  const found = new Set<number>();
  let run: number[] = [];
  const endRun = () => {
    for (const trigram of trigramsOf(Uint8Array.from(run))) found.add(trigram);
    run = [];
  };
  const fold = (byte: number) => (byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte);
  for (const char of literal) {
    const forms = foldVariants(char).map((form) => Buffer.from(form, 'utf8'));
    const length = (forms[0] as Buffer).length;
    if (forms.some((form) => form.length !== length)) {
      endRun();
      continue;
    }
    for (let index = 0; index < length; index += 1) {
      const bytes = new Set(forms.map((form) => fold(form[index] as number)));
      if (bytes.size === 1) run.push(bytes.values().next().value as number);
      else endRun();
    }
  }
  endRun();
  return [...found];
}

/** Every RE2 metacharacter escaped: the pattern that matches the text as it is. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\.^$|?*+()[\]{}-]/g, '\\$&');
}

function* spansOf(engine: RE2JS, text: string): Generator<readonly [number, number]> {
  const matcher = engine.matcher(text);
  while (matcher.find()) yield [matcher.start(), matcher.end()];
}

function compileOrRefuse(pattern: string, flags: number): RE2JS {
  try {
    return RE2JS.compile(pattern, flags);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const hint = UNSUPPORTED.test(pattern)
      ? 'backreferences and lookahead/lookbehind are not supported (the engine is RE2, linear time); rewrite the pattern without them'
      : 'grep takes RE2 regular-expression syntax; escape metacharacters such as ( [ { . * + ? to match them literally';
    throw new ToolError('invalid_input', `invalid pattern ${JSON.stringify(pattern)}: ${message}; ${hint}`);
  }
}

/**
 * The longest run of plain characters that every match must contain, read
 * conservatively from the pattern: any alternation, group or flag and the
 * answer is "none known" unless the pattern has no metacharacter at all.
 */
export function requiredLiteral(pattern: string): string | undefined {
  return requiredLiterals(pattern)[0];
}

/**
 * Every run of plain characters that every match must contain (each at
 * least two characters long, so that it is worth a search), longest first;
 * read as conservatively as requiredLiteral.
 */
export function requiredLiterals(pattern: string): string[] {
  if (!META.test(pattern)) return pattern === '' ? [] : [pattern];
  if (pattern.includes('|') || pattern.includes('(') || pattern.includes('\\Q')) return [];
  const runs: string[] = [];
  let run = '';
  const endRun = () => {
    if ([...run].length >= 2 || (runs.length === 0 && run !== '')) runs.push(run);
    run = '';
  };
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1];
      if (next === undefined) return [];
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
  // Longest first, the first of equal length first: the longest is the file's prefilter, the rest narrow the lines.
  return runs
    .map((text, index) => ({ text, index }))
    .sort((left, right) => right.text.length - left.text.length || left.index - right.index)
    .map((entry) => entry.text);
}
