import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldVariants } from '../src/case-fold.ts';
import { mayHold, summarize, trigramsOf } from '../src/content-summary.ts';
import { compileSearchPattern } from '../src/search-pattern.ts';

/** Whether the summary of `text` lets a search for `pattern` skip it. */
function skips(text: string, pattern: string, options: { caseInsensitive: boolean; literal?: boolean }): boolean {
  const summary = summarize(Buffer.from(text, 'utf8'));
  const { trigrams } = compileSearchPattern(pattern, options);
  return trigrams.length > 0 && !trigrams.some((set) => mayHold(summary, set));
}

describe('content summaries (docs/decisions/0036)', () => {
  it('never skip a file that holds the literal, whatever its size', () => {
    const filler = Array.from({ length: 20_000 }, (_, index) => `line ${index * 7919} of filler\n`).join('');
    for (const text of ['createElement', `${filler}createElement`, `createElement${filler}`, `${filler.slice(0, 999)}createElement${filler}`]) {
      expect(skips(text, 'createElement', { caseInsensitive: false })).toBe(false);
    }
  });

  it('skip a small file without the literal', () => {
    expect(skips('export function useState() {}\n', 'createElement', { caseInsensitive: false })).toBe(true);
    expect(skips('nothing here\n', 'TODO|FIXME', { caseInsensitive: false })).toBe(true);
    expect(skips('TODO|FIXME\n', 'TODO|FIXME', { caseInsensitive: false, literal: true })).toBe(false);
    expect(skips('TODO FIXME\n', 'TODO|FIXME', { caseInsensitive: true, literal: true })).toBe(true);
    expect(skips('a FIXME here\n', 'TODO|FIXME', { caseInsensitive: false })).toBe(false);
  });

  it('fold ASCII letters, so a case-insensitive search may skip too, and never by the letters that fold beyond ASCII', () => {
    expect(skips('DEPRECATED\n', 'deprecated', { caseInsensitive: true })).toBe(false);
    expect(skips('Deprecated\n', 'deprecated', { caseInsensitive: false })).toBe(false);
    // The Kelvin sign matches k, the long s matches s: a file may hold either instead.
    expect(skips('\u212Aelvin\n', 'kelvin', { caseInsensitive: true })).toBe(false);
    expect(skips('cla\u017F\u017F\n', 'class', { caseInsensitive: true })).toBe(false);
    expect(skips('GR\u00D6SSE\n', 'gr\u00F6\u00DFe', { caseInsensitive: true })).toBe(false);
  });

  it('keep the bytes every folded form of a non-ASCII letter shares, so a case-insensitive größe skips an ASCII file', () => {
    // ö and Ö share their lead byte: a file holding neither `gr` and that byte cannot match.
    expect(skips('export const size = 1;\n', 'gr\u00F6\u00DFe', { caseInsensitive: true })).toBe(true);
    for (const text of ['GR\u00D6\u1E9EE', 'gr\u00D6\u00DFE', 'Gr\u00F6\u00DFe']) expect(skips(`${text}\n`, 'gr\u00F6\u00DFe', { caseInsensitive: true }), text).toBe(false);
  });

  it('never skip a file holding any folded form of a case-insensitive literal', () => {
    const letters = ['a', 'k', 's', 'i', '\u00F6', '\u00DF', '\u00E9', '\u03C3', '\u0434', '\u01C5', '1', '-'];
    const literal = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(literal, fc.array(fc.nat()), (chars, picks) => {
        const written = chars.map((char, index) => {
          const forms = foldVariants(char);
          return forms[(picks[index] ?? 0) % forms.length] as string;
        });
        const text = `const before = 1;\n${written.join('')}\nconst after = 2;\n`;
        expect(skips(text, chars.join(''), { caseInsensitive: true, literal: true })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('know nothing for a pattern without a required literal in every alternative', () => {
    expect(compileSearchPattern('TODO|x+', { caseInsensitive: false }).trigrams).toEqual([]);
    expect(compileSearchPattern('(TODO|FIXME)', { caseInsensitive: false }).trigrams).toEqual([]);
    // An escaped bar is no alternation: never `a` or `bcd` alone.
    expect(compileSearchPattern('a\\|bcd', { caseInsensitive: false }).trigrams).toEqual([]);
    expect(compileSearchPattern('TODO|FIXME', { caseInsensitive: false }).trigrams).toEqual([trigramsOf(Buffer.from('TODO')), trigramsOf(Buffer.from('FIXME'))]);
  });
});
