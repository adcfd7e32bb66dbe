import { checkIgnored, parseIgnoreFile, type IgnoreLevel, type IgnoreVerdict } from './ignore-rules.ts';
import type { MatcherSpec } from './file-matcher.ts';
import { bothFilters, globFilter, grepGlobFilter, nameFilter, type PathFilter } from './path-filter.ts';
import { compileSearchPattern } from './search-pattern.ts';
import type { WireLevel, WireSpec } from './search-wire.ts';

/** A request compiled once per walker: the path filter, the matcher, and the ignore files parsed once each. */
export interface CompiledSpec {
  readonly wire: WireSpec;
  readonly filter: PathFilter | undefined;
  /** undefined in `paths` mode, where files are listed and never read. */
  readonly matcher: MatcherSpec | undefined;
  /** The parsed rules of an ignore file; an empty file has none. */
  level(wire: WireLevel): IgnoreLevel | undefined;
  /** The verdict on one entry (ignore-rules.ts), from the compiled levels of its directory. */
  check(levels: readonly IgnoreLevel[], relativePath: string, isDirectory: boolean): IgnoreVerdict;
}

/** Compiles a request; throws the ToolError (`invalid_input`) of a pattern or filter that does not compile. */
export function compileSpec(wire: WireSpec): CompiledSpec {
  const byPath = wire.filter === undefined ? undefined : wire.filter.syntax === 'glob' ? globFilter(wire.filter.pattern) : grepGlobFilter(wire.filter.pattern);
  const filter = bothFilters(byPath, wire.nameGlobs === undefined ? undefined : nameFilter(wire.nameGlobs));
  const matcher: MatcherSpec | undefined =
    wire.mode === 'paths' || wire.pattern === undefined
      ? undefined
      : {
          mode: wire.mode,
          pattern: compileSearchPattern(wire.pattern.source, {
            caseInsensitive: wire.pattern.caseInsensitive,
            literal: wire.pattern.literal ?? false,
            multiline: wire.pattern.multiline ?? false,
          }),
          context: wire.context,
          before: wire.before,
          after: wire.after,
          maxLineChars: wire.maxLineChars,
        };
  const parsed = new Map<string, IgnoreLevel | null>();
  return {
    wire,
    filter,
    matcher,
    level: (level) => {
      const key = `${level.source}\u0000${level.base}\u0000${level.prefix}\u0000${level.text}`;
      let found = parsed.get(key);
      if (found === undefined) {
        found = parseIgnoreFile(level.text, { source: level.source, base: level.base, prefix: level.prefix, ignoreCase: wire.ignoreCase ?? false }) ?? null;
        parsed.set(key, found);
      }
      return found ?? undefined;
    },
    check: checkIgnored,
  };
}
