import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchFile, type MatcherSpec } from '../src/file-matcher.ts';
import { compileSearchPattern } from '../src/search-pattern.ts';
import type { TreeSearchHit } from '../src/search-types.ts';

function hits(text: string, mode: MatcherSpec['mode'], pattern: ReturnType<typeof compileSearchPattern>): TreeSearchHit[] {
  const found: TreeSearchHit[] = [];
  matchFile(Buffer.from(text, 'utf8'), 'f', { mode, pattern, context: 1, maxLineChars: 100 }, (hit) => found.push(hit) > 0);
  return found;
}

describe('a pattern that is a choice of literals (TODO|FIXME)', () => {
  it('finds the lines the engine finds, in every mode, without running it', () => {
    const line = fc.array(fc.constantFrom('TODO', 'FIX', 'ME', 'FIXME', 'todo', ' ', 'x', '\r', 'é'), { maxLength: 6 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('TODO|FIXME', 'ME|TODO|é'), (lines, source) => {
        const text = lines.join('\n');
        const choice = compileSearchPattern(source, { caseInsensitive: false });
        expect(choice.anyOf).toHaveLength(source.split('|').length);
        // The same pattern with a group around it has no literal: every line goes to the engine.
        const engine = compileSearchPattern(`(?:${source})`, { caseInsensitive: false });
        expect(engine.anyOf).toBeUndefined();
        for (const mode of ['files', 'count', 'content'] as const) expect(hits(text, mode, choice)).toEqual(hits(text, mode, engine));
      }),
      { numRuns: 150 },
    );
  });
});
