import type { RE2JS } from 're2js';

/**
 * Where a match of a pattern can begin, read from its first characters: at
 * the start of the line (`^`), or where a run of plain characters it opens
 * with occurs. Undefined when the pattern says neither, or could say
 * otherwise through an alternation.
 */
export type MatchStart = { readonly kind: 'lineStart' } | { readonly kind: 'prefix'; readonly text: string };

const META = /[\\.^$|?*+()[\]{}]/;

/**
 * The pattern's match start, read as conservatively as the required
 * literals are: a `|` anywhere, and nothing is known. A run ends at the first
 * metacharacter; a `?`, `*` or `{` there makes its last character optional,
 * so that character is not part of it (`+` leaves at least one). Only for a
 * case-sensitive pattern tested line by line.
 */
export function matchStart(pattern: string): MatchStart | undefined {
  if (pattern.includes('|')) return undefined;
  if (pattern.startsWith('^')) return { kind: 'lineStart' };
  let run = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\') {
      const next = pattern[index + 1];
      // `\d`, `\b`, `\Q` and the like are not plain characters; `\.` and `\{` are.
      if (next === undefined || /[A-Za-z0-9]/.test(next)) break;
      if (/[?*{]/.test(pattern[index + 2] ?? '')) break;
      run += next;
      index += 1;
      continue;
    }
    if (char === '?' || char === '*' || char === '{') {
      // The character before is optional or repeated a chosen number of times: not part of every match.
      run = run.replace(/[\s\S]$/u, '');
      break;
    }
    if (META.test(char) || /[\uD800-\uDFFF]/.test(char)) break;
    run += char;
  }
  // One or two characters occur too often for a start of its own to pay.
  return Buffer.byteLength(run, 'utf8') >= 3 ? { kind: 'prefix', text: run } : undefined;
}

/** The engine's anchored test: RE2JS's matchWithGroup on the whole input with ANCHOR_START and no groups (its DFA). */
type AnchoredTest = (input: string | Uint8Array) => boolean;

const ANCHOR_START = 1;

function anchoredTest(engine: RE2JS): AnchoredTest {
  // RE2JS's public lookingAt allocates a Matcher and runs the NFA; its internal RE2 answers the same question on the DFA.
  const inner = (engine as unknown as { re2Input?: { matchWithGroup?: (input: string | Uint8Array, start: number, end: number, anchor: number, groups: number) => [boolean, unknown] } }).re2Input;
  const matchWithGroup = inner?.matchWithGroup;
  if (inner !== undefined && typeof matchWithGroup === 'function') return (input) => matchWithGroup.call(inner, input, 0, input.length, ANCHOR_START, 0)[0];
  return (input) => engine.matcher(input).lookingAt();
}

/** When a line is tested from where a match can begin, and how many starts are tried one by one. */
export interface LineTestLimits {
  /** Lines shorter than this are tested whole: the engine's pass over a short line costs less than finding where to start. */
  readonly shortLine: number;
  /** Starts tried one by one per byte of the line, and `extraStarts` more, before the rest of the line goes to the engine whole. */
  readonly startsPerByte: number;
  readonly extraStarts: number;
}

const LIMITS: LineTestLimits = { shortLine: 256, startsPerByte: 1 / 128, extraStarts: 8 };

export interface LineTests {
  readonly test: (line: string) => boolean;
  readonly testBytes: (line: Uint8Array) => boolean;
}

/**
 * The engine's unanchored test of a line, made cheaper by where a match can
 * begin: at the line's start only, or at an occurrence of the prefix, each
 * tried with an anchored test that stops as soon as the pattern cannot
 * match there. Same answer as `engine.test(line)`: every match begins at
 * one of the positions tried. Where the prefix occurs so densely that
 * anchored tries would cost more, the rest of the line from the current
 * occurrence goes to the unanchored test, which sees every match that
 * begins there or later.
 */
export function lineTests(engine: RE2JS, start: MatchStart | undefined, limits: LineTestLimits = LIMITS): LineTests {
  const whole = (line: string | Uint8Array) => engine.test(line);
  if (start === undefined) return { test: whole, testBytes: whole };
  const anchored = anchoredTest(engine);
  if (start.kind === 'lineStart') return { test: anchored, testBytes: anchored };
  const text = start.text;
  const bytes = Buffer.from(text, 'utf8');
  const fromEach = <Line extends string | Uint8Array>(line: Line, find: (from: number) => number, rest: (at: number) => Line): boolean => {
    if (line.length < limits.shortLine) return whole(line);
    const budget = limits.extraStarts + line.length * limits.startsPerByte;
    let tried = 0;
    for (let at = find(0); at !== -1; at = find(at + 1)) {
      if (tried >= budget) return whole(rest(at));
      tried += 1;
      if (anchored(rest(at))) return true;
    }
    return false;
  };
  return {
    test: (line) => fromEach(line, (from) => line.indexOf(text, from), (at) => line.slice(at)),
    testBytes: (line) => {
      const buffer = Buffer.isBuffer(line) ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength);
      return fromEach(buffer, (from) => buffer.indexOf(bytes, from), (at) => buffer.subarray(at));
    },
  };
}
