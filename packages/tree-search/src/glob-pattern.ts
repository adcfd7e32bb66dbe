import { ToolError } from '@openwork/tool-contract';
import { RE2JS } from 're2js';

/** Most alternatives the `{a,b}` groups of one pattern may expand to: a pattern is not a way to make the search build a huge matcher. */
const MAX_ALTERNATIVES = 1024;

/**
 * A glob in the contract's syntax, compiled: `*` any run of characters within
 * one path segment, `**` as a whole segment any number of segments, `?` one
 * character, `[abc]` / `[a-z]` / `[!abc]` one character of a class, `{a,b}`
 * alternatives (nested, each may hold wildcards), `\` makes the next
 * character literal. Everything else matches itself: parentheses and the
 * extglob characters `!`, `@`, `+` included, so a folder such as
 * `(dashboard)` is named as it is. Dotfiles match like any file.
 */
export interface CompiledGlob {
  /** Whether a `/`-separated path matches the whole pattern. */
  readonly test: (path: string) => boolean;
  /** Where each alternative can match: nothing elsewhere can. */
  readonly bases: readonly GlobBase[];
}

/**
 * The directory an alternative's literal leading segments name ('' for the
 * top), and whether it can match deeper than directly in it (a wildcard in a
 * directory segment).
 */
export interface GlobBase {
  readonly base: string;
  readonly deeper: boolean;
}

export function compileGlob(pattern: string): CompiledGlob {
  const alternatives = expandBraces(pattern, pattern).map((alternative) => alternative.replace(/^(?:\.\/)+/, ''));
  const sources = alternatives.map((alternative) => toRegexSource(alternative, pattern));
  // docs/decisions/0006: a linear-time engine, as for grep's pattern: `*a*a*a…` cannot make a walk hang.
  const compiled = RE2JS.compile(`^(?:${sources.join('|')})$`);
  return { test: (path) => compiled.test(path), bases: alternatives.map(literalBase) };
}

/**
 * The pattern with each `[` that no `]` closes made literal (a backslash
 * before it), as ripgrep's glob matching reads it for `--files` (its
 * regression test r3127: the pattern `[abc` finds the file named `[abc`).
 * Every other character, classes that do close included, is left as it is.
 */
export function literalUnclosedClasses(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '\\') {
      out += pattern.slice(index, index + 2);
      index += 1;
    } else if (char === '[') {
      const end = classEnd(pattern, index);
      if (end === -1) out += '\\[';
      else {
        out += pattern.slice(index, end);
        index = end - 1;
      }
    } else out += char;
  }
  return out;
}

/** Whether a walk-relative directory is on the way to a base, or inside one that reaches deeper. */
export function withinBases(bases: readonly GlobBase[], relativePath: string): boolean {
  return bases.some(
    ({ base, deeper }) => relativePath === base || base.startsWith(`${relativePath}/`) || (deeper && (base === '' || relativePath.startsWith(`${base}/`))),
  );
}

function invalid(pattern: string, problem: string): ToolError {
  return new ToolError(
    'invalid_input',
    `invalid glob ${JSON.stringify(pattern)}: ${problem}. Glob syntax: * ** ? [abc] {a,b}; write a backslash before a character to match it literally (\\[, \\{)`,
  );
}

/** The index just past the class that opens at `start` (a `[`), or -1 when it is never closed. */
function classEnd(text: string, start: number): number {
  let index = start + 1;
  if (text[index] === '!' || text[index] === '^') index += 1;
  // A `]` first in the class is a member, not its end.
  if (text[index] === ']') index += 1;
  while (index < text.length && text[index] !== ']') index += text[index] === '\\' ? 2 : 1;
  return index < text.length ? index + 1 : -1;
}

/** The first `{…}` group outside classes and escapes: where it opens and closes, and its alternatives. */
function firstBraceGroup(text: string, pattern: string): { open: number; close: number; parts: string[] } | undefined {
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '[') {
      const end = classEnd(text, index);
      if (end === -1) throw invalid(pattern, 'a [ without its closing ]');
      index = end - 1;
    } else if (char === '{') {
      const parts: string[] = [];
      let depth = 0;
      let partStart = index + 1;
      for (let inner = index + 1; inner < text.length; inner += 1) {
        const next = text[inner];
        if (next === '\\') inner += 1;
        else if (next === '[') {
          const end = classEnd(text, inner);
          if (end === -1) throw invalid(pattern, 'a [ without its closing ]');
          inner = end - 1;
        } else if (next === '{') depth += 1;
        else if (next === '}' && depth > 0) depth -= 1;
        else if (next === ',' && depth === 0) {
          parts.push(text.slice(partStart, inner));
          partStart = inner + 1;
        } else if (next === '}') {
          parts.push(text.slice(partStart, inner));
          return { open: index, close: inner, parts };
        }
      }
      throw invalid(pattern, 'a { without its closing }');
    }
  }
  return undefined;
}

/** `a{b,c}d` → `abd`, `acd`, nested and repeated groups included, in order. */
function expandBraces(text: string, pattern: string, budget = { left: MAX_ALTERNATIVES }): string[] {
  const group = firstBraceGroup(text, pattern);
  if (group === undefined) {
    budget.left -= 1;
    if (budget.left < 0) throw invalid(pattern, `its {a,b} groups give more than ${MAX_ALTERNATIVES} alternatives`);
    return [text];
  }
  const prefix = text.slice(0, group.open);
  const suffix = text.slice(group.close + 1);
  return group.parts.flatMap((part) => expandBraces(`${prefix}${part}${suffix}`, pattern, budget));
}

const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/;

function literal(char: string): string {
  return REGEX_SYNTAX.test(char) ? `\\${char}` : char;
}

function classMember(char: string): string {
  return /[\\\]^[-]/.test(char) ? `\\${char}` : char;
}

/** One brace-free alternative as a regular expression source; `/` is only ever matched by itself and by `**`. */
function toRegexSource(glob: string, pattern: string): string {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] as string;
    if (char === '\\') {
      index += 1;
      source += literal(glob[index] ?? '\\');
    } else if (char === '*') {
      let run = 1;
      while (glob[index + run] === '*') run += 1;
      const wholeSegment = run >= 2 && (index === 0 || glob[index - 1] === '/') && (index + run === glob.length || glob[index + run] === '/');
      index += run - 1;
      if (!wholeSegment) source += '[^/]*';
      else if (index + 1 === glob.length) source += '[\\s\\S]*';
      else {
        // `**/`: any number of whole segments, none included.
        source += '(?:[\\s\\S]*/)?';
        index += 1;
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const end = classEnd(glob, index);
      if (end === -1) throw invalid(pattern, 'a [ without its closing ]');
      source += classSource(Array.from(glob.slice(index + 1, end - 1)));
      index = end - 1;
    } else {
      // Surrogate halves go through one at a time and meet again in the source.
      source += literal(char);
    }
  }
  return source;
}

/** `[…]` body (without the brackets) as a regex class; a negated class never matches `/`. */
function classSource(body: string[]): string {
  let index = 0;
  let negated = false;
  if (body[0] === '!' || body[0] === '^') {
    negated = true;
    index = 1;
  }
  let members = '';
  for (; index < body.length; index += 1) {
    let char = body[index] as string;
    if (char === '\\' && index + 1 < body.length) {
      index += 1;
      char = body[index] as string;
    }
    const isRange = body[index + 1] === '-' && index + 2 < body.length;
    if (isRange) {
      let to = body[index + 2] as string;
      index += 2;
      if (to === '\\' && index + 1 < body.length) {
        index += 1;
        to = body[index] as string;
      }
      // A reversed range matches nothing, as in a shell, rather than failing to compile.
      members += (char.codePointAt(0) ?? 0) <= (to.codePointAt(0) ?? 0) ? `${classMember(char)}-${classMember(to)}` : '';
    } else {
      members += classMember(char);
    }
  }
  if (negated) return `[^${members}/]`;
  return members === '' ? '[^\\x00-\\x{10FFFF}]' : `[${members}]`;
}

/** Where one alternative can match: its literal leading directories, unescaped, and whether a wildcard directory follows them. */
function literalBase(alternative: string): GlobBase {
  const segments = alternative.split('/');
  // A last segment of `**` matches at any depth below what comes before it (`src/**`, or `**` alone).
  const anyDepth = segments.pop() === '**';
  const literalSegments: string[] = [];
  for (const segment of segments) {
    if (/(?<!\\)[*?[]/.test(segment) || segment === '' || segment === '.' || segment === '..') {
      return { base: literalSegments.join('/'), deeper: true };
    }
    literalSegments.push(segment.replace(/\\(.)/gu, '$1'));
  }
  return { base: literalSegments.join('/'), deeper: anyDepth };
}
